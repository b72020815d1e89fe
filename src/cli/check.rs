//! `agent-guard check`: the verdict for a command line, for people and scripts.

use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::json;

use crate::policy::{Decision, Verdict};
use crate::settings::{Profile, Settings};

pub fn run(command: &str, cwd: Option<PathBuf>, profile: Option<Profile>, json: bool) -> ExitCode {
    if let Some(dir) = &cwd
        && !dir.is_dir()
    {
        eprintln!("agent-guard: --cwd {}: not a directory", dir.display());
        return ExitCode::from(2);
    }
    let (mut settings, bad) = Settings::from_env();
    for problem in &bad {
        eprintln!("{problem}");
    }
    if let Some(profile) = profile {
        settings.profile = profile;
    }
    let verdict = crate::evaluate_in(command, cwd.as_deref(), &settings);
    if json {
        println!("{}", to_json(&verdict));
    } else {
        print!("{}", to_text(command, &verdict));
    }
    match verdict.decision {
        Decision::Allow => ExitCode::SUCCESS,
        Decision::Ask | Decision::Deny => ExitCode::from(1),
    }
}

fn to_json(verdict: &Verdict) -> serde_json::Value {
    let findings: Vec<_> = verdict
        .findings
        .iter()
        .map(|f| {
            json!({
                "rule": f.rule.id,
                "tier": f.tier.as_str(),
                "reason": crate::policy::finding_text(f),
                "safer": f.safer,
            })
        })
        .collect();
    let overridden: Vec<_> = verdict.overridden.iter().map(|f| f.rule.id).collect();
    let cleared: Vec<_> = verdict
        .cleared
        .iter()
        .map(|c| json!({ "rule": c.finding.rule.id, "command": c.finding.command, "why": c.why }))
        .collect();
    json!({
        "decision": verdict.decision.as_str(),
        "findings": findings,
        "overridden": overridden,
        "cleared": cleared,
    })
}

fn to_text(command: &str, verdict: &Verdict) -> String {
    match verdict.decision {
        Decision::Allow if verdict.overridden.is_empty() && verdict.cleared.is_empty() => {
            format!("allow: {command}\n")
        }
        Decision::Allow if verdict.overridden.is_empty() => {
            let why: Vec<String> = verdict
                .cleared
                .iter()
                .map(|c| format!("[{}] cleared: {}", c.finding.rule.id, c.why))
                .collect();
            format!("allow: {command}\n{}\n", why.join("\n"))
        }
        Decision::Allow => {
            let ids: Vec<&str> = verdict.overridden.iter().map(|f| f.rule.id).collect();
            format!(
                "allow: {command}\n(let through by AGENT_GUARD_OFF=1: {})\n",
                ids.join(", ")
            )
        }
        decision => format!("{}: {command}\n{}\n", decision.as_str(), verdict.reason),
    }
}
