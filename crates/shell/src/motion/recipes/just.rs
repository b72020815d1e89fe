//! justfiles, as just runs them: the recipes named (or the first), each one's dependencies
//! before it, each body line a shell of its own (a shebang body one script); `import`ed
//! files joined in, `mod` modules called by their path (`just db::reset`, `just db reset`).

use std::collections::{HashMap, HashSet};
use std::path::Path;

use super::{MAX_RECIPES, Outcome, Recipe, moved, nearest_file, read_file, shown_dir, walked};
use crate::syntax::Word;
use crate::syntax::argv::{self, Style, Valued};

/// just's options that take a value (`--set` takes two: the second is skipped by hand).
const VALUED: &[&str] = &[
    "f",
    "justfile",
    "d",
    "working-directory",
    "set",
    "shell",
    "shell-arg",
    "dotenv-filename",
    "E",
    "dotenv-path",
    "chooser",
    "color",
    "command-color",
    "dump-format",
    "list-heading",
    "list-prefix",
    "completions",
    "s",
    "show",
    "c",
    "command",
];

/// Options after which no recipe runs: a dry run, a listing, help, an edit.
const NOTHING_RUNS: &[&str] = &[
    "n",
    "dry-run",
    "l",
    "list",
    "summary",
    "dump",
    "evaluate",
    "fmt",
    "init",
    "help",
    "h",
    "version",
    "V",
    "variables",
    "show",
    "s",
    "edit",
    "e",
    "groups",
    "completions",
    "man",
];

/// What stands in the shell text for a value just computes (`{{ ... }}` of an expression).
const COMPUTED: &str = "${JUST_COMPUTED}";

pub(super) fn runs_recipe(_argv: &[Word]) -> bool {
    true
}

/// One recipe: its parameters (how many words it takes; `None` for a variadic one), its
/// dependencies before and after it, its body.
#[derive(Default)]
struct Def {
    params: Option<usize>,
    before: Vec<String>,
    after: Vec<String>,
    body: Vec<String>,
    /// The file it is defined in: the justfile, or a file it imports.
    file: String,
}

#[derive(Default)]
struct Justfile {
    recipes: HashMap<String, Def>,
    order: Vec<String>,
    vars: HashMap<String, String>,
    aliases: HashMap<String, String>,
    /// `mod NAME` lines: each module's recipes, and the folder they run in (relative to the
    /// justfile's).
    modules: HashMap<String, (Justfile, Option<String>)>,
    /// `import` and `mod` lines whose files cannot be read: recipes may come from them.
    open: Vec<String>,
    /// A required import or module whose file does not exist: just stops before running
    /// anything.
    fails: bool,
}

/// What `just --command CMD ARGS...` runs: CMD with its words, in the justfile's folder
/// (`elsewhere` when that is not where the line is).
fn run_command(args: &[Word], opt: &argv::Opt, elsewhere: bool) -> Outcome {
    match opt.value_word {
        Some(at) if at != opt.word && !elsewhere => Outcome::Program(at + 1),
        Some(at) => Outcome::Unknown {
            why: "`just --command` runs a command in a folder the guard does not follow".into(),
            seen: args
                .get(at..)
                .unwrap_or_default()
                .iter()
                .map(|w| w.text.as_str())
                .collect::<Vec<_>>()
                .join(" "),
        },
        None => Outcome::Nothing,
    }
}

/// Deepest imports and modules are followed through others.
const MAX_IMPORT_DEPTH: u8 = 8;

