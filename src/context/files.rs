//! Single files deleted or written over: lost only when their bytes exist nowhere else.
//!
//! A file is judged in this order, and the first answer stands: a path that does not exist,
//! a folder, a link that only goes itself, an empty file, or one that gets the same bytes
//! loses nothing, and so does one agent sessions made and no one changed since (the journal;
//! snapshotted first); then git's own status of the file says whether a copy of its bytes exists
//! (tracked and unchanged, or staged) or not (uncommitted edits, an untracked or ignored file
//! that is not output). Outside any repository only a temporary folder clears; elsewhere the
//! answer is unknown, and these findings then drop.

use std::io::Read;
use std::path::{Path, PathBuf};

use super::run::git;
use super::{Assessment, Context};
use crate::journal::{Journals, Ownership};
use crate::rules::{Replaced, With};
use crate::shell::Word;

/// What happens to one file.
enum Fate {
    Kept(String),
    /// Kept in the sense that matters: agent sessions made every byte that goes, and no one
    /// changed it since. Snapshotted before the line runs.
    Owned(String),
    Lost(String),
    Unknown,
}

/// Largest file compared byte for byte with what replaces it.
const MAX_COMPARED: u64 = 4 << 20;

/// `repeats`: the command stands in a loop, and may run again over its own last round.
pub(super) fn assess(
    ctx: &Context,
    dir: &Path,
    files: &[Replaced],
    deletes: bool,
    repeats: bool,
) -> Assessment {
    let mut kept = Vec::new();
    let mut lost = Vec::new();
    let mut unknown = false;
    let mut owned = false;
    let mut journals = Journals::new();
    for file in files {
        if repeats && let Some(what) = moved_onto_one_name(ctx, dir, file) {
            lost.push(what);
            continue;
        }
        match fate(ctx, dir, file, &mut journals) {
            Fate::Kept(why) => kept.push(why),
            Fate::Owned(why) => {
                owned = true;
                kept.push(why);
            }
            Fate::Lost(what) => lost.push(what),
            Fate::Unknown => unknown = true,
        }
    }
    if !lost.is_empty() {
        let verb = if deletes { "deletes" } else { "writes over" };
        return Assessment::Loss {
            loses: format!("{verb} {}: the bytes exist nowhere else", lost.join("; ")),
            recovery: Some("none: git has no copy of these bytes".into()),
        };
    }
    if unknown || kept.is_empty() {
        return Assessment::Unknown;
    }
    if owned {
        return Assessment::Owned(kept.join("; "));
    }
    Assessment::Clear(kept.join("; "))
}

/// What a delete or overwrite of files an earlier `mv` of the line moved there loses: the
/// moved files, judged as if deleted where they are now. Unknown when none is shown lost.
pub(super) fn assess_moved(ctx: &Context, moved: &[(PathBuf, Word)]) -> Assessment {
    let mut journals = Journals::new();
    let lost: Vec<String> = moved
        .iter()
        .filter_map(|(dir, source)| {
            // A folder moved there goes with everything in it, judged as if deleted here.
            if source
                .value()
                .and_then(|text| resolve(ctx, dir, text))
                .is_some_and(|path| path.is_dir())
            {
                return match super::paths::assess(ctx, dir, std::slice::from_ref(source)) {
                    Assessment::Loss { loses, .. } => Some(loses),
                    _ => None,
                };
            }
            let gone = Replaced {
                path: source.clone(),
                with: With::Nothing,
                into_folder: None,
                unlinks: true,
                moves: false,
            };
            match fate(ctx, dir, &gone, &mut journals) {
                Fate::Lost(what) => Some(what),
                Fate::Kept(_) | Fate::Owned(_) | Fate::Unknown => None,
            }
        })
        .collect();
    if lost.is_empty() {
        return Assessment::Unknown;
    }
    Assessment::Loss {
        loses: format!(
            "destroys what the line first moves there: {}: the bytes exist nowhere else",
            lost.join("; ")
        ),
        recovery: Some("none: git has no copy of these bytes".into()),
    }
}

