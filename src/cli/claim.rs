//! `agent-guard claim`, `release` and `claims`: which agent works on which paths.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use serde_json::json;

use crate::saferm::claims::{self, Claim, DEFAULT_TTL, Session};
use crate::saferm::text::{now, parse_duration, span, utc};

#[derive(clap::Args)]
pub struct ClaimArgs {
    /// The files and folders to claim; they need not exist yet.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// The process the claims last as long as. Default: the process that started this
    /// command, skipping shells and wrappers (for an agent, the agent itself).
    #[arg(long, value_name = "PID")]
    pid: Option<u32>,
    /// The longest the claims last even while that process runs; claim again to renew
    /// (90s, 30m, 12h, 7d, 2w; default 12h).
    #[arg(long, value_name = "AGE", value_parser = parse_duration)]
    ttl: Option<Duration>,
}

#[derive(clap::Args)]
pub struct ReleaseArgs {
    /// The claimed paths to let go of (with what is claimed inside them); none: every claim
    /// of this session in the current repository.
    #[arg(value_name = "PATH")]
    paths: Vec<PathBuf>,
}

#[derive(clap::Args)]
pub struct ClaimsArgs {
    /// Print one JSON object: {"session", "claims": [{"path", "session", "pid", "since",
    /// "expires"}]}.
    #[arg(long)]
    json: bool,
}

pub fn run_claim(args: &ClaimArgs) -> ExitCode {
    let Some(cwd) = current_dir("claim") else {
        return ExitCode::from(1);
    };
    let session = Session::from_env(args.pid);
    note_derived(&session);
    match claims::claim(&cwd, &args.paths, &session, args.ttl.unwrap_or(DEFAULT_TTL)) {
        Ok(made) => {
            for claim in &made {
                println!(
                    "Claimed {} for session `{}` (pid {}) until {}.",
                    shown(&claim.path, &cwd),
                    claim.session,
                    claim.pid,
                    utc(claim.expires)
                );
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("agent-guard claim: {e}");
            ExitCode::from(1)
        }
    }
}

pub fn run_release(args: &ReleaseArgs) -> ExitCode {
    let Some(cwd) = current_dir("release") else {
        return ExitCode::from(1);
    };
    let session = Session::from_env(None);
    note_derived(&session);
    let released = match claims::release(&cwd, &args.paths, &session.id) {
        Ok(released) => released,
        Err(e) => {
            eprintln!("agent-guard release: {e}");
            return ExitCode::from(1);
        }
    };
    for claim in &released.released {
        println!(
            "Released {} (session `{}`).",
            shown(&claim.path, &cwd),
            claim.session
        );
    }
    if args.paths.is_empty() && released.released.is_empty() {
        println!("Session `{}` holds no claims here.", session.id);
    }
    for path in &released.not_held {
        eprintln!(
            "agent-guard release: {}: session `{}` holds no claim on it or inside it",
            path.display(),
            session.id
        );
    }
    if released.not_held.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

pub fn run_claims(args: &ClaimsArgs) -> ExitCode {
    let Some(cwd) = current_dir("claims") else {
        return ExitCode::from(1);
    };
    let session = Session::from_env(None);
    let live = match claims::list(&cwd) {
        Ok(live) => live,
        Err(e) => {
            eprintln!("agent-guard claims: {e}");
            return ExitCode::from(1);
        }
    };
    if args.json {
        println!("{}", json!({ "session": session.id, "claims": live }));
        return ExitCode::SUCCESS;
    }
    if live.is_empty() {
        println!("No live claims in this repository.");
        return ExitCode::SUCCESS;
    }
    let now = now();
    for claim in &live {
        println!("{}", line(claim, &cwd, &session, now));
    }
    ExitCode::SUCCESS
}

fn line(claim: &Claim, cwd: &Path, session: &Session, now: u64) -> String {
    let yours = if claim.session == session.id {
        " (this session)"
    } else {
        ""
    };
    format!(
        "{}  {}{yours}; expires in {}",
        shown(&claim.path, cwd),
        claim.describe(now),
        span(claim.expires.saturating_sub(now))
    )
}

fn note_derived(session: &Session) {
    if let Some(note) = &session.derived {
        eprintln!("agent-guard: {note}");
    }
}

fn current_dir(command: &str) -> Option<PathBuf> {
    std::env::current_dir()
        .map_err(|e| eprintln!("agent-guard {command}: cannot read the current directory: {e}"))
        .ok()
}

/// A claimed path relative to the current directory when inside it.
fn shown(path: &Path, cwd: &Path) -> String {
    let cwd = cwd.canonicalize().unwrap_or_else(|_| cwd.to_path_buf());
    match path.strip_prefix(&cwd) {
        Ok(rel) if !rel.as_os_str().is_empty() => rel.display().to_string(),
        _ => path.display().to_string(),
    }
}
