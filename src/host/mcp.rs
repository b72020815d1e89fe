//! Where each host puts an MCP tool call and a non-shell file tool in its hook payload.
//!
//! A host's MCP calls are described as data, an [`McpShape`]: the event that carries them,
//! where the server's and the tool's names are (two fields, or one name that joins them), and
//! where the arguments, the folder and the session are. A new host that sends MCP calls adds
//! one shape, which its declaration names. What each host sends, as its own sources define it:
//!
//! - Claude Code (agent SDK 0.3, `PreToolUseHookInput`), Codex (0.171, its hook payload for
//!   MCP calls), Factory Droid and Qoder CLI (Claude Code's payload): `tool_name`
//!   `mcp__<server>__<tool>`, the arguments as `tool_input`.
//! - Gemini CLI (0.61, `BeforeTool`): `tool_name` `mcp_<server>_<tool>`, and `mcp_context`
//!   with `server_name` and `tool_name` when the server is configured.
//! - Cursor (`beforeMCPExecution`): `tool_name`, `tool_input` as JSON text, and the server as
//!   the `command` that starts it or the `url` it answers on.
//! - Windsurf (`pre_mcp_tool_use`): `tool_info` with `mcp_server_name`, `mcp_tool_name` and
//!   `mcp_tool_arguments`.
//! - Cline (`PreToolUse`): the tool `use_mcp_tool` with `parameters.server_name`,
//!   `parameters.tool_name` and `parameters.arguments` (JSON text).
//! - Hermes Agent (0.19.0, `tools/mcp_tool.py` and `agent/shell_hooks.py`): `pre_tool_call`
//!   with `tool_name` `mcp__<server>__<tool>` (both names with every character outside
//!   `[A-Za-z0-9_]` turned to `_`) and the arguments as `tool_input`.
//! - Qwen Code (0.24.4, `DiscoveredMCPTool` and `firePreToolUseEvent`) and Kimi Code (0.38.0,
//!   `qualifyMcpToolName` and `runPreToolUse`): Claude Code's payload, `tool_name`
//!   `mcp__<server>__<tool>` (both names with every character outside `[A-Za-z0-9_-]` turned to
//!   `_`, a name over 64 characters cut and ended with a hash), the arguments as `tool_input`.
//! - Mistral Vibe (3.0.3, the local harness's `_mcp_naming.py` and `_foreign_hooks.py`):
//!   `pre_tool` with `tool_name` `mcp_<server>.<tool>`, the server's tool group and the tool,
//!   both with every character outside `[A-Za-z0-9_$]` turned to `_`; the arguments as
//!   `tool_input`.
//! - Crush (v0.90.0, `internal/agent/tools/mcp-tools.go` and `internal/hooks/input.go`):
//!   `PreToolUse` under `event`, `tool_name` `mcp_<server>_<tool>` with the names as configured
//!   and served, the arguments as `tool_input`. A server named with `_` is read short: the
//!   first `_` after the prefix ends it.
//!
//! Copilot CLI (1.0.47) names an MCP tool `<server>-<tool>` and Auggie (0.36.0)
//! `<tool>_<server>`, each name allowed to hold the separator itself, so the two cannot be told
//! apart from the one name the hook gets; Kiro CLI, Grok Build and Antigravity CLI publish no
//! source that shows their MCP calls' payload. Those hosts have no shape.

use std::path::PathBuf;

use serde_json::Value;

use super::{Host, ToolCall, input_object};
use crate::syntax::Word;
use crate::syntax::argv::{self, Style, Valued};
use crate::tools::{McpUse, ToolUse};

/// A call of a tool that is not the host's shell, about to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OtherTool {
    pub host: Host,
    /// The host's name for the tool (`mcp__postgres__query`, `apply_patch`).
    pub tool: String,
    pub what: ToolUse,
    pub cwd: Option<PathBuf>,
    pub session: Option<String>,
    pub can_ask: bool,
}

impl OtherTool {
    /// The call as [`super::encode`] answers it and the audit log shows it.
    pub fn as_call(&self) -> ToolCall {
        ToolCall {
            host: self.host,
            tool: self.tool.clone(),
            command: self.what.display(),
            cwd: self.cwd.clone(),
            session: self.session.clone(),
            can_ask: self.can_ask,
            rewrite: None,
        }
    }
}

