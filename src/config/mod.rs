//! Configuration files: the team's `.agent-guard.toml` at the repository root (committed,
//! shared) and the user's `~/.config/agent-guard/config.toml` (on Windows
//! `%APPDATA%\agent-guard\config.toml`; see [`dirs`]), or the file `AGENT_GUARD_CONFIG` names
//! instead. The project file wins over the user's, key by key, and
//! the environment wins over both; `[[allow]]` entries of both files apply.
//!
//! Loading runs on every hook call, so it stays cheap: a few `stat`s to find the repository
//! root, two small reads, no git process. A file that does not parse, an unknown key or a bad
//! value is reported with its file, line and key, and only that part is ignored: the guard
//! goes on guarding with its defaults for it.

pub mod dirs;
pub mod parse;

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use crate::settings::Settings;

/// The project's file, at the repository root.
pub const PROJECT_FILE: &str = ".agent-guard.toml";

/// Where a setting's value came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    Default,
    File { path: PathBuf, line: usize },
    Env(&'static str),
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Default => f.write_str("default"),
            Origin::File { path, line } => write!(f, "{}:{line}", path.display()),
            Origin::Env(name) => f.write_str(name),
        }
    }
}

/// Something wrong in a configuration file: where, which key, and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub path: PathBuf,
    pub line: usize,
    /// The dotted key (`snapshots.max_age`, `allow[2].expires`); empty for a syntax error.
    pub key: String,
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "agent-guard: {}:{}: ", self.path.display(), self.line)?;
        if self.key.is_empty() {
            write!(f, "{}; the file is ignored", self.message)
        } else {
            write!(f, "{}: {}; ignored", self.key, self.message)
        }
    }
}

/// Which of the two files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    User,
    Project,
}

/// A configuration file the guard looked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct File {
    pub scope: Scope,
    pub path: PathBuf,
    pub found: bool,
    /// The path came from `AGENT_GUARD_CONFIG`.
    pub named: bool,
}

/// The effective settings and how they came about.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub settings: Settings,
    /// For each key that is not at its default, where its value was set.
    pub origins: BTreeMap<&'static str, Origin>,
    pub files: Vec<File>,
    /// Problems in the files and the environment, one message each, ready for stderr.
    pub problems: Vec<String>,
    /// The repository the command runs in (its top folder), when there is one.
    pub repository: Option<PathBuf>,
}

impl Loaded {
    pub fn origin(&self, key: &str) -> Origin {
        self.origins.get(key).cloned().unwrap_or(Origin::Default)
    }
}

/// The settings for a command that runs in `cwd` (else the current folder), from the files
/// and the process environment.
pub fn load(cwd: Option<&Path>) -> Loaded {
    load_with(cwd, &|name| std::env::var(name).ok())
}

/// [`load`] with the environment read through `lookup`.
pub fn load_with(cwd: Option<&Path>, lookup: &dyn Fn(&str) -> Option<String>) -> Loaded {
    let start = cwd
        .map(Path::to_path_buf)
        .or_else(|| std::env::current_dir().ok());
    let repository = start.as_deref().and_then(repository_root);
    let mut files = Vec::new();
    if let Some(named) = lookup("AGENT_GUARD_CONFIG").filter(|p| !p.trim().is_empty()) {
        files.push((Scope::User, PathBuf::from(named), true));
    } else if let Some(path) = user_file(lookup) {
        files.push((Scope::User, path, false));
    }
    if let Some(root) = &repository {
        files.push((Scope::Project, root.join(PROJECT_FILE), false));
    }

    let mut settings = Settings::default();
    let mut origins = BTreeMap::new();
    let mut problems = Vec::new();
    let mut looked = Vec::new();
    for (scope, path, named) in files {
        let found = match std::fs::read_to_string(&path) {
            Ok(text) => {
                let mut file_problems = Vec::new();
                parse::apply(
                    &text,
                    &path,
                    &mut settings,
                    &mut origins,
                    &mut file_problems,
                );
                problems.extend(file_problems.iter().map(Problem::to_string));
                true
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                if named {
                    problems.push(format!(
                        "agent-guard: AGENT_GUARD_CONFIG={}: no such file; using the defaults",
                        path.display()
                    ));
                }
                false
            }
            Err(e) => {
                problems.push(format!(
                    "agent-guard: {}: cannot read it ({e}); using the defaults",
                    path.display()
                ));
                false
            }
        };
        looked.push(File {
            scope,
            path,
            found,
            named,
        });
    }
    if !settings.team.is_empty() {
        // A team rule's relative path starts at the repository's top folder; a command's, at
        // the folder it runs in.
        let os_lookup = |name: &str| lookup(name).map(std::ffi::OsString::from);
        settings.team.home = dirs::home(dirs::Os::CURRENT, &os_lookup);
        settings.team.root = repository.clone().or_else(|| start.clone());
        settings.team.here = start.clone();
    }
    let (bad, used) = settings.apply_env(lookup);
    problems.extend(
        bad.iter()
            .map(|b| format!("{b}; keeping the configured value")),
    );
    for name in used {
        if let Some(&(_, key)) = crate::settings::ENV.iter().find(|(n, _)| *n == name) {
            origins.insert(key, Origin::Env(name));
        }
    }
    Loaded {
        settings,
        origins,
        files: looked,
        problems,
        repository,
    }
}

