//! Reading argv the way getopt_long and git's parse-options do.
//!
//! Rules must judge what the program would do, so `-fdx` is three flags, `--ha` is `--hard`
//! when no other option starts with `ha`, `-e pattern` consumes `pattern`, and everything
//! after `--` is an operand. Unknown options are kept as unknown rather than treated as an
//! error, so an option table that lags behind the program never hides a destructive flag.
//! The words are read by the shared model ([`argv`]); this adds tables with canonical names
//! and git's abbreviations, and `--no-name` switching `name` off.

use crate::shell::Word;
use crate::syntax::argv;

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Value {
    /// A flag.
    No,
    /// Takes a value: `--opt=v`, `--opt v`, `-ov`, `-o v`.
    Required,
    /// Takes a value only when attached: `--opt=v`.
    Optional,
}

/// One option: its long name (the canonical name for its short spelling too), short letter.
pub struct Opt {
    pub long: &'static str,
    pub short: Option<char>,
    pub value: Value,
}

/// Shorthand for option tables.
pub const fn flag(long: &'static str, short: Option<char>) -> Opt {
    Opt {
        long,
        short,
        value: Value::No,
    }
}

pub const fn valued(long: &'static str, short: Option<char>) -> Opt {
    Opt {
        long,
        short,
        value: Value::Required,
    }
}

pub const fn optional(long: &'static str) -> Opt {
    Opt {
        long,
        short: None,
        value: Value::Optional,
    }
}

/// An option as given, resolved to its canonical long name.
#[derive(Debug)]
pub struct Given<'a> {
    pub name: &'static str,
    pub value: Option<&'a str>,
    /// Index of the argv word it came from.
    pub word: usize,
    /// Whether it was written long (`--force`) or as a letter, maybe in a cluster (`-fd`).
    pub spelling: argv::Spelling,
    /// Given switched off: `--no-name`, or a flag's value that says no (`--dry-run=false`).
    pub off: bool,
}

#[derive(Debug, Default)]
pub struct Parsed<'a> {
    pub opts: Vec<Given<'a>>,
    /// Operands in order, with the index of their word.
    pub operands: Vec<(usize, &'a Word)>,
    /// Index into `operands` of the first one that came after `--`.
    pub after_dashdash: Option<usize>,
    /// An option the table does not know (the program would likely reject the line).
    pub unknown: bool,
    /// For [`parse_head`]: the index of the first operand, where reading stopped.
    pub stopped_at: Option<usize>,
}

impl<'a> Parsed<'a> {
    /// Whether `name` is on: given, and not switched off by a later `--no-name`.
    pub fn has(&self, name: &str) -> bool {
        self.opts
            .iter()
            .rev()
            .find(|o| o.name == name)
            .is_some_and(|o| !o.off)
    }

    /// Which of several mutually overriding options was given last.
    pub fn last_of(&self, names: &[&str]) -> Option<&'static str> {
        self.opts
            .iter()
            .rev()
            .find(|o| names.contains(&o.name) && !o.off)
            .map(|o| o.name)
    }

    pub fn value(&self, name: &str) -> Option<&'a str> {
        self.opts
            .iter()
            .rev()
            .find(|o| o.name == name)
            .and_then(|o| o.value)
    }

    pub fn operand_texts(&self) -> impl Iterator<Item = &'a str> + '_ {
        self.operands.iter().map(|(_, w)| w.text.as_str())
    }
}

/// An option table as the shared argv model sees it.
struct Table<'t>(&'t [Opt]);

impl argv::Options for Table<'_> {
    fn long(&self, name: &str) -> Option<argv::Takes> {
        resolve(name, self.0).map(|(opt, _)| takes(opt))
    }
    fn short(&self, letter: char) -> Option<argv::Takes> {
        self.0.iter().find(|o| o.short == Some(letter)).map(takes)
    }
}

fn takes(opt: &Opt) -> argv::Takes {
    match opt.value {
        Value::No => argv::Takes::Nothing,
        Value::Required => argv::Takes::Value,
        Value::Optional => argv::Takes::Attached,
    }
}

/// Parses `args` against `table`, the getopt way (see [`argv`]).
pub fn parse<'a>(args: &'a [Word], table: &[Opt]) -> Parsed<'a> {
    resolved(
        args,
        table,
        argv::read(args, argv::Style::Getopt, &Table(table)),
    )
}

