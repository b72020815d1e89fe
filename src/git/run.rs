//! The one runner of git. Every git process the guard starts goes through [`Git`], so what
//! git sees of the environment, what it may ask and how long it may take are decided here
//! once, not by each caller:
//!
//! - the environment: [`Env::Folder`] asks about the repository that holds the folder, with
//!   every variable that would point git elsewhere removed ([`LOCATION`]); a caller judging
//!   the agent's own command says so with [`Env::Inherited`], which keeps this process's
//!   environment and adds the command's prefixes (`GIT_DIR=../x git reset --hard`);
//! - nothing prompts or pages (`GIT_TERMINAL_PROMPT=0`, no `GIT_PAGER`, stdin closed unless
//!   given), git's messages are in English (`LC_ALL=C`), and git's optional locks are off,
//!   so the guard never takes the index lock from under the user's own git (its own writes
//!   go to refs and to a temporary index);
//! - a deadline when the caller has one: past it git is killed;
//! - stdout and stderr are captured; one [`Error`] says what went wrong, with git's own
//!   complaint, and each caller words it its own way.

use std::fmt;
use std::io::{self, Read, Write};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Variables that point git away from the folder's own repository: at another git
/// directory, work tree, index, object store, set of refs or configuration. The list git
/// itself clears before it runs a command in another repository (`local_repo_env`: the location, grafts, replace refs,
/// shallow file, prefix and `-c` configuration of the repository it came from), with the
/// namespace, which hides refs, and the ceiling, which can hide the repository itself.
///
/// Kept: the user's own configuration (`HOME`, `XDG_CONFIG_HOME`, `GIT_CONFIG_GLOBAL`,
/// `GIT_CONFIG_SYSTEM`, `GIT_CONFIG_NOSYSTEM`), which the user's git reads in that folder too,
/// and `GIT_DISCOVERY_ACROSS_FILESYSTEM`, which only lets git find the folder's own
/// repository across a mount.
pub const LOCATION: &[&str] = &[
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_IMPLICIT_WORK_TREE",
    "GIT_COMMON_DIR",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_SHALLOW_FILE",
    "GIT_GRAFT_FILE",
    "GIT_NAMESPACE",
    "GIT_REPLACE_REF_BASE",
    "GIT_NO_REPLACE_OBJECTS",
    "GIT_PREFIX",
    "GIT_CONFIG",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT",
    "GIT_CEILING_DIRECTORIES",
];

/// Variables that change how git reads a pathspec. The guard's own questions name paths as
/// they are, and git refuses `--literal-pathspecs` (which the guarded `rm` gives) beside a
/// glob or case-insensitive setting, so [`Env::Folder`] removes them.
pub const PATHSPEC_MAGIC: &[&str] = &[
    "GIT_LITERAL_PATHSPECS",
    "GIT_GLOB_PATHSPECS",
    "GIT_NOGLOB_PATHSPECS",
    "GIT_ICASE_PATHSPECS",
];

/// Removed whatever the caller asks for: a pager, and the redirections of git's standard
/// streams to files (Git for Windows), which would take the answer away from the pipes it is
/// read from.
const NEVER: &[&str] = &[
    "GIT_PAGER",
    "GIT_REDIRECT_STDIN",
    "GIT_REDIRECT_STDOUT",
    "GIT_REDIRECT_STDERR",
];

/// Whose environment git runs with.
#[derive(Debug, Clone, Copy)]
pub enum Env<'a> {
    /// The repository that holds the folder git runs in, whatever this process's environment
    /// names: [`LOCATION`] and [`PATHSPEC_MAGIC`] are removed.
    Folder,
    /// This process's environment as it is, plus these variables: for a question about what
    /// a command will meet when it runs with the agent's environment and its own prefixes.
    Inherited(&'a [(String, String)]),
}

