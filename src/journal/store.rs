//! The journal's file: one JSON event a line, appended under an exclusive lock, read under a
//! shared one, and cut to its newest half when it grows past its cap.
//!
//! Dropping the oldest lines is always safe: what an event no longer on file vouched for
//! becomes someone's work. A line that does not read makes the whole file untrusted.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// Past this size the oldest half of the journal is dropped.
pub const MAX_BYTES: u64 = 2 << 20;

/// What one event says about one path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// The path did not exist when the session's call was judged, and the call creates it.
    Created,
    /// A file tool is about to change the file, which held `hash` then.
    Before,
    /// The session is about to write again to a path that was agents' own.
    Writes,
    /// After the session's call, the path held `hash`.
    After,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    #[serde(rename = "e")]
    pub kind: Kind,
    pub path: PathBuf,
    pub session: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hash: Option<String>,
    /// Unix seconds, for a person reading the file.
    pub time: u64,
}

/// Where a path's content came from, as far as agent sessions go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// It did not exist before an agent session made it.
    Created,
    /// It held content of this hash before an agent session's first change.
    Before(String),
}

/// What the events on file say about one path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct State {
    pub origin: Origin,
    /// The session that wrote it last.
    pub session: String,
    /// What it held after that session's last call; `None` while a write is pending or
    /// was never seen to finish.
    pub after: Option<String>,
}

/// Every path's state, the events folded in order.
pub fn fold(events: impl IntoIterator<Item = Event>) -> HashMap<PathBuf, State> {
    let mut states: HashMap<PathBuf, State> = HashMap::new();
    for event in events {
        let origin = match (event.kind, event.hash) {
            (Kind::Created, _) => Origin::Created,
            (Kind::Before, Some(hash)) => Origin::Before(hash),
            (Kind::Before, None) => {
                states.remove(&event.path);
                continue;
            }
            (Kind::Writes, _) => {
                if let Some(state) = states.get_mut(&event.path) {
                    state.session = event.session;
                    state.after = None;
                }
                continue;
            }
            (Kind::After, hash) => {
                // Only the session that wrote last can say what its write left.
                if let Some(state) = states.get_mut(&event.path)
                    && state.session == event.session
                {
                    state.after = hash;
                }
                continue;
            }
        };
        states.insert(
            event.path,
            State {
                origin,
                session: event.session,
                after: None,
            },
        );
    }
    states
}

/// Why the journal could not be read.
#[derive(Debug)]
pub enum Unreadable {
    Missing,
    Io,
    /// A line that is not an event: the file was damaged or written by someone else.
    Corrupt,
}

/// Every event in the journal at `path`, oldest first.
pub fn read(path: &Path) -> Result<Vec<Event>, Unreadable> {
    let mut file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(Unreadable::Missing),
        Err(_) => return Err(Unreadable::Io),
    };
    file.lock_shared().map_err(|_| Unreadable::Io)?;
    let mut text = String::new();
    file.read_to_string(&mut text).map_err(|_| Unreadable::Io)?;
    parse(&text)
}

fn parse(text: &str) -> Result<Vec<Event>, Unreadable> {
    text.lines()
        .filter(|line| !line.is_empty())
        .map(|line| serde_json::from_str(line).map_err(|_| Unreadable::Corrupt))
        .collect()
}

