//! git: the subcommands that throw away work git cannot give back, or can give back only
//! from the reflog for a while.
//!
//! argv is read as git reads it: global options before the subcommand (`-C`, `-c`,
//! `--git-dir`, ...), combined short flags, unambiguous long-option abbreviations, `--`.

use super::opts::{self, Opt, Parsed, flag, optional, valued};
use super::{GitSubject, Hit, Rule, Subject, Tier};
use crate::shell::Word;
use crate::shell::word::quote;

pub static RESET_HARD: Rule = Rule {
    id: "git.reset-hard",
    catches: "`git reset --hard` (and its abbreviations such as `--ha`)",
    why: "It overwrites the index and every tracked file in the working tree with the target \
          commit. Uncommitted edits are not saved anywhere, so they are gone for good; commits \
          the branch pointed to before survive only in the reflog.",
    instead: "`git reset --keep <commit>` moves the branch but refuses to overwrite uncommitted \
              changes; `git reset --soft <commit>` keeps them staged; `git stash push` first \
              saves them.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "git reset --hard",
        "git reset --hard HEAD~2",
        "git -C repo reset --ha origin/main",
    ],
    passes: &[
        "git reset --soft HEAD~1",
        "git reset --mixed",
        "git reset --keep HEAD~1",
        "git reset HEAD file.txt",
    ],
};

pub static DISCARD_WORKTREE: Rule = Rule {
    id: "git.discard-worktree",
    catches: "`git checkout -- <paths>`, `git checkout <commit> <paths>`, `git checkout -f`, \
              `git switch -f`/`--discard-changes`, and `git restore <paths>` of the working tree",
    why: "These overwrite files in the working tree with a committed version. Edits that were \
          never committed or stashed are not kept anywhere and cannot be recovered.",
    instead: "`git stash push -- <paths>` keeps the edits retrievable (`git stash pop`); \
              `git restore --staged <paths>` only unstages; `git switch <branch>` without `-f` \
              refuses to drop changes.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "git checkout -- .",
        "git checkout HEAD -- src/lib.rs",
        "git checkout -f main",
        "git switch --discard-changes main",
        "git restore .",
        "git restore --source=HEAD~1 README.md",
    ],
    passes: &[
        "git checkout main",
        "git checkout -b feature/x",
        "git restore --staged file.txt",
        "git switch main",
        "git checkout -",
    ],
};

pub static CLEAN_FORCE: Rule = Rule {
    id: "git.clean-force",
    catches: "`git clean -f` in any spelling (`-fd`, `-xdf`, `--force`) without `-n`/`--dry-run`/`-i`",
    why: "git clean deletes files git does not track: work that was never committed, so git \
          has no copy of it. With `-x`/`-X` it also deletes ignored files such as `.env` and \
          local configuration.",
    instead: "`git clean -n` (the same flags with `-n`) lists what would go; then delete only \
              what you mean by name, or `git clean -i` to choose.",
    protected_when: Some("with `-x` or `-X` (ignored files such as `.env` go too)"),
    strict_only: false,
    stops: &[
        "git clean -f",
        "git clean -fd",
        "git clean --force -d",
        "git clean -fdx",
    ],
    passes: &[
        "git clean -n",
        "git clean -nd",
        "git clean -fn",
        "git clean -i",
        "git clean --dry-run -fdx",
    ],
};

pub static PUSH_FORCE: Rule = Rule {
    id: "git.push-force",
    catches: "`git push -f`/`--force` (even with a lease), `+<ref>` refspecs, `--mirror`",
    why: "A forced push replaces the remote branch with yours. Commits others pushed since you \
          last fetched disappear from the remote, and nobody is told.",
    instead: "`git push --force-with-lease` refuses when the remote has commits you have not \
              seen; add `--force-if-includes` to also require that you integrated them.",
    protected_when: Some(
        "to a protected branch (`main`, `master`, the remote's default branch, or those named in \
         `protected_branches`), or with `--all`/`--mirror`",
    ),
    strict_only: false,
    stops: &[
        "git push --force origin feature",
        "git push -f",
        "git push origin +feature",
        "git push --force --force-with-lease origin x",
    ],
    passes: &[
        "git push --force-with-lease origin feature",
        "git push origin feature",
        "git push --dry-run --force origin feature",
    ],
};

pub static PUSH_DELETE: Rule = Rule {
    id: "git.push-delete",
    catches: "`git push --delete <ref>`, `git push <remote> :<ref>`, `git push --prune`",
    why: "It deletes branches or tags on the remote. Commits only that branch held are gone \
          from the remote for everyone.",
    instead: "Ask the user before deleting a remote branch; `git push --dry-run --delete ...` \
              shows what would be deleted.",
    protected_when: Some(
        "when a protected branch (`main`, `master`, the remote's default branch, or those named \
         in `protected_branches`) would be deleted, or with `--mirror`",
    ),
    strict_only: false,
    stops: &[
        "git push origin --delete feature",
        "git push origin :feature",
        "git push -d origin old",
    ],
    passes: &[
        "git push origin feature",
        "git push --dry-run --delete origin feature",
    ],
};

pub static BRANCH_FORCE_DELETE: Rule = Rule {
    id: "git.branch-force-delete",
    catches: "`git branch -D`, `-d -f`, `-df`, `--delete --force`",
    why: "A forced delete removes the branch even when its commits are merged nowhere; those \
          commits are then reachable only from the reflog until it expires.",
    instead: "`git branch -d <branch>` deletes only a branch that is fully merged.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "git branch -D feature/x",
        "git branch -df old",
        "git branch --delete --force old",
    ],
    passes: &[
        "git branch -d merged",
        "git branch feature",
        "git branch -dr origin/old",
    ],
};

pub static STASH_DROP: Rule = Rule {
    id: "git.stash-drop",
    catches: "`git stash drop`, `git stash clear`",
    why: "A stash is often the only copy of set-aside work. Dropping it leaves an unreferenced \
          commit that `git gc` will delete.",
    instead: "`git stash show -p <stash>` to look first; `git stash branch <name> <stash>` keeps \
              it as a branch; `git stash pop` applies and drops only if it applied cleanly.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "git stash drop",
        "git stash drop stash@{1}",
        "git stash clear",
    ],
    passes: &[
        "git stash",
        "git stash pop",
        "git stash apply",
        "git stash list",
    ],
};

