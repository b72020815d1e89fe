//! Configuration through the real binary: problems named by file, line and key while the
//! guard keeps guarding; project over user over defaults, the environment over both,
//! `AGENT_GUARD_CONFIG`; `agent-guard config`; protected branches (configured, and the
//! remote's default branch); `[[allow]]` exceptions and `[rules] disable`.
//!
//! Regenerate the golden file with `AGENT_GUARD_BLESS=1 cargo test --test config`.

mod common;
mod scratch;

use common::test_file;
use scratch::{World, stderr, stdout};
use serde_json::Value;

fn user_config(world: &World) -> std::path::PathBuf {
    world.home().join("config/agent-guard/config.toml")
}

fn write_user(world: &World, text: &str) {
    let path = user_config(world);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// The hook's answer for `git reset --hard` over an edit: the decision and stderr.
fn reset_hard(world: &World, env: &[(&str, &str)]) -> (String, String) {
    let out = world.hook("claude", &world.claude("git reset --hard"), env);
    let reply: Value = serde_json::from_str(&stdout(&out)).unwrap_or(Value::Null);
    let decision = reply["hookSpecificOutput"]["permissionDecision"]
        .as_str()
        .unwrap_or("allow")
        .to_string();
    (decision, stderr(&out))
}

#[test]
fn problems_name_file_line_and_key_and_the_guard_keeps_guarding() {
    // project file, user file, what stderr must say (after the file's path).
    let cases: &[(&str, &str, &str)] = &[
        (
            "on_destructive = \"sometimes\"\n",
            "",
            ":1: on_destructive: expected \"deny\" or \"ask\", found \"sometimes\"; ignored",
        ),
        (
            "\n\nmode = \"off\"\n",
            "",
            ":3: mode: expected \"enforce\" or \"observe\", found \"off\"; ignored",
        ),
        (
            "inline_overide = false\n",
            "",
            ":1: inline_overide: unknown key `inline_overide` (did you mean `inline_override`?); ignored",
        ),
        (
            "[rules]\ndisable = [\"git.stash-drop\", \"git.nope\"]\n",
            "",
            ":2: rules.disable: unknown rule id `git.nope`; ignored",
        ),
        (
            "[[allow]]\nrule = \"git.reset-hard\"\n",
            "",
            ":1: allow[1]: needs a `reason`: say why the team allows it; ignored",
        ),
        (
            "[[allow]]\nrule = \"git.reset-hard\"\nreason = \"r\"\nexpires = 2026-13-01\n",
            "",
            ":4: not valid TOML",
        ),
        ("profile = \"strict\n", "", ":1: not valid TOML"),
        (
            "",
            "on_destructive = 3\n",
            ":1: on_destructive: expected a string, found an integer; ignored",
        ),
    ];
    for &(project, user, says) in cases {
        let world = World::repo();
        world.write("README.md", b"edited\n");
        if !project.is_empty() {
            world.write(".agent-guard.toml", project.as_bytes());
        }
        if !user.is_empty() {
            write_user(&world, user);
        }
        let file = if user.is_empty() {
            world.repo.join(".agent-guard.toml")
        } else {
            user_config(&world)
        };
        let (decision, err) = reset_hard(&world, &[]);
        assert_eq!(decision, "deny", "{project}{user}: still guarded");
        let want = format!("agent-guard: {}{says}", file.display());
        assert!(
            err.contains(&want),
            "{project}{user}\nwant {want}\ngot {err}"
        );

        let out = world.guard().arg("config").output().unwrap();
        assert_eq!(out.status.code(), Some(1), "config exits 1 on problems");
        assert!(stderr(&out).contains(&want));
    }
}

#[test]
fn project_over_user_over_defaults_and_the_environment_over_both() {
    let world = World::repo();
    write_user(
        &world,
        "profile = \"strict\"\non_destructive = \"ask\"\ncontext = false\n",
    );
    world.write(
        ".agent-guard.toml",
        b"# the team's\non_destructive = \"deny\"\n",
    );
    let out = world
        .guard()
        .args(["config", "--json"])
        .env("AGENT_GUARD_CONTEXT", "on")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let config: Value = serde_json::from_slice(&out.stdout).unwrap();
    let setting = |key: &str| config["settings"][key].clone();
    assert_eq!(setting("profile")["value"], "strict");
    let user = user_config(&world).display().to_string();
    assert_eq!(setting("profile")["from"], format!("{user}:1"));
    assert_eq!(setting("on_destructive")["value"], "deny");
    let project = world.repo.join(".agent-guard.toml").display().to_string();
    assert_eq!(setting("on_destructive")["from"], format!("{project}:2"));
    assert_eq!(setting("context")["value"], true);
    assert_eq!(setting("context")["from"], "AGENT_GUARD_CONTEXT");
    assert_eq!(setting("mode")["from"], "default");
    assert_eq!(config["files"][0]["scope"], "user");
    assert_eq!(config["files"][1]["scope"], "project");
}

#[test]
fn agent_guard_config_names_another_file_for_the_user_settings() {
    let world = World::repo();
    world.write("README.md", b"edited\n");
    write_user(&world, "on_destructive = \"deny\"\n");
    let elsewhere = world.home().join("team-defaults.toml");
    std::fs::write(&elsewhere, "on_destructive = \"ask\"\n").unwrap();
    let path = elsewhere.display().to_string();
    let (decision, _) = reset_hard(&world, &[("AGENT_GUARD_CONFIG", &path)]);
    assert_eq!(decision, "ask");

    let missing = world.home().join("missing.toml").display().to_string();
    let (decision, err) = reset_hard(&world, &[("AGENT_GUARD_CONFIG", &missing)]);
    assert_eq!(decision, "deny");
    assert!(
        err.contains("AGENT_GUARD_CONFIG=") && err.contains("no such file"),
        "{err}"
    );
}

#[test]
fn config_prints_every_setting_and_where_it_came_from() {
    let world = World::repo();
    world.write(
        ".agent-guard.toml",
        br#"on_destructive = "ask"
protected_branches = ["main", "release"]

[rules]
disable = ["git.stash-drop"]

[[allow]]
rule = "git.push-force"
command = "git push --force origin gh-pages"
reason = "the docs site is rebuilt from main"
expires = 2099-01-01

[[allow]]
command = "rm -rf generated"
reason = "a codegen folder"
expires = 2001-01-01

[snapshots]
max_age = "3d"
"#,
    );
    let out = world
        .guard()
        .arg("config")
        .env("AGENT_GUARD_PROFILE", "strict")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let root = world.repo.parent().unwrap().display().to_string();
    let text = stdout(&out).replace(&root, "<sandbox>");
    let path = test_file("golden/config-effective.txt");
    if std::env::var_os("AGENT_GUARD_BLESS").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    assert_eq!(
        text,
        std::fs::read_to_string(&path).unwrap_or_default(),
        "differs from tests/golden/config-effective.txt (rerun with AGENT_GUARD_BLESS=1 if intended)"
    );
}

/// `check --json` of `command` in the world: decision, rules, exempted rules.
fn check(world: &World, command: &str) -> (String, Vec<String>, Vec<String>) {
    let out = world
        .guard()
        .args(["check", "--json", "--", command])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let ids = |key: &str| -> Vec<String> {
        v[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["rule"].as_str().unwrap().to_string())
            .collect()
    };
    (
        v["decision"].as_str().unwrap().to_string(),
        ids("findings"),
        ids("exempted"),
    )
}

#[test]
fn exceptions_and_disabled_rules_let_destructive_findings_through_but_never_protected_ones() {
    let world = World::repo();
    world.write(
        ".agent-guard.toml",
        br#"protected_branches = ["main", "release"]

[rules]
disable = ["git.stash-drop", "git.clean-force"]

[[allow]]
rule = "git.push-force"
command = "git push --force origin gh-pages"
reason = "the docs site is rebuilt from main"

[[allow]]
rule = "git.branch-force-delete"
reason = "expired"
expires = 2001-01-01
"#,
    );
    let deny = |rule: &str| {
        (
            "deny".to_string(),
            vec![rule.to_string()],
            Vec::<String>::new(),
        )
    };
    let exempt = |rule: &str| {
        (
            "allow".to_string(),
            Vec::<String>::new(),
            vec![rule.to_string()],
        )
    };
    let cases = [
        ("git push --force origin gh-pages", exempt("git.push-force")),
        ("git push --force origin other", deny("git.push-force")),
        ("git push --force origin release", deny("git.push-force")),
        ("git stash clear", exempt("git.stash-drop")),
        ("git clean -fd", exempt("git.clean-force")),
        ("git clean -fdx", deny("git.clean-force")),
        ("git branch -D topic", deny("git.branch-force-delete")),
    ];
    // Context off: the rules alone, so the repository's state does not clear anything.
    for (command, want) in cases {
        let out = world
            .guard()
            .args(["check", "--json", "--", command])
            .env("AGENT_GUARD_CONTEXT", "off")
            .output()
            .unwrap();
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        let ids = |key: &str| -> Vec<String> {
            v[key]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| f["rule"].as_str().unwrap().to_string())
                .collect()
        };
        let got = (
            v["decision"].as_str().unwrap().to_string(),
            ids("findings"),
            ids("exempted"),
        );
        assert_eq!(got, want, "{command}: {v}");
    }
    let out = world
        .guard()
        .args(["check", "--", "git push --force origin release"])
        .output()
        .unwrap();
    assert!(
        stdout(&out).contains("This is protected"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn the_remotes_default_branch_is_protected() {
    let world = World::repo();
    let remote = world.home().join("remote.git");
    world.git(&["init", "-q", "--bare", remote.to_str().unwrap()]);
    world.git(&["remote", "add", "origin", remote.to_str().unwrap()]);
    world.git(&["push", "-q", "origin", "main:trunk", "main:feature"]);
    world.git(&["fetch", "-q", "origin"]);
    world.git(&["remote", "set-head", "origin", "trunk"]);

    let cases = [
        (
            "git push --force origin trunk",
            "deny",
            "`trunk` is the default branch of `origin`",
        ),
        (
            "git push origin --delete trunk",
            "deny",
            "`trunk` is the default branch of `origin`",
        ),
        (
            "git push --force",
            "deny",
            "`main` is the branch it pushes, and it is protected",
        ),
        (
            "git push --force origin feature",
            "deny",
            "If the user explicitly asked",
        ),
    ];
    for (command, decision, says) in cases {
        let (got, _, _) = check(&world, command);
        assert_eq!(got, decision, "{command}");
        let out = world
            .guard()
            .args(["check", "--", command])
            .output()
            .unwrap();
        assert!(stdout(&out).contains(says), "{command}: {}", stdout(&out));
    }
    // The default branch is protected even when the configuration names others, and an
    // exception for the rule does not lift it.
    world.write(
        ".agent-guard.toml",
        b"protected_branches = [\"release\"]\n[[allow]]\nrule = \"git.push-force\"\nreason = \"r\"\n",
    );
    let out = world
        .guard()
        .args([
            "check",
            "--",
            "AGENT_GUARD_OFF=1 git push --force origin trunk",
        ])
        .output()
        .unwrap();
    assert!(
        stdout(&out).contains("This is protected"),
        "{}",
        stdout(&out)
    );
    let (got, _, exempted) = check(&world, "git push --force origin main");
    assert_eq!(got, "allow", "main is no longer protected here");
    assert_eq!(exempted, ["git.push-force"]);
}
