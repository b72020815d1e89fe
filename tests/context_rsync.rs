//! `rsync --delete` against real folders: the context compares the source and destination
//! trees and clears the command only when the destination holds nothing the source lacks.

use std::fs;
use std::path::Path;

use agent_guard::policy::{Decision, Verdict};
use agent_guard::settings::Settings;

/// A scratch repository with untracked files written from `(path, contents)` pairs; a path
/// ending in `/` is an empty folder. A repository, so that its files are someone's work: a
/// temporary folder outside any checkout is scratch space, where nothing is lost.
fn tree(files: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let init = std::process::Command::new("git")
        .args(["init", "-q"])
        .current_dir(dir.path())
        .status()
        .unwrap();
    assert!(init.success());
    for path in files {
        let full = dir.path().join(path);
        if path.ends_with('/') {
            fs::create_dir_all(&full).unwrap();
        } else {
            fs::create_dir_all(full.parent().unwrap()).unwrap();
            fs::write(&full, path.as_bytes()).unwrap();
        }
    }
    dir
}

fn check(dir: &Path, command: &str) -> Verdict {
    agent_guard::evaluate_in(command, Some(dir), &Settings::default())
}

fn rsync_finding(verdict: &Verdict) -> String {
    let finding = verdict
        .findings
        .iter()
        .find(|f| f.rule.id == "fs.rsync-delete")
        .unwrap_or_else(|| panic!("no rsync finding in {verdict:?}"));
    finding.loses.clone()
}

#[test]
fn a_destination_with_extra_files_is_stopped_and_they_are_named() {
    let dir = tree(&[
        "staging/a.txt",
        "staging/lib/b.rs",
        "src/a.txt",
        "src/lib/b.rs",
        "src/lib/new.rs",
        "src/notes/todo.md",
    ]);
    let verdict = check(dir.path(), "rsync -a --delete staging/ src/");
    assert_eq!(verdict.decision, Decision::Deny);
    let loses = rsync_finding(&verdict);
    assert!(loses.contains("src/lib/new.rs"), "{loses}");
    assert!(loses.contains("src/notes"), "{loses}");
    assert!(!loses.contains("a.txt"), "{loses}");
}

#[test]
fn a_missing_or_empty_destination_is_cleared() {
    let dir = tree(&["staging/a.txt", "empty/"]);
    for command in [
        "rsync -a --delete staging/ fresh/",
        "rsync -a --delete staging/ empty/",
    ] {
        let verdict = check(dir.path(), command);
        assert_eq!(verdict.decision, Decision::Allow, "{command}: {verdict:?}");
        assert_eq!(verdict.cleared.len(), 1, "{command}");
    }
}

#[test]
fn a_destination_holding_only_what_the_source_holds_is_cleared() {
    let dir = tree(&["site/index.html", "site/css/a.css", "www/index.html"]);
    let verdict = check(dir.path(), "rsync -av --delete-after site/ www/");
    assert_eq!(verdict.decision, Decision::Allow, "{verdict:?}");
}

#[test]
fn a_source_without_a_trailing_slash_pairs_with_its_namesake_only() {
    // `rsync app backup/` mirrors into backup/app: backup/other is not touched, but
    // backup/app/old is deleted.
    let dir = tree(&["app/main.rs", "backup/other/keep.txt", "backup/app/main.rs"]);
    let clear = check(dir.path(), "rsync -a --delete app backup/");
    assert_eq!(clear.decision, Decision::Allow, "{clear:?}");

    fs::write(dir.path().join("backup/app/old.rs"), "old").unwrap();
    let stop = check(dir.path(), "rsync -a --delete app backup/");
    assert_eq!(stop.decision, Decision::Deny);
    assert!(rsync_finding(&stop).contains("backup/app/old.rs"));
}

#[test]
fn a_folder_the_source_replaces_by_a_file_is_lost() {
    let dir = tree(&["src/data", "dst/data/inner.txt"]);
    let verdict = check(dir.path(), "rsync -a --delete src/ dst/");
    assert_eq!(verdict.decision, Decision::Deny);
    assert!(rsync_finding(&verdict).contains("dst/data"));
}

#[test]
fn several_sources_together_keep_what_any_of_them_holds() {
    let dir = tree(&["a/one", "b/two", "dst/one", "dst/two"]);
    let verdict = check(dir.path(), "rsync -a --delete a/ b/ dst/");
    assert_eq!(verdict.decision, Decision::Allow, "{verdict:?}");
}

#[test]
fn what_the_trees_cannot_show_keeps_the_finding() {
    let dir = tree(&["src/a", "dst/a"]);
    for command in [
        // Filters can hide files from one side only.
        "rsync -a --delete --filter='H a' src/ dst/",
        "rsync -a --delete-excluded --exclude=a src/ dst/",
        // A missing source: rsync's own error handling decides.
        "rsync -a --delete gone/ dst/",
        // Remote and unknown operands.
        "rsync -a --delete src/ host:dst/",
        "rsync -a --delete src/ \"$DEST\"",
    ] {
        let verdict = check(dir.path(), command);
        assert_eq!(verdict.decision, Decision::Deny, "{command}: {verdict:?}");
    }
}

#[test]
fn a_missing_source_with_delete_missing_args_deletes_its_namesake() {
    let dir = tree(&["dst/gone/work.txt"]);
    let verdict = check(dir.path(), "rsync -a --delete-missing-args gone dst/");
    assert_eq!(verdict.decision, Decision::Deny);
    assert!(rsync_finding(&verdict).contains("dst/gone"));
}

#[test]
fn a_destination_an_earlier_command_fills_is_not_missing() {
    let dir = tree(&["staging/a.txt", "notes.txt"]);
    for command in [
        "mkdir fresh && cp notes.txt fresh/ && rsync -a --delete staging/ fresh/",
        "./fill.sh; rsync -a --delete staging/ fresh/",
        "echo kept > fresh; rsync -a --delete staging/ fresh/",
    ] {
        let verdict = check(dir.path(), command);
        assert_eq!(verdict.decision, Decision::Deny, "{command}: {verdict:?}");
        assert!(
            !verdict
                .cleared
                .iter()
                .any(|c| c.finding.rule.id == "fs.rsync-delete"),
            "{command}"
        );
    }
    // A command that only reads changes nothing the clearing rests on.
    let verdict = check(
        dir.path(),
        "ls staging && rsync -a --delete staging/ fresh/",
    );
    assert_eq!(verdict.decision, Decision::Allow, "{verdict:?}");
}

#[test]
fn a_destination_that_is_ignored_build_output_or_scratch_space_loses_nothing() {
    let dir = tree(&["staging/a.txt", "build/old.js", ".gitignore"]);
    fs::write(dir.path().join(".gitignore"), "build/\n").unwrap();
    let verdict = check(dir.path(), "rsync -a --delete staging/ build/");
    assert_eq!(verdict.decision, Decision::Allow, "{verdict:?}");
    // The same files, not ignored: someone's.
    fs::write(dir.path().join(".gitignore"), "").unwrap();
    let verdict = check(dir.path(), "rsync -a --delete staging/ build/");
    assert!(
        rsync_finding(&verdict).contains("build/old.js"),
        "{verdict:?}"
    );
    // A temporary folder outside any checkout.
    let scratch = tempfile::tempdir().unwrap();
    fs::write(scratch.path().join("x"), "x").unwrap();
    let command = format!("rsync -a --delete staging/ {}/", scratch.path().display());
    assert_eq!(check(dir.path(), &command).decision, Decision::Allow);
}
