//! Asking git, and the other version control tools a pack asks about, under the context
//! deadline. The process itself runs through the one runner in [`crate::git`].

use std::path::Path;
use std::process::Command;

use super::Context;
use crate::git::{Env, Git};

/// Runs `git <globals> <args>` in `dir` and returns its stdout when it exits 0 in time.
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
    let env = match env {
        Some(env) => Env::Inherited(env),
        None => Env::Folder,
    };
    let out = Git::new(dir)
        .globals(globals)
        .env(env)
        .deadline(ctx.deadline)
        .run(args)
        .ok()?;
    Some(String::from_utf8_lossy(&out).into_owned())
}

/// Runs `command` (its program, arguments, folder and environment set) with no input and
/// returns its stdout when it exits 0 before the deadline.
pub(super) fn output(ctx: &Context, mut command: Command) -> Option<String> {
    command.env("LC_ALL", "C");
    let out = crate::git::output(command, None, Some(ctx.deadline)).ok()?;
    Some(String::from_utf8_lossy(&out).into_owned())
}
