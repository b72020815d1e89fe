//! Wiring the guard into each agent host's settings (`agent-guard install`), taking it out
//! again (`uninstall`), and checking the wiring end to end (`doctor`).
//!
//! The rules, in the order a run applies them:
//!
//! - **Which hosts.** The ones named with `--host`; otherwise, for install and doctor, every
//!   host whose folder exists in the project or in the home folder ([`detect`]), and for
//!   uninstall every host.
//! - **Which project.** The top level of the git repository around the working folder, else the
//!   working folder itself; none when that is the home folder, whose host folders are the
//!   user's settings.
//! - **Which scope.** A host's project settings when the project has that host's folder
//!   (Copilot: `.github/`; Crush: its `crush.json` or `.crush.json`), else its user settings;
//!   `--project` and `--user` force one. Kimi Code reads hooks from its user settings alone.
//! - **Which file.** Each host's own settings file for the scope, declared in its module of
//!   `host` (its `wiring`). Codex's hooks go to `hooks.json` unless `config.toml` already keeps
//!   its hooks inline; Droid's go to an existing `hooks.json`, else to the `hooks` key of
//!   `settings.json`; Crush's to a project's `.crush.json` when it has that and no
//!   `crush.json`, else to `crush.json`.
//! - **Our entry** is the one whose command names `agent-guard` and ends in
//!   ` hook --host NAME`, whatever its matcher. Install adds it when it is missing, rewrites
//!   only the command when the binary moved and the matcher when another was asked for, and
//!   otherwise changes nothing, so running it twice is running it once. It is appended after
//!   whatever hooks the event already has.
//! - **Which tools.** Our entry takes the host's shell tool, and by default the file-writing
//!   tools too where the hook reads them (Claude Code, Gemini CLI, Factory Droid), so that writes
//!   to the guard's own files are refused and written files are claimed for the agent; Claude
//!   Code, Codex (in `hooks.json`), Factory Droid, Qoder CLI, Qwen Code, Auggie, Cursor and
//!   Gemini CLI also get our entry after each call (`PostToolUse`, `afterShellExecution`,
//!   `AfterTool`), which feeds the journal of
//!   what agent sessions made; Hermes Agent's block always holds its `post_tool_call` entry.
//!   `--no-file-tools` keeps to the shell tool before the call. Other hosts' hooks are shell-only events; `--file-tools` named there is
//!   noted and changes nothing. The entries follow the command line both ways: a shell-only
//!   entry of ours is widened in place (and the after-call entry added), and with
//!   `--no-file-tools` a wider one is narrowed back (and the after-call entry taken out), so the
//!   settings say what the last install was asked for. A group that holds other hooks besides
//!   ours keeps its matcher, which decides when those run too.
//! - **Everything else stays** byte for byte: JSON is spliced as text in the file's own
//!   indentation and line endings, TOML is edited with a format-preserving parser.
//! - **Backups.** Before the first change to a file that existed, its bytes are copied to
//!   `<file>.agent-guard.bak`. An existing backup is never overwritten, so it always holds the
//!   file as it was before agent-guard first touched it.
//! - **Uninstall** removes our entries only. An event list or hooks object that is left empty
//!   goes too (one that was empty before install goes with it), and a file that is exactly what
//!   install writes from nothing, with or without the file-writing tools, is deleted.
//! - **A file that does not parse** is left untouched, with an error naming the file and line;
//!   the other hosts carry on.

mod doctor;
mod hook_tables;
mod hosts;
pub mod json;
mod script;
pub mod toml;
mod yaml_hooks;

use std::fmt;
use std::path::{Path, PathBuf};

use crate::config::dirs::Os;
use crate::host::Host;
pub use crate::host::wiring::Locations;

pub use doctor::{DESTRUCTIVE, DESTRUCTIVE_SQL, Health, SAFE, Wired, examine, wired};
pub use hosts::{manual_steps, takes_file_tools};

/// Project settings (shared with everyone who works in the repository) or the user's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Project,
    User,
}

