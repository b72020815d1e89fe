//! What each host reads: its folders in a project and in the home folder, the settings file
//! that holds its hooks, the entry we add there, and what is left to do by hand.
//!
//! From the hosts' own documentation: Claude Code's hooks reference; Codex's
//! developers.openai.com/codex/hooks; Gemini CLI's docs/hooks (and its settings schema, where
//! hooks are on by default); Cursor's hooks docs; GitHub's Copilot hooks reference (repository
//! `.github/hooks/*.json`, user `~/.copilot/hooks/*.json`); Factory's docs.factory.ai hooks
//! pages; kiro.dev's CLI v3 hooks page and 2.13 changelog (global `~/.kiro/hooks/`);
//! docs.windsurf.com's Cascade hooks; docs.cline.bot's hooks page. Qwen Code, Auggie and Mistral
//! Vibe from their published packages (`@qwen-code/qwen-code` 0.24.4, `@augmentcode/auggie`
//! 0.36.0, `mistral-vibe` 3.0.3): the files their settings loaders read and the hook entries
//! their schemas accept. Kimi Code from its source (MoonshotAI/kimi-code, the CLI 0.38.0: the
//! `hooks` config section and the bootstrap's `KIMI_CODE_HOME`), Crush from its source
//! (charmbracelet/crush v0.90.0: `lookupConfigs` and `GlobalConfig`), Qoder CLI from its
//! package (`@qoder-ai/qodercli` 1.1.52: its settings paths and hook schema). Hermes Agent from its
//! package (`hermes-agent` 0.19.0: `agent/shell_hooks.py` and `get_hermes_home`); Grok Build and
//! Antigravity CLI from the files the cc-safety-net 2.4.5 installer writes for them (Grok Build:
//! `$GROK_HOME/hooks/*.json`; Antigravity CLI: named hook sets in `~/.gemini/config/hooks.json`).

use std::path::{Path, PathBuf};

use super::hook_tables::{Field, Tables};
use super::json::{J, Layout, Twin};
use super::toml::Group;
use super::yaml_hooks;
use super::{Locations, Problem, Scope};
use crate::host::Host;

/// The file we name after ourselves in hosts that read every `*.json` of a hooks folder.
const OWN_FILE: &str = "agent-guard.json";

/// How a settings file holds hooks.
#[derive(Debug, Clone)]
pub enum Kind {
    Json(Layout),
    /// Codex's `config.toml` with inline `[[hooks.<Event>]]` tables.
    CodexToml(Group),
    /// Cline's executable `PreToolUse` file.
    ClineScript,
    /// A `[[hooks]]` table per hook: Mistral Vibe's `hooks.toml`, Kimi Code's `config.toml`.
    HookTables(Tables),
    /// Hermes Agent's `config.yaml`, with our `hooks:` block for these tools.
    HermesYaml(yaml_hooks::Matchers),
}

/// One settings file a host reads hooks from.
#[derive(Debug, Clone)]
pub struct Target {
    pub path: PathBuf,
    pub kind: Kind,
}

/// The event and matcher our entry uses, for messages.
pub fn event(host: Host, file_tools: bool) -> (&'static str, Option<&'static str>) {
    let event = match host {
        Host::ClaudeCode | Host::Codex | Host::Droid | Host::Kiro | Host::Cline => "PreToolUse",
        Host::Gemini => "BeforeTool",
        Host::Cursor => "beforeShellExecution",
        Host::Copilot => "preToolUse",
        Host::Windsurf => "pre_run_command",
        Host::Qwen | Host::Auggie => "PreToolUse",
        Host::Vibe => "pre_tool",
        Host::Kimi | Host::Crush | Host::Qoder => "PreToolUse",
        Host::Grok | Host::Antigravity => "PreToolUse",
        Host::Hermes => "pre_tool_call",
    };
    (event, matcher(host, file_tools))
}

