//! `cmd /c` and `/k`: `rd /s`, `rmdir /s`, `del /s`, `erase /s`, `move`, redirects, and
//! native commands. cmd's syntax is small enough to split by hand: `&`, `&&`, `||` and `|`
//! between commands, double quotes, `^` escaping the next character, `%VAR%` expansions.

use super::{Effect, Lowered, remove, remove_dir, rename, run};
use crate::syntax::{Redirect, Word};

pub(super) fn effects(code: &str) -> Lowered {
    let mut lowered = Lowered::default();
    for (text, words, redirects) in split(code) {
        // `for ... do rd /s %d` and `if exist x rd /s x` run a command of their own, which is
        // not read here.
        let compound = words.first().is_some_and(|w| {
            w.text.eq_ignore_ascii_case("for") || w.text.eq_ignore_ascii_case("if")
        });
        if compound {
            lowered.unread.push(text);
        } else {
            lowered.effects.extend(lower(&text, words, redirects));
        }
    }
    lowered
}

/// One command of a line: its text, its words, and its redirects.
type Command = (String, Vec<Word>, Vec<Redirect>);

/// The command being read: its text so far, the words and redirects finished, and the word
/// under way.
#[derive(Default)]
struct Reader {
    commands: Vec<Command>,
    text: String,
    words: Vec<Word>,
    redirects: Vec<Redirect>,
    word: String,
    in_word: bool,
    /// The word under way expands a variable (`%X%`, `!X!`).
    expands: bool,
    /// A redirect operator read, waiting for its target.
    pending_redirect: Option<String>,
}

impl Reader {
    /// Ends the word under way: an argument, or the target of the redirect before it.
    fn finish_word(&mut self) {
        if !self.in_word {
            return;
        }
        let value = Word {
            text: std::mem::take(&mut self.word).replace('\\', "/"),
            literal: !self.expands,
            temp: None,
        };
        match self.pending_redirect.take() {
            Some(op) => self.redirects.push(Redirect { op, target: value }),
            None => self.words.push(value),
        }
        self.in_word = false;
        self.expands = false;
    }

    /// Ends the command under way, if it has words.
    fn finish_command(&mut self) {
        self.finish_word();
        let text = std::mem::take(&mut self.text);
        let redirects = std::mem::take(&mut self.redirects);
        if !self.words.is_empty() {
            let words = std::mem::take(&mut self.words);
            self.commands
                .push((text.trim().to_string(), words, redirects));
        }
    }

    /// A character of the word under way.
    fn push(&mut self, c: char) {
        if c == '%' || c == '!' {
            self.expands = true;
        }
        self.word.push(c);
        self.in_word = true;
        self.text.push(c);
    }
}

fn split(code: &str) -> Vec<Command> {
    let mut r = Reader::default();
    let mut quoted = false;
    let mut chars = code.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '"' {
            quoted = !quoted;
            r.in_word = true;
            r.text.push(c);
            continue;
        }
        if quoted {
            r.push(c);
            continue;
        }
        match c {
            '^' => {
                r.text.push(c);
                if let Some(next) = chars.next() {
                    r.word.push(next);
                    r.text.push(next);
                    r.in_word = true;
                }
            }
            '&' | '|' | '\n' => {
                if chars.peek() == Some(&c) {
                    chars.next();
                }
                r.finish_command();
            }
            '>' | '<' => {
                // `2>` and `1>`: the digit just read was the stream, not a word.
                if r.in_word && (r.word == "1" || r.word == "2") {
                    r.word.clear();
                    r.in_word = false;
                } else {
                    r.finish_word();
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
                r.text.push_str(&op);
                r.pending_redirect = Some(op);
            }
            '(' | ')' if !r.in_word => r.text.push(c),
            '@' if !r.in_word && r.words.is_empty() => {}
            c if c.is_whitespace() => {
                r.finish_word();
                r.text.push(c);
            }
            c => r.push(c),
        }
    }
    r.finish_command();
    r.commands
}

fn lower(text: &str, words: Vec<Word>, redirects: Vec<Redirect>) -> Option<Effect> {
    let name = words.first()?.text.to_ascii_lowercase();
    let name = name.strip_suffix(".exe").unwrap_or(&name).to_string();
    let switches: Vec<String> = words
        .iter()
        .skip(1)
        .filter(|w| w.text.starts_with('/'))
        .map(|w| w.text.to_ascii_lowercase())
        .collect();
    // Paths, not switches: cmd switches are a slash and a letter or two (`/s`, `/a:h`).
    let operands = || -> Vec<Word> {
        words
            .iter()
            .skip(1)
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
    fn lowered(code: &str) -> Vec<String> {
        crate::lang::shown(crate::lang::Lang::Cmd, code)
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
