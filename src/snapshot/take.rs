//! Taking a snapshot: of each repository the findings a verdict lets through act on.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::prune::prune;
use super::repo::{Repo, TempIndex, split_nul, text};
use super::{REF_PREFIX, Request, Taken};
use crate::context::Context;
use crate::policy::Verdict;
use crate::rules::{GitSubject, Subject};
use crate::settings::Settings;
use crate::units;

/// Before `verdict` lets `command` run in `cwd`: a snapshot in each repository the findings it
/// lets through act on. Each outcome is the snapshot, or why there is none.
pub fn before(
    command: &str,
    cwd: Option<&Path>,
    verdict: &Verdict,
    settings: &Settings,
) -> Vec<Result<Taken, String>> {
    // What stands (asked about, or only observed), what an override lets through, and what
    // passes because it destroys only agents' own work.
    let owned = verdict
        .cleared
        .iter()
        .filter(|c| c.snapshot)
        .map(|c| &c.finding);
    let findings = verdict
        .findings
        .iter()
        .chain(&verdict.overridden)
        .chain(owned);
    let ctx = match &verdict.context {
        Some(ctx) => std::rc::Rc::clone(ctx),
        None => std::rc::Rc::new(Context::new(cwd, settings)),
    };
    let mut places: Vec<Place> = Vec::new();
    let mut outcomes = Vec::new();
    for finding in findings {
        let Some(dir) = ctx.run_directory(finding) else {
            outcomes.push(Err(
                "the folder the command runs in is only known when it runs".to_string(),
            ));
            continue;
        };
        let (globals, what) = match &finding.subject {
            Subject::Git { globals, what } => (globals.clone(), Some(what)),
            _ => (Vec::new(), None),
        };
        let at = match places
            .iter()
            .position(|p| p.dir == dir && p.globals == globals)
        {
            Some(at) => at,
            None => {
                places.push(Place {
                    dir,
                    globals,
                    rules: Vec::new(),
                    refs: Vec::new(),
                    stashes: false,
                });
                places.len() - 1
            }
        };
        let Some(place) = places.get_mut(at) else {
            continue;
        };
        if !place.rules.contains(&finding.rule.id) {
            place.rules.push(finding.rule.id);
        }
        match what {
            Some(GitSubject::BranchDelete { names }) => {
                place
                    .refs
                    .extend(names.iter().map(|n| format!("refs/heads/{n}")));
            }
            Some(GitSubject::RefDelete { name }) => place.refs.push(name.clone()),
            Some(GitSubject::StashDrop { .. }) => place.stashes = true,
            _ => {}
        }
    }
    for place in &places {
        outcomes.push(take(&Request {
            dir: &place.dir,
            globals: &place.globals,
            command,
            rules: place.rules.clone(),
            refs: place.refs.clone(),
            stashes: place.stashes,
            max_size: settings.snapshot_max_size,
            max_age: settings.snapshot_max_age,
        }));
    }
    outcomes
}

/// One repository to snapshot (a folder and the command's git global options), and what the
/// snapshot must keep there.
struct Place {
    dir: PathBuf,
    globals: Vec<String>,
    rules: Vec<&'static str>,
    refs: Vec<String>,
    stashes: bool,
}

