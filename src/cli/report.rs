//! `agent-guard report`: what the guard did, from the audit log, for people: text on a
//! terminal, or one self-contained HTML page with charts (`--html FILE`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use crate::audit::Record;
use crate::report::{self, Entry, Scope, Summary};
use crate::settings::{Mode, Settings};

#[derive(clap::Args)]
pub struct Args {
    /// Only records from the last DURATION: `30m`, `12h`, `7d`, `2w`.
    #[arg(long, value_name = "DURATION", value_parser = super::log::duration)]
    since: Option<Duration>,
    /// Only records of commands run in this repository (or below this folder).
    #[arg(long, value_name = "PATH")]
    repo: Option<PathBuf>,
    /// Write one self-contained HTML page (charts as SVG, no script) to FILE instead of
    /// printing text.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
}

pub fn run(args: &Args) -> ExitCode {
    let records = match super::log::records(args.since) {
        Ok(records) => records,
        Err(code) => return code,
    };
    let repo = args
        .repo
        .as_ref()
        .map(|p| std::fs::canonicalize(p).unwrap_or_else(|_| p.clone()));
    let records: Vec<Record> = records
        .into_iter()
        .filter(|r| repo.as_deref().is_none_or(|dir| in_folder(r, dir)))
        .collect();
    let settings = rules_alone();
    let bar = super::progress::bar(records.len(), "Reading the audit log");
    let entries: Vec<Entry> = records
        .iter()
        .map(|r| {
            bar.inc(1);
            entry(r, &settings)
        })
        .collect();
    bar.finish_and_clear();
    let mut about = "the audit log".to_string();
    if let Some(since) = &args.since {
        about.push_str(&format!(", last {}", crate::units::format_duration(*since)));
    }
    if let Some(dir) = &repo {
        about.push_str(&format!(", commands run in {}", dir.display()));
    }
    let summary = Summary::of(
        Scope {
            title: "agent-guard report".to_string(),
            about,
            every_command: false,
        },
        entries,
    );
    match &args.html {
        Some(file) => write_page(&summary, file),
        None => {
            print!("{}", report::text(&summary));
            ExitCode::SUCCESS
        }
    }
}

/// Writes the HTML page of `summary` to `file`, saying so on stderr.
pub(super) fn write_page(summary: &Summary, file: &Path) -> ExitCode {
    let page = match report::html(summary) {
        Ok(page) => page,
        Err(why) => {
            eprintln!("agent-guard: {why}");
            return ExitCode::from(1);
        }
    };
    if let Err(e) = std::fs::write(file, page) {
        eprintln!("agent-guard: cannot write {}: {e}", file.display());
        return ExitCode::from(1);
    }
    eprintln!(
        "agent-guard: wrote {} ({} entries, {} stopped)",
        file.display(),
        summary.entries.len(),
        summary.stopped()
    );
    ExitCode::SUCCESS
}

fn in_folder(r: &Record, dir: &Path) -> bool {
    [&r.repository, &r.cwd]
        .into_iter()
        .flatten()
        .any(|p| Path::new(p).starts_with(dir))
}

/// The settings a stop is judged again with to find its safe twin: the rules alone, as
/// configured here, enforced.
fn rules_alone() -> Settings {
    let mut settings = crate::config::load(None).settings;
    settings.off = false;
    settings.mode = Mode::Enforce;
    settings.context = false;
    settings
}

/// The report's view of a record. The log keeps what each finding loses but not the command
/// to run instead: that comes from judging the command again (the rules alone), or else from
/// the rule's own advice.
fn entry(r: &Record, settings: &Settings) -> Entry {
    let stopped = matches!(r.decision.as_str(), "deny" | "ask");
    Entry {
        safer: stopped.then(|| safer(r, settings)).flatten(),
        ..Entry::from(r)
    }
}

fn safer(r: &Record, settings: &Settings) -> Option<String> {
    let verdict = crate::evaluate(&r.command, settings);
    verdict
        .findings
        .iter()
        .filter(|f| r.rules.iter().any(|id| id == f.rule.id))
        .find_map(|f| f.safer.clone())
        .or_else(|| {
            r.rules
                .iter()
                .find_map(|id| crate::rules::by_id(id))
                .map(|rule| rule.instead.to_string())
        })
}
