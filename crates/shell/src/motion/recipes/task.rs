//! Taskfiles, as Task (`task X`) runs them: a task's `deps` first, then its `cmds`, a
//! `task:` entry running that task. The file is YAML; this reads the plain shape a
//! Taskfile is written in (block lists and maps, plain and quoted scalars, `|` and `>`
//! blocks), and the Taskfiles it `includes:` under their namespaces (`task docs:serve`).
//! What it cannot read (anchors, loops, a templated include) is unknown.

use std::collections::HashSet;
use std::path::Path;

use super::{
    MAX_RECIPES, Outcome, Recipe, first_file, moved, nearest_file, read_file, shown_dir, walked,
    yaml_item,
};
use crate::syntax::Word;
use crate::syntax::argv::{self, Style, Valued};

/// Task's options that take a value.
const VALUED: &[&str] = &[
    "t",
    "taskfile",
    "d",
    "dir",
    "o",
    "output",
    "output-group-begin",
    "output-group-end",
    "C",
    "concurrency",
    "I",
    "interval",
    "sort",
];

/// Options after which no task runs: a dry run, a listing, help, `--init`, `--status`.
const NOTHING_RUNS: &[&str] = &[
    "n", "dry", "l", "list", "a", "list-all", "summary", "h", "help", "version", "i", "init",
    "status",
];

/// What stands in the shell text for a template value (`{{.DIR}}`).
const COMPUTED: &str = "${TASK_COMPUTED}";

const FILES: &[&str] = &[
    "Taskfile.yml",
    "taskfile.yml",
    "Taskfile.yaml",
    "taskfile.yaml",
    "Taskfile.dist.yml",
    "taskfile.dist.yml",
    "Taskfile.dist.yaml",
    "taskfile.dist.yaml",
];

pub(super) fn runs_recipe(_argv: &[Word]) -> bool {
    true
}

