//! Perl: `system`, `exec`, backticks and `qx`, `unlink`, `rmdir`, `File::Path`'s `rmtree`
//! and `remove_tree`, `open` for writing or to a pipe, `rename`.
//!
//! The only Perl grammar on crates.io is built against another tree-sitter runtime than the
//! one the shell parser uses, so Perl is read by a small scanner instead: it knows Perl's
//! quoting (`'...'`, `"..."`, `q()`, `qq{}`, `qw//`, backticks, `qx`), comments and
//! regular-expression operators well enough that text inside them never looks like a call,
//! then reads the argument list after each name it cares about.

use super::args::{self as script, List, ScriptArgs};
use super::tree::single_quoted;
use super::{Effect, Lowered, remove, remove_dir, rename, run, shell, unknown, write};
use crate::syntax::Word;

#[derive(Debug)]
enum Token {
    Ident(String),
    Str(Word),
    /// `qw(...)`: a list of literal words.
    Words(Vec<Word>),
    /// Backticks or `qx`: shell text.
    Shell(Word),
    /// A variable, number, regex or anything else that is a value known only at run time.
    Value(String),
    Punct(char),
}

struct Scanner<'s> {
    src: &'s str,
    pos: usize,
    /// A quote or pattern ran to the end of the code without its closing delimiter.
    ran_off: bool,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<char> {
        self.src[self.pos..].chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    /// Text up to the closing delimiter (nesting for bracket pairs), backslash escapes kept.
    fn delimited(&mut self, open: char) -> String {
        let close = closing(open);
        let mut depth = 0usize;
        let mut out = String::new();
        loop {
            let Some(c) = self.bump() else {
                self.ran_off = true;
                break;
            };
            if c == '\\' {
                out.push(c);
                out.extend(self.bump());
                continue;
            }
            if c == close && depth == 0 {
                break;
            }
            if open != close {
                if c == open {
                    depth += 1;
                } else if c == close {
                    depth -= 1;
                }
            }
            out.push(c);
        }
        out
    }

    fn skip_space(&mut self) {
        while let Some(c) = self.peek() {
            if c.is_whitespace() {
                self.bump();
            } else if c == '#' {
                while self.bump().is_some_and(|c| c != '\n') {}
            } else {
                break;
            }
        }
    }

    /// The opening delimiter of a quote-like operator, if one follows.
    fn quote_delimiter(&mut self) -> Option<char> {
        let save = self.pos;
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        match self.peek() {
            Some(c)
                if !c.is_alphanumeric()
                    && !c.is_whitespace()
                    && !matches!(c, '_' | ',' | ';' | ')' | '=') =>
            {
                self.bump();
                Some(c)
            }
            _ => {
                self.pos = save;
                None
            }
        }
    }

    /// The next token and its byte range.
    fn next(&mut self, prev: Option<&Token>) -> Option<(Token, usize, usize)> {
        self.skip_space();
        let start = self.pos;
        let c = self.bump()?;
        let token = match c {
            '\'' => Token::Str(Word::literal(single_quoted(&self.delimited('\'')))),
            '"' => double(&self.delimited('"')),
            '`' => Token::Shell(double_word(&self.delimited('`'))),
            '$' | '@' | '%'
                if self
                    .peek()
                    .is_some_and(|c| c.is_alphanumeric() || "_{$:!@".contains(c)) =>
            {
                if self.peek() == Some('{') {
                    self.bump();
                    self.delimited('{');
                } else {
                    while self
                        .peek()
                        .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':')
                    {
                        self.bump();
                    }
                    if self.pos == start + 1 {
                        self.bump();
                    }
                }
                Token::Value(self.src[start..self.pos].to_string())
            }
            '/' if regex_may_follow(prev) => {
                self.delimited('/');
                Token::Value(self.src[start..self.pos].to_string())
            }
            c if c.is_alphabetic() || c == '_' => {
                while self
                    .peek()
                    .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':')
                {
                    self.bump();
                }
                let word = &self.src[start..self.pos];
                // `-s $file` is a file test (its size), not a substitution.
                let file_test = word == "s" && matches!(prev, Some(Token::Punct('-')));
                match word {
                    "q" | "qq" | "qw" | "qx" | "m" | "qr" | "s" | "tr" | "y" if !file_test => {
                        match self.quote_delimiter() {
                            Some(open) => self.quote_like(word, open, start),
                            None => Token::Ident(word.to_string()),
                        }
                    }
                    _ => Token::Ident(word.to_string()),
                }
            }
            c if c.is_ascii_digit() => {
                while self
                    .peek()
                    .is_some_and(|c| c.is_alphanumeric() || c == '.' || c == '_')
                {
                    self.bump();
                }
                Token::Value(self.src[start..self.pos].to_string())
            }
            c => Token::Punct(c),
        };
        Some((token, start, self.pos))
    }

    fn quote_like(&mut self, op: &str, open: char, start: usize) -> Token {
        let body = self.delimited(open);
        match op {
            "q" => Token::Str(Word::literal(single_quoted(&body))),
            "qq" => double(&body),
            "qw" => Token::Words(body.split_whitespace().map(Word::literal).collect()),
            "qx" if open == '\'' => Token::Shell(Word::literal(body)),
            "qx" => Token::Shell(double_word(&body)),
            _ => {
                // `s{a}{b}`, `tr/a/b/`: a second part follows.
                if matches!(op, "s" | "tr" | "y") {
                    if open != closing(open) {
                        self.skip_space();
                        if let Some(second) = self.bump() {
                            self.delimited(second);
                        }
                    } else {
                        self.delimited(open);
                    }
                }
                while self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
                    self.bump();
                }
                Token::Value(self.src[start..self.pos].to_string())
            }
        }
    }
}

