//! Every rule's declared examples, run through the real analysis: what it must stop is
//! stopped by that rule, what it must pass is allowed. The docs pages under docs/rules/ are
//! generated from the same declarations; this test fails when they are out of date.
//!
//! Regenerate the pages with `AGENT_GUARD_BLESS=1 cargo test --test rules`.

use std::path::PathBuf;

use agent_guard::policy::Decision;
use agent_guard::settings::{Profile, Settings};
use agent_guard::{docs, rules};

fn settings_for(rule: &rules::Rule) -> Settings {
    let profile = if rule.strict_only {
        Profile::Strict
    } else {
        Profile::Standard
    };
    Settings {
        profile,
        context: false,
        ..Settings::default()
    }
}

#[test]
fn every_rule_stops_its_examples_and_passes_its_twins() {
    let mut failures = Vec::new();
    for rule in rules::all() {
        let settings = settings_for(rule);
        for command in rule.stops {
            let verdict = agent_guard::evaluate(command, &settings);
            if !verdict.findings.iter().any(|f| f.rule.id == rule.id) {
                failures.push(format!(
                    "{}: should stop {command:?}, got {:?}",
                    rule.id, verdict.findings
                ));
            }
        }
        for command in rule.passes {
            let verdict = agent_guard::evaluate(command, &settings);
            if verdict.decision != Decision::Allow {
                failures.push(format!(
                    "{}: should pass {command:?}, got {}",
                    rule.id, verdict.reason
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn rule_ids_are_unique_and_dotted() {
    let mut ids: Vec<&str> = rules::all().map(|r| r.id).collect();
    for id in &ids {
        let (family, name) = id.split_once('.').expect("dotted id");
        assert!(
            !family.is_empty()
                && !name.is_empty()
                && name.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
            "{id}"
        );
    }
    ids.sort_unstable();
    let before = ids.len();
    ids.dedup();
    assert_eq!(before, ids.len(), "duplicate rule ids");
}

#[test]
fn docs_pages_match_the_rules() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/rules");
    let bless = std::env::var_os("AGENT_GUARD_BLESS").is_some();
    let mut expected: Vec<(PathBuf, String)> = rules::all()
        .map(|r| (dir.join(format!("{}.md", r.id)), docs::page(r)))
        .collect();
    expected.push((dir.join("README.md"), docs::index()));
    let mut stale = Vec::new();
    for (path, text) in &expected {
        if bless {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(path, text).unwrap();
        } else if std::fs::read_to_string(path).ok().as_deref() != Some(text.as_str()) {
            stale.push(path.display().to_string());
        }
    }
    let listed: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    for path in listed {
        if !expected.iter().any(|(p, _)| *p == path) {
            if bless {
                std::fs::remove_file(&path).unwrap();
            } else {
                stale.push(format!("{} (no such rule)", path.display()));
            }
        }
    }
    assert!(
        stale.is_empty(),
        "docs/rules is out of date: {}\nregenerate with AGENT_GUARD_BLESS=1 cargo test --test rules",
        stale.join(", ")
    );
}

/// A rule is declared where its id says: `fs.find-delete` under `rules/fs/`,
/// `vm.destroy` under `rules/packs/vm/` (or in `vm.rs`), in the rules' crate.
#[test]
fn rule_files_are_named_after_the_ids_they_hold() {
    fn sources(dir: &std::path::Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("list the rules' folder") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                sources(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("crates/rules/src/rules");
    let mut files = Vec::new();
    sources(&root, &mut files);
    let mut misplaced = Vec::new();
    let mut declared = 0;
    for file in files {
        let text = std::fs::read_to_string(&file).expect("read a rule file");
        let relative = file.strip_prefix(&root).expect("under the rules' folder");
        let parts: Vec<String> = relative
            .iter()
            .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
            .collect();
        for line in text.lines() {
            let Some(id) = line
                .trim()
                .strip_prefix("id: \"")
                .and_then(|rest| rest.strip_suffix("\","))
                .filter(|id| id.contains('.'))
            else {
                continue;
            };
            declared += 1;
            let family = id.split('.').next().unwrap_or(id);
            if !parts.iter().any(|p| p == family) {
                misplaced.push(format!("{id} in {}", relative.display()));
            }
        }
    }
    assert_eq!(
        declared,
        rules::all().count(),
        "every rule declared once in src/rules"
    );
    assert!(misplaced.is_empty(), "{misplaced:#?}");
}

/// A rule that only the context can raise shows what it stops and passes in a folder that
/// holds the files it reads; the one rule raised by input it cannot read in full is shown in
/// tests/fail_closed.rs instead, and the one raised by MCP tools, which no shell line calls,
/// in the MCP table of tests/tools.rs.
#[test]
fn rules_only_context_raises_show_their_examples_in_a_folder() {
    let mut failures = Vec::new();
    for rule in rules::all().filter(|r| {
        r.stops.is_empty() && !["shell.unanalyzable", "mcp.destructive-tool"].contains(&r.id)
    }) {
        if !rules::world_examples().any(|e| e.rule.id == rule.id && e.stops) {
            failures.push(format!("{} has no stop, declared or in a folder", rule.id));
        }
    }
    for example in rules::world_examples() {
        let dir = tempfile::tempdir().expect("a temp dir");
        let init = std::process::Command::new("git")
            .args(["init", "-q"])
            .current_dir(dir.path())
            .status()
            .expect("run git init");
        assert!(init.success());
        for (name, text) in example.files {
            std::fs::write(dir.path().join(name), text).expect("write a fixture file");
        }
        let settings = Settings {
            context: true,
            ..settings_for(example.rule)
        };
        let verdict = agent_guard::evaluate_in(example.command, Some(dir.path()), &settings);
        let stopped = verdict.decision != Decision::Allow
            && verdict
                .findings
                .iter()
                .any(|f| f.rule.id == example.rule.id);
        if stopped != example.stops {
            failures.push(format!(
                "{}: {:?} with {:?} should {}, got {:?} {:?}",
                example.rule.id,
                example.command,
                example.files,
                if example.stops { "stop" } else { "pass" },
                verdict.decision,
                verdict.findings
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The README's pack table is generated from the packs' declarations, like the rule pages.
#[test]
fn readme_pack_table_matches_the_packs() {
    const BEGIN: &str = "<!-- packs:begin -->\n";
    const END: &str = "<!-- packs:end -->";
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("README.md");
    let readme = std::fs::read_to_string(&path).expect("read README.md");
    let start = readme
        .find(BEGIN)
        .expect("README.md has <!-- packs:begin -->")
        + BEGIN.len();
    let end = readme.find(END).expect("README.md has <!-- packs:end -->");
    let table = docs::pack_table();
    if readme[start..end] == table {
        return;
    }
    if std::env::var_os("AGENT_GUARD_BLESS").is_some() {
        let updated = format!("{}{table}{}", &readme[..start], &readme[end..]);
        std::fs::write(&path, updated).expect("write README.md");
    } else {
        panic!(
            "README.md's pack table is out of date\nregenerate with AGENT_GUARD_BLESS=1 cargo test --test rules"
        );
    }
}

/// A suggested preview must show what the command would do: a quiet dry run prints nothing,
/// which reads as "nothing to delete".
#[test]
fn previews_suggested_for_git_clean_are_never_quiet() {
    let settings = Settings {
        context: false,
        ..Settings::default()
    };
    for (command, preview) in [
        ("git clean -fq", "`git clean -n`"),
        ("git clean -qdf", "`git clean -dn`"),
        ("git clean --quiet -f -d", "`git clean -n -d`"),
        ("git clean -f -q -x", "`git clean -n -x`"),
        (
            "git -c clean.requireForce=false clean -q",
            "`git -c clean.requireForce=false clean -n`",
        ),
    ] {
        let verdict = agent_guard::evaluate(command, &settings);
        let safer = verdict.findings[0].safer.clone().unwrap_or_default();
        assert!(safer.starts_with(preview), "{command}: {safer}");
    }
}
