//! Makefiles, as make runs them: the goals named (or the default goal), each target's
//! prerequisites before it, variables defined in the file or on the command line expanded,
//! each recipe line a shell of its own; `include`d files read in their place.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use super::{MAX_RECIPES, Outcome, Recipe, first_file, moved, read_file};
use crate::syntax::Word;
use crate::syntax::argv::{self, Opt, Options, Style, Takes};

/// Deepest a variable's value is expanded through others.
const MAX_EXPANSION_DEPTH: u8 = 16;

/// What stands in the shell text for a value make computes at run time: a shell
/// expansion, so the words it lands in are not literal.
const COMPUTED: &str = "${MAKE_COMPUTED}";

pub(super) fn runs_recipe(_argv: &[Word]) -> bool {
    true
}

/// What the command line asks of make.
#[derive(Default)]
struct Invocation {
    dirs: Vec<Word>,
    file: Option<Word>,
    /// Nothing runs: a dry run, a question, `--touch`, help or version.
    nothing: bool,
    /// `--eval` adds makefile text the guard does not read.
    evaluates: bool,
    goals: Vec<Word>,
    vars: Vec<(String, String)>,
}

/// make's options that take a value.
const VALUED: &[&str] = &[
    "C",
    "directory",
    "f",
    "file",
    "makefile",
    "E",
    "eval",
    "I",
    "include-dir",
    "o",
    "old-file",
    "assume-old",
    "W",
    "what-if",
    "new-file",
    "assume-new",
];

/// Options that take a count: attached (`-j4`, `--jobs=4`), or the next word when it is a
/// number (`-j 4`).
const COUNTS: &[&str] = &["j", "jobs", "l", "load-average"];

/// Options after which nothing runs: a dry run, a question, `--touch`, help or version.
const NOTHING_RUNS: &[&str] = &[
    "n",
    "dry-run",
    "just-print",
    "recon",
    "q",
    "question",
    "t",
    "touch",
    "h",
    "help",
    "v",
    "version",
];

struct MakeOptions;

impl Options for MakeOptions {
    fn long(&self, name: &str) -> Option<Takes> {
        Some(if VALUED.contains(&name) {
            Takes::Value
        } else {
            Takes::Nothing
        })
    }
    fn short(&self, letter: char) -> Option<Takes> {
        let mut buf = [0; 4];
        let name: &str = letter.encode_utf8(&mut buf);
        Some(if VALUED.contains(&name) {
            Takes::Value
        } else if COUNTS.contains(&name) || name == "O" {
            Takes::Attached
        } else {
            Takes::Nothing
        })
    }
}

fn invocation(args: &[Word]) -> Invocation {
    let read = argv::read(args, Style::Getopt, &MakeOptions);
    let values = |names: &[&str]| -> Vec<Word> {
        let named = |o: &&Opt| names.iter().any(|n| o.is(n));
        read.opts
            .iter()
            .filter(named)
            .filter_map(|o| o.value_in(args))
            .collect()
    };
    let counted: Vec<usize> = read
        .opts
        .iter()
        .filter(|o| o.value.is_none() && COUNTS.iter().any(|n| o.is(n)))
        .map(|o| o.word + 1)
        .filter(|&at| args.get(at).is_some_and(is_number))
        .collect();
    let mut out = Invocation {
        dirs: values(&["C", "directory"]),
        file: values(&["f", "file", "makefile"]).pop(),
        nothing: NOTHING_RUNS.iter().any(|name| read.on(&[name])),
        evaluates: read.last(&["E", "eval"]).is_some(),
        ..Invocation::default()
    };
    let dashdash = read.after_dashdash.unwrap_or(read.operands.len());
    for (n, &at) in read.operands.iter().enumerate() {
        let Some(word) = args.get(at) else { continue };
        if counted.contains(&at) {
            continue;
        }
        match assignment_on_command_line(&word.text) {
            Some((name, value)) if word.literal && n < dashdash => out.vars.push((name, value)),
            _ => out.goals.push(word.clone()),
        }
    }
    out
}

/// Whether a word is a count for `-j` or `-l`.
fn is_number(word: &Word) -> bool {
    !word.text.is_empty() && word.text.chars().all(|c| c.is_ascii_digit())
}

