//! SQL files a database client runs: every line of tests/cases-sqlfiles/*.jsonl builds a
//! folder with the files it gives, runs `agent-guard check --json --profile standard -- CMD`
//! there with context on (the context reads the files), and checks the verdict, the rule and
//! the reason, which names the file and line of the statement that destroys.
//!
//! Line format (all keys required, no others):
//! `{"files": {"<path>": "<text>", ...}, "command": "...", "expect": "allow"|"deny",
//!   "rule": "<rule id>"|null, "reason": "<text the reason must hold>"|null, "note": "why"}`.

mod common;

use common::rows::{Found, check_in_folder, mismatch, verdict_rows};
use common::{fail_if_any, par_map};

const MIN_EACH: usize = 10;

struct Case {
    at: String,
    files: Vec<(String, String)>,
    command: String,
    expect: String,
    rule: Option<String>,
    reason: Option<String>,
}

fn load() -> Vec<Case> {
    verdict_rows("cases-sqlfiles", &["files"], |row| {
        Ok(Case {
            files: row.files("files")?,
            at: row.at,
            command: row.command,
            expect: row.expect,
            rule: row.rule,
            reason: row.reason,
        })
    })
}

/// The verdict in the folder the case builds, with context `on` or `off`: the decision, and
/// each finding's rule and reason.
fn run(case: &Case, context: &str) -> Result<(String, Vec<Found>), String> {
    check_in_folder(&case.files, &case.command, Some(context))
}

#[test]
fn sql_files_are_judged_by_the_statements_they_hold() {
    let cases = load();
    let count = |expect: &str| cases.iter().filter(|c| c.expect == expect).count();
    assert!(
        count("deny") >= MIN_EACH && count("allow") >= MIN_EACH,
        "the SQL file table needs at least {MIN_EACH} stops and {MIN_EACH} passes"
    );
    let failures: Vec<String> = par_map(&cases, |case| {
        let (decision, findings) = match run(case, "on") {
            Ok(verdict) => verdict,
            Err(e) => return Some(format!("{}: `{}`: {e}", case.at, case.command)),
        };
        let wrong = mismatch(
            &case.expect,
            case.rule.as_deref(),
            case.reason.as_deref(),
            &decision,
            &findings,
        );
        wrong.map(|w| format!("{}: `{}`: {w}", case.at, case.command))
    })
    .into_iter()
    .flatten()
    .collect();
    fail_if_any("SQL file cases", &failures);
}

/// Only the context reads a file: with it off, a client running one passes.
#[test]
fn with_context_off_a_file_is_not_read() {
    let cases = load();
    let files: Vec<&Case> = cases
        .iter()
        .filter(|c| c.rule.as_deref() == Some("db.sql-file") && !c.command.contains("<<"))
        .collect();
    let failures: Vec<String> = par_map(&files, |case| match run(case, "off") {
        Ok((decision, _)) if decision == "allow" => None,
        Ok((decision, findings)) => Some(format!(
            "{}: `{}`: context off, got {decision} {findings:?}",
            case.at, case.command
        )),
        Err(e) => Some(format!("{}: {e}", case.at)),
    })
    .into_iter()
    .flatten()
    .collect();
    fail_if_any("SQL file cases with context off", &failures);
}
