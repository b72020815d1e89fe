//! Cursor's hooks (`hooks.json` version 1): `beforeShellExecution`, and the generic
//! `preToolUse` for its `Shell` tool; `afterShellExecution`, the same fields once the command
//! ran (with its `output`), is only observed.
//!
//! In: `{"hook_event_name": "beforeShellExecution", "command", "cwd", "conversation_id", ...}`,
//! or `{"hook_event_name": "preToolUse", "tool_name": "Shell", "tool_input": {"command",
//! "working_directory"}, ...}`.
//! Out, for both: `{"permission": "deny"|"ask", "agent_message", "user_message"}`.
//! `preToolUse` ignores ask, so there an ask goes out as a deny; it alone can rewrite, with
//! `{"permission": "allow", "updated_input"}`.

use std::path::Path;

use serde_json::{Value, json};

use super::{After, Host, HostSpec, Reply, Rewrite, Stop, ToolCall, mcp, text, text_at};
use super::wiring::{Choice, Fits, Format, J, JsonHook, Project, SettingsFile, User, UserFolder, Wiring};

pub(super) static SPEC: HostSpec = HostSpec {
    host: Host::Cursor,
    name: "cursor",
    decode,
    encode,
    rewrite: Some(rewrite),
    is_stop,
    probe,
    file_tools: &[],
    mcp: Some(&mcp::CURSOR),
    patches: false,
    after: Some(After {
        event: "afterShellExecution",
        named: true,
    }),
    wiring: Wiring {
        event: "beforeShellExecution",
        matcher: None,
        file_tools_matcher: None,
        mcp_event: Some("beforeMCPExecution"),
        marker: ".cursor",
        project: Some(Project {
            folder: Some(&[]),
            files: HOOKS,
            choice: Choice::Listed,
            fits: Fits::Marker,
        }),
        user: User {
            home: &[".cursor"],
            moved: |_| None,
            folder: UserFolder::Own(&[]),
            files: HOOKS,
            choice: Choice::Listed,
        },
        shell: "sh",
        project_steps: STEPS,
        user_steps: STEPS,
    },
    transcripts: None,
};

const HOOKS: &[SettingsFile] = &[SettingsFile {
    name: "hooks.json",
    format: Format::Json(JsonHook {
        preamble: &[("version", J::Int(1))],
        path: &["hooks", "beforeShellExecution"],
        grouped: false,
        command_key: &["command"],
        handler: |c| J::Obj(vec![("command", J::str(c))]),
        twin: None,
    }),
}];

const STEPS: &[&str] = &[
    "Cursor: check that the hook is listed in Cursor Settings > Hooks; restart Cursor if it is not.",
];

pub(super) fn decode(payload: &Value) -> Option<ToolCall> {
    let session = text(payload, "conversation_id").map(str::to_string);
    match text(payload, "hook_event_name")? {
        // `afterShellExecution` reports the same command once it ran, for the journal.
        "beforeShellExecution" | "afterShellExecution" => Some(ToolCall {
            host: Host::Cursor,
            tool: "Shell".to_string(),
            command: payload.get("command")?.as_str()?.to_string(),
            cwd: text(payload, "cwd").map(Into::into),
            session,
            can_ask: true,
            rewrite: None,
        }),
        "preToolUse" if text(payload, "tool_name") == Some("Shell") => {
            let input = payload.get("tool_input")?;
            Some(ToolCall {
                host: Host::Cursor,
                tool: "Shell".to_string(),
                command: input.get("command")?.as_str()?.to_string(),
                cwd: text(input, "working_directory")
                    .or_else(|| text(payload, "cwd"))
                    .map(Into::into),
                session,
                can_ask: false,
                rewrite: Rewrite::of(input),
            })
        }
        _ => None,
    }
}

/// The agent reads the whole reason; the user the first line of a deny (what was stopped and
/// why) and the whole of an ask (they decide on it).
pub(super) fn encode(stop: Stop) -> Reply {
    let reason = stop.reason();
    let user_message = match stop {
        Stop::Deny(_) => reason.lines().next().unwrap_or(reason),
        Stop::Ask(_) => reason,
    };
    Reply::json(json!({
        "permission": stop.word(),
        "agent_message": reason,
        "user_message": user_message,
    }))
}

pub(super) fn rewrite(input: Value) -> Reply {
    Reply::json(json!({ "permission": "allow", "updated_input": input }))
}

pub(super) fn probe(command: &str, cwd: &Path) -> Value {
    json!({
        "conversation_id": "agent-guard-doctor",
        "generation_id": "agent-guard-doctor",
        "hook_event_name": "beforeShellExecution",
        "workspace_roots": [cwd],
        "cursor_version": "2.0.0",
        "command": command,
        "cwd": cwd,
        "sandbox": false,
    })
}

pub(super) fn is_stop(reply: Option<&Value>, exit_code: i32) -> bool {
    exit_code == 0 && matches!(text_at(reply, "/permission"), Some("deny" | "ask"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::decode;

    #[test]
    fn both_events_carry_the_command_and_its_folder() {
        let before = br#"{"hook_event_name":"beforeShellExecution","command":"ls","cwd":"/w","conversation_id":"c"}"#;
        let call = decode(before, None).unwrap();
        assert_eq!(call.host, Host::Cursor);
        assert_eq!(
            (call.command.as_str(), call.cwd.as_deref()),
            ("ls", Some(Path::new("/w")))
        );
        assert!(call.can_ask);

        let pre = br#"{"hook_event_name":"preToolUse","tool_name":"Shell","cwd":"/w","tool_input":{"command":"ls","working_directory":"/w/web"}}"#;
        let call = decode(pre, None).unwrap();
        assert_eq!(call.host, Host::Cursor);
        assert_eq!(call.cwd.as_deref(), Some(Path::new("/w/web")));
        assert!(!call.can_ask);

        let pre = br#"{"hook_event_name":"preToolUse","tool_name":"Shell","cwd":"/w","tool_input":{"command":"ls"}}"#;
        assert_eq!(
            decode(pre, Some(Host::Cursor)).unwrap().cwd.as_deref(),
            Some(Path::new("/w"))
        );
    }

    #[test]
    fn other_events_tools_and_shapes_pass() {
        let cases = [
            r#"{"hook_event_name":"beforeMCPExecution","tool_name":"db","tool_input":"{\"command\":\"rm -rf /\"}"}"#,
            r#"{"hook_event_name":"preToolUse","tool_name":"Write","tool_input":{"command":"rm -rf /"}}"#,
            r#"{"hook_event_name":"beforeShellExecution","command":["rm","-rf","/"]}"#,
            r#"{"command":"rm -rf /","cwd":"/w"}"#,
        ];
        for case in cases {
            assert_eq!(decode(case.as_bytes(), Some(Host::Cursor)), None, "{case}");
        }
    }

    #[test]
    fn the_user_reads_the_first_line_of_a_deny() {
        let reply = encode(Stop::Deny("what\nmore"));
        let out: Value = serde_json::from_str(reply.stdout.as_deref().unwrap()).unwrap();
        assert_eq!(out["user_message"], "what");
        assert_eq!(out["agent_message"], "what\nmore");
    }
}
