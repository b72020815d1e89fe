//! Single-file deletes and overwrites with context on, against real repositories: each row
//! sets up a repository, judges one command line in it, and says whether it is stopped (by
//! which rule, naming which file) or let through. Also what a line makes or copies aside
//! before it removes: that is not lost.

mod common;
mod scratch;

use agent_guard::policy::Decision;
use agent_guard::settings::Settings;
use scratch::World;

/// Committed in every row's repository, next to `README.md` and `src/lib.rs`.
const IGNORE: &str = ".env\n*.db\nsecrets.json\nbuild/\n*.pem\n";

struct Row {
    /// Written and committed before the row's own files.
    committed: &'static [(&'static str, &'static str)],
    /// Written and left uncommitted.
    files: &'static [(&'static str, &'static str)],
    /// Staged with `git add` after being written.
    staged: &'static [&'static str],
    command: &'static str,
    /// `Some((rule, named))`: stopped by `rule`, its reason naming `named`. `None`: allowed.
    stop: Option<(&'static str, &'static str)>,
}

const fn stop(
    committed: &'static [(&'static str, &'static str)],
    files: &'static [(&'static str, &'static str)],
    command: &'static str,
    rule: &'static str,
    named: &'static str,
) -> Row {
    Row {
        committed,
        files,
        staged: &[],
        command,
        stop: Some((rule, named)),
    }
}

const fn pass(
    committed: &'static [(&'static str, &'static str)],
    files: &'static [(&'static str, &'static str)],
    command: &'static str,
) -> Row {
    Row {
        committed,
        files,
        staged: &[],
        command,
        stop: None,
    }
}

const RM: &str = "fs.rm-file";
const OVER: &str = "fs.overwrite";