pub(super) fn read(args: &[Word], dir: Option<&Path>) -> Outcome {
    let read = argv::read(args, Style::Pflag, &Valued(VALUED));
    // `--command CMD ARGS...` runs CMD with the rest of the line: what follows is its.
    let mut command = None;
    for opt in &read.opts {
        if opt.is("c") || opt.is("command") {
            command = Some(opt);
            break;
        }
        if NOTHING_RUNS.iter().any(|name| opt.is(name)) {
            return Outcome::Nothing;
        }
        if opt.is("choose") {
            return Outcome::Unknown {
                why: "the recipe is chosen at run time".into(),
                seen: String::new(),
            };
        }
    }
    let file_opt = read.last(&["f", "justfile"]).and_then(|o| o.value_in(args));
    let workdir = read
        .last(&["d", "working-directory"])
        .and_then(|o| o.value_in(args));
    // `--set NAME VALUE`: the word after the name is the value.
    let set_values: Vec<usize> = read
        .opts
        .iter()
        .filter(|o| o.is("set"))
        .filter_map(|o| o.value_word.map(|at| at + 1))
        .collect();
    let words: Vec<Word> = read
        .operands
        .iter()
        .filter(|at| !set_values.contains(at))
        .filter_map(|&at| args.get(at).cloned())
        .collect();
    let Some(dir) = dir else {
        return Outcome::Nothing;
    };
    let found = match &file_opt {
        Some(file) => match moved(dir, file) {
            Some(path) => read_file(&path).map(|t| t.map(|t| (file.text.clone(), t, None))),
            None => return super::unknown_name("the justfile", String::new()),
        },
        None => nearest_file(dir, &["justfile", "Justfile", ".justfile", "JUSTFILE"]),
    };
    let (name, text, above) = match found {
        Ok(Some(found)) => found,
        Ok(None) => return Outcome::Nothing,
        Err(why) => {
            return Outcome::Unknown {
                why,
                seen: String::new(),
            };
        }
    };
    let base = above.clone().unwrap_or_else(|| match &file_opt {
        Some(f) => moved(dir, f)
            .and_then(|p| p.parent().map(Path::to_path_buf))
            .unwrap_or_else(|| dir.to_path_buf()),
        None => dir.to_path_buf(),
    });
    let file = parse(&text, &name, &base, "", 0);
    if file.fails {
        return Outcome::Nothing;
    }
    if let Some(opt) = command {
        return run_command(args, opt, above.is_some() || workdir.is_some());
    }
    // Recipes run in the justfile's folder, unless told otherwise.
    let dir_shown = match (workdir, above) {
        (Some(w), _) => Some(w.text),
        (None, above) => above.as_deref().map(shown_dir),
    };
    // `NAME=value` words before the first recipe override variables; the rest are recipes
    // and their arguments.
    // Each goal: the module it is in (the justfile itself, or `mod`s), and the recipe.
    let mut goals: Vec<(&Justfile, Option<String>, String)> = Vec::new();
    let mut pending = 0usize;
    let mut variadic = false;
    // A module named on its own word: the next word names one of its recipes.
    let mut within: Option<(&Justfile, Option<String>)> = None;
    for word in words {
        if pending > 0 || variadic {
            pending = pending.saturating_sub(1);
            continue;
        }
        let Some(given) = word.value() else {
            return super::unknown_name("the recipe", text.clone());
        };
        if goals.is_empty() && within.is_none() && given.contains('=') {
            continue;
        }
        let (mut module, mut at) = within.take().unwrap_or((&file, dir_shown.clone()));
        // `just db::reset`: a recipe of a module by its path.
        let mut path: Vec<&str> = given.split("::").collect();
        let recipe = path.pop().unwrap_or(given);
        for name in path {
            match module.modules.get(name) {
                Some((inner, dir)) => {
                    at = joined(at, dir.as_deref());
                    module = inner;
                }
                None if module.open.is_empty() => return Outcome::Nothing,
                None => return unknown(module, &text, given),
            }
        }
        let recipe = module.aliases.get(recipe).map_or(recipe, String::as_str);
        if let Some(def) = module.recipes.get(recipe) {
            pending = def.params.unwrap_or(0);
            variadic = def.params.is_none();
            goals.push((module, at, recipe.to_string()));
            continue;
        }
        match module.modules.get(recipe) {
            Some((inner, dir)) => within = Some((inner, joined(at, dir.as_deref()))),
            None if module.open.is_empty() => return Outcome::Nothing,
            None => return unknown(module, &text, given),
        }
    }
    // `just` alone, or `just db`: the first recipe of the justfile or the module.
    let defaults = match within {
        Some(module) => Some(module),
        None if goals.is_empty() => Some((&file, dir_shown)),
        None => None,
    };
    if let Some((module, at)) = defaults {
        match module.order.first() {
            Some(first) => goals.push((module, at, first.clone())),
            None if module.open.is_empty() => return Outcome::Nothing,
            None => return unknown(module, &text, "the default recipe"),
        }
    }
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for (module, at, goal) in goals {
        let mut walk = Walk {
            file: module,
            dir: at,
            seen,
            out,
            unknown: None,
        };
        walk.recipe(&goal);
        if let Some(why) = walk.unknown {
            return Outcome::Unknown { why, seen: text };
        }
        (out, seen) = (walk.out, walk.seen);
    }
    let what = format!("{name} runs more recipes");
    walked(out, None, &what, text)
}

