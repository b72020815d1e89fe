//! Helpers shared by the integration tests: run the real `agent-guard` binary in a clean,
//! throw-away sandbox, check its output against the contract strictly, read the JSONL data
//! files, and spread many runs over a few threads.
//!
//! Each test crate uses a different subset of these, hence the `dead_code` allowance.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use assert_cmd::Command;
use serde_json::Value;
use tempfile::TempDir;

pub mod rows;
pub mod ui;

/// Every rule id the binary may report, read from the registry itself so that the tests
/// cannot lag behind a rule added or renamed.
pub fn rule_ids() -> Vec<&'static str> {
    agent_guard::rules::all().map(|rule| rule.id).collect()
}

/// Whether the rules alone can stop a command under `id`: a rule whose declaration has no
/// stops fires only with context (it reads a file or the repository), so no table row can
/// show it.
pub fn rule_stops_alone(id: &str) -> bool {
    agent_guard::rules::by_id(id).is_some_and(|rule| !rule.stops.is_empty())
}

/// Variables of the developer's environment that could change a verdict. Every other
/// `AGENT_GUARD_*` variable is removed as well; HOME points into the sandbox so that no user
/// config is read and no audit line lands in the real home.
const SCRUBBED: &[&str] = &[
    "AGENT_GUARD_PROFILE",
    "AGENT_GUARD_CONTEXT",
    "AGENT_GUARD_ON_DESTRUCTIVE",
    "AGENT_GUARD_OFF",
    "XDG_CONFIG_HOME",
    "XDG_DATA_HOME",
    "XDG_STATE_HOME",
    "XDG_CACHE_HOME",
    "CLAUDE_CONFIG_DIR",
    "CODEX_HOME",
];

/// A fresh, empty working directory (and a separate HOME) that lives as long as the value.
pub struct Sandbox {
    root: TempDir,
}

impl Sandbox {
    pub fn new() -> Self {
        let root = tempfile::tempdir().expect("create a temp dir");
        for sub in ["work", "home"] {
            std::fs::create_dir(root.path().join(sub)).expect("create a sandbox dir");
        }
        Sandbox { root }
    }

    /// The empty folder the binary runs in (and the `cwd` a hook payload should name).
    pub fn cwd(&self) -> PathBuf {
        self.root.path().join("work")
    }

    /// The sandbox's HOME.
    pub fn home(&self) -> PathBuf {
        self.root.path().join("home")
    }

    /// `agent-guard` with a scrubbed environment, `AGENT_GUARD_CONTEXT=off`, cwd in the sandbox.
    pub fn command(&self) -> Command {
        let mut cmd = Command::cargo_bin("agent-guard").expect("the agent-guard binary is built");
        for (key, _) in std::env::vars_os() {
            if key.to_string_lossy().starts_with("AGENT_GUARD_") {
                cmd.env_remove(key);
            }
        }
        for key in SCRUBBED {
            cmd.env_remove(key);
        }
        cmd.env("AGENT_GUARD_CONTEXT", "off")
            .env("HOME", self.root.path().join("home"))
            .current_dir(self.cwd())
            .timeout(Duration::from_secs(20));
        cmd
    }
}

/// What `agent-guard hook` decided, once its output has passed the contract checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HookVerdict {
    /// Exit 0, empty stdout.
    Allow,
    /// Exit 0, one `hookSpecificOutput` object with decision `deny` or `ask`.
    Stop { decision: String, reason: String },
}

impl std::fmt::Display for HookVerdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HookVerdict::Allow => write!(f, "allow"),
            HookVerdict::Stop { decision, .. } => write!(f, "{decision}"),
        }
    }
}

