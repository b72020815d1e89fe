//! The loss oracle: a scratch world with the kinds of work real repositories hold, a
//! generated corpus of destructive command lines, and a runner that asks the guard for its
//! verdict (repository context on), then really runs each line with bash in a fresh copy of
//! the world and measures what was lost.
//!
//! Lost means: a file the world held (tracked edit, staged edit, untracked or ignored file
//! that is not regenerable output, either worktree's) whose content is now in no file of the
//! world and in no object git can reach; or a commit reachable from some ref or stash entry
//! before and from none after. The reflog does not count as keeping anything.
//!
//! Guard-rails: the line runs with `HOME`, `TMPDIR`, `XDG_*` and its working directory inside
//! the world; a line the guard judges protected, or one naming an absolute path outside the
//! world (or climbing out of it with `../..`), is judged but never run.
//!
//! A line that cannot run here (`docker run -v "$PWD":/src alpine rm -rf /src/drafts`: no
//! daemon) is written as two lines with a tab between them: the line the guard judges, then
//! its local equivalent that runs in its place and whose loss is measured (`rm -rf
//! ./drafts`: the container's paths mapped to the folders they mount; `true` when nothing of
//! this machine is reached). A line with no tab is both.

use std::collections::{BTreeSet, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Builds the world in `root` (an empty folder).
const WORLD: &str = r#"
set -e
mkdir -p home tmp xdg/config xdg/state xdg/cache xdg/data
git config --global user.name oracle
git config --global user.email oracle@example.com
git config --global init.defaultBranch main
git config --global commit.gpgsign false
git config --global advice.detachedHead false
git config --global alias.nuke 'reset --hard'
git config --global alias.scrub '!git clean -fd'
git config --global alias.back 'reset --hard HEAD~1'
git init -q --bare remote.git
git init -q app
cd app
printf 'build/\ntarget/\nnode_modules/\n.env\n*.log\n' > .gitignore
printf '# app\n' > README.md
mkdir -p src docs
printf 'pub fn lib() {}\n' > src/lib.rs
printf 'fn main() {}\n' > src/main.rs
printf 'guide\n' > docs/guide.md
cat > package.json <<'JSON'
{
  "name": "app",
  "scripts": {
    "hello": "echo hello",
    "list": "ls",
    "status": "git status",
    "clean": "rm -rf build target",
    "wipe": "rm -rf drafts",
    "reset": "git checkout -- .",
    "scrub": "git clean -fd",
    "hard": "git reset --hard",
    "rm": "rm -rf",
    "nuke": "npm run wipe",
    "fresh": "npm run clean",
    "prebuild": "rm -rf drafts",
    "build": "echo built"
  }
}
JSON
printf 'OUT = build\nDRAFTS = drafts\n\nall: hello\nhello:\n\techo hello\nlist:\n\tls\nstatus:\n\tgit status\n' > Makefile
printf 'clean:\n\trm -rf $(OUT) target\nwipe:\n\trm -rf $(DRAFTS)\nreset:\n\tgit checkout -- .\n' >> Makefile
printf 'scrub: clean\n\tgit clean -fd\nhard:\n\tgit reset --hard\nrelease: wipe\n\techo released\n' >> Makefile
mkdir -p tools
printf '#!/bin/sh\nrm -rf "$1"\n' > tools/wipe.sh
printf '#!/bin/sh\nset -e\ngit reset --hard "$@"\n' > tools/reset.sh
printf 'scrub() {\n  git clean -fd "$@"\n}\nstatus() {\n  git status --short\n}\n' > tools/lib.sh
printf '#!/bin/sh\necho "checking $#"\ngit status\n' > tools/check.sh
printf 'import shutil\nshutil.rmtree("drafts")\n' > tools/tidy.py
chmod +x tools/wipe.sh tools/reset.sh tools/check.sh
git add -A && git commit -qm initial
git tag v1
git branch merged
git remote add origin ../remote.git
git push -q -u origin main
git checkout -q -b topic-src
printf 'topic\n' > topic.txt && git add topic.txt && git commit -qm 'topic work'
git push -q origin topic-src:topic
git checkout -q main
git branch -q -D topic-src
git update-ref -d refs/remotes/origin/topic 2>/dev/null || true
git checkout -q -b feature
printf 'feature one\n' > feature.txt && git add feature.txt && git commit -qm 'feature one'
printf 'feature two\n' >> feature.txt && git commit -qam 'feature two'
git checkout -q main
printf 'local only\n' > local.txt && git add local.txt && git commit -qm 'unpushed on main'
printf 'stashed one\n' >> docs/guide.md && git stash -q
printf 'stashed two\n' >> src/main.rs && git stash -q
git worktree add -q ../app-wt -b wt
printf 'worktree edit\n' >> ../app-wt/README.md
printf 'worktree new\n' > ../app-wt/new-in-wt.txt
printf '# app, edited\n' > README.md
printf 'pub fn lib() { staged() }\n' > src/lib.rs && git add src/lib.rs
printf 'notes\n' > notes.txt
printf 'scratch\n' > src/scratch.rs
mkdir -p drafts/deep && printf 'idea\n' > drafts/deep/idea.md
printf 'SECRET=oracle\n' > .env
printf 'session log\n' > debug.log
mkdir -p build target/debug node_modules/pkg
printf 'object\n' > build/out.o
printf 'binary\n' > target/debug/app
printf 'module\n' > node_modules/pkg/index.js
cd ..
git init -q sibling
cd sibling
printf 'sibling\n' > s.txt && git add s.txt && git commit -qm sibling
printf 'sibling edit\n' >> s.txt
printf 'sibling new\n' > t.txt
"#;

/// Folders whose ignored content is regenerable output: losing it is no loss.
const REGENERABLE: &[&str] = &["build", "target", "node_modules"];
/// Folders of the world that hold work.
const WORK: &[&str] = &["app", "app-wt", "sibling"];
/// Repositories whose objects keep content.
const REPOS: &[&str] = &["app", "sibling", "remote.git"];

/// How long one line may run.
const RUN_LIMIT: Duration = Duration::from_secs(20);

/// What the guard said about a line and what running it did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Allowed, ran, nothing lost.
    AllowedKept,
    /// Allowed, ran, and this was lost.
    AllowedLost(Vec<String>),
    /// Stopped, ran anyway to see: nothing lost (a false stop).
    StoppedKept,
    /// Stopped, and running it would have lost this.
    StoppedLost,
    /// Judged, never run: protected, or it names something outside the world.
    NotRun(&'static str),
}

/// A built world: `root` holds it while lines run; `template` is the pristine copy.
pub struct World {
    _scratch: tempfile::TempDir,
    pub root: PathBuf,
    template: PathBuf,
    before: Before,
}

/// What the pristine world holds.
struct Before {
    /// (where, content hash) of every file that is work.
    files: Vec<(String, String)>,
    commits: BTreeSet<String>,
}

/// Which files a walk of the world collects.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Files {
    /// Work only: regenerable output folders are skipped.
    Work,
    /// Every file, wherever a command may have moved work to.
    All,
}

