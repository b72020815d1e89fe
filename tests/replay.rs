//! `agent-guard replay`: past sessions read from where each host keeps them, judged as the
//! hook would, and the reviewed agent traffic replayed with the rules alone.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::{Sandbox, git, git_commit, test_file};
use serde_json::Value;

/// Copies the directory tree `from` into `to`.
fn copy_tree(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).expect("read a fixture folder") {
        let entry = entry.expect("a fixture entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("a file type").is_dir() {
            std::fs::create_dir_all(&target).expect("create a folder");
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy a fixture");
        }
    }
}

fn replay_json(sandbox: &Sandbox, args: &[&str]) -> Value {
    let out = sandbox
        .command()
        .arg("replay")
        .arg("--json")
        .args(args)
        .output()
        .expect("run replay");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("replay --json prints one JSON object")
}

fn stopped_commands(report: &Value) -> Vec<(String, Vec<String>)> {
    report["stops"]
        .as_array()
        .expect("stops")
        .iter()
        .map(|stop| {
            let rules = stop["rules"]
                .as_array()
                .expect("rules")
                .iter()
                .map(|r| r.as_str().expect("a rule id").to_string())
                .collect();
            (
                stop["command"].as_str().expect("a command").to_string(),
                rules,
            )
        })
        .collect()
}

#[test]
fn the_hosts_own_session_folders_are_read_without_naming_them() {
    let sandbox = Sandbox::new();
    copy_tree(&test_file("fixtures/replay/home"), &sandbox.home());
    let report = replay_json(&sandbox, &[]);
    assert_eq!(report["files"], 3, "{report:#}");
    // Claude Code: git status, git reset --hard && npm test, Remove-Item (PowerShell);
    // Codex: ls -la, git clean -fdx, git push --force; Gemini: rm -rf data, echo.
    // The Codex rollout's `apply_patch` is a call too: it adds a file, which loses nothing.
    assert_eq!(report["commands"], 9, "{report:#}");
    let stops = stopped_commands(&report);
    let expected = [
        ("git reset --hard && npm test", "git.reset-hard"),
        ("Remove-Item -Recurse -Force .\\docs", "fs.rm-recursive"),
        ("bash -lc 'git clean -fdx'", "git.clean-force"),
        ("git push --force origin main", "git.push-force"),
        ("rm -rf data", "fs.rm-recursive"),
    ];
    assert_eq!(stops.len(), expected.len(), "{stops:#?}");
    for (command, rule) in expected {
        assert!(
            stops
                .iter()
                .any(|(c, rules)| c == command && rules.iter().any(|r| r == rule)),
            "{command} should be stopped by {rule}: {stops:#?}"
        );
    }
    let sessions: BTreeMap<&str, (&str, u64, u64)> = report["sessions"]
        .as_array()
        .expect("sessions")
        .iter()
        .map(|s| {
            (
                s["session"].as_str().expect("a session"),
                (
                    s["source"].as_str().expect("a source"),
                    s["commands"].as_u64().expect("a count"),
                    s["stopped"].as_u64().expect("a count"),
                ),
            )
        })
        .collect();
    assert_eq!(
        sessions,
        BTreeMap::from([
            ("0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", ("Codex", 4, 2)),
            ("4b1e9c2a-6d7e-4f80-9a1b-2c3d4e5f6a7b", ("Gemini CLI", 2, 1)),
            (
                "7d7c5a0e-1f3b-4c55-9a0e-2b6c0f1e9d11",
                ("Claude Code", 3, 2)
            ),
        ])
    );
    assert_eq!(report["by_rule"]["fs.rm-recursive"], 2);
    assert_eq!(report["share"], 5.0 / 9.0 * 100.0);
}

#[test]
fn text_output_lists_stops_by_rule_and_session_and_says_how_it_judged() {
    let sandbox = Sandbox::new();
    copy_tree(&test_file("fixtures/replay/home"), &sandbox.home());
    let out = sandbox
        .command()
        .arg("replay")
        .output()
        .expect("run replay");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).expect("utf-8");
    for needle in [
        "Would have stopped:",
        "[git.clean-force]",
        "By rule:",
        "By session (stopped / commands):",
        "5 of 9 commands would have been stopped (55.56%), in 3 of 3 sessions; 3 files read \
         (1 Claude Code, 1 Codex, 1 Gemini CLI).",
        "Rules alone: no repository was consulted",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in:\n{text}");
    }
}

#[test]
fn plain_files_and_bad_paths() {
    let sandbox = Sandbox::new();
    let file = sandbox.cwd().join("commands.txt");
    std::fs::write(
        &file,
        "git status\nrm -rf node_modules/.cache ~/work\n\ngit branch -d old\n",
    )
    .expect("write");
    let report = replay_json(&sandbox, &["commands.txt"]);
    assert_eq!(report["commands"], 3);
    assert_eq!(report["stopped"], 1);

    let missing = sandbox
        .command()
        .args(["replay", "no-such-file"])
        .output()
        .expect("run replay");
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no-such-file: no such file"));

    let nothing = sandbox
        .command()
        .arg("replay")
        .output()
        .expect("run replay");
    assert_eq!(nothing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&nothing.stderr).contains("no session records found"));
}

#[test]
fn context_judges_against_a_session_folder_that_exists_here() {
    let sandbox = Sandbox::new();
    let repo = repository(&sandbox);
    let line = serde_json::json!({"command": "git reset --hard", "cwd": repo, "session": "s"});
    let elsewhere = serde_json::json!({"command": "git reset --hard", "cwd": "/no/such/folder"});
    std::fs::write(
        sandbox.cwd().join("calls.jsonl"),
        format!("{line}\n{elsewhere}\n"),
    )
    .expect("write");

    let alone = replay_json(&sandbox, &["calls.jsonl"]);
    assert_eq!(alone["stopped"], 2, "{alone:#}");
    let with_context = replay_json(&sandbox, &["--context", "calls.jsonl"]);
    // The clean repository loses nothing to a hard reset; the folder that is not here is
    // judged by the rules alone.
    assert_eq!(with_context["stopped"], 1, "{with_context:#}");
    assert_eq!(with_context["stops"][0]["in_folder"], false);
}

