//! Overrides through the real binary: `--yes-i-know` taken off the command in each rewriting
//! host's own format (every other field carried through; golden files), the prefix named
//! instead where a host cannot rewrite, protected findings that nothing inline lifts, the
//! environment's off switch, `inline_override = false`, observe mode, and `check` as a dry
//! run that never logs or snapshots.
//!
//! Regenerate the golden files with `AGENT_GUARD_BLESS=1 cargo test --test overrides`.

mod common;
mod scratch;

use agent_guard::host::{self, Host};
use common::{Sandbox, test_file};
use scratch::{World, stderr, stdout};
use serde_json::Value;

const COMMAND: &str = "git reset --hard origin/main";

/// A host's fixture for `git reset --hard origin/main`, with `--yes-i-know` appended.
fn flagged(fixture: &str) -> Vec<u8> {
    let text = std::fs::read_to_string(test_file(&format!("fixtures/{fixture}"))).unwrap();
    assert!(text.contains(COMMAND), "{fixture}");
    text.replace(COMMAND, &format!("{COMMAND} --yes-i-know"))
        .into_bytes()
}

fn golden(name: &str, actual: &[u8]) {
    let path = test_file(&format!("golden/{name}"));
    if std::env::var_os("AGENT_GUARD_BLESS").is_some() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read(&path).unwrap_or_default();
    assert_eq!(
        String::from_utf8_lossy(actual),
        String::from_utf8_lossy(&expected),
        "{name} differs from the golden file; if the change is intended, rerun with AGENT_GUARD_BLESS=1"
    );
}

