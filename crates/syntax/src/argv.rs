//! The one reading of a program's argv into options and operands, shared by every rule and
//! reader, so that two of them never disagree on what a line asks for.
//!
//! A caller says how the program spells its options ([`Style`]) and which options take a
//! value ([`Options`]); [`read`] gives the options in order, each with its value, and the
//! operands. Options and operands may interleave (getopt and pflag both permute) until `--`.
//! An option the caller does not know is still read as a flag (and [`Argv::unknown`] set),
//! so a table that lags behind a program can at worst turn an option's value into an operand,
//! never hide an option.
//!
//! Whether an option is *on* has one meaning too ([`Opt::on`], [`Argv::setting`]): the last
//! of its spellings wins, `--no-name` turns it off, and so does a value that says no
//! (`--dry-run=false`, `--dry-run=none`, `-n=0`). That is how a preview is told from the real
//! thing in every rule.

use super::Word;

/// How a program spells its options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// getopt_long and git's parse-options: `--name[=v]`, `-abc` a cluster of letters, `-ov`
    /// and `-o v` a letter's value. Every character of a cluster is a letter.
    Getopt,
    /// Go's pflag and most tools since: as getopt, but `-o=v` gives `v` (to a flag too:
    /// `-n=false`), and a word like `-?x` or `-l.x` that is no cluster of letters is one
    /// option of its own.
    Pflag,
    /// Go's `flag` package (terraform): `-name[=v]` and `--name[=v]` are the same option.
    Go,
    /// PowerShell's parameters (`pwsh`): `-Name`, `--Name` and `/Name` are one option each,
    /// never a cluster, with a value after `:` (`-File:x.ps1`). The caller's
    /// [`Options::long`] takes the abbreviations and any case, as PowerShell does.
    PowerShell,
    /// Windows `/x` options (`cmd`): `/` and a letter is that option, and the rest of the
    /// word its value (`/v:on` gives `on`, `/cdir` gives `dir`); a letter that takes a value
    /// and has none attached takes the next word. Any other word is an operand, `-x` and `--`
    /// too.
    Slash,
    /// POSIX shells and their `set`: getopt's clusters, which may also be spelled with `+`
    /// (`bash +o posix`, `set +a`) to turn each of their letters off ([`Opt::plus`]).
    Shell,
}

/// What an option takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Takes {
    /// Nothing: a flag (still `--flag=v` gives it a value, which may turn it off).
    Nothing,
    /// A value: attached (`--opt=v`, `-ov`) or the next word.
    Value,
    /// A value only when attached (`--opt=v`, `-ov`).
    Attached,
    /// A number only when attached, after which the cluster goes on: the interpreters'
    /// `-0777ne` and `-l015e` (perl, ruby) read `0` with `777`, then `n` and `e`. The number
    /// is digits, or `x` and hex digits (`-0x1FF`).
    Number,
    /// A value in the next word left after its cluster, never attached, and the cluster goes
    /// on: a shell's `-o`/`-O` (`bash -oc pipefail SCRIPT` gives `o` the word `pipefail` and
    /// `c` is a flag).
    Next,
}

/// What a caller knows of a program's options. `None` marks an option unknown; it is then
/// read as a flag.
pub trait Options {
    /// A long option by the name written (without dashes and value; may be abbreviated).
    fn long(&self, name: &str) -> Option<Takes>;
    /// A one-letter option.
    fn short(&self, letter: char) -> Option<Takes>;
    /// Whether `-name` (one dash, several letters) is this long option rather than a cluster,
    /// for tools that mix the two (`-prefix`, `-help`).
    fn single_dash(&self, _name: &str) -> bool {
        false
    }
}

/// Options named by a list of the ones that take a value (without dashes: `n`, `context`);
/// every other option is a flag.
pub struct Valued<'s>(pub &'s [&'s str]);

impl Options for Valued<'_> {
    fn long(&self, name: &str) -> Option<Takes> {
        Some(self.takes(name))
    }
    fn short(&self, letter: char) -> Option<Takes> {
        let mut buf = [0; 4];
        Some(self.takes(letter.encode_utf8(&mut buf)))
    }
}

