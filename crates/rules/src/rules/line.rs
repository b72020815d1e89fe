//! What an earlier command of the same line settles about a later one's finding: a folder
//! the line made itself before deleting it, a checkout after a stash that left the work tree
//! clean.

use super::opts::{self, Opt, flag, valued};
use super::{Finding, Subject, Tier};
use crate::shell::{Analysis, SimpleCommand, Word};
use crate::syntax::writes;

/// The options of a `git stash` that still stashes every change.
const WHOLE_STASH: &[Opt] = &[
    flag("include-untracked", Some('u')),
    flag("all", Some('a')),
    flag("quiet", Some('q')),
    valued("message", Some('m')),
];

/// `found`, the findings of `analysis.commands[at]`, with what the commands written before
/// it settle: a recursive delete of folders an earlier `mkdir` made is only a finding when
/// the context confirms a loss (`mkdir -p` keeps what a folder already held), and a path
/// checkout after a whole `git stash` overwrites only what is committed.
pub fn settle(analysis: &Analysis, at: usize, found: Vec<Finding>) -> Vec<Finding> {
    let Some(cmd) = analysis.commands.get(at) else {
        return found;
    };
    let earlier = analysis.commands.get(..at).unwrap_or_default();
    found
        .into_iter()
        .filter(|f| !(f.rule.id == super::git::DISCARD_WORKTREE.id && after_stash(cmd, earlier)))
        .map(|mut f| {
            if f.rule.id == super::fs::RM_RECURSIVE.id
                && f.tier == Tier::Destructive
                && made_earlier(cmd, &f.subject, earlier)
            {
                f.needs_confirmation = true;
            }
            f
        })
        .collect()
}

/// Whether every path `subject` names is one an earlier `mkdir` of the line, run in the same
/// folder, made, and nothing after that `mkdir` may have moved anything into it: a `mv`, or a
/// program not known by name (`mkdir old && mv draft.md old/ && rm -rf old` loses the draft).
fn made_earlier(cmd: &SimpleCommand, subject: &Subject, earlier: &[SimpleCommand]) -> bool {
    let Subject::Paths(targets) = subject else {
        return false;
    };
    let Some(first) = earlier
        .iter()
        .position(|e| e.program() == Some("mkdir") && e.dirs == cmd.dirs)
    else {
        return false;
    };
    let moves = |e: &SimpleCommand| match e.program() {
        None | Some("mv") => true,
        Some("git") => e.args().first().is_some_and(|w| w.text == "mv"),
        Some(program) => program.eq_ignore_ascii_case("move-item") || program == "rsync",
    };
    if earlier.get(first..).unwrap_or_default().iter().any(moves) {
        return false;
    }
    let made: Vec<String> = earlier
        .iter()
        .filter(|e| e.program() == Some("mkdir") && e.dirs == cmd.dirs)
        .flat_map(|e| writes::of("mkdir", e.args()).writes)
        .filter_map(|made| Some(made.path.value()?.trim_end_matches('/').to_string()))
        .collect();
    !targets.is_empty()
        && targets.iter().all(|t| {
            t.value()
                .is_some_and(|t| made.iter().any(|m| m == t.trim_end_matches('/')))
        })
}

/// Whether an earlier `git stash` (or `stash push`/`save`) of every uncommitted change ran in
/// the same folder, with nothing but git commands that leave the tree clean after it: what
/// `cmd` then overwrites is committed, and the stash keeps what was not.
fn after_stash(cmd: &SimpleCommand, earlier: &[SimpleCommand]) -> bool {
    // `git -C ../other checkout -f` after a stash here overwrites another tree's work.
    if !in_its_folder(cmd) {
        return false;
    }
    let Some(stash) = earlier
        .iter()
        .rposition(|e| whole_stash(e) && e.dirs == cmd.dirs && in_its_folder(e))
    else {
        return false;
    };
    earlier
        .get(stash + 1..)
        .unwrap_or_default()
        .iter()
        .all(|e| {
            e.program() == Some("git")
                && e.args().first().and_then(Word::value).is_some_and(|sub| {
                    matches!(
                        sub,
                        "switch"
                            | "checkout"
                            | "pull"
                            | "fetch"
                            | "status"
                            | "log"
                            | "diff"
                            | "show"
                            | "branch"
                            | "rev-parse"
                            | "add"
                            | "commit"
                    )
                })
        })
}

/// Whether git command `cmd` works on the repository of the folder it runs in: no global
/// option (`-C`, `--git-dir`, `--work-tree`) and no `GIT_*` variable points it elsewhere.
fn in_its_folder(cmd: &SimpleCommand) -> bool {
    crate::syntax::git::read(cmd.args()).prefix().is_empty()
        && cmd
            .assigns
            .iter()
            .all(|(name, _)| !name.starts_with("GIT_"))
}

/// `git stash`, `git stash push` or `git stash save` of every change to tracked files
/// (untracked ones too with `-u`/`-a`): no pathspec, no `--keep-index`, `--patch` or
/// `--staged`.
fn whole_stash(cmd: &SimpleCommand) -> bool {
    if cmd.program() != Some("git") {
        return false;
    }
    let mut args = cmd.args().iter();
    if args.next().and_then(Word::value) != Some("stash") {
        return false;
    }
    let mut rest = args.as_slice();
    if rest
        .first()
        .and_then(|w| w.value())
        .is_some_and(|sub| matches!(sub, "push" | "save"))
    {
        rest = rest.get(1..).unwrap_or_default();
    }
    // Any other option (`--keep-index`, `--patch`, `--staged`) or a pathspec leaves work out.
    let p = opts::parse(rest, WHOLE_STASH);
    !p.unknown
        && p.operands.is_empty()
        && p.opts
            .iter()
            .all(|o| rest.get(o.word).is_some_and(|w| w.literal))
}