/// `NAME=value` (or `NAME:=value`) given to make as a variable.
fn assignment_on_command_line(text: &str) -> Option<(String, String)> {
    let (name, value) = text.split_once('=')?;
    let name = name.trim_end_matches([':', '?', '+', '!']);
    let valid = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'));
    valid.then(|| (name.to_string(), value.to_string()))
}

pub(super) fn read(args: &[Word], dir: Option<&Path>) -> Outcome {
    let call = invocation(args);
    if call.nothing {
        return Outcome::Nothing;
    }
    let Some(dir) = dir else {
        return Outcome::Nothing;
    };
    let mut root = dir.to_path_buf();
    for to in &call.dirs {
        match moved(&root, to) {
            Some(next) => root = next,
            None => return super::unknown_name("make's directory", String::new()),
        }
    }
    let found = match &call.file {
        Some(file) if file.text == "-" => {
            return Outcome::Unknown {
                why: "make reads its makefile from stdin".into(),
                seen: String::new(),
            };
        }
        Some(file) => match file.value() {
            Some(name) => read_file(&root.join(name)).map(|t| t.map(|t| (name.to_string(), t))),
            None => return super::unknown_name("the makefile", String::new()),
        },
        None => first_file(&root, &["GNUmakefile", "makefile", "Makefile"]),
    };
    let (name, text) = match found {
        Ok(Some(found)) => found,
        // No makefile: make has nothing to run.
        Ok(None) => return Outcome::Nothing,
        Err(why) => {
            return Outcome::Unknown {
                why,
                seen: String::new(),
            };
        }
    };
    let mut file = Makefile::parse(&text, &name, &call.vars, &root);
    if file.fails.is_some() {
        return Outcome::Nothing;
    }
    if call.evaluates {
        file.open.push("`--eval` text".into());
    }
    let dir_shown = (!call.dirs.is_empty()).then(|| {
        let mut shown = PathBuf::new();
        for dir in &call.dirs {
            shown.push(&dir.text);
        }
        shown.to_string_lossy().into_owned()
    });
    let goals: Vec<String> = if call.goals.is_empty() {
        match file.default_goal() {
            Some(goal) => vec![goal],
            None if file.open.is_empty() => return Outcome::Nothing,
            None => return file.unknown(&root, &text, "the default goal"),
        }
    } else {
        let mut goals = Vec::new();
        for goal in &call.goals {
            match goal.value() {
                Some(goal) => goals.push(goal.to_string()),
                None => return super::unknown_name("the target", text),
            }
        }
        goals
    };
    let mut walk = Walk {
        file: &file,
        dir: dir_shown,
        seen: HashSet::new(),
        out: Vec::new(),
        missing: None,
    };
    for goal in &goals {
        walk.target(goal, true);
    }
    if walk.out.len() > MAX_RECIPES {
        return Outcome::Unknown {
            why: format!("{name} runs more recipes than the guard follows"),
            seen: text,
        };
    }
    if let Some(target) = walk.missing {
        return file.unknown(&root, &text, &format!("the target `{target}`"));
    }
    Outcome::Runs(walk.out)
}

/// A makefile as far as it is read: its rules, its variables, and what it leaves open.
#[derive(Default)]
struct Makefile {
    rules: HashMap<String, Rule>,
    first_target: Option<String>,
    /// Variables defined in the file or on the command line; `None` for a value only known
    /// at run time (`!=`, `define`).
    vars: HashMap<String, Option<String>>,
    /// Variables the command line set: the file does not change them.
    fixed: HashSet<String>,
    /// What the file leaves for make to find elsewhere: included files, computed lines.
    open: Vec<String>,
    one_shell: bool,
    /// A required include that does not exist and no rule makes: make stops before any
    /// recipe runs.
    fails: Option<String>,
}

#[derive(Default)]
struct Rule {
    prereqs: Vec<String>,
    recipe: Vec<String>,
    /// The file whose lines gave the recipe: the makefile, or a file it includes.
    file: String,
}

/// Deepest an include is followed through others.
const MAX_INCLUDE_DEPTH: u8 = 8;

