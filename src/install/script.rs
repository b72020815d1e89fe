//! Cline's hook: an executable file named after the event (`PreToolUse`) that Cline runs with
//! the payload on stdin. There is one such file per folder, so ours is a two-line shell script
//! that hands over to the binary; a file that is somebody else's script is never rewritten.

use super::{Located, Outcome, Removal};

const HEADER: &str =
    "#!/bin/sh\n# Written by `agent-guard install`: Cline runs this before every tool call.\n";

/// The script for `command_line`.
pub fn script(command_line: &str) -> String {
    format!("{HEADER}exec {command_line}\n")
}

/// The command our script hands over to, when the file is ours.
pub fn command(text: &str, ours: &dyn Fn(&str) -> bool) -> Option<String> {
    text.lines()
        .filter_map(|line| line.trim().strip_prefix("exec "))
        .find(|c| ours(c))
        .map(str::to_string)
}

/// The file with our command in it, or an error when it is another hook.
pub fn install(
    text: Option<&str>,
    command_line: &str,
    ours: &dyn Fn(&str) -> bool,
) -> Result<(String, Outcome), Located> {
    let Some(text) = text else {
        return Ok((script(command_line), Outcome::Created));
    };
    match command(text, ours) {
        Some(current) if current == command_line => Ok((text.to_string(), Outcome::AlreadyThere)),
        Some(current) => Ok((text.replacen(&current, command_line, 1), Outcome::Updated)),
        None => Err(Located {
            line: 1,
            column: 1,
            message: format!(
                "this is another PreToolUse hook, and Cline runs one per folder; call `{command_line}` \
                 from it (pass it the hook's stdin and print what it prints)"
            ),
        }),
    }
}

/// Our script goes; in a script the user extended, only our line does.
pub fn uninstall(text: &str, ours: &dyn Fn(&str) -> bool) -> Removal {
    match command(text, ours) {
        None => Removal::NotThere,
        Some(current) if text == script(&current) => Removal::DeleteFile,
        Some(current) => Removal::Text(
            text.lines()
                .filter(|line| line.trim() != format!("exec {current}"))
                .map(|line| format!("{line}\n"))
                .collect(),
        ),
    }
}