/// Runs `agent-guard hook` under `profile` with extra `env`, feeding it the stdin bytes that
/// `stdin` builds from the sandbox cwd. `Err` describes a broken output contract.
pub fn run_hook<K, V>(
    profile: &str,
    env: impl IntoIterator<Item = (K, V)>,
    stdin: impl FnOnce(&Path) -> Vec<u8>,
) -> Result<HookVerdict, String>
where
    K: AsRef<OsStr>,
    V: AsRef<OsStr>,
{
    let sandbox = Sandbox::new();
    let input = stdin(&sandbox.cwd());
    let out = spawn(
        sandbox
            .command()
            .arg("hook")
            .env("AGENT_GUARD_PROFILE", profile)
            .envs(env)
            .write_stdin(input),
    )?;
    if out.status.code() != Some(0) {
        return Err(describe("hook must exit 0", &out));
    }
    hook_verdict(&out.stdout).map_err(|e| describe(&e, &out))
}

/// Checks hook stdout: nothing at all, or exactly one JSON object of the PreToolUse shape.
fn hook_verdict(stdout: &[u8]) -> Result<HookVerdict, String> {
    if stdout.is_empty() {
        return Ok(HookVerdict::Allow);
    }
    let value: Value = serde_json::from_slice(stdout)
        .map_err(|e| format!("stdout is not exactly one JSON value: {e}"))?;
    let shape = "stdout is not {\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\
                 \"permissionDecision\":\"deny\"|\"ask\",\"permissionDecisionReason\":\"<non-empty>\"}}";
    let out = value
        .as_object()
        .filter(|top| top.len() == 1)
        .and_then(|top| top.get("hookSpecificOutput"))
        .and_then(Value::as_object)
        .filter(|out| {
            out.len() == 3 && out.get("hookEventName").and_then(Value::as_str) == Some("PreToolUse")
        })
        .ok_or(shape)?;
    let decision = out
        .get("permissionDecision")
        .and_then(Value::as_str)
        .filter(|d| matches!(*d, "deny" | "ask"))
        .ok_or(shape)?;
    let reason = out
        .get("permissionDecisionReason")
        .and_then(Value::as_str)
        .filter(|r| !r.trim().is_empty())
        .ok_or(shape)?;
    Ok(HookVerdict::Stop {
        decision: decision.to_owned(),
        reason: reason.to_owned(),
    })
}

/// What `agent-guard check --json` decided, once its output has passed the contract checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckVerdict {
    /// `allow`, `ask` or `deny`.
    pub decision: String,
    /// The rule id of each finding, in order.
    pub rules: Vec<String>,
}

/// Runs `agent-guard check --json --profile <profile> -- <command>` in a fresh sandbox.
/// `Err` describes a broken output contract (shape, or exit code not matching the decision).
pub fn run_check(profile: &str, command: &str) -> Result<CheckVerdict, String> {
    let sandbox = Sandbox::new();
    let out =
        spawn(
            sandbox
                .command()
                .args(["check", "--json", "--profile", profile, "--", command]),
        )?;
    let verdict = check_verdict(&out.stdout).map_err(|e| describe(&e, &out))?;
    let want_code = if verdict.decision == "allow" { 0 } else { 1 };
    if out.status.code() != Some(want_code) {
        return Err(describe(
            &format!("decision {} must exit {want_code}", verdict.decision),
            &out,
        ));
    }
    Ok(verdict)
}

/// Checks `check --json` stdout: one object `{"decision":..,"findings":[{rule,tier,reason,safer}]}`.
/// Keys beyond those are allowed: this report may grow, unlike the hook's output.
fn check_verdict(stdout: &[u8]) -> Result<CheckVerdict, String> {
    let value: Value = serde_json::from_slice(stdout)
        .map_err(|e| format!("stdout is not exactly one JSON value: {e}"))?;
    let shape = "stdout is not {\"decision\":\"allow\"|\"ask\"|\"deny\",\"findings\":[{\"rule\":..,\
                 \"tier\":\"destructive\"|\"protected\",\"reason\":\"<non-empty>\",\"safer\":string|null}]}";
    let top = value.as_object().ok_or(shape)?;
    let decision = top
        .get("decision")
        .and_then(Value::as_str)
        .filter(|d| matches!(*d, "allow" | "ask" | "deny"))
        .ok_or(shape)?;
    let findings = top.get("findings").and_then(Value::as_array).ok_or(shape)?;
    let mut rules = Vec::new();
    for finding in findings {
        let f = finding.as_object().ok_or(shape)?;
        let rule = f.get("rule").and_then(Value::as_str).ok_or(shape)?;
        let tier_ok = matches!(
            f.get("tier").and_then(Value::as_str),
            Some("destructive" | "protected")
        );
        let reason_ok = f
            .get("reason")
            .and_then(Value::as_str)
            .is_some_and(|r| !r.trim().is_empty());
        let safer_ok = matches!(f.get("safer"), Some(Value::Null | Value::String(_)));
        if !(tier_ok && reason_ok && safer_ok) {
            return Err(shape.into());
        }
        rules.push(rule.to_owned());
    }
    if decision != "allow" && rules.is_empty() {
        return Err(format!("decision {decision} without any finding"));
    }
    Ok(CheckVerdict {
        decision: decision.to_owned(),
        rules,
    })
}

