//! The guard fails closed where it cannot read: code handed to an interpreter that was not
//! read to its end, SQL that was not, and the guard's own internal error are judged as input
//! it could not analyze. Such a line stops when what was not read names anything destructive,
//! and passes otherwise. Nothing here races a clock: a deadline that has already passed is
//! handed in, or the input is unreadable by construction.

use std::time::Instant;

use agent_guard::lang::Deadline;
use agent_guard::policy::{Channel, Decision, Verdict};
use agent_guard::settings::Settings;
use agent_guard::shell::{self, Dialect, Incomplete};

/// The rules alone, as `check` with context off judges.
fn settings() -> Settings {
    Settings {
        context: false,
        ..Settings::default()
    }
}

fn verdict(command: &str) -> Verdict {
    agent_guard::evaluate(command, &settings())
}

fn rules(verdict: &Verdict) -> Vec<&'static str> {
    verdict.findings.iter().map(|f| f.rule.id).collect()
}

/// `python3 -c` with about 800 KB of code (under the 1 MiB the guard reads) ending in `last`.
fn large_python(last: &str) -> String {
    let body = "total = total + 1\n".repeat(800 * 1024 / 18);
    format!("python3 -c 'total = 0\n{body}{last}'")
}

#[test]
fn large_interpreter_code_ending_in_a_delete_is_stopped() {
    let command = large_python("import shutil\nshutil.rmtree(\"build\")\n");
    assert!(command.len() < shell::MAX_INPUT_BYTES);
    let verdict = verdict(&command);
    assert_eq!(verdict.decision, Decision::Deny, "{}", verdict.reason);
    // Read in time, the call itself is found; cut short by the deadline, the line is
    // unanalyzable. Either way it stops.
    let rule = rules(&verdict)[0];
    assert!(
        ["fs.rm-recursive", "shell.unanalyzable"].contains(&rule),
        "{rule}"
    );
}

#[test]
fn large_interpreter_code_that_deletes_nothing_passes() {
    let verdict = verdict(&large_python("print(total)\n"));
    assert_eq!(verdict.decision, Decision::Allow, "{}", verdict.reason);
}

/// One line per embedded reader, each deleting `build`, and its harmless twin.
const READERS: &[(Dialect, &str, &str)] = &[
    (
        Dialect::Posix,
        "python3 -c \"import shutil; shutil.rmtree('build')\"",
        "python3 -c \"print('build')\"",
    ),
    (
        Dialect::Posix,
        "node -e \"require('fs').rmSync('build', {recursive: true})\"",
        "node -e \"console.log('build')\"",
    ),
    (
        Dialect::Posix,
        "ruby -e \"require 'fileutils'; FileUtils.rm_rf('build')\"",
        "ruby -e \"puts 'build'\"",
    ),
    (
        Dialect::Posix,
        "php -r \"unlink('build/app.log');\"",
        "php -r \"echo 'build';\"",
    ),
    (
        Dialect::Posix,
        "pwsh -Command \"Remove-Item -Recurse -Force build\"",
        "pwsh -Command \"Get-ChildItem build\"",
    ),
    (
        Dialect::PowerShell,
        "Remove-Item -Recurse -Force build",
        "Get-ChildItem build",
    ),
    (
        Dialect::Posix,
        "perl -e \"use File::Path; rmtree('build')\"",
        "perl -e \"print 'build'\"",
    ),
    (
        Dialect::Posix,
        "cmd /c \"rd /s /q build\"",
        "cmd /c \"dir build\"",
    ),
];

#[test]
fn every_reader_cut_short_by_the_deadline_leaves_the_line_unanalyzable() {
    for &(dialect, deletes, harmless) in READERS {
        for command in [deletes, harmless] {
            // Read in full, each line is what it says.
            let read = shell::analyze_as(command, dialect);
            assert_eq!(read.incomplete, None, "{command}");
            // The line itself is short enough to be read whole; the code in it is not read
            // once the deadline has passed, and the analysis says so.
            let passed = Deadline::at(Instant::now());
            let cut = shell::analyze_within(command, dialect, passed, shell::Files::Unread);
            assert_eq!(cut.incomplete, Some(Incomplete::Timeout), "{command}");
        }
        let why = Incomplete::Timeout;
        let whole = 0..deletes.len();
        let stop = agent_guard::rules::unanalyzable(deletes, whole, deletes, why);
        assert!(stop.is_some(), "{deletes}");
        let pass = agent_guard::rules::unanalyzable(harmless, 0..harmless.len(), harmless, why);
        assert!(pass.is_none(), "{harmless}");
    }
}

