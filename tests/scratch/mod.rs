//! A real repository in a scratch folder, with the binary run inside it: what the snapshot,
//! override, config, audit, context and guarded-rm tests share. HOME, XDG_STATE_HOME and
//! XDG_CONFIG_HOME point into the sandbox, so nothing touches the real home.
//!
//! Each test crate uses a different subset of these, hence the `dead_code` allowance.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};

use crate::common::Sandbox;

pub struct World {
    sandbox: Sandbox,
    /// The repository (the sandbox's working folder).
    pub repo: PathBuf,
}

impl World {
    /// A repository on `main` with one commit holding `README.md` and `src/lib.rs`.
    pub fn repo() -> World {
        let world = World::bare_folder();
        world.git(&["init", "-q", "-b", "main"]);
        world.git(&["config", "user.name", "t"]);
        world.git(&["config", "user.email", "t@example.com"]);
        world.git(&["config", "commit.gpgsign", "false"]);
        world.write("README.md", b"hello\n");
        world.write("src/lib.rs", b"pub fn f() {}\n");
        world.commit("initial");
        world
    }

    /// An empty folder that is no repository.
    pub fn bare_folder() -> World {
        let sandbox = Sandbox::new();
        let repo = sandbox.cwd();
        World { sandbox, repo }
    }

    pub fn home(&self) -> PathBuf {
        self.repo.parent().unwrap().join("home")
    }

    /// Where the audit log goes (XDG_STATE_HOME is set to `home/state`).
    pub fn audit_path(&self) -> PathBuf {
        self.home().join("state/agent-guard/audit.jsonl")
    }

    pub fn git(&self, args: &[&str]) -> String {
        let out = Command::new("git")
            .args(args)
            .current_dir(&self.repo)
            .env("HOME", self.home())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    pub fn write(&self, path: &str, bytes: &[u8]) {
        let path = self.repo.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }

    pub fn commit(&self, message: &str) {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "--allow-empty", "-m", message]);
    }

    /// Every file under the repository but `.git`, with its bytes.
    pub fn files(&self) -> BTreeMap<String, Vec<u8>> {
        fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.file_name().is_some_and(|n| n == ".git") {
                    continue;
                }
                if path.is_dir() {
                    walk(root, &path, out);
                } else {
                    let name = path.strip_prefix(root).unwrap().display().to_string();
                    out.insert(name, std::fs::read(&path).unwrap());
                }
            }
        }
        let mut out = BTreeMap::new();
        walk(&self.repo, &self.repo, &mut out);
        out
    }

    /// `agent-guard` in the repository, repository context on, state and config in the
    /// sandbox.
    pub fn guard(&self) -> assert_cmd::Command {
        let mut cmd = self.sandbox.command();
        cmd.env("AGENT_GUARD_CONTEXT", "on")
            .env("XDG_STATE_HOME", self.home().join("state"))
            .env("XDG_CONFIG_HOME", self.home().join("config"))
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .current_dir(&self.repo);
        cmd
    }

    /// The same as [`World::guard`] as a plain process, to start several at once.
    pub fn guard_process(&self) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_agent-guard"));
        for (key, _) in std::env::vars_os() {
            if key.to_string_lossy().starts_with("AGENT_GUARD_") {
                cmd.env_remove(key);
            }
        }
        cmd.env_remove("XDG_DATA_HOME")
            .env_remove("XDG_CACHE_HOME")
            .env("HOME", self.home())
            .env("XDG_STATE_HOME", self.home().join("state"))
            .env("XDG_CONFIG_HOME", self.home().join("config"))
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("AGENT_GUARD_CONTEXT", "on")
            .current_dir(&self.repo);
        cmd
    }

    /// Runs `agent-guard hook --host HOST` on `payload` with extra `env`.
    pub fn hook(&self, host: &str, payload: &Value, env: &[(&str, &str)]) -> Output {
        let mut cmd = self.guard();
        cmd.args(["hook", "--host", host])
            .write_stdin(payload.to_string());
        for (k, v) in env {
            cmd.env(k, v);
        }
        cmd.output().unwrap()
    }

    /// Claude Code's payload for `command` in the repository.
    pub fn claude(&self, command: &str) -> Value {
        json!({
            "session_id": "s-test",
            "transcript_path": "/tmp/t.jsonl",
            "cwd": self.repo,
            "permission_mode": "default",
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {
                "command": command,
                "description": "a test",
                "timeout": 120000,
                "run_in_background": false
            },
            "tool_use_id": "toolu_test",
        })
    }

    /// Runs `script` with sh in the repository, as the agent's shell would.
    pub fn sh(&self, script: &str) {
        let out = Command::new("sh")
            .args(["-c", script])
            .current_dir(&self.repo)
            .env("HOME", self.home())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{script}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// The audit log's records.
    pub fn audit(&self) -> Vec<Value> {
        match std::fs::read_to_string(self.audit_path()) {
            Ok(text) => text
                .lines()
                .map(|l| serde_json::from_str(l).expect("every audit line is JSON"))
                .collect(),
            Err(_) => Vec::new(),
        }
    }

    /// The snapshot refs in the repository.
    pub fn snapshots(&self) -> Vec<String> {
        self.git(&[
            "for-each-ref",
            "--format=%(refname)",
            "refs/agent-guard/snapshots/",
        ])
        .lines()
        .map(str::to_string)
        .collect()
    }
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}