pub(super) fn read(args: &[Word], dir: Option<&Path>) -> Outcome {
    let read = argv::read(args, Style::Pflag, &Valued(VALUED));
    if NOTHING_RUNS.iter().any(|name| read.on(&[name])) {
        return Outcome::Nothing;
    }
    let file_opt = read.last(&["t", "taskfile"]).and_then(|o| o.value_in(args));
    let workdir = read.last(&["d", "dir"]).and_then(|o| o.value_in(args));
    // The words after `--` are the tasks' CLI_ARGS; `NAME=value` words set variables.
    let goals: Vec<Word> = read
        .operands
        .iter()
        .take(read.after_dashdash.unwrap_or(usize::MAX))
        .filter_map(|&at| args.get(at))
        .filter(|w| !(w.literal && w.text.contains('=')))
        .cloned()
        .collect();
    let Some(dir) = dir else {
        return Outcome::Nothing;
    };
    let root = match &workdir {
        Some(to) => match moved(dir, to) {
            Some(root) => root,
            None => return super::unknown_name("the Taskfile's directory", String::new()),
        },
        None => dir.to_path_buf(),
    };
    let found = match &file_opt {
        Some(file) => match moved(&root, file) {
            Some(path) => read_file(&path).map(|t| t.map(|t| (file.text.clone(), t, None))),
            None => return super::unknown_name("the Taskfile", String::new()),
        },
        None if workdir.is_some() => first_file(&root, FILES).map(|f| f.map(|(n, t)| (n, t, None))),
        None => nearest_file(&root, FILES),
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
    let mut names = Vec::new();
    for goal in &goals {
        match goal.value() {
            Some(goal) => names.push(goal.to_string()),
            None => return super::unknown_name("the task", text),
        }
    }
    if names.is_empty() {
        names.push("default".into());
    }
    let base = match (&file_opt, &above) {
        (_, Some(above)) => above.clone(),
        (Some(file), None) => moved(&root, file)
            .and_then(|p| p.parent().map(Path::to_path_buf))
            .unwrap_or_else(|| root.clone()),
        (None, None) => root.clone(),
    };
    let mut files = Taskfiles::default();
    files.load(text.clone(), name.clone(), &base, "", None, 0);
    if files.fails {
        // Task stops on an included Taskfile that does not exist.
        return Outcome::Nothing;
    }
    let mut walk = Walk {
        files: &files,
        dir: match (workdir, above) {
            (Some(w), _) => Some(w.text),
            (None, above) => above.as_deref().map(shown_dir),
        },
        seen: HashSet::new(),
        out: Vec::new(),
        unknown: None,
    };
    for goal in &names {
        if files.task(goal).is_none() {
            if files.open {
                return Outcome::Unknown {
                    why: format!(
                        "the task `{goal}` may come from an included Taskfile, which the guard does not follow"
                    ),
                    seen: text,
                };
            }
            // Task refuses a task the file does not define.
            return Outcome::Nothing;
        }
        walk.task(goal);
    }
    let what = format!("{name} runs more tasks");
    walked(walk.out, walk.unknown, &what, text)
}

/// Deepest includes are followed through others.
const MAX_INCLUDE_DEPTH: u8 = 8;

/// A Taskfile and the ones it includes, each under its namespace.
#[derive(Default)]
struct Taskfiles {
    files: Vec<Taskfile>,
    /// An include that could not be read: tasks may come from it.
    open: bool,
    /// A required include that does not exist.
    fails: bool,
}

/// One Taskfile: its text, its name as reasons show it, the namespace its tasks are
/// called by (`docs:`; empty for the first), and the folder they run in when not the
/// first Taskfile's.
struct Taskfile {
    text: String,
    name: String,
    ns: String,
    dir: Option<String>,
}

/// One entry of `includes:`: its namespace, the Taskfile or folder, the folder its tasks
/// run in, whether it may be missing.
struct Include {
    ns: String,
    path: String,
    dir: Option<String>,
    optional: bool,
}

impl Taskfiles {
    /// Adds the Taskfile `name` (`text`, in the folder `base`), and what it includes.
    fn load(
        &mut self,
        text: String,
        name: String,
        base: &Path,
        ns: &str,
        dir: Option<String>,
        depth: u8,
    ) {
        let includes = includes(&text);
        self.files.push(Taskfile {
            text,
            name: name.clone(),
            ns: ns.to_string(),
            dir: dir.clone(),
        });
        let Some(includes) = includes else {
            self.open = true;
            return;
        };
        let shown_folder = Path::new(&name)
            .parent()
            .map(|p| p.to_string_lossy().into_owned())
            .unwrap_or_default();
        for include in includes {
            // A templated path, or one in a home folder, is not looked into.
            if depth >= MAX_INCLUDE_DEPTH
                || include.path.contains("{{")
                || include.path.starts_with('~')
            {
                self.open = true;
                continue;
            }
            let full = base.join(&include.path);
            let (file, shown) = if full.is_dir() {
                match first_file(&full, FILES) {
                    Ok(Some((file, _))) => (full.join(&file), format!("{}/{file}", include.path)),
                    Ok(None) => {
                        self.fails |= !include.optional;
                        continue;
                    }
                    Err(_) => {
                        self.open = true;
                        continue;
                    }
                }
            } else {
                (full, include.path.clone())
            };
            let shown = match shown_folder.as_str() {
                "" => shown,
                folder => format!("{folder}/{shown}"),
            };
            let shown = shown.trim_start_matches("./").to_string();
            match read_file(&file) {
                Ok(Some(text)) => {
                    let inner_base = file.parent().unwrap_or(base).to_path_buf();
                    // Included tasks run where the including Taskfile's do, unless `dir:`
                    // says otherwise.
                    let inner_dir = match (include.dir, &dir) {
                        (Some(d), Some(outer)) => Some(format!("{outer}/{d}")),
                        (Some(d), None) => Some(d),
                        (None, outer) => outer.clone(),
                    };
                    let inner_ns = format!("{ns}{}:", include.ns);
                    self.load(text, shown, &inner_base, &inner_ns, inner_dir, depth + 1);
                }
                Ok(None) => self.fails |= !include.optional,
                Err(_) => self.open = true,
            }
        }
    }

    /// The Taskfile a task's full name (`docs:serve`) is in, and its name there.
    fn find<'s>(&self, name: &'s str) -> Option<(&Taskfile, &'s str)> {
        let name = name.strip_prefix(':').unwrap_or(name);
        self.files
            .iter()
            .filter_map(|f| name.strip_prefix(f.ns.as_str()).map(|local| (f, local)))
            .max_by_key(|(f, _)| f.ns.len())
    }

    /// The task of that full name: its Taskfile, its inline value and its block.
    fn task<'s>(&'s self, name: &str) -> Option<(&'s Taskfile, &'s str, Vec<&'s str>)> {
        let (file, local) = self.find(name)?;
        let (inline, block) = block(&file.text, local)?;
        Some((file, inline, block))
    }
}

