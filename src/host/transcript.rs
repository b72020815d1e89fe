//! Past sessions: the shell commands a host's own records say an agent ran.
//!
//! `agent-guard replay` reads these to tell what the guard would have stopped. Each host keeps
//! its records its own way, and only this module knows how:
//! - Claude Code: `~/.claude/projects/<project>/<session>.jsonl`, one event a line; a shell call
//!   is a `tool_use` block (`Bash`, `PowerShell`) in an assistant message's `content`, with
//!   the line's `sessionId` and `cwd`.
//! - Codex: `~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`, lines `{"type", "payload"}`:
//!   `session_meta` and `turn_context` give the session id and folder; a shell call is a
//!   `response_item` whose payload is a `function_call` of a shell tool (its `arguments` a
//!   JSON-encoded object with `command` or `cmd`, and `workdir`) or a `local_shell_call`.
//! - Gemini CLI: `~/.gemini/tmp/<project hash>/chats/session-*.jsonl` (0.61: a line with
//!   `sessionId` and `projectHash`, then one line a message, a message written again as it
//!   grows), or the older `session-*.json`, one object whose `messages` hold the same records.
//!   A shell call is a `toolCalls` entry `run_shell_command` with `args.command`. The files do
//!   not name the project's folder (only its hash).
//! - Plain files: one command a line, or JSONL objects with a `command` (and, if known, `cwd`
//!   and a `session`, `session_id` or `source`).

use std::collections::HashSet;
use std::path::PathBuf;

use serde_json::Value;

use super::{Host, claude};
use crate::shell::Dialect;
use crate::tools::{McpUse, ToolUse};

/// Whose records a file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Source {
    ClaudeCode,
    Codex,
    Gemini,
    Plain,
}

impl Source {
    pub fn name(self) -> &'static str {
        match self {
            Source::ClaudeCode => "Claude Code",
            Source::Codex => "Codex",
            Source::Gemini => "Gemini CLI",
            Source::Plain => "plain",
        }
    }
}

/// One shell command a past session ran.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PastCall {
    pub command: String,
    pub dialect: Dialect,
    /// The folder it ran in, as the record gives it.
    pub cwd: Option<PathBuf>,
    pub session: Option<String>,
    /// For a call of a tool that is not the shell (an MCP tool, `apply_patch`): the call, of
    /// which `command` is the display.
    pub tool: Option<ToolUse>,
}

/// What one file holds: its kind (`None` when nothing in it is a record replay knows) and
/// the shell calls in the order they were made.
#[derive(Debug, Default)]
pub struct Transcript {
    pub source: Option<Source>,
    pub calls: Vec<PastCall>,
    /// Lines of a JSONL file that are not JSON (cut short, or with invalid escapes).
    pub unreadable: usize,
}

/// Where a host keeps its sessions' records: a folder below the user's home (or where an
/// environment variable moved it), and the folder of records in it.
#[derive(Debug, Clone, Copy)]
pub struct Folder {
    /// What the records there are.
    pub source: Source,
    /// The environment variable that moves the host's folder.
    pub moved_by: Option<&'static str>,
    /// The host's folder, below the home folder.
    pub home: &'static [&'static str],
    /// The folder of records in it.
    pub below: &'static str,
}

/// The hosts' own session folders under the user's home, with whose records they hold.
pub fn default_roots() -> Vec<(Source, PathBuf)> {
    let env = |key: &str| {
        std::env::var_os(key)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let Some(home) = env("HOME").or_else(|| env("USERPROFILE")) else {
        return Vec::new();
    };
    Host::ALL
        .into_iter()
        .filter_map(|host| host.spec().transcripts)
        .map(|folder| {
            let own = folder.moved_by.and_then(env).unwrap_or_else(|| {
                folder
                    .home
                    .iter()
                    .fold(home.clone(), |path, f| path.join(f))
            });
            (folder.source, own.join(folder.below))
        })
        .collect()
}

/// Every file to read: a file named is read whatever its name; below a folder, `*.jsonl`
/// and `*.json` files, in name order so that runs compare.
pub fn files(roots: &[PathBuf], named: bool) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for root in roots {
        if root.is_file() && named {
            files.push(root.clone());
            continue;
        }
        let mut below = Vec::new();
        let mut folders = vec![root.clone()];
        while let Some(folder) = folders.pop() {
            let Ok(entries) = std::fs::read_dir(&folder) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                let Ok(kind) = entry.file_type() else {
                    continue;
                };
                if kind.is_dir() {
                    folders.push(path);
                } else if kind.is_file()
                    && path
                        .extension()
                        .is_some_and(|e| e == "jsonl" || e == "json")
                {
                    below.push(path);
                }
            }
        }
        below.sort();
        files.extend(below);
    }
    files
}

