//! The team's own rules (`[[deny]]`, `[[ask]]`), through the real binary.
//!
//! `tests/cases-team/rules.jsonl` is the table: each line a command with the decision it must
//! get (`deny`, `ask`, `allow`) and the rule that must be among the findings, run by
//! `agent-guard check --json` in a sandbox whose `.agent-guard.toml` is the three rule sets
//! shipped in `docs/team-rules/`, and whose user `config.toml` adds one more rule. An allowed
//! line must have no finding at all. The table guards its own size and balance, and every
//! rule of the sets must stop something.

mod common;

use std::path::Path;

use common::{Sandbox, clip, fail_if_any, git, git_commit, par_map, read_jsonl, test_file};
use serde_json::Value;

const MIN_STOPS: usize = 20;
const MIN_PASSES: usize = 20;
const SETS: [&str; 3] = ["infrastructure", "deploy", "data"];

fn set_text(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs/team-rules")
        .join(format!("{name}.toml"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

const USER_RULES: &str = "[[ask]]\nid = \"team.docker-prune\"\nreason = \"images here take an hour to build again\"\ncommand = \"docker system prune **\"\n";

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("a parent")).expect("create folders");
    std::fs::write(path, text).expect("write a file");
}

/// A repository folder (only `.git` is needed to find the project file) with the rule sets
/// and the files the table's commands name.
fn sandbox() -> Sandbox {
    let sandbox = Sandbox::new();
    let work = sandbox.cwd();
    std::fs::create_dir_all(work.join(".git")).expect("create .git");
    let sets: Vec<String> = SETS.iter().map(|s| set_text(s)).collect();
    write(&work.join(".agent-guard.toml"), &sets.join("\n"));
    write(
        &sandbox.home().join(".config/agent-guard/config.toml"),
        USER_RULES,
    );
    write(&work.join("data/raw.csv"), "id,answer\n1,yes\n");
    write(&work.join("app.sqlite"), "SQLite format 3\0");
    write(&work.join("tests/fixtures/api.json"), "{}\n");
    write(
        &work.join("Makefile"),
        "apply:\n\tterraform apply -auto-approve\n",
    );
    write(
        &work.join("package.json"),
        "{\"scripts\": {\"release\": \"npm publish --access public\"}}\n",
    );
    write(&work.join("scripts/deploy.sh"), "#!/bin/sh\n");
    sandbox
}

/// `check --json` of `command`: the decision and each finding's rule and tier.
fn check(sandbox: &Sandbox, command: &str) -> Result<(String, Vec<(String, String)>), String> {
    let out = sandbox
        .command()
        .args(["check", "--json", "--", command])
        .output()
        .map_err(|e| format!("could not run agent-guard: {e}"))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !stderr.trim().is_empty() {
        return Err(format!("stderr: {}", clip(&stderr, 300)));
    }
    let value: Value = serde_json::from_slice(&out.stdout)
        .map_err(|e| format!("stdout is not JSON ({e}): {:?}", out.stdout))?;
    let decision = value["decision"].as_str().unwrap_or_default().to_string();
    let findings = value["findings"]
        .as_array()
        .map(|all| {
            all.iter()
                .map(|f| {
                    let text = |k: &str| f[k].as_str().unwrap_or_default().to_string();
                    (text("rule"), text("tier"))
                })
                .collect()
        })
        .unwrap_or_default();
    let want_code = if decision == "allow" { 0 } else { 1 };
    if out.status.code() != Some(want_code) {
        return Err(format!("{decision} exited {:?}", out.status.code()));
    }
    Ok((decision, findings))
}

struct Row {
    at: String,
    command: String,
    expect: String,
    rule: Option<String>,
}

fn rows() -> Vec<Row> {
    let path = test_file("cases-team/rules.jsonl");
    let mut rows = Vec::new();
    for (line, value) in read_jsonl(&path) {
        let at = format!("tests/cases-team/rules.jsonl:{line}");
        let value = value.unwrap_or_else(|e| panic!("{at}: {e}"));
        let text = |k: &str| value[k].as_str().map(str::to_string);
        let expect = text("expect").unwrap_or_else(|| panic!("{at}: no expect"));
        assert!(
            matches!(expect.as_str(), "deny" | "ask" | "allow"),
            "{at}: expect {expect:?}"
        );
        let rule = text("rule");
        assert_eq!(
            rule.is_none(),
            expect == "allow",
            "{at}: a stop names its rule, a pass none"
        );
        assert!(text("note").is_some_and(|n| !n.is_empty()), "{at}: no note");
        let command = text("command").unwrap_or_else(|| panic!("{at}: no command"));
        rows.push(Row {
            at,
            command,
            expect,
            rule,
        });
    }
    rows
}

#[test]
fn the_table_of_team_rules() {
    let rows = rows();
    let stops = rows.iter().filter(|r| r.expect != "allow").count();
    let passes = rows.len() - stops;
    assert!(
        stops >= MIN_STOPS && passes >= MIN_PASSES,
        "the table needs {MIN_STOPS} stops and {MIN_PASSES} passes, has {stops} and {passes}"
    );
    let sandbox = sandbox();
    let results = par_map(&rows, |row| check(&sandbox, &row.command));
    let mut failures = Vec::new();
    for (row, result) in rows.iter().zip(&results) {
        let (decision, findings) = match result {
            Ok(verdict) => verdict,
            Err(e) => {
                failures.push(format!("{}: `{}`: {e}", row.at, row.command));
                continue;
            }
        };
        let wrong = if *decision != row.expect {
            Some(format!("{decision}, expected {}", row.expect))
        } else if let Some(rule) = &row.rule {
            let tier = match row.expect.as_str() {
                "ask" => "ask",
                _ => "protected",
            };
            let found = findings
                .iter()
                .any(|(r, t)| r == rule && (!rule.starts_with("team.") || t == tier));
            (!found).then(|| format!("no {rule} ({tier}) among {findings:?}"))
        } else {
            (!findings.is_empty()).then(|| format!("findings {findings:?}"))
        };
        if let Some(wrong) = wrong {
            failures.push(format!("{}: `{}`: {wrong}", row.at, row.command));
        }
    }
    // Every rule of the sets (and the user file's) stops something in the table.
    let mut ids: Vec<String> = SETS
        .iter()
        .flat_map(|s| {
            set_text(s)
                .lines()
                .filter_map(|l| l.strip_prefix("id = \""))
                .map(|l| l.trim_end_matches('"').to_string())
                .collect::<Vec<_>>()
        })
        .collect();
    ids.push("team.docker-prune".into());
    for id in ids {
        if !rows.iter().any(|r| r.rule.as_deref() == Some(&id)) {
            failures.push(format!("{id} stops nothing in the table"));
        }
    }
    fail_if_any("team rules", &failures);
}

/// The table of `docs/team-rules/README.md` is the case file's, row for row (regenerate with
/// `AGENT_GUARD_BLESS=1 cargo test --test team_rules`).
#[test]
fn the_docs_table_is_the_case_table() {
    let mut table = String::from("| command | decision | rule | spelling |\n|---|---|---|---|\n");
    let path = test_file("cases-team/rules.jsonl");
    for (line, value) in read_jsonl(&path) {
        let value = value.unwrap_or_else(|e| panic!("line {line}: {e}"));
        let cell = |k: &str| value[k].as_str().unwrap_or("").replace('|', "\\|");
        let rule = match cell("rule") {
            r if r.is_empty() => "—".to_string(),
            r => format!("`{r}`"),
        };
        table.push_str(&format!(
            "| `{}` | {} | {rule} | {} |\n",
            cell("command"),
            cell("expect"),
            cell("note")
        ));
    }
    let doc = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/team-rules/README.md");
    let text = std::fs::read_to_string(&doc).expect("read docs/team-rules/README.md");
    let (start, end) = ("<!-- table -->\n", "<!-- /table -->");
    let from = text.find(start).expect("the table's start marker") + start.len();
    let to = text.find(end).expect("the table's end marker");
    if std::env::var_os("AGENT_GUARD_BLESS").is_some() {
        let blessed = format!("{}{table}{}", &text[..from], &text[to..]);
        std::fs::write(&doc, blessed).expect("write docs/team-rules/README.md");
        return;
    }
    assert_eq!(
        &text[from..to],
        table,
        "docs/team-rules/README.md: regenerate with AGENT_GUARD_BLESS=1 cargo test --test team_rules"
    );
}

/// `config --json` in a sandbox whose project file is `text`.
fn config(text: &str) -> Value {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.cwd().join(".git")).expect("create .git");
    write(&sandbox.cwd().join(".agent-guard.toml"), text);
    let out = sandbox
        .command()
        .args(["config", "--json"])
        .output()
        .expect("run agent-guard config");
    serde_json::from_slice(&out.stdout).expect("config --json prints JSON")
}

