//! The words and limits every reader of commands shares: the shell walker, the readers of
//! code handed to interpreters, and the rules after them. A leaf: it uses no other part of
//! agent-guard, so the readers can stand on it without standing on each other.

#![forbid(unsafe_code)]
// What the hook runs must not panic: an error is handled, or a site that cannot fail says why.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

pub mod argv;
pub mod git;
pub mod kubectl;
pub mod writes;

use std::time::Duration;

/// Commands past this size are not parsed: the verdict falls back to the strict one.
pub const MAX_INPUT_BYTES: usize = 1 << 20;
/// How many times a script may nest inside another (`sh -c "eval '...'"`) before we give up.
pub const MAX_NESTING: u8 = 8;
/// Parsing time allowed for one command line, all nested scripts included.
pub const PARSE_DEADLINE: Duration = Duration::from_millis(250);

/// One shell word after quote removal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    /// The de-quoted value; for a non-literal word, the source of each expansion stands in
    /// for its unknown value.
    pub text: String,
    /// True when no expansion, substitution or glob is left in the word.
    pub literal: bool,
    /// Set on a word whose value is not known but is proven to lie inside a temporary
    /// folder: one the line itself just made, or a fresh name right under the machine's
    /// temporary root. Kept beside the unknown text rather than as an invented path, so
    /// that nothing reads a path that does not exist, and only what clears temporary
    /// folders looks at it.
    pub temp: Option<Temp>,
}

/// Why a word is known to lie inside a temporary folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Temp {
    /// Inside a folder the line itself just created, by the call named
    /// (`mktemp -d`, `tempfile.mkdtemp()`): nothing in it is anyone's work yet.
    Made(&'static str),
    /// A name of its own right under the machine's temporary root (`/tmp/x-$$`,
    /// `"$TMPDIR/out"`).
    Root,
}

impl Word {
    pub fn literal(text: impl Into<String>) -> Self {
        Word {
            text: text.into(),
            literal: true,
            temp: None,
        }
    }

    /// The literal value, or `None` when the word depends on the run-time environment.
    pub fn value(&self) -> Option<&str> {
        self.literal.then_some(self.text.as_str())
    }

    /// The text as a shell word again: quoted when it would not survive the shell as is.
    pub fn shell_quoted(&self) -> String {
        if !self.literal {
            return self.text.clone();
        }
        quote(&self.text)
    }
}

/// Quotes `s` for a POSIX shell, leaving plain words alone so suggestions stay readable.
pub fn quote(s: &str) -> String {
    let plain = !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./:=@%+,^~{}".contains(&b));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// One redirection of a command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    /// The operator as written: `>`, `>>`, `>|`, `&>`, `&>>`, `<`, `>&`, ...
    pub op: String,
    pub target: Word,
}

impl Redirect {
    /// Output to a file (not to a numbered descriptor, as in `2>&1`).
    pub fn writes(&self) -> bool {
        self.op.contains('>')
            && !(self.op.ends_with('&') && self.target.text.parse::<u32>().is_ok())
    }
}

/// Why an analysis could not see the whole command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Incomplete {
    TooLarge,
    TooDeep,
    Timeout,
    /// Code handed to an interpreter that its reader could not follow to the end.
    Unreadable,
    /// The guard itself failed (a panic) while judging the line.
    InternalError,
}

impl Incomplete {
    pub fn describe(self) -> &'static str {
        match self {
            Incomplete::TooLarge => "the command is larger than the 1 MiB the guard analyzes",
            Incomplete::TooDeep => "scripts are nested deeper than the guard follows",
            Incomplete::Timeout => "the command took too long to parse",
            Incomplete::Unreadable => "code it hands to an interpreter could not be read",
            Incomplete::InternalError => "the guard met an internal error while checking it",
        }
    }
}
