//! Conformance: the real `agent-guard hook` must give the verdict recorded for every row of the
//! two data suites in tests/data (see tests/data/README.md):
//! - seed-suites.jsonl: the source systems' own cases, raw stdin bytes and extra environment
//!   included, judged under both profiles; `deny` rows must stay deny when
//!   AGENT_GUARD_ON_DESTRUCTIVE=ask.
//! - peer-suites.jsonl: two peer guards' cases (standard profile; out-of-scope rows skipped).
//!
//! Every run uses AGENT_GUARD_CONTEXT=off and a fresh empty cwd, and its stdout must honour
//! the hook contract. Each suite runs once per test binary (the runs are shared with the
//! rule-id test) and reports all failing rows at once.

mod common;

use std::path::Path;
use std::sync::OnceLock;

use common::{HookVerdict, clip, fail_if_any, par_map, read_jsonl, rule_ids, run_hook, test_file};
use serde_json::{Value, json};

const NO_ENV: [(&str, &str); 0] = [];

/// One run of one suite row under one profile.
struct Run {
    /// Where the row is: `seed row 11 (line 12)`, rows counted from 0.
    at: String,
    /// The command (or raw input) for a failure listing.
    label: String,
    profile: &'static str,
    /// `allow`, `stop` or `deny`.
    expect: String,
    got: Result<HookVerdict, String>,
    /// For `deny` rows only: the re-run with AGENT_GUARD_ON_DESTRUCTIVE=ask.
    got_when_ask: Option<Result<HookVerdict, String>>,
}

impl Run {
    /// Why this run does not meet its expectation, if it does not.
    fn failure(&self) -> Option<String> {
        let why = mismatch(&self.expect, &self.got).or_else(|| {
            let again = self.got_when_ask.as_ref()?;
            mismatch("deny", again).map(|why| format!("{why} with AGENT_GUARD_ON_DESTRUCTIVE=ask"))
        })?;
        Some(format!(
            "{} [{}] {}: expected {}, {why}",
            self.at, self.profile, self.label, self.expect
        ))
    }
}

/// `None` when `got` satisfies `expect` (`allow`, `stop` or `deny`), else what was wrong.
fn mismatch(expect: &str, got: &Result<HookVerdict, String>) -> Option<String> {
    let verdict = match got {
        Ok(verdict) => verdict,
        Err(broken) => return Some(broken.clone()),
    };
    let ok = match (expect, verdict) {
        ("allow", HookVerdict::Allow) | ("stop", HookVerdict::Stop { .. }) => true,
        ("deny", HookVerdict::Stop { decision, .. }) => decision == "deny",
        _ => false,
    };
    (!ok).then(|| format!("got {verdict}"))
}

/// One seed row under one profile, ready to run.
struct SeedJob {
    line: usize,
    label: String,
    profile: &'static str,
    expect: String,
    stdin: Vec<u8>,
    env: Vec<(String, String)>,
}

impl SeedJob {
    fn run(&self) -> Run {
        let hook = |extra: Option<(&str, &str)>| {
            let env = self.env.iter().map(|(k, v)| (k.as_str(), v.as_str()));
            run_hook(self.profile, env.chain(extra), |_| self.stdin.clone())
        };
        Run {
            at: format!("seed row {} (line {})", self.line - 1, self.line),
            label: self.label.clone(),
            profile: self.profile,
            expect: self.expect.clone(),
            got: hook(None),
            got_when_ask: (self.expect == "deny")
                .then(|| hook(Some(("AGENT_GUARD_ON_DESTRUCTIVE", "ask")))),
        }
    }
}