impl Makefile {
    /// The makefile `name` with text `text`, the files it includes read from `root` (where
    /// make runs, which is where make looks for them).
    fn parse(text: &str, name: &str, given: &[(String, String)], root: &Path) -> Makefile {
        let mut file = Makefile::default();
        for (name, value) in given {
            file.vars.insert(name.clone(), Some(value.clone()));
            file.fixed.insert(name.clone());
        }
        let mut missing = Vec::new();
        file.lines(text, name, root, 0, &mut missing);
        // A required include that is missing fails the run, unless a rule of the file
        // makes it (then make makes it and starts over with what it holds).
        for path in missing {
            if file.rules.contains_key(&path) {
                file.open.push(format!("include {path}"));
            } else {
                file.fails = Some(path);
            }
        }
        file.one_shell = file.rules.contains_key(".ONESHELL");
        file
    }

    /// Reads the lines of `text` (the file `name`) into the makefile, following its
    /// includes; a required include that does not exist goes to `missing`.
    fn lines(&mut self, text: &str, name: &str, root: &Path, depth: u8, missing: &mut Vec<String>) {
        let file = self;
        let lines: Vec<&str> = text.lines().collect();
        let mut current: Vec<String> = Vec::new();
        // How deep in conditionals the line is: which branch make takes is not read.
        let mut nested = 0u32;
        let mut in_define = false;
        let mut i = 0;
        while let Some(&line) = lines.get(i) {
            i += 1;
            if in_define {
                in_define = line.trim() != "endef";
                continue;
            }
            if let Some(body) = line.strip_prefix('\t')
                && !current.is_empty()
            {
                let mut recipe = body.to_string();
                while recipe.ends_with('\\')
                    && let Some(&next) = lines.get(i)
                {
                    i += 1;
                    recipe.push('\n');
                    recipe.push_str(next.strip_prefix('\t').unwrap_or(next));
                }
                for target in &current {
                    if let Some(rule) = file.rules.get_mut(target) {
                        rule.recipe.push(recipe.clone());
                        rule.file = name.to_string();
                    }
                }
                continue;
            }
            let mut logical = line.to_string();
            while logical.ends_with('\\')
                && let Some(&next) = lines.get(i)
            {
                i += 1;
                logical.pop();
                logical.push(' ');
                logical.push_str(next.trim_start());
            }
            let code = logical.split('#').next().unwrap_or("").trim_end();
            let trimmed = code.trim_start();
            if trimmed.is_empty() {
                continue;
            }
            let first = trimmed.split_whitespace().next().unwrap_or("");
            match first {
                "define" => {
                    in_define = true;
                    if let Some(name) = trimmed.split_whitespace().nth(1) {
                        file.vars.insert(name.to_string(), None);
                    }
                    current.clear();
                    continue;
                }
                "ifeq" | "ifneq" | "ifdef" | "ifndef" => {
                    nested += 1;
                    continue;
                }
                "endif" => {
                    nested = nested.saturating_sub(1);
                    continue;
                }
                "else" => continue,
                "include" | "-include" | "sinclude" => {
                    let rest = trimmed.get(first.len()..).unwrap_or("").trim();
                    // Under a condition (`ifneq ($(wildcard local.mk),)`) a missing file
                    // may be one make never asks for.
                    let required = first == "include" && nested == 0;
                    file.include(rest, required, root, depth, missing);
                    current.clear();
                    continue;
                }
                "vpath" | "unexport" => continue,
                _ => {}
            }
            let statement = strip_keywords(trimmed);
            if let Some((name, op, value)) = assignment(statement) {
                file.assign(name, op, value);
                current.clear();
                continue;
            }
            match rule(statement) {
                Some((targets, prereqs, inline)) => {
                    current = file.add_rule(targets, prereqs, inline, name);
                }
                None => {
                    // `$(eval ...)`, a function call on its own: it may define anything.
                    if statement.contains('$') {
                        file.open.push(statement.to_string());
                    }
                    current.clear();
                }
            }
        }
    }

    /// An `include` line: each file it names is read in its place. A name only known at
    /// run time, a file that cannot be read, or includes nested too deep are left open; an
    /// optional include (`-include`, `sinclude`) that does not exist is skipped.
    fn include(
        &mut self,
        names: &str,
        required: bool,
        root: &Path,
        depth: u8,
        missing: &mut Vec<String>,
    ) {
        let expanded = self.expand(names, 0, None);
        if expanded.contains('$') || depth >= MAX_INCLUDE_DEPTH {
            self.open.push(format!("include {names}"));
            return;
        }
        for pattern in expanded.split_whitespace() {
            // `~/x.mk` is in a home folder the guard does not look into.
            if pattern.starts_with('~') {
                self.open.push(format!("include {pattern}"));
                continue;
            }
            let paths = if pattern.contains(['*', '?', '[']) {
                // A pattern names the files that exist: none is no error.
                match super::glob(root, pattern) {
                    Ok(paths) => paths,
                    Err(_) => {
                        self.open.push(format!("include {pattern}"));
                        continue;
                    }
                }
            } else {
                vec![pattern.to_string()]
            };
            for path in paths {
                match read_file(&root.join(&path)) {
                    Ok(Some(text)) => self.lines(&text, &path, root, depth + 1, missing),
                    Ok(None) if required => missing.push(path),
                    Ok(None) => {}
                    Err(_) => self.open.push(format!("include {path}")),
                }
            }
        }
    }

