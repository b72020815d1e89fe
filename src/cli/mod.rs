//! Command-line interface: argument parsing, then a call into the library. Thin on purpose.

mod check;
mod claim;
mod config;
mod doctor;
mod explain;
pub mod hook;
mod install;
mod log;
mod progress;
mod replay;
mod report;
mod rm;
mod snapshots;
mod stats;
mod trash;
mod ui;
mod undo;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use crate::host::Host;
use crate::settings::Profile;

/// The hook's own invocations (`agent-guard`, `agent-guard hook`, `agent-guard hook --host
/// NAME`, with `--after` last as install writes it), recognised without building the whole
/// parser: the hook runs before every shell command, and describing twenty subcommands to clap
/// costs more than judging the command. Anything else, a mistyped host included, goes through
/// clap and its error messages.
fn plain_hook() -> Option<(Option<Host>, bool)> {
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let text: Vec<&str> = args.iter().map(|a| a.to_str()).collect::<Option<_>>()?;
    let (text, after) = match text.as_slice() {
        ["hook", rest @ .., "--after"] => (rest, true),
        [] if !std::io::stdin().is_terminal() => return Some((None, false)),
        ["hook", rest @ ..] => (rest, false),
        _ => return None,
    };
    let host = match text {
        [] => None,
        ["--host", name] => Some(Host::from_name(name)?),
        [flag] => match flag.split_once('=') {
            Some(("--host", name)) => Some(Host::from_name(name)?),
            _ => return None,
        },
        _ => return None,
    };
    Some((host, after))
}

/// A `--cwd DIR` that is no directory is a usage error (exit 2), said on stderr.
fn check_cwd(cwd: Option<&PathBuf>) -> Result<(), ExitCode> {
    match cwd {
        Some(dir) if !dir.is_dir() => {
            eprintln!("agent-guard: --cwd {}: not a directory", dir.display());
            Err(ExitCode::from(2))
        }
        _ => Ok(()),
    }
}

/// The folder to work in: `--cwd` (which must exist) or the current one.
fn folder(cwd: Option<&PathBuf>) -> Result<PathBuf, ExitCode> {
    check_cwd(cwd)?;
    match cwd {
        Some(dir) => Ok(dir.clone()),
        None => std::env::current_dir().map_err(|e| {
            eprintln!("agent-guard: no current directory: {e}");
            ExitCode::from(2)
        }),
    }
}

fn host_name(name: &str) -> Result<Host, String> {
    Host::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Host::ALL.iter().map(|h| h.name()).collect();
        format!("unknown host; one of: {}", names.join(", "))
    })
}