pub static WORKTREE_FORCE_REMOVE: Rule = Rule {
    id: "git.worktree-force-remove",
    catches: "`git worktree remove -f`/`--force`",
    why: "Forcing the removal deletes the worktree's folder even when it holds uncommitted or \
          untracked work.",
    instead: "`git worktree remove <path>` refuses when the worktree is not clean.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "git worktree remove --force ../wt",
        "git worktree remove -f ../wt",
    ],
    passes: &[
        "git worktree remove ../wt",
        "git worktree list",
        "git worktree prune",
    ],
};

pub static TAG_DELETE: Rule = Rule {
    id: "git.tag-delete",
    catches: "`git tag -d`/`--delete`",
    why: "Release tags are how people find a version; deleting one loses the name and, for an \
          annotated tag, its message and signature.",
    instead: "Ask the user first; `git tag -l` lists tags.",
    protected_when: None,
    strict_only: false,
    stops: &["git tag -d v1.0", "git tag --delete v1.0"],
    passes: &["git tag v1.0", "git tag -l", "git tag -a v1.1 -m release"],
};

pub static REF_DELETE: Rule = Rule {
    id: "git.ref-delete",
    catches: "`git update-ref -d`",
    why: "Deleting a ref directly skips every safety check `git branch -d` makes; commits only \
          it pointed to become unreachable.",
    instead: "`git branch -d <branch>` for branches; ask the user for anything else.",
    protected_when: None,
    strict_only: false,
    stops: &["git update-ref -d refs/heads/old"],
    passes: &["git update-ref refs/heads/new HEAD", "git show-ref"],
};

pub static HISTORY_REWRITE: Rule = Rule {
    id: "git.history-rewrite",
    catches: "`git filter-branch`, `git filter-repo`; and `git rebase` / `git commit --amend` \
              when repository context shows the commits they rewrite are already on a remote",
    why: "Rewriting history replaces every commit it touches; once pushed, others' clones \
          diverge, and filter tools rewrite every branch at once. Rewriting commits nobody \
          else has is the agent's own business, so rebase and amend are only stopped when \
          the repository shows them published (with the rules alone they pass).",
    instead: "Make a backup ref first (`git branch backup/before-rewrite`) and ask the user; \
              rewrite only local, unpushed commits.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "git filter-branch --tree-filter x",
        "git filter-repo --path src",
    ],
    passes: &[
        "git rebase --continue",
        "git rebase --abort",
        "git log --oneline",
        "git commit --amend --no-edit",
    ],
};

pub static RECOVERY_DESTROY: Rule = Rule {
    id: "git.recovery-destroy",
    catches: "`git reflog expire --expire=now`, `git gc --prune=now`, `git prune`",
    why: "The reflog and unreachable objects are how lost commits and dropped stashes are \
          recovered. Expiring them now removes the last way back.",
    instead: "`git gc` keeps the default grace period (two weeks for unreachable objects).",
    protected_when: None,
    strict_only: false,
    stops: &[
        "git reflog expire --expire=now --all",
        "git gc --prune=now",
        "git prune",
    ],
    passes: &["git gc", "git reflog", "git prune --dry-run"],
};

const RESET: &[Opt] = &[
    flag("quiet", Some('q')),
    flag("no-quiet", None),
    flag("mixed", None),
    flag("soft", None),
    flag("hard", None),
    flag("merge", None),
    flag("keep", None),
    optional("recurse-submodules"),
    flag("no-recurse-submodules", None),
    flag("patch", Some('p')),
    flag("intent-to-add", Some('N')),
    valued("pathspec-from-file", None),
    flag("pathspec-file-nul", None),
    flag("refresh", None),
    flag("no-refresh", None),
];

const CLEAN: &[Opt] = &[
    flag("d", Some('d')),
    flag("force", Some('f')),
    flag("no-force", None),
    flag("interactive", Some('i')),
    flag("dry-run", Some('n')),
    flag("quiet", Some('q')),
    valued("exclude", Some('e')),
    flag("x", Some('x')),
    flag("X", Some('X')),
];

const PUSH: &[Opt] = &[
    flag("all", None),
    flag("branches", None),
    flag("mirror", None),
    flag("tags", None),
    flag("follow-tags", None),
    flag("no-follow-tags", None),
    flag("dry-run", Some('n')),
    flag("porcelain", None),
    flag("delete", Some('d')),
    flag("prune", None),
    flag("no-prune", None),
    flag("force", Some('f')),
    flag("no-force", None),
    optional("force-with-lease"),
    flag("no-force-with-lease", None),
    flag("force-if-includes", None),
    flag("no-force-if-includes", None),
    valued("repo", None),
    flag("set-upstream", Some('u')),
    flag("no-set-upstream", None),
    flag("thin", None),
    flag("no-thin", None),
    valued("receive-pack", None),
    valued("exec", None),
    flag("quiet", Some('q')),
    flag("verbose", Some('v')),
    flag("progress", None),
    flag("no-progress", None),
    valued("recurse-submodules", None),
    flag("no-recurse-submodules", None),
    flag("atomic", None),
    flag("no-atomic", None),
    valued("push-option", Some('o')),
    optional("signed"),
    flag("no-signed", None),
    flag("verify", None),
    flag("no-verify", None),
    flag("ipv4", Some('4')),
    flag("ipv6", Some('6')),
];

const BRANCH: &[Opt] = &[
    flag("delete", Some('d')),
    flag("D", Some('D')),
    flag("force", Some('f')),
    flag("move", Some('m')),
    flag("M", Some('M')),
    flag("copy", Some('c')),
    flag("C", Some('C')),
    flag("remotes", Some('r')),
    flag("all", Some('a')),
    flag("list", Some('l')),
    flag("verbose", Some('v')),
    flag("quiet", Some('q')),
    optional("track"),
    flag("t", Some('t')),
    flag("no-track", None),
    valued("set-upstream-to", Some('u')),
    flag("unset-upstream", None),
    optional("color"),
    flag("no-color", None),
    optional("column"),
    flag("no-column", None),
    valued("sort", None),
    optional("merged"),
    optional("no-merged"),
    optional("contains"),
    optional("no-contains"),
    optional("points-at"),
    valued("format", None),
    flag("show-current", None),
    flag("edit-description", None),
    flag("create-reflog", None),
    flag("recurse-submodules", None),
    flag("ignore-case", Some('i')),
    flag("omit-empty", None),
    optional("abbrev"),
    flag("no-abbrev", None),
];

