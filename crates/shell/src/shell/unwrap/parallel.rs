//! GNU `parallel`: its command with each input put in, or each input a command line.

use super::wrappers::{long_takes, short_takes};
use super::{Run, SimpleCommand, Via, Word};
use crate::syntax::argv::{self, Options, Spelling, Style, Takes};

/// GNU parallel's long options (without dashes) that take a value in the next word.
const PARALLEL_VALUE: &[&str] = &[
    "jobs",
    "max-procs",
    "sshlogin",
    "sshloginfile",
    "slf",
    "arg-file",
    "delimiter",
    "colsep",
    "max-args",
    "max-lines",
    "max-chars",
    "joblog",
    "results",
    "res",
    "tmpdir",
    "workdir",
    "wd",
    "timeout",
    "delay",
    "retries",
    "tagstring",
    "tag-string",
    "halt",
    "halt-on-error",
    "memfree",
    "load",
    "basefile",
    "bf",
    "env",
    "transferfile",
    "tf",
    "return",
    "block",
    "block-size",
    "recstart",
    "recend",
    "header",
    "nice",
    "termseq",
    "limit",
    "arg-sep",
    "arg-file-sep",
    "eof",
    "replace",
    "extensionreplace",
    "basenamereplace",
    "dirnamereplace",
    "seqreplace",
];

/// GNU parallel's options: `-i`, `-e` and `-l` take a value only attached.
struct ParallelOptions;

impl Options for ParallelOptions {
    fn long(&self, name: &str) -> Option<Takes> {
        Some(long_takes(PARALLEL_VALUE, name))
    }
    fn short(&self, letter: char) -> Option<Takes> {
        Some(if "iel".contains(letter) {
            Takes::Attached
        } else {
            short_takes("jPSadECINnLs", letter)
        })
    }
}

/// `parallel [options] COMMAND [ARGS] [::: INPUTS | :::: FILES]...`. Each job is the command
/// with an input put in for its placeholders (`{}`, `{.}`, `{1}`, ...), or appended when it
/// has none; with no command, each input is itself a command line. Inputs come from `:::`,
/// `::::` files or stdin, so they are unknown operands: placeholders stand as non-literal
/// words and the command is uncertain. `--pipe` feeds input on stdin instead of as
/// arguments; `--dry-run` only prints the jobs.
pub(super) fn parallel(mut cmd: SimpleCommand) -> Run {
    let argv = &cmd.argv;
    let args = argv.get(1..).unwrap_or_default();
    let head = argv::read_head(args, Style::Getopt, &ParallelOptions);
    let mut replace: Option<String> = None;
    let mut pipe = false;
    for opt in &head.opts {
        match (opt.spelling, opt.name) {
            (
                Spelling::Long,
                "dry-run" | "dryrun" | "help" | "version" | "number-of-cpus" | "number-of-cores",
            ) => return Run::Nothing,
            (Spelling::Long, "pipe" | "pipepart" | "spreadstdin") => pipe = true,
            (Spelling::Long, "replace") | (Spelling::Short, "I") => {
                replace = opt.value.map(str::to_string);
            }
            (Spelling::Short, "i") => replace = Some(opt.value.unwrap_or("{}").to_string()),
            _ => {}
        }
    }
    let i = head.stopped_at.map_or(argv.len(), |at| at + 1);
    let end = argv
        .get(i..)
        .unwrap_or_default()
        .iter()
        .position(|w| w.text.starts_with(":::"))
        .map_or(argv.len(), |n| i + n);
    cmd.via = Via::Parallel;
    cmd.uncertain = true;
    if i >= end {
        // No command: every input is a command line.
        let inputs = argv.get(end + 1..).unwrap_or_default();
        if inputs.is_empty() {
            return Run::ShellReadingStdin {
                cmd,
                via: Via::ShellStdin,
            };
        }
        if argv.get(end).is_some_and(|w| w.text.starts_with("::::")) {
            // Command lines read from files this line does not show.
            return Run::Command(cmd);
        }
        let script: Vec<&str> = inputs
            .iter()
            .take_while(|w| !w.text.starts_with(":::"))
            .map(|w| w.text.as_str())
            .collect();
        let literal = inputs.iter().all(|w| w.literal);
        return Run::Script {
            script: script.join("\n"),
            cmd,
            via: Via::Parallel,
            literal,
        };
    }
    let Some(command) = argv.get(i..end) else {
        return Run::Command(cmd);
    };
    let has_placeholder = command
        .iter()
        .any(|w| is_placeholder(&w.text, replace.as_deref()));
    let mut words: Vec<Word> = command
        .iter()
        .map(|w| {
            if is_placeholder(&w.text, replace.as_deref()) {
                Word {
                    text: w.text.clone(),
                    literal: false,
                    temp: None,
                }
            } else {
                w.clone()
            }
        })
        .collect();
    // A command given as one string (`parallel 'rm -rf {}' ::: a`) is shell text.
    if let [only] = words.as_slice()
        && only.text.contains(char::is_whitespace)
    {
        let mut script = placeholders_unknown(&only.text, replace.as_deref());
        if !has_placeholder && !pipe {
            script.push_str(" \"$PARALLEL_INPUT\"");
        }
        return Run::Script {
            script,
            cmd,
            via: Via::Parallel,
            literal: false,
        };
    }
    if !has_placeholder && !pipe {
        words.push(Word {
            text: "{}".into(),
            literal: false,
            temp: None,
        });
    }
    cmd.argv = words;
    Run::Command(cmd)
}

/// A word that parallel replaces by an input: `{}`, `{.}`, `{/}`, `{//}`, `{/.}`, `{#}`,
/// `{%}`, `{1}`, `{2.}`, `{= perl =}`, or the string given to `-I`.
fn is_placeholder(text: &str, replace: Option<&str>) -> bool {
    if replace.is_some_and(|r| !r.is_empty() && text.contains(r)) {
        return true;
    }
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            return false;
        };
        let inner = &rest[open + 1..open + close];
        let digits = inner.trim_start_matches(|c: char| c.is_ascii_digit());
        if inner.starts_with('=') || matches!(digits, "" | "." | "/" | "//" | "/." | "#" | "%") {
            return true;
        }
        rest = &rest[open + close + 1..];
    }
    false
}

/// Shell text with each placeholder put as an expansion, so that what it names reads as
/// unknown until run time, as the inputs are.
fn placeholders_unknown(text: &str, replace: Option<&str>) -> String {
    let mut out = String::with_capacity(text.len());
    for (n, part) in text.split(' ').enumerate() {
        if n > 0 {
            out.push(' ');
        }
        if is_placeholder(part, replace) {
            out.push_str("\"$PARALLEL_INPUT\"");
        } else {
            out.push_str(part);
        }
    }
    out
}
