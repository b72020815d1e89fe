//! OpenAI Codex CLI's PreToolUse hook: Claude Code's dialect plus `turn_id` and `model`.
//!
//! In: `tool_name` `"Bash"` with `tool_input` `{"command": "<script>"}`; older builds send the
//! legacy `exec_command`/`shell_command`/`functions.*` shapes that Claude's module reads.
//! `apply_patch` and MCP tools (`mcp__server__tool`) are not shell commands.
//! Out: Claude's `hookSpecificOutput` deny, whose reason must not be empty. Codex has no ask:
//! it marks the hook failed and runs the command, so an ask goes out as a deny. A rewrite is
//! `updatedInput` with `permissionDecision: "allow"`: Codex drops an `updatedInput` without it.

use std::path::Path;

use serde_json::{Value, json};

use super::{Host, HostSpec, Reply, Rewrite, ToolCall, claude, mcp, text_at};
use super::wiring::{Choice, Fits, Format, Project, SettingsFile, User, UserFolder, Wiring, Group};
use super::transcript::{self, Source};

pub(super) static SPEC: HostSpec = HostSpec {
    host: Host::Codex,
    name: "codex",
    decode,
    encode: claude::encode,
    rewrite: Some(rewrite),
    is_stop,
    probe,
    file_tools: &[],
    mcp: Some(&mcp::CLAUDE),
    patches: true,
    after: Some(claude::POST_TOOL_USE),
    wiring: Wiring {
        event: "PreToolUse",
        matcher: Some(MATCH),
        file_tools_matcher: None,
        mcp_event: None,
        marker: ".codex",
        project: Some(Project {
            folder: Some(&[]),
            files: FILES,
            choice: Choice::InlineToml,
            fits: Fits::Marker,
        }),
        user: User {
            home: &[".codex"],
            moved: |loc| loc.codex_home.clone(),
            folder: UserFolder::Own(&[]),
            files: FILES,
            choice: Choice::InlineToml,
        },
        shell: "sh",
        project_steps: &[
            TRUST,
            "Codex loads a project's hooks only when the project's .codex folder is trusted.",
        ],
        user_steps: &[TRUST],
    },
    transcripts: Some(transcript::Folder {
        source: Source::Codex,
        moved_by: Some("CODEX_HOME"),
        home: &[".codex"],
        below: "sessions",
    }),
};

/// Codex's shell tool, its `apply_patch` (which it cannot undo) and MCP tools.
const MATCH: &str = "Bash|apply_patch|mcp__.*";

/// `hooks.json`, or inline `[hooks]` tables when config.toml already keeps its hooks there.
const FILES: &[SettingsFile] = &[
    SettingsFile {
        name: "hooks.json",
        format: Format::Json(claude::HOOK),
    },
    SettingsFile {
        name: "config.toml",
        format: Format::CodexToml(Group {
            event: "PreToolUse",
            matcher: MATCH,
            timeout: 30,
        }),
    },
];

const TRUST: &str = "Codex runs a hook only once you trust it: open /hooks and trust agent-guard (again after any change to the entry).";

pub(super) fn decode(payload: &Value) -> Option<ToolCall> {
    let call = claude::decode_as(payload, Host::Codex, claude::is_shell_tool)?;
    Some(ToolCall {
        can_ask: false,
        rewrite: Rewrite::of(payload.get("tool_input")?),
        ..call
    })
}

pub(super) fn rewrite(input: Value) -> Reply {
    Reply::json(json!({
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "allow",
            "updatedInput": input,
        }
    }))
}

pub(super) fn probe(command: &str, cwd: &Path) -> Value {
    let mut payload = claude::probe(command, cwd);
    if let Some(fields) = payload.as_object_mut() {
        fields.insert("turn_id".into(), "agent-guard-doctor".into());
        fields.insert("model".into(), "gpt-5-codex".into());
    }
    payload
}

/// Only a deny with a reason, or exit 2: an ask, or a deny without a reason, fails open.
pub(super) fn is_stop(reply: Option<&Value>, exit_code: i32) -> bool {
    let decision = text_at(reply, "/hookSpecificOutput/permissionDecision");
    let reason = text_at(reply, "/hookSpecificOutput/permissionDecisionReason");
    exit_code == 2
        || (exit_code == 0
            && decision == Some("deny")
            && reason.is_some_and(|r| !r.trim().is_empty()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::decode;

    #[test]
    fn bash_and_the_legacy_tools_are_shell_commands() {
        let cases = [
            r#"{"turn_id":"t","tool_name":"Bash","tool_input":{"command":"bash -lc 'ls'"}}"#,
            r#"{"turn_id":"t","tool_name":"exec_command","tool_input":"{\"cmd\":\"bash -lc 'ls'\"}"}"#,
            r#"{"turn_id":"t","tool_name":"functions.shell_command","tool_input":{"command":"bash -lc 'ls'"}}"#,
        ];
        for case in cases {
            let call = decode(case.as_bytes(), None).expect(case);
            assert_eq!(
                (call.host, call.command.as_str()),
                (Host::Codex, "bash -lc 'ls'")
            );
            assert!(!call.can_ask);
        }
    }

    #[test]
    fn patches_and_mcp_tools_pass() {
        let cases = [
            r#"{"turn_id":"t","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch"}}"#,
            r#"{"turn_id":"t","tool_name":"mcp__fs__delete","tool_input":{"command":"rm -rf /"}}"#,
        ];
        for case in cases {
            assert_eq!(decode(case.as_bytes(), Some(Host::Codex)), None, "{case}");
        }
    }

    #[test]
    fn an_ask_is_not_a_stop_in_codex() {
        let ask = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"r"}}"#;
        assert!(!crate::host::is_stop(Host::Codex, ask.as_bytes(), 0));
        let empty = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":""}}"#;
        assert!(!crate::host::is_stop(Host::Codex, empty.as_bytes(), 0));
    }
}
