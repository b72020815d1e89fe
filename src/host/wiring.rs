//! The part of a host's declaration that `install`, `uninstall` and `doctor` read: where its
//! settings live, which files hold its hooks and in what format, and what our entry there
//! looks like. Data only: the editing of each format is `install`'s.
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

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use crate::config::dirs::{self, Os};

/// How a host is wired: the events and tools our entry takes, and where it is written.
#[derive(Debug, Clone, Copy)]
pub struct Wiring {
    /// The event our entry before the call goes under, as messages name it.
    pub event: &'static str,
    /// The tools our entry sends to the hook: the shell tool, and MCP tools where the hook reads
    /// them; `None` where the host's hook set takes every tool and the hook lets the others
    /// pass.
    pub matcher: Option<&'static str>,
    /// The same with the file-writing tools, on the hosts whose writes the hook decodes;
    /// `None` where `--file-tools` changes nothing.
    pub file_tools_matcher: Option<&'static str>,
    /// The event that sends MCP calls to the hook where the shell event does not; install
    /// writes the same command there, whatever `--file-tools` says.
    pub mcp_event: Option<&'static str>,
    /// The folder of its settings in a project, whose presence says the project uses it.
    pub marker: &'static str,
    /// Its project settings; `None` when it reads hooks from the user's settings only.
    pub project: Option<Project>,
    /// Its user settings.
    pub user: User,
    /// The shell that runs our command line, as `doctor` runs it too.
    pub shell: &'static str,
    /// What is left for the user to do after install in project scope.
    pub project_steps: &'static [&'static str],
    /// What is left for the user to do after install in user scope.
    pub user_steps: &'static [&'static str],
}

impl Wiring {
    /// The tools our entry sends to the hook, with or without the file-writing tools.
    pub fn matcher(&self, file_tools: bool) -> Option<&'static str> {
        match file_tools {
            true => self.file_tools_matcher.or(self.matcher),
            false => self.matcher,
        }
    }
}

/// A host's settings in a project.
#[derive(Debug, Clone, Copy)]
pub struct Project {
    /// The folder its files are in: the marker folder and these folders below it, or with
    /// `None` the project's top level.
    pub folder: Option<&'static [&'static str]>,
    pub files: &'static [SettingsFile],
    pub choice: Choice,
    /// What says the project can take these settings without `--project`.
    pub fits: Fits,
}

/// A host's settings in the user's home folder.
#[derive(Debug, Clone, Copy)]
pub struct User {
    /// Its own folder in the home folder (whose presence says the host is used), as these
    /// folders below the home folder.
    pub home: &'static [&'static str],
    /// Where an environment variable moved that folder.
    pub moved: fn(&Locations) -> Option<PathBuf>,
    /// The folder its files are in.
    pub folder: UserFolder,
    pub files: &'static [SettingsFile],
    pub choice: Choice,
}

/// Where the user's settings files are.
#[derive(Debug, Clone, Copy)]
pub enum UserFolder {
    /// These folders below the host's own folder.
    Own(&'static [&'static str]),
    /// These folders below the home folder, for a host whose hooks live in another's folder.
    Home(&'static [&'static str]),
}

/// What says a project can take a host's project settings.
#[derive(Debug, Clone, Copy)]
pub enum Fits {
    /// The marker folder exists.
    Marker,
    /// This folder exists, from which the marker folder can be made.
    Folder(&'static str),
    /// One of its settings files exists: the marker folder alone says nothing of them.
    SettingsFile,
}

/// One file a host reads hooks from.
#[derive(Debug, Clone, Copy)]
pub struct SettingsFile {
    pub name: &'static str,
    pub format: Format,
}

/// How a settings file holds hooks.
#[derive(Debug, Clone, Copy)]
pub enum Format {
    Json(JsonHook),
    /// Codex's `config.toml` with inline `[[hooks.<Event>]]` tables.
    CodexToml(Group),
    /// Cline's executable `PreToolUse` file.
    ClineScript,
    /// A `[[hooks]]` table per hook, with our table for the call after it ran when there is
    /// one.
    HookTables {
        before: Tables,
        after: Option<Tables>,
    },
    /// Hermes Agent's `config.yaml`: one block that holds our entries before and after the
    /// call.
    HermesYaml,
}

/// Which of a scope's files install writes to when none holds our entry yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    /// The first one listed.
    Listed,
    /// The first one that exists, else the first listed: of two names the host reads alike,
    /// the one the user already keeps.
    Existing,
    /// A TOML file that already keeps its hooks inline goes first: the host merges a folder
    /// with both, with a warning.
    InlineToml,
    /// The first file is read only when it exists (the host then ignores the others' hooks),
    /// keyed by event at its top level unless it has a `hooks` object.
    FirstWhenPresent,
}

/// Where a host keeps its hook entries in a JSON file and what one of ours looks like.
#[derive(Debug, Clone, Copy)]
pub struct JsonHook {
    /// Top-level members a file created from nothing starts with, ahead of the hooks.
    pub preamble: &'static [(&'static str, J)],
    /// Object keys from the top level down to the array that holds the entries.
    pub path: &'static [&'static str],
    /// Whether entries are `{"matcher": .., "hooks": [handler]}` groups, the shape Claude Code
    /// introduced, with our matcher (none: every tool); else each entry is a handler.
    pub grouped: bool,
    /// The keys leading to the command string inside one handler.
    pub command_key: &'static [&'static str],
    /// The handler we add, for a command line.
    pub handler: fn(&str) -> J,
    /// A second key of the handler kept in step with the command.
    pub twin: Option<Twin>,
}

