//! Every host's hook dialect through the real binary: payloads shaped as each host sends them
//! (tests/fixtures/<host>/) go in, with `--host NAME` and with the dialect left to the payload's
//! shape, and the exact bytes, stream and exit code the host reads come out (golden files under
//! tests/golden/). Then each host's `probe` payload, answered by the binary, must read as a
//! stop (or not) under that host's `is_stop`: the round trip `doctor` relies on.
//!
//! Regenerate the golden files with `AGENT_GUARD_BLESS=1 cargo test --test hosts`.

mod common;

use std::collections::HashSet;
use std::sync::{LazyLock, Mutex};

use agent_guard::host::{self, Host};
use common::{Sandbox, fail_if_any, par_map, test_file};

/// What the hook must answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Want {
    /// Exit 0, nothing on stdout or stderr: the host's "no opinion".
    Silent,
    /// Exit 0, stdout exactly tests/golden/<name>, nothing on stderr.
    Stdout(&'static str),
    /// Exit 2, nothing on stdout, stderr exactly tests/golden/<name>.
    Stderr(&'static str),
}

use Want::{Silent, Stderr, Stdout};

/// One payload, and what it gets with `--host` and when the dialect is detected.
struct Case {
    host: Host,
    fixture: &'static str,
    /// `AGENT_GUARD_ON_DESTRUCTIVE=ask`.
    ask: bool,
    named: Want,
    detected: Want,
}

fn case(host: Host, fixture: &'static str, ask: bool, want: Want) -> Case {
    Case {
        host,
        fixture,
        ask,
        named: want,
        detected: want,
    }
}

const DENY: bool = false;
const ASK: bool = true;

fn cases() -> Vec<Case> {
    use Host::*;
    vec![
        // MCP tools reach Claude Code's hook as `mcp__<server>__<tool>`.
        case(
            ClaudeCode,
            "mcp-postgres-drop.json",
            DENY,
            Stdout("claude-mcp-drop-table-deny.json"),
        ),
        case(ClaudeCode, "mcp-postgres-select.json", DENY, Silent),
        // Codex: no ask, so an ask is a deny that says to ask; a protected command stays a
        // plain deny; the `bash -lc` form and the legacy argv shape are read through.
        case(
            Codex,
            "bash-reset-hard.json",
            DENY,
            Stdout("codex-reset-hard-deny.json"),
        ),
        case(
            Codex,
            "bash-reset-hard.json",
            ASK,
            Stdout("codex-reset-hard-ask.json"),
        ),
        case(
            Codex,
            "bash-lc-clean.json",
            ASK,
            Stdout("codex-lc-clean-protected.json"),
        ),
        case(
            Codex,
            "exec-command-legacy.json",
            DENY,
            Stdout("codex-legacy-deny.json"),
        ),
        case(Codex, "bash-status.json", DENY, Silent),
        case(Codex, "bash-status.json", ASK, Silent),
        case(
            Codex,
            "mcp-supabase-reset.json",
            DENY,
            Stdout("codex-mcp-reset-branch-deny.json"),
        ),
        case(Codex, "apply-patch.json", DENY, Silent),
        case(Codex, "mcp-tool.json", DENY, Silent),
        case(Codex, "malformed.json", DENY, Silent),
        case(
            Gemini,
            "shell-reset-hard.json",
            DENY,
            Stdout("gemini-reset-hard-deny.json"),
        ),
        case(
            Gemini,
            "shell-reset-hard.json",
            ASK,
            Stdout("gemini-reset-hard-ask.json"),
        ),
        case(
            Gemini,
            "mcp-kubectl-delete.json",
            DENY,
            Stdout("gemini-mcp-kubectl-delete-deny.json"),
        ),
        case(Gemini, "shell-status.json", DENY, Silent),
        case(Gemini, "write-file.json", DENY, Silent),
        case(Gemini, "malformed.json", DENY, Silent),
        // Cursor: beforeShellExecution can ask; preToolUse cannot.
        case(
            Cursor,
            "before-shell-reset-hard.json",
            DENY,
            Stdout("cursor-before-shell-deny.json"),
        ),
        case(
            Cursor,
            "before-shell-reset-hard.json",
            ASK,
            Stdout("cursor-before-shell-ask.json"),
        ),
        case(
            Cursor,
            "pre-tool-use-reset-hard.json",
            DENY,
            Stdout("cursor-pre-tool-use-deny.json"),
        ),
        case(
            Cursor,
            "pre-tool-use-reset-hard.json",
            ASK,
            Stdout("cursor-pre-tool-use-ask.json"),
        ),
        case(
            Cursor,
            "before-mcp-drop.json",
            DENY,
            Stdout("cursor-before-mcp-deny.json"),
        ),
        case(Cursor, "before-shell-status.json", DENY, Silent),
        case(Cursor, "pre-tool-use-read.json", DENY, Silent),
        case(Cursor, "malformed.json", DENY, Silent),
        case(
            Copilot,
            "bash-reset-hard.json",
            DENY,
            Stdout("copilot-reset-hard-deny.json"),
        ),
        case(
            Copilot,
            "bash-reset-hard.json",
            ASK,
            Stdout("copilot-reset-hard-ask.json"),
        ),
        // The PascalCase dialect is Claude Code's shape: only `--host copilot` tells them apart.
        Case {
            host: Copilot,
            fixture: "pascal-reset-hard.json",
            ask: DENY,
            named: Stdout("copilot-pascal-deny.json"),
            detected: Stdout("copilot-pascal-detected-deny.json"),
        },
        case(Copilot, "bash-status-object.json", DENY, Silent),
        case(Copilot, "edit-file.json", DENY, Silent),
        case(Copilot, "malformed.json", DENY, Silent),
        case(
            Droid,
            "execute-reset-hard.json",
            DENY,
            Stdout("droid-reset-hard-deny.json"),
        ),
        case(
            Droid,
            "execute-reset-hard.json",
            ASK,
            Stdout("droid-reset-hard-ask.json"),
        ),
        case(
            Droid,
            "mcp-neon-delete.json",
            DENY,
            Stdout("droid-mcp-delete-project-deny.json"),
        ),
        case(Droid, "execute-status.json", DENY, Silent),
        case(Droid, "create-file.json", DENY, Silent),
        case(Droid, "malformed.json", DENY, Silent),
        // Kiro and Windsurf: exit 2 and the reason on stderr; no ask.
        case(
            Kiro,
            "execute-bash-reset-hard.json",
            DENY,
            Stderr("kiro-reset-hard-deny.txt"),
        ),
        case(
            Kiro,
            "execute-bash-reset-hard.json",
            ASK,
            Stderr("kiro-reset-hard-ask.txt"),
        ),
        case(Kiro, "shell-status.json", DENY, Silent),
        case(Kiro, "fs-write.json", DENY, Silent),
        case(Kiro, "malformed.json", DENY, Silent),
        case(
            Windsurf,
            "run-command-reset-hard.json",
            DENY,
            Stderr("windsurf-reset-hard-deny.txt"),
        ),
        case(
            Windsurf,
            "run-command-reset-hard.json",
            ASK,
            Stderr("windsurf-reset-hard-ask.txt"),
        ),
        case(
            Windsurf,
            "pre-mcp-delete.json",
            DENY,
            Stderr("windsurf-mcp-d1-delete-deny.txt"),
        ),
        case(Windsurf, "run-command-status.json", DENY, Silent),
        case(Windsurf, "write-code.json", DENY, Silent),
        case(Windsurf, "malformed.json", DENY, Silent),
        case(
            Cline,
            "execute-command-reset-hard.json",
            DENY,
            Stdout("cline-execute-command-deny.json"),
        ),
        case(
            Cline,
            "execute-command-reset-hard.json",
            ASK,
            Stdout("cline-execute-command-ask.json"),
        ),
        case(
            Cline,
            "run-commands-reset-hard.json",
            DENY,
            Stdout("cline-run-commands-deny.json"),
        ),
        case(
            Cline,
            "use-mcp-tool-drop.json",
            DENY,
            Stdout("cline-mcp-drop-collection-deny.json"),
        ),
        case(Cline, "run-commands-status.json", DENY, Silent),
        case(Cline, "write-file.json", DENY, Silent),
        case(Cline, "malformed.json", DENY, Silent),
        // Qwen Code: Claude Code's answer, ask included, to Gemini's shell tool.
        case(
            Qwen,
            "shell-reset-hard.json",
            DENY,
            Stdout("qwen-reset-hard-deny.json"),
        ),
        case(
            Qwen,
            "shell-reset-hard.json",
            ASK,
            Stdout("qwen-reset-hard-ask.json"),
        ),
        case(Qwen, "shell-status.json", DENY, Silent),
        case(Qwen, "write-file.json", DENY, Silent),
        case(Qwen, "malformed.json", DENY, Silent),
        case(
            Qwen,
            "mcp-postgres-drop.json",
            DENY,
            Stdout("qwen-mcp-postgres-drop-deny.json"),
        ),
        case(Qwen, "mcp-postgres-select.json", DENY, Silent),
        // Auggie: Claude Code's deny; it runs the tool on an ask, so an ask is a deny.
        case(
            Auggie,
            "launch-process-reset-hard.json",
            DENY,
            Stdout("auggie-reset-hard-deny.json"),
        ),
        case(
            Auggie,
            "launch-process-reset-hard.json",
            ASK,
            Stdout("auggie-reset-hard-ask.json"),
        ),
        case(Auggie, "bash-status.json", DENY, Silent),
        case(Auggie, "remove-files.json", DENY, Silent),
        case(Auggie, "malformed.json", DENY, Silent),
        // Vibe: `decision: deny` on exit 0; no ask.
        case(
            Vibe,
            "bash-reset-hard.json",
            DENY,
            Stdout("vibe-reset-hard-deny.json"),
        ),
        case(
            Vibe,
            "bash-reset-hard.json",
            ASK,
            Stdout("vibe-reset-hard-ask.json"),
        ),
        case(
            Vibe,
            "process-start-reset-hard.json",
            DENY,
            Stdout("vibe-process-start-deny.json"),
        ),
        case(Vibe, "bash-status.json", DENY, Silent),
        case(Vibe, "write-file.json", DENY, Silent),
        case(Vibe, "malformed.json", DENY, Silent),
        case(
            Vibe,
            "mcp-postgres-drop.json",
            DENY,
            Stdout("vibe-mcp-postgres-drop-deny.json"),
        ),
        case(Vibe, "mcp-postgres-select.json", DENY, Silent),
        // Kimi Code: Claude Code's deny on exit 0; no ask. The legacy engine's payload has no
        // `client_type` and is read as Claude Code's, whose deny is the same.
        case(
            Kimi,
            "bash-reset-hard.json",
            DENY,
            Stdout("kimi-reset-hard-deny.json"),
        ),
        case(
            Kimi,
            "bash-reset-hard.json",
            ASK,
            Stdout("kimi-reset-hard-ask.json"),
        ),
        case(
            Kimi,
            "legacy-reset-hard.json",
            DENY,
            Stdout("kimi-reset-hard-deny.json"),
        ),
        case(Kimi, "bash-status.json", DENY, Silent),
        case(Kimi, "write-file.json", DENY, Silent),
        case(Kimi, "malformed.json", DENY, Silent),
        case(
            Kimi,
            "mcp-postgres-drop.json",
            DENY,
            Stdout("kimi-mcp-postgres-drop-deny.json"),
        ),
        case(Kimi, "mcp-postgres-select.json", DENY, Silent),
        // Crush: `decision: deny` on exit 0; no ask.
        case(
            Crush,
            "bash-reset-hard.json",
            DENY,
            Stdout("crush-reset-hard-deny.json"),
        ),
        case(
            Crush,
            "bash-reset-hard.json",
            ASK,
            Stdout("crush-reset-hard-ask.json"),
        ),
        case(Crush, "bash-status.json", DENY, Silent),
        case(Crush, "edit-file.json", DENY, Silent),
        case(Crush, "malformed.json", DENY, Silent),
        case(
            Crush,
            "mcp-postgres-drop.json",
            DENY,
            Stdout("crush-mcp-postgres-drop-deny.json"),
        ),
        case(Crush, "mcp-postgres-select.json", DENY, Silent),
        // Qoder CLI: Claude Code's protocol, ask included; detected as Claude Code, whose answer
        // is the same.
        case(
            Qoder,
            "bash-reset-hard.json",
            DENY,
            Stdout("qoder-reset-hard-deny.json"),
        ),
        case(
            Qoder,
            "bash-reset-hard.json",
            ASK,
            Stdout("qoder-reset-hard-ask.json"),
        ),
        case(
            Qoder,
            "mcp-docker-volume.json",
            DENY,
            Stdout("qoder-mcp-remove-volume-deny.json"),
        ),
        case(Qoder, "bash-status.json", DENY, Silent),
        case(Qoder, "write-file.json", DENY, Silent),
        case(Qoder, "malformed.json", DENY, Silent),
        // Grok Build, Antigravity CLI, Hermes Agent: a JSON block on exit 0; no ask.
        case(
            Grok,
            "terminal-reset-hard.json",
            DENY,
            Stdout("grok-reset-hard-deny.json"),
        ),
        case(
            Grok,
            "terminal-reset-hard.json",
            ASK,
            Stdout("grok-reset-hard-ask.json"),
        ),
        case(Grok, "terminal-status.json", DENY, Silent),
        case(Grok, "edit-file.json", DENY, Silent),
        case(Grok, "malformed.json", DENY, Silent),
        case(
            Antigravity,
            "run-command-reset-hard.json",
            DENY,
            Stdout("antigravity-reset-hard-deny.json"),
        ),
        case(
            Antigravity,
            "run-command-reset-hard.json",
            ASK,
            Stdout("antigravity-reset-hard-ask.json"),
        ),
        case(Antigravity, "run-command-status.json", DENY, Silent),
        case(Antigravity, "write-file.json", DENY, Silent),
        case(Antigravity, "malformed.json", DENY, Silent),
        case(
            Hermes,
            "terminal-reset-hard.json",
            DENY,
            Stdout("hermes-reset-hard-deny.json"),
        ),
        case(
            Hermes,
            "terminal-reset-hard.json",
            ASK,
            Stdout("hermes-reset-hard-ask.json"),
        ),
        case(Hermes, "terminal-status.json", DENY, Silent),
        case(Hermes, "write-file.json", DENY, Silent),
        case(Hermes, "malformed.json", DENY, Silent),
        case(
            Hermes,
            "mcp-reset-branch.json",
            DENY,
            Stdout("hermes-mcp-reset-branch-deny.json"),
        ),
        case(Hermes, "mcp-list-tables.json", DENY, Silent),
    ]
}

/// Exit code, stdout and stderr of `agent-guard hook [--host NAME]` fed `input`.
fn hook(host: Option<Host>, input: &[u8], ask: bool) -> (i32, Vec<u8>, Vec<u8>) {
    let sandbox = Sandbox::new();
    let mut cmd = sandbox.command();
    cmd.arg("hook");
    if let Some(host) = host {
        cmd.args(["--host", host.name()]);
    }
    if ask {
        cmd.env("AGENT_GUARD_ON_DESTRUCTIVE", "ask");
    }
    let out = cmd
        .write_stdin(input.to_vec())
        .output()
        .expect("the hook runs");
    (out.status.code().unwrap_or(-1), out.stdout, out.stderr)
}

/// Golden files written in this run, so that a second use of one is compared, not rewritten.
static BLESSED: LazyLock<Mutex<HashSet<&'static str>>> = LazyLock::new(Mutex::default);

/// `actual` against tests/golden/<name>, which it first rewrites when blessing.
fn golden(name: &'static str, actual: &[u8]) -> Result<(), String> {
    let path = test_file(&format!("golden/{name}"));
    if std::env::var_os("AGENT_GUARD_BLESS").is_some() && BLESSED.lock().unwrap().insert(name) {
        std::fs::write(&path, actual).map_err(|e| format!("{name}: {e}"))?;
    }
    let expected = std::fs::read(&path).unwrap_or_default();
    if actual == expected {
        Ok(())
    } else {
        Err(format!(
            "differs from tests/golden/{name} (rerun with AGENT_GUARD_BLESS=1 if intended): {:?}",
            String::from_utf8_lossy(actual)
        ))
    }
}

/// Checks one answer against `want`; with `protocol`, also that the host reads it as a stop
/// exactly when one is wanted.
fn check(
    want: Want,
    (code, stdout, stderr): &(i32, Vec<u8>, Vec<u8>),
    protocol: Option<Host>,
) -> Result<(), String> {
    let (want_code, golden_stream, empty_stream) = match want {
        Silent => (0, None, None),
        Stdout(name) => (0, Some((name, stdout)), Some(stderr)),
        Stderr(name) => (2, Some((name, stderr)), Some(stdout)),
    };
    if *code != want_code {
        return Err(format!("exit {code}, want {want_code}"));
    }
    match (golden_stream, empty_stream) {
        (Some((name, bytes)), Some(other)) => {
            golden(name, bytes)?;
            if !other.is_empty() {
                return Err(format!(
                    "unexpected output {:?}",
                    String::from_utf8_lossy(other)
                ));
            }
        }
        _ => {
            if !stdout.is_empty() || !stderr.is_empty() {
                return Err(format!(
                    "not silent: stdout {:?}, stderr {:?}",
                    String::from_utf8_lossy(stdout),
                    String::from_utf8_lossy(stderr)
                ));
            }
        }
    }
    if let Some(host) = protocol
        && host::is_stop(host, stdout, *code) != (want != Silent)
    {
        return Err(format!("is_stop({host:?}) disagrees with {want:?}"));
    }
    Ok(())
}

#[test]
fn every_host_gets_its_exact_answer() {
    let cases = cases();
    let failures: Vec<String> = par_map(&cases, |c| {
        let dir = match c.host {
            Host::ClaudeCode => "claude-code",
            other => other.name(),
        };
        let path = test_file(&format!("fixtures/{dir}/{}", c.fixture));
        let input = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mode = if c.ask { "ask" } else { "deny" };
        let named = check(c.named, &hook(Some(c.host), &input, c.ask), Some(c.host));
        let detected = check(c.detected, &hook(None, &input, c.ask), None);
        [("--host", named), ("detected", detected)]
            .into_iter()
            .filter_map(|(how, result)| {
                result
                    .err()
                    .map(|e| format!("{dir}/{} ({mode}, {how}): {e}", c.fixture))
            })
            .collect::<Vec<_>>()
    })
    .into_iter()
    .flatten()
    .collect();
    fail_if_any("host answers", &failures);
}

#[test]
fn every_fixture_folder_names_its_source() {
    for host in Host::ALL.into_iter().filter(|h| *h != Host::ClaudeCode) {
        let readme = test_file(&format!("fixtures/{}/README.md", host.name()));
        let text = std::fs::read_to_string(&readme).unwrap_or_default();
        assert!(text.starts_with("# "), "{} is missing", readme.display());
    }
}

/// Without `--host`, each fixture that holds a shell command is read as its own host's, so no
/// host's payloads pass for another's. Those that carry Claude Code's fields and nothing else
/// are read as Claude Code's, which answers them as their host would: Qoder CLI's, Kimi Code's
/// legacy engine's and Copilot's PascalCase dialect.
#[test]
fn every_fixture_is_read_as_its_own_hosts() {
    const CLAUDE_SHAPED: [&str; 3] = ["qoder/", "kimi/legacy-", "copilot/pascal-"];
    let mut failures = Vec::new();
    for host in Host::ALL {
        let dir = match host {
            Host::ClaudeCode => "claude-code",
            _ => host.name(),
        };
        let entries = std::fs::read_dir(test_file(&format!("fixtures/{dir}"))).unwrap();
        for entry in entries {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|ext| ext != "json") {
                continue;
            }
            let name = format!("{dir}/{}", path.file_name().unwrap().to_string_lossy());
            let want = match CLAUDE_SHAPED.iter().any(|p| name.starts_with(p)) {
                true => Host::ClaudeCode,
                false => host,
            };
            let read = host::decode(&std::fs::read(&path).unwrap(), None).map(|c| c.host);
            match read {
                Some(got) if got != want => failures.push(format!("{name}: read as {got:?}")),
                None if name.contains("reset-hard") => failures.push(format!("{name}: not read")),
                _ => {}
            }
        }
    }
    fail_if_any("fixtures read as another host's", &failures);
}

