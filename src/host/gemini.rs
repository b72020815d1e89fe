//! Gemini CLI's BeforeTool hook.
//!
//! In: `{"hook_event_name": "BeforeTool", "tool_name": "run_shell_command", "tool_input":
//! {"command", "description", "dir_path", "is_background"}, "cwd", "session_id", ...}`.
//! Out: `{"decision": "deny", "reason"}`, which the model reads as the tool's error, or
//! `{"decision": "ask", ...}`. Gemini's confirmation dialog shows an ask's `systemMessage`, not
//! its `reason`, so an ask carries the reason in both. A rewrite is
//! `hookSpecificOutput.tool_input`, the full parameters with only the command changed.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::{After, FileTool, Host, HostSpec, Reply, Rewrite, Stop, ToolCall, claude, mcp, text, text_at};
use super::wiring::{Choice, Fits, Format, J, JsonHook, Project, SettingsFile, User, UserFolder, Wiring};
use super::transcript::{self, Source};

pub(super) static SPEC: HostSpec = HostSpec {
    host: Host::Gemini,
    name: "gemini",
    decode,
    encode,
    rewrite: Some(rewrite),
    is_stop,
    probe,
    // Gemini CLI's checkpointing is off unless set: `write_file` replaces what it cannot
    // restore.
    file_tools: &[
        FileTool {
            name: "write_file",
            path: "file_path",
            replaces: |_| true,
        },
        FileTool {
            name: "replace",
            path: "file_path",
            replaces: |_| false,
        },
    ],
    mcp: Some(&mcp::GEMINI),
    patches: false,
    after: Some(After {
        event: "AfterTool",
        named: true,
    }),
    wiring: Wiring {
        event: "BeforeTool",
        // MCP tools come as `mcp_<server>_<tool>`.
        matcher: Some("run_shell_command|mcp_.*"),
        file_tools_matcher: Some("run_shell_command|write_file|replace|mcp_.*"),
        mcp_event: None,
        marker: ".gemini",
        project: Some(Project {
            folder: Some(&[]),
            files: SETTINGS,
            choice: Choice::Listed,
            fits: Fits::Marker,
        }),
        user: User {
            home: &[".gemini"],
            moved: |_| None,
            folder: UserFolder::Own(&[]),
            files: SETTINGS,
            choice: Choice::Listed,
        },
        shell: "sh",
        project_steps: &[
            "Gemini CLI runs project hooks only in a trusted folder, and warns once about a new one: start a new session and accept it.",
        ],
        user_steps: &["Gemini CLI: start a new session; /hooks panel lists the hook."],
    },
    transcripts: Some(transcript::Folder {
        source: Source::Gemini,
        moved_by: None,
        home: &[".gemini"],
        below: "tmp",
    }),
};

/// `name` lets `/hooks disable agent-guard` find it; the timeout is in milliseconds.
const SETTINGS: &[SettingsFile] = &[SettingsFile {
    name: "settings.json",
    format: Format::Json(JsonHook {
        preamble: &[],
        path: &["hooks", "BeforeTool"],
        grouped: true,
        command_key: &["command"],
        handler: |c| {
            J::Obj(vec![
                ("name", J::str("agent-guard")),
                ("type", J::str("command")),
                ("command", J::str(c)),
                ("timeout", J::Int(60_000)),
            ])
        },
        twin: None,
    }),
}];

pub(super) fn decode(payload: &Value) -> Option<ToolCall> {
    let call = claude::decode_as(payload, Host::Gemini, |tool| tool == "run_shell_command")?;
    let dir = payload
        .get("tool_input")
        .and_then(|input| text(input, "dir_path"));
    Some(ToolCall {
        cwd: working_dir(call.cwd.clone(), dir),
        rewrite: Rewrite::of(payload.get("tool_input")?),
        ..call
    })
}

/// `dir_path`, taken from the session's `cwd` when relative; the `cwd` itself without one.
fn working_dir(cwd: Option<PathBuf>, dir_path: Option<&str>) -> Option<PathBuf> {
    match (cwd, dir_path) {
        (Some(cwd), Some(dir)) => Some(cwd.join(dir)),
        (None, Some(dir)) => Some(dir.into()),
        (cwd, None) => cwd,
    }
}

