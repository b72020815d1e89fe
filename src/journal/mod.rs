//! Whose work it is: a journal per repository of what agent sessions created or changed,
//! seen through the hook itself.
//!
//! Before a call the guard lets run, the paths it creates are written down as "created by
//! session S" (they did not exist when the call was judged), and an existing file a file tool
//! is about to change as "before: hash H", the content it had before the agents' first change.
//! After the call (the hosts' `PostToolUse`/`AfterTool` hook), what each such path holds is
//! written down as its after-hash. A path is the agents' own while it holds exactly what the
//! last agent write left: a delete, overwrite or discard of it loses no one's work. Anything
//! else is someone's: a path the journal does not know, one changed since (its content no
//! longer matches), one whose write was never seen to finish (no after-hook on that host), and
//! everything when the journal is missing, unreadable or holds a line that does not read.
//!
//! The journal lives beside the audit log, one file per repository
//! (`$XDG_STATE_HOME/agent-guard/journal/<name>-<hash>.jsonl`), written under the same kind of
//! lock, cut to its newest half past [`store::MAX_BYTES`], and refused to the agent's own
//! commands like every other file of the guard's (`guard.tamper`).

mod store;
pub mod targets;

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};

use store::{Event, Kind, Origin, State};
pub use store::{MAX_BYTES, hash_bytes, hash_path};

use crate::config::dirs;

/// Whose the content at a path is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ownership {
    /// Agent sessions made all of it (the last one named), and no one changed it since.
    AgentsOwn(String),
    /// The journal does not show it to be the agents' own.
    Someone,
    /// There is no journal to ask, or it cannot be trusted: someone's, too.
    Unknown,
}

impl Ownership {
    pub fn is_agents(&self) -> bool {
        matches!(self, Ownership::AgentsOwn(_))
    }
}

/// Most files a folder may hold for the journal to vouch for it, or to record it.
const MAX_WALK: usize = 2_000;

/// The journal file of the repository that holds `path`: the nearest folder above it with a
/// `.git`. `None` outside any repository, or when the state folder is unknown.
pub fn file_for(path: &Path) -> Option<PathBuf> {
    let top = repository_of(path)?;
    let state = dirs::own(dirs::Os::CURRENT, dirs::Dir::State, &dirs::process_env)?;
    let name = top
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .take(40)
        .collect();
    let key = hash_bytes(top.to_string_lossy().as_bytes());
    Some(state.join("journal").join(format!("{name}-{key}.jsonl")))
}

/// The folder whose `.git` governs `path`: looked for from the folder `path` is in, so a
/// clone's own folder belongs to the repository around it, and the files inside to the
/// clone.
fn repository_of(path: &Path) -> Option<PathBuf> {
    let mut dir = path.parent()?;
    loop {
        if dir.join(".git").exists() {
            return Some(dir.to_path_buf());
        }
        dir = dir.parent()?;
    }
}

/// `path` absolute, with symbolic links resolved in the part that exists: the one name a
/// file has in the journal however a command spells it.
pub fn absolute(path: &Path) -> Option<PathBuf> {
    let path = targets::normal(path);
    if !path.is_absolute() {
        return None;
    }
    let mut existing = path.as_path();
    let mut rest = Vec::new();
    loop {
        // The last component is kept as is when it is a link: deleting a link loses the link.
        if !rest.is_empty() || !is_symlink(existing) {
            if let Ok(real) = existing.canonicalize() {
                let mut out = real;
                out.extend(rest.iter().rev());
                return Some(out);
            }
        } else if let (Some(parent), Some(name)) = (existing.parent(), existing.file_name()) {
            return Some(absolute(parent)?.join(name));
        }
        rest.push(existing.file_name()?.to_owned());
        existing = existing.parent()?;
    }
}

