//! Policy: findings, settings and what the host can do in; a decision and the reason the agent
//! (or, for an ask, the person) reads out.
//!
//! The wording of what is lost and what to do instead belongs to each rule; this module only
//! decides and assembles. The order: protected ⇒ deny, always (only `AGENT_GUARD_OFF=1` in the
//! hook's own environment lifts it); a destructive finding the configuration excepts, or the
//! command overrides inline, passes; any other destructive finding is a deny, or an ask where
//! the configuration says so and the host can ask. Observe mode then turns every stop into an
//! allow that is only logged.

use std::rc::Rc;

use crate::context::Context;
use crate::rules::{Finding, Tier};
use crate::settings::{Mode, OnDestructive, Settings};
use crate::shell::{Analysis, Via};

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

/// What the host can do with an answer, whatever its dialect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Channel {
    /// It can put a question to the person. Where it cannot, an ask goes out as a deny that
    /// tells the agent to ask: an ask the host does not understand would let the command run.
    pub can_ask: bool,
    /// It can replace the command before it runs, so `--yes-i-know` can be taken off.
    pub can_rewrite: bool,
}

impl Default for Channel {
    /// A host that can do both, as `check` assumes.
    fn default() -> Self {
        Channel {
            can_ask: true,
            can_rewrite: true,
        }
    }
}

/// What let destructive findings through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Override {
    /// `AGENT_GUARD_OFF=1` in the hook's own environment.
    Env,
    /// An `AGENT_GUARD_OFF=1` assignment in front of the command.
    Prefix,
    /// `--yes-i-know` at the end of the command line.
    Flag,
}

impl Override {
    pub fn as_str(self) -> &'static str {
        match self {
            Override::Env => "env",
            Override::Prefix => "prefix",
            Override::Flag => "flag",
        }
    }
}

/// The outcome for one tool call.
#[derive(Debug, Clone)]
pub struct Verdict {
    pub decision: Decision,
    /// Findings that stand: they decided the stop (or, in observe mode, would have).
    pub findings: Vec<Finding>,
    /// Findings an override let through.
    pub overridden: Vec<Finding>,
    /// Which override, when one let the command through.
    pub override_by: Option<Override>,
    /// Findings the repository's state showed harmless, with why.
    pub cleared: Vec<Cleared>,
    /// Findings the configuration lets through (`[rules] disable`, `[[allow]]`), with why.
    pub exempted: Vec<Cleared>,
    /// What the agent (or, for ask, the person) reads. Empty when nothing stands.
    pub reason: String,
    /// The command to run instead: the one given, without `--yes-i-know`.
    pub rewrite: Option<String>,
    /// In observe mode, the decision that was not enforced.
    pub observed: Option<Decision>,
    /// The line as it was read for this verdict, when it was: what runs after the verdict
    /// (the journal of what the line writes) asks it instead of reading the line again.
    pub analysis: Option<Rc<Analysis>>,
    /// The look at the folders and the repository the verdict was given on, when it took
    /// one: the snapshot after it asks the same.
    pub context: Option<Rc<Context>>,
}

impl Verdict {
    pub fn allow() -> Self {
        Verdict {
            decision: Decision::Allow,
            findings: Vec::new(),
            overridden: Vec::new(),
            override_by: None,
            cleared: Vec::new(),
            exempted: Vec::new(),
            reason: String::new(),
            rewrite: None,
            observed: None,
            analysis: None,
            context: None,
        }
    }

    /// Whether this answer may let a destructive command run: overridden, only observed, put
    /// to the person, or let through because it destroys only agents' own work. That is when
    /// a snapshot must be taken first.
    pub fn may_destroy(&self) -> bool {
        match self.decision {
            Decision::Ask => true,
            Decision::Allow => {
                self.override_by.is_some()
                    || self.observed.is_some()
                    || self.cleared.iter().any(|c| c.snapshot)
            }
            Decision::Deny => false,
        }
    }

