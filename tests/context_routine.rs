//! Routine stops the repository can clear when nothing is lost, against real repositories:
//! a forced removal of a clean worktree, the deletion of a remote branch whose commits
//! another branch of that remote holds, the drop of a stash the work tree already holds,
//! and deletes inside temporary folders in every spelling. Where a stop stays, its reason
//! names the commits or the edits that exist nowhere else.

mod common;
mod scratch;

use std::path::PathBuf;
use std::process::Command;

use agent_guard::policy::{Decision, Verdict};
use agent_guard::settings::Settings;
use scratch::World;

struct Repo {
    world: World,
    dir: PathBuf,
}

impl Repo {
    fn new() -> Repo {
        let world = World::repo();
        let dir = world.repo.clone();
        Repo { world, dir }
    }

    fn git(&self, args: &[&str]) -> String {
        self.world.git(args)
    }

    fn write(&self, path: &str, text: &str) {
        self.world.write(path, text.as_bytes());
    }

    fn commit(&self, message: &str) {
        self.world.commit(message);
    }

    fn check(&self, command: &str) -> Verdict {
        agent_guard::evaluate_in(command, Some(&self.dir), &Settings::default())
    }

    /// A bare repository next to this one, as `origin`, with `main` pushed.
    fn with_remote(&self) {
        let remote = self.dir.parent().unwrap().join("remote.git");
        let made = Command::new("git")
            .args(["init", "-q", "--bare"])
            .arg(&remote)
            .status()
            .unwrap();
        assert!(made.success());
        self.git(&["remote", "add", "origin", remote.to_str().unwrap()]);
        self.git(&["push", "-q", "-u", "origin", "main"]);
    }

    /// A branch `name` off `main` with one commit, pushed to `origin`; back on `main` after.
    fn pushed_branch(&self, name: &str, file: &str) {
        self.git(&["switch", "-q", "-c", name]);
        self.write(file, &format!("{name}\n"));
        self.commit(&format!("work on {name}"));
        self.git(&["push", "-q", "-u", "origin", name]);
        self.git(&["switch", "-q", "main"]);
    }
}

#[track_caller]
fn stopped(verdict: &Verdict, rule: &str, loss: &str) {
    assert_eq!(verdict.decision, Decision::Deny, "{verdict:#?}");
    assert!(
        verdict.findings.iter().any(|f| f.rule.id == rule),
        "{verdict:#?}"
    );
    assert!(
        verdict.reason.contains(loss),
        "reason should name {loss:?}:\n{}",
        verdict.reason
    );
}

#[track_caller]
fn cleared(verdict: &Verdict, rule: &str, why: &str) {
    assert_eq!(verdict.decision, Decision::Allow, "{}", verdict.reason);
    let clearing = verdict
        .cleared
        .iter()
        .find(|c| c.finding.rule.id == rule)
        .unwrap_or_else(|| panic!("{verdict:#?}"));
    assert!(clearing.why.contains(why), "{}", clearing.why);
}

