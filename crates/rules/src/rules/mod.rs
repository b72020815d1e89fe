//! Rules: one module per command family. A rule reads one [`SimpleCommand`] and says what
//! it would destroy; it never parses shell text and never looks at the repository.
//!
//! Every rule is declared as a [`Rule`] with a stable id, its documentation and the commands
//! it must stop and must pass. The docs pages and a test are generated from the same
//! declaration, so the documentation cannot drift from the behaviour.

mod elsewhere;
mod fs;
mod git;
mod guard;
pub mod line;
mod mcp;
mod opts;
pub mod packs;
mod shell;
mod team;

use std::ops::Range;

use crate::settings::{Profile, Settings};
use crate::shell::{Elsewhere, SimpleCommand, Via, Word};

/// How bad a finding is. Protected findings are never overridden or turned into a question.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Tier {
    Destructive,
    /// A team's `[[ask]]` rule: always the person's question, whatever `on_destructive` says.
    Ask,
    Protected,
}

impl Tier {
    pub fn as_str(self) -> &'static str {
        match self {
            Tier::Destructive => "destructive",
            Tier::Ask => "ask",
            Tier::Protected => "protected",
        }
    }
}

/// A rule's declaration: identity, documentation and examples.
pub struct Rule {
    /// Stable, dotted id shown in every reason, the audit log and config.
    pub id: &'static str,
    /// What it catches, in one line.
    pub catches: &'static str,
    /// Why that matters: what is lost and why it cannot be got back.
    pub why: &'static str,
    /// The safe twin(s) an agent should use instead.
    pub instead: &'static str,
    /// What raises it to the protected tier, if anything.
    pub protected_when: Option<&'static str>,
    /// Only active in the strict profile.
    pub strict_only: bool,
    /// Commands it must stop (with context off, in the profile it belongs to).
    pub stops: &'static [&'static str],
    /// Commands that must pass: its safe twins and look-alikes.
    pub passes: &'static [&'static str],
}

/// An example for a rule that only the context can raise (a SQL file's statements are read
/// from the file; a file written over is lost only when git has no copy of it): the files
/// the folder the command runs in holds, untracked in a fresh repository, the command, and
/// whether the rule stops it there. The declaration's `stops` stay empty for such a rule; these take
/// their place in the tests.
pub struct WorldExample {
    pub rule: &'static Rule,
    pub files: &'static [(&'static str, &'static str)],
    pub command: &'static str,
    pub stops: bool,
}

/// Every example that needs files in the folder to show.
pub fn world_examples() -> impl Iterator<Item = &'static WorldExample> {
    packs::db::WORLD_EXAMPLES
        .iter()
        .chain(fs::overwrite::WORLD_EXAMPLES)
}

/// One destructive operation found in one command.
#[derive(Debug, Clone)]
pub struct Finding {
    pub rule: &'static Rule,
    pub tier: Tier,
    /// The command as the rule saw it, wrappers peeled.
    pub command: String,
    /// What running it destroys, in a phrase: "discards all uncommitted changes".
    pub loses: String,
    /// The concrete command to run instead; never one the guard would stop.
    pub safer: Option<String>,
    /// How to get the work back if it runs anyway.
    pub recovery: Option<String>,
    pub span: Range<usize>,
    pub via: Via,
    /// The command's arguments are partly unknown until it runs.
    pub uncertain: bool,
    /// The command carries the in-command override prefix `AGENT_GUARD_OFF=1`.
    pub inline_override: bool,
    /// What the repository context should look at to tell whether anything would be lost.
    pub subject: Subject,
    /// Only a finding when the context confirms a loss (rewriting history is harmless
    /// until the commits were pushed); dropped when the rules alone judge.
    pub needs_confirmation: bool,
    /// The `cd` arguments in effect where the command runs.
    pub dirs: Vec<Word>,
    /// The command's `NAME=value` prefixes: the environment it runs with (`GIT_DIR=...`).
    pub env: Vec<(String, Word)>,
    /// Where the command runs when that is not here (a container, a pod, another host):
    /// what lies there is not this machine's, but for the folders a new container mounts.
    pub elsewhere: Option<Elsewhere>,
    /// The task runner's recipe the command runs in, when it does.
    pub recipe: Option<Box<crate::shell::FromRecipe>>,
    /// The command stands in a loop: it may run again, over what its last round did.
    pub repeats: bool,
}

