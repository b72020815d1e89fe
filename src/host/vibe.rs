//! Mistral Vibe's `pre_tool` and `post_tool` hooks (`hooks.toml`).
//!
//! In: `{"hook_event_name": "pre_tool", "session_id", "parent_session_id", "transcript_path",
//! "cwd", "tool_name", "tool_call_id", "tool_input"}`. The shell tool is `file_system.bash` (the
//! qualified name Vibe 3 sends; its own docs and older releases say `bash`) with `command` and
//! `timeout`; `process.start` starts a background `command` in `cwd`, relative to the session's;
//! the managed shell tools of its Windows builds are `git_bash` and `powershell`.
//! Out, on exit 0: `{"decision": "deny", "reason"}`, which the agent reads as the tool's error.
//! Any other decision lets the tool run: Vibe has no ask, so an ask goes out as a deny. A
//! rewrite is `hook_specific_output.tool_input`, the whole tool input. A non-zero exit or
//! output that is not such an object fails open.

use std::path::Path;

use serde_json::{Value, json};

use super::{After, Host, HostSpec, Reply, Rewrite, ToolCall, claude, mcp, text, working_dir};
use super::wiring::{Choice, Field, Fits, Format, Project, SettingsFile, Tables, User, UserFolder, Wiring};

pub(super) static SPEC: HostSpec = HostSpec {
    host: Host::Vibe,
    name: "vibe",
    decode,
    encode: |stop| encode(stop.reason()),
    rewrite: Some(rewrite),
    is_stop,
    probe,
    file_tools: &[],
    mcp: Some(&mcp::VIBE),
    patches: false,
    after: Some(After {
        event: AFTER,
        named: true,
    }),
    wiring: Wiring {
        event: "pre_tool",
        matcher: Some(MCP_MATCH),
        file_tools_matcher: None,
        mcp_event: None,
        marker: ".vibe",
        project: Some(Project {
            folder: Some(&[]),
            files: HOOKS,
            choice: Choice::Listed,
            fits: Fits::Marker,
        }),
        user: User {
            home: &[".vibe"],
            moved: |loc| loc.vibe_home.clone(),
            folder: UserFolder::Own(&[]),
            files: HOOKS,
            choice: Choice::Listed,
        },
        shell: "sh",
        project_steps: &[
            "Vibe loads .vibe/hooks.toml only in a trusted folder, started from the project's top level: trust it, then start a new session.",
        ],
        user_steps: &["Vibe reads hooks.toml when it starts: start a new session."],
    },
    transcripts: None,
};

/// Vibe matches a tool by its qualified name and its short ones (`file_system.bash` is also
/// `bash`, `process.start` also `process_start`); `re:` makes this a regular expression that
/// must match the whole name.
const MATCH: &str = "re:bash|git_bash|powershell|process_start";

/// The shell tools and the MCP tools, whose qualified names are `mcp_<server>.<tool>`: what
/// goes to the hook before the call. After it, an MCP call leaves nothing for the journal.
const MCP_MATCH: &str = "re:bash|git_bash|powershell|process_start|mcp_.*";

const HOOKS: &[SettingsFile] = &[SettingsFile {
    name: "hooks.toml",
    format: Format::HookTables {
        before: BEFORE_TABLE,
        after: Some(AFTER_TABLE),
    },
}];

/// Our hook in Vibe's `hooks.toml`; `name` is how Vibe tells hooks apart (a project's wins over
/// the user's of the same name). The timeout is in seconds; a failing hook lets the tool run
/// unless `strict`, which stays off as on every other host.
const BEFORE_TABLE: Tables = Tables {
    fields: &[
        ("name", Field::Str("agent-guard")),
        ("type", Field::Str("pre_tool")),
        ("match", Field::Str(MCP_MATCH)),
        ("command", Field::Command),
        ("timeout", Field::Float(30.0)),
    ],
    event_key: "type",
};

/// Our hook after each call in Vibe's `hooks.toml`, under a name of its own: a second hook of
/// the same name would replace the first.
const AFTER_TABLE: Tables = Tables {
    fields: &[
        ("name", Field::Str("agent-guard-after")),
        ("type", Field::Str("post_tool")),
        ("match", Field::Str(MATCH)),
        ("command", Field::Command),
        ("timeout", Field::Float(30.0)),
    ],
    event_key: "type",
};

