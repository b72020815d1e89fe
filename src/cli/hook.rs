//! `agent-guard hook`: the hot path. Read stdin, judge, answer, exit 0.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use crate::InternalError;
use crate::audit::{self, Record};
use crate::claims;
use crate::host::{self, Done, FileEdit, Host, OtherTool, Reply, ToolCall};
use crate::journal;
use crate::policy::{Channel, Decision, Verdict};
use crate::settings::Settings;
use crate::shell::{Analysis, Dialect};

/// Judges the call on stdin, or with `after` only records what a call that ran wrote.
pub fn run(host: Option<Host>, after: bool) -> ExitCode {
    let started = Instant::now();
    let mut input = Vec::new();
    if std::io::stdin().read_to_end(&mut input).is_err() {
        return ExitCode::SUCCESS;
    }
    // An internal error must never break the agent's workflow, nor let through a line that
    // names anything destructive: it is judged as input the guard could not analyze, said
    // on stderr and written to the audit log.
    std::panic::set_hook(Box::new(|info| {
        eprintln!("agent-guard: internal error ({info})");
    }));
    crate::locate_panics();
    if after {
        // An after-call event only observes: a panic reading it is said on stderr, no more.
        let _ = std::panic::catch_unwind(|| observe_after(&input, host));
        return ExitCode::SUCCESS;
    }
    let reply =
        std::panic::catch_unwind(|| respond(&input, host, started)).unwrap_or_else(|payload| {
            let error = InternalError::from_panic(&*payload);
            std::panic::catch_unwind(|| after_panic(&input, host, started, &error))
                .unwrap_or_else(|_| Reply::silent())
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
    respond_with(input, host, started, crate::evaluate_dialect)
}

/// [`respond`] with the command judged by `judge`. A panic in `judge` is judged as input the
/// guard could not analyze, and logged.
pub fn respond_with(
    input: &[u8],
    host: Option<Host>,
    started: Instant,
    judge: impl FnOnce(&str, Dialect, Option<&Path>, &Settings, Channel) -> Verdict,
) -> Reply {
    if host::may_be_done(input)
        && let Some(done) = host::decode_done(input, host)
    {
        observe(&done);
        return Reply::silent();
    }
    let Some(call) = host::decode(input, host) else {
        if let Some(edit) = host::decode_file_edit(input, host) {
            return file_edit(&edit, started);
        }
        return match host::may_be_tool(input).then(|| host::decode_tool(input, host)) {
            Some(Some(tool)) => other_tool(&tool, started),
            _ => Reply::silent(),
        };
    };
    let loaded = load_settings(call.cwd.as_deref());
    let settings = &loaded.settings;
    let cwd = call.cwd.as_deref();
    let (mut verdict, error) = crate::judge_safely(&call.command, settings, call.channel(), || {
        judge(&call.command, call.dialect(), cwd, settings, call.channel())
    });
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
    let outcome = Outcome {
        verdict: &verdict,
        error: error.as_ref(),
        taken: &taken,
        missed: &missed,
    };
    audit(&call, loaded.repository, &outcome, settings, started);
    if verdict.decision == Decision::Allow
        && error.is_none()
        && !settings.off
        && let Some(analysis) = verdict.analysis.as_deref()
    {
        journal_before(&call, analysis);
    }
    host::encode(&call, &verdict)
}

/// A call the installed command says has run (`hook --after`): what it wrote goes into the
/// journal, whatever the guard would have said of it before.
fn observe_after(input: &[u8], host: Option<Host>) {
    if let Some(done) = host::decode_after(input, host) {
        observe(&done);
    }
}

/// Writes down in the journal what a line about to run creates, from the reading the
/// verdict was given on.
fn journal_before(call: &ToolCall, analysis: &Analysis) {
    let written = written(call, analysis);
    if written.is_empty() {
        return;
    }
    let session = session_of(call.session.as_deref());
    if let Err(e) = journal::before_shell(&written, &session) {
        eprintln!("agent-guard: could not write the journal: {e}");
    }
}

/// The paths a shell call writes, absolute, as `analysis` reads its line.
fn written(call: &ToolCall, analysis: &Analysis) -> Vec<journal::targets::Written> {
    let targets = journal::targets::of(&analysis.commands);
    if targets.is_empty() {
        return Vec::new();
    }
    let Some(cwd) = call.cwd.clone().or_else(|| std::env::current_dir().ok()) else {
        return Vec::new();
    };
    let home = crate::config::dirs::home(
        crate::config::dirs::Os::CURRENT,
        &crate::config::dirs::process_env,
    );
    targets
        .iter()
        .flat_map(|t| journal::targets::resolve(&cwd, t, home.as_deref()))
        .collect()
}

/// The session a call belongs to: the host's, else the one the claims name.
fn session_of(given: Option<&str>) -> String {
    given
        .filter(|s| !s.trim().is_empty())
        .map_or_else(|| claims::Session::from_env(None).id, str::to_string)
}

/// A call that has run: what it left in the files it wrote goes into the journal.
fn observe(done: &Done) {
    let paths = match done {
        // No verdict read this line: only one that may write a file costs a reading.
        Done::Shell(call) if journal::may_write(&call.command) => {
            let analysis = crate::shell::analyze_as(&call.command, call.dialect());
            written(call, &analysis)
                .into_iter()
                .map(|w| w.path)
                .collect()
        }
        Done::Shell(_) => return,
        Done::Files(edit) => edit_paths(edit),
    };
    if paths.is_empty() {
        return;
    }
    let session = session_of(done.session());
    if let Err(e) = journal::after(&paths, &session) {
        eprintln!("agent-guard: could not write the journal: {e}");
    }
}

/// The files a file tool writes, absolute.
fn edit_paths(edit: &FileEdit) -> Vec<PathBuf> {
    let Some(cwd) = edit.cwd.clone().or_else(|| std::env::current_dir().ok()) else {
        return Vec::new();
    };
    edit.paths.iter().map(|p| cwd.join(p)).collect()
}

/// After a panic outside the judging itself (reading the payload, the configuration, a
/// snapshot, the reply): the line is judged as one the guard could not analyze, under the
/// configuration when it can still be read, and the panic logged. A payload that cannot be
/// read stays an allow, as garbage always is.
fn after_panic(input: &[u8], host: Option<Host>, started: Instant, error: &InternalError) -> Reply {
    let Some(call) = host::decode(input, host) else {
        write(
            &Record::of_error(
                &audit::Origin::default(),
                "",
                &error.to_string(),
                started.elapsed(),
            ),
            &Settings::default(),
        );
        return Reply::silent();
    };
    let settings = std::panic::catch_unwind(|| load_settings(call.cwd.as_deref()).settings)
        .unwrap_or_default();
    let verdict = crate::fail_closed(&call.command, &settings, call.channel());
    let outcome = Outcome {
        verdict: &verdict,
        error: Some(error),
        taken: &[],
        missed: &[],
    };
    audit(&call, None, &outcome, &settings, started);
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

/// What the hook decided about a call, for its audit record.
struct Outcome<'a> {
    verdict: &'a Verdict,
    /// The panic met while deciding, if any.
    error: Option<&'a InternalError>,
    /// The snapshots taken first, and the reasons none were.
    taken: &'a [String],
    missed: &'a [String],
}

/// Appends the audit record the outcome calls for: a stop, a question, an override, an
/// observed stop, or any internal error (allowed lines too).
fn audit(
    call: &ToolCall,
    repository: Option<std::path::PathBuf>,
    outcome: &Outcome,
    settings: &Settings,
    started: Instant,
) {
    let origin = origin(call, repository);
    let elapsed = started.elapsed();
    let record = Record::of_verdict(
        &origin,
        &call.command,
        outcome.verdict,
        settings.log_allowed,
        elapsed,
    );
    let record = match (record, outcome.error) {
        (Some(record), Some(error)) => Some(record.with_error(&error.to_string())),
        (None, Some(error)) => Some(Record::of_error(
            &origin,
            &call.command,
            &error.to_string(),
            elapsed,
        )),
        (record, None) => record,
    };
    if let Some(mut record) = record {
        record.snapshot = (!outcome.taken.is_empty()).then(|| outcome.taken.join(", "));
        record.no_snapshot = (!outcome.missed.is_empty()).then(|| outcome.missed.join("; "));
        write(&record, settings);
    }
}

/// A host's file-writing tool: the guard's own files are refused; anything else is claimed
/// for this agent, so other agents' `agent-guard rm` and recursive deletes leave it alone.
fn file_edit(edit: &FileEdit, started: Instant) -> Reply {
    let loaded = load_settings(edit.cwd.as_deref());
    let settings = &loaded.settings;
    let call = edit.as_call();
    let mut verdict = crate::evaluate_file_edit(&edit.tool, &edit.paths, settings, call.channel());
    let mut error = None;
    // A whole-file write the host cannot undo is weighed like `: > file`: by what it replaces.
    if verdict.decision == Decision::Allow
        && let Some(write) = edit.replacing()
    {
        let cwd = edit.cwd.as_deref();
        (verdict, error) = crate::judge_safely(&call.command, settings, call.channel(), || {
            crate::evaluate_tool(&write, cwd, settings, call.channel())
        });
    }
    if verdict.decision == Decision::Allow && error.is_none() {
        if !settings.off {
            claim(edit);
            journal_edit(edit);
        }
        return Reply::silent();
    }
    let outcome = Outcome {
        verdict: &verdict,
        error: error.as_ref(),
        taken: &[],
        missed: &[],
    };
    audit(&call, loaded.repository, &outcome, settings, started);
    host::encode(&call, &verdict)
}

/// An MCP tool or a non-shell file tool: judged by what it comes to, audited as the shell
/// calls are. What an allowed patch adds goes into the journal, as the agent's.
fn other_tool(tool: &OtherTool, started: Instant) -> Reply {
    let call = tool.as_call();
    let loaded = load_settings(call.cwd.as_deref());
    let settings = &loaded.settings;
    let cwd = call.cwd.as_deref();
    let (verdict, error) = crate::judge_safely(&call.command, settings, call.channel(), || {
        crate::evaluate_tool(&tool.what, cwd, settings, call.channel())
    });
    let outcome = Outcome {
        verdict: &verdict,
        error: error.as_ref(),
        taken: &[],
        missed: &[],
    };
    audit(&call, loaded.repository, &outcome, settings, started);
    if verdict.decision == Decision::Allow && error.is_none() && !settings.off {
        let written = tool.what.written();
        if !written.is_empty() {
            let edit = FileEdit {
                host: tool.host,
                tool: tool.tool.clone(),
                paths: written,
                cwd: tool.cwd.clone(),
                session: tool.session.clone(),
                replaces: false,
            };
            journal_edit(&edit);
        }
    }
    host::encode(&call, &verdict)
}

/// Writes down in the journal what a file tool about to run will write, as its session's.
fn journal_edit(edit: &FileEdit) {
    let session = session_of(edit.session.as_deref());
    if let Err(e) = journal::before_edit(&edit_paths(edit), &session) {
        eprintln!("agent-guard: could not write the journal: {e}");
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The line is read once a call: the verdict carries that reading to the journal of what
    /// the line writes.
    #[test]
    fn a_call_reads_its_line_once() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        for command in [
            "git status",
            "mkdir -p out && cp notes.txt out/ 2>&1",
            "cat notes.txt > copy.txt",
            "rm -rf ./nothing-here",
            "rm -rf ./nothing-here --yes-i-know",
            "git reset --hard --yes-i-know",
        ] {
            let payload = serde_json::json!({
                "hook_event_name": "PreToolUse",
                "tool_name": "Bash",
                "tool_input": {"command": command},
                "cwd": dir.path(),
                "session_id": "s",
            });
            let before = crate::lang::parses();
            respond(
                payload.to_string().as_bytes(),
                Some(Host::ClaudeCode),
                Instant::now(),
            );
            assert_eq!(crate::lang::parses() - before, 1, "{command}");
        }
    }
}