/// Garbage, and another host's payload, get no opinion from a named host.
#[test]
fn a_named_host_lets_what_it_cannot_read_pass() {
    let claude = std::fs::read(test_file("fixtures/claude-code/bash-reset-hard.json")).unwrap();
    let gemini = std::fs::read(test_file("fixtures/gemini/shell-reset-hard.json")).unwrap();
    let mut runs: Vec<(Host, Vec<u8>)> = Vec::new();
    for host in Host::ALL {
        for input in [
            &b""[..],
            b"rm -rf /",
            b"[]",
            b"null",
            b"{}",
            b"{\"command\":\"rm -rf /\"}",
        ] {
            runs.push((host, input.to_vec()));
        }
    }
    for host in [
        Host::Gemini,
        Host::Cursor,
        Host::Droid,
        Host::Kiro,
        Host::Windsurf,
        Host::Cline,
        Host::Qwen,
        Host::Auggie,
        Host::Vibe,
        Host::Crush,
    ] {
        runs.push((host, claude.clone()));
    }
    for host in [
        Host::ClaudeCode,
        Host::Codex,
        Host::Cursor,
        Host::Droid,
        Host::Kiro,
        Host::Qwen,
        Host::Auggie,
        Host::Vibe,
        Host::Kimi,
        Host::Crush,
        Host::Qoder,
    ] {
        runs.push((host, gemini.clone()));
    }
    // Qwen Code's payload is Gemini's shell tool under Claude Code's event name: Claude Code
    // does not read it as a shell command of its own. (`--host gemini` judges it: Gemini's
    // adapter goes by the tool name alone.)
    let qwen = std::fs::read(test_file("fixtures/qwen/shell-reset-hard.json")).unwrap();
    for host in [
        Host::ClaudeCode,
        Host::Auggie,
        Host::Vibe,
        Host::Kimi,
        Host::Crush,
        Host::Qoder,
    ] {
        runs.push((host, qwen.clone()));
    }
    // Crush's payload says `event`, Kimi's tool is `Bash`: neither reads the other's.
    let crush = std::fs::read(test_file("fixtures/crush/bash-reset-hard.json")).unwrap();
    let kimi = std::fs::read(test_file("fixtures/kimi/bash-reset-hard.json")).unwrap();
    for host in [Host::Gemini, Host::Qwen, Host::Kimi, Host::Qoder] {
        runs.push((host, crush.clone()));
    }
    // The new hosts' payloads are each their own: no other host reads them, and they read
    // no other host's.
    let theirs = [
        "grok/terminal-reset-hard.json",
        "antigravity/run-command-reset-hard.json",
        "hermes/terminal-reset-hard.json",
    ];
    for fixture in theirs {
        let payload = std::fs::read(test_file(&format!("fixtures/{fixture}"))).unwrap();
        for host in Host::ALL {
            if !fixture.starts_with(&format!("{}/", host.name())) {
                runs.push((host, payload.clone()));
            }
        }
    }
    for host in [Host::Grok, Host::Antigravity, Host::Hermes] {
        for payload in [&claude, &gemini, &crush, &kimi] {
            runs.push((host, payload.clone()));
        }
    }
    for host in [
        Host::Gemini,
        Host::Qwen,
        Host::Crush,
        Host::Auggie,
        Host::Vibe,
    ] {
        runs.push((host, kimi.clone()));
    }
    let failures: Vec<String> = par_map(&runs, |(host, input)| {
        check(Silent, &hook(Some(*host), input, false), Some(*host))
            .err()
            .map(|e| {
                format!(
                    "--host {} on {:?}: {e}",
                    host.name(),
                    String::from_utf8_lossy(input)
                )
            })
    })
    .into_iter()
    .flatten()
    .collect();
    fail_if_any("named host on a foreign payload", &failures);
}

