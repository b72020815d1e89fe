//! Moving, copying and deleting whole trees without losing anything on the way, plus the
//! atomic write and the file lock the trash and the claims rely on.
//!
//! The rule throughout: a symbolic link is moved or copied as a link and never followed, so
//! nothing outside a tree is ever touched by an operation on it.

use std::fs::{self, File, Metadata, TryLockError};
use std::io::{self, ErrorKind, Write};
use std::path::{Component, Path, PathBuf};
use std::time::{Duration, Instant};

use super::error::Error;
use super::paths::canonical;

/// How long to wait for another agent-guard process to let go of a lock.
const LOCK_WAIT: Duration = Duration::from_secs(10);

/// Moves `from` to `to`, which must not exist yet (its parent must). Within one filesystem
/// this is a rename, whole or not at all. Across filesystems it is a copy and a delete, done
/// so that the source still vanishes at once: it is first renamed to a hidden name beside
/// itself, then copied, then deleted; a failed copy is undone and the source renamed back.
///
/// `Ok(Some(note))` when everything arrived but the hidden leftover could not be deleted.
pub fn move_tree(from: &Path, to: &Path) -> Result<Option<String>, Error> {
    match fs::rename(from, to) {
        Ok(()) => return Ok(None),
        Err(e) if e.kind() == ErrorKind::CrossesDevices => {}
        Err(e) => return Err(Error::io(&format!("move {} to", from.display()), to, &e)),
    }
    let staging = hidden_sibling(from)?;
    fs::rename(from, &staging).map_err(|e| Error::io("rename", from, &e))?;
    if let Err(e) = copy_tree(&staging, to) {
        let _ = remove_tree(to);
        return Err(match fs::rename(&staging, from) {
            Ok(()) => Error::new(format!(
                "cannot copy {} to {}: {e}; nothing was moved",
                from.display(),
                to.display()
            )),
            Err(back) => Error::new(format!(
                "cannot copy {} to {}: {e}; and it could not be put back ({back}): it is at {}",
                from.display(),
                to.display(),
                staging.display()
            )),
        });
    }
    Ok(remove_tree(&staging).err().map(|e| {
        format!(
            "{} was copied to {}, but its old copy could not be deleted ({e}): it is left at {}",
            from.display(),
            to.display(),
            staging.display()
        )
    }))
}

/// `.<name>.agent-guard-<pid>` next to `path`: the same filesystem, so a rename to it cannot
/// fail for crossing one.
pub fn hidden_sibling(path: &Path) -> Result<PathBuf, Error> {
    let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
        return Err(Error::new(format!("cannot move {}", path.display())));
    };
    let mut hidden = std::ffi::OsString::from(".");
    hidden.push(name);
    hidden.push(format!(".agent-guard-{}", std::process::id()));
    Ok(parent.join(hidden))
}

/// Copies a tree: files with their content, permissions and modification time, folders with
/// theirs (set once they are filled, so a read-only folder can still be filled), symbolic
/// links as links. A device, fifo or socket cannot be recreated portably and is an error.
pub fn copy_tree(from: &Path, to: &Path) -> io::Result<()> {
    let mut folders: Vec<(PathBuf, Metadata)> = Vec::new();
    let mut pending = vec![(from.to_path_buf(), to.to_path_buf())];
    while let Some((src, dst)) = pending.pop() {
        let meta = fs::symlink_metadata(&src)?;
        let kind = meta.file_type();
        if kind.is_symlink() {
            copy_link(&src, &dst, &meta)?;
        } else if kind.is_dir() {
            fs::create_dir(&dst)?;
            for entry in fs::read_dir(&src)? {
                let entry = entry?;
                pending.push((entry.path(), dst.join(entry.file_name())));
            }
            folders.push((dst, meta));
        } else if kind.is_file() {
            fs::copy(&src, &dst)?;
            open_for_times(&dst)?.set_modified(meta.modified()?)?;
        } else {
            return Err(io::Error::new(
                ErrorKind::Unsupported,
                format!(
                    "{} is a device, fifo or socket, which cannot be copied to another filesystem",
                    src.display()
                ),
            ));
        }
    }
    // Children before parents: setting a child's times does not touch its parent's.
    for (dst, meta) in folders.iter().rev() {
        fs::set_permissions(dst, meta.permissions())?;
        open_for_times(dst)?.set_modified(meta.modified()?)?;
    }
    Ok(())
}

/// Recreates the symbolic link `src` at `dst`, pointing where it points.
#[cfg(unix)]
fn copy_link(src: &Path, dst: &Path, _: &Metadata) -> io::Result<()> {
    std::os::unix::fs::symlink(fs::read_link(src)?, dst)
}

