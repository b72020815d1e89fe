//! What git configuration makes of a command: aliases, defined in the repository or on the
//! line, and settings a `git config` earlier on the line writes. Each is judged as the git
//! command (or the shell text of a `!` alias) it comes to.

use std::path::PathBuf;

use super::Word;
use crate::rules::opts::{self, Opt, flag, valued};
use crate::rules::{Finding, add_unique, check};
use crate::settings::Settings;
use crate::shell::{self, Analysis, SimpleCommand};

/// What the repository says about aliases, asked only for a `git <name>` that may be one.
pub trait Aliases {
    /// The value of alias `name` where `cmd` runs, under git's global options `globals`.
    fn alias(&self, cmd: &SimpleCommand, globals: &[String], name: &str) -> Option<String>;
    /// The top of the work tree `cmd` works in: where git runs a `!` alias.
    fn toplevel(&self, cmd: &SimpleCommand, globals: &[String]) -> Option<PathBuf>;
}

/// The commands of a line that may call a git alias: only these cost a look at the
/// repository when no rule found anything.
pub fn alias_calls(analysis: &Analysis) -> Vec<&SimpleCommand> {
    analysis
        .commands
        .iter()
        .filter(|cmd| alias_call_of(cmd).is_some())
        .collect()
}

/// `git <name> ...` where `name` is no git command, so it may be an alias to look up.
fn alias_call_of(cmd: &SimpleCommand) -> Option<AliasCall> {
    // This machine's git configuration says nothing of git elsewhere.
    (cmd.program()? == "git" && cmd.elsewhere.is_none())
        .then(|| alias_call(cmd.args()))
        .flatten()
}

/// The setting `key=value` a literal `git config <key> <value>` writes, if `cmd` is one.
fn config_write_of(cmd: &SimpleCommand) -> Option<String> {
    (cmd.program()? == "git")
        .then(|| config_write(cmd.args()))
        .flatten()
}

/// Findings of git commands judged under the settings a `git config` that may run before them
/// in the same line writes: `git config clean.requireForce false && git clean -d` cleans
/// unforced, and `git config alias.w 'reset --hard'; git w` resets. Each is judged as the same
/// command given those settings with `-c`, which the rules and the alias expansion read.
pub fn configured_findings(analysis: &Analysis, settings: &Settings) -> Vec<Finding> {
    let mut found = Vec::new();
    // The writes are found once: a line, or a script it runs, of many git commands and no
    // `git config` costs one look at each command, not one at each pair.
    let writes: Vec<(usize, String)> = analysis
        .commands
        .iter()
        .enumerate()
        .filter_map(|(at, cmd)| config_write_of(cmd).map(|setting| (at, setting)))
        .collect();
    if writes.is_empty() {
        return found;
    }
    for (at, cmd) in analysis.commands.iter().enumerate() {
        if cmd.program() != Some("git") || writes.iter().any(|(w, _)| *w == at) {
            continue;
        }
        let Some(earlier) = analysis.runs_before(at) else {
            continue;
        };
        let written: Vec<String> = writes
            .iter()
            .filter(|(w, _)| earlier(*w))
            .map(|(_, setting)| format!("-c {}", shell::word::quote(setting)))
            .collect();
        if written.is_empty() {
            continue;
        }
        let rest: Vec<String> = cmd.args().iter().map(shell::Word::shell_quoted).collect();
        let script = format!("git {} {}", written.join(" "), rest.join(" "));
        for mut configured in shell::analyze(&script).commands {
            configured.span = cmd.span.clone();
            configured.dirs = cmd.dirs.clone();
            configured.assigns = cmd.assigns.clone();
            configured.via = cmd.via;
            configured.elsewhere = cmd.elsewhere.clone();
            let mut hits = check(&configured, settings);
            for hit in &mut hits {
                hit.command = cmd.display();
            }
            add_unique(&mut found, hits);
        }
    }
    found
}

/// How deep an alias may expand into another alias before the lookup stops.
const ALIAS_DEPTH: usize = 3;

/// Findings of `git <alias>` commands, judged as what the alias runs.
pub fn alias_findings(
    calls: Vec<&SimpleCommand>,
    repo: &impl Aliases,
    settings: &Settings,
) -> Vec<Finding> {
    let mut found = Vec::new();
    let mut pending: Vec<SimpleCommand> = calls.into_iter().cloned().collect();
    for _ in 0..ALIAS_DEPTH {
        let mut next = Vec::new();
        for cmd in &pending {
            let Some(alias) = alias_call_of(cmd) else {
                continue;
            };
            let Some(value) = repo.alias(cmd, &alias.globals, &alias.name) else {
                continue;
            };
            let rest: Vec<String> = alias.rest.iter().map(shell::Word::shell_quoted).collect();
            // Git runs a `!` alias from the top of the worktree, wherever it was called.
            let mut dirs = cmd.dirs.clone();
            if value.starts_with('!') {
                dirs.push(match repo.toplevel(cmd, &alias.globals) {
                    Some(top) => shell::Word::literal(top.to_string_lossy()),
                    None => shell::Word {
                        text: "?".into(),
                        literal: false,
                        temp: None,
                    },
                });
            }
            let script = match value.strip_prefix('!') {
                Some(shell_text) => format!("{shell_text} {}", rest.join(" ")),
                None => {
                    let globals: Vec<String> = alias
                        .globals
                        .iter()
                        .map(|g| shell::word::quote(g))
                        .collect();
                    format!("git {} {value} {}", globals.join(" "), rest.join(" "))
                }
            };
            for mut expanded in shell::analyze(&script).commands {
                expanded.span = cmd.span.clone();
                expanded.dirs = [dirs.clone(), expanded.dirs].concat();
                expanded.assigns.extend(cmd.assigns.iter().cloned());
                let mut hits = check(&expanded, settings);
                for hit in &mut hits {
                    hit.command = cmd.display();
                    hit.loses = format!("runs `{value}` (a git alias), which {}", hit.loses);
                }
                add_unique(&mut found, hits);
                next.push(expanded);
            }
        }
        pending = next;
    }
    found
}

