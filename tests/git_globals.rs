//! git's global options, spelled every way git takes them, read the same by the three that
//! read a git invocation: the shell walker (what runs), the rules (the finding) and the
//! context (the options it asks the repository with, and whether an earlier command only
//! reads).

mod common;
mod scratch;

use std::process::Command;

use agent_guard::policy::Decision;
use agent_guard::rules::{self, Subject};
use agent_guard::settings::Settings;
use agent_guard::shell;
use scratch::World;

/// One line: the commands the shell yields (argv joined), the rule that stops it, and the
/// global options the context is handed to ask the repository with.
struct Row {
    line: &'static str,
    runs: &'static [&'static str],
    rule: Option<&'static str>,
    asked: &'static [&'static str],
}

const ROWS: &[Row] = &[
    Row {
        line: "git -C sub --no-pager -c core.x=y --git-dir=.g reset --hard",
        runs: &["git -C sub --no-pager -c core.x=y --git-dir=.g reset --hard"],
        rule: Some("git.reset-hard"),
        asked: &["-C", "sub", "--no-pager", "-c", "core.x=y", "--git-dir=.g"],
    },
    Row {
        line: "git --git-dir .g --work-tree wt --namespace=n stash clear",
        runs: &["git --git-dir .g --work-tree wt --namespace=n stash clear"],
        rule: Some("git.stash-drop"),
        asked: &["--git-dir", ".g", "--work-tree", "wt", "--namespace=n"],
    },
    // `--version`, `--help` and their short forms become `git version` / `git help`.
    Row {
        line: "git --version reset --hard",
        runs: &["git --version reset --hard"],
        rule: None,
        asked: &[],
    },
    Row {
        line: "git -v clean -f",
        runs: &["git -v clean -f"],
        rule: None,
        asked: &[],
    },
    Row {
        line: "git -h reset --hard",
        runs: &["git -h reset --hard"],
        rule: None,
        asked: &[],
    },
    Row {
        line: "git --help clean -f",
        runs: &["git --help clean -f"],
        rule: None,
        asked: &[],
    },
    Row {
        line: "git --config-env=a.b=ENV clean -fd",
        runs: &["git --config-env=a.b=ENV clean -fd"],
        rule: Some("git.clean-force"),
        asked: &["--config-env=a.b=ENV"],
    },
    Row {
        line: "git --config-env a.b=ENV clean -fd",
        runs: &["git --config-env a.b=ENV clean -fd"],
        rule: Some("git.clean-force"),
        asked: &["--config-env", "a.b=ENV"],
    },
    Row {
        line: "git --super-prefix=x/ clean -f",
        runs: &["git --super-prefix=x/ clean -f"],
        rule: Some("git.clean-force"),
        asked: &["--super-prefix=x/"],
    },
    Row {
        line: "git --super-prefix x/ clean -f",
        runs: &["git --super-prefix x/ clean -f"],
        rule: Some("git.clean-force"),
        asked: &["--super-prefix", "x/"],
    },
    // `--list-cmds=` prints git's commands and exits; whatever follows never runs.
    Row {
        line: "git --list-cmds=main",
        runs: &["git --list-cmds=main"],
        rule: None,
        asked: &[],
    },
    Row {
        line: "git --list-cmds=main reset --hard",
        runs: &["git --list-cmds=main reset --hard"],
        rule: None,
        asked: &[],
    },
    // `--attr-source` takes the next word: the subcommand comes after it.
    Row {
        line: "git --attr-source HEAD reset --hard",
        runs: &["git --attr-source HEAD reset --hard"],
        rule: Some("git.reset-hard"),
        asked: &["--attr-source", "HEAD"],
    },
    Row {
        line: "git --attr-source=HEAD reset --hard",
        runs: &["git --attr-source=HEAD reset --hard"],
        rule: Some("git.reset-hard"),
        asked: &["--attr-source=HEAD"],
    },
    Row {
        line: "git --shallow-file f clean -f",
        runs: &["git --shallow-file f clean -f"],
        rule: Some("git.clean-force"),
        asked: &["--shallow-file", "f"],
    },
    Row {
        line: "git -p --paginate -P --bare --literal-pathspecs --no-optional-locks clean -f",
        runs: &["git -p --paginate -P --bare --literal-pathspecs --no-optional-locks clean -f"],
        rule: Some("git.clean-force"),
        asked: &[
            "-p",
            "--paginate",
            "-P",
            "--bare",
            "--literal-pathspecs",
            "--no-optional-locks",
        ],
    },
    // `--exec-path` alone prints; with a value it sets git's helpers and goes on.
    Row {
        line: "git --exec-path=/opt/git reset --hard",
        runs: &["git --exec-path=/opt/git reset --hard"],
        rule: Some("git.reset-hard"),
        asked: &["--exec-path=/opt/git"],
    },
    Row {
        line: "git --exec-path reset --hard",
        runs: &["git --exec-path reset --hard"],
        rule: None,
        asked: &[],
    },
    Row {
        line: "git --html-path",
        runs: &["git --html-path"],
        rule: None,
        asked: &[],
    },
    // An alias defined on the line is found past every global option, the value-taking
    // ones included, and runs with the others.
    Row {
        line: "git -c alias.w='reset --hard' --no-pager w",
        runs: &["git --no-pager reset --hard"],
        rule: Some("git.reset-hard"),
        asked: &["--no-pager"],
    },
    Row {
        line: "git --attr-source HEAD -c alias.w='clean -f' w",
        runs: &["git --attr-source HEAD clean -f"],
        rule: Some("git.clean-force"),
        asked: &["--attr-source", "HEAD"],
    },
    Row {
        line: "git -C sub --config-env=a.b=ENV status",
        runs: &["git -C sub --config-env=a.b=ENV status"],
        rule: None,
        asked: &[],
    },
];

