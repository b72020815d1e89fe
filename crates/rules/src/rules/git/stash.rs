//! `git stash drop` and `git stash clear`.

use super::{Invocation, about};
use crate::rules::opts::{self, Opt, flag};
use crate::rules::{GitSubject, Hit, Rule, Subject, Tier};

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

/// `git stash drop`'s options.
const DROP: &[Opt] = &[flag("quiet", Some('q'))];

pub(super) fn stash(inv: &Invocation) -> Option<Hit> {
    let (action, rest) = inv.args.split_first()?;
    let action = action.text.as_str();
    let entry = opts::parse(rest, DROP).operands.first().map(|&(_, w)| w);
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
