//! Antigravity CLI's PreToolUse hook (named hook sets in `~/.gemini/config/hooks.json`).
//!
//! In: `{"conversationId", "workspacePaths", "toolCall": {"name", "args"}}`. The shell tool is
//! `run_command`, whose arguments are PascalCase: the line under `CommandLine`, the folder it
//! runs in under `Cwd` (else the first workspace path). The `toolCall` object is Antigravity's
//! alone, which is how its payloads are told apart without `--host`.
//! Out: `{"decision": "deny", "reason"}` on exit 0, the reason going back to the model. There
//! is no ask, so an ask goes out as a deny; no rewrite.

use std::path::Path;

use serde_json::{Value, json};

use super::{Host, HostSpec, ToolCall, text, working_dir};
use super::wiring::{Choice, Format, J, JsonHook, SettingsFile, User, UserFolder, Wiring};

pub(super) static SPEC: HostSpec = HostSpec {
    host: Host::Antigravity,
    name: "antigravity",
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
        matcher: None,
        file_tools_matcher: None,
        mcp_event: None,
        // It reads hooks from the user's settings only; the folder says it is used.
        marker: ".agents",
        project: None,
        // Antigravity keeps its state in its own folder; its hooks are in `~/.gemini/config`.
        user: User {
            home: &[".gemini", "antigravity"],
            moved: |_| None,
            folder: UserFolder::Home(&[".gemini", "config"]),
            files: HOOKS,
            choice: Choice::Listed,
        },
        shell: "sh",
        project_steps: STEPS,
        user_steps: STEPS,
    },
    transcripts: None,
};

/// A hook set of our own, named after us; its groups have no matcher.
const HOOKS: &[SettingsFile] = &[SettingsFile {
    name: "hooks.json",
    format: Format::Json(JsonHook {
        preamble: &[],
        path: &["agent-guard", "PreToolUse"],
        grouped: true,
        command_key: &["command"],
        handler: |c| J::command_handler(c, 30),
        twin: None,
    }),
}];

const STEPS: &[&str] = &[
    "Antigravity CLI reads ~/.gemini/config/hooks.json when it starts: start a new session.",
];

/// The shell tool's name.
const SHELL: &str = "run_command";

pub(super) fn decode(payload: &Value) -> Option<ToolCall> {
    let call = payload.get("toolCall")?;
    let tool = text(call, "name").filter(|t| *t == SHELL)?;
    let args = super::input_object(call.get("args")?)?;
    let command = args.get("CommandLine")?.as_str()?.to_string();
    let workspace = payload
        .get("workspacePaths")
        .and_then(Value::as_array)
        .and_then(|paths| paths.iter().find_map(Value::as_str))
        .filter(|p| !p.is_empty())
        .map(Into::into);
    let dir = args
        .get("Cwd")
        .and_then(Value::as_str)
        .filter(|d| !d.is_empty());
    Some(ToolCall {
        host: Host::Antigravity,
        tool: tool.to_string(),
        command,
        cwd: working_dir(workspace, dir),
        session: text(payload, "conversationId").map(str::to_string),
        can_ask: false,
        rewrite: None,
    })
}

/// Antigravity reads the same deny reply as Grok, and stops on it alike.
pub(super) use super::grok::{encode, is_stop};

pub(super) fn probe(command: &str, cwd: &Path) -> Value {
    json!({
        "conversationId": "agent-guard-doctor",
        "workspacePaths": [cwd],
        "toolCall": {
            "name": SHELL,
            "args": { "CommandLine": command, "Cwd": cwd },
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::decode;

    fn call(tool: &str, args: Value) -> Option<ToolCall> {
        let payload = json!({
            "conversationId": "c1",
            "workspacePaths": ["/w"],
            "toolCall": { "name": tool, "args": args },
        });
        decode(payload.to_string().as_bytes(), None)
    }

    #[test]
    fn run_command_runs_in_its_cwd() {
        let cases = [
            (json!({"CommandLine": "ls", "Cwd": "/srv"}), "/srv"),
            (json!({"CommandLine": "ls", "Cwd": "web"}), "/w/web"),
            (json!({"CommandLine": "ls"}), "/w"),
        ];
        for (args, cwd) in cases {
            let call = call(SHELL, args.clone()).expect("a shell call");
            assert_eq!((call.host, call.can_ask), (Host::Antigravity, false));
            assert_eq!(call.cwd.as_deref(), Some(Path::new(cwd)), "{args}");
            assert_eq!(call.session.as_deref(), Some("c1"));
        }
    }

    #[test]
    fn other_tools_and_other_shapes_pass() {
        for tool in ["write_to_file", "replace_file_content", "view_file"] {
            assert_eq!(
                call(tool, json!({"CommandLine": "rm -rf /"})),
                None,
                "{tool}"
            );
        }
        assert_eq!(call(SHELL, json!({"command": "rm -rf /"})), None);
        assert_eq!(call(SHELL, json!({"CommandLine": 7})), None);
    }

    #[test]
    fn what_antigravity_takes_for_a_stop() {
        let stop = |out: &str, code| crate::host::is_stop(Host::Antigravity, out.as_bytes(), code);
        assert!(stop(r#"{"decision":"deny","reason":"r"}"#, 0));
        assert!(!stop(r#"{"decision":"ask","reason":"r"}"#, 0));
        assert!(!stop(r#"{"decision":"deny"}"#, 1));
    }
}
