//! Overwriting the working tree: `checkout`, `switch`, `restore`, and removing a worktree.

use super::{Invocation, about, drop_force, list, parse, rewrite, texts};
use crate::rules::opts::{self, Opt, flag, optional, valued};
use crate::rules::{GitSubject, Hit, Rule, Subject, Tier};
use crate::shell::Word;

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

const WORKTREE_REMOVE: &[Opt] = &[flag("force", Some('f'))];

pub(super) const CHECKOUT: &[Opt] = &[
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

pub(super) const SWITCH: &[Opt] = &[
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

pub(super) fn checkout(inv: &Invocation) -> Option<Hit> {
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
    let paths: Vec<&Word> = match (p.after_dashdash, operands.as_slice()) {
        (Some(at), _) => operands.get(at..).unwrap_or_default().to_vec(),
        (None, [_, rest @ ..]) if !rest.is_empty() => rest.to_vec(),
        (None, [only]) if looks_like_path(only) => operands.clone(),
        (None, _) => Vec::new(),
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

pub(super) fn switch(inv: &Invocation) -> Option<Hit> {
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

pub(super) fn restore(inv: &Invocation) -> Option<Hit> {
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

pub(super) fn worktree(inv: &Invocation) -> Option<Hit> {
    if inv.args.first()?.text != "remove" {
        return None;
    }
    let rest = inv.args.get(1..).unwrap_or_default();
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
