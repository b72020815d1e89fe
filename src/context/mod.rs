//! Context: looking at the repository and the file system before judging.
//!
//! Asked only about findings, never about a command with none, so the common path runs no
//! git process and walks no folder. Every question shares one deadline; an answer that is
//! not in by then, or any error, is "unknown", and an unknown leaves the rules' verdict
//! standing. Read-only throughout: git runs with `--no-optional-locks`, so it never takes the
//! index lock, and nothing is written.

mod git;
mod paths;
mod run;
mod sqlfile;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::rules::{Finding, Subject, Tier};
use crate::settings::Settings;
use crate::shell::Word;

/// All context work for one hook call must fit in this.
pub const DEADLINE: Duration = Duration::from_millis(200);

/// What the context says about one finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Assessment {
    /// Nothing would be lost; the reason says why.
    Clear(String),
    /// Something would be lost: what, concretely, and how to get it back if there is a way.
    Loss {
        loses: String,
        recovery: Option<String>,
    },
    /// The command touches something protected that only the repository shows (the
    /// remote's default branch): the finding becomes protected, for the reason given.
    Protected(String),
    /// The context could not tell.
    Unknown,
}

pub struct Context {
    /// Where the command line starts: the host's working directory.
    start: Option<PathBuf>,
    home: Option<PathBuf>,
    deadline: Instant,
    regenerable: Vec<String>,
    protected_branches: Vec<String>,
    /// Whose claims count as our own: worked out once, when a claim is first looked at.
    session: std::cell::OnceCell<String>,
}

impl Context {
    pub fn new(cwd: Option<&Path>, settings: &Settings) -> Self {
        let start = cwd
            .map(Path::to_path_buf)
            .or_else(|| std::env::current_dir().ok());
        Context {
            start,
            home: std::env::var_os("HOME").map(PathBuf::from),
            deadline: Instant::now() + DEADLINE,
            regenerable: settings.regenerable.clone(),
            protected_branches: settings.protected_branches.clone(),
            session: std::cell::OnceCell::new(),
        }
    }

    /// The folder `finding`'s command runs in, following its `cd`s from where the command
    /// line starts: where a snapshot of what it could destroy is taken.
    pub fn run_directory(&self, finding: &Finding) -> Option<PathBuf> {
        self.directory(&finding.dirs)
    }

    /// Looks at what `finding` would destroy. Protected findings are never cleared.
    pub fn assess(&self, finding: &Finding) -> Assessment {
        let Some(dir) = self.directory(&finding.dirs) else {
            return Assessment::Unknown;
        };
        let assessment = match &finding.subject {
            Subject::Nothing => Assessment::Unknown,
            Subject::Git { globals, what } => git::assess(self, &dir, globals, what),
            Subject::Paths(targets) => paths::assess(self, &dir, targets),
            Subject::SqlFile { path, dialect } => {
                sqlfile::assess(&dir, path, *dialect, self.home.as_deref())
            }
        };
        match assessment {
            Assessment::Clear(_) if finding.tier == Tier::Protected => Assessment::Unknown,
            other => other,
        }
    }

    /// What `git <name>` expands to, when `name` is an alias in the repository at `dirs`.
    pub fn git_alias(&self, dirs: &[Word], globals: &[String], name: &str) -> Option<String> {
        let dir = self.directory(dirs)?;
        git::alias(self, &dir, globals, name)
    }

    /// The directory a command runs in, following the `cd`s before it. `None` when any of
    /// them is not literal or does not lead to an existing directory: if a `cd` fails, the
    /// shell may well run the command somewhere else.
    fn directory(&self, dirs: &[Word]) -> Option<PathBuf> {
        let mut current = self.start.clone()?;
        let mut previous = current.clone();
        for word in dirs {
            let target = word.value()?;
            let next = match target {
                "-" => previous.clone(),
                "~" => self.home.clone()?,
                t if t.starts_with("~/") => self.home.as_ref()?.join(&t[2..]),
                t => current.join(t),
            };
            if !next.is_dir() {
                return None;
            }
            previous = std::mem::replace(&mut current, next);
        }
        Some(current)
    }

    fn time_left(&self) -> Option<Duration> {
        self.deadline
            .checked_duration_since(Instant::now())
            .filter(|d| !d.is_zero())
    }

    fn is_regenerable(&self, name: &str) -> bool {
        self.regenerable.iter().any(|r| r == name)
    }

    /// A claim another agent holds on one of `paths` (under `dir`), if any. `Err` when the
    /// claims cannot be read: the caller must then not clear anything.
    fn claim_on(&self, dir: &Path, paths: &[&Path]) -> Result<Option<crate::claims::Claim>, ()> {
        let session = self
            .session
            .get_or_init(|| crate::claims::Session::from_env(None).id);
        crate::claims::claimed_by_other(dir, paths, session).map_err(|_| ())
    }
}

/// "claimed by session `x` (pid n)": why another agent's path stays untouched.
fn claimed(claim: &crate::claims::Claim) -> String {
    format!(
        "`{}`, claimed by another agent (session `{}`, pid {})",
        claim.path.display(),
        claim.session,
        claim.pid
    )
}

/// `a`, `b`, `c` and N more: a few names from a longer list, for a reason line.
fn sample(items: &[String], noun: &str) -> String {
    let n = items.len();
    let plural = if n == 1 {
        noun.to_string()
    } else {
        format!("{noun}s")
    };
    let shown: Vec<&str> = items.iter().take(3).map(String::as_str).collect();
    let more = if n > 3 {
        format!(", ... ({} more)", n - 3)
    } else {
        String::new()
    };
    format!("{n} {plural} ({}{more})", shown.join(", "))
}
