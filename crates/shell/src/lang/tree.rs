//! Parsers for every tree-sitter grammar (the shell's and the embedded languages'), built on
//! first use, the one parse under a deadline they all share, and walking their trees.

use std::cell::RefCell;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use tree_sitter::{Language, Node, ParseOptions, Parser, Tree};

use super::{Effect, Lang, run, unknown};
use crate::syntax::Word;

/// When reading must stop. One is set for a whole call and every parse under it shares it:
/// a script nested in a script nested in code gets what is left, not a fresh allowance.
#[derive(Debug, Clone, Copy)]
pub struct Deadline(Instant);

impl Deadline {
    /// A deadline `time` from now.
    pub fn after(time: Duration) -> Deadline {
        Deadline(Instant::now() + time)
    }

    /// A deadline at `instant`; one at or before now has passed already.
    pub fn at(instant: Instant) -> Deadline {
        Deadline(instant)
    }

    pub fn passed(self) -> bool {
        Instant::now() >= self.0
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Grammar {
    Bash,
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
            Grammar::Bash => tree_sitter_bash::LANGUAGE.into(),
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
    /// Texts parsed on this thread: a call's budget is one parse of its line.
    static PARSED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// How many texts this thread has parsed, in every grammar: what a test of the budget of
/// one parse a call counts.
pub fn parses() -> usize {
    PARSED.with(std::cell::Cell::get)
}

thread_local! {
    /// One parser per grammar, created the first time that grammar is needed: building a
    /// parser allocates; the hook parses once, benchmarks parse millions of times.
    static PARSERS: RefCell<Vec<(Grammar, Parser)>> = const { RefCell::new(Vec::new()) };
}

/// Parses `src`, or `None` when the grammar cannot be loaded or `deadline` passes first
/// (tree-sitter asks every hundred or so steps whether to go on, so a short text is read
/// whole). Either way nothing of the text was read: the caller must say so.
pub(crate) fn parse(grammar: Grammar, src: &str, deadline: Deadline) -> Option<Tree> {
    let mut past_deadline = |_: &tree_sitter::ParseState| {
        if deadline.passed() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    let bytes = src.as_bytes();
    PARSED.with(|n| n.set(n.get() + 1));
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
        let parser = &mut parsers.get_mut(at)?.1;
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
        if let Some(children) = stack.get_mut(start..) {
            children.reverse();
        }
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
    /// A string whose text is known, wholly (a literal word) or in part (`f'rm {d}'`).
    Str(Word),
    List(Vec<Value>, Word),
    /// Keys and values of an object literal, hash or keyword arguments.
    Map(Vec<(String, Value)>, Word),
    Bool(bool),
    /// Nothing of its text is known: a variable, a call, an expression.
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
                temp: None,
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

    /// The value a map holds under `key`.
    pub(super) fn field(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Map(pairs, _) => pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v),
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

    /// Joins two values as string concatenation does: a string if either side is one.
    pub(super) fn concat(self, other: Value) -> Value {
        let known = matches!(self, Value::Str(_)) || matches!(other, Value::Str(_));
        let (a, b) = (self.word(), other.word());
        let word = Word {
            text: format!("{}{}", a.text, b.text),
            literal: a.literal && b.literal,
            temp: None,
        };
        if known {
            Value::Str(word)
        } else {
            Value::Other(word)
        }
    }

    /// The value handed to a shell as a script: see [`super::shell`].
    pub(super) fn shell(&self, call: &str) -> Effect {
        super::shell(call, self.word(), matches!(self, Value::Str(_)))
    }

    /// The value run as code of `lang`: see [`super::code`].
    pub(super) fn code(&self, lang: Lang, call: &str) -> Effect {
        super::code(lang, call, self.word(), matches!(self, Value::Str(_)))
    }

    /// A command given as one value: a list literal is its argv, anything else shell text.
    pub(super) fn argv_or_shell(&self, call: &str) -> Option<Effect> {
        match self.list() {
            Some(argv) => run(call, argv),
            None => Some(self.shell(call)),
        }
    }
}

/// `program` run with the arguments of the list literal in `args`, if there is one
/// (`execFile('git', ['clean', '-fd'])`, `pcntl_exec('/bin/rm', ['-rf', 'x'])`).
pub(super) fn program_with_list(call: &str, program: Word, args: Option<&Value>) -> Option<Effect> {
    let mut argv = vec![program];
    argv.extend(args.and_then(Value::list).unwrap_or_default());
    run(call, argv)
}

/// `a + b` (or `a . b`) where `op` joins strings; any other operator gives a value known
/// only at run time.
pub(super) fn joined(node: Node, src: &str, op: &str, read: fn(Node, &str) -> Value) -> Value {
    let joins = node
        .child_by_field_name("operator")
        .is_some_and(|o| text(o, src) == op);
    match (
        node.child_by_field_name("left"),
        node.child_by_field_name("right"),
    ) {
        (Some(l), Some(r)) if joins => read(l, src).concat(read(r, src)),
        _ => Value::Other(unknown(text(node, src))),
    }
}

/// A list literal: its items, and its source for when it is used as one word.
pub(super) fn list(node: Node, src: &str, read: fn(Node, &str) -> Value) -> Value {
    Value::List(
        args(node).into_iter().map(|item| read(item, src)).collect(),
        unknown(text(node, src)),
    )
}

/// `(x)`: the value of `x`.
pub(super) fn parenthesized(node: Node, src: &str, read: fn(Node, &str) -> Value) -> Value {
    match args(node).first() {
        Some(inner) => read(*inner, src),
        None => Value::Other(unknown(text(node, src))),
    }
}

/// What one child of a string literal's node is, as a language's grammar names it.
pub(super) enum Part {
    /// Text of the value: written out as is, or with backslash escapes to resolve.
    Text,
    Escape,
    /// Text with PHP's and Ruby's single-quote escapes (`\'`, `\\`) to resolve.
    SingleQuoted,
    /// A delimiter or anything else that is not part of the value.
    Skip,
    /// An interpolated expression: its source stands in for the value, which is then known
    /// only in part.
    Interpolation,
    /// Something this reader does not follow (a heredoc body): the whole literal is shown
    /// by its source.
    Unreadable,
}

/// A string literal read part by part; `part` names each child node.
pub(super) fn string(node: Node, src: &str, part: impl Fn(Node) -> Part) -> Value {
    let mut body = String::new();
    let mut literal = true;
    for child in args(node) {
        let raw = text(child, src);
        match part(child) {
            Part::Text => body.push_str(raw),
            Part::Escape => body.push_str(&unescape(raw)),
            Part::SingleQuoted => body.push_str(&single_quoted(raw)),
            Part::Skip => {}
            Part::Interpolation => {
                body.push_str(raw);
                literal = false;
            }
            Part::Unreadable => return Value::Str(unknown(text(node, src))),
        }
    }
    Value::Str(if literal {
        Word::literal(body)
    } else {
        unknown(&body)
    })
}

/// The body of a single-quoted string in PHP, Ruby or Perl: only `\'` and `\\` are escapes.
pub(super) fn single_quoted(body: &str) -> String {
    body.replace("\\'", "'").replace("\\\\", "\\")
}

/// Whether a keyword or map value is set to something other than literal false.
pub(super) fn truthy(value: Option<&Value>) -> bool {
    value.is_some_and(|v| !matches!(v, Value::Bool(false)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_parse_stopped_by_its_deadline_gives_no_tree() {
        let code = "x = 1\n".repeat(2000);
        let passed = Deadline::at(Instant::now());
        assert!(passed.passed());
        for grammar in [Grammar::Bash, Grammar::Python, Grammar::Ruby] {
            assert!(parse(grammar, &code, passed).is_none());
        }
        let later = Deadline::after(Duration::from_secs(60));
        assert!(parse(Grammar::Python, &code, later).is_some());
    }
}
