//! What branch moves, index and working-tree plumbing and forced submodule commands would
//! really lose, asked of the repository.
//!
//! Each clears only on git's own answer about the state the command meets: a ref git does not
//! list, a status git did not print, or a question git did not answer in time is never read
//! as "nothing there" (an unanswered question leaves the finding standing).

use super::{Assessment, sample};
use crate::git::porcelain;
use crate::rules::GitSubject;

type Ask<'a> = &'a dyn Fn(&[&str]) -> Option<String>;

pub(super) fn assess(ask: Ask, what: &GitSubject) -> Option<Assessment> {
    match what {
        GitSubject::BranchMove { refs, to, .. } => branch_move(ask, refs, to.as_deref()),
        GitSubject::Overwrite { paths, untracked } => overwrite(ask, paths, *untracked),
        GitSubject::Submodules { paths } => submodules(ask, paths),
        _ => None,
    }
}

/// The commit `full` (a full ref name, or `HEAD`) points to: `Some(None)` when git lists no
/// such ref, `None` when git did not answer.
fn tip(ask: Ask, full: &str) -> Option<Option<String>> {
    if full == "HEAD" {
        // HEAD always exists once there is a commit; no answer means no proof either way.
        return ask(&["rev-parse", "--verify", "-q", "HEAD^{commit}"])
            .map(|t| Some(t.trim().to_string()));
    }
    // `for-each-ref` answers (with nothing) for a missing ref, where `rev-parse` would fail
    // the same way it fails on a timeout. It also lists refs below `full`: keep only `full`.
    let out = ask(&["for-each-ref", "--format=%(objectname) %(refname)", full])?;
    Some(out.lines().find_map(|line| {
        let (sha, name) = line.split_once(' ')?;
        (name == full).then(|| sha.to_string())
    }))
}

/// `sha subject` lines of at most 50 commits in `revs`.
fn commits(ask: Ask, revs: &[&str]) -> Option<Vec<String>> {
    let mut args = vec!["log", "--format=%h %s", "-n", "50"];
    args.extend_from_slice(revs);
    Some(ask(&args)?.lines().map(str::to_string).collect())
}

fn branch_move(ask: Ask, refs: &[String], to: Option<&str>) -> Option<Assessment> {
    // Where the branch goes keeps what it reaches; a target git cannot resolve keeps nothing.
    let target = to.and_then(|t| {
        let commit = format!("{t}^{{commit}}");
        ask(&["rev-parse", "--verify", "-q", &commit]).map(|s| s.trim().to_string())
    });
    let mut created = Vec::new();
    let mut lost = Vec::new();
    let mut recovery = Vec::new();
    for name in refs {
        // `update-ref HEAD` moves the branch HEAD names (or HEAD itself, when detached).
        let full = match name.as_str() {
            "HEAD" => ask(&["rev-parse", "--symbolic-full-name", "HEAD"])?
                .trim()
                .to_string(),
            _ => name.clone(),
        };
        let Some(old) = tip(ask, &full)? else {
            created.push(name.trim_start_matches("refs/heads/").to_string());
            continue;
        };
        // Reachable after the move: from the target and from every ref but this one. HEAD
        // is left out, as it may be this very branch and move with it.
        let exclude = format!("--exclude={full}");
        let mut revs = vec![old.as_str(), "--not"];
        revs.extend(target.as_deref());
        revs.extend([exclude.as_str(), "--exclude=HEAD", "--all"]);
        let only_here = commits(ask, &revs)?;
        if !only_here.is_empty() {
            let short = full.trim_start_matches("refs/heads/");
            lost.push(format!(
                "moves `{short}` off {} that no other branch, tag or remote reaches",
                sample(&only_here, "commit")
            ));
            let base = short.rsplit('/').next().unwrap_or(short);
            let sha = old.get(..12).unwrap_or(&old);
            recovery.push(format!("`git branch {base}-before {sha}`"));
        }
    }
    if !lost.is_empty() {
        return Some(Assessment::Loss {
            loses: lost.join("; "),
            recovery: Some(format!(
                "{} brings them back (the reflog keeps them until it expires)",
                recovery.join(", ")
            )),
        });
    }
    if created.len() == refs.len() {
        return Some(Assessment::Clear(format!(
            "no branch `{}` exists yet: this creates it",
            created.join("`, `")
        )));
    }
    Some(Assessment::Clear(
        "every commit the branch holds stays reachable from another branch, tag or remote, or from where it moves to"
            .into(),
    ))
}

fn overwrite(ask: Ask, paths: &[String], untracked: bool) -> Option<Assessment> {
    let mut args = vec!["status", "--porcelain=v1", "-z"];
    if untracked {
        // Untracked and ignored files in the tree's way are overwritten too.
        args.extend(["--untracked-files=all", "--ignored=matching"]);
    } else {
        args.push("--untracked-files=no");
    }
    args.push("--");
    args.extend(paths.iter().map(String::as_str));
    let at_stake: Vec<String> = porcelain(&ask(&args)?)
        .into_iter()
        .map(|(_, path)| path)
        .collect();
    if at_stake.is_empty() {
        return Some(Assessment::Clear(
            "none of the files it overwrites or removes has uncommitted changes".into(),
        ));
    }
    let noun = if untracked {
        "changed, untracked or ignored file"
    } else {
        "file with uncommitted changes"
    };
    Some(Assessment::Loss {
        loses: format!("discards {}", sample(&at_stake, noun)),
        recovery: Some("none: those changes were never saved by git".into()),
    })
}

fn submodules(ask: Ask, paths: &[String]) -> Option<Assessment> {
    let mut args = vec![
        "status",
        "--porcelain=v2",
        "-z",
        "--untracked-files=all",
        "--ignore-submodules=none",
        "--",
    ];
    args.extend(paths.iter().map(String::as_str));
    let out = ask(&args)?;
    let mut dirty = Vec::new();
    let mut entries = out.split('\0');
    while let Some(entry) = entries.next() {
        let kind = entry.split(' ').next().unwrap_or("");
        if kind == "2" {
            entries.next(); // the path it was renamed from
        }
        if !matches!(kind, "1" | "2") {
            continue;
        }
        let fields = if kind == "1" { 9 } else { 10 };
        let parts: Vec<&str> = entry.splitn(fields, ' ').collect();
        // `S<c><m><u>`: a submodule whose commit moved, or with tracked or untracked changes.
        if let (Some(state), Some(path)) = (parts.get(2), parts.last())
            && state.starts_with('S')
            && *state != "S..."
        {
            dirty.push(path.to_string());
        }
    }
    if dirty.is_empty() {
        return Some(Assessment::Clear(
            "no submodule it touches has local changes or new commits".into(),
        ));
    }
    Some(Assessment::Loss {
        loses: format!("discards local work in {}", sample(&dirty, "submodule")),
        recovery: Some("none for uncommitted work inside the submodules".into()),
    })
}