fn is_symlink(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// The journals read so far, by file: a question about many paths reads each once.
#[derive(Default)]
pub struct Journals {
    read: HashMap<PathBuf, Option<HashMap<PathBuf, State>>>,
}

impl Journals {
    pub fn new() -> Self {
        Journals::default()
    }

    /// The states on file for `path`'s repository; `None` when there is no journal or it
    /// cannot be trusted.
    fn states(&mut self, path: &Path) -> Option<&HashMap<PathBuf, State>> {
        let file = file_for(path)?;
        self.read
            .entry(file)
            .or_insert_with_key(|file| store::read(file).ok().map(store::fold))
            .as_ref()
    }

    /// Whose the content at `path` is: the agents' own when agent sessions created it (it did
    /// not exist before them) and it holds exactly what their last write left.
    pub fn owner(&mut self, path: &Path) -> Ownership {
        self.owner_where(path, |origin| *origin == Origin::Created)
    }

    /// Whose the changes are that turning `path` back into `restored` (what git puts back)
    /// would lose: the agents' own when they started from exactly `restored`, or from no file
    /// at all, and no one changed it after their last write.
    pub fn changes_owner(&mut self, path: &Path, restored: &[u8]) -> Ownership {
        let base = hash_bytes(restored);
        self.owner_where(path, |origin| match origin {
            Origin::Created => true,
            Origin::Before(hash) => *hash == base,
        })
    }

    fn owner_where(&mut self, path: &Path, started: impl Fn(&Origin) -> bool) -> Ownership {
        let Some(path) = absolute(path) else {
            return Ownership::Someone;
        };
        let Some(states) = self.states(&path) else {
            return Ownership::Unknown;
        };
        let Some(state) = states.get(&path) else {
            return Ownership::Someone;
        };
        if !started(&state.origin) {
            return Ownership::Someone;
        }
        match (&state.after, hash_path(&path)) {
            (Some(after), Some(now)) if *after == now => {
                Ownership::AgentsOwn(state.session.clone())
            }
            _ => Ownership::Someone,
        }
    }

    /// Whose everything at `path` is: a file as [`Journals::owner`] says, a folder the
    /// agents' own when every file under it is (an empty one holds no one's work).
    pub fn owner_of_all(&mut self, path: &Path) -> Ownership {
        let is_dir = std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir());
        if !is_dir {
            return self.owner(path);
        }
        // An empty folder holds no one's work, but that is for git to say, not the journal.
        let Some(files) = files_under(path).filter(|f| !f.is_empty()) else {
            return Ownership::Someone;
        };
        let mut last = None;
        for file in files {
            match self.owner(&file) {
                Ownership::AgentsOwn(session) => last = Some(session),
                other => return other,
            }
        }
        Ownership::AgentsOwn(last.unwrap_or_default())
    }
}

/// Whose the content at `path` is (see [`Journals::owner`]), for a single question.
pub fn owns(path: &Path) -> Ownership {
    Journals::new().owner(path)
}

/// Every file (and link) under the folder `dir`, or `None` past [`MAX_WALK`] or on an error.
fn files_under(dir: &Path) -> Option<Vec<PathBuf>> {
    let mut files = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).ok()? {
            let entry = entry.ok()?;
            if entry.file_type().ok()?.is_dir() {
                folders.push(entry.path());
            } else {
                files.push(entry.path());
            }
            if files.len() + folders.len() > MAX_WALK {
                return None;
            }
        }
    }
    Some(files)
}

/// Whether a shell line may create or write a file: the cheap look that spares every other
/// line the parse [`targets::of`] needs. Counting one too many only costs that parse.
pub fn may_write(command: &str) -> bool {
    const WORDS: &[&str] = &[
        ">", "cp", "mv", "install", "ln", "mkdir", "touch", "tee", "truncate", "dd", "unzip",
        "clone", "open", "write", "Path", "rsync", "sort", "tree", "less", "uniq", "curl", "wget",
    ];
    WORDS.iter().any(|w| command.contains(w))
}