/// The tools our entry sends to the hook: the shell tool, and with `file_tools` the file-writing
/// tools too on the hosts whose writes the hook decodes (`host::decode_file_edit`).
fn matcher(host: Host, file_tools: bool) -> Option<&'static str> {
    Some(match (host, file_tools) {
        // Claude Code runs shell commands through `PowerShell` as well as `Bash` (on Windows).
        // MCP tools come as `mcp__<server>__<tool>` (`mcp_<server>_<tool>` on Gemini CLI);
        // these hosts read a matcher as a regular expression.
        (Host::ClaudeCode, true) => "Bash|PowerShell|Write|Edit|MultiEdit|NotebookEdit|mcp__.*",
        (Host::ClaudeCode, false) => "Bash|PowerShell|mcp__.*",
        (Host::Codex, _) => CODEX_MATCH,
        (Host::Gemini, true) => "run_shell_command|write_file|replace|mcp_.*",
        (Host::Gemini, false) => "run_shell_command|mcp_.*",
        (Host::Droid, true) => "Execute|Create|Edit|mcp__.*",
        (Host::Droid, false) => "Execute|mcp__.*",
        (Host::Kiro, _) => "execute_bash|shell",
        (Host::Qwen, _) => "run_shell_command",
        // A regular expression that Auggie tests against the tool name unanchored.
        (Host::Auggie, _) => "^(launch-process|bash)$",
        (Host::Vibe, _) => VIBE_MATCH,
        // Kimi Code and Crush test the matcher as a regular expression, unanchored.
        (Host::Kimi, _) => "^Bash$",
        (Host::Crush, _) => "^bash$",
        (Host::Qoder, _) => "Bash|mcp__.*",
        (Host::Grok, _) => "run_terminal_command",
        // Hermes tests the matcher as a regular expression against the whole tool name.
        (Host::Hermes, true) => "terminal|write_file|patch|mcp__.*",
        (Host::Hermes, false) => "terminal|mcp__.*",
        // Its hook sets take every tool: the hook lets the others pass.
        (Host::Cursor | Host::Copilot | Host::Windsurf | Host::Cline | Host::Antigravity, _) => {
            return None;
        }
    })
}

/// The event that reports each call to the hook after it ran, on the hosts where install wires
/// one (with the file-writing tools): what agent sessions made goes into the journal.
pub fn after_event(host: Host) -> Option<&'static str> {
    match host {
        Host::ClaudeCode | Host::Codex | Host::Droid | Host::Qoder => Some("PostToolUse"),
        Host::Qwen | Host::Auggie | Host::Kimi => Some("PostToolUse"),
        Host::Vibe => Some("post_tool"),
        Host::Windsurf => Some("post_run_command"),
        Host::Cursor => Some("afterShellExecution"),
        Host::Gemini => Some("AfterTool"),
        Host::Copilot => Some("postToolUse"),
        // Always written with the entry before the call (`yaml_hooks`), file tools or not.
        Host::Hermes => Some("post_tool_call"),
        _ => None,
    }
}

/// Our after-call entry in a JSON settings file whose entry before the call is `before`: the
/// same tools, under [`after_event`] in the same place (Droid's `hooks.json` keys events at
/// its top level).
pub fn after_layout(host: Host, before: &Layout) -> Option<Layout> {
    let event = after_event(host).filter(|_| host != Host::Hermes)?;
    let mut layout = before.clone();
    layout.path.pop();
    layout.path.push(event);
    layout.group = layout.group.map(without_mcp);
    Some(layout)
}

