//! `deno task X`: the task from deno.json or deno.jsonc (its `dependencies` first), or else
//! the package.json script of that name, as deno falls back to it.

use std::collections::HashSet;
use std::path::Path;

use serde_json::Value;

use super::{
    MAX_RECIPES, Outcome, Recipe, appended, moved, nearest_file, read_file, shown_dir, walked,
};
use crate::syntax::Word;
use crate::syntax::argv::{self, Style, Valued};

/// `deno task`'s options that take a value.
const VALUED: &[&str] = &["cwd", "c", "config", "f", "filter", "L", "log-level"];

pub(super) fn runs_recipe(argv: &[Word]) -> bool {
    argv.get(1).is_some_and(|w| w.text == "task")
}

pub(super) fn read(args: &[Word], dir: Option<&Path>) -> Outcome {
    let rest = args.get(1..).unwrap_or_default();
    let read = argv::read_head(rest, Style::Pflag, &Valued(VALUED));
    if read.last(&["r", "recursive", "f", "filter"]).is_some() {
        return Outcome::Unknown {
            why: "it runs tasks of workspace members, which are not read".into(),
            seen: String::new(),
        };
    }
    let workdir = read.last(&["cwd"]).and_then(|o| o.value_in(rest));
    let config = read.last(&["c", "config"]).and_then(|o| o.value_in(rest));
    let name = read.stopped_at.and_then(|at| rest.get(at)).cloned();
    // The words after the name go to the task, less a `--` right after it.
    let after = read.stopped_at.map_or(rest.len(), |at| at + 1);
    let extra = rest.get(after..).unwrap_or_default();
    let extra = match extra.split_first() {
        Some((first, passed)) if first.text == "--" => passed.to_vec(),
        _ => extra.to_vec(),
    };
    // `deno task` alone lists the tasks.
    let (Some(name), Some(dir)) = (name, dir) else {
        return Outcome::Nothing;
    };
    let mut shown = workdir.as_ref().map(|w| w.text.clone());
    let root = match &workdir {
        Some(to) => match moved(dir, to) {
            Some(root) => root,
            None => return super::unknown_name("the task's directory", String::new()),
        },
        // deno looks upward for its configuration, and runs tasks where it is.
        None if config.is_none() => {
            match nearest_file(dir, &["deno.json", "deno.jsonc", "package.json"]) {
                Ok(Some((_, _, Some(above)))) => {
                    shown = Some(shown_dir(&above));
                    above
                }
                _ => dir.to_path_buf(),
            }
        }
        None => dir.to_path_buf(),
    };
    let files: Vec<String> = match &config {
        Some(file) => match file.value() {
            Some(file) => vec![file.to_string()],
            None => return super::unknown_name("the configuration file", String::new()),
        },
        None => vec!["deno.json".into(), "deno.jsonc".into()],
    };
    let mut seen = String::new();
    for file in files.iter().map(String::as_str).chain(["package.json"]) {
        let text = match read_file(&root.join(file)) {
            Ok(Some(text)) => text,
            Ok(None) => continue,
            Err(why) => return Outcome::Unknown { why, seen },
        };
        let Ok(json) = serde_json::from_str::<Value>(&plain_json(&text)) else {
            return Outcome::Unknown {
                why: format!("{file} could not be parsed"),
                seen: text,
            };
        };
        let key = if file == "package.json" {
            "scripts"
        } else {
            "tasks"
        };
        let Some(tasks) = json.get(key).and_then(Value::as_object) else {
            continue;
        };
        let Some(name) = name.value() else {
            let all: Vec<String> = tasks.values().map(Value::to_string).collect();
            return super::unknown_name("the task", all.join("\n"));
        };
        if !tasks.contains_key(name) {
            seen.push_str(&text);
            continue;
        }
        let mut walk = Walk {
            tasks,
            file,
            dir: shown.clone(),
            seen: HashSet::new(),
            out: Vec::new(),
        };
        walk.task(name, &extra);
        return walked(walk.out, None, &format!("{file} runs more tasks"), text);
    }
    Outcome::Nothing
}

struct Walk<'a> {
    tasks: &'a serde_json::Map<String, Value>,
    file: &'a str,
    dir: Option<String>,
    seen: HashSet<String>,
    out: Vec<Recipe>,
}

impl Walk<'_> {
    fn task(&mut self, name: &str, extra: &[Word]) {
        if self.out.len() > MAX_RECIPES || !self.seen.insert(name.to_string()) {
            return;
        }
        let (command, deps) = match self.tasks.get(name) {
            Some(Value::String(command)) => (Some(command.as_str()), Vec::new()),
            Some(Value::Object(task)) => (
                task.get("command").and_then(Value::as_str),
                task.get("dependencies")
                    .and_then(Value::as_array)
                    .map(|d| d.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default(),
            ),
            _ => return,
        };
        for dep in deps {
            self.task(dep, &[]);
        }
        let key = if self.file == "package.json" {
            "scripts"
        } else {
            "tasks"
        };
        if let Some(command) = command {
            self.out.push(Recipe {
                source: format!("{} {key}.{name}", self.file),
                lines: vec![appended(command, extra)],
                dir: self.dir.clone(),
            });
        }
    }
}

/// JSON with comments (`//`, `/* */`) and trailing commas, as deno.jsonc allows, made plain.
fn plain_json(text: &str) -> String {
    let mut bare = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            bare.push(c);
            match c {
                '\\' => bare.extend(chars.next()),
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match (c, chars.peek()) {
            ('/', Some('/')) => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        bare.push('\n');
                        break;
                    }
                }
            }
            ('/', Some('*')) => {
                chars.next();
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
                bare.push(' ');
            }
            _ => {
                in_string = c == '"';
                bare.push(c);
            }
        }
    }
    // Now without comments: a comma with only space before a closing bracket goes.
    let mut out = String::with_capacity(bare.len());
    let mut in_string = false;
    let mut escaped = false;
    for (at, c) in bare.char_indices() {
        if in_string {
            in_string = escaped || c != '"';
            escaped = !escaped && c == '\\';
        } else if c == '"' {
            in_string = true;
        } else if c == ','
            && bare
                .get(at + 1..)
                .is_some_and(|rest| rest.trim_start().starts_with(['}', ']']))
        {
            continue;
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_trailing_commas_are_dropped() {
        let text = "{\n // a task\n \"tasks\": { \"a\": \"rm -rf x // y\", /* b */ },\n}";
        let json: Value = serde_json::from_str(&plain_json(text)).unwrap();
        assert_eq!(json["tasks"]["a"], "rm -rf x // y");
    }
}
