//! package.json scripts, as npm, pnpm, yarn and bun run them: `run X`, `run-script X`, the
//! `test`/`start`/`stop`/`restart` shorthands, a bare `yarn X`/`pnpm X`/`bun X`, with the
//! `preX`/`postX` scripts around it and the words after the name passed on.

use std::path::Path;

use serde_json::Value;

use super::workspaces::{self, Pick, Root};
use super::{Outcome, Recipe, appended, moved, nearest_file, read_file, shown_dir, unknown_name};
use crate::syntax::Word;
use crate::syntax::argv::{self, Argv, Style, Written};

/// yarn's own commands, which are not a script to run (`yarn add rimraf`).
const YARN: &[&str] = &[
    "add",
    "audit",
    "autoclean",
    "bin",
    "cache",
    "check",
    "config",
    "constraints",
    "create",
    "dedupe",
    "dlx",
    "exec",
    "explain",
    "generate-lock-entry",
    "global",
    "help",
    "import",
    "info",
    "init",
    "install",
    "licenses",
    "link",
    "list",
    "login",
    "logout",
    "node",
    "npm",
    "outdated",
    "owner",
    "pack",
    "patch",
    "plugin",
    "policies",
    "publish",
    "rebuild",
    "remove",
    "search",
    "set",
    "stage",
    "tag",
    "team",
    "unlink",
    "unplug",
    "up",
    "upgrade",
    "upgrade-interactive",
    "version",
    "versions",
    "why",
    "workspace",
    "workspaces",
];

/// pnpm's own commands.
const PNPM: &[&str] = &[
    "add",
    "approve-builds",
    "audit",
    "bin",
    "c",
    "cat-file",
    "cat-index",
    "catalog",
    "config",
    "create",
    "dedupe",
    "deploy",
    "dlx",
    "doctor",
    "env",
    "exec",
    "fetch",
    "find-hash",
    "help",
    "i",
    "ignored-builds",
    "import",
    "init",
    "install",
    "install-test",
    "it",
    "licenses",
    "link",
    "list",
    "ln",
    "ls",
    "outdated",
    "pack",
    "patch",
    "patch-commit",
    "patch-remove",
    "prune",
    "publish",
    "rb",
    "rebuild",
    "remove",
    "rm",
    "root",
    "self-update",
    "server",
    "setup",
    "store",
    "un",
    "uninstall",
    "unlink",
    "up",
    "update",
    "why",
];

/// bun's own commands (`bun test` is bun's test runner, not the `test` script).
const BUN: &[&str] = &[
    "a",
    "add",
    "audit",
    "build",
    "c",
    "completions",
    "create",
    "exec",
    "help",
    "i",
    "info",
    "init",
    "install",
    "link",
    "outdated",
    "patch",
    "pm",
    "publish",
    "remove",
    "repl",
    "rm",
    "test",
    "unlink",
    "update",
    "upgrade",
    "why",
    "x",
];

/// A tool's own options: its flags spelled with one dash and several letters, and the ones
/// that take a value.
fn options(tool: &str) -> Written<'static> {
    match tool {
        "npm" => Written {
            names: &[
                "--workspaces",
                "-ws",
                "--include-workspace-root",
                "--ignore-scripts",
            ],
            valued: &["--workspace", "-w", "--prefix", "-C", "--loglevel"],
        },
        "pnpm" => Written {
            names: &["--recursive", "-r", "--workspace-root", "-w"],
            valued: &[
                "--filter",
                "-F",
                "--dir",
                "-C",
                "--loglevel",
                "--workspace-concurrency",
                "--reporter",
            ],
        },
        _ => Written {
            names: &[],
            valued: &["--filter", "-F", "--cwd"],
        },
    }
}

/// How a tool names its directory option.
fn directory_options(tool: &str) -> &'static [&'static str] {
    match tool {
        "npm" => &["prefix", "C"],
        "pnpm" => &["dir", "C"],
        _ => &["cwd"],
    }
}

/// Options that make the script run in workspace packages: which, and what they hold, is
/// not read.
const WORKSPACES: &[&str] = &[
    "workspace",
    "w",
    "workspaces",
    "ws",
    "filter",
    "F",
    "recursive",
    "r",
];

