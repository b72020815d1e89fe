//! Table-driven policy cases: every line of tests/cases/*.jsonl is one command with the
//! verdict the rules alone must give (context off), run through
//! `agent-guard check --json --profile P -- CMD` in an empty temp cwd.
//!
//! Line format (all keys required, no others):
//! `{"command": "...", "profile": "standard"|"strict"|"both", "expect": "allow"|"deny",
//!   "rule": "<rule id>"|null, "note": "why"}`; a deny names a rule that must be among the
//! findings, an allow has `rule: null`. The table also guards its own size and balance
//! (enough cases, enough allows, every rule id stopped somewhere) so it cannot silently shrink
//! into a suite that only checks that things get blocked.

mod common;

use std::collections::HashMap;

use common::{
    clip, fail_if_any, par_map, read_jsonl, rule_ids, rule_stops_alone, run_check, test_file,
};
use serde_json::Value;

const MIN_CASES: usize = 450;
const MIN_ALLOW_SHARE: f64 = 0.40;
const KEYS: [&str; 5] = ["command", "profile", "expect", "rule", "note"];

/// One validated line of a case file.
struct Case {
    /// `tests/cases/<file>:<line>`.
    at: String,
    command: String,
    profiles: &'static [&'static str],
    /// `allow` or `deny`.
    expect: &'static str,
    rule: Option<String>,
}

/// Reads and validates every case file; panics listing every invalid line.
fn load_cases() -> Vec<Case> {
    let dir = test_file("cases");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|entry| entry.expect("read tests/cases").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "jsonl"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no tests/cases/*.jsonl files");

    let mut cases = Vec::new();
    let mut errors = Vec::new();
    let mut seen: HashMap<(String, &str), String> = HashMap::new();
    for path in &files {
        let name = path.file_name().expect("a file name").to_string_lossy();
        for (line, value) in read_jsonl(path) {
            let at = format!("tests/cases/{name}:{line}");
            match value.and_then(|value| parse_case(&value, at.clone())) {
                Ok(case) => {
                    let firsts: Vec<String> = case
                        .profiles
                        .iter()
                        .filter_map(|p| seen.insert((case.command.clone(), p), at.clone()))
                        .collect();
                    if let Some(first) = firsts.first() {
                        errors.push(format!("{at}: same command and profile as {first}"));
                    }
                    cases.push(case);
                }
                Err(e) => errors.push(format!("{at}: {e}")),
            }
        }
    }
    fail_if_any("invalid case lines", &errors);
    cases
}

fn parse_case(value: &Value, at: String) -> Result<Case, String> {
    let object = value.as_object().ok_or("not a JSON object")?;
    if let Some(key) = object.keys().find(|key| !KEYS.contains(&key.as_str())) {
        return Err(format!("unknown key {key:?}"));
    }
    if let Some(key) = KEYS.iter().find(|key| !object.contains_key(**key)) {
        return Err(format!("missing key {key:?}"));
    }
    let text = |key: &str| object[key].as_str().filter(|s| !s.trim().is_empty());
    let command = text("command").ok_or("command must be a non-empty string")?;
    text("note").ok_or("note must be a non-empty string")?;
    let profiles: &'static [&'static str] = match object["profile"].as_str() {
        Some("standard") => &["standard"],
        Some("strict") => &["strict"],
        Some("both") => &["standard", "strict"],
        _ => {
            let other = &object["profile"];
            return Err(format!(
                "profile must be standard, strict or both, not {other}"
            ));
        }
    };
    let (expect, rule) = match (object["expect"].as_str(), &object["rule"]) {
        (Some("allow"), Value::Null) => ("allow", None),
        (Some("allow"), rule) => return Err(format!("an allow case has rule null, not {rule}")),
        (Some("deny"), Value::String(rule)) if rule_ids().contains(&rule.as_str()) => {
            ("deny", Some(rule.clone()))
        }
        (Some("deny"), rule) => {
            return Err(format!("a deny case needs a known rule id, not {rule}"));
        }
        _ => {
            let other = &object["expect"];
            return Err(format!("expect must be allow or deny, not {other}"));
        }
    };
    let strict_only = ["fs.rm-any", "shell.dynamic-command"];
    if rule.as_deref().is_some_and(|r| strict_only.contains(&r)) && profiles != ["strict"] {
        return Err(format!(
            "{} is reported in the strict profile only",
            rule.unwrap_or_default()
        ));
    }
    Ok(Case {
        at,
        command: command.to_owned(),
        profiles,
        expect,
        rule,
    })
}

#[test]
fn table_is_big_and_balanced() {
    let cases = load_cases();
    let allows = cases.iter().filter(|case| case.expect == "allow").count();
    assert!(
        cases.len() >= MIN_CASES,
        "only {} cases in tests/cases (at least {MIN_CASES})",
        cases.len()
    );
    assert!(
        allows as f64 >= MIN_ALLOW_SHARE * cases.len() as f64,
        "only {allows} of {} cases are allow (at least {:.0}%)",
        cases.len(),
        MIN_ALLOW_SHARE * 100.0
    );
    let unstopped: Vec<String> = rule_ids()
        .into_iter()
        .filter(|id| rule_stops_alone(id))
        .filter(|id| !cases.iter().any(|case| case.rule.as_deref() == Some(*id)))
        .map(|id| format!("{id} has no deny case"))
        .collect();
    fail_if_any("rule ids never exercised", &unstopped);
}

#[test]
fn table_cases_pass() {
    let cases = load_cases();
    let jobs: Vec<(&Case, &str)> = cases
        .iter()
        .flat_map(|case| case.profiles.iter().map(move |profile| (case, *profile)))
        .collect();
    let failures: Vec<String> = par_map(&jobs, |(case, profile)| {
        let why = match run_check(profile, &case.command) {
            Err(broken) => broken,
            Ok(got) => {
                let rule_ok = case
                    .rule
                    .as_ref()
                    .is_none_or(|rule| got.rules.contains(rule));
                if got.decision == case.expect && rule_ok {
                    return None;
                }
                format!("got {} {:?}", got.decision, got.rules)
            }
        };
        Some(format!(
            "{} [{profile}] {:?}: expected {} {}, {why}",
            case.at,
            clip(&case.command, 160),
            case.expect,
            case.rule.as_deref().unwrap_or(""),
        ))
    })
    .into_iter()
    .flatten()
    .collect();
    fail_if_any(&format!("table cases ({} runs)", jobs.len()), &failures);
}
