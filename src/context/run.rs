//! Running git, and the other version control tools a pack asks about, under the context
//! deadline.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::Context;

/// Variables that tell git which repository, index or object store to use.
const LOCATION: &[&str] = &[
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_COMMON_DIR",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_NAMESPACE",
];

/// Runs `git <globals> <args>` in `dir` and returns its stdout when it exits 0 in time.
/// Read-only: optional locks are off, pagers, prompts and hooks are never involved.
///
/// `env` is the environment the agent's own git command runs with, added to the one this
/// process inherited; `None` asks about whatever repository holds `dir`, whatever this
/// process's environment names.
pub(super) fn git(
    ctx: &Context,
    dir: &Path,
    env: Option<&[(String, String)]>,
    globals: &[String],
    args: &[&str],
) -> Option<String> {
    let mut command = Command::new("git");
    match env {
        Some(env) => {
            command.envs(env.iter().map(|(k, v)| (k, v)));
        }
        None => {
            for name in LOCATION {
                command.env_remove(name);
            }
        }
    }
    command
        .arg("--no-optional-locks")
        .args(globals)
        .args(args)
        .current_dir(dir)
        .env("GIT_OPTIONAL_LOCKS", "0")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env_remove("GIT_PAGER");
    output(ctx, command)
}

/// Runs `command` (its program, arguments, folder and environment set) with no input and
/// returns its stdout when it exits 0 before the deadline.
pub(super) fn output(ctx: &Context, mut command: Command) -> Option<String> {
    let left = ctx.time_left()?;
    let mut child = command
        .env("LC_ALL", "C")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    // Read stdout on a thread, so a large answer cannot block the child, and wait for its
    // end with the deadline: the end of the output is, in practice, the end of the process.
    let mut stdout = child.stdout.take()?;
    let (done, ended) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut out = Vec::new();
        let _ = done.send(stdout.read_to_end(&mut out).map(|_| out));
    });
    let until = Instant::now() + left;
    let Ok(Ok(out)) = ended.recv_timeout(left) else {
        let _ = child.kill();
        let _ = child.wait();
        return None;
    };
    let mut pause = Duration::from_micros(20);
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < until => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_micros(250));
            }
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    };
    status
        .success()
        .then(|| String::from_utf8_lossy(&out).into_owned())
}

/// `git status --porcelain=v1 -z` entries as (status code, path); renames name the new path.
pub(super) fn porcelain(out: &str) -> Vec<(String, String)> {
    let mut entries = Vec::new();
    let mut fields = out.split('\0').filter(|f| f.len() > 3);
    while let Some(entry) = fields.next() {
        let (code, path) = entry.split_at(3);
        if code.starts_with('R') || code.starts_with('C') {
            fields.next(); // the path it was renamed or copied from
        }
        entries.push((code.trim().to_string(), path.to_string()));
    }
    entries
}
