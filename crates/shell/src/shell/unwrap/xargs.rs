//! `xargs`: the command it runs, with what it reads from stdin as operands known only at
//! run time.

use super::wrappers::{long_takes, short_takes};
use super::{SimpleCommand, Start, Via, Word};
use crate::syntax::argv::{self, Opt, Options, Spelling, Style, Takes};

/// `xargs [options] [command [initial-arguments]]`: where the command starts, with the
/// input it appends (or substitutes) standing as words known only at run time.
pub(super) fn xargs(cmd: &mut SimpleCommand) -> Start {
    let args = cmd.argv.get(1..).unwrap_or_default();
    let head = argv::read_head(args, Style::Getopt, &XargsOptions);
    let ends = |o: &Opt| {
        o.spelling == Spelling::Long
            && o.value.is_none()
            && matches!(o.name, "help" | "version" | "show-limits")
    };
    let Some(i) = head
        .stopped_at
        .filter(|_| !head.opts.iter().any(ends))
        .map(|at| at + 1)
    else {
        return Start::Nothing;
    };
    let replacement = xargs_replacement(&head.opts);
    cmd.via = Via::Xargs;
    // `echo build | xargs rm -rf`: input the line shows is split as xargs splits it, and its
    // items are the operands; the command runs with them as if they were written after it.
    if replacement.is_none()
        && let [stage] = cmd.fed_by.as_slice()
        && let Some(items) = items(stage, &head.opts)
    {
        cmd.argv.extend(items.into_iter().map(Word::literal));
        return Start::At(i);
    }
    cmd.uncertain = true;
    // xargs appends what it reads to the command, unless it substitutes it
    // (`-I {}`); that input stands as one operand known only at run time.
    match replacement {
        // Each word holding the replacement string becomes an input line: not
        // known until it runs, so never a literal path.
        Some(replace) => {
            for word in cmd.argv.iter_mut().skip(i) {
                if word.text.contains(replace.as_str()) {
                    word.literal = false;
                }
            }
        }
        None => {
            cmd.argv.push(Word {
                text: "{}".into(),
                literal: false,
                temp: None,
            });
        }
    }
    Start::At(i)
}

/// The items xargs reads from the one command before it in the pipeline, when that command
/// only prints words the line shows: `echo WORDS` (split at blanks, as xargs splits), or
/// `printf '%s\n' WORDS` and `printf '%s\0' WORDS` with `-d '\n'` and `-0`, one item a word.
/// `None` where its reading is not followed here: a word known only at run time, quotes and
/// backslashes (xargs removes them), `echo -e`, another format, an end-of-input string
/// (`-E`), input from a file (`-a`), or another delimiter.
fn items(stage: &[Word], opts: &[Opt]) -> Option<Vec<String>> {
    let mut separator: Option<&str> = None;
    for opt in opts {
        match (opt.spelling, opt.name) {
            (Spelling::Short, "0") | (Spelling::Long, "null") => separator = Some("\\0"),
            (Spelling::Short, "d") | (Spelling::Long, "delimiter") => {
                separator = Some(opt.value.filter(|d| *d == "\\n")?);
            }
            (Spelling::Short, "a" | "E" | "e") | (Spelling::Long, "arg-file" | "eof") => {
                return None;
            }
            _ => {}
        }
    }
    let (program, args) = stage.split_first()?;
    let words: Vec<&str> = args.iter().map(Word::value).collect::<Option<_>>()?;
    let words = match (program.value()?, separator, words.split_first()) {
        ("echo", None, _) => {
            // `-n` drops only the last newline; `-e` reads backslashes, not followed here.
            let (opts, text) = echo_words(args)?;
            if opts.iter().any(|o| *o != "n") {
                return None;
            }
            words.get(text..)?.to_vec()
        }
        ("printf", None, Some((&"%s\\n", rest))) => rest.to_vec(),
        ("printf", Some(sep), Some((format, rest))) if format.strip_prefix("%s") == Some(sep) => {
            return rest
                .iter()
                .all(|w| !w.is_empty() && !w.contains('\n'))
                .then(|| rest.iter().map(|w| w.to_string()).collect());
        }
        _ => return None,
    };
    if words.iter().any(|w| w.contains(['\'', '"', '\\'])) {
        return None;
    }
    Some(
        words
            .iter()
            .flat_map(|w| w.split_whitespace())
            .map(str::to_string)
            .collect(),
    )
}

/// xargs's options (GNU and BSD): `-e`, `-i` and `-l` take a value only attached.
struct XargsOptions;

impl Options for XargsOptions {
    fn long(&self, name: &str) -> Option<Takes> {
        const VALUED: &[&str] = &[
            "arg-file",
            "delimiter",
            "max-args",
            "max-procs",
            "max-chars",
            "process-slot-var",
        ];
        Some(long_takes(VALUED, name))
    }
    fn short(&self, letter: char) -> Option<Takes> {
        Some(if "eil".contains(letter) {
            Takes::Attached
        } else {
            short_takes("adEILnPsJRS", letter)
        })
    }
}

/// The replacement string of `xargs -I REPL` / `-iREPL` / `--replace[=REPL]` / BSD `-J REPL`
/// (`-i` and `--replace` alone mean `{}`), when the options ask for one.
fn xargs_replacement(opts: &[Opt]) -> Option<String> {
    let mut found = None;
    for opt in opts {
        match (opt.spelling, opt.name) {
            (Spelling::Short, "I" | "J") => found = opt.value.map(str::to_string).or(found),
            (Spelling::Short, "i") | (Spelling::Long, "replace") => {
                found = Some(opt.value.unwrap_or("{}").to_string());
            }
            _ => {}
        }
    }
    found.filter(|r| !r.is_empty())
}

/// echo's options: `-n`, `-e`, `-E`, also clustered (`-ne`); a word of any other letter is
/// text it prints.
struct EchoOptions;

impl Options for EchoOptions {
    fn long(&self, _name: &str) -> Option<Takes> {
        None
    }
    fn short(&self, letter: char) -> Option<Takes> {
        matches!(letter, 'n' | 'e' | 'E').then_some(Takes::Nothing)
    }
}

/// The option letters `echo ARGS...` reads, and the index in `args` of the first word it
/// prints. `None` where echo and the argv model part ways: a word of other letters (`-x`)
/// or `--`, both of which echo prints.
pub(in crate::shell) fn echo_words(args: &[Word]) -> Option<(Vec<&str>, usize)> {
    let head = argv::read_head(args, Style::Getopt, &EchoOptions);
    let start = head.stopped_at.unwrap_or(args.len());
    let dashdash = args.iter().take(start).any(|w| w.text == "--");
    if head.unknown || dashdash {
        return None;
    }
    Some((head.opts.iter().map(|o| o.name).collect(), start))
}