    /// Adds a line to the reason of a question (what the snapshot saved, or why none was
    /// taken): the person deciding should know whether there is a way back.
    pub fn note(&mut self, line: &str) {
        if self.decision == Decision::Ask {
            self.reason.push('\n');
            self.reason.push_str(line);
        }
    }
}

/// A finding that passes, and why: the repository showed it harmless, or the configuration
/// excepts it.
#[derive(Debug, Clone)]
pub struct Cleared {
    pub finding: Finding,
    pub why: String,
    /// What it destroys is the agents' own work: kept in a snapshot first all the same.
    pub snapshot: bool,
}

/// What the rules, the configuration and the repository left of a command's findings.
#[derive(Debug, Default)]
pub struct Judged {
    pub standing: Vec<Finding>,
    pub cleared: Vec<Cleared>,
    pub exempted: Vec<Cleared>,
}

/// The confirmation flag an agent appends when its user asked for exactly this command.
pub const CONFIRM_FLAG: &str = "--yes-i-know";

/// The command line without `--yes-i-know`, when that is how it ends as written: the rest is
/// what the guard reads, and [`confirms`] tells from that reading whether the flag is a word.
pub fn without_flag(command: &str) -> Option<&str> {
    let rest = command.trim_end().strip_suffix(CONFIRM_FLAG)?;
    let rest_end = rest.trim_end();
    // `a\ --yes-i-know` glues the flag to the word before it.
    (rest.ends_with([' ', '\t']) && !rest_end.ends_with('\\')).then_some(rest_end)
}

/// Whether `--yes-i-know` written after `rest` is an argument the shell passes to a command,
/// not text inside quotes or a comment, nor a command of its own: `rest` reads whole
/// (`analysis` is its reading) and a command written in it ends where it ends, so the flag is
/// one more word of that command.
pub fn confirms(rest: &str, analysis: &Analysis) -> bool {
    !analysis.syntax_error
        && analysis
            .commands
            .iter()
            .any(|cmd| cmd.via == Via::Direct && cmd.span.end == rest.len())
}

/// Splits off the findings the configuration lets through: those of a disabled rule, and
/// those a live `[[allow]]` exception names. Protected findings always stay: a file in the
/// repository must not be able to wave through what the guard never lets an agent do.
pub fn exempt(
    found: Vec<Finding>,
    line: &str,
    settings: &Settings,
) -> (Vec<Finding>, Vec<Cleared>) {
    let mut standing = Vec::new();
    let mut exempted = Vec::new();
    for finding in found {
        let why = if finding.tier == Tier::Protected {
            None
        } else if settings
            .disabled_rules
            .iter()
            .any(|id| id == finding.rule.id)
        {
            Some("the rule is disabled in the configuration (`[rules] disable`)".to_string())
        } else {
            settings
                .live_exceptions()
                .find(|e| {
                    e.rule.as_deref().is_none_or(|id| id == finding.rule.id)
                        && e.command
                            .as_deref()
                            .is_none_or(|c| c == line.trim() || c == finding.command)
                })
                .map(|e| format!("allowed by the exception at {}: {}", e.origin, e.reason))
        };
        match why {
            Some(why) => exempted.push(Cleared {
                finding,
                why,
                snapshot: false,
            }),
            None => standing.push(finding),
        }
    }
    (standing, exempted)
}