#[test]
fn worktree_removal_clears_only_with_nothing_uncommitted_untracked_or_stranded() {
    let repo = Repo::new();
    repo.git(&["worktree", "add", "-q", "../wt", "-b", "wt"]);
    let wt = repo.dir.join("../wt");
    let remove = "git worktree remove --force ../wt";
    cleared(
        &repo.check(remove),
        "git.worktree-force-remove",
        "no uncommitted or untracked work",
    );
    // Work committed on the worktree's branch outlives it; local git work in this folder
    // first cannot touch it.
    std::fs::write(wt.join("done.txt"), "done\n").unwrap();
    let in_wt = |args: &[&str]| {
        let mut all = vec!["-C", wt.to_str().unwrap()];
        all.extend(args);
        repo.git(&all);
    };
    in_wt(&["add", "done.txt"]);
    in_wt(&["commit", "-qm", "finish wt"]);
    cleared(
        &repo.check(&format!(
            "git merge -q --no-edit wt && {remove} && git branch -d wt"
        )),
        "git.worktree-force-remove",
        "on a branch",
    );
    cleared(
        &repo.check("git worktree remove -f -f ../wt"),
        "git.worktree-force-remove",
        "no uncommitted",
    );

    // Untracked files count.
    std::fs::write(wt.join("notes.txt"), "mine\n").unwrap();
    stopped(
        &repo.check(remove),
        "git.worktree-force-remove",
        "notes.txt",
    );
    std::fs::remove_file(wt.join("notes.txt")).unwrap();
    // So do edits to tracked files.
    std::fs::write(wt.join("README.md"), "edited\n").unwrap();
    stopped(
        &repo.check(remove),
        "git.worktree-force-remove",
        "README.md",
    );
    in_wt(&["checkout", "-q", "--", "README.md"]);
    // Commits made on a detached HEAD go with it: named by hash and subject.
    in_wt(&["switch", "-q", "--detach"]);
    std::fs::write(wt.join("probe.txt"), "probe\n").unwrap();
    in_wt(&["add", "probe.txt"]);
    in_wt(&["commit", "-qm", "detached probe"]);
    stopped(
        &repo.check(remove),
        "git.worktree-force-remove",
        "detached probe",
    );
    // A command that may write into the worktree first voids the clearing.
    in_wt(&["switch", "-q", "wt"]);
    assert_eq!(
        repo.check(&format!("git -C ../wt stash pop; {remove}"))
            .decision,
        Decision::Deny
    );
}

#[test]
fn remote_branch_deletion_clears_when_another_branch_of_the_remote_holds_its_commits() {
    let repo = Repo::new();
    repo.with_remote();
    repo.pushed_branch("feature", "feature.txt");
    let delete = "git push origin --delete feature";

    // Not merged: its commit is on no other branch of origin, and named.
    stopped(&repo.check(delete), "git.push-delete", "work on feature");
    stopped(
        &repo.check(delete),
        "git.push-delete",
        "local branches or tags here still hold them",
    );
    let tip = repo.git(&["rev-parse", "--short", "origin/feature"]);
    assert!(
        repo.check(delete).reason.contains(&format!(
            "git push origin {}:refs/heads/feature",
            tip.trim()
        )),
        "{}",
        repo.check(delete).reason
    );
    // The old spelling, and several branches at once, are judged the same way.
    stopped(
        &repo.check("git push origin :feature"),
        "git.push-delete",
        "work on feature",
    );

    // Merged into main and main pushed: origin/main holds every commit.
    repo.git(&["merge", "-q", "--ff-only", "feature"]);
    repo.git(&["push", "-q", "origin", "main"]);
    cleared(
        &repo.check(delete),
        "git.push-delete",
        "on another branch of `origin`",
    );
    cleared(
        &repo.check(&format!("git branch -d feature && {delete}")),
        "git.push-delete",
        "on another branch",
    );
    cleared(
        &repo.check("git checkout main -q && git push origin --delete feature"),
        "git.push-delete",
        "on another branch",
    );
    // A fetch first may bring commits the branch gained since: the clearing is void.
    assert_eq!(
        repo.check(&format!("git fetch -q && {delete}")).decision,
        Decision::Deny
    );

    // Held by a local branch only: the reason says which commits exist nowhere else.
    repo.pushed_branch("spike", "spike.txt");
    repo.git(&["branch", "-q", "-D", "spike"]);
    let verdict = repo.check("git push origin --delete spike feature");
    stopped(&verdict, "git.push-delete", "work on spike");
    stopped(
        &verdict,
        "git.push-delete",
        "1 of them is on no other ref here",
    );

    // A branch never fetched here: nothing is known, the stop stands.
    stopped(
        &repo.check("git push origin --delete elsewhere"),
        "git.push-delete",
        "elsewhere",
    );
    // The remote's default branch stays protected.
    assert_eq!(
        repo.check("git push origin --delete main").decision,
        Decision::Deny
    );
}

