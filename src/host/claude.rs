//! Claude Code's PreToolUse hook, and the payload shapes other hosts copy from it.
//!
//! In: `{"tool_name": "Bash", "tool_input": {"command": "..."}, "cwd": ..., "session_id": ...}`.
//! Codex and older adapters send `exec_command`/`shell_command`/`functions.*` with
//! `tool_input` as an object or a JSON-encoded string and the key `command` or `cmd`.
//! Out: deny or ask as `hookSpecificOutput`; allow as empty stdout (never `"allow"`, which
//! would skip the user's own permission prompt).

use serde_json::{Value, json};

use super::{Host, Reply, ToolCall};
use crate::policy::{Decision, Verdict};

/// Tool names that carry a shell command.
fn is_shell_tool(name: &str) -> bool {
    let name = name.strip_prefix("functions.").unwrap_or(name);
    matches!(
        name,
        "Bash" | "bash" | "Shell" | "shell" | "shell_command" | "exec_command" | "local_shell"
    )
}

pub(super) fn decode(input: &[u8]) -> Option<ToolCall> {
    let payload: Value = serde_json::from_slice(input).ok()?;
    let tool = payload.get("tool_name")?.as_str()?;
    if !is_shell_tool(tool) {
        return None;
    }
    let command = command_of(payload.get("tool_input")?)?;
    if command.trim().is_empty() {
        return None;
    }
    Some(ToolCall {
        host: Host::ClaudeCode,
        tool: tool.to_string(),
        command,
        cwd: payload.get("cwd").and_then(Value::as_str).map(Into::into),
        session: payload
            .get("session_id")
            .and_then(Value::as_str)
            .map(str::to_string),
    })
}

/// `tool_input` as an object or a JSON-encoded object; `command` or `cmd`; a string, or an
/// argv array that is joined as the shell would see it.
fn command_of(input: &Value) -> Option<String> {
    let decoded;
    let input = match input {
        Value::String(text) => {
            decoded = serde_json::from_str::<Value>(text).ok()?;
            &decoded
        }
        other => other,
    };
    let object = input.as_object()?;
    match object.get("command").or_else(|| object.get("cmd"))? {
        Value::String(command) => Some(command.clone()),
        Value::Array(argv) => {
            let words: Option<Vec<String>> = argv
                .iter()
                .map(|w| w.as_str().map(crate::shell::word::quote))
                .collect();
            Some(words?.join(" "))
        }
        _ => None,
    }
}

pub(super) fn encode(verdict: &Verdict) -> Reply {
    let decision = match verdict.decision {
        Decision::Allow => return Reply::silent(),
        Decision::Ask => "ask",
        Decision::Deny => "deny",
    };
    let out = json!({
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": decision,
            "permissionDecisionReason": verdict.reason,
        }
    });
    Reply {
        stdout: Some(out.to_string()),
        exit_code: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_that_carry_a_command() {
        let cases = [
            r#"{"tool_name":"Bash","tool_input":{"command":"ls"}}"#,
            r#"{"tool_name":"Bash","tool_input":{"cmd":"ls"}}"#,
            r#"{"tool_name":"exec_command","tool_input":"{\"cmd\":\"ls\"}"}"#,
            r#"{"tool_name":"functions.shell_command","tool_input":{"command":"ls"}}"#,
            r#"{"tool_name":"Shell","tool_input":{"command":["ls"]}}"#,
        ];
        for case in cases {
            assert_eq!(
                decode(case.as_bytes()).map(|c| c.command).as_deref(),
                Some("ls"),
                "{case}"
            );
        }
    }

    #[test]
    fn shapes_that_do_not() {
        let cases = [
            "not json",
            "[]",
            r#"{"tool_name":"Write","tool_input":{"command":"rm x"}}"#,
            r#"{"tool_name":"Bash","tool_input":null}"#,
            r#"{"tool_name":"Bash","tool_input":false}"#,
            r#"{"tool_name":"Bash","tool_input":[]}"#,
            r#"{"tool_name":"Bash","tool_input":7}"#,
            r#"{"tool_name":"Bash","tool_input":{"command":"  "}}"#,
            r#"{"tool_name":"Bash"}"#,
        ];
        for case in cases {
            assert_eq!(decode(case.as_bytes()), None, "{case}");
        }
    }
}
