//! Kiro CLI's `preToolUse` hook.
//!
//! In: `{"hook_event_name": "preToolUse", "cwd", "tool_name": "execute_bash"|"shell",
//! "tool_input": {"command"}}`. Out: exit 2 with the reason on stderr, which goes to the model.
//! There is no ask, so an ask goes out as a deny.

use std::borrow::Cow;
use std::path::Path;

use serde_json::{Value, json};

use super::{FileTool, Host, HostSpec, Reply, ToolCall, claude, text};
use super::wiring::{Choice, Fits, Format, J, JsonHook, Project, SettingsFile, User, UserFolder, Wiring};

pub(super) static SPEC: HostSpec = HostSpec {
    host: Host::Kiro,
    name: "kiro",
    decode,
    encode: |stop| Reply::exit_two(stop.reason()),
    rewrite: None,
    is_stop: |_, exit_code| exit_code == 2,
    probe,
    // `create` writes `file_text` over the file, of which Kiro CLI keeps no copy;
    // `str_replace`, `insert` and `append` change it in place.
    file_tools: &[FileTool {
        name: "fs_write",
        path: "path",
        replaces: |input| text(input, "command") == Some("create"),
    }],
    mcp: None,
    patches: false,
    after: None,
    wiring: Wiring {
        event: "PreToolUse",
        matcher: Some(MATCH),
        file_tools_matcher: None,
        mcp_event: None,
        marker: ".kiro",
        project: Some(Project {
            folder: Some(&["hooks"]),
            files: OWN_FILE,
            choice: Choice::Listed,
            fits: Fits::Marker,
        }),
        user: User {
            home: &[".kiro"],
            moved: |_| None,
            folder: UserFolder::Own(&["hooks"]),
            files: OWN_FILE,
            choice: Choice::Listed,
        },
        shell: "sh",
        project_steps: STEPS,
        user_steps: STEPS,
    },
    transcripts: None,
};

const MATCH: &str = "execute_bash|shell";

/// Kiro CLI 3's standalone hook files: a flat list of named hooks with triggers, in a file of
/// our own.
const OWN_FILE: &[SettingsFile] = &[SettingsFile {
    name: "agent-guard.json",
    format: Format::Json(JsonHook {
        preamble: &[("version", J::Str(Cow::Borrowed("v1")))],
        path: &["hooks"],
        grouped: false,
        command_key: &["action", "command"],
        handler: |c| {
            J::Obj(vec![
                ("name", J::str("agent-guard")),
                ("trigger", J::str("PreToolUse")),
                ("matcher", J::str(MATCH)),
                (
                    "action",
                    J::Obj(vec![("type", J::str("command")), ("command", J::str(c))]),
                ),
                ("timeout", J::Int(30)),
                ("enabled", J::Bool(true)),
            ])
        },
        twin: None,
    }),
}];

const STEPS: &[&str] = &[
    "Kiro CLI runs hook files from .kiro/hooks on its v3 engine (kiro-cli --v3 before 3.0); agents on the 2.x engine keep hooks in .kiro/agents/*.json, which this does not change.",
];

pub(super) fn decode(payload: &Value) -> Option<ToolCall> {
    let call = claude::decode_as(payload, Host::Kiro, |tool| {
        matches!(tool, "execute_bash" | "shell")
    })?;
    Some(ToolCall {
        can_ask: false,
        ..call
    })
}

pub(super) fn probe(command: &str, cwd: &Path) -> Value {
    json!({
        "hook_event_name": "preToolUse",
        "cwd": cwd,
        "tool_name": "execute_bash",
        "tool_input": { "command": command, "summary": "agent-guard doctor" },
    })
}

#[cfg(test)]
mod tests {
    use crate::host::{Host, decode};

    #[test]
    fn both_shell_tool_names() {
        let cases = [
            r#"{"hook_event_name":"preToolUse","tool_name":"execute_bash","tool_input":{"command":"ls"}}"#,
            r#"{"hook_event_name":"preToolUse","tool_name":"shell","tool_input":{"command":"ls"}}"#,
        ];
        for case in cases {
            let call = decode(case.as_bytes(), None).expect(case);
            assert_eq!((call.host, call.can_ask), (Host::Kiro, false));
        }
    }

    #[test]
    fn other_tools_pass() {
        let payload = br#"{"hook_event_name":"preToolUse","tool_name":"fs_write","tool_input":{"command":"create","path":"a"}}"#;
        assert_eq!(decode(payload, Some(Host::Kiro)), None);
    }
}
