//! The audit log: one JSON line for every stop, ask, override, observed stop and internal
//! error, in `$XDG_STATE_HOME/agent-guard/audit.jsonl` (`~/.local/state/...` without it; on
//! Windows `%LOCALAPPDATA%\agent-guard\audit.jsonl`).
//!
//! Several agents run hooks at once, so a record is written with one `write` call on a file
//! opened for appending, under an exclusive lock (`File::lock`): lines never interleave and
//! none is lost. Past the configured size the file is renamed to `audit.jsonl.1` (one older
//! file is kept) by whoever holds the lock; a writer that waited on the renamed file notices
//! and reopens. Commands that are simply allowed are not logged unless the configuration asks.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

use crate::config::dirs;
use crate::policy::{Decision, Verdict};
use crate::rules::Tier;
use crate::units;

/// One line of the log. Every key is always present (null when it does not apply), so a
/// consumer can rely on the shape.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// UTC, `2026-01-02T03:04:05.678Z`.
    pub time: String,
    pub host: Option<String>,
    pub session: Option<String>,
    pub cwd: Option<String>,
    /// The top folder of the repository the command ran in.
    pub repository: Option<String>,
    pub command: String,
    /// `deny`, `ask`, `override` (let through by one), `observe` (a stop not enforced),
    /// `error` (the guard failed and allowed), `undo` (`agent-guard undo` restored files from
    /// the snapshot named), or `allow` (only when asked to log those).
    /// A stop after the guard failed is a `deny` with `error` set.
    pub decision: String,
    /// For an override: `env`, `prefix` or `flag`.
    #[serde(rename = "override")]
    pub override_by: Option<String>,
    /// For an observed stop: the decision that was not enforced.
    pub would_be: Option<String>,
    pub rules: Vec<String>,
    /// The highest tier among the findings.
    pub tier: Option<String>,
    /// What each finding would destroy.
    pub lost: Vec<String>,
    /// The snapshot taken first (`refs/agent-guard/snapshots/...`).
    pub snapshot: Option<String>,
    /// Why no snapshot was taken, when one was wanted.
    pub no_snapshot: Option<String>,
    pub error: Option<String>,
    /// From the hook's start to this record.
    pub elapsed_ms: f64,
}

impl From<&Record> for crate::report::Entry {
    /// The report's view of a record: all but the command to run instead, which the log does
    /// not keep (a report judges the command again for it).
    fn from(r: &Record) -> crate::report::Entry {
        crate::report::Entry {
            time: Some(r.time.clone()),
            decision: r.decision.clone(),
            rules: r.rules.clone(),
            host: r.host.clone(),
            repository: r.repository.clone().or_else(|| r.cwd.clone()),
            session: r.session.clone(),
            command: r.command.clone(),
            reasons: r.lost.clone(),
            safer: None,
            error: r.error.clone(),
        }
    }
}

/// Most characters of a command an error record keeps.
const MAX_ERROR_COMMAND: usize = 2000;

/// Who asked, for a record.
#[derive(Debug, Clone, Default)]
pub struct Origin {
    pub host: Option<String>,
    pub session: Option<String>,
    pub cwd: Option<PathBuf>,
    pub repository: Option<PathBuf>,
}

impl Record {
    fn new(origin: &Origin, command: &str, decision: &str, elapsed: Duration) -> Record {
        let path = |p: &Option<PathBuf>| p.as_ref().map(|p| p.display().to_string());
        Record {
            time: units::timestamp(SystemTime::now()),
            host: origin.host.clone(),
            session: origin.session.clone(),
            cwd: path(&origin.cwd),
            repository: path(&origin.repository),
            command: command.to_string(),
            decision: decision.to_string(),
            override_by: None,
            would_be: None,
            rules: Vec::new(),
            tier: None,
            lost: Vec::new(),
            snapshot: None,
            no_snapshot: None,
            error: None,
            // Microseconds are plenty; more digits only make the log harder to read.
            elapsed_ms: (elapsed.as_secs_f64() * 1e6).round() / 1e3,
        }
    }

    /// The record of `verdict`, or `None` when it is not one to log: an outright allow,
    /// unless `log_allowed`.
    pub fn of_verdict(
        origin: &Origin,
        command: &str,
        verdict: &Verdict,
        log_allowed: bool,
        elapsed: Duration,
    ) -> Option<Record> {
        let (decision, findings) = match (verdict.decision, verdict.override_by, verdict.observed) {
            (Decision::Deny, ..) => ("deny", &verdict.findings),
            (Decision::Ask, ..) => ("ask", &verdict.findings),
            (Decision::Allow, Some(_), _) => ("override", &verdict.overridden),
            (Decision::Allow, None, Some(_)) => ("observe", &verdict.findings),
            (Decision::Allow, None, None) if log_allowed => ("allow", &verdict.findings),
            (Decision::Allow, None, None) => return None,
        };
        let mut record = Record::new(origin, command, decision, elapsed);
        record.override_by = verdict.override_by.map(|o| o.as_str().to_string());
        record.would_be = verdict.observed.map(|d| d.as_str().to_string());
        let passed = verdict
            .cleared
            .iter()
            .chain(&verdict.exempted)
            .map(|c| &c.finding);
        let all: Vec<_> = if decision == "allow" {
            passed.collect()
        } else {
            findings.iter().collect()
        };
        record.rules = all.iter().map(|f| f.rule.id.to_string()).collect();
        record.lost = all.iter().map(|f| f.loses.clone()).collect();
        record.tier = all
            .iter()
            .map(|f| f.tier)
            .max()
            .map(|t: Tier| t.as_str().to_string());
        Some(record)
    }