/// What a finding is about, in terms the context layer can check against the world.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subject {
    /// Nothing in the repository can show the command harmless.
    Nothing,
    /// A git command; `globals` are its global options (`-C dir`, `--git-dir=...`), so
    /// questions are asked of the same repository.
    Git {
        globals: Vec<String>,
        what: GitSubject,
    },
    /// The paths a recursive delete removes (rm targets, find starting points).
    Paths(Vec<Word>),
    /// A local `rsync --delete`: the destination loses what the sources lack.
    Mirror(Mirror),
    /// Paths in a Mercurial or Subversion working copy: what the tool's own status shows
    /// there tells whether the command loses anything.
    WorkingCopy(WorkingCopy),
    /// Single files a command deletes or writes over: lost only when their bytes exist
    /// nowhere else.
    Files(Vec<Replaced>),
    /// A file of SQL a database client runs (`psql -f reset.sql`, `mysql < reset.sql`): what
    /// it destroys shows only in the file.
    SqlFile {
        path: Word,
        dialect: packs::db::sql::Dialect,
        /// Run against a database in memory that the command makes: lost only if the file
        /// opens a database file.
        memory: bool,
        /// The database file it runs against (`sqlite3 app.db < reset.sql`), when it names one.
        database: Option<Word>,
    },
    /// SQL run against the database file named (`sqlite3 app.db 'DROP TABLE t'`): nothing is
    /// lost when no such file exists before the line, which then makes it.
    Database(Word),
}

pub use fs::overwrite::{Replaced, With};
pub use fs::rsync::Mirror;
pub use packs::vcs::WorkingCopy;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GitSubject {
    /// `reset --hard [target]`.
    ResetHard {
        target: Option<String>,
    },
    /// Working-tree paths overwritten; empty means the whole tree (`checkout -f`).
    Discard {
        paths: Vec<String>,
    },
    /// `git clean` with these arguments, minus the force, plus `--dry-run`, lists the loss.
    Clean {
        dry_run: Vec<String>,
    },
    BranchDelete {
        names: Vec<String>,
    },
    /// `checkout <name>`: a branch or commit to switch to, or else a path to overwrite.
    CheckoutOperand {
        name: String,
    },
    /// `update-ref -d <ref>`.
    RefDelete {
        name: String,
    },
    /// `stash drop [entry]`, or `stash clear` when `entry` is `None`.
    StashDrop {
        entry: Option<String>,
        clear: bool,
    },
    WorktreeRemove {
        path: String,
    },
    /// `push` that writes or deletes these remote branches on `remote` (`None`: the default
    /// remote). No branches: the ones git pushes by default, that is, the current branch.
    Push {
        remote: Option<String>,
        branches: Vec<String>,
        /// The push deletes these branches rather than writing them.
        delete: bool,
    },
    /// Branches (full ref names) moved to `to`, or, with `to` unknown (a fetch), to what the
    /// command brings; a name that does not exist yet is created.
    BranchMove {
        refs: Vec<String>,
        to: Option<String>,
        /// The refs are those of the repository at the folder the command runs in (`git push
        /// . a:b` names it by path), whatever repository `GIT_DIR` or `--git-dir` point to.
        by_path: bool,
    },
    /// Tracked paths overwritten or removed (empty: the whole tree), with `untracked` when
    /// untracked files in the way go too.
    Overwrite {
        paths: Vec<String>,
        untracked: bool,
    },
    /// Submodules whose working trees are discarded (empty: all of them).
    Submodules {
        paths: Vec<String>,
    },
    /// `commit --amend` (no upstream) or `rebase [upstream]` (`None`: the branch's upstream).
    Rewrite {
        amend: bool,
        upstream: Option<String>,
    },
}

impl std::fmt::Debug for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id)
    }
}

/// What a rule reports before the command's context is attached.
pub(crate) struct Hit {
    pub rule: &'static Rule,
    pub tier: Tier,
    pub loses: String,
    pub safer: Option<String>,
    pub recovery: Option<String>,
    pub subject: Subject,
    pub needs_confirmation: bool,
    /// Remote branches a push writes or deletes: naming a protected one makes it protected.
    pub branches: Vec<String>,
    /// Names of what a pack's finding destroys that its arguments do not show (the database
    /// or table in a SQL statement): naming production makes it protected.
    pub names: Vec<String>,
    /// A finding only where production is named (an outage: a workload deleted, scaled to
    /// zero or rolled back), dropped elsewhere: nothing is lost outside production.
    pub only_in_production: bool,
    /// What it is about is written out though its command's words are not: what `fd -x`
    /// runs on each file found is judged by fd's search, whose paths the line shows.
    pub written_out: bool,
}

impl Hit {
    pub fn new(rule: &'static Rule, tier: Tier, loses: impl Into<String>) -> Self {
        Hit {
            rule,
            tier,
            loses: loses.into(),
            safer: None,
            recovery: None,
            subject: Subject::Nothing,
            needs_confirmation: false,
            branches: Vec::new(),
            names: Vec::new(),
            only_in_production: false,
            written_out: false,
        }
    }

