//! The settings a verdict depends on, and how the hook's environment sets them.
//!
//! Files (`.agent-guard.toml`, the user's `config.toml`) are read by the library's `config`, which
//! lays the environment over them with [`Settings::apply_env`]. A bad value never switches the
//! guard off: it is reported and the default (or the file's value) stays, so a typo in
//! `AGENT_GUARD_PROFILE` leaves the user guarded, not exposed.

use std::fmt;
use std::time::Duration;

use crate::units::Date;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Profile {
    /// Stops what destroys work; a single-file `rm` passes.
    #[default]
    Standard,
    /// Also stops every shell `rm` and every command whose name is not literal.
    Strict,
}

impl Profile {
    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "standard" => Some(Profile::Standard),
            "strict" => Some(Profile::Strict),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Profile::Standard => "standard",
            Profile::Strict => "strict",
        }
    }
}

/// What a destructive (not protected) finding becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OnDestructive {
    #[default]
    Deny,
    Ask,
}

impl OnDestructive {
    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "deny" => Some(OnDestructive::Deny),
            "ask" => Some(OnDestructive::Ask),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            OnDestructive::Deny => "deny",
            OnDestructive::Ask => "ask",
        }
    }
}

/// Whether stops are enforced or only recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    #[default]
    Enforce,
    /// Nothing is stopped; every would-be stop goes to the audit log. For trying the guard
    /// on a team's real work before it enforces anything.
    Observe,
}

impl Mode {
    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "enforce" => Some(Mode::Enforce),
            "observe" => Some(Mode::Observe),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Enforce => "enforce",
            Mode::Observe => "observe",
        }
    }
}

/// A team's deliberate exception (`[[allow]]`): a destructive finding of `rule`, or of exactly
/// `command`, or both, is let through. It never lifts a protected finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exception {
    pub rule: Option<String>,
    /// Compared with the whole command line and with the single command that was found.
    pub command: Option<String>,
    /// Why the team allows it: shown by `check` and `agent-guard config`.
    pub reason: String,
    /// From this day on (UTC) the exception no longer applies.
    pub expires: Option<Date>,
    /// `file:line` where it was declared.
    pub origin: String,
}

impl Exception {
    pub fn expired(&self, today: Date) -> bool {
        self.expires.is_some_and(|day| today >= day)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// `AGENT_GUARD_OFF=1` in the hook's environment: everything passes (and is audited).
    pub off: bool,
    pub mode: Mode,
    pub profile: Profile,
    pub on_destructive: OnDestructive,
    /// Consult the repository before judging (`context`). With the rules alone (`false`)
    /// every finding stands as the command text shows it.
    pub context: bool,
    /// Names of output folders that a build or install recreates: deleting an ignored one
    /// loses nothing.
    pub regenerable: Vec<String>,
    /// Branches a force push or a delete must never touch. The remote's default branch is
    /// protected as well, when the repository is consulted.
    pub protected_branches: Vec<String>,
    /// Whether `AGENT_GUARD_OFF=1 <command>` and `<command> --yes-i-know` let a destructive
    /// finding through.
    pub inline_override: bool,
    /// Rule ids whose destructive findings are not reported (`[rules] disable`).
    pub disabled_rules: Vec<String>,
    /// Packs switched off (`[packs] disable`), and packs that are off by default switched on
    /// (`[packs] enable`).
    pub disabled_packs: Vec<String>,
    pub enabled_packs: Vec<String>,
    /// Whole words that name production in a kube context, a cloud profile or project, a
    /// database name or host: a pack's finding whose command names one is protected.
    pub production: Vec<String>,
    pub allow: Vec<Exception>,
    /// The team's own `[[deny]]` and `[[ask]]` rules: they only add stops.
    pub team: crate::team::TeamRules,
    /// Snapshots older than this are deleted when the next one is taken.
    pub snapshot_max_age: Duration,
    /// No snapshot is taken when the changed and untracked files come to more than this.
    pub snapshot_max_size: u64,
    /// The audit log is rotated (to `audit.jsonl.1`) before it grows past this.
    pub audit_max_size: u64,
    /// Also log commands that were allowed outright (off by default: only stops, asks,
    /// overrides and errors are logged).
    pub log_allowed: bool,
}

/// Output folders a build, install or test run recreates.
pub const REGENERABLE: &[&str] = &[
    "node_modules",
    "target",
    "dist",
    "build",
    "out",
    ".next",
    ".nuxt",
    ".svelte-kit",
    ".turbo",
    ".parcel-cache",
    "__pycache__",
    ".venv",
    "venv",
    ".tox",
    ".nox",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    "coverage",
    "htmlcov",
    ".gradle",
    ".dart_tool",
    "vendor",
];

/// Words that name production unless the configuration names others.
pub const PRODUCTION: &[&str] = &["prod", "production", "live"];

/// Branches protected unless the configuration names others.
pub const PROTECTED_BRANCHES: &[&str] = &["main", "master"];

impl Default for Settings {
    fn default() -> Self {
        Settings {
            off: false,
            mode: Mode::Enforce,
            profile: Profile::Standard,
            on_destructive: OnDestructive::Deny,
            context: true,
            regenerable: REGENERABLE.iter().map(|s| s.to_string()).collect(),
            protected_branches: PROTECTED_BRANCHES.iter().map(|s| s.to_string()).collect(),
            inline_override: true,
            disabled_rules: Vec::new(),
            disabled_packs: Vec::new(),
            enabled_packs: Vec::new(),
            production: PRODUCTION.iter().map(|s| s.to_string()).collect(),
            allow: Vec::new(),
            team: crate::team::TeamRules::default(),
            snapshot_max_age: Duration::from_secs(14 * 86_400),
            snapshot_max_size: 100 << 20,
            audit_max_size: 10 << 20,
            log_allowed: false,
        }
    }
}

/// An environment variable with a value the guard does not understand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadSetting {
    pub name: &'static str,
    pub value: String,
    pub expected: &'static str,
}

