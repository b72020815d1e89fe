//! `agent-guard trash` and `agent-guard restore`: what `rm` removed, and getting it back.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use serde_json::json;

use crate::saferm::text::{ago, count, now, parse_duration, size, utc};
use crate::saferm::trash::{Entry, Trash};

#[derive(clap::Args)]
pub struct TrashArgs {
    /// Delete entries for good: all of them, or with --older-than only the older ones.
    #[arg(long)]
    purge: bool,
    /// With --purge: only entries older than this (90s, 30m, 12h, 7d, 2w).
    #[arg(long, value_name = "AGE", requires = "purge", value_parser = parse_duration)]
    older_than: Option<Duration>,
    /// Use the trash that removals under DIR go to, not the current directory's.
    #[arg(short = 'C', value_name = "DIR")]
    dir: Option<PathBuf>,
    /// Print one JSON object: {"trash": DIR, "entries": [...], "damaged": [...]}; with
    /// --purge, "purged" instead of "entries".
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
pub struct RestoreArgs {
    /// The entry to bring back, as `agent-guard trash` lists it; the latest when left out.
    #[arg(value_name = "ID")]
    id: Option<String>,
    /// Use the trash that removals under DIR go to, not the current directory's.
    #[arg(short = 'C', value_name = "DIR")]
    dir: Option<PathBuf>,
    /// Print the restored entry as one JSON object.
    #[arg(long)]
    json: bool,
}

pub fn run_trash(args: &TrashArgs) -> ExitCode {
    let Some(trash) = trash_for(args.dir.as_deref(), "trash") else {
        return ExitCode::from(1);
    };
    if args.purge {
        return match trash.purge(args.older_than) {
            Ok(purged) if args.json => {
                println!(
                    "{}",
                    json!({ "trash": trash.dir.to_string_lossy(), "purged": purged })
                );
                ExitCode::SUCCESS
            }
            Ok(purged) => {
                let bytes: u64 = purged.iter().map(Entry::bytes).sum();
                println!(
                    "Purged {} ({}) from {}.",
                    count(purged.len() as u64, "removal", "removals"),
                    size(bytes),
                    trash.dir.display()
                );
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("agent-guard trash: {e}");
                ExitCode::from(1)
            }
        };
    }
    let listing = match trash.list() {
        Ok(listing) => listing,
        Err(e) => {
            eprintln!("agent-guard trash: {e}");
            return ExitCode::from(1);
        }
    };
    if args.json {
        let damaged: Vec<_> = listing
            .damaged
            .iter()
            .map(|d| d.to_string_lossy())
            .collect();
        println!(
            "{}",
            json!({
                "trash": trash.dir.to_string_lossy(),
                "entries": listing.entries,
                "damaged": damaged,
            })
        );
        return ExitCode::SUCCESS;
    }
    if listing.entries.is_empty() && listing.damaged.is_empty() {
        println!("The trash at {} is empty.", trash.dir.display());
        return ExitCode::SUCCESS;
    }
    println!(
        "{} in the trash at {} (oldest first):",
        count(listing.entries.len() as u64, "removal", "removals"),
        trash.dir.display()
    );
    let now = now();
    for entry in &listing.entries {
        println!(
            "  {}  {} ({})  {}, {}, {}  root {}",
            entry.id,
            utc(entry.time),
            ago(entry.time, now),
            count(entry.items.len() as u64, "target", "targets"),
            count(entry.entries(), "entry", "entries"),
            size(entry.bytes()),
            entry.root.display()
        );
        for item in &entry.items {
            println!(
                "      {}  ({})",
                shown(&item.original, &entry.root),
                item.kind.noun()
            );
        }
    }
    for folder in &listing.damaged {
        println!(
            "  damaged: {} has no readable entry.json; its files are left as they are",
            folder.display()
        );
    }
    println!(
        "`agent-guard restore ID` brings one back; `agent-guard trash --purge --older-than 7d` empties the old ones."
    );
    ExitCode::SUCCESS
}

pub fn run_restore(args: &RestoreArgs) -> ExitCode {
    let Some(trash) = trash_for(args.dir.as_deref(), "restore") else {
        return ExitCode::from(1);
    };
    match trash.restore(args.id.as_deref()) {
        Ok((entry, notes)) => {
            if args.json {
                println!(
                    "{}",
                    json!({ "trash": trash.dir.to_string_lossy(), "restored": entry })
                );
            } else {
                println!("Restored {}:", entry.id);
                for item in &entry.items {
                    println!(
                        "  {}  {}, {}, {}",
                        item.original.display(),
                        item.kind.noun(),
                        count(item.entries, "entry", "entries"),
                        size(item.bytes)
                    );
                }
            }
            for note in notes {
                eprintln!("agent-guard restore: note: {note}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("agent-guard restore: {e}");
            ExitCode::from(1)
        }
    }
}

/// The trash of `dir`, or of the current directory; `None` after saying why there is none.
fn trash_for(dir: Option<&Path>, command: &str) -> Option<Trash> {
    let place = match dir {
        Some(dir) => dir.to_path_buf(),
        None => match std::env::current_dir() {
            Ok(cwd) => cwd,
            Err(e) => {
                eprintln!("agent-guard {command}: cannot read the current directory: {e}");
                return None;
            }
        },
    };
    if !place.is_dir() {
        eprintln!(
            "agent-guard {command}: -C {}: not a directory",
            place.display()
        );
        return None;
    }
    Trash::for_dir(&place)
        .map_err(|e| eprintln!("agent-guard {command}: {e}"))
        .ok()
}

/// `path` relative to `root` when inside it.
fn shown(path: &Path, root: &Path) -> String {
    path.strip_prefix(root)
        .ok()
        .filter(|rel| !rel.as_os_str().is_empty())
        .unwrap_or(path)
        .display()
        .to_string()
}
