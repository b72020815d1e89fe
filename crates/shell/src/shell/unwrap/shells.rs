//! Shells: `sh -c SCRIPT`, a script file, or a bare shell reading its stdin.

use super::{Run, SimpleCommand, Via, Word};
use crate::syntax::argv::{self, Spelling, Style, Valued};

pub(in crate::shell) fn is_shell(name: &str) -> bool {
    matches!(
        name,
        "sh" | "bash" | "zsh" | "dash" | "ksh" | "mksh" | "ash" | "yash" | "fish"
    )
}

/// A shell's options that take a value: bash's `--rcfile FILE`, `--init-file FILE`.
const SHELL: Valued = Valued(&["rcfile", "init-file"]);

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

/// Reads a shell's options from `args` (the words after its name). `-o` and `-O` take the
/// next word whatever follows them in their cluster (`-oe pipefail`), so each is read as a
/// flag and given the next word left once the cluster is read. The argv model reads options
/// spelt with `-` only: a `+x` word is read as its `-x` twin and marked off. A lone `-`
/// ends the options and is no operand.
pub(in crate::shell) fn shell_options(args: &[Word]) -> ShellOptions {
    let off: Vec<bool> = args
        .iter()
        .map(|w| w.text.len() > 1 && w.text.starts_with('+'))
        .collect();
    let words: Vec<Word> = args
        .iter()
        .zip(&off)
        .map(|(w, &off)| match off {
            true => Word {
                text: format!("-{}", &w.text[1..]),
                ..w.clone()
            },
            false => w.clone(),
        })
        .collect();
    let mut opts = Vec::new();
    let mut from = 0;
    loop {
        let head = argv::read_head(words.get(from..).unwrap_or_default(), Style::Getopt, &SHELL);
        let stop = head.stopped_at.map_or(words.len(), |at| from + at);
        let mut next = stop;
        for opt in &head.opts {
            let names = opt.spelling == Spelling::Short && matches!(opt.name, "o" | "O");
            let setting = names.then(|| {
                next += 1;
                args.get(next - 1).map(|w| w.text.clone())
            });
            opts.push(ShellOpt {
                name: opt.name.to_string(),
                on: !off.get(from + opt.word).is_some_and(|off| *off),
                setting: setting.flatten(),
            });
        }
        if next == stop {
            let dash = args.get(stop).is_some_and(|w| w.text == "-");
            let end = stop + usize::from(dash);
            return ShellOptions { opts, end };
        }
        from = next.min(words.len());
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
