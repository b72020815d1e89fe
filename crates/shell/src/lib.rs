//! What a command line runs, read once: the shell walker ([`shell`]), the readers of code
//! handed to interpreters ([`lang`]), and what moves a command elsewhere, a task runner's
//! recipe or a channel to another place ([`motion`]). Readers only: nothing here judges.

#![forbid(unsafe_code)]
// What the hook runs must not panic: an error is handled, or a site that cannot fail says why.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

pub mod lang;
pub mod motion;
pub mod shell;

pub use agent_guard_syntax as syntax;
