//! Kimi Code CLI's PreToolUse hook (`[[hooks]]` tables in `~/.kimi-code/config.toml`).
//!
//! In: `{"hook_event_name": "PreToolUse", "session_id", "cwd", "client_type", "session_title",
//! "tool_name", "tool_input", "tool_call_id"}`, the runner's fields in snake_case. `client_type`
//! names the client the engine runs in (`kimi_code_cli` for the CLI) and is Kimi's alone, which
//! is how its payloads are told from Claude Code's without `--host`; the legacy engine
//! (`KIMI_CODE_LEGACY_FLAG`) leaves it out. The shell tool is `Bash` (`command`, `cwd` relative
//! to the session's folder, `timeout` in seconds, `description`, `run_in_background`); it runs
//! bash, Git Bash on Windows, or sh.
//! Out: `hookSpecificOutput.permissionDecision: "deny"` with its reason on exit 0, or exit 2
//! with the reason on stderr; the model reads the reason as the tool's error. Any other
//! decision lets the tool run: Kimi has no ask, so an ask goes out as a deny. No rewrite.

use std::path::Path;

use serde_json::{Value, json};

use super::{Host, HostSpec, ToolCall, claude, mcp, text, text_at, working_dir};
use super::wiring::{Choice, Field, Format, SettingsFile, Tables, User, UserFolder, Wiring};

pub(super) static SPEC: HostSpec = HostSpec {
    host: Host::Kimi,
    name: "kimi",
    decode,
    encode: claude::encode,
    rewrite: None,
    is_stop,
    probe,
    file_tools: &[],
    mcp: Some(&mcp::CLAUDE),
    patches: false,
    after: Some(claude::POST_TOOL_USE),
    wiring: Wiring {
        event: "PreToolUse",
        matcher: Some(MATCH),
        file_tools_matcher: None,
        mcp_event: None,
        // Kimi Code keeps AGENTS.md and mcp.json there, but reads hooks only from the user's
        // config.
        marker: ".kimi-code",
        project: None,
        user: User {
            home: &[".kimi-code"],
            moved: |loc| loc.kimi_home.clone(),
            folder: UserFolder::Own(&[]),
            files: &[SettingsFile {
                name: "config.toml",
                format: Format::HookTables {
                    before: BEFORE_TABLE,
                    after: Some(AFTER_TABLE),
                },
            }],
            choice: Choice::Listed,
        },
        shell: "sh",
        project_steps: STEPS,
        user_steps: STEPS,
    },
    transcripts: None,
};

/// Kimi Code's shell tool and its MCP tools, before the call; it tests the matcher as a
/// regular expression, unanchored.
const MATCH: &str = "^Bash$|^mcp__";

/// Our hook in Kimi Code's `config.toml`. A `[[hooks]]` table with any key besides these four
/// makes Kimi drop its whole `hooks` section, every hook in it, so there is no name; the timeout
/// is whole seconds.
const BEFORE_TABLE: Tables = Tables {
    fields: &[
        ("event", Field::Str("PreToolUse")),
        ("matcher", Field::Str(MATCH)),
        ("command", Field::Command),
        ("timeout", Field::Int(30)),
    ],
    event_key: "event",
};

/// Kimi Code's table for the call after it ran: its `PostToolUse` carries the fields of
/// `PreToolUse` and the tool's output, and Kimi does not wait for it.
const AFTER_TABLE: Tables = Tables {
    fields: &[
        ("event", Field::Str("PostToolUse")),
        ("matcher", Field::Str("^Bash$")),
        ("command", Field::Command),
        ("timeout", Field::Int(30)),
    ],
    event_key: "event",
};

const STEPS: &[&str] = &["Kimi Code reads its hooks when a session starts: start a new one."];

/// The shell tool's name.
const SHELL: &str = "Bash";

pub(super) fn decode(payload: &Value) -> Option<ToolCall> {
    let call = claude::decode_as(payload, Host::Kimi, |tool| tool == SHELL)?;
    let dir = payload
        .get("tool_input")
        .and_then(|input| text(input, "cwd"));
    Some(ToolCall {
        cwd: working_dir(call.cwd.clone(), dir),
        can_ask: false,
        ..call
    })
}

pub(super) fn probe(command: &str, cwd: &Path) -> Value {
    json!({
        "hook_event_name": "PreToolUse",
        "session_id": "agent-guard-doctor",
        "cwd": cwd,
        "client_type": "kimi_code_cli",
        "tool_name": SHELL,
        "tool_input": { "command": command },
        "tool_call_id": "agent-guard-doctor",
    })
}

/// Exit 2 blocks; on exit 0, only a `deny` under `hookSpecificOutput`. Any other exit code, or a
/// timeout, lets the tool run.
pub(super) fn is_stop(reply: Option<&Value>, exit_code: i32) -> bool {
    let decision = text_at(reply, "/hookSpecificOutput/permissionDecision");
    exit_code == 2 || (exit_code == 0 && decision == Some("deny"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::decode;

    fn call(input: Value) -> Option<ToolCall> {
        let payload = json!({
            "hook_event_name": "PreToolUse",
            "session_id": "s1",
            "cwd": "/w",
            "client_type": "kimi_code_cli",
            "tool_name": SHELL,
            "tool_input": input,
            "tool_call_id": "c1",
        });
        decode(payload.to_string().as_bytes(), None)
    }

    #[test]
    fn the_shell_tool_runs_in_its_cwd() {
        let cases = [
            (json!({"command": "ls", "cwd": "web"}), "/w/web"),
            (json!({"command": "ls", "cwd": "/srv"}), "/srv"),
            (json!({"command": "ls", "timeout": 60}), "/w"),
        ];
        for (input, cwd) in cases {
            let call = call(input.clone()).expect("a shell call");
            assert_eq!((call.host, call.can_ask), (Host::Kimi, false));
            assert_eq!(call.session.as_deref(), Some("s1"));
            assert_eq!(call.cwd.as_deref(), Some(Path::new(cwd)), "{input}");
            assert!(call.rewrite.is_none());
        }
    }

    #[test]
    fn other_tools_pass() {
        for tool in ["Write", "Edit", "TaskStop", "Agent"] {
            let payload = json!({
                "hook_event_name": "PreToolUse",
                "client_type": "kimi_code_cli",
                "tool_name": tool,
                "tool_input": {"command": "rm -rf /"},
            });
            assert_eq!(decode(payload.to_string().as_bytes(), None), None, "{tool}");
        }
    }

    #[test]
    fn what_kimi_takes_for_a_stop() {
        let stop = |out: &str, code| crate::host::is_stop(Host::Kimi, out.as_bytes(), code);
        assert!(stop(
            r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"r"}}"#,
            0
        ));
        assert!(!stop(
            r#"{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"r"}}"#,
            0
        ));
        assert!(!stop(r#"{"decision":"deny","reason":"r"}"#, 0));
        assert!(!stop(
            r#"{"hookSpecificOutput":{"permissionDecision":"deny"}}"#,
            1
        ));
        assert!(stop("", 2));
    }
}