/// How a host names the server and the tool of an MCP call.
#[derive(Debug, Clone, Copy)]
enum Naming {
    /// One name at `at`: `prefix`, the server, `separator`, the tool.
    Joined {
        at: &'static str,
        prefix: &'static str,
        separator: &'static str,
    },
    /// The server's name and the tool's at two places.
    Fields {
        server: &'static str,
        tool: &'static str,
    },
    /// The tool's name at `tool`; the server told by the command that starts it or its URL.
    Launched {
        tool: &'static str,
        command: &'static str,
        url: &'static str,
    },
}

/// Where one host's payload holds an MCP call. Places are JSON pointers.
#[derive(Debug, Clone, Copy)]
pub(super) struct McpShape {
    /// A place and the value it must hold for the payload to be an MCP call.
    when: Option<(&'static str, &'static str)>,
    /// The ways to read the names, tried in order.
    names: &'static [Naming],
    arguments: &'static str,
    cwd: &'static str,
    session: &'static str,
    /// Whether the event can put a question to the user.
    can_ask: bool,
}

/// Claude Code's shape, which Codex, Droid, Qoder, Qwen and Kimi send as it is.
pub(super) const CLAUDE: McpShape = McpShape {
    when: None,
    names: &[Naming::Joined {
        at: "/tool_name",
        prefix: "mcp__",
        separator: "__",
    }],
    arguments: "/tool_input",
    cwd: "/cwd",
    session: "/session_id",
    can_ask: true,
};

pub(super) const GEMINI: McpShape = McpShape {
    when: Some(("/hook_event_name", "BeforeTool")),
    names: &[
        Naming::Fields {
            server: "/mcp_context/server_name",
            tool: "/mcp_context/tool_name",
        },
        Naming::Joined {
            at: "/tool_name",
            prefix: "mcp_",
            separator: "_",
        },
    ],
    arguments: "/tool_input",
    cwd: "/cwd",
    session: "/session_id",
    can_ask: true,
};

pub(super) const CURSOR: McpShape = McpShape {
    when: Some(("/hook_event_name", "beforeMCPExecution")),
    names: &[Naming::Launched {
        tool: "/tool_name",
        command: "/command",
        url: "/url",
    }],
    arguments: "/tool_input",
    cwd: "/cwd",
    session: "/conversation_id",
    can_ask: false,
};

pub(super) const WINDSURF: McpShape = McpShape {
    when: Some(("/agent_action_name", "pre_mcp_tool_use")),
    names: &[Naming::Fields {
        server: "/tool_info/mcp_server_name",
        tool: "/tool_info/mcp_tool_name",
    }],
    arguments: "/tool_info/mcp_tool_arguments",
    cwd: "/tool_info/cwd",
    session: "/trajectory_id",
    can_ask: false,
};

pub(super) const CLINE: McpShape = McpShape {
    when: Some(("/preToolUse/toolName", "use_mcp_tool")),
    names: &[Naming::Fields {
        server: "/preToolUse/parameters/server_name",
        tool: "/preToolUse/parameters/tool_name",
    }],
    arguments: "/preToolUse/parameters/arguments",
    cwd: "/workspaceRoots/0",
    session: "/taskId",
    can_ask: false,
};

pub(super) const VIBE: McpShape = McpShape {
    when: Some(("/hook_event_name", "pre_tool")),
    names: &[Naming::Joined {
        at: "/tool_name",
        prefix: "mcp_",
        separator: ".",
    }],
    arguments: "/tool_input",
    cwd: "/cwd",
    session: "/session_id",
    can_ask: false,
};

pub(super) const CRUSH: McpShape = McpShape {
    when: Some(("/event", "PreToolUse")),
    names: &[Naming::Joined {
        at: "/tool_name",
        prefix: "mcp_",
        separator: "_",
    }],
    arguments: "/tool_input",
    cwd: "/cwd",
    session: "/session_id",
    can_ask: false,
};

pub(super) const HERMES: McpShape = McpShape {
    when: Some(("/hook_event_name", "pre_tool_call")),
    names: &[Naming::Joined {
        at: "/tool_name",
        prefix: "mcp__",
        separator: "__",
    }],
    arguments: "/tool_input",
    cwd: "/cwd",
    session: "/session_id",
    can_ask: false,
};

