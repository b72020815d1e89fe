//! Deleting branches, tags and refs.

use super::{Invocation, about, list, parse};
use crate::rules::opts::{Opt, flag, optional, valued};
use crate::rules::{GitSubject, Hit, Rule, Subject, Tier};
use crate::shell::word::quote;

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

pub(super) fn branch(inv: &Invocation) -> Option<Hit> {
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

pub(super) fn tag(inv: &Invocation) -> Option<Hit> {
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

pub(super) fn update_ref(inv: &Invocation) -> Option<Hit> {
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
