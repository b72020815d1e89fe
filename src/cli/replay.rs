//! `agent-guard replay`: what the guard would have stopped in past agent sessions.
//!
//! It answers a new user's first question (what would it have stopped in my last month of
//! work?) and it is how false stops are measured: every stop it lists is one to read. With
//! the rules alone it judges every command as the hook does with `context = off`; with
//! `--context` a command whose folder still exists here is judged against that folder as it
//! is today, which may not be what the session met.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args as ClapArgs;
use serde_json::json;

use crate::host::transcript::{self, PastCall, Source};
use crate::policy::{Channel, Decision, Verdict};
use crate::report::{Entry, Scope, Summary};
use crate::settings::{Mode, Profile, Settings};

#[derive(ClapArgs)]
pub struct Args {
    /// Transcript files or folders to read (folders: every `*.jsonl` and `*.json` below them).
    /// Without any, the hosts' own session folders: ~/.claude/projects, ~/.codex/sessions
    /// (or $CODEX_HOME/sessions) and ~/.gemini/tmp.
    #[arg(value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Judge each command against its session's folder where that folder exists here, as it
    /// is today (not as the session saw it).
    #[arg(long)]
    context: bool,
    /// Print one JSON object instead of text: {"files", "commands", "stopped", "share",
    /// "by_rule", "sessions", "stops"}.
    #[arg(long)]
    json: bool,
    /// Also write one self-contained HTML page (charts as SVG, no script) to FILE: the
    /// share stopped, stops by rule and by session, and each stop with its reason. Only
    /// --json is still printed with it.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Judge with this profile instead of the configured one.
    #[arg(long, value_enum)]
    profile: Option<super::ProfileArg>,
}

/// One command as judged.
struct Judged {
    call: PastCall,
    file: usize,
    verdict: Verdict,
    /// Whether the command's own folder was consulted.
    in_folder: bool,
}

impl Judged {
    fn stopped(&self) -> bool {
        self.verdict.decision != Decision::Allow
    }
}

pub fn run(args: &Args) -> ExitCode {
    let (roots, named) = if args.paths.is_empty() {
        (
            transcript::default_roots()
                .into_iter()
                .map(|(_, root)| root)
                .collect(),
            false,
        )
    } else {
        (args.paths.clone(), true)
    };
    if named && let Some(missing) = roots.iter().find(|p| !p.exists()) {
        eprintln!(
            "agent-guard replay: {}: no such file or folder",
            missing.display()
        );
        return ExitCode::from(2);
    }
    let files = transcript::files(&roots, named);
    let mut base = crate::config::load(None).settings;
    // Replay asks what the guard would stop, whatever switches it off or to observing here.
    base.off = false;
    base.mode = Mode::Enforce;
    if let Some(profile) = args.profile {
        base.profile = Profile::from(profile);
    }
    base.context = false;

    let mut sources: Vec<(PathBuf, Source)> = Vec::new();
    let mut calls: Vec<(usize, PastCall)> = Vec::new();
    let mut unreadable = 0;
    let reading = super::progress::bar(files.len(), "Reading sessions");
    for path in files {
        reading.inc(1);
        let Ok(text) = std::fs::read_to_string(&path) else {
            reading.suspend(|| {
                eprintln!(
                    "agent-guard replay: {}: cannot read it as text; skipped",
                    path.display()
                );
            });
            continue;
        };
        let found = transcript::read(&text);
        unreadable += found.unreadable;
        let Some(source) = found.source else { continue };
        let file = sources.len();
        sources.push((path, source));
        calls.extend(found.calls.into_iter().map(|call| (file, call)));
    }
    reading.finish_and_clear();
    let mut in_folder = FolderSettings::default();
    let judging = super::progress::bar(calls.len(), "Judging commands");
    let judged: Vec<Judged> = calls
        .into_iter()
        .map(|(file, call)| {
            judging.inc(1);
            let folder = args
                .context
                .then(|| call.cwd.as_deref().filter(|d| d.is_dir()))
                .flatten();
            let verdict = match folder {
                Some(dir) => judge(&call, Some(dir), in_folder.get(dir, &base)),
                None => judge(&call, None, &base),
            };
            Judged {
                in_folder: folder.is_some(),
                call,
                file,
                verdict,
            }
        })
        .collect();
    judging.finish_and_clear();
    if sources.is_empty() {
        let looked: Vec<String> = roots.iter().map(|p| p.display().to_string()).collect();
        eprintln!(
            "agent-guard replay: no session records found in {}; name transcript files or \
             folders to read (Claude Code .jsonl, Codex rollouts, Gemini CLI chats, or one \
             command a line)",
            looked.join(", ")
        );
        return ExitCode::from(1);
    }
    if let Some(file) = &args.html {
        let code = super::report::write_page(&summary(&sources, &judged, args.context), file);
        if code != ExitCode::SUCCESS || !args.json {
            return code;
        }
    }
    if args.json {
        println!("{}", to_json(&sources, &judged, args.context, unreadable));
    } else {
        print!("{}", to_text(&sources, &judged, args.context));
        if unreadable > 0 {
            println!("{unreadable} lines were not JSON and were skipped.");
        }
    }
    ExitCode::SUCCESS
}