/// Reads one file's text. A file that starts with a JSON value is read as records (JSONL, or
/// one Gemini chat object); anything else as plain commands, one a line.
pub fn read(text: &str) -> Transcript {
    let first = text.lines().map(str::trim).find(|l| !l.is_empty());
    let Some(first) = first else {
        return Transcript::default();
    };
    if !first.starts_with('{') {
        return plain_lines(text);
    }
    if let Ok(Value::Object(chat)) = serde_json::from_str::<Value>(text)
        && chat.get("messages").is_some_and(Value::is_array)
    {
        return gemini_chat(&Value::Object(chat));
    }
    let mut reader = Records::default();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        match serde_json::from_str::<Value>(line) {
            Ok(record) => reader.record(&record),
            Err(_) => reader.transcript.unreadable += 1,
        }
    }
    reader.transcript
}

fn plain_lines(text: &str) -> Transcript {
    let calls = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|command| PastCall {
            command: command.to_string(),
            dialect: Dialect::Posix,
            cwd: None,
            session: None,
            tool: None,
        })
        .collect();
    Transcript {
        source: Some(Source::Plain),
        calls,
        unreadable: 0,
    }
}

/// A JSONL file read line by line: the session and folder that earlier lines set stay in
/// force for the calls after them (Codex names them once, ahead of the calls).
#[derive(Default)]
struct Records {
    transcript: Transcript,
    session: Option<String>,
    cwd: Option<PathBuf>,
    /// Claude Code writes a message again as it streams; a tool call counts once.
    seen: HashSet<String>,
}

impl Records {
    fn record(&mut self, record: &Value) {
        if let Some(kind) = text(record, "type")
            && let Some(payload) = record.get("payload")
        {
            self.codex(kind, payload);
        } else if let Some(message) = record.get("message") {
            self.claude(record, message);
        } else if record.get("projectHash").is_some() {
            self.session = text(record, "sessionId").map(str::to_string);
            self.transcript.source.get_or_insert(Source::Gemini);
        } else if let Some(calls) = record.get("toolCalls").and_then(Value::as_array) {
            for (id, command) in gemini_shell_calls(calls) {
                if id.is_some_and(|id| !self.seen.insert(id.to_string())) {
                    continue;
                }
                let call = PastCall {
                    command: command.to_string(),
                    dialect: Dialect::Posix,
                    cwd: None,
                    session: self.session.clone(),
                    tool: None,
                };
                self.push(Source::Gemini, call);
            }
            for (id, tool) in gemini_tool_calls(calls) {
                if id.is_some_and(|id| !self.seen.insert(id.to_string())) {
                    continue;
                }
                let call = tool_call(tool, None, self.session.clone());
                self.push(Source::Gemini, call);
            }
        } else if let Some(command) = text(record, "command") {
            let session = ["session", "session_id", "sessionId", "source"]
                .iter()
                .find_map(|key| text(record, key));
            self.push(
                Source::Plain,
                PastCall {
                    command: command.to_string(),
                    dialect: Dialect::Posix,
                    cwd: text(record, "cwd").map(PathBuf::from),
                    session: session.map(str::to_string),
                    tool: None,
                },
            );
        }
    }

    fn push(&mut self, source: Source, call: PastCall) {
        self.transcript.source.get_or_insert(source);
        self.transcript.calls.push(call);
    }