/// Recreates the link `src` at `dst`: a folder link as one, a file link as one. Windows lets
/// only an administrator, or a user in developer mode, make links; otherwise this fails, and
/// the move is undone. A junction comes back as a folder link.
#[cfg(windows)]
fn copy_link(src: &Path, dst: &Path, meta: &Metadata) -> io::Result<()> {
    use std::os::windows::fs::{FileTypeExt, symlink_dir, symlink_file};
    let to = fs::read_link(src)?;
    if meta.file_type().is_symlink_dir() {
        symlink_dir(to, dst)
    } else {
        symlink_file(to, dst)
    }
}

/// A file or folder opened to set its times.
#[cfg(unix)]
fn open_for_times(path: &Path) -> io::Result<File> {
    File::open(path)
}

/// A file or folder opened to set its times: Windows needs the right to write attributes,
/// which reading does not give, and opens a folder only with backup semantics.
#[cfg(windows)]
fn open_for_times(path: &Path) -> io::Result<File> {
    use std::os::windows::fs::OpenOptionsExt;
    const FILE_WRITE_ATTRIBUTES: u32 = 0x0100;
    const FILE_FLAG_BACKUP_SEMANTICS: u32 = 0x0200_0000;
    File::options()
        .access_mode(FILE_WRITE_ATTRIBUTES)
        .custom_flags(FILE_FLAG_BACKUP_SEMANTICS)
        .open(path)
}

/// Deletes a file, link or whole tree, without following links. What would stop the delete
/// halfway is lifted first, the tree being about to go: a folder that denies its owner
/// writing (Unix), a read-only file or folder (Windows).
pub fn remove_tree(path: &Path) -> io::Result<()> {
    let meta = fs::symlink_metadata(path)?;
    if !meta.is_dir() {
        let_owner_delete(path, &meta);
        return remove_link_or_file(path, &meta);
    }
    let mut folders = vec![(path.to_path_buf(), meta)];
    while let Some((dir, meta)) = folders.pop() {
        let_owner_delete(&dir, &meta);
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(meta) = fs::symlink_metadata(entry.path()) else {
                continue;
            };
            if meta.is_dir() {
                folders.push((entry.path(), meta));
            } else {
                let_owner_delete(&entry.path(), &meta);
            }
        }
    }
    fs::remove_dir_all(path)
}

/// Lets the owner delete what is in the folder `path`: read, write and search for the owner.
/// Files need nothing. Someone else's folder cannot be changed; `remove_dir_all` then names it.
#[cfg(unix)]
fn let_owner_delete(path: &Path, meta: &Metadata) {
    use std::os::unix::fs::PermissionsExt;
    let mode = meta.permissions().mode();
    if meta.is_dir() && mode & 0o700 != 0o700 {
        let _ = fs::set_permissions(path, fs::Permissions::from_mode(mode | 0o700));
    }
}

/// Clears the read-only attribute, which stops Windows deleting a file. Links are left alone:
/// the attribute would be set on what they point to.
#[cfg(windows)]
fn let_owner_delete(path: &Path, meta: &Metadata) {
    let mut permissions = meta.permissions();
    if permissions.readonly() && !meta.file_type().is_symlink() {
        // On Windows this clears one attribute; the lint warns of Unix's mode bits.
        #[allow(clippy::permissions_set_readonly_false)]
        permissions.set_readonly(false);
        let _ = fs::set_permissions(path, permissions);
    }
}

/// Deletes a file or a link.
#[cfg(unix)]
fn remove_link_or_file(path: &Path, _: &Metadata) -> io::Result<()> {
    fs::remove_file(path)
}

/// Deletes a file or a link; a link to a folder (or a junction) is deleted as a folder.
#[cfg(windows)]
fn remove_link_or_file(path: &Path, meta: &Metadata) -> io::Result<()> {
    use std::os::windows::fs::FileTypeExt;
    if meta.file_type().is_symlink_dir() {
        fs::remove_dir(path)
    } else {
        fs::remove_file(path)
    }
}

/// Replaces `path` with `bytes` so that a reader sees the old content or the new, never a
/// part: written to a temporary file beside it, flushed, then renamed over it.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let tmp = hidden_sibling(path)?;
    write_synced(&tmp, bytes)
        .and_then(|()| fs::rename(&tmp, path))
        .map_err(|e| {
            let _ = fs::remove_file(&tmp);
            Error::io("write", path, &e)
        })
}

