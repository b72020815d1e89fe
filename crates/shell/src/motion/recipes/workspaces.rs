//! The workspace packages of a JavaScript monorepo, and the scripts a run across them runs:
//! `npm -w X run S`, `pnpm -r run S`, `yarn workspace X S`, `bun --filter X run S`, and the
//! monorepo tools `turbo run S`, `lerna run S` and `nx run proj:target`.
//!
//! The packages are the folders the root names (package.json `workspaces`, as an array or
//! under `packages`; pnpm-workspace.yaml `packages:`; lerna.json `packages`) that hold a
//! package.json. Only the scripts that would run are given, each in its package's folder: a
//! package without the script runs nothing of it.

use std::path::Path;

use serde_json::Value;

use super::{Outcome, Recipe, appended, glob, matches_name, read_file, shown_dir, yaml_item};
use crate::syntax::Word;
use crate::syntax::argv::{self, Style, Written};

/// One workspace package: its folder (relative to the root's, `/`-separated) and its
/// package.json.
pub(super) struct Package {
    pub dir: String,
    pub json: Value,
}

impl Package {
    fn name(&self) -> Option<&str> {
        self.json.get("name").and_then(Value::as_str)
    }

    fn script(&self, name: &str) -> Option<&str> {
        self.json
            .get("scripts")
            .and_then(|s| s.get(name))
            .and_then(Value::as_str)
    }
}

/// Which packages a run is for.
pub(super) enum Pick {
    /// Every workspace package (and the root too, when `root`).
    All { root: bool },
    /// Those named: by name (`api`, `@app/*`) or folder (`packages/api`, `./apps/*`);
    /// and the root too, when `root`.
    Named { names: Vec<String>, root: bool },
}

/// The root of a run: its folder, where it is shown from where the runner starts (`None`
/// when it is there), and its package.json.
pub(super) struct Root<'a> {
    pub dir: &'a Path,
    pub shown: Option<String>,
    pub json: &'a Value,
}

impl<'a> Root<'a> {
    /// The root found at `dir`, with its `package.json`, for a command run in `from`: named
    /// in reasons when it lies above it.
    fn found(dir: &'a Path, json: &'a Value, from: &Path) -> Root<'a> {
        Root {
            dir,
            shown: (dir != from).then(|| shown_dir(dir)),
            json,
        }
    }

    /// A package's folder as a recipe's directory.
    fn dir_of(&self, package: &str) -> Option<String> {
        match (&self.shown, package) {
            (shown, "") => shown.clone(),
            (Some(shown), dir) => Some(format!("{shown}/{dir}")),
            (None, dir) => Some(dir.to_string()),
        }
    }
}

/// The workspace packages under the root, in the order their patterns and folders give.
/// `Err` when a file or folder cannot be read or a pattern is not one this reads.
pub(super) fn packages(root: &Root) -> Result<Vec<Package>, String> {
    let mut patterns = patterns(root)?;
    if patterns.is_empty() {
        return Ok(Vec::new());
    }
    let mut dirs: Vec<String> = Vec::new();
    let mut excluded: Vec<String> = Vec::new();
    patterns.dedup();
    for pattern in &patterns {
        let (negated, pattern) = match pattern.strip_prefix('!') {
            Some(p) => (true, p),
            None => (false, pattern.as_str()),
        };
        let pattern = pattern.trim_start_matches("./").trim_end_matches('/');
        if pattern.contains("{") || pattern.starts_with('/') || pattern.contains("..") {
            return Err(format!("the workspace pattern `{pattern}` is not read"));
        }
        let found = glob(root.dir, pattern)?;
        if negated {
            excluded.extend(found);
        } else {
            for dir in found {
                if !dirs.contains(&dir) {
                    dirs.push(dir);
                }
            }
        }
    }
    let mut out = Vec::new();
    for dir in dirs.into_iter().filter(|d| !excluded.contains(d)) {
        let path = root.dir.join(&dir).join("package.json");
        let Some(text) = read_file(&path)? else {
            continue;
        };
        let json = serde_json::from_str(&text)
            .map_err(|_| format!("{dir}/package.json could not be parsed"))?;
        out.push(Package { dir, json });
    }
    Ok(out)
}