    /// The record of `agent-guard undo` restoring files from the snapshot at `reference`:
    /// what a report counts next to the stops that took the snapshots.
    pub fn of_undo(origin: &Origin, command: &str, reference: &str) -> Record {
        let mut record = Record::new(origin, command, "undo", Duration::ZERO);
        record.snapshot = Some(reference.to_string());
        record
    }

    /// The record of an internal error after which the command was allowed.
    pub fn of_error(origin: &Origin, command: &str, error: &str, elapsed: Duration) -> Record {
        Record::new(origin, command, "error", elapsed).with_error(error)
    }

    /// The record with the internal error met while judging its command: the error is what
    /// is to be reported, so a long command is kept only in part.
    pub fn with_error(mut self, error: &str) -> Record {
        if let Some((cut, _)) = self.command.char_indices().nth(MAX_ERROR_COMMAND) {
            let len = self.command.len();
            self.command.truncate(cut);
            self.command.push_str(&format!("… ({len} bytes)"));
        }
        self.error = Some(error.to_string());
        self
    }

    pub fn time(&self) -> Option<SystemTime> {
        units::parse_timestamp(&self.time)
    }
}

/// `audit.jsonl` in the guard's state folder: `$XDG_STATE_HOME/agent-guard`, else
/// `~/.local/state/agent-guard`; on Windows `%LOCALAPPDATA%\agent-guard` ([`dirs`]).
pub fn log_path() -> Option<PathBuf> {
    let state = dirs::own(dirs::Os::CURRENT, dirs::Dir::State, &dirs::process_env)?;
    Some(state.join("audit.jsonl"))
}

/// Why [`log_path`] found no place for the log, for a message.
pub fn why_no_log() -> String {
    dirs::unset(dirs::Os::CURRENT, dirs::Dir::State)
}

/// The file a full log is rotated to.
pub fn rotated(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".1");
    PathBuf::from(name)
}

/// Appends `record` to the log at `path` as one line, rotating first when the line would
/// take the file past `max_size`.
pub fn append(path: &Path, record: &Record, max_size: u64) -> io::Result<()> {
    let mut line = serde_json::to_vec(record)?;
    line.push(b'\n');
    if let Some(dir) = path.parent() {
        // The log holds commands, which may name private things: only its owner reads it.
        crate::config::dirs::create_private(dir)?;
    }
    // Each round either writes, or finds the file renamed under it and tries the new one.
    for _ in 0..8 {
        let mut file = open_append(path)?;
        file.lock()?;
        if !still_at(&file, path)? {
            continue;
        }
        let len = file.metadata()?.len();
        if len > 0 && len + line.len() as u64 > max_size {
            std::fs::rename(path, rotated(path))?;
            continue;
        }
        return file.write_all(&line);
    }
    Err(io::Error::other("the audit log kept being rotated away"))
}

fn open_append(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.create(true).append(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}

/// Whether the open `file` is still the one at `path` (not renamed away by a rotation).
fn still_at(file: &File, path: &Path) -> io::Result<bool> {
    let Ok(at_path) = std::fs::metadata(path) else {
        return Ok(false);
    };
    let open = file.metadata()?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Ok(open.dev() == at_path.dev() && open.ino() == at_path.ino())
    }
    #[cfg(not(unix))]
    {
        Ok(open.len() == at_path.len())
    }
}

/// Every record in the log at `path` (the rotated file first), oldest first, and how many
/// lines could not be read.
pub fn read(path: &Path) -> io::Result<(Vec<Record>, usize)> {
    let mut records = Vec::new();
    let mut bad = 0;
    for file in [rotated(path), path.to_path_buf()] {
        let text = match std::fs::read_to_string(&file) {
            Ok(text) => text,
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Err(e) => return Err(e),
        };
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            match serde_json::from_str::<Record>(line) {
                Ok(record) => records.push(record),
                Err(_) => bad += 1,
            }
        }
    }
    Ok((records, bad))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(command: &str) -> Record {
        Record::of_error(
            &Origin::default(),
            command,
            "boom",
            Duration::from_millis(2),
        )
    }

    #[test]
    fn records_round_trip_as_one_line_each() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state/agent-guard/audit.jsonl");
        append(&path, &record("a\nb"), 1 << 20).unwrap();
        append(&path, &record("c"), 1 << 20).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 2);
        let (records, bad) = read(&path).unwrap();
        assert_eq!(bad, 0);
        assert_eq!(records[0].command, "a\nb");
        assert_eq!(records[1].decision, "error");
        assert!(records[0].time().is_some());
    }

    #[test]
    fn a_full_log_is_rotated_and_read_back_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("audit.jsonl");
        let one = serde_json::to_vec(&record("1")).unwrap().len() as u64 + 1;
        for n in 1..=3 {
            append(&path, &record(&n.to_string()), one * 2).unwrap();
        }
        let (records, _) = read(&path).unwrap();
        let commands: Vec<&str> = records.iter().map(|r| r.command.as_str()).collect();
        assert_eq!(commands, ["1", "2", "3"]);
        assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 1);
    }

    #[test]
    fn unreadable_lines_are_counted_not_fatal() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("audit.jsonl");
        std::fs::write(&path, "{\"cut\n").unwrap();
        append(&path, &record("x"), 1 << 20).unwrap();
        let (records, bad) = read(&path).unwrap();
        assert_eq!((records.len(), bad), (1, 1));
    }
}