fn write_synced(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = File::create(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

/// An exclusive lock on a file, held until dropped (the kernel lets go when the file closes,
/// also when the process dies, so a crash never leaves a stale lock behind).
pub struct Lock {
    _file: File,
}

impl Lock {
    /// Takes the lock on `path` (created if missing), waiting a while for another holder.
    pub fn acquire(path: &Path) -> Result<Lock, Error> {
        let file = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(path)
            .map_err(|e| Error::io("open the lock file", path, &e))?;
        let until = Instant::now() + LOCK_WAIT;
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(Lock { _file: file }),
                Err(TryLockError::WouldBlock) if Instant::now() < until => {
                    std::thread::sleep(Duration::from_millis(10));
                }
                Err(TryLockError::WouldBlock) => {
                    return Err(Error::new(format!(
                        "{} stayed locked by another agent-guard process for {}s; try again once it has finished",
                        path.display(),
                        LOCK_WAIT.as_secs()
                    )));
                }
                Err(TryLockError::Error(e)) => return Err(Error::io("lock", path, &e)),
            }
        }
    }
}

/// `path` with symbolic links resolved as far as it exists; the part that does not exist
/// yet is kept as written, less its `.` and `..`.
pub(crate) fn resolve_partly(path: &Path) -> PathBuf {
    for base in path.ancestors() {
        let Ok(mut real) = canonical(base) else {
            continue;
        };
        for part in path
            .strip_prefix(base)
            .unwrap_or(Path::new(""))
            .components()
        {
            match part {
                Component::ParentDir => {
                    real.pop();
                }
                Component::Normal(name) => real.push(name),
                _ => {}
            }
        }
        return real;
    }
    path.to_path_buf()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_path_that_does_not_exist_yet_resolves_as_far_as_it_exists() {
        let tmp = tempfile::tempdir().unwrap();
        let real = tmp.path().canonicalize().unwrap();
        std::os::unix::fs::symlink(&real, real.join("link")).unwrap();
        assert_eq!(
            resolve_partly(&real.join("link/new/../newer/file")),
            real.join("newer/file")
        );
    }
    #[cfg(unix)]
    use std::os::unix::fs::{MetadataExt, PermissionsExt, symlink};

    #[cfg(unix)]
    fn mode(path: &Path) -> u32 {
        fs::symlink_metadata(path).unwrap().mode() & 0o7777
    }

    #[cfg(unix)]
    #[test]
    fn copy_keeps_content_links_permissions_and_times() {
        let tmp = tempfile::tempdir().unwrap();
        let src = tmp.path().join("src");
        fs::create_dir_all(src.join("deep/er")).unwrap();
        fs::write(src.join("deep/er/data.bin"), [0u8, 159, 146, 150]).unwrap();
        fs::write(src.join("run.sh"), "#!/bin/sh\n").unwrap();
        fs::set_permissions(src.join("run.sh"), fs::Permissions::from_mode(0o751)).unwrap();
        symlink("../outside/target", src.join("link")).unwrap();
        fs::set_permissions(src.join("deep"), fs::Permissions::from_mode(0o555)).unwrap();
        let old = std::time::SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000);
        File::open(src.join("run.sh"))
            .unwrap()
            .set_modified(old)
            .unwrap();

        let dst = tmp.path().join("dst");
        copy_tree(&src, &dst).unwrap();

        assert_eq!(
            fs::read(dst.join("deep/er/data.bin")).unwrap(),
            [0u8, 159, 146, 150]
        );
        assert_eq!(mode(&dst.join("run.sh")), 0o751);
        assert_eq!(mode(&dst.join("deep")), 0o555);
        assert_eq!(
            fs::read_link(dst.join("link")).unwrap(),
            Path::new("../outside/target")
        );
        assert_eq!(
            fs::metadata(dst.join("run.sh"))
                .unwrap()
                .modified()
                .unwrap(),
            old
        );
        remove_tree(&dst).unwrap();
        remove_tree(&src).unwrap();
        assert!(!src.exists() && !dst.exists());
    }

    #[test]
    fn move_within_one_filesystem_renames() {
        let tmp = tempfile::tempdir().unwrap();
        fs::create_dir(tmp.path().join("a")).unwrap();
        fs::write(tmp.path().join("a/f"), "x").unwrap();
        let note = move_tree(&tmp.path().join("a"), &tmp.path().join("b")).unwrap();
        assert_eq!(note, None);
        assert_eq!(fs::read_to_string(tmp.path().join("b/f")).unwrap(), "x");
        assert!(!tmp.path().join("a").exists());
    }

    #[test]
    fn atomic_write_replaces_and_leaves_no_temporary_file() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("state.json");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "two");
        assert_eq!(fs::read_dir(tmp.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_lock_is_exclusive_until_dropped() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("x.lock");
        let held = Lock::acquire(&path).unwrap();
        let other = File::options().write(true).open(&path).unwrap();
        assert!(matches!(other.try_lock(), Err(TryLockError::WouldBlock)));
        drop(held);
        assert!(other.try_lock().is_ok());
    }
}