    fn assign(&mut self, name: &str, op: &str, value: &str) {
        if self.fixed.contains(name) {
            return;
        }
        let value = value.trim().to_string();
        let new = match op {
            "?" if self.vars.contains_key(name) => return,
            "+" => match self.vars.get(name) {
                Some(Some(old)) => Some(format!("{old} {value}")),
                Some(None) => None,
                None => Some(value),
            },
            "!" => None,
            // `:=` and `::=` expand once, now.
            ":" | "::" => Some(self.expand(&value, 0, None)),
            _ => Some(value),
        };
        self.vars.insert(name.to_string(), new);
    }

    /// Records a rule line; gives the targets later recipe lines belong to.
    fn add_rule(
        &mut self,
        targets: &str,
        prereqs: &str,
        inline: Option<&str>,
        file: &str,
    ) -> Vec<String> {
        let targets: Vec<String> = self
            .expand(targets, 0, None)
            .split_whitespace()
            .map(str::to_string)
            .collect();
        let prereqs: Vec<String> = self
            .expand(prereqs, 0, None)
            .split_whitespace()
            .filter(|p| *p != "|")
            .map(str::to_string)
            .collect();
        for target in &targets {
            let plain = !target.starts_with('.') || target.contains('/');
            if self.first_target.is_none() && plain && !target.contains('%') {
                self.first_target = Some(target.clone());
            }
            let rule = self.rules.entry(target.clone()).or_default();
            rule.prereqs.extend(prereqs.iter().cloned());
            if inline.is_some() {
                rule.file = file.to_string();
            }
            if let Some(inline) = inline {
                rule.recipe.push(inline.to_string());
            }
        }
        targets
    }

    fn default_goal(&self) -> Option<String> {
        match self.vars.get(".DEFAULT_GOAL") {
            Some(Some(goal)) => {
                let goal = self.expand(goal, 0, None);
                let goal = goal.trim();
                (!goal.is_empty()).then(|| goal.to_string())
            }
            _ => self.first_target.clone(),
        }
    }

    /// Expands make's variable references in `text`. In a recipe, `rule` gives the
    /// automatic variables (`$@`, `$<`, `$^`). What cannot be known stands as a shell
    /// expansion.
    fn expand(&self, text: &str, depth: u8, rule: Option<(&str, &Rule)>) -> String {
        if depth > MAX_EXPANSION_DEPTH {
            return COMPUTED.to_string();
        }
        let mut out = String::with_capacity(text.len());
        let mut chars = text.char_indices().peekable();
        while let Some((_, c)) = chars.next() {
            if c != '$' {
                out.push(c);
                continue;
            }
            let Some((at, next)) = chars.next() else {
                break;
            };
            let name = match next {
                '$' => {
                    out.push('$');
                    continue;
                }
                '(' | '{' => {
                    let close = if next == '(' { ')' } else { '}' };
                    let start = at + 1;
                    let mut level = 1;
                    let mut end = None;
                    for (pos, c) in chars.by_ref() {
                        if c == next {
                            level += 1;
                        } else if c == close {
                            level -= 1;
                            if level == 0 {
                                end = Some(pos);
                                break;
                            }
                        }
                    }
                    match end.and_then(|end| text.get(start..end)) {
                        Some(name) => name,
                        None => {
                            out.push_str(COMPUTED);
                            break;
                        }
                    }
                }
                _ => text.get(at..at + next.len_utf8()).unwrap_or(""),
            };
            out.push_str(&self.value_of(name, depth, rule));
        }
        out
    }