fn judge(call: &PastCall, cwd: Option<&Path>, settings: &Settings) -> Verdict {
    if let Some(tool) = &call.tool {
        return crate::evaluate_tool(tool, cwd, settings, Channel::default());
    }
    crate::evaluate_dialect(
        &call.command,
        call.dialect,
        cwd,
        settings,
        Channel::default(),
    )
}

/// The configuration in force in each session folder, read once per folder, with context on.
#[derive(Default)]
struct FolderSettings(HashMap<PathBuf, Settings>);

impl FolderSettings {
    fn get(&mut self, dir: &Path, base: &Settings) -> &Settings {
        self.0.entry(dir.to_path_buf()).or_insert_with(|| {
            let mut settings = crate::config::load(Some(dir)).settings;
            settings.off = false;
            settings.mode = Mode::Enforce;
            settings.profile = base.profile;
            settings.context = true;
            settings
        })
    }
}

/// Counts per session: (commands, stopped), keyed by session and the file it came from.
fn per_session<'a>(
    sources: &'a [(PathBuf, Source)],
    judged: &'a [Judged],
) -> Vec<(String, &'a (PathBuf, Source), usize, usize)> {
    let mut counts: BTreeMap<(String, usize), (usize, usize)> = BTreeMap::new();
    for j in judged {
        let entry = counts.entry((session_of(j, sources), j.file)).or_default();
        entry.0 += 1;
        entry.1 += usize::from(j.stopped());
    }
    let mut rows: Vec<_> = counts
        .into_iter()
        .filter_map(|((session, file), (n, s))| Some((session, sources.get(file)?, n, s)))
        .collect();
    rows.sort_by(|a, b| b.3.cmp(&a.3).then(b.2.cmp(&a.2)).then(a.0.cmp(&b.0)));
    rows
}

/// A session's name: its id, or else the file it came from.
fn session_of(j: &Judged, sources: &[(PathBuf, Source)]) -> String {
    j.call.session.clone().unwrap_or_else(|| {
        sources
            .get(j.file)
            .and_then(|(path, _)| path.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    })
}

fn rule_ids(verdict: &Verdict) -> Vec<&'static str> {
    let mut ids: Vec<&'static str> = verdict.findings.iter().map(|f| f.rule.id).collect();
    ids.dedup();
    ids
}

fn by_rule(judged: &[Judged]) -> BTreeMap<&'static str, usize> {
    let mut counts = BTreeMap::new();
    for j in judged.iter().filter(|j| j.stopped()) {
        for id in rule_ids(&j.verdict) {
            *counts.entry(id).or_default() += 1;
        }
    }
    counts
}

/// The calls of tools that are not the shell, by server and tool (`MCP tool postgres/query`,
/// `apply_patch`): how many, and how many stopped.
fn by_tool(judged: &[Judged]) -> BTreeMap<String, (usize, usize)> {
    let mut counts: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for j in judged {
        if let Some(tool) = &j.call.tool {
            let entry = counts.entry(tool.name()).or_default();
            entry.0 += 1;
            entry.1 += usize::from(j.stopped());
        }
    }
    counts
}

fn share(stopped: usize, total: usize) -> f64 {
    if total == 0 {
        0.0
    } else {
        100.0 * stopped as f64 / total as f64
    }
}

/// The first line of a command, cut to `max` characters.
fn clip(command: &str, max: usize) -> String {
    let first = command.lines().next().unwrap_or("");
    let more = first.len() < command.trim_end().len();
    let mut out: String = first.chars().take(max).collect();
    if more || first.chars().count() > max {
        out.push_str(" …");
    }
    out
}

