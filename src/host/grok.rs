//! Grok Build's PreToolUse hook (`hooks` in the JSON files of `~/.grok/hooks/`).
//!
//! In, camelCase: `{"sessionId", "cwd", "workspaceRoot", "toolName", "toolInput",
//! "toolInputTruncated"}`. The shell tool is `run_terminal_command`, its command under
//! `toolInput.command`. `toolInput` without `toolArgs` is Grok's alone (Copilot CLI sends
//! `toolName` with `toolArgs`), which is how its payloads are told apart without `--host`.
//! Out: `{"decision": "deny", "reason"}` on exit 0; the reason goes back to the model. There is
//! no ask, so an ask goes out as a deny; no rewrite.
//!
//! A `toolInput` that Grok cut short (`toolInputTruncated`) is judged as far as it goes: the
//! part that arrived is what names the danger, and a stop in it stands.

use std::path::Path;

use serde_json::{Value, json};

use super::{Host, HostSpec, Reply, ToolCall, claude, text, text_at};
use super::wiring::{Choice, Format, SettingsFile, User, UserFolder, Wiring};

pub(super) static SPEC: HostSpec = HostSpec {
    host: Host::Grok,
    name: "grok",
    decode,
    encode: |stop| encode(stop.reason()),
    rewrite: None,
    is_stop,
    probe,
    file_tools: &[],
    mcp: None,
    patches: false,
    after: None,
    wiring: Wiring {
        event: "PreToolUse",
        matcher: Some(SHELL),
        file_tools_matcher: None,
        mcp_event: None,
        // It reads hooks from the user's settings only; the folder says it is used.
        marker: ".grok",
        project: None,
        user: User {
            home: &[".grok"],
            moved: |loc| loc.grok_home.clone(),
            folder: UserFolder::Own(&["hooks"]),
            // A file of our own in its hooks folder, of which it reads every `*.json`.
            files: &[SettingsFile {
                name: "agent-guard.json",
                format: Format::Json(claude::HOOK),
            }],
            choice: Choice::Listed,
        },
        shell: "sh",
        project_steps: STEPS,
        user_steps: STEPS,
    },
    transcripts: None,
};

const STEPS: &[&str] = &["Grok Build reads its hooks folder when it starts: start a new session."];

/// The shell tool's name.
pub(super) const SHELL: &str = "run_terminal_command";

pub(super) fn decode(payload: &Value) -> Option<ToolCall> {
    let tool = text(payload, "toolName").filter(|t| *t == SHELL)?;
    Some(ToolCall {
        host: Host::Grok,
        tool: tool.to_string(),
        command: claude::command_of(payload.get("toolInput")?)?,
        cwd: text(payload, "cwd")
            .or_else(|| text(payload, "workspaceRoot"))
            .map(Into::into),
        session: text(payload, "sessionId").map(str::to_string),
        can_ask: false,
        rewrite: None,
    })
}

/// `{"decision": "deny", "reason"}`: the reply Antigravity and Vibe read too.
pub(super) fn encode(reason: &str) -> Reply {
    Reply::json(json!({ "decision": "deny", "reason": reason }))
}

pub(super) fn probe(command: &str, cwd: &Path) -> Value {
    json!({
        "sessionId": "agent-guard-doctor",
        "cwd": cwd,
        "workspaceRoot": cwd,
        "toolName": SHELL,
        "toolInput": { "command": command },
        "toolInputTruncated": false,
    })
}

/// Only `decision: deny` on exit 0 stops the call; anything else, a non-zero exit included,
/// lets the tool run (on Antigravity and Vibe too).
pub(super) fn is_stop(reply: Option<&Value>, exit_code: i32) -> bool {
    exit_code == 0 && text_at(reply, "/decision") == Some("deny")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::decode;

    fn call(tool: &str, input: Value) -> Option<ToolCall> {
        let payload = json!({
            "sessionId": "s1",
            "cwd": "/w",
            "workspaceRoot": "/w",
            "toolName": tool,
            "toolInput": input,
        });
        decode(payload.to_string().as_bytes(), None)
    }

    #[test]
    fn the_terminal_tool_is_read_without_a_host() {
        let call = call(SHELL, json!({"command": "ls"})).expect("a shell call");
        assert_eq!((call.host, call.can_ask), (Host::Grok, false));
        assert_eq!(call.cwd.as_deref(), Some(Path::new("/w")));
        assert_eq!(call.session.as_deref(), Some("s1"));
        assert!(call.rewrite.is_none());
    }

    #[test]
    fn other_tools_pass() {
        for tool in ["bash", "edit_file", "write_file", "mcp__db__query"] {
            assert_eq!(call(tool, json!({"command": "rm -rf /"})), None, "{tool}");
        }
    }

    #[test]
    fn what_grok_takes_for_a_stop() {
        let stop = |out: &str, code| crate::host::is_stop(Host::Grok, out.as_bytes(), code);
        assert!(stop(r#"{"decision":"deny","reason":"r"}"#, 0));
        assert!(!stop(r#"{"decision":"allow"}"#, 0));
        assert!(!stop(r#"{"decision":"deny","reason":"r"}"#, 1));
        assert!(!stop("", 2));
    }
}
