//! `xargs`: the command it runs, with what it reads from stdin as operands known only at
//! run time.

use super::{SimpleCommand, Start, Via, Word};

/// `xargs [options] [command [initial-arguments]]`: where the command starts, with the
/// input it appends (or substitutes) standing as words known only at run time.
pub(super) fn xargs(cmd: &mut SimpleCommand) -> Start {
    let Some(i) = xargs_command(&cmd.argv) else {
        return Start::Nothing;
    };
    cmd.via = Via::Xargs;
    cmd.uncertain = true;
    // xargs appends what it reads to the command, unless it substitutes it
    // (`-I {}`); that input stands as one operand known only at run time.
    match xargs_replacement(&cmd.argv[1..i]) {
        // Each word holding the replacement string becomes an input line: not
        // known until it runs, so never a literal path.
        Some(replace) => {
            for word in &mut cmd.argv[i..] {
                if word.text.contains(replace.as_str()) {
                    word.literal = false;
                }
            }
        }
        None => {
            cmd.argv.push(Word {
                text: "{}".into(),
                literal: false,
            });
        }
    }
    Start::At(i)
}

/// The replacement string of `xargs -I REPL` / `-iREPL` / `--replace[=REPL]` / BSD `-J REPL`
/// (`-i` and `--replace` alone mean `{}`), when the options ask for one.
fn xargs_replacement(options: &[Word]) -> Option<String> {
    let mut found = None;
    let mut words = options.iter();
    while let Some(word) = words.next() {
        let w = word.text.as_str();
        if let Some(long) = w.strip_prefix("--") {
            if long == "replace" {
                found = Some("{}".to_string());
            } else if let Some(r) = long.strip_prefix("replace=") {
                found = Some(r.to_string());
            } else if !long.contains('=')
                && matches!(
                    long,
                    "arg-file"
                        | "delimiter"
                        | "max-args"
                        | "max-procs"
                        | "max-chars"
                        | "process-slot-var"
                )
            {
                words.next();
            }
            continue;
        }
        let Some(flags) = w.strip_prefix('-').filter(|f| !f.is_empty()) else {
            continue;
        };
        for (pos, c) in flags.char_indices() {
            let rest = &flags[pos + c.len_utf8()..];
            match c {
                'I' | 'J' => {
                    let value = if rest.is_empty() {
                        words.next().map(|n| n.text.clone())
                    } else {
                        Some(rest.to_string())
                    };
                    found = value.or(found);
                    break;
                }
                'i' => {
                    found = Some(if rest.is_empty() { "{}" } else { rest }.to_string());
                    break;
                }
                'a' | 'd' | 'E' | 'L' | 'n' | 'P' | 's' | 'R' | 'S' => {
                    if rest.is_empty() {
                        words.next();
                    }
                    break;
                }
                'e' | 'l' => break,
                _ => {}
            }
        }
    }
    found.filter(|r| !r.is_empty())
}

/// Where the command starts in `xargs [options] [command [initial-arguments]]`.
fn xargs_command(argv: &[Word]) -> Option<usize> {
    const LONG_VALUE: &[&str] = &[
        "--arg-file",
        "--delimiter",
        "--max-args",
        "--max-procs",
        "--max-chars",
        "--process-slot-var",
    ];
    let mut i = 1;
    while let Some(word) = argv.get(i) {
        let w = word.text.as_str();
        if w == "--" {
            i += 1;
            break;
        }
        if w.starts_with("--") {
            if matches!(w, "--help" | "--version" | "--show-limits") {
                return None;
            }
            i += if !w.contains('=') && LONG_VALUE.contains(&w) {
                2
            } else {
                1
            };
            continue;
        }
        if w.len() > 1 && w.starts_with('-') {
            for (pos, c) in w[1..].char_indices() {
                if "adEILnPsJRS".contains(c) {
                    if pos + 1 + c.len_utf8() == w.len() {
                        i += 1;
                    }
                    break;
                }
                if "eil".contains(c) {
                    break; // optional value, only ever attached
                }
            }
            i += 1;
            continue;
        }
        break;
    }
    (i < argv.len()).then_some(i)
}
