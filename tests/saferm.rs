//! `agent-guard rm`, `trash` and `restore`, run as the real binary against real repositories
//! built with the real `git` in scratch folders. HOME and XDG_DATA_HOME always point into the
//! scratch folder, so no test touches the real home or the real user trash.
//!
//! Unix only: the scenarios rely on modes, device numbers and links made without privileges.
//! The Windows path rules are unit tests of `saferm::paths` and `config::dirs`.
#![cfg(unix)]

mod common;
mod scratch;

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// The shared scratch world ([`scratch::World`]): `work/` is a git repository with one
/// commit (`README.md`, `src/lib.rs`) and the directory the binary runs in; `home/` is
/// HOME; `data/` is XDG_DATA_HOME.
struct World {
    scratch: scratch::World,
}

impl World {
    fn new() -> World {
        World {
            scratch: scratch::World::repo(),
        }
    }

    /// The same folders, without a repository.
    fn bare() -> World {
        World {
            scratch: scratch::World::bare_folder(),
        }
    }

    /// The scratch folder holding `work/`, `home/` and `data/`.
    fn base(&self) -> PathBuf {
        self.repo().parent().unwrap().to_path_buf()
    }

    fn repo(&self) -> PathBuf {
        self.scratch.repo.canonicalize().unwrap()
    }

    fn home(&self) -> PathBuf {
        self.base().join("home")
    }

    fn data(&self) -> PathBuf {
        self.base().join("data")
    }

    fn git(&self, args: &[&str]) -> String {
        self.scratch.git(args)
    }

    fn write(&self, rel: &str, text: &str) -> PathBuf {
        self.scratch.write(rel, text.as_bytes());
        self.repo().join(rel)
    }

    /// `agent-guard`, to run in `dir` with the sandbox's environment only (no
    /// XDG_DATA_HOME, no session).
    fn command_in(&self, dir: &Path) -> assert_cmd::Command {
        let mut cmd = self.scratch.guard();
        cmd.current_dir(dir);
        cmd
    }

    /// `agent-guard <args>` in `dir`, as session `tester`.
    fn run_in(&self, dir: &Path, args: &[&str]) -> Output {
        self.command_in(dir)
            .env("XDG_DATA_HOME", self.data())
            .env("AGENT_GUARD_SESSION", "tester")
            .args(args)
            .output()
            .unwrap()
    }

    fn run(&self, args: &[&str]) -> Output {
        self.run_in(&self.repo(), args)
    }

    fn repo_trash(&self) -> PathBuf {
        self.repo().join(".git/agent-guard/trash")
    }
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn code(out: &Output) -> i32 {
    out.status.code().expect("exited normally")
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", stdout(out)))
}

/// Asserts that `rm` refused (exit 1, nothing removed) and returns the report.
fn refused(out: &Output) -> String {
    let text = stdout(out);
    assert_eq!(code(out), 1, "expected a refusal: {text}{}", stderr(out));
    assert!(text.contains("refused; nothing was removed"), "{text}");
    text
}

/// Everything under `dir` as (kind, permissions, content or link target, file mtime): what
/// "byte for byte" means for a restore.
fn snapshot(dir: &Path) -> BTreeMap<String, (char, u32, Vec<u8>, i64)> {
    let mut all = BTreeMap::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        for entry in fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.file_name().unwrap() == ".git" {
                continue;
            }
            let meta = fs::symlink_metadata(&path).unwrap();
            let rel = path.strip_prefix(dir).unwrap().display().to_string();
            let mode = meta.mode() & 0o7777;
            let value = if meta.file_type().is_symlink() {
                let target = fs::read_link(&path).unwrap();
                ('l', 0, target.into_os_string().into_encoded_bytes(), 0)
            } else if meta.is_dir() {
                pending.push(path);
                ('d', mode, Vec::new(), 0)
            } else {
                ('f', mode, fs::read(&path).unwrap(), meta.mtime())
            };
            all.insert(rel, value);
        }
    }
    all
}

