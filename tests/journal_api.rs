//! The question a single-file delete or overwrite asks of the journal, in-process: whose is the
//! content at this path? One test alone in its binary, as it points this process's state
//! folder into a sandbox.

mod common;

use std::process::Command;

use agent_guard::journal::{Journals, Ownership, owns};
use common::Sandbox;
use serde_json::json;

#[test]
fn whose_the_content_at_a_path_is() {
    let sandbox = Sandbox::new();
    let dir = sandbox.cwd();
    let state = sandbox.home().join(".local/state");
    // Alone in this binary, before any thread of its own reads the environment.
    unsafe { std::env::set_var("XDG_STATE_HOME", &state) };
    assert!(
        Command::new("git")
            .args(["init", "-q"])
            .current_dir(&dir)
            .status()
            .unwrap()
            .success()
    );
    let hook = |event: &str, path: &str| {
        let payload = json!({
            "session_id": "s-1", "cwd": dir, "hook_event_name": event,
            "tool_name": "Write", "tool_input": {"file_path": path, "content": "x"}
        });
        let out = sandbox
            .command()
            .arg("hook")
            .env("XDG_STATE_HOME", &state)
            .write_stdin(payload.to_string())
            .output()
            .unwrap();
        assert!(out.status.success() && out.stdout.is_empty(), "{out:?}");
    };
    let made = dir.join("made.txt");
    assert_eq!(owns(&made), Ownership::Unknown, "no journal yet");
    hook("PreToolUse", "made.txt");
    std::fs::write(&made, "x").unwrap();
    hook("PostToolUse", "made.txt");
    assert_eq!(owns(&made), Ownership::AgentsOwn("s-1".into()));

    let users = dir.join("users.txt");
    std::fs::write(&users, "mine").unwrap();
    assert_eq!(owns(&users), Ownership::Someone);
    // A file tool changing the user's file does not make it the agents'.
    hook("PreToolUse", "users.txt");
    std::fs::write(&users, "mine, and the agent's").unwrap();
    hook("PostToolUse", "users.txt");
    let mut journals = Journals::new();
    assert_eq!(journals.owner(&users), Ownership::Someone);
    assert!(journals.changes_owner(&users, b"mine").is_agents());
    assert!(!journals.changes_owner(&users, b"other").is_agents());

    std::fs::write(&made, "x, and the user's").unwrap();
    assert_eq!(owns(&made), Ownership::Someone);

    let journal = std::fs::read_dir(state.join("agent-guard/journal"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    std::fs::write(&journal, "{").unwrap();
    assert_eq!(owns(&users), Ownership::Unknown);
}
