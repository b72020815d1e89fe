//! Git in the repository a snapshot is of, and the throw-away index a snapshot is built in.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::git::{Env, Error, Git};

/// All the git work of one snapshot or one undo must fit in this; past it the command is
/// let through (or the undo stops) without.
const BUDGET: Duration = Duration::from_secs(20);

/// Git in the repository a snapshot is of, within [`BUDGET`]. It runs with the environment
/// the command runs with (a person's own, for `agent-guard undo`), on the repository's own
/// index unless given a temporary one, and commits as agent-guard.
#[derive(Clone, Copy)]
pub(super) struct Repo<'a> {
    git: Git<'a>,
}

impl<'a> Repo<'a> {
    pub(super) fn new(dir: &'a Path, globals: &'a [String]) -> Self {
        let git = Git::new(dir)
            .globals(globals)
            .env(Env::Inherited(&[]))
            .own_index()
            .identity("agent-guard", "agent-guard@localhost")
            .deadline(Instant::now() + BUDGET);
        Repo { git }
    }

    /// The same, with `GIT_INDEX_FILE` pointing at a temporary index.
    pub(super) fn with_index(&self, index: &'a Path) -> Repo<'a> {
        Repo {
            git: self.git.index(index),
        }
    }

    /// The top folder of the working tree.
    pub(super) fn toplevel(&self) -> Result<PathBuf, String> {
        match self.run(&["rev-parse", "--show-toplevel"], None) {
            Ok(out) => Ok(PathBuf::from(text(out))),
            Err(e) if e.contains("not a git repository") => {
                Err("the command does not run in a git repository".into())
            }
            Err(e) => Err(e),
        }
    }

    pub(super) fn index_path(&self) -> Result<PathBuf, String> {
        let out = self.run(
            &["rev-parse", "--path-format=absolute", "--git-path", "index"],
            None,
        )?;
        Ok(PathBuf::from(text(out)))
    }

    /// `git <globals> <args>`: stdout when it exits 0, else the first line git complained.
    pub(super) fn run(&self, args: &[&str], stdin: Option<&[u8]>) -> Result<Vec<u8>, String> {
        let ran = match stdin {
            Some(input) => self.git.run_with_input(args, input),
            None => self.git.run(args),
        };
        let what = format!("git {}", args.first().unwrap_or(&""));
        ran.map_err(|e| match &e {
            Error::Io(io) => format!("could not run git ({io})"),
            Error::Timeout => format!("{what} took too long"),
            Error::Failed { .. } => format!("{what}: {}", e.complaint().unwrap_or("failed")),
        })
    }
}

/// A throw-away index file, removed when dropped.
pub(super) struct TempIndex {
    pub(super) path: PathBuf,
}

impl TempIndex {
    pub(super) fn new() -> TempIndex {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let path =
            std::env::temp_dir().join(format!("agent-guard-index-{}-{nanos}", std::process::id()));
        TempIndex { path }
    }

    /// A copy of the real index, so `git add` starts from what git already knows (and its
    /// file stamps spare it rehashing unchanged files).
    pub(super) fn copy_of(index: &Path) -> Result<TempIndex, String> {
        let temp = TempIndex::new();
        match std::fs::copy(index, &temp.path) {
            Ok(_) => Ok(temp),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(temp),
            Err(e) => Err(format!("could not copy the index ({e})")),
        }
    }
}

impl Drop for TempIndex {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
        let mut lock = self.path.clone().into_os_string();
        lock.push(".lock");
        let _ = std::fs::remove_file(lock);
    }
}

/// The fields of git's NUL-separated output.
pub(super) fn split_nul(out: &[u8]) -> Vec<String> {
    out.split(|b| *b == 0)
        .filter(|f| !f.is_empty())
        .map(|f| String::from_utf8_lossy(f).into_owned())
        .collect()
}

/// git's answer as one trimmed line.
pub(super) fn text(out: Vec<u8>) -> String {
    String::from_utf8_lossy(&out).trim().to_string()
}
