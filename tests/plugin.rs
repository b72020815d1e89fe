//! The Claude Code plugin at the repository's root: its manifests name this release, its hooks
//! are the entries `agent-guard install --host claude` writes, and its hook script runs the real
//! binary (found by `$AGENT_GUARD_BIN` or on `PATH`) or, with no binary anywhere, says so and
//! lets the call through.
//!
//! `claude plugin validate --strict .` in `.ci/run` checks the same files against Claude Code's
//! own schema.

mod common;

use std::path::{Path, PathBuf};
#[cfg(unix)]
use std::process::{Command, Output, Stdio};

use agent_guard::host::Host;
use agent_guard::install::{self, Scope};
// The hook script is a POSIX shell script: it is run only where `sh` is.
#[cfg(unix)]
use common::Sandbox;
use serde_json::Value;
#[cfg(unix)]
use serde_json::json;

fn repository_file(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
}

fn read_json(relative: &str) -> Value {
    let path = repository_file(relative);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{relative}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{relative}: {e}"))
}

/// The command the plugin's hooks run, taken from `hooks/hooks.json`'s first entry.
fn plugin_command(hooks: &Value) -> String {
    hooks["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .expect("the first PreToolUse entry has a command")
        .to_owned()
}

#[test]
fn manifests_name_the_plugin_and_this_release() {
    let plugin = read_json(".claude-plugin/plugin.json");
    assert_eq!(plugin["name"], "agent-guard");
    // Claude Code offers an update when the version changes, so it moves with the crate's.
    assert_eq!(plugin["version"], env!("CARGO_PKG_VERSION"));

    let marketplace = read_json(".claude-plugin/marketplace.json");
    let entries = marketplace["plugins"].as_array().expect("a plugins array");
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0]["name"], plugin["name"]);
    assert_eq!(
        entries[0]["source"], "./",
        "the plugin is the repository's root"
    );
}

#[test]
fn plugin_hooks_are_the_entries_install_writes() {
    let folders = tempfile::tempdir().unwrap();
    let loc = common::locations(folders.path().join("project"), folders.path().join("home"));
    let binary = Path::new("/opt/agent-guard/bin/agent-guard");
    let change = install::plan_install(Host::ClaudeCode, Scope::Project, &loc, binary, true)
        .unwrap_or_else(|p| panic!("{p}"));
    change.apply().unwrap();
    let installed = std::fs::read_to_string(&change.path).unwrap();

    let plugin = read_json("hooks/hooks.json");
    let command = plugin_command(&plugin);
    // The same events, tools and timeouts; only the way to the binary differs.
    let installed = installed.replace(
        &serde_json::to_string(&install::hook_command(binary, Host::ClaudeCode)).unwrap(),
        &serde_json::to_string(&command).unwrap(),
    );
    let installed: Value = serde_json::from_str(&installed).unwrap();
    assert_eq!(plugin["hooks"], installed["hooks"]);
    assert_eq!(
        install::hook_command(binary, Host::ClaudeCode),
        format!("{} hook --host claude", binary.display()),
        "the script adds `hook` in front of the arguments the plugin passes"
    );
    assert!(command.ends_with(" --host claude"), "{command}");
}

#[cfg(unix)]
/// Runs the plugin's hook script as Claude Code would (through `sh`, with the command's own
/// arguments), in a sandbox whose HOME is empty, with `env` added and stdin `payload`.
fn run_script(sandbox: &Sandbox, path: &str, env: &[(&str, &Path)], payload: &Value) -> Output {
    let script = repository_file("hooks/agent-guard.sh");
    let mut cmd = Command::new("sh");
    cmd.arg(&script)
        .args(["--host", "claude"])
        .env_clear()
        .env("PATH", path)
        .env("HOME", sandbox.home())
        .env("AGENT_GUARD_CONTEXT", "off")
        .current_dir(sandbox.cwd())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (key, value) in env {
        cmd.env(key, value);
    }
    let mut child = cmd.spawn().expect("sh runs");
    let stdin = child.stdin.take().expect("piped stdin");
    serde_json::to_writer(stdin, payload).unwrap();
    child.wait_with_output().unwrap()
}

