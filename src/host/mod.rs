//! Host adapters: the only code that knows what an agent host sends and expects back.
//!
//! Each host is declared once, as a [`HostSpec`] in its own module, and listed once in the
//! registry below. `decode` turns the host's stdin into a [`ToolCall`] (or `None` when the call
//! is not a shell command we judge); `encode` renders a [`Verdict`] in the host's exact dialect;
//! both ask the declaration. Claude Code's module also holds the payload shape that Codex,
//! Droid, Kiro, Qwen Code, Auggie, Vibe, Kimi Code, Crush, Qoder and Copilot's PascalCase
//! dialect copy.

mod mcp;
pub mod transcript;
pub mod wiring;

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::policy::{Channel, Decision, Verdict};
use crate::tools::ToolUse;

pub use mcp::OtherTool;

/// One host's declaration, in the host's own file: its name, how its payload is read and its
/// answer written, which of its calls the hook sees, and how it is wired and checked. Every
/// other part of the guard asks the declaration rather than naming the host.
pub struct HostSpec {
    pub host: Host,
    /// The name used on the command line (`--host NAME`) and in the audit log.
    pub name: &'static str,
    /// Reads a shell call from its payload; `None` for anything else.
    decode: fn(&Value) -> Option<ToolCall>,
    /// Its answer to a stopped call.
    encode: fn(Stop) -> Reply,
    /// Its answer that lets a call run with another tool input; `None` for a host whose calls
    /// never carry a [`Rewrite`].
    rewrite: Option<fn(Value) -> Reply>,
    /// Whether a hook process that printed this JSON (if any) and exited with this code stops
    /// the call, by its own rules: how `doctor` reads the answer.
    is_stop: fn(Option<&Value>, i32) -> bool,
    /// A payload as it would send it before running a command in a folder: what `doctor`
    /// feeds the installed hook.
    probe: fn(&str, &Path) -> Value,
    /// Its file-writing tools that the hook reads, where its file tools are sent to the hook.
    file_tools: &'static [FileTool],
    /// Where its hooks are sent MCP calls: where the payload holds one.
    mcp: Option<&'static mcp::McpShape>,
    /// Whether it sends its `apply_patch` tool (the patch under `tool_input.command`).
    patches: bool,
    /// The event that reports a call after it ran, on the hosts where install wires one.
    pub after: Option<After>,
    /// What install writes and where.
    pub wiring: wiring::Wiring,
    /// Where it keeps its past sessions, for hosts whose records `replay` reads.
    pub transcripts: Option<transcript::Folder>,
}

/// A host's event after a call ran.
#[derive(Debug, Clone, Copy)]
pub struct After {
    pub event: &'static str,
    /// Whether its payload names the event (under `hook_event_name` or `agent_action_name`);
    /// where not, the installed command says `--after`.
    pub named: bool,
}

/// One file-writing tool of a host.
struct FileTool {
    name: &'static str,
    /// The field of its input that names the file.
    path: &'static str,
    /// Whether a call with this input writes the file whole on a host that keeps no copy of
    /// what was there (no checkpoint to restore), so the content it replaces is judged.
    replaces: fn(&Value) -> bool,
}

/// The registry: each host's variant and the module that declares it (its `SPEC`), once.
macro_rules! hosts {
    ($($variant:ident => $module:ident,)*) => {
        $(mod $module;)*

        /// The agent hosts whose hook protocol the guard speaks.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Host {
            $($variant,)*
        }

        impl Host {
            pub const ALL: [Host; [$(stringify!($variant)),*].len()] = [$(Host::$variant,)*];

            /// The host's declaration.
            pub fn spec(self) -> &'static HostSpec {
                match self {
                    $(Host::$variant => &$module::SPEC,)*
                }
            }
        }
    };
}

hosts! {
    ClaudeCode => claude,
    Codex => codex,
    Gemini => gemini,
    Cursor => cursor,
    Copilot => copilot,
    Droid => droid,
    Kiro => kiro,
    Windsurf => windsurf,
    Cline => cline,
    Qwen => qwen,
    Auggie => auggie,
    Vibe => vibe,
    Kimi => kimi,
    Crush => crush,
    Qoder => qoder,
    Grok => grok,
    Antigravity => antigravity,
    Hermes => hermes,
}

impl Host {
    /// The name used on the command line (`--host NAME`) and in the audit log.
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    pub fn from_name(name: &str) -> Option<Host> {
        Host::ALL.into_iter().find(|h| h.name() == name)
    }
}