/// The entries of `includes:`; `None` when they take a shape this reader does not read.
fn includes(text: &str) -> Option<Vec<Include>> {
    let lines: Vec<&str> = text.lines().collect();
    let Some(start) = lines.iter().position(|l| l.trim_end() == "includes:") else {
        return Some(Vec::new());
    };
    let body = lines.get(start + 1..)?;
    let end = body
        .iter()
        .position(|l| indent(l) == Some(0))
        .unwrap_or(body.len());
    let body = body.get(..end)?;
    let Some(level) = body.iter().find_map(|l| indent(l)) else {
        return Some(Vec::new());
    };
    let mut out = Vec::new();
    for (at, line) in body.iter().enumerate() {
        if indent(line) != Some(level) {
            continue;
        }
        let (ns, value) = key_value(line.trim())?;
        let ns = unquote(ns);
        if !value.is_empty() {
            out.push(Include {
                ns,
                path: unquote(value),
                dir: None,
                optional: false,
            });
            continue;
        }
        let rest = body.get(at + 1..).unwrap_or_default();
        let len = rest
            .iter()
            .position(|l| indent(l).is_some_and(|n| n <= level))
            .unwrap_or(rest.len());
        let mut include = Include {
            ns,
            path: String::new(),
            dir: None,
            optional: false,
        };
        for line in rest.get(..len).unwrap_or_default() {
            match key_value(line.trim()) {
                Some(("taskfile", v)) => include.path = unquote(v),
                Some(("dir", v)) => include.dir = Some(unquote(v)),
                Some(("optional", v)) => include.optional = unquote(v) == "true",
                // Tasks without a namespace: which name is whose is not read.
                Some(("flatten", _)) => return None,
                _ => {}
            }
        }
        if include.path.is_empty() {
            return None;
        }
        out.push(include);
    }
    Some(out)
}

/// The indentation of a line (spaces), `None` for a blank or comment line.
fn indent(line: &str) -> Option<usize> {
    let body = line.trim_start_matches(' ');
    (!body.is_empty() && !body.starts_with('#')).then(|| line.len() - body.len())
}

/// The task `name` in a Taskfile's text: its inline value (after `name:`) and the lines of
/// its block.
fn block<'t>(text: &'t str, name: &str) -> Option<(&'t str, Vec<&'t str>)> {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.iter().position(|l| l.trim_end() == "tasks:")?;
    let body = lines.get(start + 1..)?;
    let end = body
        .iter()
        .position(|l| indent(l) == Some(0))
        .unwrap_or(body.len());
    let body = body.get(..end)?;
    let level = body.iter().find_map(|l| indent(l))?;
    let at = body.iter().position(|l| {
        indent(l) == Some(level) && key_value(l.trim()).is_some_and(|(key, _)| unquote(key) == name)
    })?;
    let (_, inline) = key_value(body.get(at)?.trim())?;
    let rest = body.get(at + 1..)?;
    let len = rest
        .iter()
        .position(|l| indent(l).is_some_and(|i| i <= level))
        .unwrap_or(rest.len());
    Some((inline, rest.get(..len)?.to_vec()))
}

/// `key: value` (value possibly empty).
fn key_value(line: &str) -> Option<(&str, &str)> {
    let (key, value) = line.split_once(':')?;
    (value.is_empty() || value.starts_with(' ')).then(|| (key.trim(), value.trim()))
}