#[test]
fn stash_drop_clears_when_the_work_tree_already_holds_the_entry() {
    let repo = Repo::new();
    repo.write("README.md", "stashed edit\n");
    repo.write("notes.txt", "new notes\n");
    repo.git(&["stash", "push", "-q", "-u", "-m", "half done"]);
    // Not applied: the reason names the entry and its files.
    let verdict = repo.check("git stash drop");
    stopped(&verdict, "git.stash-drop", "half done");
    stopped(&verdict, "git.stash-drop", "README.md");
    stopped(&verdict, "git.stash-drop", "notes.txt");

    repo.git(&["stash", "apply", "-q"]);
    cleared(
        &repo.check("git stash drop"),
        "git.stash-drop",
        "the work tree already holds every change of stash@{0}",
    );
    cleared(
        &repo.check("git stash drop stash@{0}"),
        "git.stash-drop",
        "already holds",
    );
    cleared(
        &repo.check("git status --short && git stash drop 0"),
        "git.stash-drop",
        "already holds",
    );

    // One file edited again after applying: that edit is not the stash's.
    repo.write("README.md", "edited once more\n");
    let verdict = repo.check("git stash drop");
    stopped(&verdict, "git.stash-drop", "README.md");
    assert!(!verdict.reason.contains("notes.txt"), "{}", verdict.reason);
    repo.write("README.md", "stashed edit\n");
    // An untracked file of the stash removed again.
    std::fs::remove_file(repo.dir.join("notes.txt")).unwrap();
    stopped(&repo.check("git stash drop"), "git.stash-drop", "notes.txt");
    repo.write("notes.txt", "new notes\n");

    // A file the stash deleted is applied when it is gone here too.
    repo.git(&["add", "-A"]);
    repo.commit("apply");
    std::fs::remove_file(repo.dir.join("src/lib.rs")).unwrap();
    repo.git(&["stash", "push", "-q", "-m", "drop lib"]);
    stopped(
        &repo.check("git stash drop"),
        "git.stash-drop",
        "src/lib.rs",
    );
    std::fs::remove_file(repo.dir.join("src/lib.rs")).unwrap();
    cleared(
        &repo.check("git stash drop"),
        "git.stash-drop",
        "already holds",
    );

    // `stash clear` drops every entry: one not applied keeps it stopped.
    cleared(
        &repo.check("git stash clear"),
        "git.stash-drop",
        "stash@{0}, stash@{1}",
    );
    repo.write("README.md", "moved on\n");
    let verdict = repo.check("git stash clear");
    stopped(&verdict, "git.stash-drop", "half done");
    assert!(!verdict.reason.contains("drop lib"), "{}", verdict.reason);
    // An apply earlier in the line is not yet done when the context looks.
    repo.write("src/lib.rs", "pub fn f() {}\n");
    assert_eq!(
        repo.check("git stash apply && git stash drop").decision,
        Decision::Deny
    );
}

#[test]
fn deletes_inside_temporary_folders_clear_in_every_spelling() {
    let repo = Repo::new();
    for command in [
        "rm -rf /tmp/agent-guard-test-site",
        "rm -rf /private/tmp/claude-501/-Users-me-app/e4731051/scratchpad/out",
        "rm -rf /var/folders/xy/abc123/T/build",
        "rm -rf /private/var/folders/xy/abc123/T/tmp.Ab12",
        "cmd /c \"del /f /s /q C:\\Windows\\Temp\\*.*\"",
        "rm -rf /c/Users/Me/AppData/Local/Temp/*",
        "powershell -Command \"Remove-Item -Path 'C:\\Users\\Me\\AppData\\Local\\Temp\\chrome-profile' -Recurse -Force\"",
        "mkdir -p /tmp/agent-guard-test-x && cd /tmp/agent-guard-test-x && rm -rf *",
        "cd /tmp && rm -rf agent-guard-test-y && mkdir agent-guard-test-y",
        "cd /no/such/folder && rm -rf /tmp/agent-guard-test-publish",
        "python3 build.py && rm -rf /tmp/agent-guard-test-out",
        "git --git-dir=.git --work-tree=/tmp/agent-guard-test-deploy checkout -f main",
    ] {
        let verdict = repo.check(command);
        assert_eq!(
            verdict.decision,
            Decision::Allow,
            "{command}: {}",
            verdict.reason
        );
        assert!(
            verdict
                .cleared
                .iter()
                .any(|c| c.why.contains("temporary folder")),
            "{command}: {verdict:#?}"
        );
    }
    // The temporary folder itself, a glob that may name `..`, a variable of the line's own,
    // a folder a failing `cd` may not reach, what an earlier `mv` carried in, and a checkout
    // that lies in a temporary folder.
    for command in [
        "rm -rf /tmp".to_string(),
        "rm -rf /tmp/.*".into(),
        "rm -rf $tmpdir/x".into(),
        "cd /tmp/agent-guard-test-missing && rm -rf *".into(),
        "mv src /tmp/agent-guard-test-z && rm -rf /tmp/agent-guard-test-z".into(),
        format!("rm -rf {}", repo.dir.display()),
        format!("rm -rf /tmp/../{}/src/scratch.txt", repo.dir.display()),
    ] {
        repo.write("src/scratch.txt", "untracked\n");
        assert_eq!(repo.check(&command).decision, Decision::Deny, "{command}");
    }
}