/// The decision for one command line, `command`. `confirmed` is the line without
/// `--yes-i-know` when the agent appended it: then the findings were read from that line.
pub fn decide(
    judged: Judged,
    command: &str,
    settings: &Settings,
    channel: Channel,
    confirmed: Option<String>,
) -> Verdict {
    let Judged {
        standing,
        cleared,
        exempted,
    } = judged;
    let flagged = confirmed.is_some();
    // Wherever the host can, the flag comes off: the program must never see it.
    let rewrite = confirmed.clone().filter(|_| channel.can_rewrite);
    if settings.off {
        return Verdict {
            override_by: (!standing.is_empty()).then_some(Override::Env),
            overridden: standing,
            cleared,
            exempted,
            rewrite,
            ..Verdict::allow()
        };
    }
    let inline = settings.inline_override;
    let by_flag = inline && flagged && channel.can_rewrite;
    let (overridden, standing): (Vec<Finding>, Vec<Finding>) = standing
        .into_iter()
        .partition(|f| f.tier != Tier::Protected && inline && (f.inline_override || by_flag));
    let wanted = standing
        .iter()
        .map(|f| match (f.tier, settings.on_destructive) {
            (Tier::Protected, _) | (Tier::Destructive, OnDestructive::Deny) => Decision::Deny,
            (Tier::Destructive, OnDestructive::Ask) | (Tier::Ask, _) => Decision::Ask,
        })
        .max()
        .unwrap_or(Decision::Allow);
    let decision = match wanted {
        Decision::Ask if !channel.can_ask => Decision::Deny,
        other => other,
    };
    let reason = if standing.is_empty() {
        String::new()
    } else {
        let line = confirmed.as_deref().unwrap_or(command);
        reason(
            &standing, line, wanted, decision, settings, channel, flagged,
        )
    };
    let (decision, observed) = match settings.mode {
        Mode::Observe if decision != Decision::Allow => (Decision::Allow, Some(decision)),
        _ => (decision, None),
    };
    let override_by = match (decision, overridden.is_empty()) {
        (Decision::Allow, false) if by_flag => Some(Override::Flag),
        (Decision::Allow, false) => Some(Override::Prefix),
        _ => None,
    };
    Verdict {
        decision,
        findings: standing,
        overridden,
        override_by,
        cleared,
        exempted,
        reason,
        rewrite: rewrite.filter(|_| decision == Decision::Allow),
        observed,
        analysis: None,
        context: None,
    }
}

/// At most this many findings are spelled out; the model reads every word.
const SHOWN: usize = 3;

/// Put before the reason of an ask sent as a deny, so that the agent asks in the host's stead.
const ASK_FIRST: &str = "agent-guard: this command needs the user's confirmation, and this host \
                         cannot ask for it from a hook. Ask your user for confirmation first: tell \
                         them what it would do (below), and run it only if they say yes, with \
                         `AGENT_GUARD_OFF=1` in front of it.";

/// The same, where inline overrides are switched off.
const ASK_FIRST_NO_OVERRIDE: &str = "agent-guard: this command needs the user's confirmation, \
                                     and this host cannot ask for it from a hook. Tell your user \
                                     what it would do (below); inline overrides are turned off \
                                     here, so if they want it, they run it themselves.";

/// Closes a deny where inline overrides are switched off.
pub(crate) const NO_OVERRIDE: &str = "Inline overrides are turned off here (`inline_override = false`): \
                           if the user wants exactly this, they run it themselves, outside the \
                           agent.";

fn reason(
    findings: &[Finding],
    line: &str,
    wanted: Decision,
    decision: Decision,
    settings: &Settings,
    channel: Channel,
    flagged: bool,
) -> String {
    let mut out = String::new();
    let asked_as_deny = wanted == Decision::Ask && decision == Decision::Deny;
    if asked_as_deny {
        out.push_str(if settings.inline_override {
            ASK_FIRST
        } else {
            ASK_FIRST_NO_OVERRIDE
        });
        out.push('\n');
    }
    for (i, f) in findings.iter().take(SHOWN).enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&finding_text(f));
    }
    if findings.len() > SHOWN {
        out.push_str(&format!("\n(and {} more)", findings.len() - SHOWN));
    }
    if asked_as_deny {
        return out;
    }
    out.push('\n');
    let protected = findings.iter().any(|f| f.tier == Tier::Protected);
    let command = shorten(findings.first().map_or(line, |f| override_target(f, line)));
    let closing = if protected {
        "This is protected: no override applies. Only the user can run it, outside the agent."
            .to_string()
    } else if decision == Decision::Ask {
        "Approve only if you want exactly this to happen.".to_string()
    } else if !settings.inline_override {
        NO_OVERRIDE.to_string()
    } else if flagged && !channel.can_rewrite {
        format!(
            "This host cannot take `{CONFIRM_FLAG}` off the command before it runs, so the flag \
             does not apply here: if the user explicitly asked for exactly this, put \
             `AGENT_GUARD_OFF=1` in front of `{command}` instead."
        )
    } else {
        format!(
            "If the user explicitly asked for exactly this, put `AGENT_GUARD_OFF=1` in front of `{command}`."
        )
    };
    out.push_str(&closing);
    out
}