/// A matcher for the call after it ran: what an MCP tool did leaves nothing in the journal, so
/// its finished calls are not sent.
fn without_mcp(matcher: &'static str) -> &'static str {
    matcher
        .trim_end_matches("|mcp__.*")
        .trim_end_matches("|mcp_.*")
}

/// The command of our after-call entry, install's `command` for the call before. Copilot CLI's
/// `postToolUse` payload is its `preToolUse` one with the result added, so the command says
/// which it is.
pub fn after_command(host: Host, command: &str) -> String {
    match host {
        Host::Copilot => format!("{command} --after"),
        _ => command.to_string(),
    }
}

/// Our after-call entry in a settings file whose entry before the call is of `before`'s kind:
/// the same place and tools under [`after_event`]. Hermes Agent's block holds both already.
pub fn after_kind(host: Host, before: &Kind) -> Option<Kind> {
    match before {
        Kind::Json(layout) => after_layout(host, layout).map(Kind::Json),
        Kind::CodexToml(group) => Some(Kind::CodexToml(Group {
            event: after_event(host)?,
            matcher: without_mcp(group.matcher),
            ..*group
        })),
        Kind::HookTables(_) if host == Host::Kimi => Some(Kind::HookTables(KIMI_AFTER)),
        Kind::HookTables(_) if host == Host::Vibe => Some(Kind::HookTables(VIBE_AFTER)),
        Kind::HookTables(_) | Kind::ClineScript | Kind::HermesYaml(_) => None,
    }
}

/// The event that sends MCP tool calls to the hook on the hosts whose shell event does not:
/// Cursor's `beforeMCPExecution` and Windsurf's `pre_mcp_tool_use` (their hooks docs). Install
/// writes the same command there, whatever `--file-tools` says.
pub fn mcp_event(host: Host) -> Option<&'static str> {
    match host {
        Host::Cursor => Some("beforeMCPExecution"),
        Host::Windsurf => Some("pre_mcp_tool_use"),
        _ => None,
    }
}

/// Our MCP entry in a JSON settings file whose shell entry is `before`: the same handler
/// under [`mcp_event`], beside it.
pub fn mcp_layout(host: Host, before: &Layout) -> Option<Layout> {
    let event = mcp_event(host)?;
    let mut layout = before.clone();
    layout.path.pop();
    layout.path.push(event);
    Some(layout)
}

/// Whether `--file-tools` changes what `host` sends to the hook; the other hosts' hooks are
/// shell-only events.
pub fn takes_file_tools(host: Host) -> bool {
    matcher(host, true) != matcher(host, false)
}

/// Vibe matches a tool by its qualified name and its short ones (`file_system.bash` is also
/// `bash`, `process.start` also `process_start`); `re:` makes this a regular expression.
const VIBE_MATCH: &str = "re:bash|git_bash|powershell|process_start";

/// Our hook in Vibe's `hooks.toml`; `name` is how Vibe tells hooks apart (a project's wins over
/// the user's of the same name). The timeout is in seconds; a failing hook lets the tool run
/// unless `strict`, which stays off as on every other host.
const VIBE: Tables = Tables {
    fields: &[
        ("name", Field::Str("agent-guard")),
        ("type", Field::Str("pre_tool")),
        ("match", Field::Str(VIBE_MATCH)),
        ("command", Field::Command),
        ("timeout", Field::Float(30.0)),
    ],
    event_key: "type",
};

/// Our hook after each call in Vibe's `hooks.toml`, under a name of its own: a second hook of
/// the same name would replace the first.
const VIBE_AFTER: Tables = Tables {
    fields: &[
        ("name", Field::Str("agent-guard-after")),
        ("type", Field::Str("post_tool")),
        ("match", Field::Str(VIBE_MATCH)),
        ("command", Field::Command),
        ("timeout", Field::Float(30.0)),
    ],
    event_key: "type",
};

/// Our hook in Kimi Code's `config.toml`. A `[[hooks]]` table with any key besides these four
/// makes Kimi drop its whole `hooks` section, every hook in it, so there is no name; the timeout
/// is whole seconds.
const KIMI: Tables = Tables {
    fields: &[
        ("event", Field::Str("PreToolUse")),
        ("matcher", Field::Str("^Bash$")),
        ("command", Field::Command),
        ("timeout", Field::Int(30)),
    ],
    event_key: "event",
};

/// Kimi Code's table for the call after it ran: its `PostToolUse` carries the fields of
/// `PreToolUse` and the tool's output, and Kimi does not wait for it.
const KIMI_AFTER: Tables = Tables {
    fields: &[
        ("event", Field::Str("PostToolUse")),
        ("matcher", Field::Str("^Bash$")),
        ("command", Field::Command),
        ("timeout", Field::Int(30)),
    ],
    event_key: "event",
};

