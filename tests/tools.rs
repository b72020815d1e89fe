//! Tools that are not the shell, judged through the library: the MCP table
//! (tests/cases-tools/mcp.jsonl, one server tool call a line, context off) and the file tools
//! table (tests/cases-tools/file-tools.jsonl: Codex's `apply_patch`, the MCP filesystem
//! server's writes and the hosts' own file tools, each in a fresh git repository holding the
//! files the line names).
//!
//! MCP lines: `{"server", "tool", "input", "expect": "allow"|"deny", "rule": id|null, "note"}`;
//! a host's MCP call has `"host"` and `"fixture"` (its payload under tests/fixtures, which holds
//! the input) instead of `"input"`, and must read as that server's tool with `--host` and
//! without it.
//! File lines: `{"tool": "apply_patch"|"<server>/<tool>", "patch" or "input", "committed",
//! "modified", "untracked" (file name to text), "expect", "rule", "note"}`; a host's own tool
//! has `"host"` and `"fixture"` (a payload under tests/fixtures) instead of `"tool"`. A deny names a
//! rule that must be among the findings (or null for any); an allow passes with none.

mod common;

use std::path::Path;

use agent_guard::host::{Host, decode_file_edit, decode_tool};
use agent_guard::policy::{Channel, Decision, Verdict};
use agent_guard::settings::Settings;
use agent_guard::tools::{McpUse, ToolUse};
use common::{fail_if_any, read_jsonl, test_file};
use serde_json::{Map, Value};

fn text<'a>(row: &'a Value, key: &str) -> &'a str {
    row.get(key).and_then(Value::as_str).unwrap_or_default()
}

fn object(row: &Value, key: &str) -> Map<String, Value> {
    row.get(key)
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default()
}

/// Whether `verdict` is what `row` expects; the failure to report if not.
fn check(at: &str, row: &Value, verdict: &Verdict) -> Option<String> {
    let stopped = verdict.decision != Decision::Allow;
    let rule = row.get("rule").and_then(Value::as_str);
    let ok = match text(row, "expect") {
        "deny" => stopped && rule.is_none_or(|r| verdict.findings.iter().any(|f| f.rule.id == r)),
        "allow" => !stopped,
        other => return Some(format!("{at}: expect {other:?}")),
    };
    (!ok).then(|| {
        let found: Vec<&str> = verdict.findings.iter().map(|f| f.rule.id).collect();
        format!(
            "{at}: want {} {rule:?} ({}), got {:?} {found:?}: {}",
            text(row, "expect"),
            text(row, "note"),
            verdict.decision,
            verdict.reason.lines().next().unwrap_or_default()
        )
    })
}

fn mcp(server: &str, tool: &str, input: Map<String, Value>) -> ToolUse {
    ToolUse::Mcp(McpUse {
        server: server.into(),
        tool: tool.into(),
        input,
    })
}

#[test]
fn mcp_calls_table() {
    let settings = Settings {
        context: false,
        ..Settings::default()
    };
    let rows = read_jsonl(&test_file("cases-tools/mcp.jsonl"));
    let mut failures = Vec::new();
    let mut servers = std::collections::BTreeSet::new();
    let mut passes = 0;
    for (line, row) in &rows {
        let at = format!("mcp.jsonl:{line}");
        let Ok(row) = row else {
            failures.push(format!("{at}: not JSON"));
            continue;
        };
        servers.insert(text(row, "server").to_string());
        passes += usize::from(text(row, "expect") == "allow");
        let call = match row.get("host") {
            Some(_) => match host_mcp_call(row) {
                Ok(call) => call,
                Err(why) => {
                    failures.push(format!("{at}: {why}"));
                    continue;
                }
            },
            None => mcp(text(row, "server"), text(row, "tool"), object(row, "input")),
        };
        let verdict = agent_guard::evaluate_tool(&call, None, &settings, Channel::default());
        failures.extend(check(&at, row, &verdict));
        if verdict.decision != Decision::Allow && !verdict.reason.starts_with("MCP tool ") {
            failures.push(format!(
                "{at}: a stop's reason names no tool: {}",
                verdict.reason
            ));
        }
    }
    assert!(
        rows.len() >= 60 && servers.len() >= 10,
        "{} rows over {} servers",
        rows.len(),
        servers.len()
    );
    assert!(
        passes * 2 >= rows.len(),
        "{passes} of {} rows pass",
        rows.len()
    );
    fail_if_any("MCP calls", &failures);
}