/// Before a shell line the guard lets run: each path it writes that does not exist is created
/// by `session` (unless what is moved there is someone else's: a move makes nothing new);
/// one that is the agents' own gets written again by it.
pub fn before_shell(written: &[targets::Written], session: &str) -> io::Result<()> {
    let mut journals = Journals::new();
    let paths: Vec<PathBuf> = written
        .iter()
        .filter(|w| w.moved.iter().all(|m| journals.owner_of_all(m).is_agents()))
        .map(|w| w.path.clone())
        .collect();
    record(&paths, |journals, path| {
        if std::fs::symlink_metadata(path).is_err() {
            return vec![event(Kind::Created, path, session, None)];
        }
        if journals.owner_of_all(path).is_agents() {
            return vec![event(Kind::Writes, path, session, None)];
        }
        Vec::new()
    })
}

/// Before a file tool writes `paths`: each is created by `session`, written again when it is
/// the agents' own, or else changed for the first time from what it holds now.
pub fn before_edit(paths: &[PathBuf], session: &str) -> io::Result<()> {
    record(paths, |journals, path| {
        if std::fs::symlink_metadata(path).is_err() {
            return vec![event(Kind::Created, path, session, None)];
        }
        if journals.owner(path).is_agents() {
            return vec![event(Kind::Writes, path, session, None)];
        }
        vec![event(Kind::Before, path, session, hash_path(path))]
    })
}

/// After `session`'s call wrote `paths`: what each holds now, for those it was seen about to
/// write (a write already settled, or another session's, is not vouched for again); for a
/// folder it created, every file inside, as created by it too.
pub fn after(paths: &[PathBuf], session: &str) -> io::Result<()> {
    record(paths, |journals, path| {
        let Some(state) = journals.states(path).and_then(|s| s.get(path)).cloned() else {
            return Vec::new();
        };
        if state.session != session || state.after.is_some() {
            return Vec::new();
        }
        let is_dir = std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir());
        if !is_dir {
            return vec![event(Kind::After, path, session, hash_path(path))];
        }
        let mut events = Vec::new();
        for file in files_under(path).unwrap_or_default() {
            let known = journals.states(&file).and_then(|s| s.get(&file)).cloned();
            match known {
                None if state.origin == Origin::Created => {
                    events.push(event(Kind::Created, &file, session, None));
                }
                Some(known) if known.session == session && known.after.is_none() => {}
                _ => continue,
            }
            events.push(event(Kind::After, &file, session, hash_path(&file)));
        }
        // The folder is settled too: a later call cannot claim what appears in it since.
        events.push(event(Kind::After, path, session, Some(FOLDER.into())));
        events
    })
}

/// What a folder's after-event holds in place of a hash.
const FOLDER: &str = "folder";

fn event(kind: Kind, path: &Path, session: &str, hash: Option<String>) -> Event {
    Event {
        kind,
        path: path.to_path_buf(),
        session: session.to_string(),
        hash,
        time: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs()),
    }
}

/// Appends the events `of` makes for each of `paths` (made absolute) to their repositories'
/// journals, one write per journal. Paths outside any repository are not recorded.
fn record(paths: &[PathBuf], of: impl Fn(&mut Journals, &Path) -> Vec<Event>) -> io::Result<()> {
    let mut journals = Journals::new();
    let mut by_file: Vec<(PathBuf, Vec<Event>)> = Vec::new();
    for path in paths.iter().filter_map(|p| absolute(p)) {
        let events = of(&mut journals, &path);
        for event in events {
            let Some(file) = file_for(&event.path) else {
                continue;
            };
            match by_file.iter_mut().find(|(f, _)| *f == file) {
                Some((_, list)) => list.push(event),
                None => by_file.push((file, vec![event])),
            }
        }
    }
    for (file, events) in by_file {
        store::append(&file, &events, MAX_BYTES)?;
    }
    Ok(())
}
