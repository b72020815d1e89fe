//! Augment's CLI (Auggie) and its PreToolUse hook.
//!
//! In: `{"hook_event_name": "PreToolUse", "conversation_id", "workspace_roots": [root],
//! "tool_name", "tool_input", "tool_error": null, "is_mcp_tool"}`: no `cwd` and no
//! `session_id`, which with `workspace_roots` under a `PreToolUse` sets it apart from Claude
//! Code (and from Cursor, whose events are `beforeShellExecution` and `preToolUse`). The shell
//! tools are `launch-process` (`command`, `wait`, `max_wait_seconds`, `cwd` relative to the
//! workspace root) and `bash` (`command`, `timeout`), which runs in the workspace root.
//! Out: Claude's `hookSpecificOutput` deny on exit 0; the reason goes to the agent. Auggie reads
//! an `"ask"` but runs the tool anyway, so an ask goes out as a deny. A rewrite is
//! `updatedInput`, the whole tool input, with no decision.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::{Host, HostSpec, Rewrite, ToolCall, claude, text, text_at, working_dir};
use super::wiring::{Choice, Fits, Format, J, JsonHook, Project, SettingsFile, User, UserFolder, Wiring};

pub(super) static SPEC: HostSpec = HostSpec {
    host: Host::Auggie,
    name: "auggie",
    decode,
    encode: claude::encode,
    rewrite: Some(claude::rewrite),
    is_stop,
    probe,
    file_tools: &[],
    mcp: None,
    patches: false,
    after: Some(claude::POST_TOOL_USE),
    wiring: Wiring {
        event: "PreToolUse",
        // A regular expression that Auggie tests against the tool name unanchored.
        matcher: Some("^(launch-process|bash)$"),
        file_tools_matcher: None,
        mcp_event: None,
        marker: ".augment",
        project: Some(Project {
            folder: Some(&[]),
            files: SETTINGS,
            choice: Choice::Listed,
            fits: Fits::Marker,
        }),
        user: User {
            home: &[".augment"],
            moved: |_| None,
            folder: UserFolder::Own(&[]),
            files: SETTINGS,
            choice: Choice::Listed,
        },
        shell: "sh",
        project_steps: STEPS,
        user_steps: STEPS,
    },
    transcripts: None,
};

/// Claude Code's shape with the timeout in milliseconds.
const SETTINGS: &[SettingsFile] = &[SettingsFile {
    name: "settings.json",
    format: Format::Json(JsonHook {
        preamble: &[],
        path: &["hooks", "PreToolUse"],
        grouped: true,
        command_key: &["command"],
        handler: |c| J::command_handler(c, 30_000),
        twin: None,
    }),
}];

const STEPS: &[&str] = &["Auggie reads hooks when it starts: start a new session."];

pub(super) fn decode(payload: &Value) -> Option<ToolCall> {
    let call = claude::decode_as(payload, Host::Auggie, |tool| {
        matches!(tool, "launch-process" | "bash")
    })?;
    let input = payload.get("tool_input")?;
    Some(ToolCall {
        cwd: working_dir(workspace_root(payload), text(input, "cwd")),
        session: text(payload, "conversation_id").map(str::to_string),
        can_ask: false,
        rewrite: Rewrite::of(input),
        ..call
    })
}

/// The first workspace root, the folder Auggie runs tools and hooks in.
pub(super) fn workspace_root(payload: &Value) -> Option<PathBuf> {
    let root = payload
        .get("workspace_roots")?
        .as_array()?
        .first()?
        .as_str()?;
    (!root.is_empty()).then(|| root.into())
}

pub(super) fn probe(command: &str, cwd: &Path) -> Value {
    json!({
        "hook_event_name": "PreToolUse",
        "conversation_id": "agent-guard-doctor",
        "workspace_roots": [cwd],
        "tool_name": "launch-process",
        "tool_input": {
            "command": command,
            "wait": true,
            "max_wait_seconds": 600,
            "cwd": cwd,
        },
        "tool_error": null,
        "is_mcp_tool": false,
    })
}

/// Exit 2 blocks; on exit 0, a `PreToolUse` deny (Auggie reads `hookSpecificOutput` only with
/// its `hookEventName`) or `continue: false`. Other exit codes let the tool run.
pub(super) fn is_stop(reply: Option<&Value>, exit_code: i32) -> bool {
    let event = text_at(reply, "/hookSpecificOutput/hookEventName");
    let decision = text_at(reply, "/hookSpecificOutput/permissionDecision");
    let halted = reply.and_then(|r| r.get("continue")) == Some(&Value::Bool(false));
    exit_code == 2
        || (exit_code == 0 && ((event == Some("PreToolUse") && decision == Some("deny")) || halted))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::decode;

    fn call(tool: &str, input: Value, roots: Value) -> Option<ToolCall> {
        let payload = json!({
            "hook_event_name": "PreToolUse",
            "conversation_id": "c1",
            "workspace_roots": roots,
            "tool_name": tool,
            "tool_input": input,
            "is_mcp_tool": false,
        });
        decode(payload.to_string().as_bytes(), None)
    }

    #[test]
    fn both_shell_tools_and_where_they_run() {
        let cases = [
            (
                "launch-process",
                json!({"command": "ls", "cwd": "web"}),
                Some("/w/web"),
            ),
            (
                "launch-process",
                json!({"command": "ls", "cwd": "/srv"}),
                Some("/srv"),
            ),
            ("launch-process", json!({"command": "ls"}), Some("/w")),
            ("bash", json!({"command": "ls", "timeout": 60}), Some("/w")),
        ];
        for (tool, input, want) in cases {
            let call = call(tool, input.clone(), json!(["/w"])).expect("a shell call");
            assert_eq!((call.host, call.can_ask), (Host::Auggie, false));
            assert_eq!(call.session.as_deref(), Some("c1"));
            assert_eq!(call.cwd.as_deref(), want.map(Path::new), "{input}");
            assert!(call.rewrite.is_some());
        }
        let bare = call("bash", json!({"command": "ls"}), json!([])).unwrap();
        assert_eq!(bare.cwd, None);
    }

    #[test]
    fn other_tools_pass() {
        for tool in ["save-file", "remove-files", "read-process", "mcp:fs"] {
            assert_eq!(
                call(tool, json!({"command": "rm -rf /"}), json!(["/w"])),
                None
            );
        }
    }

    #[test]
    fn what_auggie_takes_for_a_stop() {
        let stop = |out: &str, code| crate::host::is_stop(Host::Auggie, out.as_bytes(), code);
        let deny = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r"}}"#;
        assert!(stop(deny, 0));
        assert!(!stop(&deny.replace("deny", "ask"), 0));
        assert!(!stop(
            &deny.replace("\"hookEventName\":\"PreToolUse\",", ""),
            0
        ));
        assert!(stop(r#"{"continue":false}"#, 0));
        assert!(stop("", 2));
        assert!(!stop(deny, 1));
    }
}
