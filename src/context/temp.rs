//! Temporary folders in every spelling agents write them: `/tmp`, macOS's `/private/tmp` and
//! `/var/folders/…/T/`, a host's scratchpad under them, and on Windows `%TEMP%`,
//! `$env:TEMP`, `AppData\Local\Temp` and `C:\Windows\Temp`, read from the text as written
//! (the paths need not exist here), and this machine's own (`$TMPDIR`, `%TEMP%`).
//!
//! What a delete takes inside one is scratch by where it lies, whatever the line did there
//! before (unpacked, built, copied into it), except a git checkout found there and whatever
//! an earlier `mv` of the line carried in: those are judged as anywhere else.

use std::path::{Path, PathBuf};

use super::Context;
use super::run::git;
use crate::shell::{SimpleCommand, Word};
use crate::syntax::argv::{self, Style, Valued};
use crate::syntax::git as git_args;
use crate::syntax::writes;

/// Environment variables that name a temporary folder, as cmd and PowerShell spell them:
/// their names are compared case-insensitively, after `\` became `/`.
const WINDOWS_VARIABLES: &[&str] = &[
    "%temp%",
    "%tmp%",
    "$env:temp",
    "$env:tmp",
    "${env:temp}",
    "${env:tmp}",
    "%localappdata%/temp",
    "$env:localappdata/temp",
];

/// The same in a POSIX shell, whose names are case-sensitive (`$tmpdir` is the line's own).
const POSIX_VARIABLES: &[&str] = &["$TMPDIR", "${TMPDIR}", "$TEMP", "${TEMP}", "$TMP", "${TMP}"];

/// How long the temporary-folder variable `text` starts with is, if it starts with one
/// followed by nothing or `/`.
fn variable_prefix(text: &str) -> Option<usize> {
    let lower = text.to_ascii_lowercase();
    let ends_at = |len: usize| matches!(text.as_bytes().get(len), None | Some(b'/'));
    WINDOWS_VARIABLES
        .iter()
        .find(|v| lower.starts_with(**v) && ends_at(v.len()))
        .or_else(|| {
            POSIX_VARIABLES
                .iter()
                .find(|v| text.starts_with(**v) && ends_at(v.len()))
        })
        .map(|v| v.len())
}

/// Why every target lies inside a temporary folder, when each one does: its text names a
/// place inside one (a glob in it cannot climb out), the folders it runs in exist or are
/// made earlier in the line, and no git checkout lies there or right under it. `None` when
/// any target is not shown so.
pub(super) fn all_inside(
    ctx: &Context,
    dirs: &[Word],
    targets: &[Word],
    before: &[&SimpleCommand],
) -> Option<String> {
    let base = lexical_directory(ctx, dirs, before);
    let mut shown = Vec::new();
    for target in targets {
        let path = inside(ctx, base.as_deref(), target)?;
        if holds_checkout(ctx, &path) || leaves_by_link(&path) || moved_into(ctx, &path, before) {
            return None;
        }
        shown.push(format!("`{}`", target.text));
    }
    (!shown.is_empty()).then(|| {
        format!(
            "{} {} inside a temporary folder",
            shown.join(", "),
            if shown.len() == 1 { "lies" } else { "lie" }
        )
    })
}

/// Why a git command that overwrites only its work tree loses nothing there: the work tree
/// (`--work-tree`, or `GIT_WORK_TREE`) is named as written, absolute and inside a temporary
/// folder, where a deploy or export is unpacked, and holds no repository of its own.
pub(super) fn work_tree_inside(
    ctx: &Context,
    globals: &[String],
    env: &[(String, Word)],
) -> Option<String> {
    let words: Vec<Word> = globals.iter().map(Word::literal).collect();
    let named = crate::syntax::git::read(&words)
        .work_tree()
        .map(|w| w.text.clone())
        .or_else(|| {
            env.iter()
                .rev()
                .find(|(name, _)| name == "GIT_WORK_TREE")
                .and_then(|(_, w)| w.value().map(str::to_string))
        })?;
    if named.contains(['$', '`']) || !is_absolute(&named.replace('\\', "/")) {
        return None;
    }
    let path = inside(ctx, None, &Word::literal(&named))?;
    let tree = Path::new(&path);
    if tree.join(".git").exists() || holds_checkout(ctx, &path) {
        return None;
    }
    Some(format!(
        "its work tree `{named}` lies inside a temporary folder"
    ))
}