/// The delimiter that closes `open`: its bracket pair, else itself.
fn closing(open: char) -> char {
    match open {
        '(' => ')',
        '[' => ']',
        '{' => '}',
        '<' => '>',
        c => c,
    }
}

/// A `/` starts a regular expression where a value is expected, not after one.
fn regex_may_follow(prev: Option<&Token>) -> bool {
    match prev {
        None => true,
        Some(Token::Punct(c)) => !matches!(c, ')' | ']' | '}'),
        Some(Token::Ident(_)) => true,
        _ => false,
    }
}

fn double_word(body: &str) -> Word {
    let interpolates = body
        .char_indices()
        .any(|(i, c)| matches!(c, '$' | '@') && (i == 0 || !body[..i].ends_with('\\')));
    if interpolates {
        unknown(body)
    } else {
        Word::literal(super::tree::unescape(body))
    }
}

/// A double-quoted string: a string known in part when it interpolates.
fn double(body: &str) -> Token {
    Token::Str(double_word(body))
}

pub(super) fn effects(code: &str, given: ScriptArgs) -> Lowered {
    let mut scanner = Scanner {
        src: code,
        pos: 0,
        ran_off: false,
    };
    let mut tokens: Vec<(Token, usize, usize)> = Vec::new();
    // Where the token that ran to the end starts: the scanner may have misread it (as a
    // quote, a pattern), and then the calls after it were never seen.
    let mut unread = None;
    while let Some(token) = scanner.next(tokens.last().map(|(t, _, _)| t)) {
        if scanner.ran_off {
            unread.get_or_insert(token.1);
        }
        tokens.push(token);
    }
    let mut out = Vec::new();
    for (i, (token, start, _)) in tokens.iter().enumerate() {
        match token {
            Token::Shell(script) => out.push(Effect::Shell {
                script: script.clone(),
            }),
            Token::Ident(name) => {
                // `->system`, `sub system`, `$x{system}`, `system => 1` are not the builtin.
                let prev = i.checked_sub(1).and_then(|j| tokens.get(j)).map(|t| &t.0);
                let next = tokens.get(i + 1).map(|t| &t.0);
                let not_a_call = matches!(prev, Some(Token::Punct('>')))
                    || matches!(prev, Some(Token::Ident(w)) if w == "sub")
                    || matches!(next, Some(Token::Punct('=' | '}')));
                if not_a_call {
                    continue;
                }
                let after = tokens.get(i + 1..).unwrap_or_default();
                let (args, end) = arguments(after);
                let end = end.and_then(|e| after.get(e)).map_or(code.len(), |t| t.2);
                if let Some(effect) = call(name, &args, &code[*start..end]) {
                    out.push(effect);
                }
            }
            _ => {}
        }
    }
    let mut lists = script::lists(code, &script::PERL, given);
    let names = names(&tokens, &mut lists, given);
    script::bind(&mut out, &lists, &names, false, given);
    Lowered {
        effects: out,
        incomplete: None,
        unread: unread
            .map(|start| code[start..].to_string())
            .into_iter()
            .collect(),
    }
}

