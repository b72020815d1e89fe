//! The recipes a task runner runs: package.json scripts (npm, pnpm, yarn, bun; across
//! workspace packages too, and through turbo, lerna and nx), make targets, just recipes,
//! Taskfile tasks, deno tasks and composer scripts.
//!
//! [`runs_recipe`] tells from the words alone whether a command asks a runner for a recipe
//! (no file is touched: a line with no runner pays nothing). [`read`] then finds the
//! recipe file where the runner would look, and gives the shell text each recipe runs, in
//! the order the runner runs them (`preX`, `X`, `postX`; a target's prerequisites before
//! the target). Files a recipe file includes (make's `include`, just's `import` and `mod`,
//! Taskfile `includes:`) are read where the runner reads them. What cannot be resolved (a
//! name built at run time, a file that cannot be read) is [`Outcome::Unknown`]; a recipe the
//! files do not define runs nothing, as the runner itself would refuse it, and so does a
//! runner whose required include is missing.

mod composer;
mod deno;
mod just;
mod make;
mod npm;
mod task;
mod workspaces;

use std::path::{Path, PathBuf};

use crate::syntax::Word;

/// Largest recipe file read: a bigger one is not a recipe file anyone writes by hand.
const MAX_FILE_BYTES: u64 = 1 << 20;

/// Most recipes one runner command is followed into (prerequisites, dependencies).
const MAX_RECIPES: usize = 64;

/// One recipe a runner runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recipe {
    /// Where it is defined, for reasons: `package.json scripts.build`, `Makefile target clean`.
    pub source: String,
    /// Its shell text, one entry per shell the runner starts (make runs each recipe line in
    /// a shell of its own; the others run one script).
    pub lines: Vec<String>,
    /// The directory it runs in, relative to where the runner starts, when not there.
    pub dir: Option<String>,
}

impl Recipe {
    /// The recipe's text on one line, for reasons.
    pub fn text(&self) -> String {
        self.lines.join("; ")
    }
}

/// What a runner command runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// These recipes, in order.
    Runs(Vec<Recipe>),
    /// Nothing: a dry run, a listing, a recipe the file does not define, no recipe file.
    Nothing,
    /// Not a recipe after all: the program at this index of the argv runs, with the words
    /// after it (`yarn rimraf dist` where no script is named `rimraf`).
    Program(usize),
    /// What runs cannot be told: `why`, and the recipe text that could be seen (any of it
    /// may run).
    Unknown { why: String, seen: String },
}

/// What a walk through a recipe file found: the recipes `out`, unless something on the way
/// could not be told (`unknown`), or there are more of them than the guard follows (then
/// `what` names them: "`Makefile` runs more recipes …"). `seen` is the file's text.
fn walked(out: Vec<Recipe>, unknown: Option<String>, what: &str, seen: String) -> Outcome {
    if let Some(why) = unknown {
        return Outcome::Unknown { why, seen };
    }
    if out.len() > MAX_RECIPES {
        return Outcome::Unknown {
            why: format!("{what} than the guard follows"),
            seen,
        };
    }
    Outcome::Runs(out)
}

/// Whether `argv` (program `name`) asks a task runner for a recipe, by its words alone.
pub fn runs_recipe(name: &str, argv: &[Word]) -> bool {
    match name {
        "npm" | "pnpm" | "yarn" | "bun" => npm::runs_recipe(name, argv),
        "make" | "gmake" => make::runs_recipe(argv),
        "just" => just::runs_recipe(argv),
        "task" | "go-task" => task::runs_recipe(argv),
        "deno" => deno::runs_recipe(argv),
        "composer" => composer::runs_recipe(argv),
        "turbo" | "lerna" | "nx" => true,
        _ => false,
    }
}

/// What `argv` runs, its recipe files read from `dir` (where the runner starts). `None`
/// for `dir` when no file can be read there: then only what the words alone say is given.
pub fn read(name: &str, argv: &[Word], dir: Option<&Path>) -> Outcome {
    let args = argv.get(1..).unwrap_or_default();
    match name {
        "npm" | "pnpm" | "yarn" | "bun" => npm::read(name, args, dir),
        "make" | "gmake" => make::read(args, dir),
        "just" => just::read(args, dir),
        "task" | "go-task" => task::read(args, dir),
        "deno" => deno::read(args, dir),
        "composer" => composer::read(args, dir),
        "turbo" | "lerna" => workspaces::read_tool(name, args, dir),
        "nx" => workspaces::read_nx(args, dir),
        _ => Outcome::Nothing,
    }
}