pub(super) fn encode(stop: Stop) -> Reply {
    Reply::json(match stop {
        Stop::Deny(reason) => json!({ "decision": "deny", "reason": reason }),
        Stop::Ask(reason) => {
            json!({ "decision": "ask", "reason": reason, "systemMessage": reason })
        }
    })
}

pub(super) fn rewrite(input: Value) -> Reply {
    Reply::json(json!({
        "hookSpecificOutput": { "hookEventName": "BeforeTool", "tool_input": input }
    }))
}

pub(super) fn probe(command: &str, cwd: &Path) -> Value {
    json!({
        "session_id": "agent-guard-doctor",
        "transcript_path": "",
        "cwd": cwd,
        "hook_event_name": "BeforeTool",
        "timestamp": "2026-01-01T00:00:00.000Z",
        "tool_name": "run_shell_command",
        "tool_input": {
            "command": command,
            "description": "agent-guard doctor",
            "is_background": false,
        },
    })
}

/// JSON on stdout decides whatever the exit code; without JSON, an exit code of 2 or more
/// blocks with stderr as the reason.
pub(super) fn is_stop(reply: Option<&Value>, exit_code: i32) -> bool {
    match reply {
        Some(Value::Object(out)) => {
            matches!(text_at(reply, "/decision"), Some("deny" | "block" | "ask"))
                || out.get("continue") == Some(&Value::Bool(false))
        }
        Some(_) => false,
        None => exit_code >= 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::decode;

    fn shell(tool_input: Value, cwd: Option<&str>) -> Option<ToolCall> {
        let mut payload = json!({
            "hook_event_name": "BeforeTool",
            "tool_name": "run_shell_command",
            "tool_input": tool_input,
        });
        if let Some(cwd) = cwd {
            payload["cwd"] = cwd.into();
        }
        decode(payload.to_string().as_bytes(), None)
    }

    #[test]
    fn the_working_directory_is_dir_path_from_cwd() {
        let cases = [
            (
                json!({"command": "ls", "dir_path": "web"}),
                Some("/w"),
                Some("/w/web"),
            ),
            (
                json!({"command": "ls", "dir_path": "/srv"}),
                Some("/w"),
                Some("/srv"),
            ),
            (
                json!({"command": "ls", "dir_path": ""}),
                Some("/w"),
                Some("/w"),
            ),
            (json!({"command": "ls"}), Some("/w"), Some("/w")),
            (
                json!({"command": "ls", "dir_path": "web"}),
                None,
                Some("web"),
            ),
            (json!({"command": "ls"}), None, None),
        ];
        for (input, cwd, want) in cases {
            let call = shell(input.clone(), cwd).expect("a shell call");
            assert_eq!(call.host, Host::Gemini);
            assert_eq!(call.cwd, want.map(PathBuf::from), "{input} in {cwd:?}");
        }
    }

    #[test]
    fn other_tools_and_shapes_pass() {
        let cases = [
            r#"{"hook_event_name":"BeforeTool","tool_name":"write_file","tool_input":{"file_path":"a","content":"rm -rf /"}}"#,
            r#"{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":7}}"#,
            r#"{"hook_event_name":"BeforeTool","tool_name":"run_shell_command"}"#,
        ];
        for case in cases {
            assert_eq!(decode(case.as_bytes(), None), None, "{case}");
        }
    }

    #[test]
    fn what_gemini_takes_for_a_stop() {
        let stop = |out: &str, code| crate::host::is_stop(Host::Gemini, out.as_bytes(), code);
        assert!(stop(r#"{"decision":"block","reason":"r"}"#, 0));
        assert!(stop(r#"{"continue":false}"#, 0));
        assert!(!stop(r#"{"decision":"allow"}"#, 2));
        assert!(stop("", 2));
        assert!(!stop("", 1));
        assert!(!stop("[]", 2));
    }
}
