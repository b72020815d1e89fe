//! Checks the wiring the way the host will use it: find our entry in each settings file, run its
//! command exactly as configured with a synthetic payload in the host's own format, and read
//! the answer with the host's own rules. A destructive command must come back stopped, a
//! harmless one must not.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::hosts::{self, Kind};
use super::{Locations, Problem, Scope};
use crate::host::{self, Host};

/// What the wired command must stop.
pub const DESTRUCTIVE: &str = "git reset --hard HEAD~3";
/// What it must let through.
pub const SAFE: &str = "git status";
/// The SQL an MCP database tool hands it, which it must stop on the hosts that send MCP calls.
pub const DESTRUCTIVE_SQL: &str = "DROP TABLE agent_guard_doctor";
/// How long one run of the hook may take; hosts give up well before a hung hook gets this far.
const TIMEOUT: Duration = Duration::from_secs(10);

/// One entry of ours in a host's settings.
#[derive(Debug, Clone)]
pub struct Wired {
    pub scope: Scope,
    pub path: PathBuf,
    /// The command line as written in the file (for Cline, the command its script runs).
    pub command: String,
    run: Run,
    /// On the hosts that send MCP calls under an event of their own (Cursor, Windsurf): whether
    /// the same command is wired there too.
    pub mcp_event: Option<bool>,
}