impl Scope {
    pub fn name(self) -> &'static str {
        match self {
            Scope::Project => "project",
            Scope::User => "user",
        }
    }
}

/// The hosts in use: their folder exists in the project or in the home folder.
pub fn detect(loc: &Locations) -> Vec<Host> {
    Host::ALL
        .into_iter()
        .filter(|&host| {
            loc.project
                .as_deref()
                .is_some_and(|root| hosts::in_project(host, root))
                || hosts::user_dir(host, loc).is_dir()
        })
        .collect()
}

/// The hosts whose guard is a plugin rather than a hook in a settings file: they have no hook
/// that runs a program, so the plugin, shipped in `integrations/`, runs the binary itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plugin {
    Opencode,
    Amp,
    Pi,
    OpenClaw,
}

impl Plugin {
    pub const ALL: [Plugin; 4] = [Plugin::Opencode, Plugin::Amp, Plugin::Pi, Plugin::OpenClaw];

    /// The name `--host` takes.
    pub fn name(self) -> &'static str {
        match self {
            Plugin::Opencode => "opencode",
            Plugin::Amp => "amp",
            Plugin::Pi => "pi",
            Plugin::OpenClaw => "openclaw",
        }
    }

    pub fn from_name(name: &str) -> Option<Plugin> {
        Plugin::ALL.into_iter().find(|p| p.name() == name)
    }

    /// Whether the project or the home folder has the host's settings.
    pub fn in_use(self, loc: &Locations) -> bool {
        let project = |names: &[&str]| {
            loc.project
                .as_deref()
                .is_some_and(|root| names.iter().any(|n| root.join(n).exists()))
        };
        let home = |path: &[&str]| {
            path.iter()
                .fold(loc.home.clone(), |p, n| p.join(n))
                .is_dir()
        };
        match self {
            Plugin::Opencode => {
                project(&[".opencode", "opencode.json", "opencode.jsonc"])
                    || home(&[".config", "opencode"])
            }
            Plugin::Amp => project(&[".amp"]) || home(&[".config", "amp"]),
            Plugin::Pi => project(&[".pi"]) || home(&[".pi", "agent"]),
            Plugin::OpenClaw => home(&[".openclaw"]),
        }
    }

    /// What install asks the user to do.
    pub fn install_steps(self) -> &'static str {
        match self {
            Plugin::Opencode => {
                "no settings-file hook: copy integrations/opencode/agent-guard.ts from the agent-guard repository into .opencode/plugin/ (this project) or ~/.config/opencode/plugin/ (every project), with agent-guard on the PATH"
            }
            Plugin::Amp => {
                "no settings-file hook: copy integrations/amp/agent-guard.ts from the agent-guard repository into ~/.config/amp/plugins/, with agent-guard on the PATH, then run \"plugins: reload\" in Amp"
            }
            Plugin::Pi => {
                "no settings-file hook: copy integrations/pi/agent-guard.ts from the agent-guard repository into .pi/extensions/ (this project) or ~/.pi/agent/extensions/ (every project), with agent-guard on the PATH, then /reload"
            }
            Plugin::OpenClaw => {
                "no settings-file hook: run `openclaw plugins install <agent-guard repository>/integrations/openclaw` and `openclaw plugins enable agent-guard`, with agent-guard on the PATH"
            }
        }
    }

    /// What uninstall asks the user to do.
    pub fn uninstall_steps(self) -> &'static str {
        match self {
            Plugin::Opencode => {
                "remove agent-guard.ts from .opencode/plugin/ or ~/.config/opencode/plugin/"
            }
            Plugin::Amp => "remove agent-guard.ts from ~/.config/amp/plugins/",
            Plugin::Pi => "remove agent-guard.ts from .pi/extensions/ or ~/.pi/agent/extensions/",
            Plugin::OpenClaw => "run `openclaw plugins uninstall agent-guard`",
        }
    }
}