/// The MCP call in the row's fixture, as the row's host sends it: read with the host named
/// and without, both must give the row's server and tool.
fn host_mcp_call(row: &Value) -> Result<ToolUse, String> {
    let host = Host::from_name(text(row, "host")).ok_or("not a host")?;
    let fixture = test_file(&format!("fixtures/{}", text(row, "fixture")));
    let bytes = std::fs::read(&fixture).map_err(|e| format!("{}: {e}", fixture.display()))?;
    let read = |named: Option<Host>| {
        let call = decode_tool(&bytes, named).ok_or(format!("no MCP call read ({named:?})"))?;
        match call.what {
            ToolUse::Mcp(m) if m.server == text(row, "server") && m.tool == text(row, "tool") => {
                Ok(ToolUse::Mcp(m))
            }
            other => Err(format!("read as {} ({named:?})", other.name())),
        }
    };
    read(None)?;
    read(Some(host))
}

/// A fresh repository with `committed` files in a commit, then `modified` written over
/// them and `untracked` beside them.
fn world(dir: &Path, row: &Value) {
    let git = |args: &[&str]| {
        let status = std::process::Command::new("git")
            .args(args)
            .current_dir(dir)
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@e")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@e")
            .status()
            .expect("run git");
        assert!(status.success(), "git {args:?}");
    };
    let write = |files: Map<String, Value>| {
        for (name, body) in files {
            let path = dir.join(name);
            std::fs::create_dir_all(path.parent().expect("a folder")).expect("make a folder");
            std::fs::write(path, body.as_str().unwrap_or_default()).expect("write a file");
        }
    };
    git(&["init", "-q"]);
    let committed = object(row, "committed");
    if !committed.is_empty() {
        write(committed);
        git(&["add", "-A"]);
        git(&["commit", "-qm", "base"]);
    }
    write(object(row, "modified"));
    write(object(row, "untracked"));
}

/// A host's own file tool, as its payload (the row's fixture with the row's `input` as the
/// tool's arguments, `$REPO` standing for the repository) is decoded and judged: a whole-file
/// write on a host that cannot restore it is weighed by what it replaces; anything else passes.
fn host_file_tool(repo: &Path, row: &Value) -> Verdict {
    let host = Host::from_name(text(row, "host")).expect("a host name");
    let fixture = test_file(&format!("fixtures/{}", text(row, "fixture")));
    let mut payload: Value =
        serde_json::from_slice(&std::fs::read(&fixture).expect("read the fixture"))
            .expect("a JSON fixture");
    let input = Value::Object(object(row, "input"))
        .to_string()
        .replace("$REPO", &repo.display().to_string());
    let input: Value = serde_json::from_str(&input).expect("JSON input");
    let fields = payload.as_object_mut().expect("a JSON object");
    if fields.contains_key("tool_input") {
        fields.insert("tool_input".into(), input);
        fields.insert("cwd".into(), Value::from(repo.display().to_string()));
    } else {
        payload["preToolUse"]["parameters"] = input;
        payload["workspaceRoots"] = serde_json::json!([repo.display().to_string()]);
    }
    let bytes = payload.to_string().into_bytes();
    match decode_file_edit(&bytes, Some(host)).and_then(|edit| edit.replacing()) {
        Some(write) => {
            agent_guard::evaluate_tool(&write, Some(repo), &Settings::default(), Channel::default())
        }
        None => Verdict::allow(),
    }
}

