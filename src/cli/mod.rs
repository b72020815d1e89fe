//! Command-line interface: argument parsing, then a call into the library. Thin on purpose.

mod check;
mod doctor;
mod explain;
mod hook;
mod install;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use crate::host::Host;
use crate::settings::Profile;

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
    after_help = "Settings (environment):\n  \
                  AGENT_GUARD_OFF=1                  disable the guard entirely\n  \
                  AGENT_GUARD_PROFILE=standard|strict  strict also stops every shell rm and commands named at run time\n  \
                  AGENT_GUARD_ON_DESTRUCTIVE=deny|ask  ask the user instead of denying (protected commands are always denied)\n  \
                  AGENT_GUARD_CONTEXT=on|off         consult the repository before judging (off: the rules alone)"
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
    },
    /// Check a command line and print the verdict, the rules that fired and why.
    ///
    /// Exit status: 0 allowed, 1 stopped (deny or ask), 2 usage error.
    Check {
        /// Print one JSON object: {"decision", "findings": [{"rule", "tier", "reason", "safer"}]}.
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
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Hook { host }) => hook::run(host),
        None if !std::io::stdin().is_terminal() => hook::run(None),
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
        Some(Command::Explain { rule }) => explain::run(rule.as_deref()),
        Some(Command::Install(args)) => install::run_install(&args),
        Some(Command::Uninstall(args)) => install::run_uninstall(&args),
        Some(Command::Doctor) => doctor::run(),
    }
}