impl Valued<'_> {
    fn takes(&self, name: &str) -> Takes {
        if self.0.contains(&name) {
            Takes::Value
        } else {
            Takes::Nothing
        }
    }
}

/// Options named as written (`-l`, `--list`, `-prefix`), of which `valued` take a value.
/// A name with one dash and several letters is a single-dash long option.
pub struct Written<'s> {
    pub names: &'s [&'s str],
    pub valued: &'s [&'s str],
}

impl Options for Written<'_> {
    fn long(&self, name: &str) -> Option<Takes> {
        let named = |n: &&str| {
            n.strip_prefix("--")
                .or_else(|| n.strip_prefix('-').filter(|n| n.chars().count() > 1))
                == Some(name)
        };
        Some(if self.valued.iter().any(named) {
            Takes::Value
        } else {
            Takes::Nothing
        })
    }
    fn short(&self, letter: char) -> Option<Takes> {
        let named = |n: &&str| letter_of(n) == Some(letter);
        Some(if self.valued.iter().any(named) {
            Takes::Value
        } else {
            Takes::Nothing
        })
    }
    fn single_dash(&self, name: &str) -> bool {
        self.names
            .iter()
            .chain(self.valued)
            .any(|n| !n.starts_with("--") && n.strip_prefix('-') == Some(name) && name.len() > 1)
    }
}

/// How an option was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spelling {
    /// `--name`, or `-name` where the style or the caller makes it long.
    Long,
    /// One letter, alone or in a cluster.
    Short,
}

/// One option as given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opt<'a> {
    /// As written, without dashes or value: `dry-run`, `no-dry-run`, `n`.
    pub name: &'a str,
    pub spelling: Spelling,
    pub value: Option<&'a str>,
    /// Index of the word it came from.
    pub word: usize,
    /// Index of the word its value came from: `word` when attached, the next when separate.
    pub value_word: Option<usize>,
    /// Spelled with `+` ([`Style::Shell`]'s `+x`): it turns its setting off.
    pub plus: bool,
}

impl Opt<'_> {
    /// Whether it switches its setting on: it is not spelled with `+`, and its value, if any,
    /// does not say no.
    pub fn on(&self) -> bool {
        !self.plus && !self.value.is_some_and(says_no)
    }

    /// Whether it is the option `name` (without dashes: `n` of `-rn`, `dry-run`).
    pub fn is(&self, name: &str) -> bool {
        self.name == name
    }

    /// Its value as a word of its own, known only as surely as the word of `args` it was
    /// written in (`--command "$x"` gives a word that is not literal).
    pub fn value_in(&self, args: &[Word]) -> Option<Word> {
        Some(Word {
            text: self.value?.to_string(),
            literal: args.get(self.value_word?)?.literal,
            temp: None,
        })
    }
}

/// A value that turns a switch off: `--dry-run=false`, `--dry-run=none` (kubectl),
/// `--force=0`, `=no`, `=off`.
pub fn says_no(value: &str) -> bool {
    ["false", "none", "0", "no", "off"]
        .iter()
        .any(|no| value.eq_ignore_ascii_case(no))
}

/// An argv read into options and operands.
#[derive(Debug, Default)]
pub struct Argv<'a> {
    pub opts: Vec<Opt<'a>>,
    /// Operands in order, as indices of their words; a lone `-` (stdin) is one.
    pub operands: Vec<usize>,
    /// Index into `operands` of the first one after `--`.
    pub after_dashdash: Option<usize>,
    /// Where reading stopped, for [`read_head`]: the index of the first operand.
    pub stopped_at: Option<usize>,
    /// Whether some option was one the caller's [`Options`] did not know.
    pub unknown: bool,
}

impl<'a> Argv<'a> {
    /// The setting of a switch named by any of `names` (without dashes; see [`Opt::is`]):
    /// the last given wins, `--no-name` turns it off, and so does a value that says no.
    /// `None` when none is given.
    pub fn setting(&self, names: &[&str]) -> Option<bool> {
        self.opts.iter().rev().find_map(|opt| {
            if names.iter().any(|name| opt.is(name)) {
                return Some(opt.on());
            }
            let negated = opt.name.strip_prefix("no-")?;
            (opt.spelling == Spelling::Long && names.contains(&negated)).then_some(false)
        })
    }

