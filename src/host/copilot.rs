//! GitHub Copilot CLI's `preToolUse` hook (`.github/hooks/*.json`).
//!
//! In, camelCase: `{"sessionId", "timestamp", "cwd", "toolName": "bash", "toolArgs"}` with
//! `toolArgs` a JSON-encoded string or an object; or, for hooks configured under PascalCase
//! event names, Claude Code's snake_case shape (`hook_event_name`, `tool_name`, `tool_input`).
//! Out, for both: a flat `{"permissionDecision": "deny"|"ask", "permissionDecisionReason"}` on
//! exit 0; a rewrite as `{"modifiedArgs"}`, the tool's arguments as an object with only the
//! command changed.

use std::path::Path;

use serde_json::{Value, json};

use super::{After, Host, HostSpec, Reply, Rewrite, Stop, ToolCall, claude, text, text_at};
use super::wiring::{Choice, Fits, Format, J, JsonHook, Project, SettingsFile, Twin, User, UserFolder, Wiring};

pub(super) static SPEC: HostSpec = HostSpec {
    host: Host::Copilot,
    name: "copilot",
    decode,
    encode,
    rewrite: Some(rewrite),
    is_stop,
    probe,
    file_tools: &[],
    mcp: None,
    patches: false,
    // Its `postToolUse` payload is its `preToolUse` one with the result added.
    after: Some(After {
        event: "postToolUse",
        named: false,
    }),
    wiring: Wiring {
        event: "preToolUse",
        matcher: None,
        file_tools_matcher: None,
        mcp_event: None,
        marker: ".github/hooks",
        // `.github/hooks/` can be created in any repository with `.github/`.
        project: Some(Project {
            folder: Some(&[]),
            files: OWN_FILE,
            choice: Choice::Listed,
            fits: Fits::Folder(".github"),
        }),
        user: User {
            home: &[".copilot"],
            moved: |loc| loc.copilot_home.clone(),
            folder: UserFolder::Own(&["hooks"]),
            files: OWN_FILE,
            choice: Choice::Listed,
        },
        // The entry's field for the command is `bash`, and bash runs it.
        shell: "bash",
        project_steps: &[
            "Copilot CLI loads .github/hooks from the folder it starts in: start it from the repository's top level.",
            "Copilot's cloud agent also reads .github/hooks on the default branch, on a machine without this binary: keep agent-guard.json out of commits.",
        ],
        user_steps: &["Copilot CLI: start a new session."],
    },
    transcripts: None,
};

/// A file of our own in its hooks folder, of which it reads every `*.json`. The command goes
/// under `bash` and, for Copilot CLI on Windows, which runs hooks in PowerShell, under
/// `powershell` too.
const OWN_FILE: &[SettingsFile] = &[SettingsFile {
    name: "agent-guard.json",
    format: Format::Json(JsonHook {
        preamble: &[("version", J::Int(1))],
        path: &["hooks", "preToolUse"],
        grouped: false,
        command_key: &["bash"],
        handler: |c| {
            J::Obj(vec![
                ("type", J::str("command")),
                ("bash", J::str(c)),
                ("powershell", J::Str(powershell(c).into())),
                ("timeoutSec", J::Int(30)),
            ])
        },
        twin: Some(Twin {
            key: "powershell",
            value: powershell,
        }),
    }),
}];

/// The hook's command line as PowerShell runs it: a program path in quotes is a string there,
/// run with the call operator `&`.
fn powershell(command: &str) -> String {
    match command.starts_with(['"', '\'']) {
        true => format!("& {command}"),
        false => command.to_string(),
    }
}

fn is_shell_tool(name: &str) -> bool {
    matches!(name, "bash" | "Bash" | "powershell")
}

pub(super) fn decode(payload: &Value) -> Option<ToolCall> {
    let Some(tool) = payload.get("toolName") else {
        let call = claude::decode_as(payload, Host::Copilot, is_shell_tool)?;
        return Some(ToolCall {
            rewrite: Rewrite::of(payload.get("tool_input")?),
            ..call
        });
    };
    let tool = tool.as_str().filter(|t| is_shell_tool(t))?;
    Some(ToolCall {
        host: Host::Copilot,
        tool: tool.to_string(),
        command: claude::command_of(payload.get("toolArgs")?)?,
        cwd: text(payload, "cwd").map(Into::into),
        session: text(payload, "sessionId").map(str::to_string),
        can_ask: true,
        rewrite: Rewrite::of(payload.get("toolArgs")?),
    })
}