/// Codex's shell tool, its `apply_patch` (which it cannot undo) and MCP tools.
const CODEX_MATCH: &str = "Bash|apply_patch|mcp__.*";

const CODEX: Group = Group {
    event: "PreToolUse",
    matcher: CODEX_MATCH,
    timeout: 30,
};

/// Claude Code's shape, which Codex and Factory Droid share: `{matcher, hooks: [handler]}`
/// groups under `path`, handlers `{type: "command", command, timeout}` (seconds).
fn claude_like(path: Vec<&'static str>, matcher: Option<&'static str>) -> Layout {
    Layout {
        preamble: Vec::new(),
        path,
        group: matcher,
        command_key: &["command"],
        twin: None,
        handler: |c| {
            J::Obj(vec![
                ("type", J::str("command")),
                ("command", J::str(c)),
                ("timeout", J::Int(30)),
            ])
        },
    }
}

/// The hook's command line as PowerShell runs it: a program path in quotes is a string there,
/// run with the call operator `&`.
fn powershell(command: &str) -> String {
    match command.starts_with(['"', '\'']) {
        true => format!("& {command}"),
        false => command.to_string(),
    }
}

/// What our entry looks like in `host`'s JSON settings; `file_tools` picks the matcher install
/// writes (finding our entries does not look at it).
fn layout(host: Host, file_tools: bool) -> Layout {
    let matcher = matcher(host, file_tools);
    match host {
        Host::ClaudeCode | Host::Codex | Host::Droid | Host::Qoder => {
            claude_like(vec!["hooks", "PreToolUse"], matcher)
        }
        // `name` lets `/hooks disable agent-guard` find it; the timeout is in milliseconds.
        Host::Gemini => Layout {
            preamble: Vec::new(),
            path: vec!["hooks", "BeforeTool"],
            group: matcher,
            command_key: &["command"],
            twin: None,
            handler: |c| {
                J::Obj(vec![
                    ("name", J::str("agent-guard")),
                    ("type", J::str("command")),
                    ("command", J::str(c)),
                    ("timeout", J::Int(60_000)),
                ])
            },
        },
        Host::Cursor => Layout {
            preamble: vec![("version", J::Int(1))],
            path: vec!["hooks", "beforeShellExecution"],
            group: None,
            command_key: &["command"],
            twin: None,
            handler: |c| J::Obj(vec![("command", J::str(c))]),
        },
        // The command goes under `bash` and, for Copilot CLI on Windows, which runs hooks in
        // PowerShell, under `powershell` too.
        Host::Copilot => Layout {
            preamble: vec![("version", J::Int(1))],
            path: vec!["hooks", "preToolUse"],
            group: None,
            command_key: &["bash"],
            twin: Some(Twin {
                key: "powershell",
                value: powershell,
            }),
            handler: |c| {
                J::Obj(vec![
                    ("type", J::str("command")),
                    ("bash", J::str(c)),
                    ("powershell", J::Str(powershell(c))),
                    ("timeoutSec", J::Int(30)),
                ])
            },
        },
        // Kiro CLI 3's standalone hook files: a flat list of named hooks with triggers.
        Host::Kiro => Layout {
            preamble: vec![("version", J::str("v1"))],
            path: vec!["hooks"],
            group: None,
            command_key: &["action", "command"],
            twin: None,
            handler: |c| {
                J::Obj(vec![
                    ("name", J::str("agent-guard")),
                    ("trigger", J::str("PreToolUse")),
                    ("matcher", J::str("execute_bash|shell")),
                    (
                        "action",
                        J::Obj(vec![("type", J::str("command")), ("command", J::str(c))]),
                    ),
                    ("timeout", J::Int(30)),
                    ("enabled", J::Bool(true)),
                ])
            },
        },
        // `show_output` puts the reason for a stop in Cascade's panel.
        Host::Windsurf => Layout {
            preamble: Vec::new(),
            path: vec!["hooks", "pre_run_command"],
            group: None,
            command_key: &["command"],
            twin: None,
            handler: |c| J::Obj(vec![("command", J::str(c)), ("show_output", J::Bool(true))]),
        },
        // Qwen Code reads Claude Code's shape; its timeouts are in seconds and `name` is what
        // its logs and `/hooks` show.
        Host::Qwen => Layout {
            preamble: Vec::new(),
            path: vec!["hooks", "PreToolUse"],
            group: matcher,
            command_key: &["command"],
            twin: None,
            handler: |c| {
                J::Obj(vec![
                    ("type", J::str("command")),
                    ("command", J::str(c)),
                    ("name", J::str("agent-guard")),
                    ("timeout", J::Int(30)),
                ])
            },
        },
        // Auggie reads Claude Code's shape with its timeout in milliseconds.
        Host::Auggie => Layout {
            preamble: Vec::new(),
            path: vec!["hooks", "PreToolUse"],
            group: matcher,
            command_key: &["command"],
            twin: None,
            handler: |c| {
                J::Obj(vec![
                    ("type", J::str("command")),
                    ("command", J::str(c)),
                    ("timeout", J::Int(30_000)),
                ])
            },
        },
        // Crush's entries are flat: `name` is what its TUI shows, the timeout is in seconds.
        Host::Crush => Layout {
            preamble: Vec::new(),
            path: vec!["hooks", "PreToolUse"],
            group: None,
            command_key: &["command"],
            twin: None,
            handler: |c| {
                J::Obj(vec![
                    ("name", J::str("agent-guard")),
                    ("matcher", J::str("^bash$")),
                    ("command", J::str(c)),
                    ("timeout", J::Int(30)),
                ])
            },
        },
        Host::Grok => claude_like(vec!["hooks", "PreToolUse"], matcher),
        // A hook set of our own, named after us; its groups have no matcher.
        Host::Antigravity => Layout {
            preamble: Vec::new(),
            path: vec!["agent-guard", "PreToolUse"],
            group: Some(""),
            command_key: &["command"],
            twin: None,
            handler: |c| {
                J::Obj(vec![
                    ("type", J::str("command")),
                    ("command", J::str(c)),
                    ("timeout", J::Int(30)),
                ])
            },
        },
        Host::Cline => unreachable!("Cline's hook is a script, not JSON"),
        Host::Hermes => unreachable!("its hooks are YAML"),
        Host::Vibe | Host::Kimi => unreachable!("its hooks are TOML"),
    }
}