/// The workspace patterns the root names: package.json's, pnpm-workspace.yaml's, or
/// lerna.json's.
fn patterns(root: &Root) -> Result<Vec<String>, String> {
    let strings = |value: Option<&Value>| -> Vec<String> {
        value
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect()
    };
    let workspaces = root.json.get("workspaces");
    let mut out = strings(workspaces);
    out.extend(strings(workspaces.and_then(|w| w.get("packages"))));
    if let Some(text) = read_file(&root.dir.join("pnpm-workspace.yaml"))? {
        out.extend(pnpm_packages(&text));
    }
    if out.is_empty()
        && let Some(text) = read_file(&root.dir.join("lerna.json"))?
    {
        let json: Value =
            serde_json::from_str(&text).map_err(|_| "lerna.json could not be parsed")?;
        out = strings(json.get("packages"));
        if out.is_empty() {
            out.push("packages/*".into());
        }
    }
    Ok(out)
}

/// The `packages:` list of pnpm-workspace.yaml.
fn pnpm_packages(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut within = false;
    for line in text.lines() {
        let body = line.split(" #").next().unwrap_or("").trim_end();
        if body.trim().is_empty() || body.trim_start().starts_with('#') {
            continue;
        }
        if !line.starts_with([' ', '\t', '-']) {
            within = body.trim() == "packages:";
            continue;
        }
        if let Some(item) = yaml_item(body).filter(|_| within) {
            let item = item
                .strip_prefix(['\'', '"'])
                .and_then(|i| i.strip_suffix(['\'', '"']))
                .unwrap_or(item);
            out.push(item.to_string());
        }
    }
    out
}

/// Whether `package` is one `selector` names: its name or a pattern of names, its folder,
/// a folder above it, or a pattern of folders. `None` for a selector this does not read
/// (pnpm's `...` and `^` for dependencies, `[ref]` for changed ones).
fn named(package: &Package, selector: &str) -> Option<bool> {
    if selector.contains("...") || selector.contains(['^', '[']) {
        return None;
    }
    let selector = selector
        .strip_prefix('{')
        .and_then(|s| s.strip_suffix('}'))
        .unwrap_or(selector);
    if let Some(name) = package.name()
        && matches_name(selector.as_bytes(), name.as_bytes())
    {
        return Some(true);
    }
    let path = selector.trim_start_matches("./").trim_end_matches('/');
    if path.is_empty() || path == "." {
        return Some(package.dir.is_empty());
    }
    let within = package
        .dir
        .strip_prefix(path)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'));
    Some(within || matches_name(path.as_bytes(), package.dir.as_bytes()))
}

/// The folder of the workspace package named `name` as a recipe's directory: `None` when
/// there is no such package (the run fails) or its folder is the start's.
pub(super) fn folder(root: &Root, name: &str) -> Option<Option<String>> {
    let all = packages(root).ok()?;
    let package = all.iter().find(|p| p.name() == Some(name))?;
    Some(root.dir_of(&package.dir))
}

/// The packages a pick selects, the root first when it is asked for. `Err` with a
/// selector this does not read.
fn picked(root: &Root, pick: &Pick) -> Result<Vec<Package>, String> {
    let all = packages(root)?;
    let with_root = match pick {
        Pick::All { root } | Pick::Named { root, .. } => *root,
    };
    let mut out = Vec::new();
    if with_root {
        out.push(Package {
            dir: String::new(),
            json: root.json.clone(),
        });
    }
    for package in all {
        let take = match pick {
            Pick::All { .. } => true,
            Pick::Named { names, .. } => {
                let mut take = false;
                for selector in names {
                    match named(&package, selector) {
                        Some(hit) => take |= hit,
                        None => {
                            return Err(format!("the workspace filter `{selector}` is not read"));
                        }
                    }
                }
                take
            }
        };
        if take {
            out.push(package);
        }
    }
    Ok(out)
}