    fn value_of(&self, name: &str, depth: u8, rule: Option<(&str, &Rule)>) -> String {
        if let Some((target, rule)) = rule {
            match name {
                "@" => return target.to_string(),
                "<" => return rule.prereqs.first().cloned().unwrap_or_default(),
                "^" | "+" | "?" => return rule.prereqs.join(" "),
                _ => {}
            }
        }
        match self.vars.get(name) {
            Some(Some(value)) => self.expand(value, depth + 1, rule),
            Some(None) => COMPUTED.to_string(),
            None if name == "MAKE" => "make".to_string(),
            None if name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => {
                // Undefined in the file: the environment may give it.
                format!("${{{name}}}")
            }
            None => COMPUTED.to_string(),
        }
    }

    /// The unknown outcome when `what` is not defined in the file but the file leaves
    /// something open; nothing runs when it leaves nothing open (make refuses).
    fn unknown(&self, root: &Path, text: &str, what: &str) -> Outcome {
        if self.open.is_empty() {
            return Outcome::Nothing;
        }
        // Whatever included files can be read is seen too.
        let mut seen = text.to_string();
        for open in &self.open {
            for included in open
                .strip_prefix("include ")
                .unwrap_or("")
                .split_whitespace()
            {
                let path: PathBuf = root.join(self.expand(included, 0, None));
                if let Ok(Some(more)) = read_file(&path) {
                    seen.push('\n');
                    seen.push_str(&more);
                }
            }
        }
        let first = self.open.first().map_or("", String::as_str);
        Outcome::Unknown {
            why: format!("{what} may be defined by `{first}`, which the guard does not follow"),
            seen,
        }
    }
}

/// `override`, `export`, `private` before an assignment or rule.
fn strip_keywords(mut line: &str) -> &str {
    loop {
        let Some(rest) = ["override ", "export ", "private "]
            .iter()
            .find_map(|k| line.strip_prefix(k))
        else {
            return line;
        };
        line = rest.trim_start();
    }
}

/// `NAME = value`, `NAME := value`, `NAME ?= value`, `NAME += value`, `NAME != command`:
/// the name, the operator before `=`, and the value.
fn assignment(line: &str) -> Option<(&str, &str, &str)> {
    let eq = line.find('=')?;
    let before = line.get(..eq)?;
    let name_part = before.trim_end_matches([':', '?', '+', '!']);
    if name_part.contains([':', ';']) || name_part.contains("$(") && !name_part.ends_with(')') {
        return None;
    }
    let name = name_part.trim();
    if name.is_empty() || name.contains(char::is_whitespace) {
        return None;
    }
    let op = before.get(name_part.len()..)?;
    Some((name, op, line.get(eq + 1..)?))
}

/// `targets: prereqs` or `targets:: prereqs`, with an inline recipe after `;`. A
/// target-specific variable (`t: VAR = x`) is no rule to run.
fn rule(line: &str) -> Option<(&str, &str, Option<&str>)> {
    let colon = colon_outside_references(line)?;
    let targets = line.get(..colon)?;
    let rest = line.get(colon + 1..)?;
    let rest = rest.strip_prefix(':').unwrap_or(rest);
    let (prereqs, inline) = match rest.split_once(';') {
        Some((p, r)) => (p, Some(r.trim_start())),
        None => (rest, None),
    };
    if prereqs.contains('=') {
        return None;
    }
    // A static pattern rule (`objs: %.o: %.c`): the prerequisites are after the second colon.
    let prereqs = prereqs.rsplit(':').next().unwrap_or(prereqs);
    Some((targets, prereqs, inline))
}

/// The first `:` not inside a `$( )` reference.
fn colon_outside_references(line: &str) -> Option<usize> {
    let mut level = 0u32;
    for (at, c) in line.char_indices() {
        match c {
            '(' | '{' => level += 1,
            ')' | '}' => level = level.saturating_sub(1),
            ':' if level == 0 => return Some(at),
            _ => {}
        }
    }
    None
}

/// Following goals to the recipes they run, prerequisites first, each target once.
struct Walk<'a> {
    file: &'a Makefile,
    dir: Option<String>,
    seen: HashSet<String>,
    out: Vec<Recipe>,
    /// A goal the file does not define.
    missing: Option<String>,
}

