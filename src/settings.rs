//! Settings from the hook's environment.
//!
//! A bad value never switches the guard off: it is reported on stderr and the default is
//! used, so a typo in `AGENT_GUARD_PROFILE` leaves the user guarded, not exposed.

use std::fmt;

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
}

/// What a destructive (not protected) finding becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OnDestructive {
    #[default]
    Deny,
    Ask,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// `AGENT_GUARD_OFF=1`: everything passes.
    pub off: bool,
    pub profile: Profile,
    pub on_destructive: OnDestructive,
    /// Consult the repository before judging (`AGENT_GUARD_CONTEXT`). With the rules alone
    /// (`off`) every finding stands as the command text shows it.
    pub context: bool,
    /// Names of output folders that a build or install recreates (`AGENT_GUARD_REGENERABLE`,
    /// comma-separated): deleting an ignored one loses nothing.
    pub regenerable: Vec<String>,
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

impl Default for Settings {
    fn default() -> Self {
        Settings {
            off: false,
            profile: Profile::Standard,
            on_destructive: OnDestructive::Deny,
            context: true,
            regenerable: REGENERABLE.iter().map(|s| s.to_string()).collect(),
        }
    }
}

/// A setting with a value the guard does not understand.
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
            "agent-guard: ignoring {}={:?}: expected {}; using the default",
            self.name, self.value, self.expected
        )
    }
}

impl Settings {
    /// Reads the settings from the process environment.
    pub fn from_env() -> (Settings, Vec<BadSetting>) {
        Self::from_lookup(|name| std::env::var(name).ok())
    }

    /// Reads the settings through `lookup`, so tests need not touch the real environment.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> (Settings, Vec<BadSetting>) {
        let mut settings = Settings::default();
        let mut bad = Vec::new();
        let read = |name: &str| -> Option<String> {
            let value = lookup(name)?.trim().to_ascii_lowercase();
            (!value.is_empty()).then_some(value)
        };
        if let Some(v) = read("AGENT_GUARD_OFF") {
            match switch(&v) {
                Some(on) => settings.off = on,
                None => bad.push(BadSetting {
                    name: "AGENT_GUARD_OFF",
                    value: v,
                    expected: "1 or 0",
                }),
            }
        }
        if let Some(v) = read("AGENT_GUARD_PROFILE") {
            match Profile::parse(&v) {
                Some(p) => settings.profile = p,
                None => bad.push(BadSetting {
                    name: "AGENT_GUARD_PROFILE",
                    value: v,
                    expected: "standard or strict",
                }),
            }
        }
        if let Some(v) = read("AGENT_GUARD_ON_DESTRUCTIVE") {
            match v.as_str() {
                "deny" => settings.on_destructive = OnDestructive::Deny,
                "ask" => settings.on_destructive = OnDestructive::Ask,
                _ => bad.push(BadSetting {
                    name: "AGENT_GUARD_ON_DESTRUCTIVE",
                    value: v,
                    expected: "deny or ask",
                }),
            }
        }
        if let Some(v) = read("AGENT_GUARD_CONTEXT") {
            match switch(&v) {
                Some(on) => settings.context = on,
                None => bad.push(BadSetting {
                    name: "AGENT_GUARD_CONTEXT",
                    value: v,
                    expected: "on or off",
                }),
            }
        }
        if let Some(list) = lookup("AGENT_GUARD_REGENERABLE") {
            settings.regenerable = list
                .split(',')
                .map(str::trim)
                .filter(|name| !name.is_empty())
                .map(str::to_string)
                .collect();
        }
        (settings, bad)
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

    fn from(pairs: &[(&str, &str)]) -> (Settings, Vec<BadSetting>) {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Settings::from_lookup(|name| {
            pairs
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        })
    }

    #[test]
    fn defaults_guard() {
        let (s, bad) = from(&[]);
        assert_eq!(s, Settings::default());
        assert!(bad.is_empty());
    }

    #[test]
    fn bad_values_keep_defaults_and_are_reported() {
        let (s, bad) = from(&[
            ("AGENT_GUARD_PROFILE", "paranoid"),
            ("AGENT_GUARD_OFF", "maybe"),
        ]);
        assert_eq!(s.profile, Profile::Standard);
        assert!(!s.off);
        assert_eq!(bad.len(), 2);
        assert!(bad[0].to_string().contains("AGENT_GUARD_OFF"));
    }

    #[test]
    fn values_are_read() {
        let (s, _) = from(&[
            ("AGENT_GUARD_PROFILE", "Strict"),
            ("AGENT_GUARD_ON_DESTRUCTIVE", "ask"),
            ("AGENT_GUARD_CONTEXT", "off"),
            ("AGENT_GUARD_OFF", "1"),
        ]);
        assert_eq!(s.profile, Profile::Strict);
        assert_eq!(s.on_destructive, OnDestructive::Ask);
        assert!(!s.context);
        assert!(s.off);
    }
}