/// The folder of `host`'s settings in a project, whose presence says the project uses it.
pub fn project_marker(host: Host) -> &'static str {
    match host {
        Host::ClaudeCode => ".claude",
        Host::Codex => ".codex",
        Host::Gemini => ".gemini",
        Host::Cursor => ".cursor",
        Host::Copilot => ".github/hooks",
        Host::Droid => ".factory",
        Host::Kiro => ".kiro",
        Host::Windsurf => ".windsurf",
        Host::Cline => ".clinerules",
        Host::Qwen => ".qwen",
        Host::Auggie => ".augment",
        Host::Vibe => ".vibe",
        // Kimi Code keeps AGENTS.md and mcp.json there, but reads hooks only from the user's
        // config.
        Host::Kimi => ".kimi-code",
        // Crush's data folder, which it makes in every project it runs in; its settings are
        // `crush.json` or `.crush.json` at the top level.
        Host::Crush => ".crush",
        Host::Qoder => ".qoder",
        // These three read hooks from the user's settings only; the folders say they are used.
        Host::Grok => ".grok",
        Host::Antigravity => ".agents",
        Host::Hermes => ".hermes",
    }
}

/// Crush's project settings files; where both set a key, `.crush.json` wins.
const CRUSH_PROJECT_FILES: [&str; 2] = [".crush.json", "crush.json"];

/// Whether `host` keeps settings in this project. For Copilot that needs `.github/hooks/`: a
/// `.github/` folder alone is every GitHub repository.
pub fn in_project(host: Host, root: &Path) -> bool {
    root.join(project_marker(host)).is_dir()
}

