//! find: `-delete` and `-exec rm` with nothing narrowing what matches.
#![deny(clippy::indexing_slicing)]

use super::{Hit, Rule, Subject, Tier};
use crate::shell::Word;

pub static FIND_DELETE: Rule = Rule {
    id: "fs.find-delete",
    catches: "`find -delete`, or `-exec`/`-execdir`/`-ok rm`, reaching files no name or path \
              pattern (or `-empty`) picked out",
    why: "Only a name or path pattern (`-name`, `-path`, `-regex`, ...), `-empty`, or one \
          file's identity (`-inum`, `-samefile`) says which files go. Without one, and behind a negation (`-not -name '*.md'`) or an `-o` branch \
          that skips it, find matches nearly everything under its starting points: tests on \
          age, size, owner, permissions or type alone still take whole folders of work, so \
          `find . -mmin -30 -delete` deletes everything written in the last half hour.",
    instead: "Narrow it by name and look first: `find . -name '*.pyc' -print`, then the same \
              with `-delete`.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "find . -delete",
        "find build -depth -delete",
        "find . -exec rm -f {} \\;",
        "find . -delete -name '*.o'",
        "find . -not -name '*.md' -delete",
        "find . -mmin -30 -delete",
        "find . -type f -size +0 -exec rm {} +",
        "find . -name '*.tmp' -o -delete",
    ],
    passes: &[
        "find . -name '*.pyc' -delete",
        "find . -empty -delete",
        "find . -name '*.txt' -exec rm {} \\;",
        "find . -print",
        "find . -exec grep -l x {} +",
        "find . -type l ! -exec test -e {} \\; -delete",
        "find . -type f -mtime +7 -name '*.log' -delete",
        "find . \\( -name '*.o' -o -name '*.a' \\) -delete",
    ],
};

/// Tests that take one argument; the argument is never an action.
const TESTS_WITH_VALUE: &[&str] = &[
    "-name",
    "-iname",
    "-path",
    "-ipath",
    "-wholename",
    "-iwholename",
    "-regex",
    "-iregex",
    "-lname",
    "-ilname",
    "-newer",
    "-anewer",
    "-cnewer",
    "-mtime",
    "-mmin",
    "-atime",
    "-amin",
    "-ctime",
    "-cmin",
    "-used",
    "-size",
    "-user",
    "-group",
    "-uid",
    "-gid",
    "-perm",
    "-inum",
    "-samefile",
    "-links",
    "-type",
    "-xtype",
    "-fstype",
    "-maxdepth",
    "-mindepth",
    "-regextype",
    "-printf",
    "-fprint",
    "-fprint0",
    "-fls",
    "-context",
    "-files0-from",
];

/// Tests that match a name or path pattern: the only ones that say *which* files go.
const PATTERN_TESTS: &[&str] = &[
    "-name",
    "-iname",
    "-path",
    "-ipath",
    "-wholename",
    "-iwholename",
    "-regex",
    "-iregex",
    "-lname",
    "-ilname",
];

/// Nesting of parentheses and negations followed; deeper ones count as narrowing nothing.
const MAX_DEPTH: usize = 32;

/// What is known about the files at one point of a find expression: whether every file for
/// which it is true (`when_true`) or false (`when_false`) already matched a narrowing test,
/// and whether an action in it deletes files that did not.
#[derive(Clone, Copy)]
struct Reach {
    deletes: bool,
    when_true: bool,
    when_false: bool,
}

impl Reach {
    /// A primary that narrows nothing and deletes nothing: `-type f`, `-print`, `-maxdepth 1`.
    fn neutral(narrowed: bool) -> Reach {
        Reach {
            deletes: false,
            when_true: narrowed,
            when_false: narrowed,
        }
    }
}

/// Reads find's expression (`!`/`-not` over `-a` over `-o` over `,`, with parentheses) the
/// way find evaluates it, carrying whether the files that reach each point were narrowed.
struct Expr<'a> {
    args: &'a [Word],
    at: usize,
    /// Nesting went past [`MAX_DEPTH`]: the reading is not trusted to narrow anything.
    too_deep: bool,
}

