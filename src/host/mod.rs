//! Host adapters: the only code that knows what an agent host sends and expects back.
//!
//! `decode` turns the host's stdin into a [`ToolCall`] (or `None` when the call is not a
//! shell command we judge); `encode` renders a [`Verdict`] in the host's exact dialect.

mod claude;

use std::path::PathBuf;

use crate::policy::Verdict;

/// The agent hosts whose hook protocol the guard speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Host {
    ClaudeCode,
    Codex,
    Gemini,
    Cursor,
    Copilot,
    Droid,
    Kiro,
    Windsurf,
    Cline,
}

impl Host {
    pub const ALL: [Host; 9] = [
        Host::ClaudeCode,
        Host::Codex,
        Host::Gemini,
        Host::Cursor,
        Host::Copilot,
        Host::Droid,
        Host::Kiro,
        Host::Windsurf,
        Host::Cline,
    ];

    /// The name used on the command line (`--host NAME`) and in the audit log.
    pub fn name(self) -> &'static str {
        match self {
            Host::ClaudeCode => "claude",
            Host::Codex => "codex",
            Host::Gemini => "gemini",
            Host::Cursor => "cursor",
            Host::Copilot => "copilot",
            Host::Droid => "droid",
            Host::Kiro => "kiro",
            Host::Windsurf => "windsurf",
            Host::Cline => "cline",
        }
    }

    pub fn from_name(name: &str) -> Option<Host> {
        Host::ALL.into_iter().find(|h| h.name() == name)
    }
}

/// A shell command a host is about to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolCall {
    pub host: Host,
    /// The host's name for the tool (`Bash`, `exec_command`, ...).
    pub tool: String,
    pub command: String,
    /// The folder the command will run in, as the host reports it.
    pub cwd: Option<PathBuf>,
    pub session: Option<String>,
}

/// What the hook process prints and how it exits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    pub stdout: Option<String>,
    pub exit_code: i32,
}

impl Reply {
    /// No opinion: the host's normal permission flow goes on.
    pub fn silent() -> Self {
        Reply {
            stdout: None,
            exit_code: 0,
        }
    }
}

/// Reads a hook payload, in `host`'s dialect when given. `None` for anything that is not a
/// shell command to judge: other tools, malformed JSON, shapes we do not recognise.
pub fn decode(input: &[u8], host: Option<Host>) -> Option<ToolCall> {
    match host {
        None | Some(Host::ClaudeCode) => claude::decode(input),
        Some(_) => None,
    }
}

pub fn encode(call: &ToolCall, verdict: &Verdict) -> Reply {
    match call.host {
        Host::ClaudeCode => claude::encode(verdict),
        _ => Reply::silent(),
    }
}
