//! Reading argv the way getopt_long and git's parse-options do.
//!
//! Rules must judge what the program would do, so `-fdx` is three flags, `--ha` is `--hard`
//! when no other option starts with `ha`, `-e pattern` consumes `pattern`, and everything
//! after `--` is an operand. Unknown options are kept as unknown rather than treated as an
//! error, so an option table that lags behind the program never hides a destructive flag.
#![deny(clippy::indexing_slicing)]

use crate::shell::Word;

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
}

impl<'a> Parsed<'a> {
    pub fn has(&self, name: &str) -> bool {
        self.opts.iter().any(|o| o.name == name)
    }

    /// Which of several mutually overriding options was given last.
    pub fn last_of(&self, names: &[&str]) -> Option<&'static str> {
        self.opts
            .iter()
            .rev()
            .find(|o| names.contains(&o.name))
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

/// Parses `args` against `table`. Options and operands may be interleaved (GNU and git
/// both permute), until `--`.
pub fn parse<'a>(args: &'a [Word], table: &[Opt]) -> Parsed<'a> {
    let mut out = Parsed::default();
    let mut i = 0;
    while let Some(word) = args.get(i) {
        let text = word.text.as_str();
        if text == "--" {
            out.after_dashdash = Some(out.operands.len());
            out.operands.extend(args.iter().enumerate().skip(i + 1));
            break;
        }
        if let Some(long) = text.strip_prefix("--") {
            let (name, inline) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (long, None),
            };
            match resolve_long(name, table) {
                Some(opt) => {
                    let value = match (opt.value, inline) {
                        (Value::Required, None) => {
                            i += 1;
                            args.get(i).map(|w| w.text.as_str())
                        }
                        (_, v) => v,
                    };
                    out.opts.push(Given {
                        name: opt.long,
                        value,
                        word: i,
                    });
                }
                None => out.unknown = true,
            }
        } else if text.len() > 1 && text.starts_with('-') {
            let start = i;
            for (pos, c) in text[1..].char_indices() {
                let Some(opt) = table.iter().find(|o| o.short == Some(c)) else {
                    out.unknown = true;
                    continue;
                };
                if opt.value == Value::Required {
                    let rest = &text[1 + pos + c.len_utf8()..];
                    let value = if rest.is_empty() {
                        i += 1;
                        args.get(i).map(|w| w.text.as_str())
                    } else {
                        Some(rest)
                    };
                    out.opts.push(Given {
                        name: opt.long,
                        value,
                        word: start,
                    });
                    break;
                }
                out.opts.push(Given {
                    name: opt.long,
                    value: None,
                    word: start,
                });
            }
        } else {
            out.operands.push((i, word));
        }
        i += 1;
    }
    out
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
}
