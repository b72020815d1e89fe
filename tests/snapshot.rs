//! Snapshots and undo, end to end in real repositories: the guard lets a destructive command
//! through (inline override or `--yes-i-know`), snapshots first without touching the working
//! tree or the index, the real command runs, and `agent-guard undo` brings every file back
//! byte for byte.

mod common;
mod scratch;

use scratch::{World, stderr, stdout};
use serde_json::Value;

/// A dirty tree: modified text and binary files, untracked files in nested folders, an
/// ignored file (which `git clean -fd` leaves, and the snapshot does not hold).
fn dirty() -> World {
    let world = World::repo();
    world.write(".gitignore", b"*.log\n");
    world.write("data.bin", &[0, 159, 146, 150, 255, 0, 10]);
    world.commit("more");
    world.write("README.md", b"edited, never committed\n");
    world.write("data.bin", &[1, 2, 3, 0, 255]);
    world.write("notes.txt", b"untracked notes\n");
    world.write("drafts/deep/idea.md", b"# an idea\n");
    world.write("drafts/blob.bin", &[0xde, 0xad, 0xbe, 0xef]);
    world.write("debug.log", b"ignored\n");
    world
}

/// How the agent lets the command through, and what then runs.
#[derive(Debug, Clone, Copy)]
enum Through {
    Prefix,
    Flag,
}

