//! Agent tools that are not a shell: an MCP server's tool, and the file tools of hosts that
//! cannot undo them (Codex's `apply_patch`, the whole-file writes of Gemini CLI, Factory Droid,
//! Kiro CLI and Hermes Agent). Host-free: `host/` decodes a payload into a
//! [`ToolUse`]; this module says what the call comes to in terms the shell judge reads — the
//! SQL a database tool runs, the line a terminal tool runs, the files a patch deletes or
//! replaces — and the rules judge the rest by server and tool name.

pub mod patch;

use serde_json::{Map, Value};

use crate::shell::word::quote;

/// A call to a tool that is not the host's shell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolUse {
    /// A tool of an MCP server.
    Mcp(McpUse),
    /// Codex's `apply_patch`: the patch text.
    Patch(String),
    /// A host's file tool that writes each file whole, on a host that keeps no copy of what
    /// was there: the tool's name and the files, as the payload names them.
    Write {
        tool: String,
        paths: Vec<std::path::PathBuf>,
    },
}

/// One MCP tool call: the server's name as the user configured it, the tool's own name and
/// the arguments the model wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpUse {
    pub server: String,
    pub tool: String,
    pub input: Map<String, Value>,
}

/// The server and tool (`postgres/query`, `apply_patch`) of a call as [`ToolUse::display`]
/// shows it (the audit log's command); `None` for a shell command.
pub fn shown_tool(command: &str) -> Option<&str> {
    if let Some(rest) = command.strip_prefix("mcp ") {
        return rest.split(' ').next().filter(|name| name.contains('/'));
    }
    (command == "apply_patch" || command.starts_with("apply_patch ")).then_some("apply_patch")
}

/// What a tool call comes to, for the judge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reading {
    /// The shell line a terminal tool runs, as the agent wrote it.
    Shell(String),
    /// A shell line that stands for the call: the SQL of a database tool put to its client, a
    /// patch's deletes and replacements. The agent did not write it, so nothing in front of
    /// it can override a stop.
    Standin(String),
    /// Nothing a shell line stands for: judged by server and tool name alone.
    Named,
}

/// Longest argument text kept when a call is shown (audit log, replay).
const SHOWN_INPUT: usize = 400;

impl ToolUse {
    /// The call in one line: `mcp postgres/query {"sql":"..."}`, `apply_patch <first line>`.
    pub fn display(&self) -> String {
        match self {
            ToolUse::Mcp(call) => {
                let input = Value::Object(call.input.clone()).to_string();
                format!(
                    "mcp {}/{} {}",
                    call.server,
                    call.tool,
                    clip(&input, SHOWN_INPUT)
                )
            }
            ToolUse::Patch(patch) => {
                let files: Vec<&str> = patch
                    .lines()
                    .filter(|l| l.starts_with("*** ") && !l.contains("Patch"))
                    .map(|l| l.trim_start_matches("*** "))
                    .collect();
                clip(&format!("apply_patch {}", files.join("; ")), SHOWN_INPUT)
            }
            ToolUse::Write { tool, paths } => {
                let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
                clip(&format!("{tool} {}", shown.join(" ")), SHOWN_INPUT)
            }
        }
    }

    /// The tool in a few words, for the start of a reason: `MCP tool postgres/query`.
    pub fn name(&self) -> String {
        match self {
            ToolUse::Mcp(call) => format!("MCP tool {}/{}", call.server, call.tool),
            ToolUse::Patch(_) => "apply_patch".to_string(),
            ToolUse::Write { tool, .. } => tool.clone(),
        }
    }

    /// The files the call writes in the host's folder, as it names them: a patch's added,
    /// updated and moved files. MCP servers write where they run, not here.
    pub fn written(&self) -> Vec<std::path::PathBuf> {
        match self {
            ToolUse::Mcp(_) => Vec::new(),
            ToolUse::Patch(text) => patch::written(text),
            ToolUse::Write { paths, .. } => paths.clone(),
        }
    }

    /// What the call comes to (see [`Reading`]).
    pub fn reading(&self) -> Reading {
        match self {
            ToolUse::Mcp(call) => call.reading(),
            ToolUse::Patch(patch) => match patch::line(patch) {
                Some(line) => Reading::Standin(line),
                None => Reading::Named,
            },
            // What was there is gone once the file is written: a truncating redirect says so,
            // and the context weighs the content and whose work it is.
            ToolUse::Write { paths, .. } => {
                let lines: Vec<String> = paths
                    .iter()
                    .map(|p| format!(": > {}", quote(&p.to_string_lossy())))
                    .collect();
                if lines.is_empty() {
                    Reading::Named
                } else {
                    Reading::Standin(lines.join("; "))
                }
            }
        }
    }
}