/// The path `word` names, `/`-separated with `.` and `..` folded, when it lies strictly
/// inside a temporary folder; `base` is where a relative one starts, as the line's `cd`s
/// spell it.
fn inside(ctx: &Context, base: Option<&str>, word: &Word) -> Option<String> {
    let text = word.text.replace('\\', "/");
    if !word.literal && !climbs_not(&text) {
        return None;
    }
    let joined = if let Some(len) = variable_prefix(&text) {
        // This machine's own temporary folder stands in for the variable's value.
        let here = std::env::temp_dir();
        format!(
            "{}{}",
            here.to_str()?.replace('\\', "/").trim_end_matches('/'),
            &text[len..]
        )
    } else if !word.literal && (text.contains(['$', '`', '%', '{']) || text.starts_with('~')) {
        return None;
    } else if is_absolute(&text) {
        text
    } else if let Some(rest) = text.strip_prefix("~/") {
        format!("{}/{rest}", ctx.home.as_ref()?.to_str()?)
    } else {
        format!("{}/{text}", base?)
    };
    let path = folded(&joined)?;
    is_temporary(&path).then_some(path)
}

/// A non-literal word whose only unknowns are globs that cannot name `..`: `*` and `?` never
/// match `/`, and a part that starts with a dot and holds a glob (`.*`) is refused, since it
/// may match `..` itself.
fn climbs_not(text: &str) -> bool {
    text.split('/').all(|part| {
        let globbed = part.contains(['*', '?', '[']);
        !(part == ".." || globbed && part.starts_with('.'))
    })
}

/// `/x`, `C:/x`, `//server/x`: a path that does not depend on where the command runs.
fn is_absolute(text: &str) -> bool {
    let bytes = text.as_bytes();
    text.starts_with('/') || matches!(bytes, [drive, b':', b'/', ..] if drive.is_ascii_alphabetic())
}

/// `path` with `.`, `..` and doubled slashes folded; `None` if `..` climbs above its root.
fn folded(path: &str) -> Option<String> {
    let (root, rest) = match path.as_bytes() {
        [drive, b':', b'/', ..] if drive.is_ascii_alphabetic() => path.split_at(3),
        _ => path.split_at(1),
    };
    let mut parts: Vec<&str> = Vec::new();
    for part in rest.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(format!("{root}{}", parts.join("/")))
}

/// Whether `path` (absolute, folded) lies strictly inside a temporary folder.
fn is_temporary(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    let parts: Vec<&str> = lower.split('/').filter(|p| !p.is_empty()).collect();
    // The parts after the one that makes `parts[..at]` a temporary folder.
    let deeper = |at: usize| parts.len() > at;
    let windows_user_temp = parts
        .windows(3)
        .position(|w| w == ["appdata", "local", "temp"])
        .is_some_and(|at| deeper(at + 3));
    let rest = parts.strip_prefix(&["private"][..]).unwrap_or(&parts[..]);
    let skipped = parts.len() - rest.len();
    let unix = match rest {
        ["tmp", ..] => Some(1),
        ["var", "tmp", ..] => Some(2),
        // macOS's per-user folder: /var/folders/xy/<random>/T/.
        ["var", "folders", _, _, "t", ..] => Some(5),
        _ => None,
    }
    .is_some_and(|depth| deeper(skipped + depth));
    // `C:/Windows/Temp`, and Git Bash's or WSL's spelling of it (`/c/Windows/Temp`,
    // `/mnt/c/Windows/Temp`).
    let drive = match parts.as_slice() {
        [d, ..] if d.len() == 2 && d.ends_with(':') => 1,
        ["mnt", d, ..] if d.len() == 1 => 2,
        [d, ..] if d.len() == 1 => 1,
        _ => 0,
    };
    let windows_temp =
        drive > 0 && parts.get(drive..drive + 2) == Some(&["windows", "temp"]) && deeper(drive + 2);
    unix || windows_user_temp || windows_temp || machine_temporary(path)
}