fn fate(ctx: &Context, dir: &Path, file: &Replaced, journals: &mut Journals) -> Fate {
    let Some(text) = file.path.value() else {
        return Fate::Unknown;
    };
    let Some(mut path) = resolve(ctx, dir, text) else {
        return Fate::Unknown;
    };
    let mut shown = text.to_string();
    let mut meta = match std::fs::symlink_metadata(&path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Fate::Kept(format!("`{shown}` does not exist yet"));
        }
        Err(_) => return Fate::Unknown,
    };
    // `cp notes.md docs/`: the file written is the one inside the folder.
    if let Some(source) = &file.into_folder
        && std::fs::metadata(&path).is_ok_and(|m| m.is_dir())
    {
        let Some(name) = crate::syntax::writes::name_of(source) else {
            return Fate::Unknown;
        };
        path = path.join(&name);
        shown = format!("{}/{name}", text.trim_end_matches('/'));
        meta = match std::fs::symlink_metadata(&path) {
            Ok(meta) => meta,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Fate::Kept(format!("`{shown}` does not exist yet"));
            }
            Err(_) => return Fate::Unknown,
        };
    }
    if meta.file_type().is_symlink() {
        if file.unlinks {
            return Fate::Kept(format!("`{shown}` is a symbolic link: only the link goes"));
        }
        // Written through: the file the link leads to is what loses its bytes.
        path = match path.canonicalize() {
            Ok(real) => real,
            Err(_) => return Fate::Kept(format!("`{shown}` is a link to nothing")),
        };
        meta = match std::fs::metadata(&path) {
            Ok(meta) => meta,
            Err(_) => return Fate::Unknown,
        };
    }
    if !meta.is_file() {
        return Fate::Kept(format!("`{shown}` is not a regular file"));
    }
    if meta.len() == 0 {
        return Fate::Kept(format!("`{shown}` is empty"));
    }
    if same_bytes(ctx, dir, &path, meta.len(), &file.with) {
        return Fate::Kept(format!("`{shown}` gets the same bytes it holds"));
    }
    // What agent sessions made, unchanged since, is no one's loss (snapshotted first).
    if let Ownership::AgentsOwn(session) = journals.owner(&path) {
        return Fate::Owned(format!(
            "`{shown}` holds only what agent sessions made (last `{session}`), unchanged since"
        ));
    }
    // Another agent's claimed work stays, whatever git thinks of it.
    match ctx.claim_on(path.parent().unwrap_or(dir), &[&path]) {
        Ok(Some(claim)) => return Fate::Lost(super::claimed(&claim)),
        Ok(None) => {}
        Err(()) => return Fate::Unknown,
    }
    status(ctx, &path, &shown, meta.len(), journals)
}

/// A loop that moves one file after another onto the same name, not a folder
/// (`for f in *.md; do mv "$f" all.md; done`): each round writes over the file the round
/// before moved there, which then exists nowhere else.
fn moved_onto_one_name(ctx: &Context, dir: &Path, file: &Replaced) -> Option<String> {
    let With::File(source) = &file.with else {
        return None;
    };
    if !file.moves || source.literal {
        return None;
    }
    let text = file.path.value()?;
    let path = resolve(ctx, dir, text)?;
    // A trailing slash names a folder: the move fails if there is none.
    if text.ends_with('/') || file.into_folder.is_some() && path.is_dir() {
        return None;
    }
    Some(format!(
        "`{text}` again and again: each round of the loop moves another file over the one \
         the round before moved there"
    ))
}

fn resolve(ctx: &Context, dir: &Path, text: &str) -> Option<PathBuf> {
    Some(match text {
        "~" => ctx.home.clone()?,
        t if t.starts_with("~/") => ctx.home.as_ref()?.join(&t[2..]),
        t => dir.join(t),
    })
}

