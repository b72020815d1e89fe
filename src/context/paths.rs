//! What a recursive delete would really remove: missing paths, temporary folders, files git
//! can restore, and regenerable build output are nothing lost; anything else is.

use std::path::{Path, PathBuf};

use super::run::git;
use super::{Assessment, Context, sample};
use crate::git::porcelain;
use crate::journal::{Journals, Ownership};
use crate::shell::Word;
use crate::syntax::Temp;

/// Why one target is safe to delete, or what it holds that would be lost.
enum Target {
    Safe(String),
    /// Only agent sessions' own work: safe, once snapshotted.
    Owned(String),
    Loses(String),
}

/// Most uncommitted files whose changes are weighed one by one against the journal.
const MAX_WEIGHED: usize = 20;

pub(super) fn assess(ctx: &Context, dir: &Path, targets: &[Word]) -> Assessment {
    let mut journals = Journals::new();
    let mut safe = Vec::new();
    let mut owned = false;
    let mut lost = Vec::new();
    for word in targets {
        if let Some(temp) = word.temp {
            safe.push(format!("`{}` {}", word.text, temp_reason(temp)));
            continue;
        }
        // A variable could be anything: only the rules' verdict can stand. A glob's matches
        // all lie in the folder before its first pattern, so that folder is judged whole.
        let Some(text) = word.value().or_else(|| glob_folder(&word.text)) else {
            return Assessment::Unknown;
        };
        let path = match resolve(ctx, dir, text) {
            Some(path) => path,
            None => return Assessment::Unknown,
        };
        match target(ctx, &mut journals, &path, text) {
            Some(Target::Safe(why)) => safe.push(format!("`{text}` {why}")),
            Some(Target::Owned(why)) => {
                owned = true;
                safe.push(format!("`{text}` {why}"));
            }
            Some(Target::Loses(what)) => lost.push(format!("`{text}` holds {what}")),
            None => return Assessment::Unknown,
        }
    }
    if lost.is_empty() && owned {
        return Assessment::Owned(safe.join("; "));
    }
    if lost.is_empty() {
        return Assessment::Clear(if safe.is_empty() {
            "it names no existing path".into()
        } else {
            safe.join("; ")
        });
    }
    Assessment::Loss {
        loses: format!("deletes what cannot be restored: {}", lost.join("; ")),
        recovery: Some(
            "untracked and ignored files were never in git: they cannot be recovered".into(),
        ),
    }
}

/// The folder every match of the glob `text` lies in (`build/` for `build/*.o` or
/// `build/**/x`), when the glob holds nothing but literal text and patterns and that folder
/// is named without one. `None` for a pattern in the first component (`*`, `./*`, `src*`):
/// the folder would be the one the command runs in, which only its own look can judge.
fn glob_folder(text: &str) -> Option<&str> {
    if text.contains(['$', '`', '"', '\'', '\\', '{', '~']) {
        return None;
    }
    let pattern = |part: &str| part.contains(pattern_start);
    let first = text.find(pattern_start)?;
    let folder = text.get(..first)?.rsplit_once('/')?.0;
    let inner = folder.strip_prefix('/').unwrap_or(folder);
    let named = !inner.is_empty()
        && inner
            .split('/')
            .all(|part| !matches!(part, "" | "." | ".."))
        && !pattern(folder);
    // With its slash: the matches lie where a link of that name leads, not in the link.
    named.then(|| text.get(..folder.len() + 1)).flatten()
}

fn pattern_start(c: char) -> bool {
    matches!(c, '*' | '?' | '[')
}

/// Why a word the shell proved inside a temporary folder loses nothing. Its name is not
/// known, so nothing on disk is looked at: a folder the line just made holds only what the
/// line put there, and a fresh name under the temporary root is scratch space.
fn temp_reason(temp: Temp) -> String {
    match temp {
        Temp::Made(how) => format!("is inside the temporary folder `{how}` made on this line"),
        Temp::Root => "is a fresh name inside the temporary folder".into(),
    }
}

fn resolve(ctx: &Context, dir: &Path, text: &str) -> Option<PathBuf> {
    let path = match text {
        "~" => ctx.home.clone()?,
        t if t.starts_with("~/") => ctx.home.as_ref()?.join(&t[2..]),
        t => dir.join(t),
    };
    // `x/../src` names nothing while `x` is missing, but the line may make `x` first
    // (`mkdir -p x && rm -rf x/../src`): then it is `src`.
    if std::fs::symlink_metadata(&path).is_err() {
        let mut folded = PathBuf::new();
        for part in path.components() {
            match part {
                std::path::Component::ParentDir => {
                    folded.pop();
                }
                std::path::Component::CurDir => {}
                other => folded.push(other),
            }
        }
        if std::fs::symlink_metadata(&folded).is_ok() {
            return Some(folded);
        }
    }
    Some(path)
}

