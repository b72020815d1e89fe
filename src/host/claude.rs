//! Claude Code's PreToolUse hook, and the payload shape other hosts copy from it.
//!
//! In: `{"tool_name": "Bash", "tool_input": {"command": "..."}, "cwd": ..., "session_id": ...}`.
//! Codex and older adapters send `exec_command`/`shell_command`/`functions.*` with
//! `tool_input` as an object or a JSON-encoded string and the key `command` or `cmd`.
//! Out: deny or ask as `hookSpecificOutput`; allow as empty stdout (never `"allow"`, which
//! would skip the user's own permission prompt); a rewrite as `updatedInput`, the whole tool
//! input with only the command changed, and no decision.

use std::path::Path;

use serde_json::{Value, json};

use super::{After, FileTool, Host, HostSpec, Reply, Rewrite, Stop, ToolCall, mcp, text, text_at};
use super::wiring::{Choice, Fits, Format, J, JsonHook, Project, SettingsFile, User, UserFolder, Wiring};
use super::transcript::{self, Source};

pub(super) static SPEC: HostSpec = HostSpec {
    host: Host::ClaudeCode,
    name: "claude",
    decode,
    encode,
    rewrite: Some(rewrite),
    is_stop,
    probe,
    // Claude Code restores its file tools' writes (checkpoints).
    file_tools: &[
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
        FileTool {
            name: "NotebookEdit",
            path: "notebook_path",
            replaces: |_| false,
        },
    ],
    mcp: Some(&mcp::CLAUDE),
    patches: false,
    after: Some(POST_TOOL_USE),
    wiring: Wiring {
        event: "PreToolUse",
        // Claude Code runs shell commands through `PowerShell` as well as `Bash` (on Windows).
        // MCP tools come as `mcp__<server>__<tool>`; it reads a matcher as a regular expression.
        matcher: Some("Bash|PowerShell|mcp__.*"),
        file_tools_matcher: Some("Bash|PowerShell|Write|Edit|MultiEdit|NotebookEdit|mcp__.*"),
        mcp_event: None,
        marker: ".claude",
        project: Some(Project {
            folder: Some(&[]),
            files: SETTINGS,
            choice: Choice::Listed,
            fits: Fits::Marker,
        }),
        user: User {
            home: &[".claude"],
            moved: |_| None,
            folder: UserFolder::Own(&[]),
            files: SETTINGS,
            choice: Choice::Listed,
        },
        shell: "sh",
        project_steps: STEPS,
        user_steps: STEPS,
    },
    transcripts: Some(transcript::Folder {
        source: Source::ClaudeCode,
        moved_by: Some("CLAUDE_CONFIG_DIR"),
        home: &[".claude"],
        below: "projects",
    }),
};

const SETTINGS: &[SettingsFile] = &[SettingsFile {
    name: "settings.json",
    format: Format::Json(HOOK),
}];

const STEPS: &[&str] =
    &["Claude Code reads hooks when a session starts: start a new one (or open /hooks)."];

/// The event after a call in Claude Code's dialect, which its copies send too.
pub(super) const POST_TOOL_USE: After = After {
    event: "PostToolUse",
    named: true,
};

/// Our entry in Claude Code's settings, the shape Codex, Factory Droid, Qoder CLI and Grok
/// Build share: `{matcher, hooks: [handler]}` groups under `hooks.PreToolUse`, handlers
/// `{type: "command", command, timeout}` (seconds).
pub(super) const HOOK: JsonHook = JsonHook {
    preamble: &[],
    path: &["hooks", "PreToolUse"],
    grouped: true,
    command_key: &["command"],
    handler: |c| J::command_handler(c, 30),
    twin: None,
};

/// Tool names that carry a shell command.
pub(super) fn is_shell_tool(name: &str) -> bool {
    let name = name.strip_prefix("functions.").unwrap_or(name);
    matches!(
        name,
        "Bash"
            | "bash"
            | "Shell"
            | "shell"
            | "shell_command"
            | "exec_command"
            | "local_shell"
            | "PowerShell"
    )
}

pub(super) fn decode(payload: &Value) -> Option<ToolCall> {
    let call = decode_as(payload, Host::ClaudeCode, is_shell_tool)?;
    Some(ToolCall {
        rewrite: Rewrite::of(payload.get("tool_input")?),
        ..call
    })
}

