//! `agent-guard hook`: the hot path. Read stdin, judge, answer, exit 0.

use std::io::{Read, Write};
use std::process::ExitCode;

use crate::host::{self, Host, Reply};
use crate::settings::Settings;

pub fn run(host: Option<Host>) -> ExitCode {
    let (settings, bad) = Settings::from_env();
    for problem in &bad {
        eprintln!("{problem}");
    }
    if settings.off {
        return ExitCode::SUCCESS;
    }
    let mut input = Vec::new();
    if std::io::stdin().read_to_end(&mut input).is_err() {
        return ExitCode::SUCCESS;
    }
    // An internal error must never break the agent's workflow: allow, exit 0, say so on stderr.
    std::panic::set_hook(Box::new(|info| {
        eprintln!("agent-guard: internal error ({info}); allowing the command");
    }));
    let reply = std::panic::catch_unwind(|| respond(&input, host, &settings))
        .unwrap_or_else(|_| Reply::silent());
    if let Some(out) = &reply.stdout {
        let mut stdout = std::io::stdout().lock();
        let _ = writeln!(stdout, "{out}");
        let _ = stdout.flush();
    }
    if let Some(err) = &reply.stderr {
        eprintln!("{err}");
    }
    ExitCode::from(reply.exit_code.clamp(0, 255) as u8)
}

/// The whole hook: payload bytes in, the host's reply out.
pub fn respond(input: &[u8], host: Option<Host>, settings: &Settings) -> Reply {
    let Some(call) = host::decode(input, host) else {
        return Reply::silent();
    };
    let verdict = crate::evaluate_in(&call.command, call.cwd.as_deref(), settings);
    host::encode(&call, &verdict)
}