#[test]
fn file_tools_table() {
    let rows = read_jsonl(&test_file("cases-tools/file-tools.jsonl"));
    let mut failures = Vec::new();
    let (mut stops, mut passes) = (0, 0);
    // Rows of each host's own tools: (host, whether a stop) to count.
    let mut by_host = std::collections::BTreeMap::new();
    for (line, row) in &rows {
        let at = format!("file-tools.jsonl:{line}");
        let Ok(row) = row else {
            failures.push(format!("{at}: not JSON"));
            continue;
        };
        let dir = tempfile::tempdir().expect("a temp dir");
        world(dir.path(), row);
        if let Some(host) = row.get("host").and_then(Value::as_str) {
            let expect = text(row, "expect");
            match expect {
                "deny" => stops += 1,
                _ => passes += 1,
            }
            *by_host
                .entry((host.to_string(), expect == "deny"))
                .or_insert(0) += 1;
            let verdict = host_file_tool(dir.path(), row);
            failures.extend(check(&at, row, &verdict));
            continue;
        }
        let call = match text(row, "tool") {
            "apply_patch" => ToolUse::Patch(text(row, "patch").to_string()),
            named => {
                let (server, tool) = named.split_once('/').expect("server/tool");
                mcp(server, tool, object(row, "input"))
            }
        };
        let verdict = agent_guard::evaluate_tool(
            &call,
            Some(dir.path()),
            &Settings::default(),
            Channel::default(),
        );
        match text(row, "expect") {
            "deny" => stops += 1,
            _ => passes += 1,
        }
        failures.extend(check(&at, row, &verdict));
    }
    assert!(
        stops >= 40 && passes >= 40,
        "{stops} stops, {passes} passes"
    );
    let host_count = |stop: bool| -> usize {
        by_host
            .iter()
            .filter(|((_, s), _)| *s == stop)
            .map(|(_, n)| *n)
            .sum()
    };
    assert!(
        host_count(true) >= 20 && host_count(false) >= 20,
        "host file tools: {by_host:?}"
    );
    // Every host whose file tools can stop has rows that pass as well.
    for (host, stop) in by_host.keys() {
        if *stop {
            assert!(
                by_host.contains_key(&(host.clone(), false)),
                "{host} has stops and no passes"
            );
        }
    }
    fail_if_any("file tools", &failures);
}

/// A stopped MCP call goes into the audit log as `mcp <server>/<tool> <input>`, and `stats`
/// counts it by server and tool.
#[test]
fn stopped_mcp_calls_are_audited_and_counted_by_tool() {
    let sandbox = common::Sandbox::new();
    let payload = serde_json::json!({
        "hook_event_name": "PreToolUse",
        "session_id": "s",
        "cwd": sandbox.cwd(),
        "tool_name": "mcp__postgres__query",
        "tool_input": {"sql": "DROP TABLE users"},
    });
    let out = sandbox
        .command()
        .args(["hook", "--host", "claude"])
        .write_stdin(payload.to_string())
        .output()
        .expect("run the hook");
    assert!(String::from_utf8_lossy(&out.stdout).contains("db.sql-drop"));
    let out = sandbox
        .command()
        .args(["stats", "--json"])
        .output()
        .expect("run stats");
    let stats: Value = serde_json::from_slice(&out.stdout).expect("stats --json");
    assert_eq!(stats["by_tool"]["postgres/query"], 1, "{stats}");
    assert_eq!(stats["by_rule"]["db.sql-drop"], 1, "{stats}");
}

/// Through the hook, Gemini CLI's `write_file` (its checkpointing is off unless set) stops
/// over the user's untracked file and passes over a file the agent itself made earlier in the
/// session (reported after the call, as install wires it), which the journal holds as its own.
#[test]
fn a_whole_file_write_is_weighed_by_whose_file_it_is() {
    let sandbox = common::Sandbox::new();
    let repo = sandbox.cwd();
    let git = std::process::Command::new("git")
        .args(["init", "-q"])
        .current_dir(&repo)
        .status()
        .expect("run git");
    assert!(git.success());
    std::fs::write(repo.join("notes.md"), "mine\n").expect("write the user's file");
    let call = |event: &str, name: &str| {
        let payload = serde_json::json!({
            "session_id": "s",
            "cwd": repo,
            "hook_event_name": event,
            "tool_name": "write_file",
            "tool_input": {"file_path": repo.join(name), "content": "x\n"},
        });
        let out = sandbox
            .command()
            .env("AGENT_GUARD_CONTEXT", "on")
            .args(["hook", "--host", "gemini"])
            .write_stdin(payload.to_string())
            .output()
            .expect("run the hook");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let stop = call("BeforeTool", "notes.md");
    assert!(
        stop.contains("deny") && stop.contains("fs.overwrite"),
        "{stop}"
    );
    assert_eq!(call("BeforeTool", "draft.md"), "", "a new file passes");
    std::fs::write(repo.join("draft.md"), "x\n").expect("the tool writes the file");
    assert_eq!(call("AfterTool", "draft.md"), "", "the write is reported");
    assert_eq!(
        call("BeforeTool", "draft.md"),
        "",
        "the agent's own file passes"
    );
}