/// A shell command a host is about to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolCall {
    /// The dialect to answer in.
    pub host: Host,
    /// The host's name for the tool (`Bash`, `exec_command`, `run_shell_command`, ...).
    pub tool: String,
    pub command: String,
    /// The folder the command will run in, as the host reports it.
    pub cwd: Option<PathBuf>,
    pub session: Option<String>,
    /// Whether the host's hook event can put a question to the user. Where it cannot, an ask
    /// goes out as a deny that tells the agent to ask its user first: an ask the host does not
    /// understand would let the command run.
    pub can_ask: bool,
    /// Where the host can replace the command before it runs: what the adapter needs to do
    /// it. `None` for hosts and events that cannot.
    pub rewrite: Option<Rewrite>,
}

impl ToolCall {
    /// The language the tool runs its command in, told by the tool's name.
    pub fn dialect(&self) -> crate::shell::Dialect {
        if self.tool.eq_ignore_ascii_case("powershell") {
            crate::shell::Dialect::PowerShell
        } else {
            crate::shell::Dialect::Posix
        }
    }

    /// What the host can do with an answer.
    pub fn channel(&self) -> Channel {
        Channel {
            can_ask: self.can_ask,
            can_rewrite: self.rewrite.is_some(),
        }
    }
}

/// The tool input as the host sent it and the key that holds the command, kept so that a
/// rewrite carries every other field through unchanged. Opaque outside `host/`: only the
/// adapters know a host's JSON.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rewrite {
    input: Map<String, Value>,
    key: String,
}

/// A tool input as an object: hosts send it as one, or as an object encoded in a JSON string.
pub(super) fn input_object(input: &Value) -> Option<Cow<'_, Map<String, Value>>> {
    match input {
        Value::String(text) => match serde_json::from_str::<Value>(text).ok()? {
            Value::Object(object) => Some(Cow::Owned(object)),
            _ => None,
        },
        other => other.as_object().map(Cow::Borrowed),
    }
}

impl Rewrite {
    /// The tool input (an object, or an object encoded as a JSON string) whose `command` or
    /// `cmd` is a string. An argv array is not rewritten: a string in its place would change
    /// the input's shape.
    fn of(input: &Value) -> Option<Rewrite> {
        let object = input_object(input)?;
        let key = ["command", "cmd"]
            .into_iter()
            .find(|k| object.get(*k).is_some_and(Value::is_string))?;
        Some(Rewrite {
            input: object.into_owned(),
            key: key.to_string(),
        })
    }

    /// The same input with `command` in place of the original.
    fn with(&self, command: &str) -> Value {
        let mut input = self.input.clone();
        input.insert(self.key.clone(), Value::String(command.to_string()));
        Value::Object(input)
    }
}

/// What the hook process prints and how it exits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    pub stdout: Option<String>,
    /// For hosts that take the reason of a block from stderr (exit code 2).
    pub stderr: Option<String>,
    pub exit_code: i32,
}

impl Reply {
    /// No opinion: the host's normal permission flow goes on.
    pub fn silent() -> Self {
        Reply {
            stdout: None,
            stderr: None,
            exit_code: 0,
        }
    }

    /// One JSON object on stdout, exit 0.
    fn json(value: Value) -> Self {
        Reply {
            stdout: Some(value.to_string()),
            stderr: None,
            exit_code: 0,
        }
    }

    /// The block that every exit-code host understands: exit 2, the reason on stderr.
    fn exit_two(reason: &str) -> Self {
        Reply {
            stdout: None,
            stderr: Some(reason.to_string()),
            exit_code: 2,
        }
    }
}

/// A stopped call as an adapter renders it. `Ask` only reaches calls that can ask.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop<'a> {
    Deny(&'a str),
    Ask(&'a str),
}

impl<'a> Stop<'a> {
    /// The decision word most hosts use (`deny`, `ask`).
    fn word(self) -> &'static str {
        match self {
            Stop::Deny(_) => "deny",
            Stop::Ask(_) => "ask",
        }
    }

    fn reason(self) -> &'a str {
        match self {
            Stop::Deny(reason) | Stop::Ask(reason) => reason,
        }
    }
}

/// The reason of a stop whose verdict came without one: some hosts let a stop with an empty
/// reason through.
const NO_REASON: &str = "agent-guard stopped this command.";

