//! Whose work it is, through the hook binary: what agent sessions made (seen before and after
//! each call, shell and file tools alike) can be deleted or discarded by them, snapshotted
//! first; what anyone else made or changed, or anything when the journal is missing or
//! damaged, stays stopped.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::Sandbox;
use serde_json::{Value, json};

/// A git repository with one commit (`tracked.txt`) in a sandbox with its own HOME, where
/// the journal lives.
struct Repo {
    sandbox: Sandbox,
}

impl Repo {
    fn new() -> Repo {
        let repo = Repo {
            sandbox: Sandbox::new(),
        };
        repo.git(&["init", "-q", "-b", "main"]);
        repo.write("tracked.txt", "committed\n");
        repo.git(&["add", "."]);
        repo.git(&["commit", "-q", "-m", "start"]);
        repo
    }

    fn dir(&self) -> PathBuf {
        self.sandbox.cwd()
    }

    fn git(&self, args: &[&str]) -> String {
        let out = Command::new("git")
            .args([
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@t",
                "-c",
                "commit.gpgsign=false",
            ])
            .args(args)
            .current_dir(self.dir())
            .env("HOME", self.sandbox.home())
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {out:?}");
        String::from_utf8(out.stdout).unwrap()
    }

    fn write(&self, path: &str, text: &str) {
        let path = self.dir().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn append(&self, path: &str, text: &str) {
        let old = std::fs::read_to_string(self.dir().join(path)).unwrap();
        self.write(path, &format!("{old}{text}"));
    }

    /// Sends `payload` to the hook with context on; the decision it shows.
    fn hook(&self, payload: Value) -> String {
        let out = self
            .sandbox
            .command()
            .arg("hook")
            .env("AGENT_GUARD_CONTEXT", "on")
            .write_stdin(payload.to_string())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        let stdout = String::from_utf8(out.stdout).unwrap();
        if stdout.trim().is_empty() {
            return "allow".into();
        }
        let reply: Value = serde_json::from_str(&stdout).unwrap();
        let decision = reply["hookSpecificOutput"]["permissionDecision"]
            .as_str()
            .unwrap();
        format!(
            "{decision}: {}",
            reply["hookSpecificOutput"]["permissionDecisionReason"]
        )
    }

    fn payload(&self, event: &str, tool: &str, input: Value) -> Value {
        json!({
            "session_id": "agent-1", "transcript_path": "/t.jsonl", "cwd": self.dir(),
            "permission_mode": "default", "hook_event_name": event,
            "tool_name": tool, "tool_input": input, "tool_use_id": "t1"
        })
    }

    /// Judges `command` as Claude Code would send it; "allow" or the stop and its reason.
    fn judge(&self, command: &str) -> String {
        self.hook(self.payload("PreToolUse", "Bash", json!({ "command": command })))
    }

    /// An agent's shell call, the whole round: judged, run (by `run`), reported after.
    fn agent_shell(&self, command: &str, run: impl FnOnce(&Repo)) {
        assert_eq!(self.judge(command), "allow", "{command}");
        run(self);
        let after = self.payload("PostToolUse", "Bash", json!({ "command": command }));
        assert_eq!(self.hook(after), "allow");
    }

    /// An agent's `Write` of `path` with `text`, the whole round.
    fn agent_write(&self, path: &str, text: &str) {
        let input = json!({ "file_path": path, "content": text });
        assert_eq!(
            self.hook(self.payload("PreToolUse", "Write", input.clone())),
            "allow"
        );
        self.write(path, text);
        assert_eq!(
            self.hook(self.payload("PostToolUse", "Write", input)),
            "allow"
        );
    }

    /// The journal files in the sandbox's state folder.
    fn journals(&self) -> Vec<PathBuf> {
        let dir = self.sandbox.home().join(".local/state/agent-guard/journal");
        std::fs::read_dir(dir)
            .map(|d| d.map(|e| e.unwrap().path()).collect())
            .unwrap_or_default()
    }

    fn snapshots(&self) -> Vec<String> {
        self.git(&[
            "for-each-ref",
            "--format=%(refname)",
            "refs/agent-guard/snapshots",
        ])
        .lines()
        .map(str::to_string)
        .collect()
    }

    /// `path` as kept in the newest snapshot.
    fn in_snapshot(&self, path: &str) -> String {
        let newest = self.snapshots().pop().expect("a snapshot");
        self.git(&["show", &format!("{newest}:{path}")])
    }
}

fn stopped(verdict: &str) -> bool {
    verdict.starts_with("deny") || verdict.starts_with("ask")
}

#[test]
fn a_file_a_shell_line_made_can_be_deleted_by_agents_snapshotted_first() {
    let repo = Repo::new();
    repo.agent_shell("echo draft > notes.txt", |r| {
        r.write("notes.txt", "draft\n")
    });
    assert_eq!(repo.journals().len(), 1);
    assert!(repo.snapshots().is_empty());
    assert_eq!(repo.judge("rm -rf notes.txt"), "allow");
    assert_eq!(repo.in_snapshot("notes.txt"), "draft\n");
}

#[test]
fn a_file_a_file_tool_made_can_be_deleted_and_rewritten_by_agents() {
    let repo = Repo::new();
    repo.agent_write("docs/plan.md", "v1\n");
    // Written again by an agent: still the agents' own.
    repo.agent_shell("echo v2 > docs/plan.md", |r| {
        r.write("docs/plan.md", "v2\n")
    });
    assert_eq!(repo.judge("rm -rf docs/plan.md"), "allow");
    assert_eq!(repo.in_snapshot("docs/plan.md"), "v2\n");
    // And the folder it made around it, as a whole.
    assert_eq!(repo.judge("rm -rf docs"), "allow");
}

#[test]
fn a_folder_a_line_made_and_filled_can_be_deleted() {
    let repo = Repo::new();
    repo.agent_shell("mkdir -p out/gen && cp tracked.txt out/gen/copy.txt", |r| {
        r.write("out/gen/copy.txt", "committed\n")
    });
    repo.agent_shell("touch out/stamp", |r| r.write("out/stamp", ""));
    assert_eq!(repo.judge("rm -rf out"), "allow");
}

#[test]
fn the_same_file_made_by_the_user_stops() {
    let repo = Repo::new();
    // A journal exists for the repository, but knows nothing of this file.
    repo.agent_write("agent.txt", "a\n");
    repo.write("notes.txt", "mine\n");
    let verdict = repo.judge("rm -rf notes.txt");
    assert!(stopped(&verdict), "{verdict}");
    assert!(verdict.contains("notes.txt"), "{verdict}");
}

#[test]
fn a_file_changed_by_someone_after_the_agents_last_write_stops() {
    let repo = Repo::new();
    repo.agent_shell("echo draft > notes.txt", |r| {
        r.write("notes.txt", "draft\n")
    });
    repo.append("notes.txt", "the user's line\n");
    assert!(stopped(&repo.judge("rm -rf notes.txt")));
    // Inside a folder the agent made, too.
    repo.agent_write("out/a.txt", "a\n");
    repo.write("out/b.txt", "the user's file\n");
    assert!(stopped(&repo.judge("rm -rf out")));
}

#[test]
fn a_write_never_seen_to_finish_stays_someones() {
    let repo = Repo::new();
    // No after-call event: the journal cannot tell what the file held when the agent was done.
    assert_eq!(repo.judge("echo draft > notes.txt"), "allow");
    repo.write("notes.txt", "draft\n");
    assert!(stopped(&repo.judge("rm -rf notes.txt")));
}

#[test]
fn discarding_only_the_agents_changes_passes_snapshotted() {
    let repo = Repo::new();
    repo.agent_write("tracked.txt", "committed\nthe agent's line\n");
    assert_eq!(repo.judge("git checkout -- tracked.txt"), "allow");
    assert_eq!(
        repo.in_snapshot("tracked.txt"),
        "committed\nthe agent's line\n"
    );
}

#[test]
fn the_users_edits_under_the_agents_stop_a_discard() {
    let repo = Repo::new();
    repo.write("tracked.txt", "committed\nthe user's line\n");
    repo.agent_write(
        "tracked.txt",
        "committed\nthe user's line\nthe agent's line\n",
    );
    let verdict = repo.judge("git checkout -- tracked.txt");
    assert!(stopped(&verdict), "{verdict}");
    assert!(verdict.contains("tracked.txt"), "{verdict}");
}

#[test]
fn the_users_edits_over_the_agents_stop_a_discard() {
    let repo = Repo::new();
    repo.agent_write("tracked.txt", "committed\nthe agent's line\n");
    repo.append("tracked.txt", "the user's line\n");
    assert!(stopped(&repo.judge("git checkout -- tracked.txt")));
}

#[test]
fn a_damaged_or_missing_journal_stops_everything() {
    let repo = Repo::new();
    repo.agent_write("notes.txt", "draft\n");
    assert_eq!(repo.journals().len(), 1);
    let journal = repo.journals().pop().unwrap();
    let kept = std::fs::read(&journal).unwrap();
    std::fs::write(&journal, [kept.as_slice(), b"{\"e\":\"crea\n"].concat()).unwrap();
    assert!(stopped(&repo.judge("rm -rf notes.txt")));
    std::fs::write(&journal, b"not json\n").unwrap();
    assert!(stopped(&repo.judge("rm -rf notes.txt")));
    std::fs::remove_file(&journal).unwrap();
    assert!(stopped(&repo.judge("rm -rf notes.txt")));
}

#[test]
fn another_sessions_report_does_not_vouch_for_a_write() {
    let repo = Repo::new();
    assert_eq!(repo.judge("echo draft > notes.txt"), "allow");
    repo.write("notes.txt", "draft\n");
    let mut after = repo.payload(
        "PostToolUse",
        "Bash",
        json!({ "command": "echo draft > notes.txt" }),
    );
    after["session_id"] = json!("agent-2");
    assert_eq!(repo.hook(after), "allow");
    assert!(stopped(&repo.judge("rm -rf notes.txt")));
}

#[test]
fn agents_cannot_write_the_journal() {
    let repo = Repo::new();
    repo.agent_write("notes.txt", "draft\n");
    let journal = repo.journals().pop().unwrap();
    let shown = journal.display().to_string();
    for command in [
        format!("echo '{{}}' >> {shown}"),
        format!("rm {shown}"),
        format!("rm -rf {}", journal.parent().unwrap().display()),
    ] {
        let verdict = repo.judge(&command);
        assert!(verdict.contains("guard.tamper"), "{command}: {verdict}");
    }
    let input = json!({ "file_path": shown, "content": "{}" });
    let verdict = repo.hook(repo.payload("PreToolUse", "Write", input));
    assert!(verdict.contains("guard.tamper"), "{verdict}");
}

#[test]
fn a_read_only_line_writes_no_journal() {
    let repo = Repo::new();
    assert_eq!(repo.judge("git status && ls -la"), "allow");
    let after = repo.payload("PostToolUse", "Bash", json!({ "command": "git status" }));
    assert_eq!(repo.hook(after), "allow");
    assert!(repo.journals().is_empty());
    assert!(!Path::new(&repo.sandbox.home().join(".local/state/agent-guard/journal")).exists());
}

#[test]
fn an_after_call_event_is_only_observed() {
    let repo = Repo::new();
    let after = repo.payload(
        "PostToolUse",
        "Bash",
        json!({ "command": "rm -rf / > log.txt" }),
    );
    assert_eq!(repo.hook(after), "allow");
    assert!(repo.journals().is_empty());
}

#[test]
fn gemini_clis_file_tool_and_after_tool_event_count_too() {
    let repo = Repo::new();
    let event = |name: &str| {
        json!({
            "session_id": "g-1", "transcript_path": "/t.json", "cwd": repo.dir(),
            "hook_event_name": name, "timestamp": "2026-11-30T10:00:00Z",
            "tool_name": "write_file", "tool_input": {"file_path": "gen/out.txt", "content": "x"}
        })
    };
    let out = repo
        .sandbox
        .command()
        .args(["hook", "--host", "gemini"])
        .write_stdin(event("BeforeTool").to_string())
        .output()
        .unwrap();
    assert!(out.stdout.is_empty(), "{out:?}");
    repo.write("gen/out.txt", "x");
    let out = repo
        .sandbox
        .command()
        .args(["hook", "--host", "gemini"])
        .write_stdin(event("AfterTool").to_string())
        .output()
        .unwrap();
    assert!(out.stdout.is_empty(), "{out:?}");
    assert_eq!(repo.judge("rm -rf gen"), "allow");
}

#[test]
fn moving_someones_file_does_not_make_it_the_agents() {
    let repo = Repo::new();
    repo.agent_write("agent.txt", "a\n");
    repo.write("mine.txt", "the user's\n");
    repo.agent_shell("mv mine.txt moved.txt", |r| {
        std::fs::rename(r.dir().join("mine.txt"), r.dir().join("moved.txt")).unwrap()
    });
    assert!(stopped(&repo.judge("rm -rf moved.txt")));
    // The agents' own file moved stays theirs.
    repo.agent_shell("mv agent.txt renamed.txt", |r| {
        std::fs::rename(r.dir().join("agent.txt"), r.dir().join("renamed.txt")).unwrap()
    });
    assert_eq!(repo.judge("rm -rf renamed.txt"), "allow");
}

#[test]
fn a_later_call_does_not_vouch_for_the_users_change() {
    let repo = Repo::new();
    repo.agent_shell("mkdir out && echo a > out/a.txt", |r| {
        r.write("out/a.txt", "a\n")
    });
    repo.append("out/a.txt", "the user's line\n");
    repo.agent_shell("mkdir -p out && touch out/a.txt", |_| {});
    assert!(stopped(&repo.judge("rm -rf out")));
    assert!(stopped(&repo.judge("rm -rf out/a.txt")));
}

#[test]
fn staged_changes_under_the_agents_stop_a_discard() {
    let repo = Repo::new();
    repo.write("tracked.txt", "committed\nstaged by the user\n");
    repo.git(&["add", "tracked.txt"]);
    repo.agent_write(
        "tracked.txt",
        "committed\nstaged by the user\nthe agent's line\n",
    );
    assert!(stopped(&repo.judge("git checkout -- tracked.txt")));
}

#[test]
fn a_discard_from_a_subfolder_weighs_the_same_files() {
    let repo = Repo::new();
    repo.write("src/lib.rs", "fn a() {}\n");
    repo.git(&["add", "."]);
    repo.git(&["commit", "-q", "-m", "src"]);
    repo.agent_write("src/lib.rs", "fn a() {}\nfn b() {}\n");
    let payload = json!({
        "session_id": "agent-1", "cwd": repo.dir().join("src"), "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": {"command": "git checkout -- lib.rs"}
    });
    assert_eq!(repo.hook(payload), "allow");
}

/// Hermes Agent's shell hooks report each `terminal` call before (`pre_tool_call`) and after
/// (`post_tool_call`) it runs: what the command made is the agents' too.
#[test]
fn hermes_agents_post_tool_call_event_counts_too() {
    let repo = Repo::new();
    let event = |name: &str| {
        json!({
            "hook_event_name": name, "tool_name": "terminal",
            "tool_input": {"command": "mkdir gen && echo x > gen/out.txt"},
            "session_id": "h-1", "cwd": repo.dir(), "extra": {"task_id": ""}
        })
    };
    let send = |payload: Value| {
        repo.sandbox
            .command()
            .args(["hook", "--host", "hermes"])
            .write_stdin(payload.to_string())
            .output()
            .unwrap()
    };
    let out = send(event("pre_tool_call"));
    assert!(out.stdout.is_empty() && out.status.success(), "{out:?}");
    repo.write("gen/out.txt", "x\n");
    assert!(stopped(&repo.judge("rm -rf gen")));
    let out = send(event("post_tool_call"));
    assert!(out.stdout.is_empty() && out.status.success(), "{out:?}");
    assert_eq!(repo.judge("rm -rf gen"), "allow");
}

/// Codex, Factory Droid, Qoder CLI, Qwen Code and Auggie report each shell call after it runs
/// (`PostToolUse`, Claude Code's shape) to the hook install wires there: what it made is the
/// agents' too.
#[test]
fn other_hosts_post_tool_use_counts_too() {
    for (host, tool) in [
        ("codex", "Bash"),
        ("droid", "Execute"),
        ("qoder", "Bash"),
        ("qwen", "run_shell_command"),
        ("auggie", "launch-process"),
    ] {
        let repo = Repo::new();
        let command = "mkdir gen && echo x > gen/out.txt";
        let event = |name: &str| {
            json!({
                "session_id": format!("{host}-1"), "turn_id": "t1", "cwd": repo.dir(),
                "workspace_roots": [repo.dir()],
                "hook_event_name": name, "tool_name": tool, "tool_input": {"command": command}
            })
        };
        let send = |payload: Value| {
            repo.sandbox
                .command()
                .args(["hook", "--host", host])
                .write_stdin(payload.to_string())
                .output()
                .unwrap()
        };
        let out = send(event("PreToolUse"));
        assert!(
            out.stdout.is_empty() && out.status.success(),
            "{host}: {out:?}"
        );
        repo.write("gen/out.txt", "x\n");
        assert!(stopped(&repo.judge("rm -rf gen")), "{host}");
        let out = send(event("PostToolUse"));
        assert!(
            out.stdout.is_empty() && out.status.success(),
            "{host}: {out:?}"
        );
        assert_eq!(repo.judge("rm -rf gen"), "allow", "{host}");
    }
}

/// Cursor reports each shell command after it ran (`afterShellExecution`, the fields of
/// `beforeShellExecution` with the output): what it made is the agents' too.
#[test]
fn cursors_after_shell_execution_counts_too() {
    let repo = Repo::new();
    let event = |name: &str| {
        json!({
            "conversation_id": "c-1", "generation_id": "g-1", "hook_event_name": name,
            "command": "mkdir gen && echo x > gen/out.txt", "cwd": repo.dir(),
            "workspace_roots": [repo.dir()]
        })
    };
    let send = |payload: Value| {
        repo.sandbox
            .command()
            .arg("hook")
            .write_stdin(payload.to_string())
            .output()
            .unwrap()
    };
    let out = send(event("beforeShellExecution"));
    assert!(out.stdout.is_empty() && out.status.success(), "{out:?}");
    repo.write("gen/out.txt", "x\n");
    assert!(stopped(&repo.judge("rm -rf gen")));
    let mut after = event("afterShellExecution");
    after["output"] = json!("");
    let out = send(after);
    assert!(out.stdout.is_empty() && out.status.success(), "{out:?}");
    assert_eq!(repo.judge("rm -rf gen"), "allow");
}

/// Copilot CLI's `postToolUse` is its `preToolUse` payload with the result added: the command
/// install writes for it (`hook --host copilot --after`) says it ran, and what it made is the
/// agents' too. Without the flag the same payload is a call about to run, which vouches for
/// nothing.
#[test]
fn copilots_post_tool_use_counts_through_the_after_flag() {
    let repo = Repo::new();
    let fixture = common::test_file("fixtures/copilot/post-tool-use-mkdir.json");
    let mut after: Value = serde_json::from_slice(&std::fs::read(fixture).unwrap()).unwrap();
    after["cwd"] = json!(repo.dir());
    let mut before = after.clone();
    before.as_object_mut().unwrap().remove("toolResult");
    let send = |payload: &Value, flags: &[&str]| {
        let out = repo
            .sandbox
            .command()
            .args(["hook", "--host", "copilot"])
            .args(flags)
            .write_stdin(payload.to_string())
            .output()
            .unwrap();
        assert!(out.stdout.is_empty() && out.status.success(), "{out:?}");
    };
    send(&before, &[]);
    repo.write("gen/out.txt", "x\n");
    send(&after, &[]);
    assert!(stopped(&repo.judge("rm -rf gen")));
    send(&after, &["--after"]);
    assert_eq!(repo.judge("rm -rf gen"), "allow");
}

/// An after-call event only observes: even a line the guard would stop gets no answer, and
/// garbage none either.
#[test]
fn the_after_flag_never_answers() {
    let repo = Repo::new();
    let destructive = json!({
        "sessionId": "c-1", "cwd": repo.dir(), "toolName": "bash",
        "toolArgs": {"command": "git reset --hard && rm -rf tracked.txt"},
        "toolResult": {"resultType": "success", "textResultForLlm": ""}
    });
    for (flags, input) in [
        (
            &["--host", "copilot", "--after"][..],
            destructive.to_string(),
        ),
        (&["--after"][..], destructive.to_string()),
        (
            &["--host", "copilot", "--after"][..],
            "{not json".to_string(),
        ),
    ] {
        let out = repo
            .sandbox
            .command()
            .arg("hook")
            .args(flags)
            .write_stdin(input)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{flags:?}: {out:?}");
        assert!(
            out.stdout.is_empty() && out.stderr.is_empty(),
            "{flags:?}: {out:?}"
        );
    }
}

/// Hosts whose after-call event names itself, each from its fixture: the event before the call
/// is the same payload under the before-call name, without the result. What the command made
/// is the agents' once the after-call event is in.
#[test]
fn named_after_call_fixtures_count_too() {
    let cases = [
        (
            "kimi",
            "fixtures/kimi/post-tool-use-mkdir.json",
            ("hook_event_name", "PreToolUse"),
            &["tool_output"][..],
        ),
        (
            "vibe",
            "fixtures/vibe/post-tool-mkdir.json",
            ("hook_event_name", "pre_tool"),
            &[
                "tool_status",
                "tool_output",
                "tool_output_text",
                "tool_error",
                "duration_ms",
            ][..],
        ),
        (
            "windsurf",
            "fixtures/windsurf/post-run-command-mkdir.json",
            ("agent_action_name", "pre_run_command"),
            &[][..],
        ),
    ];
    for (host, fixture, (event_key, before_event), results) in cases {
        let repo = Repo::new();
        let text = std::fs::read(common::test_file(fixture)).unwrap();
        let mut after: Value = serde_json::from_slice(&text).unwrap();
        let cwd = match host {
            "windsurf" => &mut after["tool_info"]["cwd"],
            _ => &mut after["cwd"],
        };
        *cwd = json!(repo.dir());
        let mut before = after.clone();
        before[event_key] = json!(before_event);
        for result in results {
            before.as_object_mut().unwrap().remove(*result);
        }
        let send = |payload: &Value| {
            let out = repo
                .sandbox
                .command()
                .args(["hook", "--host", host])
                .write_stdin(payload.to_string())
                .output()
                .unwrap();
            assert!(
                out.stdout.is_empty() && out.status.success(),
                "{host}: {out:?}"
            );
        };
        send(&before);
        repo.write("gen/out.txt", "x\n");
        assert!(stopped(&repo.judge("rm -rf gen")), "{host}");
        send(&after);
        assert_eq!(repo.judge("rm -rf gen"), "allow", "{host}");
    }
}