const ROWS: &[Row] = &[
    // Deletes that lose bytes.
    stop(
        &[],
        &[("notes/ideas.md", "an idea\n")],
        "rm notes/ideas.md",
        RM,
        "notes/ideas.md",
    ),
    stop(
        &[],
        &[("secrets.json", "{\"k\":1}\n")],
        "rm -f secrets.json",
        RM,
        "ignored file",
    ),
    stop(
        &[],
        &[("README.md", "edited\n")],
        "unlink README.md",
        RM,
        "uncommitted edits",
    ),
    stop(
        &[],
        &[("deploy.pem", "-----KEY-----\n")],
        "shred -u deploy.pem",
        RM,
        "deploy.pem",
    ),
    stop(
        &[],
        &[("todo.txt", "call back\n")],
        "python3 -c \"import os; os.remove('todo.txt')\"",
        RM,
        "todo.txt",
    ),
    stop(
        &[],
        &[("app.db", "rows")],
        "cd . && rm app.db",
        RM,
        "app.db",
    ),
    // Overwrites that lose bytes.
    stop(
        &[],
        &[("README.md", "edited\n")],
        "echo hi > README.md",
        OVER,
        "uncommitted edits",
    ),
    stop(
        &[],
        &[("journal.md", "day 1\n")],
        "date >| journal.md",
        OVER,
        "journal.md",
    ),
    stop(
        &[],
        &[("errors.md", "triage\n")],
        "cargo build 2> errors.md",
        OVER,
        "errors.md",
    ),
    stop(
        &[],
        &[("local.db", "rows")],
        "echo '' | tee local.db",
        OVER,
        "local.db",
    ),
    stop(
        &[("config.sample.toml", "port = 1\n")],
        &[("config.toml", "port = 2\n")],
        "cp config.sample.toml config.toml",
        OVER,
        "config.toml",
    ),
    stop(
        &[],
        &[("draft2.md", "second\n"), ("draft.md", "first\n")],
        "mv draft2.md draft.md",
        OVER,
        "draft.md",
    ),
    stop(
        &[],
        &[("notes.md", "new\n"), ("docs/notes.md", "old\n")],
        "cp notes.md docs/",
        OVER,
        "docs/notes.md",
    ),
    stop(
        &[],
        &[("data.csv", "a,b\n")],
        "truncate -s 0 data.csv",
        OVER,
        "data.csv",
    ),
    stop(
        &[],
        &[("disk.img", "bytes")],
        "dd if=/dev/zero of=disk.img bs=1k count=1",
        OVER,
        "disk.img",
    ),
    stop(
        &[],
        &[("words.txt", "b\na\n")],
        "sort -o words.txt other.txt",
        OVER,
        "words.txt",
    ),
    stop(
        &[("schema.sql", "create table t;\n")],
        &[("schema.sql", "create table t (id int);\n")],
        "curl -sSo schema.sql https://example.com/schema.sql",
        OVER,
        "schema.sql",
    ),
    stop(
        &[],
        &[("src/lib.rs", "pub fn g() {}\n")],
        "git show HEAD:src/lib.rs > src/lib.rs",
        OVER,
        "src/lib.rs",
    ),
    stop(
        &[],
        &[("keep.txt", "mine\n")],
        "ln -sf other.txt keep.txt",
        OVER,
        "keep.txt",
    ),
    stop(
        &[],
        &[(".env", "KEY=1\n")],
        "node -e \"require('fs').writeFileSync('.env', 'KEY=2')\"",
        OVER,
        ".env",
    ),
    stop(
        &[],
        &[("settings.local.json", "{}\n")],
        "ruby -e 'File.write(\"settings.local.json\", \"\")'",
        OVER,
        "settings.local.json",
    ),
    stop(
        &[],
        &[("notes.md", "mine\n")],
        "pwsh -c 'Set-Content notes.md x'",
        OVER,
        "notes.md",
    ),
    stop(
        &[],
        &[(".env", "KEY=1\n")],
        "python3 -c \"from pathlib import Path; Path('.env.example').replace('.env')\"",
        OVER,
        ".env",
    ),
    stop(
        &[],
        &[("a.md", "a\n"), ("b.md", "b\n")],
        "for f in *.md; do mv \"$f\" merged.md; done",
        OVER,
        "again and again",
    ),
    // A list the line gives is judged value by value: each move writes over the one before.
    stop(
        &[],
        &[("a.md", "a\n"), ("b.md", "b\n")],
        "for f in a.md b.md; do mv \"$f\" merged.md; done",
        OVER,
        "first moves there: `a.md`",
    ),
    stop(
        &[],
        &[("notes.md", "mine\n")],
        "\"$EDITOR\" > notes.md",
        OVER,
        "notes.md",
    ),
    // What the line does first does not save the bytes.
    stop(
        &[],
        &[("notes.md", "mine\n")],
        "bash -c 'mkdir d && mv notes.md d/ && rm -rf d'",
        "fs.rm-recursive",
        "rm -rf d",
    ),
    stop(
        &[],
        &[("notes.md", "mine\n")],
        "mkdir -p scratch && mv notes.md scratch && rm -rf scratch",
        "fs.rm-recursive",
        "scratch",
    ),
    stop(
        &[],
        &[("notes.md", "mine\n")],
        "python3 -c \"import os, shutil; from pathlib import Path; os.makedirs('d'); Path('notes.md').rename('d/n.md'); shutil.rmtree('d')\"",
        "fs.rm-recursive",
        "shutil.rmtree",
    ),
    stop(
        &[],
        &[("notes.md", "mine\n")],
        "cp notes.md notes.bak && echo x > notes.bak && rm notes.md",
        RM,
        "notes.md",
    ),
    stop(
        &[],
        &[("notes.md", "mine\n"), ("notes.bak", "older\n")],
        "cp notes.md notes.bak && rm notes.md",
        RM,
        "notes.md",
    ),
    // Nothing lost.
    pass(&[], &[], "rm src/lib.rs"),
    pass(&[], &[], "rm -f nothing-here.txt"),
    pass(&[], &[("build/app.o", "obj")], "rm build/app.o"),
    pass(&[], &[("server.log", "GET /\n")], "rm server.log"),
    pass(&[], &[("empty.txt", "")], "rm empty.txt"),
    pass(&[], &[], "echo hi > fresh.txt"),
    pass(&[], &[], "echo hi > README.md"),
    pass(
        &[],
        &[("a.md", "same\n"), ("b.md", "same\n")],
        "cp a.md b.md",
    ),
    pass(
        &[],
        &[("b.md", "hello\n")],
        "git show HEAD:README.md > b.md",
    ),
    pass(&[], &[("notes.md", "mine\n")], "echo more >> notes.md"),
    pass(
        &[],
        &[("notes.md", "mine\n"), ("new.md", "x\n")],
        "cp -n new.md notes.md",
    ),
    pass(
        &[],
        &[("notes.md", "mine\n"), ("new.md", "x\n")],
        "mv -n new.md notes.md",
    ),
    pass(&[], &[("notes.md", "mine\n")], "make > /dev/null 2>&1"),
    pass(&[], &[("notes.md", "mine\n")], "cp notes.md docs/"),
    pass(&[], &[("notes.md", "mine\n")], "echo x | tee -a notes.md"),
    pass(&[], &[], "truncate -s +1K README.md"),
    pass(
        &[],
        &[("notes.md", "mine\n")],
        "python3 -c \"open('notes.md', 'a').write('more')\"",
    ),
    pass(
        &[],
        &[("notes.md", "mine\n")],
        "node -e \"require('fs').appendFileSync('notes.md', 'more')\"",
    ),
    pass(
        &[],
        &[("notes.md", "mine\n")],
        "pwsh -c 'Add-Content notes.md x'",
    ),
    pass(
        &[],
        &[("a.md", "a\n"), ("b.md", "b\n"), ("archive/keep", "k\n")],
        "for f in a.md b.md; do mv \"$f\" archive; done",
    ),
    pass(
        &[],
        &[("a.md", "a\n")],
        "for f in *.md; do cp \"$f\" all.md; done",
    ),
    // What the line makes, it may remove.
    pass(
        &[],
        &[],
        "mkdir scratch && echo hi > scratch/a.txt && rm -rf scratch",
    ),
    pass(
        &[],
        &[],
        "curl -sSLo pkg.zip https://example.com/pkg.zip && unzip -q pkg.zip -d pkg && rm -rf pkg pkg.zip",
    ),
    pass(
        &[],
        &[],
        "git clone -q https://example.com/r.git clone-tmp && rm -rf clone-tmp",
    ),
    pass(&[], &[], "touch probe.txt && rm probe.txt"),
    pass(&[], &[], "bash -c 'mkdir d && echo x > d/a && rm -rf d'"),
    pass(
        &[],
        &[],
        "python3 -c \"import os, shutil; os.makedirs('out'); open('out/x', 'w').write('1'); shutil.rmtree('out')\"",
    ),
    pass(
        &[],
        &[],
        "node -e \"const fs = require('fs'); fs.mkdirSync('t'); fs.writeFileSync('t/a', 'x'); fs.rmSync('t', {recursive: true})\"",
    ),
    // What it copies aside first is not lost.
    pass(
        &[],
        &[("notes.md", "mine\n")],
        "cp notes.md notes.md.bak && rm notes.md",
    ),
    pass(
        &[],
        &[("README.md", "edited\n")],
        "cp README.md README.orig && git checkout -- README.md",
    ),
    pass(
        &[],
        &[(".env", "KEY=1\n")],
        "cp .env .env.bak && echo KEY=2 > .env",
    ),
    pass(
        &[],
        &[("notes/a.md", "a\n"), ("notes/b.md", "b\n")],
        "cp -r notes notes.bak && rm -rf notes",
    ),
];

