//! Host adapters: the only code that knows what an agent host sends and expects back.
//!
//! `decode` turns the host's stdin into a [`ToolCall`] (or `None` when the call is not a
//! shell command we judge); `encode` renders a [`Verdict`] in the host's exact dialect.

mod claude;

use std::path::PathBuf;

use crate::policy::Verdict;

/// The agent hosts whose hook protocol the guard speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Host {
    ClaudeCode,
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

/// Reads a hook payload. `None` for anything that is not a shell command to judge: other
/// tools, malformed JSON, shapes we do not recognise.
pub fn decode(input: &[u8]) -> Option<ToolCall> {
    claude::decode(input)
}

pub fn encode(call: &ToolCall, verdict: &Verdict) -> Reply {
    match call.host {
        Host::ClaudeCode => claude::encode(verdict),
    }
}
