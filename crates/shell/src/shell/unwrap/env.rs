//! `env`: assignments, a directory to run in, and a command or a script (`-S`).

use super::{SimpleCommand, Start, Word, is_name};
use crate::syntax::argv::{self, Opt, Spelling, Style, Valued};

/// env's options that take a value (GNU `-u`, `-C`, `-S`; BSD `-P`).
const ENV: Valued = Valued(&["u", "unset", "C", "chdir", "S", "split-string", "P"]);

/// env's own words read: the string `-S` splits, the folder `-C` moves to, and where its
/// operands (assignments, then the command) start.
struct EnvHead {
    split: Option<String>,
    chdir: Option<Word>,
    /// Index in `argv` of the first operand, or its length.
    operands: usize,
}

/// Reads env's options; `None` for `--help` and `--version`, which run nothing.
fn read_env(argv: &[Word]) -> Option<EnvHead> {
    let args = argv.get(1..).unwrap_or_default();
    let head = argv::read_head(args, Style::Getopt, &ENV);
    let ends = |o: &Opt| o.spelling == Spelling::Long && matches!(o.name, "help" | "version");
    if head.opts.iter().any(ends) {
        return None;
    }
    // A lone `-` after the options is `-i`.
    let operands = match head.stopped_at {
        Some(at) if args.get(at).is_some_and(|w| w.text == "-") => at + 2,
        Some(at) => at + 1,
        None => argv.len(),
    };
    Some(EnvHead {
        split: head
            .last(&["S", "split-string"])
            .and_then(|o| o.value)
            .map(str::to_string),
        chdir: head.last(&["C", "chdir"]).and_then(|o| value_word(o, args)),
        operands,
    })
}

/// An option's value as a word: the next word itself when given apart (all that is known of
/// it kept), else the text attached.
fn value_word(opt: &Opt, args: &[Word]) -> Option<Word> {
    match opt.value_word {
        Some(at) if at != opt.word => args.get(at).cloned(),
        _ => opt.value_in(args),
    }
}

/// The program `env ARGS...` runs, as a `#!/usr/bin/env -S python3 -u` line names it: the
/// first word, after env's options and assignments, of its `-S` string and operands.
pub(in crate::shell) fn env_program(argv: &[Word]) -> Option<String> {
    let head = read_env(argv)?;
    let split = head.split.iter().flat_map(|s| s.split_whitespace());
    let rest = argv.get(head.operands..).unwrap_or_default();
    split
        .chain(rest.iter().map(|w| w.text.as_str()))
        .find(|w| !is_assignment(w))
        .map(str::to_string)
}

/// `NAME=VALUE`, as env reads an operand before the command.
fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| is_name(name))
}

/// `env [-i] [-u NAME] [-C DIR] [-S STRING] [NAME=VALUE]... [COMMAND [ARG]...]`.
pub(super) fn env(cmd: &mut SimpleCommand) -> Start {
    let Some(EnvHead {
        split,
        chdir,
        operands: mut i,
    }) = read_env(&cmd.argv)
    else {
        return Start::Nothing;
    };
    if let Some(dir) = chdir {
        cmd.dirs.push(dir);
    }
    let argv = &cmd.argv;
    while let Some(word) = argv.get(i) {
        match word.text.split_once('=') {
            Some((name, value)) if is_name(name) => {
                let value = Word {
                    text: value.to_string(),
                    literal: word.literal,
                    temp: None,
                };
                cmd.assigns.push((name.to_string(), value));
                i += 1;
            }
            _ => break,
        }
    }
    if let Some(script) = split {
        let rest: Vec<String> = argv
            .get(i..)
            .unwrap_or_default()
            .iter()
            .map(Word::shell_quoted)
            .collect();
        return Start::Script {
            script: [script]
                .into_iter()
                .chain(rest)
                .collect::<Vec<_>>()
                .join(" "),
            literal: true,
        };
    }
    if i < argv.len() {
        Start::At(i)
    } else {
        Start::Nothing
    }
}