/// The hand-reviewed stops of real agent traffic (tests/data/agent-traffic-reviewed.jsonl):
/// with the rules alone every command that destroys someone's work (class G) or that is
/// routine but destructive (G*) is still stopped, and no command that loses nothing as
/// written (F) is.
#[test]
fn reviewed_agent_traffic_keeps_its_stops_and_drops_every_false_stop() {
    let sandbox = Sandbox::new();
    let data = test_file("data/agent-traffic-reviewed.jsonl");
    let report = replay_json(&sandbox, &[data.to_str().expect("a UTF-8 path")]);
    let stopped: Vec<&str> = report["stops"]
        .as_array()
        .expect("stops")
        .iter()
        .map(|s| s["session"].as_str().expect("a session"))
        .collect();
    let rows: Vec<String> = std::fs::read_to_string(&data)
        .expect("read the reviewed traffic")
        .lines()
        .map(|l| {
            let row: Value = serde_json::from_str(l).expect("a JSON row");
            row["session"].as_str().expect("a session").to_string()
        })
        .collect();
    let missed: Vec<&String> = rows
        .iter()
        .filter(|r| r.ends_with(" G") || r.ends_with(" G*"))
        .filter(|r| !stopped.contains(&r.as_str()))
        .collect();
    assert!(missed.is_empty(), "G/G* rows no longer stopped: {missed:?}");
    let false_stops: Vec<&str> = stopped
        .iter()
        .copied()
        .filter(|s| s.ends_with(" F"))
        .collect();
    assert!(false_stops.is_empty(), "F rows stopped: {false_stops:?}");
}

/// The reviewed stops that delete only under a temporary location (class T), replayed with
/// the repository context on from a scratch repository (their own folders are not here):
/// every one passes.
#[test]
fn reviewed_temporary_deletes_pass_with_context_in_a_scratch_repository() {
    let sandbox = Sandbox::new();
    let repo = repository(&sandbox);
    // `%TEMP%` and `$TMPDIR` stand for this folder, which holds no one else's checkout.
    let temp = sandbox.cwd().join("temp");
    std::fs::create_dir(&temp).expect("mkdir");
    let rows: Vec<Value> = std::fs::read_to_string(test_file("data/agent-traffic-reviewed.jsonl"))
        .expect("read the reviewed traffic")
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("a JSON row"))
        .filter(|row| row["class"] == "T")
        .map(|mut row| {
            row["cwd"] = Value::from(repo.to_str().expect("a UTF-8 path"));
            row
        })
        .collect();
    assert_eq!(rows.len(), 39);
    let calls: String = rows.iter().map(|row| format!("{row}\n")).collect();
    std::fs::write(sandbox.cwd().join("calls.jsonl"), calls).expect("write");
    let out = sandbox
        .command()
        .env("TMPDIR", &temp)
        .args(["replay", "--json", "--context", "calls.jsonl"])
        .output()
        .expect("run replay");
    assert_eq!(out.status.code(), Some(0));
    let report: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    let stopped: Vec<&str> = report["stops"]
        .as_array()
        .expect("stops")
        .iter()
        .map(|s| s["session"].as_str().expect("a session"))
        .collect();
    assert!(stopped.is_empty(), "{report:#}");
}

/// Transcripts hold MCP tool calls and Codex's `apply_patch` too: each is judged as the hook
/// judges it, and the report counts them by server and tool.
#[test]
fn tool_calls_are_judged_and_counted_by_server_and_tool() {
    let sandbox = Sandbox::new();
    let dir = test_file("fixtures/replay/mcp");
    let report = replay_json(&sandbox, &[dir.to_str().expect("a UTF-8 path")]);
    let by_tool: Vec<(String, u64, u64)> = report["by_tool"]
        .as_array()
        .expect("by_tool")
        .iter()
        .map(|row| {
            (
                row["tool"].as_str().expect("a tool").to_string(),
                row["calls"].as_u64().expect("calls"),
                row["stopped"].as_u64().expect("stopped"),
            )
        })
        .collect();
    let want = [
        ("MCP tool k8s/kubectl_delete", 1, 1),
        ("MCP tool k8s/kubectl_get", 1, 0),
        ("MCP tool postgres/query", 2, 1),
        ("MCP tool supabase/list_tables", 1, 0),
        ("MCP tool supabase/reset_branch", 1, 1),
        ("apply_patch", 1, 0),
    ];
    let want: Vec<(String, u64, u64)> = want
        .iter()
        .map(|(t, c, s)| (t.to_string(), *c, *s))
        .collect();
    assert_eq!(by_tool, want);
    let stops = stopped_commands(&report);
    assert!(
        stops
            .iter()
            .any(|(command, rules)| command.contains("DROP TABLE orders")
                && rules == &["db.sql-drop".to_string()]),
        "{stops:?}"
    );
    assert_eq!(report["commands"], 8);
}

/// A repository with one commit, in the sandbox's `repo`.
fn repository(sandbox: &Sandbox) -> PathBuf {
    let repo = sandbox.cwd().join("repo");
    std::fs::create_dir(&repo).expect("mkdir");
    git(&repo, &["init", "-q", "-b", "main"]);
    std::fs::write(repo.join("a.txt"), "a\n").expect("write");
    git(&repo, &["add", "a.txt"]);
    git_commit(&repo, "a");
    repo
}