/// What a run of the scripts `names` across the picked packages runs: each package's
/// `preS`, `S`, `postS` in its folder, `extra` passed on to `S`. A package without the
/// script runs none of it.
pub(super) fn run(root: &Root, pick: &Pick, names: &[String], extra: &[Word]) -> Outcome {
    let packages = match picked(root, pick) {
        Ok(packages) => packages,
        Err(why) => {
            return Outcome::Unknown {
                why,
                seen: String::new(),
            };
        }
    };
    let mut out = Vec::new();
    for package in &packages {
        for name in names {
            out.extend(scripts(root, package, name, extra));
        }
    }
    super::walked(out, None, "the workspaces run more scripts", String::new())
}

/// The scripts of one package a run of `name` runs.
fn scripts(root: &Root, package: &Package, name: &str, extra: &[Word]) -> Vec<Recipe> {
    let mut out = Vec::new();
    let Some(main) = package.script(name) else {
        return out;
    };
    let file = match package.dir.as_str() {
        "" => "package.json".to_string(),
        dir => format!("{dir}/package.json"),
    };
    let recipe = |script: &str, text: &str, extra: &[Word]| Recipe {
        source: format!("{file} scripts.{script}"),
        lines: vec![appended(text, extra)],
        dir: root.dir_of(&package.dir),
    };
    let pre = format!("pre{name}");
    let post = format!("post{name}");
    if let Some(text) = package.script(&pre) {
        out.push(recipe(&pre, text, &[]));
    }
    out.push(recipe(name, main, extra));
    if let Some(text) = package.script(&post) {
        out.push(recipe(&post, text, &[]));
    }
    out
}

/// The workspace root at or above `dir`, or what a run there comes to when there is none
/// (nothing runs) or it cannot be read.
fn root_above(dir: &Path) -> Result<(std::path::PathBuf, Value), Outcome> {
    match find_root(dir) {
        Ok(Some(found)) => Ok(found),
        Ok(None) => Err(Outcome::Nothing),
        Err(why) => Err(Outcome::Unknown {
            why,
            seen: String::new(),
        }),
    }
}

/// The root package.json for a monorepo tool started in `dir`: the nearest one that names
/// workspaces (or has a lerna.json or pnpm-workspace.yaml beside it).
pub(super) fn find_root(dir: &Path) -> Result<Option<(std::path::PathBuf, Value)>, String> {
    let real = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    for (at, folder) in real.ancestors().enumerate() {
        let folder = if at == 0 { dir } else { folder };
        let Some(text) = read_file(&folder.join("package.json"))? else {
            continue;
        };
        let Ok(json) = serde_json::from_str::<Value>(&text) else {
            return Err("package.json could not be parsed".into());
        };
        let marked = ["pnpm-workspace.yaml", "lerna.json", "nx.json", "turbo.json"]
            .iter()
            .any(|f| folder.join(f).is_file());
        if json.get("workspaces").is_some() || marked {
            return Ok(Some((folder.to_path_buf(), json)));
        }
    }
    Ok(None)
}

