//! agent-guard: stops the shell commands an AI coding agent runs that would destroy work.
//!
//! One path, one module per step:
//! stdin → [`host`] decode → [`shell`] analysis → [`rules`] → [`context`] → [`policy`] →
//! [`host`] encode.

#![forbid(unsafe_code)]
// What the hook runs must not panic: an error is handled, or a site that cannot fail says why.
#![deny(clippy::unwrap_used, clippy::expect_used)]

pub mod audit;
pub mod cli;
pub mod config;
pub mod context;
pub mod docs;
pub mod host;
pub mod install;
pub mod lang;
pub mod policy;
pub mod rules;
pub mod saferm;
pub mod settings;
pub mod shell;
pub mod snapshot;

/// Claims and the trash belong to the guarded removal; these are their public paths.
pub use saferm::{claims, trash};

use std::path::{Path, PathBuf};

use context::{Assessment, Context};
use policy::{Channel, Cleared, Judged, Verdict};
use rules::{Finding, Tier};
use settings::Settings;
use shell::SimpleCommand;

/// Judges one command line that runs in the current directory.
pub fn evaluate(command: &str, settings: &Settings) -> Verdict {
    evaluate_in(command, None, settings)
}

/// Judges one command line that runs in `cwd` (the host's working directory), for a host
/// that can ask and rewrite.
pub fn evaluate_in(command: &str, cwd: Option<&Path>, settings: &Settings) -> Verdict {
    evaluate_call(command, cwd, settings, Channel::default())
}

/// Judges one command line that `channel`'s host will run in `cwd`.
pub fn evaluate_call(
    command: &str,
    cwd: Option<&Path>,
    settings: &Settings,
    channel: Channel,
) -> Verdict {
    evaluate_dialect(command, shell::Dialect::Posix, cwd, settings, channel)
}

/// Judges one command line written for `dialect` (a POSIX shell, or PowerShell).
pub fn evaluate_dialect(
    command: &str,
    dialect: shell::Dialect,
    cwd: Option<&Path>,
    settings: &Settings,
    channel: Channel,
) -> Verdict {
    let mut analysis = shell::analyze_as(command, dialect);
    // `--yes-i-know` is the agent's word to the guard, not part of the command: the command
    // is judged without it.
    let confirmed = policy::confirmation(command, &analysis);
    if let Some(stripped) = &confirmed {
        analysis = shell::analyze_as(stripped, dialect);
    }
    let line = confirmed.as_deref().unwrap_or(command);
    let found = rules_findings(line, &analysis, settings);
    let aliases: Vec<&SimpleCommand> = analysis
        .commands
        .iter()
        .filter(|cmd| rules::git_alias_call(cmd).is_some())
        .collect();
    // Only a finding, or a possible git alias, costs a look at the repository.
    if !settings.context || found.is_empty() && aliases.is_empty() {
        let found = found
            .into_iter()
            .filter(|f| !f.needs_confirmation)
            .collect();
        let (standing, exempted) = policy::exempt(found, line, settings);
        let judged = Judged {
            standing,
            exempted,
            ..Judged::default()
        };
        return policy::decide(judged, command, settings, channel, confirmed);
    }
    let ctx = Context::new(cwd, settings);
    let mut found = found;
    add_unique(&mut found, alias_findings(aliases, &ctx, settings));
    let mut standing = Vec::new();
    let mut cleared = Vec::new();
    for mut finding in found {
        let before = commands_before(&analysis, &finding);
        match ctx.assess(&finding, &before) {
            Assessment::Clear(why) => cleared.push(Cleared { finding, why }),
            Assessment::Loss { loses, recovery } => {
                finding.loses = loses;
                finding.recovery = recovery.or(finding.recovery);
                standing.push(finding);
            }
            Assessment::Protected(why) => {
                finding.tier = Tier::Protected;
                finding.loses = format!("{} ({why})", finding.loses);
                standing.push(finding);
            }
            Assessment::Unknown if finding.needs_confirmation => {}
            Assessment::Unknown => standing.push(finding),
        }
    }
    // After the repository is consulted: it may show a finding protected (a push to the
    // remote's default branch), which no exception lifts.
    let (standing, exempted) = policy::exempt(standing, line, settings);
    let judged = Judged {
        standing,
        cleared,
        exempted,
    };
    policy::decide(judged, command, settings, channel, confirmed)
}

/// Judges a host's file-writing tool call about to write `paths`.
pub fn evaluate_file_edit(
    tool: &str,
    paths: &[PathBuf],
    settings: &Settings,
    channel: Channel,
) -> Verdict {
    if settings.off {
        return Verdict::allow();
    }
    let standing: Vec<Finding> = paths
        .iter()
        .filter_map(|p| rules::file_edit(tool, &p.to_string_lossy(), settings))
        .collect();
    let judged = Judged {
        standing,
        ..Judged::default()
    };
    policy::decide(judged, "", settings, channel, None)
}

