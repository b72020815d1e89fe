//! What a local `rsync --delete` would delete: the entries of the destination that no source
//! holds, found by comparing the two trees the way rsync pairs them.
//!
//! `rsync src/ dst/` pairs the contents of `src` with `dst`; `rsync src dst/` pairs `src`
//! with `dst/src` and leaves the rest of `dst` alone. Under each pair of folders, a destination entry with no namesake in any
//! source goes, and so does a destination folder a source replaces by a file. Excluded
//! files are read as unprotected, so the comparison can only count too much, never too
//! little; the rule leaves the finding to the rules alone when filters could make one side
//! hide files from the other.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use super::{Assessment, Context, sample};
use crate::rules::Mirror;

/// Entries looked at, both trees together, before giving up on an answer.
const MAX_ENTRIES: usize = 50_000;

pub(super) fn assess(ctx: &Context, dir: &Path, mirror: &Mirror) -> Assessment {
    match Compare::new(ctx, mirror).run(dir) {
        Some(lost) if lost.is_empty() => Assessment::Clear(format!(
            "`{}` holds nothing the source lacks",
            mirror.dest.text
        )),
        // What it deletes lies in the destination: a destination whose whole removal would
        // lose nothing (ignored build output, a temporary folder) loses nothing this way.
        Some(lost) => match super::paths::assess(ctx, dir, std::slice::from_ref(&mirror.dest)) {
            whole @ (Assessment::Clear(_) | Assessment::Owned(_)) => whole,
            _ => Assessment::Loss {
                loses: format!(
                    "deletes from `{}` what the source lacks: {}",
                    mirror.dest.text,
                    sample(&lost, "path")
                ),
                recovery: Some("none for files git does not track".into()),
            },
        },
        None => Assessment::Unknown,
    }
}

struct Compare<'a> {
    ctx: &'a Context,
    mirror: &'a Mirror,
    /// Entries looked at so far.
    seen: usize,
    /// What would go, as shown to the agent: the destination's text joined with the path.
    lost: Vec<String>,
}

impl<'a> Compare<'a> {
    fn new(ctx: &'a Context, mirror: &'a Mirror) -> Self {
        Compare {
            ctx,
            mirror,
            seen: 0,
            lost: Vec::new(),
        }
    }

    /// The destination's entries that would go; `None` when that cannot be told.
    fn run(mut self, dir: &Path) -> Option<Vec<String>> {
        let dest = self.resolve(dir, self.mirror.dest.value()?)?;
        match fs::metadata(&dest) {
            Ok(meta) if meta.is_dir() => {}
            Err(e) if e.kind() == ErrorKind::NotFound => return Some(Vec::new()),
            _ => return None,
        }
        // Sources sent by their contents, and sources sent as one named entry each.
        let mut contents: Vec<PathBuf> = Vec::new();
        let mut named: BTreeMap<OsString, Vec<PathBuf>> = BTreeMap::new();
        for word in &self.mirror.sources {
            let text = word.value()?;
            if text == ".." || text.ends_with("/..") {
                return None;
            }
            let path = self.resolve(dir, text)?;
            let by_contents = text.ends_with('/') || text == "." || text.ends_with("/.");
            let exists = fs::symlink_metadata(&path).is_ok();
            if !exists && !self.mirror.missing_args_deleted {
                // rsync reports the missing source; what it then deletes is not for us to
                // guess.
                return None;
            }
            if by_contents {
                if !fs::metadata(&path).ok()?.is_dir() {
                    return None;
                }
                contents.push(path);
            } else {
                let name = Path::new(text.trim_end_matches('/')).file_name()?;
                named.entry(name.to_os_string()).or_default().push(path);
            }
        }
        self.pair(&contents, &named, &dest, Path::new(""))?;
        Some(self.lost)
    }

    fn resolve(&self, dir: &Path, text: &str) -> Option<PathBuf> {
        Some(match text {
            "~" => self.ctx.home.clone()?,
            t if t.starts_with("~/") => self.ctx.home.as_ref()?.join(&t[2..]),
            t => dir.join(t),
        })
    }

    /// Compares the destination folder `dest` (at `rel` under the destination) with the
    /// source folders `contents` and the named source entries `named`.
    fn pair(
        &mut self,
        contents: &[PathBuf],
        named: &BTreeMap<OsString, Vec<PathBuf>>,
        dest: &Path,
        rel: &Path,
    ) -> Option<()> {
        self.ctx.time_left()?;
        // Sources named without their contents (`rsync src dst/`) touch only their
        // namesakes: the rest of `dest` is not synchronized, so nothing else there goes.
        let mut entries: Vec<OsString> = if contents.is_empty() {
            named
                .keys()
                .filter(|name| fs::symlink_metadata(dest.join(name)).is_ok())
                .cloned()
                .collect()
        } else {
            fs::read_dir(dest)
                .ok()?
                .map(|e| e.map(|e| e.file_name()))
                .collect::<Result<_, _>>()
                .ok()?
        };
        entries.sort();
        for name in entries {
            self.count(1)?;
            let twins: Vec<PathBuf> = contents
                .iter()
                .map(|c| c.join(&name))
                .chain(named.get(&name).into_iter().flatten().cloned())
                .filter(|p| fs::symlink_metadata(p).is_ok())
                .collect();
            let there = dest.join(&name);
            let there_is_dir = self.dest_is_dir(&there);
            let folders: Vec<PathBuf> = twins
                .iter()
                .filter(|p| self.source_is_dir(p))
                .cloned()
                .collect();
            let rel = rel.join(&name);
            if twins.is_empty() || there_is_dir && folders.is_empty() {
                self.lose(&there, &rel)?;
            } else if there_is_dir {
                self.pair(&folders, &BTreeMap::new(), &there, &rel)?;
            }
        }
        Some(())
    }

    fn source_is_dir(&self, path: &Path) -> bool {
        let follow = self.mirror.copy_links || self.mirror.copy_dirlinks;
        let meta = if follow {
            fs::metadata(path)
        } else {
            fs::symlink_metadata(path)
        };
        meta.is_ok_and(|m| m.is_dir())
    }

    fn dest_is_dir(&self, path: &Path) -> bool {
        let meta = if self.mirror.keep_dirlinks {
            fs::metadata(path)
        } else {
            fs::symlink_metadata(path)
        };
        meta.is_ok_and(|m| m.is_dir())
    }

    /// Records `path` as lost, after counting what it holds against the budget.
    fn lose(&mut self, path: &Path, rel: &Path) -> Option<()> {
        self.count(entries_under(path, MAX_ENTRIES.saturating_sub(self.seen))?)?;
        let dest = self.mirror.dest.text.trim_end_matches('/');
        self.lost.push(format!("{dest}/{}", rel.display()));
        Some(())
    }

    fn count(&mut self, n: usize) -> Option<()> {
        self.seen += n;
        (self.seen <= MAX_ENTRIES).then_some(())
    }
}

/// How many entries a folder holds, links not followed; `None` past `limit`.
fn entries_under(path: &Path, limit: usize) -> Option<usize> {
    let mut pending = vec![path.to_path_buf()];
    let mut n = 0;
    while let Some(dir) = pending.pop() {
        let Ok(items) = fs::read_dir(&dir) else {
            continue;
        };
        for item in items.flatten() {
            n += 1;
            if n > limit {
                return None;
            }
            if item.file_type().is_ok_and(|t| t.is_dir()) {
                pending.push(item.path());
            }
        }
    }
    Some(n)
}