fn spawn(cmd: &mut Command) -> Result<Output, String> {
    cmd.output()
        .map_err(|e| format!("could not run agent-guard: {e}"))
}

fn describe(problem: &str, out: &Output) -> String {
    format!(
        "{problem} (exit {:?}; stdout {:?}; stderr {:?})",
        out.status.code(),
        clip(&String::from_utf8_lossy(&out.stdout), 300),
        clip(&String::from_utf8_lossy(&out.stderr), 300),
    )
}

/// Shortens `text` to at most `max` characters for a failure listing.
pub fn clip(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

/// `f` over every item on a few threads; results come back in input order.
pub fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism().map_or(4, |n| n.get().clamp(2, 8));
    let chunk = items.len().div_ceil(threads).max(1);
    let f = &f;
    std::thread::scope(|scope| {
        let workers: Vec<_> = items
            .chunks(chunk)
            .map(|part| scope.spawn(move || part.iter().map(f).collect::<Vec<R>>()))
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a worker thread panicked"))
            .collect()
    })
}

/// A file under `tests/` of this crate.
pub fn test_file(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(relative)
}

/// Where install writes, with a project folder and a home folder and none of the hosts' own
/// home variables set.
pub fn locations(project: PathBuf, home: PathBuf) -> agent_guard::install::Locations {
    agent_guard::install::Locations {
        project: Some(project),
        home,
        codex_home: None,
        copilot_home: None,
        qwen_home: None,
        vibe_home: None,
        kimi_home: None,
        crush_home: None,
        qoder_home: None,
        grok_home: None,
        hermes_home: None,
    }
}

/// Runs `git ARGS` in `dir`, with no global or system configuration; panics unless it
/// succeeds.
pub fn git(dir: &Path, args: &[&str]) {
    let status = std::process::Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .expect("run git");
    assert!(status.status.success(), "git {args:?}: {status:?}");
}

/// Commits what is staged in `dir`, by a throw-away author.
pub fn git_commit(dir: &Path, message: &str) {
    git(
        dir,
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.com",
            "commit",
            "-qm",
            message,
        ],
    );
}

/// Compares `actual` with tests/golden/<name>, or rewrites it when blessing.
pub fn golden(name: &str, actual: &str) {
    golden_in("golden", name, actual);
}

/// Compares `actual` with tests/<dir>/<name>, or rewrites it when `AGENT_GUARD_BLESS` is set.
pub fn golden_in(dir: &str, name: &str, actual: &str) {
    let path = test_file(&format!("{dir}/{name}"));
    if std::env::var_os("AGENT_GUARD_BLESS").is_some() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(
        actual, expected,
        "{name} differs from the golden file; if the change is intended, rerun with AGENT_GUARD_BLESS=1"
    );
}

/// The lines of a JSONL file, numbered from 1, each parsed (or the parse error).
pub fn read_jsonl(path: &Path) -> Vec<(usize, Result<Value, String>)> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .enumerate()
        .map(|(i, line)| (i + 1, serde_json::from_str(line).map_err(|e| e.to_string())))
        .collect()
}

/// Panics once with every failure listed under `title`, or returns when there are none.
pub fn fail_if_any(title: &str, failures: &[String]) {
    if !failures.is_empty() {
        panic!(
            "{title}: {} failure(s)\n  {}",
            failures.len(),
            failures.join("\n  ")
        );
    }
}
