//! `cmd /c` and `/k`: `rd /s`, `rmdir /s`, `del /s`, `erase /s`, `move`, redirects, and
//! native commands. cmd's syntax is small enough to split by hand: `&`, `&&`, `||` and `|`
//! between commands, double quotes, `^` escaping the next character, `%VAR%` expansions.

use super::{Effect, remove, remove_dir, rename, run};
use crate::shell::{Redirect, Word};

pub(super) fn effects(code: &str) -> Vec<Effect> {
    split(code)
        .into_iter()
        .filter_map(|(text, words, redirects)| lower(&text, words, redirects))
        .collect()
}

/// One command of a line: its text, its words, and its redirects.
type Command = (String, Vec<Word>, Vec<Redirect>);

fn split(code: &str) -> Vec<Command> {
    let mut commands = Vec::new();
    let mut text = String::new();
    let mut words: Vec<Word> = Vec::new();
    let mut redirects: Vec<Redirect> = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut literal = true;
    let mut quoted = false;
    let mut pending_redirect: Option<String> = None;
    let mut chars = code.chars().peekable();

    let finish_word = |word: &mut String,
                       in_word: &mut bool,
                       literal: &mut bool,
                       words: &mut Vec<Word>,
                       redirects: &mut Vec<Redirect>,
                       pending: &mut Option<String>| {
        if !*in_word {
            return;
        }
        let value = Word {
            text: std::mem::take(word).replace('\\', "/"),
            literal: *literal,
        };
        match pending.take() {
            Some(op) => redirects.push(Redirect { op, target: value }),
            None => words.push(value),
        }
        *in_word = false;
        *literal = true;
    };

    while let Some(c) = chars.next() {
        if c == '"' {
            quoted = !quoted;
            in_word = true;
            text.push(c);
            continue;
        }
        if quoted {
            if c == '%' || c == '!' {
                literal = false;
            }
            word.push(c);
            text.push(c);
            continue;
        }
        match c {
            '^' => {
                text.push(c);
                if let Some(next) = chars.next() {
                    word.push(next);
                    text.push(next);
                    in_word = true;
                }
            }
            '&' | '|' | '\n' => {
                finish_word(
                    &mut word,
                    &mut in_word,
                    &mut literal,
                    &mut words,
                    &mut redirects,
                    &mut pending_redirect,
                );
                if chars.peek() == Some(&c) {
                    chars.next();
                }
                if !words.is_empty() {
                    commands.push((
                        std::mem::take(&mut text).trim().to_string(),
                        std::mem::take(&mut words),
                        std::mem::take(&mut redirects),
                    ));
                }
                text.clear();
                redirects.clear();
            }
            '>' | '<' => {
                // `2>` and `1>`: the digit just read was the stream, not a word.
                let stream = in_word && (word == "1" || word == "2");
                if stream {
                    word.clear();
                    in_word = false;
                } else {
                    finish_word(
                        &mut word,
                        &mut in_word,
                        &mut literal,
                        &mut words,
                        &mut redirects,
                        &mut pending_redirect,
                    );
                }
                let mut op = c.to_string();
                if chars.peek() == Some(&'>') && c == '>' {
                    chars.next();
                    op.push('>');
                }
                if chars.peek() == Some(&'&') {
                    // `2>&1`: to another stream, not a file.
                    chars.next();
                    while chars.peek().is_some_and(|d| d.is_ascii_digit()) {
                        chars.next();
                    }
                    continue;
                }
                text.push_str(&op);
                pending_redirect = Some(op);
            }
            '(' | ')' if !in_word => text.push(c),
            '@' if !in_word && words.is_empty() => {}
            c if c.is_whitespace() => {
                finish_word(
                    &mut word,
                    &mut in_word,
                    &mut literal,
                    &mut words,
                    &mut redirects,
                    &mut pending_redirect,
                );
                text.push(c);
            }
            c => {
                if c == '%' || c == '!' {
                    literal = false;
                }
                word.push(c);
                in_word = true;
                text.push(c);
            }
        }
    }
    finish_word(
        &mut word,
        &mut in_word,
        &mut literal,
        &mut words,
        &mut redirects,
        &mut pending_redirect,
    );
    if !words.is_empty() {
        commands.push((text.trim().to_string(), words, redirects));
    }
    commands
}

fn lower(text: &str, words: Vec<Word>, redirects: Vec<Redirect>) -> Option<Effect> {
    let name = words.first()?.text.to_ascii_lowercase();
    let name = name.strip_suffix(".exe").unwrap_or(&name).to_string();
    let switches: Vec<String> = words[1..]
        .iter()
        .filter(|w| w.text.starts_with('/'))
        .map(|w| w.text.to_ascii_lowercase())
        .collect();
    // Paths, not switches: cmd switches are a slash and a letter or two (`/s`, `/a:h`).
    let operands = || -> Vec<Word> {
        words[1..]
            .iter()
            .filter(|w| !is_switch(&w.text))
            .cloned()
            .collect()
    };
    let has = |s: &str| switches.iter().any(|w| w == s);
    let effect = match name.as_str() {
        "rd" | "rmdir" if has("/s") => remove(text, operands(), true),
        "rd" | "rmdir" => remove_dir(text, operands().into_iter().next()?),
        "del" | "erase" => remove(text, operands(), has("/s")),
        "move" => {
            let paths = operands();
            rename(text, paths.first()?.clone(), paths.get(1)?.clone())
        }
        _ => {
            let mut effect = run(text, words)?;
            if let Effect::Command { redirects: r, .. } = &mut effect {
                *r = redirects;
            }
            return Some(effect);
        }
    };
    Some(effect)
}

fn is_switch(word: &str) -> bool {
    word.strip_prefix('/').is_some_and(|rest| {
        let rest = rest.split(':').next().unwrap_or(rest);
        !rest.is_empty()
            && rest.len() <= 2
            && rest.chars().all(|c| c.is_ascii_alphabetic() || c == '?')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lowered(code: &str) -> Vec<String> {
        effects(code)
            .iter()
            .map(|e| match e {
                Effect::Command {
                    argv, redirects, ..
                } => {
                    let mut words: Vec<String> = argv.iter().map(|w| w.text.clone()).collect();
                    words.extend(
                        redirects
                            .iter()
                            .map(|r| format!("{} {}", r.op, r.target.text)),
                    );
                    words.join(" ")
                }
                Effect::Shell { script } => format!("sh {}", script.text),
                Effect::Code { code, .. } => format!("code {}", code.text),
            })
            .collect()
    }

    #[test]
    fn deletions() {
        assert_eq!(lowered("rd /s /q out"), ["rm -r out"]);
        assert_eq!(lowered("del /s /q logs"), ["rm -r logs"]);
        assert_eq!(lowered("del a.txt"), ["rm a.txt"]);
        assert_eq!(lowered("rmdir empty"), ["rmdir empty"]);
        assert_eq!(lowered("rd /S /Q \"my dir\""), ["rm -r my dir"]);
    }

    #[test]
    fn lists_redirects_and_escapes() {
        assert_eq!(
            lowered("cd src && git reset --hard & echo done"),
            ["cd src", "git reset --hard", "echo done"]
        );
        assert_eq!(
            lowered("echo {} > .claude\\settings.json 2>&1"),
            ["echo {} > .claude/settings.json"]
        );
        assert_eq!(lowered("echo a ^& del x"), ["echo a & del x"]);
        assert_eq!(lowered("dir | findstr x"), ["dir", "findstr x"]);
    }
}
