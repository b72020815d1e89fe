//! The removal itself: resolve and inspect every target against the root, the repository,
//! the claims and the trash folders, then move what passes into the trash or delete it.

use std::collections::HashMap;
use std::fs::{self, Metadata};
use std::io::{self, ErrorKind};
use std::path::{Component, Path, PathBuf};

use serde::Serialize;

use super::claims;
use super::error::Error;
use super::fsops::{self, resolve_partly};
use super::git::Repo;
use super::paths::{self, canonical, within};
use super::target::{Kind, Target, lossy};
use super::text;
use super::trash::{Entry, Trash};
use crate::config::dirs::{self, Os};
use crate::shell::word::quote;

/// Folders that hold a repository's history: never a local output.
const STORES: &[&str] = &[".git", ".hg", ".svn", ".jj", ".bzr", "_darcs", ".pijul"];

/// One `rm` command: what to remove, within what, asked from where and by whom.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// Every target must be strictly inside it once symbolic links are resolved.
    pub root: &'a Path,
    /// As given; relative ones are taken from `cwd`.
    pub paths: &'a [PathBuf],
    /// Absolute.
    pub cwd: &'a Path,
    /// Claims of this session do not stop the removal.
    pub session: &'a str,
}

/// Every target of a request, inspected, and where a removal would go.
#[derive(Debug, Serialize)]
pub struct Plan {
    /// The root, resolved.
    #[serde(serialize_with = "lossy")]
    pub root: PathBuf,
    pub targets: Vec<Target>,
    #[serde(skip)]
    session: String,
    /// The root's repository's trash, or the user's; an error says why there is none.
    #[serde(skip)]
    trash: Result<Trash, Error>,
}

impl Plan {
    /// Whether any target is refused, which refuses them all.
    pub fn is_refused(&self) -> bool {
        self.targets.iter().any(|t| t.refused.is_some())
    }

    /// The targets that are moved or deleted themselves, not along with another.
    pub fn to_remove(&self) -> impl Iterator<Item = &Target> {
        self.targets.iter().filter(|t| t.within.is_none())
    }

    /// Where the removal would go, unless deleted for good.
    pub fn trash(&self) -> Result<&Trash, &Error> {
        self.trash.as_ref()
    }
}

/// Resolves and inspects every target of `req`, changing nothing. An error means the root
/// itself is unusable; a target that may not go carries its reason instead.
pub fn inspect(req: &Request) -> Result<Plan, Error> {
    let root = canonical(req.root)
        .map_err(|e| Error::new(format!("--root {}: {e}", req.root.display())))?;
    let root_meta = fs::metadata(&root).map_err(|e| Error::io("read", &root, &e))?;
    if !root_meta.is_dir() {
        return Err(Error::new(format!(
            "--root {}: not a directory",
            req.root.display()
        )));
    }
    let trash = match Repo::containing(&root) {
        Ok(Some(repo)) => Ok(Trash::of_repo(&repo)),
        Ok(None) => Trash::user(),
        Err(e) => Err(e),
    };
    let mut trashes: Vec<PathBuf> = trash.iter().map(|t| resolve_partly(&t.dir)).collect();
    trashes.extend(Trash::user().map(|t| resolve_partly(&t.dir)));
    let home = dirs::home(Os::CURRENT, &dirs::process_env).and_then(|h| canonical(&h).ok());
    let mut scene = Scene {
        root_fs: filesystem(&root, &root_meta),
        root,
        cwd: canonical(req.cwd).ok(),
        home,
        trashes,
        session: req.session,
        repos: HashMap::new(),
    };
    let mut targets: Vec<Target> = req
        .paths
        .iter()
        .map(|given| scene.target(req.cwd, given))
        .collect();
    nest(&mut targets);
    Ok(Plan {
        root: scene.root,
        targets,
        session: req.session.to_string(),
        trash,
    })
}

/// What a removal did.
#[derive(Debug, Clone)]
pub struct Removed {
    /// The trash entry, unless deleted for good.
    pub entry: Option<Entry>,
    /// The trash it went to.
    pub trash: Option<Trash>,
    /// Leftovers that could not be cleaned up; the removal itself happened.
    pub notes: Vec<String>,
}

/// Removes what `plan` found removable: into the trash, or for good when `permanent`. All
/// or nothing: a target that cannot be moved puts back those moved before it.
pub fn remove(plan: &Plan, permanent: bool) -> Result<Removed, Error> {
    if plan.is_refused() {
        return Err(Error::new("a target is refused, so nothing is removed"));
    }
    let targets: Vec<&Target> = plan.to_remove().collect();
    if permanent {
        return Ok(Removed {
            entry: None,
            trash: None,
            notes: delete(&targets)?,
        });
    }
    let trash = plan.trash.as_ref().map_err(|e| {
        Error::new(format!(
            "{e}; nothing was removed (--permanent deletes without a trash)"
        ))
    })?;
    let (entry, notes) = trash.put(&plan.root, &plan.session, &targets)?;
    Ok(Removed {
        entry: Some(entry),
        trash: Some(trash.clone()),
        notes,
    })
}