/// A `git` call whose subcommand may be an alias.
struct AliasCall {
    globals: Vec<String>,
    name: String,
    rest: Vec<Word>,
}

/// git's own commands, which an alias cannot shadow, and common add-ons.
const SUBCOMMANDS: &[&str] = &[
    "add",
    "am",
    "annotate",
    "apply",
    "archive",
    "bisect",
    "blame",
    "branch",
    "bundle",
    "cat-file",
    "check-attr",
    "check-ignore",
    "check-ref-format",
    "checkout",
    "cherry",
    "cherry-pick",
    "citool",
    "clean",
    "clone",
    "commit",
    "commit-graph",
    "commit-tree",
    "config",
    "count-objects",
    "describe",
    "diff",
    "diff-files",
    "diff-index",
    "diff-tree",
    "difftool",
    "fetch",
    "filter-branch",
    "for-each-ref",
    "format-patch",
    "fsck",
    "gc",
    "grep",
    "gui",
    "hash-object",
    "help",
    "init",
    "instaweb",
    "log",
    "ls-files",
    "ls-remote",
    "ls-tree",
    "maintenance",
    "merge",
    "merge-base",
    "mergetool",
    "mv",
    "notes",
    "pull",
    "push",
    "range-diff",
    "rebase",
    "reflog",
    "remote",
    "repack",
    "replace",
    "request-pull",
    "reset",
    "restore",
    "rev-list",
    "rev-parse",
    "revert",
    "rm",
    "shortlog",
    "show",
    "show-branch",
    "show-ref",
    "sparse-checkout",
    "stash",
    "status",
    "submodule",
    "switch",
    "symbolic-ref",
    "tag",
    "update-index",
    "update-ref",
    "var",
    "verify-commit",
    "verify-tag",
    "version",
    "whatchanged",
    "worktree",
    "write-tree",
    "lfs",
    "flow",
    "filter-repo",
    "credential",
    "prune",
    "read-tree",
    "send-email",
    "svn",
    "p4",
    "scalar",
];

fn alias_call(args: &[Word]) -> Option<AliasCall> {
    let inv = super::invocation(args)?;
    if SUBCOMMANDS.contains(&inv.sub) || !inv.prefix.iter().all(|w| w.literal) {
        return None;
    }
    Some(AliasCall {
        globals: inv.prefix.iter().map(|w| w.text.clone()).collect(),
        name: inv.sub.to_string(),
        rest: inv.args.to_vec(),
    })
}

/// `git config`'s options that take a value, and those that read, list or remove settings
/// rather than write one.
const CONFIG: &[Opt] = &[
    valued("file", Some('f')),
    valued("blob", None),
    valued("type", None),
    valued("default", None),
    valued("comment", None),
    valued("value", None),
    flag("get", None),
    flag("get-all", None),
    flag("get-regexp", None),
    flag("get-urlmatch", None),
    flag("get-color", None),
    flag("get-colorbool", None),
    flag("list", Some('l')),
    flag("unset", None),
    flag("unset-all", None),
    flag("edit", Some('e')),
    flag("rename-section", None),
    flag("remove-section", None),
];

/// Of [`CONFIG`], the options after which `git config` writes no setting.
const CONFIG_READS: &[&str] = &[
    "get",
    "get-all",
    "get-regexp",
    "get-urlmatch",
    "get-color",
    "get-colorbool",
    "list",
    "unset",
    "unset-all",
    "edit",
    "rename-section",
    "remove-section",
];

/// The setting a `git config` command writes, as `key=value`, when key and value are literal
/// (`git config [--local|--global|--add] <key> <value>`, `git config set <key> <value>`): a
/// later git command in the same line runs under it.
fn config_write(args: &[Word]) -> Option<String> {
    let inv = super::invocation(args)?;
    if inv.sub != "config" {
        return None;
    }
    let p = opts::parse(inv.args, CONFIG);
    if CONFIG_READS.iter().any(|name| p.has(name)) {
        return None;
    }
    let words: Vec<&Word> = p.operands.iter().map(|&(_, w)| w).collect();
    let operands = match words.first().map(|w| w.text.as_str()) {
        Some("set") => words.get(1..).unwrap_or_default(),
        Some("get" | "list" | "unset" | "edit" | "rename-section" | "remove-section") => {
            return None;
        }
        _ => &words[..],
    };
    match operands {
        [key, value] if key.literal && value.literal && key.text.contains('.') => {
            Some(format!("{}={}", key.text, value.text))
        }
        _ => None,
    }
}
