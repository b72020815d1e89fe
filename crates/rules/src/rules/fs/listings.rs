//! Listings fed to a deleter: the output of `find`, `fd`, `ls` or `git ls-files` piped to
//! `xargs rm`, `parallel rm`, `fd --exec rm` or given as `rm $(...)`, read as the set of files
//! it names and how it picks them.

use super::sets::{
    Listing, Picked, in_output_folder, is_deleter, names_output, pattern_hit, recursive,
    regex_names_output, start_in_output,
};
use crate::rules::Hit;
use crate::rules::opts::{self, Opt, flag, optional, valued};
use crate::shell::{SimpleCommand, Word};
use crate::syntax::argv::{self, Style, Written};

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

/// grep's options that take a value.
const GREP: Written = Written {
    names: &[],
    valued: &[
        "-e",
        "-f",
        "-m",
        "-A",
        "-B",
        "-C",
        "-d",
        "-D",
        "--regexp",
        "--file",
        "--max-count",
        "--after-context",
        "--before-context",
        "--context",
        "--label",
        "--include",
        "--exclude",
        "--exclude-from",
        "--exclude-dir",
        "--devices",
        "--directories",
        "--binary-files",
        "--group-separator",
    ],
};

/// A `grep` between the listing and the deleter keeps the names matching its pattern (or,
/// with `-v`, the others: that narrows nothing).
fn grep(listing: &mut Listing, args: &[Word]) -> Option<()> {
    let read = argv::read(args, Style::Getopt, &GREP);
    // Patterns from a file: not known here.
    if read.opts.iter().any(|o| o.is("f") || o.is("file")) {
        return None;
    }
    let invert = read.on(&["v", "invert-match"]);
    let mut patterns: Vec<&str> = Vec::new();
    for opt in read.opts.iter().filter(|o| o.is("e") || o.is("regexp")) {
        patterns.push(opt.value?);
    }
    let mut operands: Vec<&str> = read
        .operands
        .iter()
        .filter_map(|&at| args.get(at).map(|w| w.text.as_str()))
        .collect();
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

/// ls's options that take a value.
const LS: Written = Written {
    names: &[],
    valued: &[
        "-I",
        "-T",
        "-w",
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
    ],
};

/// ls's options that print more than names (sizes, owners, a tree of folders).
const LS_LONG_FORMATS: &[&str] = &[
    "l",
    "n",
    "o",
    "g",
    "s",
    "i",
    "R",
    "recursive",
    "size",
    "inode",
    "numeric-uid-gid",
    "author",
];

/// `ls [options] [files or folders]`: with no operand every entry of the folder, each glob
/// what it matches. Long formats print more than names, so nothing is known of them.
fn ls(args: &[Word]) -> Option<Listing> {
    let read = argv::read(args, Style::Getopt, &LS);
    let long_format = read.opts.iter().any(|o| {
        LS_LONG_FORMATS.iter().any(|name| o.is(name))
            || (o.is("format") && !matches!(o.value, Some("single-column" | "across")))
    });
    if long_format {
        return None;
    }
    let directories = read.opts.iter().any(|o| o.is("d") || o.is("directory"));
    let operands: Vec<&Word> = read
        .operands
        .iter()
        .filter_map(|&at| args.get(at))
        .collect();
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

/// fd's options that take a value.
const FD: Written = Written {
    names: &[],
    valued: &[
        "-e",
        "-E",
        "-t",
        "-d",
        "-S",
        "-o",
        "-j",
        "-c",
        "-m",
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
    ],
};

/// `fd [options] [pattern] [path]...`: every file under the paths whose name the pattern
/// (a regex, or a glob with `-g`) and the `-e` extensions match; with neither, every file.
fn fd(args: &[Word]) -> Option<Listing> {
    let read = argv::read(args, Style::Getopt, &FD);
    if read
        .opts
        .iter()
        .any(|o| ["h", "V", "help", "version"].iter().any(|name| o.is(name)))
    {
        return None;
    }
    let glob = read.opts.iter().any(|o| o.is("g") || o.is("glob"));
    let extensions: Vec<&str> = read.values(&["e", "extension"]).collect();
    let mut patterns: Vec<&str> = read.values(&["and"]).collect();
    let mut paths: Vec<Word> = read
        .opts
        .iter()
        .filter(|o| o.is("search-path"))
        .filter_map(|o| o.value_in(args))
        .collect();
    let operands: Vec<&Word> = read
        .operands
        .iter()
        .filter_map(|&at| args.get(at))
        .collect();
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

/// `git ls-files`'s options: which files it lists, and how it prints them.
const LS_FILES: &[Opt] = &[
    flag("cached", Some('c')),
    flag("deleted", Some('d')),
    flag("others", Some('o')),
    flag("ignored", Some('i')),
    flag("killed", Some('k')),
    flag("modified", Some('m')),
    flag("stage", Some('s')),
    flag("unmerged", Some('u')),
    flag("t", Some('t')),
    flag("v", Some('v')),
    flag("f", Some('f')),
    flag("z", Some('z')),
    valued("format", None),
    flag("eol", None),
    flag("debug", None),
    flag("resolve-undo", None),
    flag("directory", None),
    flag("no-empty-directory", None),
    flag("exclude-standard", None),
    flag("error-unmatch", None),
    flag("full-name", None),
    flag("recurse-submodules", None),
    flag("deduplicate", None),
    flag("sparse", None),
    optional("abbrev"),
    valued("exclude", Some('x')),
    valued("exclude-from", Some('X')),
    valued("exclude-per-directory", None),
    valued("with-tree", None),
];

/// Of [`LS_FILES`], the formats that print more than names.
const LS_FILES_FORMATS: &[&str] = &[
    "stage",
    "unmerged",
    "t",
    "v",
    "f",
    "format",
    "eol",
    "debug",
    "resolve-undo",
];

/// `git [globals] ls-files ...`: tracked files git keeps a copy of, unless it lists
/// untracked (`--others`), ignored or modified ones. Formats that print more than names
/// (`--stage`, `-t`, `--format`) say nothing a deleter can use.
fn git_ls_files(args: &[Word]) -> Option<Listing> {
    let read = crate::syntax::git::read(args);
    if read.subcommand()?.text != "ls-files" {
        return None;
    }
    let rest = read.rest();
    let p = opts::parse(rest, LS_FILES);
    if LS_FILES_FORMATS.iter().any(|name| p.has(name)) {
        return None;
    }
    let untracked = p.has("others") || p.has("ignored") || p.has("killed");
    let modified = p.has("modified");
    let pathspecs: Vec<&str> = p.operand_texts().collect();
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