/// A recipe file's text. `Err` when it exists but cannot be read (too big, not UTF-8, no
/// permission): what it runs is then unknown. `Ok(None)` when there is no such file.
fn read_file(path: &Path) -> Result<Option<String>, String> {
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{} could not be read: {e}", shown(path))),
    };
    if !meta.is_file() {
        return Ok(None);
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(format!("{} is larger than the guard reads", shown(path)));
    }
    std::fs::read_to_string(path)
        .map(Some)
        .map_err(|e| format!("{} could not be read: {e}", shown(path)))
}

/// The first of `names` that exists in `dir`, with its text.
fn first_file(dir: &Path, names: &[&str]) -> Result<Option<(String, String)>, String> {
    for name in names {
        if let Some(text) = read_file(&dir.join(name))? {
            return Ok(Some(((*name).to_string(), text)));
        }
    }
    Ok(None)
}

/// Where a runner that looks upward (npm, just, Task, deno) finds its file: the nearest of
/// `dir` and the folders above it holding one of `names`. The file's name and text, and the
/// folder when it is not `dir` itself (recipes run there).
type Found = (String, String, Option<PathBuf>);

fn nearest_file(dir: &Path, names: &[&str]) -> Result<Option<Found>, String> {
    if let Some((name, text)) = first_file(dir, names)? {
        return Ok(Some((name, text, None)));
    }
    // Folders above are the real ones, not the spelling's (`a/..`).
    let Ok(real) = std::fs::canonicalize(dir) else {
        return Ok(None);
    };
    // A folder above that cannot be read is one the runner cannot read either.
    for above in real.ancestors().skip(1) {
        if let Ok(Some((name, text))) = first_file(above, names) {
            return Ok(Some((name, text, Some(above.to_path_buf()))));
        }
    }
    Ok(None)
}

/// A folder as the directory a recipe runs in.
fn shown_dir(dir: &Path) -> String {
    dir.to_string_lossy().into_owned()
}

/// A file's name as reasons show it: its last component.
fn shown(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into(),
    )
}

/// The item of a YAML block list on `line` (`- build`), trimmed: Taskfiles and
/// pnpm-workspace.yaml write their lists so.
fn yaml_item(line: &str) -> Option<&str> {
    line.trim().strip_prefix('-').map(str::trim)
}

/// `dir` moved by a runner's directory option: `None` when the directory is only known at
/// run time.
fn moved(dir: &Path, to: &Word) -> Option<PathBuf> {
    let to = to.value()?;
    (!to.starts_with('~')).then(|| dir.join(to))
}

/// Words appended to a script as the runner passes them on, each quoted for the shell.
fn appended(script: &str, extra: &[Word]) -> String {
    if extra.is_empty() {
        return script.to_string();
    }
    let words: Vec<String> = extra.iter().map(Word::shell_quoted).collect();
    format!("{script} {}", words.join(" "))
}

/// The unknown outcome for a name or directory only known at run time.
fn unknown_name(what: &str, seen: String) -> Outcome {
    Outcome::Unknown {
        why: format!("{what} is only known at run time"),
        seen,
    }
}

/// Most folder entries one pattern is matched against: a pattern that reaches further is
/// one the guard does not follow.
const MAX_GLOB_ENTRIES: usize = 10_000;

/// The paths under `root` that `pattern` names (`mk/*.mk`, `packages/*`, `apps/**`), as
/// `pattern` spells them, sorted: `*`, `?` and `[...]` within a name, `**` any folders
/// below (not `node_modules`, not hidden ones). `Err` when a folder cannot be read or the
/// pattern reaches too far.
fn glob(root: &Path, pattern: &str) -> Result<Vec<String>, String> {
    let base = if pattern.starts_with('/') { "/" } else { "" };
    let parts: Vec<&str> = pattern
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    let mut out = Vec::new();
    let mut budget = MAX_GLOB_ENTRIES;
    glob_walk(root, base.to_string(), &parts, &mut out, &mut budget)?;
    out.sort();
    out.dedup();
    Ok(out)
}