impl Expr<'_> {
    fn peek(&self) -> Option<&str> {
        self.args.get(self.at).map(|w| w.text.as_str())
    }

    fn list(&mut self, narrowed: bool, depth: usize) -> Reach {
        let mut reach = self.or(narrowed, depth);
        while self.peek() == Some(",") {
            self.at += 1;
            // Both sides of `,` run on every file; the value is the right side's.
            let right = self.or(narrowed, depth);
            reach = Reach {
                deletes: reach.deletes || right.deletes,
                ..right
            };
        }
        reach
    }

    fn or(&mut self, narrowed: bool, depth: usize) -> Reach {
        let mut reach = self.and(narrowed, depth);
        while matches!(self.peek(), Some("-o" | "-or")) {
            self.at += 1;
            // The right side sees only the files the left side was false for.
            let right = self.and(reach.when_false, depth);
            reach = Reach {
                deletes: reach.deletes || right.deletes,
                when_true: reach.when_true && right.when_true,
                when_false: right.when_false,
            };
        }
        reach
    }

    fn and(&mut self, narrowed: bool, depth: usize) -> Reach {
        let mut reach = self.not(narrowed, depth);
        loop {
            match self.peek() {
                None | Some("-o" | "-or" | "," | ")") => return reach,
                Some("-a" | "-and") => self.at += 1,
                Some(_) => {}
            }
            if self.peek().is_none() {
                return reach;
            }
            // The right side sees only the files the left side was true for.
            let right = self.not(reach.when_true, depth);
            reach = Reach {
                deletes: reach.deletes || right.deletes,
                when_true: right.when_true,
                when_false: reach.when_false && right.when_false,
            };
        }
    }

    fn not(&mut self, narrowed: bool, depth: usize) -> Reach {
        match self.peek() {
            Some("!" | "-not") if depth < MAX_DEPTH => {
                self.at += 1;
                let inner = self.not(narrowed, depth + 1);
                Reach {
                    deletes: inner.deletes,
                    when_true: inner.when_false,
                    when_false: inner.when_true,
                }
            }
            Some("(") if depth < MAX_DEPTH => {
                self.at += 1;
                let inner = self.list(narrowed, depth + 1);
                if self.peek() == Some(")") {
                    self.at += 1;
                }
                inner
            }
            Some("!" | "-not" | "(") => {
                self.too_deep = true;
                self.primary(narrowed)
            }
            _ => self.primary(narrowed),
        }
    }

    fn primary(&mut self, narrowed: bool) -> Reach {
        let Some(word) = self.args.get(self.at) else {
            return Reach::neutral(narrowed);
        };
        self.at += 1;
        let w = word.text.as_str();
        let value = self.args.get(self.at).map(|v| v.text.as_str());
        if PATTERN_TESTS.contains(&w) {
            self.at += 1;
            return Reach {
                when_true: narrowed || value.is_some_and(|v| !matches_all(w, v)),
                ..Reach::neutral(narrowed)
            };
        }
        match w {
            // One file, by identity: as narrow as a name.
            "-inum" | "-samefile" => {
                self.at += 1;
                Reach {
                    when_true: true,
                    ..Reach::neutral(narrowed)
                }
            }
            "-empty" => Reach {
                when_true: true,
                ..Reach::neutral(narrowed)
            },
            // `-size 0` is `-empty` for files.
            "-size" => {
                self.at += 1;
                Reach {
                    when_true: narrowed || value.is_some_and(is_zero_size),
                    ..Reach::neutral(narrowed)
                }
            }
            // Never true: whatever follows it with `-a` is never reached.
            "-false" => Reach {
                when_true: true,
                ..Reach::neutral(narrowed)
            },
            "-delete" => Reach {
                deletes: !narrowed,
                ..Reach::neutral(narrowed)
            },
            "-exec" | "-execdir" | "-ok" | "-okdir" => self.exec(narrowed),
            "-fprintf" => {
                self.at += 2;
                Reach::neutral(narrowed)
            }
            _ => {
                if TESTS_WITH_VALUE.contains(&w) || w.starts_with("-newer") {
                    self.at += 1;
                }
                Reach::neutral(narrowed)
            }
        }
    }

    /// `-exec PROGRAM ARGS... ;` or `... {} +`, the program's words already due.
    fn exec(&mut self, narrowed: bool) -> Reach {
        let program = self
            .args
            .get(self.at)
            .and_then(|w| w.value())
            .map(|p| p.rsplit('/').next().unwrap_or(p));
        let mut terminator = "";
        while let Some(next) = self.args.get(self.at) {
            self.at += 1;
            let after_braces = self
                .at
                .checked_sub(2)
                .and_then(|before| self.args.get(before))
                .is_some_and(|w| w.text == "{}");
            if next.text == ";" || (next.text == "+" && after_braces) {
                terminator = if next.text == ";" { ";" } else { "+" };
                break;
            }
        }
        if program == Some("rm") {
            return Reach {
                deletes: !narrowed,
                ..Reach::neutral(narrowed)
            };
        }
        // `-exec test -e {} ;` is a test the agent wrote for these files: only those it
        // succeeds on (or, negated, fails on) go further. A program that always succeeds
        // tells nothing apart.
        let filters =
            terminator == ";" && !matches!(program, Some("echo" | "printf" | "true" | ":") | None);
        Reach::neutral(narrowed || filters)
    }
}