    /// Whether a switch named by any of `names` is on (see [`Argv::setting`]).
    pub fn on(&self, names: &[&str]) -> bool {
        self.setting(names) == Some(true)
    }

    /// The values of every option named by one of `names`, in the order given.
    pub fn values<'s>(&'s self, names: &'s [&str]) -> impl Iterator<Item = &'a str> + 's {
        self.opts
            .iter()
            .filter(move |opt| names.iter().any(|name| opt.is(name)))
            .filter_map(|opt| opt.value)
    }

    /// The last of `names` given, with whatever value.
    pub fn last(&self, names: &[&str]) -> Option<&Opt<'a>> {
        self.opts
            .iter()
            .rev()
            .find(|opt| names.iter().any(|name| opt.is(name)))
    }
}

/// Reads all of `args` (the words after the program name).
pub fn read<'a>(args: &'a [Word], style: Style, options: &dyn Options) -> Argv<'a> {
    reader(args, style, options, false)
}

/// Reads the options before the first operand (a tool's global options, ahead of its
/// subcommand); [`Argv::stopped_at`] is the index of that operand in `args`.
pub fn read_head<'a>(args: &'a [Word], style: Style, options: &dyn Options) -> Argv<'a> {
    reader(args, style, options, true)
}

fn reader<'a>(args: &'a [Word], style: Style, options: &dyn Options, head: bool) -> Argv<'a> {
    let mut out = Argv::default();
    let mut i = 0;
    while let Some(word) = args.get(i) {
        let text = word.text.as_str();
        let at = i;
        i += 1;
        if style == Style::Slash {
            match slash(args, at, options) {
                Some((opt, takes)) => {
                    out.unknown |= takes.is_none();
                    i += usize::from(opt.value_word.is_some_and(|w| w > at));
                    out.opts.push(opt);
                }
                None if head => {
                    out.stopped_at = Some(at);
                    return out;
                }
                None => out.operands.push(at),
            }
            continue;
        }
        if text == "--" {
            if head {
                out.stopped_at = (i < args.len()).then_some(i);
                return out;
            }
            out.after_dashdash = Some(out.operands.len());
            out.operands.extend(i..args.len());
            break;
        }
        let dashed = text.strip_prefix('-');
        let plus = style == Style::Shell && dashed.is_none() && text.starts_with('+');
        let dashed = match style {
            Style::PowerShell => dashed.or_else(|| text.strip_prefix('/')),
            Style::Shell => dashed.or_else(|| text.strip_prefix('+')),
            _ => dashed,
        };
        let Some(body) = dashed.filter(|b| !b.is_empty()) else {
            if head {
                out.stopped_at = Some(at);
                return out;
            }
            out.operands.push(at);
            continue;
        };
        let long = match body.strip_prefix('-') {
            Some(_) if plus => None,
            Some(long) => Some(long),
            None if matches!(style, Style::Go | Style::PowerShell) => Some(body),
            None if options.single_dash(body.split_once('=').map_or(body, |(n, _)| n)) => {
                Some(body)
            }
            None if style == Style::Pflag && !is_cluster(body, options) => Some(body),
            None => None,
        };
        if let Some(long) = long {
            let between = if style == Style::PowerShell { ':' } else { '=' };
            let (name, inline) = match long.split_once(between) {
                Some((name, value)) => (name, Some(value)),
                None => (long, None),
            };
            let takes = options.long(name);
            let (value, value_word) = match (takes, inline) {
                (Some(Takes::Value | Takes::Next), None) => {
                    i += 1;
                    separate(args, i - 1)
                }
                (_, inline) => (inline, inline.map(|_| at)),
            };
            out.unknown |= takes.is_none();
            out.opts.push(Opt {
                name,
                spelling: Spelling::Long,
                plus: false,
                value,
                value_word,
                word: at,
            });
            continue;
        }
        let mut pos = 0;
        while let Some(c) = body[pos..].chars().next() {
            let name = &body[pos..pos + c.len_utf8()];
            let rest = &body[pos + c.len_utf8()..];
            pos += c.len_utf8();
            let takes = options.short(c);
            out.unknown |= takes.is_none();
            if takes == Some(Takes::Next) {
                let (value, value_word) = separate(args, i);
                i += usize::from(value.is_some());
                out.opts.push(Opt {
                    name,
                    spelling: Spelling::Short,
                    plus,
                    value,
                    value_word,
                    word: at,
                });
                continue;
            }
            if takes == Some(Takes::Number) {
                let number = leading_number(rest);
                pos += number.len();
                let value = (!number.is_empty()).then_some(number);
                out.opts.push(Opt {
                    name,
                    spelling: Spelling::Short,
                    plus,
                    value,
                    value_word: value.map(|_| at),
                    word: at,
                });
                continue;
            }
            let attached = match style {
                Style::Getopt => Some(rest),
                _ => rest.strip_prefix('=').or(Some(rest)),
            }
            .filter(|r| !r.is_empty());
            let (value, value_word) = match takes {
                Some(Takes::Value) if attached.is_none() => {
                    i += 1;
                    separate(args, i - 1)
                }
                Some(Takes::Value | Takes::Attached) => (attached, attached.map(|_| at)),
                _ if style != Style::Getopt && rest.starts_with('=') => {
                    (attached, attached.map(|_| at))
                }
                _ => (None, None),
            };
            out.opts.push(Opt {
                name,
                spelling: Spelling::Short,
                value,
                value_word,
                word: at,
                plus,
            });
            if value.is_some() || matches!(takes, Some(Takes::Value | Takes::Attached)) {
                break;
            }
        }
    }
    out
}

