//! Policy: findings and settings in, a decision and the reason the agent reads out.
//!
//! The wording of what is lost and what to do instead belongs to each rule; this module only
//! decides (protected ⇒ deny, destructive ⇒ deny or ask, overridden ⇒ allow) and assembles.

use crate::rules::{Finding, Tier};
use crate::settings::{OnDestructive, Settings};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Decision {
    Allow,
    Ask,
    Deny,
}

impl Decision {
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Allow => "allow",
            Decision::Ask => "ask",
            Decision::Deny => "deny",
        }
    }
}

/// The outcome for one tool call.
#[derive(Debug, Clone)]
pub struct Verdict {
    pub decision: Decision,
    /// Findings that decided it (empty when allowed).
    pub findings: Vec<Finding>,
    /// Destructive findings let through by the in-command override.
    pub overridden: Vec<Finding>,
    /// Findings the repository's state showed harmless, with why.
    pub cleared: Vec<Cleared>,
    /// What the agent (or, for ask, the person) reads. Empty when allowed.
    pub reason: String,
}

impl Verdict {
    pub fn allow() -> Self {
        Verdict {
            decision: Decision::Allow,
            findings: Vec::new(),
            overridden: Vec::new(),
            cleared: Vec::new(),
            reason: String::new(),
        }
    }
}

/// A finding that context cleared: the rule fired, but nothing would be lost.
#[derive(Debug, Clone)]
pub struct Cleared {
    pub finding: Finding,
    pub why: String,
}

/// At most this many findings are spelled out; the model reads every word.
const SHOWN: usize = 3;

pub fn decide(findings: Vec<Finding>, cleared: Vec<Cleared>, settings: &Settings) -> Verdict {
    let (overridden, standing): (Vec<Finding>, Vec<Finding>) = findings
        .into_iter()
        .partition(|f| f.tier == Tier::Destructive && f.inline_override);
    let decision = standing
        .iter()
        .map(|f| match (f.tier, settings.on_destructive) {
            (Tier::Protected, _) | (Tier::Destructive, OnDestructive::Deny) => Decision::Deny,
            (Tier::Destructive, OnDestructive::Ask) => Decision::Ask,
        })
        .max()
        .unwrap_or(Decision::Allow);
    let reason = if standing.is_empty() {
        String::new()
    } else {
        reason(&standing, decision)
    };
    Verdict {
        decision,
        findings: standing,
        overridden,
        cleared,
        reason,
    }
}

fn reason(findings: &[Finding], decision: Decision) -> String {
    let mut out = String::new();
    for f in findings.iter().take(SHOWN) {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&finding_text(f));
    }
    if findings.len() > SHOWN {
        out.push_str(&format!("\n(and {} more)", findings.len() - SHOWN));
    }
    out.push('\n');
    let protected = findings.iter().any(|f| f.tier == Tier::Protected);
    let closing = match (protected, decision) {
        (true, _) => {
            "This is protected: no override applies. Only the user can run it, outside the agent."
                .to_string()
        }
        (false, Decision::Ask) => "Approve only if you want exactly this to happen.".to_string(),
        (false, _) => format!(
            "If the user explicitly asked for exactly this, put `AGENT_GUARD_OFF=1` in front of `{}`.",
            shorten(&findings[0].command)
        ),
    };
    out.push_str(&closing);
    out
}

/// "agent-guard [rule]: `cmd` (where) loses...", then what to do instead and how to recover.
pub fn finding_text(f: &Finding) -> String {
    let mut line = format!("agent-guard [{}]: `{}`", f.rule.id, shorten(&f.command));
    if let Some(via) = f.via.describe() {
        line.push_str(&format!(" ({via})"));
    }
    line.push_str(&format!(" {}.", f.loses));
    if f.uncertain {
        line.push_str(" Part of it is only known at run time, so the guard assumes the worst.");
    }
    if let Some(safer) = &f.safer {
        line.push_str(&format!("\nInstead: {safer}."));
    }
    if let Some(recovery) = &f.recovery {
        line.push_str(&format!("\nIf it runs anyway: {recovery}."));
    }
    line
}

/// Keeps a quoted command to one readable line.
fn shorten(command: &str) -> String {
    const MAX: usize = 160;
    let one_line = command.replace('\n', " ");
    if one_line.chars().count() <= MAX {
        return one_line;
    }
    let cut: String = one_line.chars().take(MAX).collect();
    format!("{cut}…")
}
