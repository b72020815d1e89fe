//! Sets of files picked by a pattern or a listing rather than by name, and deleted at once:
//! `find -delete` narrowed only by a pattern over the project's own files, and the output of
//! `find`, `fd`, `ls` or `git ls-files` fed to a deleter (`xargs rm`, `parallel rm`,
//! `fd --exec rm`). Output known by name (`*.pyc`, `*.o`, `*~`, `.DS_Store`) and files
//! inside a build folder are what such a sweep is for; anything else is someone's work.

use super::{Hit, Rule, Subject, Tier};
use crate::settings::REGENERABLE;
use crate::shell::{SimpleCommand, Word};

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

/// The finding for a deleter fed a listing (`find . -name '*.c' | xargs rm`), if it deletes
/// more than output known by name. A recursive delete is left to `fs.rm-recursive`, which
/// stops it whatever it is given.
pub(super) fn check(program: &str, cmd: &SimpleCommand) -> Option<Hit> {
    let args = cmd.args();
    if !is_deleter(program) || args.iter().all(|w| w.literal) || recursive(program, args) {
        return None;
    }
    let listing = listing(&cmd.fed_by)?;
    let preview = cmd
        .fed_by
        .iter()
        .map(|stage| {
            stage
                .iter()
                .map(Word::shell_quoted)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join(" | ");
    match listing.picked {
        Picked::Known => None,
        Picked::Any if listing.from_find => {
            Some(super::find::unnarrowed(&listing.starts, &preview))
        }
        _ => Some(pattern_hit(
            &format!(
                "every file `{preview}` lists, picked {} rather than by name",
                listing.how
            ),
            &preview,
            listing.starts,
        )),
    }
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
        "rm" => super::fs::is_recursive(args),
        "srm" | "wipe" => super::fs::secure_recursive(args),
        _ => false,
    }
}

/// The program's base name, when literal.
fn program(argv: &[Word]) -> Option<&str> {
    let text = argv.first()?.value()?;
    Some(text.rsplit('/').next().unwrap_or(text))
}

/// What a pipeline's stages list: the first one lists files, the others may only filter the
/// list. `None` when a stage is not known to print file names, or rewrites them (`sed`,
/// `awk`, `cut`): what reaches the deleter is then not known.
fn listing(stages: &[Vec<Word>]) -> Option<Listing> {
    let (first, filters) = stages.split_first()?;
    let args = first.get(1..).unwrap_or_default();
    let mut listing = match program(first)? {
        "find" => super::find::listed(args)?,
        "fd" | "fdfind" => fd(args)?,
        "ls" => ls(args)?,
        "git" => git_ls_files(args)?,
        _ => return None,
    };
    for stage in filters {
        let args = stage.get(1..).unwrap_or_default();
        match program(stage)? {
            "head" | "tail" | "sort" | "uniq" | "tac" | "shuf" | "tr" | "tee" => {}
            "cat" if args.iter().all(|w| w.text == "-") => {}
            "grep" | "egrep" | "fgrep" => grep(&mut listing, args)?,
            _ => return None,
        }
    }
    Some(listing)
}

/// A `grep` between the listing and the deleter keeps the names matching its pattern (or,
/// with `-v`, the others: that narrows nothing).
fn grep(listing: &mut Listing, args: &[Word]) -> Option<()> {
    let mut invert = false;
    let mut patterns: Vec<&str> = Vec::new();
    let mut operands: Vec<&str> = Vec::new();
    let mut words = args.iter().map(|w| w.text.as_str());
    while let Some(w) = words.next() {
        if let Some(long) = w.strip_prefix("--") {
            match long.split_once('=') {
                Some(("regexp", p)) => patterns.push(p),
                Some(_) => {}
                None => match long {
                    "invert-match" => invert = true,
                    "regexp" => patterns.push(words.next()?),
                    "file" => return None,
                    "max-count" | "after-context" | "before-context" | "context" | "label"
                    | "include" | "exclude" | "devices" | "directories" => {
                        words.next();
                    }
                    _ => {}
                },
            }
            continue;
        }
        let Some(flags) = w.strip_prefix('-').filter(|f| !f.is_empty()) else {
            operands.push(w);
            continue;
        };
        for (at, c) in flags.char_indices() {
            let rest = &flags[at + c.len_utf8()..];
            match c {
                'v' => invert = true,
                'f' => return None,
                'e' | 'm' | 'A' | 'B' | 'C' | 'd' | 'D' => {
                    let value = if rest.is_empty() { words.next()? } else { rest };
                    if c == 'e' {
                        patterns.push(value);
                    }
                    break;
                }
                _ => {}
            }
        }
    }
    if patterns.is_empty() {
        patterns.extend(operands.first());
        operands = operands.split_off(operands.len().min(1));
    }
    // Files to search: it reads them, not the list.
    if !operands.is_empty() || patterns.is_empty() {
        return None;
    }
    if invert {
        return Some(());
    }
    let by = if patterns.iter().all(|p| regex_names_output(p)) {
        Picked::Known
    } else {
        Picked::Pattern
    };
    if by > listing.picked {
        listing.picked = by;
        listing.how = format!("by `grep {}`", crate::shell::word::quote(patterns[0]));
    }
    Some(())
}

/// `ls [options] [files or folders]`: with no operand every entry of the folder, each glob
/// what it matches. Long formats print more than names, so nothing is known of them.
fn ls(args: &[Word]) -> Option<Listing> {
    const LONG_VALUE: &[&str] = &[
        "--ignore",
        "--hide",
        "--format",
        "--sort",
        "--time",
        "--block-size",
        "--quoting-style",
        "--indicator-style",
        "--time-style",
        "--width",
        "--tabsize",
    ];
    let mut directories = false;
    let mut operands: Vec<&Word> = Vec::new();
    let mut i = 0;
    while let Some(word) = args.get(i) {
        i += 1;
        let w = word.text.as_str();
        if w == "--" {
            operands.extend(&args[i..]);
            break;
        }
        if let Some(long) = w.strip_prefix("--") {
            let name = long.split('=').next().unwrap_or(long);
            match name {
                "directory" => directories = true,
                "recursive" | "size" | "inode" | "numeric-uid-gid" | "author" => return None,
                "format" if !long.ends_with("=single-column") && !long.ends_with("=across") => {
                    return None;
                }
                _ => {}
            }
            if !long.contains('=') && LONG_VALUE.contains(&w) {
                i += 1;
            }
            continue;
        }
        let Some(flags) = w.strip_prefix('-').filter(|f| !f.is_empty()) else {
            operands.push(word);
            continue;
        };
        for (at, c) in flags.char_indices() {
            match c {
                'l' | 'n' | 'o' | 'g' | 's' | 'i' | 'R' => return None,
                'd' => directories = true,
                'I' | 'T' | 'w' => {
                    if flags[at + c.len_utf8()..].is_empty() {
                        i += 1;
                    }
                    break;
                }
                _ => {}
            }
        }
    }
    let mut picked = Picked::Known;
    let mut folders: Vec<Word> = Vec::new();
    let mut pattern: Option<&str> = None;
    for word in &operands {
        let text = word.text.as_str();
        // A variable or a substitution: what it names is not known.
        if text.contains(['$', '`']) {
            return None;
        }
        let by = if text.contains(['*', '?', '[']) {
            if names_output(text) || in_output_folder(text) {
                Picked::Known
            } else {
                pattern.get_or_insert(text);
                Picked::Pattern
            }
        } else if directories || looks_like_a_file(text) {
            Picked::Known
        } else {
            folders.push((*word).clone());
            Picked::Any
        };
        picked = picked.min(by);
    }
    if operands.is_empty() {
        picked = Picked::Any;
        folders.push(Word::literal("."));
    }
    if picked == Picked::Any && folders.iter().all(start_in_output) {
        picked = Picked::Known;
    }
    let how = match (picked, pattern) {
        (Picked::Pattern, Some(p)) => format!("by the pattern `{p}`"),
        _ => format!(
            "by their place in a listing of {}",
            super::git::list(folders.iter().map(|w| w.text.as_str()))
        ),
    };
    let starts = if folders.is_empty() {
        vec![Word::literal(".")]
    } else {
        folders
    };
    Some(Listing {
        picked,
        how,
        starts,
        from_find: false,
    })
}

/// A name with an extension (`notes.txt`) rather than a folder's (`src`, `out/`).
fn looks_like_a_file(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    !path.ends_with('/')
        && name
            .rfind('.')
            .is_some_and(|at| at > 0 && at + 1 < name.len())
}

/// `fd [options] [pattern] [path]...`: every file under the paths whose name the pattern
/// (a regex, or a glob with `-g`) and the `-e` extensions match; with neither, every file.
fn fd(args: &[Word]) -> Option<Listing> {
    const SHORT_VALUE: &str = "eEtdSojcm";
    const LONG_VALUE: &[&str] = &[
        "--extension",
        "--exclude",
        "--type",
        "--max-depth",
        "--min-depth",
        "--exact-depth",
        "--size",
        "--changed-within",
        "--changed-before",
        "--change-newer-than",
        "--change-older-than",
        "--newer",
        "--older",
        "--owner",
        "--threads",
        "--base-directory",
        "--search-path",
        "--color",
        "--max-results",
        "--path-separator",
        "--ignore-file",
        "--format",
        "--batch-size",
        "--and",
    ];
    let mut glob = false;
    let mut extensions: Vec<&str> = Vec::new();
    let mut patterns: Vec<&str> = Vec::new();
    let mut paths: Vec<Word> = Vec::new();
    let mut operands: Vec<&Word> = Vec::new();
    let mut i = 0;
    while let Some(word) = args.get(i) {
        i += 1;
        let w = word.text.as_str();
        if w == "--" {
            operands.extend(&args[i..]);
            break;
        }
        if let Some(long) = w.strip_prefix("--") {
            let (name, inline) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (long, None),
            };
            let value = match inline {
                Some(v) => Some(v),
                None if LONG_VALUE.contains(&w) => {
                    i += 1;
                    args.get(i - 1).map(|v| v.text.as_str())
                }
                None => None,
            };
            match name {
                "help" | "version" => return None,
                "glob" => glob = true,
                "extension" => extensions.extend(value),
                "and" => patterns.extend(value),
                "search-path" => paths.extend(value.map(Word::literal)),
                _ => {}
            }
            continue;
        }
        let Some(flags) = w.strip_prefix('-').filter(|f| !f.is_empty()) else {
            operands.push(word);
            continue;
        };
        for (at, c) in flags.char_indices() {
            let rest = &flags[at + c.len_utf8()..];
            match c {
                'h' | 'V' => return None,
                'g' => glob = true,
                _ if SHORT_VALUE.contains(c) => {
                    let value = if rest.is_empty() {
                        i += 1;
                        args.get(i - 1).map(|v| v.text.as_str())
                    } else {
                        Some(rest)
                    };
                    if c == 'e' {
                        extensions.extend(value);
                    }
                    break;
                }
                _ => {}
            }
        }
    }
    let mut operands = operands.into_iter();
    if let Some(first) = operands.next() {
        patterns.push(first.text.as_str());
    }
    paths.extend(operands.cloned());
    let mut picked = Picked::Any;
    let mut how = "from everything".to_string();
    for pattern in &patterns {
        let by = if pattern.contains(['$', '`']) {
            return None;
        } else if matches!(*pattern, "" | "." | "^" | ".*" | "*" | "**") {
            Picked::Any
        } else if (glob && names_output(pattern)) || (!glob && regex_names_output(pattern)) {
            Picked::Known
        } else {
            Picked::Pattern
        };
        if by > picked {
            picked = by;
            how = format!("by the pattern `{pattern}`");
        }
    }
    if !extensions.is_empty() {
        let by = if extensions
            .iter()
            .all(|e| names_output(&format!("*.{}", e.trim_start_matches('.'))))
        {
            Picked::Known
        } else {
            Picked::Pattern
        };
        if by > picked {
            picked = by;
            how = format!("by the extension `{}`", extensions.join("`, `"));
        }
    }
    if paths.is_empty() {
        paths.push(Word::literal("."));
    }
    if picked == Picked::Pattern && paths.iter().all(start_in_output) {
        picked = Picked::Known;
    }
    Some(Listing {
        picked,
        how: format!(
            "{how} under {}",
            super::git::list(paths.iter().map(|w| w.text.as_str()))
        ),
        starts: paths,
        from_find: false,
    })
}

