//! The hook and the command line as a user meets them: the exact Claude Code JSON printed
//! for deny and ask (golden files), the fail-safe cases that must stay silent, settings from
//! the environment, and the exit codes of `check` and `explain`.
//!
//! Regenerate the golden files with `AGENT_GUARD_BLESS=1 cargo test --test hook`.

mod common;

use common::{Sandbox, golden, test_file};

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(test_file(&format!("fixtures/claude-code/{name}"))).expect("fixture exists")
}

fn hook(input: &[u8], env: &[(&str, &str)]) -> (String, String, i32) {
    let sandbox = Sandbox::new();
    let mut cmd = sandbox.command();
    cmd.arg("hook").write_stdin(input.to_vec());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap(),
    )
}

/// Deny, ask, and a protected finding that stays a deny when asking: the exact bytes.
#[test]
fn stops_are_claude_codes_exact_json() {
    let ask = [("AGENT_GUARD_ON_DESTRUCTIVE", "ask")];
    type Env<'a> = &'a [(&'a str, &'a str)];
    let cases: [(&str, Env, &str); 3] = [
        ("bash-reset-hard.json", &[], "claude-code-deny.json"),
        ("bash-reset-hard.json", &ask, "claude-code-ask.json"),
        ("bash-clean-fdx.json", &ask, "claude-code-protected.json"),
    ];
    for (payload, env, expected) in cases {
        let (stdout, _, code) = hook(&fixture(payload), env);
        assert_eq!(code, 0, "{payload}");
        golden(expected, &stdout);
    }
}

#[test]
fn allowed_and_unreadable_calls_are_silent() {
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("safe command", fixture("bash-status.json")),
        ("non-shell tool", fixture("write-file.json")),
        ("not json", b"rm -rf /".to_vec()),
        ("empty stdin", Vec::new()),
        (
            "json array",
            br#"[{"tool_name":"Bash","tool_input":{"command":"rm -rf /"}}]"#.to_vec(),
        ),
        (
            "tool_input null",
            br#"{"tool_name":"Bash","tool_input":null}"#.to_vec(),
        ),
        (
            "tool_input false",
            br#"{"tool_name":"Bash","tool_input":false}"#.to_vec(),
        ),
        (
            "tool_input []",
            br#"{"tool_name":"Bash","tool_input":[]}"#.to_vec(),
        ),
        (
            "tool_input number",
            br#"{"tool_name":"Bash","tool_input":3}"#.to_vec(),
        ),
        (
            "empty command",
            br#"{"tool_name":"Bash","tool_input":{"command":""}}"#.to_vec(),
        ),
        (
            "invalid utf-8",
            b"{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"\xff\xfe\"}}".to_vec(),
        ),
        (
            // Once crashed tree-sitter-bash's scanner (C `isdigit` on a large code point).
            "brace before a large code point",
            "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"{\u{65e20}\"}}"
                .as_bytes()
                .to_vec(),
        ),
    ];
    for (what, input) in cases {
        let (stdout, stderr, code) = hook(&input, &[]);
        assert_eq!(
            (stdout.as_str(), stderr.as_str(), code),
            ("", "", 0),
            "{what}"
        );
    }
}

#[test]
fn off_switch_lets_everything_through() {
    let (stdout, _, code) = hook(&fixture("bash-clean-fdx.json"), &[("AGENT_GUARD_OFF", "1")]);
    assert_eq!((stdout.as_str(), code), ("", 0));
}

#[test]
fn a_bad_setting_is_reported_and_the_guard_still_guards() {
    let (stdout, stderr, code) = hook(
        &fixture("bash-reset-hard.json"),
        &[("AGENT_GUARD_PROFILE", "paranoid")],
    );
    assert_eq!(code, 0);
    assert!(stdout.contains("\"deny\""), "{stdout}");
    assert!(
        stderr.contains("AGENT_GUARD_PROFILE") && stderr.contains("standard or strict"),
        "{stderr}"
    );
}

#[test]
fn bare_invocation_with_piped_stdin_is_the_hook() {
    let sandbox = Sandbox::new();
    let out = sandbox
        .command()
        .write_stdin(fixture("bash-reset-hard.json"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("git.reset-hard"));
}

#[test]
fn check_exit_codes_and_output() {
    let sandbox = Sandbox::new();
    let run = |args: &[&str]| {
        let out = sandbox.command().arg("check").args(args).output().unwrap();
        (
            out.status.code().unwrap(),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let (code, stdout, _) = run(&["--", "git reset --soft HEAD~1"]);
    assert_eq!(
        (code, stdout.as_str()),
        (0, "allow: git reset --soft HEAD~1\n")
    );

    let (code, stdout, _) = run(&["--", "git", "push", "--force", "origin", "main"]);
    assert_eq!(code, 1);
    assert!(
        stdout.starts_with("deny: git push --force origin main\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("[git.push-force]") && stdout.contains("--force-with-lease"),
        "{stdout}"
    );

    let (code, stdout, _) = run(&["--json", "--profile", "strict", "rm notes.txt"]);
    assert_eq!(code, 1);
    golden("check-strict-rm.json", &stdout);

    let (code, _, stderr) = run(&["--profile", "paranoid", "ls"]);
    assert_eq!(code, 2, "{stderr}");
    let (code, _, _) = run(&[]);
    assert_eq!(code, 2);
    let (code, _, stderr) = run(&["--cwd", "/nonexistent/folder", "ls"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("not a directory"), "{stderr}");
}

#[test]
fn explain_prints_the_generated_page() {
    let sandbox = Sandbox::new();
    let out = sandbox
        .command()
        .args(["explain", "git.clean-force"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let page = std::fs::read_to_string(test_file("../docs/rules/git.clean-force.md")).unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), page);

    let out = sandbox
        .command()
        .args(["explain", "git.nope"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("agent-guard explain"));

    let out = sandbox.command().arg("explain").output().unwrap();
    let listing = String::from_utf8(out.stdout).unwrap();
    assert!(
        listing.lines().count() >= 15 && listing.contains("fs.rm-recursive"),
        "{listing}"
    );
}