/// The scope for `host`: `forced` when given, else project when the project has the host's
/// folder, else user.
pub fn scope_for(host: Host, loc: &Locations, forced: Option<Scope>) -> Result<Scope, String> {
    match (forced, loc.project.as_deref()) {
        (Some(Scope::Project), _) if !hosts::has_project_scope(host) => {
            Err("its hooks are read from the user's settings only: use --user".into())
        }
        (Some(Scope::Project), None) => Err(
            "not inside a project (the working folder is the home folder): run it from the project, or use --user"
                .into(),
        ),
        (Some(scope), _) => Ok(scope),
        (None, Some(root)) if hosts::project_scope_fits(host, root) => Ok(Scope::Project),
        (None, _) => Ok(Scope::User),
    }
}

/// The command line a host runs: the binary's absolute path and `hook --host NAME`.
pub fn hook_command(binary: &Path, host: Host) -> String {
    format!(
        "{} hook --host {}",
        program(Os::CURRENT, &binary.to_string_lossy()),
        host.name()
    )
}

/// The binary's path as the host's shell reads it. On Unix, [`shell_quote`]. On Windows the
/// hosts run hooks through Git Bash (Claude Code), `cmd.exe` (Codex) or PowerShell, so the
/// path is written with `/`, which all three take and bash does not read as an escape, and
/// left bare when it can be (`C:/Users/me/.cargo/bin/agent-guard.exe`); else it goes in double
/// quotes, which bash and `cmd.exe` read alike. A path with `$`, `` ` ``, `%`, `!` or `"`, which
/// one of them would expand even there, is quoted for bash alone.
fn program(os: Os, path: &str) -> String {
    match os {
        Os::Unix => shell_quote(path),
        Os::Windows => {
            let path = path.replace('\\', "/");
            if path.contains(['$', '`', '%', '!', '"']) {
                shell_quote(&path)
            } else if shell_quote(&path) == path {
                path
            } else {
                format!("\"{path}\"")
            }
        }
    }
}

/// Quotes a path for the shell the host runs the command with. Stricter than the analyser's
/// quoting: `~`, `{` and `,` stay quoted, so no tilde or brace expansion can touch the path.
fn shell_quote(s: &str) -> String {
    let plain = !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./:@%+=".contains(&b));
    match plain {
        true => s.to_string(),
        false => format!("'{}'", s.replace('\'', r"'\''")),
    }
}

/// Whether `command` is our hook for `host`, wherever the binary lives.
pub fn is_ours(command: &str, host: Host) -> bool {
    let tail = format!(" hook --host {}", host.name());
    command.contains("agent-guard")
        && command.match_indices(&tail).any(|(at, _)| {
            command[at + tail.len()..]
                .chars()
                .next()
                .is_none_or(char::is_whitespace)
        })
}

/// What install or uninstall does to one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The file did not exist; it now holds our hook.
    Created,
    /// Our hook was added to the file.
    Added,
    /// Our hook was there with another binary path; the path was updated.
    Updated,
    /// Our hook was there under another matcher; the matcher was set to the one asked for (and
    /// the path updated too if the binary moved).
    Rematched,
    /// Our hook was there as it should be.
    AlreadyThere,
    /// Our hook was taken out of the file.
    Removed,
    /// The file held nothing but what install writes; it was deleted.
    Deleted,
}

/// A planned change to one settings file, applied with [`Change::apply`].
#[derive(Debug, Clone)]
pub struct Change {
    pub host: Host,
    pub scope: Scope,
    pub path: PathBuf,
    pub outcome: Outcome,
    before: Option<String>,
    after: Option<String>,
    executable: bool,
    /// Install was asked for the file-writing tools too; always false for uninstall.
    file_tools: bool,
    /// The file-writing tools were asked for by name, not by default: a host that has none
    /// says so.
    file_tools_named: bool,
}

impl Change {
    /// Where the file's original bytes are kept.
    pub fn backup_path(&self) -> PathBuf {
        let mut name = self.path.as_os_str().to_owned();
        name.push(".agent-guard.bak");
        PathBuf::from(name)
    }