#[test]
fn code_a_reader_cannot_follow_is_judged_by_what_it_names() {
    for (command, expect) in [
        // cmd's `for` and `if` run a command of their own, which the reader does not follow.
        (
            "cmd /c \"for /d %d in (build*) do rd /s /q %d\"",
            Decision::Deny,
        ),
        ("cmd /c \"if exist build rd /s /q build\"", Decision::Deny),
        ("cmd /c \"for %f in (*.txt) do type %f\"", Decision::Allow),
        // A Perl quote that never ends hides the rest of the code.
        (
            "perl -e 'my $s = \"never ends; rmtree(qw(build))'",
            Decision::Deny,
        ),
        ("perl -e 'print \"never ends'", Decision::Allow),
        // Only the part not read counts: the `find` around it was read.
        (
            "find . -name '*.log' | perl -lne 'print \"never ends'",
            Decision::Allow,
        ),
        // A file test is no substitution: the `unlink` after it is read.
        ("perl -e 'print -s $f; unlink \"a.txt\"'", Decision::Allow),
    ] {
        let verdict = verdict(command);
        assert_eq!(verdict.decision, expect, "{command}: {}", verdict.reason);
        if expect == Decision::Deny {
            assert_eq!(rules(&verdict), ["shell.unanalyzable"], "{command}");
        }
    }
}

#[test]
fn sql_not_read_to_its_end_is_judged_by_what_it_names() {
    let filler = "SELECT 1;\n".repeat(30_000);
    for (command, expect) in [
        // The statement before the quote that never ends runs, and is read.
        (
            "mysql -e \"DROP TABLE orders; SELECT 'x\"".to_string(),
            Some("db.sql-drop"),
        ),
        (
            "psql -c \"SELECT 1; DELETE FROM orders WHERE note = 'x\"".to_string(),
            Some("shell.unanalyzable"),
        ),
        ("psql -c \"SELECT 'never ends\"".to_string(), None),
        // Past the 256 KiB the SQL reader reads.
        (
            format!("psql -c \"{filler}DROP TABLE orders;\""),
            Some("shell.unanalyzable"),
        ),
        (format!("psql -c \"{filler}\""), None),
    ] {
        let verdict = verdict(&command);
        let shown: String = command.chars().take(80).collect();
        match expect {
            Some(rule) => {
                assert_eq!(verdict.decision, Decision::Deny, "{shown}");
                assert_eq!(rules(&verdict), [rule], "{shown}");
            }
            None => assert_eq!(verdict.decision, Decision::Allow, "{shown}"),
        }
    }
}

#[test]
fn a_panic_while_judging_stops_a_destructive_line_and_is_handed_back() {
    let settings = settings();
    for (command, expect) in [
        ("rm -rf build", Decision::Deny),
        (
            "python3 -c \"import shutil; shutil.rmtree('out')\"",
            Decision::Deny,
        ),
        ("ls -la", Decision::Allow),
    ] {
        let (verdict, error) =
            agent_guard::judge_safely(command, &settings, Channel::default(), || {
                panic!("forced failure")
            });
        assert_eq!(verdict.decision, expect, "{command}");
        if expect == Decision::Deny {
            assert_eq!(rules(&verdict), ["shell.unanalyzable"]);
            assert!(
                verdict.reason.contains("internal error"),
                "{}",
                verdict.reason
            );
        }
        let error = error.expect("the panic is handed back");
        assert_eq!(error.message, "forced failure");
        let at = error.location.expect("where it was raised");
        assert!(at.contains("fail_closed.rs"), "{at}");
    }
    let (verdict, error) = agent_guard::judge_safely("ls", &settings, Channel::default(), || {
        agent_guard::evaluate("rm -rf build", &settings)
    });
    assert_eq!((verdict.decision, error), (Decision::Deny, None));
}