/// The scalars bound once to an argument given, `my $d = $ARGV[0];` or `my ($a, $b) =
/// @ARGV;`, each with that argument, when every other mention of one is a call's plain
/// argument (`rmtree($d)`, `unlink $d, $e`). `@ARGV` anywhere else may be changed in place
/// (`for (@ARGV)` aliases its elements): then `lists` is emptied and nothing is bound.
fn names<'t, 'a>(
    tokens: &'t [(Token, usize, usize)],
    lists: &mut Vec<&'static List>,
    given: ScriptArgs<'a>,
) -> Vec<(&'t str, &'a Word)> {
    if lists.is_empty() {
        return Vec::new();
    }
    let at = |i: usize| tokens.get(i).map(|t| &t.0);
    let punct = |i: usize, c: char| matches!(at(i), Some(Token::Punct(p)) if *p == c);
    let value = |i: usize| match at(i) {
        Some(Token::Value(v)) => Some(v.as_str()),
        _ => None,
    };
    let ident = |i: usize, w: &str| matches!(at(i), Some(Token::Ident(x)) if x == w);
    // Each binding: the index of the name's token, the name and the argument it takes.
    let mut bindings: Vec<(usize, &str, Option<usize>)> = Vec::new();
    for i in 0..tokens.len() {
        match value(i) {
            // `my $d = $ARGV[0];`
            Some(v) if v.starts_with('$') && ident(i.wrapping_sub(1), "my") => {
                let index = value(i + 4).and_then(|n| n.parse::<usize>().ok());
                let read = punct(i + 1, '=')
                    && value(i + 2) == Some("$ARGV")
                    && punct(i + 3, '[')
                    && punct(i + 5, ']')
                    && punct(i + 6, ';');
                bindings.push((i, v, index.filter(|_| read)));
            }
            Some("@ARGV") => {
                // `my ($a, $b) = @ARGV;`
                let mut j = i.wrapping_sub(2);
                let mut list = Vec::new();
                let listed = punct(i.wrapping_sub(1), '=') && punct(j, ')') && punct(i + 1, ';');
                while listed && j > 0 {
                    j -= 1;
                    match at(j) {
                        Some(Token::Value(v)) if v.starts_with('$') => list.push((j, v.as_str())),
                        Some(Token::Punct(',')) => {}
                        _ => break,
                    }
                }
                let whole = listed && punct(j, '(') && ident(j.wrapping_sub(1), "my");
                // A count (`@ARGV < 2`, `scalar(@ARGV)`) only reads it.
                let counted = punct(i + 1, '<')
                    || punct(i + 1, '>')
                    || (ident(i.wrapping_sub(2), "scalar") && punct(i + 1, ')'));
                if whole {
                    let count = list.len();
                    for (k, (j, v)) in list.into_iter().enumerate() {
                        bindings.push((j, v, Some(count - 1 - k)));
                    }
                } else if !counted {
                    lists.clear();
                    return Vec::new();
                }
            }
            _ => {}
        }
    }
    let calls = [
        "unlink",
        "rmdir",
        "rmtree",
        "remove_tree",
        "system",
        "exec",
        "rename",
        "open",
    ];
    let used = |i: usize| {
        let before = punct(i.wrapping_sub(1), '(')
            || punct(i.wrapping_sub(1), ',')
            || calls.iter().any(|c| ident(i.wrapping_sub(1), c));
        before
            && (punct(i + 1, ',') || punct(i + 1, ')') || punct(i + 1, ';') || at(i + 1).is_none())
    };
    let mut out = Vec::new();
    for (_, name, index) in &bindings {
        let mine: Vec<_> = bindings.iter().filter(|(_, n, _)| n == name).collect();
        let only_used = (0..tokens.len())
            .all(|i| value(i) != Some(*name) || mine.iter().any(|(j, _, _)| *j == i) || used(i));
        if let ([_], true, Some(index)) = (mine.as_slice(), only_used, index)
            && let Some(arg) = given.get(*index)
        {
            out.push((*name, arg));
        }
    }
    out
}