#[test]
fn every_reader_of_git_takes_the_global_options_alike() {
    let settings = Settings {
        context: false,
        ..Settings::default()
    };
    let mut failures = Vec::new();
    for row in ROWS {
        let commands = shell::analyze(row.line).commands;
        let runs: Vec<String> = commands
            .iter()
            .map(|cmd| {
                cmd.argv
                    .iter()
                    .map(|w| w.text.as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        if runs != row.runs {
            failures.push(format!("{}: runs {runs:?}", row.line));
        }
        let findings: Vec<_> = commands
            .iter()
            .flat_map(|cmd| rules::check(cmd, &settings))
            .collect();
        let ids: Vec<&str> = findings.iter().map(|f| f.rule.id).collect();
        if ids != row.rule.into_iter().collect::<Vec<_>>() {
            failures.push(format!("{}: findings {ids:?}", row.line));
        }
        let asked: Vec<&str> = findings
            .iter()
            .filter_map(|f| match &f.subject {
                Subject::Git { globals, .. } => Some(globals),
                _ => None,
            })
            .flatten()
            .map(String::as_str)
            .collect();
        if asked != row.asked {
            failures.push(format!("{}: asks with {asked:?}", row.line));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// With the repository consulted: the one git would use is the one asked, past every other
/// global option, and an earlier git command is read with the same reader.
#[test]
fn the_repository_asked_is_the_one_git_uses() {
    let world = World::repo();
    world.write("README.md", b"edited\n");
    let clean = world.repo.parent().unwrap().join("clean");
    std::fs::create_dir_all(&clean).unwrap();
    let made = Command::new("git")
        .args(["init", "-q"])
        .current_dir(&clean)
        .status()
        .unwrap();
    assert!(made.success());
    let name = world.repo.file_name().unwrap().to_str().unwrap();
    let judge = |dir: &std::path::Path, line: &str| {
        agent_guard::evaluate_in(line, Some(dir), &Settings::default())
    };
    for line in [
        format!("git --no-pager -C ../{name} reset --hard"),
        format!("git --attr-source HEAD -C ../{name} reset --hard"),
        format!("git --config-env a.b=HOME -C ../{name} reset --hard"),
        format!("git --exec-path=/nowhere -C ../{name} reset --hard"),
    ] {
        let verdict = judge(&clean, &line);
        assert_eq!(verdict.decision, Decision::Deny, "{line}: {verdict:#?}");
        assert!(verdict.reason.contains("README.md"), "{line}: {verdict:#?}");
    }
    for line in [
        "git --no-pager -C . reset --hard",
        "git --attr-source HEAD reset --hard",
    ] {
        let verdict = judge(&clean, line);
        assert_eq!(verdict.decision, Decision::Allow, "{line}: {verdict:#?}");
    }
    // The stash an earlier command adds is the entry the drop deletes: `--super-prefix`
    // takes `log` as its value, so that command is `stash`, which writes, not `log`.
    let verdict = judge(&world.repo, "git --super-prefix log stash; git stash drop");
    assert_eq!(verdict.decision, Decision::Deny, "{verdict:#?}");
    // `git --version` runs nothing before the drop.
    let verdict = judge(&world.repo, "git --version stash; git stash drop");
    assert_eq!(verdict.decision, Decision::Allow, "{verdict:#?}");
}