/// The command the override prefix goes in front of: the finding's command, or for a call in
/// interpreter code (`shutil.rmtree('out')`) the interpreter command as written in the line
/// (`python3 -c "..."`), whose environment the code runs with, and for a command sent
/// elsewhere the command here that sends it (`ssh host '...'`).
fn override_target<'a>(f: &'a Finding, line: &'a str) -> &'a str {
    let written = match f.via {
        Via::Embedded(_) => line.get(f.span.clone()).map(str::trim),
        _ if f.elsewhere.is_some() || f.recipe.is_some() => line.get(f.span.clone()).map(str::trim),
        _ => None,
    };
    written.filter(|w| !w.is_empty()).unwrap_or(&f.command)
}

/// "agent-guard \[rule\]: `cmd` (where) loses...", then what to do instead and how to recover.
pub fn finding_text(f: &Finding) -> String {
    let mut line = format!("agent-guard [{}]: ", f.rule.id);
    let place = f.elsewhere.as_ref().map(|e| e.describe());
    match &f.recipe {
        // "`pnpm run fresh` runs `git clean -fd` (package.json scripts.fresh), which ..."
        Some(recipe) => {
            line.push_str(&format!(
                "`{}` runs `{}` ({}), ",
                shorten(&recipe.runner),
                shorten(&recipe.text),
                recipe.source
            ));
            if recipe.text.trim() == f.command {
                line.push_str("which");
            } else {
                line.push_str(&format!("where `{}`", shorten(&f.command)));
            }
        }
        None => {
            line.push_str(&format!("`{}`", shorten(&f.command)));
            match (f.via.describe(), place) {
                (Some(via), Some(place)) => line.push_str(&format!(" ({via}, {place})")),
                (Some(via), None) => line.push_str(&format!(" ({via})")),
                (None, Some(place)) => line.push_str(&format!(" ({place})")),
                (None, None) => {}
            }
        }
    }
    line.push_str(&format!(" {}.", f.loses));
    if f.uncertain {
        line.push_str(" Part of it is only known at run time, so the guard assumes the worst.");
    }
    if let Some(safer) = &f.safer {
        line.push_str(&format!("\nInstead: {safer}."));
    }
    if let Some(recovery) = &f.recovery {
        line.push_str(&format!("\nIf it runs anyway: {}.", as_sentence(recovery)));
    }
    line
}

/// A recovery note as the end of a sentence: rules write "none: <why>" or "none for <what>"
/// as short notes; after "If it runs anyway:" they read "<why>" and "nothing brings back
/// <what>".
fn as_sentence(recovery: &str) -> String {
    if let Some(why) = recovery.strip_prefix("none: ") {
        why.to_string()
    } else if let Some(what) = recovery.strip_prefix("none for ") {
        format!("nothing brings back {what}")
    } else if let Some(when) = recovery.strip_prefix("none once ") {
        format!("nothing brings it back once {when}")
    } else {
        recovery.to_string()
    }
}