/// How the host starts the command.
#[derive(Debug, Clone)]
enum Run {
    /// A command line, through this shell.
    Shell(&'static str),
    /// The file itself, as Cline runs its hook scripts.
    File(PathBuf),
}

/// Every entry of ours in `host`'s project and user settings.
pub fn wired(host: Host, loc: &Locations) -> Result<Vec<Wired>, Problem> {
    let mut found = Vec::new();
    for scope in [Scope::Project, Scope::User] {
        for target in hosts::targets(host, scope, loc, false)? {
            let Some(text) = hosts::read(&target.path)? else {
                continue;
            };
            let mcp_commands = match &target.kind {
                Kind::Json(before) => match hosts::mcp_layout(host, before) {
                    Some(layout) => Some(
                        super::json::commands(&text, &layout, &|c| super::is_ours(c, host))
                            .map_err(|e| Problem::at(&target.path, e))?,
                    ),
                    None => None,
                },
                _ => None,
            };
            for command in super::commands_in(&target, &text, host)? {
                let mcp_event = mcp_commands.as_ref().map(|found| found.contains(&command));
                let run = match target.kind {
                    Kind::ClineScript => Run::File(target.path.clone()),
                    _ => Run::Shell(host.spec().wiring.shell),
                };
                found.push(Wired {
                    scope,
                    path: target.path.clone(),
                    command,
                    run,
                    mcp_event,
                });
            }
        }
    }
    Ok(found)
}

/// How one wired command did.
#[derive(Debug, Clone)]
pub struct Health {
    /// Whether the command ran to the end both times; why not, when it did not.
    pub runs: Result<(), String>,
    /// The destructive command came back as the host's stop.
    pub stops: bool,
    /// The harmless command came back as no stop.
    pub passes: bool,
    /// What the hook printed for the destructive command, for the report when it did not stop.
    pub destructive_output: String,
    /// On the hosts that send MCP calls: the MCP tool's `DROP TABLE` came back as a stop.
    pub stops_mcp: Option<bool>,
}

impl Health {
    pub fn healthy(&self) -> bool {
        self.runs.is_ok() && self.stops && self.passes && self.stops_mcp != Some(false)
    }
}

/// Runs the wired command twice in `cwd`, with a destructive and a harmless payload.
pub fn examine(host: Host, wired: &Wired, cwd: &Path) -> Health {
    let destructive = run(wired, &host::probe(host, DESTRUCTIVE, cwd), cwd);
    let safe = run(wired, &host::probe(host, SAFE, cwd), cwd);
    let stops = matches!(&destructive, Ok((out, code)) if host::is_stop(host, out, *code));
    let passes = matches!(&safe, Ok((out, code)) if !host::is_stop(host, out, *code));
    // An MCP call on a host whose MCP event lacks our entry never reaches the hook.
    let stops_mcp = host::probe_mcp(host, DESTRUCTIVE_SQL, cwd).map(|payload| {
        wired.mcp_event != Some(false)
            && matches!(run(wired, &payload, cwd), Ok((out, code)) if host::is_stop(host, &out, code))
    });
    let destructive_output = match &destructive {
        Ok((out, code)) => format!("exit {code}, stdout {:?}", String::from_utf8_lossy(out)),
        Err(_) => String::new(),
    };
    let runs = match (destructive, safe) {
        (Err(why), _) | (_, Err(why)) => Err(why),
        _ => Ok(()),
    };
    Health {
        runs,
        stops,
        passes,
        destructive_output,
        stops_mcp,
    }
}

/// `command_line` as a program and its arguments, the shell's quoting taken off, when it is
/// no more than that (what install writes always is): a pipe, a redirection or an expansion
/// needs the shell, which the host has and this machine does not.
fn direct(command_line: &str) -> Option<Command> {
    let analysis = crate::shell::analyze(command_line);
    let [simple] = analysis.commands.as_slice() else {
        return None;
    };
    if analysis.incomplete.is_some()
        || analysis.syntax_error
        || !simple.redirects.is_empty()
        || !simple.assigns.is_empty()
    {
        return None;
    }
    let words: Option<Vec<&str>> = simple.argv.iter().map(|w| w.value()).collect();
    let (program, args) = words?.split_first().map(|(p, a)| (*p, a.to_vec()))?;
    let mut command = Command::new(program);
    command.args(args);
    Some(command)
}

/// Stdout and exit code of one run, or why it did not run to the end.
fn run(wired: &Wired, stdin: &[u8], cwd: &Path) -> Result<(Vec<u8>, i32), String> {
    // The check is of the wiring, not of the repository: with the git context off, the
    // destructive probe is judged by the rules alone, the same in every folder.
    // The probe's deny is audited like any other: keep it out of the user's log.
    let state = std::env::temp_dir().join(format!("agent-guard-doctor-{}", std::process::id()));
    let start = |mut command: Command| {
        command
            .env("AGENT_GUARD_CONTEXT", "off")
            .env("XDG_STATE_HOME", &state)
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
    };
    let started = match &wired.run {
        Run::Shell(shell) => {
            let mut through = Command::new(shell);
            through.arg("-c").arg(&wired.command);
            match start(through) {
                // No such shell here (Windows without Git Bash): the command's own words.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    let direct = direct(&wired.command).ok_or_else(|| {
                        format!(
                            "cannot start it: there is no `{shell}` here, and the command is more than a program and its words"
                        )
                    })?;
                    start(direct)
                }
                other => other,
            }
        }
        Run::File(path) => start(Command::new(path)),
    };
    let mut child = started.map_err(|e| format!("cannot start it: {e}"))?;
    let (Some(mut input), Some(stdout), Some(stderr)) =
        (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        let _ = child.kill();
        let _ = child.wait();
        return Err("cannot open its standard streams".into());
    };
    // Separate threads for the pipes, so that a hook that writes before it reads cannot
    // deadlock against us.
    let payload = stdin.to_vec();
    std::thread::spawn(move || input.write_all(&payload));
    let collect = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = collect(Box::new(stdout));
    let stderr = collect(Box::new(stderr));
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() < TIMEOUT => std::thread::sleep(Duration::from_millis(5)),
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("it did not finish within {} s", TIMEOUT.as_secs()));
            }
            Err(e) => return Err(format!("cannot wait for it: {e}")),
        }
    };
    let _ = std::fs::remove_dir_all(&state);
    let stdout = stdout.join().unwrap_or_default();
    let stderr = String::from_utf8_lossy(&stderr.join().unwrap_or_default())
        .trim()
        .to_string();
    match status.code() {
        // The shell's "cannot execute" and "not found".
        Some(code @ (126 | 127)) => Err(match stderr.lines().last() {
            Some(line) => line.to_string(),
            None => format!("the shell could not run it (exit {code})"),
        }),
        Some(code) => Ok((stdout, code)),
        None => Err("it was killed by a signal".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(command: &Command) -> Vec<String> {
        std::iter::once(command.get_program())
            .chain(command.get_args())
            .map(|s| s.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn a_plain_command_runs_without_a_shell() {
        let cases = [
            (
                "/opt/agent-guard hook --host claude",
                vec!["/opt/agent-guard", "hook", "--host", "claude"],
            ),
            (
                "'/opt/my tools/agent-guard' hook --host codex",
                vec!["/opt/my tools/agent-guard", "hook", "--host", "codex"],
            ),
            (
                "\"C:/Program Files/agent-guard/agent-guard.exe\" hook --host copilot",
                vec![
                    "C:/Program Files/agent-guard/agent-guard.exe",
                    "hook",
                    "--host",
                    "copilot",
                ],
            ),
        ];
        for (line, want) in cases {
            let command = direct(line).unwrap_or_else(|| panic!("{line}"));
            assert_eq!(argv(&command), want, "{line}");
        }
    }

    #[test]
    fn a_command_that_needs_the_shell_is_not_run_without_one() {
        for line in [
            "agent-guard hook --host claude 2>/dev/null",
            "agent-guard hook --host claude | tee log",
            "AGENT_GUARD_OFF=1 agent-guard hook --host claude",
            "$HOME/bin/agent-guard hook --host claude",
            "cd /x && agent-guard hook --host claude",
        ] {
            assert!(direct(line).is_none(), "{line}");
        }
    }
}
