//! Whose work it is when the line copies or moves it first, through the hook binary with
//! context on, in real repositories: every line of tests/cases-moves/*.jsonl builds a git
//! repository, lets an agent session write the files it names (a whole hook round each, so
//! the journal knows them), judges one command line there and checks the verdict, the rule,
//! the reason, and whether the agents' own work was snapshotted before it passed.
//!
//! Line format (all keys required, no others):
//! `{"committed": {"<path>": "<text>", ...}, "files": {...}, "agent": {...},
//!   "command": "...", "expect": "allow"|"deny", "rule": "<rule id>"|null,
//!   "reason": "<text the reason must hold>"|null, "snapshot": true|false, "note": "why"}`.
//! `committed` is written and committed, `files` written and left uncommitted, `agent`
//! written by an agent's file tool after both. `snapshot`: whether the verdict takes one.

mod common;

use std::path::Path;
use std::process::Command;

use common::rows::verdict_rows;
use common::{Sandbox, clip, fail_if_any, par_map};
use serde_json::{Value, json};

const MIN_EACH: usize = 10;

struct Case {
    at: String,
    committed: Vec<(String, String)>,
    files: Vec<(String, String)>,
    agent: Vec<(String, String)>,
    command: String,
    expect: String,
    rule: Option<String>,
    reason: Option<String>,
    snapshot: bool,
}

fn load() -> Vec<Case> {
    let own = ["committed", "files", "agent", "snapshot"];
    verdict_rows("cases-moves", &own, |row| {
        let snapshot = row.object["snapshot"]
            .as_bool()
            .ok_or("snapshot must be a bool")?;
        Ok(Case {
            committed: row.files("committed")?,
            files: row.files("files")?,
            agent: row.files("agent")?,
            at: row.at,
            command: row.command,
            expect: row.expect,
            rule: row.rule,
            reason: row.reason,
            snapshot,
        })
    })
}

fn git(sandbox: &Sandbox, args: &[&str]) -> Result<String, String> {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .current_dir(sandbox.cwd())
        .env("HOME", sandbox.home())
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!(
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn write(root: &Path, path: &str, text: &str) -> Result<(), String> {
    let full = root.join(path);
    if let Some(parent) = full.parent() {
        std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
    }
    std::fs::write(&full, text).map_err(|e| e.to_string())
}

/// The hook's answer to `event` of `tool` with `input`, context on: "allow", or the
/// decision and its reason.
fn hook(sandbox: &Sandbox, event: &str, tool: &str, input: Value) -> Result<String, String> {
    let payload = json!({
        "session_id": "agent-1", "transcript_path": "/t.jsonl", "cwd": sandbox.cwd(),
        "permission_mode": "default", "hook_event_name": event,
        "tool_name": tool, "tool_input": input, "tool_use_id": "t1"
    });
    let out = sandbox
        .command()
        .arg("hook")
        .env("AGENT_GUARD_CONTEXT", "on")
        .write_stdin(payload.to_string())
        .output()
        .map_err(|e| format!("could not run agent-guard: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    if stdout.trim().is_empty() {
        return Ok("allow".into());
    }
    let reply: Value = serde_json::from_str(&stdout)
        .map_err(|e| format!("stdout is not JSON ({e}): {}", clip(&stdout, 300)))?;
    let output = &reply["hookSpecificOutput"];
    Ok(format!(
        "{}: {}",
        output["permissionDecision"].as_str().unwrap_or(""),
        output["permissionDecisionReason"].as_str().unwrap_or("")
    ))
}

/// The verdict in the repository the case builds, and whether a snapshot was taken.
fn run(case: &Case) -> Result<(String, bool), String> {
    let sandbox = Sandbox::new();
    let root = sandbox.cwd();
    git(&sandbox, &["init", "-q", "-b", "main"])?;
    write(&root, "README.md", "# project\n")?;
    for (path, text) in &case.committed {
        write(&root, path, text)?;
    }
    git(&sandbox, &["add", "."])?;
    git(&sandbox, &["commit", "-q", "-m", "start"])?;
    for (path, text) in &case.files {
        write(&root, path, text)?;
    }
    for (path, text) in &case.agent {
        let input = json!({ "file_path": path, "content": text });
        let before = hook(&sandbox, "PreToolUse", "Write", input.clone())?;
        write(&root, path, text)?;
        let after = hook(&sandbox, "PostToolUse", "Write", input)?;
        if before != "allow" || after != "allow" {
            return Err(format!("the agent's write of {path} was stopped: {before}"));
        }
    }
    let verdict = hook(
        &sandbox,
        "PreToolUse",
        "Bash",
        json!({ "command": case.command }),
    )?;
    let snapshots = git(
        &sandbox,
        &[
            "for-each-ref",
            "--format=%(refname)",
            "refs/agent-guard/snapshots",
        ],
    )?;
    Ok((verdict, !snapshots.trim().is_empty()))
}

#[test]
fn copies_and_moves_the_line_makes_first_are_judged_by_whose_work_goes() {
    let cases = load();
    let count = |expect: &str| cases.iter().filter(|c| c.expect == expect).count();
    assert!(
        count("deny") >= MIN_EACH && count("allow") >= MIN_EACH,
        "the table needs at least {MIN_EACH} stops and {MIN_EACH} passes"
    );
    let failures: Vec<String> = par_map(&cases, |case| {
        let (verdict, snapshot) = match run(case) {
            Ok(verdict) => verdict,
            Err(e) => return Some(format!("{}: `{}`: {e}", case.at, case.command)),
        };
        let decision = verdict.split(':').next().unwrap_or("");
        let wrong = if decision != case.expect {
            Some(format!(
                "expected {}, got {}",
                case.expect,
                clip(&verdict, 400)
            ))
        } else if let Some(rule) = case
            .rule
            .as_ref()
            .filter(|r| !verdict.contains(&format!("[{r}]")))
        {
            Some(format!("expected rule {rule}: {}", clip(&verdict, 400)))
        } else if let Some(want) = case
            .reason
            .as_ref()
            .filter(|w| !verdict.contains(w.as_str()))
        {
            Some(format!("reason lacks {want:?}: {}", clip(&verdict, 400)))
        } else if snapshot != case.snapshot {
            Some(format!(
                "expected snapshot {}, got {snapshot}",
                case.snapshot
            ))
        } else {
            None
        };
        wrong.map(|w| format!("{}: `{}`: {w}", case.at, case.command))
    })
    .into_iter()
    .flatten()
    .collect();
    fail_if_any("copy and move cases", &failures);
}
