//! The trash: where `agent-guard rm` puts what it removes, so that `agent-guard restore`
//! can put it back exactly as it was.
//!
//! A repository has its own trash in its git common dir (`.git/agent-guard/trash`): every
//! worktree shares it, it never shows in `git status`, and it usually sits on the same
//! filesystem as the work, so a removal is a rename. Outside any repository the user's trash
//! is used: `$XDG_DATA_HOME/agent-guard/trash`, by default `~/.local/share/agent-guard/trash`,
//! on Windows `%LOCALAPPDATA%\agent-guard\trash`.
//!
//! Each removal is one entry: a folder named by its id that holds `entry.json` (when, from
//! which root, the original paths) and the removed files themselves, untouched.

use std::ffi::OsStr;
use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::error::Error;
use super::fsops::{move_tree, remove_tree, write_atomic};
use super::git::Repo;
use super::target::{Kind, Target};
use super::text::{now, stamp};
use crate::config::dirs::{self, Dir, Os};

/// The name of the record in each entry's folder.
const RECORD: &str = "entry.json";

/// One removal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// `20261007-142233-3f2a`: when, to the second, then where in that second.
    pub id: String,
    /// Unix seconds.
    pub time: u64,
    /// The `--root` the removal was checked against.
    pub root: PathBuf,
    /// The session that removed it.
    pub session: String,
    pub items: Vec<Item>,
}

/// One removed target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Item {
    /// Where it was, and where `restore` puts it back.
    pub original: PathBuf,
    /// Its name inside the entry's folder.
    pub stored: String,
    pub kind: Kind,
    /// Files, folders and links, itself included.
    pub entries: u64,
    /// The size of its files.
    pub bytes: u64,
}

impl Entry {
    pub fn entries(&self) -> u64 {
        self.items.iter().map(|i| i.entries).sum()
    }

    pub fn bytes(&self) -> u64 {
        self.items.iter().map(|i| i.bytes).sum()
    }
}

/// What a trash folder holds.
#[derive(Debug, Clone, Default)]
pub struct Listing {
    /// Oldest first.
    pub entries: Vec<Entry>,
    /// Entry folders whose record cannot be read (an interrupted removal, a hand edit): left
    /// alone, so that what they hold can be recovered by hand.
    pub damaged: Vec<PathBuf>,
}

/// One trash folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trash {
    pub dir: PathBuf,
}

impl Trash {
    /// The trash that removals under `dir` go to: its repository's, or the user's.
    pub fn for_dir(dir: &Path) -> Result<Trash, Error> {
        match Repo::containing(dir)? {
            Some(repo) => Ok(Trash::of_repo(&repo)),
            None => Trash::user(),
        }
    }

    pub(crate) fn of_repo(repo: &Repo) -> Trash {
        Trash {
            dir: repo.agent_guard_dir().join("trash"),
        }
    }

    /// `trash` in the guard's data folder ([`dirs::Dir::Data`]): `$XDG_DATA_HOME/agent-guard`,
    /// else `$HOME/.local/share/agent-guard`; on Windows `%LOCALAPPDATA%\agent-guard`.
    pub fn user() -> Result<Trash, Error> {
        let data = dirs::own(Os::CURRENT, Dir::Data, &dirs::process_env).ok_or_else(|| {
            Error::new(format!(
                "there is no user trash: {}",
                dirs::unset(Os::CURRENT, Dir::Data)
            ))
        })?;
        Ok(Trash {
            dir: data.join("trash"),
        })
    }