/// What `doctor` does: the host's probe payload through the hook, read back by `is_stop`.
#[test]
fn probe_hook_is_stop_round_trip() {
    let mut runs = Vec::new();
    for host in Host::ALL {
        for named in [true, false] {
            for ask in [false, true] {
                for (command, stops) in [("git reset --hard HEAD~3", true), ("git status", false)] {
                    runs.push((host, named, ask, command, stops));
                }
            }
        }
    }
    let failures: Vec<String> = par_map(&runs, |&(host, named, ask, command, stops)| {
        let sandbox = Sandbox::new();
        let payload = host::probe(host, command, &sandbox.cwd());
        let (code, stdout, _) = hook(named.then_some(host), &payload, ask);
        (host::is_stop(host, &stdout, code) != stops).then(|| {
            format!(
                "{} (named: {named}, ask: {ask}) `{command}`: exit {code}, stdout {:?}",
                host.name(),
                String::from_utf8_lossy(&stdout)
            )
        })
    })
    .into_iter()
    .flatten()
    .collect();
    fail_if_any("probe round trip", &failures);
}

/// `--yes-i-know` comes off the command in the reply of a host that can rewrite (golden, every
/// other field of the tool input carried through, no stop), and a host that cannot is told to
/// use the prefix instead.
#[test]
fn the_new_hosts_rewrite_or_name_the_prefix() {
    const COMMAND: &str = "git reset --hard origin/main";
    let flagged = |fixture: &str| {
        let text = std::fs::read_to_string(test_file(&format!("fixtures/{fixture}"))).unwrap();
        assert!(text.contains(COMMAND), "{fixture}");
        text.replace(COMMAND, &format!("{COMMAND} --yes-i-know"))
    };
    let rewrites = [
        (
            Host::Auggie,
            "auggie/launch-process-reset-hard.json",
            "auggie-rewrite.json",
            "/hookSpecificOutput/updatedInput",
        ),
        (
            Host::Vibe,
            "vibe/bash-reset-hard.json",
            "vibe-rewrite.json",
            "/hook_specific_output/tool_input",
        ),
        (
            Host::Crush,
            "crush/bash-reset-hard.json",
            "crush-rewrite.json",
            "/updated_input",
        ),
        (
            Host::Qoder,
            "qoder/bash-reset-hard.json",
            "qoder-rewrite.json",
            "/hookSpecificOutput/updatedInput",
        ),
    ];
    for (host, fixture, name, rewrite_at) in rewrites {
        let input = flagged(fixture);
        let answer = hook(Some(host), input.as_bytes(), false);
        check(Stdout(name), &answer, None).unwrap_or_else(|e| panic!("{fixture}: {e}"));
        assert!(
            !host::is_stop(host, &answer.1, 0),
            "{fixture}: a rewrite is no stop"
        );
        let payload: serde_json::Value = serde_json::from_str(&input).unwrap();
        let reply: serde_json::Value = serde_json::from_slice(&answer.1).unwrap();
        let mut want = payload["tool_input"].clone();
        want["command"] = COMMAND.into();
        assert_eq!(reply.pointer(rewrite_at), Some(&want), "{fixture}");
    }
    for (host, fixture) in [
        (Host::Qwen, "qwen/shell-reset-hard.json"),
        (Host::Kimi, "kimi/bash-reset-hard.json"),
    ] {
        let (code, stdout, _) = hook(Some(host), flagged(fixture).as_bytes(), false);
        assert!(host::is_stop(host, &stdout, code), "{fixture}");
        let said = String::from_utf8_lossy(&stdout);
        assert!(
            said.contains("cannot take `--yes-i-know` off the command"),
            "{fixture}: {said}"
        );
    }
}