/// Parses the options before the first operand (a command's own options ahead of its
/// subcommand); [`Parsed::stopped_at`] is the index of that operand.
pub fn parse_head<'a>(args: &'a [Word], table: &[Opt]) -> Parsed<'a> {
    resolved(
        args,
        table,
        argv::read_head(args, argv::Style::Getopt, &Table(table)),
    )
}

/// The options `read` found, resolved to `table`'s canonical names.
fn resolved<'a>(args: &'a [Word], table: &[Opt], read: argv::Argv<'a>) -> Parsed<'a> {
    let opts = read
        .opts
        .iter()
        .filter_map(|given| {
            let (opt, negated) = match given.spelling {
                argv::Spelling::Short => {
                    let letter = given.name.chars().next()?;
                    (table.iter().find(|o| o.short == Some(letter))?, false)
                }
                argv::Spelling::Long => resolve(given.name, table)?,
            };
            let says_no = opt.value == Value::No && given.value.is_some_and(argv::says_no);
            Some(Given {
                name: opt.long,
                value: given.value,
                word: given.word,
                spelling: given.spelling,
                off: negated || says_no,
            })
        })
        .collect();
    Parsed {
        opts,
        operands: read
            .operands
            .iter()
            .filter_map(|&i| Some((i, args.get(i)?)))
            .collect(),
        after_dashdash: read.after_dashdash,
        unknown: read.unknown,
        stopped_at: read.stopped_at,
    }
}

/// The option `name` spells, and whether it is its negation (`--no-verify` of `verify`, when
/// the table has no `no-verify` of its own).
fn resolve<'t>(name: &str, table: &'t [Opt]) -> Option<(&'t Opt, bool)> {
    if let Some(opt) = resolve_long(name, table) {
        return Some((opt, false));
    }
    let opt = resolve_long(name.strip_prefix("no-")?, table)?;
    (opt.value != Value::Required).then_some((opt, true))
}

/// Exact name, or the option this is a prefix of. An ambiguous prefix (`--forc` in
/// `git push`) makes git refuse the line, but we read it as the shortest candidate: a guard
/// that errs here should err towards the destructive reading.
fn resolve_long<'t>(name: &str, table: &'t [Opt]) -> Option<&'t Opt> {
    if name.is_empty() {
        return None;
    }
    if let Some(exact) = table.iter().find(|o| o.long == name) {
        return Some(exact);
    }
    table
        .iter()
        .filter(|o| o.long.starts_with(name))
        .min_by_key(|o| o.long.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: &[Opt] = &[
        flag("force", Some('f')),
        flag("force-with-lease", None),
        flag("hard", None),
        valued("exclude", Some('e')),
        flag("dry-run", Some('n')),
    ];

    fn words(s: &str) -> Vec<Word> {
        s.split_whitespace().map(Word::literal).collect()
    }

    #[test]
    fn clusters_abbreviations_and_values() {
        let args = words("-fn --ha -epat x -- -f");
        let p = parse(&args, TABLE);
        let names: Vec<_> = p.opts.iter().map(|o| o.name).collect();
        assert_eq!(names, ["force", "dry-run", "hard", "exclude"]);
        assert_eq!(p.value("exclude"), Some("pat"));
        assert_eq!(p.operand_texts().collect::<Vec<_>>(), ["x", "-f"]);
        assert_eq!(p.after_dashdash, Some(1));
    }

    #[test]
    fn ambiguous_prefix_reads_as_the_shortest_candidate() {
        let args = words("--forc --zzz");
        let p = parse(&args, TABLE);
        let names: Vec<_> = p.opts.iter().map(|o| o.name).collect();
        assert_eq!(names, ["force"]);
        assert!(p.unknown);
    }

    #[test]
    fn negations_and_values_that_say_no_switch_off() {
        for line in [
            "-fn --no-dry-run",
            "-f --dry-run=false",
            "-f --dry-run --no-dry",
        ] {
            let args = words(line);
            let p = parse(&args, TABLE);
            assert!(p.has("force") && !p.has("dry-run"), "{line}");
        }
        let args = words("-f --no-force");
        assert!(!parse(&args, TABLE).has("force"));
    }
}
