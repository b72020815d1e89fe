//! agent-guard: stops the shell commands an AI coding agent runs that would destroy work.
//!
//! One path, one module per step:
//! stdin → [`host`] decode → [`shell`] analysis → [`rules`] → [`policy`] → [`host`] encode.

pub mod cli;
pub mod docs;
pub mod host;
pub mod policy;
pub mod rules;
pub mod settings;
pub mod shell;

use policy::Verdict;
use rules::Finding;
use settings::Settings;

/// Judges one command line.
pub fn evaluate(command: &str, settings: &Settings) -> Verdict {
    if settings.off {
        return Verdict::allow();
    }
    policy::decide(findings(command, settings), settings)
}

/// Every finding in a command line, before policy.
pub fn findings(command: &str, settings: &Settings) -> Vec<Finding> {
    let analysis = shell::analyze(command);
    let mut found: Vec<Finding> = Vec::new();
    for cmd in &analysis.commands {
        for finding in rules::check(cmd, settings.profile) {
            let seen = found
                .iter()
                .any(|f| f.rule.id == finding.rule.id && f.command == finding.command);
            if !seen {
                found.push(finding);
            }
        }
    }
    if found.is_empty()
        && let Some(incomplete) = analysis.incomplete
    {
        found.extend(rules::unanalyzable(command, incomplete));
    }
    found
}