/// Inside one of this machine's own temporary folders (`$TMPDIR`, `%TEMP%`), as the file
/// system resolves them.
fn machine_temporary(path: &str) -> bool {
    let path = Path::new(path);
    super::paths::temp_roots()
        .iter()
        .any(|root| path.starts_with(root) && path != root)
}

/// The folder the line's `cd`s lead to, as text: each step literal, and each folder there or
/// made by an earlier `mkdir` of the line (else a failing `cd` could leave the command
/// somewhere else).
fn lexical_directory(ctx: &Context, dirs: &[Word], before: &[&SimpleCommand]) -> Option<String> {
    let mut current = ctx.start.as_ref()?.to_str()?.replace('\\', "/");
    for word in dirs {
        let step = word.value()?.replace('\\', "/");
        let next = if is_absolute(&step) {
            step
        } else if step == "~" || step.starts_with("~/") {
            format!("{}{}", ctx.home.as_ref()?.to_str()?, &step[1..])
        } else if step == "-" {
            return None;
        } else {
            format!("{current}/{step}")
        };
        let next = folded(&next)?;
        if !Path::new(&next).is_dir() && !made_earlier(ctx, &next, before) {
            return None;
        }
        current = next;
    }
    Some(current)
}

/// Whether an earlier `mkdir` of the line names `folder`.
fn made_earlier(ctx: &Context, folder: &str, before: &[&SimpleCommand]) -> bool {
    before.iter().any(|cmd| {
        cmd.program() == Some("mkdir")
            && writes::of("mkdir", cmd.args()).writes.iter().any(|made| {
                let base = lexical_directory(ctx, &cmd.dirs, &[]);
                made.path.literal
                    && inside_or_at(base.as_deref(), &made.path).as_deref() == Some(folder)
            })
    })
}

/// The folded path a literal word names from `base`.
fn inside_or_at(base: Option<&str>, word: &Word) -> Option<String> {
    let text = word.value()?.replace('\\', "/");
    if is_absolute(&text) {
        folded(&text)
    } else {
        folded(&format!("{}/{text}", base?))
    }
}

/// Whether a git checkout holds `path` (or its nearest existing folder), or sits right
/// inside it: a clone under `/tmp` is someone's work too.
fn holds_checkout(ctx: &Context, path: &str) -> bool {
    let glob_free: String = path
        .split('/')
        .take_while(|part| !part.contains(['*', '?', '[']))
        .collect::<Vec<_>>()
        .join("/");
    let Some(existing) = Path::new(&glob_free)
        .ancestors()
        .find(|a| a.is_absolute() && a.exists())
        .map(Path::to_path_buf)
    else {
        return false;
    };
    let folder = if existing.is_dir() {
        existing.clone()
    } else {
        existing
            .parent()
            .map_or_else(|| existing.clone(), Path::to_path_buf)
    };
    // No answer in time counts as a checkout: only an answer clears.
    match git(
        ctx,
        &folder,
        None,
        &[],
        &["rev-parse", "--is-inside-work-tree"],
    ) {
        Some(_) => return true,
        None if ctx.time_left().is_none() => return true,
        // Git that could not run is no answer either: a `.git` above is a checkout.
        None if folder.ancestors().any(|dir| dir.join(".git").exists()) => return true,
        None => {}
    }
    // A glob takes every entry of the folder it stands in.
    let globbed = glob_free.len() < path.len() && Path::new(&glob_free) == existing;
    globbed && has_checkout_child(&existing)
}

/// Whether the nearest existing folder on the way to `path` is, once links are followed,
/// outside every temporary folder (`/tmp/x` a link to a project): what the delete reaches
/// through it is judged as anywhere else.
fn leaves_by_link(path: &str) -> bool {
    let Some(existing) = Path::new(path)
        .ancestors()
        .find(|a| a.is_absolute() && a.exists())
    else {
        return false;
    };
    // A temporary root itself (`/tmp`) is where what lies in it starts; above one, nothing
    // of the path exists here to lead anywhere.
    let at_or_inside =
        |p: &str| is_temporary(p) || is_temporary(&format!("{}/entry", p.trim_end_matches('/')));
    if !existing.to_str().is_some_and(at_or_inside) {
        return false;
    }
    existing
        .canonicalize()
        .ok()
        .and_then(|r| r.to_str().map(|r| r.replace('\\', "/")))
        .is_none_or(|real| !at_or_inside(&real))
}