/// A YAML scalar's text: quotes removed, a trailing comment dropped.
fn unquote(value: &str) -> String {
    if let Some(inner) = value.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')) {
        return inner.replace("''", "'");
    }
    if let Some(inner) = value.strip_prefix('"').and_then(|v| v.strip_suffix('"')) {
        return inner.replace("\\\"", "\"").replace("\\\\", "\\");
    }
    value.split(" #").next().unwrap_or(value).trim().to_string()
}

/// One entry of `cmds` or `deps`.
enum Entry {
    Shell(String),
    Task(String),
}

/// The entries of a block list under a key, or of a flow list / scalar given inline.
/// `Err` for a shape this reader does not read.
fn entries(inline: &str, block: &[&str]) -> Result<Vec<Entry>, String> {
    let mut out = Vec::new();
    if !inline.is_empty() {
        if let Some(flow) = inline.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
            if flow.contains(['"', '\'', '{', '[']) {
                return Err("a quoted flow list".into());
            }
            out.extend(
                flow.split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(|s| Entry::Shell(s.to_string())),
            );
            return Ok(out);
        }
        if inline.starts_with(['|', '>']) {
            return Ok(vec![Entry::Shell(block_scalar(inline, block))]);
        }
        if inline.starts_with(['&', '*', '{', '!']) {
            return Err(format!("`{inline}`"));
        }
        return Ok(vec![Entry::Shell(unquote(inline))]);
    }
    let Some(level) = block.iter().find_map(|l| indent(l)) else {
        return Ok(out);
    };
    let mut i = 0;
    while let Some(line) = block.get(i) {
        i += 1;
        if indent(line) != Some(level) {
            continue;
        }
        let Some(item) = yaml_item(line) else {
            return Err(format!("`{}`", line.trim()));
        };
        let len = block
            .get(i..)
            .unwrap_or_default()
            .iter()
            .position(|l| indent(l).is_some_and(|n| n <= level))
            .unwrap_or(block.len() - i);
        let nested = block.get(i..i + len).unwrap_or_default();
        i += len;
        if item.starts_with(['|', '>']) {
            out.push(Entry::Shell(block_scalar(item, nested)));
            continue;
        }
        match key_value(item) {
            Some(("cmd" | "defer", value)) => {
                out.push(Entry::Shell(if value.starts_with(['|', '>']) {
                    block_scalar(value, nested)
                } else {
                    unquote(value)
                }));
            }
            Some(("task", value)) => out.push(Entry::Task(unquote(value))),
            Some((key, _)) if !key.starts_with(['"', '\'']) => {
                return Err(format!("`{key}:` in a list"));
            }
            _ if item.starts_with(['&', '*', '{', '[', '!']) => {
                return Err(format!("`{item}`"));
            }
            _ => out.push(Entry::Shell(unquote(item))),
        }
    }
    Ok(out)
}

/// A `|` (lines kept) or `>` (lines folded) block.
fn block_scalar(style: &str, lines: &[&str]) -> String {
    let level = lines.iter().find_map(|l| indent(l)).unwrap_or(0);
    let text: Vec<&str> = lines.iter().map(|l| l.get(level..).unwrap_or("")).collect();
    if style.starts_with('>') {
        text.join(" ")
    } else {
        text.join("\n")
    }
}

struct Walk<'a> {
    files: &'a Taskfiles,
    dir: Option<String>,
    seen: HashSet<String>,
    out: Vec<Recipe>,
    unknown: Option<String>,
}