/// The number a [`Takes::Number`] letter has attached at the start of `rest`: digits, or
/// `x` and hex digits (an `x` with none is a letter of its own).
fn leading_number(rest: &str) -> &str {
    let hex = rest
        .strip_prefix(['x', 'X'])
        .map_or(0, |h| h.chars().take_while(char::is_ascii_hexdigit).count());
    if hex > 0 {
        return &rest[..1 + hex];
    }
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    &rest[..digits]
}

/// The [`Style::Slash`] option at `args[at]`, with what its letter takes; `None` when the
/// word is an operand.
fn slash<'a>(
    args: &'a [Word],
    at: usize,
    options: &dyn Options,
) -> Option<(Opt<'a>, Option<Takes>)> {
    let body = args.get(at)?.text.strip_prefix('/')?;
    let letter = body.chars().next()?;
    let (name, rest) = body.split_at(letter.len_utf8());
    let rest = rest.strip_prefix(':').unwrap_or(rest);
    let takes = options.short(letter);
    let (value, value_word) = match takes {
        Some(Takes::Value) if rest.is_empty() => separate(args, at + 1),
        _ if rest.is_empty() => (None, None),
        _ => (Some(rest), Some(at)),
    };
    let opt = Opt {
        name,
        spelling: Spelling::Short,
        value,
        value_word,
        word: at,
        plus: false,
    };
    Some((opt, takes))
}

/// The word at `at` as an option's separate value, if there is one.
fn separate(args: &[Word], at: usize) -> (Option<&str>, Option<usize>) {
    match args.get(at) {
        Some(word) => (Some(word.text.as_str()), Some(at)),
        None => (None, None),
    }
}

/// Whether `-body` is a cluster of letters: up to the first letter that takes a value, or an
/// `=`, every character is a letter or a digit (`-rf`, `-n1`, `-fc.sql`, `-n=false`).
fn is_cluster(body: &str, options: &dyn Options) -> bool {
    for c in body.chars() {
        if c == '=' {
            return true;
        }
        if !c.is_ascii_alphanumeric() {
            return body.chars().count() == 1;
        }
        if matches!(options.short(c), Some(Takes::Value | Takes::Attached)) {
            return true;
        }
    }
    true
}