impl fmt::Display for BadSetting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "agent-guard: ignoring {}={:?}: expected {}",
            self.name, self.value, self.expected
        )
    }
}

/// The environment variables that set a setting, with the config key each one sets.
pub const ENV: &[(&str, &str)] = &[
    ("AGENT_GUARD_OFF", "off"),
    ("AGENT_GUARD_MODE", "mode"),
    ("AGENT_GUARD_PROFILE", "profile"),
    ("AGENT_GUARD_ON_DESTRUCTIVE", "on_destructive"),
    ("AGENT_GUARD_CONTEXT", "context"),
    ("AGENT_GUARD_REGENERABLE", "regenerable"),
];

impl Settings {
    /// Lays the environment (read through `lookup`) over these settings. Returns the values
    /// it could not use, and the variables it did use.
    pub fn apply_env(
        &mut self,
        lookup: &dyn Fn(&str) -> Option<String>,
    ) -> (Vec<BadSetting>, Vec<&'static str>) {
        let mut bad = Vec::new();
        let mut used = Vec::new();
        for &(name, _) in ENV {
            let Some(raw) = lookup(name) else { continue };
            let value = raw.trim().to_ascii_lowercase();
            // An empty list of regenerable folders means none; any other empty value, unset.
            if value.is_empty() && name != "AGENT_GUARD_REGENERABLE" {
                continue;
            }
            let expected = match name {
                "AGENT_GUARD_OFF" => switch(&value).map(|on| self.off = on).ok_or("1 or 0"),
                "AGENT_GUARD_MODE" => Mode::parse(&value)
                    .map(|m| self.mode = m)
                    .ok_or("enforce or observe"),
                "AGENT_GUARD_PROFILE" => Profile::parse(&value)
                    .map(|p| self.profile = p)
                    .ok_or("standard or strict"),
                "AGENT_GUARD_ON_DESTRUCTIVE" => OnDestructive::parse(&value)
                    .map(|o| self.on_destructive = o)
                    .ok_or("deny or ask"),
                "AGENT_GUARD_CONTEXT" => switch(&value)
                    .map(|on| self.context = on)
                    .ok_or("on or off"),
                // AGENT_GUARD_REGENERABLE: any list of names is one.
                _ => {
                    self.regenerable = raw
                        .split(',')
                        .map(str::trim)
                        .filter(|name| !name.is_empty())
                        .map(str::to_string)
                        .collect();
                    Ok(())
                }
            };
            match expected {
                Ok(()) => used.push(name),
                Err(expected) => bad.push(BadSetting {
                    name,
                    value,
                    expected,
                }),
            }
        }
        (bad, used)
    }

    /// The exceptions that still apply today.
    pub fn live_exceptions(&self) -> impl Iterator<Item = &Exception> {
        let today = Date::today();
        self.allow.iter().filter(move |e| !e.expired(today))
    }
}

fn switch(value: &str) -> Option<bool> {
    match value {
        "1" | "on" | "true" | "yes" => Some(true),
        "0" | "off" | "false" | "no" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from(pairs: &[(&str, &str)]) -> (Settings, Vec<BadSetting>, Vec<&'static str>) {
        let mut settings = Settings::default();
        let (bad, used) = settings.apply_env(&|name| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        });
        (settings, bad, used)
    }

    #[test]
    fn defaults_guard() {
        let (s, bad, used) = from(&[]);
        assert_eq!(s, Settings::default());
        assert!(bad.is_empty() && used.is_empty());
        assert!(s.inline_override && !s.off && s.context);
        assert_eq!(s.protected_branches, ["main", "master"]);
    }

    #[test]
    fn bad_values_keep_defaults_and_are_reported() {
        let (s, bad, _) = from(&[
            ("AGENT_GUARD_PROFILE", "paranoid"),
            ("AGENT_GUARD_OFF", "maybe"),
            ("AGENT_GUARD_MODE", "watch"),
        ]);
        assert_eq!(s, Settings::default());
        let names: Vec<&str> = bad.iter().map(|b| b.name).collect();
        assert_eq!(
            names,
            ["AGENT_GUARD_OFF", "AGENT_GUARD_MODE", "AGENT_GUARD_PROFILE"]
        );
        assert!(bad[0].to_string().contains("expected 1 or 0"));
    }

    #[test]
    fn values_are_read() {
        let (s, bad, used) = from(&[
            ("AGENT_GUARD_PROFILE", "Strict"),
            ("AGENT_GUARD_ON_DESTRUCTIVE", "ask"),
            ("AGENT_GUARD_CONTEXT", "off"),
            ("AGENT_GUARD_OFF", "1"),
            ("AGENT_GUARD_MODE", "observe"),
            ("AGENT_GUARD_REGENERABLE", "dist, out,,"),
        ]);
        assert!(bad.is_empty());
        assert_eq!(used.len(), 6);
        assert_eq!(s.profile, Profile::Strict);
        assert_eq!(s.on_destructive, OnDestructive::Ask);
        assert_eq!(s.mode, Mode::Observe);
        assert!(!s.context);
        assert!(s.off);
        assert_eq!(s.regenerable, ["dist", "out"]);
    }

    #[test]
    fn an_exception_expires_on_its_day() {
        let day = Date::parse("2026-03-01").unwrap();
        let exception = Exception {
            rule: Some("git.push-force".into()),
            command: None,
            reason: "release".into(),
            expires: Some(day),
            origin: "x:1".into(),
        };
        assert!(!exception.expired(Date::parse("2026-02-28").unwrap()));
        assert!(exception.expired(day));
    }
}
