//! Qwen Code's PreToolUse hook: Claude Code's event and answer on a Gemini CLI fork's tools.
//!
//! In: Claude's fields (`session_id`, `transcript_path`, `cwd`, `hook_event_name:
//! "PreToolUse"`, `permission_mode`, `tool_use_id`) plus `timestamp`, with Gemini's shell tool
//! `run_shell_command` and its parameters `command`, `description`, `is_background`, `timeout`
//! and `directory` (absolute, where the command runs). The event name with that tool name is
//! what tells Qwen apart: Gemini CLI names the event `BeforeTool`, Claude Code the tool `Bash`.
//! Out: Claude's `hookSpecificOutput` deny or ask (an ask opens Qwen's confirmation; without
//! someone to ask it denies). Exit 2 with stderr also blocks. Qwen has no rewrite on this event.

use std::path::Path;

use serde_json::{Value, json};

use super::{Host, HostSpec, ToolCall, claude, mcp, text, text_at, working_dir};
use super::wiring::{Choice, Fits, Format, J, JsonHook, Project, SettingsFile, User, UserFolder, Wiring};

pub(super) static SPEC: HostSpec = HostSpec {
    host: Host::Qwen,
    name: "qwen",
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
        matcher: Some("run_shell_command|mcp__.*"),
        file_tools_matcher: None,
        mcp_event: None,
        marker: ".qwen",
        project: Some(Project {
            folder: Some(&[]),
            files: SETTINGS,
            choice: Choice::Listed,
            fits: Fits::Marker,
        }),
        user: User {
            home: &[".qwen"],
            moved: |loc| loc.qwen_home.clone(),
            folder: UserFolder::Own(&[]),
            files: SETTINGS,
            choice: Choice::Listed,
        },
        shell: "sh",
        project_steps: &[
            "Qwen Code runs a project's hooks only in a trusted folder: start a new session there and trust it.",
        ],
        user_steps: &["Qwen Code: start a new session; /hooks lists the hook."],
    },
    transcripts: None,
};

/// Claude Code's shape; its timeouts are in seconds and `name` is what its logs and `/hooks`
/// show.
const SETTINGS: &[SettingsFile] = &[SettingsFile {
    name: "settings.json",
    format: Format::Json(JsonHook {
        preamble: &[],
        path: &["hooks", "PreToolUse"],
        grouped: true,
        command_key: &["command"],
        handler: |c| {
            J::Obj(vec![
                ("type", J::str("command")),
                ("command", J::str(c)),
                ("name", J::str("agent-guard")),
                ("timeout", J::Int(30)),
            ])
        },
        twin: None,
    }),
}];

/// The shell tool's name in Qwen Code (and Gemini CLI).
pub(super) const SHELL: &str = "run_shell_command";

pub(super) fn decode(payload: &Value) -> Option<ToolCall> {
    // `PostToolUse`, the same shape after the call, is read for the journal.
    if !matches!(
        text(payload, "hook_event_name"),
        Some("PreToolUse" | "PostToolUse")
    ) {
        return None;
    }
    let call = claude::decode_as(payload, Host::Qwen, |tool| tool == SHELL)?;
    let directory = payload
        .get("tool_input")
        .and_then(|input| text(input, "directory"));
    Some(ToolCall {
        cwd: working_dir(call.cwd.clone(), directory),
        ..call
    })
}

pub(super) fn probe(command: &str, cwd: &Path) -> Value {
    json!({
        "session_id": "agent-guard-doctor",
        "transcript_path": "",
        "cwd": cwd,
        "hook_event_name": "PreToolUse",
        "timestamp": "2026-01-01T00:00:00.000Z",
        "permission_mode": "default",
        "tool_name": SHELL,
        "tool_input": {
            "command": command,
            "description": "agent-guard doctor",
            "is_background": false,
        },
        "tool_use_id": "agent-guard-doctor",
    })
}

/// JSON on exit 0: `hookSpecificOutput.permissionDecision` deny or ask, else a top-level
/// `decision` deny/block/ask, or `continue: false`. Exit 2 blocks whatever stdout holds.
pub(super) fn is_stop(reply: Option<&Value>, exit_code: i32) -> bool {
    let specific = text_at(reply, "/hookSpecificOutput/permissionDecision");
    let decision = specific.or_else(|| text_at(reply, "/decision"));
    let halted = reply.and_then(|r| r.get("continue")) == Some(&Value::Bool(false));
    exit_code == 2
        || (exit_code == 0 && (matches!(decision, Some("deny" | "block" | "ask")) || halted))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::decode;

    #[test]
    fn the_shell_tool_runs_in_its_directory() {
        let cases = [
            (
                json!({"command": "ls", "directory": "/w/web"}),
                Some("/w/web"),
            ),
            (json!({"command": "ls", "directory": "web"}), Some("/w/web")),
            (json!({"command": "ls", "directory": ""}), Some("/w")),
            (json!({"command": "ls"}), Some("/w")),
        ];
        for (input, want) in cases {
            let payload = json!({
                "hook_event_name": "PreToolUse",
                "cwd": "/w",
                "tool_name": SHELL,
                "tool_input": input,
            });
            let call = decode(payload.to_string().as_bytes(), None).expect("a shell call");
            assert_eq!((call.host, call.can_ask), (Host::Qwen, true));
            assert_eq!(call.cwd.as_deref(), want.map(Path::new), "{input}");
        }
    }

    #[test]
    fn other_tools_and_other_hosts_shapes_pass() {
        let cases = [
            r#"{"hook_event_name":"PreToolUse","tool_name":"write_file","tool_input":{"file_path":"a","content":"rm -rf /"}}"#,
            r#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}"#,
            r#"{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls"}}"#,
        ];
        for case in cases {
            assert_eq!(decode(case.as_bytes(), Some(Host::Qwen)), None, "{case}");
        }
    }

    #[test]
    fn what_qwen_takes_for_a_stop() {
        let stop = |out: &str, code| crate::host::is_stop(Host::Qwen, out.as_bytes(), code);
        assert!(stop(r#"{"decision":"block","reason":"r"}"#, 0));
        assert!(stop(r#"{"continue":false}"#, 0));
        assert!(!stop(
            r#"{"hookSpecificOutput":{"permissionDecision":"allow"},"decision":"deny"}"#,
            0
        ));
        assert!(stop("", 2));
        assert!(!stop("", 1));
        assert!(!stop(r#"{"decision":"deny"}"#, 1));
    }
}
