//! Claims between agents: `agent-guard claim`, `release`, `claims`, and `rm` refusing what
//! another session claims. Real repositories built with the real `git` in scratch folders;
//! HOME and XDG_DATA_HOME point into them.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use serde_json::Value;

/// `work/` is a repository with one commit and the directory the binary runs in.
struct World {
    sandbox: common::Sandbox,
}

impl World {
    fn new() -> World {
        let world = World {
            sandbox: common::Sandbox::new(),
        };
        world.git(&["init", "-q", "-b", "main"]);
        fs::write(world.repo().join("README.md"), "hello\n").unwrap();
        world.git(&["add", "."]);
        world.git(&["commit", "-q", "-m", "initial"]);
        fs::create_dir_all(world.repo().join("build/cache")).unwrap();
        fs::write(world.repo().join("build/cache/blob"), "x").unwrap();
        world
    }

    fn repo(&self) -> PathBuf {
        self.sandbox.cwd().canonicalize().unwrap()
    }

    fn base(&self) -> PathBuf {
        self.repo().parent().unwrap().to_path_buf()
    }

    fn git(&self, args: &[&str]) {
        let out = Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
            .args(["-c", "commit.gpgsign=false"])
            .args(args)
            .current_dir(self.repo())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", self.base().join("home"))
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {}", text(&out.stderr));
    }

    /// `agent-guard <args>` as `session`, in `dir`: a plain `std` command, so that several
    /// can run at once, with the environment scrubbed as `common::Sandbox` does it.
    fn command_in(&self, dir: &Path, session: &str, args: &[&str]) -> Command {
        let mut cmd = self.bare_command();
        cmd.env("AGENT_GUARD_SESSION", session)
            .current_dir(dir)
            .args(args);
        cmd
    }