pub(super) fn encode(stop: Stop) -> Reply {
    Reply::json(json!({
        "permissionDecision": stop.word(),
        "permissionDecisionReason": stop.reason(),
    }))
}

pub(super) fn rewrite(input: Value) -> Reply {
    Reply::json(json!({ "modifiedArgs": input }))
}

pub(super) fn probe(command: &str, cwd: &Path) -> Value {
    json!({
        "sessionId": "agent-guard-doctor",
        "timestamp": 1_767_225_600_000_u64,
        "cwd": cwd,
        "toolName": "bash",
        "toolArgs": json!({ "command": command, "description": "agent-guard doctor" }).to_string(),
    })
}

/// The flat decision on exit 0; an exit code of 2 denies as well.
pub(super) fn is_stop(reply: Option<&Value>, exit_code: i32) -> bool {
    exit_code == 2
        || (exit_code == 0 && matches!(text_at(reply, "/permissionDecision"), Some("deny" | "ask")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::decode;

    #[test]
    fn powershell_calls_a_quoted_program_with_the_call_operator() {
        let cases = [
            (
                "C:/Users/me/.cargo/bin/agent-guard.exe hook --host copilot",
                "C:/Users/me/.cargo/bin/agent-guard.exe hook --host copilot",
            ),
            (
                "\"C:/Program Files/agent-guard/agent-guard.exe\" hook --host copilot",
                "& \"C:/Program Files/agent-guard/agent-guard.exe\" hook --host copilot",
            ),
            (
                "'C:/Users/a$b/agent-guard.exe' hook --host copilot",
                "& 'C:/Users/a$b/agent-guard.exe' hook --host copilot",
            ),
        ];
        for (bash, want) in cases {
            assert_eq!(powershell(bash), want);
            assert!(crate::install::is_ours(&powershell(bash), Host::Copilot));
        }
    }

    #[test]
    fn tool_args_as_a_string_or_an_object() {
        let cases = [
            r#"{"sessionId":"s","cwd":"/w","toolName":"bash","toolArgs":"{\"command\":\"ls\"}"}"#,
            r#"{"sessionId":"s","cwd":"/w","toolName":"bash","toolArgs":{"command":"ls","description":"d"}}"#,
        ];
        for case in cases {
            let call = decode(case.as_bytes(), None).expect(case);
            assert_eq!(call.host, Host::Copilot);
            assert_eq!(call.command, "ls");
            assert_eq!(call.cwd.as_deref(), Some(Path::new("/w")));
            assert_eq!(call.session.as_deref(), Some("s"));
        }
    }

    #[test]
    fn the_pascal_case_dialect_with_the_host_named() {
        let payload = br#"{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"bash","tool_input":{"command":"ls"}}"#;
        assert_eq!(
            decode(payload, Some(Host::Copilot)).map(|c| c.host),
            Some(Host::Copilot)
        );
    }

    #[test]
    fn the_powershell_tool_is_read_as_powershell() {
        let case =
            br#"{"toolName":"powershell","toolArgs":{"command":"Remove-Item -Recurse out"}}"#;
        let call = decode(case, Some(Host::Copilot)).expect("a powershell call");
        assert_eq!(call.command, "Remove-Item -Recurse out");
        assert_eq!(call.dialect(), crate::shell::Dialect::PowerShell);
    }

    #[test]
    fn other_tools_and_shapes_pass() {
        let cases = [
            r#"{"toolName":"edit","toolArgs":{"command":"rm -rf /"}}"#,
            r#"{"toolName":"bash","toolArgs":"{not json"}"#,
            r#"{"toolName":"bash"}"#,
            r#"{"toolName":7,"toolArgs":{"command":"ls"}}"#,
        ];
        for case in cases {
            assert_eq!(decode(case.as_bytes(), Some(Host::Copilot)), None, "{case}");
        }
    }
}