/// `turbo run S [S2 ...] [--filter X]`, `turbo S`, `lerna run S [--scope X]`.
pub(super) fn read_tool(tool: &str, args: &[Word], dir: Option<&Path>) -> Outcome {
    let options = match tool {
        "turbo" => Written {
            names: &[],
            valued: &[
                "--filter",
                "-F",
                "--concurrency",
                "--cache-dir",
                "--output-logs",
                "--log-order",
                "--graph",
                "--profile",
                "--env-mode",
                "--cwd",
                "--summarize",
                "--ui",
                "--log-prefix",
                "--cache",
                "--token",
                "--team",
                "--api",
            ],
        },
        _ => Written {
            names: &[],
            valued: &[
                "--scope",
                "--ignore",
                "--concurrency",
                "--loglevel",
                "--since",
                "--npm-client",
                "--profile-location",
            ],
        },
    };
    let read = argv::read(args, Style::Getopt, &options);
    let operands: Vec<&Word> = read
        .operands
        .iter()
        .take(read.after_dashdash.unwrap_or(usize::MAX))
        .filter_map(|&i| args.get(i))
        .collect();
    let extra: Vec<Word> = read
        .after_dashdash
        .and_then(|from| read.operands.get(from..))
        .unwrap_or_default()
        .iter()
        .filter_map(|&i| args.get(i).cloned())
        .collect();
    let (sub, tasks) = match operands.split_first() {
        Some((sub, tasks)) => (sub.text.as_str(), tasks),
        None => return Outcome::Nothing,
    };
    let tasks: Vec<&Word> = match (tool, sub) {
        ("turbo", "run" | "watch") | ("lerna", "run") => tasks.to_vec(),
        ("turbo", s) if !TURBO.contains(&s) => operands.clone(),
        _ => return Outcome::Nothing,
    };
    if read.on(&["dry-run", "dry", "help", "h", "version"]) {
        return Outcome::Nothing;
    }
    let Some(dir) = dir else {
        return Outcome::Nothing;
    };
    let mut names = Vec::new();
    for task in &tasks {
        match task.value() {
            // `turbo run web#build`: one package's task.
            Some(task) => names.push(task.to_string()),
            None => return super::unknown_name("the script", String::new()),
        }
    }
    if tool == "lerna" {
        names.truncate(1);
    }
    let selectors: Vec<Word> = read
        .opts
        .iter()
        .filter(|o| o.is("filter") || o.is("F") || o.is("scope"))
        .filter_map(|o| o.value_in(args))
        .collect();
    let mut selected = Vec::new();
    for word in &selectors {
        match word.value() {
            Some(s) => selected.push(s.to_string()),
            None => return super::unknown_name("the workspace filter", String::new()),
        }
    }
    if read.last(&["ignore", "since"]).is_some() {
        return Outcome::Unknown {
            why: "which packages it leaves out is not read".into(),
            seen: String::new(),
        };
    }
    let (root_dir, json) = match root_above(dir) {
        Ok(found) => found,
        Err(outcome) => return outcome,
    };
    let root = Root::found(&root_dir, &json, dir);
    let pick = if selected.is_empty() {
        Pick::All { root: false }
    } else {
        Pick::Named {
            names: selected,
            root: false,
        }
    };
    // `web#build`: the task of one package.
    let mut out = Vec::new();
    for name in &names {
        let (pick, name) = match name.split_once('#') {
            Some((package, task)) => (
                Pick::Named {
                    names: vec![package.to_string()],
                    root: package == "/" || package == "//",
                },
                task.to_string(),
            ),
            None => (
                match &pick {
                    Pick::All { root } => Pick::All { root: *root },
                    Pick::Named { names, root } => Pick::Named {
                        names: names.clone(),
                        root: *root,
                    },
                },
                name.clone(),
            ),
        };
        match run(&root, &pick, &[name], &extra) {
            Outcome::Runs(found) => out.extend(found),
            other => return other,
        }
    }
    super::walked(out, None, "the workspaces run more scripts", String::new())
}

/// turbo's own commands, which are not a task to run.
const TURBO: &[&str] = &[
    "bin",
    "boundaries",
    "completion",
    "daemon",
    "devtools",
    "docs",
    "gen",
    "generate",
    "info",
    "link",
    "login",
    "logout",
    "ls",
    "prune",
    "query",
    "scan",
    "telemetry",
    "unlink",
];

/// nx's own commands, which run no target.
const NX: &[&str] = &[
    "add",
    "connect",
    "daemon",
    "exec",
    "format",
    "format:check",
    "format:write",
    "g",
    "generate",
    "graph",
    "import",
    "init",
    "list",
    "login",
    "logout",
    "migrate",
    "release",
    "repair",
    "report",
    "reset",
    "show",
    "sync",
    "sync:check",
    "watch",
];

