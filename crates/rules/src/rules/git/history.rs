//! Rewriting history, and destroying what recovers it: the reflog and unreachable objects.

use super::{Invocation, about, parse};
use crate::rules::opts::{self, Opt, flag, optional, valued};
use crate::rules::{GitSubject, Hit, Rule, Subject, Tier};

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
    catches: "`git reflog delete`; `git reflog expire` with an expiry that reaches now (`now`, \
              `all`, `0`, hours, a date), given as an option or as `-c gc.reflogExpire...`; \
              `git gc --prune=now|all`, or `git gc` under `-c gc.pruneExpire=now` or \
              `-c gc.reflogExpire...=now`; `git prune`",
    why: "The reflog and unreachable objects are how lost commits and dropped stashes are \
          recovered. Expiring them now removes the last way back.",
    instead: "`git gc` keeps the default grace period (two weeks for unreachable objects, 90 and \
              30 days of reflog); an expiry of a day or more (`--expire=90.days.ago`) keeps \
              recent history.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "git reflog expire --expire=now --all",
        "git reflog expire --expire-unreachable=2024-01-01 --all",
        "git reflog delete HEAD@{1}",
        "git -c gc.reflogExpire=now reflog expire --all",
        "git gc --prune=now",
        "git -c gc.pruneExpire=now gc",
        "git -c gc.reflogExpireUnreachable=0 gc",
        "git prune",
    ],
    passes: &[
        "git gc",
        "git gc --prune",
        "git reflog",
        "git reflog expire --expire=90.days.ago --all",
        "git reflog delete --dry-run HEAD@{1}",
        "git prune --dry-run",
        "git prune --expire=2.weeks.ago",
    ],
};

/// `reflog expire` and `reflog delete` (which takes the subset it knows).
const REFLOG: &[Opt] = &[
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

/// `git rebase [options] [upstream [branch]]`: rewrites the commits after upstream.
pub(super) fn rebase(inv: &Invocation) -> Option<Hit> {
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
pub(super) fn amend(inv: &Invocation) -> Option<Hit> {
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

/// `git filter-branch`, `git filter-repo` and the `git-filter-repo` program.
pub(in crate::rules) fn filter_repo() -> Hit {
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

pub(super) fn reflog(inv: &Invocation) -> Option<Hit> {
    let action = inv.args.first()?.text.as_str();
    let p = opts::parse(inv.args.get(1..).unwrap_or_default(), REFLOG);
    if p.has("dry-run") {
        return None;
    }
    match action {
        "delete" => Some(
            Hit::new(
                &RECOVERY_DESTROY,
                Tier::Destructive,
                "deletes reflog entries, the record used to recover lost commits",
            )
            .safer(
                "`git reflog show <ref>` to look; entries expire on their own (90 days by default)",
            )
            .recovery("none once the objects are pruned"),
        ),
        "expire" => {
            let configured =
                |suffix: &str| inv.config(|key| key.starts_with("gc.") && key.ends_with(suffix));
            let expiries = [
                p.value("expire").or_else(|| configured(".reflogexpire")),
                p.value("expire-unreachable")
                    .or_else(|| configured(".reflogexpireunreachable")),
            ];
            expiries.into_iter().flatten().any(reaches_now).then(|| {
                Hit::new(&RECOVERY_DESTROY, Tier::Destructive, "empties the reflog, the record used to recover lost commits")
                    .safer("`git reflog expire --all` with its default windows (90 and 30 days), or leave it to `git gc`")
                    .recovery("none once the objects are pruned")
            })
        }
        _ => None,
    }
}

pub(super) fn gc(inv: &Invocation) -> Option<Hit> {
    let p = parse(inv, GC);
    // `--prune` without a date takes `gc.pruneExpire` (two weeks by default).
    let prune = match p.last_of(&["prune", "no-prune"]) {
        Some("no-prune") => None,
        _ => p
            .value("prune")
            .or_else(|| inv.config(|key| key == "gc.pruneexpire")),
    };
    let prunes_now = prune.is_some_and(reaches_now);
    // gc expires the reflog with these settings before it prunes.
    let reflog_now = inv
        .config(|key| key.starts_with("gc.") && key.ends_with(".reflogexpireunreachable"))
        .into_iter()
        .chain(inv.config(|key| key.starts_with("gc.") && key.ends_with(".reflogexpire")))
        .any(reaches_now);
    if !(prunes_now || reflog_now) {
        return None;
    }
    let loses = if prunes_now {
        "deletes unreachable commits now, including lost work still in the reflog's reach"
    } else {
        "empties the reflog, then deletes the commits only it still reached"
    };
    Some(
        Hit::new(&RECOVERY_DESTROY, Tier::Destructive, loses)
            .safer("`git gc` without these settings (keeps unreachable objects for two weeks)")
            .recovery("none once the objects are pruned"),
    )
}

pub(super) fn prune(inv: &Invocation) -> Option<Hit> {
    let p = parse(inv, PRUNE);
    if p.has("dry-run") || p.value("expire").is_some_and(|v| !reaches_now(v)) {
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

/// Whether an expiry lets git delete what happened just now: everything but `never` and an
/// age of at least a day (`90.days.ago`, `2.weeks`, `1.month.ago`) does (`now`, `all`, `0`,
/// `1.hour.ago`, any date).
fn reaches_now(value: &str) -> bool {
    let v = value.trim().to_ascii_lowercase();
    if matches!(v.as_str(), "never" | "false") {
        return false;
    }
    let age = v
        .strip_suffix(".ago")
        .or_else(|| v.strip_suffix(" ago"))
        .unwrap_or(&v);
    let digits = age.find(|c: char| !c.is_ascii_digit()).unwrap_or(age.len());
    let count = age[..digits].parse::<u64>().unwrap_or(0);
    let unit = age[digits..].trim_matches(|c| c == '.' || c == ' ');
    let long = matches!(
        unit.trim_end_matches('s'),
        "day" | "week" | "month" | "year"
    );
    !(count >= 1 && long)
}
