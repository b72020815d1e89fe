//! What each host reads, from its declaration ([`crate::host::HostSpec::wiring`]): its folders
//! in a project and in the home folder, the settings file that holds its hooks, the entry we
//! add there, and what is left to do by hand.

use std::path::{Path, PathBuf};

use super::json::Layout;
use super::yaml_hooks;
use super::{Locations, Problem, Scope};
use crate::host::Host;
use crate::host::wiring::{
    Choice, Fits, Format, Group, JsonHook, Project, SettingsFile, Tables, UserFolder, Wiring,
};

/// How a settings file holds hooks, with the tools install writes for.
#[derive(Debug, Clone)]
pub enum Kind {
    Json(Layout),
    /// Codex's `config.toml` with inline `[[hooks.<Event>]]` tables.
    CodexToml(Group),
    /// Cline's executable `PreToolUse` file.
    ClineScript,
    /// A `[[hooks]]` table per hook: Mistral Vibe's `hooks.toml`, Kimi Code's `config.toml`.
    /// The table for the call after it ran goes with it.
    HookTables(Tables, Option<Tables>),
    /// Hermes Agent's `config.yaml`, with our `hooks:` block for these tools.
    HermesYaml(yaml_hooks::Matchers),
}

/// One settings file a host reads hooks from.
#[derive(Debug, Clone)]
pub struct Target {
    pub path: PathBuf,
    pub kind: Kind,
}

fn wiring(host: Host) -> &'static Wiring {
    &host.spec().wiring
}

/// The event and matcher our entry uses, for messages.
pub fn event(host: Host, file_tools: bool) -> (&'static str, Option<&'static str>) {
    (wiring(host).event, wiring(host).matcher(file_tools))
}

/// The event that reports each call to the hook after it ran, on the hosts where install wires
/// one (with the file-writing tools): what agent sessions made goes into the journal.
pub fn after_event(host: Host) -> Option<&'static str> {
    host.spec().after.map(|after| after.event)
}

/// Whether our entry after the call is written whatever `--file-tools` says: Hermes Agent's
/// block holds both events.
pub fn after_always(host: Host) -> bool {
    let wiring = wiring(host);
    let project = wiring.project.map_or(&[][..], |p| p.files);
    project
        .iter()
        .chain(wiring.user.files)
        .any(|file| matches!(file.format, Format::HermesYaml))
}

/// Our after-call entry in a JSON settings file whose entry before the call is `before`: the
/// same tools, under [`after_event`] in the same place (Droid's `hooks.json` keys events at
/// its top level).
fn after_layout(host: Host, before: &Layout) -> Option<Layout> {
    let event = after_event(host)?;
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

/// The command of our after-call entry, install's `command` for the call before. A host whose
/// after-call payload does not name its event (Copilot CLI's `postToolUse` is its `preToolUse`
/// with the result added) is told by the command.
pub fn after_command(host: Host, command: &str) -> String {
    match host.spec().after {
        Some(after) if !after.named => format!("{command} --after"),
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
        Kind::HookTables(_, after) => after.map(|tables| Kind::HookTables(tables, None)),
        Kind::ClineScript | Kind::HermesYaml(_) => None,
    }
}

/// The event that sends MCP tool calls to the hook on the hosts whose shell event does not:
/// Cursor's `beforeMCPExecution` and Windsurf's `pre_mcp_tool_use` (their hooks docs). Install
/// writes the same command there, whatever `--file-tools` says.
pub fn mcp_event(host: Host) -> Option<&'static str> {
    wiring(host).mcp_event
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
    wiring(host).file_tools_matcher.is_some()
}

/// What our entry looks like in a JSON settings file, with the matcher install writes (finding
/// our entries does not look at it).
fn layout(hook: &JsonHook, matcher: Option<&'static str>) -> Layout {
    Layout {
        preamble: hook.preamble.to_vec(),
        path: hook.path.to_vec(),
        // A group without a matcher takes every tool.
        group: hook.grouped.then(|| matcher.unwrap_or("")),
        command_key: hook.command_key,
        handler: hook.handler,
        twin: hook.twin,
    }
}

/// The folder of `host`'s settings in a project, whose presence says the project uses it.
pub fn project_marker(host: Host) -> &'static str {
    wiring(host).marker
}

