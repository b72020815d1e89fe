//! composer.json scripts: `composer run-script X`, `composer run X`, or `composer X` for a
//! script that is no composer command; `@other` runs another script, `@php` and
//! `@composer` run those programs.

use std::collections::HashSet;
use std::path::Path;

use serde_json::Value;

use super::{MAX_RECIPES, Outcome, Recipe, moved, read_file, walked};
use crate::syntax::Word;
use crate::syntax::argv::{self, Style, Valued};

/// composer's global options that take a value.
const GLOBAL_VALUED: &[&str] = &["d", "working-dir"];

/// `run-script`'s options that take a value.
const RUN_VALUED: &[&str] = &["timeout"];

/// composer's own commands.
const COMPOSER: &[&str] = &[
    "about",
    "archive",
    "audit",
    "browse",
    "bump",
    "cc",
    "check-platform-reqs",
    "clear-cache",
    "clearcache",
    "config",
    "create-project",
    "depends",
    "diagnose",
    "dump-autoload",
    "dumpautoload",
    "exec",
    "fund",
    "global",
    "help",
    "home",
    "i",
    "info",
    "init",
    "install",
    "licenses",
    "list",
    "outdated",
    "prohibits",
    "r",
    "reinstall",
    "remove",
    "repo",
    "require",
    "rm",
    "search",
    "self-update",
    "selfupdate",
    "show",
    "status",
    "suggests",
    "u",
    "update",
    "upgrade",
    "validate",
    "why",
    "why-not",
];

pub(super) fn runs_recipe(argv: &[Word]) -> bool {
    let args = argv.get(1..).unwrap_or_default();
    subcommand(args).is_some_and(|(at, _)| {
        args.get(at)
            .is_some_and(|w| !w.literal || !COMPOSER.contains(&w.text.as_str()) || is_run(&w.text))
    })
}

fn is_run(sub: &str) -> bool {
    matches!(sub, "run-script" | "run")
}

/// Where the subcommand stands, and the working directory option.
fn subcommand(args: &[Word]) -> Option<(usize, Option<Word>)> {
    let globals = argv::read_head(args, Style::Getopt, &Valued(GLOBAL_VALUED));
    let dir = globals
        .last(GLOBAL_VALUED)
        .and_then(|opt| opt.value_in(args));
    Some((globals.stopped_at?, dir))
}

pub(super) fn read(args: &[Word], dir: Option<&Path>) -> Outcome {
    let Some((at, workdir)) = subcommand(args) else {
        return Outcome::Nothing;
    };
    let Some(sub) = args.get(at) else {
        return Outcome::Nothing;
    };
    let name = if is_run(&sub.text) {
        let rest = args.get(at + 1..).unwrap_or_default();
        let run = argv::read(rest, Style::Getopt, &Valued(RUN_VALUED));
        if run.on(&["l", "list"]) {
            return Outcome::Nothing;
        }
        match run.operands.first().and_then(|&i| rest.get(i)) {
            Some(name) => name,
            None => return Outcome::Nothing,
        }
    } else {
        sub
    };
    let Some(dir) = dir else {
        return Outcome::Nothing;
    };
    let root = match &workdir {
        Some(to) => match moved(dir, to) {
            Some(root) => root,
            None => return super::unknown_name("the project's directory", String::new()),
        },
        None => dir.to_path_buf(),
    };
    let text = match read_file(&root.join("composer.json")) {
        Ok(Some(text)) => text,
        Ok(None) => return Outcome::Nothing,
        Err(why) => {
            return Outcome::Unknown {
                why,
                seen: String::new(),
            };
        }
    };
    let Ok(json) = serde_json::from_str::<Value>(&text) else {
        return Outcome::Unknown {
            why: "composer.json could not be parsed".into(),
            seen: text,
        };
    };
    let Some(scripts) = json.get("scripts").and_then(Value::as_object) else {
        return Outcome::Nothing;
    };
    let Some(name) = name.value() else {
        let all: Vec<String> = scripts.values().map(Value::to_string).collect();
        return super::unknown_name("the script", all.join("\n"));
    };
    let mut walk = Walk {
        scripts,
        dir: workdir.map(|w| w.text),
        seen: HashSet::new(),
        out: Vec::new(),
        unknown: None,
    };
    walk.script(name);
    walked(
        walk.out,
        walk.unknown,
        "composer.json runs more scripts",
        text,
    )
}

struct Walk<'a> {
    scripts: &'a serde_json::Map<String, Value>,
    dir: Option<String>,
    seen: HashSet<String>,
    out: Vec<Recipe>,
    unknown: Option<String>,
}

impl Walk<'_> {
    fn script(&mut self, name: &str) {
        if self.out.len() > MAX_RECIPES || !self.seen.insert(name.to_string()) {
            return;
        }
        let entries: Vec<&str> = match self.scripts.get(name) {
            Some(Value::String(one)) => vec![one.as_str()],
            Some(Value::Array(many)) => many.iter().filter_map(Value::as_str).collect(),
            _ => return,
        };
        let mut lines = Vec::new();
        for entry in entries {
            let entry = entry.trim();
            if let Some(other) = entry.strip_prefix('@') {
                let (word, rest) = other.split_once(' ').unwrap_or((other, ""));
                match word {
                    "php" | "composer" => lines.push(format!("{word} {rest}")),
                    "putenv" | "no_additional_args" | "additional_args" => {}
                    _ => {
                        self.flush(name, &mut lines);
                        self.script(word);
                    }
                }
            } else if !entry.contains(' ') && (entry.contains("::") || entry.contains('\\')) {
                // A PHP callback: code the guard does not read.
                self.unknown = Some(format!(
                    "the script `{name}` calls PHP code (`{entry}`), which is not read"
                ));
                return;
            } else {
                lines.push(entry.to_string());
            }
        }
        self.flush(name, &mut lines);
    }

    fn flush(&mut self, name: &str, lines: &mut Vec<String>) {
        if lines.is_empty() {
            return;
        }
        self.out.push(Recipe {
            source: format!("composer.json scripts.{name}"),
            lines: std::mem::take(lines),
            dir: self.dir.clone(),
        });
    }
}