/// A module's folder below the one its parent runs in.
fn joined(at: Option<String>, dir: Option<&str>) -> Option<String> {
    match (at, dir) {
        (Some(at), Some(dir)) => Some(format!("{at}/{dir}")),
        (at, dir) => at.or(dir.map(str::to_string)),
    }
}

fn unknown(file: &Justfile, text: &str, what: &str) -> Outcome {
    Outcome::Unknown {
        why: format!(
            "{what} may come from `{}`, which the guard does not follow",
            file.open.first().map_or("", String::as_str)
        ),
        seen: text.to_string(),
    }
}

/// The justfile `name` (as reasons show it) with text `text`, read from the folder `base`,
/// its imports and modules followed; `prefix` is the folder of `name` as shown from the
/// first justfile's.
fn parse(text: &str, name: &str, base: &Path, prefix: &str, depth: u8) -> Justfile {
    let mut file = Justfile::default();
    file.lines(text, name, base, prefix, depth);
    file
}

/// The path in an `import` or `mod` line: quoted, as just writes strings.
fn quoted_path(text: &str) -> Option<&str> {
    let text = text.trim();
    text.strip_prefix('\'')
        .and_then(|t| t.strip_suffix('\''))
        .or_else(|| text.strip_prefix('"').and_then(|t| t.strip_suffix('"')))
        // `~/x.just` is in a home folder the guard does not look into.
        .filter(|t| !t.contains(['\\', '{']) && !t.starts_with('~'))
}

/// `prefix/path` as reasons show a file.
fn shown_path(prefix: &str, path: &str) -> String {
    if prefix.is_empty() {
        path.to_string()
    } else {
        format!("{prefix}/{path}")
    }
}

