//! Crush's PreToolUse hook (`hooks` in `crush.json`).
//!
//! In: `{"event": "PreToolUse", "session_id", "cwd", "tool_name", "tool_input"}`, with the tool
//! input as the model wrote it. The event goes under `event`, not Claude Code's
//! `hook_event_name`, which is how these payloads are told apart without `--host`. The shell
//! tool is `bash` (`command`, `description`, `working_dir`, `run_in_background`,
//! `auto_background_after`); Crush runs it in its own POSIX shell interpreter on every OS.
//! Out, on exit 0: `{"decision": "deny", "reason"}` (or Claude Code's `hookSpecificOutput`),
//! which the model reads as `Tool call blocked by hook. Reason: <reason>`; exit 2 blocks with
//! the reason on stderr and exit 49 halts the turn. Decisions are `allow`, `deny` or none:
//! there is no ask, so an ask goes out as a deny. `updated_input` is merged key by key into the
//! tool input: given the whole input it replaces the command, and with no decision the call
//! still goes through Crush's own permission prompt. Other exit codes, a timeout and output that
//! is not a JSON object let the tool run.

use std::path::Path;

use serde_json::{Value, json};

use super::{Host, HostSpec, Reply, Rewrite, ToolCall, claude, mcp, text, text_at, working_dir};
use super::wiring::{Choice, Fits, Format, J, JsonHook, Project, SettingsFile, Twin, User, UserFolder, Wiring};

pub(super) static SPEC: HostSpec = HostSpec {
    host: Host::Crush,
    name: "crush",
    decode,
    encode: |stop| encode(stop.reason()),
    rewrite: Some(rewrite),
    is_stop,
    probe,
    file_tools: &[],
    mcp: Some(&mcp::CRUSH),
    patches: false,
    // Crush has no event after the call.
    after: None,
    wiring: Wiring {
        event: EVENT,
        matcher: Some(MATCH),
        file_tools_matcher: None,
        mcp_event: None,
        // Its data folder, which it makes in every project it runs in; its settings are
        // `crush.json` or `.crush.json` at the top level, and only one of those says the
        // project uses it.
        marker: ".crush",
        project: Some(Project {
            folder: None,
            // Where both set a key, `.crush.json` wins; install keeps to the one there is.
            files: &[settings("crush.json"), settings(".crush.json")],
            choice: Choice::Existing,
            fits: Fits::SettingsFile,
        }),
        // `~/.config/crush` on every OS, Windows included.
        user: User {
            home: &[".config", "crush"],
            moved: |loc| loc.crush_home.clone(),
            folder: UserFolder::Own(&[]),
            files: &[settings("crush.json")],
            choice: Choice::Listed,
        },
        shell: "sh",
        project_steps: STEPS,
        user_steps: STEPS,
    },
    transcripts: None,
};

/// Crush's shell tool and its MCP tools; it tests the matcher as a regular expression,
/// unanchored.
const MATCH: &str = "^bash$|^mcp_";

/// Crush's entries are flat: `name` is what its TUI shows, the timeout is in seconds. The
/// matcher is the handler's own, kept at ours as the command is.
const fn settings(name: &'static str) -> SettingsFile {
    SettingsFile {
        name,
        format: Format::Json(JsonHook {
            preamble: &[],
            path: &["hooks", EVENT],
            grouped: false,
            command_key: &["command"],
            handler: |c| {
                J::Obj(vec![
                    ("name", J::str("agent-guard")),
                    ("matcher", J::str(MATCH)),
                    ("command", J::str(c)),
                    ("timeout", J::Int(30)),
                ])
            },
            twin: Some(Twin {
                key: "matcher",
                value: |_| MATCH.to_string(),
            }),
        }),
    }
}

const STEPS: &[&str] = &["Crush reads crush.json when it starts: restart it."];

/// The shell tool's name.
const SHELL: &str = "bash";

/// The event name Crush sends, whatever spelling its settings use.
const EVENT: &str = "PreToolUse";

/// The exit code that halts the turn as well as the call.
const HALT: i32 = 49;

pub(super) fn decode(payload: &Value) -> Option<ToolCall> {
    if text(payload, "event") != Some(EVENT) {
        return None;
    }
    let call = claude::decode_as(payload, Host::Crush, |tool| tool == SHELL)?;
    let input = payload.get("tool_input")?;
    Some(ToolCall {
        cwd: working_dir(call.cwd.clone(), text(input, "working_dir")),
        can_ask: false,
        rewrite: Rewrite::of(input),
        ..call
    })
}