/// Whether the project can take `host`'s project-scope settings: the folder it reads exists.
/// Copilot reads `.github/hooks/`, which can be created in any repository with `.github/`.
/// Crush's data folder alone says nothing about its settings: only a settings file it reads
/// there does. Kimi Code has no project settings.
pub fn project_scope_fits(host: Host, root: &Path) -> bool {
    match host {
        Host::Copilot => root.join(".github").is_dir(),
        Host::Crush => CRUSH_PROJECT_FILES.iter().any(|f| root.join(f).is_file()),
        Host::Kimi | Host::Grok | Host::Antigravity | Host::Hermes => false,
        _ => in_project(host, root),
    }
}

/// Whether `host` reads hooks from a project's settings at all.
pub fn has_project_scope(host: Host) -> bool {
    !matches!(
        host,
        Host::Kimi | Host::Grok | Host::Antigravity | Host::Hermes
    )
}

/// `host`'s folder in the home folder (or where its environment variable moved it).
pub fn user_dir(host: Host, loc: &Locations) -> PathBuf {
    let home = &loc.home;
    match host {
        Host::ClaudeCode => home.join(".claude"),
        Host::Codex => loc
            .codex_home
            .clone()
            .unwrap_or_else(|| home.join(".codex")),
        Host::Gemini => home.join(".gemini"),
        Host::Cursor => home.join(".cursor"),
        Host::Copilot => loc
            .copilot_home
            .clone()
            .unwrap_or_else(|| home.join(".copilot")),
        Host::Droid => home.join(".factory"),
        Host::Kiro => home.join(".kiro"),
        Host::Windsurf => home.join(".codeium").join("windsurf"),
        Host::Cline => home.join("Documents").join("Cline"),
        Host::Qwen => loc.qwen_home.clone().unwrap_or_else(|| home.join(".qwen")),
        Host::Auggie => home.join(".augment"),
        Host::Vibe => loc.vibe_home.clone().unwrap_or_else(|| home.join(".vibe")),
        Host::Kimi => loc
            .kimi_home
            .clone()
            .unwrap_or_else(|| home.join(".kimi-code")),
        // `~/.config/crush` on every OS, Windows included.
        Host::Crush => loc
            .crush_home
            .clone()
            .unwrap_or_else(|| home.join(".config").join("crush")),
        Host::Qoder => loc
            .qoder_home
            .clone()
            .unwrap_or_else(|| home.join(".qoder")),
        Host::Grok => loc.grok_home.clone().unwrap_or_else(|| home.join(".grok")),
        // Antigravity keeps its state here; its hooks are in `~/.gemini/config`.
        Host::Antigravity => home.join(".gemini").join("antigravity"),
        Host::Hermes => loc
            .hermes_home
            .clone()
            .unwrap_or_else(|| home.join(".hermes")),
    }
}

/// The folder the scope's settings files live in.
fn settings_dir(host: Host, scope: Scope, loc: &Locations) -> Option<PathBuf> {
    Some(match scope {
        Scope::Project => {
            let root = loc.project.as_ref()?;
            let dir = root.join(project_marker(host));
            match host {
                Host::Kiro | Host::Cline => dir.join("hooks"),
                Host::Crush => root.clone(),
                Host::Kimi | Host::Grok | Host::Antigravity | Host::Hermes => return None,
                _ => dir,
            }
        }
        Scope::User => match host {
            Host::Kiro | Host::Copilot | Host::Grok => user_dir(host, loc).join("hooks"),
            Host::Antigravity => loc.home.join(".gemini").join("config"),
            Host::Cline => user_dir(host, loc).join("Hooks"),
            _ => user_dir(host, loc),
        },
    })
}

