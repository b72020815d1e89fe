//! Windsurf's Cascade hooks (`.windsurf/hooks.json`), events `pre_run_command` and
//! `post_run_command`.
//!
//! In: `{"agent_action_name": "pre_run_command", "trajectory_id", "tool_info": {"command_line",
//! "cwd"}}`. Out: exit 2 with the reason on stderr. There is no ask, so an ask goes out as a
//! deny.

use std::path::Path;

use serde_json::{Value, json};

use super::{After, Host, HostSpec, Reply, ToolCall, mcp, text};
use super::wiring::{Choice, Fits, Format, J, JsonHook, Project, SettingsFile, User, UserFolder, Wiring};

pub(super) static SPEC: HostSpec = HostSpec {
    host: Host::Windsurf,
    name: "windsurf",
    decode,
    encode: |stop| Reply::exit_two(stop.reason()),
    rewrite: None,
    is_stop: |_, exit_code| exit_code == 2,
    probe,
    file_tools: &[],
    mcp: Some(&mcp::WINDSURF),
    patches: false,
    after: Some(After {
        event: AFTER,
        named: true,
    }),
    wiring: Wiring {
        event: "pre_run_command",
        matcher: None,
        file_tools_matcher: None,
        mcp_event: Some("pre_mcp_tool_use"),
        marker: ".windsurf",
        project: Some(Project {
            folder: Some(&[]),
            files: HOOKS,
            choice: Choice::Listed,
            fits: Fits::Marker,
        }),
        user: User {
            home: &[".codeium", "windsurf"],
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

/// `show_output` puts the reason for a stop in Cascade's panel.
const HOOKS: &[SettingsFile] = &[SettingsFile {
    name: "hooks.json",
    format: Format::Json(JsonHook {
        preamble: &[],
        path: &["hooks", "pre_run_command"],
        grouped: false,
        command_key: &["command"],
        handler: |c| J::Obj(vec![("command", J::str(c)), ("show_output", J::Bool(true))]),
        twin: None,
    }),
}];

const STEPS: &[&str] = &["Windsurf reads hooks.json at startup: restart Windsurf."];

/// The action after a command ran, with the same `tool_info`; it cannot block, and the guard
/// only records what the command wrote.
pub(super) const AFTER: &str = "post_run_command";

pub(super) fn decode(payload: &Value) -> Option<ToolCall> {
    if text(payload, "agent_action_name")
        .is_some_and(|event| event != "pre_run_command" && event != AFTER)
    {
        return None;
    }
    let info = payload.get("tool_info")?;
    Some(ToolCall {
        host: Host::Windsurf,
        tool: "run_command".to_string(),
        command: info.get("command_line")?.as_str()?.to_string(),
        cwd: text(info, "cwd").map(Into::into),
        session: text(payload, "trajectory_id").map(str::to_string),
        can_ask: false,
        rewrite: None,
    })
}

pub(super) fn probe(command: &str, cwd: &Path) -> Value {
    json!({
        "agent_action_name": "pre_run_command",
        "trajectory_id": "agent-guard-doctor",
        "execution_id": "agent-guard-doctor",
        "timestamp": "2026-01-01T00:00:00Z",
        "tool_info": { "command_line": command, "cwd": cwd },
    })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::host::{Host, decode};

    #[test]
    fn the_command_line_and_its_folder() {
        let payload = br#"{"agent_action_name":"pre_run_command","trajectory_id":"t","tool_info":{"command_line":"ls","cwd":"/w"}}"#;
        let call = decode(payload, None).unwrap();
        assert_eq!(call.host, Host::Windsurf);
        assert_eq!(call.cwd.as_deref(), Some(Path::new("/w")));
        assert_eq!(call.session.as_deref(), Some("t"));
    }

    /// The command after it ran is an after-call event: observed, never judged.
    #[test]
    fn post_run_command_is_a_call_that_ran() {
        let payload = br#"{"agent_action_name":"post_run_command","trajectory_id":"t","tool_info":{"command_line":"rm -rf /","cwd":"/w"}}"#;
        assert!(crate::host::may_be_done(payload));
        match crate::host::decode_done(payload, None) {
            Some(crate::host::Done::Shell(call)) => {
                assert_eq!(call.host, Host::Windsurf);
                assert_eq!(call.command, "rm -rf /");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn other_actions_and_shapes_pass() {
        let cases = [
            r#"{"agent_action_name":"pre_write_code","tool_info":{"file_path":"a","edits":[]}}"#,
            r#"{"agent_action_name":"pre_run_command","tool_info":{"command_line":null}}"#,
        ];
        for case in cases {
            assert_eq!(
                decode(case.as_bytes(), Some(Host::Windsurf)),
                None,
                "{case}"
            );
        }
    }
}