/// The comma-separated arguments after a name, in parentheses or up to the end of the
/// statement, and the index of the last token read.
fn arguments(tokens: &[(Token, usize, usize)]) -> (Vec<Vec<&Token>>, Option<usize>) {
    let parens = matches!(tokens.first(), Some((Token::Punct('('), _, _)));
    let mut args: Vec<Vec<&Token>> = vec![Vec::new()];
    let mut depth = 0usize;
    let mut last = None;
    for (i, (token, _, _)) in tokens.iter().enumerate().skip(usize::from(parens)) {
        last = Some(i);
        match token {
            Token::Punct('(' | '[' | '{') => depth += 1,
            Token::Punct(')' | ']' | '}') if depth > 0 => depth -= 1,
            Token::Punct(')') => break,
            Token::Punct(';') if depth == 0 => break,
            Token::Punct(',') if depth == 0 => {
                args.push(Vec::new());
                continue;
            }
            Token::Ident(w)
                if depth == 0
                    && !parens
                    && matches!(w.as_str(), "or" | "and" | "if" | "unless") =>
            {
                break;
            }
            _ => {}
        }
        if let Some(arg) = args.last_mut() {
            arg.push(token);
        }
    }
    args.retain(|a| !a.is_empty());
    (args, last)
}

/// One argument's value: literal strings joined by `.`, anything else unknown.
fn words_of(arg: &[&Token]) -> Vec<Word> {
    if let [Token::Words(words)] = arg {
        return words.clone();
    }
    let mut text = String::new();
    let mut literal = true;
    for token in arg {
        match token {
            Token::Str(w) => {
                text.push_str(&w.text);
                literal &= w.literal;
            }
            Token::Punct('.') => {}
            Token::Value(v) | Token::Ident(v) => {
                text.push_str(v);
                literal = false;
            }
            Token::Punct(c) => {
                text.push(*c);
                literal = false;
            }
            Token::Shell(w) => {
                text.push_str(&w.text);
                literal = false;
            }
            Token::Words(w) => {
                text.push_str(
                    &w.iter()
                        .map(|w| w.text.as_str())
                        .collect::<Vec<_>>()
                        .join(" "),
                );
                literal = false;
            }
        }
    }
    vec![Word {
        text,
        literal,
        temp: None,
    }]
}

fn call(name: &str, args: &[Vec<&Token>], text: &str) -> Option<Effect> {
    let name = name.trim_start_matches("CORE::");
    let all = || -> Vec<Word> { args.iter().flat_map(|a| words_of(a)).collect() };
    let first = || {
        args.first()
            .map(|a| words_of(a))
            .and_then(|w| w.into_iter().next())
    };
    match name {
        "system" | "exec" => {
            let words = all();
            match (words.as_slice(), args) {
                ([], _) => None,
                ([one], [arg]) if !matches!(arg.as_slice(), [Token::Words(_)]) => {
                    // Shell text, unless nothing of it is written out (`system($cmd)`).
                    let known = arg.iter().any(|t| matches!(t, Token::Str(_)));
                    Some(shell(text, one.clone(), known))
                }
                _ => run(text, words),
            }
        }
        "unlink" => {
            let targets = all();
            (!targets.is_empty()).then(|| remove(text, targets, false))
        }
        "rmdir" => Some(remove_dir(text, first()?)),
        "rmtree" | "remove_tree" | "File::Path::rmtree" | "File::Path::remove_tree" => {
            // A trailing `{ ... }` holds options, not a path.
            let targets: Vec<Word> = args
                .iter()
                .filter(|a| !matches!(a.first(), Some(Token::Punct('{'))))
                .flat_map(|a| words_of(a))
                .collect();
            (!targets.is_empty()).then(|| remove(text, targets, true))
        }
        "open" => open(args, text),
        "rename" => Some(rename(
            text,
            first()?,
            args.get(1).map(|a| words_of(a))?.into_iter().next()?,
        )),
        _ => None,
    }
}