#[cfg(unix)]
fn bash_payload(sandbox: &Sandbox, command: &str) -> Value {
    json!({
        "session_id": "plugin-test",
        "hook_event_name": "PreToolUse",
        "cwd": sandbox.cwd(),
        "tool_name": "Bash",
        "tool_input": {"command": command},
    })
}

#[cfg(unix)]
fn decision(out: &Output) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(0),
        "stdout: {stdout}\nstderr: {stderr}"
    );
    if stdout.is_empty() {
        return "allow".to_owned();
    }
    let value: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    value["hookSpecificOutput"]["permissionDecision"]
        .as_str()
        .unwrap_or_else(|| panic!("no decision: {stdout}"))
        .to_owned()
}

#[cfg(unix)]
const SYSTEM_PATH: &str = "/usr/bin:/bin";

#[cfg(unix)]
#[test]
fn the_plugin_hook_runs_the_guard_named_by_agent_guard_bin() {
    let sandbox = Sandbox::new();
    let binary = PathBuf::from(env!("CARGO_BIN_EXE_agent-guard"));
    let env = [("AGENT_GUARD_BIN", binary.as_path())];
    let stop = run_script(
        &sandbox,
        SYSTEM_PATH,
        &env,
        &bash_payload(&sandbox, "git reset --hard HEAD~3"),
    );
    assert_eq!(decision(&stop), "deny");
    let pass = run_script(
        &sandbox,
        SYSTEM_PATH,
        &env,
        &bash_payload(&sandbox, "git status"),
    );
    assert_eq!(decision(&pass), "allow");
}

#[cfg(unix)]
#[test]
fn the_plugin_hook_finds_the_guard_on_path() {
    let sandbox = Sandbox::new();
    let binary = PathBuf::from(env!("CARGO_BIN_EXE_agent-guard"));
    let folder = binary.parent().expect("the binary is in a folder");
    let path = format!("{}:{SYSTEM_PATH}", folder.display());
    let stop = run_script(
        &sandbox,
        &path,
        &[],
        &bash_payload(&sandbox, "git clean -fdx"),
    );
    assert_eq!(decision(&stop), "deny");
}

#[cfg(unix)]
#[test]
fn the_plugin_hook_finds_the_guard_where_cargo_installs_it() {
    let sandbox = Sandbox::new();
    let cargo_bin = sandbox.home().join(".cargo/bin");
    std::fs::create_dir_all(&cargo_bin).unwrap();
    std::fs::copy(
        PathBuf::from(env!("CARGO_BIN_EXE_agent-guard")),
        cargo_bin.join("agent-guard"),
    )
    .unwrap();
    let stop = run_script(
        &sandbox,
        SYSTEM_PATH,
        &[],
        &bash_payload(&sandbox, "git push --force origin main"),
    );
    assert_ne!(decision(&stop), "allow");
}

#[cfg(unix)]
#[test]
fn without_the_guard_the_plugin_hook_says_so_and_lets_the_call_through() {
    let machine_wide = [
        "/opt/homebrew/bin/agent-guard",
        "/usr/local/bin/agent-guard",
        "/home/linuxbrew/.linuxbrew/bin/agent-guard",
        "/usr/bin/agent-guard",
        "/bin/agent-guard",
    ];
    if let Some(found) = machine_wide.iter().find(|p| Path::new(p).exists()) {
        println!("skipped: this machine has agent-guard installed at {found}");
        return;
    }
    let sandbox = Sandbox::new();
    let out = run_script(
        &sandbox,
        SYSTEM_PATH,
        &[],
        &bash_payload(&sandbox, "git reset --hard HEAD~3"),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Exit 1 is Claude Code's non-blocking hook error: shown to the user, the call goes on.
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(out.stdout.is_empty());
    assert!(
        stderr.contains("agent-guard binary was not found"),
        "{stderr}"
    );
}
