//! `agent-guard ui`: the local web page (see [`crate::ui`]).

use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// The port to listen on (default: any free one).
    #[arg(long, value_name = "N", default_value_t = 0)]
    port: u16,
    /// Print the address without opening a browser.
    #[arg(long)]
    no_open: bool,
    /// A folder in the repository whose snapshots and policy to show (default: the current one).
    #[arg(long, value_name = "DIR")]
    cwd: Option<PathBuf>,
}

pub fn run(args: &Args) -> ExitCode {
    let dir = match super::folder(args.cwd.as_ref()) {
        Ok(dir) => dir,
        Err(code) => return code,
    };
    crate::ui::run(&crate::ui::Options {
        port: args.port,
        open: !args.no_open,
        dir,
    })
}
