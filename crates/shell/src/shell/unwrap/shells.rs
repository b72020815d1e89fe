//! Shells: `sh -c SCRIPT`, a script file, or a bare shell reading its stdin.

use super::{Run, SimpleCommand, Via};

pub(in crate::shell) fn is_shell(name: &str) -> bool {
    matches!(
        name,
        "sh" | "bash" | "zsh" | "dash" | "ksh" | "mksh" | "ash" | "yash" | "fish"
    )
}

/// `bash [options] -c SCRIPT`, `bash script.sh`, or a bare shell reading stdin.
pub(super) fn shell(cmd: SimpleCommand) -> Run {
    let mut i = 1;
    let mut has_c = false;
    while let Some(word) = cmd.argv.get(i) {
        let w = word.text.as_str();
        if w == "--" || w == "-" {
            i += 1;
            break;
        }
        if w.starts_with("--") {
            i += if matches!(w, "--rcfile" | "--init-file") {
                2
            } else {
                1
            };
            continue;
        }
        if w.len() > 1 && (w.starts_with('-') || w.starts_with('+')) {
            for c in w[1..].chars() {
                match c {
                    'c' => has_c = true,
                    'o' | 'O' => i += 1, // `-o pipefail`: the option name is the next word
                    _ => {}
                }
            }
            i += 1;
            continue;
        }
        break;
    }
    if has_c {
        return match cmd.argv.get(i) {
            Some(word) => {
                let (script, literal) = (word.text.clone(), word.literal);
                Run::Script {
                    cmd,
                    script,
                    via: Via::ShellArgument,
                    literal,
                }
            }
            None => Run::Nothing,
        };
    }
    if let Some(file) = cmd.argv.get(i).cloned() {
        Run::ScriptFile { cmd, file }
    } else {
        Run::ShellReadingStdin {
            cmd,
            via: Via::ShellStdin,
        }
    }
}
