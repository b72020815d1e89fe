//! Hermes Agent's shell hooks (`hooks:` in `~/.hermes/config.yaml`).
//!
//! In: `{"hook_event_name": "pre_tool_call", "tool_name", "tool_input", "session_id", "cwd",
//! "extra"}`, the tool's arguments under `tool_input` (`null` when they are not an object), and
//! the same shape after the call under `post_tool_call`, with the result in `extra`. The shell
//! tool is `terminal` (`command`, `workdir`, `background`, `timeout`); it runs in `workdir` when
//! given. The event names are Hermes's own, which is how its payloads are told apart without
//! `--host`.
//! Out: `{"action": "block", "message"}` on stdout (Hermes also reads Claude Code's
//! `{"decision": "block", "reason"}`); whatever the exit code, only that JSON blocks. There is no
//! ask, so an ask goes out as a block; no rewrite. Hermes runs the command without a shell,
//! split into words as a POSIX shell would.

use std::path::Path;

use serde_json::{Value, json};

use super::{After, FileTool, Host, HostSpec, Reply, ToolCall, claude, mcp, text, text_at, working_dir};
use super::wiring::{Choice, Format, SettingsFile, User, UserFolder, Wiring};

pub(super) static SPEC: HostSpec = HostSpec {
    host: Host::Hermes,
    name: "hermes",
    decode,
    encode: |stop| encode(stop.reason()),
    rewrite: None,
    is_stop,
    probe,
    // Hermes Agent keeps no copy of what `write_file` writes over; `patch` replaces strings in
    // place (or applies a patch that names its files).
    file_tools: &[
        FileTool {
            name: "write_file",
            path: "path",
            replaces: |_| true,
        },
        FileTool {
            name: "patch",
            path: "path",
            replaces: |_| false,
        },
    ],
    mcp: Some(&mcp::HERMES),
    patches: false,
    // Always written with the entry before the call, file tools or not.
    after: Some(After {
        event: AFTER,
        named: true,
    }),
    wiring: Wiring {
        event: BEFORE,
        // Hermes tests the matcher as a regular expression against the whole tool name.
        matcher: Some("terminal|mcp__.*"),
        file_tools_matcher: Some("terminal|write_file|patch|mcp__.*"),
        mcp_event: None,
        // It reads hooks from the user's settings only; the folder says it is used.
        marker: ".hermes",
        project: None,
        user: User {
            home: &[".hermes"],
            moved: |loc| loc.hermes_home.clone(),
            folder: UserFolder::Own(&[]),
            files: &[SettingsFile {
                name: "config.yaml",
                format: Format::HermesYaml,
            }],
            choice: Choice::Listed,
        },
        shell: "sh",
        project_steps: STEPS,
        user_steps: STEPS,
    },
    transcripts: None,
};

const STEPS: &[&str] = &[
    "Hermes Agent asks once before it runs a new shell hook: start `hermes` in a terminal and approve agent-guard (or run it with --accept-hooks).",
];

/// The event before a tool runs.
pub(super) const BEFORE: &str = "pre_tool_call";
/// The event after a tool ran.
pub(super) const AFTER: &str = "post_tool_call";

/// The shell tool's name.
const SHELL: &str = "terminal";

pub(super) fn decode(payload: &Value) -> Option<ToolCall> {
    let event = text(payload, "hook_event_name")?;
    if event != BEFORE && event != AFTER {
        return None;
    }
    let call = claude::decode_as(payload, Host::Hermes, |tool| tool == SHELL)?;
    let dir = payload
        .get("tool_input")
        .and_then(|input| text(input, "workdir"));
    Some(ToolCall {
        cwd: working_dir(call.cwd.clone(), dir),
        can_ask: false,
        ..call
    })
}

pub(super) fn encode(reason: &str) -> Reply {
    Reply::json(json!({ "action": "block", "message": reason }))
}

pub(super) fn probe(command: &str, cwd: &Path) -> Value {
    json!({
        "hook_event_name": BEFORE,
        "tool_name": SHELL,
        "tool_input": { "command": command },
        "session_id": "agent-guard-doctor",
        "cwd": cwd,
        "extra": { "task_id": "", "tool_call_id": "agent-guard-doctor" },
    })
}

/// `action: block` or `decision: block` in the JSON on stdout, whatever the exit code.
pub(super) fn is_stop(reply: Option<&Value>, _exit_code: i32) -> bool {
    text_at(reply, "/action") == Some("block") || text_at(reply, "/decision") == Some("block")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::decode;

    fn call(event: &str, tool: &str, input: Value) -> Option<ToolCall> {
        let payload = json!({
            "hook_event_name": event,
            "tool_name": tool,
            "tool_input": input,
            "session_id": "s1",
            "cwd": "/w",
            "extra": {},
        });
        decode(payload.to_string().as_bytes(), None)
    }

    #[test]
    fn the_terminal_tool_runs_in_its_workdir() {
        let cases = [
            (json!({"command": "ls", "workdir": "web"}), "/w/web"),
            (json!({"command": "ls", "workdir": "/srv"}), "/srv"),
            (json!({"command": "ls", "background": true}), "/w"),
        ];
        for (input, cwd) in cases {
            let call = call(BEFORE, SHELL, input.clone()).expect("a shell call");
            assert_eq!((call.host, call.can_ask), (Host::Hermes, false));
            assert_eq!(call.cwd.as_deref(), Some(Path::new(cwd)), "{input}");
            assert_eq!(call.session.as_deref(), Some("s1"));
        }
    }

    #[test]
    fn other_tools_and_events_pass() {
        for tool in ["write_file", "patch", "read_file", "execute_code"] {
            assert_eq!(call(BEFORE, tool, json!({"command": "rm -rf /"})), None);
        }
        assert_eq!(call(BEFORE, SHELL, Value::Null), None);
        let other = json!({"hook_event_name": "on_session_start", "tool_name": SHELL,
            "tool_input": {"command": "ls"}});
        assert_eq!(
            decode(other.to_string().as_bytes(), Some(Host::Hermes)),
            None
        );
    }

    #[test]
    fn what_hermes_takes_for_a_stop() {
        let stop = |out: &str, code| crate::host::is_stop(Host::Hermes, out.as_bytes(), code);
        assert!(stop(r#"{"action":"block","message":"m"}"#, 0));
        assert!(stop(r#"{"decision":"block","reason":"r"}"#, 1));
        assert!(!stop(r#"{"decision":"deny","reason":"r"}"#, 0));
        assert!(!stop("blocked", 2));
    }
}
