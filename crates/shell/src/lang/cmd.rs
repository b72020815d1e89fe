//! `cmd /c` and `/k`: `rd /s`, `rmdir /s`, `del /s`, `erase /s`, `move`, redirects, and
//! native commands. cmd's syntax is small enough to split by hand: `&`, `&&`, `||` and `|`
//! between commands, double quotes, `^` escaping the next character, `%VAR%` expansions.

use std::borrow::Cow;

use super::{Effect, Lowered, ScriptArgs, remove, remove_dir, rename, run};
use crate::syntax::{Redirect, Word};

pub(super) fn effects(code: &str, given: ScriptArgs) -> Lowered {
    let mut lowered = Lowered::default();
    for (text, words, redirects) in split(&with_args(code, given)) {
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

/// A batch file's text with its arguments put where it reads them, as cmd does before it
/// reads a line: `%1`…`%9`, `%~1` (quotes removed), and `%NAME%` after the one `set NAME=%1`
/// that sets it, up to an `endlocal`. An argument that is not a plain word (one known only
/// at run time, or holding spaces, quotes or cmd's operators) stays unknown; so does every
/// argument of a batch that moves them (`shift`) or calls its own labels (`call :x`, whose
/// `%1` is the call's).
fn with_args<'c>(code: &'c str, given: ScriptArgs) -> Cow<'c, str> {
    if given.is_empty() {
        return Cow::Borrowed(code);
    }
    let lower = code.to_ascii_lowercase();
    if words(&lower)
        .iter()
        .any(|(_, w)| *w == "shift" || *w == "call")
    {
        return Cow::Borrowed(code);
    }
    let plain = |n: usize| {
        given.get(n).filter(|w| {
            w.literal
                && !w.text.is_empty()
                && !w
                    .text
                    .contains(|c: char| c.is_whitespace() || "\"&|<>^%!(),;=".contains(c))
        })
    };
    // `%1` or `%~1` at the start of `text`: the argument it reads and its length.
    let positional = |text: &str| {
        let (skip, rest) = match text.strip_prefix("%~") {
            Some(rest) => (2, rest),
            None => (1, text.strip_prefix('%')?),
        };
        let digit = rest.chars().next().filter(|c| ('1'..='9').contains(c))?;
        Some((digit as usize - '1' as usize, skip + 1))
    };
    let sets = sets(&lower);
    let mut bound: Vec<(&str, &Word, usize, usize)> = Vec::new();
    for (name, value, line_end) in &sets {
        let once = sets.iter().filter(|(n, _, _)| n == name).count() == 1;
        let arg = positional(value)
            .filter(|(_, len)| *len == value.len())
            .and_then(|(n, _)| plain(n));
        if let (true, Some(arg)) = (once, arg) {
            let until = lower[*line_end..]
                .find("endlocal")
                .map_or(lower.len(), |at| line_end + at);
            bound.push((name, arg, *line_end, until));
        }
    }
    let mut out = String::with_capacity(code.len());
    let mut at = 0;
    while let Some(found) = code[at..].find('%') {
        let start = at + found;
        out.push_str(&code[at..start]);
        let rest = &code[start..];
        let named = bound.iter().find(|(name, _, from, until)| {
            (*from..*until).contains(&start)
                && lower[start + 1..].starts_with(name)
                && lower[start + 1 + name.len()..].starts_with('%')
        });
        let (put, len) = if rest.starts_with("%%") {
            (None, 2)
        } else if let Some((name, arg, _, _)) = named {
            (Some(arg.text.as_str()), name.len() + 2)
        } else if let Some((n, len)) = positional(rest) {
            (plain(n).map(|w| w.text.as_str()), len)
        } else {
            (None, 1)
        };
        out.push_str(put.unwrap_or(&rest[..len]));
        at = start + len;
    }
    out.push_str(&code[at..]);
    Cow::Owned(out)
}

/// Each `set NAME=value` (also `set "NAME=value"`, `set /a`, `set /p`) in lower-cased
/// `code`: the name, the value as written, and where its line ends.
fn sets(code: &str) -> Vec<(&str, &str, usize)> {
    words(code)
        .into_iter()
        .filter(|(_, w)| *w == "set")
        .filter_map(|(at, _)| {
            let line_end = code[at..].find(['\n', '&']).map_or(code.len(), |i| at + i);
            let mut rest = code[at + 3..line_end].trim_start();
            for switch in ["/a", "/p"] {
                if let Some(after) = rest.strip_prefix(switch) {
                    rest = after.trim_start();
                }
            }
            let quoted = rest.starts_with('"');
            let rest = rest.trim_start_matches('"');
            let end = rest.find(|c: char| c.is_whitespace() || "=+-*/%&|^<>!\"".contains(c))?;
            let (name, value) = rest.split_at(end);
            let value = value.strip_prefix('=').unwrap_or("").trim_end_matches('\r');
            let value = if quoted {
                value.trim_end().trim_end_matches('"')
            } else {
                value
            };
            (!name.is_empty()).then_some((name, value, line_end))
        })
        .collect()
}

/// Each word of letters, digits and `_` in `code`, with where it starts.
fn words(code: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in code.char_indices().chain([(code.len(), ' ')]) {
        let inside = c.is_ascii_alphanumeric() || c == '_';
        match (inside, start) {
            (true, None) => start = Some(i),
            (false, Some(from)) => {
                out.push((from, &code[from..i]));
                start = None;
            }
            _ => {}
        }
    }
    out
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

    #[test]
    fn a_batch_files_arguments() {
        let run =
            |code: &str, args: &[&str]| crate::lang::shown_with(crate::lang::Lang::Cmd, code, args);
        assert_eq!(
            run("@echo off\r\nrd /s /q %1\r\n", &["out"]),
            ["echo off", "rm -r out"]
        );
        assert_eq!(run("rd /s /q \"%~1\"", &["out"]), ["rm -r out"]);
        assert_eq!(run("rd /s /q %2", &["out"]), ["rm -r %2"]);
        assert_eq!(
            run("echo 100%% & rd /s /q %1", &["out"]),
            ["echo 100%%", "rm -r out"]
        );
        assert_eq!(
            run("set D=%~1\r\nrd /s /q %D%\r\n", &["out"]),
            ["set D=out", "rm -r out"]
        );
        // An argument that is not a plain word, a name set twice, a batch that shifts: unknown.
        assert_eq!(run("rd /s /q %1", &["a&b"]), ["rm -r %1"]);
        assert_eq!(run("rd /s /q %1", &["$DIR"]), ["rm -r %1"]);
        assert_eq!(
            run("set D=%1\nset D=src\nrd /s /q %D%", &["out"]),
            ["set D=out", "set D=src", "rm -r %D%"]
        );
        assert_eq!(
            run("shift\nrd /s /q %1", &["out", "src"]),
            ["shift", "rm -r %1"]
        );
    }
}
