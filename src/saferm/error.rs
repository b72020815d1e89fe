//! The one error type of the guarded removal: a message a person can act on.

use std::fmt;
use std::io;
use std::path::Path;

/// A failure a person can act on: what could not be done, to which path, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(String);

impl Error {
    pub fn new(message: impl Into<String>) -> Self {
        Error(message.into())
    }

    pub(crate) fn io(action: &str, path: &Path, err: &io::Error) -> Self {
        Error(format!("cannot {action} {}: {err}", path.display()))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}