    /// `agent-guard` without a session, in the repository.
    fn bare_command(&self) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_agent-guard"));
        for (key, _) in std::env::vars_os() {
            let key = key.to_string_lossy();
            if key.starts_with("AGENT_GUARD_") || key.starts_with("XDG_") {
                cmd.env_remove(&*key);
            }
        }
        cmd.env("HOME", self.base().join("home"))
            .env("XDG_DATA_HOME", self.base().join("data"))
            .current_dir(self.repo());
        cmd
    }

    fn run_in(&self, dir: &Path, session: &str, args: &[&str]) -> Output {
        self.command_in(dir, session, args).output().unwrap()
    }

    fn run(&self, session: &str, args: &[&str]) -> Output {
        self.run_in(&self.repo(), session, args)
    }

    /// The live claims, as `agent-guard claims --json` reports them.
    fn claims(&self) -> Vec<Value> {
        let out = self.run("observer", &["claims", "--json"]);
        assert_eq!(code(&out), 0, "{}", text(&out.stderr));
        let value: Value = serde_json::from_slice(&out.stdout).unwrap();
        value["claims"].as_array().unwrap().clone()
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn code(out: &Output) -> i32 {
    out.status.code().expect("exited normally")
}

fn ok(out: &Output) {
    assert_eq!(
        code(out),
        0,
        "stdout: {}\nstderr: {}",
        text(&out.stdout),
        text(&out.stderr)
    );
}

#[test]
fn a_claimed_path_is_refused_to_other_sessions_and_allowed_to_its_owner() {
    let world = World::new();
    ok(&world.run("alice", &["claim", "build/cache"]));

    // Equal to, inside, or above the claim: all refused for bob, naming alice.
    for target in ["build/cache", "build/cache/blob", "build"] {
        let out = world.run("bob", &["rm", "--root", ".", target, "--yes"]);
        assert_eq!(code(&out), 1, "{target}");
        let report = text(&out.stdout);
        assert!(
            report.contains(&format!("{target}: is claimed by session `alice`")),
            "{report}"
        );
        assert!(
            report.contains("(this command runs as session `bob`)"),
            "{report}"
        );
    }
    assert!(world.repo().join("build/cache/blob").exists());

    // Next to it is fine.
    fs::write(world.repo().join("build/other.log"), "log").unwrap();
    ok(&world.run("bob", &["rm", "--root", ".", "build/other.log", "--yes"]));

    // The owner may remove what it claimed.
    ok(&world.run("alice", &["rm", "--root", ".", "build/cache", "--yes"]));
    assert!(!world.repo().join("build/cache").exists());
}

#[test]
fn claims_of_a_session_whose_process_is_gone_expire() {
    let world = World::new();
    let mut agent = Command::new("cat")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let pid = agent.id().to_string();
    ok(&world.run("short-lived", &["claim", "--pid", &pid, "build"]));
    let claims = world.claims();
    assert_eq!(claims.len(), 1);
    assert_eq!(claims[0]["session"], "short-lived");
    assert_eq!(claims[0]["pid"].to_string(), pid);
    assert_eq!(code(&world.run("bob", &["rm", "--root", ".", "build"])), 1);

    drop(agent.stdin.take());
    agent.wait().unwrap();

    assert_eq!(world.claims(), Vec::<Value>::new());
    ok(&world.run("bob", &["rm", "--root", ".", "build", "--yes"]));
}

#[test]
fn claims_expire_after_their_time() {
    let world = World::new();
    // Long enough that the claim is still there when listed on a loaded machine.
    ok(&world.run("alice", &["claim", "--ttl", "3s", "build"]));
    assert_eq!(world.claims().len(), 1);
    std::thread::sleep(Duration::from_millis(3_100));
    assert_eq!(world.claims(), Vec::<Value>::new());
    ok(&world.run("bob", &["rm", "--root", ".", "build"]));
}

#[test]
fn a_claim_for_a_process_that_is_not_running_is_refused() {
    let world = World::new();
    let mut gone = Command::new("true").spawn().unwrap();
    let pid = gone.id().to_string();
    gone.wait().unwrap();
    let out = world.run("alice", &["claim", "--pid", &pid, "build"]);
    assert_eq!(code(&out), 1);
    assert!(
        text(&out.stderr).contains("is not running"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn processes_claiming_at_once_all_land() {
    let world = World::new();
    let agents: Vec<_> = (0..8)
        .map(|i| {
            world
                .command_in(
                    &world.repo(),
                    &format!("agent-{i}"),
                    &["claim", &format!("area-{i}")],
                )
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for agent in agents {
        ok(&agent.wait_with_output().unwrap());
    }
    let mut sessions: Vec<String> = world
        .claims()
        .iter()
        .map(|c| c["session"].as_str().unwrap().to_string())
        .collect();
    sessions.sort();
    let want: Vec<String> = (0..8).map(|i| format!("agent-{i}")).collect();
    assert_eq!(sessions, want);
}

#[test]
fn a_claim_overlapping_another_sessions_is_refused_whole() {
    let world = World::new();
    ok(&world.run("alice", &["claim", "build/cache"]));
    let out = world.run("bob", &["claim", "docs", "build"]);
    assert_eq!(code(&out), 1);
    let err = text(&out.stderr);
    assert!(err.contains("build: claimed by session `alice`"), "{err}");
    assert!(err.contains("which claims"), "{err}");
    // Nothing of bob's landed, not even the free path.
    let claims = world.claims();
    assert_eq!(claims.len(), 1);
    assert_eq!(claims[0]["session"], "alice");
    // Claiming again renews rather than doubling.
    ok(&world.run("alice", &["claim", "build/cache"]));
    assert_eq!(world.claims().len(), 1);
}

#[test]
fn release_lets_go_of_this_sessions_claims_only() {
    let world = World::new();
    ok(&world.run("alice", &["claim", "build/cache", "notes"]));
    ok(&world.run("bob", &["claim", "docs"]));

    let out = world.run("bob", &["release", "build/cache"]);
    assert_eq!(code(&out), 1);
    assert!(
        text(&out.stderr).contains("session `bob` holds no claim on it"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(world.claims().len(), 3);

    // Releasing a folder releases what this session claims inside it.
    ok(&world.run("alice", &["release", "build"]));
    assert_eq!(world.claims().len(), 2);
    let out = world.run("alice", &["release"]);
    ok(&out);
    assert!(
        text(&out.stdout).contains("Released notes"),
        "{}",
        text(&out.stdout)
    );
    let left = world.claims();
    assert_eq!(left.len(), 1);
    assert_eq!(left[0]["session"], "bob");
}

#[test]
fn worktrees_share_the_claims() {
    let world = World::new();
    let tree = world.base().join("tree");
    world.git(&["worktree", "add", "-q", tree.to_str().unwrap()]);
    ok(&world.run_in(&tree, "alice", &["claim", "README.md"]));
    let claims = world.claims();
    assert_eq!(claims.len(), 1);
    assert_eq!(
        claims[0]["path"],
        tree.canonicalize()
            .unwrap()
            .join("README.md")
            .display()
            .to_string()
    );
    assert!(world.repo().join(".git/agent-guard/claims.json").is_file());
}

#[test]
fn without_a_session_one_is_derived_and_said() {
    let world = World::new();
    let out = world
        .bare_command()
        .args(["claim", "build"])
        .output()
        .unwrap();
    ok(&out);
    let err = text(&out.stderr);
    assert!(err.contains("AGENT_GUARD_SESSION is not set"), "{err}");
    // The test process started the command, and it is no shell: the session is named after it.
    let session = format!("pid-{}", std::process::id());
    assert!(err.contains(&session), "{err}");
    assert_eq!(world.claims()[0]["session"], session);
}

#[test]
fn claims_live_only_in_repositories() {
    let world = World::new();
    let outside = world.base().join("plain");
    fs::create_dir(&outside).unwrap();
    let out = world.run_in(&outside, "alice", &["claim", "x"]);
    assert_eq!(code(&out), 1);
    assert!(
        text(&out.stderr).contains("is not inside a git repository"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn the_library_tells_the_hook_who_holds_a_path() {
    let world = World::new();
    ok(&world.run("alice", &["claim", "build/cache"]));
    let repo = world.repo();
    let held = agent_guard::claims::claimed_by_other(&repo, &[Path::new("build")], "bob")
        .unwrap()
        .expect("alice's claim is under build");
    assert_eq!(held.session, "alice");
    assert_eq!(held.path, repo.join("build/cache"));
    assert_eq!(
        agent_guard::claims::claimed_by_other(&repo, &[Path::new("build/cache/blob")], "alice"),
        Ok(None)
    );
    assert_eq!(
        agent_guard::claims::claimed_by_other(&repo, &[Path::new("README.md")], "bob"),
        Ok(None)
    );
}

#[test]
fn every_command_explains_itself() {
    let world = World::new();
    for command in ["claim", "release", "claims"] {
        let out = world.run("x", &[command, "--help"]);
        ok(&out);
        assert!(
            text(&out.stdout).contains("Usage: agent-guard"),
            "{command}"
        );
    }
    let help = text(&world.run("x", &["claim", "--help"]).stdout);
    for word in ["--pid", "--ttl", "AGENT_GUARD_SESSION"] {
        assert!(help.contains(word), "{word}: {help}");
    }
}