const WORKTREE_REMOVE: &[Opt] = &[flag("force", Some('f'))];

const TAG: &[Opt] = &[
    flag("delete", Some('d')),
    flag("list", Some('l')),
    flag("annotate", Some('a')),
    flag("sign", Some('s')),
    valued("local-user", Some('u')),
    flag("force", Some('f')),
    valued("message", Some('m')),
    valued("file", Some('F')),
    flag("verify", Some('v')),
    optional("n"),
];

const UPDATE_REF: &[Opt] = &[
    flag("delete", Some('d')),
    valued("m", Some('m')),
    flag("no-deref", None),
    flag("create-reflog", None),
    flag("stdin", None),
    flag("z", Some('z')),
];

const CHECKOUT: &[Opt] = &[
    flag("quiet", Some('q')),
    flag("no-quiet", None),
    flag("progress", None),
    flag("no-progress", None),
    flag("force", Some('f')),
    flag("ours", Some('2')),
    flag("theirs", Some('3')),
    valued("b", Some('b')),
    valued("B", Some('B')),
    optional("track"),
    flag("t", Some('t')),
    flag("no-track", None),
    flag("guess", None),
    flag("no-guess", None),
    flag("l", Some('l')),
    flag("detach", Some('d')),
    valued("orphan", None),
    flag("overlay", None),
    flag("no-overlay", None),
    flag("merge", Some('m')),
    valued("conflict", None),
    flag("patch", Some('p')),
    flag("ignore-skip-worktree-bits", None),
    flag("ignore-other-worktrees", None),
    flag("overwrite-ignore", None),
    flag("no-overwrite-ignore", None),
    optional("recurse-submodules"),
    flag("no-recurse-submodules", None),
    valued("pathspec-from-file", None),
    flag("pathspec-file-nul", None),
];

const SWITCH: &[Opt] = &[
    valued("create", Some('c')),
    valued("force-create", Some('C')),
    flag("detach", Some('d')),
    flag("guess", None),
    flag("no-guess", None),
    flag("force", Some('f')),
    flag("discard-changes", None),
    flag("merge", Some('m')),
    valued("conflict", None),
    flag("quiet", Some('q')),
    flag("no-quiet", None),
    flag("progress", None),
    flag("no-progress", None),
    optional("track"),
    flag("t", Some('t')),
    flag("no-track", None),
    valued("orphan", None),
    flag("ignore-other-worktrees", None),
    optional("recurse-submodules"),
    flag("no-recurse-submodules", None),
];

const RESTORE: &[Opt] = &[
    valued("source", Some('s')),
    flag("patch", Some('p')),
    flag("worktree", Some('W')),
    flag("no-worktree", None),
    flag("staged", Some('S')),
    flag("no-staged", None),
    flag("quiet", Some('q')),
    flag("progress", None),
    flag("no-progress", None),
    flag("ours", Some('2')),
    flag("theirs", Some('3')),
    flag("merge", Some('m')),
    valued("conflict", None),
    flag("ignore-unmerged", None),
    flag("ignore-skip-worktree-bits", None),
    optional("recurse-submodules"),
    flag("no-recurse-submodules", None),
    flag("overlay", None),
    flag("no-overlay", None),
    valued("pathspec-from-file", None),
    flag("pathspec-file-nul", None),
];

const REFLOG_EXPIRE: &[Opt] = &[
    optional("expire"),
    optional("expire-unreachable"),
    flag("rewrite", None),
    flag("updateref", None),
    flag("stale-fix", None),
    flag("dry-run", Some('n')),
    flag("verbose", None),
    flag("all", None),
    flag("single-worktree", None),
];

const GC: &[Opt] = &[
    flag("aggressive", None),
    flag("auto", None),
    flag("detach", None),
    flag("no-detach", None),
    optional("prune"),
    flag("no-prune", None),
    flag("quiet", Some('q')),
    flag("force", None),
    flag("keep-largest-pack", None),
    optional("cruft"),
    flag("no-cruft", None),
    valued("max-cruft-size", None),
];

const REBASE: &[Opt] = &[
    flag("continue", None),
    flag("abort", None),
    flag("skip", None),
    flag("quit", None),
    flag("edit-todo", None),
    flag("show-current-patch", None),
    flag("root", None),
    valued("onto", None),
    flag("interactive", Some('i')),
    valued("exec", Some('x')),
    valued("strategy", Some('s')),
    valued("strategy-option", Some('X')),
    flag("merge", Some('m')),
    flag("quiet", Some('q')),
    flag("verbose", Some('v')),
    optional("autosquash"),
    flag("no-autosquash", None),
    optional("autostash"),
    flag("no-autostash", None),
    optional("rebase-merges"),
    flag("keep-base", None),
    flag("fork-point", None),
    flag("no-fork-point", None),
    optional("gpg-sign"),
    flag("S", Some('S')),
    flag("force-rebase", Some('f')),
    flag("no-ff", None),
    flag("update-refs", None),
    valued("empty", None),
    flag("stat", None),
    flag("no-stat", None),
    flag("n", Some('n')),
    flag("signoff", None),
    flag("committer-date-is-author-date", None),
    flag("reset-author-date", None),
    flag("ignore-date", None),
    flag("ignore-whitespace", None),
    valued("whitespace", None),
    valued("C", Some('C')),
    flag("reapply-cherry-picks", None),
    flag("no-reapply-cherry-picks", None),
    flag("apply", None),
    flag("verify", None),
    flag("no-verify", None),
    flag("rerere-autoupdate", None),
    flag("no-rerere-autoupdate", None),
];