    fn claude(&mut self, record: &Value, message: &Value) {
        let Some(blocks) = message.get("content").and_then(Value::as_array) else {
            return;
        };
        for block in blocks {
            if text(block, "type") != Some("tool_use") {
                continue;
            }
            let name = text(block, "name").unwrap_or_default();
            let dialect = match name {
                "Bash" => Dialect::Posix,
                "PowerShell" => Dialect::PowerShell,
                _ if name.starts_with("mcp__") => Dialect::Posix,
                _ => continue,
            };
            if let Some(id) = text(block, "id")
                && !self.seen.insert(id.to_string())
            {
                continue;
            }
            if name.starts_with("mcp__") {
                if let Some(tool) = block
                    .get("input")
                    .and_then(|input| mcp_named(name, "mcp__", "__", input))
                {
                    let cwd = text(record, "cwd").map(PathBuf::from);
                    let session = text(record, "sessionId").map(str::to_string);
                    self.push(Source::ClaudeCode, tool_call(tool, cwd, session));
                }
                continue;
            }
            let Some(command) = block.get("input").and_then(claude::command_of) else {
                continue;
            };
            let call = PastCall {
                command,
                dialect,
                cwd: text(record, "cwd").map(PathBuf::from),
                session: text(record, "sessionId").map(str::to_string),
                tool: None,
            };
            self.push(Source::ClaudeCode, call);
        }
    }

    fn codex(&mut self, kind: &str, payload: &Value) {
        match kind {
            "session_meta" => {
                self.session = text(payload, "id").map(str::to_string);
                self.cwd = text(payload, "cwd").map(PathBuf::from).or(self.cwd.take());
                self.transcript.source.get_or_insert(Source::Codex);
            }
            "turn_context" => {
                if let Some(cwd) = text(payload, "cwd") {
                    self.cwd = Some(PathBuf::from(cwd));
                }
            }
            "response_item" => {
                if let Some((command, workdir)) = codex_shell_call(payload) {
                    let call = PastCall {
                        command,
                        dialect: Dialect::Posix,
                        cwd: workdir.map(PathBuf::from).or_else(|| self.cwd.clone()),
                        session: self.session.clone(),
                        tool: None,
                    };
                    self.push(Source::Codex, call);
                } else if let Some(tool) = codex_tool_call(payload) {
                    let call = tool_call(tool, self.cwd.clone(), self.session.clone());
                    self.push(Source::Codex, call);
                }
            }
            _ => {}
        }
    }
}

/// A Codex response item that runs a shell command: the command and its `workdir`.
fn codex_shell_call(payload: &Value) -> Option<(String, Option<String>)> {
    match text(payload, "type")? {
        "function_call" => {
            let name = text(payload, "name")?;
            if !matches!(
                name,
                "shell" | "shell_command" | "exec_command" | "container.exec" | "local_shell"
            ) {
                return None;
            }
            let arguments = payload.get("arguments")?;
            let command = claude::command_of(arguments)?;
            let workdir = super::input_object(arguments).and_then(|args| {
                args.get("workdir")
                    .and_then(Value::as_str)
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
            });
            Some((command, workdir))
        }
        "local_shell_call" => {
            let action = payload.get("action")?;
            let command = claude::argv_line(action.get("command")?)?;
            let workdir = text(action, "working_directory").map(str::to_string);
            Some((command, workdir))
        }
        _ => None,
    }
}

/// An MCP tool call named `<prefix><server><separator><tool>` with `input` (an object, or one
/// encoded as JSON text).
fn mcp_named(name: &str, prefix: &str, separator: &str, input: &Value) -> Option<ToolUse> {
    let (server, tool) = name.strip_prefix(prefix)?.split_once(separator)?;
    if server.is_empty() || tool.is_empty() {
        return None;
    }
    Some(ToolUse::Mcp(McpUse {
        server: server.to_string(),
        tool: tool.to_string(),
        input: super::input_object(input)?.into_owned(),
    }))
}

/// A past call of a tool that is not the shell.
fn tool_call(tool: ToolUse, cwd: Option<PathBuf>, session: Option<String>) -> PastCall {
    PastCall {
        command: tool.display(),
        dialect: Dialect::Posix,
        cwd,
        session,
        tool: Some(tool),
    }
}

/// A Codex response item that calls an MCP tool (a `function_call` named
/// `mcp__<server>__<tool>`) or `apply_patch` (a `custom_tool_call` with the patch as `input`,
/// or a `function_call` whose arguments hold it as `input`).
fn codex_tool_call(payload: &Value) -> Option<ToolUse> {
    let name = text(payload, "name")?;
    match (text(payload, "type")?, name) {
        ("custom_tool_call", "apply_patch") => Some(ToolUse::Patch(text(payload, "input")?.into())),
        ("function_call", "apply_patch") => {
            let arguments = super::input_object(payload.get("arguments")?)?;
            Some(ToolUse::Patch(
                arguments.get("input")?.as_str()?.to_string(),
            ))
        }
        ("function_call", _) => mcp_named(name, "mcp__", "__", payload.get("arguments")?),
        _ => None,
    }
}

