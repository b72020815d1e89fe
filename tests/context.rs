//! Repository context, against real repositories built with the real `git` in scratch
//! folders: for every rule that context can clear, the state in which the command destroys
//! work (stopped, with the loss named) and the state in which it loses nothing (allowed).

mod common;
mod scratch;

use std::path::{Path, PathBuf};
use std::process::Command;

use agent_guard::policy::{Decision, Verdict};
use agent_guard::settings::Settings;
use scratch::World;

/// A repository on `main` with one commit holding `README.md` and `src/lib.rs`, judged
/// in-process by the library.
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

    /// Judges `command` as if the host ran it in the repository.
    fn check(&self, command: &str) -> Verdict {
        self.check_in(&self.dir, command)
    }

    fn check_in(&self, dir: &Path, command: &str) -> Verdict {
        agent_guard::evaluate_in(command, Some(dir), &Settings::default())
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
fn cleared(verdict: &Verdict, rule: &str) {
    assert_eq!(verdict.decision, Decision::Allow, "{}", verdict.reason);
    assert!(
        verdict.cleared.iter().any(|c| c.finding.rule.id == rule),
        "{verdict:#?}"
    );
}

#[test]
fn reset_hard_clean_and_dirty() {
    let repo = Repo::new();
    cleared(&repo.check("git reset --hard"), "git.reset-hard");
    repo.write("README.md", "edited\n");
    stopped(
        &repo.check("git reset --hard"),
        "git.reset-hard",
        "1 file (README.md)",
    );
}

#[test]
fn reset_hard_to_an_older_commit_strands_commits_only_on_this_branch() {
    let repo = Repo::new();
    repo.write("a.txt", "a\n");
    repo.commit("unpushed work");
    let verdict = repo.check("git reset --hard HEAD~1");
    stopped(&verdict, "git.reset-hard", "unpushed work");
    assert!(
        verdict.reason.contains("git reset --keep"),
        "{}",
        verdict.reason
    );
    repo.git(&["branch", "keep"]);
    cleared(&repo.check("git reset --hard HEAD~1"), "git.reset-hard");
}

#[test]
fn checkout_restore_switch_of_clean_and_dirty_paths() {
    let repo = Repo::new();
    repo.git(&["branch", "other"]);
    for command in [
        "git checkout -- src/lib.rs",
        "git restore .",
        "git switch -f other",
        "git checkout -f other",
    ] {
        cleared(&repo.check(command), "git.discard-worktree");
    }
    repo.write("src/lib.rs", "pub fn g() {}\n");
    for command in [
        "git checkout -- src/lib.rs",
        "git restore .",
        "git switch -f other",
        "git checkout -f other",
    ] {
        stopped(&repo.check(command), "git.discard-worktree", "src/lib.rs");
    }
    // A bare name is a branch to switch to, or a file to overwrite.
    cleared(&repo.check("git checkout other"), "git.discard-worktree");
    stopped(
        &repo.check("git checkout src/lib.rs"),
        "git.discard-worktree",
        "src/lib.rs",
    );
    assert_eq!(
        repo.check("git checkout README.md").decision,
        Decision::Allow
    );
    // Only README.md is named, and it is clean.
    cleared(
        &repo.check("git checkout HEAD -- README.md"),
        "git.discard-worktree",
    );
}

#[test]
fn clean_with_and_without_untracked_and_ignored_files() {
    let repo = Repo::new();
    repo.write(".gitignore", ".env\n");
    repo.commit("ignore");
    cleared(&repo.check("git clean -fd"), "git.clean-force");
    repo.write("notes.txt", "draft\n");
    stopped(&repo.check("git clean -fd"), "git.clean-force", "notes.txt");
    std::fs::remove_file(repo.dir.join("notes.txt")).unwrap();
    repo.write(".env", "SECRET=1\n");
    // Without -x the ignored .env stays, so nothing is lost.
    cleared(&repo.check("git clean -fd"), "git.clean-force");
    // With -x it goes: protected, named, never cleared.
    let verdict = repo.check("git clean -fdx");
    stopped(&verdict, "git.clean-force", ".env");
    assert_eq!(
        verdict.findings[0].tier,
        agent_guard::rules::Tier::Protected
    );
}

#[test]
fn clean_of_ignored_build_output_alone_passes_and_of_anything_more_stops() {
    let repo = Repo::new();
    repo.write(".gitignore", "/target/\n.env\n");
    repo.commit("ignore");
    repo.write("target/debug/app", "binary\n");
    // A fresh clone after a build: all `-x` would take is the ignored build output.
    for command in [
        "git clean -fdx",
        "git clean -fdX",
        "git clean -xdf -- target",
    ] {
        cleared(&repo.check(command), "git.clean-force");
    }
    repo.write(".env", "SECRET=1\n");
    let verdict = repo.check("git clean -fdx");
    stopped(&verdict, "git.clean-force", ".env");
    assert_eq!(
        verdict.findings[0].tier,
        agent_guard::rules::Tier::Protected
    );
    std::fs::remove_file(repo.dir.join(".env")).unwrap();
    // Build output by name but not ignored is someone's untracked folder as far as git knows.
    repo.write("dist/app.js", "bundle\n");
    stopped(&repo.check("git clean -fdx"), "git.clean-force", "dist");
    // What the line makes before the clean is not known to be output.
    std::fs::remove_dir_all(repo.dir.join("dist")).unwrap();
    assert_eq!(
        repo.check("echo x > .env && git clean -fdx").decision,
        Decision::Deny
    );
}

#[test]
fn a_package_managers_install_folder_beside_its_manifest_is_output_ignored_or_not() {
    let repo = Repo::new();
    repo.write("web/package.json", "{}\n");
    repo.write("api/requirements-dev.txt", "pytest\n");
    repo.commit("manifests");
    // Neither folder is ignored: git lists them as untracked.
    repo.write(
        "web/node_modules/left-pad/index.js",
        "module.exports = 1;\n",
    );
    repo.write("api/.venv/bin/python", "#!/bin/sh\n");
    for (command, rule) in [
        ("rm -rf web/node_modules", "fs.rm-recursive"),
        ("rm -rf api/.venv", "fs.rm-recursive"),
        ("cd web && rm -rf node_modules", "fs.rm-recursive"),
        ("git clean -fd", "git.clean-force"),
        ("git clean -fdx -- web", "git.clean-force"),
    ] {
        cleared(&repo.check(command), rule);
    }
    // A folder of that name with no manifest beside it is someone's.
    repo.write("notes/node_modules/todo.txt", "mine\n");
    stopped(
        &repo.check("rm -rf notes/node_modules"),
        "fs.rm-recursive",
        "todo.txt",
    );
    stopped(&repo.check("git clean -fd"), "git.clean-force", "notes");
}

#[test]
fn a_push_to_dot_moves_the_branches_of_the_repository_here_whatever_git_dir_says() {
    let repo = Repo::new();
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.write("f.txt", "only on feature\n");
    repo.commit("feature work");
    repo.git(&["checkout", "-q", "main"]);
    let other = repo.dir.parent().unwrap().join("other");
    let init = std::process::Command::new("git")
        .args(["init", "-q"])
        .arg(&other)
        .status()
        .unwrap();
    assert!(init.success());
    // `other` has no `feature`; the push still writes this repository's, by path.
    let line = "GIT_DIR=../other/.git git push . +main:feature";
    let verdict = repo.check(&format!("cd src && {line}"));
    assert_eq!(verdict.decision, Decision::Deny, "{}", verdict.reason);
    stopped(&repo.check(line), "git.branch-move", "feature");
}

#[test]
fn branch_force_delete_merged_and_unmerged() {
    let repo = Repo::new();
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.write("f.txt", "f\n");
    repo.commit("feature work");
    repo.git(&["checkout", "-q", "main"]);
    stopped(
        &repo.check("git branch -D feature"),
        "git.branch-force-delete",
        "feature work",
    );
    repo.git(&["merge", "-q", "feature"]);
    cleared(
        &repo.check("git branch -D feature"),
        "git.branch-force-delete",
    );
}

#[test]
fn ref_delete_of_the_only_and_a_redundant_ref() {
    let repo = Repo::new();
    repo.git(&["checkout", "-q", "-b", "side"]);
    repo.write("s.txt", "s\n");
    repo.commit("side work");
    repo.git(&["checkout", "-q", "main"]);
    stopped(
        &repo.check("git update-ref -d refs/heads/side"),
        "git.ref-delete",
        "side work",
    );
    repo.git(&["tag", "keep", "side"]);
    cleared(
        &repo.check("git update-ref -d refs/heads/side"),
        "git.ref-delete",
    );
    cleared(
        &repo.check("git update-ref -d refs/heads/nope"),
        "git.ref-delete",
    );
}

#[test]
fn stash_drop_empty_and_not() {
    let repo = Repo::new();
    cleared(&repo.check("git stash drop"), "git.stash-drop");
    cleared(&repo.check("git stash clear"), "git.stash-drop");
    repo.write("README.md", "work in progress\n");
    repo.git(&["stash", "push", "-q", "-m", "half done"]);
    let sha = repo.git(&["rev-parse", "--short", "stash@{0}"]);
    let verdict = repo.check("git stash drop");
    stopped(&verdict, "git.stash-drop", "half done");
    assert!(
        verdict
            .reason
            .contains(&format!("git stash apply {}", sha.trim())),
        "{}",
        verdict.reason
    );
    cleared(&repo.check("git stash drop stash@{3}"), "git.stash-drop");
}

#[test]
fn worktree_force_remove_clean_and_dirty() {
    let repo = Repo::new();
    repo.git(&["worktree", "add", "-q", "../wt", "-b", "wt"]);
    cleared(
        &repo.check("git worktree remove --force ../wt"),
        "git.worktree-force-remove",
    );
    std::fs::write(repo.dir.join("../wt/scratch.txt"), "x").unwrap();
    stopped(
        &repo.check("git worktree remove --force ../wt"),
        "git.worktree-force-remove",
        "scratch.txt",
    );
}

#[test]
fn amend_and_rebase_of_local_and_pushed_commits() {
    let repo = Repo::new();
    repo.write("a.txt", "a\n");
    repo.commit("second");
    // Nothing pushed anywhere: rewriting is the agent's own business.
    assert_eq!(
        repo.check("git commit --amend -m better").decision,
        Decision::Allow
    );
    assert_eq!(repo.check("git rebase -i HEAD~1").decision, Decision::Allow);
    repo.with_remote();
    stopped(
        &repo.check("git commit --amend -m better"),
        "git.history-rewrite",
        "second",
    );
    stopped(
        &repo.check("git rebase -i HEAD~1"),
        "git.history-rewrite",
        "second",
    );
    repo.write("b.txt", "b\n");
    repo.commit("local only");
    assert_eq!(
        repo.check("git commit --amend --no-edit").decision,
        Decision::Allow
    );
    assert_eq!(
        repo.check("git rebase -i origin/main").decision,
        Decision::Allow
    );
}

#[test]
fn git_aliases_are_judged_as_what_they_run() {
    let repo = Repo::new();
    repo.git(&["config", "alias.wipe", "reset --hard"]);
    repo.git(&["config", "alias.scrub", "!git clean -fd"]);
    cleared(&repo.check("git wipe"), "git.reset-hard");
    repo.write("README.md", "edited\n");
    stopped(&repo.check("git wipe"), "git.reset-hard", "README.md");
    repo.write("new.txt", "new\n");
    stopped(&repo.check("git scrub"), "git.clean-force", "new.txt");
}

#[test]
fn recursive_deletes_by_what_the_target_holds() {
    let repo = Repo::new();
    repo.write(".gitignore", "node_modules\n.env\n");
    repo.write("node_modules/pkg/index.js", "x\n");
    repo.commit("ignore");
    repo.write("node_modules/pkg/index.js", "x\n");
    repo.write(".env", "SECRET=1\n");
    cleared(&repo.check("rm -rf does-not-exist"), "fs.rm-recursive");
    cleared(&repo.check("rm -rf node_modules"), "fs.rm-recursive");
    cleared(&repo.check("rm -rf src"), "fs.rm-recursive");
    stopped(&repo.check("rm -rf .env"), "fs.rm-recursive", ".env");
    repo.write("src/draft.rs", "// new\n");
    stopped(&repo.check("rm -rf src"), "fs.rm-recursive", "src/draft.rs");
    stopped(
        &repo.check("find src -delete"),
        "fs.find-delete",
        "src/draft.rs",
    );
    // A glob or a variable cannot be resolved: the rules' verdict stands.
    assert_eq!(repo.check("rm -rf sr*").decision, Decision::Deny);
    let temp = tempfile::tempdir().unwrap();
    let scratch = temp.path().join("scratch");
    std::fs::create_dir(&scratch).unwrap();
    cleared(
        &repo.check(&format!("rm -rf {}", scratch.display())),
        "fs.rm-recursive",
    );
}

#[test]
fn cd_chains_decide_where_a_delete_runs() {
    let repo = Repo::new();
    repo.write("app/src/main.c", "int main;\n");
    repo.commit("app");
    repo.write("app/build/out.o", "binary\n");
    stopped(
        &repo.check("cd app && rm -rf build"),
        "fs.rm-recursive",
        "out.o",
    );
    cleared(&repo.check("cd app && rm -rf src"), "fs.rm-recursive");
    // `cd` into a folder that does not exist fails, and the delete runs here instead.
    assert_eq!(
        repo.check("cd missing; rm -rf src").decision,
        Decision::Deny
    );
    // A subshell's cd does not leak out.
    stopped(
        &repo.check("(cd app && ls); rm -rf app"),
        "fs.rm-recursive",
        "out.o",
    );
    let sub = repo.dir.join("app");
    cleared(&repo.check_in(&sub, "rm -rf src"), "fs.rm-recursive");
    cleared(
        &repo.check(&format!("git -C {} reset --hard", sub.display())),
        "git.reset-hard",
    );
}

#[test]
fn another_agents_claim_keeps_a_delete_stopped() {
    let repo = Repo::new();
    repo.write(".gitignore", "node_modules\n");
    repo.commit("ignore");
    repo.write("node_modules/pkg/index.js", "x\n");
    cleared(&repo.check("rm -rf node_modules"), "fs.rm-recursive");
    let other = agent_guard::claims::Session {
        id: "other-agent".into(),
        pid: std::process::id(),
        derived: None,
    };
    let path = repo.dir.join("node_modules");
    agent_guard::claims::claim(&repo.dir, &[path], &other, agent_guard::claims::DEFAULT_TTL)
        .unwrap();
    stopped(
        &repo.check("rm -rf node_modules"),
        "fs.rm-recursive",
        "other-agent",
    );
    repo.write("scratch/notes.txt", "draft\n");
    let scratch = repo.dir.join("scratch");
    agent_guard::claims::claim(
        &repo.dir,
        &[scratch],
        &other,
        agent_guard::claims::DEFAULT_TTL,
    )
    .unwrap();
    stopped(
        &repo.check("git clean -fd"),
        "git.clean-force",
        "other-agent",
    );
}

#[test]
fn context_reads_without_writing() {
    let repo = Repo::new();
    repo.write("README.md", "edited\n");
    let index = std::fs::read(repo.dir.join(".git/index")).unwrap();
    for command in [
        "git reset --hard",
        "git clean -fdx",
        "rm -rf src",
        "git stash drop",
        "git checkout -f",
    ] {
        repo.check(command);
    }
    assert_eq!(std::fs::read(repo.dir.join(".git/index")).unwrap(), index);
    assert!(!repo.dir.join(".git/index.lock").exists());
}

#[test]
fn rules_alone_ignore_the_repository() {
    let repo = Repo::new();
    let off = Settings {
        context: false,
        ..Settings::default()
    };
    let verdict = agent_guard::evaluate_in("git reset --hard", Some(&repo.dir), &off);
    assert_eq!(verdict.decision, Decision::Deny);
    assert!(verdict.cleared.is_empty());
    let verdict = agent_guard::evaluate_in("git commit --amend -m x", Some(&repo.dir), &off);
    assert_eq!(verdict.decision, Decision::Allow);
}

#[test]
fn a_large_repository_still_gets_a_verdict() {
    let repo = Repo::new();
    for i in 0..20_000 {
        repo.write(&format!("data/{:03}/{i}.txt", i % 200), "x");
    }
    // 20k untracked files: either counted in time or unknown; never allowed.
    let verdict = repo.check("rm -rf data");
    assert_eq!(verdict.decision, Decision::Deny, "{}", verdict.reason);
}

// Each of the following was once cleared by context while it destroyed work.

#[test]
fn a_quiet_clean_is_judged_by_what_it_deletes() {
    let repo = Repo::new();
    repo.write("notes.txt", "draft\n");
    for command in [
        "git clean -fq",
        "git clean -qdf",
        "git clean --quiet --force",
        "git clean -f --quiet -d",
        "git clean -fd -q -e '*.log'",
    ] {
        stopped(&repo.check(command), "git.clean-force", "notes.txt");
    }
    // Options that change the answer still count: an exclude that covers the file.
    cleared(&repo.check("git clean -fq -e notes.txt"), "git.clean-force");
    cleared(&repo.check("git clean -fq -- src"), "git.clean-force");
    // A nested repository goes with a second -f; asking with it can only add to the loss.
    std::fs::remove_file(repo.dir.join("notes.txt")).unwrap();
    repo.write("vendor/lib/.git/HEAD", "ref: refs/heads/main\n");
    assert_eq!(repo.check("git clean -ffdq").decision, Decision::Deny);
}

#[test]
fn placeholders_are_never_missing_paths() {
    let repo = Repo::new();
    repo.write("src/cache/notes.md", "draft\n");
    for command in [
        "find src -name cache -exec rm -rf {} \\;",
        "find src -name cache -exec rm -rf {} +",
        "find src -name cache -exec rm -rf ./{} \\;",
        "ls | xargs -I{} rm -rf {}",
        "ls | xargs -I @ rm -rf @",
        "ls | xargs -i rm -rf {}",
        "ls | xargs --replace=X rm -rf X/",
        "ls | xargs rm -rf",
        "ls | while read d; do rm -rf \"$d\"; done",
        "rm -rf $(ls)",
        "rm -rf $TARGET",
        "rm -rf src/*",
        // A placeholder inside a script the input goes to is just as unknown.
        "ls | xargs -I{} sh -c 'rm -rf {}'",
        "ls | xargs -I% bash -c 'rm -rf %'",
        "find src -name cache -exec sh -c 'rm -rf {}' \\;",
    ] {
        let verdict = repo.check(command);
        assert_eq!(verdict.decision, Decision::Deny, "{command}: {verdict:#?}");
        assert!(verdict.cleared.is_empty(), "{command}: {verdict:#?}");
    }
}

#[test]
fn eval_and_source_move_the_directory_of_what_follows() {
    let repo = Repo::new();
    repo.write("sub/build/notes.md", "draft\n");
    // Nothing named `build` at the top: only the folder `eval` moves into holds one.
    let verdict = repo.check("eval 'cd sub'; rm -rf build");
    assert_eq!(verdict.decision, Decision::Deny, "{verdict:#?}");
    // So does a script the line writes and then sources.
    let verdict = repo.check("echo 'cd sub' > go.sh && . ./go.sh && rm -rf build");
    assert_eq!(verdict.decision, Decision::Deny, "{verdict:#?}");
    cleared(&repo.check("(cd sub); rm -rf build"), "fs.rm-recursive");
    cleared(
        &repo.check("echo 'cd sub' > go.sh && bash go.sh && rm -rf build"),
        "fs.rm-recursive",
    );
}

#[test]
fn the_repository_is_the_one_git_will_use() {
    let repo = Repo::new();
    repo.write("README.md", "edited\n");
    let clean = repo.dir.parent().unwrap().join("clean");
    std::fs::create_dir_all(&clean).unwrap();
    // A clean repository of its own, where asking would wrongly find nothing to lose.
    let made = Command::new("git")
        .args(["init", "-q"])
        .current_dir(&clean)
        .status()
        .unwrap();
    assert!(made.success());
    let name = repo.dir.file_name().unwrap().to_str().unwrap();
    for command in [
        format!("GIT_WORK_TREE=../{name} GIT_DIR=../{name}/.git git reset --hard"),
        format!("env GIT_DIR=../{name}/.git GIT_WORK_TREE=../{name} git reset --hard"),
        format!("git --git-dir=../{name}/.git --work-tree=../{name} reset --hard"),
        format!("git -C ../{name} reset --hard"),
        format!("export GIT_DIR=../{name}/.git GIT_WORK_TREE=../{name}; git reset --hard"),
        "GIT_DIR=$D git reset --hard".to_string(),
    ] {
        let verdict = repo.check_in(&clean, &command);
        assert_eq!(verdict.decision, Decision::Deny, "{command}: {verdict:#?}");
    }
    // Where git really looks, the loss is named.
    for command in [
        format!("GIT_WORK_TREE=../{name} GIT_DIR=../{name}/.git git reset --hard"),
        format!("env -C ../{name} git reset --hard"),
        format!("env --chdir=../{name} git reset --hard"),
        format!("git -C ../{name} reset --hard"),
    ] {
        stopped(
            &repo.check_in(&clean, &command),
            "git.reset-hard",
            "README.md",
        );
    }
    // Configuration given on the line is part of the question: an alias defined through
    // the environment is looked up with it.
    stopped(
        &repo.check(
            "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.wipe GIT_CONFIG_VALUE_0='reset --hard' git wipe",
        ),
        "git.reset-hard",
        "README.md",
    );
}

#[test]
fn earlier_commands_void_what_they_could_change() {
    let repo = Repo::new();
    repo.with_remote();
    // `upstream/topic` does not exist until the fetch runs.
    assert_eq!(
        repo.check("git fetch origin && git reset --hard origin/topic")
            .decision,
        Decision::Deny
    );
    repo.write("draft.md", "draft\n");
    assert_eq!(
        repo.check("mkdir old && mv draft.md old/ && rm -rf old")
            .decision,
        Decision::Deny
    );
    repo.write("README.md", "edited\n");
    // The stash adds the entry the drop then deletes.
    assert_eq!(
        repo.check("git stash && git stash drop stash@{1}").decision,
        Decision::Deny
    );
    assert_eq!(
        repo.check("git stash; git stash drop").decision,
        Decision::Deny
    );
    // A loop body runs again after its later commands; a function runs when called.
    assert_eq!(
        repo.check("for i in 1 2; do rm -rf old; mv draft.md old; done")
            .decision,
        Decision::Deny
    );
    assert_eq!(
        repo.check("f() { rm -rf old; }; mkdir old; mv draft.md old; f")
            .decision,
        Decision::Deny
    );
    // A trap action runs at exit, after everything written after it.
    assert_eq!(
        repo.check("trap 'rm -rf old' EXIT; mkdir old && mv draft.md old/")
            .decision,
        Decision::Deny
    );
    // So does a job `at` schedules.
    assert_eq!(
        repo.check("echo 'rm -rf old' | at now + 1 minute; mkdir old && mv draft.md old/")
            .decision,
        Decision::Deny
    );
    // An unknown program could do anything.
    assert_eq!(
        repo.check("./prepare.sh && rm -rf old").decision,
        Decision::Deny
    );
}

#[test]
fn readers_that_write_through_an_option_count_as_writers() {
    let repo = Repo::new();
    repo.write("draft.md", "draft\n");
    // `old` does not exist now; each of these makes it before the delete runs, from bytes
    // that stay where they were: what the line made, it may remove.
    for line in [
        "sort -o old draft.md && rm -rf old",
        "sort -ro old draft.md && rm -rf old",
        "sort --output=old draft.md && rm -rf old",
        "uniq draft.md old && rm -rf old",
        "tree -o old && rm -rf old",
        "git log --output=old -1 && rm -rf old",
    ] {
        let verdict = repo.check(line);
        assert!(
            verdict
                .cleared
                .iter()
                .any(|c| c.why.contains("did not exist before")),
            "{line}: {verdict:#?}"
        );
    }
    // A program `rg` runs could move anything into `old`.
    assert_eq!(
        repo.check("rg --pre ./gen.sh x . && rm -rf old").decision,
        Decision::Deny
    );
    // The same readers writing nothing, or writing elsewhere, leave the clearing standing.
    for line in [
        "sort draft.md && rm -rf old",
        "sort -o sorted.md draft.md && rm -rf old",
        "uniq draft.md && git log -1 && rm -rf old",
    ] {
        cleared(&repo.check(line), "fs.rm-recursive");
    }
}

#[test]
fn a_sql_file_written_earlier_in_the_line_is_judged_by_what_the_line_writes() {
    let repo = Repo::new();
    repo.write("reset.sql", "SELECT 1;\n");
    // The line shows all it writes: that text is what runs. What it writes is not shown, or
    // comes on top of what was there: it cannot be read.
    let shown = "drops table `users` (`";
    let unread = "before it in this line writes";
    for (line, why) in [
        (
            "echo 'DROP TABLE users;' > reset.sql && psql -f reset.sql",
            shown,
        ),
        (
            "echo 'DROP TABLE users;' > new.sql && psql -f new.sql",
            shown,
        ),
        (
            "cat > reset.sql <<'EOF'\nDROP TABLE users;\nEOF\npsql app < reset.sql",
            shown,
        ),
        ("cp other.sql reset.sql; psql -f reset.sql", unread),
        ("echo 'SELECT 2;' >> reset.sql && psql -f reset.sql", unread),
    ] {
        let verdict = repo.check(line);
        assert_eq!(
            verdict.decision,
            Decision::Deny,
            "{line}: {}",
            verdict.reason
        );
        assert!(verdict.reason.contains(why), "{}", verdict.reason);
    }
    // A file nothing earlier writes is judged by what it holds, one the line writes by what
    // it writes: harmless SQL runs.
    for line in [
        "psql -f reset.sql",
        "echo 'DROP TABLE users;' > other.sql && psql -f reset.sql",
        "cat reset.sql && psql -f reset.sql",
        "echo 'SELECT 2;' > fresh.sql && psql -f fresh.sql",
    ] {
        let verdict = repo.check(line);
        assert_eq!(
            verdict.decision,
            Decision::Allow,
            "{line}: {}",
            verdict.reason
        );
    }
}

#[test]
fn clearings_nothing_earlier_can_change_still_clear() {
    let repo = Repo::new();
    repo.write(".gitignore", "target\n");
    repo.commit("ignore");
    repo.write("target/debug/app", "binary\n");
    cleared(
        &repo.check("mkdir -p notes && echo hi > notes/today.md && rm -rf target"),
        "fs.rm-recursive",
    );
    cleared(
        &repo.check("git status && ls && rm -rf target"),
        "fs.rm-recursive",
    );
    // What runs after does not matter.
    cleared(
        &repo.check("rm -rf target && ./build.sh"),
        "fs.rm-recursive",
    );
    cleared(
        &repo.check("git reset --hard && git pull"),
        "git.reset-hard",
    );
    cleared(
        &repo.check("git log -1 && git stash list && git stash clear"),
        "git.stash-drop",
    );
}

#[test]
fn reasons_name_hand_written_work_before_build_output() {
    let repo = Repo::new();
    for path in [
        "build/app",
        "dist/app.js",
        "node_modules/pkg/index.js",
        "out/report.html",
        "target/debug/app",
        "x.o",
        "notes.txt",
        "src/scratch.rs",
    ] {
        repo.write(path, "work\n");
    }
    let verdict = repo.check("git clean -fd");
    stopped(
        &verdict,
        "git.clean-force",
        "would delete 8 untracked paths, among them notes.txt and src/scratch.rs \
         (and 6 more: build/, dist/, …)",
    );
    let before_instead = verdict.reason.split("\nInstead:").next().unwrap();
    assert!(before_instead.lines().count() <= 3, "{}", verdict.reason);
    assert!(
        verdict.reason.contains(
            "If it runs anyway: untracked files were never in git: they cannot be recovered."
        ),
        "{}",
        verdict.reason
    );
}

#[test]
fn shell_aliases_run_from_the_top_of_the_worktree() {
    let repo = Repo::new();
    repo.git(&["config", "alias.scrub", "!git clean -fd"]);
    repo.write("notes.txt", "draft\n");
    // From `src`, a plain `git clean -fd` would find nothing; the alias cleans the top.
    stopped(
        &repo.check("cd src && git scrub"),
        "git.clean-force",
        "notes.txt",
    );
}

#[test]
fn a_worktree_goes_with_its_ignored_files() {
    let repo = Repo::new();
    repo.write(".gitignore", ".env\ntarget\n");
    repo.commit("ignore");
    repo.git(&["worktree", "add", "-q", "../wt", "-b", "wt"]);
    let wt = repo.dir.parent().unwrap().join("wt");
    std::fs::create_dir_all(wt.join("target")).unwrap();
    std::fs::write(wt.join("target/app"), "binary\n").unwrap();
    cleared(
        &repo.check("git worktree remove --force ../wt"),
        "git.worktree-force-remove",
    );
    std::fs::write(wt.join(".env"), "SECRET=1\n").unwrap();
    stopped(
        &repo.check("git worktree remove --force ../wt"),
        "git.worktree-force-remove",
        ".env",
    );
}

#[test]
fn commands_that_run_alongside_count_as_earlier() {
    let repo = Repo::new();
    repo.write("README.md", "edited\n");
    // With no stash entry the drop clears, unless the stash may run first.
    cleared(&repo.check("git stash drop; git stash"), "git.stash-drop");
    for command in [
        "git stash drop & git stash",
        "git stash drop | git stash",
        "f() { git stash drop; }; git stash; f",
        "while true; do git stash drop; git stash; done",
    ] {
        assert_eq!(repo.check(command).decision, Decision::Deny, "{command}");
    }
}
