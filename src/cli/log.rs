//! `agent-guard log`: the audit log, for people (one line a record) or as JSON lines.

use std::process::ExitCode;
use std::time::{Duration, SystemTime};

use crate::audit::{self, Record};
use crate::units;

#[derive(clap::Args)]
pub struct Args {
    /// Only records from the last DURATION: `30m`, `12h`, `7d`, `2w`, `1h30m`.
    #[arg(long, value_name = "DURATION", value_parser = duration)]
    since: Option<Duration>,
    /// Print the records as they are stored: one JSON object a line.
    #[arg(long)]
    json: bool,
}

/// Reads `--since`.
pub(super) fn duration(text: &str) -> Result<Duration, String> {
    units::parse_duration(text)
        .ok_or_else(|| format!("{text:?} is not a duration such as 30m, 12h, 7d or 2w"))
}

/// The records of the audit log since `since` ago, oldest first; a log that cannot be read
/// is said on stderr, and `Err` is the exit code for it.
pub(super) fn records(since: Option<Duration>) -> Result<Vec<Record>, ExitCode> {
    read_records(since).map_err(|message| {
        eprintln!("{message}");
        ExitCode::from(1)
    })
}

fn read_records(since: Option<Duration>) -> Result<Vec<Record>, String> {
    let Some(path) = audit::log_path() else {
        return Err(format!(
            "agent-guard: no audit log: {}",
            audit::why_no_log()
        ));
    };
    let (records, bad) = audit::read(&path)
        .map_err(|e| format!("agent-guard: cannot read {}: {e}", path.display()))?;
    if bad > 0 {
        eprintln!(
            "agent-guard: skipped {bad} unreadable line(s) in {}",
            path.display()
        );
    }
    let cutoff = since.and_then(|d| SystemTime::now().checked_sub(d));
    Ok(records
        .into_iter()
        .filter(|r| match (cutoff, r.time()) {
            (Some(cutoff), Some(time)) => time >= cutoff,
            (Some(_), None) => false,
            (None, _) => true,
        })
        .collect())
}

pub fn run(args: &Args) -> ExitCode {
    let records = match records(args.since) {
        Ok(records) => records,
        Err(code) => return code,
    };
    for record in &records {
        if args.json {
            println!("{}", serde_json::to_string(record).unwrap_or_default());
        } else {
            println!("{}", line(record));
        }
    }
    if records.is_empty() && !args.json {
        eprintln!("agent-guard: no records");
    }
    ExitCode::SUCCESS
}

/// `2026-01-02 03:04:05Z  deny      git.reset-hard  git reset --hard  (claude, /repo)`.
fn line(r: &Record) -> String {
    let time = r.time.get(..19).unwrap_or(&r.time).replace('T', " ");
    let decision = match (&r.override_by, &r.would_be) {
        (Some(by), _) => format!("{}:{by}", r.decision),
        (None, Some(would)) => format!("{}:{would}", r.decision),
        _ => r.decision.clone(),
    };
    let rules = if r.rules.is_empty() {
        "-".to_string()
    } else {
        r.rules.join(",")
    };
    let mut out = format!(
        "{time}Z  {decision:<15} {rules:<24} {}",
        crate::policy::shorten(&r.command)
    );
    let mut about = Vec::new();
    about.extend(r.host.clone());
    about.extend(r.cwd.clone());
    if !about.is_empty() {
        out.push_str(&format!("  ({})", about.join(", ")));
    }
    if let Some(snapshot) = &r.snapshot {
        out.push_str(&format!(
            "  snapshot {}",
            snapshot.trim_start_matches(crate::snapshot::REF_PREFIX)
        ));
    }
    if let Some(error) = &r.error {
        out.push_str(&format!("  error: {error}"));
    }
    out
}