/// Whether `host` keeps settings in this project. For Copilot that needs `.github/hooks/`: a
/// `.github/` folder alone is every GitHub repository.
pub fn in_project(host: Host, root: &Path) -> bool {
    root.join(project_marker(host)).is_dir()
}

/// Whether the project can take `host`'s project-scope settings: the folder it reads exists
/// (or one it can be made in), or for a host whose marker folder says nothing of its settings,
/// one of its settings files.
pub fn project_scope_fits(host: Host, root: &Path) -> bool {
    match wiring(host).project {
        None => false,
        Some(Project {
            fits: Fits::Marker, ..
        }) => in_project(host, root),
        Some(Project {
            fits: Fits::Folder(folder),
            ..
        }) => root.join(folder).is_dir(),
        Some(Project {
            fits: Fits::SettingsFile,
            files,
            ..
        }) => files.iter().any(|f| root.join(f.name).is_file()),
    }
}

/// Whether `host` reads hooks from a project's settings at all.
pub fn has_project_scope(host: Host) -> bool {
    wiring(host).project.is_some()
}

/// `host`'s folder in the home folder (or where its environment variable moved it).
pub fn user_dir(host: Host, loc: &Locations) -> PathBuf {
    let user = &wiring(host).user;
    (user.moved)(loc).unwrap_or_else(|| below(&loc.home, user.home))
}

fn below(base: &Path, folders: &[&str]) -> PathBuf {
    folders
        .iter()
        .fold(base.to_path_buf(), |path, f| path.join(f))
}

/// The folder the scope's settings files live in, and the files.
fn settings(
    host: Host,
    scope: Scope,
    loc: &Locations,
) -> Option<(PathBuf, &'static [SettingsFile], Choice)> {
    let wiring = wiring(host);
    Some(match scope {
        Scope::Project => {
            let root = loc.project.as_ref()?;
            let project = wiring.project?;
            let dir = match project.folder {
                Some(folders) => below(&root.join(wiring.marker), folders),
                None => root.clone(),
            };
            (dir, project.files, project.choice)
        }
        Scope::User => {
            let user = &wiring.user;
            let dir = match user.folder {
                UserFolder::Own(folders) => below(&user_dir(host, loc), folders),
                UserFolder::Home(folders) => below(&loc.home, folders),
            };
            (dir, user.files, user.choice)
        }
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
    let Some((dir, files, choice)) = settings(host, scope, loc) else {
        return Ok(Vec::new());
    };
    let matcher = wiring(host).matcher(file_tools);
    let target = |file: &SettingsFile| Target {
        path: dir.join(file.name),
        kind: match file.format {
            Format::Json(hook) => Kind::Json(layout(&hook, matcher)),
            Format::CodexToml(group) => Kind::CodexToml(group),
            Format::ClineScript => Kind::ClineScript,
            Format::HookTables { before, after } => Kind::HookTables(before, after),
            Format::HermesYaml => Kind::HermesYaml(yaml_hooks::Matchers {
                before: matcher.unwrap_or("terminal"),
                after: matcher.map_or("terminal", without_mcp),
            }),
        },
    };
    let mut targets: Vec<Target> = files.iter().map(target).collect();
    match choice {
        Choice::Listed => {}
        Choice::Existing => targets.sort_by_key(|t| !t.path.is_file()),
        Choice::InlineToml => {
            let mut inline = false;
            for toml in targets
                .iter()
                .filter(|t| matches!(t.kind, Kind::CodexToml(_)))
            {
                if let Some(text) = read(&toml.path)? {
                    inline |=
                        super::toml::keeps_hooks(&text).map_err(|e| Problem::at(&toml.path, e))?;
                }
            }
            if inline {
                targets.sort_by_key(|t| !matches!(t.kind, Kind::CodexToml(_)));
            }
        }
        Choice::FirstWhenPresent => {
            let Some(first) = targets.first_mut() else {
                return Ok(targets);
            };
            match read(&first.path)? {
                Some(text) => {
                    if let Kind::Json(own) = &mut first.kind
                        && !super::json::has_object(&text, "hooks")
                    {
                        own.path = own.path.split_off(own.path.len().saturating_sub(1));
                    }
                }
                None => {
                    targets.remove(0);
                }
            }
        }
    }
    Ok(targets)
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
    match scope {
        Scope::Project => wiring(host).project_steps,
        Scope::User => wiring(host).user_steps,
    }
}
