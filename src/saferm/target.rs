//! What one removal target is: its kind, where it resolves, what it holds, and why it may
//! not go.

use std::fs::Metadata;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::claims::Claim;

/// What a target is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    File,
    Directory,
    Symlink,
    /// A device, fifo or socket.
    Special,
    /// Nothing is there.
    Missing,
}

impl Kind {
    pub(super) fn of(meta: &Metadata) -> Kind {
        let kind = meta.file_type();
        if kind.is_symlink() {
            Kind::Symlink
        } else if kind.is_dir() {
            Kind::Directory
        } else if kind.is_file() {
            Kind::File
        } else {
            Kind::Special
        }
    }

    pub fn noun(self) -> &'static str {
        match self {
            Kind::File => "file",
            Kind::Directory => "directory",
            Kind::Symlink => "symbolic link",
            Kind::Special => "special file",
            Kind::Missing => "missing",
        }
    }
}

/// One target, inspected. Paths serialize as text even when they are not valid UTF-8 (lossily:
/// such a target is refused anyway), so a report never fails to print.
#[derive(Debug, Clone, Serialize)]
pub struct Target {
    /// As given on the command line.
    #[serde(serialize_with = "lossy")]
    pub given: PathBuf,
    /// What would go: absolute, every symbolic link on the way resolved. A link named last
    /// is the link itself (unless written with a trailing `/`): only the link goes.
    #[serde(serialize_with = "lossy")]
    pub path: PathBuf,
    pub kind: Kind,
    /// Files, folders and links, itself included.
    pub entries: u64,
    /// The size of its files.
    pub bytes: u64,
    /// Why it may not be removed.
    pub refused: Option<String>,
    /// The claim that stops it, when one does.
    pub claimed_by: Option<Claim>,
    /// Another target of the same command that holds this one; it goes with that one.
    #[serde(serialize_with = "lossy_option")]
    pub within: Option<PathBuf>,
}

pub(super) fn lossy<S: serde::Serializer>(path: &Path, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&path.to_string_lossy())
}

fn lossy_option<S: serde::Serializer>(path: &Option<PathBuf>, s: S) -> Result<S::Ok, S::Error> {
    match path {
        Some(path) => lossy(path, s),
        None => s.serialize_none(),
    }
}