impl McpUse {
    /// The SQL a database tool runs, as its client would run it; the line a terminal tool
    /// runs. Anything else is judged by name.
    pub fn reading(&self) -> Reading {
        if let Some(line) = self.file_line() {
            return Reading::Standin(line);
        }
        if let Some(client) = sql_client(&self.server, &self.tool)
            && let Some(sql) = self.sql()
        {
            return Reading::Standin(format!("{client} {}", quote(&sql)));
        }
        if let Some(line) = self.shell_line() {
            return Reading::Shell(line);
        }
        Reading::Named
    }

    /// What the filesystem server's tools that replace a file do, as a shell line:
    /// `write_file` writes over `path`, `move_file` moves onto `destination` (the
    /// `@modelcontextprotocol/server-filesystem` tool list). Its other tools read, or edit
    /// in place.
    fn file_line(&self) -> Option<String> {
        if !self.server.to_ascii_lowercase().contains("filesystem") {
            return None;
        }
        match self.tool.as_str() {
            "write_file" => Some(format!(": > {}", quote(self.field(&["path"])?))),
            "move_file" => Some(format!(
                "mv -- {} {}",
                quote(self.field(&["source"])?),
                quote(self.field(&["destination"])?)
            )),
            _ => None,
        }
    }

    /// The SQL text of the call: a string field named for SQL, or an array of statements
    /// (Neon's `run_sql_transaction`).
    fn sql(&self) -> Option<String> {
        for key in SQL_KEYS {
            match self.input.get(*key) {
                Some(Value::String(sql)) if !sql.trim().is_empty() => return Some(sql.clone()),
                Some(Value::Array(list)) => {
                    let statements: Vec<&str> = list.iter().filter_map(Value::as_str).collect();
                    if !statements.is_empty() {
                        return Some(statements.join(";\n"));
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// The line a terminal tool runs: a tool whose name says it runs commands, with the
    /// line under `command`, `cmd` or `script` (a string, or an argv array).
    fn shell_line(&self) -> Option<String> {
        if !runs_commands(&self.tool) {
            return None;
        }
        ["command", "cmd", "commandLine", "cli_command", "script"]
            .iter()
            .find_map(|key| match self.input.get(*key)? {
                Value::String(line) if !line.trim().is_empty() => Some(line.clone()),
                Value::Array(argv) => {
                    let words: Option<Vec<String>> =
                        argv.iter().map(|w| w.as_str().map(quote)).collect();
                    words.filter(|w| !w.is_empty()).map(|w| w.join(" "))
                }
                _ => None,
            })
    }

    /// The first string among `keys` of the input: what a tool acts on.
    pub fn field(&self, keys: &[&str]) -> Option<&str> {
        keys.iter()
            .find_map(|k| self.input.get(*k).and_then(Value::as_str))
            .filter(|s| !s.is_empty())
    }
}

/// Input fields that hold SQL in the database servers' published tools.
const SQL_KEYS: &[&str] = &[
    "sql",
    "query",
    "statement",
    "sql_query",
    "sqlQuery",
    "sqlStatements",
    "migrationSql",
    "command",
];

/// The client line whose SQL reader judges a database server's SQL: a word of the server's
/// name, or failing that of the tool's, says which database. `None` for servers that are not
/// SQL databases (a document store's `query` is not SQL).
fn sql_client(server: &str, tool: &str) -> Option<&'static str> {
    let server = server.to_ascii_lowercase();
    let tool = tool.to_ascii_lowercase();
    let words: Vec<&str> = [server.as_str(), tool.as_str()]
        .into_iter()
        .flat_map(|name| name.split(|c: char| !c.is_ascii_alphanumeric()))
        .filter(|w| !w.is_empty())
        .collect();
    let says = |prefixes: &[&str]| {
        words
            .iter()
            .any(|w| prefixes.iter().any(|p| w.starts_with(p)))
    };
    let named = |exact: &[&str]| words.iter().any(|w| exact.contains(w));
    if says(&[
        "mongo",
        "redis",
        "elastic",
        "opensearch",
        "dynamo",
        "firestore",
        "cassandra",
    ]) {
        None
    } else if says(&["mysql", "mariadb", "planetscale", "tidb"]) {
        Some("mysql -e")
    } else if says(&["sqlite", "turso", "libsql"]) || named(&["d1"]) {
        // The server's own database file, which the line does not name: never one in memory.
        Some("sqlite3 \"$DATABASE\"")
    } else if says(&["duckdb", "motherduck"]) {
        Some("duckdb \"$DATABASE\" -c")
    } else if says(&["clickhouse"]) {
        Some("clickhouse-client --query")
    } else if says(&["mssql", "sqlserver"]) {
        Some("sqlcmd -Q")
    } else if says(&[
        "postgres",
        "supabase",
        "neon",
        "prisma",
        "bigquery",
        "snowflake",
        "redshift",
        "cockroach",
        "timescale",
        "database",
    ]) || named(&["pg", "sql", "db"])
    {
        Some("psql -c")
    } else {
        None
    }
}

/// Tool names that run a shell line (terminal and ssh servers, `call_aws`).
fn runs_commands(tool: &str) -> bool {
    let tool = tool.to_ascii_lowercase();
    matches!(
        tool.as_str(),
        "execute_command"
            | "run_command"
            | "exec_command"
            | "run_shell_command"
            | "execute_shell_command"
            | "shell_execute"
            | "run_terminal_command"
            | "start_process"
            | "exec"
            | "ssh_exec"
            | "ssh_execute"
            | "remote_exec"
            | "bash"
            | "shell"
            | "terminal"
            | "call_aws"
    )
}

/// At most `max` bytes of `text`, cut on a character boundary.
fn clip(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", text.get(..end).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn call(server: &str, tool: &str, input: Value) -> McpUse {
        McpUse {
            server: server.into(),
            tool: tool.into(),
            input: input.as_object().cloned().unwrap_or_default(),
        }
    }

    #[test]
    fn database_sql_goes_to_its_client() {
        let cases = [
            (
                "postgres",
                "query",
                json!({"sql": "DROP TABLE t"}),
                "psql -c 'DROP TABLE t'",
            ),
            (
                "supabase",
                "execute_sql",
                json!({"query": "select 1"}),
                "psql -c 'select 1'",
            ),
            (
                "mysql",
                "mysql_query",
                json!({"sql": "DROP TABLE t"}),
                "mysql -e 'DROP TABLE t'",
            ),
            (
                "sqlite",
                "write_query",
                json!({"query": "DELETE FROM t"}),
                "sqlite3 \"$DATABASE\" 'DELETE FROM t'",
            ),
            (
                "neon",
                "run_sql_transaction",
                json!({"sqlStatements": ["DROP TABLE a", "DROP TABLE b"]}),
                "psql -c 'DROP TABLE a;\nDROP TABLE b'",
            ),
        ];
        for (server, tool, input, line) in cases {
            assert_eq!(
                call(server, tool, input).reading(),
                Reading::Standin(line.into())
            );
        }
    }

    #[test]
    fn terminal_lines_are_lines_and_other_tools_are_named() {
        let terminal = call(
            "desktop-commander",
            "start_process",
            json!({"command": "rm -rf build"}),
        );
        assert_eq!(terminal.reading(), Reading::Shell("rm -rf build".into()));
        let argv = call(
            "commands",
            "run_command",
            json!({"command": ["rm", "-rf", "a b"]}),
        );
        assert_eq!(argv.reading(), Reading::Shell("rm -rf 'a b'".into()));
        let github = call("github", "create_issue", json!({"title": "DROP TABLE x"}));
        assert_eq!(github.reading(), Reading::Named);
        let unknown = call("notes", "search", json!({"query": "DROP TABLE x"}));
        assert_eq!(unknown.reading(), Reading::Named);
    }

    #[test]
    fn a_shown_call_names_its_tool() {
        let shown = ToolUse::Mcp(call("pg", "query", json!({"sql": "x"}))).display();
        assert_eq!(shown_tool(&shown), Some("pg/query"));
        let patch = ToolUse::Patch("*** Delete File: a".into()).display();
        assert_eq!(shown_tool(&patch), Some("apply_patch"));
        assert_eq!(shown_tool("mcp --help"), None);
        assert_eq!(shown_tool("git status"), None);
    }

    #[test]
    fn a_shown_call_is_clipped() {
        let long = call("postgres", "query", json!({"sql": "x".repeat(1000)}));
        let shown = ToolUse::Mcp(long).display();
        assert!(shown.starts_with("mcp postgres/query {\"sql\":\"xxx"));
        assert!(shown.len() < 500);
    }
}