/// Reads a hook payload, in `host`'s dialect when given, else in the dialect its shape shows.
/// `None` for anything that is not a shell command to judge: other tools, malformed JSON,
/// shapes we do not recognise, an empty command.
pub fn decode(input: &[u8], host: Option<Host>) -> Option<ToolCall> {
    let payload: Value = serde_json::from_slice(input).ok()?;
    if !payload.is_object() {
        return None;
    }
    let call = (host.unwrap_or_else(|| detect(&payload)).spec().decode)(&payload)?;
    (!call.command.trim().is_empty()).then_some(call)
}

/// The host whose dialect a payload is in, from the keys and names only that host uses.
/// Claude Code's dialect, which several hosts copy, when nothing sets it apart.
/// A host's file-writing tool about to run (Claude Code's `Write`/`Edit`/`MultiEdit`/
/// `NotebookEdit`, Gemini CLI's `write_file`/`replace`, Factory Droid's `Create`/`Edit`, Kiro
/// CLI's `fs_write`, Hermes Agent's `write_file`/`patch`), for hosts that send those to the
/// hook too: the guard's own files are protected, and the agent claims what it writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileEdit {
    pub host: Host,
    pub tool: String,
    /// The files it writes, as the payload names them (absolute, or relative to `cwd`).
    pub paths: Vec<PathBuf>,
    pub cwd: Option<PathBuf>,
    pub session: Option<String>,
    /// Whether the tool writes each file whole on a host that keeps no copy of what was
    /// there (no checkpoint to restore), so the content it replaces is judged.
    pub replaces: bool,
}

impl FileEdit {
    /// The call as [`encode`] answers it.
    pub fn as_call(&self) -> ToolCall {
        let shown: Vec<String> = self.paths.iter().map(|p| p.display().to_string()).collect();
        ToolCall {
            host: self.host,
            tool: self.tool.clone(),
            command: format!("{} {}", self.tool, shown.join(" ")),
            cwd: self.cwd.clone(),
            session: self.session.clone(),
            can_ask: false,
            rewrite: None,
        }
    }

    /// The write as a tool call the judge weighs like a truncating redirect, when it replaces
    /// whole files the host cannot restore; `None` when the host restores them or the tool
    /// edits in place.
    pub fn replacing(&self) -> Option<ToolUse> {
        self.replaces.then(|| ToolUse::Write {
            tool: self.tool.clone(),
            paths: self.paths.clone(),
        })
    }
}

/// Reads a file-writing tool call; `None` for anything else.
pub fn decode_file_edit(input: &[u8], host: Option<Host>) -> Option<FileEdit> {
    let payload: Value = serde_json::from_slice(input).ok()?;
    let host = host.unwrap_or_else(|| detect(&payload));
    let tool = text(&payload, "tool_name")?;
    let input = payload.get("tool_input")?;
    let file_tool = host.spec().file_tools.iter().find(|t| t.name == tool)?;
    let paths: Vec<PathBuf> = input
        .get(file_tool.path)
        .and_then(Value::as_str)
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        .into_iter()
        .collect();
    if paths.is_empty() {
        return None;
    }
    Some(FileEdit {
        host,
        tool: tool.to_string(),
        paths,
        cwd: text(&payload, "cwd").map(PathBuf::from),
        session: text(&payload, "session_id").map(str::to_string),
        replaces: (file_tool.replaces)(input),
    })
}

/// Whether `input` may hold a call of a tool that is not the shell (an MCP tool, Codex's
/// `apply_patch`): a look at the bytes that spares every other payload a third parse.
pub fn may_be_tool(input: &[u8]) -> bool {
    [b"mcp".as_slice(), b"MCP", b"apply_patch"]
        .iter()
        .any(|word| input.windows(word.len()).any(|window| window == *word))
}

/// Reads a call of an MCP tool or a non-shell file tool about to run, in `host`'s dialect
/// (else the one its shape shows); `None` for anything else, a call that has run included.
pub fn decode_tool(input: &[u8], host: Option<Host>) -> Option<OtherTool> {
    let payload: Value = serde_json::from_slice(input).ok()?;
    if text(&payload, "hook_event_name").is_some_and(|event| named_after(event).is_some()) {
        return None;
    }
    let host = host.unwrap_or_else(|| detect(&payload));
    mcp::decode_patch(&payload, host).or_else(|| mcp::decode(&payload, host))
}

