//! Factory Droid's PreToolUse hook: Claude Code's dialect, with the shell tool named
//! `Execute`. Droid reads Claude's `hookSpecificOutput` deny and ask back.

use std::path::Path;

use serde_json::Value;

use super::{Host, ToolCall, claude};

pub(super) fn decode(payload: &Value) -> Option<ToolCall> {
    claude::decode_as(payload, Host::Droid, |tool| tool == "Execute")
}

pub(super) fn probe(command: &str, cwd: &Path) -> Value {
    claude::probe_as("Execute", command, cwd)
}

#[cfg(test)]
mod tests {
    use crate::host::{Host, decode};

    #[test]
    fn only_execute_is_a_shell_command() {
        let execute = br#"{"tool_name":"Execute","tool_input":{"command":"ls","summary":"list"}}"#;
        assert_eq!(decode(execute, None).map(|c| c.host), Some(Host::Droid));
        let bash = br#"{"tool_name":"Bash","tool_input":{"command":"ls"}}"#;
        assert_eq!(decode(bash, Some(Host::Droid)), None);
        let create = br#"{"tool_name":"Create","tool_input":{"command":"ls"}}"#;
        assert_eq!(decode(create, Some(Host::Droid)), None);
    }
}