/// Every finding in a command line by the rules alone, before context and policy.
fn rules_findings(command: &str, analysis: &shell::Analysis, settings: &Settings) -> Vec<Finding> {
    let mut found: Vec<Finding> = Vec::new();
    for cmd in &analysis.commands {
        add_unique(&mut found, rules::check(cmd, settings));
    }
    add_unique(&mut found, configured_findings(analysis, settings));
    if found.is_empty()
        && let Some(incomplete) = analysis.incomplete
    {
        found.extend(rules::unanalyzable(command, incomplete));
    }
    found
}

/// The commands of the line that may run before `finding`'s own: all of them when its
/// command cannot be told apart.
fn commands_before<'a>(analysis: &'a shell::Analysis, finding: &Finding) -> Vec<&'a SimpleCommand> {
    let at = analysis
        .commands
        .iter()
        .position(|cmd| cmd.span == finding.span && cmd.display() == finding.command);
    match at {
        Some(at) => analysis.before(at),
        None => analysis.commands.iter().collect(),
    }
}

/// Findings of git commands judged under the settings a `git config` that may run before them
/// in the same line writes: `git config clean.requireForce false && git clean -d` cleans
/// unforced, and `git config alias.w 'reset --hard'; git w` resets. Each is judged as the same
/// command given those settings with `-c`, which the rules and the alias expansion read.
fn configured_findings(analysis: &shell::Analysis, settings: &Settings) -> Vec<Finding> {
    let mut found = Vec::new();
    for (at, cmd) in analysis.commands.iter().enumerate() {
        if cmd.program() != Some("git") || rules::git_config_write(cmd).is_some() {
            continue;
        }
        let written: Vec<String> = analysis
            .before(at)
            .into_iter()
            .filter_map(rules::git_config_write)
            .map(|setting| format!("-c {}", shell::word::quote(&setting)))
            .collect();
        if written.is_empty() {
            continue;
        }
        let rest: Vec<String> = cmd.args().iter().map(shell::Word::shell_quoted).collect();
        let script = format!("git {} {}", written.join(" "), rest.join(" "));
        for mut configured in shell::analyze(&script).commands {
            configured.span = cmd.span.clone();
            configured.dirs = cmd.dirs.clone();
            configured.assigns = cmd.assigns.clone();
            configured.via = cmd.via;
            let mut hits = rules::check(&configured, settings);
            for hit in &mut hits {
                hit.command = cmd.display();
            }
            add_unique(&mut found, hits);
        }
    }
    found
}

fn add_unique(found: &mut Vec<Finding>, new: Vec<Finding>) {
    for finding in new {
        let seen = found
            .iter()
            .any(|f| f.rule.id == finding.rule.id && f.command == finding.command);
        if !seen {
            found.push(finding);
        }
    }
}

/// How deep an alias may expand into another alias before the lookup stops.
const ALIAS_DEPTH: usize = 3;

/// Findings of `git <alias>` commands, judged as what the alias runs.
fn alias_findings(calls: Vec<&SimpleCommand>, ctx: &Context, settings: &Settings) -> Vec<Finding> {
    let mut found = Vec::new();
    let mut pending: Vec<SimpleCommand> = calls.into_iter().cloned().collect();
    for _ in 0..ALIAS_DEPTH {
        let mut next = Vec::new();
        for cmd in &pending {
            let Some(alias) = rules::git_alias_call(cmd) else {
                continue;
            };
            let Some(value) = ctx.git_alias(&cmd.dirs, &cmd.assigns, &alias.globals, &alias.name)
            else {
                continue;
            };
            let rest: Vec<String> = alias.rest.iter().map(shell::Word::shell_quoted).collect();
            // Git runs a `!` alias from the top of the worktree, wherever it was called.
            let mut dirs = cmd.dirs.clone();
            if value.starts_with('!') {
                dirs.push(
                    match ctx.git_toplevel(&cmd.dirs, &cmd.assigns, &alias.globals) {
                        Some(top) => shell::Word::literal(top.to_string_lossy()),
                        None => shell::Word {
                            text: "?".into(),
                            literal: false,
                        },
                    },
                );
            }
            let script = match value.strip_prefix('!') {
                Some(shell_text) => format!("{shell_text} {}", rest.join(" ")),
                None => {
                    let globals: Vec<String> = alias
                        .globals
                        .iter()
                        .map(|g| shell::word::quote(g))
                        .collect();
                    format!("git {} {value} {}", globals.join(" "), rest.join(" "))
                }
            };
            for mut expanded in shell::analyze(&script).commands {
                expanded.span = cmd.span.clone();
                expanded.dirs = [dirs.clone(), expanded.dirs].concat();
                expanded.assigns.extend(cmd.assigns.iter().cloned());
                let mut hits = rules::check(&expanded, settings);
                for hit in &mut hits {
                    hit.command = cmd.display();
                    hit.loses = format!("runs `{value}` (a git alias), which {}", hit.loses);
                }
                add_unique(&mut found, hits);
                next.push(expanded);
            }
        }
        pending = next;
    }
    found
}