/// How a command asks for a script.
enum Ask {
    /// `run X`, `run-script X`: the name is the next operand.
    Run,
    /// `test`, `start`, ...: the name is given.
    Shorthand(&'static str),
    /// `yarn X`: the subcommand is the name, and a program of that name runs when no
    /// script has it.
    Bare,
}

/// One command read: where the subcommand stands, its directory option, whether workspaces
/// are asked for, and whether lifecycle scripts are off.
struct Call {
    sub: Option<usize>,
    dir: Option<Word>,
    workspaces: bool,
    ignore_scripts: bool,
}

fn call(tool: &str, args: &[Word]) -> Call {
    let read = argv::read(args, Style::Getopt, &options(tool));
    let sub = read
        .operands
        .first()
        .copied()
        .filter(|_| read.after_dashdash != Some(0));
    // Options may follow the subcommand too (`npm run build --prefix app`); only those
    // before the script's name are the tool's.
    let name_at = read.operands.get(1).copied().unwrap_or(args.len());
    let own = argv::read(
        args.get(..name_at).unwrap_or_default(),
        Style::Getopt,
        &options(tool),
    );
    let in_workspaces = |argv: &Argv| {
        argv.opts
            .iter()
            .any(|o| WORKSPACES.iter().any(|name| o.is(name)))
    };
    Call {
        sub,
        dir: own
            .last(directory_options(tool))
            .and_then(|o| o.value_in(args)),
        // npm reads its options anywhere before `--`: a workspace option after the name
        // still sends the run to the workspaces (`npm run build -w api`).
        workspaces: in_workspaces(&own) || (tool == "npm" && in_workspaces(&read)),
        ignore_scripts: own.on(&["ignore-scripts"]),
    }
}

fn ask(tool: &str, sub: &str) -> Option<Ask> {
    match (tool, sub) {
        (_, "run" | "run-script") | ("npm", "rum" | "urn") => Some(Ask::Run),
        ("npm" | "pnpm", "test" | "t" | "tst") => Some(Ask::Shorthand("test")),
        ("npm" | "pnpm", "start") => Some(Ask::Shorthand("start")),
        ("npm" | "pnpm", "stop") => Some(Ask::Shorthand("stop")),
        ("npm" | "pnpm", "restart") => Some(Ask::Shorthand("restart")),
        ("yarn", s) if !YARN.contains(&s) => Some(Ask::Bare),
        ("pnpm", s) if !PNPM.contains(&s) => Some(Ask::Bare),
        ("bun", s) if !BUN.contains(&s) => Some(Ask::Bare),
        _ => None,
    }
}

pub(super) fn runs_recipe(tool: &str, argv: &[Word]) -> bool {
    let args = argv.get(1..).unwrap_or_default();
    let call = call(tool, args);
    let Some(at) = call.sub else {
        return false;
    };
    let Some(sub) = args.get(at) else {
        return false;
    };
    if !sub.literal {
        return true;
    }
    if tool == "yarn" && matches!(sub.text.as_str(), "workspace" | "workspaces") {
        return yarn_run(args, at).is_some();
    }
    let asked = ask(tool, &sub.text);
    // `bun fix.ts`, `bun run ./x.js`: a file bun runs as the interpreter it also is.
    if tool == "bun" {
        let name = match asked {
            Some(Ask::Run) => first_operand(tool, args, at + 1).and_then(|i| args.get(i)),
            _ => Some(sub),
        };
        if name.is_some_and(|n| n.text.contains(['.', '/'])) {
            return false;
        }
    }
    asked.is_some()
}

pub(super) fn read(tool: &str, args: &[Word], dir: Option<&Path>) -> Outcome {
    let call = call(tool, args);
    let Some(at) = call.sub else {
        return Outcome::Nothing;
    };
    let Some(sub) = args.get(at) else {
        return Outcome::Nothing;
    };
    if tool == "yarn" && sub.literal && matches!(sub.text.as_str(), "workspace" | "workspaces") {
        return match yarn_run(args, at) {
            Some(run) => yarn_workspaces(args, &run, dir),
            None => Outcome::Nothing,
        };
    }
    let asked = if sub.literal {
        ask(tool, &sub.text)
    } else {
        Some(Ask::Bare)
    };
    let Some(asked) = asked else {
        return Outcome::Nothing;
    };
    // The script's name, where it stands, and the words passed on to it.
    let (name, name_at) = match asked {
        Ask::Run => match first_operand(tool, args, at + 1) {
            Some(i) => (args.get(i).cloned().unwrap_or_else(|| Word::literal("")), i),
            // `npm run` alone lists the scripts.
            None => return Outcome::Nothing,
        },
        Ask::Shorthand(name) => (Word::literal(name), at),
        Ask::Bare => (sub.clone(), at),
    };
    let program = || {
        // A bare `yarn X`/`pnpm X`, and `yarn run X`, run the program X when no script is
        // named X; `npm run X` and `pnpm run X` fail. bun runs a file or a program of that
        // name, as the interpreter it also is: the bun command is then judged as it stands.
        let falls_back = matches!(asked, Ask::Bare) || tool == "yarn";
        if falls_back && tool != "bun" && !matches!(asked, Ask::Shorthand(_)) {
            Outcome::Program(name_at + 1)
        } else {
            Outcome::Nothing
        }
    };
    let Some(dir) = dir else {
        return program();
    };
    let root = match &call.dir {
        Some(to) => match moved(dir, to) {
            Some(root) => root,
            None => return unknown_name("the package's directory", String::new()),
        },
        None => dir.to_path_buf(),
    };
    // npm, pnpm, yarn and bun look upward for the package, unless told where it is.
    let found = match &call.dir {
        Some(_) => {
            read_file(&root.join("package.json")).map(|t| t.map(|t| (String::new(), t, None)))
        }
        None => nearest_file(&root, &["package.json"]),
    };
    let (text, above) = match found {
        Ok(Some((_, text, above))) => (text, above),
        Ok(None) => return program(),
        Err(why) => {
            return Outcome::Unknown {
                why,
                seen: String::new(),
            };
        }
    };
    let Ok(json) = serde_json::from_str::<Value>(&text) else {
        return Outcome::Unknown {
            why: "package.json could not be parsed".into(),
            seen: text,
        };
    };
    let scripts = json.get("scripts").and_then(Value::as_object);
    let script = |name: &str| scripts.and_then(|s| s.get(name)).and_then(Value::as_str);
    let all = || {
        scripts
            .into_iter()
            .flat_map(|s| s.values().filter_map(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let dir_shown = match &above {
        Some(above) => Some(shown_dir(above)),
        None => call.dir.as_ref().map(|w| w.text.clone()),
    };
    let picked = if call.workspaces {
        pick(tool, args, name_at)
    } else {
        None
    };
    if let Some(picked) = picked {
        let (Some(pick), Some(name)) = (picked, name.value()) else {
            return Outcome::Unknown {
                why: "the workspace packages it runs in are only known at run time".into(),
                seen: all(),
            };
        };
        let extra = passed_on(tool, args.get(name_at + 1..).unwrap_or_default());
        let base = above.clone().unwrap_or_else(|| root.clone());
        // Started in a workspace package, the tool runs from the workspace root above it.
        let (base, json, shown) = match workspaces::find_root(&base) {
            Ok(Some((found, json))) if found != base => {
                let shown = Some(shown_dir(&found));
                (found, json, shown)
            }
            _ => (base, json, dir_shown),
        };
        let root = Root {
            dir: &base,
            shown,
            json: &json,
        };
        return workspaces::run(&root, &pick, &[name.to_string()], &extra);
    }
    let Some(name) = name.value() else {
        return unknown_name("the script's name", all());
    };
    let extra = passed_on(tool, args.get(name_at + 1..).unwrap_or_default());
    let recipe = |name: &str, text: &str, extra: &[Word]| Recipe {
        source: format!("package.json scripts.{name}"),
        lines: vec![appended(text, extra)],
        dir: dir_shown.clone(),
    };
    let lifecycle = |name: &str, out: &mut Vec<Recipe>, extra: &[Word]| -> bool {
        let Some(main) = script(name) else {
            return false;
        };
        let pre = format!("pre{name}");
        let post = format!("post{name}");
        if !call.ignore_scripts
            && let Some(text) = script(&pre)
        {
            out.push(recipe(&pre, text, &[]));
        }
        out.push(recipe(name, main, extra));
        if !call.ignore_scripts
            && let Some(text) = script(&post)
        {
            out.push(recipe(&post, text, &[]));
        }
        true
    };
    let mut out = Vec::new();
    if lifecycle(name, &mut out, &extra) {
        return Outcome::Runs(out);
    }
    // `npm restart` with no `restart` script stops and starts.
    if name == "restart" && matches!(asked, Ask::Shorthand(_)) {
        lifecycle("stop", &mut out, &[]);
        lifecycle("start", &mut out, &[]);
        return Outcome::Runs(out);
    }
    program()
}

/// The workspace packages a run is for, from the tool's options before the script's name
/// (npm reads its own anywhere before `--`). `None` when it names none (pnpm's `-w` is the
/// root); `Some(None)` when one is only known at run time.
fn pick(tool: &str, args: &[Word], name_at: usize) -> Option<Option<Pick>> {
    let end = match tool {
        "npm" => args.len(),
        _ => name_at.min(args.len()),
    };
    let head = args.get(..end).unwrap_or_default();
    let read = argv::read(head, Style::Getopt, &options(tool));
    let (named, all): (&[&str], bool) = match tool {
        "npm" => (&["workspace", "w"], read.on(&["workspaces", "ws"])),
        "pnpm" => (&["filter", "F"], read.on(&["recursive", "r"])),
        _ => (&["filter", "F"], false),
    };
    let mut names = Vec::new();
    for opt in read.opts.iter().filter(|o| named.iter().any(|n| o.is(n))) {
        match opt.value_in(head).as_ref().and_then(Word::value) {
            Some(value) => names.push(value.to_string()),
            None => return Some(None),
        }
    }
    let root = tool == "npm" && read.on(&["include-workspace-root"]);
    if !names.is_empty() {
        Some(Some(Pick::Named { names, root }))
    } else if all {
        Some(Some(Pick::All { root }))
    } else {
        None
    }
}

/// A yarn run across workspaces: `yarn workspace X [run] S`, `yarn workspaces foreach
/// [options] [run] S`, `yarn workspaces run S`.
struct YarnRun {
    pick: Option<Pick>,
    /// Where the script's name stands.
    name_at: usize,
    /// A lone workspace named: a program of the name runs when it has no such script.
    one: Option<String>,
}

/// How `yarn workspace ...` / `yarn workspaces ...` (the subcommand at `at`) asks for a
/// script; `None` when it asks for none (`yarn workspaces list`, `yarn workspace x add y`).
fn yarn_run(args: &[Word], at: usize) -> Option<YarnRun> {
    let sub = args.get(at)?;
    let next = at + 1;
    // The script's name at `from`, after an optional `run`; none when it is yarn's own.
    let name_from = |from: usize| -> Option<usize> {
        let word = args.get(from)?;
        if word.text == "run" {
            return first_operand("yarn", args, from + 1);
        }
        (!word.literal || !YARN.contains(&word.text.as_str())).then_some(from)
    };
    if sub.text == "workspace" {
        let one = args.get(next)?;
        let name_at = name_from(next + 1)?;
        return Some(YarnRun {
            pick: one.value().map(|name| Pick::Named {
                names: vec![name.to_string()],
                root: false,
            }),
            name_at,
            one: one.value().map(str::to_string),
        });
    }
    match args.get(next).map(|w| w.text.as_str()) {
        // yarn 1: every workspace.
        Some("run") => Some(YarnRun {
            pick: Some(Pick::All { root: false }),
            name_at: first_operand("yarn", args, next + 1)?,
            one: None,
        }),
        Some("foreach") => {
            let rest = args.get(next + 1..).unwrap_or_default();
            let read = argv::read_head(
                rest,
                Style::Getopt,
                &Written {
                    names: &[],
                    valued: &[
                        "--include",
                        "--exclude",
                        "--from",
                        "--since",
                        "-j",
                        "--jobs",
                    ],
                },
            );
            let name_at = name_from(next + 1 + read.stopped_at?)?;
            // Which workspaces a recursive, changed-since or excluding run takes is not read.
            let narrowed = read.last(&[
                "from",
                "since",
                "exclude",
                "recursive",
                "R",
                "worktree",
                "W",
            ]);
            let mut names = Vec::new();
            let mut known = narrowed.is_none();
            for opt in read.opts.iter().filter(|o| o.is("include")) {
                match opt.value_in(rest).as_ref().and_then(Word::value) {
                    Some(value) => names.push(value.to_string()),
                    None => known = false,
                }
            }
            let pick = match (known, names.is_empty()) {
                (false, _) => None,
                (true, true) => Some(Pick::All { root: true }),
                (true, false) => Some(Pick::Named { names, root: false }),
            };
            Some(YarnRun {
                pick,
                name_at,
                one: None,
            })
        }
        _ => None,
    }
}

/// What a yarn run across workspaces runs, from the package.json found above `dir`.
fn yarn_workspaces(args: &[Word], run: &YarnRun, dir: Option<&Path>) -> Outcome {
    let Some(dir) = dir else {
        return Outcome::Nothing;
    };
    let (text, above) = match nearest_file(dir, &["package.json"]) {
        Ok(Some((_, text, above))) => (text, above),
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
            why: "package.json could not be parsed".into(),
            seen: text,
        };
    };
    let (Some(pick), Some(name)) = (&run.pick, args.get(run.name_at).and_then(Word::value)) else {
        return Outcome::Unknown {
            why: "the workspace packages it runs in are only known at run time".into(),
            seen: String::new(),
        };
    };
    let extra = passed_on("yarn", args.get(run.name_at + 1..).unwrap_or_default());
    let base = above.clone().unwrap_or_else(|| dir.to_path_buf());
    let root = Root {
        dir: &base,
        shown: above.as_deref().map(shown_dir),
        json: &json,
    };
    let ran = workspaces::run(&root, pick, &[name.to_string()], &extra);
    // `yarn workspace api rimraf dist`: no such script, so the program runs in the
    // workspace's folder.
    match (&ran, &run.one) {
        (Outcome::Runs(found), Some(one)) if found.is_empty() => {
            match workspaces::folder(&root, one) {
                Some(folder) => {
                    let words = args.get(run.name_at..).unwrap_or_default();
                    let line: Vec<String> = words.iter().map(Word::shell_quoted).collect();
                    Outcome::Runs(vec![Recipe {
                        source: format!("the program `{name}` in workspace {one}"),
                        lines: vec![line.join(" ")],
                        dir: folder,
                    }])
                }
                None => Outcome::Nothing,
            }
        }
        _ => ran,
    }
}

/// The first word from `from` that is not an option (or the tool's value of one).
fn first_operand(tool: &str, args: &[Word], from: usize) -> Option<usize> {
    let rest = args.get(from..)?;
    let read = argv::read_head(rest, Style::Getopt, &options(tool));
    read.stopped_at.map(|at| from + at)
}

/// The words after the script's name the tool passes on to it: all of them for yarn,
/// pnpm and bun; for npm those after `--`, and operands before it (its own options it
/// keeps).
fn passed_on(tool: &str, after: &[Word]) -> Vec<Word> {
    if tool == "npm" {
        let read = argv::read(after, Style::Getopt, &options(tool));
        return read
            .operands
            .iter()
            .filter_map(|&i| after.get(i).cloned())
            .collect();
    }
    match after.iter().position(|w| w.text == "--") {
        Some(at) => after
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != at)
            .map(|(_, w)| w.clone())
            .collect(),
        None => after.to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<Word> {
        line.split_whitespace().map(Word::literal).collect()
    }

    #[test]
    fn the_words_tell_a_script_run_from_the_tools_own_commands() {
        for line in [
            "npm run build",
            "npm --prefix app run build",
            "npm test",
            "npm t",
            "pnpm build",
            "pnpm -C app run x",
            "pnpm -w build",
            "yarn clean",
            "yarn --cwd web lint",
            "bun run dev",
            "bun dev",
        ] {
            let argv = words(line);
            let tool = argv[0].text.clone();
            assert!(runs_recipe(&tool, &argv), "{line}");
        }
        for line in [
            "npm install",
            "npm exec rimraf",
            "yarn add rimraf",
            "yarn",
            "pnpm install",
            "bun test",
            "bun install",
            "bun fix.ts",
            "bun run ./x.js",
        ] {
            let argv = words(line);
            let tool = argv[0].text.clone();
            assert!(!runs_recipe(&tool, &argv), "{line}");
        }
    }

    #[test]
    fn npm_keeps_its_own_options_and_passes_the_rest_on() {
        let texts = |ws: Vec<Word>| ws.into_iter().map(|w| w.text).collect::<Vec<_>>();
        assert_eq!(
            texts(passed_on("npm", &words("--silent x -- -f y"))),
            ["x", "-f", "y"]
        );
        assert_eq!(texts(passed_on("yarn", &words("-f -- y"))), ["-f", "y"]);
        // An option's value stays npm's.
        assert_eq!(
            texts(passed_on("npm", &words("-w api x --prefix=. y"))),
            ["x", "y"]
        );
    }

    #[test]
    fn with_no_file_a_bare_run_is_the_program() {
        assert_eq!(
            read("yarn", &words("rimraf dist"), None),
            Outcome::Program(1)
        );
        assert_eq!(
            read("yarn", &words("run rimraf dist"), None),
            Outcome::Program(2)
        );
        assert_eq!(read("npm", &words("run clean"), None), Outcome::Nothing);
        assert_eq!(read("npm", &words("run"), None), Outcome::Nothing);
    }
}