/// A tool call that has run: the hosts' `PostToolUse` (Claude Code, Codex, Factory Droid,
/// Qoder CLI, Qwen Code, Auggie), `AfterTool` (Gemini CLI), `post_tool_call` (Hermes Agent),
/// `afterShellExecution` (Cursor), `post_tool` (Mistral Vibe), `post_run_command` (Windsurf)
/// and `postToolUse` (Copilot CLI) events, which the guard only observes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Done {
    /// A shell command ran.
    Shell(ToolCall),
    /// A file tool wrote these files.
    Files(FileEdit),
}

impl Done {
    pub fn session(&self) -> Option<&str> {
        match self {
            Done::Shell(call) => call.session.as_deref(),
            Done::Files(edit) => edit.session.as_deref(),
        }
    }
}

/// The events that report a call after it ran and name themselves in their payload, each once,
/// with the first host (in the registry's order) that sends it: Claude Code's `PostToolUse`,
/// which several hosts copy, is read as Claude Code's unless the command names the host.
fn named_after_events() -> impl Iterator<Item = (&'static str, Host)> {
    Host::ALL.into_iter().enumerate().filter_map(|(at, host)| {
        let after = host.spec().after.filter(|after| after.named)?;
        let earlier = Host::ALL.iter().take(at);
        let repeated = earlier
            .filter_map(|h| h.spec().after)
            .any(|a| a.named && a.event == after.event);
        (!repeated).then_some((after.event, host))
    })
}

/// The host an after-call event names, when it is one.
fn named_after(event: &str) -> Option<Host> {
    named_after_events().find_map(|(e, host)| (e == event).then_some(host))
}

/// Whether `input` may be an after-call event: a look at the bytes that spares a judged call
/// a second parse of its payload.
pub fn may_be_done(input: &[u8]) -> bool {
    named_after_events().any(|(event, _)| {
        input
            .windows(event.len())
            .any(|window| window == event.as_bytes())
    })
}

/// Reads an after-call event; `None` for anything else, a call about to run included.
pub fn decode_done(input: &[u8], host: Option<Host>) -> Option<Done> {
    let payload: Value = serde_json::from_slice(input).ok()?;
    // Windsurf names its actions under `agent_action_name`.
    let event =
        text(&payload, "hook_event_name").or_else(|| text(&payload, "agent_action_name"))?;
    let named = named_after(event)?;
    decode_ran(input, host.unwrap_or(named))
}

/// Reads a payload the installed command says is an after-call event (`hook --after`), for
/// hosts whose payload does not name its event: Copilot CLI's `postToolUse` is its
/// `preToolUse` with the tool's result added. `None` for anything that is not a call.
pub fn decode_after(input: &[u8], host: Option<Host>) -> Option<Done> {
    let host = match host {
        Some(host) => host,
        None => detect(&serde_json::from_slice(input).ok()?),
    };
    decode_ran(input, host)
}

/// A call that has run, read in `host`'s dialect.
fn decode_ran(input: &[u8], host: Host) -> Option<Done> {
    match decode(input, Some(host)) {
        Some(call) => Some(Done::Shell(call)),
        None => decode_file_edit(input, Some(host)).map(Done::Files),
    }
}

/// Qoder CLI sends exactly Claude Code's payload, so it is never told apart here: its installed
/// command names it, and read as Claude Code's it gets the same answer.
fn detect(payload: &Value) -> Host {
    let event = text(payload, "hook_event_name");
    let tool = text(payload, "tool_name");
    match (event, tool) {
        (Some("BeforeTool"), _) => Host::Gemini,
        (Some(hermes::BEFORE | hermes::AFTER), _) => Host::Hermes,
        _ if payload.get("toolCall").is_some() => Host::Antigravity,
        _ if payload.get("client_type").is_some() => Host::Kimi,
        (None, _) if text(payload, "event").is_some() => Host::Crush,
        (Some("PreToolUse"), Some(qwen::SHELL)) => Host::Qwen,
        (Some("pre_tool" | vibe::AFTER), _) => Host::Vibe,
        (Some("PreToolUse"), _) if payload.get("workspace_roots").is_some() => Host::Auggie,
        (Some("beforeShellExecution" | "afterShellExecution" | "beforeMCPExecution"), _)
        | (Some("preToolUse"), Some("Shell")) => Host::Cursor,
        (Some("preToolUse"), Some("shell")) | (_, Some("execute_bash")) => Host::Kiro,
        _ if payload.get("toolInput").is_some() && payload.get("toolArgs").is_none() => Host::Grok,
        _ if payload.get("toolName").is_some() || payload.get("toolArgs").is_some() => {
            Host::Copilot
        }
        _ if payload.get("tool_info").is_some() => Host::Windsurf,
        _ if payload.get("preToolUse").is_some() => Host::Cline,
        (_, Some("Execute")) => Host::Droid,
        _ if payload.get("turn_id").is_some() => Host::Codex,
        _ => Host::ClaudeCode,
    }
}