    /// Moves `targets` into a new entry, all or none: when one cannot be moved, those already
    /// moved are put back. Returns the entry and notes on leftovers that could not be
    /// cleaned up (the removal itself succeeded).
    pub fn put(
        &self,
        root: &Path,
        session: &str,
        targets: &[&Target],
    ) -> Result<(Entry, Vec<String>), Error> {
        fs::create_dir_all(&self.dir).map_err(|e| Error::io("create", &self.dir, &e))?;
        // One reading of the clock for both the time and the id, so they cannot disagree.
        let at = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default();
        let time = at.as_secs();
        let (id, folder) = self.new_entry_folder(at)?;
        let items: Vec<Item> = targets
            .iter()
            .enumerate()
            .map(|(i, t)| Item {
                original: t.path.clone(),
                stored: format!(
                    "{i}-{}",
                    t.path.file_name().map_or("".into(), OsStr::to_string_lossy)
                ),
                kind: t.kind,
                entries: t.entries,
                bytes: t.bytes,
            })
            .collect();
        let entry = Entry {
            id,
            time,
            root: root.to_path_buf(),
            session: session.to_string(),
            items,
        };
        // The record goes first: should the process die halfway, it says where each item
        // came from.
        if let Err(e) = write_record(&folder, &entry) {
            let _ = remove_tree(&folder);
            return Err(e);
        }
        let moves: Vec<(PathBuf, PathBuf)> = entry
            .items
            .iter()
            .map(|i| (i.original.clone(), folder.join(&i.stored)))
            .collect();
        match move_all(&moves) {
            Ok(notes) => Ok((entry, notes)),
            Err(e) if e.undone => {
                let _ = remove_tree(&folder);
                Err(Error::new(format!("{}; nothing was removed", e.error)))
            }
            Err(e) => Err(Error::new(format!(
                "{}; some targets stay in trash entry {} ({})",
                e.error,
                entry.id,
                folder.display()
            ))),
        }
    }

    /// Every entry, oldest first, and the folders that are not readable entries.
    pub fn list(&self) -> Result<Listing, Error> {
        let mut listing = Listing::default();
        let dir = match fs::read_dir(&self.dir) {
            Ok(dir) => dir,
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(listing),
            Err(e) => return Err(Error::io("read", &self.dir, &e)),
        };
        for item in dir {
            let item = item.map_err(|e| Error::io("read", &self.dir, &e))?;
            let path = item.path();
            // Hidden names are moves in progress, not entries.
            if item.file_name().to_string_lossy().starts_with('.') || !path.is_dir() {
                continue;
            }
            let record = fs::read(path.join(RECORD))
                .ok()
                .and_then(|text| serde_json::from_slice::<Entry>(&text).ok());
            match record {
                Some(entry) if OsStr::new(&entry.id) == item.file_name() => {
                    listing.entries.push(entry)
                }
                _ => listing.damaged.push(path),
            }
        }
        listing
            .entries
            .sort_by(|a, b| a.time.cmp(&b.time).then(a.id.cmp(&b.id)));
        listing.damaged.sort();
        Ok(listing)
    }

    /// Puts entry `id` (the latest without one) back where it came from, all or none, and
    /// drops it from the trash. Refuses when any original path exists again: nothing is
    /// ever overwritten. Missing parent folders are created.
    pub fn restore(&self, id: Option<&str>) -> Result<(Entry, Vec<String>), Error> {
        let listing = self.list()?;
        let entry = match id {
            Some(id) => listing.entries.into_iter().find(|e| e.id == id),
            None => listing.entries.into_iter().next_back(),
        };
        let Some(entry) = entry else {
            return Err(Error::new(match id {
                Some(id) => format!(
                    "no entry `{id}` in the trash at {}; `agent-guard trash` lists the entries",
                    self.dir.display()
                ),
                None => format!("the trash at {} is empty", self.dir.display()),
            }));
        };
        let folder = self.dir.join(&entry.id);
        let taken: Vec<String> = entry
            .items
            .iter()
            .filter(|i| fs::symlink_metadata(&i.original).is_ok())
            .map(|i| i.original.display().to_string())
            .collect();
        if !taken.is_empty() {
            return Err(Error::new(format!(
                "cannot restore {}: {} exist{} again; move {} aside and run `agent-guard restore {}` again",
                entry.id,
                taken.join(", "),
                if taken.len() == 1 { "s" } else { "" },
                if taken.len() == 1 { "it" } else { "them" },
                entry.id
            )));
        }
        let mut moves = Vec::new();
        for item in &entry.items {
            let stored = folder.join(&item.stored);
            if fs::symlink_metadata(&stored).is_err() {
                return Err(Error::new(format!(
                    "trash entry {} has lost {} (it should be at {}); nothing was restored",
                    entry.id,
                    item.original.display(),
                    stored.display()
                )));
            }
            moves.push((stored, item.original.clone()));
        }
        for (_, original) in &moves {
            if let Some(parent) = original.parent() {
                fs::create_dir_all(parent).map_err(|e| Error::io("create", parent, &e))?;
            }
        }
        let mut notes = move_all(&moves).map_err(|e| {
            Error::new(if e.undone {
                format!("{}; nothing was restored", e.error)
            } else {
                format!(
                    "{}; part of entry {} is back in place, the rest is still in {}",
                    e.error,
                    entry.id,
                    folder.display()
                )
            })
        })?;
        if let Err(e) = remove_tree(&folder) {
            notes.push(format!(
                "everything is back, but the emptied entry {} could not be deleted: {e}",
                folder.display()
            ));
        }
        Ok((entry, notes))
    }