#[test]
fn each_rule_set_in_docs_parses() {
    for name in SETS {
        let text = set_text(name);
        let value = config(&text);
        assert_eq!(value["problems"], Value::Array(Vec::new()), "{name}.toml");
        let rules = value["settings"]["team"]["value"]
            .as_array()
            .expect("team rules listed");
        let declared = text
            .lines()
            .filter(|l| matches!(l.trim(), "[[deny]]" | "[[ask]]"))
            .count();
        assert!(declared > 0, "{name}.toml declares no rule");
        assert_eq!(rules.len(), declared, "{name}.toml: {rules:?}");
        for rule in rules {
            let from = rule["from"].as_str().expect("from");
            assert!(from.contains(".agent-guard.toml:"), "{from}");
        }
    }
}

#[test]
fn a_bad_pattern_is_reported_by_file_and_line_and_the_rest_applies() {
    let text = "[[deny]]\nid = \"team.data\"\nreason = \"raw data\"\npath = \"data/**\"\n\n\
                [[deny]]\nid = \"team.broken\"\nreason = \"x\"\npath = \"logs/[2026\"\n\n\
                [[ask]]\nid = \"no prefix!\"\nreason = \"y\"\ncommand = \"make deploy\"\n\n\
                [[ask]]\nid = \"team.deploy\"\nreason = \"ships\"\ncommand = \"make deploy **\"\n";
    let value = config(text);
    let problems: Vec<&str> = value["problems"]
        .as_array()
        .expect("problems")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(
        problems[0].contains(".agent-guard.toml:9: deny[2].path:"),
        "{problems:?}"
    );
    assert!(
        problems[1].contains(".agent-guard.toml:12: ask[1].id:"),
        "{problems:?}"
    );
    let rules = value["settings"]["team"]["value"]
        .as_array()
        .expect("rules");
    let ids: Vec<&str> = rules.iter().filter_map(|r| r["id"].as_str()).collect();
    assert_eq!(ids, ["team.data", "team.deploy"]);
    assert!(
        rules[1]["from"]
            .as_str()
            .is_some_and(|f| f.ends_with(".agent-guard.toml:16"))
    );

    // The rules that read still stop, and the problem is told on every call.
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.cwd().join(".git")).expect("create .git");
    write(&sandbox.cwd().join(".agent-guard.toml"), text);
    let out = sandbox
        .command()
        .args(["check", "--", "rm -rf data"])
        .output()
        .expect("run check");
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("[team.data]"), "{stdout}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("deny[2].path"), "{stderr}");
}