/// The host's answer to `verdict` on `call`: silent when allowed, the rewritten input when
/// the command is to run without `--yes-i-know`. The policy words an ask for a host that
/// cannot ask as a deny; should one reach such a host anyway, it goes out as a deny.
pub fn encode(call: &ToolCall, verdict: &Verdict) -> Reply {
    let reason = if verdict.reason.trim().is_empty() {
        NO_REASON
    } else {
        verdict.reason.as_str()
    };
    let stop = match verdict.decision {
        Decision::Allow => {
            return match (&verdict.rewrite, &call.rewrite) {
                (Some(command), Some(rewrite)) => rewritten(call.host, rewrite.with(command)),
                _ => Reply::silent(),
            };
        }
        Decision::Ask if call.can_ask => Stop::Ask(reason),
        Decision::Ask | Decision::Deny => Stop::Deny(reason),
    };
    (call.host.spec().encode)(stop)
}

/// Lets the call run with `input` as its tool input, in the dialect of a host that can.
fn rewritten(host: Host, input: Value) -> Reply {
    match host.spec().rewrite {
        Some(rewrite) => rewrite(input),
        None => Reply::silent(),
    }
}

/// A payload as `host` would send it before running `command` in `cwd`: what `doctor` feeds
/// the installed hook to check it end to end. Each one is also recognised without `--host`,
/// but Qoder CLI's, which is Claude Code's.
pub fn probe(host: Host, command: &str, cwd: &Path) -> Vec<u8> {
    let payload = (host.spec().probe)(command, cwd);
    payload.to_string().into_bytes()
}

/// A payload as `host` would send it for an MCP database tool about to run `sql`, or `None`
/// when its hooks are not sent MCP calls: what `doctor` feeds the installed hook to check that
/// MCP calls are judged too.
pub fn probe_mcp(host: Host, sql: &str, cwd: &Path) -> Option<Vec<u8>> {
    let base: Value = serde_json::from_slice(&probe(host, "true", cwd)).ok()?;
    let payload = mcp::probe(
        host,
        base,
        "postgres",
        "query",
        serde_json::json!({ "sql": sql }),
    )?;
    Some(payload.to_string().into_bytes())
}

/// Whether a hook process that printed `stdout` and exited with `exit_code` stops the command
/// in `host`'s protocol.
pub fn is_stop(host: Host, stdout: &[u8], exit_code: i32) -> bool {
    let reply = serde_json::from_slice::<Value>(stdout).ok();
    (host.spec().is_stop)(reply.as_ref(), exit_code)
}

/// Where a tool runs its command: its own folder (`dir`), taken from the session's (`base`)
/// when relative, else the session's.
fn working_dir(base: Option<PathBuf>, dir: Option<&str>) -> Option<PathBuf> {
    match (base, dir) {
        (Some(base), Some(dir)) => Some(base.join(dir)),
        (None, Some(dir)) => Some(dir.into()),
        (base, None) => base,
    }
}

/// A non-empty string field of a JSON object: hosts send `""` for what they do not know.
fn text<'a>(value: &'a Value, key: &str) -> Option<&'a str> {
    value
        .get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