    /// The change as a unified diff (`/dev/null` for a file created or deleted); empty when
    /// nothing changes.
    pub fn diff(&self) -> String {
        if self.before == self.after {
            return String::new();
        }
        let name = self.path.display().to_string();
        let old = self
            .before
            .as_deref()
            .map_or("/dev/null", |_| name.as_str());
        let new = self.after.as_deref().map_or("/dev/null", |_| name.as_str());
        similar::udiff::unified_diff(
            similar::Algorithm::Myers,
            self.before.as_deref().unwrap_or(""),
            self.after.as_deref().unwrap_or(""),
            3,
            Some((old, new)),
        )
    }

    /// Writes the change: the backup first (when the file existed and has none yet), then the
    /// file. A file deleted because it held only our hook needs no backup; a backup that the
    /// restored file now matches byte for byte has done its job and is removed.
    pub fn apply(&self) -> std::io::Result<Backup> {
        if self.before == self.after {
            return Ok(Backup::Untouched);
        }
        let path = self.backup_path();
        let mut backup = Backup::Untouched;
        if let Some(before) = &self.before
            && self.outcome != Outcome::Deleted
            && !path.exists()
        {
            std::fs::write(&path, before)?;
            backup = Backup::Written(path.clone());
        }
        match &self.after {
            Some(text) => {
                if let Some(dir) = self.path.parent() {
                    std::fs::create_dir_all(dir)?;
                }
                // Written in place, not renamed over: a settings file that is a symlink into a
                // dotfiles repository stays one.
                std::fs::write(&self.path, text)?;
                if self.executable && self.before.is_none() {
                    make_executable(&self.path)?;
                }
                if self.outcome == Outcome::Removed
                    && std::fs::read(&path).ok().as_deref() == Some(text.as_bytes())
                {
                    std::fs::remove_file(&path)?;
                    backup = Backup::Restored(path);
                }
            }
            None => std::fs::remove_file(&self.path)?,
        }
        Ok(backup)
    }

    /// The change as install makes it when the file-writing tools are its default rather
    /// than asked for: a host without them is not told the flag does not apply.
    pub fn by_default(mut self) -> Change {
        self.file_tools_named = false;
        self
    }

    /// What was (or, in a dry run, would be) done, for the line printed per host.
    pub fn describe(&self, dry_run: bool) -> String {
        let (event, matcher) = hosts::event(self.host, self.file_tools);
        // Uninstall takes our entry out whatever its matcher, so it names none.
        let mut hook = match matcher {
            Some(m) if self.outcome != Outcome::Removed => format!("{event} hook (matcher {m})"),
            _ => format!("{event} hook"),
        };
        // Hermes Agent's block always holds both events.
        let after_too = self.file_tools || hosts::after_always(self.host);
        let others: Vec<&str> = [
            hosts::mcp_event(self.host),
            hosts::after_event(self.host).filter(|_| after_too),
        ]
        .into_iter()
        .flatten()
        .collect();
        for (i, other) in others.iter().enumerate() {
            let joint = if i + 1 == others.len() { " and" } else { "," };
            hook.push_str(&format!("{joint} the {other} hook"));
        }
        let (done, would) = match self.outcome {
            Outcome::Created => (
                format!("created with the {hook}"),
                format!("would create it with the {hook}"),
            ),
            Outcome::Added => (format!("added the {hook}"), format!("would add the {hook}")),
            Outcome::Updated => (
                "updated the hook's path to this binary".into(),
                "would update the hook's path to this binary".into(),
            ),
            Outcome::Rematched => (
                format!("changed the hook to the {hook}"),
                format!("would change the hook to the {hook}"),
            ),
            Outcome::AlreadyThere => (
                "already wired; nothing to change".into(),
                "already wired; nothing to change".into(),
            ),
            Outcome::Removed => (
                format!("removed the {hook}"),
                format!("would remove the {hook}"),
            ),
            Outcome::Deleted => (
                "deleted the file, which held only the hook".into(),
                "would delete the file, which holds only the hook".into(),
            ),
        };
        let what = if dry_run { would } else { done };
        let applies = hosts::takes_file_tools(self.host) || hosts::after_event(self.host).is_some();
        match self.file_tools_named && !applies {
            true => {
                format!("{what} (--file-tools does not apply: its hook sees no file tool)")
            }
            false => what,
        }
    }
}