const COMMIT: &[Opt] = &[
    flag("amend", None),
    flag("all", Some('a')),
    valued("message", Some('m')),
    valued("file", Some('F')),
    valued("reuse-message", Some('C')),
    valued("reedit-message", Some('c')),
    valued("fixup", None),
    valued("squash", None),
    valued("author", None),
    valued("date", None),
    valued("template", Some('t')),
    flag("signoff", Some('s')),
    flag("no-edit", None),
    flag("edit", Some('e')),
    flag("no-verify", Some('n')),
    flag("verify", None),
    flag("allow-empty", None),
    flag("allow-empty-message", None),
    flag("quiet", Some('q')),
    flag("verbose", Some('v')),
    flag("patch", Some('p')),
    flag("include", Some('i')),
    flag("only", Some('o')),
    optional("gpg-sign"),
    flag("S", Some('S')),
    valued("cleanup", None),
    optional("untracked-files"),
    flag("u", Some('u')),
    flag("dry-run", None),
    flag("interactive", None),
    flag("reset-author", None),
    valued("pathspec-from-file", None),
    flag("pathspec-file-nul", None),
    valued("trailer", None),
    flag("no-post-rewrite", None),
    flag("status", None),
    flag("no-status", None),
];

const PRUNE: &[Opt] = &[
    flag("dry-run", Some('n')),
    flag("verbose", Some('v')),
    flag("progress", None),
    valued("expire", None),
];

/// Subcommand and its arguments, after git's own global options.
struct Invocation<'a> {
    sub: &'a str,
    args: &'a [Word],
    /// The global options as written, so suggested commands keep `-C dir` and friends.
    prefix: &'a [Word],
}

impl Invocation<'_> {
    /// `git <global options> <sub> <words>` as a command line.
    fn line(&self, words: &[String]) -> String {
        let mut out = vec!["git".to_string()];
        out.extend(self.prefix.iter().map(Word::shell_quoted));
        out.push(self.sub.to_string());
        out.extend(words.iter().cloned());
        out.join(" ")
    }
}

/// Skips git's global options. `None` when no subcommand runs (`git --version`).
fn invocation(args: &[Word]) -> Option<Invocation<'_>> {
    let mut i = 0;
    while let Some(word) = args.get(i) {
        let w = word.text.as_str();
        match w {
            "-C" | "-c" | "--git-dir" | "--work-tree" | "--namespace" | "--super-prefix"
            | "--config-env" | "--list-cmds" => i += 2,
            "--version" | "-v" | "--help" | "-h" | "--html-path" | "--man-path" | "--info-path"
            | "--exec-path" => return None,
            _ if w.starts_with('-') => i += 1,
            _ => break,
        }
    }
    let sub = args.get(i)?.value()?;
    let rest = &args[i + 1..];
    // `git <sub> --help` / `-h` only prints usage; so does `git help <sub>`.
    let before_dashdash = rest.iter().take_while(|w| w.text != "--");
    if sub == "help"
        || before_dashdash
            .clone()
            .any(|w| w.text == "--help" || w.text == "-h")
    {
        return None;
    }
    Some(Invocation {
        sub,
        args: rest,
        prefix: &args[..i],
    })
}

pub(super) fn check(args: &[Word]) -> Option<Hit> {
    let inv = invocation(args)?;
    match inv.sub {
        "reset" => reset(&inv),
        "checkout" => checkout(&inv),
        "switch" => switch(&inv),
        "restore" => restore(&inv),
        "clean" => clean(&inv),
        "push" => push(&inv),
        "branch" => branch(&inv),
        "stash" => stash(&inv),
        "worktree" => worktree(&inv),
        "tag" => tag(&inv),
        "update-ref" => update_ref(&inv),
        "filter-branch" => Some(filter_repo()),
        "filter-repo" => Some(filter_repo()),
        "reflog" => reflog(&inv),
        "gc" => gc(&inv),
        "prune" => prune(&inv),
        "rebase" => rebase(&inv),
        "commit" => amend(&inv),
        _ => None,
    }
    .map(|mut hit| {
        // Context must ask the same repository the command acts on.
        if let Subject::Git { globals, .. } = &mut hit.subject {
            if inv.prefix.iter().all(|w| w.literal) {
                *globals = inv.prefix.iter().map(|w| w.text.clone()).collect();
            } else {
                hit.subject = Subject::Nothing;
            }
        }
        hit
    })
}

/// A `git` call whose subcommand may be an alias.
pub struct AliasCall {
    pub globals: Vec<String>,
    pub name: String,
    pub rest: Vec<Word>,
}

/// git's own commands, which an alias cannot shadow, and common add-ons.
const SUBCOMMANDS: &[&str] = &[
    "add",
    "am",
    "annotate",
    "apply",
    "archive",
    "bisect",
    "blame",
    "branch",
    "bundle",
    "cat-file",
    "check-attr",
    "check-ignore",
    "check-ref-format",
    "checkout",
    "cherry",
    "cherry-pick",
    "citool",
    "clean",
    "clone",
    "commit",
    "commit-graph",
    "commit-tree",
    "config",
    "count-objects",
    "describe",
    "diff",
    "diff-files",
    "diff-index",
    "diff-tree",
    "difftool",
    "fetch",
    "filter-branch",
    "for-each-ref",
    "format-patch",
    "fsck",
    "gc",
    "grep",
    "gui",
    "hash-object",
    "help",
    "init",
    "instaweb",
    "log",
    "ls-files",
    "ls-remote",
    "ls-tree",
    "maintenance",
    "merge",
    "merge-base",
    "mergetool",
    "mv",
    "notes",
    "pull",
    "push",
    "range-diff",
    "rebase",
    "reflog",
    "remote",
    "repack",
    "replace",
    "request-pull",
    "reset",
    "restore",
    "rev-list",
    "rev-parse",
    "revert",
    "rm",
    "shortlog",
    "show",
    "show-branch",
    "show-ref",
    "sparse-checkout",
    "stash",
    "status",
    "submodule",
    "switch",
    "symbolic-ref",
    "tag",
    "update-index",
    "update-ref",
    "var",
    "verify-commit",
    "verify-tag",
    "version",
    "whatchanged",
    "worktree",
    "write-tree",
    "lfs",
    "flow",
    "filter-repo",
    "credential",
    "prune",
    "read-tree",
    "send-email",
    "svn",
    "p4",
    "scalar",
];

