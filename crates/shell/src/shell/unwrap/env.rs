//! `env`: assignments, a directory to run in, and a command or a script (`-S`).

use super::{SimpleCommand, Start, Word, is_name};

/// `env [-i] [-u NAME] [-C DIR] [-S STRING] [NAME=VALUE]... [COMMAND [ARG]...]`.
pub(super) fn env(cmd: &mut SimpleCommand) -> Start {
    let argv = &cmd.argv;
    let mut i = 1;
    let mut split: Option<String> = None;
    // `-C DIR` / `--chdir=DIR`: the command runs there, as after a `cd`.
    let mut chdir: Option<Word> = None;
    while let Some(word) = argv.get(i) {
        let w = word.text.as_str();
        if w == "--" || w == "-" {
            i += 1;
            break;
        }
        if let Some(long) = w.strip_prefix("--") {
            if let Some(s) = long.strip_prefix("split-string=") {
                split = Some(s.to_string());
                i += 1;
            } else if long == "split-string" {
                split = argv.get(i + 1).map(|w| w.text.clone());
                i += 2;
            } else if matches!(long, "help" | "version") {
                return Start::Nothing;
            } else if let Some(dir) = long.strip_prefix("chdir=") {
                chdir = Some(Word {
                    text: dir.to_string(),
                    literal: word.literal,
                    temp: None,
                });
                i += 1;
            } else if long == "chdir" {
                chdir = argv.get(i + 1).cloned();
                i += 2;
            } else {
                i += if matches!(long, "unset" | "chdir") {
                    2
                } else {
                    1
                };
            }
            continue;
        }
        if w.len() > 1 && w.starts_with('-') {
            for (pos, c) in w[1..].char_indices() {
                let rest = &w[1 + pos + c.len_utf8()..];
                if matches!(c, 'u' | 'C' | 'S' | 'P') {
                    let value = if rest.is_empty() {
                        i += 1;
                        argv.get(i).cloned()
                    } else {
                        Some(Word {
                            text: rest.to_string(),
                            literal: word.literal,
                            temp: None,
                        })
                    };
                    if c == 'S' {
                        split = value.map(|w| w.text);
                    } else if c == 'C' {
                        chdir = value;
                    }
                    break;
                }
            }
            i += 1;
            continue;
        }
        break;
    }
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