#[cfg(unix)]
fn make_executable(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
}

#[cfg(not(unix))]
fn make_executable(_: &Path) -> std::io::Result<()> {
    Ok(())
}

/// What [`Change::apply`] did with the file's backup.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Backup {
    /// Nothing: there was no file, it is deleted, or its backup from an earlier run stays.
    Untouched,
    /// The file's bytes before this change were copied here.
    Written(PathBuf),
    /// The file is back to the bytes this backup held, so the backup was removed.
    Restored(PathBuf),
}

/// A settings file the installer cannot change as asked, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub path: PathBuf,
    /// Line and column, from 1, when the problem is at a place in the file.
    pub line: Option<(usize, usize)>,
    pub message: String,
}

impl Problem {
    fn at(path: &Path, located: Located) -> Problem {
        Problem {
            path: path.to_path_buf(),
            line: Some((located.line, located.column)),
            message: located.message,
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some((line, column)) => write!(
                f,
                "{}:{line}:{column}: {}",
                self.path.display(),
                self.message
            ),
            None => write!(f, "{}: {}", self.path.display(), self.message),
        }
    }
}

/// A problem at a place in a file's text, before the file is known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    /// From 1.
    pub line: usize,
    /// From 1.
    pub column: usize,
    pub message: String,
}

/// What uninstall makes of a file's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Removal {
    /// The file holds no entry of ours.
    NotThere,
    /// The file's new text.
    Text(String),
    /// The file held only what install writes.
    DeleteFile,
}

/// The commands of our entries in a settings file's text.
fn commands_in(target: &hosts::Target, text: &str, host: Host) -> Result<Vec<String>, Problem> {
    let ours = |c: &str| is_ours(c, host);
    let found = match &target.kind {
        hosts::Kind::Json(layout) => json::commands(text, layout, &ours),
        hosts::Kind::CodexToml(group) => toml::commands(text, group, &ours),
        hosts::Kind::ClineScript => Ok(script::command(text, &ours).into_iter().collect()),
        hosts::Kind::HookTables(tables, _) => hook_tables::commands(text, tables, &ours),
        hosts::Kind::HermesYaml(_) => Ok(yaml_hooks::commands(text, &ours)),
    };
    found.map_err(|e| Problem::at(&target.path, e))
}