#[derive(Parser)]
#[command(
    name = "agent-guard",
    version,
    about = "Stops the shell commands an AI coding agent runs that would destroy work",
    long_about = "Stops the shell commands an AI coding agent runs that would destroy work: \
                  `git reset --hard`, `git clean -f`, `git push --force`, `rm -rf` and their \
                  kin, wherever they stand in the command line. The safe twins pass, and every \
                  stop names the safer command to run instead.\n\n\
                  Run with no subcommand and a payload on stdin, it answers as a hook.",
    after_help = "Settings: `.agent-guard.toml` at the repository root, then \
                  ~/.config/agent-guard/config.toml (or the file AGENT_GUARD_CONFIG names); \
                  `agent-guard config` shows the effective ones. The environment wins over both:\n  \
                  AGENT_GUARD_OFF=1                  let everything through (still audited)\n  \
                  AGENT_GUARD_MODE=enforce|observe   observe: stop nothing, log every would-be stop\n  \
                  AGENT_GUARD_PROFILE=standard|strict  strict also stops every shell rm and commands named at run time\n  \
                  AGENT_GUARD_ON_DESTRUCTIVE=deny|ask  ask the user instead of denying (protected commands are always denied)\n  \
                  AGENT_GUARD_CONTEXT=on|off         consult the repository before judging (off: the rules alone)\n  \
                  AGENT_GUARD_REGENERABLE=a,b        output folders whose ignored contents a build recreates"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Answer a pre-tool-use hook: read the host's JSON on stdin, print its verdict.
    ///
    /// Allowed: exit 0 and nothing on stdout. Stopped: one JSON object in the host's dialect.
    /// Anything it cannot read (another tool, malformed JSON) is allowed silently.
    /// This is the default when stdin is not a terminal.
    Hook {
        /// The host whose dialect to speak; without it, the payload's shape decides.
        #[arg(long, value_name = "NAME", value_parser = host_name)]
        host: Option<Host>,
        /// The payload reports a call that has run (for hosts whose payload does not name its
        /// event, such as Copilot CLI's postToolUse): record what it wrote, print nothing.
        #[arg(long)]
        after: bool,
    },
    /// Check a command line and print the verdict, the rules that fired and why.
    ///
    /// Exit status: 0 allowed, 1 stopped (deny or ask), 2 usage error.
    Check {
        /// Print one JSON object: {"decision", "findings": [{"rule", "tier", "reason", "safer"}],
        /// "overridden", "override", "cleared", "exempted", "rewrite", "observed"}.
        #[arg(long)]
        json: bool,
        /// The folder the command would run in (default: the current one).
        #[arg(long, value_name = "DIR")]
        cwd: Option<PathBuf>,
        /// Override AGENT_GUARD_PROFILE.
        #[arg(long, value_enum)]
        profile: Option<ProfileArg>,
        /// The command line, as one argument or as several words after `--`.
        #[arg(
            required = true,
            trailing_var_arg = true,
            allow_hyphen_values = true,
            value_name = "COMMAND"
        )]
        command: Vec<String>,
    },
    /// Show what a rule catches, why it matters and what to do instead; with no id, list rules.
    Explain {
        /// A rule id such as `git.reset-hard`.
        rule: Option<String>,
        /// List the packs (rule families for databases, clusters, cloud, ...) and whether
        /// the configuration here has each on.
        #[arg(long, conflicts_with = "rule")]
        packs: bool,
    },
    /// Wire the guard into each agent host's settings: the hosts found here, or those named.
    ///
    /// Project settings when the project has the host's folder, else the user's; existing
    /// settings are merged into and kept byte for byte, each changed file is first copied to
    /// `<file>.agent-guard.bak`, and running it again changes nothing. Ends with what is left
    /// to do by hand.
    Install(install::Args),
    /// Take out exactly what `install` added (in both scopes unless one is named).
    Uninstall(install::Args),
    /// Check every host in use: wired, runs, stops a destructive command, passes a harmless one.
    ///
    /// Exit status: 0 when every host found is healthy, 1 otherwise.
    Doctor,
    /// Remove untracked local outputs inside a root, into a trash `restore` brings back from.
    ///
    /// The guarded delete for agents: each PATH must be strictly inside --root once symbolic
    /// links are resolved, hold nothing git tracks and no uncommitted change, stay on the
    /// root's filesystem, hold no repository store, and not be claimed by another session.
    /// Never the root itself, `/`, a system folder, the home folder, the current directory or
    /// `.git`. Tracked files go with `git rm` instead. One refused target refuses them all.
    ///
    /// Without --yes it only shows what would go, each target with its entry count and size.
    /// With --yes it checks again, then moves the targets into the trash: the repository's
    /// (`.git/agent-guard/trash`, shared by its worktrees) when the root is in one, else
    /// `$XDG_DATA_HOME/agent-guard/trash` (default `~/.local/share/agent-guard/trash`; on
    /// Windows `%LOCALAPPDATA%\agent-guard\trash`).
    ///
    /// Exit status: 0 removed or previewed, 1 refused or failed, 2 usage error.
    Rm(rm::Args),
    /// Bring back what `agent-guard rm` moved to the trash: the latest removal, or one by id.
    ///
    /// Every path goes back where it was, byte for byte, with its permissions and symbolic
    /// links. Nothing is overwritten: when a path exists again, nothing is restored.
    ///
    /// Exit status: 0 restored, 1 refused or failed.
    Restore(trash::RestoreArgs),
    /// List the removals in the trash, or empty it with --purge (--older-than to keep recent ones).
    ///
    /// The trash is the current repository's (or, with -C, the one of DIR's repository), or
    /// the user's outside any repository.
    Trash(trash::TrashArgs),
    /// Claim paths for this session, so that other agents' `agent-guard rm` leaves them alone.
    ///
    /// A claim lasts while its process runs (by default the agent process that started this
    /// command) and at most --ttl. The session is AGENT_GUARD_SESSION when set; otherwise one
    /// is named after that process. Claims are kept in the repository's git folder and shared
    /// by its worktrees. A path another live session holds (or one above or inside it) is
    /// refused, and the session holding it is named.
    ///
    /// Exit status: 0 claimed, 1 refused or failed.
    Claim(claim::ClaimArgs),
    /// Release this session's claims: on the paths given, or all of them in this repository.
    ///
    /// Exit status: 0 released, 1 when a path given holds no claim of this session.
    Release(claim::ReleaseArgs),
    /// List the live claims in this repository: path, session, process, age and expiry.
    Claims(claim::ClaimsArgs),
    /// Show the effective settings for a folder and where each came from.
    ///
    /// Defaults, then the user's ~/.config/agent-guard/config.toml (or the file
    /// AGENT_GUARD_CONFIG names), then the repository's .agent-guard.toml, then the
    /// environment. Problems in the files are listed with file, line and key.
    ///
    /// Exit status: 0 when the configuration has no problem, 1 otherwise, 2 usage error.
    Config(config::Args),
    /// Show the audit log: every stop, ask, override, observed stop and internal error.
    ///
    /// One line a record (time, decision, rules, command, host, folder, snapshot), or with
    /// --json the records as stored. The log is $XDG_STATE_HOME/agent-guard/audit.jsonl
    /// (default ~/.local/state/agent-guard/audit.jsonl; on Windows
    /// %LOCALAPPDATA%\agent-guard\audit.jsonl).
    Log(log::Args),
    /// Count the audit log's records by decision, rule and repository.
    Stats(stats::Args),
    /// Report what the guard did, from the audit log: text here, or an HTML page with charts.
    ///
    /// The stops, asks, overrides, observed stops and internal errors by day, decision,
    /// rule, host and repository, the commands stopped most, and each stop with what it
    /// would have destroyed and the command to run instead. With --html FILE, one
    /// self-contained page (charts as inline SVG, no script, nothing loaded from elsewhere).
    ///
    /// Exit status: 0 reported, 1 the log or the page could not be read or written.
    Report(report::Args),
    /// Show what the guard would have stopped in past agent sessions.
    ///
    /// Reads Claude Code transcripts (~/.claude/projects/**/*.jsonl), Codex rollouts
    /// (~/.codex/sessions/**/*.jsonl), Gemini CLI chats (~/.gemini/tmp/*/chats/session-*.jsonl or .json) and
    /// plain files (one command a line, or JSONL objects with a "command"), and lists every
    /// command the guard would stop, by rule and by session, with the share stopped. Nothing
    /// is run, and nothing is written but the page --html asks for.
    ///
    /// Exit status: 0 read and judged, 1 no session records found, 2 usage error.
    Replay(replay::Args),
    /// List the snapshots taken in this repository before destructive commands ran.
    ///
    /// Newest first: id, time, the size of what it saved, and the command it was taken for.
    Snapshots(snapshots::Args),
    /// Restore the newest snapshot (or the one named) into the working tree.
    ///
    /// A file comes back when it is missing or still holds what git has for it; a file that
    /// changed after the snapshot is kept unless --force (which snapshots it first). The
    /// index and the branches are left alone; moved or deleted refs are named with the
    /// command that puts them back.
    ///
    /// Exit status: 0 restored (or nothing to do), 1 some files were kept, 2 no snapshot or
    /// usage error.
    Undo(undo::Args),
    /// Open a local web page: the stops, a replay of past sessions, the snapshots and their
    /// undo, and the policy files.
    ///
    /// Serves on 127.0.0.1 only and prints the page's address, which holds a random token;
    /// requests without it, naming another host, or writing from another site are refused.
    /// Runs until stopped (Ctrl-C).
    Ui(ui::Args),
}