/// Deletes `targets` for good. Each is first renamed to a hidden name beside itself, so all
/// vanish from their places together or, when one cannot, none does; then the hidden copies
/// are deleted.
fn delete(targets: &[&Target]) -> Result<Vec<String>, Error> {
    let mut staged: Vec<(&Path, PathBuf)> = Vec::new();
    for t in targets {
        let hidden = fsops::hidden_sibling(&t.path)?;
        if let Err(e) = fs::rename(&t.path, &hidden) {
            let stuck: Vec<String> = staged
                .iter()
                .rev()
                .filter(|(original, hidden)| fs::rename(hidden, original).is_err())
                .map(|(original, hidden)| {
                    format!("{} is at {}", original.display(), hidden.display())
                })
                .collect();
            let undone = if stuck.is_empty() {
                "nothing was removed".to_string()
            } else {
                format!("and these could not be put back: {}", stuck.join(", "))
            };
            return Err(Error::new(format!(
                "{}; {undone}",
                Error::io("remove", &t.path, &e)
            )));
        }
        staged.push((&t.path, hidden));
    }
    Ok(staged
        .iter()
        .filter_map(|(original, hidden)| {
            fsops::remove_tree(hidden).err().map(|e| {
                format!(
                    "{} is gone from its place but could not be deleted completely ({e}); what is left is at {}",
                    original.display(),
                    hidden.display()
                )
            })
        })
        .collect())
}

/// What every target is checked against.
struct Scene<'a> {
    root: PathBuf,
    root_fs: Filesystem,
    cwd: Option<PathBuf>,
    home: Option<PathBuf>,
    /// The trash folders in reach; never removed through `rm`.
    trashes: Vec<PathBuf>,
    session: &'a str,
    /// The repository of each folder asked about, asked once.
    repos: HashMap<PathBuf, Result<Option<Repo>, Error>>,
}

