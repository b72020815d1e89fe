//! Hosts that also send their file-writing tools to the hook (Claude Code `Write`/`Edit`/
//! `MultiEdit`/`NotebookEdit`, Gemini CLI `write_file`/`replace`): the guard's own files are
//! refused, and whatever else the agent writes is claimed for it.

mod common;

use std::path::Path;
use std::process::Command;

use common::Sandbox;
use serde_json::{Value, json};

fn claude_write(path: &str, cwd: &Path) -> Vec<u8> {
    json!({
        "session_id": "s", "transcript_path": "/t.jsonl", "cwd": cwd,
        "permission_mode": "default", "hook_event_name": "PreToolUse",
        "tool_name": "Write", "tool_input": {"file_path": path, "content": "x"}, "tool_use_id": "t"
    })
    .to_string()
    .into_bytes()
}

fn gemini_replace(path: &str, cwd: &Path) -> Vec<u8> {
    json!({
        "session_id": "s", "transcript_path": "/t.json", "cwd": cwd,
        "hook_event_name": "BeforeTool", "timestamp": "2026-11-30T10:00:00Z",
        "tool_name": "replace", "tool_input": {"file_path": path, "old_string": "a", "new_string": "b"}
    })
    .to_string()
    .into_bytes()
}

fn hook(sandbox: &Sandbox, input: Vec<u8>, env: &[(&str, &str)]) -> (String, i32) {
    let mut cmd = sandbox.command();
    cmd.arg("hook").write_stdin(input);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        out.status.code().unwrap(),
    )
}

#[test]
fn writing_the_guards_own_files_is_refused() {
    let sandbox = Sandbox::new();
    let cwd = sandbox.cwd();
    let cases = [
        claude_write(".agent-guard.toml", &cwd),
        claude_write(&cwd.join(".claude/settings.json").to_string_lossy(), &cwd),
        claude_write("/home/dev/.config/agent-guard/config.toml", &cwd),
        gemini_replace(".gemini/settings.json", &cwd),
    ];
    for input in cases {
        let (stdout, code) = hook(&sandbox, input, &[]);
        assert_eq!(code, 0);
        let reply: Value = serde_json::from_str(&stdout).unwrap_or_else(|_| panic!("{stdout:?}"));
        let text = reply.to_string();
        assert!(
            text.contains("deny") && text.contains("guard.tamper"),
            "{text}"
        );
    }
}

#[test]
fn other_writes_pass_and_are_claimed() {
    let sandbox = Sandbox::new();
    let cwd = sandbox.cwd();
    let git = Command::new("git")
        .args(["init", "-q"])
        .current_dir(&cwd)
        .status()
        .unwrap();
    assert!(git.success());
    let (stdout, code) = hook(&sandbox, claude_write("src/lib.rs", &cwd), &[]);
    assert_eq!((stdout.as_str(), code), ("", 0));
    let claims = agent_guard::claims::list(&cwd).unwrap();
    assert!(
        claims.iter().any(|c| c.path.ends_with("src/lib.rs")),
        "{claims:?}"
    );
    // Outside a repository nothing can be claimed, and the write still goes ahead.
    let elsewhere = tempfile::tempdir().unwrap();
    let (stdout, code) = hook(&sandbox, gemini_replace("notes.md", elsewhere.path()), &[]);
    assert_eq!((stdout.as_str(), code), ("", 0));
}

#[test]
fn the_off_switch_covers_file_tools_too() {
    let sandbox = Sandbox::new();
    let input = claude_write(".agent-guard.toml", &sandbox.cwd());
    let (stdout, code) = hook(&sandbox, input, &[("AGENT_GUARD_OFF", "1")]);
    assert_eq!((stdout.as_str(), code), ("", 0));
}