/// `build/`: nested folders, a binary file, an executable, a read-only folder and a link.
fn make_outputs(world: &World) {
    world.write("build/app.bin", "");
    fs::write(world.repo().join("build/app.bin"), [0u8, 255, 1, 254, 10]).unwrap();
    world.write("build/deep/er/report.txt", "report\n");
    let run = world.write("build/run.sh", "#!/bin/sh\necho hi\n");
    fs::set_permissions(&run, fs::Permissions::from_mode(0o751)).unwrap();
    symlink("deep/er/report.txt", world.repo().join("build/latest")).unwrap();
    fs::set_permissions(
        world.repo().join("build/deep"),
        fs::Permissions::from_mode(0o555),
    )
    .unwrap();
    world.write("notes.txt", "scratch notes\n");
}

#[test]
fn the_preview_changes_nothing() {
    let world = World::new();
    make_outputs(&world);
    let before = snapshot(&world.repo());
    let out = world.run(&["rm", "--root", ".", "build", "notes.txt"]);
    let text = stdout(&out);
    assert_eq!(code(&out), 0, "{text}{}", stderr(&out));
    assert!(
        text.contains("Preview only: add --yes to remove these."),
        "{text}"
    );
    assert!(text.contains("build      directory, 7 entries"), "{text}");
    assert!(
        text.contains("notes.txt  file, 1 entry, 14 bytes"),
        "{text}"
    );
    assert_eq!(snapshot(&world.repo()), before);
    assert!(!world.repo_trash().exists());
}