/// The files `host` reads hooks from in `scope`, the one install writes to first. Uninstall and
/// doctor look in all of them. Reads the files that decide the choice. `file_tools` picks the
/// matcher install writes; uninstall and doctor find our entries whatever their matcher.
pub fn targets(
    host: Host,
    scope: Scope,
    loc: &Locations,
    file_tools: bool,
) -> Result<Vec<Target>, Problem> {
    let Some(dir) = settings_dir(host, scope, loc) else {
        return Ok(Vec::new());
    };
    let json = |name: &str, layout: Layout| Target {
        path: dir.join(name),
        kind: Kind::Json(layout),
    };
    Ok(match host {
        Host::ClaudeCode | Host::Gemini | Host::Qwen | Host::Auggie | Host::Qoder => {
            vec![json("settings.json", layout(host, file_tools))]
        }
        Host::Kimi => vec![Target {
            path: dir.join("config.toml"),
            kind: Kind::HookTables(KIMI),
        }],
        // A project's `.crush.json` when it has one and no `crush.json`, else `crush.json`;
        // the user's settings are `crush.json` alone.
        Host::Crush => match scope {
            Scope::Project => {
                let [hidden, plain] = CRUSH_PROJECT_FILES;
                let order = match dir.join(hidden).is_file() && !dir.join(plain).is_file() {
                    true => [hidden, plain],
                    false => [plain, hidden],
                };
                order
                    .into_iter()
                    .map(|name| json(name, layout(host, file_tools)))
                    .collect()
            }
            Scope::User => vec![json("crush.json", layout(host, file_tools))],
        },
        Host::Vibe => vec![Target {
            path: dir.join("hooks.toml"),
            kind: Kind::HookTables(VIBE),
        }],
        Host::Cursor | Host::Windsurf => vec![json("hooks.json", layout(host, file_tools))],
        Host::Copilot | Host::Kiro | Host::Grok => vec![json(OWN_FILE, layout(host, file_tools))],
        Host::Antigravity => vec![json("hooks.json", layout(host, file_tools))],
        Host::Hermes => vec![Target {
            path: dir.join("config.yaml"),
            kind: Kind::HermesYaml(yaml_hooks::Matchers {
                before: matcher(host, file_tools).unwrap_or("terminal"),
                after: matcher(host, file_tools).map_or("terminal", without_mcp),
            }),
        }],
        Host::Cline => vec![Target {
            path: dir.join("PreToolUse"),
            kind: Kind::ClineScript,
        }],
        // Inline `[hooks]` tables when config.toml already keeps its hooks there (a folder
        // with both is merged by Codex, with a warning), else hooks.json.
        Host::Codex => {
            let toml = Target {
                path: dir.join("config.toml"),
                kind: Kind::CodexToml(CODEX),
            };
            let inline = match read(&toml.path)? {
                Some(text) => {
                    super::toml::keeps_hooks(&text).map_err(|e| Problem::at(&toml.path, e))?
                }
                None => false,
            };
            let hooks_json = json("hooks.json", layout(host, file_tools));
            match inline {
                true => vec![toml, hooks_json],
                false => vec![hooks_json, toml],
            }
        }
        // Droid reads hooks.json, keyed directly by event name, and only when that file is
        // absent the `hooks` key of settings.json. An existing hooks.json is followed as it is
        // written (some carry a `hooks` wrapper); otherwise settings.json takes the hook.
        Host::Droid => {
            let hooks_path = dir.join("hooks.json");
            let settings = json("settings.json", layout(host, file_tools));
            match read(&hooks_path)? {
                Some(text) => {
                    let mut own = layout(host, file_tools);
                    if !super::json::has_object(&text, "hooks") {
                        own.path = vec!["PreToolUse"];
                    }
                    vec![json("hooks.json", own), settings]
                }
                None => vec![settings],
            }
        }
    })
}