/// Takes a snapshot for `request`. `Err` says why none was taken, in words for a reason.
pub fn take(request: &Request) -> Result<Taken, String> {
    if !request.dir.is_dir() {
        return Err(format!(
            "the folder it runs in, {}, does not exist here",
            request.dir.display()
        ));
    }
    let git = Repo::new(request.dir, request.globals);
    let top = git.toplevel()?;
    let status = git.run(
        &[
            "status",
            "--porcelain=v2",
            "--branch",
            "-z",
            "--untracked-files=all",
        ],
        None,
    )?;
    let state = Status::parse(&status);
    let (files, bytes) = state.size(&top);
    if bytes > request.max_size {
        return Err(format!(
            "the changed and untracked files come to {}, over the {} limit for snapshots (`snapshots.max_size`)",
            units::format_size(bytes),
            units::format_size(request.max_size)
        ));
    }
    let index = TempIndex::copy_of(&git.index_path()?)?;
    let staged = git.with_index(&index.path);
    staged.run(&["add", "-A", "--ignore-errors"], None)?;
    let tree = text(staged.run(&["write-tree"], None)?);

    let mut refs: Vec<(String, String)> = Vec::new();
    if let Some(head) = &state.head {
        let name = state
            .branch
            .as_deref()
            .map_or("HEAD".to_string(), |b| format!("refs/heads/{b}"));
        refs.push((name, head.clone()));
    }
    for name in &request.refs {
        let commit = format!("{name}^{{commit}}");
        if let Ok(sha) = git.run(&["rev-parse", "-q", "--verify", &commit], None) {
            refs.push((name.clone(), text(sha)));
        }
    }
    if request.stashes
        && let Ok(list) = git.run(&["stash", "list", "--format=%gd %H"], None)
    {
        for line in String::from_utf8_lossy(&list).lines() {
            if let Some((name, sha)) = line.split_once(' ') {
                refs.push((name.to_string(), sha.to_string()));
            }
        }
    }

    let now = SystemTime::now();
    let stamp = units::timestamp(now);
    let id = format!("{}-{}", stamp.replace(['-', ':'], ""), std::process::id());
    let reference = format!("{REF_PREFIX}{id}");
    let mut message = format!(
        "agent-guard snapshot before `{}`\n\n",
        crate::policy::shorten(request.command)
    );
    message.push_str(&format!(
        "Agent-Guard-Command: {}\n",
        serde_json::Value::from(request.command)
    ));
    message.push_str(&format!("Agent-Guard-Time: {stamp}\n"));
    message.push_str(&format!(
        "Agent-Guard-Rules: {}\n",
        request.rules.join(", ")
    ));
    message.push_str(&format!(
        "Agent-Guard-Files: {files}\nAgent-Guard-Bytes: {bytes}\n"
    ));
    for (name, sha) in &refs {
        message.push_str(&format!("Agent-Guard-Ref: {name} {sha}\n"));
    }
    let mut args = vec!["commit-tree".to_string(), "--no-gpg-sign".to_string(), tree];
    let mut parents = HashSet::new();
    for (_, sha) in &refs {
        if parents.insert(sha.clone()) {
            args.extend(["-p".to_string(), sha.clone()]);
        }
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let commit = text(git.run(&args, Some(message.as_bytes()))?);
    git.run(&["update-ref", &reference, &commit, ""], None)?;
    prune(&git, now, request.max_age, &reference);
    Ok(Taken {
        id,
        reference,
        files,
        bytes,
    })
}

/// What `git status --porcelain=v2 --branch -z` says: the HEAD commit, the branch, and the
/// paths with changes or untracked.
#[derive(Debug, Default, PartialEq, Eq)]
struct Status {
    head: Option<String>,
    branch: Option<String>,
    paths: Vec<String>,
}

impl Status {
    fn parse(out: &[u8]) -> Status {
        let mut status = Status::default();
        let fields = split_nul(out);
        let mut fields = fields.iter();
        while let Some(entry) = fields.next() {
            if let Some(oid) = entry.strip_prefix("# branch.oid ") {
                status.head = (oid != "(initial)").then(|| oid.to_string());
            } else if let Some(head) = entry.strip_prefix("# branch.head ") {
                status.branch = (head != "(detached)").then(|| head.to_string());
            } else if let Some(path) = entry.strip_prefix("? ") {
                status.paths.push(path.to_string());
            } else {
                // `1`: 8 fields before the path; `2` (rename, then the old path): 9; `u`: 10.
                let skip = match entry.as_bytes().first() {
                    Some(b'1') => 8,
                    Some(b'2') => 9,
                    Some(b'u') => 10,
                    _ => continue,
                };
                if let Some(path) = entry.splitn(skip + 1, ' ').nth(skip) {
                    status.paths.push(path.to_string());
                }
                if entry.starts_with('2') {
                    fields.next();
                }
            }
        }
        status
    }

    /// How many of the paths exist as files under `top`, and their total size.
    fn size(&self, top: &Path) -> (usize, u64) {
        let mut files = 0;
        let mut bytes = 0;
        for path in &self.paths {
            if let Ok(meta) = top.join(path).symlink_metadata()
                && !meta.is_dir()
            {
                files += 1;
                bytes += meta.len();
            }
        }
        (files, bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_v2_paths_branch_and_head() {
        let out = b"# branch.oid 1234\0# branch.head main\0\
                    1 .M N... 100644 100644 100644 aa bb src/a b.rs\0\
                    2 R. N... 100644 100644 100644 aa bb R100 new.txt\0old.txt\0\
                    u UU N... 100644 100644 100644 100644 aa bb cc both.txt\0\
                    ? notes.txt\0";
        let status = Status::parse(out);
        assert_eq!(status.head.as_deref(), Some("1234"));
        assert_eq!(status.branch.as_deref(), Some("main"));
        assert_eq!(
            status.paths,
            ["src/a b.rs", "new.txt", "both.txt", "notes.txt"]
        );

        let status = Status::parse(b"# branch.oid (initial)\0# branch.head (detached)\0");
        assert_eq!((status.head, status.branch), (None, None));
    }
}