fn seed_runs() -> &'static [Run] {
    static RUNS: OnceLock<Vec<Run>> = OnceLock::new();
    RUNS.get_or_init(|| {
        let mut jobs = Vec::new();
        for (line, row) in read_jsonl(&test_file("data/seed-suites.jsonl")) {
            let row = row.unwrap_or_else(|e| panic!("seed-suites.jsonl:{line}: {e}"));
            // A JSON string is the raw stdin; any other value is serialized.
            let stdin = match &row["input"] {
                Value::String(raw) => raw.clone().into_bytes(),
                value => value.to_string().into_bytes(),
            };
            let env: Vec<(String, String)> = row["env"]
                .as_object()
                .unwrap_or_else(|| panic!("seed-suites.jsonl:{line}: env is not an object"))
                .iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_owned()))
                .collect();
            let command = row["input"]["tool_input"]["command"].as_str();
            for profile in ["standard", "strict"] {
                let expect = row["expect"][profile]
                    .as_str()
                    .unwrap_or_else(|| panic!("seed-suites.jsonl:{line}: no expect.{profile}"));
                let differs = SEED_DIFFERENCES
                    .iter()
                    .find(|(c, p, _)| Some(*c) == command && *p == profile);
                let (expect, label) = match differs {
                    Some((_, _, why)) => (
                        opposite(expect),
                        format!("{} (differs from the corpus: {why})", label(&row["input"])),
                    ),
                    None => (expect, label(&row["input"])),
                };
                jobs.push(SeedJob {
                    line,
                    label,
                    profile,
                    expect: expect.to_owned(),
                    stdin: stdin.clone(),
                    env: env.clone(),
                });
            }
        }
        par_map(&jobs, SeedJob::run)
    })
}

/// The verdict a listed row is run with instead of the corpus's.
fn opposite(expect: &str) -> &str {
    match expect {
        "stop" => "allow",
        "allow" => "stop",
        other => other,
    }
}

/// An unquoted `;` ends the shell's command, so `find` never gets the terminator of its
/// `-exec`: it refuses the whole expression and runs nothing.
const UNTERMINATED_EXEC: &str = "the shell takes the unquoted `;` as the end of the command, \
     so find gets an -exec with no terminator, refuses the whole expression and runs nothing";

/// Seed rows (command, profile) where this product's verdict differs from the corpus on
/// purpose, with why; run with the opposite expectation, so a row that comes to agree fails.
const SEED_DIFFERENCES: &[(&str, &str, &str)] = &[(
    "find . -name '*.tmp' -exec rm {} ;",
    "strict",
    UNTERMINATED_EXEC,
)];

/// Peer rows where this product's verdict differs from the corpus on purpose, with why. Each is
/// run with the opposite expectation, so a listed row that comes to agree with the corpus
/// fails here and the list cannot go stale.
const PEER_DIFFERENCES: &[(&str, &str)] = &[
    (
        "find . -name '*.txt' -exec rm {} \\;",
        "a pattern over the project's own files (not output known by name) picks every file it \
         deletes: fs.rm-set",
    ),
    (
        "find . -name '*.tmp' -exec rm -r --force {} \\;",
        "what `-name` picks is temporary files known by name, so a recursive rm of each loses \
         nothing anyone keeps: judged as that set, not as `rm -r` of whatever find hands over",
    ),
    ("find . -exec env rm -rf {} ;", UNTERMINATED_EXEC),
    ("find . -exec sudo rm -rf {} ;", UNTERMINATED_EXEC),
    ("find . -exec command rm -rf {} ;", UNTERMINATED_EXEC),
    ("find . -exec busybox rm -rf {} ;", UNTERMINATED_EXEC),
    ("find . -exec git reset --hard ;", UNTERMINATED_EXEC),
    ("find . -exec sh -c 'git reset --hard' ;", UNTERMINATED_EXEC),
    (
        "find . -execdir rm -rf build +",
        "`+` ends an -execdir only right after `{}`: here it is one more argument, the action \
         has no terminator, and find refuses the whole expression and runs nothing",
    ),
    (
        "rsync -a --remove-source-files /src/ /dest/",
        "a move: each source file is removed only after it was written to the destination",
    ),
    (
        "rsync -a --remove-source-files /src/ user@host:/dest/",
        "a move: each source file is removed only after it was written to the destination",
    ),
];

