//! Snapshots: before a destructive command is let through (by an override, a question to the
//! user, or observe mode), the guard records what that command could destroy, and
//! `agent-guard undo` brings it back.
//!
//! A snapshot is a commit object under `refs/agent-guard/snapshots/<id>`: its tree is the
//! working tree as it is (tracked changes and untracked files that are not ignored), built
//! with `git add -A` into a temporary index (`GIT_INDEX_FILE`), so neither the working tree
//! nor the real index is touched. Its parents are HEAD and every commit a ref the command
//! could move or delete points to, which keeps them from garbage collection; its message
//! records the command, the rules, the size and those refs. Old snapshots are pruned when a
//! new one is taken.
//!
//! One folder whose modules depend one way: each uses only those on the lines below it, and
//! the shared types here.
//!
//! ```text
//! restore        put a snapshot's files back, taking one of what it would overwrite
//!   take         record what a command could destroy
//!     prune      delete the old snapshots
//!   list         read the snapshots back
//!     repo       git in the repository, within the budget; the temporary index
//! ```
//!
//! This file holds the types they share, and the public names of what they do.

mod list;
mod prune;
mod repo;
mod restore;
mod take;

pub use list::{contents, list};
pub use restore::{RestoreOptions, Restored, restore};
pub use take::{before, take};

use std::path::Path;
use std::time::{Duration, SystemTime};

use crate::units;

/// Where snapshots live in a repository.
pub const REF_PREFIX: &str = "refs/agent-guard/snapshots/";

/// What to snapshot, and where.
#[derive(Debug, Clone)]
pub struct Request<'a> {
    /// The folder the command runs in.
    pub dir: &'a Path,
    /// The command's own global git options (`-C dir`, `--git-dir=...`), so the snapshot is
    /// of the repository it acts on.
    pub globals: &'a [String],
    pub command: &'a str,
    pub rules: Vec<&'static str>,
    /// Refs the command could move or delete besides HEAD (`refs/heads/topic`).
    pub refs: Vec<String>,
    /// Also keep every stash entry (the command drops or clears stashes).
    pub stashes: bool,
    pub max_size: u64,
    pub max_age: Duration,
}

/// A snapshot that was just taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Taken {
    pub id: String,
    pub reference: String,
    /// Changed and untracked files it holds, and their size.
    pub files: usize,
    pub bytes: u64,
}

impl Taken {
    /// One line for a reason or a report.
    pub fn describe(&self) -> String {
        format!(
            "agent-guard saved the working tree first as snapshot {} ({} changed or untracked {}, {}); `agent-guard undo` restores it",
            self.id,
            self.files,
            if self.files == 1 { "file" } else { "files" },
            units::format_size(self.bytes)
        )
    }
}

/// A snapshot as listed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    pub id: String,
    pub reference: String,
    pub commit: String,
    pub time: Option<SystemTime>,
    pub command: String,
    pub rules: Vec<String>,
    pub files: usize,
    pub bytes: u64,
    /// `(ref, commit)` for HEAD's branch (or `HEAD` when detached) and each ref it kept.
    pub refs: Vec<(String, String)>,
}
