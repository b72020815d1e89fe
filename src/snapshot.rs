//! Snapshots: before a destructive command is let through (by an override, a question to the
//! user, or observe mode), the guard records what that command could destroy, and
//! `agent-guard undo` brings it back.
//!
//! A snapshot is a commit object under `refs/agent-guard/snapshots/<id>`: its tree is the
//! working tree as it is (tracked changes and untracked files that are not ignored), built
//! with `git add -A` into a temporary index (`GIT_INDEX_FILE`), so neither the working tree
//! nor the real index is touched. Its parents are HEAD and every commit a ref the command
//! could move or delete points to, which keeps them from garbage collection; its message
//! records the command, the rules, the size and those refs. Old snapshots are pruned when a
//! new one is taken.
#![deny(clippy::indexing_slicing)]

use std::collections::HashSet;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::config::units;
use crate::context::Context;
use crate::policy::Verdict;
use crate::rules::{GitSubject, Subject};
use crate::settings::Settings;

/// Where snapshots live in a repository.
pub const REF_PREFIX: &str = "refs/agent-guard/snapshots/";

/// All the git work of one snapshot or one undo must fit in this; past it the command is
/// let through (or the undo stops) without.
const BUDGET: Duration = Duration::from_secs(20);

/// What to snapshot, and where.
#[derive(Debug, Clone)]
pub struct Request<'a> {
    /// The folder the command runs in.
    pub dir: &'a Path,
    /// The command's own global git options (`-C dir`, `--git-dir=...`), so the snapshot is
    /// of the repository it acts on.
    pub globals: &'a [String],
    pub command: &'a str,
    pub rules: Vec<&'static str>,
    /// Refs the command could move or delete besides HEAD (`refs/heads/topic`).
    pub refs: Vec<String>,
    /// Also keep every stash entry (the command drops or clears stashes).
    pub stashes: bool,
    pub max_size: u64,
    pub max_age: Duration,
}

/// A snapshot that was just taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Taken {
    pub id: String,
    pub reference: String,
    /// Changed and untracked files it holds, and their size.
    pub files: usize,
    pub bytes: u64,
}

impl Taken {
    /// One line for a reason or a report.
    pub fn describe(&self) -> String {
        format!(
            "agent-guard saved the working tree first as snapshot {} ({} changed or untracked {}, {}); `agent-guard undo` restores it",
            self.id,
            self.files,
            if self.files == 1 { "file" } else { "files" },
            units::format_size(self.bytes)
        )
    }
}

/// A snapshot as listed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    pub id: String,
    pub reference: String,
    pub commit: String,
    pub time: Option<SystemTime>,
    pub command: String,
    pub rules: Vec<String>,
    pub files: usize,
    pub bytes: u64,
    /// `(ref, commit)` for HEAD's branch (or `HEAD` when detached) and each ref it kept.
    pub refs: Vec<(String, String)>,
}

/// Before `verdict` lets `command` run in `cwd`: a snapshot in each repository the findings it
/// lets through act on. Each outcome is the snapshot, or why there is none.
pub fn before(
    command: &str,
    cwd: Option<&Path>,
    verdict: &Verdict,
    settings: &Settings,
) -> Vec<Result<Taken, String>> {
    // What stands (asked about, or only observed) and what an override lets through.
    let findings = verdict.findings.iter().chain(&verdict.overridden);
    let ctx = Context::new(cwd, settings);
    let mut places: Vec<Place> = Vec::new();
    let mut outcomes = Vec::new();
    for finding in findings {
        let Some(dir) = ctx.run_directory(finding) else {
            outcomes.push(Err(
                "the folder the command runs in is only known when it runs".to_string(),
            ));
            continue;
        };
        let (globals, what) = match &finding.subject {
            Subject::Git { globals, what } => (globals.clone(), Some(what)),
            _ => (Vec::new(), None),
        };
        let at = match places
            .iter()
            .position(|p| p.dir == dir && p.globals == globals)
        {
            Some(at) => at,
            None => {
                places.push(Place {
                    dir,
                    globals,
                    rules: Vec::new(),
                    refs: Vec::new(),
                    stashes: false,
                });
                places.len() - 1
            }
        };
        let Some(place) = places.get_mut(at) else {
            continue;
        };
        if !place.rules.contains(&finding.rule.id) {
            place.rules.push(finding.rule.id);
        }
        match what {
            Some(GitSubject::BranchDelete { names }) => {
                place
                    .refs
                    .extend(names.iter().map(|n| format!("refs/heads/{n}")));
            }
            Some(GitSubject::RefDelete { name }) => place.refs.push(name.clone()),
            Some(GitSubject::StashDrop { .. }) => place.stashes = true,
            _ => {}
        }
    }
    for place in &places {
        outcomes.push(take(&Request {
            dir: &place.dir,
            globals: &place.globals,
            command,
            rules: place.rules.clone(),
            refs: place.refs.clone(),
            stashes: place.stashes,
            max_size: settings.snapshot_max_size,
            max_age: settings.snapshot_max_age,
        }));
    }
    outcomes
}