#[test]
fn yes_moves_to_the_trash_and_restore_brings_back_byte_for_byte() {
    let world = World::new();
    make_outputs(&world);
    let before = snapshot(&world.repo());

    let out = world.run(&["rm", "--root", ".", "build", "notes.txt", "--yes"]);
    let text = stdout(&out);
    assert_eq!(code(&out), 0, "{text}{}", stderr(&out));
    assert!(text.contains("Moved to the trash as "), "{text}");
    assert!(
        text.contains("Bring them back with `agent-guard restore "),
        "{text}"
    );
    assert!(!world.repo().join("build").exists());
    assert!(!world.repo().join("notes.txt").exists());

    let listing = json(&world.run(&["trash", "--json"]));
    let entries = listing["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 1);
    let entry = &entries[0];
    assert_eq!(entry["root"], world.repo().display().to_string());
    assert_eq!(entry["session"], "tester");
    let originals: Vec<&str> = entry["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["original"].as_str().unwrap())
        .collect();
    assert_eq!(
        originals,
        [
            world.repo().join("build").to_str().unwrap(),
            world.repo().join("notes.txt").to_str().unwrap()
        ]
    );

    let out = world.run(&["restore"]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    assert_eq!(snapshot(&world.repo()), before);
    let listing = json(&world.run(&["trash", "--json"]));
    assert_eq!(listing["entries"], Value::Array(vec![]));
}

#[test]
fn restore_takes_an_id_and_never_overwrites() {
    let world = World::new();
    world.write("one.txt", "first\n");
    world.write("two.txt", "second\n");
    for name in ["one.txt", "two.txt"] {
        let out = world.run(&["rm", "--root", ".", name, "--yes"]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
    }
    let listing = json(&world.run(&["trash", "--json"]));
    let ids: Vec<&str> = listing["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_str().unwrap())
        .collect();
    let first = ids[0].to_string();

    world.write("one.txt", "new work\n");
    let out = world.run(&["restore", &first]);
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("one.txt exists again"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        fs::read_to_string(world.repo().join("one.txt")).unwrap(),
        "new work\n"
    );

    fs::rename(world.repo().join("one.txt"), world.base().join("aside.txt")).unwrap();
    let out = world.run(&["restore", &first]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        fs::read_to_string(world.repo().join("one.txt")).unwrap(),
        "first\n"
    );
    assert!(!world.repo().join("two.txt").exists());
    // Without an id: the latest, which is the other one.
    let out = world.run(&["restore"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).contains(ids[1]), "{}", stdout(&out));
    assert_eq!(
        fs::read_to_string(world.repo().join("two.txt")).unwrap(),
        "second\n"
    );

    let out = world.run(&["restore", "no-such-id"]);
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("no entry `no-such-id`"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn outside_a_repository_the_trash_is_the_users() {
    let world = World::bare();
    let plain = world.repo();
    fs::write(plain.join("out.log"), "log\n").unwrap();
    let out = world.run(&["rm", "--root", ".", "out.log", "--yes"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let trash = world.data().join("agent-guard/trash");
    let entries: Vec<_> = fs::read_dir(&trash).unwrap().collect();
    assert_eq!(entries.len(), 1);

    // Without XDG_DATA_HOME: ~/.local/share.
    fs::write(plain.join("other.log"), "log\n").unwrap();
    let out = world
        .command_in(&world.repo())
        .env("AGENT_GUARD_SESSION", "tester")
        .args(["rm", "--root", ".", "other.log", "--yes"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        world
            .home()
            .join(".local/share/agent-guard/trash")
            .read_dir()
            .unwrap()
            .next()
            .is_some()
    );
}

#[test]
fn worktrees_share_the_repository_trash() {
    let world = World::new();
    let tree = world.base().join("tree");
    world.git(&["worktree", "add", "-q", tree.to_str().unwrap()]);
    fs::write(tree.join("scratch.txt"), "x\n").unwrap();
    let out = world.run_in(&tree, &["rm", "--root", ".", "scratch.txt", "--yes"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(fs::read_dir(world.repo_trash()).unwrap().count(), 1);
    let listing = json(&world.run(&["trash", "--json"]));
    assert_eq!(listing["entries"].as_array().unwrap().len(), 1);
    let out = world.run(&["restore"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(fs::read_to_string(tree.join("scratch.txt")).unwrap(), "x\n");
}

#[test]
fn a_move_across_filesystems_copies_and_restores_byte_for_byte() {
    // The user trash lives in the scratch folder; the root on another filesystem, when the
    // machine has one at hand.
    let Some(other) = ["/dev/shm", "/run/user"].iter().map(Path::new).find(|p| {
        fs::metadata(p).is_ok_and(|m| m.dev() != fs::metadata(std::env::temp_dir()).unwrap().dev())
            && tempfile::tempdir_in(p).is_ok()
    }) else {
        eprintln!("skipped: no second writable filesystem");
        return;
    };
    let world = World::bare();
    let root = tempfile::tempdir_in(other).unwrap();
    let root = root.path().canonicalize().unwrap();
    fs::create_dir_all(root.join("out/deep")).unwrap();
    fs::write(root.join("out/deep/data.bin"), [7u8, 0, 7]).unwrap();
    fs::write(root.join("out/tool"), "#!/bin/sh\n").unwrap();
    fs::set_permissions(root.join("out/tool"), fs::Permissions::from_mode(0o700)).unwrap();
    symlink("deep/data.bin", root.join("out/link")).unwrap();
    fs::set_permissions(root.join("out/deep"), fs::Permissions::from_mode(0o550)).unwrap();
    let before = snapshot(&root);

    let out = world.run_in(&root, &["rm", "--root", ".", "out", "--yes"]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    assert!(!root.join("out").exists());
    assert_eq!(fs::read_dir(&root).unwrap().count(), 0, "no leftovers");
    let out = world.run_in(&root, &["restore"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(snapshot(&root), before);
}

#[test]
fn permanent_deletes_without_a_trash() {
    let world = World::new();
    make_outputs(&world);
    let out = world.run(&["rm", "--root", ".", "build", "--permanent", "--yes"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stdout(&out).contains("Deleted for good"),
        "{}",
        stdout(&out)
    );
    assert!(!world.repo().join("build").exists());
    assert!(!world.repo_trash().exists());
    let leftovers: Vec<_> = fs::read_dir(world.repo())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n.to_string_lossy().contains("agent-guard"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn targets_inside_another_go_with_it() {
    let world = World::new();
    make_outputs(&world);
    let out = world.run(&["rm", "--root", ".", "build", "build/deep", "--yes"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stdout(&out).contains("inside build, goes with it"),
        "{}",
        stdout(&out)
    );
    let listing = json(&world.run(&["trash", "--json"]));
    assert_eq!(listing["entries"][0]["items"].as_array().unwrap().len(), 1);
}

#[test]
fn one_refused_target_refuses_them_all() {
    let world = World::new();
    make_outputs(&world);
    let before = snapshot(&world.repo());
    let out = world.run(&[
        "rm",
        "--root",
        ".",
        "build",
        "README.md",
        "notes.txt",
        "--yes",
    ]);
    let text = refused(&out);
    assert!(text.contains("README.md: is tracked by git"), "{text}");
    assert!(text.contains("1 of 3 targets refused"), "{text}");
    assert_eq!(snapshot(&world.repo()), before);
    assert!(!world.repo_trash().exists());
}

#[test]
fn yes_checks_again_what_the_preview_saw() {
    let world = World::new();
    make_outputs(&world);
    assert_eq!(code(&world.run(&["rm", "--root", ".", "build"])), 0);
    world.git(&["add", "build/deep/er/report.txt"]);
    let text = refused(&world.run(&["rm", "--root", ".", "build", "--yes"]));
    assert!(text.contains("build/deep/er/report.txt"), "{text}");
    assert!(world.repo().join("build/deep/er/report.txt").exists());
}

#[test]
fn refuses_a_path_outside_the_root() {
    let world = World::new();
    make_outputs(&world);
    let text = refused(&world.run(&["rm", "--root", "build", "notes.txt"]));
    assert!(text.contains("notes.txt: is outside the root"), "{text}");
}

#[test]
fn refuses_a_symlink_that_escapes_the_root() {
    let world = World::new();
    let outside = world.base().join("outside");
    fs::create_dir(&outside).unwrap();
    fs::write(outside.join("precious.txt"), "keep\n").unwrap();
    fs::create_dir(world.repo().join("build")).unwrap();
    symlink(&outside, world.repo().join("build/escape")).unwrap();

    // A path through the link resolves outside the root.
    let text = refused(&world.run(&["rm", "--root", "build", "build/escape/precious.txt"]));
    assert!(text.contains("is outside the root"), "{text}");
    assert!(text.contains("it resolves to"), "{text}");
    // So does the link with a trailing slash, which names the folder it points to.
    let text = refused(&world.run(&["rm", "--root", "build", "build/escape/"]));
    assert!(text.contains("is outside the root"), "{text}");
    // The link itself points out of the root.
    let text = refused(&world.run(&["rm", "--root", "build", "build/escape"]));
    assert!(
        text.contains("is a symbolic link to") && text.contains("not inside the root"),
        "{text}"
    );
    // A root given through a link is resolved too: the same refusal.
    symlink(world.repo().join("build"), world.base().join("via")).unwrap();
    let via = world.base().join("via");
    let text = refused(&world.run(&[
        "rm",
        "--root",
        via.to_str().unwrap(),
        via.join("escape/precious.txt").to_str().unwrap(),
    ]));
    assert!(text.contains("is outside the root"), "{text}");
    assert!(outside.join("precious.txt").exists());

    // A dangling link is judged by where it points, too.
    symlink(
        outside.join("gone"),
        world.repo().join("build/dangling-out"),
    )
    .unwrap();
    let text = refused(&world.run(&["rm", "--root", "build", "build/dangling-out"]));
    assert!(text.contains("not inside the root"), "{text}");
    symlink("not-yet", world.repo().join("build/dangling-in")).unwrap();
    let out = world.run(&["rm", "--root", "build", "build/dangling-in", "--yes"]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert_eq!(code(&world.run(&["restore"])), 0);
    assert_eq!(
        fs::read_link(world.repo().join("build/dangling-in")).unwrap(),
        Path::new("not-yet")
    );
}

#[test]
fn refuses_the_trash_itself() {
    let world = World::bare();
    fs::write(world.repo().join("a.log"), "x").unwrap();
    assert_eq!(
        code(&world.run(&["rm", "--root", ".", "a.log", "--yes"])),
        0
    );
    let base = world.base();
    let text = refused(&world.run(&[
        "rm",
        "--root",
        base.to_str().unwrap(),
        world.data().join("agent-guard/trash").to_str().unwrap(),
    ]));
    assert!(text.contains("is in the agent-guard trash"), "{text}");
    let text = refused(&world.run(&[
        "rm",
        "--root",
        base.to_str().unwrap(),
        world.data().to_str().unwrap(),
    ]));
    assert!(text.contains("holds the agent-guard trash"), "{text}");
}

#[test]
fn a_name_that_is_not_utf8_is_refused_and_reported() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let world = World::bare();
    let name = OsStr::from_bytes(b"bad-\xff-name");
    fs::write(world.repo().join(name), "x").unwrap();
    let out = world
        .command_in(&world.repo())
        .env("XDG_DATA_HOME", world.data())
        .args(["rm", "--root", ".", "--json"])
        .arg(name)
        .output()
        .unwrap();
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let report = json(&out);
    assert_eq!(report["status"], "refused");
    assert!(
        report["targets"][0]["refused"]
            .as_str()
            .unwrap()
            .contains("not valid UTF-8")
    );
    assert!(world.repo().join(name).exists());
}

#[test]
fn refuses_the_root_itself() {
    let world = World::new();
    make_outputs(&world);
    let text = refused(&world.run(&["rm", "--root", "build", "build", "--yes"]));
    assert!(text.contains("build: is the root itself"), "{text}");
}

#[test]
fn refuses_the_home_folder() {
    let world = World::new();
    let base = world.base();
    let text = refused(&world.run(&[
        "rm",
        "--root",
        base.to_str().unwrap(),
        world.home().to_str().unwrap(),
    ]));
    assert!(text.contains("is your home folder"), "{text}");
    // And what holds it.
    let text = refused(&world.run(&["rm", "--root", "/", base.to_str().unwrap()]));
    assert!(text.contains("holds your home folder"), "{text}");
}

#[test]
fn refuses_the_filesystem_root_and_system_folders() {
    let world = World::new();
    let text = refused(&world.run(&["rm", "--root", ".", "/"]));
    assert!(text.contains("/: is the filesystem root `/`"), "{text}");
    let text = refused(&world.run(&["rm", "--root", "/", "/"]));
    assert!(text.contains("/: is the filesystem root `/`"), "{text}");
    let text = refused(&world.run(&["rm", "--root", "/", "/usr"]));
    assert!(text.contains("/usr: is a system folder"), "{text}");
}

#[test]
fn refuses_the_current_directory() {
    let world = World::new();
    make_outputs(&world);
    let build = world.repo().join("build");
    let text = refused(&world.run_in(&build, &["rm", "--root", "..", "."]));
    assert!(text.contains(".: is the current directory"), "{text}");
    let deep = world.repo().join("build/deep");
    let text = refused(&world.run_in(&deep, &["rm", "--root", "../..", "../../build"]));
    assert!(text.contains("holds the current directory"), "{text}");
}

#[test]
fn refuses_git_stores_and_nested_repositories() {
    let world = World::new();
    let text = refused(&world.run(&["rm", "--root", ".", ".git"]));
    assert!(text.contains(".git: is `.git`"), "{text}");
    let text = refused(&world.run(&["rm", "--root", ".", ".git/config"]));
    assert!(text.contains("is inside `.git`"), "{text}");
    let text = refused(&world.run(&["rm", "--root", ".", ".git/objects"]));
    assert!(text.contains("is inside `.git`"), "{text}");

    let vendored = world.repo().join("vendor/lib");
    fs::create_dir_all(&vendored).unwrap();
    world.scratch.sh("git init -q vendor/lib");
    let text = refused(&world.run(&["rm", "--root", ".", "vendor"]));
    assert!(
        text.contains("holds a repository store, vendor/lib/.git"),
        "{text}"
    );
}

#[test]
fn refuses_tracked_files_and_names_git_rm() {
    let world = World::new();
    let text = refused(&world.run(&["rm", "--root", ".", "README.md"]));
    assert!(
        text.contains("README.md: is tracked by git; remove it with `git rm README.md`"),
        "{text}"
    );
    world.write("src/scratch.tmp", "x");
    let text = refused(&world.run(&["rm", "--root", ".", "src"]));
    assert!(
        text.contains("holds 1 file (src/lib.rs) that git tracks")
            && text.contains("`git rm -r src`"),
        "{text}"
    );
}

#[test]
fn refuses_uncommitted_changes() {
    let world = World::new();
    world.write("src/lib.rs", "pub fn f() { changed() }\n");
    let text = refused(&world.run(&["rm", "--root", ".", "src/lib.rs"]));
    assert!(
        text.contains("src/lib.rs: has uncommitted changes to 1 tracked file (src/lib.rs)"),
        "{text}"
    );
    // A new file that is only staged is work too.
    world.write("staged.txt", "new\n");
    world.git(&["add", "staged.txt"]);
    let text = refused(&world.run(&["rm", "--root", ".", "staged.txt"]));
    assert!(
        text.contains("staged.txt: has uncommitted changes"),
        "{text}"
    );
}

#[test]
fn ignored_and_untracked_outputs_may_go() {
    let world = World::new();
    world.write(".gitignore", "target/\n");
    world.git(&["add", ".gitignore"]);
    world.git(&["commit", "-q", "-m", "ignore"]);
    world.write("target/debug/app", "bin");
    world.write("untracked/new.txt", "x");
    let out = world.run(&["rm", "--root", ".", "target", "untracked", "--yes"]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    assert!(!world.repo().join("target").exists());
}

#[test]
fn refuses_what_does_not_exist() {
    let world = World::new();
    let text = refused(&world.run(&["rm", "--root", ".", "missing.txt"]));
    assert!(text.contains("missing.txt: does not exist"), "{text}");
}

#[test]
fn refuses_a_mount_crossing() {
    // A private mount namespace keeps the mount from ever being seen outside this test.
    let world = World::new();
    make_outputs(&world);
    let mnt = world.repo().join("build/mnt");
    fs::create_dir(&mnt).unwrap();
    let in_namespace = |then: &[&str]| {
        Command::new("unshare")
            .args(["--mount", "--propagation", "private", "sh", "-c"])
            .arg(r#"mount -t tmpfs none "$1" && shift && exec "$@""#)
            .arg("sh")
            .arg(&mnt)
            .args(then)
            .current_dir(world.repo())
            .env("HOME", world.home())
            .env("XDG_DATA_HOME", world.data())
            .env("AGENT_GUARD_SESSION", "tester")
            .output()
    };
    if !in_namespace(&["true"]).is_ok_and(|out| out.status.success()) {
        eprintln!(
            "skipped: no mount in a private namespace here (the st_dev check has a unit test)"
        );
        return;
    }
    let bin = env!("CARGO_BIN_EXE_agent-guard");
    let text = refused(&in_namespace(&[bin, "rm", "--root", ".", "build"]).unwrap());
    assert!(text.contains("holds a mount point, build/mnt"), "{text}");
    let text = refused(&in_namespace(&[bin, "rm", "--root", ".", "build/mnt"]).unwrap());
    assert!(
        text.contains("is on another filesystem than the root"),
        "{text}"
    );
}

#[test]
fn the_trash_lists_and_purges_by_age() {
    let world = World::new();
    for name in ["old.txt", "new.txt"] {
        world.write(name, name);
        let out = world.run(&["rm", "--root", ".", name, "--yes"]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
    }
    // Age the first removal by eight days.
    let listing = json(&world.run(&["trash", "--json"]));
    let old = listing["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| {
            e["items"][0]["original"]
                .as_str()
                .unwrap()
                .ends_with("old.txt")
        })
        .unwrap();
    let record = world
        .repo_trash()
        .join(old["id"].as_str().unwrap())
        .join("entry.json");
    let mut entry: Value = serde_json::from_slice(&fs::read(&record).unwrap()).unwrap();
    entry["time"] = Value::from(entry["time"].as_u64().unwrap() - 8 * 86_400);
    fs::write(&record, serde_json::to_vec(&entry).unwrap()).unwrap();

    let text = stdout(&world.run(&["trash"]));
    assert!(text.contains("2 removals in the trash"), "{text}");
    assert!(text.contains("(8d ago)"), "{text}");
    assert!(text.contains("old.txt  (file)"), "{text}");

    let out = world.run(&["trash", "--purge", "--older-than", "7d"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stdout(&out).contains("Purged 1 removal"),
        "{}",
        stdout(&out)
    );
    let listing = json(&world.run(&["trash", "--json"]));
    let left = listing["entries"].as_array().unwrap();
    assert_eq!(left.len(), 1);
    assert!(
        left[0]["items"][0]["original"]
            .as_str()
            .unwrap()
            .ends_with("new.txt")
    );

    let out = world.run(&["trash", "--purge"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(fs::read_dir(world.repo_trash()).unwrap().count(), 0);
    assert!(stdout(&world.run(&["trash"])).contains("is empty"));
    assert_eq!(code(&world.run(&["restore"])), 1);
}

#[test]
fn json_reports_each_outcome() {
    let world = World::new();
    make_outputs(&world);
    let preview = json(&world.run(&["rm", "--root", ".", "build", "--json"]));
    assert_eq!(preview["status"], "preview");
    assert_eq!(preview["targets"][0]["entries"], 7);
    assert_eq!(preview["targets"][0]["kind"], "directory");

    let out = world.run(&["rm", "--root", ".", "README.md", "--json"]);
    assert_eq!(code(&out), 1);
    let refusal = json(&out);
    assert_eq!(refusal["status"], "refused");
    assert!(
        refusal["targets"][0]["refused"]
            .as_str()
            .unwrap()
            .contains("tracked")
    );

    let removed = json(&world.run(&["rm", "--root", ".", "build", "--yes", "--json"]));
    assert_eq!(removed["status"], "removed");
    assert!(removed["entry"]["id"].is_string());
    assert_eq!(removed["trash"], world.repo_trash().display().to_string());
}

#[test]
fn usage_errors_exit_2() {
    let world = World::new();
    for args in [
        &["rm", "build"][..],
        &["rm", "--root", "."],
        &["rm", "--root", "no/such/dir", "x"],
        &["rm", "--root", "README.md", "x"],
        &["trash", "--older-than", "7d"],
        &["trash", "--purge", "--older-than", "soon"],
    ] {
        let out = world.run(args);
        assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
        assert!(!stderr(&out).trim().is_empty(), "{args:?}");
    }
}

#[test]
fn every_command_explains_itself() {
    let world = World::new();
    for command in ["rm", "restore", "trash"] {
        let out = world.run(&[command, "--help"]);
        assert_eq!(code(&out), 0);
        assert!(stdout(&out).contains("Usage: agent-guard"), "{command}");
    }
    let help = stdout(&world.run(&["rm", "--help"]));
    for word in ["--root", "--yes", "--permanent", "git rm", "Exit status"] {
        assert!(help.contains(word), "{word}: {help}");
    }
}