/// The string at a JSON pointer, when it is one: for reading a host's reply.
fn text_at<'a>(value: Option<&'a Value>, pointer: &str) -> Option<&'a str> {
    value?.pointer(pointer)?.as_str()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(decision: Decision, reason: &str) -> Verdict {
        Verdict {
            decision,
            reason: reason.to_string(),
            ..Verdict::allow()
        }
    }

    fn call(host: Host, can_ask: bool) -> ToolCall {
        ToolCall {
            host,
            tool: "Bash".into(),
            command: "rm -rf build".into(),
            cwd: None,
            session: None,
            can_ask,
            rewrite: None,
        }
    }

    #[test]
    fn every_probe_is_recognised_without_a_host() {
        for host in Host::ALL {
            let payload = probe(host, "git status", Path::new("/home/dev/app"));
            let call = decode(&payload, None).unwrap_or_else(|| panic!("{host:?}"));
            let detected = match host {
                Host::Qoder => Host::ClaudeCode,
                _ => host,
            };
            assert_eq!(call.host, detected);
            assert_eq!(call.command, "git status", "{host:?}");
            assert_eq!(
                call.cwd.as_deref(),
                Some(Path::new("/home/dev/app")),
                "{host:?}"
            );
            let named = decode(&payload, Some(host)).unwrap_or_else(|| panic!("{host:?}"));
            assert_eq!(named, ToolCall { host, ..call }, "{host:?}");
        }
    }

    #[test]
    fn ambiguous_shapes_are_read_as_claude_code() {
        let cases = [
            r#"{"tool_name":"Bash","tool_input":{"command":"ls"}}"#,
            r#"{"hook_event_name":"PreToolUse","tool_name":"bash","tool_input":{"command":"ls"}}"#,
            r#"{"tool_name":"shell","tool_input":{"command":["ls"]}}"#,
        ];
        for case in cases {
            let call = decode(case.as_bytes(), None);
            assert_eq!(call.map(|c| c.host), Some(Host::ClaudeCode), "{case}");
        }
    }

    #[test]
    fn an_explicit_host_reads_only_its_own_dialect() {
        let claude = br#"{"tool_name":"Bash","tool_input":{"command":"ls"}}"#;
        for host in [
            Host::Gemini,
            Host::Cursor,
            Host::Droid,
            Host::Grok,
            Host::Antigravity,
            Host::Hermes,
            Host::Kiro,
            Host::Windsurf,
            Host::Qwen,
            Host::Auggie,
            Host::Vibe,
            Host::Crush,
        ] {
            assert_eq!(decode(claude, Some(host)), None, "{host:?}");
        }
        for host in [Host::Codex, Host::Kimi, Host::Qoder] {
            assert_eq!(decode(claude, Some(host)).map(|c| c.host), Some(host));
        }
    }

    #[test]
    fn an_ask_the_host_cannot_put_goes_out_as_a_deny() {
        let reply = encode(&call(Host::Cursor, false), &verdict(Decision::Ask, "why"));
        let out: Value = serde_json::from_str(&reply.stdout.unwrap()).unwrap();
        assert_eq!(out["permission"], "deny");
        let reply = encode(&call(Host::Cursor, true), &verdict(Decision::Ask, "why"));
        let out: Value = serde_json::from_str(&reply.stdout.unwrap()).unwrap();
        assert_eq!(out["permission"], "ask");
    }

    #[test]
    fn a_rewrite_keeps_every_other_field_and_the_key_the_command_came_in() {
        let input = serde_json::json!({"cmd": "ls --yes-i-know", "timeout": 5, "x": [1]});
        let rewrite = Rewrite::of(&input).unwrap();
        assert_eq!(
            rewrite.with("ls"),
            serde_json::json!({"cmd": "ls", "timeout": 5, "x": [1]})
        );
        let encoded = Value::String(input.to_string());
        assert_eq!(Rewrite::of(&encoded), Some(rewrite));
        assert_eq!(Rewrite::of(&serde_json::json!({"command": ["ls"]})), None);
        assert_eq!(Rewrite::of(&serde_json::json!("not json")), None);
    }

    #[test]
    fn an_allowed_rewrite_is_silent_where_the_call_cannot_rewrite() {
        let rewritten = Verdict {
            rewrite: Some("ls".into()),
            ..Verdict::allow()
        };
        assert_eq!(
            encode(&call(Host::ClaudeCode, true), &rewritten),
            Reply::silent()
        );
    }

    #[test]
    fn a_stop_never_goes_out_without_a_reason() {
        let reply = encode(&call(Host::Codex, false), &verdict(Decision::Deny, " "));
        let out: Value = serde_json::from_str(&reply.stdout.unwrap()).unwrap();
        assert_eq!(
            text_at(Some(&out), "/hookSpecificOutput/permissionDecisionReason"),
            Some(NO_REASON)
        );
    }

    #[test]
    fn allow_is_silent_for_every_host() {
        for host in Host::ALL {
            let reply = encode(&call(host, true), &Verdict::allow());
            assert_eq!(reply, Reply::silent(), "{host:?}");
            assert!(!is_stop(host, b"", 0), "{host:?}");
        }
    }
}
