//! GitHub Copilot CLI's `preToolUse` hook (`.github/hooks/*.json`).
//!
//! In, camelCase: `{"sessionId", "timestamp", "cwd", "toolName": "bash", "toolArgs"}` with
//! `toolArgs` a JSON-encoded string or an object; or, for hooks configured under PascalCase
//! event names, Claude Code's snake_case shape (`hook_event_name`, `tool_name`, `tool_input`).
//! Out, for both: a flat `{"permissionDecision": "deny"|"ask", "permissionDecisionReason"}` on
//! exit 0; a rewrite as `{"modifiedArgs"}`, the tool's arguments as an object with only the
//! command changed.

use std::path::Path;

use serde_json::{Value, json};

use super::{Host, Reply, Rewrite, Stop, ToolCall, claude, text, text_at};

fn is_shell_tool(name: &str) -> bool {
    matches!(name, "bash" | "Bash" | "powershell")
}

pub(super) fn decode(payload: &Value) -> Option<ToolCall> {
    let Some(tool) = payload.get("toolName") else {
        let call = claude::decode_as(payload, Host::Copilot, is_shell_tool)?;
        return Some(ToolCall {
            rewrite: Rewrite::of(payload.get("tool_input")?),
            ..call
        });
    };
    let tool = tool.as_str().filter(|t| is_shell_tool(t))?;
    Some(ToolCall {
        host: Host::Copilot,
        tool: tool.to_string(),
        command: claude::command_of(payload.get("toolArgs")?)?,
        cwd: text(payload, "cwd").map(Into::into),
        session: text(payload, "sessionId").map(str::to_string),
        can_ask: true,
        rewrite: Rewrite::of(payload.get("toolArgs")?),
    })
}

pub(super) fn encode(stop: Stop) -> Reply {
    Reply::json(json!({
        "permissionDecision": stop.word(),
        "permissionDecisionReason": stop.reason(),
    }))
}

pub(super) fn rewrite(input: Value) -> Reply {
    Reply::json(json!({ "modifiedArgs": input }))
}

pub(super) fn probe(command: &str, cwd: &Path) -> Value {
    json!({
        "sessionId": "agent-guard-doctor",
        "timestamp": 1_767_225_600_000_u64,
        "cwd": cwd,
        "toolName": "bash",
        "toolArgs": json!({ "command": command, "description": "agent-guard doctor" }).to_string(),
    })
}

/// The flat decision on exit 0; an exit code of 2 denies as well.
pub(super) fn is_stop(reply: Option<&Value>, exit_code: i32) -> bool {
    exit_code == 2
        || (exit_code == 0 && matches!(text_at(reply, "/permissionDecision"), Some("deny" | "ask")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::decode;

    #[test]
    fn tool_args_as_a_string_or_an_object() {
        let cases = [
            r#"{"sessionId":"s","cwd":"/w","toolName":"bash","toolArgs":"{\"command\":\"ls\"}"}"#,
            r#"{"sessionId":"s","cwd":"/w","toolName":"bash","toolArgs":{"command":"ls","description":"d"}}"#,
        ];
        for case in cases {
            let call = decode(case.as_bytes(), None).expect(case);
            assert_eq!(call.host, Host::Copilot);
            assert_eq!(call.command, "ls");
            assert_eq!(call.cwd.as_deref(), Some(Path::new("/w")));
            assert_eq!(call.session.as_deref(), Some("s"));
        }
    }

    #[test]
    fn the_pascal_case_dialect_with_the_host_named() {
        let payload = br#"{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"bash","tool_input":{"command":"ls"}}"#;
        assert_eq!(
            decode(payload, Some(Host::Copilot)).map(|c| c.host),
            Some(Host::Copilot)
        );
    }

    #[test]
    fn the_powershell_tool_is_read_as_powershell() {
        let case =
            br#"{"toolName":"powershell","toolArgs":{"command":"Remove-Item -Recurse out"}}"#;
        let call = decode(case, Some(Host::Copilot)).expect("a powershell call");
        assert_eq!(call.command, "Remove-Item -Recurse out");
        assert_eq!(call.dialect(), crate::shell::Dialect::PowerShell);
    }

    #[test]
    fn other_tools_and_shapes_pass() {
        let cases = [
            r#"{"toolName":"edit","toolArgs":{"command":"rm -rf /"}}"#,
            r#"{"toolName":"bash","toolArgs":"{not json"}"#,
            r#"{"toolName":"bash"}"#,
            r#"{"toolName":7,"toolArgs":{"command":"ls"}}"#,
        ];
        for case in cases {
            assert_eq!(decode(case.as_bytes(), Some(Host::Copilot)), None, "{case}");
        }
    }
}