fn target(ctx: &Context, journals: &mut Journals, path: &Path, text: &str) -> Option<Target> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Some(Target::Safe("does not exist".into()));
        }
        Err(_) => return None,
    };
    // Another agent's claimed work stays, whatever git thinks of it.
    let dir = if meta.is_dir() { path } else { path.parent()? };
    if let Some(claim) = ctx.claim_on(dir, &[path]).ok()? {
        return Some(Target::Loses(super::claimed(&claim)));
    }
    // A trailing slash makes rm follow a link to its target; resolve nothing else.
    if meta.file_type().is_symlink() && !text.ends_with('/') {
        return Some(Target::Safe(
            "is a symbolic link: only the link goes".into(),
        ));
    }
    // What agent sessions made, all of it and unchanged since, is no one's loss: a clone
    // or an unpacked archive as much as a file.
    if let Ownership::AgentsOwn(session) = journals.owner_of_all(path) {
        return Some(Target::Owned(format!(
            "holds only what agent sessions made (last `{session}`), unchanged since"
        )));
    }
    let real = path.canonicalize().ok()?;
    let lookup_dir = if real.is_dir() {
        real.clone()
    } else {
        real.parent()?.to_path_buf()
    };
    let top = git(
        ctx,
        &lookup_dir,
        None,
        &[],
        &["rev-parse", "--show-toplevel"],
    )
    .map(|t| PathBuf::from(t.trim()));
    // A repository is judged by what git knows even when it lives in a temporary folder:
    // a checkout under /tmp holds real work too.
    let Some(top) = top else {
        // No answer is not proof: git may have run out of time in a checkout. A `.git` above
        // the path means a repository git could not be asked about, whose work is unknown.
        if real.ancestors().any(|dir| dir.join(".git").exists()) {
            return None;
        }
        if temp_roots()
            .iter()
            .any(|root| real.starts_with(root) && real != *root)
        {
            return Some(Target::Safe("is inside a temporary folder".into()));
        }
        return Some(Target::Loses("files outside any git repository".into()));
    };
    let rel = real.strip_prefix(&top).ok()?.to_string_lossy().into_owned();
    if rel.is_empty() {
        return Some(Target::Loses("the whole repository".into()));
    }
    let status = git(
        ctx,
        &top,
        None,
        &[],
        &[
            "status",
            "--porcelain=v1",
            "-z",
            "--untracked-files=all",
            "--ignored=matching",
            "--",
            &rel,
        ],
    )?;
    let mut changed = Vec::new();
    let mut untracked = Vec::new();
    let mut ignored = Vec::new();
    let mut agents = Vec::new();
    let mut unstaged = Vec::new();
    let mut manifests = Manifests::default();
    for (code, file) in porcelain(&status) {
        match code.as_str() {
            "!!" if regenerable(ctx, &file) => {}
            "??" if manifests.installed(&top, &file) => {}
            "??" | "!!" if journals.owner_of_all(&top.join(&file)).is_agents() => agents.push(file),
            "??" => untracked.push(file),
            "!!" => ignored.push(file),
            // Nothing staged: the index still holds what HEAD does.
            c if c.starts_with(' ') => {
                unstaged.push(file.clone());
                changed.push(file);
            }
            _ => changed.push(file),
        }
    }
    // Changes to a tracked file are the agents' own when they started from what the index
    // holds, and that is what HEAD holds: `git restore` brings it back.
    if changed.len() <= MAX_WEIGHED {
        changed.retain(|file| {
            if !unstaged.contains(file) {
                return true;
            }
            let restored = git(ctx, &top, None, &[], &["show", &format!(":{file}")]);
            let theirs = restored.is_some_and(|r| {
                journals
                    .changes_owner(&top.join(file), r.as_bytes())
                    .is_agents()
            });
            if theirs {
                agents.push(file.clone());
            }
            !theirs
        });
    }
    let mut what = Vec::new();
    if !untracked.is_empty() {
        what.push(sample(&untracked, "untracked file"));
    }
    if !ignored.is_empty() {
        what.push(sample(&ignored, "ignored file that is not build output"));
    }
    if !changed.is_empty() {
        what.push(format!(
            "uncommitted changes to {}",
            sample(&changed, "file")
        ));
    }
    if what.is_empty() && !agents.is_empty() {
        return Some(Target::Owned(format!(
            "holds, besides what git can restore, only agent sessions' own work: {}",
            sample(&agents, "file")
        )));
    }
    if what.is_empty() {
        return Some(Target::Safe(
            "holds only files git tracks, unmodified, and regenerable output: `git restore` brings them back".into(),
        ));
    }
    Some(Target::Loses(what.join(", ")))
}