/// Claude Code's payload shape for `host`: a `tool_name` that `is_shell` accepts, the command
/// in `tool_input` (see [`command_of`]), `cwd` and `session_id`. No rewrite: the hosts that
/// can rewrite add it.
pub(super) fn decode_as(
    payload: &Value,
    host: Host,
    is_shell: fn(&str) -> bool,
) -> Option<ToolCall> {
    let tool = payload.get("tool_name")?.as_str()?;
    if !is_shell(tool) {
        return None;
    }
    Some(ToolCall {
        host,
        tool: tool.to_string(),
        command: command_of(payload.get("tool_input")?)?,
        cwd: text(payload, "cwd").map(Into::into),
        session: text(payload, "session_id").map(str::to_string),
        can_ask: true,
        rewrite: None,
    })
}

/// `tool_input` as an object or a JSON-encoded object; `command` or `cmd`; a string, or an
/// argv array that is joined as the shell would see it.
pub(super) fn command_of(input: &Value) -> Option<String> {
    let object = super::input_object(input)?;
    match object.get("command").or_else(|| object.get("cmd"))? {
        Value::String(command) => Some(command.clone()),
        argv @ Value::Array(_) => argv_line(argv),
        _ => None,
    }
}

/// An argv array as one shell line, every word quoted as the shell needs it.
pub(super) fn argv_line(argv: &Value) -> Option<String> {
    let words: Option<Vec<String>> = argv
        .as_array()?
        .iter()
        .map(|w| w.as_str().map(crate::shell::word::quote))
        .collect();
    Some(words?.join(" "))
}

pub(super) fn encode(stop: Stop) -> Reply {
    Reply::json(json!({
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": stop.word(),
            "permissionDecisionReason": stop.reason(),
        }
    }))
}

/// Runs the call with `input` as its tool input. No `permissionDecision`: `"allow"` would
/// skip the user's own permission prompt.
pub(super) fn rewrite(input: Value) -> Reply {
    Reply::json(json!({
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "updatedInput": input,
        }
    }))
}

pub(super) fn probe(command: &str, cwd: &Path) -> Value {
    probe_as("Bash", command, cwd)
}

/// Claude Code's PreToolUse payload for the shell tool named `tool`.
pub(super) fn probe_as(tool: &str, command: &str, cwd: &Path) -> Value {
    json!({
        "session_id": "agent-guard-doctor",
        "transcript_path": "",
        "cwd": cwd,
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": { "command": command },
        "tool_use_id": "agent-guard-doctor",
    })
}

/// Deny or ask as `hookSpecificOutput` on exit 0, or the legacy exit 2.
pub(super) fn is_stop(reply: Option<&Value>, exit_code: i32) -> bool {
    let decision = text_at(reply, "/hookSpecificOutput/permissionDecision");
    exit_code == 2 || (exit_code == 0 && matches!(decision, Some("deny" | "ask")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode_text(text: &str) -> Option<ToolCall> {
        super::super::decode(text.as_bytes(), Some(Host::ClaudeCode))
    }

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
                decode_text(case).map(|c| c.command).as_deref(),
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
            r#"{"tool_name":"Bash","tool_input":{"command":["rm", 7]}}"#,
            r#"{"tool_name":"Bash"}"#,
        ];
        for case in cases {
            assert_eq!(decode_text(case), None, "{case}");
        }
    }

    #[test]
    fn argv_words_are_quoted_for_the_shell() {
        let call =
            decode_text(r#"{"tool_name":"Bash","tool_input":{"command":["rm","-rf","my dir"]}}"#);
        assert_eq!(call.map(|c| c.command).as_deref(), Some("rm -rf 'my dir'"));
    }

    #[test]
    fn cwd_and_session_come_along_and_empty_ones_are_unknown() {
        let call = decode_text(
            r#"{"tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"/w","session_id":"s"}"#,
        )
        .unwrap();
        assert_eq!(
            (call.cwd, call.session),
            (Some("/w".into()), Some("s".into()))
        );
        let call = decode_text(r#"{"tool_name":"Bash","tool_input":{"command":"ls"},"cwd":""}"#);
        assert_eq!(call.unwrap().cwd, None);
    }
}
