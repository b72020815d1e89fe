//! Cline's `PreToolUse` hook: an executable of that name in a hooks folder.
//!
//! In: `{"clineVersion", "hookName", "taskId", "workspaceRoots": [cwd], "preToolUse":
//! {"toolName", "parameters"}}`, the parameters' values as strings. The shell tool is
//! `execute_command` with `parameters.command`; the CLI built on the Cline SDK names it
//! `run_commands`, with `parameters.commands` the JSON text of an array of command lines (or
//! of `{"command", "args"}`).
//! Out: `{"cancel": true, "errorMessage"}` on exit 0. There is no ask, so an ask goes out as a
//! deny.

use std::path::Path;

use serde_json::{Value, json};

use super::{Host, HostSpec, Reply, Stop, ToolCall, claude, mcp, text};
use super::wiring::{Choice, Fits, Format, Project, SettingsFile, User, UserFolder, Wiring};

pub(super) static SPEC: HostSpec = HostSpec {
    host: Host::Cline,
    name: "cline",
    decode,
    encode,
    rewrite: None,
    is_stop: |reply, _| is_stop(reply),
    probe,
    file_tools: &[],
    mcp: Some(&mcp::CLINE),
    patches: false,
    after: None,
    wiring: Wiring {
        event: "PreToolUse",
        matcher: None,
        file_tools_matcher: None,
        mcp_event: None,
        marker: ".clinerules",
        project: Some(Project {
            folder: Some(&["hooks"]),
            files: SCRIPT,
            choice: Choice::Listed,
            fits: Fits::Marker,
        }),
        user: User {
            home: &["Documents", "Cline"],
            moved: |_| None,
            folder: UserFolder::Own(&["Hooks"]),
            files: SCRIPT,
            choice: Choice::Listed,
        },
        shell: "sh",
        project_steps: STEPS,
        user_steps: STEPS,
    },
    transcripts: None,
};

const SCRIPT: &[SettingsFile] = &[SettingsFile {
    name: "PreToolUse",
    format: Format::ClineScript,
}];

const STEPS: &[&str] = &[
    "Cline runs hooks only when they are on: Settings > Features > Enable Hooks (macOS and Linux).",
];

pub(super) fn decode(payload: &Value) -> Option<ToolCall> {
    let pre = payload.get("preToolUse")?;
    let tool = pre.get("toolName")?.as_str()?;
    let parameters = pre.get("parameters")?;
    let command = match tool {
        "execute_command" => parameters.get("command")?.as_str()?.to_string(),
        "run_commands" => commands(parameters.get("commands")?)?,
        _ => return None,
    };
    Some(ToolCall {
        host: Host::Cline,
        tool: tool.to_string(),
        command,
        cwd: payload
            .pointer("/workspaceRoots/0")
            .and_then(Value::as_str)
            .filter(|root| !root.is_empty())
            .map(Into::into),
        session: text(payload, "taskId").map(str::to_string),
        can_ask: false,
        rewrite: None,
    })
}

/// `run_commands`' list as one script, a line per command: each runs on its own.
fn commands(value: &Value) -> Option<String> {
    let decoded;
    let value = match value {
        Value::String(text) => match serde_json::from_str::<Value>(text) {
            Ok(parsed) => {
                decoded = parsed;
                &decoded
            }
            Err(_) => return Some(text.clone()),
        },
        other => other,
    };
    match value {
        Value::Array(lines) => {
            let lines: Option<Vec<String>> = lines.iter().map(command_line).collect();
            Some(lines?.join("\n"))
        }
        single => command_line(single),
    }
}

/// A command line, or `{"command", "args"}` run as that program with those arguments.
fn command_line(entry: &Value) -> Option<String> {
    match entry {
        Value::String(line) => Some(line.clone()),
        Value::Object(call) => {
            let program = call.get("command")?.clone();
            let args = match call.get("args") {
                Some(Value::Array(args)) => args.clone(),
                None | Some(Value::Null) => Vec::new(),
                Some(_) => return None,
            };
            claude::argv_line(&Value::Array([vec![program], args].concat()))
        }
        _ => None,
    }
}

pub(super) fn encode(stop: Stop) -> Reply {
    Reply::json(json!({ "cancel": true, "errorMessage": stop.reason() }))
}

pub(super) fn probe(command: &str, cwd: &Path) -> Value {
    json!({
        "clineVersion": "3.0.65",
        "hookName": "tool_call",
        "timestamp": "2026-01-01T00:00:00.000Z",
        "taskId": "agent-guard-doctor",
        "workspaceRoots": [cwd],
        "userId": "agent-guard-doctor",
        "agent_id": "agent-guard-doctor",
        "parent_agent_id": null,
        "iteration": 1,
        "tool_call": {
            "id": "agent-guard-doctor",
            "name": "run_commands",
            "input": { "commands": [command] },
        },
        "preToolUse": {
            "toolName": "run_commands",
            "parameters": { "commands": json!([command]).to_string() },
        },
    })
}

pub(super) fn is_stop(reply: Option<&Value>) -> bool {
    reply.and_then(|r| r.get("cancel")) == Some(&Value::Bool(true))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::decode;

    fn run_commands(commands: Value) -> Option<String> {
        let payload = json!({
            "workspaceRoots": ["/w"],
            "preToolUse": { "toolName": "run_commands", "parameters": { "commands": commands } },
        });
        decode(payload.to_string().as_bytes(), None).map(|c| c.command)
    }

    #[test]
    fn execute_command_with_its_folder_and_task() {
        let payload = br#"{"taskId":"t","workspaceRoots":["/w","/x"],"preToolUse":{"toolName":"execute_command","parameters":{"command":"ls","requires_approval":"false"}}}"#;
        let call = decode(payload, None).unwrap();
        assert_eq!(call.host, Host::Cline);
        assert_eq!(call.command, "ls");
        assert_eq!(call.cwd.as_deref(), Some(Path::new("/w")));
        assert_eq!(call.session.as_deref(), Some("t"));
    }

    #[test]
    fn run_commands_in_every_spelling() {
        let cases = [
            (
                json!(r#"["git status","rm -rf build"]"#),
                "git status\nrm -rf build",
            ),
            (json!(["ls"]), "ls"),
            (
                json!(r#"[{"command":"rm","args":["-rf","my dir"]}]"#),
                "rm -rf 'my dir'",
            ),
            (json!(r#"{"command":"ls"}"#), "ls"),
            (json!("rm -rf build"), "rm -rf build"),
        ];
        for (commands, want) in cases {
            assert_eq!(
                run_commands(commands.clone()).as_deref(),
                Some(want),
                "{commands}"
            );
        }
    }

    #[test]
    fn other_tools_and_shapes_pass() {
        assert_eq!(run_commands(json!(r#"[7]"#)), None);
        assert_eq!(
            run_commands(json!(r#"[{"command":"rm","args":"-rf /"}]"#)),
            None
        );
        let cases = [
            r#"{"preToolUse":{"toolName":"write_to_file","parameters":{"path":"a","content":"rm -rf /"}}}"#,
            r#"{"preToolUse":{"toolName":"execute_command"}}"#,
            r#"{"preToolUse":{"toolName":"execute_command","parameters":{"command":null}}}"#,
            r#"{"preToolUse":"execute_command"}"#,
        ];
        for case in cases {
            assert_eq!(decode(case.as_bytes(), Some(Host::Cline)), None, "{case}");
        }
    }
}