/// Appends `events` to the journal at `path` in one write, first dropping the oldest half
/// of the file when they would take it past `max_bytes`.
pub fn append(path: &Path, events: &[Event], max_bytes: u64) -> io::Result<()> {
    let mut lines = Vec::new();
    for event in events {
        lines.extend(serde_json::to_vec(event)?);
        lines.push(b'\n');
    }
    if lines.is_empty() {
        return Ok(());
    }
    if let Some(dir) = path.parent() {
        crate::config::dirs::create_private(dir)?;
    }
    let mut options = OpenOptions::new();
    options.create(true).read(true).append(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(path)?;
    file.lock()?;
    let len = file.metadata()?.len();
    if len > 0 && len + lines.len() as u64 > max_bytes {
        let mut kept = Vec::new();
        file.seek(SeekFrom::Start(0))?;
        file.read_to_end(&mut kept)?;
        let cut = usize::try_from(len.saturating_sub(max_bytes / 2)).unwrap_or(usize::MAX);
        // From the first whole line at or after the cut.
        let start = kept
            .get(cut.saturating_sub(1)..)
            .and_then(|rest| rest.iter().position(|b| *b == b'\n'))
            .map_or(kept.len(), |at| cut.saturating_sub(1) + at + 1);
        let tail = kept.get(start..).unwrap_or_default().to_vec();
        file.set_len(0)?;
        file.write_all(&tail)?;
    }
    file.write_all(&lines)
}

/// FNV-1a, 64 bits, over a file's bytes: stable across builds and platforms, and plenty to
/// tell one version of a file from another (it does not guard against forgeries, and need
/// not: a forger would have to change the file it wants to pass off).
#[derive(Debug, Clone, Copy)]
pub struct Hasher(u64);

impl Hasher {
    pub fn new() -> Self {
        Hasher(0xcbf2_9ce4_8422_2325)
    }

    pub fn update(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 ^= u64::from(*byte);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    pub fn hex(self) -> String {
        format!("{:016x}", self.0)
    }
}

/// Files larger than this are never hashed: they stay someone's.
const MAX_HASHED: u64 = 64 << 20;

/// The hash of what is at `path`: a file's bytes, or a symbolic link's target. `None` for
/// anything else, for a file too large, or on any error.
pub fn hash_path(path: &Path) -> Option<String> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    let mut hasher = Hasher::new();
    if meta.file_type().is_symlink() {
        hasher.update(b"link:");
        hasher.update(std::fs::read_link(path).ok()?.to_string_lossy().as_bytes());
        return Some(hasher.hex());
    }
    if !meta.is_file() || meta.len() > MAX_HASHED {
        return None;
    }
    let mut file = File::open(path).ok()?;
    let mut buffer = [0u8; 64 * 1024];
    loop {
        let n = file.read(&mut buffer).ok()?;
        if n == 0 {
            return Some(hasher.hex());
        }
        hasher.update(buffer.get(..n)?);
    }
}

/// The hash of `bytes`, as [`hash_path`] gives it for a file holding them.
pub fn hash_bytes(bytes: &[u8]) -> String {
    let mut hasher = Hasher::new();
    hasher.update(bytes);
    hasher.hex()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(kind: Kind, path: &str, session: &str, hash: Option<&str>) -> Event {
        Event {
            kind,
            path: PathBuf::from(path),
            session: session.into(),
            hash: hash.map(str::to_string),
            time: 1,
        }
    }

    #[test]
    fn fnv_matches_the_published_vectors() {
        assert_eq!(hash_bytes(b""), "cbf29ce484222325");
        assert_eq!(hash_bytes(b"a"), "af63dc4c8601ec8c");
        assert_eq!(hash_bytes(b"foobar"), "85944171f73967e8");
    }

    #[test]
    fn after_counts_only_from_the_session_that_wrote_last() {
        let states = fold([
            event(Kind::Created, "/r/a", "s1", None),
            event(Kind::After, "/r/a", "s2", Some("h")),
            event(Kind::After, "/r/b", "s1", Some("h")),
        ]);
        assert_eq!(states.get(Path::new("/r/a")).unwrap().after, None);
        assert!(!states.contains_key(Path::new("/r/b")));
        let states = fold([
            event(Kind::Created, "/r/a", "s1", None),
            event(Kind::After, "/r/a", "s1", Some("h1")),
            event(Kind::Writes, "/r/a", "s2", None),
        ]);
        let a = states.get(Path::new("/r/a")).unwrap();
        assert_eq!((a.origin.clone(), a.after.clone()), (Origin::Created, None));
    }

    #[test]
    fn a_line_that_does_not_read_makes_the_journal_corrupt() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j.jsonl");
        append(&path, &[event(Kind::Created, "/r/a", "s", None)], MAX_BYTES).unwrap();
        assert_eq!(read(&path).unwrap().len(), 1);
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(b"{\"e\":\"created\",\"pa\n")
            .unwrap();
        assert!(matches!(read(&path), Err(Unreadable::Corrupt)));
        assert!(matches!(
            read(&dir.path().join("none.jsonl")),
            Err(Unreadable::Missing)
        ));
    }

    #[test]
    fn a_full_journal_keeps_its_newest_whole_lines() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j.jsonl");
        let one = serde_json::to_vec(&event(Kind::Created, "/r/0000", "s", None))
            .unwrap()
            .len() as u64
            + 1;
        for n in 0..100 {
            let name = format!("/r/{n:04}");
            append(&path, &[event(Kind::Created, &name, "s", None)], one * 10).unwrap();
            assert!(std::fs::metadata(&path).unwrap().len() <= one * 10);
        }
        let events = read(&path).unwrap();
        assert!(events.len() >= 5 && events.len() <= 10, "{}", events.len());
        assert_eq!(events.last().unwrap().path, PathBuf::from("/r/0099"));
    }
}