impl World {
    pub fn build() -> World {
        let scratch = tempfile::Builder::new()
            .prefix("oracle")
            .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
            .unwrap();
        let root = scratch.path().join("w");
        std::fs::create_dir(&root).unwrap();
        let out = bash(&root, &root, WORLD);
        assert!(out.0, "building the world failed:\n{}", out.1);
        let template = scratch.path().join("template");
        copy(&root, &template);
        let before = Before {
            files: work_files(&root, Files::Work),
            commits: reachable(&root, "commit"),
        };
        assert!(before.files.len() >= 15, "{:?}", before.files);
        World {
            _scratch: scratch,
            root,
            template,
            before,
        }
    }

    /// Where lines start: the main repository.
    pub fn app(&self) -> PathBuf {
        self.root.join("app")
    }

    /// Judges `line`, runs it (or the local equivalent after its tab) in a fresh copy of the
    /// world unless a rail forbids, and says what happened.
    pub fn try_line(&self, line: &str) -> Outcome {
        let (judged, ran) = line.split_once('\t').unwrap_or((line, line));
        std::fs::remove_dir_all(&self.root).unwrap();
        copy(&self.template, &self.root);
        let stopped = match self.judge(judged) {
            Judgement::Protected => return Outcome::NotRun("protected"),
            Judgement::Stopped => true,
            Judgement::Allowed => false,
        };
        if let Some(why) = outside(&self.root, ran) {
            return Outcome::NotRun(why);
        }
        bash(&self.root, &self.app(), ran);
        let lost = self.lost();
        match (stopped, lost.is_empty()) {
            (false, true) => Outcome::AllowedKept,
            (false, false) => Outcome::AllowedLost(lost),
            (true, true) => Outcome::StoppedKept,
            (true, false) => Outcome::StoppedLost,
        }
    }