pub(super) fn alias_call(args: &[Word]) -> Option<AliasCall> {
    let inv = invocation(args)?;
    if SUBCOMMANDS.contains(&inv.sub) || !inv.prefix.iter().all(|w| w.literal) {
        return None;
    }
    Some(AliasCall {
        globals: inv.prefix.iter().map(|w| w.text.clone()).collect(),
        name: inv.sub.to_string(),
        rest: inv.args.to_vec(),
    })
}

/// A subject in the repository the command runs in (`check` fills in the global options).
fn about(what: GitSubject) -> Subject {
    Subject::Git {
        globals: Vec::new(),
        what,
    }
}

/// Words as plain texts, or `None` when any is only known at run time.
fn texts(words: &[&Word]) -> Option<Vec<String>> {
    words
        .iter()
        .map(|w| w.value().map(str::to_string))
        .collect()
}

fn parse<'a>(inv: &Invocation<'a>, table: &[Opt]) -> Parsed<'a> {
    opts::parse(inv.args, table)
}

/// The same git command with each word at a listed index replaced (or dropped, for `None`).
fn rewrite(inv: &Invocation, replace: &[(usize, Option<String>)]) -> String {
    inv.line(&rewritten_args(inv, replace))
}

fn rewritten_args(inv: &Invocation, replace: &[(usize, Option<String>)]) -> Vec<String> {
    inv.args
        .iter()
        .enumerate()
        .filter_map(|(i, w)| match replace.iter().find(|(at, _)| *at == i) {
            Some((_, with)) => with.clone(),
            None => Some(w.shell_quoted()),
        })
        .collect()
}

/// Replacements that drop the letter `f` from short clusters (`-fq` → `-q`) and drop the
/// long spellings of the given options entirely.
fn drop_force(inv: &Invocation, p: &Parsed, names: &[&str]) -> Vec<(usize, Option<String>)> {
    p.opts
        .iter()
        .filter(|o| names.contains(&o.name))
        .map(|o| {
            let word = &inv.args[o.word].text;
            let kept = if word.starts_with("--") {
                String::new()
            } else {
                word.replace('f', "")
            };
            (o.word, (kept.len() > 1).then_some(kept))
        })
        .collect()
}

fn reset(inv: &Invocation) -> Option<Hit> {
    let p = parse(inv, RESET);
    if p.last_of(&["mixed", "soft", "hard", "merge", "keep"]) != Some("hard") {
        return None;
    }
    let hard_words: Vec<_> = p
        .opts
        .iter()
        .filter(|o| o.name == "hard")
        .map(|o| o.word)
        .collect();
    let target = p.operands.first().map(|(_, w)| w.text.as_str());
    let mut replace: Vec<(usize, Option<String>)> = Vec::new();
    for (n, at) in hard_words.iter().enumerate() {
        replace.push((*at, (n == 0).then(|| "--keep".to_string())));
    }
    let hit = match target.filter(|t| *t != "HEAD") {
        Some(t) => Hit::new(
            &RESET_HARD,
            Tier::Destructive,
            format!(
                "discards every uncommitted change to tracked files and moves the branch to \
                 `{t}`; commits after it stay reachable only from the reflog"
            ),
        )
        .safer(format!(
            "`{}` (moves the branch but refuses to overwrite uncommitted changes), or `git stash push` first",
            rewrite(inv, &replace)
        ))
        .recovery(
            "uncommitted edits cannot be recovered; moved-away commits: `git reflog`, then \
             `git reset --keep <sha>`",
        ),
        None => Hit::new(
            &RESET_HARD,
            Tier::Destructive,
            "discards every uncommitted change to tracked files (staged and unstaged)",
        )
        .safer("`git stash push` sets the changes aside (`git stash pop` brings them back)")
        .recovery("none: uncommitted edits were never saved by git"),
    };
    let subject = match p.operands.first() {
        Some((_, w)) if !w.literal => Subject::Nothing,
        _ => about(GitSubject::ResetHard {
            target: target.map(str::to_string),
        }),
    };
    Some(hit.about(subject))
}

/// A single operand that can only be a path, never a branch.
fn looks_like_path(w: &Word) -> bool {
    let t = w.text.as_str();
    !w.literal
        || matches!(t, "." | ".." | "*" | ":/")
        || t.starts_with("./")
        || t.starts_with("../")
        || t.starts_with(":(")
        || t.ends_with('/')
}

fn discard(paths: &[&Word], what: &str) -> Hit {
    let shown = list(paths.iter().map(|w| w.text.as_str()));
    let pathspec: Vec<String> = paths.iter().map(|w| w.shell_quoted()).collect();
    let stash = if pathspec.is_empty() {
        "git stash push".to_string()
    } else {
        format!("git stash push -- {}", pathspec.join(" "))
    };
    Hit::new(
        &DISCARD_WORKTREE,
        Tier::Destructive,
        format!("{what} {shown}, discarding their uncommitted edits"),
    )
    .safer(format!(
        "`{stash}` keeps the edits (`git stash pop` brings them back)"
    ))
    .recovery("discarded edits were never saved by git and cannot be recovered")
    .about(match texts(paths) {
        Some(paths) if !paths.is_empty() => about(GitSubject::Discard { paths }),
        _ => Subject::Nothing,
    })
}

fn checkout(inv: &Invocation) -> Option<Hit> {
    let p = parse(inv, CHECKOUT);
    if p.has("patch") {
        return None; // interactive: asks about every hunk
    }
    let creates = p.has("b") || p.has("B") || p.has("orphan");
    if p.has("force") {
        return Some(forced_switch(rewrite(
            inv,
            &drop_force(inv, &p, &["force"]),
        )));
    }
    if creates {
        return None;
    }
    let from_file = p.has("pathspec-from-file");
    let operands: Vec<&Word> = p.operands.iter().map(|(_, w)| *w).collect();
    let paths: Vec<&Word> = match p.after_dashdash {
        Some(at) => operands[at..].to_vec(),
        None if operands.len() >= 2 => operands[1..].to_vec(),
        None if operands.len() == 1 && looks_like_path(operands[0]) => operands.clone(),
        None => Vec::new(),
    };
    if paths.is_empty() && !from_file {
        // `git checkout name`: a branch to switch to, or a file to overwrite. Only the
        // repository can tell, so this stands only if context shows lost edits.
        return match operands.as_slice() {
            [only] if p.after_dashdash.is_none() && only.literal && only.text != "-" => {
                let mut hit = discard(&[*only], "overwrites");
                hit.subject = about(GitSubject::CheckoutOperand {
                    name: only.text.clone(),
                });
                hit.needs_confirmation = true;
                Some(hit)
            }
            _ => None,
        };
    }
    Some(discard(&paths, "overwrites"))
}