/// `agent-guard hook --host NAME` in a fresh sandbox, context off.
fn hook(host: Host, input: &[u8], env: &[(&str, &str)]) -> std::process::Output {
    let sandbox = Sandbox::new();
    let mut cmd = sandbox.command();
    cmd.args(["hook", "--host", host.name()])
        .env("XDG_STATE_HOME", sandbox.cwd().join("state"))
        .write_stdin(input.to_vec());
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

/// A JSON object, or an object encoded as a JSON string (Copilot's `toolArgs`).
fn object(value: &Value) -> Value {
    match value {
        Value::String(text) => serde_json::from_str(text).unwrap(),
        other => other.clone(),
    }
}

#[test]
fn yes_i_know_is_taken_off_in_each_rewriting_hosts_format() {
    // host, fixture, golden, where the tool input is in the payload, where the rewrite is.
    let cases = [
        (
            Host::ClaudeCode,
            "claude-code/bash-reset-hard.json",
            "rewrite-claude.json",
            "/tool_input",
            "/hookSpecificOutput/updatedInput",
        ),
        (
            Host::Codex,
            "codex/bash-reset-hard.json",
            "rewrite-codex.json",
            "/tool_input",
            "/hookSpecificOutput/updatedInput",
        ),
        (
            Host::Gemini,
            "gemini/shell-reset-hard.json",
            "rewrite-gemini.json",
            "/tool_input",
            "/hookSpecificOutput/tool_input",
        ),
        (
            Host::Cursor,
            "cursor/pre-tool-use-reset-hard.json",
            "rewrite-cursor-pre-tool-use.json",
            "/tool_input",
            "/updated_input",
        ),
        (
            Host::Copilot,
            "copilot/bash-reset-hard.json",
            "rewrite-copilot.json",
            "/toolArgs",
            "/modifiedArgs",
        ),
        (
            Host::Copilot,
            "copilot/pascal-reset-hard.json",
            "rewrite-copilot-pascal.json",
            "/tool_input",
            "/modifiedArgs",
        ),
    ];
    for (host, fixture, name, input_at, rewrite_at) in cases {
        let input = flagged(fixture);
        let out = hook(host, &input, &[]);
        assert_eq!(
            (out.status.code(), stderr(&out).as_str()),
            (Some(0), ""),
            "{fixture}"
        );
        golden(name, &out.stdout);
        assert!(
            !host::is_stop(host, &out.stdout, 0),
            "{fixture}: a rewrite is no stop"
        );

        let payload: Value = serde_json::from_slice(&input).unwrap();
        let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
        let mut want = object(payload.pointer(input_at).unwrap());
        want["command"] = COMMAND.into();
        assert_eq!(reply.pointer(rewrite_at), Some(&want), "{fixture}: {reply}");
    }
}

#[test]
fn hosts_that_cannot_rewrite_say_to_use_the_prefix_instead() {
    let cases = [
        (Host::Cursor, "cursor/before-shell-reset-hard.json"),
        (Host::Droid, "droid/execute-reset-hard.json"),
        (Host::Kiro, "kiro/execute-bash-reset-hard.json"),
        (Host::Windsurf, "windsurf/run-command-reset-hard.json"),
        (Host::Cline, "cline/execute-command-reset-hard.json"),
    ];
    for (host, fixture) in cases {
        let out = hook(host, &flagged(fixture), &[]);
        let code = out.status.code().unwrap();
        assert!(host::is_stop(host, &out.stdout, code), "{fixture}");
        let said = format!("{}{}", stdout(&out), stderr(&out));
        assert!(
            said.contains("cannot take `--yes-i-know` off the command")
                && said.contains(
                    "put `AGENT_GUARD_OFF=1` in front of `git reset --hard origin/main` instead"
                ),
            "{fixture}: {said}"
        );
    }
}

/// What `check --json` says of `command` in a fresh sandbox (context off), with `env`.
fn check(command: &str, env: &[(&str, &str)]) -> (i32, Value) {
    let sandbox = Sandbox::new();
    let mut cmd = sandbox.command();
    cmd.args(["check", "--json", "--", command]);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    let value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (out.status.code().unwrap(), value)
}

#[test]
fn the_flag_counts_only_as_the_last_word_of_a_command() {
    // command, decision, override, what runs instead.
    let cases: &[(&str, &str, Option<&str>, Option<&str>)] = &[
        (
            "git reset --hard --yes-i-know",
            "allow",
            Some("flag"),
            Some("git reset --hard"),
        ),
        (
            "rm -rf build --yes-i-know",
            "allow",
            Some("flag"),
            Some("rm -rf build"),
        ),
        (
            "cd app && rm -rf build   --yes-i-know  ",
            "allow",
            Some("flag"),
            Some("cd app && rm -rf build"),
        ),
        ("git status --yes-i-know", "allow", None, Some("git status")),
        (
            "AGENT_GUARD_OFF=1 git reset --hard",
            "allow",
            Some("prefix"),
            None,
        ),
        ("git commit -m 'x --yes-i-know'", "allow", None, None),
        ("echo hi # --yes-i-know", "allow", None, None),
        ("git reset --hard '--yes-i-know'", "deny", None, None),
        ("git reset --hard --yes-i-knowing", "deny", None, None),
        ("git reset --hard; --yes-i-know", "deny", None, None),
        ("git clean -fdx --yes-i-know", "deny", None, None),
        (
            "git push --force origin main --yes-i-know",
            "deny",
            None,
            None,
        ),
        (
            "AGENT_GUARD_OFF=1 git push --force origin main",
            "deny",
            None,
            None,
        ),
    ];
    for &(command, decision, by, rewrite) in cases {
        let (_, verdict) = check(command, &[]);
        assert_eq!(verdict["decision"], decision, "{command}: {verdict}");
        assert_eq!(verdict["override"].as_str(), by, "{command}: {verdict}");
        assert_eq!(verdict["rewrite"].as_str(), rewrite, "{command}: {verdict}");
    }
}

#[test]
fn protected_stays_denied_whatever_the_command_carries() {
    for command in [
        "git clean -fdx --yes-i-know",
        "AGENT_GUARD_OFF=1 git clean -fdx",
        "AGENT_GUARD_OFF=1 git push --force origin main",
    ] {
        let world = World::bare_folder();
        let out = world.hook("claude", &world.claude(command), &[]);
        let reply: Value = serde_json::from_str(&stdout(&out)).unwrap();
        assert_eq!(reply["hookSpecificOutput"]["permissionDecision"], "deny");
        let reason = reply["hookSpecificOutput"]["permissionDecisionReason"]
            .as_str()
            .unwrap();
        assert!(
            reason.contains("This is protected: no override applies"),
            "{reason}"
        );
        assert_eq!(world.audit()[0]["decision"], "deny");
    }
}

#[test]
fn the_environment_off_switch_passes_everything_and_is_audited() {
    let world = World::repo();
    world.write("notes.txt", b"untracked\n");
    let out = world.hook(
        "claude",
        &world.claude("git clean -fdx"),
        &[("AGENT_GUARD_OFF", "1")],
    );
    assert_eq!((stdout(&out).as_str(), out.status.code()), ("", Some(0)));
    let record = world.audit().pop().expect("the override is audited");
    assert_eq!(record["decision"], "override");
    assert_eq!(record["override"], "env");
    assert_eq!(record["tier"], "protected");
    assert_eq!(world.snapshots().len(), 1, "a snapshot comes first");

    // Nothing to override: nothing logged, nothing snapshotted.
    let out = world.hook(
        "claude",
        &world.claude("git status"),
        &[("AGENT_GUARD_OFF", "1")],
    );
    assert_eq!(stdout(&out), "");
    assert_eq!(world.audit().len(), 1);
}

#[test]
fn inline_override_false_turns_off_both_the_prefix_and_the_flag() {
    let world = World::repo();
    world.write(".agent-guard.toml", b"inline_override = false\n");
    world.write("README.md", b"edited\n");
    for command in [
        "AGENT_GUARD_OFF=1 git reset --hard",
        "git reset --hard --yes-i-know",
    ] {
        let out = world.hook("claude", &world.claude(command), &[]);
        let reply: Value = serde_json::from_str(&stdout(&out)).unwrap();
        assert_eq!(
            reply["hookSpecificOutput"]["permissionDecision"], "deny",
            "{command}"
        );
        let reason = reply["hookSpecificOutput"]["permissionDecisionReason"]
            .as_str()
            .unwrap();
        assert!(
            reason.contains("Inline overrides are turned off here (`inline_override = false`)"),
            "{command}: {reason}"
        );
        assert!(!reason.contains("put `AGENT_GUARD_OFF=1`"), "{reason}");
    }
    // A host that cannot ask is told to have the user run it, not to use an override.
    let codex = serde_json::json!({
        "turn_id": "t", "cwd": world.repo, "tool_name": "Bash",
        "tool_input": {"command": "git reset --hard"},
    });
    let out = world.hook("codex", &codex, &[("AGENT_GUARD_ON_DESTRUCTIVE", "ask")]);
    let reply: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let reason = reply["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap();
    assert!(reason.contains("they run it themselves"), "{reason}");
    assert!(
        world.snapshots().is_empty(),
        "nothing ran, nothing to snapshot"
    );
}

#[test]
fn observe_mode_stops_nothing_and_logs_every_would_be_stop() {
    type Setup = fn(&World) -> Vec<(&'static str, &'static str)>;
    let cases: [(&str, Setup); 2] = [
        ("environment", |_| vec![("AGENT_GUARD_MODE", "observe")]),
        ("config", |w| {
            w.write(".agent-guard.toml", b"mode = \"observe\"\n");
            Vec::new()
        }),
    ];
    for (how, setup) in cases {
        let world = World::repo();
        world.write("README.md", b"edited\n");
        let env = setup(&world);
        let out = world.hook("claude", &world.claude("git reset --hard"), &env);
        assert_eq!(stdout(&out), "", "{how}");
        let record = world.audit().pop().expect(how);
        assert_eq!(record["decision"], "observe", "{how}");
        assert_eq!(record["would_be"], "deny", "{how}");
        assert_eq!(record["rules"][0], "git.reset-hard");
        assert_eq!(
            world.snapshots().len(),
            1,
            "{how}: it runs, so a snapshot first"
        );

        let out = world
            .guard()
            .args(["check", "--", "git reset --hard"])
            .envs(env.iter().copied())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{how}");
        assert!(
            stdout(&out).contains("(observe mode: not enforced"),
            "{}",
            stdout(&out)
        );
    }
}

#[test]
fn check_is_a_dry_run_it_never_logs_or_snapshots() {
    let world = World::repo();
    world.write("README.md", b"edited\n");
    for command in [
        "git reset --hard",
        "AGENT_GUARD_OFF=1 git reset --hard",
        "git reset --hard --yes-i-know",
    ] {
        world
            .guard()
            .args(["check", "--", command])
            .output()
            .unwrap();
    }
    world
        .guard()
        .args(["check", "--", "git reset --hard"])
        .env("AGENT_GUARD_MODE", "observe")
        .output()
        .unwrap();
    assert!(!world.audit_path().exists());
    assert!(world.snapshots().is_empty());
}