/// One nx project: its name, its folder, its project.json, its package.json.
struct Project {
    name: String,
    dir: String,
    config: Value,
    package: Option<Value>,
}

/// The nx projects under the root: every folder with a project.json, and the workspace
/// packages.
fn projects(root: &Root) -> Result<Vec<Project>, String> {
    let mut out: Vec<Project> = Vec::new();
    for path in glob(root.dir, "**/project.json")? {
        let Some(text) = read_file(&root.dir.join(&path))? else {
            continue;
        };
        let config: Value =
            serde_json::from_str(&text).map_err(|_| format!("{path} could not be parsed"))?;
        let dir = path
            .strip_suffix("project.json")
            .unwrap_or("")
            .trim_end_matches('/')
            .to_string();
        let package = read_file(&root.dir.join(&dir).join("package.json"))?
            .and_then(|t| serde_json::from_str::<Value>(&t).ok());
        let name = config
            .get("name")
            .or_else(|| package.as_ref().and_then(|p| p.get("name")))
            .and_then(Value::as_str)
            .map(str::to_string)
            .unwrap_or_else(|| dir.rsplit('/').next().unwrap_or("").to_string());
        out.push(Project {
            name,
            dir,
            config,
            package,
        });
    }
    for package in packages(root)? {
        if out.iter().any(|p| p.dir == package.dir) {
            continue;
        }
        out.push(Project {
            name: package.name().unwrap_or_default().to_string(),
            dir: package.dir,
            config: Value::Null,
            package: Some(package.json),
        });
    }
    Ok(out)
}

/// What running `target` of `project` runs: a `nx:run-commands` target's commands (in the
/// root's folder, or its `cwd`), a `nx:run-script` target's script, or the package.json
/// script of that name. A target of another executor runs no shell the guard reads.
fn target(root: &Root, project: &Project, target: &str, extra: &[Word]) -> Vec<Recipe> {
    let source = |what: &str| match project.dir.as_str() {
        "" => format!("project.json targets.{target}{what}"),
        dir => format!("{dir}/project.json targets.{target}{what}"),
    };
    let script = |name: &str| -> Vec<Recipe> {
        let Some(json) = &project.package else {
            return Vec::new();
        };
        let package = Package {
            dir: project.dir.clone(),
            json: json.clone(),
        };
        scripts(root, &package, name, extra)
    };
    let Some(config) = project.config.get("targets").and_then(|t| t.get(target)) else {
        return script(target);
    };
    let options = config.get("options");
    let executor = config.get("executor").and_then(Value::as_str);
    if executor == Some("nx:run-script") {
        let name = options
            .and_then(|o| o.get("script"))
            .and_then(Value::as_str)
            .unwrap_or(target);
        return script(name);
    }
    let shorthand = config.get("command").and_then(Value::as_str);
    if shorthand.is_none() && executor != Some("nx:run-commands") {
        return Vec::new();
    }
    let mut lines: Vec<String> = shorthand.map(str::to_string).into_iter().collect();
    if let Some(options) = options {
        lines.extend(
            options
                .get("command")
                .and_then(Value::as_str)
                .map(str::to_string),
        );
        for command in options
            .get("commands")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let text = command
                .as_str()
                .or_else(|| command.get("command").and_then(Value::as_str));
            lines.extend(text.map(str::to_string));
        }
    }
    // Commands run in the root's folder unless `cwd` (from the root) says otherwise.
    let cwd = options
        .and_then(|o| o.get("cwd"))
        .and_then(Value::as_str)
        .map(|c| c.trim_start_matches("./").trim_end_matches('/').to_string())
        .unwrap_or_default();
    lines
        .into_iter()
        .map(|line| Recipe {
            source: source(""),
            lines: vec![appended(&line, extra)],
            dir: root.dir_of(&cwd),
        })
        .collect()
}

