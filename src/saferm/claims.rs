//! Claims: which agent is working on which paths of a repository, so that another agent's
//! `agent-guard rm` (and the hook, through [`claimed_by_other`]) leaves them alone.
//!
//! Several agents on one repository step on each other's files: one deletes the scratch
//! folder another is still writing to. A claim says "this is mine for now". It belongs to a
//! session (who) and a process (for how long): once that process has exited, or the claim's
//! time is up, the claim no longer counts, so an agent that crashed or was closed never
//! leaves paths locked for good. Expired claims are dropped the next time the file is
//! written.
//!
//! All claims of a repository live in one file in its git common dir
//! (`.git/agent-guard/claims.json`), so every worktree sees the same claims and none of them
//! show in `git status`. Writers take a file lock and replace the file by an atomic rename;
//! readers need no lock, as they always see a whole file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::error::Error;
use super::fsops::{Lock, resolve_partly, write_atomic};
use super::git::Repo;
use super::paths::{same as same_path, within};
use super::text::{ago, now, utc};
use crate::config::dirs::Os;

/// How long a claim lasts when its process keeps running: a working day. Claiming again
/// renews it.
pub const DEFAULT_TTL: Duration = Duration::from_secs(12 * 3_600);

/// The variable that names the session of a command run outside the hook.
pub const SESSION_VAR: &str = "AGENT_GUARD_SESSION";

/// One claimed path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claim {
    /// Absolute, with symbolic links resolved as far as the path exists.
    pub path: PathBuf,
    pub session: String,
    /// The process the claim lives as long as.
    pub pid: u32,
    /// When that process started (clock ticks after boot, from `/proc`), so that a pid the
    /// system has since handed to another process does not keep the claim alive.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started: Option<u64>,
    /// Unix seconds.
    pub since: u64,
    /// Unix seconds; the claim does not count from then on.
    pub expires: u64,
}

impl Claim {
    /// Whether the claim still counts at `now`: not expired, and its process still running.
    pub fn is_live(&self, now: u64) -> bool {
        now < self.expires && process_alive(self.pid, self.started)
    }

    /// Whether removing `path` would touch the claimed path: it is the claimed path, inside
    /// it, or above it.
    pub fn overlaps(&self, path: &Path) -> bool {
        within(path, &self.path) || within(&self.path, path)
    }

    /// `session `s1` (pid 42) since 2026-10-07 14:22:33 UTC, 3m ago`.
    pub fn describe(&self, now: u64) -> String {
        format!(
            "session `{}` (pid {}) since {}, {}",
            self.session,
            self.pid,
            utc(self.since),
            ago(self.since, now)
        )
    }
}

/// Who is asking: a session id and the process that stands for the session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    pub id: String,
    pub pid: u32,
    /// How the id was made up when [`SESSION_VAR`] was not set; `None` when it was.
    pub derived: Option<String>,
}

impl Session {
    /// The session of a command run outside the hook: [`SESSION_VAR`] when set, else one
    /// named after the process that started this command. The process is `pid` when given,
    /// else the nearest ancestor that is not a shell or a wrapper such as `env` or `timeout`:
    /// an agent runs each command in a fresh shell that exits right after it, so a claim
    /// tied to that shell would expire at once.
    pub fn from_env(pid: Option<u32>) -> Session {
        let (pid, name) = match pid {
            Some(pid) => (pid, process_name(pid)),
            None => owner_process(),
        };
        let shown = name.map_or(String::new(), |n| format!(" (`{n}`)"));
        match std::env::var(SESSION_VAR) {
            Ok(id) if !id.trim().is_empty() => Session {
                id: id.trim().to_string(),
                pid,
                derived: None,
            },
            _ => Session {
                id: format!("pid-{pid}"),
                pid,
                derived: Some(format!(
                    "{SESSION_VAR} is not set, so this is session `pid-{pid}`, after process \
                     {pid}{shown}; set {SESSION_VAR} to share one session across processes"
                )),
            },
        }
    }
}

