//! `agent-guard undo`: put back what the newest snapshot saved.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::audit::{self, Record};
use crate::settings::Settings;
use crate::snapshot::{self, RestoreOptions};

#[derive(clap::Args)]
pub struct Args {
    /// The snapshot to restore, by id (see `agent-guard snapshots`); default: the newest.
    #[arg(value_name = "SNAPSHOT")]
    id: Option<String>,
    /// Also overwrite files that changed after the snapshot (they are snapshotted first).
    #[arg(long)]
    force: bool,
    /// Show what would be restored; write nothing.
    #[arg(long)]
    dry_run: bool,
    /// A folder in the repository (default: the current one).
    #[arg(long, value_name = "DIR")]
    cwd: Option<PathBuf>,
}

pub fn run(args: &Args) -> ExitCode {
    let dir = match super::folder(args.cwd.as_ref()) {
        Ok(dir) => dir,
        Err(code) => return code,
    };
    let settings = crate::config::load(Some(&dir)).settings;
    let options = RestoreOptions {
        force: args.force,
        dry_run: args.dry_run,
        max_size: settings.snapshot_max_size,
        max_age: settings.snapshot_max_age,
    };
    let done = match snapshot::restore(&dir, args.id.as_deref(), options) {
        Ok(done) => done,
        Err(why) => {
            eprintln!("agent-guard: {why}");
            return ExitCode::from(2);
        }
    };
    let s = &done.snapshot;
    let when = s
        .time
        .map_or(String::new(), |t| format!(", {} ago", crate::units::age(t)));
    let verb = if args.dry_run {
        "Would restore"
    } else {
        "Restored"
    };
    if let Some(saved) = &done.saved_first {
        println!(
            "Saved the files it overwrites first as snapshot {}.",
            saved.id
        );
    }
    if !args.dry_run && !done.restored.is_empty() {
        log_undo(&dir, s, &settings);
    }
    if done.restored.is_empty() && done.kept.is_empty() {
        println!(
            "Nothing to restore: the working tree already holds everything snapshot {} saved (before `{}`{when}).",
            s.id, s.command
        );
    } else if !done.restored.is_empty() {
        println!(
            "{verb} {} file(s) from snapshot {} (before `{}`{when}):",
            done.restored.len(),
            s.id,
            crate::policy::shorten(&s.command)
        );
        for path in &done.restored {
            println!("  {path}");
        }
    }
    if !done.kept.is_empty() {
        println!(
            "Kept {} file(s) that changed after the snapshot (`agent-guard undo --force` overwrites them):",
            done.kept.len()
        );
        for path in &done.kept {
            println!("  {path}");
        }
    }
    for hint in &done.refs {
        println!("Also: {hint}.");
    }
    if done.kept.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Adds the undo to the audit log; a failure is said on stderr and changes nothing else.
fn log_undo(dir: &Path, snapshot: &crate::snapshot::Snapshot, settings: &Settings) {
    let Some(path) = audit::log_path() else {
        return;
    };
    let origin = audit::Origin {
        cwd: Some(dir.to_path_buf()),
        repository: crate::config::repository_root(dir),
        ..audit::Origin::default()
    };
    let command = format!("agent-guard undo {}", snapshot.id);
    let record = Record::of_undo(&origin, &command, &snapshot.reference);
    if let Err(e) = audit::append(&path, &record, settings.audit_max_size) {
        eprintln!(
            "agent-guard: could not write the audit log {}: {e}",
            path.display()
        );
    }
}
