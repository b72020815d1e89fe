//! Sets of files picked by a pattern or a listing rather than by name, and deleted at once:
//! `find -delete` narrowed only by a pattern over the project's own files, and the output of
//! `find`, `fd`, `ls` or `git ls-files` fed to a deleter (`xargs rm`, `parallel rm`,
//! `fd --exec rm`). Output known by name (`*.pyc`, `*.o`, `*~`, `.DS_Store`) and files
//! inside a build folder are what such a sweep is for; anything else is someone's work.
//!
//! This file says what such a set is and when it is output; [`super::find`] and
//! [`super::listings`] read the commands that pick one.

use crate::rules::{Hit, Rule, Subject, Tier};
use crate::settings::REGENERABLE;
use crate::shell::Word;

pub static RM_SET: Rule = Rule {
    id: "fs.rm-set",
    catches: "a set of files a pattern or a listing picks, deleted at once: `find -delete`/`-exec \
              rm` narrowed only by a pattern that names no output (`-name '*.c'`), and the \
              output of `find`, `fd`, `ls` or `git ls-files --others/--modified` fed to `xargs \
              rm`, `parallel rm`, `fd --exec rm` or `rm $(...)` (also `shred`, `srm`, `wipe`, \
              `unlink`)",
    why: "A pattern such as `*.c` or a listing such as `ls -t | tail -n +6` names files by kind \
          or by age, not by name: every file it matches goes at once, with no trash, and what \
          git does not track cannot come back. Only output known by name (`*.pyc`, `*.o`, \
          `*.log`, `*~`, `.DS_Store`) or files inside a build folder are safe to sweep.",
    instead: "Run the listing alone first (the same pipeline without the delete, or `find ... \
              -print`); then remove what it shows with `agent-guard rm --root <dir> <paths>` \
              (it previews, and with `--yes` keeps them in a trash), or `git rm` for tracked \
              files.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "find . -name '*.c' | xargs rm -f",
        "find . -name '*.c' -print0 | xargs -0 rm",
        "ls -tp | tail -n +6 | xargs rm --",
        "find . -name '*.txt' -delete",
        "fd -e c -x rm",
        "git ls-files --others | xargs rm",
        "find src -name '*.key' -exec shred -u {} +",
    ],
    passes: &[
        "find . -name '*.pyc' | xargs rm -f",
        "printf '%s\\n' a.log b.log | xargs rm",
        "find . -name '*.c' | xargs grep foo",
        "ls | xargs wc -l",
        "git ls-files '*.c' | xargs rm",
        "find .next -name '* 2.*' -delete",
        "fd -e o -X rm",
        "find . -name '*.c' -print",
    ],
};

/// How closely something picks the files it acts on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Picked {
    /// Nothing picks them out: every file of a folder (or under it).
    Any,
    /// A pattern over names or paths that names no output (`*.c`, `*.txt`, `.*`).
    Pattern,
    /// Known for what they are: by name, output by name (`*.pyc`), inside a build folder,
    /// empty, one file by identity, or what a test the agent wrote let through.
    Known,
}

/// What a command lists, as a set of files to delete.
pub(super) struct Listing {
    pub picked: Picked,
    /// How the files are picked, for the reason: "by `-name '*.c'` under `.`".
    pub how: String,
    /// Where it looks, for the context to check.
    pub starts: Vec<Word>,
    /// Listed by `find`, whose unnarrowed deletes have a rule of their own.
    pub from_find: bool,
}

/// Programs that destroy the files they are given: `rm`, `unlink`, and the shredders,
/// which overwrite the contents first (`shred` without `-u` keeps only the name).
pub(super) fn is_deleter(program: &str) -> bool {
    matches!(program, "rm" | "unlink" | "shred" | "srm" | "wipe")
}

/// The finding for a set of files `what` names, which `preview` lists without deleting.
pub(super) fn pattern_hit(what: &str, preview: &str, starts: Vec<Word>) -> Hit {
    Hit::new(
        &RM_SET,
        Tier::Destructive,
        format!("deletes {what}, with no trash and no undo"),
    )
    .safer(format!(
        "`{preview}` alone shows the list; remove what it shows with `agent-guard rm --root . \
         <paths>` (it previews, and `--yes` keeps them in a trash `agent-guard restore` brings \
         back), or `git rm <paths>` for tracked files"
    ))
    .recovery("none for files git does not track; tracked files: `git restore <path>`")
    .about(Subject::Paths(starts))
}

/// Whether deleter `program` with `args` deletes folders and all.
pub(super) fn recursive(program: &str, args: &[Word]) -> bool {
    match program {
        "rm" => super::is_recursive(args),
        "srm" | "wipe" => super::secure_recursive(args),
        _ => false,
    }
}

/// Extensions of files a build, a tool or an editor writes and nobody keeps.
const OUTPUT_EXTENSIONS: &[&str] = &[
    "log", "tmp", "temp", "pyc", "pyo", "o", "obj", "a", "class", "swp", "swo", "orig", "rej",
    "bak", "gcda", "gcno", "cache",
];