/// Which index git uses.
#[derive(Debug, Clone, Copy)]
enum Index<'a> {
    /// Whatever the environment says.
    Environment,
    /// The repository's own, even when the environment names another.
    Repository,
    /// This file.
    File(&'a Path),
}

/// Why git gave no answer.
#[derive(Debug)]
pub enum Error {
    /// git could not be started (`NotFound`: it is not installed), or not read from.
    Io(io::Error),
    /// The deadline passed first; git was killed.
    Timeout,
    /// git ran and exited unsuccessfully.
    Failed { status: ExitStatus, stderr: String },
}

impl Error {
    /// What git complained of: the first line it wrote to stderr, without its `fatal: ` or
    /// `error: ` label.
    pub fn complaint(&self) -> Option<&str> {
        let Error::Failed { stderr, .. } = self else {
            return None;
        };
        let line = stderr.lines().map(str::trim).find(|l| !l.is_empty())?;
        Some(
            line.trim_start_matches("fatal: ")
                .trim_start_matches("error: "),
        )
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io(e) => write!(f, "cannot run git: {e}"),
            Error::Timeout => f.write_str("git took too long"),
            Error::Failed { status, .. } => match self.complaint() {
                Some(complaint) => f.write_str(complaint),
                None => write!(f, "git failed ({status})"),
            },
        }
    }
}

impl std::error::Error for Error {}

/// How to run git in one folder; [`Git::run`] runs it.
#[derive(Debug, Clone, Copy)]
pub struct Git<'a> {
    dir: &'a Path,
    globals: &'a [String],
    env: Env<'a>,
    index: Index<'a>,
    identity: Option<(&'a str, &'a str)>,
    deadline: Option<Instant>,
}

impl<'a> Git<'a> {
    /// Git in `dir`, about the repository that holds it ([`Env::Folder`]), with no deadline.
    pub fn new(dir: &'a Path) -> Self {
        Git {
            dir,
            globals: &[],
            env: Env::Folder,
            index: Index::Environment,
            identity: None,
            deadline: None,
        }
    }

    /// Global options put before the subcommand (`-C dir`, `--git-dir=...`, `-c key=value`).
    pub fn globals(self, globals: &'a [String]) -> Self {
        Git { globals, ..self }
    }

    /// Runs with `env` ([`Env::Folder`] unless said).
    pub fn env(self, env: Env<'a>) -> Self {
        Git { env, ..self }
    }

    /// Reads and writes `index` instead of the repository's index (`GIT_INDEX_FILE`).
    pub fn index(self, index: &'a Path) -> Self {
        Git {
            index: Index::File(index),
            ..self
        }
    }

    /// Uses the repository's own index even when the environment names another.
    pub fn own_index(self) -> Self {
        Git {
            index: Index::Repository,
            ..self
        }
    }

    /// Commits as `name <email>`, author and committer alike.
    pub fn identity(self, name: &'a str, email: &'a str) -> Self {
        Git {
            identity: Some((name, email)),
            ..self
        }
    }

    /// Kills git when it has not finished by `deadline`.
    pub fn deadline(self, deadline: Instant) -> Self {
        Git {
            deadline: Some(deadline),
            ..self
        }
    }

    /// `git <globals> <args>` with stdin closed: its stdout when it exits 0.
    pub fn run(&self, args: &[&str]) -> Result<Vec<u8>, Error> {
        self.output(self.command(Command::new("git"), args), None)
    }

    /// `git <globals> <args>` reading `input`: its stdout when it exits 0.
    pub fn run_with_input(&self, args: &[&str], input: &[u8]) -> Result<Vec<u8>, Error> {
        self.output(self.command(Command::new("git"), args), Some(input))
    }