/// `nx run proj:target`, `nx run-many -t target [-p proj]`, `nx target proj`.
pub(super) fn read_nx(args: &[Word], dir: Option<&Path>) -> Outcome {
    let read = argv::read(
        args,
        Style::Getopt,
        &Written {
            names: &["--all"],
            valued: &[
                "--target",
                "--targets",
                "-t",
                "--projects",
                "-p",
                "--project",
                "--configuration",
                "-c",
                "--exclude",
                "--nxBail",
                "--output-style",
            ],
        },
    );
    let mut words = Vec::new();
    for &i in read
        .operands
        .iter()
        .take(read.after_dashdash.unwrap_or(usize::MAX))
    {
        match args.get(i).and_then(Word::value) {
            Some(word) => words.push(word.to_string()),
            None => return super::unknown_name("the target", String::new()),
        }
    }
    let extra: Vec<Word> = read
        .after_dashdash
        .and_then(|from| read.operands.get(from..))
        .unwrap_or_default()
        .iter()
        .filter_map(|&i| args.get(i).cloned())
        .collect();
    let listed = |names: &[&str]| -> Option<Vec<String>> {
        let mut out = Vec::new();
        for opt in read.opts.iter().filter(|o| names.iter().any(|n| o.is(n))) {
            let word = opt.value_in(args)?;
            out.extend(word.value()?.split(',').map(str::to_string));
        }
        Some(out)
    };
    let Some(sub) = words.first().cloned() else {
        return Outcome::Nothing;
    };
    // Each goal: a project (or every project) and a target.
    let mut goals: Vec<(Option<String>, String)> = Vec::new();
    match sub.as_str() {
        "run" => {
            let Some(spec) = words.get(1) else {
                return Outcome::Nothing;
            };
            let mut parts = spec.split(':');
            let (project, target) = (parts.next().unwrap_or(""), parts.next());
            match target {
                Some(target) => goals.push((Some(project.to_string()), target.to_string())),
                None => {
                    return Outcome::Unknown {
                        why: "the target of the default project is not read".into(),
                        seen: String::new(),
                    };
                }
            }
        }
        "run-many" => {
            let (Some(mut targets), Some(projects)) = (
                listed(&["target", "targets", "t"]),
                listed(&["projects", "p"]),
            ) else {
                return super::unknown_name("the target", String::new());
            };
            // `-t build test`: the words after the option are more targets.
            targets.extend(words.iter().skip(1).cloned());
            if read.last(&["exclude"]).is_some() {
                return Outcome::Unknown {
                    why: "which projects it leaves out is not read".into(),
                    seen: String::new(),
                };
            }
            for target in targets {
                if projects.is_empty() {
                    goals.push((None, target.clone()));
                }
                for project in &projects {
                    goals.push((Some(project.clone()), target.clone()));
                }
            }
        }
        "affected" => {
            return Outcome::Unknown {
                why: "the projects a change affects are not read".into(),
                seen: String::new(),
            };
        }
        // A lone `-` is the only operand that starts with a dash.
        s if NX.contains(&s) || s == "-" => return Outcome::Nothing,
        _ => match words.get(1) {
            Some(project) => goals.push((Some(project.clone()), sub.clone())),
            None => {
                return Outcome::Unknown {
                    why: "the target of the default project is not read".into(),
                    seen: String::new(),
                };
            }
        },
    }
    if read.on(&["help", "version", "graph"]) {
        return Outcome::Nothing;
    }
    let Some(dir) = dir else {
        return Outcome::Nothing;
    };
    let (root_dir, json) = match root_above(dir) {
        Ok(found) => found,
        Err(outcome) => return outcome,
    };
    let root = Root::found(&root_dir, &json, dir);
    let all = match projects(&root) {
        Ok(all) => all,
        Err(why) => {
            return Outcome::Unknown {
                why,
                seen: String::new(),
            };
        }
    };
    let mut out = Vec::new();
    for (project, name) in &goals {
        for found in &all {
            let named = project
                .as_deref()
                .is_none_or(|p| matches_name(p.as_bytes(), found.name.as_bytes()));
            if named {
                out.extend(target(&root, found, name, &extra));
            }
        }
    }
    super::walked(out, None, "the projects run more targets", String::new())
}
