//! Git as the guard runs it: one runner, so every git process sees the same environment and
//! keeps to the same rules, and the reader of what `git status` prints.
//!
//! ```text
//! run          start git, wait for it within a deadline, capture what it says
//! porcelain    read `git status --porcelain=v1 -z`
//! ```
//!
//! Depends on nothing else in the crate: the context, the guarded `rm` and the snapshots all
//! stand on it.

mod porcelain;
mod run;

pub use porcelain::porcelain;
pub use run::{Env, Error, Git, LOCATION, PATHSPEC_MAGIC, output};
