//! Listings fed to a deleter: the output of `find`, `fd`, `ls` or `git ls-files` piped to
//! `xargs rm`, `parallel rm`, `fd --exec rm` or given as `rm $(...)`, read as the set of files
//! it names and how it picks them.

use super::sets::{
    Listing, Picked, in_output_folder, is_deleter, names_output, pattern_hit, recursive,
    regex_names_output, start_in_output,
};
use crate::rules::Hit;
use crate::shell::{SimpleCommand, Word};

/// The finding for a deleter fed a listing (`find . -name '*.c' | xargs rm`), if it deletes
/// more than output known by name. A recursive delete is left to `fs.rm-recursive`, which
/// stops it whatever it is given.
pub(in crate::rules) fn check(program: &str, cmd: &SimpleCommand) -> Option<Hit> {
    let args = cmd.args();
    if !is_deleter(program) || args.iter().all(|w| w.literal) || recursive(program, args) {
        return None;
    }
    judged(listing(&cmd.fed_by)?, &preview(&cmd.fed_by))
}

/// The stages of a listing as the shell line they are.
fn preview(stages: &[Vec<Word>]) -> String {
    stages
        .iter()
        .map(|stage| {
            stage
                .iter()
                .map(Word::shell_quoted)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join(" | ")
}

/// The finding for deleting what `listing` lists, shown as `preview`: none when it picks
/// files known by name.
fn judged(listing: Listing, preview: &str) -> Option<Hit> {
    match listing.picked {
        Picked::Known => None,
        Picked::Any if listing.from_find => Some(super::find::unnarrowed(&listing.starts, preview)),
        _ => Some(pattern_hit(
            &format!(
                "every file `{preview}` lists, picked {} rather than by name",
                listing.how
            ),
            preview,
            listing.starts,
        )),
    }
}

/// What `fd … -x`/`--exec-batch` runs on what fd finds, when it deletes: judged by fd's own
/// search, as `find -exec` is by find's, since the `{}` it is handed is known only when fd
/// runs. `None` when the command deletes nothing or fd's search is not read here; inside,
/// the finding, or none when the search picks files known by name.
pub(in crate::rules) fn fd_exec(program: &str, cmd: &SimpleCommand) -> Option<Option<Hit>> {
    if !is_deleter(program) {
        return None;
    }
    // What feeds it is fd's search alone.
    let listing = listing(&cmd.fed_by)?;
    Some(judged(listing, &preview(&cmd.fed_by)).map(|mut hit| {
        hit.written_out = cmd.fed_by.iter().flatten().all(|w| w.literal);
        hit
    }))
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
        listing.how = format!(
            "by `grep {}`",
            crate::shell::word::quote(patterns.first().copied().unwrap_or_default())
        );
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
            operands.extend(args.get(i..).unwrap_or_default());
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
            crate::rules::git::list(folders.iter().map(|w| w.text.as_str()))
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
            operands.extend(args.get(i..).unwrap_or_default());
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
            crate::rules::git::list(paths.iter().map(|w| w.text.as_str()))
        ),
        starts: paths,
        from_find: false,
    })
}

/// `git [globals] ls-files ...`: tracked files git keeps a copy of, unless it lists
/// untracked (`--others`), ignored or modified ones. Formats that print more than names
/// (`--stage`, `-t`, `--format`) say nothing a deleter can use.
fn git_ls_files(args: &[Word]) -> Option<Listing> {
    let read = crate::syntax::git::read(args);
    if read.subcommand()?.text != "ls-files" {
        return None;
    }
    let mut untracked = false;
    let mut modified = false;
    let mut pathspecs: Vec<&str> = Vec::new();
    let mut words = read.rest().iter().map(|w| w.text.as_str());
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
