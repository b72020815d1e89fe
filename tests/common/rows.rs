//! Tables whose rows each name a command, the verdict it must get, the rule and the words its
//! reason must hold, and what to build before it runs: one reading of their common keys, so
//! that each table adds only its own.

use serde_json::{Map, Value};

use super::{Sandbox, clip, fail_if_any, par_map, read_jsonl, rule_ids, test_file};

/// The keys every such row has.
const COMMON: [&str; 5] = ["command", "expect", "rule", "reason", "note"];

/// One row: its place, its common keys read, and the whole object for the table's own keys.
pub struct VerdictRow {
    pub at: String,
    pub command: String,
    pub expect: String,
    pub rule: Option<String>,
    pub reason: Option<String>,
    pub object: Map<String, Value>,
}

impl VerdictRow {
    /// The files of `key`, an object of path to text.
    pub fn files(&self, key: &str) -> Result<Vec<(String, String)>, String> {
        self.object[key]
            .as_object()
            .ok_or(format!("{key} must be an object"))?
            .iter()
            .map(|(path, text)| {
                text.as_str()
                    .map(|t| (path.clone(), t.to_string()))
                    .ok_or_else(|| format!("{key} file {path} must be a string"))
            })
            .collect()
    }
}

/// Every row of `tests/<dir>/*.jsonl`, whose keys are the common ones and `own`, made into a
/// case by `case`; the test fails listing every line that is not a valid row.
pub fn verdict_rows<T>(
    dir: &str,
    own: &[&str],
    case: impl Fn(VerdictRow) -> Result<T, String>,
) -> Vec<T> {
    let folder = test_file(dir);
    let mut paths: Vec<_> = std::fs::read_dir(&folder)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", folder.display()))
        .map(|entry| entry.expect("read a table folder").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "jsonl"))
        .collect();
    paths.sort();
    let ids = rule_ids();
    let mut cases = Vec::new();
    let mut errors = Vec::new();
    for path in &paths {
        let name = path.file_name().expect("a file name").to_string_lossy();
        for (line, value) in read_jsonl(path) {
            let at = format!("tests/{dir}/{name}:{line}");
            match value
                .and_then(|v| read(v, at.clone(), own, &ids))
                .and_then(&case)
            {
                Ok(case) => cases.push(case),
                Err(e) => errors.push(format!("{at}: {e}")),
            }
        }
    }
    fail_if_any(&format!("invalid lines in tests/{dir}"), &errors);
    cases
}

fn read(value: Value, at: String, own: &[&str], ids: &[&str]) -> Result<VerdictRow, String> {
    let Value::Object(object) = value else {
        return Err("not a JSON object".into());
    };
    let known = |k: &str| COMMON.contains(&k) || own.contains(&k);
    if let Some(key) = object.keys().find(|k| !known(k)) {
        return Err(format!("unknown key {key:?}"));
    }
    if let Some(key) = COMMON.iter().chain(own).find(|k| !object.contains_key(**k)) {
        return Err(format!("missing key {key:?}"));
    }
    let text = |key: &str| -> Result<Option<String>, String> {
        match &object[key] {
            Value::Null => Ok(None),
            Value::String(s) if !s.is_empty() => Ok(Some(s.clone())),
            _ => Err(format!("{key} must be a non-empty string or null")),
        }
    };
    let command = text("command")?.ok_or("command is required")?;
    let expect = text("expect")?.filter(|e| e == "allow" || e == "deny");
    let expect = expect.ok_or("expect must be allow or deny")?;
    text("note")?.ok_or("note is required")?;
    let rule = text("rule")?;
    if (expect == "deny") != rule.is_some() {
        return Err("a deny names its rule, an allow has rule null".into());
    }
    if let Some(rule) = &rule
        && !ids.contains(&rule.as_str())
    {
        return Err(format!("unknown rule {rule}"));
    }
    let reason = text("reason")?;
    Ok(VerdictRow {
        at,
        command,
        expect,
        rule,
        reason,
        object,
    })
}

/// A rule id and the reason it gave.
pub type Found = (String, String);