    /// `command` (git, or in tests a stand-in with a parent environment of its own) made
    /// ready to run `args` as this runner runs git.
    fn command(&self, mut command: Command, args: &[&str]) -> Command {
        command
            .arg("--no-optional-locks")
            .args(self.globals)
            .args(args)
            .current_dir(self.dir);
        match self.env {
            Env::Folder => remove(&mut command, LOCATION.iter().chain(PATHSPEC_MAGIC)),
            Env::Inherited(plus) => {
                command.envs(plus.iter().map(|(k, v)| (k, v)));
            }
        }
        remove(&mut command, NEVER);
        command
            .env("GIT_OPTIONAL_LOCKS", "0")
            .env("GIT_TERMINAL_PROMPT", "0")
            .env("LC_ALL", "C");
        match self.index {
            Index::Environment => {}
            Index::Repository => {
                command.env_remove("GIT_INDEX_FILE");
            }
            Index::File(index) => {
                command.env("GIT_INDEX_FILE", index);
            }
        }
        if let Some((name, email)) = self.identity {
            command
                .env("GIT_AUTHOR_NAME", name)
                .env("GIT_AUTHOR_EMAIL", email)
                .env("GIT_COMMITTER_NAME", name)
                .env("GIT_COMMITTER_EMAIL", email);
        }
        command
    }

    /// Runs `command`, feeding it `input`, under this runner's deadline.
    fn output(&self, command: Command, input: Option<&[u8]>) -> Result<Vec<u8>, Error> {
        output(command, input, self.deadline)
    }
}

/// Runs `command` (its program, arguments, folder and environment set), feeding it `input`,
/// and reads what it writes until it ends or `deadline` passes; past it the process is
/// killed. Both streams are read on their own threads, so a large answer cannot block the
/// process; the end of its output is, in practice, the end of the process. The context uses
/// it for the other version control tools it asks (`svn status`, `hg status`), under the same
/// deadline as its git questions.
pub fn output(
    mut command: Command,
    input: Option<&[u8]>,
    deadline: Option<Instant>,
) -> Result<Vec<u8>, Error> {
    if deadline.is_some_and(|d| Instant::now() >= d) {
        return Err(Error::Timeout);
    }
    let mut child = command
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(Error::Io)?;
    if let (Some(input), Some(mut pipe)) = (input, child.stdin.take()) {
        let input = input.to_vec();
        // When the process stops reading early, its exit status says why.
        std::thread::spawn(move || pipe.write_all(&input));
    }
    let (out, err, status) = match finish(&mut child, deadline) {
        Ok(ended) => ended,
        Err(e) => {
            let _ = child.kill();
            let _ = child.wait();
            return Err(e);
        }
    };
    if status.success() {
        return Ok(out);
    }
    Err(Error::Failed {
        status,
        stderr: String::from_utf8_lossy(&err).into_owned(),
    })
}

/// What the process wrote to stdout and stderr, and how it exited.
fn finish(
    child: &mut Child,
    deadline: Option<Instant>,
) -> Result<(Vec<u8>, Vec<u8>, ExitStatus), Error> {
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let out = collect(&stdout, deadline)?;
    let err = collect(&stderr, deadline)?;
    Ok((out, err, wait(child, deadline)?))
}

/// All one stream held, once the process closed it.
fn collect(
    stream: &Receiver<io::Result<Vec<u8>>>,
    deadline: Option<Instant>,
) -> Result<Vec<u8>, Error> {
    let read = match deadline {
        None => stream.recv().map_err(|_| RecvTimeoutError::Disconnected),
        Some(deadline) => stream.recv_timeout(deadline.saturating_duration_since(Instant::now())),
    };
    match read {
        Ok(read) => read.map_err(Error::Io),
        Err(RecvTimeoutError::Timeout) => Err(Error::Timeout),
        Err(RecvTimeoutError::Disconnected) => Err(Error::Io(io::Error::other(
            "the process's output could not be read",
        ))),
    }
}