impl Scene<'_> {
    fn target(&mut self, cwd: &Path, given: &Path) -> Target {
        let mut target = Target {
            given: given.to_path_buf(),
            path: cwd.join(given),
            kind: Kind::Missing,
            entries: 0,
            bytes: 0,
            refused: None,
            claimed_by: None,
            within: None,
        };
        if let Err(why) = self.check(&mut target) {
            target.refused = Some(why);
        }
        target
    }

    fn check(&mut self, t: &mut Target) -> Result<(), String> {
        let raw = t.given.as_os_str().as_encoded_bytes();
        if raw.is_empty() {
            return Err("is an empty path".into());
        }
        if t.path.to_str().is_none() {
            return Err("is not valid UTF-8, so the trash could not record it".into());
        }
        let lexical = t.path.clone();
        t.path = resolve(&lexical, raw).map_err(unresolved)?;
        let meta = fs::symlink_metadata(&t.path).map_err(unresolved)?;
        t.kind = Kind::of(&meta);
        self.protected(&t.path)?;
        if !within(&t.path, &self.root) {
            let resolved = if t.path == lexical {
                String::new()
            } else {
                format!(" (it resolves to {})", t.path.display())
            };
            return Err(format!(
                "is outside the root {}{resolved}",
                self.root.display()
            ));
        }
        if t.kind == Kind::Symlink {
            let to = canonical(&t.path)
                .or_else(|_| {
                    let parent = t.path.parent().unwrap_or(Path::new("/"));
                    fs::read_link(&t.path).map(|to| resolve_partly(&parent.join(to)))
                })
                .map_err(unresolved)?;
            if !within(&to, &self.root) || paths::same(&to, &self.root) {
                return Err(format!(
                    "is a symbolic link to {}, which is not inside the root {}",
                    to.display(),
                    self.root.display()
                ));
            }
        }
        if !same_filesystem(&self.root_fs, &filesystem(&t.path, &meta)) {
            return Err(format!(
                "is on another filesystem than the root {} (a mount point, or inside one); unmount it instead",
                self.root.display()
            ));
        }
        self.survey(t, &meta)?;
        self.git(t)
    }

    /// The paths no `rm` may take, whatever the root: the filesystem root, system folders,
    /// the home folder, the root itself, the current directory, repository stores, trashes.
    fn protected(&self, path: &Path) -> Result<(), String> {
        if path.parent().is_none() {
            return Err(format!("is {}", paths::root_noun()));
        }
        if paths::is_system(path) {
            return Err(format!(
                "is a system folder (a top-level folder, or one directly under {}, ...)",
                if Os::CURRENT == Os::Windows {
                    r"C:\Windows, C:\Users, C:\Program Files"
                } else {
                    "/usr, /var, /etc, /home"
                }
            ));
        }
        if let Some(home) = &self.home {
            if paths::same(path, home) {
                return Err("is your home folder".into());
            }
            if within(home, path) {
                return Err(format!("holds your home folder {}", home.display()));
            }
        }
        if paths::same(path, &self.root) {
            return Err("is the root itself; name what inside it should go".into());
        }
        if let Some(cwd) = &self.cwd {
            if paths::same(path, cwd) {
                return Err("is the current directory; change to another one first".into());
            }
            if within(cwd, path) {
                return Err(format!(
                    "holds the current directory {}; change to another one first",
                    cwd.display()
                ));
            }
        }
        if let Some(store) = path.components().find_map(|c| match c {
            Component::Normal(name) => name.to_str().filter(|n| is_store(n)),
            _ => None,
        }) {
            let last = path.file_name().and_then(|n| n.to_str());
            return Err(if last.is_some_and(|n| paths::same_name(n, store)) {
                format!(
                    "is `{store}`, a repository's own store of its history; it is never removed"
                )
            } else {
                format!(
                    "is inside `{store}`, a repository's own store of its history; it is never removed by hand"
                )
            });
        }
        for trash in &self.trashes {
            if within(path, trash) {
                return Err(
                    "is in the agent-guard trash; `agent-guard trash --purge` empties it".into(),
                );
            }
            if within(trash, path) {
                return Err(format!("holds the agent-guard trash {}", trash.display()));
            }
        }
        Ok(())
    }

    /// Counts what a target holds, refusing a tree that holds a repository store or a mount
    /// point, or that cannot be read in full (what cannot be seen cannot be judged).
    fn survey(&self, t: &mut Target, meta: &Metadata) -> Result<(), String> {
        t.entries = 1;
        t.bytes = if meta.is_file() { meta.len() } else { 0 };
        if t.kind != Kind::Directory {
            return Ok(());
        }
        let unreadable =
            |path: &Path, e: io::Error| format!("cannot be inspected: {}: {e}", self.shown(path));
        let mut pending = vec![t.path.clone()];
        while let Some(dir) = pending.pop() {
            for entry in fs::read_dir(&dir).map_err(|e| unreadable(&dir, e))? {
                let entry = entry.map_err(|e| unreadable(&dir, e))?;
                let path = entry.path();
                if entry.file_name().to_str().is_some_and(is_store) {
                    return Err(format!(
                        "holds a repository store, {}; its history would go with it",
                        self.shown(&path)
                    ));
                }
                let meta = fs::symlink_metadata(&path).map_err(|e| unreadable(&path, e))?;
                if !same_filesystem(&self.root_fs, &filesystem(&path, &meta)) {
                    return Err(format!(
                        "holds a mount point, {}; unmount it first",
                        self.shown(&path)
                    ));
                }
                t.entries += 1;
                if meta.is_file() {
                    t.bytes += meta.len();
                }
                if meta.is_dir() {
                    pending.push(path);
                }
            }
        }
        Ok(())
    }

    /// Refuses what git tracks or has uncommitted changes in, and what another session
    /// claims (claims live with the repository).
    fn git(&mut self, t: &mut Target) -> Result<(), String> {
        let parent = t.path.parent().unwrap_or(&t.path).to_path_buf();
        let failed = |e: Error| format!("cannot be checked with git: {e}");
        let Some(repo) = self.repo(&parent).map_err(failed)? else {
            return Ok(());
        };
        let changed = repo.changed(&t.path).map_err(failed)?;
        if !changed.is_empty() {
            return Err(format!(
                "has uncommitted changes to {}; commit or stash them first, and remove tracked files with `git rm`",
                text::sample(&changed, "tracked file", "tracked files")
            ));
        }
        let tracked = repo.tracked(&t.path).map_err(failed)?;
        if !tracked.is_empty() {
            let given = quote(&t.given.to_string_lossy());
            return Err(if t.kind == Kind::Directory {
                format!(
                    "holds {} that git tracks; remove tracked files with `git rm -r {given}`",
                    text::sample(&tracked, "file", "files")
                )
            } else {
                format!("is tracked by git; remove it with `git rm {given}`")
            });
        }
        match claims::held_by_other(&repo, &t.path, self.session) {
            Ok(None) => Ok(()),
            Ok(Some(claim)) => {
                let why = claims::conflict(&claim, &t.path, text::now());
                t.claimed_by = Some(claim);
                Err(format!(
                    "is {why} (this command runs as session `{}`)",
                    self.session
                ))
            }
            Err(e) => Err(format!(
                "cannot be checked against other agents' claims: {e}"
            )),
        }
    }

    fn repo(&mut self, dir: &Path) -> Result<Option<Repo>, Error> {
        self.repos
            .entry(dir.to_path_buf())
            .or_insert_with(|| Repo::containing(dir))
            .clone()
    }

    /// A path as shown in a reason: relative to the root when inside it.
    fn shown(&self, path: &Path) -> String {
        path.strip_prefix(&self.root)
            .unwrap_or(path)
            .display()
            .to_string()
    }
}