/// One repository to snapshot (a folder and the command's git global options), and what the
/// snapshot must keep there.
struct Place {
    dir: PathBuf,
    globals: Vec<String>,
    rules: Vec<&'static str>,
    refs: Vec<String>,
    stashes: bool,
}

/// Takes a snapshot for `request`. `Err` says why none was taken, in words for a reason.
pub fn take(request: &Request) -> Result<Taken, String> {
    if !request.dir.is_dir() {
        return Err(format!(
            "the folder it runs in, {}, does not exist here",
            request.dir.display()
        ));
    }
    let git = Git::new(request.dir, request.globals);
    let top = git.toplevel()?;
    let status = git.run(
        &[
            "status",
            "--porcelain=v2",
            "--branch",
            "-z",
            "--untracked-files=all",
        ],
        None,
    )?;
    let state = Status::parse(&status);
    let (files, bytes) = state.size(&top);
    if bytes > request.max_size {
        return Err(format!(
            "the changed and untracked files come to {}, over the {} limit for snapshots (`snapshots.max_size`)",
            units::format_size(bytes),
            units::format_size(request.max_size)
        ));
    }
    let index = TempIndex::copy_of(&git.index_path()?)?;
    let staged = git.with_index(&index.path);
    staged.run(&["add", "-A", "--ignore-errors"], None)?;
    let tree = text(staged.run(&["write-tree"], None)?);

    let mut refs: Vec<(String, String)> = Vec::new();
    if let Some(head) = &state.head {
        let name = state
            .branch
            .as_deref()
            .map_or("HEAD".to_string(), |b| format!("refs/heads/{b}"));
        refs.push((name, head.clone()));
    }
    for name in &request.refs {
        let commit = format!("{name}^{{commit}}");
        if let Ok(sha) = git.run(&["rev-parse", "-q", "--verify", &commit], None) {
            refs.push((name.clone(), text(sha)));
        }
    }
    if request.stashes
        && let Ok(list) = git.run(&["stash", "list", "--format=%gd %H"], None)
    {
        for line in String::from_utf8_lossy(&list).lines() {
            if let Some((name, sha)) = line.split_once(' ') {
                refs.push((name.to_string(), sha.to_string()));
            }
        }
    }

    let now = SystemTime::now();
    let stamp = units::timestamp(now);
    let id = format!("{}-{}", stamp.replace(['-', ':'], ""), std::process::id());
    let reference = format!("{REF_PREFIX}{id}");
    let mut message = format!(
        "agent-guard snapshot before `{}`\n\n",
        crate::policy::shorten(request.command)
    );
    message.push_str(&format!(
        "Agent-Guard-Command: {}\n",
        serde_json::Value::from(request.command)
    ));
    message.push_str(&format!("Agent-Guard-Time: {stamp}\n"));
    message.push_str(&format!(
        "Agent-Guard-Rules: {}\n",
        request.rules.join(", ")
    ));
    message.push_str(&format!(
        "Agent-Guard-Files: {files}\nAgent-Guard-Bytes: {bytes}\n"
    ));
    for (name, sha) in &refs {
        message.push_str(&format!("Agent-Guard-Ref: {name} {sha}\n"));
    }
    let mut args = vec!["commit-tree".to_string(), "--no-gpg-sign".to_string(), tree];
    let mut parents = HashSet::new();
    for (_, sha) in &refs {
        if parents.insert(sha.clone()) {
            args.extend(["-p".to_string(), sha.clone()]);
        }
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let commit = text(git.run(&args, Some(message.as_bytes()))?);
    git.run(&["update-ref", &reference, &commit, ""], None)?;
    prune(&git, now, request.max_age, &reference);
    Ok(Taken {
        id,
        reference,
        files,
        bytes,
    })
}

/// Deletes the snapshots older than `max_age` (never `keep`). Best effort: a failure leaves
/// them for the next time.
fn prune(git: &Git, now: SystemTime, max_age: Duration, keep: &str) {
    let Ok(out) = git.run(
        &[
            "for-each-ref",
            "--format=%(refname) %(committerdate:unix)",
            REF_PREFIX,
        ],
        None,
    ) else {
        return;
    };
    let cutoff = now
        .checked_sub(max_age)
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_secs());
    let mut doomed = String::new();
    for line in String::from_utf8_lossy(&out).lines() {
        if let Some((name, time)) = line.rsplit_once(' ')
            && name != keep
            && time.parse::<u64>().is_ok_and(|t| t < cutoff)
        {
            doomed.push_str(&format!("delete {name}\n"));
        }
    }
    if !doomed.is_empty() {
        let _ = git.run(&["update-ref", "--stdin"], Some(doomed.as_bytes()));
    }
}