    /// Deletes for good every entry, or those older than `older_than`. Damaged folders go
    /// only when everything goes.
    pub fn purge(&self, older_than: Option<Duration>) -> Result<Vec<Entry>, Error> {
        let listing = self.list()?;
        let cutoff = older_than.map(|age| now().saturating_sub(age.as_secs()));
        let mut purged = Vec::new();
        let mut failed = Vec::new();
        for entry in listing.entries {
            if cutoff.is_some_and(|c| entry.time > c) {
                continue;
            }
            let folder = self.dir.join(&entry.id);
            match remove_tree(&folder) {
                Ok(()) => purged.push(entry),
                Err(e) => failed.push(format!("{}: {e}", folder.display())),
            }
        }
        if cutoff.is_none() {
            for folder in listing.damaged {
                if let Err(e) = remove_tree(&folder) {
                    failed.push(format!("{}: {e}", folder.display()));
                }
            }
        }
        if failed.is_empty() {
            Ok(purged)
        } else {
            Err(Error::new(format!(
                "purged {} entr{}, but could not delete {}",
                purged.len(),
                if purged.len() == 1 { "y" } else { "ies" },
                failed.join("; ")
            )))
        }
    }

    /// A fresh entry folder named `<stamp>-<4 hex digits>`, created (not merely picked) so
    /// that two removals never share one. The digits count 16-microsecond steps within the
    /// second, so ids sort in the order the removals happened and `restore` finds the latest.
    fn new_entry_folder(&self, at: Duration) -> Result<(String, PathBuf), Error> {
        for step in (at.subsec_nanos() >> 14)..0x1_0000 {
            let id = format!("{}-{step:04x}", stamp(at.as_secs()));
            let folder = self.dir.join(&id);
            match fs::create_dir(&folder) {
                Ok(()) => return Ok((id, folder)),
                Err(e) if e.kind() == ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(Error::io("create", &folder, &e)),
            }
        }
        Err(Error::new(format!(
            "cannot find a free entry name in {}",
            self.dir.display()
        )))
    }
}

fn write_record(folder: &Path, entry: &Entry) -> Result<(), Error> {
    let json = serde_json::to_vec_pretty(entry)
        .map_err(|e| Error::new(format!("cannot record the trash entry: {e}")))?;
    write_atomic(&folder.join(RECORD), &json)
}

/// A failed [`move_all`]: why, and whether the moves already made were all undone.
struct Failed {
    error: Error,
    undone: bool,
}

/// Makes every move (from, to), or, when one fails, undoes the ones made before it.
fn move_all(moves: &[(PathBuf, PathBuf)]) -> Result<Vec<String>, Failed> {
    let mut notes = Vec::new();
    for (done, (from, to)) in moves.iter().enumerate() {
        match move_tree(from, to) {
            Ok(note) => notes.extend(note),
            Err(error) => {
                // Every undo is tried, even after one fails.
                let stuck = moves
                    .iter()
                    .take(done)
                    .rev()
                    .filter(|(from, to)| move_tree(to, from).is_err())
                    .count();
                let undone = stuck == 0;
                return Err(Failed { error, undone });
            }
        }
    }
    Ok(notes)
}