fn repository(row: &Row) -> World {
    let world = World::repo();
    world.write(".gitignore", IGNORE.as_bytes());
    for (path, text) in row.committed {
        world.write(path, text.as_bytes());
    }
    world.commit("setup");
    for (path, text) in row.files {
        world.write(path, text.as_bytes());
    }
    if !row.staged.is_empty() {
        let mut add = vec!["add", "--"];
        add.extend(row.staged);
        world.git(&add);
    }
    world
}

#[test]
fn single_files_and_overwrites_are_judged_by_content() {
    let rows: Vec<&Row> = ROWS.iter().collect();
    let stops = rows.iter().filter(|r| r.stop.is_some()).count();
    assert!(stops >= 15 && rows.len() - stops >= 15);
    let failures: Vec<String> = common::par_map(&rows, |row| {
        let world = repository(row);
        let verdict =
            agent_guard::evaluate_in(row.command, Some(&world.repo), &Settings::default());
        let got = match row.stop {
            None if verdict.decision == Decision::Allow => return None,
            None => "stopped".to_string(),
            Some((rule, named)) => {
                let by_rule = verdict.findings.iter().any(|f| f.rule.id == rule);
                if verdict.decision == Decision::Deny && by_rule && verdict.reason.contains(named) {
                    return None;
                }
                format!("not stopped by {rule} naming {named:?}")
            }
        };
        Some(format!("{}: {got}\n{}", row.command, verdict.reason))
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn what_is_staged_or_only_a_link_is_not_lost() {
    let row = Row {
        committed: &[],
        files: &[("README.md", "edited\n")],
        staged: &["README.md"],
        command: "echo x > README.md",
        stop: None,
    };
    let world = repository(&row);
    let settings = Settings::default();
    let verdict = agent_guard::evaluate_in(row.command, Some(&world.repo), &settings);
    assert_eq!(verdict.decision, Decision::Allow, "{}", verdict.reason);
    assert!(verdict.cleared.iter().any(|c| c.why.contains("staged")));
    #[cfg(unix)]
    {
        world.write("notes.md", b"mine\n");
        std::os::unix::fs::symlink("notes.md", world.repo.join("link")).unwrap();
        let verdict = agent_guard::evaluate_in("rm link", Some(&world.repo), &settings);
        assert_eq!(verdict.decision, Decision::Allow, "{}", verdict.reason);
        // A link git tracks, unchanged, still writes through to the file it leads to.
        world.git(&["add", "link"]);
        world.git(&["commit", "-qm", "link"]);
        let verdict = agent_guard::evaluate_in("echo x > link", Some(&world.repo), &settings);
        assert_eq!(verdict.decision, Decision::Deny, "{}", verdict.reason);
        assert!(verdict.reason.contains("untracked"), "{}", verdict.reason);
    }
}

/// With context off, the rules alone judge: single files and overwrites pass.
#[test]
fn with_context_off_they_pass() {
    let world = repository(&Row {
        committed: &[],
        files: &[(".env", "KEY=1\n"), ("notes.md", "mine\n")],
        staged: &[],
        command: "",
        stop: None,
    });
    let settings = Settings {
        context: false,
        ..Settings::default()
    };
    for command in ["rm .env", "cp notes.md .env", "echo x > notes.md"] {
        let verdict = agent_guard::evaluate_in(command, Some(&world.repo), &settings);
        assert_eq!(
            verdict.decision,
            Decision::Allow,
            "{command}: {}",
            verdict.reason
        );
    }
}