impl Justfile {
    /// `import 'path'`, `import? 'path'`: its recipes and variables join this file's.
    fn import(&mut self, line: &str, base: &Path, prefix: &str, depth: u8) {
        let (optional, rest) = match line.strip_prefix("import?") {
            Some(rest) => (true, rest),
            None => (false, line.strip_prefix("import").unwrap_or("")),
        };
        let Some(path) = quoted_path(rest).filter(|_| depth < MAX_IMPORT_DEPTH) else {
            self.open.push(line.to_string());
            return;
        };
        let full = base.join(path);
        match read_file(&full) {
            Ok(Some(text)) => {
                let inner_base = full.parent().unwrap_or(base).to_path_buf();
                let inner_prefix = Path::new(&shown_path(prefix, path))
                    .parent()
                    .map(|p| p.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let name = shown_path(prefix, path);
                self.lines(&text, &name, &inner_base, &inner_prefix, depth + 1);
            }
            Ok(None) => self.fails |= !optional,
            Err(_) => self.open.push(line.to_string()),
        }
    }

    /// `mod NAME`, `mod? NAME`, `mod NAME 'path'`: a module, found as just finds it
    /// (`NAME.just`, `NAME/mod.just`, `NAME/justfile`, ...), its recipes running in its
    /// folder.
    fn module(&mut self, line: &str, base: &Path, prefix: &str, depth: u8) {
        let (optional, rest) = match line.strip_prefix("mod?") {
            Some(rest) => (true, rest),
            None => (false, line.strip_prefix("mod").unwrap_or("")),
        };
        let rest = rest.trim();
        let (name, path) = match rest.split_once(char::is_whitespace) {
            Some((name, path)) => (name, Some(path)),
            None => (rest, None),
        };
        let candidates: Vec<String> = match path {
            Some(path) => match quoted_path(path) {
                // A folder given is searched for its justfile as a module's own folder is.
                Some(path) if base.join(path).is_dir() => module_files(path),
                Some(path) => vec![path.to_string()],
                None => {
                    self.open.push(line.to_string());
                    return;
                }
            },
            None => [format!("{name}.just")]
                .into_iter()
                .chain(module_files(name))
                .collect(),
        };
        if depth >= MAX_IMPORT_DEPTH || name.is_empty() {
            self.open.push(line.to_string());
            return;
        }
        for candidate in candidates {
            match read_file(&base.join(&candidate)) {
                Ok(Some(text)) => {
                    let shown = shown_path(prefix, &candidate);
                    let folder = Path::new(&candidate)
                        .parent()
                        .map(|p| p.to_string_lossy().into_owned())
                        .filter(|p| !p.is_empty());
                    let inner_base = folder.as_ref().map_or(base.to_path_buf(), |f| base.join(f));
                    let inner_prefix = Path::new(&shown)
                        .parent()
                        .map(|p| p.to_string_lossy().into_owned())
                        .unwrap_or_default();
                    let module = parse(&text, &shown, &inner_base, &inner_prefix, depth + 1);
                    self.fails |= module.fails;
                    self.modules.insert(name.to_string(), (module, folder));
                    return;
                }
                Ok(None) => {}
                Err(_) => {
                    self.open.push(line.to_string());
                    return;
                }
            }
        }
        self.fails |= !optional;
    }

    fn lines(&mut self, text: &str, name: &str, base: &Path, prefix: &str, depth: u8) {
        let file = self;
        let source = name;
        let mut current: Option<String> = None;
        for line in text.lines() {
            if line.starts_with([' ', '\t']) {
                if let Some(def) = current.as_ref().and_then(|c| file.recipes.get_mut(c))
                    && !line.trim().is_empty()
                {
                    def.body.push(line.trim().to_string());
                }
                continue;
            }
            let line = line.trim_end();
            current = None;
            if line.is_empty() || line.starts_with('#') || line.starts_with('[') {
                continue;
            }
            let first = line.split_whitespace().next().unwrap_or("");
            if matches!(first, "import" | "import?") {
                file.import(line, base, prefix, depth);
                continue;
            }
            if matches!(first, "mod" | "mod?") {
                file.module(line, base, prefix, depth);
                continue;
            }
            if matches!(first, "set" | "alias") {
                if let Some((alias, target)) = line
                    .strip_prefix("alias ")
                    .and_then(|rest| rest.split_once(":="))
                {
                    file.aliases
                        .insert(alias.trim().to_string(), target.trim().to_string());
                }
                continue;
            }
            let statement = line.strip_prefix("export ").unwrap_or(line);
            if let Some((name, value)) = statement.split_once(":=")
                && !name.contains(':')
            {
                let value = value.trim();
                let quoted = value
                    .strip_prefix('"')
                    .and_then(|v| v.strip_suffix('"'))
                    .or_else(|| value.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')))
                    .filter(|v| !v.contains(['"', '\'', '\\']));
                if let Some(value) = quoted {
                    file.vars.insert(name.trim().to_string(), value.to_string());
                }
                continue;
            }
            let Some((head, deps)) = line.split_once(':') else {
                continue;
            };
            let head = head.trim_start_matches('@');
            let mut parts = head.split_whitespace();
            let Some(name) = parts.next() else {
                continue;
            };
            let params: Vec<&str> = parts.collect();
            let variadic = params.iter().any(|p| p.starts_with(['+', '*']));
            let (before, after) = deps.split_once("&&").unwrap_or((deps, ""));
            let def = Def {
                params: (!variadic).then_some(params.len()),
                before: dependency_names(before),
                after: dependency_names(after),
                body: Vec::new(),
                file: source.to_string(),
            };
            file.order.push(name.to_string());
            file.recipes.insert(name.to_string(), def);
            current = Some(name.to_string());
        }
    }
}

/// Where a module's justfile is looked for in its folder.
fn module_files(folder: &str) -> Vec<String> {
    ["mod.just", "justfile", "Justfile", ".justfile"]
        .iter()
        .map(|f| format!("{folder}/{f}"))
        .collect()
}

/// `a b (c "x") && d`: the recipes named, without the arguments given to them.
fn dependency_names(deps: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut level = 0u32;
    for token in deps.split_whitespace() {
        let opening = level == 0;
        level += token.matches('(').count() as u32;
        if opening {
            let name = token.trim_start_matches('(').trim_end_matches(')');
            if !name.is_empty() && !name.starts_with(['"', '\'']) {
                out.push(name.to_string());
            }
        }
        level = level.saturating_sub(token.matches(')').count() as u32);
    }
    out
}

struct Walk<'a> {
    file: &'a Justfile,
    dir: Option<String>,
    seen: HashSet<String>,
    out: Vec<Recipe>,
    /// Set when a recipe on the way cannot be read.
    unknown: Option<String>,
}

/// Whether a shebang line names a POSIX shell (`#!/usr/bin/env bash`, `#!/bin/sh -eu`).
fn runs_shell(shebang: &str) -> bool {
    let mut words = shebang.trim_start_matches("#!").split_whitespace();
    let mut program = words.next().unwrap_or("");
    if program.ends_with("/env") {
        program = env_program(words.collect());
    }
    let name = program.rsplit('/').next().unwrap_or(program);
    matches!(name, "sh" | "bash" | "zsh" | "dash" | "ksh")
}

/// The program a shebang's `env` runs, past env's own options. `-S` (split the rest into
/// words) is read as a flag: the shebang's words are split already.
fn env_program(words: Vec<&str>) -> &str {
    let args: Vec<Word> = words.iter().map(|w| Word::literal(*w)).collect();
    let read = argv::read_head(
        &args,
        Style::Getopt,
        &Valued(&["u", "unset", "C", "chdir", "P"]),
    );
    read.stopped_at
        .and_then(|at| words.get(at).copied())
        .unwrap_or("")
}

impl Walk<'_> {
    fn recipe(&mut self, name: &str) {
        if self.out.len() > MAX_RECIPES
            || self.unknown.is_some()
            || !self.seen.insert(name.to_string())
        {
            return;
        }
        let Some(def) = self.file.recipes.get(name) else {
            return;
        };
        for dep in &def.before {
            self.recipe(dep);
        }
        if !def.body.is_empty() {
            // A line ending in `\` goes on on the next, as just joins them.
            let mut body: Vec<String> = Vec::new();
            for line in &def.body {
                let line = self.interpolate(line);
                match body.last_mut() {
                    Some(open) if open.ends_with('\\') => {
                        open.pop();
                        open.push(' ');
                        open.push_str(&line);
                    }
                    _ => body.push(line),
                }
            }
            let lines = match body.first() {
                Some(shebang) if shebang.starts_with("#!") => {
                    if !runs_shell(shebang) {
                        self.unknown = Some(format!(
                            "the recipe `{name}` is a script for `{}`, which is not read",
                            shebang.trim_start_matches("#!").trim()
                        ));
                        return;
                    }
                    vec![body.join("\n")]
                }
                _ => body
                    .iter()
                    .map(|l| l.trim_start_matches(['@', '-']).to_string())
                    .collect(),
            };
            self.out.push(Recipe {
                source: format!("{} recipe {name}", def.file),
                lines,
                dir: self.dir.clone(),
            });
        }
        for dep in &def.after {
            self.recipe(dep);
        }
    }