impl Walk<'_> {
    /// Follows `target`; `goal` when the command line asked for it.
    fn target(&mut self, target: &str, goal: bool) {
        if self.out.len() > MAX_RECIPES || !self.seen.insert(target.to_string()) {
            return;
        }
        let Some(rule) = self.file.rules.get(target) else {
            // A prerequisite with no rule is a file, or one a built-in rule makes: nothing
            // of the makefile's runs for it. A goal defined nowhere may come from what the
            // file leaves open.
            if goal {
                self.missing.get_or_insert_with(|| target.to_string());
            }
            return;
        };
        for prereq in &rule.prereqs {
            self.target(prereq, false);
        }
        if rule.recipe.is_empty() {
            return;
        }
        let lines: Vec<String> = rule
            .recipe
            .iter()
            .map(|line| self.file.expand(line, 0, Some((target, rule))))
            .map(|line| strip_prefixes(&line).to_string())
            .collect();
        let lines = if self.file.one_shell {
            vec![lines.join("\n")]
        } else {
            lines
        };
        self.out.push(Recipe {
            source: format!("{} target {target}", rule.file),
            lines,
            dir: self.dir.clone(),
        });
    }
}

/// A recipe line without make's own prefixes: `@` (silent), `-` (errors ignored), `+`
/// (run even under `-n`).
fn strip_prefixes(line: &str) -> &str {
    line.trim_start_matches(|c: char| matches!(c, '@' | '-' | '+') || c.is_whitespace())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recipes(text: &str, args: &str) -> Vec<(String, Vec<String>)> {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("Makefile"), text).unwrap();
        let args: Vec<Word> = args.split_whitespace().map(Word::literal).collect();
        match read(&args, Some(dir.path())) {
            Outcome::Runs(out) => out.into_iter().map(|r| (r.source, r.lines)).collect(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn prerequisites_run_first_with_variables_expanded() {
        let text = "OUT := build\nRM = rm -rf\n\nall: clean compile\n\nclean:\n\t@$(RM) $(OUT)/ $$HOME/x\n\ncompile: ; cc -o $@ main.c\n.PHONY: all clean\n";
        assert_eq!(
            recipes(text, ""),
            [
                (
                    "Makefile target clean".to_string(),
                    vec!["rm -rf build/ $HOME/x".to_string()]
                ),
                (
                    "Makefile target compile".to_string(),
                    vec!["cc -o compile main.c".to_string()]
                ),
            ]
        );
        assert_eq!(
            recipes(text, "OUT=dist clean"),
            [(
                "Makefile target clean".to_string(),
                vec!["rm -rf dist/ $HOME/x".to_string()]
            )]
        );
    }

    #[test]
    fn a_directory_in_a_cluster_is_followed() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("sub/Makefile"), "x:\n\trm -rf y\n").unwrap();
        let args: Vec<Word> = ["-sC", "sub", "x"].map(Word::literal).to_vec();
        let Outcome::Runs(out) = read(&args, Some(dir.path())) else {
            panic!()
        };
        assert_eq!(out[0].dir.as_deref(), Some("sub"));
    }

    #[test]
    fn option_values_and_counts_are_no_goals() {
        let words: Vec<Word> = "-j 4 -Otarget -sC sub --file=mk clean X=1 -- Y=2"
            .split_whitespace()
            .map(Word::literal)
            .collect();
        let call = invocation(&words);
        let texts = |ws: &[Word]| ws.iter().map(|w| w.text.clone()).collect::<Vec<_>>();
        assert!(!call.nothing);
        assert_eq!(texts(&call.goals), ["clean", "Y=2"]);
        assert_eq!(texts(&call.dirs), ["sub"]);
        assert_eq!(call.file.map(|f| f.text).as_deref(), Some("mk"));
        assert_eq!(call.vars, [("X".to_string(), "1".to_string())]);
    }

    #[test]
    fn a_dry_run_runs_nothing() {
        for args in ["-n", "--dry-run clean", "-nk", "-q all", "--just-print"] {
            let words: Vec<Word> = args.split_whitespace().map(Word::literal).collect();
            assert_eq!(
                read(&words, Some(Path::new("/"))),
                Outcome::Nothing,
                "{args}"
            );
        }
    }

    #[test]
    fn undefined_variables_are_left_to_the_shell() {
        let out = recipes("x:\n\trm -rf $(BUILD) $(shell pwd)\n", "x");
        assert_eq!(out[0].1, ["rm -rf ${BUILD} ${MAKE_COMPUTED}"]);
    }
}
