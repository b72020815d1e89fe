//! Shells: `sh -c SCRIPT`, a script file, or a bare shell reading its stdin.

use super::{Run, SimpleCommand, Via, Word};
use crate::syntax::argv::{self, Options, Spelling, Style, Takes};

pub(in crate::shell) fn is_shell(name: &str) -> bool {
    matches!(
        name,
        "sh" | "bash" | "zsh" | "dash" | "ksh" | "mksh" | "ash" | "yash" | "fish"
    )
}

/// A shell's options that take a value: bash's `--rcfile FILE` and `--init-file FILE`, and
/// the setting `-o NAME` / `-O NAME` names, in the next word whatever follows in the cluster.
struct ShellTable;

impl Options for ShellTable {
    fn long(&self, name: &str) -> Option<Takes> {
        Some(match name {
            "rcfile" | "init-file" => Takes::Value,
            _ => Takes::Nothing,
        })
    }
    fn short(&self, letter: char) -> Option<Takes> {
        Some(match letter {
            'o' | 'O' => Takes::Next,
            _ => Takes::Nothing,
        })
    }
}

/// One option given to a shell or to `set`.
pub(in crate::shell) struct ShellOpt {
    /// The letter (`e`, `o`) or long name (`rcfile`).
    pub(in crate::shell) name: String,
    /// `-x` turns its setting on, `+x` off.
    pub(in crate::shell) on: bool,
    /// The setting `-o NAME` / `-O NAME` names.
    pub(in crate::shell) setting: Option<String>,
}

/// A shell's options (`bash -eo pipefail -c`, `set +a -o allexport`), and the index in the
/// words read of the first one after them: `-c`'s script, a script file, `set`'s operands.
pub(in crate::shell) struct ShellOptions {
    pub(in crate::shell) opts: Vec<ShellOpt>,
    pub(in crate::shell) end: usize,
}

/// Reads a shell's options from `args` (the words after its name). A lone `-` ends the
/// options and is no operand.
pub(in crate::shell) fn shell_options(args: &[Word]) -> ShellOptions {
    let head = argv::read_head(args, Style::Shell, &ShellTable);
    let opts = head
        .opts
        .iter()
        .map(|opt| ShellOpt {
            name: opt.name.to_string(),
            on: opt.on(),
            setting: (opt.spelling != Spelling::Long && matches!(opt.name, "o" | "O"))
                .then(|| opt.value.map(str::to_string))
                .flatten(),
        })
        .collect();
    let stop = head.stopped_at.unwrap_or(args.len());
    let dash = args.get(stop).is_some_and(|w| w.text == "-");
    ShellOptions {
        opts,
        end: stop + usize::from(dash),
    }
}

/// `bash [options] -c SCRIPT`, `bash script.sh`, or a bare shell reading stdin.
pub(super) fn shell(cmd: SimpleCommand) -> Run {
    let read = shell_options(cmd.argv.get(1..).unwrap_or_default());
    let has_c = read.opts.iter().any(|o| o.name == "c");
    let i = 1 + read.end;
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