/// Reads an MCP call in `host`'s shape; `None` for anything else.
pub(super) fn decode(payload: &Value, host: Host) -> Option<OtherTool> {
    let shape = host.spec().mcp?;
    if let Some((at, value)) = shape.when
        && text_at(payload, at) != Some(value)
    {
        return None;
    }
    let (server, tool) = shape.names.iter().find_map(|n| names(payload, *n))?;
    let input = match payload.pointer(shape.arguments) {
        Some(arguments) => input_object(arguments)?.into_owned(),
        None => serde_json::Map::new(),
    };
    let host_tool = match shape.names.first() {
        Some(Naming::Joined { at, .. }) => text_at(payload, at).unwrap_or(&tool).to_string(),
        _ => format!("{server}/{tool}"),
    };
    Some(OtherTool {
        host,
        tool: host_tool,
        what: ToolUse::Mcp(McpUse {
            server,
            tool,
            input,
        }),
        cwd: text_at(payload, shape.cwd).map(PathBuf::from),
        session: text_at(payload, shape.session).map(str::to_string),
        can_ask: shape.can_ask,
    })
}

/// The payload `host` sends for an MCP call of `server`'s `tool` with `arguments`, laid out
/// by its shape on top of its shell probe (which holds the fields every payload carries);
/// `None` for hosts whose hooks are not sent MCP calls. What `doctor` feeds the installed hook.
pub(super) fn probe(
    host: Host,
    base: Value,
    server: &str,
    tool: &str,
    arguments: Value,
) -> Option<Value> {
    let shape = host.spec().mcp?;
    let mut payload = base;
    for key in [
        "tool_name",
        "tool_input",
        "command",
        "tool_info",
        "preToolUse",
    ] {
        if let Some(fields) = payload.as_object_mut() {
            fields.remove(key);
        }
    }
    if let Some((at, value)) = shape.when {
        put(&mut payload, at, Value::from(value));
    }
    match shape.names.first()? {
        Naming::Joined {
            at,
            prefix,
            separator,
        } => put(
            &mut payload,
            at,
            Value::from(format!("{prefix}{server}{separator}{tool}")),
        ),
        Naming::Fields {
            server: server_at,
            tool: tool_at,
        } => {
            put(&mut payload, server_at, Value::from(server));
            put(&mut payload, tool_at, Value::from(tool));
        }
        Naming::Launched {
            tool: tool_at, url, ..
        } => {
            put(&mut payload, tool_at, Value::from(tool));
            put(
                &mut payload,
                url,
                Value::from(format!("https://{server}.example/mcp")),
            );
        }
    }
    put(&mut payload, shape.arguments, arguments);
    Some(payload)
}

/// Sets the value at a JSON pointer, making the objects on the way.
fn put(payload: &mut Value, pointer: &str, value: Value) {
    let mut at = payload;
    let keys: Vec<&str> = pointer.split('/').skip(1).collect();
    let Some((last, path)) = keys.split_last() else {
        return;
    };
    for key in path {
        let Some(fields) = at.as_object_mut() else {
            return;
        };
        at = fields
            .entry(key.to_string())
            .or_insert_with(|| Value::Object(serde_json::Map::new()));
    }
    if let Some(fields) = at.as_object_mut() {
        fields.insert(last.to_string(), value);
    }
}

/// The server's and the tool's names, read the way `naming` says.
fn names(payload: &Value, naming: Naming) -> Option<(String, String)> {
    match naming {
        Naming::Joined {
            at,
            prefix,
            separator,
        } => {
            let (server, tool) = text_at(payload, at)?
                .strip_prefix(prefix)?
                .split_once(separator)?;
            (!server.is_empty() && !tool.is_empty()).then(|| (server.into(), tool.into()))
        }
        Naming::Fields { server, tool } => Some((
            text_at(payload, server)?.into(),
            text_at(payload, tool)?.into(),
        )),
        Naming::Launched { tool, command, url } => {
            let tool = text_at(payload, tool)?;
            let server = text_at(payload, command)
                .and_then(launched_server)
                .or_else(|| text_at(payload, url).and_then(url_host))?;
            Some((server, tool.into()))
        }
    }
}

/// The server a launch command starts: the package or program it names last before the
/// arguments that are options or addresses (`npx -y @supabase/mcp-server-supabase
/// --read-only` is `@supabase/mcp-server-supabase`).
fn launched_server(command: &str) -> Option<String> {
    const LAUNCHERS: &[&str] = &[
        "npx", "bunx", "uvx", "pnpm", "dlx", "node", "python", "python3", "docker", "run", "exec",
    ];
    let words: Vec<Word> = command.split_whitespace().map(Word::literal).collect();
    let read = argv::read(&words, Style::Getopt, &Valued(&[]));
    read.operands
        .iter()
        .filter_map(|&at| words.get(at))
        .map(|w| w.text.as_str())
        .find(|w| !LAUNCHERS.contains(w) && !w.contains("://") && !w.contains('='))
        .map(str::to_string)
}