/// `git [globals] ls-files ...`: tracked files git keeps a copy of, unless it lists
/// untracked (`--others`), ignored or modified ones. Formats that print more than names
/// (`--stage`, `-t`, `--format`) say nothing a deleter can use.
fn git_ls_files(args: &[Word]) -> Option<Listing> {
    let mut i = 0;
    while let Some(w) = args.get(i).map(|w| w.text.as_str()) {
        match w {
            "-C" | "-c" | "--git-dir" | "--work-tree" | "--namespace" => i += 2,
            _ if w.starts_with('-') => i += 1,
            _ => break,
        }
    }
    if args.get(i)?.text != "ls-files" {
        return None;
    }
    let mut untracked = false;
    let mut modified = false;
    let mut pathspecs: Vec<&str> = Vec::new();
    let mut words = args[i + 1..].iter().map(|w| w.text.as_str());
    while let Some(w) = words.next() {
        if w == "--" {
            pathspecs.extend(words.by_ref());
            break;
        }
        if let Some(long) = w.strip_prefix("--") {
            match long.split('=').next().unwrap_or(long) {
                "others" | "ignored" | "killed" => untracked = true,
                "modified" => modified = true,
                "stage" | "unmerged" | "format" | "eol" | "debug" | "resolve-undo" => {
                    return None;
                }
                "exclude" | "exclude-from" | "exclude-per-directory" | "with-tree"
                    if !long.contains('=') =>
                {
                    words.next();
                }
                _ => {}
            }
            continue;
        }
        let Some(flags) = w.strip_prefix('-').filter(|f| !f.is_empty()) else {
            pathspecs.push(w);
            continue;
        };
        for (at, c) in flags.char_indices() {
            match c {
                'o' | 'i' | 'k' => untracked = true,
                'm' => modified = true,
                's' | 'u' | 't' | 'v' | 'f' => return None,
                'x' | 'X' => {
                    if flags[at + c.len_utf8()..].is_empty() {
                        words.next();
                    }
                    break;
                }
                _ => {}
            }
        }
    }
    if !untracked && !modified {
        return Some(Listing {
            picked: Picked::Known,
            how: "among tracked files, which git keeps".into(),
            starts: vec![Word::literal(".")],
            from_find: false,
        });
    }
    let picked = if pathspecs.is_empty() {
        Picked::Any
    } else if pathspecs.iter().all(|p| names_output(p)) {
        Picked::Known
    } else {
        Picked::Pattern
    };
    let how = match (untracked, modified) {
        (true, true) => "among files git has no copy of and files with uncommitted changes",
        (true, false) => "among files git has no copy of (untracked or ignored)",
        _ => "among files with uncommitted changes, which are lost with them",
    };
    Some(Listing {
        picked,
        how: how.into(),
        starts: vec![Word::literal(".")],
        from_find: false,
    })
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
