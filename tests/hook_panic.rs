//! The hook path when judging panics: a destructive line stops, a harmless one passes, and
//! the panic goes to the audit log with where it was raised. The judging is handed in as a
//! closure, so no input, flag or variable of the real binary can make the guard fail.
//!
//! This file holds one test: it points HOME and the state directory at a scratch folder
//! for the whole process, which no other test may share.

use std::path::Path;
use std::time::Instant;

use agent_guard::audit;
use agent_guard::cli::hook;
use agent_guard::host::{self, Host, Reply};
use agent_guard::policy::{Channel, Verdict};
use agent_guard::settings::Settings;
use agent_guard::shell::Dialect;

/// The hook's reply to `command`, judged by a judge that panics.
fn respond_panicking(command: &str, cwd: &Path) -> Reply {
    let payload = host::probe(Host::ClaudeCode, command, cwd);
    let judge = |_: &str, _: Dialect, _: Option<&Path>, _: &Settings, _: Channel| -> Verdict {
        panic!("forced failure")
    };
    hook::respond_with(&payload, Some(Host::ClaudeCode), Instant::now(), judge)
}

#[test]
fn a_panic_in_the_hook_stops_a_destructive_line_allows_a_harmless_one_and_is_logged() {
    let scratch = tempfile::tempdir().unwrap();
    let (home, work) = (scratch.path().join("home"), scratch.path().join("work"));
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    // SAFETY: this test binary runs this one test; nothing else reads the environment while
    // it is changed.
    unsafe {
        std::env::set_var("HOME", &home);
        std::env::set_var("XDG_STATE_HOME", home.join("state"));
        for (name, _) in std::env::vars_os() {
            let name = name.to_string_lossy().into_owned();
            if name.starts_with("AGENT_GUARD_") || name == "XDG_CONFIG_HOME" {
                std::env::remove_var(name);
            }
        }
    }
    let log = audit::log_path().unwrap();
    assert!(log.starts_with(&home));

    let stop = respond_panicking("rm -rf build", &work);
    let out = stop.stdout.expect("a stop is written on stdout");
    assert!(out.contains("\"deny\""), "{out}");
    assert!(out.contains("shell.unanalyzable"), "{out}");
    assert_eq!(stop.exit_code, 0);

    let pass = respond_panicking("ls -la", &work);
    assert_eq!((pass.stdout, pass.exit_code), (None, 0));

    let long = format!("echo {}", "x".repeat(100_000));
    let pass = respond_panicking(&long, &work);
    assert_eq!(pass.stdout, None);

    // Garbage never reaches the judge, and is no internal error.
    let garbage = hook::respond_with(b"{not json", None, Instant::now(), |_, _, _, _, _| {
        panic!("never judged")
    });
    assert_eq!((garbage.stdout, garbage.exit_code), (None, 0));

    let (records, bad) = audit::read(&log).unwrap();
    assert_eq!(bad, 0);
    let summary: Vec<(&str, Vec<&str>)> = records
        .iter()
        .map(|r| {
            let rules = r.rules.iter().map(String::as_str).collect();
            (r.decision.as_str(), rules)
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("deny", vec!["shell.unanalyzable"]),
            ("error", vec![]),
            ("error", vec![])
        ]
    );
    for record in &records {
        let error = record.error.as_deref().unwrap();
        assert!(error.contains("forced failure"), "{error}");
        assert!(error.contains("hook_panic.rs"), "{error}");
    }
    assert_eq!(records[0].command, "rm -rf build");
    let kept = &records[2].command;
    assert!(kept.len() < 3000, "{} bytes", kept.len());
    assert!(kept.ends_with("(100005 bytes)"), "{kept}");
}
