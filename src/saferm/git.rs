//! The few questions `rm`, the trash and the claims ask git: which repository holds a folder,
//! where its shared store is, what it tracks and what has uncommitted changes.
//!
//! Read-only, like the hook's context: optional locks are off, so no index lock is taken, and
//! nothing prompts. Unlike the hook, a command a person runs can wait for git, so there is no
//! deadline; an answer git cannot give is an error, and an error refuses the removal.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use super::error::Error;
use super::paths::canonical;

/// A repository's work tree and the store all its worktrees share.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repo {
    /// The top of the work tree that holds the folder asked about.
    pub top: PathBuf,
    /// `git rev-parse --git-common-dir`: the same for every worktree of the repository, so
    /// the trash and the claims kept there are shared by all of them.
    pub common_dir: PathBuf,
}

impl Repo {
    /// The repository whose work tree holds `dir`, or `None` outside any.
    pub fn containing(dir: &Path) -> Result<Option<Repo>, Error> {
        let out = match git(
            dir,
            &[
                "rev-parse",
                "--path-format=absolute",
                "--show-toplevel",
                "--git-common-dir",
            ],
        ) {
            Ok(out) => out,
            // Without git, only a folder with no `.git` above it can be known to be outside
            // any repository.
            Err(Run::Missing(_)) if !has_git_above(dir) => return Ok(None),
            Err(Run::Missing(e)) => {
                return Err(Error::new(format!(
                    "{} is in a git repository, but git cannot be run: {e}",
                    dir.display()
                )));
            }
            Err(Run::Failed(msg)) if msg.contains("not a git repository") => return Ok(None),
            Err(Run::Failed(msg)) => {
                return Err(Error::new(format!(
                    "git cannot tell which repository holds {}: {msg}",
                    dir.display()
                )));
            }
        };
        let mut lines = out.lines();
        let (Some(top), Some(common)) = (lines.next(), lines.next()) else {
            return Err(Error::new(format!(
                "git gave no work tree for {}",
                dir.display()
            )));
        };
        // Canonical like the paths asked about, so that one is found inside the other (on
        // Windows git writes `C:/x` where `canonicalize` gives `C:\x`).
        let (top, common_dir) = (PathBuf::from(top), dir.join(common));
        Ok(Some(Repo {
            top: canonical(&top).unwrap_or(top),
            common_dir: canonical(&common_dir).unwrap_or(common_dir),
        }))
    }

    /// The files git tracks at or under `path` (staged-only new files included).
    pub fn tracked(&self, path: &Path) -> Result<Vec<String>, Error> {
        let rel = self.relative(path);
        let out = self.ask(&["ls-files", "-z", "--cached", "--", &rel])?;
        Ok(out
            .split('\0')
            .filter(|f| !f.is_empty())
            .map(str::to_string)
            .collect())
    }

    /// Tracked files at or under `path` whose content differs from the last commit, staged
    /// or not (added, modified, deleted, renamed).
    pub fn changed(&self, path: &Path) -> Result<Vec<String>, Error> {
        let rel = self.relative(path);
        let out = self.ask(&[
            "status",
            "--porcelain=v1",
            "-z",
            "--untracked-files=no",
            "--ignore-submodules=none",
            "--",
            &rel,
        ])?;
        let mut files = Vec::new();
        let mut fields = out.split('\0').filter(|f| f.len() > 3);
        while let Some(entry) = fields.next() {
            let (code, file) = entry.split_at(3);
            files.push(file.to_string());
            // A rename or copy is followed by the path it came from.
            if code.starts_with('R') || code.starts_with('C') {
                fields.next();
            }
        }
        Ok(files)
    }

    /// Where agent-guard keeps its own files for this repository (trash, claims).
    pub fn agent_guard_dir(&self) -> PathBuf {
        self.common_dir.join("agent-guard")
    }

    /// `path` relative to the top of the work tree, `.` for the top itself, its names joined
    /// by `/` as git writes them on every platform.
    fn relative(&self, path: &Path) -> String {
        match path.strip_prefix(&self.top) {
            Ok(rel) if rel.as_os_str().is_empty() => ".".into(),
            Ok(rel) => rel
                .iter()
                .map(|name| name.to_string_lossy())
                .collect::<Vec<_>>()
                .join("/"),
            Err(_) => path.to_string_lossy().into_owned(),
        }
    }

    fn ask(&self, args: &[&str]) -> Result<String, Error> {
        git(&self.top, args).map_err(|e| {
            Error::new(format!(
                "git {} failed in {}: {}",
                args.first().unwrap_or(&""),
                self.top.display(),
                match e {
                    Run::Missing(e) => e.to_string(),
                    Run::Failed(msg) => msg,
                }
            ))
        })
    }
}

enum Run {
    /// git could not be started.
    Missing(std::io::Error),
    /// git ran and failed; its message.
    Failed(String),
}

/// Runs `git <args>` in `dir`. Pathspecs are literal, so a file named `*.rs` means that file.
/// The repository is the folder's own, whatever the environment names.
fn git(dir: &Path, args: &[&str]) -> Result<String, Run> {
    use crate::git::{Error as GitError, Git};
    let args = [&["--literal-pathspecs"], args].concat();
    match Git::new(dir).run(&args) {
        Ok(out) => Ok(String::from_utf8_lossy(&out).into_owned()),
        Err(GitError::Io(e)) if e.kind() == ErrorKind::NotFound => Err(Run::Missing(e)),
        Err(GitError::Failed { status, stderr }) => {
            let msg = stderr.trim().trim_start_matches("fatal: ").to_string();
            Err(Run::Failed(if msg.is_empty() {
                format!("exit status {status}")
            } else {
                msg
            }))
        }
        Err(e) => Err(Run::Failed(e.to_string())),
    }
}

fn has_git_above(dir: &Path) -> bool {
    dir.ancestors().any(|d| d.join(".git").exists())
}