/// `open(FH, '>', $path)`, `open(FH, ">$path")`, `open(FH, "| cmd")`, `open(FH, '-|', @argv)`.
fn open(args: &[Vec<&Token>], text: &str) -> Option<Effect> {
    let mode = words_of(args.get(1)?).into_iter().next()?;
    if args.len() >= 3 {
        let rest: Vec<Word> = args
            .get(2..)
            .unwrap_or_default()
            .iter()
            .flat_map(|a| words_of(a))
            .collect();
        let mode = mode.text.trim();
        return match mode {
            "-|" | "|-" => run(text, rest),
            m if m.contains(['>', '+']) => Some(write(text, "open", rest.into_iter().next()?)),
            _ => None,
        };
    }
    let spec = mode.text.trim();
    if let Some(script) = spec.strip_prefix('|').or_else(|| spec.strip_suffix('|')) {
        return Some(Effect::Shell {
            script: Word {
                text: script.trim().to_string(),
                literal: mode.literal,
                temp: None,
            },
        });
    }
    let target = spec.trim_start_matches(['+', '>', '<']).trim();
    spec.starts_with(['>', '+']).then(|| {
        write(
            text,
            "open",
            Word {
                text: target.to_string(),
                literal: mode.literal,
                temp: None,
            },
        )
    })
}

#[cfg(test)]
mod tests {
    fn lowered(code: &str) -> Vec<String> {
        crate::lang::shown(crate::lang::Lang::Perl, code)
    }

    #[test]
    fn processes() {
        assert_eq!(lowered("system \"git clean -fd\""), ["sh git clean -fd"]);
        assert_eq!(
            lowered("system('git', 'reset', '--hard');"),
            ["git reset --hard"]
        );
        assert_eq!(lowered("print `rm -rf $dir`"), ["sh rm -rf $dir"]);
        assert_eq!(
            lowered("my $x = qx{git stash clear};"),
            ["sh git stash clear"]
        );
        assert_eq!(lowered("exec qw(git reset --hard)"), ["git reset --hard"]);
    }

    #[test]
    fn deletions_and_writes() {
        assert_eq!(lowered("unlink 'a', 'b';"), ["rm a b"]);
        assert_eq!(
            lowered("use File::Path qw(remove_tree); remove_tree('out', {verbose => 1});"),
            ["rm -r out"]
        );
        assert_eq!(
            lowered("open(my $f, '>', '.agent-guard.toml') or die"),
            ["open > .agent-guard.toml"]
        );
        assert_eq!(lowered("open(F, \">>.bashrc\")"), ["open > .bashrc"]);
    }

    #[test]
    fn mentions_pass() {
        for code in [
            "print \"system('rm -rf /')\"",
            "print 'unlink x'",
            "# system('rm -rf /')\nprint 1",
            "$x =~ s/system/exec/g; print $x",
            "say 1",
            "open(my $f, '<', 'x') or die",
            "$obj->system('rm -rf /')",
        ] {
            assert!(lowered(code).is_empty(), "{code}");
        }
    }

    #[test]
    fn a_script_files_arguments() {
        let run = |code: &str, args: &[&str]| {
            crate::lang::shown_with(crate::lang::Lang::Perl, code, args)
        };
        assert_eq!(run("rmtree($ARGV[0]);", &["tmp"]), ["rm -r tmp"]);
        assert_eq!(run("rmtree($ARGV[1]);", &["tmp"]), ["rm -r $ARGV[1]"]);
        assert_eq!(
            run("use File::Path;\nmy $d = $ARGV[0];\nrmtree($d);", &["tmp"]),
            ["rm -r tmp"]
        );
        assert_eq!(
            run(
                "die 'usage' if @ARGV < 2;\nmy ($a, $b) = @ARGV;\nsystem('git', 'checkout', $b);",
                &["x", "feature"]
            ),
            ["git checkout feature"]
        );
        for code in [
            "my $d = $ARGV[0];\n$d = 'src';\nrmtree($d);",
            "my $d = $ARGV[0];\n$d .= '/x';\nrmtree($d);",
            "my $d = shift;\nrmtree($d);",
            "for (@ARGV) { }\nmy $d = $ARGV[0];\nrmtree($d);",
        ] {
            assert_eq!(run(code, &["tmp", "src"]), ["rm -r $d"], "{code}");
        }
    }
}