/// Which filesystem an entry is on: its device number (`st_dev`).
#[cfg(unix)]
type Filesystem = u64;

/// Which filesystem an entry is on: on Windows, whose volume serial number std does not give
/// yet, the volume its canonical path starts with (`c:`, `\\server\share`). A volume mounted
/// in a folder there is a reparse point, which is inspected as a link and never entered.
#[cfg(windows)]
type Filesystem = String;

#[cfg(unix)]
fn filesystem(_: &Path, meta: &Metadata) -> Filesystem {
    std::os::unix::fs::MetadataExt::dev(meta)
}

#[cfg(windows)]
fn filesystem(path: &Path, _: &Metadata) -> Filesystem {
    paths::windows::split(&path.to_string_lossy()).volume
}

/// Whether an entry is on the root's filesystem: a different one means a mount point was
/// crossed.
fn same_filesystem(root: &Filesystem, other: &Filesystem) -> bool {
    root == other
}

/// Whether `name` is one of the [`STORES`].
fn is_store(name: &str) -> bool {
    STORES.iter().any(|store| paths::same_name(store, name))
}

fn unresolved(e: io::Error) -> String {
    match e.kind() {
        ErrorKind::NotFound => "does not exist".into(),
        _ => format!("cannot be resolved: {e}"),
    }
}

/// The path a target names. The folders on the way are resolved, symbolic links included;
/// the last name is kept as it is, so a link there is the link itself, as `rm` treats it;
/// but a trailing `/`, `.` or `..` names what the path leads to, so all of it is resolved.
fn resolve(lexical: &Path, raw: &[u8]) -> io::Result<PathBuf> {
    let names_a_folder = paths::names_a_folder(Os::CURRENT, raw);
    match (names_a_folder, lexical.parent(), lexical.file_name()) {
        (false, Some(parent), Some(name)) => Ok(canonical(parent)?.join(name)),
        _ => canonical(lexical),
    }
}

/// Marks each target that another target of the same command holds (or repeats): it goes
/// with that one and is not moved on its own.
fn nest(targets: &mut [Target]) {
    let holders: Vec<Option<PathBuf>> = targets
        .iter()
        .enumerate()
        .map(|(i, target)| {
            if target.refused.is_some() {
                return None;
            }
            targets
                .iter()
                .enumerate()
                .find(|(j, other)| {
                    *j != i
                        && other.refused.is_none()
                        && within(&target.path, &other.path)
                        && (!paths::same(&other.path, &target.path) || *j < i)
                })
                .map(|(_, other)| other.given.clone())
        })
        .collect();
    for (target, holder) in targets.iter_mut().zip(holders) {
        target.within = holder;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_different_device_is_a_mount_crossing() {
        assert!(same_filesystem(&64_768, &64_768));
        assert!(!same_filesystem(&64_768, &27));
    }

    #[cfg(unix)]
    #[test]
    fn a_trailing_slash_follows_the_last_link() {
        let tmp = tempfile::tempdir().unwrap();
        let real = tmp.path().canonicalize().unwrap();
        std::fs::create_dir(real.join("dir")).unwrap();
        std::os::unix::fs::symlink(real.join("dir"), real.join("link")).unwrap();
        assert_eq!(
            resolve(&real.join("link"), b"link").unwrap(),
            real.join("link")
        );
        assert_eq!(
            resolve(&real.join("link/"), b"link/").unwrap(),
            real.join("dir")
        );
        assert_eq!(resolve(&real.join("dir/.."), b"dir/..").unwrap(), real);
    }

    fn target(path: &str) -> Target {
        Target {
            given: PathBuf::from(path),
            path: PathBuf::from(path),
            kind: Kind::Directory,
            entries: 1,
            bytes: 0,
            refused: None,
            claimed_by: None,
            within: None,
        }
    }

    #[test]
    fn targets_inside_others_and_repeats_go_with_them() {
        let mut targets = vec![
            target("/r/build/cache"),
            target("/r/build"),
            target("/r/build"),
            target("/r/builder"),
        ];
        nest(&mut targets);
        let within: Vec<Option<&str>> = targets
            .iter()
            .map(|t| t.within.as_deref().and_then(Path::to_str))
            .collect();
        assert_eq!(within, [Some("/r/build"), None, Some("/r/build"), None]);
    }
}