/// The snapshots of the repository at `dir`, newest first.
pub fn list(dir: &Path) -> Result<Vec<Snapshot>, String> {
    let git = Git::new(dir, &[]);
    git.toplevel()?;
    let out = git.run(
        &[
            "for-each-ref",
            "--sort=-refname",
            "--format=%(refname)%00%(objectname)%00%(contents)%00",
            REF_PREFIX,
        ],
        None,
    )?;
    let out = String::from_utf8_lossy(&out);
    let mut snapshots = Vec::new();
    // Each ref: "name\0sha\0message\0\n".
    for record in out.split("\0\n").filter(|r| !r.trim().is_empty()) {
        let mut fields = record.splitn(3, '\0');
        let (Some(reference), Some(commit), Some(message)) =
            (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        snapshots.push(Snapshot::parse(reference, commit, message));
    }
    Ok(snapshots)
}

impl Snapshot {
    fn parse(reference: &str, commit: &str, message: &str) -> Snapshot {
        let mut snapshot = Snapshot {
            id: reference
                .strip_prefix(REF_PREFIX)
                .unwrap_or(reference)
                .to_string(),
            reference: reference.to_string(),
            commit: commit.to_string(),
            time: None,
            command: String::new(),
            rules: Vec::new(),
            files: 0,
            bytes: 0,
            refs: Vec::new(),
        };
        for line in message.lines() {
            let Some((key, value)) = line.split_once(": ") else {
                continue;
            };
            match key {
                "Agent-Guard-Command" => {
                    snapshot.command = serde_json::from_str(value).unwrap_or_default();
                }
                "Agent-Guard-Time" => snapshot.time = units::parse_timestamp(value),
                "Agent-Guard-Rules" => {
                    snapshot.rules = value
                        .split(", ")
                        .filter(|r| !r.is_empty())
                        .map(str::to_string)
                        .collect();
                }
                "Agent-Guard-Files" => snapshot.files = value.parse().unwrap_or(0),
                "Agent-Guard-Bytes" => snapshot.bytes = value.parse().unwrap_or(0),
                "Agent-Guard-Ref" => {
                    if let Some((name, sha)) = value.rsplit_once(' ') {
                        snapshot.refs.push((name.to_string(), sha.to_string()));
                    }
                }
                _ => {}
            }
        }
        snapshot
    }
}

/// What [`restore`] did, or would do.
#[derive(Debug, Clone)]
pub struct Restored {
    pub snapshot: Snapshot,
    /// Files written back from the snapshot.
    pub restored: Vec<String>,
    /// Files left alone: they changed after the snapshot (restored only with `force`).
    pub kept: Vec<String>,
    /// With `force`, the snapshot of the state that was overwritten.
    pub saved_first: Option<Taken>,
    /// Refs that moved or went away since, each with the command that puts it back.
    pub refs: Vec<String>,
}

/// How to restore.
#[derive(Debug, Clone, Copy, Default)]
pub struct RestoreOptions {
    /// Also overwrite files that changed after the snapshot (snapshotting them first).
    pub force: bool,
    /// Say what would be restored, writing nothing.
    pub dry_run: bool,
    pub max_size: u64,
    pub max_age: Duration,
}

/// Restores snapshot `id` (the newest when `None`) of the repository at `dir` into its
/// working tree. A file is written back when it is missing, or when it still holds what git
/// has for it (what a `reset --hard` or `checkout` left); a file that changed since the
/// snapshot is kept unless `force`. The index and the refs are not touched.
pub fn restore(dir: &Path, id: Option<&str>, options: RestoreOptions) -> Result<Restored, String> {
    let snapshots = list(dir)?;
    let snapshot = match id {
        None => snapshots
            .into_iter()
            .next()
            .ok_or("there are no snapshots in this repository")?,
        Some(id) => snapshots
            .into_iter()
            .find(|s| s.id == id || s.reference == id)
            .ok_or_else(|| format!("there is no snapshot {id} (see `agent-guard snapshots`)"))?,
    };
    let top = Git::new(dir, &[]).toplevel()?;
    let git = Git::new(&top, &[]);
    let index = TempIndex::new();
    let from_snapshot = git.with_index(&index.path);
    from_snapshot.run(&["read-tree", &snapshot.commit], None)?;
    // Exit status 1 only says that some entries differ; diff-files lists them.
    let _ = from_snapshot.run(&["update-index", "-q", "--refresh"], None);
    let differs = from_snapshot.run(
        &["diff-files", "-z", "--name-status", "--ignore-submodules"],
        None,
    )?;
    let modified: HashSet<String> = porcelain_paths(&git.run(
        &["status", "--porcelain=v1", "-z", "--untracked-files=no"],
        None,
    )?)
    .into_iter()
    .collect();
    let tracked: HashSet<String> = split_nul(&git.run(&["ls-files", "-z"], None)?)
        .into_iter()
        .collect();

    let mut restored = Vec::new();
    let mut kept = Vec::new();
    let fields = split_nul(&differs);
    for pair in fields.chunks(2) {
        let [status, path] = pair else { continue };
        let missing = status == "D";
        if missing || (tracked.contains(path) && !modified.contains(path)) {
            restored.push(path.clone());
        } else {
            kept.push(path.clone());
        }
    }
    let mut saved_first = None;
    if options.force && !kept.is_empty() {
        if !options.dry_run {
            let request = Request {
                dir: &top,
                globals: &[],
                command: "agent-guard undo --force",
                rules: Vec::new(),
                refs: Vec::new(),
                stashes: false,
                max_size: options.max_size,
                max_age: options.max_age,
            };
            saved_first = Some(take(&request).map_err(|why| {
                format!("not overwriting newer changes without a snapshot of them: {why}")
            })?);
        }
        restored.append(&mut kept);
        restored.sort();
    }
    if !options.dry_run && !restored.is_empty() {
        let mut paths = Vec::new();
        for path in &restored {
            paths.extend_from_slice(path.as_bytes());
            paths.push(0);
        }
        from_snapshot.run(&["checkout-index", "-f", "-z", "--stdin"], Some(&paths))?;
    }
    let refs = moved_refs(&git, &snapshot);
    Ok(Restored {
        snapshot,
        restored,
        kept,
        saved_first,
        refs,
    })
}

/// For each ref the snapshot recorded that now points elsewhere or is gone: the command that
/// puts it back. Not run: moving refs is the user's call.
fn moved_refs(git: &Git, snapshot: &Snapshot) -> Vec<String> {
    let current_branch = git
        .run(&["symbolic-ref", "-q", "HEAD"], None)
        .ok()
        .map(text);
    let stashes: HashSet<String> = git
        .run(&["stash", "list", "--format=%H"], None)
        .map(|out| {
            String::from_utf8_lossy(&out)
                .lines()
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    let mut hints = Vec::new();
    for (name, sha) in &snapshot.refs {
        let short = &sha[..sha.len().min(12)];
        if name.starts_with("stash@{") {
            if !stashes.contains(sha) {
                hints.push(format!(
                    "the stash entry {name} is gone: `git stash store -m 'restored by agent-guard' {short}` puts it back"
                ));
            }
            continue;
        }
        let now = git
            .run(
                &["rev-parse", "-q", "--verify", &format!("{name}^{{commit}}")],
                None,
            )
            .ok()
            .map(text);
        if now.as_deref() == Some(sha.as_str()) {
            continue;
        }
        let branch = name.strip_prefix("refs/heads/");
        let hint = match (branch, now.is_some()) {
            (Some(b), true) if current_branch.as_deref() == Some(name.as_str()) => format!(
                "`{b}` was at {short}: `git reset --mixed {short}` moves it back and leaves the restored files as they are"
            ),
            (Some(b), true) => {
                format!("`{b}` was at {short}: `git branch -f {b} {short}` moves it back")
            }
            (Some(b), false) => {
                format!("the branch `{b}` was deleted: `git branch {b} {short}` brings it back")
            }
            (None, _) if name == "HEAD" => {
                format!("HEAD was at {short} (detached): `git checkout {short}`")
            }
            (None, _) => format!("`{name}` was at {short}: `git update-ref {name} {short}`"),
        };
        hints.push(hint);
    }
    hints
}

/// What `git status --porcelain=v2 --branch -z` says: the HEAD commit, the branch, and the
/// paths with changes or untracked.
#[derive(Debug, Default, PartialEq, Eq)]
struct Status {
    head: Option<String>,
    branch: Option<String>,
    paths: Vec<String>,
}

impl Status {
    fn parse(out: &[u8]) -> Status {
        let mut status = Status::default();
        let fields = split_nul(out);
        let mut fields = fields.iter();
        while let Some(entry) = fields.next() {
            if let Some(oid) = entry.strip_prefix("# branch.oid ") {
                status.head = (oid != "(initial)").then(|| oid.to_string());
            } else if let Some(head) = entry.strip_prefix("# branch.head ") {
                status.branch = (head != "(detached)").then(|| head.to_string());
            } else if let Some(path) = entry.strip_prefix("? ") {
                status.paths.push(path.to_string());
            } else {
                // `1`: 8 fields before the path; `2` (rename, then the old path): 9; `u`: 10.
                let skip = match entry.as_bytes().first() {
                    Some(b'1') => 8,
                    Some(b'2') => 9,
                    Some(b'u') => 10,
                    _ => continue,
                };
                if let Some(path) = entry.splitn(skip + 1, ' ').nth(skip) {
                    status.paths.push(path.to_string());
                }
                if entry.starts_with('2') {
                    fields.next();
                }
            }
        }
        status
    }

    /// How many of the paths exist as files under `top`, and their total size.
    fn size(&self, top: &Path) -> (usize, u64) {
        let mut files = 0;
        let mut bytes = 0;
        for path in &self.paths {
            if let Ok(meta) = top.join(path).symlink_metadata()
                && !meta.is_dir()
            {
                files += 1;
                bytes += meta.len();
            }
        }
        (files, bytes)
    }
}

/// Paths in `git status --porcelain=v1 -z` output (a rename's new path).
fn porcelain_paths(out: &[u8]) -> Vec<String> {
    let fields = split_nul(out);
    let mut paths = Vec::new();
    let mut fields = fields.iter();
    while let Some(entry) = fields.next() {
        if entry.len() < 4 {
            continue;
        }
        paths.push(entry[3..].to_string());
        if entry.starts_with('R') || entry.starts_with('C') {
            fields.next();
        }
    }
    paths
}

fn split_nul(out: &[u8]) -> Vec<String> {
    out.split(|b| *b == 0)
        .filter(|f| !f.is_empty())
        .map(|f| String::from_utf8_lossy(f).into_owned())
        .collect()
}

fn text(out: Vec<u8>) -> String {
    String::from_utf8_lossy(&out).trim().to_string()
}

/// A throw-away index file, removed when dropped.
struct TempIndex {
    path: PathBuf,
}

impl TempIndex {
    fn new() -> TempIndex {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let path =
            std::env::temp_dir().join(format!("agent-guard-index-{}-{nanos}", std::process::id()));
        TempIndex { path }
    }

    /// A copy of the real index, so `git add` starts from what git already knows (and its
    /// file stamps spare it rehashing unchanged files).
    fn copy_of(index: &Path) -> Result<TempIndex, String> {
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

/// Runs git in one repository, read-only towards the real index, within [`BUDGET`].
struct Git<'a> {
    dir: &'a Path,
    globals: &'a [String],
    index: Option<&'a Path>,
    deadline: Instant,
}

impl<'a> Git<'a> {
    fn new(dir: &'a Path, globals: &'a [String]) -> Self {
        Git {
            dir,
            globals,
            index: None,
            deadline: Instant::now() + BUDGET,
        }
    }

    /// The same, with `GIT_INDEX_FILE` pointing at a temporary index.
    fn with_index(&self, index: &'a Path) -> Git<'a> {
        Git {
            index: Some(index),
            ..*self
        }
    }

    /// The top folder of the working tree.
    fn toplevel(&self) -> Result<PathBuf, String> {
        match self.run(&["rev-parse", "--show-toplevel"], None) {
            Ok(out) => Ok(PathBuf::from(text(out))),
            Err(e) if e.contains("not a git repository") => {
                Err("the command does not run in a git repository".into())
            }
            Err(e) => Err(e),
        }
    }

    fn index_path(&self) -> Result<PathBuf, String> {
        let out = self.run(
            &["rev-parse", "--path-format=absolute", "--git-path", "index"],
            None,
        )?;
        Ok(PathBuf::from(text(out)))
    }

    /// `git <globals> <args>`: stdout when it exits 0, else the first line git complained.
    fn run(&self, args: &[&str], stdin: Option<&[u8]>) -> Result<Vec<u8>, String> {
        let mut command = Command::new("git");
        command
            .arg("--no-optional-locks")
            .args(self.globals)
            .args(args)
            .current_dir(self.dir)
            .env("GIT_OPTIONAL_LOCKS", "0")
            .env("GIT_TERMINAL_PROMPT", "0")
            .env("LC_ALL", "C")
            .env("GIT_AUTHOR_NAME", "agent-guard")
            .env("GIT_AUTHOR_EMAIL", "agent-guard@localhost")
            .env("GIT_COMMITTER_NAME", "agent-guard")
            .env("GIT_COMMITTER_EMAIL", "agent-guard@localhost")
            .stdin(if stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        match self.index {
            Some(index) => command.env("GIT_INDEX_FILE", index),
            None => command.env_remove("GIT_INDEX_FILE"),
        };
        let what = format!("git {}", args.first().unwrap_or(&""));
        let mut child = command
            .spawn()
            .map_err(|e| format!("could not run git ({e})"))?;
        if let (Some(input), Some(mut pipe)) = (stdin, child.stdin.take()) {
            let input = input.to_vec();
            std::thread::spawn(move || pipe.write_all(&input));
        }
        let read = |pipe: Option<Box<dyn Read + Send>>| {
            std::thread::spawn(move || {
                let mut out = Vec::new();
                if let Some(mut pipe) = pipe {
                    let _ = pipe.read_to_end(&mut out);
                }
                out
            })
        };
        let stdout = read(
            child
                .stdout
                .take()
                .map(|p| Box::new(p) as Box<dyn Read + Send>),
        );
        let stderr = read(
            child
                .stderr
                .take()
                .map(|p| Box::new(p) as Box<dyn Read + Send>),
        );
        let mut pause = Duration::from_micros(50);
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if Instant::now() < self.deadline => {
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(5));
                }
                _ => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(format!("{what} took too long"));
                }
            }
        };
        let out = stdout.join().unwrap_or_default();
        let err = stderr.join().unwrap_or_default();
        if status.success() {
            return Ok(out);
        }
        let err = String::from_utf8_lossy(&err);
        let first = err
            .lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("failed")
            .trim()
            .trim_start_matches("fatal: ")
            .trim_start_matches("error: ")
            .to_string();
        Err(format!("{what}: {first}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_v2_paths_branch_and_head() {
        let out = b"# branch.oid 1234\0# branch.head main\0\
                    1 .M N... 100644 100644 100644 aa bb src/a b.rs\0\
                    2 R. N... 100644 100644 100644 aa bb R100 new.txt\0old.txt\0\
                    u UU N... 100644 100644 100644 100644 aa bb cc both.txt\0\
                    ? notes.txt\0";
        let status = Status::parse(out);
        assert_eq!(status.head.as_deref(), Some("1234"));
        assert_eq!(status.branch.as_deref(), Some("main"));
        assert_eq!(
            status.paths,
            ["src/a b.rs", "new.txt", "both.txt", "notes.txt"]
        );

        let status = Status::parse(b"# branch.oid (initial)\0# branch.head (detached)\0");
        assert_eq!((status.head, status.branch), (None, None));
    }

    #[test]
    fn a_message_reads_back() {
        let message = "agent-guard snapshot before `x`\n\nAgent-Guard-Command: \"git reset --hard\\nx\"\n\
                       Agent-Guard-Time: 2026-01-02T03:04:05.678Z\nAgent-Guard-Rules: git.reset-hard, fs.rm-recursive\n\
                       Agent-Guard-Files: 3\nAgent-Guard-Bytes: 120\nAgent-Guard-Ref: refs/heads/main abc\n";
        let s = Snapshot::parse("refs/agent-guard/snapshots/id-1", "c0ffee", message);
        assert_eq!(s.id, "id-1");
        assert_eq!(s.command, "git reset --hard\nx");
        assert_eq!(s.rules, ["git.reset-hard", "fs.rm-recursive"]);
        assert_eq!((s.files, s.bytes), (3, 120));
        assert_eq!(s.refs, [("refs/heads/main".to_string(), "abc".to_string())]);
        assert!(s.time.is_some());
    }
}