/// The host of a server's URL (`https://mcp.supabase.com/mcp` is `mcp.supabase.com`).
fn url_host(url: &str) -> Option<String> {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let host = rest.split(['/', '?', ':']).next()?;
    (!host.is_empty()).then(|| host.to_string())
}

/// `apply_patch` (Codex's): the patch text under `tool_input.command`.
pub(super) fn decode_patch(payload: &Value, host: Host) -> Option<OtherTool> {
    if !host.spec().patches || text_at(payload, "/tool_name") != Some("apply_patch") {
        return None;
    }
    let input = input_object(payload.get("tool_input")?)?;
    let patch = input.get("command")?.as_str()?.to_string();
    Some(OtherTool {
        host,
        tool: "apply_patch".into(),
        what: ToolUse::Patch(patch),
        cwd: text_at(payload, "/cwd").map(PathBuf::from),
        session: text_at(payload, "/session_id").map(str::to_string),
        can_ask: false,
    })
}

/// A non-empty string at a JSON pointer.
fn text_at<'a>(value: &'a Value, pointer: &str) -> Option<&'a str> {
    value
        .pointer(pointer)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn mcp(call: &OtherTool) -> (&str, &str) {
        match &call.what {
            ToolUse::Mcp(m) => (m.server.as_str(), m.tool.as_str()),
            ToolUse::Patch(_) | ToolUse::Write { .. } => ("", ""),
        }
    }

    #[test]
    fn joined_names_split_at_the_first_separator() {
        let payload = json!({"tool_name": "mcp__my_db__run__sql", "tool_input": {"sql": "x"}});
        let call = decode(&payload, Host::ClaudeCode).unwrap();
        assert_eq!(mcp(&call), ("my_db", "run__sql"));
        assert_eq!(call.tool, "mcp__my_db__run__sql");
        for bad in ["Bash", "mcp__", "mcp__x", "mcp____t"] {
            assert!(
                decode(&json!({"tool_name": bad}), Host::ClaudeCode).is_none(),
                "{bad}"
            );
        }
    }

    #[test]
    fn cursor_names_the_server_by_its_launch() {
        assert_eq!(
            launched_server("npx -y @supabase/mcp-server-supabase --read-only").as_deref(),
            Some("@supabase/mcp-server-supabase")
        );
        assert_eq!(
            url_host("https://mcp.neon.tech/mcp").as_deref(),
            Some("mcp.neon.tech")
        );
        let payload = json!({"hook_event_name": "beforeMCPExecution", "tool_name": "query",
            "tool_input": "{\"sql\":\"select 1\"}", "url": "https://db.example.com/mcp"});
        let call = decode(&payload, Host::Cursor).unwrap();
        assert_eq!(mcp(&call), ("db.example.com", "query"));
    }

    #[test]
    fn every_probe_reads_back_as_the_call() {
        for host in Host::ALL {
            let base = super::super::probe(host, "ls", std::path::Path::new("/w"));
            let base: Value = serde_json::from_slice(&base).unwrap();
            let args = json!({"sql": "DROP TABLE t"});
            let Some(payload) = probe(host, base, "postgres", "query", args) else {
                assert!(host.spec().mcp.is_none(), "{host:?}");
                continue;
            };
            let call = decode(&payload, host).unwrap_or_else(|| panic!("{host:?}: {payload}"));
            assert!(call.what.display().contains("DROP TABLE t"), "{host:?}");
            assert!(call.what.name().contains("query"), "{host:?}");
        }
    }

    #[test]
    fn vibe_and_crush_read_only_their_mcp_names() {
        let vibe = |tool: &str| json!({"hook_event_name": "pre_tool", "tool_name": tool});
        let call = decode(&vibe("mcp_my_db.run_sql"), Host::Vibe).unwrap();
        assert_eq!(mcp(&call), ("my_db", "run_sql"));
        for other in [
            "file_system.bash",
            "connector_github_app.pull_request_read",
            "mcp_x",
        ] {
            assert!(decode(&vibe(other), Host::Vibe).is_none(), "{other}");
        }
        let crush = |tool: &str| json!({"event": "PreToolUse", "tool_name": tool});
        let call = decode(&crush("mcp_neon_delete_project"), Host::Crush).unwrap();
        assert_eq!(mcp(&call), ("neon", "delete_project"));
        assert!(decode(&crush("bash"), Host::Crush).is_none());
    }

    #[test]
    fn hosts_without_a_shape_send_none() {
        let payload = json!({"tool_name": "mcp__pg__query", "tool_input": {}});
        assert!(decode(&payload, Host::Kiro).is_none());
    }
}