fn let_through(world: &World, command: &str, how: Through) -> String {
    let (sent, runs) = match how {
        Through::Prefix => (
            format!("AGENT_GUARD_OFF=1 {command}"),
            format!("AGENT_GUARD_OFF=1 {command}"),
        ),
        Through::Flag => (format!("{command} --yes-i-know"), command.to_string()),
    };
    let out = world.hook("claude", &world.claude(&sent), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    match how {
        Through::Prefix => assert_eq!(stdout(&out), "", "{}", stderr(&out)),
        Through::Flag => {
            let reply: Value = serde_json::from_str(&stdout(&out)).unwrap();
            let input = &reply["hookSpecificOutput"]["updatedInput"];
            assert_eq!(input["command"], runs.as_str(), "{reply}");
            assert_eq!(
                input["description"], "a test",
                "other fields carried through"
            );
        }
    }
    runs
}

#[test]
fn an_overridden_destructive_command_is_undone_byte_for_byte() {
    let cases = [
        ("git reset --hard", Through::Prefix),
        ("git reset --hard", Through::Flag),
        ("git clean -fd", Through::Prefix),
        ("git clean -fd", Through::Flag),
        ("git checkout -- .", Through::Flag),
    ];
    for (command, how) in cases {
        let world = dirty();
        let before = world.files();
        let index = std::fs::read(world.repo.join(".git/index")).unwrap();
        let status = world.git(&["status", "--porcelain"]);

        let runs = let_through(&world, command, how);
        assert_eq!(world.snapshots().len(), 1, "{command} ({how:?})");
        assert_eq!(
            world.files(),
            before,
            "the snapshot touched the working tree"
        );
        assert_eq!(
            std::fs::read(world.repo.join(".git/index")).unwrap(),
            index,
            "the snapshot touched the index"
        );
        assert_eq!(world.git(&["status", "--porcelain"]), status);

        world.sh(&runs);
        assert_ne!(world.files(), before, "{command} destroyed nothing");

        let out = world.guard().arg("undo").output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert!(stdout(&out).contains("Restored"), "{}", stdout(&out));
        assert_eq!(world.files(), before, "{command} ({how:?}) not undone");

        let mut records = world.audit();
        let undo = records.pop().expect("the undo's audit record");
        let record = records.pop().expect("the override's audit record");
        assert_eq!(record["decision"], "override");
        assert!(
            record["snapshot"]
                .as_str()
                .is_some_and(|s| s.starts_with("refs/agent-guard/snapshots/")),
            "{record}"
        );
        assert_eq!(undo["decision"], "undo");
        assert_eq!(undo["snapshot"], record["snapshot"], "{undo}");
    }
}

#[test]
fn undo_keeps_newer_changes_unless_forced() {
    let world = dirty();
    let before = world.files();
    let runs = let_through(&world, "git reset --hard", Through::Prefix);
    world.sh(&runs);
    world.write("README.md", b"written after the reset\n");

    let out = world.guard().arg("undo").output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("Kept 1 file(s)") && text.contains("README.md"),
        "{text}"
    );
    assert_eq!(world.files()["README.md"], b"written after the reset\n");
    assert_eq!(world.files()["data.bin"], before["data.bin"]);

    let out = world.guard().args(["undo", "--force"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("Saved the files it overwrites first"));
    assert_eq!(world.files(), before);
    // The overwritten state is itself a snapshot: undo of the undo.
    assert_eq!(world.snapshots().len(), 2);
}

#[test]
fn undo_dry_run_writes_nothing_and_nothing_to_do_is_said() {
    let world = dirty();
    let runs = let_through(&world, "git clean -fd", Through::Flag);
    world.sh(&runs);
    let after = world.files();
    let out = world.guard().args(["undo", "--dry-run"]).output().unwrap();
    assert!(
        stdout(&out).starts_with("Would restore 3 file(s)"),
        "{}",
        stdout(&out)
    );
    assert_eq!(world.files(), after);
    assert!(world.audit().iter().all(|r| r["decision"] != "undo"));

    world.guard().arg("undo").assert().success();
    let out = world.guard().arg("undo").output().unwrap();
    assert!(
        stdout(&out).starts_with("Nothing to restore"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn snapshots_are_listed_with_time_command_and_size() {
    let world = dirty();
    let_through(&world, "git reset --hard", Through::Prefix);
    let out = world
        .guard()
        .args(["snapshots", "--json"])
        .output()
        .unwrap();
    let listed: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(listed["command"], "AGENT_GUARD_OFF=1 git reset --hard");
    assert_eq!(listed["rules"][0], "git.reset-hard");
    assert_eq!(listed["files"], 5, "{listed}");
    assert!(listed["bytes"].as_u64().unwrap() > 40);
    assert_eq!(listed["refs"][0]["ref"], "refs/heads/main");
    assert!(listed["time"].as_str().unwrap().ends_with('Z'));

    let out = world.guard().arg("snapshots").output().unwrap();
    let line = stdout(&out);
    assert!(
        line.contains("5 file(s)") && line.contains("`AGENT_GUARD_OFF=1 git reset --hard`"),
        "{line}"
    );
}

#[test]
fn a_deleted_branch_is_kept_and_undo_names_the_way_back() {
    let world = World::repo();
    world.git(&["checkout", "-q", "-b", "topic"]);
    world.write("topic.txt", b"only on topic\n");
    world.commit("topic work");
    let tip = world.git(&["rev-parse", "HEAD"]).trim().to_string();
    world.git(&["checkout", "-q", "main"]);
    let runs = let_through(&world, "git branch -D topic", Through::Prefix);
    world.sh(&runs);
    // The snapshot keeps the commit alive past gc.
    world.git(&["reflog", "expire", "--expire=now", "--all"]);
    world.git(&["gc", "-q", "--prune=now"]);
    assert_eq!(world.git(&["cat-file", "-t", &tip]).trim(), "commit");

    let out = world.guard().arg("undo").output().unwrap();
    let text = stdout(&out);
    assert!(
        text.contains(&format!("git branch topic {}", &tip[..12])),
        "{text}"
    );
}

#[test]
fn old_snapshots_are_pruned_when_a_new_one_is_taken() {
    let world = dirty();
    let tree = world.git(&["write-tree"]).trim().to_string();
    let old = std::process::Command::new("git")
        .args(["commit-tree", &tree, "-m", "old"])
        .current_dir(&world.repo)
        .env("GIT_COMMITTER_DATE", "2001-01-01T00:00:00Z")
        .env("HOME", world.home())
        .output()
        .unwrap();
    let old = String::from_utf8(old.stdout).unwrap();
    world.git(&[
        "update-ref",
        "refs/agent-guard/snapshots/20010101T000000.000Z-1",
        old.trim(),
    ]);
    world.write(".agent-guard.toml", b"[snapshots]\nmax_age = \"7d\"\n");
    let_through(&world, "git reset --hard", Through::Prefix);
    let refs = world.snapshots();
    assert_eq!(refs.len(), 1, "{refs:?}");
    assert!(!refs[0].contains("2001"), "{refs:?}");
}

#[test]
fn no_snapshot_is_said_in_the_question() {
    type Setup = fn() -> World;
    let cases: [(&str, Setup, &str); 2] = [
        (
            "outside a repository",
            World::bare_folder,
            "No snapshot was taken: the command does not run in a git repository.",
        ),
        (
            "past the size limit",
            || {
                let world = dirty();
                world.write(".agent-guard.toml", b"[snapshots]\nmax_size = 10\n");
                world
            },
            "over the 10 bytes limit for snapshots (`snapshots.max_size`)",
        ),
    ];
    for (what, setup, says) in cases {
        let world = setup();
        world.write("build/out.txt", b"x\n");
        let out = world.hook(
            "claude",
            &world.claude("rm -rf build"),
            // Context off: in a temporary folder outside a repository it would clear `rm`.
            &[
                ("AGENT_GUARD_ON_DESTRUCTIVE", "ask"),
                ("AGENT_GUARD_CONTEXT", "off"),
            ],
        );
        let reply: Value = serde_json::from_str(&stdout(&out)).expect(what);
        let reason = reply["hookSpecificOutput"]["permissionDecisionReason"]
            .as_str()
            .unwrap();
        assert_eq!(
            reply["hookSpecificOutput"]["permissionDecision"], "ask",
            "{what}"
        );
        assert!(reason.contains(says), "{what}: {reason}");
        let record = world.audit().pop().unwrap();
        assert_eq!(record["decision"], "ask");
        assert!(record["no_snapshot"].is_string(), "{record}");
    }
}

#[test]
fn a_question_shows_command_rule_loss_recovery_and_the_snapshot() {
    let world = dirty();
    let out = world.hook(
        "claude",
        &world.claude("git reset --hard"),
        &[("AGENT_GUARD_ON_DESTRUCTIVE", "ask")],
    );
    let reply: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let reason = reply["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap();
    for part in [
        "[git.reset-hard]",
        "`git reset --hard`",
        "discards uncommitted changes to 2 files (README.md, data.bin)",
        "If it runs anyway:",
        "agent-guard saved the working tree first as snapshot",
        "`agent-guard undo` restores it",
    ] {
        assert!(reason.contains(part), "{part:?} missing from:\n{reason}");
    }
    assert_eq!(world.snapshots().len(), 1);
}

#[test]
fn undo_without_a_snapshot_or_a_repository_says_so() {
    let world = World::repo();
    let out = world.guard().arg("undo").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("there are no snapshots"),
        "{}",
        stderr(&out)
    );
    let out = world.guard().args(["undo", "nope"]).output().unwrap();
    assert!(
        stderr(&out).contains("there is no snapshot nope"),
        "{}",
        stderr(&out)
    );

    let outside = World::bare_folder();
    let out = outside.guard().arg("snapshots").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("not run in a git repository"),
        "{}",
        stderr(&out)
    );
}
