//! `agent-guard snapshots`: the snapshots of the current repository, newest first.

use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::json;

use crate::units;

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
    let dir = match super::folder(args.cwd.as_ref()) {
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
                format!(
                    "{}Z ({} ago)",
                    &stamp[..19].replace('T', " "),
                    units::age(t)
                )
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
