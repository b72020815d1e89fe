//! Deleting the snapshots that are past their age.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::REF_PREFIX;
use super::repo::Repo;

/// Deletes the snapshots older than `max_age` (never `keep`). Best effort: a failure leaves
/// them for the next time.
pub(super) fn prune(git: &Repo, now: SystemTime, max_age: Duration, keep: &str) {
    let Ok(out) = git.run(
        &[
            "for-each-ref",
            "--format=%(refname) %(committerdate:unix)",
            REF_PREFIX,
        ],
        None,
    ) else {
        return;
    };
    let cutoff = now
        .checked_sub(max_age)
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_secs());
    let mut doomed = String::new();
    for line in String::from_utf8_lossy(&out).lines() {
        if let Some((name, time)) = line.rsplit_once(' ')
            && name != keep
            && time.parse::<u64>().is_ok_and(|t| t < cutoff)
        {
            doomed.push_str(&format!("delete {name}\n"));
        }
    }
    if !doomed.is_empty() {
        let _ = git.run(&["update-ref", "--stdin"], Some(doomed.as_bytes()));
    }
}