/// A pattern every name or path matches: the glob `*`, or the regex `.*`.
fn matches_all(test: &str, pattern: &str) -> bool {
    if test.ends_with("regex") {
        matches!(pattern, ".*" | ".*.*" | "./.*")
    } else {
        matches!(pattern, "*" | "**" | "./*" | "*/*")
    }
}

/// `0`, `0c`, `-1k`: a size only empty files have (find rounds sizes up to whole units).
fn is_zero_size(value: &str) -> bool {
    let number = value
        .strip_suffix(['b', 'c', 'w', 'k', 'M', 'G'])
        .unwrap_or(value);
    number == "-1" || !number.is_empty() && number.bytes().all(|b| b == b'0')
}

/// Options that come before the starting points: `-H`, `-L`, `-P`, `-D debugopts`, `-O3`.
fn leading_options(args: &[Word]) -> usize {
    let mut i = 0;
    while let Some(w) = args.get(i).map(|w| w.text.as_str()) {
        match w {
            "-H" | "-L" | "-P" => i += 1,
            "-D" => i += 2,
            _ if w.starts_with("-O") && w[2..].bytes().all(|b| b.is_ascii_digit()) => i += 1,
            _ => break,
        }
    }
    i
}

pub(super) fn check(args: &[Word]) -> Option<Hit> {
    let mut starts: Vec<&Word> = Vec::new();
    let mut i = leading_options(args).min(args.len());
    while let Some(word) = args.get(i) {
        let w = word.text.as_str();
        if w == "-f" {
            starts.extend(args.get(i + 1));
            i += 2;
        } else if !w.starts_with('-') && !matches!(w, "(" | "!" | ")" | ",") {
            starts.push(word);
            i += 1;
        } else {
            break;
        }
    }
    let mut expr = Expr {
        args: args.get(i..).unwrap_or_default(),
        at: 0,
        too_deep: false,
    };
    let mut deletes = false;
    // A stray `)` ends a parse early; what follows it is read too, narrowing nothing.
    while expr.peek().is_some() {
        deletes |= expr.list(false, 0).deletes;
        if expr.peek() == Some(")") {
            expr.at += 1;
        }
    }
    if expr.too_deep {
        deletes |= expr.args.iter().any(|w| w.text == "-delete")
            || expr.args.windows(2).any(|pair| match pair {
                [action, program] => {
                    (action.text.starts_with("-exec") || action.text.starts_with("-ok"))
                        && program
                            .value()
                            .is_some_and(|p| p.rsplit('/').next() == Some("rm"))
                }
                _ => false,
            });
    }
    if !deletes {
        return None;
    }
    let here = Word::literal(".");
    let starts = if starts.is_empty() {
        vec![&here]
    } else {
        starts
    };
    let shown: Vec<&str> = starts.iter().map(|w| w.text.as_str()).collect();
    let preview: Vec<String> = std::iter::once("find".to_string())
        .chain(shown.iter().map(|s| crate::shell::word::quote(s)))
        .chain(["-name", "'<pattern>'", "-print"].map(String::from))
        .collect();
    Some(
        Hit::new(
            &FIND_DELETE,
            Tier::Destructive,
            format!(
                "deletes every file under {}, since no test narrows the match",
                super::git::list(shown.iter().copied())
            ),
        )
        .safer(format!(
            "`{}` to see what matches, then add `-delete`",
            preview.join(" ")
        ))
        .recovery("none for files git does not track")
        .about(Subject::Paths(starts.into_iter().cloned().collect())),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deletes(line: &str) -> bool {
        let args: Vec<Word> = line.split_whitespace().map(Word::literal).collect();
        check(&args).is_some()
    }

    #[test]
    fn only_patterns_emptiness_and_identity_narrow() {
        for line in [
            ". -delete",
            ". -mtime +7 -delete",
            ". -not -name *.md -delete",
            ". ( -name *.o -o -type f ) -delete",
            ". -name *.o -o -delete",
            ". -name * -delete",
            ". -name *.o , -delete",
            ". -delete -name *.o",
            "-L . -size +1k -exec rm {} +",
        ] {
            assert!(deletes(line), "{line}");
        }
        for line in [
            ". -name *.o -delete",
            ". ( -name *.o -o -name *.a ) -delete",
            ". -not ( -not -name *.o ) -delete",
            ". -name *.o -delete -o -print",
            ". -size 0 -delete",
            ". -inum 42 -delete",
            ". -false -delete",
            ". -type l ! -exec test -e {} ; -delete",
        ] {
            assert!(!deletes(line), "{line}");
        }
    }

    #[test]
    fn deep_nesting_neither_overflows_nor_hides_a_delete() {
        let open = "( ".repeat(10_000);
        assert!(deletes(&format!(". {open} -name x -o -delete")));
        assert!(!deletes(&format!(". {open} -name x -print")));
        let negations = "! ".repeat(10_000);
        assert!(deletes(&format!(". {negations} -name x -delete")));
    }
}