/// The change that wires `host` into its `scope` settings, running `binary`, for its shell tool
/// and with `file_tools` its file-writing tools too. An entry of ours already in one of the
/// scope's files is updated where it is; otherwise the entry goes to the host's preferred file.
pub fn plan_install(
    host: Host,
    scope: Scope,
    loc: &Locations,
    binary: &Path,
    file_tools: bool,
) -> Result<Change, Problem> {
    let command = hook_command(binary, host);
    let ours = |c: &str| is_ours(c, host);
    let targets = hosts::targets(host, scope, loc, file_tools)?;
    let mut chosen = None;
    for target in &targets {
        if let Some(text) = hosts::read(&target.path)?
            && !commands_in(target, &text, host)?.is_empty()
        {
            chosen = Some((target, Some(text)));
            break;
        }
    }
    let (target, before) = match chosen {
        Some(found) => found,
        None => {
            let target = targets.first().ok_or_else(|| Problem {
                path: loc.home.clone(),
                line: None,
                message: format!(
                    "there is no project to hold {}'s project settings",
                    host.name()
                ),
            })?;
            (target, hosts::read(&target.path)?)
        }
    };
    let planned = install_into(&target.kind, before.as_deref(), &command, &ours);
    let (after, outcome) = planned.map_err(|e| Problem::at(&target.path, e))?;
    let (after, outcome) = match &target.kind {
        hosts::Kind::Json(before) => match hosts::mcp_layout(host, before) {
            Some(layout) => {
                let (text, mcp) = json::install(Some(&after), &layout, &command, &ours)
                    .map_err(|e| Problem::at(&target.path, e))?;
                (text, with_mcp_entry(outcome, mcp))
            }
            None => (after, outcome),
        },
        _ => (after, outcome),
    };
    let (after, outcome) = match hosts::after_kind(host, &target.kind) {
        Some(kind) => {
            let command = hosts::after_command(host, &command);
            after_entry(&after, outcome, &kind, file_tools, &command, &ours)
                .map_err(|e| Problem::at(&target.path, e))?
        }
        None => (after, outcome),
    };
    Ok(Change {
        host,
        scope,
        path: target.path.clone(),
        outcome,
        before,
        after: Some(after),
        executable: matches!(target.kind, hosts::Kind::ClineScript),
        file_tools,
        file_tools_named: file_tools,
    })
}

/// What install did, the shell entry's `outcome` joined with the MCP entry's: a moved binary
/// updated in both is still an update; an MCP entry added beside a shell entry that was there
/// changes the hook.
fn with_mcp_entry(outcome: Outcome, mcp: Outcome) -> Outcome {
    match (outcome, mcp) {
        (Outcome::AlreadyThere | Outcome::Updated, Outcome::AlreadyThere) => outcome,
        (Outcome::AlreadyThere | Outcome::Updated, Outcome::Updated) => Outcome::Updated,
        (Outcome::AlreadyThere | Outcome::Updated, _) => Outcome::Rematched,
        (other, _) => other,
    }
}

/// The file (or no file) with our entry of `kind` added, or its command updated in place.
fn install_into(
    kind: &hosts::Kind,
    before: Option<&str>,
    command: &str,
    ours: &dyn Fn(&str) -> bool,
) -> Result<(String, Outcome), Located> {
    match kind {
        hosts::Kind::Json(layout) => json::install(before, layout, command, ours),
        hosts::Kind::CodexToml(group) => toml::install(before.unwrap_or(""), group, command, ours),
        hosts::Kind::ClineScript => script::install(before, command, ours),
        hosts::Kind::HookTables(tables, _) => hook_tables::install(before, tables, command, ours),
        hosts::Kind::HermesYaml(matchers) => yaml_hooks::install(before, command, *matchers, ours),
    }
}

/// The file without our entry of `kind`.
fn remove_from(
    kind: &hosts::Kind,
    text: &str,
    ours: &dyn Fn(&str) -> bool,
) -> Result<Removal, Located> {
    match kind {
        hosts::Kind::Json(layout) => json::uninstall(text, layout, ours),
        hosts::Kind::CodexToml(group) => toml::uninstall(text, group, ours),
        hosts::Kind::ClineScript => Ok(script::uninstall(text, ours)),
        hosts::Kind::HookTables(tables, _) => hook_tables::uninstall(text, tables, ours),
        hosts::Kind::HermesYaml(_) => Ok(yaml_hooks::uninstall(text, ours)),
    }
}

/// `text` (install's result so far, `outcome`) with our after-call entry (`kind`) added when
/// `file_tools`, taken out otherwise: the settings say what the last install was asked for.
fn after_entry(
    text: &str,
    outcome: Outcome,
    kind: &hosts::Kind,
    file_tools: bool,
    command: &str,
    ours: &dyn Fn(&str) -> bool,
) -> Result<(String, Outcome), Located> {
    let (text, changed) = if file_tools {
        let (text, after) = install_into(kind, Some(text), command, ours)?;
        (text, after != Outcome::AlreadyThere)
    } else {
        match remove_from(kind, text, ours)? {
            Removal::Text(text) => (text, true),
            Removal::NotThere | Removal::DeleteFile => (text.to_string(), false),
        }
    };
    let outcome = match outcome {
        Outcome::AlreadyThere | Outcome::Updated if changed => Outcome::Rematched,
        other => other,
    };
    Ok((text, outcome))
}