    fn judge(&self, line: &str) -> Judgement {
        // `ORACLE_GUARD` names another build of the binary to judge with.
        let guard = std::env::var_os("ORACLE_GUARD").map_or_else(
            || PathBuf::from(env!("CARGO_BIN_EXE_agent-guard")),
            PathBuf::from,
        );
        let mut cmd = Command::new(guard);
        confine(&mut cmd, &self.root);
        let out = cmd
            .current_dir(self.app())
            .env("AGENT_GUARD_CONTEXT", "on")
            .args(["check", "--json", "--"])
            .arg(line)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let verdict: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("check {line:?}: {e}: {out:?}"));
        let findings = verdict["findings"].as_array().cloned().unwrap_or_default();
        if findings.iter().any(|f| f["tier"] == "protected") {
            Judgement::Protected
        } else if verdict["decision"] == "allow" {
            Judgement::Allowed
        } else {
            Judgement::Stopped
        }
    }

    /// What the world held before and holds no longer.
    fn lost(&self) -> Vec<String> {
        let mut kept: HashSet<String> = HashSet::new();
        for repo in REPOS {
            kept.extend(reachable_in(&self.root.join(repo), "--objects"));
        }
        kept.extend(
            work_files(&self.root, Files::All)
                .into_iter()
                .map(|(_, hash)| hash),
        );
        let template = self.template.clone();
        let root = self.root.clone();
        // A file the line only appended to still holds what it held.
        let extended = |path: &str| {
            let old = std::fs::read(template.join(path)).unwrap_or_default();
            std::fs::read(root.join(path)).is_ok_and(|new| new.starts_with(&old))
        };
        let mut lost: Vec<String> = self
            .before
            .files
            .iter()
            .filter(|(path, hash)| !kept.contains(hash) && !extended(path))
            .map(|(path, _)| format!("file {path}"))
            .collect();
        lost.extend(
            self.before
                .commits
                .iter()
                .filter(|c| !kept.contains(*c))
                .map(|c| format!("commit {}", &c[..10])),
        );
        lost
    }
}

enum Judgement {
    Allowed,
    Stopped,
    Protected,
}

/// Why `line` must not run: an absolute path outside `root`, or a climb out of it.
pub fn outside(root: &Path, line: &str) -> Option<&'static str> {
    let root = root.to_string_lossy();
    let starts = |i: usize| {
        i == 0
            || line[..i]
                .chars()
                .next_back()
                .is_some_and(|c| " \t'\"=;&|(<>:`$".contains(c))
    };
    for (i, _) in line.match_indices('/') {
        if starts(i) && !line[i..].starts_with(root.as_ref()) {
            return Some("names a path outside the world");
        }
    }
    if line.contains("../..") || line.contains('~') {
        return Some("names a path outside the world");
    }
    None
}

