//! Recipes a task runner runs: every line of tests/cases-recipes/*.jsonl builds a folder with
//! the recipe files it gives, runs `agent-guard check --json --profile standard -- CMD` there
//! (context off), and checks the verdict, the rule and the reason.
//!
//! A file whose text starts with `#!` is made executable.
//!
//! Line format (all keys required, no others):
//! `{"files": {"<path>": "<text>", ...}, "command": "...", "expect": "allow"|"deny",
//!   "rule": "<rule id>"|null, "reason": "<text the reason must hold>"|null, "note": "why"}`.
//!
//! With context on, a recipe's commands are asked about the repository like any other.

mod common;
mod scratch;

use agent_guard::policy::Decision;
use agent_guard::settings::Settings;
use common::rows::{Found, check_in_folder, mismatch, verdict_rows};
use common::{fail_if_any, par_map};
use scratch::World;

const MIN_EACH: usize = 15;

struct Case {
    at: String,
    files: Vec<(String, String)>,
    command: String,
    expect: String,
    rule: Option<String>,
    reason: Option<String>,
}

fn load() -> Vec<Case> {
    verdict_rows("cases-recipes", &["files"], |row| {
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

/// The verdict in the folder the case builds: the decision, and each finding's rule and
/// reason.
fn run(case: &Case) -> Result<(String, Vec<Found>), String> {
    check_in_folder(&case.files, &case.command, None)
}

#[test]
fn recipes_are_judged_as_the_shell_they_hold() {
    let cases = load();
    let count = |expect: &str| cases.iter().filter(|c| c.expect == expect).count();
    assert!(
        count("deny") >= MIN_EACH && count("allow") >= MIN_EACH,
        "the recipe table needs at least {MIN_EACH} stops and {MIN_EACH} passes"
    );
    let failures: Vec<String> = par_map(&cases, |case| {
        let (decision, findings) = match run(case) {
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
    fail_if_any("recipe cases", &failures);
}

/// The recipe's commands meet the repository as written ones do: a hard reset in a script
/// passes on a clean tree and is stopped, naming the script, once there are edits to lose.
#[test]
fn recipe_commands_are_cleared_by_the_repository_they_run_in() {
    let world = World::repo();
    world.write(
        "package.json",
        br#"{"scripts": {"sync": "git reset --hard", "prune": "rm -rf coverage"}}"#,
    );
    world.write("Makefile", b"sync:\n\t@git reset --hard\n");
    world.commit("scripts");
    let judge =
        |command: &str| agent_guard::evaluate_in(command, Some(&world.repo), &Settings::default());
    for command in ["npm run sync", "make sync", "npm run prune"] {
        let verdict = judge(command);
        assert_eq!(
            verdict.decision,
            Decision::Allow,
            "{command}: {}",
            verdict.reason
        );
    }
    world.write("src/lib.rs", b"pub fn f() { edited() }\n");
    world.write("coverage/index.html", b"<html>\n");
    let verdict = judge("npm run sync");
    assert_eq!(verdict.decision, Decision::Deny);
    assert!(
        verdict
            .reason
            .contains("`npm run sync` runs `git reset --hard` (package.json scripts.sync)"),
        "{}",
        verdict.reason
    );
    assert_eq!(judge("make sync").decision, Decision::Deny);
    assert_eq!(judge("npm run prune").decision, Decision::Deny);
}
