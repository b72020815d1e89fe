//! Parsers for the embedded grammars, built on first use, and walking their trees.

use std::cell::RefCell;
use std::ops::ControlFlow;
use std::time::Instant;

use tree_sitter::{Language, Node, ParseOptions, Parser, Tree};

use crate::shell::{PARSE_DEADLINE, Word};

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Grammar {
    Python,
    JavaScript,
    Ruby,
    Php,
    PhpTagged,
    PowerShell,
}

impl Grammar {
    fn language(self) -> Language {
        match self {
            Grammar::Python => tree_sitter_python::LANGUAGE.into(),
            Grammar::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            Grammar::Ruby => tree_sitter_ruby::LANGUAGE.into(),
            Grammar::Php => tree_sitter_php::LANGUAGE_PHP_ONLY.into(),
            Grammar::PhpTagged => tree_sitter_php::LANGUAGE_PHP.into(),
            Grammar::PowerShell => tree_sitter_powershell::LANGUAGE.into(),
        }
    }
}

thread_local! {
    /// One parser per grammar, created the first time that grammar is needed.
    static PARSERS: RefCell<Vec<(Grammar, Parser)>> = const { RefCell::new(Vec::new()) };
}

/// Parses `code`, or `None` when the grammar cannot be loaded or parsing runs out of time.
pub(super) fn parse(grammar: Grammar, code: &str) -> Option<Tree> {
    let deadline = Instant::now() + PARSE_DEADLINE;
    let mut past_deadline = |_: &tree_sitter::ParseState| {
        if Instant::now() > deadline {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    let bytes = code.as_bytes();
    PARSERS.with_borrow_mut(|parsers| {
        let at = match parsers.iter().position(|(g, _)| *g == grammar) {
            Some(at) => at,
            None => {
                let mut parser = Parser::new();
                parser.set_language(&grammar.language()).ok()?;
                parsers.push((grammar, parser));
                parsers.len() - 1
            }
        };
        let parser = &mut parsers[at].1;
        parser.reset();
        parser.parse_with_options(
            &mut |i, _| bytes.get(i..).unwrap_or_default(),
            None,
            Some(ParseOptions::new().progress_callback(&mut past_deadline)),
        )
    })
}

/// Every named node under `root`, in source order, without recursion (deep nesting must not
/// overflow the stack).
pub(super) fn named_nodes(root: Node) -> Vec<Node> {
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        out.push(node);
        let start = stack.len();
        let mut cursor = node.walk();
        stack.extend(node.named_children(&mut cursor));
        stack[start..].reverse();
    }
    out
}

/// The source text of `node`.
pub(super) fn text<'s>(node: Node, src: &'s str) -> &'s str {
    src.get(node.byte_range()).unwrap_or("")
}

/// The named children of `node`, comments left out.
pub(super) fn args(node: Node) -> Vec<Node> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor)
        .filter(|n| n.kind() != "comment")
        .collect()
}

/// `raw` with the backslash escapes of a C-family double-quoted string resolved; an escape
/// not known here is kept as written.
pub(super) fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('0') => out.push('\0'),
            Some('x') => {
                let hex: String = chars.clone().take(2).collect();
                match u8::from_str_radix(&hex, 16) {
                    Ok(byte) if hex.len() == 2 => {
                        out.push(char::from(byte));
                        chars.nth(1);
                    }
                    _ => out.push_str("\\x"),
                }
            }
            Some(c @ ('\\' | '\'' | '"' | '`' | '$' | '/' | ' ')) => out.push(c),
            Some(c) => {
                out.push('\\');
                out.push(c);
            }
            None => out.push('\\'),
        }
    }
    out
}

/// A value in the code, as far as it can be known without running it.
pub(super) enum Value {
    Str(Word),
    List(Vec<Value>, Word),
    /// Keys and values of an object literal, hash or keyword arguments.
    Map(Vec<(String, Value)>, Word),
    Bool(bool),
    Other(Word),
}

impl Value {
    /// The value as one argument word: anything but a literal string is not literal.
    pub(super) fn word(&self) -> Word {
        match self {
            Value::Str(w) | Value::Other(w) | Value::List(_, w) | Value::Map(_, w) => w.clone(),
            Value::Bool(b) => Word {
                text: b.to_string(),
                literal: false,
            },
        }
    }

    /// The words of a list literal, or `None` for anything else.
    pub(super) fn list(&self) -> Option<Vec<Word>> {
        match self {
            Value::List(items, _) => Some(items.iter().map(Value::word).collect()),
            _ => None,
        }
    }

    /// Whether a map holds `key` with a value that is not literally false (a flag set by a
    /// variable may be set).
    pub(super) fn sets(&self, key: &str) -> bool {
        match self {
            Value::Map(pairs, _) => pairs
                .iter()
                .any(|(k, v)| k == key && !matches!(v, Value::Bool(false))),
            _ => false,
        }
    }

    /// Joins two values as string concatenation does.
    pub(super) fn concat(self, other: Value) -> Value {
        let (a, b) = (self.word(), other.word());
        let word = Word {
            text: format!("{}{}", a.text, b.text),
            literal: a.literal && b.literal,
        };
        if word.literal {
            Value::Str(word)
        } else {
            Value::Other(word)
        }
    }
}

/// Whether a keyword or map value is set to something other than literal false.
pub(super) fn truthy(value: Option<&Value>) -> bool {
    value.is_some_and(|v| !matches!(v, Value::Bool(false)))
}
