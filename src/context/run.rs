//! Asking git under the context deadline.

use std::path::Path;

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