impl Walk<'_> {
    fn task(&mut self, name: &str) {
        if self.out.len() > MAX_RECIPES || self.unknown.is_some() || !self.seen.insert(name.into())
        {
            return;
        }
        let Some((file, inline, block)) = self.files.task(name) else {
            if self.files.open {
                self.unknown = Some(format!(
                    "the task `{name}` may come from an included Taskfile"
                ));
            }
            return;
        };
        let local = name
            .strip_prefix(':')
            .unwrap_or(name)
            .strip_prefix(file.ns.as_str())
            .unwrap_or(name);
        // A name in an included Taskfile is its own namespace's, unless it starts at the
        // top (`:build`).
        let full = |other: &str| match other.strip_prefix(':') {
            Some(top) => top.to_string(),
            None => format!("{}{other}", file.ns),
        };
        let mut cmds = Vec::new();
        let mut deps = Vec::new();
        let mut dir = match (&self.dir, &file.dir) {
            (Some(outer), Some(d)) => Some(format!("{outer}/{d}")),
            (outer, d) => outer.clone().or_else(|| d.clone()),
        };
        let shown = format!("{} task {local}", file.name);
        if !inline.is_empty() {
            match entries(inline, &[]) {
                Ok(found) => cmds = found,
                Err(shape) => return self.unreadable(name, &shape),
            }
        } else {
            let level = block.iter().find_map(|l| indent(l)).unwrap_or(0);
            for (at, line) in block.iter().enumerate() {
                if indent(line) != Some(level) {
                    continue;
                }
                let Some((key, value)) = key_value(line.trim()) else {
                    return self.unreadable(name, line.trim());
                };
                let rest = block.get(at + 1..).unwrap_or_default();
                let len = rest
                    .iter()
                    .position(|l| indent(l).is_some_and(|n| n <= level))
                    .unwrap_or(rest.len());
                let nested = rest.get(..len).unwrap_or_default();
                let read = match key {
                    "cmds" | "cmd" => entries(value, nested).map(|e| cmds.extend(e)),
                    "deps" => entries(value, nested).map(|e| deps.extend(e)),
                    "dir" => {
                        let sub = unquote(value);
                        dir = Some(match dir.take() {
                            Some(outer) => format!("{outer}/{sub}"),
                            None => sub,
                        });
                        Ok(())
                    }
                    "for" | "<<" => Err(format!("`{key}:`")),
                    _ => Ok(()),
                };
                if let Err(shape) = read {
                    return self.unreadable(name, &shape);
                }
            }
        }
        for dep in deps {
            match dep {
                Entry::Shell(dep) | Entry::Task(dep) => self.task(&full(&dep)),
            }
        }
        let mut lines = Vec::new();
        for cmd in cmds {
            match cmd {
                Entry::Shell(text) => lines.push(templated(&text)),
                Entry::Task(other) => {
                    self.flush(&shown, &mut lines, &dir);
                    self.task(&full(&other));
                }
            }
        }
        self.flush(&shown, &mut lines, &dir);
    }

    fn flush(&mut self, shown: &str, lines: &mut Vec<String>, dir: &Option<String>) {
        if lines.is_empty() {
            return;
        }
        self.out.push(Recipe {
            source: shown.to_string(),
            lines: std::mem::take(lines),
            dir: dir.clone(),
        });
    }

    fn unreadable(&mut self, name: &str, shape: &str) {
        self.unknown = Some(format!(
            "the task `{name}` holds {shape}, which the guard does not read"
        ));
    }
}

/// Go template actions (`{{.CLI_ARGS}}`) are values known only at run time.
fn templated(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("{{") {
        out.push_str(rest.get(..at).unwrap_or(""));
        out.push_str(COMPUTED);
        rest = match rest.get(at..).and_then(|r| r.find("}}")) {
            Some(end) => rest.get(at + end + 2..).unwrap_or(""),
            None => "",
        };
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deps_then_cmds_in_the_shapes_taskfiles_use() {
        let text = "version: '3'\n\ntasks:\n  default:\n    deps: [clean]\n    cmds:\n      - go build ./...\n      - cmd: echo {{.NAME}}\n      - task: lint\n  clean:\n    cmds:\n      - |\n        rm -rf dist\n        mkdir dist\n  lint: golangci-lint run\n";
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("Taskfile.yml"), text).unwrap();
        let Outcome::Runs(out) = read(&[], Some(dir.path())) else {
            panic!()
        };
        let texts: Vec<(String, String)> =
            out.iter().map(|r| (r.source.clone(), r.text())).collect();
        assert_eq!(
            texts,
            [
                (
                    "Taskfile.yml task clean".into(),
                    "rm -rf dist\nmkdir dist".into()
                ),
                (
                    "Taskfile.yml task default".into(),
                    "go build ./...; echo ${TASK_COMPUTED}".into()
                ),
                ("Taskfile.yml task lint".into(), "golangci-lint run".into()),
            ]
        );
    }
}
