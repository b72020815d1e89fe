//! Restoring a snapshot into the working tree, and saying how to put its refs back.

use std::collections::HashSet;
use std::path::Path;
use std::time::Duration;

use super::list::list;
use super::repo::{Repo, TempIndex, split_nul, text};
use super::take::take;
use super::{Request, Snapshot, Taken};
use crate::git::porcelain;

/// What [`restore`] did, or would do.
#[derive(Debug, Clone)]
pub struct Restored {
    pub snapshot: Snapshot,
    /// Files written back from the snapshot.
    pub restored: Vec<String>,
    /// Files left alone: they changed after the snapshot (restored only with `force`).
    pub kept: Vec<String>,
    /// With `force`, the snapshot of the state that was overwritten.
    pub saved_first: Option<Taken>,
    /// Refs that moved or went away since, each with the command that puts it back.
    pub refs: Vec<String>,
}

/// How to restore.
#[derive(Debug, Clone, Copy, Default)]
pub struct RestoreOptions {
    /// Also overwrite files that changed after the snapshot (snapshotting them first).
    pub force: bool,
    /// Say what would be restored, writing nothing.
    pub dry_run: bool,
    pub max_size: u64,
    pub max_age: Duration,
}

/// Restores snapshot `id` (the newest when `None`) of the repository at `dir` into its
/// working tree. A file is written back when it is missing, or when it still holds what git
/// has for it (what a `reset --hard` or `checkout` left); a file that changed since the
/// snapshot is kept unless `force`. The index and the refs are not touched.
pub fn restore(dir: &Path, id: Option<&str>, options: RestoreOptions) -> Result<Restored, String> {
    let snapshots = list(dir)?;
    let snapshot = match id {
        None => snapshots
            .into_iter()
            .next()
            .ok_or("there are no snapshots in this repository")?,
        Some(id) => snapshots
            .into_iter()
            .find(|s| s.id == id || s.reference == id)
            .ok_or_else(|| format!("there is no snapshot {id} (see `agent-guard snapshots`)"))?,
    };
    let top = Repo::new(dir, &[]).toplevel()?;
    let git = Repo::new(&top, &[]);
    let index = TempIndex::new();
    let from_snapshot = git.with_index(&index.path);
    from_snapshot.run(&["read-tree", &snapshot.commit], None)?;
    // Exit status 1 only says that some entries differ; diff-files lists them.
    let _ = from_snapshot.run(&["update-index", "-q", "--refresh"], None);
    let differs = from_snapshot.run(
        &["diff-files", "-z", "--name-status", "--ignore-submodules"],
        None,
    )?;
    let status = git.run(
        &["status", "--porcelain=v1", "-z", "--untracked-files=no"],
        None,
    )?;
    let modified: HashSet<String> = porcelain(&String::from_utf8_lossy(&status))
        .into_iter()
        .map(|(_, path)| path)
        .collect();
    let tracked: HashSet<String> = split_nul(&git.run(&["ls-files", "-z"], None)?)
        .into_iter()
        .collect();

    let mut restored = Vec::new();
    let mut kept = Vec::new();
    let fields = split_nul(&differs);
    for pair in fields.chunks(2) {
        let [status, path] = pair else { continue };
        let missing = status == "D";
        if missing || (tracked.contains(path) && !modified.contains(path)) {
            restored.push(path.clone());
        } else {
            kept.push(path.clone());
        }
    }
    let mut saved_first = None;
    if options.force && !kept.is_empty() {
        if !options.dry_run {
            let request = Request {
                dir: &top,
                globals: &[],
                command: "agent-guard undo --force",
                rules: Vec::new(),
                refs: Vec::new(),
                stashes: false,
                max_size: options.max_size,
                max_age: options.max_age,
            };
            saved_first = Some(take(&request).map_err(|why| {
                format!("not overwriting newer changes without a snapshot of them: {why}")
            })?);
        }
        restored.append(&mut kept);
        restored.sort();
    }
    if !options.dry_run && !restored.is_empty() {
        let mut paths = Vec::new();
        for path in &restored {
            paths.extend_from_slice(path.as_bytes());
            paths.push(0);
        }
        from_snapshot.run(&["checkout-index", "-f", "-z", "--stdin"], Some(&paths))?;
    }
    let refs = moved_refs(&git, &snapshot);
    Ok(Restored {
        snapshot,
        restored,
        kept,
        saved_first,
        refs,
    })
}

/// For each ref the snapshot recorded that now points elsewhere or is gone: the command that
/// puts it back. Not run: moving refs is the user's call.
fn moved_refs(git: &Repo, snapshot: &Snapshot) -> Vec<String> {
    let current_branch = git
        .run(&["symbolic-ref", "-q", "HEAD"], None)
        .ok()
        .map(text);
    let stashes: HashSet<String> = git
        .run(&["stash", "list", "--format=%H"], None)
        .map(|out| {
            String::from_utf8_lossy(&out)
                .lines()
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    let mut hints = Vec::new();
    for (name, sha) in &snapshot.refs {
        let short = &sha[..sha.len().min(12)];
        if name.starts_with("stash@{") {
            if !stashes.contains(sha) {
                hints.push(format!(
                    "the stash entry {name} is gone: `git stash store -m 'restored by agent-guard' {short}` puts it back"
                ));
            }
            continue;
        }
        let now = git
            .run(
                &["rev-parse", "-q", "--verify", &format!("{name}^{{commit}}")],
                None,
            )
            .ok()
            .map(text);
        if now.as_deref() == Some(sha.as_str()) {
            continue;
        }
        let branch = name.strip_prefix("refs/heads/");
        let hint = match (branch, now.is_some()) {
            (Some(b), true) if current_branch.as_deref() == Some(name.as_str()) => format!(
                "`{b}` was at {short}: `git reset --mixed {short}` moves it back and leaves the restored files as they are"
            ),
            (Some(b), true) => {
                format!("`{b}` was at {short}: `git branch -f {b} {short}` moves it back")
            }
            (Some(b), false) => {
                format!("the branch `{b}` was deleted: `git branch {b} {short}` brings it back")
            }
            (None, _) if name == "HEAD" => {
                format!("HEAD was at {short} (detached): `git checkout {short}`")
            }
            (None, _) => format!("`{name}` was at {short}: `git update-ref {name} {short}`"),
        };
        hints.push(hint);
    }
    hints
}
