//! `git reset --hard`.

use super::{Invocation, about, parse, rewrite};
use crate::rules::opts::{Opt, flag, optional, valued};
use crate::rules::{GitSubject, Hit, Rule, Subject, Tier};

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

pub(super) fn reset(inv: &Invocation) -> Option<Hit> {
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
