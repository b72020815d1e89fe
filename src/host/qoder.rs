//! Qoder CLI's PreToolUse hook: Claude Code's protocol, field for field.
//!
//! In: `session_id`, `transcript_path`, `cwd`, `hook_event_name: "PreToolUse"`, `model` (when
//! one is chosen), `permission_mode`, `agent_id`/`agent_type` (in a subagent), `tool_use_id`,
//! `tool_name`, `tool_input`. The shell tool is `Bash` (`command`, `description`, `timeout` in
//! milliseconds, `run_in_background`). Nothing in the payload is Qoder's own, so it is told from
//! Claude Code's only by `--host qoder`, which the installed command carries; read as Claude
//! Code's it gets the same answer.
//! Out: Claude Code's `hookSpecificOutput` deny or ask (Qoder's permission prompt), exit 2 with
//! stderr, and `updatedInput` replacing the tool input.

use std::path::Path;

use serde_json::Value;

use super::{Host, HostSpec, Rewrite, ToolCall, claude, mcp};
use super::wiring::{Choice, Fits, Format, Project, SettingsFile, User, UserFolder, Wiring};

pub(super) static SPEC: HostSpec = HostSpec {
    host: Host::Qoder,
    name: "qoder",
    decode,
    encode: claude::encode,
    rewrite: Some(claude::rewrite),
    is_stop: claude::is_stop,
    probe,
    file_tools: &[],
    mcp: Some(&mcp::CLAUDE),
    patches: false,
    after: Some(claude::POST_TOOL_USE),
    wiring: Wiring {
        event: "PreToolUse",
        matcher: Some("Bash|mcp__.*"),
        file_tools_matcher: None,
        mcp_event: None,
        marker: ".qoder",
        project: Some(Project {
            folder: Some(&[]),
            files: SETTINGS,
            choice: Choice::Listed,
            fits: Fits::Marker,
        }),
        user: User {
            home: &[".qoder"],
            moved: |loc| loc.qoder_home.clone(),
            folder: UserFolder::Own(&[]),
            files: SETTINGS,
            choice: Choice::Listed,
        },
        shell: "sh",
        project_steps: STEPS,
        user_steps: STEPS,
    },
    transcripts: None,
};

const SETTINGS: &[SettingsFile] = &[SettingsFile {
    name: "settings.json",
    format: Format::Json(claude::HOOK),
}];

const STEPS: &[&str] =
    &["Qoder CLI reads hooks when a session starts: start a new one (or open /hooks)."];

pub(super) fn decode(payload: &Value) -> Option<ToolCall> {
    let call = claude::decode_as(payload, Host::Qoder, |tool| tool == "Bash")?;
    Some(ToolCall {
        rewrite: Rewrite::of(payload.get("tool_input")?),
        ..call
    })
}

pub(super) fn probe(command: &str, cwd: &Path) -> Value {
    claude::probe(command, cwd)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::decode;

    #[test]
    fn bash_is_the_shell_tool_and_it_can_ask_and_rewrite() {
        let payload = r#"{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Bash","tool_input":{"command":"ls","timeout":120000}}"#;
        let call = decode(payload.as_bytes(), Some(Host::Qoder)).expect("a shell call");
        assert_eq!((call.host, call.can_ask), (Host::Qoder, true));
        assert!(call.rewrite.is_some());
        // Without `--host` the same payload is Claude Code's.
        assert_eq!(
            decode(payload.as_bytes(), None).map(|c| c.host),
            Some(Host::ClaudeCode)
        );
    }

    #[test]
    fn other_tools_pass() {
        for tool in ["Write", "Edit", "run_shell_command", "Monitor"] {
            let payload = format!(
                r#"{{"hook_event_name":"PreToolUse","tool_name":"{tool}","tool_input":{{"command":"rm -rf /"}}}}"#
            );
            assert_eq!(
                decode(payload.as_bytes(), Some(Host::Qoder)),
                None,
                "{tool}"
            );
        }
    }
}