fn switch(inv: &Invocation) -> Option<Hit> {
    let p = parse(inv, SWITCH);
    if !(p.has("force") || p.has("discard-changes")) {
        return None;
    }
    Some(forced_switch(rewrite(
        inv,
        &drop_force(inv, &p, &["force", "discard-changes"]),
    )))
}

/// `checkout -f` / `switch -f`: `unforced` is the same command without the force.
fn forced_switch(unforced: String) -> Hit {
    Hit::new(
        &DISCARD_WORKTREE,
        Tier::Destructive,
        "throws away every uncommitted change to tracked files while switching",
    )
    .safer(format!(
        "`{unforced}` (refuses when changes would be lost), or `git stash push` first"
    ))
    .recovery("discarded edits were never saved by git and cannot be recovered")
    .about(about(GitSubject::Discard { paths: Vec::new() }))
}

fn restore(inv: &Invocation) -> Option<Hit> {
    let p = parse(inv, RESTORE);
    if p.has("patch") {
        return None;
    }
    // With neither `--staged` nor `--worktree` given, restore writes the working tree.
    let explicit = ["worktree", "no-worktree", "staged", "no-staged"]
        .iter()
        .any(|o| p.has(o));
    let worktree = !explicit || p.last_of(&["worktree", "no-worktree"]) == Some("worktree");
    if !worktree {
        // Only the index changes and the edits stay in the files (or git refuses the line).
        return None;
    }
    let paths: Vec<&Word> = p.operands.iter().map(|(_, w)| *w).collect();
    if paths.is_empty() && !p.has("pathspec-from-file") {
        return None; // git refuses: "you must specify path(s) to restore"
    }
    Some(discard(&paths, "overwrites"))
}

fn clean(inv: &Invocation) -> Option<Hit> {
    let p = parse(inv, CLEAN);
    let forced = p.last_of(&["force", "no-force"]) == Some("force");
    if !forced || p.has("dry-run") || p.has("interactive") {
        return None;
    }
    let ignored = p.has("x") || p.has("X");
    let tier = if ignored {
        Tier::Protected
    } else {
        Tier::Destructive
    };
    let mut replace: Vec<(usize, Option<String>)> = Vec::new();
    let mut dry_run_added = false;
    for o in p.opts.iter().filter(|o| o.name == "force") {
        let word = &inv.args[o.word].text;
        let with = if word.starts_with("--") {
            "--dry-run".to_string()
        } else {
            let mut w = word.replacen('f', "n", 1).replace('f', "");
            if dry_run_added {
                w = w.replace('n', "");
            }
            w
        };
        dry_run_added = true;
        replace.push((o.word, (with.len() > 1).then_some(with)));
    }
    let what = match (p.has("d"), ignored) {
        (_, true) => "untracked files and directories, and ignored files such as `.env`",
        (true, false) => "untracked files and directories",
        (false, false) => "untracked files",
    };
    Some(
        Hit::new(
            &CLEAN_FORCE,
            tier,
            format!("permanently deletes {what}: work git never had a copy of"),
        )
        .safer(format!(
            "`{}` lists what would be deleted; then remove only what you mean",
            rewrite(inv, &replace)
        ))
        .recovery("none: untracked files are not in git, so there is no way back")
        .about(dry_run_subject(inv, &replace)),
    )
}

/// `git clean` with the force options swapped for a dry run, as plain argv.
fn dry_run_subject(inv: &Invocation, replace: &[(usize, Option<String>)]) -> Subject {
    let mut args = Vec::new();
    for (i, w) in inv.args.iter().enumerate() {
        match replace.iter().find(|(at, _)| *at == i) {
            Some((_, with)) => args.extend(with.clone()),
            None if w.literal => args.push(w.text.clone()),
            None => return Subject::Nothing,
        }
    }
    if !args.iter().any(|a| {
        a == "--dry-run" || (a.starts_with('-') && !a.starts_with("--") && a.contains('n'))
    }) {
        args.insert(0, "--dry-run".into());
    }
    about(GitSubject::Clean { dry_run: args })
}