/// The changes that take our entries out of `host`'s `scope` settings, one per file that has
/// any.
pub fn plan_uninstall(host: Host, scope: Scope, loc: &Locations) -> Result<Vec<Change>, Problem> {
    let ours = |c: &str| is_ours(c, host);
    let mut changes = Vec::new();
    for target in hosts::targets(host, scope, loc, false)? {
        let Some(text) = hosts::read(&target.path)? else {
            continue;
        };
        // Our after-call and MCP entries go first; the entry before the call then decides
        // what is left, as it does on the hosts that have only that one.
        let mcp_kind = match &target.kind {
            hosts::Kind::Json(before) => hosts::mcp_layout(host, before).map(hosts::Kind::Json),
            _ => None,
        };
        let mut rest: Option<String> = None;
        for kind in [hosts::after_kind(host, &target.kind), mcp_kind]
            .into_iter()
            .flatten()
        {
            let current = rest.as_deref().unwrap_or(&text);
            match remove_from(&kind, current, &ours).map_err(|e| Problem::at(&target.path, e))? {
                Removal::Text(left) => rest = Some(left),
                Removal::NotThere | Removal::DeleteFile => {}
            }
        }
        let left = rest.as_deref().unwrap_or(&text);
        let removal =
            remove_from(&target.kind, left, &ours).map_err(|e| Problem::at(&target.path, e))?;
        let (after, outcome) = match (removal, rest) {
            (Removal::NotThere, None) => continue,
            (Removal::NotThere, Some(rest)) => (Some(rest), Outcome::Removed),
            (Removal::Text(after), _) => (Some(after), Outcome::Removed),
            (Removal::DeleteFile, _) => (None, Outcome::Deleted),
        };
        changes.push(Change {
            host,
            scope,
            path: target.path,
            outcome,
            before: Some(text),
            after,
            executable: false,
            file_tools: false,
            file_tools_named: false,
        });
    }
    Ok(changes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn our_command_is_told_by_name_and_host() {
        let bin = Path::new("/opt/my tools/agent-guard");
        let command = hook_command(bin, Host::Codex);
        if Os::CURRENT == Os::Unix {
            assert_eq!(command, "'/opt/my tools/agent-guard' hook --host codex");
        }
        assert!(is_ours(&command, Host::Codex));
        assert!(!is_ours(&command, Host::ClaudeCode));
        assert!(!is_ours("/opt/agent-guard hook --host codexx", Host::Codex));
        assert!(!is_ours("/opt/other hook --host codex", Host::Codex));
        assert_eq!(shell_quote("/a/{b,c}"), "'/a/{b,c}'");
    }

    #[test]
    fn a_windows_binary_is_written_with_slashes_for_bash_cmd_and_powershell() {
        let win = |p: &str| program(Os::Windows, p);
        assert_eq!(
            win(r"C:\Users\me\.cargo\bin\agent-guard.exe"),
            "C:/Users/me/.cargo/bin/agent-guard.exe"
        );
        assert_eq!(
            win(r"C:\Program Files\agent-guard\agent-guard.exe"),
            "\"C:/Program Files/agent-guard/agent-guard.exe\""
        );
        assert_eq!(
            win(r"\\server\tools\agent-guard.exe"),
            "//server/tools/agent-guard.exe"
        );
        assert_eq!(
            win(r"C:\Users\a$b\agent-guard.exe"),
            "'C:/Users/a$b/agent-guard.exe'"
        );
        let command = format!(
            "{} hook --host claude",
            win(r"D:\bin (x86)\agent-guard.exe")
        );
        assert!(is_ours(&command, Host::ClaudeCode));
    }
}