/// An ignored path under a folder named in the regenerable list (`node_modules`, `target`, ...).
pub(super) fn regenerable(ctx: &Context, path: &str) -> bool {
    path.trim_end_matches('/')
        .split('/')
        .any(|part| ctx.is_regenerable(part))
}

/// The folders package managers install into, each with the manifests that name what goes
/// there: beside one of them, the folder is output the manager makes again, whether or not
/// the repository ignores it.
const INSTALL_FOLDERS: &[(&str, &[&str])] = &[
    ("node_modules", &["package.json"]),
    ("vendor", &["composer.json"]),
    (
        ".venv",
        &["pyproject.toml", "requirements.txt", "Pipfile", "setup.py"],
    ),
    (
        "venv",
        &["pyproject.toml", "requirements.txt", "Pipfile", "setup.py"],
    ),
    ("Pods", &["Podfile"]),
    (".dart_tool", &["pubspec.yaml"]),
];

/// Which folders hold a package manager's manifest, as asked so far: a listing names every
/// file of an install folder, and each would ask of the same folder again.
#[derive(Default)]
pub(super) struct Manifests(std::collections::HashMap<(PathBuf, &'static str), bool>);

impl Manifests {
    /// Whether `path` (relative to `top`) lies in a package manager's install folder that
    /// has its manifest beside it (`node_modules` next to `package.json`, `.venv` next to
    /// `pyproject.toml` or a `requirements*.txt`).
    pub(super) fn installed(&mut self, top: &Path, path: &str) -> bool {
        let parts: Vec<&str> = path.trim_end_matches('/').split('/').collect();
        parts.iter().enumerate().any(|(at, part)| {
            let Some(&(name, manifests)) = INSTALL_FOLDERS.iter().find(|(name, _)| name == part)
            else {
                return false;
            };
            let beside = top.join(parts.get(..at).unwrap_or_default().join("/"));
            *self
                .0
                .entry((beside, name))
                .or_insert_with_key(|(beside, _)| {
                    manifests.iter().any(|m| beside.join(m).is_file())
                        || (manifests.contains(&"requirements.txt") && has_requirements(beside))
                })
        })
    }
}

/// `requirements-dev.txt` and the like.
fn has_requirements(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries.flatten().any(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.starts_with("requirements") && name.ends_with(".txt")
        })
    })
}

/// The machine's temporary folders: the usual Unix ones, and whatever this platform and its
/// environment name (`$TMPDIR`, macOS's `/var/folders/…/T/`; `%TEMP%`/`%TMP%` on Windows), each
/// as the file system resolves it (macOS's `/tmp` is `/private/tmp`).
pub(super) fn temp_roots() -> Vec<PathBuf> {
    let mut roots: Vec<PathBuf> = ["/tmp", "/var/tmp", "/private/tmp", "/private/var/tmp"]
        .iter()
        .map(PathBuf::from)
        .collect();
    roots.push(std::env::temp_dir());
    for name in ["TMPDIR", "TEMP", "TMP"] {
        roots.extend(std::env::var_os(name).map(PathBuf::from));
    }
    roots
        .into_iter()
        .filter_map(|r| r.canonicalize().ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::glob_folder;

    #[test]
    fn a_glob_is_judged_by_the_folder_before_its_first_pattern() {
        for (glob, folder) in [
            ("build/*", Some("build/")),
            ("build/*.o", Some("build/")),
            ("out/web/**/x", Some("out/web/")),
            ("/tmp/cache/*", Some("/tmp/cache/")),
            ("*", None),
            ("./*", None),
            ("src*/x", None),
            ("../*", None),
            ("a/../*", None),
            ("/*", None),
            ("$D/*", None),
            ("~/x/*", None),
            ("build/{a,b}*", None),
        ] {
            assert_eq!(glob_folder(glob), folder, "{glob}");
        }
    }
}