/// `config.toml` in the guard's configuration folder ([`dirs::Dir::Config`]).
fn user_file(lookup: &dyn Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let lookup = |name: &str| lookup(name).map(std::ffi::OsString::from);
    Some(dirs::own(dirs::Os::CURRENT, dirs::Dir::Config, &lookup)?.join("config.toml"))
}

/// The nearest folder at or above `dir` that holds `.git` (a folder, or a worktree's file).
pub fn repository_root(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .find(|d| d.join(".git").symlink_metadata().is_ok())
        .map(Path::to_path_buf)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::{OnDestructive, Profile};

    fn env(pairs: &[(&str, String)]) -> impl Fn(&str) -> Option<String> + use<> {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect();
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        }
    }

    #[test]
    fn project_over_user_over_defaults_and_the_environment_over_both() {
        let root = tempfile::tempdir().unwrap();
        let home = root.path().join("home");
        let repo = root.path().join("repo");
        std::fs::create_dir_all(home.join(".config/agent-guard")).unwrap();
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::create_dir_all(repo.join("src")).unwrap();
        std::fs::write(
            home.join(".config/agent-guard/config.toml"),
            "profile = \"strict\"\non_destructive = \"ask\"\n",
        )
        .unwrap();
        std::fs::write(repo.join(PROJECT_FILE), "\non_destructive = \"deny\"\n").unwrap();
        let lookup = env(&[
            ("HOME", home.display().to_string()),
            ("AGENT_GUARD_CONTEXT", "off".into()),
        ]);
        let loaded = load_with(Some(&repo.join("src")), &lookup);
        assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
        assert_eq!(loaded.repository.as_deref(), Some(repo.as_path()));
        assert_eq!(loaded.settings.profile, Profile::Strict);
        assert_eq!(loaded.settings.on_destructive, OnDestructive::Deny);
        assert!(!loaded.settings.context);
        assert_eq!(
            loaded.origin("on_destructive"),
            Origin::File {
                path: repo.join(PROJECT_FILE),
                line: 2
            }
        );
        assert_eq!(loaded.origin("context"), Origin::Env("AGENT_GUARD_CONTEXT"));
        assert_eq!(loaded.origin("mode"), Origin::Default);
    }

    #[test]
    fn agent_guard_config_names_the_user_file() {
        let root = tempfile::tempdir().unwrap();
        let named = root.path().join("elsewhere.toml");
        std::fs::write(&named, "mode = \"observe\"\n").unwrap();
        let lookup = env(&[("AGENT_GUARD_CONFIG", named.display().to_string())]);
        let loaded = load_with(Some(root.path()), &lookup);
        assert_eq!(loaded.settings.mode, crate::settings::Mode::Observe);
        assert!(loaded.files[0].named && loaded.files[0].found);

        let missing = root.path().join("missing.toml");
        let lookup = env(&[("AGENT_GUARD_CONFIG", missing.display().to_string())]);
        let loaded = load_with(Some(root.path()), &lookup);
        assert_eq!(loaded.settings, Settings::default());
        assert!(
            loaded.problems[0].contains("no such file"),
            "{:?}",
            loaded.problems
        );
    }

    #[test]
    fn outside_a_repository_there_is_no_project_file() {
        let root = tempfile::tempdir().unwrap();
        std::fs::write(root.path().join(PROJECT_FILE), "profile = \"strict\"\n").unwrap();
        let loaded = load_with(Some(root.path()), &env(&[]));
        assert_eq!(loaded.repository, None);
        assert_eq!(loaded.settings.profile, Profile::Standard);
    }
}