/// The event after a tool ran: the `pre_tool` payload with the tool's status and output
/// added. Vibe applies a reply only when stdout holds one, so the guard's silence changes
/// nothing.
pub(super) const AFTER: &str = "post_tool";

/// The tools whose `command` is a shell command, by the last part of their name.
fn is_shell_tool(name: &str) -> bool {
    let leaf = name.rsplit('.').next().unwrap_or(name);
    matches!(leaf, "bash" | "git_bash" | "powershell" | "process_start") || name == "process.start"
}

pub(super) fn decode(payload: &Value) -> Option<ToolCall> {
    let call = claude::decode_as(payload, Host::Vibe, is_shell_tool)?;
    let input = payload.get("tool_input")?;
    Some(ToolCall {
        cwd: working_dir(call.cwd.clone(), text(input, "cwd")),
        can_ask: false,
        rewrite: Rewrite::of(input),
        ..call
    })
}

/// Vibe reads the same deny reply as Grok, and stops on it alike.
pub(super) use super::grok::{encode, is_stop};

pub(super) fn rewrite(input: Value) -> Reply {
    Reply::json(json!({ "hook_specific_output": { "tool_input": input } }))
}

pub(super) fn probe(command: &str, cwd: &Path) -> Value {
    json!({
        "session_id": "agent-guard-doctor",
        "transcript_path": "",
        "cwd": cwd,
        "parent_session_id": null,
        "hook_event_name": "pre_tool",
        "tool_name": "file_system.bash",
        "tool_call_id": "agent-guard-doctor",
        "tool_input": { "command": command },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::decode;

    fn call(tool: &str, input: Value) -> Option<ToolCall> {
        let payload = json!({
            "hook_event_name": "pre_tool",
            "cwd": "/w",
            "tool_name": tool,
            "tool_input": input,
        });
        decode(payload.to_string().as_bytes(), None)
    }

    /// `post_tool` is an after-call event, recognised without `--host`.
    #[test]
    fn post_tool_is_a_call_that_ran() {
        let payload = json!({
            "hook_event_name": AFTER,
            "cwd": "/w",
            "tool_name": "file_system.bash",
            "tool_input": {"command": "touch a"},
            "tool_status": "success",
        })
        .to_string();
        match crate::host::decode_done(payload.as_bytes(), None) {
            Some(crate::host::Done::Shell(call)) => assert_eq!(call.host, Host::Vibe),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_shell_tools_under_every_name() {
        let cases = [
            (
                "file_system.bash",
                json!({"command": "ls", "timeout": 30}),
                "/w",
            ),
            ("bash", json!({"command": "ls"}), "/w"),
            (
                "process.start",
                json!({"command": "ls", "cwd": "web"}),
                "/w/web",
            ),
            (
                "process_start",
                json!({"command": "ls", "cwd": "/srv"}),
                "/srv",
            ),
            ("git_bash", json!({"command": "ls"}), "/w"),
        ];
        for (tool, input, cwd) in cases {
            let call = call(tool, input).unwrap_or_else(|| panic!("{tool}"));
            assert_eq!((call.host, call.can_ask), (Host::Vibe, false));
            assert_eq!(call.cwd.as_deref(), Some(Path::new(cwd)), "{tool}");
            assert_eq!(call.dialect(), crate::shell::Dialect::Posix, "{tool}");
        }
        let powershell = call("powershell", json!({"command": "ls"})).unwrap();
        assert_eq!(powershell.dialect(), crate::shell::Dialect::PowerShell);
    }

    #[test]
    fn other_tools_pass() {
        for tool in [
            "file_system.write_file",
            "process.stop",
            "bash_output",
            "edit",
        ] {
            assert_eq!(call(tool, json!({"command": "rm -rf /"})), None, "{tool}");
        }
    }

    #[test]
    fn what_vibe_takes_for_a_stop() {
        let stop = |out: &str, code| crate::host::is_stop(Host::Vibe, out.as_bytes(), code);
        assert!(stop(r#"{"decision":"deny","reason":"r"}"#, 0));
        assert!(!stop(r#"{"decision":"deny","reason":"r"}"#, 2));
        assert!(!stop(r#"{"decision":"ask","reason":"r"}"#, 0));
        assert!(!stop("", 2));
    }
}