fn to_text(sources: &[(PathBuf, Source)], judged: &[Judged], context: bool) -> String {
    let stopped: Vec<&Judged> = judged.iter().filter(|j| j.stopped()).collect();
    let mut out = String::new();
    if !stopped.is_empty() {
        out.push_str("Would have stopped:\n");
        for j in &stopped {
            let session = session_of(j, sources);
            let short: String = session.chars().take(12).collect();
            out.push_str(&format!(
                "  {short:<12}  {} [{}]  {}\n",
                j.verdict.decision.as_str(),
                rule_ids(&j.verdict).join(","),
                clip(&j.call.command, 120)
            ));
        }
        out.push_str("\nBy rule:\n");
        for (id, n) in by_rule(judged) {
            out.push_str(&format!("  {n:>6}  {id}\n"));
        }
        out.push_str("\nBy session (stopped / commands):\n");
        for (session, (path, source), n, s) in per_session(sources, judged)
            .into_iter()
            .filter(|row| row.3 > 0)
        {
            out.push_str(&format!(
                "  {s:>4} / {n:<5}  {session}  ({}, {})\n",
                source.name(),
                path.display()
            ));
        }
        out.push('\n');
    }
    let tools = by_tool(judged);
    if !tools.is_empty() {
        out.push_str("Tool calls by server and tool (stopped / calls):\n");
        for (name, (calls, stopped)) in tools {
            out.push_str(&format!("  {stopped:>4} / {calls:<5}  {name}\n"));
        }
        out.push('\n');
    }
    let sessions = per_session(sources, judged);
    let with_stops = sessions.iter().filter(|row| row.3 > 0).count();
    out.push_str(&format!(
        "{} of {} commands would have been stopped ({:.2}%), in {} of {} sessions; {} file{} read ({}).\n",
        stopped.len(),
        judged.len(),
        share(stopped.len(), judged.len()),
        with_stops,
        sessions.len(),
        sources.len(),
        if sources.len() == 1 { "" } else { "s" },
        file_kinds(sources),
    ));
    if context {
        let here = judged.iter().filter(|j| j.in_folder).count();
        out.push_str(&format!(
            "Context: {here} of {} commands were judged against their folder as it is today, \
             not as the session found it; the rest by the rules alone (no folder here).\n",
            judged.len()
        ));
    } else {
        out.push_str(
            "Rules alone: no repository was consulted (with --context, each command is judged \
             against its session's folder where it exists here).\n",
        );
    }
    out
}

/// "2 Claude Code, 1 Codex".
fn file_kinds(sources: &[(PathBuf, Source)]) -> String {
    let mut counts: BTreeMap<Source, usize> = BTreeMap::new();
    for (_, source) in sources {
        *counts.entry(*source).or_default() += 1;
    }
    counts
        .into_iter()
        .map(|(source, n)| format!("{n} {}", source.name()))
        .collect::<Vec<_>>()
        .join(", ")
}

fn to_json(
    sources: &[(PathBuf, Source)],
    judged: &[Judged],
    context: bool,
    unreadable: usize,
) -> serde_json::Value {
    let stopped = judged.iter().filter(|j| j.stopped()).count();
    let sessions: Vec<_> = per_session(sources, judged)
        .into_iter()
        .map(|(session, (path, source), n, s)| {
            json!({
                "session": session,
                "source": source.name(),
                "file": path.display().to_string(),
                "commands": n,
                "stopped": s,
            })
        })
        .collect();
    let stops: Vec<_> = judged
        .iter()
        .filter(|j| j.stopped())
        .map(|j| {
            json!({
                "session": session_of(j, sources),
                "file": sources.get(j.file).map(|(path, _)| path.display().to_string()),
                "cwd": j.call.cwd.as_ref().map(|p| p.display().to_string()),
                "in_folder": j.in_folder,
                "decision": j.verdict.decision.as_str(),
                "rules": rule_ids(&j.verdict),
                "command": j.call.command,
            })
        })
        .collect();
    json!({
        "files": sources.len(),
        "commands": judged.len(),
        "stopped": stopped,
        "share": share(stopped, judged.len()),
        "context": context,
        "by_rule": by_rule(judged),
        "by_tool": by_tool(judged)
            .into_iter()
            .map(|(name, (calls, stopped))| json!({"tool": name, "calls": calls, "stopped": stopped}))
            .collect::<Vec<_>>(),
        "sessions": sessions,
        "stops": stops,
        "unreadable_lines": unreadable,
    })
}

/// The report page's view of a replay: every command judged is an entry, so the page can
/// give the share stopped; each session is named as in the text.
fn summary(sources: &[(PathBuf, Source)], judged: &[Judged], context: bool) -> Summary {
    let entries = judged
        .iter()
        .map(|j| {
            let findings = &j.verdict.findings;
            Entry {
                time: None,
                decision: j.verdict.decision.as_str().to_string(),
                rules: rule_ids(&j.verdict).into_iter().map(String::from).collect(),
                host: sources.get(j.file).map(|(_, s)| s.name().to_string()),
                repository: j.call.cwd.as_ref().map(|p| p.display().to_string()),
                session: Some(session_of(j, sources)),
                command: j.call.command.clone(),
                reasons: findings.iter().map(|f| f.loses.clone()).collect(),
                safer: findings
                    .iter()
                    .find_map(|f| f.safer.clone())
                    .or_else(|| findings.first().map(|f| f.rule.instead.to_string())),
                error: None,
            }
        })
        .collect();
    let judged_by = if context {
        "each command against its folder where that folder exists here, else the rules alone"
    } else {
        "the rules alone (no repository consulted)"
    };
    Summary::of(
        Scope {
            title: "agent-guard replay".to_string(),
            about: format!(
                "{} file{} of past sessions ({}), judged by {judged_by}",
                sources.len(),
                if sources.len() == 1 { "" } else { "s" },
                file_kinds(sources),
            ),
            every_command: true,
        },
        entries,
    )
}
