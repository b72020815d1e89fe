//! Turning one syntax-tree word into the string the shell would pass to the program.
//!
//! Rules compare argv words against option spellings and paths, so they need the value
//! after quote removal (`"r"m` is `rm`, `$'\x72m'` is `rm`), plus whether that value is
//! known for sure: anything with an expansion, a command substitution or a glob left in it
//! is *not literal*, and its text keeps the unexpanded source (`$HOME/x`), which is still
//! useful for recognising protected targets like `$HOME`.

use tree_sitter::Node;

pub use crate::syntax::{Word, quote};

/// Longest expansion source kept verbatim in a non-literal word's text.
const MAX_EXPANSION_TEXT: usize = 120;

/// Builds a [`Word`] from a word-like node (`word`, `string`, `raw_string`, `concatenation`, ...).
pub fn from_node(node: Node, src: &str) -> Word {
    let mut out = Word {
        text: String::new(),
        literal: true,
        temp: None,
    };
    append(node, src, &mut out);
    out
}

fn append(node: Node, src: &str, out: &mut Word) {
    let raw = &src[node.byte_range()];
    // Asked once: tree-sitter checks the name is UTF-8 each time it gives it.
    let kind = node.kind();
    match kind {
        "word" | "command_name" if node.child_count() == 0 => {
            unquoted(raw, out);
        }
        "number" | "variable_name" | "heredoc_content" => out.text.push_str(raw),
        "raw_string" => out.text.push_str(strip_pair(raw, "'", "'")),
        "ansi_c_string" => out.text.push_str(&ansi_c(strip_pair(raw, "$'", "'"))),
        "string" | "translated_string" => {
            // tree-sitter leaves some text between the pieces out of every child (newlines
            // around an expansion, for one), so the gaps are read from the source.
            let mut cursor = node.walk();
            let mut pos = None;
            for child in node.children(&mut cursor) {
                if let Some(from) = pos.filter(|&p| p < child.start_byte()) {
                    out.text
                        .push_str(&double_quoted(&src[from..child.start_byte()]));
                }
                match child.kind() {
                    "\"" | "$\"" => {}
                    "string_content" => out.text.push_str(&double_quoted(&src[child.byte_range()])),
                    _ => append(child, src, out),
                }
                pos = Some(child.end_byte());
            }
        }
        "concatenation" | "command_name" => {
            let mut cursor = node.walk();
            for child in node.children(&mut cursor) {
                append(child, src, out);
            }
        }
        // Expansions, substitutions, arithmetic, brace expressions, and anything unknown.
        // Their source stands in for the value; a long one is abbreviated, or nested
        // substitutions would copy the whole line once per level.
        _ => {
            out.literal = false;
            if raw.len() <= MAX_EXPANSION_TEXT {
                out.text.push_str(raw);
            } else {
                let open: String = raw.chars().take(2).collect();
                let close = raw.chars().last().unwrap_or(')');
                out.text.push_str(&format!("{open}…{close}"));
            }
        }
    }
    if kind == "concatenation" && has_brace_expansion(raw) {
        out.literal = false;
    }
}

/// An unquoted word: backslashes quote the next character; globs make it non-literal.
fn unquoted(raw: &str, out: &mut Word) {
    let mut raw = raw;
    // `~+` is the folder the shell is in, `~-` the one it was in before the last `cd`.
    if out.text.is_empty() {
        let tilde = |prefix: &str| {
            raw.strip_prefix(prefix)
                .filter(|rest| rest.is_empty() || rest.starts_with('/'))
        };
        if let Some(rest) = tilde("~+") {
            out.text.push('.');
            raw = rest;
        } else if tilde("~-").is_some() {
            out.literal = false;
        }
    }
    // Most words quote, expand and match nothing: they are their own value.
    if !raw.contains(['\\', '*', '?', '[', '$', '`', '{']) {
        out.text.push_str(raw);
        return;
    }
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('\n') | None => {}
                Some(next) => out.text.push(next),
            },
            '*' | '?' | '[' => {
                out.literal = false;
                out.text.push(c);
            }
            '$' | '`' => {
                out.literal = false;
                out.text.push(c);
            }
            _ => out.text.push(c),
        }
    }
    if has_brace_expansion(raw) {
        out.literal = false;
    }
}

/// `{a,b}` or `{1..3}` in unquoted text: bash expands it into several words.
pub(super) fn has_brace_expansion(raw: &str) -> bool {
    let Some(open) = raw.find('{') else {
        return false;
    };
    let Some(close) = raw[open..].find('}') else {
        return false;
    };
    let inner = &raw[open + 1..open + close];
    inner.contains(',') || inner.contains("..")
}

/// Inside double quotes a backslash only escapes `$`, `` ` ``, `"`, `\` and newline.
pub(super) fn double_quoted(raw: &str) -> String {
    let mut text = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.peek() {
                Some('$' | '`' | '"' | '\\') => text.push(chars.next().unwrap_or('\\')),
                Some('\n') => {
                    chars.next();
                }
                _ => text.push(c),
            }
        } else {
            text.push(c);
        }
    }
    text
}

fn strip_pair<'a>(raw: &'a str, open: &str, close: &str) -> &'a str {
    let inner = raw.strip_prefix(open).unwrap_or(raw);
    inner.strip_suffix(close).unwrap_or(inner)
}

/// Decodes the escapes bash honours inside `$'...'`.
fn ansi_c(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = chars.next() else {
            out.push('\\');
            break;
        };
        match e {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            'a' => out.push('\x07'),
            'b' => out.push('\x08'),
            'e' | 'E' => out.push('\x1b'),
            'f' => out.push('\x0c'),
            'v' => out.push('\x0b'),
            'x' => {
                let code = take_digits(&mut chars, 0, 16, 2);
                out.push(char::from_u32(code).unwrap_or('\u{fffd}'));
            }
            'u' | 'U' => {
                let code = take_digits(&mut chars, 0, 16, if e == 'u' { 4 } else { 8 });
                out.push(char::from_u32(code).unwrap_or('\u{fffd}'));
            }
            '0'..='7' => {
                let code = take_digits(&mut chars, e.to_digit(8).unwrap_or(0), 8, 2);
                out.push(char::from_u32(code).unwrap_or('\u{fffd}'));
            }
            other => out.push(other),
        }
    }
    out
}

/// Reads up to `max` more digits in `radix`, continuing from `value`.
fn take_digits(
    chars: &mut std::iter::Peekable<std::str::Chars>,
    mut value: u32,
    radix: u32,
    max: usize,
) -> u32 {
    for _ in 0..max {
        match chars.peek().and_then(|c| c.to_digit(radix)) {
            Some(d) => {
                value = value * radix + d;
                chars.next();
            }
            None => break,
        }
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ansi_c_decodes_hex_and_octal() {
        assert_eq!(ansi_c(r"\x72m"), "rm");
        assert_eq!(ansi_c(r"\162m"), "rm");
        assert_eq!(ansi_c(r"a\nb"), "a\nb");
    }

    #[test]
    fn quote_leaves_plain_words() {
        assert_eq!(quote("build/"), "build/");
        assert_eq!(quote("a b"), "'a b'");
        assert_eq!(quote("it's"), r"'it'\''s'");
    }
}