/// Claims `paths` (relative to `cwd`) for `session` for at most `ttl`, all or none: when
/// another live session holds one of them, or a path above or inside one, nothing is
/// claimed and the error names that session. Claiming a path this session already holds
/// renews the claim. A path need not exist yet; it must be inside a repository's work tree.
///
/// Refused on Windows: a claim lives as long as the agent's process, and agent-guard cannot
/// find that process there (no `/proc`, no `ps`), so a claim would either end at once or
/// outlive its agent.
pub fn claim(
    cwd: &Path,
    paths: &[PathBuf],
    session: &Session,
    ttl: Duration,
) -> Result<Vec<Claim>, Error> {
    if Os::CURRENT == Os::Windows {
        return Err(Error::new(
            "claims are not supported on Windows: agent-guard cannot tell there which process \
             a claim should last as long as; `agent-guard rm` still refuses what git tracks",
        ));
    }
    let started = process_start(session.pid);
    if !process_alive(session.pid, started) {
        return Err(Error::new(format!(
            "process {} is not running, and a claim lasts only as long as its process",
            session.pid
        )));
    }
    let now = now();
    let groups = group_by_repo(cwd, paths)?;
    let _locks = groups
        .values()
        .map(|(store, _)| store.lock())
        .collect::<Result<Vec<_>, _>>()?;
    let mut ledgers = Vec::new();
    for (store, wanted) in groups.values() {
        let mut claims = store.live(now)?;
        for (given, path) in wanted {
            if let Some(held) = claims
                .iter()
                .find(|c| c.session != session.id && c.overlaps(path))
            {
                return Err(Error::new(format!(
                    "{}: {}",
                    given.display(),
                    conflict(held, path, now)
                )));
            }
        }
        let mut made = Vec::new();
        for (_, path) in wanted {
            claims.retain(|c| !(c.session == session.id && same_path(&c.path, path)));
            made.push(Claim {
                path: path.clone(),
                session: session.id.clone(),
                pid: session.pid,
                started,
                since: now,
                expires: now.saturating_add(ttl.as_secs()),
            });
        }
        claims.extend(made.iter().cloned());
        ledgers.push((store, claims, made));
    }
    let mut all = Vec::new();
    for (store, claims, made) in ledgers {
        store.write(&claims)?;
        all.extend(made);
    }
    Ok(all)
}

/// What [`release`] let go of, and the paths it found no claim of the session on.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Released {
    pub released: Vec<Claim>,
    pub not_held: Vec<PathBuf>,
}

/// Releases the claims of `session` on `paths` (relative to `cwd`) and inside them; with no
/// paths, every claim of the session in the repository holding `cwd`.
pub fn release(cwd: &Path, paths: &[PathBuf], session: &str) -> Result<Released, Error> {
    let now = now();
    let mut result = Released::default();
    if paths.is_empty() {
        let store = Store::of(&repo_of(cwd, cwd)?);
        let _lock = store.lock()?;
        let (mine, rest): (Vec<Claim>, Vec<Claim>) = store
            .live(now)?
            .into_iter()
            .partition(|c| c.session == session);
        store.write(&rest)?;
        result.released = mine;
        return Ok(result);
    }
    for (store, wanted) in group_by_repo(cwd, paths)?.values() {
        let _lock = store.lock()?;
        let mut claims = store.live(now)?;
        for (given, path) in wanted {
            let (mine, rest): (Vec<Claim>, Vec<Claim>) = claims
                .into_iter()
                .partition(|c| c.session == session && within(&c.path, path));
            if mine.is_empty() {
                result.not_held.push(given.clone());
            }
            result.released.extend(mine);
            claims = rest;
        }
        store.write(&claims)?;
    }
    Ok(result)
}

/// The live claims of the repository holding `dir`, by path.
pub fn list(dir: &Path) -> Result<Vec<Claim>, Error> {
    let mut claims = Store::of(&repo_of(dir, dir)?).live(now())?;
    claims.sort_by(|a, b| a.path.cmp(&b.path).then(a.since.cmp(&b.since)));
    Ok(claims)
}

/// The first live claim of a session other than `session` that one of `paths` (relative to
/// `repo_dir`) equals, lies inside or holds, if any. The repository and its claims are read
/// once for all the paths. For the hook: `repo_dir` is the command's working directory.
/// Outside any repository there are no claims.
pub fn claimed_by_other(
    repo_dir: &Path,
    paths: &[&Path],
    session: &str,
) -> Result<Option<Claim>, Error> {
    let Some(repo) = Repo::containing(repo_dir)? else {
        return Ok(None);
    };
    let others: Vec<Claim> = Store::of(&repo)
        .live(now())?
        .into_iter()
        .filter(|c| c.session != session)
        .collect();
    Ok(paths.iter().find_map(|path| {
        let path = resolve_partly(&repo_dir.join(path));
        others.iter().find(|c| c.overlaps(&path)).cloned()
    }))
}

