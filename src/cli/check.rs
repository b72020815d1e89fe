//! `agent-guard check`: the verdict for a command line, for people and scripts. A dry run:
//! it reads the configuration like the hook does, but never takes a snapshot or writes the
//! audit log.

use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::json;

use crate::policy::{Channel, Decision, Verdict};
use crate::settings::Profile;

pub fn run(command: &str, cwd: Option<PathBuf>, profile: Option<Profile>, json: bool) -> ExitCode {
    if let Err(code) = super::check_cwd(cwd.as_ref()) {
        return code;
    }
    let loaded = crate::config::load(cwd.as_deref());
    for problem in &loaded.problems {
        eprintln!("{problem}");
    }
    let mut settings = loaded.settings;
    if let Some(profile) = profile {
        settings.profile = profile;
    }
    let verdict = crate::evaluate_call(command, cwd.as_deref(), &settings, Channel::default());
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
    let passed = |list: &[crate::policy::Cleared]| -> Vec<serde_json::Value> {
        list.iter()
            .map(|c| json!({ "rule": c.finding.rule.id, "command": c.finding.command, "why": c.why }))
            .collect()
    };
    json!({
        "decision": verdict.decision.as_str(),
        "findings": findings,
        "overridden": overridden,
        "override": verdict.override_by.map(|o| o.as_str()),
        "cleared": passed(&verdict.cleared),
        "exempted": passed(&verdict.exempted),
        "rewrite": verdict.rewrite,
        "observed": verdict.observed.map(|d| d.as_str()),
    })
}

fn to_text(command: &str, verdict: &Verdict) -> String {
    let mut out = decision_text(command, verdict);
    for c in &verdict.exempted {
        out.push_str(&format!("[{}] exempted: {}\n", c.finding.rule.id, c.why));
    }
    if let Some(would) = verdict.observed {
        out.push_str(&format!(
            "(observe mode: not enforced; the hook logs it as a would-be {})\n{}\n",
            would.as_str(),
            verdict.reason
        ));
    }
    if let Some(rewrite) = &verdict.rewrite {
        out.push_str(&format!("(runs as: {rewrite})\n"));
    }
    out
}

fn decision_text(command: &str, verdict: &Verdict) -> String {
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
            let by = match verdict.override_by {
                Some(crate::policy::Override::Flag) => "--yes-i-know",
                Some(crate::policy::Override::Env) => "AGENT_GUARD_OFF=1 in the environment",
                _ => "AGENT_GUARD_OFF=1",
            };
            format!(
                "allow: {command}\n(let through by {by}: {})\n",
                ids.join(", ")
            )
        }
        decision => format!("{}: {command}\n{}\n", decision.as_str(), verdict.reason),
    }
}