fn peer_runs() -> &'static [Run] {
    static RUNS: OnceLock<Vec<Run>> = OnceLock::new();
    RUNS.get_or_init(|| {
        let rows: Vec<(usize, String, String)> = read_jsonl(&test_file("data/peer-suites.jsonl"))
            .into_iter()
            .filter_map(|(line, row)| {
                let row = row.unwrap_or_else(|e| panic!("peer-suites.jsonl:{line}: {e}"));
                let command = row["command"].as_str()?;
                let differs = PEER_DIFFERENCES.iter().any(|(c, _)| *c == command);
                let expect = match (row["expect"].as_str()?, differs) {
                    (expect @ ("stop" | "allow"), true) => opposite(expect),
                    (expect @ ("stop" | "allow"), false) => expect,
                    _ => return None,
                };
                Some((line, command.to_owned(), expect.to_owned()))
            })
            .collect();
        par_map(&rows, |(line, command, expect)| Run {
            at: format!("peer row {} (line {line})", line - 1),
            label: match PEER_DIFFERENCES.iter().find(|(c, _)| c == command) {
                Some((_, why)) => format!("{command:?} (differs from the corpus: {why})"),
                None => format!("{:?}", clip(command, 160)),
            },
            profile: "standard",
            expect: expect.clone(),
            got: run_hook("standard", NO_ENV, |cwd| claude_bash_payload(cwd, command)),
            got_when_ask: None,
        })
    })
}

/// A Claude Code PreToolUse payload for the Bash tool.
fn claude_bash_payload(cwd: &Path, command: &str) -> Vec<u8> {
    json!({
        "session_id": "s",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": cwd.to_string_lossy(),
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_use_id": "t",
    })
    .to_string()
    .into_bytes()
}

/// The command a seed row's input carries, or the input itself, for a failure listing.
fn label(input: &Value) -> String {
    let tool_input = &input["tool_input"];
    match (
        input,
        tool_input["command"]
            .as_str()
            .or(tool_input["cmd"].as_str()),
    ) {
        (Value::String(raw), _) => format!("raw stdin {:?}", clip(raw, 80)),
        (_, Some(command)) => format!("{} {:?}", input["tool_name"], clip(command, 160)),
        _ => clip(&input.to_string(), 160),
    }
}

#[test]
fn seed_suite() {
    let failures: Vec<String> = seed_runs().iter().filter_map(Run::failure).collect();
    fail_if_any("seed suite (tests/data/seed-suites.jsonl)", &failures);
}

#[test]
fn peer_suite() {
    let runs = peer_runs();
    assert!(!runs.is_empty(), "peer-suites.jsonl has no stop/allow rows");
    let mut groups = [
        ("stopped but should allow", Vec::new()),
        ("allowed but should stop", Vec::new()),
        ("broke the output contract", Vec::new()),
    ];
    for run in runs {
        if let Some(failure) = run.failure() {
            let group = match (&run.got, run.expect.as_str()) {
                (Err(_), _) => 2,
                (_, "allow") => 0,
                _ => 1,
            };
            groups[group].1.push(failure);
        }
    }
    let failed: usize = groups.iter().map(|(_, failures)| failures.len()).sum();
    let report: Vec<String> = groups
        .iter()
        .filter(|(_, failures)| !failures.is_empty())
        .map(|(title, failures)| {
            format!("{title} ({}):\n  {}", failures.len(), failures.join("\n  "))
        })
        .collect();
    assert!(
        failed == 0,
        "peer suite (tests/data/peer-suites.jsonl): {failed} of {} rows failed\n{}",
        runs.len(),
        report.join("\n")
    );
}

#[test]
fn deny_reasons_name_their_rule() {
    let mut denies = 0;
    let mut failures = Vec::new();
    for run in seed_runs().iter().chain(peer_runs()) {
        for got in std::iter::once(&run.got).chain(&run.got_when_ask) {
            if let Ok(HookVerdict::Stop { decision, reason }) = got
                && decision == "deny"
            {
                denies += 1;
                if !rule_ids()
                    .iter()
                    .any(|id| reason.contains(&format!("[{id}]")))
                {
                    failures.push(format!(
                        "{} [{}] {}: reason names no [rule.id]: {:?}",
                        run.at,
                        run.profile,
                        run.label,
                        clip(reason, 200)
                    ));
                }
            }
        }
    }
    assert!(denies > 0, "no run of either suite was denied at all");
    fail_if_any("deny reasons without a rule id", &failures);
}
