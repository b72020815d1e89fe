//! `agent-guard install` and `uninstall`: choose the hosts and scopes, plan each file's change
//! with [`crate::install`], then print it as a diff or apply it, one line per host.

use std::process::ExitCode;

use crate::host::Host;
use crate::install::{self, Backup, Change, Locations, Outcome, Plugin, Scope};

/// Which hosts and which of their settings.
#[derive(clap::Args)]
pub struct Args {
    /// A host (repeat it, or separate names with commas). Without it, install takes every host
    /// whose folder is in the project or in the home folder, and uninstall every host.
    #[arg(long = "host", value_name = "NAME", value_parser = target, value_delimiter = ',')]
    hosts: Vec<Target>,
    /// Only the project's settings (the git repository's top level, else this folder).
    #[arg(long, conflicts_with = "user")]
    project: bool,
    /// Only the settings in the home folder.
    #[arg(long)]
    user: bool,
    /// Print each file's change as a unified diff and change nothing.
    #[arg(long)]
    dry_run: bool,
    /// Send the host's file-writing tools to the hook too (the default where the host has
    /// them: Claude Code, Gemini CLI, Factory Droid), so writes to the guard's own files are
    /// refused, files the agent writes are claimed for it, and (Claude Code, Codex, Gemini CLI,
    /// Factory Droid, Qoder CLI, Qwen Code, Auggie, Cursor, with a hook after each call) the
    /// journal knows what agent sessions made. Uninstall takes every
    /// hook out either way.
    #[arg(long, conflicts_with = "no_file_tools")]
    file_tools: bool,
    /// Shell commands only: no file-writing tools, no hook after each call.
    #[arg(long)]
    no_file_tools: bool,
}

/// A host with a settings-file hook, or one whose guard is a plugin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    Host(Host),
    Plugin(Plugin),
}

fn target(name: &str) -> Result<Target, String> {
    if let Some(plugin) = Plugin::from_name(name) {
        return Ok(Target::Plugin(plugin));
    }
    Host::from_name(name).map(Target::Host).ok_or_else(|| {
        let names: Vec<&str> = Host::ALL
            .iter()
            .map(|h| h.name())
            .chain(Plugin::ALL.iter().map(|p| p.name()))
            .collect();
        format!("unknown host; one of: {}", names.join(", "))
    })
}

const FILE_TOOLS: &str = "File-writing tools go to the hook too where the host has them, and Claude Code, Codex, Gemini CLI, Factory Droid, Qoder CLI, Qwen Code, Auggie, Cursor, Copilot CLI, Kimi Code, Mistral Vibe, Windsurf and Hermes Agent report each call after it runs: agent-guard refuses writes to its own files and keeps a journal of what agent sessions make, so that they may delete or discard it again (snapshotted). `--no-file-tools` wires shell commands only.";

impl Args {
    fn forced(&self) -> Option<Scope> {
        match (self.project, self.user) {
            (true, _) => Some(Scope::Project),
            (_, true) => Some(Scope::User),
            _ => None,
        }
    }
}

/// The project and home folders, or the exit code after saying why they cannot be told.
pub(super) fn locations() -> Result<Locations, ExitCode> {
    let cwd = std::env::current_dir().map_err(|e| {
        eprintln!("agent-guard: cannot tell the current folder: {e}");
        ExitCode::from(2)
    })?;
    Locations::discover(&cwd).map_err(|e| {
        eprintln!("agent-guard: {e}");
        ExitCode::from(2)
    })
}

fn line(host: &str, scope: &str, what: &str) {
    println!("{host:<9} {scope:<8} {what}");
}

fn fail(host: &str, problem: impl std::fmt::Display, verb: &str) {
    eprintln!("agent-guard: {host}: {problem}");
    eprintln!("  left the file untouched: fix it and run `agent-guard {verb}` again");
}

/// Prints the diff (dry run) or applies the change, then the host's line.
fn carry_out(change: &Change, dry_run: bool) -> Result<(), ()> {
    let host = change.host.name();
    let mut what = format!("{}: {}", change.path.display(), change.describe(dry_run));
    if dry_run {
        print!("{}", change.diff());
    } else {
        match change.apply() {
            Ok(Backup::Written(path)) => what.push_str(&format!(" (backup: {})", path.display())),
            Ok(Backup::Restored(path)) => what.push_str(&format!(
                " (back to its original bytes; removed {})",
                path.display()
            )),
            Ok(Backup::Untouched) => {}
            Err(e) => {
                eprintln!(
                    "agent-guard: {host}: cannot write {}: {e}",
                    change.path.display()
                );
                return Err(());
            }
        }
    }
    line(host, change.scope.name(), &what);
    Ok(())
}