/// The exit status, once the streams are closed.
fn wait(child: &mut Child, deadline: Option<Instant>) -> Result<ExitStatus, Error> {
    let Some(deadline) = deadline else {
        return child.wait().map_err(Error::Io);
    };
    let mut pause = Duration::from_micros(20);
    loop {
        match child.try_wait().map_err(Error::Io)? {
            Some(status) => return Ok(status),
            None if Instant::now() < deadline => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_micros(250));
            }
            None => return Err(Error::Timeout),
        }
    }
}

fn remove<'n>(command: &mut Command, names: impl IntoIterator<Item = &'n &'n str>) {
    for name in names {
        command.env_remove(name);
    }
}

/// Reads `pipe` to its end on a thread of its own.
fn drain(pipe: Option<impl Read + Send + 'static>) -> Receiver<io::Result<Vec<u8>>> {
    let (done, read) = mpsc::channel();
    std::thread::spawn(move || {
        let mut out = Vec::new();
        let result = match pipe {
            Some(mut pipe) => pipe.read_to_end(&mut out).map(|_| out),
            None => Ok(out),
        };
        let _ = done.send(result);
    });
    read
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A repository with an alias that prints the environment git gives it (set in its
    /// configuration: `-c` would put itself in the environment).
    fn repo() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for args in [&["init", "-q"][..], &["config", "alias.show-env", "!env"]] {
            let done = Command::new("git")
                .args(args)
                .current_dir(dir.path())
                .status()
                .unwrap();
            assert!(done.success());
        }
        dir
    }

    /// `git <args>` run as `runner`, when this process's environment holds `parent`.
    fn under(runner: Git, parent: &[(&str, &str)], args: &[&str]) -> Result<String, Error> {
        let mut command = Command::new("git");
        command.envs(parent.iter().copied());
        let command = runner.command(command, args);
        runner
            .output(command, None)
            .map(|out| String::from_utf8_lossy(&out).into_owned())
    }

    /// What a child of git run as `runner` finds in its environment.
    fn seen(runner: Git, parent: &[(&str, &str)]) -> Result<String, Error> {
        under(runner, parent, &["show-env"])
    }

    fn has(env: &str, line: &str) -> bool {
        env.lines().any(|l| l == line)
    }

    fn names(env: &str, name: &str) -> bool {
        env.lines().any(|l| l.starts_with(&format!("{name}=")))
    }

    #[test]
    fn a_folder_question_sees_no_other_repository() {
        let repo = repo();
        let elsewhere = repo.path().join("elsewhere");
        let elsewhere = elsewhere.to_str().unwrap();
        let mut parent: Vec<(&str, &str)> = LOCATION
            .iter()
            .chain(PATHSPEC_MAGIC)
            .map(|&name| (name, elsewhere))
            .collect();
        parent.extend([
            ("GIT_PAGER", "less"),
            ("GIT_REDIRECT_STDOUT", elsewhere),
            ("GIT_TERMINAL_PROMPT", "1"),
            ("GIT_CONFIG_NOSYSTEM", "1"),
            ("LC_ALL", "de_DE.UTF-8"),
        ]);
        let env = seen(Git::new(repo.path()), &parent).unwrap();
        for name in LOCATION.iter().chain(PATHSPEC_MAGIC).chain(NEVER) {
            // Git itself tells a shell alias the folder it was called from.
            if *name != "GIT_PREFIX" {
                assert!(!names(&env, name), "{name} reached git:\n{env}");
            }
        }
        assert!(!env.contains(elsewhere), "{env}");
        for line in [
            "GIT_TERMINAL_PROMPT=0",
            "GIT_OPTIONAL_LOCKS=0",
            "LC_ALL=C",
            "GIT_CONFIG_NOSYSTEM=1",
        ] {
            assert!(has(&env, line), "{line} missing:\n{env}");
        }
    }

    #[test]
    fn literal_pathspecs_hold_whatever_the_environment_says() {
        let repo = repo();
        let args = ["--literal-pathspecs", "ls-files", "--", "*.rs"];
        let parent = [("GIT_GLOB_PATHSPECS", "1")];
        assert_eq!(under(Git::new(repo.path()), &parent, &args).unwrap(), "");
        let inherited = Git::new(repo.path()).env(Env::Inherited(&[]));
        let err = under(inherited, &parent, &args).unwrap_err();
        assert!(err.to_string().contains("incompatible"), "{err}");
    }

    #[test]
    fn an_inherited_question_keeps_the_environment_and_adds_the_prefixes() {
        let repo = repo();
        let plus = [("GIT_NAMESPACE".to_string(), "agent".to_string())];
        let runner = Git::new(repo.path())
            .env(Env::Inherited(&plus))
            .identity("agent-guard", "agent-guard@localhost");
        let env = seen(
            runner,
            &[
                ("GIT_CEILING_DIRECTORIES", "/nowhere"),
                ("GIT_PAGER", "less"),
            ],
        )
        .unwrap();
        for line in [
            "GIT_NAMESPACE=agent",
            "GIT_CEILING_DIRECTORIES=/nowhere",
            "GIT_COMMITTER_NAME=agent-guard",
            "GIT_AUTHOR_EMAIL=agent-guard@localhost",
            "LC_ALL=C",
        ] {
            assert!(has(&env, line), "{line} missing:\n{env}");
        }
        assert!(!names(&env, "GIT_PAGER"), "{env}");
    }

    #[test]
    fn the_index_is_the_one_asked_for() {
        let repo = repo();
        let parent = [("GIT_INDEX_FILE", "/elsewhere/index")];
        let runner = Git::new(repo.path()).env(Env::Inherited(&[]));
        let index = repo.path().join("temp-index");
        let env = seen(runner.index(&index), &parent).unwrap();
        assert!(has(&env, &format!("GIT_INDEX_FILE={}", index.display())));
        let env = seen(runner.own_index(), &parent).unwrap();
        assert!(!names(&env, "GIT_INDEX_FILE"), "{env}");
        let env = seen(runner, &parent).unwrap();
        assert!(has(&env, "GIT_INDEX_FILE=/elsewhere/index"), "{env}");
    }

    #[test]
    fn stdout_and_stdin() {
        let repo = repo();
        let git = Git::new(repo.path());
        let out = git
            .run_with_input(&["hash-object", "--stdin"], b"hello\n")
            .unwrap();
        assert_eq!(out, b"ce013625030ba8dba906f756967f9e9ca394464a\n");
        let with_deadline = git.deadline(Instant::now() + Duration::from_secs(30));
        let out = with_deadline.run(&["rev-parse", "--is-inside-work-tree"]);
        assert_eq!(out.unwrap(), b"true\n");
    }

    #[test]
    fn a_failure_carries_what_git_said() {
        let repo = repo();
        let err = Git::new(repo.path())
            .run(&["rev-parse", "--verify", "refs/heads/nowhere"])
            .unwrap_err();
        let Error::Failed { status, stderr } = &err else {
            panic!("{err:?}");
        };
        assert_eq!(status.code(), Some(128));
        assert!(stderr.starts_with("fatal: "), "{stderr}");
        assert_eq!(err.complaint(), Some("Needed a single revision"));
        assert_eq!(err.to_string(), "Needed a single revision");
    }

    #[test]
    fn a_deadline_that_passes_kills_git() {
        let repo = repo();
        let git = Git::new(repo.path());
        let started = Instant::now();
        let err = git
            .deadline(started + Duration::from_millis(100))
            .run(&["-c", "alias.wait=!sleep 1", "wait"])
            .unwrap_err();
        assert!(matches!(err, Error::Timeout), "{err:?}");
        assert!(started.elapsed() < Duration::from_millis(900));

        let err = git.deadline(Instant::now()).run(&["status"]).unwrap_err();
        assert!(
            matches!(err, Error::Timeout),
            "a spent deadline starts nothing"
        );
    }
}
