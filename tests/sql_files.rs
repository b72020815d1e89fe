//! SQL files a database client runs: every line of tests/cases-sqlfiles/*.jsonl builds a
//! folder with the files it gives, runs `agent-guard check --json --profile standard -- CMD`
//! there with context on (the context reads the files), and checks the verdict, the rule and
//! the reason, which names the file and line of the statement that destroys.
//!
//! Line format (all keys required, no others):
//! `{"files": {"<path>": "<text>", ...}, "command": "...", "expect": "allow"|"deny",
//!   "rule": "<rule id>"|null, "reason": "<text the reason must hold>"|null, "note": "why"}`.

mod common;

use common::rows::{FolderCase, check_folder_cases, folder_cases};
use common::{fail_if_any, par_map};

const MIN_EACH: usize = 10;

#[test]
fn sql_files_are_judged_by_the_statements_they_hold() {
    let cases = folder_cases("cases-sqlfiles", MIN_EACH);
    check_folder_cases("SQL file cases", &cases, Some("on"));
}

/// Only the context reads a file: with it off, a client running one passes.
#[test]
fn with_context_off_a_file_is_not_read() {
    let cases = folder_cases("cases-sqlfiles", MIN_EACH);
    let files: Vec<&FolderCase> = cases
        .iter()
        .filter(|c| c.rule.as_deref() == Some("db.sql-file") && !c.command.contains("<<"))
        .collect();
    let failures: Vec<String> = par_map(&files, |case| match case.run(Some("off")) {
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
