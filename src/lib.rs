//! agent-guard: stops the shell commands an AI coding agent runs that would destroy work.
//!
//! One path, one module per step:
//! stdin → [`host`] decode → [`shell`] analysis → [`rules`] → [`context`] → [`policy`] →
//! [`host`] encode.

#![forbid(unsafe_code)]
// What the hook runs must not panic: an error is handled, or a site that cannot fail says why.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

pub mod audit;
pub mod cli;
pub mod config;
pub mod context;
pub mod docs;
pub mod failure;
pub mod git;
pub mod host;
pub mod install;
pub mod journal;
pub mod policy;
pub mod report;
pub mod saferm;
pub mod snapshot;
pub mod ui;

// The readers and the rules are crates of their own, below this one; they keep their paths.
pub use agent_guard_rules::{rules, settings, team, tools, units};
pub use agent_guard_shell::{lang, motion, shell};
pub use agent_guard_syntax as syntax;
/// Claims and the trash belong to the guarded removal; these are their public paths.
pub use saferm::{claims, trash};

pub use failure::{InternalError, locate_panics};

use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use context::{Assessment, Context};
use policy::{Channel, Cleared, Judged, Verdict};
use rules::{Finding, Tier, add_unique};
use settings::Settings;
use shell::{Incomplete, SimpleCommand};

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
    // With context on, the words a line computes from git are asked of the repository.
    let repository = settings
        .context
        .then(|| context::AskedLater::new(cwd, settings));
    let analyze = |line: &str| match &repository {
        Some(repository) => shell::analyze_asking(line, dialect, cwd, repository),
        None => shell::analyze_in(line, dialect, cwd),
    };
    // `--yes-i-know` is the agent's word to the guard, not part of the command: the command
    // is judged without it, and read once, without it, when it is there.
    let (analysis, confirmed) = match policy::without_flag(command) {
        Some(rest) => {
            let analysis = analyze(rest);
            if policy::confirms(rest, &analysis) {
                (analysis, Some(rest.to_string()))
            } else {
                (analyze(command), None)
            }
        }
        None => (analyze(command), None),
    };
    let line = confirmed.as_deref().unwrap_or(command);
    let found = rules_findings(line, &analysis, settings);
    let aliases = rules::git_alias_calls(&analysis);
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
        return read_once(
            policy::decide(judged, command, settings, channel, confirmed),
            analysis,
        );
    }
    // The one look at the repository for this call: the one the reading may have made
    // already to compute a word from git, carried on to the snapshot.
    let ctx = match repository {
        Some(repository) => repository.into_context(),
        None => Context::new(cwd, settings),
    };
    let mut found = found;
    add_unique(
        &mut found,
        rules::git_alias_findings(aliases, &ctx, settings),
    );
    let mut standing = Vec::new();
    let mut cleared = Vec::new();
    for mut finding in found {
        let before = commands_before(&analysis, &finding);
        let after = commands_after(&analysis, &finding, &before);
        match ctx.assess(&finding, &before, &after) {
            Assessment::Clear(why) => cleared.push(Cleared {
                finding,
                why,
                snapshot: false,
            }),
            Assessment::Owned(why) => cleared.push(Cleared {
                finding,
                why,
                snapshot: true,
            }),
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
    Verdict {
        context: Some(Rc::new(ctx)),
        ..read_once(
            policy::decide(judged, command, settings, channel, confirmed),
            analysis,
        )
    }
}

/// `verdict` carrying the reading of the line it was given on, so that nothing after it
/// reads the line again.
fn read_once(verdict: Verdict, analysis: shell::Analysis) -> Verdict {
    Verdict {
        analysis: Some(Rc::new(analysis)),
        ..verdict
    }
}

/// Judges `command` with `judge`, which must not let it through by failing: when `judge`
/// panics, the line is judged as input the guard could not analyze in full (stopped when it
/// names anything destructive, let through otherwise), and the panic is handed back to be
/// logged.
pub fn judge_safely(
    command: &str,
    settings: &Settings,
    channel: Channel,
    judge: impl FnOnce() -> Verdict,
) -> (Verdict, Option<InternalError>) {
    locate_panics();
    match panic::catch_unwind(AssertUnwindSafe(judge)) {
        Ok(verdict) => (verdict, None),
        Err(payload) => (
            fail_closed(command, settings, channel),
            Some(InternalError::from_panic(&*payload)),
        ),
    }
}

/// The verdict on a line whose judging failed: the one on input the guard could not analyze
/// in full.
pub fn fail_closed(command: &str, settings: &Settings, channel: Channel) -> Verdict {
    let found = rules::unanalyzable(
        command,
        0..command.len(),
        command,
        Incomplete::InternalError,
    )
    .into_iter()
    .collect();
    let (standing, exempted) = policy::exempt(found, command, settings);
    let judged = Judged {
        standing,
        exempted,
        ..Judged::default()
    };
    policy::decide(judged, command, settings, channel, None)
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

/// Judges a call of a tool that is not the host's shell, to run with `cwd` as the host's
/// folder: what the call comes to as a shell line (a database tool's SQL put to its client, a
/// terminal tool's line, a patch's deletes) is judged as that line; any other call by the
/// server's published destructive tools. A stop's reason starts with the tool.
pub fn evaluate_tool(
    what: &tools::ToolUse,
    cwd: Option<&Path>,
    settings: &Settings,
    channel: Channel,
) -> Verdict {
    // The line stands for the call: it cannot be rewritten, nor confirmed by a flag the tool
    // would receive as it is.
    let line_channel = Channel {
        can_rewrite: false,
        ..channel
    };
    // Only a line the agent wrote can carry the inline override.
    let no_prefix = || Settings {
        inline_override: false,
        ..settings.clone()
    };
    let mut verdict = match what.reading() {
        tools::Reading::Shell(line) => {
            evaluate_dialect(&line, shell::Dialect::Posix, cwd, settings, line_channel)
        }
        tools::Reading::Standin(line) => evaluate_dialect(
            &line,
            shell::Dialect::Posix,
            cwd,
            &no_prefix(),
            line_channel,
        ),
        tools::Reading::Named => {
            let found: Vec<Finding> = match what {
                tools::ToolUse::Mcp(call) => rules::mcp_tool(call, settings).into_iter().collect(),
                tools::ToolUse::Patch(_) | tools::ToolUse::Write { .. } => Vec::new(),
            };
            // Most tool calls name nothing destructive: they cost no more than this.
            if found.is_empty() {
                return Verdict::allow();
            }
            let shown = what.display();
            let (standing, exempted) = policy::exempt(found, &shown, settings);
            let judged = Judged {
                standing,
                exempted,
                ..Judged::default()
            };
            policy::decide(judged, &shown, &no_prefix(), channel, None)
        }
    };
    verdict.rewrite = None;
    if !verdict.reason.is_empty() {
        let closing = format!(
            "A tool call takes no inline override: if the user wants exactly this, they run \
             it themselves, outside the agent{}.",
            if settings.inline_override {
                ""
            } else {
                " (`inline_override = false`)"
            }
        );
        verdict.reason = format!(
            "{}: {}",
            what.name(),
            verdict.reason.replace(policy::NO_OVERRIDE, &closing)
        );
    }
    verdict
}

/// Every finding in a command line by the rules alone, before context and policy.
fn rules_findings(command: &str, analysis: &shell::Analysis, settings: &Settings) -> Vec<Finding> {
    let mut found: Vec<Finding> = Vec::new();
    for (at, cmd) in analysis.commands.iter().enumerate() {
        let mut settled = rules::line::settle(analysis, at, rules::check(cmd, settings));
        if analysis
            .loops
            .iter()
            .any(|r| r.start <= cmd.span.start && cmd.span.end <= r.end)
        {
            settled.iter_mut().for_each(|f| f.repeats = true);
        }
        add_unique(&mut found, settled);
    }
    add_unique(
        &mut found,
        rules::git_configured_findings(analysis, settings),
    );
    if found.is_empty() {
        if let Some(incomplete) = analysis.incomplete {
            let whole = 0..command.len();
            found.extend(rules::unanalyzable(command, whole, command, incomplete));
        }
        for part in &analysis.unread {
            let found_here = match &part.why {
                Some(why) => {
                    rules::unanalyzable_because(command, part.span.clone(), &part.code, why)
                }
                None => rules::unanalyzable(
                    command,
                    part.span.clone(),
                    &part.code,
                    Incomplete::Unreadable,
                ),
            };
            add_unique(&mut found, found_here.into_iter().collect());
        }
    }
    found
}

/// The commands of the line that may run before `finding`'s own: all of them when its
/// command cannot be told apart.
fn commands_before<'a>(analysis: &'a shell::Analysis, finding: &Finding) -> Vec<&'a SimpleCommand> {
    let at = analysis.commands.iter().position(|cmd| {
        let shown = cmd.call.clone().unwrap_or_else(|| cmd.display());
        cmd.span == finding.span && shown == finding.command
    });
    match at {
        Some(at) => analysis.before(at),
        None => analysis.commands.iter().collect(),
    }
}

/// The commands of the line written after `finding`'s own that cannot run before it.
fn commands_after<'a>(
    analysis: &'a shell::Analysis,
    finding: &Finding,
    before: &[&SimpleCommand],
) -> Vec<&'a SimpleCommand> {
    analysis
        .commands
        .iter()
        .filter(|cmd| cmd.span.start >= finding.span.end)
        .filter(|cmd| !before.iter().any(|b| std::ptr::eq(*b, *cmd)))
        .collect()
}
