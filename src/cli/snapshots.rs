//! `agent-guard snapshots`: the snapshots of the current repository, newest first.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::SystemTime;

use serde_json::json;

use crate::config::units;

#[derive(clap::Args)]
pub struct Args {
    /// A folder in the repository (default: the current one).
    #[arg(long, value_name = "DIR")]
    cwd: Option<PathBuf>,
    /// Print one JSON object a snapshot: {"id", "ref", "time", "command", "rules", "files", "bytes", "refs"}.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args) -> ExitCode {
    let dir = match super::undo::folder(args.cwd.as_ref()) {
        Ok(dir) => dir,
        Err(code) => return code,
    };
    let snapshots = match crate::snapshot::list(&dir) {
        Ok(list) => list,
        Err(why) => {
            eprintln!("agent-guard: {why}");
            return ExitCode::from(1);
        }
    };
    if snapshots.is_empty() && !args.json {
        eprintln!("agent-guard: no snapshots in this repository");
    }
    for s in &snapshots {
        if args.json {
            let refs: Vec<_> = s
                .refs
                .iter()
                .map(|(name, sha)| json!({ "ref": name, "commit": sha }))
                .collect();
            println!(
                "{}",
                json!({
                    "id": s.id,
                    "ref": s.reference,
                    "time": s.time.map(units::timestamp),
                    "command": s.command,
                    "rules": s.rules,
                    "files": s.files,
                    "bytes": s.bytes,
                    "refs": refs,
                })
            );
        } else {
            let when = s.time.map_or("?".to_string(), |t| {
                let stamp = units::timestamp(t);
                format!("{}Z ({} ago)", &stamp[..19].replace('T', " "), age(t))
            });
            println!(
                "{}  {when}  {} file(s), {}  `{}`",
                s.id,
                s.files,
                units::format_size(s.bytes),
                crate::policy::shorten(&s.command)
            );
        }
    }
    ExitCode::SUCCESS
}

/// `5m`, `3h`, `2d`: how long ago, roughly.
pub(super) fn age(time: SystemTime) -> String {
    let secs = SystemTime::now()
        .duration_since(time)
        .map_or(0, |d| d.as_secs());
    match secs {
        0..60 => format!("{secs}s"),
        60..3600 => format!("{}m", secs / 60),
        3600..86_400 => format!("{}h", secs / 3600),
        _ => format!("{}d", secs / 86_400),
    }
}