    pub fn branches(mut self, branches: &[&str]) -> Self {
        self.branches = branches.iter().map(|b| b.to_string()).collect();
        self
    }

    pub fn names(mut self, names: Vec<String>) -> Self {
        self.names = names;
        self
    }

    /// Marks it a finding only where production is named.
    pub fn only_in_production(mut self) -> Self {
        self.only_in_production = true;
        self
    }

    pub fn about(mut self, subject: Subject) -> Self {
        self.subject = subject;
        self
    }

    pub fn safer(mut self, safer: impl Into<String>) -> Self {
        self.safer = Some(safer.into());
        self
    }

    pub fn recovery(mut self, recovery: impl Into<String>) -> Self {
        self.recovery = Some(recovery.into());
        self
    }
}

/// Every rule of the core families, in documentation order; [`all`] adds the packs'.
pub static ALL: &[&Rule] = &[
    &git::RESET_HARD,
    &git::DISCARD_WORKTREE,
    &git::CLEAN_FORCE,
    &git::PUSH_FORCE,
    &git::PUSH_DELETE,
    &git::BRANCH_FORCE_DELETE,
    &git::STASH_DROP,
    &git::WORKTREE_FORCE_REMOVE,
    &git::TAG_DELETE,
    &git::REF_DELETE,
    &git::HISTORY_REWRITE,
    &git::RECOVERY_DESTROY,
    &git::BRANCH_MOVE,
    &git::PLUMBING_DISCARD,
    &git::SUBMODULE_DISCARD,
    &fs::RM_RECURSIVE,
    &fs::find::FIND_DELETE,
    &fs::sets::RM_SET,
    &fs::rsync::RSYNC_DELETE,
    &fs::RM_ANY,
    &fs::overwrite::RM_FILE,
    &fs::overwrite::OVERWRITE,
    &shell::DYNAMIC_COMMAND,
    &shell::UNANALYZABLE,
    &guard::TAMPER,
    &mcp::DESTRUCTIVE_TOOL,
];

/// Every rule: the core families, then each pack's, in documentation order.
pub fn all() -> impl Iterator<Item = &'static Rule> {
    ALL.iter()
        .copied()
        .chain(packs::PACKS.iter().flat_map(|p| p.rules.iter().copied()))
}

pub fn by_id(id: &str) -> Option<&'static Rule> {
    all().find(|r| r.id == id)
}

pub use git::{
    Aliases as GitAliases, alias_calls as git_alias_calls, alias_findings as git_alias_findings,
    clean_question as git_clean_question, configured_findings as git_configured_findings,
};
pub use mcp::{catalog as mcp_catalog, finding as mcp_tool};
pub use shell::{unanalyzable, unanalyzable_because};

/// How a rule family reads argv: exactly as the program would, or — when the program's name
/// was only guessed — refusing anything the program would reject.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reading {
    Known,
    Guessed,
}

/// All findings for one command.
pub fn check(cmd: &SimpleCommand, settings: &Settings) -> Vec<Finding> {
    let profile = settings.profile;
    let mut hits = match cmd.program() {
        Some(name) => {
            let mut hits = by_program(name, cmd.args(), profile, Reading::Known);
            hits.extend(packs::check(name, cmd, settings));
            // What `find -exec` runs is judged with the search that feeds it, by `find`'s
            // own reading of its tests.
            if cmd.via == Via::FindExec {
                if cmd
                    .fed_by
                    .first()
                    .is_some_and(|find| fs::find::narrows(find) || fs::find::covers_exec(find))
                {
                    hits.retain(|hit| hit.rule.id != fs::RM_RECURSIVE.id);
                }
            } else if cmd.via == Via::FdExec
                && let Some(found) = fs::listings::fd_exec(name, cmd)
            {
                // So is what `fd -x` runs, with fd's search.
                hits.retain(|hit| hit.rule.id != fs::RM_RECURSIVE.id);
                hits.extend(found);
            } else if cmd.input.is_some() || !cmd.fed_by.is_empty() {
                hits.extend(fed(name, cmd));
            }
            hits
        }
        None => shell::dynamic(cmd, profile),
    };
    // `cd /tmp/x && rm -rf *`: what the `cd` leads to is a temporary folder, not the project.
    if cmd.program() == Some("rm") && fs::in_temporary_folder(&cmd.dirs) {
        for hit in &mut hits {
            fs::lift_here(hit, cmd.args());
        }
    }
    // A `trap` action's plain `rm` is the exit-cleanup idiom (`trap 'rm -f $tmp' EXIT`):
    // there only recursive deletes are stopped, even in the strict profile.
    if cmd.via == Via::Trap {
        hits.retain(|hit| hit.rule.id != fs::RM_ANY.id);
    }
    hits.extend(fs::overwrite::check(cmd, cmd.program()));
    if let Some(place) = &cmd.elsewhere {
        hits.retain(|hit| !elsewhere::only_own_files(hit, place, &cmd.dirs));
        for hit in &mut hits {
            elsewhere::place(hit, place, &cmd.dirs, &settings.production);
        }
    }
    // Naming production raised what matters there to protected; the rest loses nothing.
    hits.retain(|hit| !hit.only_in_production || hit.tier == Tier::Protected);
    let team = team::check(cmd, &hits, settings);
    hits.extend(team);
    // Whatever the program, it must not write the guard's own files.
    hits.extend(guard::check(cmd));
    hits.into_iter()
        .map(|hit| finding(hit, cmd, settings))
        .collect()
}