pub fn run_install(args: &Args) -> ExitCode {
    let loc = match locations() {
        Ok(loc) => loc,
        Err(code) => return code,
    };
    let binary = match std::env::current_exe() {
        Ok(path) => path,
        Err(e) => {
            eprintln!("agent-guard: cannot tell where this binary is, to name it in the hook: {e}");
            return ExitCode::from(2);
        }
    };
    let targets = match args.hosts.is_empty() {
        false => args.hosts.clone(),
        true => {
            let mut found: Vec<Target> = install::detect(&loc)
                .into_iter()
                .map(Target::Host)
                .collect();
            found.extend(
                Plugin::ALL
                    .into_iter()
                    .filter(|p| p.in_use(&loc))
                    .map(Target::Plugin),
            );
            found
        }
    };
    if targets.is_empty() {
        eprintln!(
            "agent-guard: found no agent host's folder in {} or {}; name one with --host NAME",
            loc.project
                .as_deref()
                .map_or("(no project)".into(), |p| p.display().to_string()),
            loc.home.display()
        );
        return ExitCode::from(1);
    }
    let mut failed = false;
    let mut steps: Vec<&str> = Vec::new();
    let mut shared = false;
    let file_tools = !args.no_file_tools;
    let mut wide = false;
    for target in targets {
        let host = match target {
            Target::Host(host) => host,
            Target::Plugin(plugin) => {
                line(plugin.name(), "-", plugin.install_steps());
                continue;
            }
        };
        let change = install::scope_for(host, &loc, args.forced())
            .map_err(|e| eprintln!("agent-guard: {}: {e}", host.name()))
            .and_then(|scope| {
                install::plan_install(host, scope, &loc, &binary, file_tools)
                    .map_err(|p| fail(host.name(), p, "install"))
            })
            .map(|change| match args.file_tools {
                true => change,
                false => change.by_default(),
            });
        match change {
            Ok(change) => {
                wide |= file_tools && install::takes_file_tools(host);
                failed |= carry_out(&change, args.dry_run).is_err();
                if change.outcome != Outcome::AlreadyThere {
                    shared |= change.scope == Scope::Project;
                    steps.extend(install::manual_steps(host, change.scope));
                }
            }
            Err(()) => failed = true,
        }
    }
    if wide {
        println!("\n{FILE_TOOLS}");
    }
    if shared {
        steps.push(
            "Project settings now name this machine's binary: commit them only if everyone has agent-guard at the same path.",
        );
    }
    if !steps.is_empty() {
        println!("\nStill to do by hand:");
        for step in steps {
            println!("  - {step}");
        }
    }
    exit(failed)
}

pub fn run_uninstall(args: &Args) -> ExitCode {
    let loc = match locations() {
        Ok(loc) => loc,
        Err(code) => return code,
    };
    let targets: Vec<Target> = match args.hosts.is_empty() {
        false => args.hosts.clone(),
        true => Host::ALL.into_iter().map(Target::Host).collect(),
    };
    let scopes: Vec<Scope> = match args.forced() {
        Some(Scope::Project) if loc.project.is_none() => {
            eprintln!(
                "agent-guard: not inside a project (the working folder is the home folder); use --user"
            );
            return ExitCode::from(2);
        }
        Some(scope) => vec![scope],
        None => vec![Scope::Project, Scope::User],
    };
    let mut failed = false;
    let mut any = false;
    for target in targets {
        let host = match target {
            Target::Host(host) => host,
            Target::Plugin(plugin) => {
                line(plugin.name(), "-", plugin.uninstall_steps());
                continue;
            }
        };
        for &scope in &scopes {
            match install::plan_uninstall(host, scope, &loc) {
                Ok(changes) => {
                    for change in changes {
                        any = true;
                        failed |= carry_out(&change, args.dry_run).is_err();
                    }
                }
                Err(problem) => {
                    fail(host.name(), problem, "uninstall");
                    failed = true;
                }
            }
        }
    }
    if !any && !failed {
        println!("agent-guard is not wired into any host here; nothing to remove");
    }
    exit(failed)
}

fn exit(failed: bool) -> ExitCode {
    match failed {
        true => ExitCode::from(1),
        false => ExitCode::SUCCESS,
    }
}