/// `agent-guard check --json --profile standard -- command` in a fresh folder holding
/// `files` (one that starts with `#!` executable, a program the line may run by its path),
/// with the context setting `context` when given: the decision, and each finding's rule and
/// reason.
pub fn check_in_folder(
    files: &[(String, String)],
    command: &str,
    context: Option<&str>,
) -> Result<(String, Vec<Found>), String> {
    let sandbox = Sandbox::new();
    for (path, text) in files {
        let full = sandbox.cwd().join(path);
        if let Some(parent) = full.parent() {
            std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
        }
        std::fs::write(&full, text).map_err(|e| e.to_string())?;
        #[cfg(unix)]
        if text.starts_with("#!") {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&full, std::fs::Permissions::from_mode(0o755))
                .map_err(|e| e.to_string())?;
        }
    }
    let mut check = sandbox.command();
    if let Some(context) = context {
        check.env("AGENT_GUARD_CONTEXT", context);
    }
    let out = check
        .args(["check", "--json", "--profile", "standard", "--", command])
        .output()
        .map_err(|e| format!("could not run agent-guard: {e}"))?;
    let value: Value = serde_json::from_slice(&out.stdout).map_err(|e| {
        format!(
            "stdout is not JSON ({e}): {}",
            clip(&String::from_utf8_lossy(&out.stdout), 300)
        )
    })?;
    let decision = value["decision"].as_str().unwrap_or("").to_string();
    let findings = value["findings"]
        .as_array()
        .map(|all| {
            all.iter()
                .map(|f| {
                    (
                        f["rule"].as_str().unwrap_or("").to_string(),
                        f["reason"].as_str().unwrap_or("").to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    Ok((decision, findings))
}

/// What is wrong with a verdict (`decision` and its findings) against what a row expects:
/// the decision, then the rule among the findings, then words of that rule's reason.
pub fn mismatch(
    expect: &str,
    rule: Option<&str>,
    reason: Option<&str>,
    decision: &str,
    findings: &[Found],
) -> Option<String> {
    let rules: Vec<&str> = findings.iter().map(|(r, _)| r.as_str()).collect();
    if decision != expect {
        return Some(format!("expected {expect}, got {decision} {rules:?}"));
    }
    let rule = rule?;
    match findings.iter().find(|(r, _)| r == rule) {
        None => Some(format!("expected rule {rule}, got {rules:?}")),
        Some((_, given)) => reason
            .filter(|want| !given.contains(want))
            .map(|want| format!("reason lacks {want:?}: {given}")),
    }
}

/// A row of a table whose rows build a folder of `files` and run their command there.
pub struct FolderCase {
    pub at: String,
    pub files: Vec<(String, String)>,
    pub command: String,
    pub expect: String,
    pub rule: Option<String>,
    pub reason: Option<String>,
}

impl FolderCase {
    /// Its verdict in its folder, with the context setting `context` when given.
    pub fn run(&self, context: Option<&str>) -> Result<(String, Vec<Found>), String> {
        check_in_folder(&self.files, &self.command, context)
    }
}

/// Every row of `tests/<dir>/*.jsonl`, a folder table's (the common keys and `files`), with
/// at least `least` stops and as many passes.
pub fn folder_cases(dir: &str, least: usize) -> Vec<FolderCase> {
    let cases = verdict_rows(dir, &["files"], |row| {
        Ok(FolderCase {
            files: row.files("files")?,
            at: row.at,
            command: row.command,
            expect: row.expect,
            rule: row.rule,
            reason: row.reason,
        })
    });
    let count = |expect: &str| cases.iter().filter(|c| c.expect == expect).count();
    assert!(
        count("deny") >= least && count("allow") >= least,
        "tests/{dir} needs at least {least} stops and {least} passes"
    );
    cases
}

/// Fails listing every case whose verdict, with the context setting `context`, is not the
/// one it expects.
pub fn check_folder_cases(title: &str, cases: &[FolderCase], context: Option<&str>) {
    let failures: Vec<String> = par_map(cases, |case| {
        let wrong = match case.run(context) {
            Ok((decision, findings)) => mismatch(
                &case.expect,
                case.rule.as_deref(),
                case.reason.as_deref(),
                &decision,
                &findings,
            ),
            Err(e) => Some(e),
        };
        wrong.map(|w| format!("{}: `{}`: {w}", case.at, case.command))
    })
    .into_iter()
    .flatten()
    .collect();
    fail_if_any(title, &failures);
}
