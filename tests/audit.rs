//! The audit log through the real binary: concurrent hooks never interleave or lose a line,
//! the log rotates at its size limit, allowed commands stay out of it unless asked, and
//! `agent-guard log` and `stats` read it back.

mod common;
mod scratch;

use std::process::{Child, Stdio};

use scratch::{World, stderr, stdout};
use serde_json::Value;

/// Starts `agent-guard hook` on `payload` without waiting for it.
fn start(world: &World, payload: &Value) -> Child {
    let mut child = world
        .guard_process()
        .args(["hook", "--host", "claude"])
        .env("AGENT_GUARD_CONTEXT", "off")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    std::io::Write::write_all(&mut stdin, payload.to_string().as_bytes()).unwrap();
    child
}

#[test]
fn ten_concurrent_hooks_write_every_line_whole() {
    let world = World::bare_folder();
    // A long command makes each line several kilobytes: a torn write would show.
    let long = format!("git reset --hard {}", "x".repeat(6000));
    let mut want = Vec::new();
    for round in 0..5 {
        let children: Vec<Child> = (0..10)
            .map(|n| {
                let session = format!("session-{round}-{n}");
                let mut payload = world.claude(&long);
                payload["session_id"] = session.clone().into();
                want.push(session);
                start(&world, &payload)
            })
            .collect();
        for mut child in children {
            assert!(child.wait().unwrap().success());
        }
    }
    let text = std::fs::read_to_string(world.audit_path()).unwrap();
    let mut got: Vec<String> = text
        .lines()
        .map(|line| {
            let record: Value = serde_json::from_str(line).expect("every line is whole JSON");
            assert_eq!(record["decision"], "deny");
            record["session"].as_str().unwrap().to_string()
        })
        .collect();
    got.sort();
    want.sort();
    assert_eq!(got, want, "a line was lost or written twice");
}

#[test]
fn the_log_rotates_at_its_size_limit() {
    let world = World::bare_folder();
    world.write(".git/HEAD", b"ref: refs/heads/main\n");
    world.write(".agent-guard.toml", b"[audit]\nmax_size = \"2KB\"\n");
    for n in 0..6 {
        let mut payload = world.claude("git reset --hard");
        payload["session_id"] = format!("s{n}").into();
        let out = world.hook("claude", &payload, &[("AGENT_GUARD_CONTEXT", "off")]);
        assert!(stdout(&out).contains("deny"), "{}", stderr(&out));
    }
    let current = std::fs::metadata(world.audit_path()).unwrap().len();
    assert!(current <= 2048, "{current}");
    let rotated = world.audit_path().with_extension("jsonl.1");
    assert!(rotated.exists());
    let out = world.guard().args(["log", "--json"]).output().unwrap();
    let sessions: Vec<String> = stdout(&out)
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["session"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert!(sessions.len() >= 2, "{sessions:?}");
    assert_eq!(sessions.last().map(String::as_str), Some("s5"));
    let mut sorted = sessions.clone();
    sorted.sort();
    assert_eq!(sessions, sorted, "oldest first, across both files");
}

#[test]
fn allowed_commands_are_logged_only_when_asked() {
    let world = World::repo();
    world.hook("claude", &world.claude("git status"), &[]);
    world.hook("claude", &world.claude("git reset --hard"), &[]);
    assert!(world.audit().is_empty(), "{:?}", world.audit());

    world.write(".agent-guard.toml", b"[audit]\nlog_allowed = true\n");
    world.hook("claude", &world.claude("git status"), &[]);
    world.hook("claude", &world.claude("git reset --hard"), &[]);
    let records = world.audit();
    assert_eq!(records.len(), 2, "{records:?}");
    assert_eq!(records[0]["decision"], "allow");
    assert_eq!(
        records[1]["rules"][0], "git.reset-hard",
        "cleared: the tree is clean"
    );
}

#[test]
fn a_record_holds_what_the_issue_asks() {
    let world = World::repo();
    world.write("README.md", b"edited\n");
    world.hook("claude", &world.claude("git reset --hard"), &[]);
    let record = world.audit().pop().unwrap();
    let keys: Vec<&str> = record
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    for key in [
        "time",
        "host",
        "session",
        "cwd",
        "repository",
        "command",
        "decision",
        "override",
        "would_be",
        "rules",
        "tier",
        "lost",
        "snapshot",
        "no_snapshot",
        "error",
        "elapsed_ms",
    ] {
        assert!(keys.contains(&key), "{key} missing: {record}");
    }
    assert_eq!(record["host"], "claude");
    assert_eq!(record["session"], "s-test");
    assert_eq!(record["tier"], "destructive");
    assert_eq!(
        record["lost"][0],
        "discards uncommitted changes to 1 file (README.md)"
    );
    assert_eq!(record["repository"], world.repo.display().to_string());
    assert!(record["elapsed_ms"].as_f64().unwrap() > 0.0);
}

#[test]
fn log_and_stats_read_it_back() {
    let world = World::repo();
    world.write("README.md", b"edited\n");
    let old = r#"{"time":"2001-01-01T00:00:00.000Z","host":"codex","session":null,"cwd":"/old","repository":"/old","command":"rm -rf x","decision":"deny","override":null,"would_be":null,"rules":["fs.rm-recursive"],"tier":"destructive","lost":[],"snapshot":null,"no_snapshot":null,"error":null,"elapsed_ms":1.0}"#;
    std::fs::create_dir_all(world.audit_path().parent().unwrap()).unwrap();
    std::fs::write(world.audit_path(), format!("{old}\n")).unwrap();
    world.hook("claude", &world.claude("git reset --hard"), &[]);
    world.hook(
        "claude",
        &world.claude("git reset --hard"),
        &[("AGENT_GUARD_MODE", "observe")],
    );
    world.hook(
        "claude",
        &world.claude("AGENT_GUARD_OFF=1 git reset --hard"),
        &[],
    );

    let out = world.guard().arg("log").output().unwrap();
    let lines: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert!(
        lines[0].starts_with("2001-01-01 00:00:00Z  deny"),
        "{}",
        lines[0]
    );
    assert!(
        lines[2].contains("observe:deny") && lines[2].contains("git.reset-hard"),
        "{}",
        lines[2]
    );
    assert!(
        lines[3].contains("override:prefix") && lines[3].contains("snapshot "),
        "{}",
        lines[3]
    );

    let out = world
        .guard()
        .args(["log", "--since", "1d", "--json"])
        .output()
        .unwrap();
    assert_eq!(stdout(&out).lines().count(), 3);

    let out = world.guard().args(["stats", "--json"]).output().unwrap();
    let stats: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(stats["records"], 4);
    assert_eq!(stats["by_decision"]["deny"], 2);
    assert_eq!(stats["by_decision"]["observe"], 1);
    assert_eq!(stats["by_decision"]["override"], 1);
    assert_eq!(stats["by_rule"]["git.reset-hard"], 3);
    assert_eq!(stats["by_rule"]["fs.rm-recursive"], 1);
    assert_eq!(stats["by_repository"][world.repo.display().to_string()], 3);
    assert_eq!(stats["by_repository"]["/old"], 1);

    let out = world
        .guard()
        .args(["stats", "--since", "2w"])
        .output()
        .unwrap();
    let text = stdout(&out);
    assert!(text.starts_with("3 record(s)"), "{text}");
    assert!(
        text.contains("by rule:\n       3  git.reset-hard"),
        "{text}"
    );

    let out = world
        .guard()
        .args(["log", "--since", "soon"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("not a duration"), "{}", stderr(&out));
}
