//! Reading the snapshots of a repository back from their refs.

use std::path::Path;

use super::repo::{Repo, split_nul};
use super::{REF_PREFIX, Snapshot};
use crate::units;

/// The snapshots of the repository at `dir`, newest first.
pub fn list(dir: &Path) -> Result<Vec<Snapshot>, String> {
    let git = Repo::new(dir, &[]);
    git.toplevel()?;
    let out = git.run(
        &[
            "for-each-ref",
            "--sort=-refname",
            "--format=%(refname)%00%(objectname)%00%(contents)%00",
            REF_PREFIX,
        ],
        None,
    )?;
    let out = String::from_utf8_lossy(&out);
    let mut snapshots = Vec::new();
    // Each ref: "name\0sha\0message\0\n".
    for record in out.split("\0\n").filter(|r| !r.trim().is_empty()) {
        let mut fields = record.splitn(3, '\0');
        let (Some(reference), Some(commit), Some(message)) =
            (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        snapshots.push(Snapshot::parse(reference, commit, message));
    }
    Ok(snapshots)
}

/// The files snapshot `snapshot` holds: those that differ from the commit it was taken on
/// (its first parent), or every file when it was taken before the first commit.
pub fn contents(dir: &Path, snapshot: &Snapshot) -> Result<Vec<String>, String> {
    let git = Repo::new(dir, &[]);
    let out = if snapshot.refs.is_empty() {
        git.run(
            &["ls-tree", "-r", "--name-only", "-z", &snapshot.commit],
            None,
        )?
    } else {
        let parent = format!("{}^1", snapshot.commit);
        git.run(
            &[
                "diff-tree",
                "-r",
                "--name-only",
                "-z",
                &parent,
                &snapshot.commit,
            ],
            None,
        )?
    };
    Ok(split_nul(&out))
}

impl Snapshot {
    fn parse(reference: &str, commit: &str, message: &str) -> Snapshot {
        let mut snapshot = Snapshot {
            id: reference
                .strip_prefix(REF_PREFIX)
                .unwrap_or(reference)
                .to_string(),
            reference: reference.to_string(),
            commit: commit.to_string(),
            time: None,
            command: String::new(),
            rules: Vec::new(),
            files: 0,
            bytes: 0,
            refs: Vec::new(),
        };
        for line in message.lines() {
            let Some((key, value)) = line.split_once(": ") else {
                continue;
            };
            match key {
                "Agent-Guard-Command" => {
                    snapshot.command = serde_json::from_str(value).unwrap_or_default();
                }
                "Agent-Guard-Time" => snapshot.time = units::parse_timestamp(value),
                "Agent-Guard-Rules" => {
                    snapshot.rules = value
                        .split(", ")
                        .filter(|r| !r.is_empty())
                        .map(str::to_string)
                        .collect();
                }
                "Agent-Guard-Files" => snapshot.files = value.parse().unwrap_or(0),
                "Agent-Guard-Bytes" => snapshot.bytes = value.parse().unwrap_or(0),
                "Agent-Guard-Ref" => {
                    if let Some((name, sha)) = value.rsplit_once(' ') {
                        snapshot.refs.push((name.to_string(), sha.to_string()));
                    }
                }
                _ => {}
            }
        }
        snapshot
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_reads_back() {
        let message = "agent-guard snapshot before `x`\n\nAgent-Guard-Command: \"git reset --hard\\nx\"\n\
                       Agent-Guard-Time: 2026-01-02T03:04:05.678Z\nAgent-Guard-Rules: git.reset-hard, fs.rm-recursive\n\
                       Agent-Guard-Files: 3\nAgent-Guard-Bytes: 120\nAgent-Guard-Ref: refs/heads/main abc\n";
        let s = Snapshot::parse("refs/agent-guard/snapshots/id-1", "c0ffee", message);
        assert_eq!(s.id, "id-1");
        assert_eq!(s.command, "git reset --hard\nx");
        assert_eq!(s.rules, ["git.reset-hard", "fs.rm-recursive"]);
        assert_eq!((s.files, s.bytes), (3, 120));
        assert_eq!(s.refs, [("refs/heads/main".to_string(), "abc".to_string())]);
        assert!(s.time.is_some());
    }
}