fn push(inv: &Invocation) -> Option<Hit> {
    let p = parse(inv, PUSH);
    if p.has("dry-run") {
        return None;
    }
    let refspecs: Vec<&Word> = p.operands.iter().skip(1).map(|(_, w)| *w).collect();
    let every_branch = p.has("all") || p.has("branches") || p.has("mirror");
    let destinations: Vec<&str> = refspecs.iter().map(|w| destination(&w.text)).collect();
    // A protected branch by name raises the tier in `rules::check`, which has the configured
    // list; the repository context adds the remote's default branch.
    let tier = if every_branch {
        Tier::Protected
    } else {
        Tier::Destructive
    };
    let remote = p.operands.first().map(|(_, w)| *w);
    let pushes_to = |branches: &[&str]| match (remote.map(|w| w.value()), texts(&refspecs)) {
        (Some(None), _) | (_, None) => Subject::Nothing,
        (remote, Some(_)) => about(GitSubject::Push {
            remote: remote.flatten().map(str::to_string),
            branches: branches.iter().map(|b| b.to_string()).collect(),
        }),
    };

    let deleting: Vec<&str> = if p.has("delete") {
        destinations.clone()
    } else {
        refspecs
            .iter()
            .filter(|w| w.text.starts_with(':') && w.text.len() > 1)
            .map(|w| destination(&w.text))
            .collect()
    };
    if !deleting.is_empty() || (p.has("delete") && refspecs.is_empty()) || p.has("prune") {
        let del_tier = if p.has("mirror") {
            Tier::Protected
        } else {
            Tier::Destructive
        };
        let subject = if deleting.is_empty() {
            Subject::Nothing
        } else {
            pushes_to(&deleting)
        };
        let what = if p.has("prune") && deleting.is_empty() {
            "every remote branch that has no local counterpart".to_string()
        } else {
            format!("the remote {}", list(deleting.iter().copied()))
        };
        return Some(
            Hit::new(&PUSH_DELETE, del_tier, format!("deletes {what} for everyone"))
                .safer("ask the user before deleting remote refs; `git push --dry-run ...` shows what would change")
                .recovery("push the commit back if you still have it: `git push <remote> <sha>:refs/heads/<branch>`")
                .branches(&deleting)
                .about(subject),
        );
    }

    let forced = p.last_of(&["force", "no-force"]) == Some("force");
    let lease = p.last_of(&["force-with-lease", "no-force-with-lease"]) == Some("force-with-lease");
    let plus = refspecs
        .iter()
        .any(|w| w.text.starts_with('+') || w.text.contains(":+"));
    if !(forced || p.has("mirror") || (plus && !lease)) {
        return None;
    }
    let mut replace = drop_force(inv, &p, &["force"]);
    for (at, w) in &p.operands {
        if let Some(stripped) = w.text.strip_prefix('+') {
            replace.push((*at, Some(quote(stripped))));
        }
    }
    let mut words = rewritten_args(inv, &replace);
    if !lease {
        words.insert(0, "--force-with-lease".into());
    }
    let safer = inv.line(&words);
    let target = if every_branch {
        "every branch on the remote".to_string()
    } else if destinations.is_empty() {
        "the remote branch".to_string()
    } else {
        format!("the remote {}", list(destinations.iter().copied()))
    };
    let mut hit = Hit::new(
        &PUSH_FORCE,
        tier,
        format!("overwrites {target}, dropping commits others pushed there"),
    )
    .recovery("the overwritten commits may still be in a teammate's clone or the remote's reflog")
    .branches(&destinations);
    if !every_branch {
        hit = hit.about(pushes_to(&destinations));
    }
    if !p.has("mirror") {
        hit = hit.safer(format!(
            "`{safer}` (refuses if the remote moved since you fetched)"
        ));
    }
    Some(hit)
}

/// The remote ref a refspec writes: `+a:b` → `b`, `main` → `main`, `refs/heads/x` → `x`.
fn destination(spec: &str) -> &str {
    let spec = spec.trim_start_matches('+');
    let dst = spec
        .rsplit_once(':')
        .map_or(spec, |(_, d)| d)
        .trim_start_matches('+');
    dst.strip_prefix("refs/heads/").unwrap_or(dst)
}

fn branch(inv: &Invocation) -> Option<Hit> {
    let p = parse(inv, BRANCH);
    let deleting = p.has("delete") || p.has("D");
    let forced = p.has("D") || (p.has("delete") && p.has("force"));
    if !deleting || !forced || p.has("remotes") {
        return None;
    }
    let names: Vec<&str> = p.operand_texts().collect();
    if names.is_empty() {
        return None; // git refuses: "branch name required"
    }
    let safer = format!(
        "`{}` deletes only fully merged branches",
        inv.line(
            &std::iter::once("-d".to_string())
                .chain(names.iter().map(|n| quote(n)))
                .collect::<Vec<_>>()
        )
    );
    Some(
        Hit::new(
            &BRANCH_FORCE_DELETE,
            Tier::Destructive,
            format!("deletes {} even if unmerged; its commits become reachable only from the reflog", list(names.iter().copied())),
        )
        .safer(safer)
        .recovery("`git branch <name> <sha>` with the sha git printed (`was abc1234`) or found in `git reflog`")
        .about(match p.operands.iter().all(|(_, w)| w.literal) {
            true => about(GitSubject::BranchDelete { names: names.iter().map(|n| n.to_string()).collect() }),
            false => Subject::Nothing,
        }),
    )
}

fn stash(inv: &Invocation) -> Option<Hit> {
    let action = inv.args.first()?.text.as_str();
    let entry = inv.args.iter().skip(1).find(|w| !w.text.starts_with('-'));
    let (loses, which, subject) = match action {
        "drop" => {
            let which = entry.map_or("stash@{0}", |w| w.text.as_str());
            let subject = match entry {
                Some(w) if !w.literal => Subject::Nothing,
                _ => about(GitSubject::StashDrop {
                    entry: entry.map(|w| w.text.clone()),
                    clear: false,
                }),
            };
            (
                format!("deletes the stash entry {which}"),
                which.to_string(),
                subject,
            )
        }
        "clear" => (
            "deletes every stash entry".to_string(),
            "stash@{0}".to_string(),
            about(GitSubject::StashDrop {
                entry: None,
                clear: true,
            }),
        ),
        _ => return None,
    };
    Some(
        Hit::new(&STASH_DROP, Tier::Destructive, loses)
            .safer(format!("`git stash show -p {which}` to inspect it, or `git stash branch <name> {which}` to keep it"))
            .recovery("until gc runs: `git fsck --unreachable | grep commit`, then `git stash apply <sha>`")
            .about(subject),
    )
}

fn worktree(inv: &Invocation) -> Option<Hit> {
    if inv.args.first()?.text != "remove" {
        return None;
    }
    let rest = &inv.args[1..];
    let p = opts::parse(rest, WORKTREE_REMOVE);
    if !p.has("force") {
        return None;
    }
    let paths: Vec<String> = p.operands.iter().map(|(_, w)| w.shell_quoted()).collect();
    let mut safer = vec!["remove".to_string()];
    safer.extend(paths.iter().cloned());
    Some(
        Hit::new(
            &WORKTREE_FORCE_REMOVE,
            Tier::Destructive,
            format!(
                "deletes the worktree {} with any uncommitted or untracked work in it",
                list(paths.iter().map(String::as_str))
            ),
        )
        .safer(format!(
            "`{}` refuses when the worktree is not clean",
            inv.line(&safer)
        ))
        .recovery("uncommitted work in the worktree cannot be recovered")
        .about(match p.operands.first() {
            Some((_, w)) if w.literal => about(GitSubject::WorktreeRemove {
                path: w.text.clone(),
            }),
            _ => Subject::Nothing,
        }),
    )
}