/// Whether `path` (of `len` bytes) would be replaced by exactly the bytes it holds.
fn same_bytes(ctx: &Context, dir: &Path, path: &Path, len: u64, with: &With) -> bool {
    if len > MAX_COMPARED {
        return false;
    }
    let new = match with {
        With::File(source) => {
            let Some(source) = source.value().and_then(|s| resolve(ctx, dir, s)) else {
                return false;
            };
            if std::fs::metadata(&source).map_or(true, |m| m.len() != len || !m.is_file()) {
                return false;
            }
            read(&source)
        }
        With::Blob(spec) => git(ctx, dir, None, &[], &["show", spec]).map(String::into_bytes),
        With::Nothing | With::Unknown => None,
    };
    new.is_some_and(|new| read(path).is_some_and(|old| old == new))
}

fn read(path: &Path) -> Option<Vec<u8>> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .ok()?
        .take(MAX_COMPARED + 1)
        .read_to_end(&mut bytes)
        .ok()?;
    Some(bytes)
}

/// What git knows of the file: one `git status` of it, asked in its own folder.
fn status(ctx: &Context, path: &Path, shown: &str, len: u64, journals: &mut Journals) -> Fate {
    let Some(folder) = path.parent() else {
        return Fate::Unknown;
    };
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return Fate::Unknown;
    };
    // git does not answer for its own files.
    if path.components().any(|c| c.as_os_str() == ".git") {
        return Fate::Unknown;
    }
    let answer = git(
        ctx,
        folder,
        None,
        &[],
        &[
            "status",
            "--porcelain=v1",
            "-z",
            "--untracked-files=all",
            "--ignored=matching",
            "--",
            &format!(":(literal){name}"),
        ],
    );
    let Some(answer) = answer else {
        if in_temp(folder) {
            return Fate::Kept(format!("`{shown}` is in a temporary folder"));
        }
        return Fate::Unknown;
    };
    let size = super::size(len);
    // The two status letters untrimmed: the second is the work tree against the index.
    let entry = answer.split('\0').find(|e| !e.is_empty());
    let Some((code, rel)) = entry.and_then(|e| Some((e.get(..2)?, e.get(3..)?))) else {
        return Fate::Kept(format!(
            "`{shown}` is tracked and unchanged: git has its bytes"
        ));
    };
    let output = is_output(ctx, rel);
    match code {
        "??" if output => Fate::Kept(format!("`{shown}` is untracked output")),
        "??" => Fate::Lost(format!(
            "`{shown}` ({size}), an untracked file in no commit"
        )),
        "!!" if output => Fate::Kept(format!("`{shown}` is ignored build output")),
        "!!" => Fate::Lost(format!(
            "`{shown}` ({size}), an ignored file that is not build output"
        )),
        // The work tree matches the index: the staged bytes are git's.
        code if code.ends_with(' ') && !code.starts_with('U') => Fate::Kept(format!(
            "`{shown}` matches what is staged: git has its bytes"
        )),
        // Edits over what is staged that agent sessions made from exactly the staged bytes,
        // unchanged since: the staged bytes stay git's, the edits are theirs (snapshotted).
        code if code.ends_with('M')
            && !code.starts_with('U')
            && git(ctx, folder, None, &[], &["show", &format!(":./{name}")]).is_some_and(
                |staged| journals.changes_owner(path, staged.as_bytes()).is_agents(),
            ) =>
        {
            Fate::Owned(format!(
                "the uncommitted changes to `{shown}` are agent sessions' own, unchanged since"
            ))
        }
        _ => Fate::Lost(format!("`{shown}` ({size}), with uncommitted edits")),
    }
}

/// Output a build or a run makes again: under a regenerable folder, an object file or a
/// cache, a log or a temporary file.
fn is_output(ctx: &Context, rel: &str) -> bool {
    const BY_PRODUCTS: &[&str] = &["log", "tmp", "temp", "swp", "swo", "pyo"];
    let by_product = rel
        .rsplit('/')
        .next()
        .and_then(|name| name.rsplit_once('.'))
        .is_some_and(|(stem, ext)| !stem.is_empty() && BY_PRODUCTS.contains(&ext));
    by_product || super::paths::regenerable(ctx, rel) || super::looks_built(rel)
}

fn in_temp(folder: &Path) -> bool {
    let Ok(real) = folder.canonicalize() else {
        return false;
    };
    super::paths::temp_roots()
        .iter()
        .any(|root| real.starts_with(root))
}