/// Names of by-products: desktop litter, caches, core dumps, pending test snapshots.
const OUTPUT_NAMES: &[&str] = &[".DS_Store", "Thumbs.db", "desktop.ini", "core", ".coverage"];

/// Whether a name pattern (its last path part) picks only output known by name: `*.pyc`,
/// `*.py[co]`, `vmware-*.log`, `*~`, `#*#`, `._*`, `*.DS_Store`, `__pycache__`.
pub(super) fn names_output(pattern: &str) -> bool {
    let name = pattern.rsplit('/').next().unwrap_or(pattern);
    let autosave = name.len() > 2 && name.starts_with('#') && name.ends_with('#');
    if (name.len() > 1 && name.ends_with('~')) || name.starts_with("._") || autosave {
        return true;
    }
    // `*.DS_Store` names the same files as `.DS_Store`.
    let bare = name
        .strip_prefix('*')
        .filter(|b| b.starts_with('.'))
        .unwrap_or(name);
    let named = |list: &[&str]| list.iter().any(|n| n.eq_ignore_ascii_case(bare));
    if named(OUTPUT_NAMES) || named(REGENERABLE) {
        return true;
    }
    let lower = name.to_ascii_lowercase();
    if lower.ends_with(".snap.new") || lower.ends_with(".pending-snap") {
        return true;
    }
    let Some((stem, ext)) = lower.rsplit_once('.') else {
        return false;
    };
    !stem.is_empty() && variants(ext).all(|e| OUTPUT_EXTENSIONS.contains(&e.as_str()))
}

/// The spellings a one-bracket glob stands for: `py[co]` is `pyc` and `pyo`.
fn variants(ext: &str) -> impl Iterator<Item = String> + '_ {
    let bracket = ext
        .find('[')
        .and_then(|open| Some((open, open + ext[open..].find(']')?)));
    let (head, choices, tail) = match bracket {
        Some((open, close)) => (&ext[..open], &ext[open + 1..close], &ext[close + 1..]),
        None => (ext, "", ""),
    };
    let single = bracket.is_none().then(|| ext.to_string());
    let expanded = choices
        .chars()
        .filter(|c| !matches!(c, '|' | ','))
        .map(move |c| format!("{head}{c}{tail}"));
    single.into_iter().chain(expanded)
}

/// Whether a regular expression over names ends in an output extension (`.*\.pyc$`,
/// `\.o$`) or a backup's `~`.
pub(super) fn regex_names_output(regex: &str) -> bool {
    let regex = regex.trim_end_matches('$');
    if regex.ends_with('~') {
        return true;
    }
    regex.rsplit_once('.').is_some_and(|(_, ext)| {
        !ext.is_empty()
            && ext.bytes().all(|b| b.is_ascii_alphanumeric())
            && OUTPUT_EXTENSIONS.contains(&ext.to_ascii_lowercase().as_str())
    })
}

/// Whether a path lies in a build, cache or temporary folder, or a folder of logs:
/// `node_modules/...`, `*/target/*`, `/tmp/x`, `/var/log/app`.
pub(super) fn in_output_folder(path: &str) -> bool {
    let temporary = ["/tmp", "/var/tmp"].iter().any(|t| {
        path.strip_prefix(t)
            .is_some_and(|r| r.is_empty() || r.starts_with('/'))
    });
    temporary
        || path
            .split('/')
            .any(|part| REGENERABLE.contains(&part) || matches!(part, "log" | "logs"))
}

/// A starting point, known and inside an output folder.
pub(super) fn start_in_output(start: &Word) -> bool {
    start.value().is_some_and(in_output_folder)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_by_name() {
        for pattern in [
            "*.pyc",
            "*.PYC",
            "*.py[co]",
            "*.py[c|o]",
            "vmware-*.log",
            "*~",
            "._*",
            "#*#",
            "*.DS_Store",
            ".DS_Store",
            "__pycache__",
            "src/*.o",
            "*.snap.new",
        ] {
            assert!(names_output(pattern), "{pattern}");
        }
        for pattern in ["*.c", "*.txt", ".*", "* 2.*", "*.py[ch]", "*", "~", ".log"] {
            assert!(!names_output(pattern), "{pattern}");
        }
        assert!(regex_names_output(".*\\.pyc$"));
        assert!(regex_names_output("\\.o"));
        assert!(!regex_names_output(".*\\.c$"));
        assert!(!regex_names_output("(__pycache__|\\.pyc|\\.pyo$)"));
    }

    #[test]
    fn output_folders() {
        for path in [
            "node_modules",
            "./build/x",
            "*/target/*",
            "/tmp",
            "/var/tmp/a",
            "logs",
        ] {
            assert!(in_output_folder(path), "{path}");
        }
        for path in [".", "src", "/tmpfiles", "builds", "/home/me"] {
            assert!(!in_output_folder(path), "{path}");
        }
    }
}
