//! Repository context for branch moves, index and working-tree plumbing and forced submodule
//! commands, against real repositories in scratch folders: stopped where commits or edits are
//! at stake, cleared where nothing would be lost, and never cleared on what it cannot see.

mod common;
mod scratch;

use std::process::Command;

use agent_guard::policy::{Decision, Verdict};
use agent_guard::settings::Settings;
use scratch::World;

/// A repository on `main` (`README.md`, `src/lib.rs`) plus a branch `feature` holding one
/// commit, "feature work", that no other ref has.
fn with_feature() -> World {
    let world = World::repo();
    world.git(&["checkout", "-q", "-b", "feature"]);
    world.write("f.txt", b"f\n");
    world.commit("feature work");
    world.git(&["checkout", "-q", "main"]);
    world
}

/// A bare repository beside `world`, as `origin`, with `main` pushed.
fn with_remote(world: &World) {
    let remote = world.repo.parent().unwrap().join("remote.git");
    let made = Command::new("git")
        .args(["init", "-q", "--bare"])
        .arg(&remote)
        .status()
        .unwrap();
    assert!(made.success());
    world.git(&["remote", "add", "origin", remote.to_str().unwrap()]);
    world.git(&["push", "-q", "-u", "origin", "main"]);
}

fn check(world: &World, command: &str) -> Verdict {
    agent_guard::evaluate_in(command, Some(&world.repo), &Settings::default())
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
fn branch_force_moves_by_what_the_branch_holds() {
    let world = with_feature();
    stopped(
        &check(&world, "git branch -f feature main"),
        "git.branch-move",
        "feature work",
    );
    // A branch that does not exist yet is only created.
    cleared(
        &check(&world, "git branch -f fresh main"),
        "git.branch-move",
    );
    // Moving forward keeps every commit: the target reaches them.
    cleared(
        &check(&world, "git branch -f main feature"),
        "git.branch-move",
    );
    world.git(&["merge", "-q", "feature"]);
    cleared(
        &check(&world, "git branch -f feature main~1"),
        "git.branch-move",
    );
}

#[test]
fn an_operand_known_only_at_run_time_never_clears() {
    let world = World::repo();
    let verdict = check(&world, "git branch -f \"$NAME\" main");
    assert_eq!(verdict.decision, Decision::Deny, "{}", verdict.reason);
    let verdict = check(&world, "git rm -f $(git ls-files)");
    assert_eq!(verdict.decision, Decision::Deny, "{}", verdict.reason);
}

#[test]
fn checkout_capital_b_and_switch_capital_c() {
    let world = World::repo();
    with_remote(&world);
    world.write("local.txt", b"mine\n");
    world.commit("local work");
    stopped(
        &check(&world, "git checkout -B main origin/main"),
        "git.branch-move",
        "local work",
    );
    stopped(
        &check(&world, "git switch -C main origin/main"),
        "git.branch-move",
        "local work",
    );
    cleared(&check(&world, "git switch -C topic"), "git.branch-move");
    world.git(&["push", "-q", "origin", "main"]);
    cleared(
        &check(&world, "git checkout -B main origin/main~1"),
        "git.branch-move",
    );
}

#[test]
fn rename_and_update_ref_stand_only_on_a_loss() {
    let world = with_feature();
    // Renaming onto an existing branch drops what it held.
    stopped(
        &check(&world, "git branch -M feature"),
        "git.branch-move",
        "feature work",
    );
    cleared(&check(&world, "git branch -M trunk"), "git.branch-move");
    stopped(
        &check(&world, "git update-ref refs/heads/feature main"),
        "git.branch-move",
        "feature work",
    );
    cleared(
        &check(&world, "git update-ref refs/heads/backup HEAD"),
        "git.branch-move",
    );
}

#[test]
fn forced_fetch_and_push_into_a_local_branch() {
    let world = with_feature();
    with_remote(&world);
    stopped(
        &check(&world, "git fetch origin +main:refs/heads/feature"),
        "git.branch-move",
        "feature work",
    );
    stopped(
        &check(&world, "git push . +main:feature"),
        "git.branch-move",
        "feature work",
    );
    cleared(
        &check(&world, "git fetch --force origin main:mirror"),
        "git.branch-move",
    );
    world.git(&["push", "-q", "origin", "feature"]);
    cleared(
        &check(&world, "git fetch origin +main:refs/heads/feature"),
        "git.branch-move",
    );
}

#[test]
fn git_rm_force_and_checkout_index_by_the_edits_at_stake() {
    let world = World::repo();
    cleared(
        &check(&world, "git rm -f README.md"),
        "git.plumbing-discard",
    );
    cleared(
        &check(&world, "git checkout-index -f -a"),
        "git.plumbing-discard",
    );
    world.write("src/lib.rs", b"pub fn edited() {}\n");
    stopped(
        &check(&world, "git rm -r -f src"),
        "git.plumbing-discard",
        "src/lib.rs",
    );
    stopped(
        &check(&world, "git checkout-index -fa"),
        "git.plumbing-discard",
        "src/lib.rs",
    );
    // Other paths are still clean.
    cleared(
        &check(&world, "git rm -f README.md"),
        "git.plumbing-discard",
    );
    // A file only staged was never committed: removing it loses it.
    world.write("new.txt", b"only staged\n");
    world.git(&["add", "new.txt"]);
    stopped(
        &check(&world, "git rm -f new.txt"),
        "git.plumbing-discard",
        "new.txt",
    );
}

#[test]
fn read_tree_reset_counts_untracked_files_in_its_way() {
    let world = World::repo();
    cleared(
        &check(&world, "git read-tree -u --reset HEAD"),
        "git.plumbing-discard",
    );
    world.write("notes/todo.md", b"never committed\n");
    stopped(
        &check(&world, "git read-tree -u --reset HEAD"),
        "git.plumbing-discard",
        "notes/todo.md",
    );
}

#[test]
fn forced_submodule_commands_by_the_submodules_state() {
    let world = World::repo();
    let lib = World::repo();
    world.git(&[
        "-c",
        "protocol.file.allow=always",
        "submodule",
        "add",
        "-q",
        lib.repo.to_str().unwrap(),
        "vendor/lib",
    ]);
    world.commit("add the submodule");
    cleared(
        &check(&world, "git submodule update --force"),
        "git.submodule-discard",
    );
    cleared(
        &check(&world, "git submodule deinit -f vendor/lib"),
        "git.submodule-discard",
    );
    world.write("vendor/lib/README.md", b"edited inside\n");
    stopped(
        &check(&world, "git submodule deinit -f vendor/lib"),
        "git.submodule-discard",
        "vendor/lib",
    );
    stopped(
        &check(&world, "git submodule update --init --force"),
        "git.submodule-discard",
        "vendor/lib",
    );
    // A command run in every submodule is judged where it runs, which context cannot see
    // from here: it never clears.
    let verdict = check(&world, "git submodule foreach 'git reset --hard'");
    assert_eq!(verdict.decision, Decision::Deny, "{}", verdict.reason);
    assert!(verdict.cleared.is_empty(), "{verdict:#?}");
}

#[test]
fn aliases_defined_on_the_line_are_judged_with_context() {
    let world = World::repo();
    cleared(
        &check(&world, "git -c alias.wipe='reset --hard' wipe"),
        "git.reset-hard",
    );
    world.write("README.md", b"edited\n");
    stopped(
        &check(&world, "git -c alias.wipe='reset --hard' wipe"),
        "git.reset-hard",
        "README.md",
    );
    stopped(
        &check(
            &world,
            "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.wipe GIT_CONFIG_VALUE_0='checkout -- .' git wipe",
        ),
        "git.discard-worktree",
        "README.md",
    );
}

#[test]
fn clean_without_force_when_the_line_lifts_require_force() {
    let world = World::repo();
    let command = "git -c clean.requireForce=false clean -d";
    cleared(&check(&world, command), "git.clean-force");
    world.write("drafts/idea.md", b"never committed\n");
    stopped(&check(&world, command), "git.clean-force", "drafts/");
}

#[test]
fn a_branch_an_earlier_command_could_create_is_not_new() {
    let world = with_feature();
    // `fresh` does not exist now, but the line makes it, commits on it, then moves it.
    for line in [
        "git switch -c fresh && git commit -qam wip && git switch main && git branch -f fresh main",
        "git branch fresh feature && git branch -f fresh main",
        "git fetch origin +feature:refs/heads/fresh; git checkout -B fresh main",
        "./setup.sh && git switch -C fresh main",
    ] {
        let verdict = check(&world, line);
        assert_eq!(
            verdict.decision,
            Decision::Deny,
            "{line}: {}",
            verdict.reason
        );
        assert!(
            verdict.reason.contains("fresh"),
            "{line}: {}",
            verdict.reason
        );
    }
    // Commands that only read leave "this creates it" standing.
    cleared(
        &check(
            &world,
            "git status && git log -1 && git branch -f fresh main",
        ),
        "git.branch-move",
    );
}