#[derive(Clone, Copy, ValueEnum)]
enum ProfileArg {
    Standard,
    Strict,
}

impl From<ProfileArg> for Profile {
    fn from(p: ProfileArg) -> Self {
        match p {
            ProfileArg::Standard => Profile::Standard,
            ProfileArg::Strict => Profile::Strict,
        }
    }
}

pub fn main() -> ExitCode {
    if let Some((host, after)) = plain_hook() {
        return hook::run(host, after);
    }
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Hook { host, after }) => hook::run(host, after),
        None if !std::io::stdin().is_terminal() => hook::run(None, false),
        None => {
            use clap::CommandFactory;
            let _ = Cli::command().print_help();
            ExitCode::from(2)
        }
        Some(Command::Check {
            json,
            cwd,
            profile,
            command,
        }) => check::run(&command.join(" "), cwd, profile.map(Into::into), json),
        Some(Command::Explain { rule, packs }) => explain::run(rule.as_deref(), packs),
        Some(Command::Install(args)) => install::run_install(&args),
        Some(Command::Uninstall(args)) => install::run_uninstall(&args),
        Some(Command::Doctor) => doctor::run(),
        Some(Command::Rm(args)) => rm::run(&args),
        Some(Command::Restore(args)) => trash::run_restore(&args),
        Some(Command::Trash(args)) => trash::run_trash(&args),
        Some(Command::Claim(args)) => claim::run_claim(&args),
        Some(Command::Release(args)) => claim::run_release(&args),
        Some(Command::Claims(args)) => claim::run_claims(&args),
        Some(Command::Config(args)) => config::run(&args),
        Some(Command::Log(args)) => log::run(&args),
        Some(Command::Stats(args)) => stats::run(&args),
        Some(Command::Report(args)) => report::run(&args),
        Some(Command::Replay(args)) => replay::run(&args),
        Some(Command::Snapshots(args)) => snapshots::run(&args),
        Some(Command::Undo(args)) => undo::run(&args),
        Some(Command::Ui(args)) => ui::run(&args),
    }
}