/// The file's text, `None` when there is no file.
pub fn read(path: &Path) -> Result<Option<String>, Problem> {
    match std::fs::read(path) {
        Ok(bytes) => String::from_utf8(bytes).map(Some).map_err(|_| Problem {
            path: path.to_path_buf(),
            line: None,
            message: "is not UTF-8 text".into(),
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Problem {
            path: path.to_path_buf(),
            line: None,
            message: format!("cannot be read: {e}"),
        }),
    }
}

/// What is left for the user to do after install, in `scope`.
pub fn manual_steps(host: Host, scope: Scope) -> &'static [&'static str] {
    match (host, scope) {
        (Host::ClaudeCode, _) => {
            &["Claude Code reads hooks when a session starts: start a new one (or open /hooks)."]
        }
        (Host::Codex, Scope::Project) => &[
            "Codex runs a hook only once you trust it: open /hooks and trust agent-guard (again after any change to the entry).",
            "Codex loads a project's hooks only when the project's .codex folder is trusted.",
        ],
        (Host::Codex, Scope::User) => &[
            "Codex runs a hook only once you trust it: open /hooks and trust agent-guard (again after any change to the entry).",
        ],
        (Host::Gemini, Scope::Project) => &[
            "Gemini CLI runs project hooks only in a trusted folder, and warns once about a new one: start a new session and accept it.",
        ],
        (Host::Gemini, Scope::User) => {
            &["Gemini CLI: start a new session; /hooks panel lists the hook."]
        }
        (Host::Cursor, _) => &[
            "Cursor: check that the hook is listed in Cursor Settings > Hooks; restart Cursor if it is not.",
        ],
        (Host::Copilot, Scope::Project) => &[
            "Copilot CLI loads .github/hooks from the folder it starts in: start it from the repository's top level.",
            "Copilot's cloud agent also reads .github/hooks on the default branch, on a machine without this binary: keep agent-guard.json out of commits.",
        ],
        (Host::Copilot, Scope::User) => &["Copilot CLI: start a new session."],
        (Host::Droid, _) => &["Factory Droid reads hooks when a session starts: start a new one."],
        (Host::Kiro, _) => &[
            "Kiro CLI runs hook files from .kiro/hooks on its v3 engine (kiro-cli --v3 before 3.0); agents on the 2.x engine keep hooks in .kiro/agents/*.json, which this does not change.",
        ],
        (Host::Windsurf, _) => &["Windsurf reads hooks.json at startup: restart Windsurf."],
        (Host::Cline, _) => &[
            "Cline runs hooks only when they are on: Settings > Features > Enable Hooks (macOS and Linux).",
        ],
        (Host::Qwen, Scope::Project) => &[
            "Qwen Code runs a project's hooks only in a trusted folder: start a new session there and trust it.",
        ],
        (Host::Qwen, Scope::User) => &["Qwen Code: start a new session; /hooks lists the hook."],
        (Host::Auggie, _) => &["Auggie reads hooks when it starts: start a new session."],
        (Host::Vibe, Scope::Project) => &[
            "Vibe loads .vibe/hooks.toml only in a trusted folder, started from the project's top level: trust it, then start a new session.",
        ],
        (Host::Vibe, Scope::User) => {
            &["Vibe reads hooks.toml when it starts: start a new session."]
        }
        (Host::Kimi, _) => &["Kimi Code reads its hooks when a session starts: start a new one."],
        (Host::Crush, _) => &["Crush reads crush.json when it starts: restart it."],
        (Host::Qoder, _) => {
            &["Qoder CLI reads hooks when a session starts: start a new one (or open /hooks)."]
        }
        (Host::Grok, _) => {
            &["Grok Build reads its hooks folder when it starts: start a new session."]
        }
        (Host::Antigravity, _) => &[
            "Antigravity CLI reads ~/.gemini/config/hooks.json when it starts: start a new session.",
        ],
        (Host::Hermes, _) => &[
            "Hermes Agent asks once before it runs a new shell hook: start `hermes` in a terminal and approve agent-guard (or run it with --accept-hooks).",
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn powershell_calls_a_quoted_program_with_the_call_operator() {
        let cases = [
            (
                "C:/Users/me/.cargo/bin/agent-guard.exe hook --host copilot",
                "C:/Users/me/.cargo/bin/agent-guard.exe hook --host copilot",
            ),
            (
                "\"C:/Program Files/agent-guard/agent-guard.exe\" hook --host copilot",
                "& \"C:/Program Files/agent-guard/agent-guard.exe\" hook --host copilot",
            ),
            (
                "'C:/Users/a$b/agent-guard.exe' hook --host copilot",
                "& 'C:/Users/a$b/agent-guard.exe' hook --host copilot",
            ),
        ];
        for (bash, want) in cases {
            assert_eq!(powershell(bash), want);
            assert!(super::super::is_ours(&powershell(bash), Host::Copilot));
        }
    }
}
