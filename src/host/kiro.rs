//! Kiro CLI's `preToolUse` hook.
//!
//! In: `{"hook_event_name": "preToolUse", "cwd", "tool_name": "execute_bash"|"shell",
//! "tool_input": {"command"}}`. Out: exit 2 with the reason on stderr, which goes to the model.
//! There is no ask, so an ask goes out as a deny.

use std::path::Path;

use serde_json::{Value, json};

use super::{Host, ToolCall, claude};

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