/// The MCP tool calls among a Gemini message's `toolCalls` (`mcp_<server>_<tool>`): each
/// one's id and call.
fn gemini_tool_calls(calls: &[Value]) -> impl Iterator<Item = (Option<&str>, ToolUse)> {
    calls.iter().filter_map(|call| {
        let tool = mcp_named(text(call, "name")?, "mcp_", "_", call.get("args")?)?;
        Some((text(call, "id"), tool))
    })
}

/// The shell calls among a Gemini message's `toolCalls`: each one's id and command.
fn gemini_shell_calls(calls: &[Value]) -> impl Iterator<Item = (Option<&str>, &str)> {
    calls
        .iter()
        .filter(|call| text(call, "name") == Some("run_shell_command"))
        .filter_map(|call| Some((text(call, "id"), text(call.get("args")?, "command")?)))
}

/// A Gemini CLI chat saved whole, as versions before JSONL wrote it.
fn gemini_chat(chat: &Value) -> Transcript {
    let session = text(chat, "sessionId").map(str::to_string);
    let calls: Vec<PastCall> = chat
        .get("messages")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|message| message.get("toolCalls").and_then(Value::as_array))
        .flat_map(|calls| gemini_shell_calls(calls))
        .map(|(_, command)| PastCall {
            command: command.to_string(),
            dialect: Dialect::Posix,
            cwd: None,
            session: session.clone(),
            tool: None,
        })
        .collect();
    Transcript {
        source: Some(Source::Gemini),
        calls,
        unreadable: 0,
    }
}