/// [`claimed_by_other`] for a path already resolved, in a repository already found.
pub(crate) fn held_by_other(
    repo: &Repo,
    path: &Path,
    session: &str,
) -> Result<Option<Claim>, Error> {
    Ok(Store::of(repo)
        .live(now())?
        .into_iter()
        .find(|c| c.session != session && c.overlaps(path)))
}

/// Why `path` cannot be claimed (or removed): who holds what, and what to do about it.
pub(crate) fn conflict(held: &Claim, path: &Path, now: u64) -> String {
    let which = if held.path == path {
        String::new()
    } else {
        format!(", which claims {}", held.path.display())
    };
    format!(
        "claimed by {}{which}; ask that agent to release it (`agent-guard release`), or wait until its process ends",
        held.describe(now)
    )
}

type Wanted = Vec<(PathBuf, PathBuf)>;

/// Each path (as given, resolved) under the claims store of its repository, ordered by
/// store so that locks are always taken in the same order.
fn group_by_repo(
    cwd: &Path,
    paths: &[PathBuf],
) -> Result<BTreeMap<PathBuf, (Store, Wanted)>, Error> {
    let mut groups: BTreeMap<PathBuf, (Store, Wanted)> = BTreeMap::new();
    for given in paths {
        let path = resolve_partly(&cwd.join(given));
        if path.to_str().is_none() {
            return Err(Error::new(format!(
                "{}: the path is not valid UTF-8, and claims are kept as text",
                given.display()
            )));
        }
        let store = Store::of(&repo_of(&path, given)?);
        groups
            .entry(store.dir.clone())
            .or_insert_with(|| (store, Vec::new()))
            .1
            .push((given.clone(), path));
    }
    Ok(groups)
}

/// The repository whose work tree holds `path` (which need not exist yet).
fn repo_of(path: &Path, given: &Path) -> Result<Repo, Error> {
    let dir = path
        .ancestors()
        .find(|a| a.is_dir())
        .unwrap_or(Path::new("/"));
    Repo::containing(dir)?.ok_or_else(|| {
        Error::new(format!(
            "{} is not inside a git repository: claims are kept in a repository's git folder",
            given.display()
        ))
    })
}

/// The claims file of one repository.
struct Store {
    /// `<git common dir>/agent-guard`.
    dir: PathBuf,
}

#[derive(Default, Serialize, Deserialize)]
struct Ledger {
    claims: Vec<Claim>,
}

impl Store {
    fn of(repo: &Repo) -> Store {
        Store {
            dir: repo.agent_guard_dir(),
        }
    }

    fn file(&self) -> PathBuf {
        self.dir.join("claims.json")
    }

    /// The lock every writer holds from reading the file to replacing it.
    fn lock(&self) -> Result<Lock, Error> {
        std::fs::create_dir_all(&self.dir).map_err(|e| Error::io("create", &self.dir, &e))?;
        Lock::acquire(&self.dir.join("claims.lock"))
    }

    /// The claims that still count at `now`.
    fn live(&self, now: u64) -> Result<Vec<Claim>, Error> {
        let file = self.file();
        let text = match std::fs::read(&file) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(Error::io("read", &file, &e)),
        };
        let ledger: Ledger = serde_json::from_slice(&text).map_err(|e| {
            Error::new(format!(
                "cannot read the claims in {}: {e}; repair the file, or delete it to drop every claim",
                file.display()
            ))
        })?;
        Ok(ledger
            .claims
            .into_iter()
            .filter(|c| c.is_live(now))
            .collect())
    }

    fn write(&self, claims: &[Claim]) -> Result<(), Error> {
        let ledger = Ledger {
            claims: claims.to_vec(),
        };
        let json = serde_json::to_vec_pretty(&ledger)
            .map_err(|e| Error::new(format!("cannot record the claims: {e}")))?;
        write_atomic(&self.file(), &json)
    }
}

/// Shells and wrappers that stand between an agent and the command it runs.
const INTERMEDIARIES: &[&str] = &[
    "sh", "bash", "dash", "zsh", "fish", "ksh", "mksh", "yash", "tcsh", "csh", "busybox", "env",
    "sudo", "doas", "timeout", "nice", "nohup", "stdbuf", "ionice", "time", "xargs", "watch",
];