/// The finding, if any, for a host's file-writing tool (`Write`, `Edit`, ...) about to
/// write `path`: only the guard's own files are off limits there.
pub fn file_edit(tool: &str, path: &str, settings: &Settings) -> Option<Finding> {
    let hit = guard::file_edit(path)?;
    let edit = SimpleCommand::of_words(vec![Word::literal(tool), Word::literal(path)]);
    Some(finding(hit, &edit, settings))
}

fn finding(hit: Hit, cmd: &SimpleCommand, settings: &Settings) -> Finding {
    let protected_branch = hit
        .branches
        .iter()
        .any(|b| settings.protected_branches.contains(b));
    Finding {
        rule: hit.rule,
        tier: if protected_branch {
            Tier::Protected
        } else {
            hit.tier
        },
        command: cmd.call.clone().unwrap_or_else(|| cmd.display()),
        loses: hit.loses,
        safer: hit.safer,
        recovery: hit.recovery,
        span: cmd.span.clone(),
        via: cmd.via,
        uncertain: cmd.uncertain && !hit.written_out || cmd.program().is_none(),
        inline_override: cmd.assigned("AGENT_GUARD_OFF") == Some("1"),
        subject: hit.subject,
        needs_confirmation: hit.needs_confirmation,
        dirs: cmd.dirs.clone(),
        env: cmd.assigns.clone(),
        elsewhere: cmd.elsewhere.clone(),
        recipe: cmd.recipe.clone(),
        repeats: false,
    }
}

/// Findings that rest on what a command reads rather than on its words: a deleter fed a
/// listing (`find . -name '*.c' | xargs rm`), ref deletions fed to `git update-ref --stdin`.
fn fed(name: &str, cmd: &SimpleCommand) -> Option<Hit> {
    match name {
        "git" => git::update_ref_stdin(cmd.args(), cmd.input.as_deref(), &cmd.fed_by),
        _ if !cmd.fed_by.is_empty() => fs::listings::check(name, cmd),
        _ => None,
    }
}

/// Dispatch on the program's name; `args` excludes the name itself.
pub(crate) fn by_program(
    name: &str,
    args: &[crate::shell::Word],
    profile: Profile,
    reading: Reading,
) -> Vec<Hit> {
    match name {
        "git" => git::check(args),
        "git-filter-repo" => vec![git::filter_repo()],
        // `rm`'s own options: the shredders and the others that read rm's spelling have more.
        "rm" if fs::refused(args) => Vec::new(),
        "rm" => fs::rm(args, profile, reading).into_iter().collect(),
        // rimraf deletes its operands recursively, as `rm -rf` does.
        "rimraf" => {
            let as_rm = [&[Word::literal("-rf")][..], args].concat();
            fs::rm(&as_rm, profile, reading).into_iter().collect()
        }
        // fs-extra's command line: `fse remove <path>` deletes it, folders and all.
        "fse" if args.first().is_some_and(|w| w.text == "remove") => {
            let rest = args.get(1..).unwrap_or_default();
            let as_rm = [&[Word::literal("-rf")][..], rest].concat();
            fs::rm(&as_rm, profile, reading).into_iter().collect()
        }
        // Not `del`, which del-cli installs too: in an agent's shell that name is mostly
        // Windows' own one-file delete.
        "del-cli" => fs::del_cli(args, profile, reading).into_iter().collect(),
        // The shredders overwrite before they unlink; recursive, they take a whole tree.
        "srm" | "wipe" if fs::secure_recursive(args) => {
            fs::rm(args, profile, reading).into_iter().collect()
        }
        "find" => fs::find::check(args).into_iter().collect(),
        "rsync" => fs::rsync::check(args).into_iter().collect(),
        _ => Vec::new(),
    }
}

/// Adds the findings of `new` that `found` does not hold yet (the same rule on the same
/// command).
pub fn add_unique(found: &mut Vec<Finding>, new: Vec<Finding>) {
    for finding in new {
        let seen = found
            .iter()
            .any(|f| f.rule.id == finding.rule.id && f.command == finding.command);
        if !seen {
            found.push(finding);
        }
    }
}