/// A non-empty string field.
fn text<'a>(value: &'a Value, key: &str) -> Option<&'a str> {
    value
        .get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_code_tool_uses_count_once_with_their_session_and_folder() {
        let line = r#"{"type":"assistant","sessionId":"s1","cwd":"/w","message":{"role":"assistant","content":[{"type":"text","text":"rm -rf x"},{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"git status"}},{"type":"tool_use","id":"t2","name":"Read","input":{"file_path":"a"}}]}}"#;
        let text = format!("{line}\n{line}\n");
        let transcript = read(&text);
        assert_eq!(transcript.source, Some(Source::ClaudeCode));
        assert_eq!(
            transcript.calls,
            [PastCall {
                command: "git status".into(),
                dialect: Dialect::Posix,
                cwd: Some("/w".into()),
                session: Some("s1".into()),
                tool: None,
            }]
        );
    }

    #[test]
    fn mcp_and_patch_calls_are_read_from_each_hosts_records() {
        let claude = r#"{"sessionId":"s","cwd":"/w","message":{"content":[{"type":"tool_use","id":"t1","name":"mcp__postgres__query","input":{"sql":"DROP TABLE t"}},{"type":"tool_use","id":"t2","name":"mcp__broken","input":{"command":"rm -rf /"}}]}}"#;
        let codex = concat!(
            r#"{"type":"session_meta","payload":{"id":"c","cwd":"/w"}}"#,
            "\n",
            r#"{"type":"response_item","payload":{"type":"function_call","name":"mcp__neon__delete_project","arguments":"{\"projectId\":\"p\"}"}}"#,
            "\n",
            r#"{"type":"response_item","payload":{"type":"custom_tool_call","name":"apply_patch","input":"*** Begin Patch\n*** Delete File: a\n*** End Patch"}}"#,
        );
        let gemini = r#"{"messages":[],"sessionId":"g"}"#;
        let names = |text: &str| -> Vec<String> {
            read(text)
                .calls
                .iter()
                .filter_map(|c| c.tool.as_ref().map(ToolUse::name))
                .collect()
        };
        assert_eq!(names(claude), ["MCP tool postgres/query"]);
        assert_eq!(
            names(codex),
            ["MCP tool neon/delete_project", "apply_patch"]
        );
        assert!(names(gemini).is_empty());
        let gemini_line = r#"{"id":"m","toolCalls":[{"id":"x","name":"mcp_k8s_kubectl_delete","args":{"name":"api"}}]}"#;
        assert_eq!(names(gemini_line), ["MCP tool k8s/kubectl_delete"]);
    }

    #[test]
    fn codex_calls_take_the_session_and_folder_named_before_them() {
        let text = [
            r#"{"timestamp":"t","type":"session_meta","payload":{"id":"c1","cwd":"/repo"}}"#,
            r#"{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"bash\",\"-lc\",\"git clean -fdx\"]}","call_id":"a"}}"#,
            r#"{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"ls\",\"workdir\":\"/repo/sub\"}","call_id":"b"}}"#,
            r#"{"timestamp":"t","type":"response_item","payload":{"type":"local_shell_call","action":{"type":"exec","command":["rm","-rf","out"]}}}"#,
            r#"{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"apply_patch","arguments":"{}"}}"#,
        ]
        .join("\n");
        let transcript = read(&text);
        assert_eq!(transcript.source, Some(Source::Codex));
        let got: Vec<(&str, Option<&str>)> = transcript
            .calls
            .iter()
            .map(|c| {
                (
                    c.command.as_str(),
                    c.cwd.as_deref().and_then(|p| p.to_str()),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("bash -lc 'git clean -fdx'", Some("/repo")),
                ("ls", Some("/repo/sub")),
                ("rm -rf out", Some("/repo")),
            ]
        );
        assert!(
            transcript
                .calls
                .iter()
                .all(|c| c.session.as_deref() == Some("c1"))
        );
    }

    #[test]
    fn gemini_chats_hold_shell_calls_in_their_messages() {
        let text = r#"{"sessionId":"g1","projectHash":"h","messages":[
            {"type":"user","content":"clean up"},
            {"type":"gemini","content":"","toolCalls":[
                {"id":"1","name":"run_shell_command","args":{"command":"git reset --hard"}},
                {"id":"2","name":"read_file","args":{"absolute_path":"/x"}}]}]}"#;
        let transcript = read(text);
        assert_eq!(transcript.source, Some(Source::Gemini));
        assert_eq!(transcript.calls.len(), 1);
        assert_eq!(transcript.calls[0].command, "git reset --hard");
        assert_eq!(transcript.calls[0].session.as_deref(), Some("g1"));
    }

    #[test]
    fn gemini_jsonl_sessions_count_a_call_once_as_its_message_grows() {
        let text = [
            r#"{"sessionId":"g2","projectHash":"h","startTime":"t","lastUpdated":"t","kind":"main"}"#,
            r#"{"id":"m1","timestamp":"t","type":"user","content":[{"text":"go"}]}"#,
            r#"{"id":"m2","timestamp":"t","type":"gemini","content":"","toolCalls":[{"id":"c1","name":"run_shell_command","args":{"command":"rm -rf dist"},"status":"scheduled","timestamp":"t"}]}"#,
            r#"{"id":"m2","timestamp":"t","type":"gemini","content":"","toolCalls":[{"id":"c1","name":"run_shell_command","args":{"command":"rm -rf dist"},"status":"success","timestamp":"t"},{"id":"c2","name":"run_shell_command","args":{"command":"ls"},"status":"success","timestamp":"t"}]}"#,
            r#"{"$set":{"summary":"s"}}"#,
        ]
        .join("\n");
        let transcript = read(&text);
        assert_eq!(transcript.source, Some(Source::Gemini));
        let commands: Vec<&str> = transcript
            .calls
            .iter()
            .map(|c| c.command.as_str())
            .collect();
        assert_eq!(commands, ["rm -rf dist", "ls"]);
        assert!(
            transcript
                .calls
                .iter()
                .all(|c| c.session.as_deref() == Some("g2"))
        );
    }

    #[test]
    fn plain_files_are_commands_or_objects_with_one() {
        let lines = read("git status\n\n# a comment\nrm -rf build\n");
        assert_eq!(lines.source, Some(Source::Plain));
        assert_eq!(lines.calls.len(), 2);
        let objects = read(
            r#"{"command":"ls","source":"o/r","cwd":"/w"}
{"not":"a call"}
not json at all"#,
        );
        assert_eq!(objects.calls.len(), 1);
        assert_eq!(objects.unreadable, 1);
        assert_eq!(objects.calls[0].session.as_deref(), Some("o/r"));
        assert_eq!(read("").source, None);
        assert_eq!(read("{\"a\":1}\n").source, None);
    }
}