#[test]
fn explain_and_config_show_a_team_rule_with_its_file_and_line() {
    let sandbox = sandbox();
    let out = sandbox
        .command()
        .args(["explain", "team.data"])
        .output()
        .expect("run explain");
    let page = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{page}");
    assert!(page.contains("path = \"data/**\""), "{page}");
    assert!(page.contains(".agent-guard.toml:"), "{page}");
    assert!(page.contains("raw survey exports"), "{page}");

    let out = sandbox
        .command()
        .args(["explain", "team.nothing-here"])
        .output()
        .expect("run explain");
    assert_eq!(out.status.code(), Some(2));

    let out = sandbox
        .command()
        .arg("config")
        .output()
        .expect("run config");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.lines().any(|l| l.starts_with("ask")
            && l.contains("team.docker-prune")
            && l.contains("config.toml:1]")),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with("deny") && l.contains("team.terraform-apply")),
        "{text}"
    );
}

/// With the repository consulted, a built-in finding the context clears (the folder is
/// tracked and clean) is gone, and the team's rule still stops the command.
#[test]
fn a_team_rule_stands_where_the_context_clears_the_built_in_one() {
    let sandbox = Sandbox::new();
    let work = sandbox.cwd();
    git(&work, &["init", "-q"]);
    write(&work.join("data/raw.csv"), "id\n1\n");
    git(&work, &["add", "data"]);
    git_commit(&work, "data");
    write(&work.join(".agent-guard.toml"), &set_text("data"));
    let out = sandbox
        .command()
        .env("AGENT_GUARD_CONTEXT", "on")
        .args(["check", "--json", "--", "rm -rf data"])
        .output()
        .expect("run check");
    let value: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(value["decision"], "deny", "{value}");
    let rules: Vec<&str> = value["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter_map(|f| f["rule"].as_str())
        .collect();
    assert_eq!(rules, ["team.data"], "{value}");
    let cleared = value["cleared"].as_array().expect("cleared");
    assert!(
        cleared.iter().any(|c| c["rule"] == "fs.rm-recursive"),
        "{value}"
    );
}