/// Runs `script` with bash in `cwd`, confined to `root`; (success, stderr).
fn bash(root: &Path, cwd: &Path, script: &str) -> (bool, String) {
    let mut cmd = Command::new("bash");
    confine(&mut cmd, root);
    let mut child = cmd
        .arg("-s")
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let until = Instant::now() + RUN_LIMIT;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            use std::io::Read;
            child
                .stderr
                .take()
                .unwrap()
                .read_to_string(&mut err)
                .unwrap();
            return (status.success(), err);
        }
        if Instant::now() > until {
            child.kill().unwrap();
            child.wait().unwrap();
            return (false, "timed out".into());
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// An environment that points everything a command may write at the world.
fn confine(cmd: &mut Command, root: &Path) {
    let path = std::env::var_os("PATH").unwrap_or_default();
    cmd.env_clear()
        .env("PATH", path)
        .env("HOME", root.join("home"))
        .env("TMPDIR", root.join("tmp"))
        .env("XDG_CONFIG_HOME", root.join("xdg/config"))
        .env("XDG_STATE_HOME", root.join("xdg/state"))
        .env("XDG_CACHE_HOME", root.join("xdg/cache"))
        .env("XDG_DATA_HOME", root.join("xdg/data"))
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_EDITOR", "true")
        .env("GIT_SEQUENCE_EDITOR", "true")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("EDITOR", "true")
        // npm asks the registry whether it is the newest: nothing a line does.
        .env("NPM_CONFIG_UPDATE_NOTIFIER", "false")
        .env("LC_ALL", "C");
}

fn copy(from: &Path, to: &Path) {
    let status = Command::new("cp")
        .arg("-a")
        .arg(from)
        .arg(to)
        .status()
        .unwrap();
    assert!(status.success());
}

/// The files of the world (its work, or every one), each with its git blob hash.
fn work_files(root: &Path, which: Files) -> Vec<(String, String)> {
    fn walk(dir: &Path, top: bool, which: Files, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name();
            let output = top && REGENERABLE.iter().any(|r| name == *r);
            if name == ".git" || output && which == Files::Work {
                continue;
            }
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                walk(&path, false, which, out);
            } else if kind.is_file() {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    match which {
        Files::Work => {
            for folder in WORK {
                walk(&root.join(folder), true, which, &mut files);
            }
        }
        Files::All => walk(root, false, which, &mut files),
    }
    if files.is_empty() {
        return Vec::new();
    }
    let list: String = files.iter().map(|f| format!("{}\n", f.display())).collect();
    let hashes = git_with_input(root, &["hash-object", "--stdin-paths"], &list);
    files
        .iter()
        .zip(hashes.lines())
        .map(|(f, h)| {
            let shown = f.strip_prefix(root).unwrap_or(f).display().to_string();
            (shown, h.to_string())
        })
        .collect()
}

/// Objects of `kind` reachable from a ref, a stash entry or an index, in every repository.
fn reachable(root: &Path, kind: &str) -> BTreeSet<String> {
    let mut all = BTreeSet::new();
    for repo in REPOS {
        let dir = root.join(repo);
        let listed = git(
            &dir,
            &["rev-list", "--all", "--indexed-objects", "--objects"],
        );
        let ids: Vec<&str> = listed
            .lines()
            .filter_map(|l| l.split_whitespace().next())
            .collect();
        let types = git_with_input(
            &dir,
            &["cat-file", "--batch-check"],
            &(ids.join("\n") + "\n"),
        );
        all.extend(
            types
                .lines()
                .filter(|l| l.split_whitespace().nth(1) == Some(kind))
                .filter_map(|l| l.split_whitespace().next().map(str::to_string)),
        );
        all.extend(stash_commits(&dir).into_iter().filter(|_| kind == "commit"));
    }
    all
}

/// Every object reachable in `repo` from refs, stash entries and the index.
fn reachable_in(repo: &Path, objects: &str) -> Vec<String> {
    if !repo.exists() {
        return Vec::new();
    }
    let stashes = stash_commits(repo);
    let mut args = vec!["rev-list", "--all", "--indexed-objects", objects];
    args.extend(stashes.iter().map(String::as_str));
    git(repo, &args)
        .lines()
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

/// The commits of every stash entry (the reflog of `refs/stash` is the stash list).
fn stash_commits(repo: &Path) -> Vec<String> {
    git(repo, &["stash", "list", "--format=%H"])
        .lines()
        .map(str::to_string)
        .collect()
}

fn git(dir: &Path, args: &[&str]) -> String {
    git_with_input(dir, args, "")
}

fn git_with_input(dir: &Path, args: &[&str], input: &str) -> String {
    let mut cmd = Command::new("git");
    let mut child = cmd
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub mod corpus;

/// The figures of one run.
#[derive(Debug, Default)]
pub struct Tally {
    pub lines: usize,
    pub allowed: usize,
    pub allowed_with_loss: Vec<(String, Vec<String>)>,
    pub stopped_with_loss: usize,
    pub stopped_with_no_loss: Vec<String>,
    pub not_run: usize,
}

impl std::fmt::Display for Tally {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} lines: {} allowed, {} allowed with loss, {} stopped with loss, \
             {} stopped with no loss (false stops), {} judged but not run",
            self.lines,
            self.allowed,
            self.allowed_with_loss.len(),
            self.stopped_with_loss,
            self.stopped_with_no_loss.len(),
            self.not_run
        )
    }
}

/// Runs every line of `lines` through `world`.
pub fn run(world: &World, lines: &[String]) -> Tally {
    let mut tally = Tally::default();
    for line in lines {
        tally.lines += 1;
        match world.try_line(line) {
            Outcome::AllowedKept => tally.allowed += 1,
            Outcome::AllowedLost(lost) => {
                tally.allowed += 1;
                tally.allowed_with_loss.push((line.clone(), lost));
            }
            Outcome::StoppedKept => tally.stopped_with_no_loss.push(line.clone()),
            Outcome::StoppedLost => tally.stopped_with_loss += 1,
            Outcome::NotRun(_) => tally.not_run += 1,
        }
    }
    tally
}
