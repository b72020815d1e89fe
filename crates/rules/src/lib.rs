//! The rules and packs that judge what the readers found, and the settings they are judged
//! under. Nothing here looks at the repository: that is the context's, after the rules.

#![forbid(unsafe_code)]
// What the hook runs must not panic: an error is handled, or a site that cannot fail says why.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

pub mod rules;
pub mod settings;
pub mod team;
pub mod tools;
pub mod units;

pub use agent_guard_shell::{lang, motion, shell, syntax};