fn has_checkout_child(folder: &Path) -> bool {
    std::fs::read_dir(folder)
        .is_ok_and(|entries| entries.flatten().any(|e| e.path().join(".git").exists()))
}

/// Whether an earlier `mv` of the line may have carried something into `path`: its
/// operands touch it, or are not known.
fn moved_into(ctx: &Context, path: &str, before: &[&SimpleCommand]) -> bool {
    let path = PathBuf::from(path);
    before.iter().any(|cmd| {
        let mover: Vec<Word> = match cmd.program() {
            Some("mv") => writes::of("mv", cmd.args())
                .writes
                .into_iter()
                .flat_map(|moved| [Some(moved.path), moved.from])
                .flatten()
                .collect(),
            Some("git") => {
                let git = git_args::read(cmd.args());
                if git.subcommand().is_none_or(|sub| sub.text != "mv") {
                    return false;
                }
                let rest = git.rest();
                let read = argv::read(rest, Style::Getopt, &Valued(&[]));
                read.operands
                    .iter()
                    .filter_map(|&i| rest.get(i))
                    .cloned()
                    .collect()
            }
            _ => return false,
        };
        let base = lexical_directory(ctx, &cmd.dirs, &[]);
        mover
            .iter()
            .any(|w| match inside_or_at(base.as_deref(), w) {
                Some(moved) => {
                    let moved = PathBuf::from(moved);
                    moved.starts_with(&path) || path.starts_with(&moved)
                }
                None => true,
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporary_folders_in_every_spelling() {
        for path in [
            "/tmp/x",
            "/private/tmp/claude-501/-Users-me-app/e4731051/scratchpad/out",
            "/var/tmp/x",
            "/private/var/folders/xy/abc123/T/x",
            "/var/folders/xy/abc123/T/tmp.1/y",
            "C:/Users/Me/AppData/Local/Temp/x",
            "c:/windows/temp/x",
            "/c/Users/Administrator/AppData/Local/Temp/*",
            "/c/Windows/Temp/x",
            "/mnt/c/Windows/Temp/x",
        ] {
            assert!(is_temporary(path), "{path}");
        }
        for path in [
            "/tmp",
            "/private/tmp",
            "/tmpfiles/x",
            "/var/folders/xy/abc123/C/x",
            "/var/folders/xy",
            "C:/Windows/Temp",
            "C:/Users/Me/AppData/Local/Temp",
            "C:/Users/Me/AppData/Local/x",
            "/home/me/tmp/x",
            "/c/Windows/System32",
        ] {
            assert!(!is_temporary(path), "{path}");
        }
    }

    #[test]
    fn variables_for_the_temporary_folder() {
        for text in [
            "%TEMP%/*.*",
            "%temp%",
            "$env:TEMP/x",
            "${env:tmp}/x",
            "$TMPDIR/x",
        ] {
            assert!(variable_prefix(text).is_some(), "{text}");
        }
        for text in [
            "$tmpdir",
            "$TMPDIR2/x",
            "%TEMPDIR%",
            "$env:TEMPLATE",
            "$tmp/x",
        ] {
            assert!(variable_prefix(text).is_none(), "{text}");
        }
    }

    #[test]
    fn globs_that_could_climb_are_refused() {
        assert!(climbs_not("/tmp/x/*"));
        assert!(climbs_not("C:/Windows/Temp/*.*"));
        assert!(!climbs_not("/tmp/.*"));
        assert!(!climbs_not("/tmp/../*"));
        assert_eq!(folded("/tmp/a/../b/./c"), Some("/tmp/b/c".into()));
        assert_eq!(folded("/tmp/../../x"), None);
        assert_eq!(folded("C:/Windows/Temp/../x"), Some("C:/Windows/x".into()));
    }
}