#[test]
fn a_checkout_inside_a_temporary_folder_is_judged_by_git() {
    let repo = Repo::new();
    let root = repo.dir.parent().unwrap().join("tmp");
    std::fs::create_dir_all(&root).unwrap();
    let clone = root.join("clone");
    let made = Command::new("git")
        .args(["clone", "-q"])
        .arg(&repo.dir)
        .arg(&clone)
        .status()
        .unwrap();
    assert!(made.success());
    std::fs::write(clone.join("work.txt"), "mine\n").unwrap();
    // `$TMPDIR` names the test's own folder, which holds nothing of other processes.
    let judge = |command: &str| {
        repo.world
            .guard_process()
            .env("TMPDIR", &root)
            .args(["check", command])
            .output()
            .unwrap()
    };
    let stopped_here = |command: &str| {
        let out = judge(command);
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert_eq!(out.status.code(), Some(1), "{command}: {text}");
        text
    };
    // `$TMPDIR/*` takes the clone with its untracked work.
    stopped_here("rm -rf $TMPDIR/*");
    let text = stopped_here(&format!("rm -rf {}", clone.display()));
    assert!(text.contains("the whole repository"), "{text}");
    let text = stopped_here(&format!("rm -rf {}/work.txt", clone.display()));
    assert!(text.contains("untracked file (work.txt)"), "{text}");
    // Git that gives no answer (here: none to run) proves nothing about the checkout.
    let command = format!("rm -rf {}/work.txt", clone.display());
    let out = repo
        .world
        .guard_process()
        .env("TMPDIR", &root)
        .env("PATH", root.join("no-programs-here"))
        .args(["check", &command])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{command} without git: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    std::fs::remove_dir_all(&clone).unwrap();
    std::fs::create_dir_all(root.join("scratch")).unwrap();
    for command in [
        "rm -rf $TMPDIR/*",
        "rm -rf \"$TMPDIR/scratch\"",
        "rm -rf ${TMPDIR}/scratch",
    ] {
        let out = judge(command);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{command}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
}

#[cfg(unix)]
#[test]
fn a_link_out_of_a_temporary_folder_is_judged_where_it_leads() {
    let repo = Repo::new();
    // A folder of files outside every temporary folder (in this crate's ignored `target/`,
    // which counts as kept here: no folder name is regenerable), and a link to it in one.
    let outside = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("agent-guard-linked-{}", std::process::id()));
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("notes.txt"), "mine\n").unwrap();
    let link = repo.dir.parent().unwrap().join("scratch-link");
    std::os::unix::fs::symlink(&outside, &link).unwrap();
    let link = link.display();
    let judge = |command: &str| {
        repo.world
            .guard_process()
            .env("AGENT_GUARD_REGENERABLE", "none-here")
            .args(["check", command])
            .output()
            .unwrap()
            .status
            .code()
    };
    // Only the link goes.
    assert_eq!(judge(&format!("rm -rf {link}")), Some(0));
    // Through it, the folder's files go.
    for command in [format!("rm -rf {link}/"), format!("rm -rf {link}/*")] {
        assert_eq!(judge(&command), Some(1), "{command}");
    }
    std::fs::remove_dir_all(&outside).unwrap();
}