fn glob_walk(
    root: &Path,
    at: String,
    parts: &[&str],
    out: &mut Vec<String>,
    budget: &mut usize,
) -> Result<(), String> {
    let Some((part, rest)) = parts.split_first() else {
        if root.join(&at).exists() {
            out.push(at);
        }
        return Ok(());
    };
    let join = |name: &str| match at.as_str() {
        "" => name.to_string(),
        a if a.ends_with('/') => format!("{a}{name}"),
        a => format!("{a}/{name}"),
    };
    if !part.contains(['*', '?', '[']) {
        return glob_walk(root, join(part), rest, out, budget);
    }
    let folder = root.join(&at);
    let entries = match std::fs::read_dir(&folder) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotADirectory => return Ok(()),
        Err(e) => return Err(format!("{} could not be read: {e}", shown(&folder))),
    };
    let mut names = Vec::new();
    for entry in entries {
        *budget = budget
            .checked_sub(1)
            .ok_or_else(|| format!("`{part}` names more files than the guard reads"))?;
        let entry = entry.map_err(|e| format!("{} could not be read: {e}", shown(&folder)))?;
        names.push((
            entry.file_name().to_string_lossy().into_owned(),
            entry.file_type().is_ok_and(|t| t.is_dir()),
        ));
    }
    for (name, is_dir) in names {
        if *part == "**" {
            if is_dir && !name.starts_with('.') && name != "node_modules" {
                glob_walk(root, join(&name), parts, out, budget)?;
            }
            continue;
        }
        // A pattern names hidden files only when it says so.
        if name.starts_with('.') && !part.starts_with('.') {
            continue;
        }
        if matches_name(part.as_bytes(), name.as_bytes()) {
            glob_walk(root, join(&name), rest, out, budget)?;
        }
    }
    if *part == "**" {
        glob_walk(root, at, rest, out, budget)?;
    }
    Ok(())
}

/// Whether a file's `name` matches one part of a pattern: `*`, `?`, `[abc]`, `[a-z]`,
/// `[!a]`.
fn matches_name(pattern: &[u8], name: &[u8]) -> bool {
    match pattern.split_first() {
        None => name.is_empty(),
        Some((b'*', rest)) => (0..=name.len()).any(|skip| {
            name.get(skip..)
                .is_some_and(|tail| matches_name(rest, tail))
        }),
        Some((b'?', rest)) => name
            .split_first()
            .is_some_and(|(_, tail)| matches_name(rest, tail)),
        Some((b'[', rest)) => {
            let Some(close) = rest.iter().skip(1).position(|&b| b == b']').map(|p| p + 1) else {
                return name
                    .split_first()
                    .is_some_and(|(&c, tail)| c == b'[' && matches_name(rest, tail));
            };
            let (set, after) = rest.split_at(close);
            let after = after.get(1..).unwrap_or_default();
            let (negated, set) = match set.split_first() {
                Some((b'!' | b'^', set)) => (true, set),
                _ => (false, set),
            };
            let Some((&c, tail)) = name.split_first() else {
                return false;
            };
            let mut hit = false;
            let mut i = 0;
            while let Some(&first) = set.get(i) {
                if set.get(i + 1) == Some(&b'-')
                    && let Some(&last) = set.get(i + 2)
                {
                    hit |= (first..=last).contains(&c);
                    i += 3;
                } else {
                    hit |= first == c;
                    i += 1;
                }
            }
            hit != negated && matches_name(after, tail)
        }
        Some((&b, rest)) => name
            .split_first()
            .is_some_and(|(&c, tail)| c == b && matches_name(rest, tail)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_as_a_shell_pattern_does() {
        let yes = |p: &str, n: &str| matches_name(p.as_bytes(), n.as_bytes());
        assert!(yes("*.mk", "clean.mk") && !yes("*.mk", "clean.mkx"));
        assert!(yes("a?c", "abc") && !yes("a?c", "ac"));
        assert!(yes("[a-c]x", "bx") && !yes("[!a-c]x", "bx") && yes("[xy]", "y"));
        assert!(yes("[", "[") && !yes("[a", "b"));
    }

    #[test]
    fn globs_find_files_and_folders_below() {
        let dir = tempfile::tempdir().unwrap();
        for path in [
            "mk/a.mk",
            "mk/b.txt",
            "packages/x/p.json",
            "apps/web/y/p.json",
        ] {
            let full = dir.path().join(path);
            std::fs::create_dir_all(full.parent().unwrap()).unwrap();
            std::fs::write(full, "").unwrap();
        }
        std::fs::create_dir_all(dir.path().join("apps/node_modules/z")).unwrap();
        assert_eq!(glob(dir.path(), "./mk/*.mk").unwrap(), ["mk/a.mk"]);
        assert_eq!(glob(dir.path(), "packages/*").unwrap(), ["packages/x"]);
        assert_eq!(
            glob(dir.path(), "apps/**").unwrap(),
            ["apps", "apps/web", "apps/web/y"]
        );
        assert!(glob(dir.path(), "none/*").unwrap().is_empty());
    }
}