/// A JSON value as we write it, keys in the order they should appear on disk.
#[derive(Debug, Clone)]
pub enum J {
    Str(Cow<'static, str>),
    Int(i64),
    Bool(bool),
    Arr(Vec<J>),
    Obj(Vec<(&'static str, J)>),
}

impl J {
    pub fn str(s: &str) -> J {
        J::Str(Cow::Owned(s.to_string()))
    }

    /// The handler Claude Code's shape holds: `{"type": "command", "command": …, "timeout": …}`,
    /// the timeout in the unit the host reads it in.
    pub fn command_handler(command: &str, timeout: i64) -> J {
        J::Obj(vec![
            ("type", J::str("command")),
            ("command", J::str(command)),
            ("timeout", J::Int(timeout)),
        ])
    }
}

/// A key of our handler whose string install writes for a command line.
#[derive(Debug, Clone, Copy)]
pub struct Twin {
    pub key: &'static str,
    /// Its value for a command line.
    pub value: fn(&str) -> String,
}

/// One group of hooks for an event, as Codex shapes it in TOML and in JSON.
#[derive(Debug, Clone, Copy)]
pub struct Group {
    pub event: &'static str,
    pub matcher: &'static str,
    /// Seconds.
    pub timeout: i64,
}

/// One value of our `[[hooks]]` table.
#[derive(Debug, Clone, Copy)]
pub enum Field {
    Str(&'static str),
    Int(i64),
    Float(f64),
    /// The command line: the one value install rewrites in place when the binary moves.
    Command,
}

/// Our `[[hooks]]` table: its keys and values in the order install writes them.
#[derive(Debug, Clone, Copy)]
pub struct Tables {
    pub fields: &'static [(&'static str, Field)],
    /// The key that names the event: a table of ours under another event is another entry
    /// (Kimi Code's after-call table runs the same command).
    pub event_key: &'static str,
}

/// The two folders settings live in.
#[derive(Debug, Clone)]
pub struct Locations {
    /// The project's top level; `None` outside a project.
    pub project: Option<PathBuf>,
    pub home: PathBuf,
    /// Where `CODEX_HOME` moved Codex's user folder.
    pub codex_home: Option<PathBuf>,
    /// Where `COPILOT_HOME` moved Copilot's user folder.
    pub copilot_home: Option<PathBuf>,
    /// Where `QWEN_HOME` moved Qwen Code's user folder.
    pub qwen_home: Option<PathBuf>,
    /// Where `VIBE_HOME` moved Mistral Vibe's user folder.
    pub vibe_home: Option<PathBuf>,
    /// Where `KIMI_CODE_HOME` moved Kimi Code's user folder.
    pub kimi_home: Option<PathBuf>,
    /// Crush's user settings folder when moved: `CRUSH_GLOBAL_CONFIG`, else
    /// `XDG_CONFIG_HOME/crush`.
    pub crush_home: Option<PathBuf>,
    /// Qoder CLI's user folder when moved: `QODER_CONFIG_DIR`, else `.qoder` in
    /// `QODER_CLI_HOME` (or `GEMINI_CLI_HOME`, which Qoder falls back to).
    pub qoder_home: Option<PathBuf>,
    /// Where `GROK_HOME` moved Grok Build's user folder.
    pub grok_home: Option<PathBuf>,
    /// Where `HERMES_HOME` moved Hermes Agent's user folder.
    pub hermes_home: Option<PathBuf>,
}

impl Locations {
    /// The project around `cwd` and the home folder, from the environment.
    pub fn discover(cwd: &Path) -> Result<Locations, String> {
        let home = dirs::home(Os::CURRENT, &dirs::process_env)
            .or_else(std::env::home_dir)
            .filter(|h| !h.as_os_str().is_empty())
            .ok_or_else(|| {
                format!(
                    "cannot tell the home folder: {}",
                    dirs::home_unset(Os::CURRENT)
                )
            })?;
        let root = cwd
            .ancestors()
            .find(|dir| dir.join(".git").exists())
            .unwrap_or(cwd);
        let var = |name: &str| {
            std::env::var_os(name)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        Ok(Locations {
            project: (!same_dir(root, &home)).then(|| root.to_path_buf()),
            home,
            codex_home: var("CODEX_HOME"),
            copilot_home: var("COPILOT_HOME"),
            qwen_home: var("QWEN_HOME"),
            vibe_home: var("VIBE_HOME"),
            kimi_home: var("KIMI_CODE_HOME"),
            crush_home: var("CRUSH_GLOBAL_CONFIG")
                .or_else(|| var("XDG_CONFIG_HOME").map(|dir| dir.join("crush"))),
            qoder_home: var("QODER_CONFIG_DIR").or_else(|| {
                var("QODER_CLI_HOME")
                    .or_else(|| var("GEMINI_CLI_HOME"))
                    .map(|dir| dir.join(".qoder"))
            }),
            grok_home: var("GROK_HOME"),
            hermes_home: var("HERMES_HOME"),
        })
    }
}

fn same_dir(a: &Path, b: &Path) -> bool {
    a == b || matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y)
}
