//! The guarded way to delete: `agent-guard rm --root DIR PATH...` (seed 004).
//!
//! It removes only inspected, untracked local outputs inside an explicit root, and refuses
//! targets another agent has claimed. Every target is resolved first, each symbolic link on
//! the way included, so that a link cannot smuggle a path out of the root; then inspected:
//! what it holds, whether git tracks any of it or has uncommitted changes in it, whether it
//! crosses into another filesystem, whether another session claims it. One refused target
//! refuses the whole command, so nothing is ever half done. What passes goes to the
//! [trash], where `agent-guard restore` finds it, or, with `--permanent`, is
//! deleted for good.
//!
//! The checks run again on every call, so `--yes` judges the tree as it is when it runs, not
//! as the preview saw it.
//!
//! One folder whose modules depend one way: each uses only those on the lines below it.
//!
//! ```text
//! remove           the `rm` route: inspect, then trash or delete
//!   trash          where removed targets go and come back from
//!     target       one inspected target, its claim included
//!       claims     which session works on which paths
//!         fsops    git    text
//!           error  paths
//! ```
//!
//! `fsops` moves, copies and deletes trees, writes atomically, locks and resolves paths;
//! `git` asks the repository the few questions the others need; `text` puts times,
//! counts and sizes into words; `paths` compares paths as the platform does (Windows:
//! volumes, either separator, names without regard to case).
//!
//! On Windows, `rm`, the trash and `release` work as on Unix; `claim` says plainly that it
//! does not, since agent-guard cannot tell there which process a claim should live as long
//! as.

pub mod claims;
mod error;
pub(crate) mod fsops;
pub(crate) mod git;
pub(crate) mod paths;
mod remove;
mod target;
pub(crate) mod text;
pub mod trash;

pub use error::Error;
pub use remove::{Plan, Removed, Request, inspect, remove};
pub use target::{Kind, Target};
