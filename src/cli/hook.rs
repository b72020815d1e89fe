//! `agent-guard hook`: the hot path. Read stdin, judge, answer, exit 0.
#![deny(clippy::indexing_slicing)]

use std::io::{Read, Write};
use std::process::ExitCode;
use std::sync::OnceLock;
use std::time::Instant;

use crate::audit::{self, Record};
use crate::claims;
use crate::host::{self, FileEdit, Host, Reply, ToolCall};
use crate::settings::Settings;

/// The message of a panic, for the audit record of the internal error.
static PANIC: OnceLock<String> = OnceLock::new();

pub fn run(host: Option<Host>) -> ExitCode {
    let started = Instant::now();
    let mut input = Vec::new();
    if std::io::stdin().read_to_end(&mut input).is_err() {
        return ExitCode::SUCCESS;
    }
    // An internal error must never break the agent's workflow: allow, exit 0, say so on stderr
    // and in the audit log.
    std::panic::set_hook(Box::new(|info| {
        let message = info.to_string();
        eprintln!("agent-guard: internal error ({message}); allowing the command");
        let _ = PANIC.set(message);
    }));
    let reply = std::panic::catch_unwind(|| respond(&input, host, started)).unwrap_or_else(|_| {
        let _ = std::panic::catch_unwind(|| log_error(&input, host, started));
        Reply::silent()
    });
    if let Some(out) = &reply.stdout {
        let mut stdout = std::io::stdout().lock();
        let _ = writeln!(stdout, "{out}");
        let _ = stdout.flush();
    }
    if let Some(err) = &reply.stderr {
        eprintln!("{err}");
    }
    ExitCode::from(reply.exit_code.clamp(0, 255) as u8)
}

/// The whole hook: payload bytes in, the host's reply out; before it, the snapshot and the
/// audit record the verdict calls for. A command with no finding costs no git process and
/// no write.
pub fn respond(input: &[u8], host: Option<Host>, started: Instant) -> Reply {
    let Some(call) = host::decode(input, host) else {
        return match host::decode_file_edit(input, host) {
            Some(edit) => file_edit(&edit, started),
            None => Reply::silent(),
        };
    };
    let loaded = load_settings(call.cwd.as_deref());
    let settings = &loaded.settings;
    let cwd = call.cwd.as_deref();
    let mut verdict =
        crate::evaluate_dialect(&call.command, call.dialect(), cwd, settings, call.channel());
    let mut taken = Vec::new();
    let mut missed = Vec::new();
    if verdict.may_destroy() {
        for outcome in crate::snapshot::before(&call.command, cwd, &verdict, settings) {
            match outcome {
                Ok(snapshot) => {
                    verdict.note(&format!("{}.", snapshot.describe()));
                    taken.push(snapshot.reference);
                }
                Err(why) => {
                    verdict.note(&format!("No snapshot was taken: {why}."));
                    missed.push(why);
                }
            }
        }
    }
    audit(
        &call,
        loaded.repository,
        &verdict,
        settings,
        started,
        (&taken, &missed),
    );
    host::encode(&call, &verdict)
}

/// The settings for a call in `cwd`, with any problem in the config files on stderr.
fn load_settings(cwd: Option<&std::path::Path>) -> crate::config::Loaded {
    let loaded = crate::config::load(cwd);
    for problem in &loaded.problems {
        eprintln!("{problem}");
    }
    loaded
}

/// Appends the audit record the verdict calls for, with the snapshots taken and the reasons
/// none were.
fn audit(
    call: &ToolCall,
    repository: Option<std::path::PathBuf>,
    verdict: &crate::policy::Verdict,
    settings: &Settings,
    started: Instant,
    (taken, missed): (&[String], &[String]),
) {
    let origin = origin(call, repository);
    let record = Record::of_verdict(
        &origin,
        &call.command,
        verdict,
        settings.log_allowed,
        started.elapsed(),
    );
    if let Some(mut record) = record {
        record.snapshot = (!taken.is_empty()).then(|| taken.join(", "));
        record.no_snapshot = (!missed.is_empty()).then(|| missed.join("; "));
        write(&record, settings);
    }
}

/// A host's file-writing tool: the guard's own files are refused; anything else is claimed
/// for this agent, so other agents' `agent-guard rm` and recursive deletes leave it alone.
fn file_edit(edit: &FileEdit, started: Instant) -> Reply {
    let loaded = load_settings(edit.cwd.as_deref());
    let settings = &loaded.settings;
    let call = edit.as_call();
    let verdict = crate::evaluate_file_edit(&edit.tool, &edit.paths, settings, call.channel());
    if verdict.decision == crate::policy::Decision::Allow {
        if !settings.off {
            claim(edit);
        }
        return Reply::silent();
    }
    audit(
        &call,
        loaded.repository,
        &verdict,
        settings,
        started,
        (&[], &[]),
    );
    host::encode(&call, &verdict)
}

/// Claims what the agent is about to write. Outside a repository there are no claims, and a
/// path another agent holds stays theirs: either way the edit itself goes ahead.
fn claim(edit: &FileEdit) {
    let Some(cwd) = edit.cwd.clone().or_else(|| std::env::current_dir().ok()) else {
        return;
    };
    let paths: Vec<std::path::PathBuf> = edit.paths.iter().map(|p| cwd.join(p)).collect();
    let session = claims::Session::from_env(None);
    let _ = claims::claim(&cwd, &paths, &session, claims::DEFAULT_TTL);
}

fn origin(call: &ToolCall, repository: Option<std::path::PathBuf>) -> audit::Origin {
    audit::Origin {
        host: Some(call.host.name().to_string()),
        session: call.session.clone(),
        cwd: call.cwd.clone(),
        repository,
    }
}

/// The audit record of a panic, with what is known of the call.
fn log_error(input: &[u8], host: Option<Host>, started: Instant) {
    let call = host::decode(input, host);
    let origin = call.as_ref().map(|c| origin(c, None)).unwrap_or_default();
    let command = call.as_ref().map_or("", |c| c.command.as_str());
    let error = PANIC.get().map_or("a panic", String::as_str);
    let record = Record::of_error(&origin, command, error, started.elapsed());
    write(&record, &Settings::default());
}

/// Appends to the audit log; a failure is reported on stderr and never changes the answer.
fn write(record: &Record, settings: &Settings) {
    let Some(path) = audit::log_path() else {
        eprintln!("agent-guard: no audit log: {}", audit::why_no_log());
        return;
    };
    if let Err(e) = audit::append(&path, record, settings.audit_max_size) {
        eprintln!(
            "agent-guard: could not write the audit log {}: {e}",
            path.display()
        );
    }
}
