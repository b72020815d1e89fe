//! Factory Droid's PreToolUse hook: Claude Code's dialect, with the shell tool named
//! `Execute`. Droid reads Claude's `hookSpecificOutput` deny and ask back.

use std::path::Path;

use serde_json::Value;

use super::{FileTool, Host, HostSpec, ToolCall, claude, mcp};
use super::wiring::{Choice, Fits, Format, Project, SettingsFile, User, UserFolder, Wiring};

pub(super) static SPEC: HostSpec = HostSpec {
    host: Host::Droid,
    name: "droid",
    decode,
    encode: claude::encode,
    rewrite: None,
    is_stop: claude::is_stop,
    probe,
    // Droid keeps no copy of what `Create` writes over.
    file_tools: &[
        FileTool {
            name: "Create",
            path: "file_path",
            replaces: |_| true,
        },
        FileTool {
            name: "Write",
            path: "file_path",
            replaces: |_| false,
        },
        FileTool {
            name: "Edit",
            path: "file_path",
            replaces: |_| false,
        },
        FileTool {
            name: "MultiEdit",
            path: "file_path",
            replaces: |_| false,
        },
    ],
    mcp: Some(&mcp::CLAUDE),
    patches: false,
    after: Some(claude::POST_TOOL_USE),
    wiring: Wiring {
        event: "PreToolUse",
        matcher: Some("Execute|mcp__.*"),
        file_tools_matcher: Some("Execute|Create|Edit|mcp__.*"),
        mcp_event: None,
        marker: ".factory",
        project: Some(Project {
            folder: Some(&[]),
            files: FILES,
            choice: Choice::FirstWhenPresent,
            fits: Fits::Marker,
        }),
        user: User {
            home: &[".factory"],
            moved: |_| None,
            folder: UserFolder::Own(&[]),
            files: FILES,
            choice: Choice::FirstWhenPresent,
        },
        shell: "sh",
        project_steps: STEPS,
        user_steps: STEPS,
    },
    transcripts: None,
};

/// Droid reads hooks.json, keyed directly by event name, and only when that file is absent
/// the `hooks` key of settings.json. An existing hooks.json is followed as it is written (some
/// carry a `hooks` wrapper); otherwise settings.json takes the hook.
const FILES: &[SettingsFile] = &[
    SettingsFile {
        name: "hooks.json",
        format: Format::Json(claude::HOOK),
    },
    SettingsFile {
        name: "settings.json",
        format: Format::Json(claude::HOOK),
    },
];

const STEPS: &[&str] = &["Factory Droid reads hooks when a session starts: start a new one."];

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