/// Keeps a quoted command to one readable line.
pub fn shorten(command: &str) -> String {
    const MAX: usize = 160;
    let one_line = command.replace('\n', " ");
    if one_line.chars().count() <= MAX {
        return one_line;
    }
    let cut: String = one_line.chars().take(MAX).collect();
    format!("{cut}…")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Exception;

    const ASKS: Channel = Channel {
        can_ask: true,
        can_rewrite: false,
    };
    const REWRITES: Channel = Channel {
        can_ask: false,
        can_rewrite: true,
    };
    const NEITHER: Channel = Channel {
        can_ask: false,
        can_rewrite: false,
    };

    fn judge(command: &str, settings: &Settings, channel: Channel) -> Verdict {
        let settings = Settings {
            context: false,
            ..settings.clone()
        };
        crate::evaluate_call(command, None, &settings, channel)
    }

    #[test]
    fn decisions_by_tier_setting_override_and_host() {
        let deny = Settings::default();
        let ask = Settings {
            on_destructive: OnDestructive::Ask,
            ..Settings::default()
        };
        let strict_inline = Settings {
            inline_override: false,
            ..Settings::default()
        };
        let observe = Settings {
            mode: Mode::Observe,
            ..Settings::default()
        };
        let off = Settings {
            off: true,
            ..Settings::default()
        };
        use Decision::{Allow, Ask, Deny};
        type Row<'a> = (
            &'a str,
            &'a Settings,
            Channel,
            Decision,
            Option<Override>,
            Option<&'a str>,
            Option<Decision>,
        );
        let rows: Vec<Row> = vec![
            ("git status", &deny, ASKS, Allow, None, None, None),
            ("git reset --hard", &deny, ASKS, Deny, None, None, None),
            ("git reset --hard", &ask, ASKS, Ask, None, None, None),
            ("git reset --hard", &ask, NEITHER, Deny, None, None, None),
            ("git clean -fdx", &ask, ASKS, Deny, None, None, None),
            (
                "AGENT_GUARD_OFF=1 git reset --hard",
                &deny,
                NEITHER,
                Allow,
                Some(Override::Prefix),
                None,
                None,
            ),
            (
                "AGENT_GUARD_OFF=1 git reset --hard",
                &strict_inline,
                ASKS,
                Deny,
                None,
                None,
                None,
            ),
            (
                "git reset --hard --yes-i-know",
                &deny,
                REWRITES,
                Allow,
                Some(Override::Flag),
                Some("git reset --hard"),
                None,
            ),
            (
                "git reset --hard --yes-i-know",
                &deny,
                ASKS,
                Deny,
                None,
                None,
                None,
            ),
            (
                "git reset --hard --yes-i-know",
                &strict_inline,
                REWRITES,
                Deny,
                None,
                None,
                None,
            ),
            (
                "git status --yes-i-know",
                &strict_inline,
                REWRITES,
                Allow,
                None,
                Some("git status"),
                None,
            ),
            (
                "git clean -fdx --yes-i-know",
                &deny,
                REWRITES,
                Deny,
                None,
                None,
                None,
            ),
            (
                "git reset --hard",
                &observe,
                ASKS,
                Allow,
                None,
                None,
                Some(Deny),
            ),
            (
                "git clean -fdx",
                &off,
                ASKS,
                Allow,
                Some(Override::Env),
                None,
                None,
            ),
            ("git status", &off, ASKS, Allow, None, None, None),
        ];
        for (command, settings, channel, decision, by, rewrite, observed) in rows {
            let v = judge(command, settings, channel);
            assert_eq!(
                (v.decision, v.override_by, v.rewrite.as_deref(), v.observed),
                (decision, by, rewrite, observed),
                "{command} ({channel:?}): {}",
                v.reason
            );
        }
    }

    #[test]
    fn what_may_destroy_needs_a_snapshot_first() {
        let ask = Settings {
            on_destructive: OnDestructive::Ask,
            ..Settings::default()
        };
        assert!(judge("git reset --hard", &ask, ASKS).may_destroy());
        assert!(!judge("git reset --hard", &ask, NEITHER).may_destroy());
        assert!(judge("AGENT_GUARD_OFF=1 git reset --hard", &ask, ASKS).may_destroy());
        assert!(!judge("git status", &ask, ASKS).may_destroy());
    }

    #[test]
    fn the_override_for_interpreter_code_goes_in_front_of_the_interpreter() {
        let deny = Settings::default();
        let python = "python3 -c \"import shutil; shutil.rmtree('out')\"";
        let sudo = format!("sudo {python}");
        for (line, target) in [
            (python.to_string(), python),
            (format!("cd app && {python}"), python),
            (
                "echo \"require('fs').rmSync('x', {recursive: true})\" | node".to_string(),
                "node",
            ),
            // A wrapper is part of the command the prefix goes in front of; a redirect is not.
            (format!("{sudo} 2>/dev/null"), &*sudo),
        ] {
            let verdict = judge(&line, &deny, NEITHER);
            assert_eq!(verdict.decision, Decision::Deny, "{line}");
            let hint = format!("put `AGENT_GUARD_OFF=1` in front of `{target}`.");
            assert!(
                verdict.reason.ends_with(&hint),
                "{line}: {}",
                verdict.reason
            );
            // Following the hint lets the command through.
            let followed = line.replacen(target, &format!("AGENT_GUARD_OFF=1 {target}"), 1);
            let verdict = judge(&followed, &deny, NEITHER);
            assert_eq!(verdict.decision, Decision::Allow, "{followed}");
            assert_eq!(verdict.override_by, Some(Override::Prefix), "{followed}");
        }
    }

    #[test]
    fn the_reason_says_what_to_do_on_this_host() {
        let deny = Settings::default();
        let reason = judge("git reset --hard --yes-i-know", &deny, ASKS).reason;
        assert!(
            reason.contains("cannot take `--yes-i-know` off"),
            "{reason}"
        );
        let reason = judge("git reset --hard", &deny, ASKS).reason;
        assert!(reason.ends_with("put `AGENT_GUARD_OFF=1` in front of `git reset --hard`."));
        let ask = Settings {
            on_destructive: OnDestructive::Ask,
            ..Settings::default()
        };
        let reason = judge("git reset --hard", &ask, NEITHER).reason;
        assert!(reason.starts_with(ASK_FIRST), "{reason}");
        let mut note = judge("git reset --hard", &ask, ASKS);
        note.note("snapshot line");
        assert!(
            note.reason
                .ends_with("exactly this to happen.\nsnapshot line")
        );
    }

    #[test]
    fn exceptions_match_rule_and_command_and_expire() {
        let exception =
            |rule: Option<&str>, command: Option<&str>, expires: Option<&str>| Exception {
                rule: rule.map(str::to_string),
                command: command.map(str::to_string),
                reason: "why".into(),
                expires: expires.and_then(crate::units::Date::parse),
                origin: "t.toml:1".into(),
            };
        let cases = [
            (
                exception(Some("git.stash-drop"), None, None),
                "git stash clear",
                true,
            ),
            (
                exception(Some("git.stash-drop"), None, Some("2001-01-01")),
                "git stash clear",
                false,
            ),
            (
                exception(None, Some("git stash clear"), None),
                "git stash clear",
                true,
            ),
            (
                exception(None, Some("git stash clear"), None),
                "cd x && git stash clear",
                true,
            ),
            (
                exception(None, Some("git stash drop"), None),
                "git stash clear",
                false,
            ),
            (
                exception(Some("git.reset-hard"), Some("git stash clear"), None),
                "git stash clear",
                false,
            ),
            (
                exception(Some("git.clean-force"), None, None),
                "git clean -fdx",
                false,
            ),
        ];
        for (e, command, passes) in cases {
            let settings = Settings {
                allow: vec![e.clone()],
                ..Settings::default()
            };
            let v = judge(command, &settings, ASKS);
            assert_eq!(v.decision == Decision::Allow, passes, "{e:?} on {command}");
            assert_eq!(v.exempted.len(), usize::from(passes));
        }
    }
}
