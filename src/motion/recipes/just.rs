//! justfiles, as just runs them: the recipes named (or the first), each one's dependencies
//! before it, each body line a shell of its own (a shebang body one script).

use std::collections::{HashMap, HashSet};
use std::path::Path;

use super::{
    MAX_RECIPES, Outcome, Recipe, moved, nearest_file, option_value, read_file, shown_dir, walked,
};
use crate::syntax::Word;

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
}

#[derive(Default)]
struct Justfile {
    recipes: HashMap<String, Def>,
    order: Vec<String>,
    vars: HashMap<String, String>,
    aliases: HashMap<String, String>,
    /// `import` and `mod` lines: recipes may come from files not read.
    open: Vec<String>,
}

pub(super) fn read(args: &[Word], dir: Option<&Path>) -> Outcome {
    let mut file_opt = None;
    let mut workdir = None;
    let mut words = Vec::new();
    let mut i = 0;
    while let Some(word) = args.get(i) {
        let text = word.text.as_str();
        if let Some((file, taken)) = option_value(args, i, &["--justfile", "-f"]) {
            file_opt = Some(file);
            i += taken;
            continue;
        }
        if let Some((to, taken)) = option_value(args, i, &["--working-directory", "-d"]) {
            workdir = Some(to);
            i += taken;
            continue;
        }
        match text {
            "-n" | "--dry-run" | "-l" | "--list" | "--summary" | "--dump" | "--evaluate"
            | "--fmt" | "--init" | "--help" | "-h" | "--version" | "-V" | "--variables"
            | "--show" | "-s" | "--edit" | "-e" | "--groups" | "--completions" | "--man" => {
                return Outcome::Nothing;
            }
            "--choose" => {
                return Outcome::Unknown {
                    why: "the recipe is chosen at run time".into(),
                    seen: String::new(),
                };
            }
            "--set" => i += 3,
            t if t.starts_with('-') && t.len() > 1 => i += 1,
            _ => {
                words.push(word.clone());
                i += 1;
            }
        }
    }
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
    let file = parse(&text);
    // Recipes run in the justfile's folder, unless told otherwise.
    let dir_shown = match (workdir, above) {
        (Some(w), _) => Some(w.text),
        (None, above) => above.as_deref().map(shown_dir),
    };
    // `NAME=value` words before the first recipe override variables; the rest are recipes
    // and their arguments.
    let mut goals = Vec::new();
    let mut pending = 0usize;
    let mut variadic = false;
    for word in words {
        if pending > 0 || variadic {
            pending = pending.saturating_sub(1);
            continue;
        }
        let Some(given) = word.value() else {
            return super::unknown_name("the recipe", text.clone());
        };
        if goals.is_empty() && given.contains('=') {
            continue;
        }
        let given = file.aliases.get(given).map_or(given, String::as_str);
        match file.recipes.get(given) {
            Some(def) => {
                pending = def.params.unwrap_or(0);
                variadic = def.params.is_none();
                goals.push(given.to_string());
            }
            None if file.open.is_empty() => return Outcome::Nothing,
            None => return unknown(&file, &text, given),
        }
    }
    if goals.is_empty() {
        match file.order.first() {
            Some(first) => goals.push(first.clone()),
            None if file.open.is_empty() => return Outcome::Nothing,
            None => return unknown(&file, &text, "the default recipe"),
        }
    }
    let mut walk = Walk {
        file: &file,
        name: &name,
        dir: dir_shown,
        seen: HashSet::new(),
        out: Vec::new(),
        unknown: None,
    };
    for goal in &goals {
        walk.recipe(goal);
    }
    let what = format!("{name} runs more recipes");
    walked(walk.out, walk.unknown, &what, text)
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

fn parse(text: &str) -> Justfile {
    let mut file = Justfile::default();
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
        if matches!(first, "import" | "import?" | "mod" | "mod?") {
            file.open.push(line.to_string());
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
        };
        file.order.push(name.to_string());
        file.recipes.insert(name.to_string(), def);
        current = Some(name.to_string());
    }
    file
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
    name: &'a str,
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
        program = words.find(|w| !w.starts_with('-')).unwrap_or("");
    }
    let name = program.rsplit('/').next().unwrap_or(program);
    matches!(name, "sh" | "bash" | "zsh" | "dash" | "ksh")
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
                source: format!("{} recipe {name}", self.name),
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