/// The nearest ancestor of this process that is not a shell or wrapper, and its name.
/// Without `/proc`, the parent process; on Windows, which names no parent, this process.
fn owner_process() -> (u32, Option<String>) {
    #[cfg(unix)]
    let mut pid = std::os::unix::process::parent_id();
    #[cfg(not(unix))]
    let mut pid = std::process::id();
    let mut name = None;
    // A bounded walk: a process tree is shallow, and a loop in it must not hang the command.
    for _ in 0..32 {
        let Some(stat) = proc_stat(pid) else {
            break;
        };
        if !INTERMEDIARIES.contains(&stat.name.as_str()) || stat.ppid <= 1 {
            return (pid, Some(stat.name));
        }
        name = Some(stat.name);
        pid = stat.ppid;
    }
    (pid, name)
}

fn process_name(pid: u32) -> Option<String> {
    proc_stat(pid).map(|s| s.name)
}

fn process_start(pid: u32) -> Option<u64> {
    proc_stat(pid).map(|s| s.started)
}

/// Whether process `pid` is running (and, when its start time is known, is still the same
/// process). Read from `/proc` where there is one; elsewhere `ps` is asked, and when even
/// that cannot answer the process counts as alive: the claim's age limit still ends it.
fn process_alive(pid: u32, started: Option<u64>) -> bool {
    if pid == 0 {
        return false;
    }
    if Path::new("/proc/self/stat").exists() {
        return proc_stat(pid).is_some_and(|s| {
            !matches!(s.state, 'Z' | 'X') && started.is_none_or(|t| t == s.started)
        });
    }
    Command::new("ps")
        .args(["-p", &pid.to_string(), "-o", "pid="])
        .output()
        .map_or(true, |out| out.status.success())
}

/// The fields of `/proc/<pid>/stat` that matter here.
struct Stat {
    name: String,
    state: char,
    ppid: u32,
    started: u64,
}

fn proc_stat(pid: u32) -> Option<Stat> {
    parse_stat(&std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?)
}

/// `pid (name) state ppid ...`; the name may itself hold spaces and parentheses.
fn parse_stat(text: &str) -> Option<Stat> {
    let open = text.find('(')?;
    let close = text.rfind(')')?;
    let name = text.get(open + 1..close)?.to_string();
    let fields: Vec<&str> = text.get(close + 1..)?.split_whitespace().collect();
    Some(Stat {
        name,
        state: fields.first()?.chars().next()?,
        ppid: fields.get(1)?.parse().ok()?,
        // Field 22 of the whole line: the 20th after the name.
        started: fields.get(19)?.parse().ok()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claim_on(path: &str) -> Claim {
        Claim {
            path: PathBuf::from(path),
            session: "a".into(),
            pid: std::process::id(),
            started: process_start(std::process::id()),
            since: 0,
            expires: u64::MAX,
        }
    }

    #[test]
    fn a_claim_covers_its_path_what_is_inside_and_what_holds_it() {
        let c = claim_on("/r/src/api");
        assert!(c.overlaps(Path::new("/r/src/api")));
        assert!(c.overlaps(Path::new("/r/src/api/v1.rs")));
        assert!(c.overlaps(Path::new("/r/src")));
        assert!(!c.overlaps(Path::new("/r/src/apis")));
        assert!(!c.overlaps(Path::new("/r/docs")));
    }

    #[test]
    fn a_claim_lives_as_long_as_its_process_and_its_time() {
        let mut c = claim_on("/r/x");
        assert!(c.is_live(1));
        c.expires = 1;
        assert!(!c.is_live(1), "expired");
        let mut child = Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        c.expires = u64::MAX;
        c.pid = pid;
        c.started = None;
        assert!(!c.is_live(1), "process gone");
    }

    #[test]
    fn a_reused_pid_does_not_keep_a_claim_alive() {
        let mut c = claim_on("/r/x");
        if let Some(started) = c.started {
            c.started = Some(started + 1);
            assert!(!c.is_live(1));
        }
    }

    #[test]
    fn proc_stat_reads_names_with_spaces_and_parentheses() {
        let line = "4242 (my (odd) name) S 17 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 10";
        let stat = parse_stat(line).unwrap();
        assert_eq!(stat.name, "my (odd) name");
        assert_eq!((stat.state, stat.ppid, stat.started), ('S', 17, 987_654));
        assert!(parse_stat("4242 (cut").is_none());
    }
}
