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
use common::rows::{check_folder_cases, folder_cases};
use scratch::World;

const MIN_EACH: usize = 15;

#[test]
fn recipes_are_judged_as_the_shell_they_hold() {
    let cases = folder_cases("cases-recipes", MIN_EACH);
    check_folder_cases("recipe cases", &cases, None);
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
