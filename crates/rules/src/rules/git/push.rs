//! `git push`: overwriting and deleting branches on a remote.

use super::{Invocation, about, drop_force, list, parse, rewritten_args, texts};
use crate::rules::opts::{Opt, flag, optional, valued};
use crate::rules::{GitSubject, Hit, Rule, Subject, Tier};
use crate::shell::Word;
use crate::shell::word::quote;

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

pub(super) fn push(inv: &Invocation) -> Option<Hit> {
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
    let pushes_to =
        |branches: &[&str], delete: bool| match (remote.map(|w| w.value()), texts(&refspecs)) {
            (Some(None), _) | (_, None) => Subject::Nothing,
            (remote, Some(_)) => about(GitSubject::Push {
                remote: remote.flatten().map(str::to_string),
                branches: branches.iter().map(|b| b.to_string()).collect(),
                delete,
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
            pushes_to(&deleting, true)
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
    // A push to `.` writes this repository's own branches.
    if remote.is_some_and(|w| w.text == ".") && !p.has("mirror") {
        return super::branch::push_here(inv, &refspecs, forced);
    }
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
        hit = hit.about(pushes_to(&destinations, false));
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