/// `git rebase [options] [upstream [branch]]`: rewrites the commits after upstream.
fn rebase(inv: &Invocation) -> Option<Hit> {
    let p = parse(inv, REBASE);
    let control = [
        "continue",
        "abort",
        "skip",
        "quit",
        "edit-todo",
        "show-current-patch",
    ];
    if control.iter().any(|c| p.has(c)) {
        return None;
    }
    let upstream = match (p.has("root"), p.operands.first()) {
        (true, _) => Some("--root".to_string()),
        (false, Some((_, w))) if !w.literal => return None,
        (false, Some((_, w))) => Some(w.text.clone()),
        (false, None) => None,
    };
    Some(rewrite_pushed(about(GitSubject::Rewrite {
        amend: false,
        upstream,
    })))
}

/// `git commit --amend` replaces the last commit.
fn amend(inv: &Invocation) -> Option<Hit> {
    let p = parse(inv, COMMIT);
    if !p.has("amend") {
        return None;
    }
    Some(rewrite_pushed(about(GitSubject::Rewrite {
        amend: true,
        upstream: None,
    })))
}

/// Rewriting commits only loses anything once they are published: context must confirm.
fn rewrite_pushed(subject: Subject) -> Hit {
    let mut hit = Hit::new(
        &HISTORY_REWRITE,
        Tier::Destructive,
        "rewrites commits that are already on a remote",
    )
    .safer("leave published commits alone: add a new commit (`git commit`, `git revert`) instead")
    .recovery("the old commits stay in the reflog: `git reflog`, then `git reset --keep <sha>`")
    .about(subject);
    hit.needs_confirmation = true;
    hit
}

fn tag(inv: &Invocation) -> Option<Hit> {
    let p = parse(inv, TAG);
    if !p.has("delete") {
        return None;
    }
    let names: Vec<&str> = p.operand_texts().collect();
    Some(
        Hit::new(
            &TAG_DELETE,
            Tier::Destructive,
            format!("deletes the tag {}", list(names.iter().copied())),
        )
        .safer("ask the user before deleting tags; `git tag -l` lists them")
        .recovery("`git tag <name> <sha>` with the sha git printed (`was abc1234`)"),
    )
}

fn update_ref(inv: &Invocation) -> Option<Hit> {
    let p = parse(inv, UPDATE_REF);
    if !p.has("delete") {
        return None;
    }
    let refs: Vec<&str> = p.operand_texts().take(1).collect();
    Some(
        Hit::new(
            &REF_DELETE,
            Tier::Destructive,
            format!(
                "deletes the ref {} with no merge check",
                list(refs.iter().copied())
            ),
        )
        .safer("`git branch -d <branch>` for a branch (refuses unmerged work)")
        .recovery("`git update-ref <ref> <sha>` with the sha from `git reflog`")
        .about(match p.operands.first() {
            Some((_, w)) if w.literal => about(GitSubject::RefDelete {
                name: w.text.clone(),
            }),
            _ => Subject::Nothing,
        }),
    )
}

/// `git filter-branch`, `git filter-repo` and the `git-filter-repo` program.
pub(super) fn filter_repo() -> Hit {
    Hit::new(
        &HISTORY_REWRITE,
        Tier::Destructive,
        "rewrites the history of every branch it touches",
    )
    .safer("`git branch backup/before-rewrite` first, and ask the user before rewriting")
    .recovery(
        "the old commits stay in the reflog (and `refs/original/` for filter-branch) until gc",
    )
}

fn reflog(inv: &Invocation) -> Option<Hit> {
    if inv.args.first()?.text != "expire" {
        return None;
    }
    let p = opts::parse(&inv.args[1..], REFLOG_EXPIRE);
    if p.has("dry-run") {
        return None;
    }
    let now = ["expire", "expire-unreachable"]
        .iter()
        .any(|o| p.value(o).is_some_and(immediate));
    now.then(|| {
        Hit::new(&RECOVERY_DESTROY, Tier::Destructive, "empties the reflog, the record used to recover lost commits")
            .safer("`git reflog expire` with its default windows (90 and 30 days), or leave it to `git gc`")
            .recovery("none once the objects are pruned")
    })
}

fn gc(inv: &Invocation) -> Option<Hit> {
    let p = parse(inv, GC);
    let prune_now = p.has("prune") && p.value("prune").is_some_and(immediate);
    prune_now.then(|| {
        Hit::new(
            &RECOVERY_DESTROY,
            Tier::Destructive,
            "deletes unreachable commits now, including lost work still in the reflog's reach",
        )
        .safer("`git gc` (keeps unreachable objects for two weeks)")
        .recovery("none once the objects are pruned")
    })
}

fn prune(inv: &Invocation) -> Option<Hit> {
    let p = parse(inv, PRUNE);
    if p.has("dry-run") || p.value("expire").is_some_and(|v| !immediate(v)) {
        return None;
    }
    Some(
        Hit::new(
            &RECOVERY_DESTROY,
            Tier::Destructive,
            "deletes every unreachable object, the last copy of dropped stashes and lost commits",
        )
        .safer("`git prune --dry-run` to see what would go, or `git gc` with its grace period")
        .recovery("none once the objects are pruned"),
    )
}

/// An expiry that means "everything, now".
fn immediate(value: &str) -> bool {
    matches!(value, "now" | "all" | "0") || value.contains("second") || value.contains("minute")
}

/// `a`, `a and b`, `a, b and 3 more`: a short list of names for a reason.
pub(crate) fn list<'a>(items: impl Iterator<Item = &'a str>) -> String {
    let items: Vec<String> = items.map(|s| format!("`{s}`")).collect();
    match items.len() {
        0 => "(the current one)".to_string(),
        1 => items[0].clone(),
        2..=3 => format!(
            "{} and {}",
            items[..items.len() - 1].join(", "),
            items[items.len() - 1]
        ),
        n => format!("{} and {} more", items[..2].join(", "), n - 2),
    }
}