/// The letter of a one-letter option as written (`-c` gives `c`).
pub fn letter_of(name: &str) -> Option<char> {
    let mut chars = name.strip_prefix('-')?.chars();
    let c = chars.next()?;
    chars.next().is_none().then_some(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<Word> {
        s.split_whitespace().map(Word::literal).collect()
    }

    fn names<'a>(argv: &Argv<'a>) -> Vec<(&'a str, Option<&'a str>)> {
        argv.opts.iter().map(|o| (o.name, o.value)).collect()
    }

    fn operands<'a>(args: &'a [Word], argv: &Argv<'_>) -> Vec<&'a str> {
        argv.operands
            .iter()
            .map(|&i| args[i].text.as_str())
            .collect()
    }

    #[test]
    fn flags_values_clusters_and_the_end_of_options() {
        let args = words("-rf x --exclude=a -e b -ec --keep c -- -n");
        let argv = read(&args, Style::Getopt, &Valued(&["e", "exclude", "keep"]));
        assert_eq!(
            names(&argv),
            [
                ("r", None),
                ("f", None),
                ("exclude", Some("a")),
                ("e", Some("b")),
                ("e", Some("c")),
                ("keep", Some("c"))
            ]
        );
        assert_eq!(operands(&args, &argv), ["x", "-n"]);
        assert_eq!(argv.after_dashdash, Some(1));
        let value_words: Vec<_> = argv.opts.iter().map(|o| o.value_word).collect();
        assert_eq!(
            value_words,
            [None, None, Some(2), Some(4), Some(5), Some(7)]
        );
    }

    #[test]
    fn bundles_read_the_same_in_any_order() {
        for line in ["-rf x", "-fr x", "-r -f x", "x -f -r"] {
            let args = words(line);
            let argv = read(&args, Style::Pflag, &Valued(&[]));
            assert!(argv.on(&["r"]) && argv.on(&["f"]), "{line}");
            assert_eq!(operands(&args, &argv), ["x"], "{line}");
        }
    }

    #[test]
    fn a_switch_is_on_unless_its_value_or_negation_says_no() {
        let on = |line: &str| {
            let args = words(line);
            read(&args, Style::Pflag, &Valued(&[])).on(&["dry-run", "n"])
        };
        for yes in [
            "--dry-run",
            "--dry-run=true",
            "--dry-run=client",
            "--dry-run=server",
            "--dry-run=1",
            "-n",
            "-fn",
            "--no-dry-run --dry-run",
        ] {
            assert!(on(yes), "{yes}");
        }
        for no in [
            "",
            "--dry-run=false",
            "--dry-run=none",
            "--dry-run=0",
            "--dry-run=No",
            "--dry-run=off",
            "--no-dry-run",
            "--dry-run --no-dry-run",
            "-n=false",
            "--dry-runner",
            "-- --dry-run",
        ] {
            assert!(!on(no), "{no}");
        }
    }

    #[test]
    fn pflag_words_that_are_no_cluster() {
        let args = words("-?x -l=x -n=0 -fc.sql -?");
        let argv = read(&args, Style::Pflag, &Valued(&["f"]));
        assert_eq!(
            names(&argv),
            [
                ("?x", None),
                ("l", Some("x")),
                ("n", Some("0")),
                ("f", Some("c.sql")),
                ("?", None)
            ]
        );
        assert_eq!(argv.opts[0].spelling, Spelling::Long);
    }

    #[test]
    fn go_and_single_dash_long_options() {
        let args = words("-chdir=infra apply -destroy -var x=1 -dry-run=false main");
        let argv = read(&args, Style::Go, &Valued(&["var"]));
        assert_eq!(operands(&args, &argv), ["apply", "main"]);
        assert!(argv.on(&["destroy"]) && !argv.on(&["dry-run"]));
        assert_eq!(argv.last(&["chdir"]).and_then(|o| o.value), Some("infra"));
        let args = words("-prefix=x -pq");
        let written = Written {
            names: &["-prefix", "-q"],
            valued: &[],
        };
        let argv = read(&args, Style::Pflag, &written);
        assert_eq!(
            names(&argv),
            [("prefix", Some("x")), ("p", None), ("q", None)]
        );
    }

    #[test]
    fn head_stops_at_the_first_operand_and_unknowns_are_marked() {
        struct Only;
        impl Options for Only {
            fn long(&self, name: &str) -> Option<Takes> {
                (name == "file").then_some(Takes::Value)
            }
            fn short(&self, letter: char) -> Option<Takes> {
                (letter == 'f').then_some(Takes::Value)
            }
        }
        let args = words("-f a.yml --zzz rm -v");
        let argv = read_head(&args, Style::Getopt, &Only);
        assert_eq!(argv.stopped_at, Some(3));
        assert!(argv.unknown);
        assert_eq!(names(&argv), [("f", Some("a.yml")), ("zzz", None)]);
        let args = words("-f a -- rm");
        assert_eq!(read_head(&args, Style::Getopt, &Only).stopped_at, Some(3));
    }

    #[test]
    fn numbers_attached_to_a_letter_leave_the_cluster_going() {
        struct Perl;
        impl Options for Perl {
            fn long(&self, _: &str) -> Option<Takes> {
                Some(Takes::Nothing)
            }
            fn short(&self, letter: char) -> Option<Takes> {
                Some(match letter {
                    '0' | 'l' => Takes::Number,
                    'e' => Takes::Value,
                    _ => Takes::Nothing,
                })
            }
        }
        let args = words("-0777ne X -lx -0x1Fpe Y f");
        let argv = read_head(&args, Style::Getopt, &Perl);
        assert_eq!(
            names(&argv),
            [
                ("0", Some("777")),
                ("n", None),
                ("e", Some("X")),
                ("l", None),
                ("x", None),
                ("0", Some("x1F")),
                ("p", None),
                ("e", Some("Y"))
            ]
        );
        assert_eq!(argv.stopped_at, Some(5));
    }

    #[test]
    fn powershell_parameters_are_whole_names_after_a_dash_or_a_slash() {
        let args = words("-NoProfile /ex Bypass --File:x.ps1 -c a -b");
        let argv = read_head(&args, Style::PowerShell, &Valued(&["ex"]));
        assert_eq!(
            names(&argv),
            [
                ("NoProfile", None),
                ("ex", Some("Bypass")),
                ("File", Some("x.ps1")),
                ("c", None)
            ]
        );
        assert_eq!(argv.stopped_at, Some(5));
    }

    #[test]
    fn slash_options_are_a_letter_and_its_value() {
        let args = words("/q /v:on /cdir /t 0a -x -- /k");
        let argv = read(&args, Style::Slash, &Valued(&["t"]));
        assert_eq!(
            names(&argv),
            [
                ("q", None),
                ("v", Some("on")),
                ("c", Some("dir")),
                ("t", Some("0a")),
                ("k", None)
            ]
        );
        assert_eq!(operands(&args, &argv), ["-x", "--"]);
        let args = words("/d del x");
        assert_eq!(
            read_head(&args, Style::Slash, &Valued(&[])).stopped_at,
            Some(1)
        );
    }

    #[test]
    fn shells_spell_options_with_plus_and_take_settings_from_the_next_words() {
        struct Sh;
        impl Options for Sh {
            fn long(&self, _: &str) -> Option<Takes> {
                Some(Takes::Nothing)
            }
            fn short(&self, letter: char) -> Option<Takes> {
                Some(if "oO".contains(letter) {
                    Takes::Next
                } else {
                    Takes::Nothing
                })
            }
        }
        let args = words("-oc pipefail +ae -O globstar script a");
        let argv = read_head(&args, Style::Shell, &Sh);
        assert_eq!(
            names(&argv),
            [
                ("o", Some("pipefail")),
                ("c", None),
                ("a", None),
                ("e", None),
                ("O", Some("globstar"))
            ]
        );
        let on: Vec<bool> = argv.opts.iter().map(Opt::on).collect();
        assert_eq!(on, [true, true, false, false, true]);
        assert_eq!(argv.stopped_at, Some(5));
        let args = words("+ -x");
        assert_eq!(read_head(&args, Style::Shell, &Sh).stopped_at, Some(0));
        let args = words("+x");
        assert!(read(&args, Style::Getopt, &Sh).opts.is_empty());
    }
}