pub(super) fn encode(reason: &str) -> Reply {
    Reply::json(json!({ "decision": "deny", "reason": reason }))
}

/// The whole input as the patch, and no decision: `allow` would skip Crush's permission prompt.
pub(super) fn rewrite(input: Value) -> Reply {
    Reply::json(json!({ "updated_input": input }))
}

pub(super) fn probe(command: &str, cwd: &Path) -> Value {
    json!({
        "event": EVENT,
        "session_id": "agent-guard-doctor",
        "cwd": cwd,
        "tool_name": SHELL,
        "tool_input": { "command": command, "description": "agent-guard doctor" },
    })
}

/// Exit 2 and 49 stop. On exit 0 Crush reads `hookSpecificOutput` when it is there and
/// nothing else; otherwise a top-level `deny` or `halt`. Decisions are matched in any case.
pub(super) fn is_stop(reply: Option<&Value>, exit_code: i32) -> bool {
    let denies = |decision: Option<&str>| decision.is_some_and(|d| d.eq_ignore_ascii_case("deny"));
    match exit_code {
        2 | HALT => true,
        0 => match reply.and_then(|r| r.get("hookSpecificOutput")) {
            Some(_) => denies(text_at(reply, "/hookSpecificOutput/permissionDecision")),
            None => {
                denies(text_at(reply, "/decision"))
                    || reply.and_then(|r| r.get("halt")) == Some(&Value::Bool(true))
            }
        },
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::decode;

    fn call(tool: &str, input: Value) -> Option<ToolCall> {
        let payload = json!({
            "event": EVENT,
            "session_id": "s1",
            "cwd": "/w",
            "tool_name": tool,
            "tool_input": input,
        });
        decode(payload.to_string().as_bytes(), None)
    }

    #[test]
    fn the_bash_tool_runs_in_its_working_dir() {
        let cases = [
            (json!({"command": "ls", "working_dir": "web"}), "/w/web"),
            (json!({"command": "ls", "working_dir": "/srv"}), "/srv"),
            (json!({"command": "ls", "working_dir": ""}), "/w"),
            (json!({"command": "ls", "run_in_background": true}), "/w"),
        ];
        for (input, cwd) in cases {
            let call = call(SHELL, input.clone()).expect("a shell call");
            assert_eq!((call.host, call.can_ask), (Host::Crush, false));
            assert_eq!(call.cwd.as_deref(), Some(Path::new(cwd)), "{input}");
            assert!(call.rewrite.is_some());
        }
    }

    #[test]
    fn other_tools_and_other_events_pass() {
        for tool in ["Bash", "job_kill", "edit", "write", "mcp_fs_delete"] {
            assert_eq!(call(tool, json!({"command": "rm -rf /"})), None, "{tool}");
        }
        let other =
            json!({"event": "PostToolUse", "tool_name": SHELL, "tool_input": {"command": "ls"}});
        assert_eq!(
            decode(other.to_string().as_bytes(), Some(Host::Crush)),
            None
        );
        let claude =
            json!({"hook_event_name": EVENT, "tool_name": SHELL, "tool_input": {"command": "ls"}});
        assert_eq!(
            decode(claude.to_string().as_bytes(), Some(Host::Crush)),
            None
        );
    }

    #[test]
    fn what_crush_takes_for_a_stop() {
        let stop = |out: &str, code| crate::host::is_stop(Host::Crush, out.as_bytes(), code);
        assert!(stop(r#"{"decision":"deny","reason":"r"}"#, 0));
        assert!(stop(r#"{"decision":"DENY"}"#, 0));
        assert!(stop(r#"{"halt":true,"reason":"r"}"#, 0));
        assert!(stop(
            r#"{"hookSpecificOutput":{"permissionDecision":"deny"}}"#,
            0
        ));
        // With `hookSpecificOutput` there, the top level is not read.
        assert!(!stop(
            r#"{"hookSpecificOutput":{"permissionDecision":"allow"},"decision":"deny"}"#,
            0
        ));
        assert!(!stop(r#"{"decision":"ask","reason":"r"}"#, 0));
        assert!(!stop(r#"{"updated_input":{"command":"ls"}}"#, 0));
        assert!(!stop(r#"{"decision":"deny"}"#, 1));
        assert!(stop("", 2));
        assert!(stop("", HALT));
    }
}