    /// `{{ name }}` of a variable the file gives literally is its value; any other
    /// interpolation is known only at run time.
    fn interpolate(&self, line: &str) -> String {
        let mut out = String::with_capacity(line.len());
        let mut rest = line;
        while let Some(at) = rest.find("{{") {
            out.push_str(rest.get(..at).unwrap_or(""));
            let after = rest.get(at + 2..).unwrap_or("");
            if let Some(escaped) = after.strip_prefix("{{") {
                out.push_str("{{");
                rest = escaped;
                continue;
            }
            let Some(end) = after.find("}}") else {
                out.push_str(COMPUTED);
                return out;
            };
            let expr = after.get(..end).unwrap_or("").trim();
            match self.file.vars.get(expr) {
                Some(value) => out.push_str(value),
                None => out.push_str(COMPUTED),
            }
            rest = after.get(end + 2..).unwrap_or("");
        }
        out.push_str(rest);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dependencies_run_first_and_arguments_are_not_recipes() {
        let dir = tempfile::tempdir().unwrap();
        let text = "out := \"dist\"\n\ndefault: build\n\nclean:\n    rm -rf \\\n      {{out}}\n\nbuild target: clean\n    @cargo build {{target}}\n";
        std::fs::write(dir.path().join("justfile"), text).unwrap();
        let args: Vec<Word> = ["build", "clean"].map(Word::literal).to_vec();
        let Outcome::Runs(out) = read(&args, Some(dir.path())) else {
            panic!()
        };
        let texts: Vec<String> = out.iter().map(Recipe::text).collect();
        assert_eq!(texts, ["rm -rf  dist", "cargo build ${JUST_COMPUTED}"]);
        let Outcome::Runs(out) = read(&[], Some(dir.path())) else {
            panic!()
        };
        assert_eq!(out.len(), 2);
    }
}
