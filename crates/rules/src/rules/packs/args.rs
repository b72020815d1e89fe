//! Option reading shared by the packs: which words of a command line are operands, which
//! options it gives and with what value.
//!
//! Two ways to ask, for two kinds of tool:
//! - [`Line`] splits a whole line once, for tools that nest subcommands and take options
//!   anywhere around them (`aws s3 rm`, `kubectl -n x delete`); options are named without
//!   dashes and the tool's [`Style`] says how they are spelled.
//! - [`operands`], [`has`], [`values`] and [`value`] answer one question each, with options
//!   named as written (`-h`, `--host`, `-prefix`), for tools read by a handful of options.
//!
//! Both are read by the one argv model ([`argv`]), so they agree with each other and with
//! the core rules on clusters, values, `--` and what switches an option off.
//!
//! Either way only the options that take a separate value need to be known: any other word
//! starting with `-` is read as a flag, so a table that lags behind a program can at worst
//! turn an option's value into an operand, never hide an option.

use crate::shell::{SimpleCommand, Word};
use crate::syntax::argv::{self, Argv, Valued, Written};

/// How a tool spells its options.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Style {
    /// getopt and Go's pflag: `--name[=v]`, and `-abc` as a cluster of one-letter options.
    Gnu,
    /// Go's `flag` package (terraform): `-name[=v]` and `--name[=v]` are the same option.
    Go,
}

impl Style {
    fn model(self) -> argv::Style {
        match self {
            Style::Gnu => argv::Style::Pflag,
            Style::Go => argv::Style::Go,
        }
    }
}

/// A command line split into options and operands.
pub(crate) struct Line<'a> {
    /// Options by name without dashes (`recursive`, `n`), with their value if they have one.
    pub opts: Vec<(&'a str, Option<&'a str>)>,
    /// Operands in order; a lone `-` (stdin) is one.
    pub operands: Vec<&'a str>,
    read: Argv<'a>,
}

impl<'a> Line<'a> {
    /// Splits `args`; `valued` names the options (without dashes) that take the next word as
    /// their value when it is not attached.
    pub fn parse(args: &'a [Word], style: Style, valued: &[&str]) -> Line<'a> {
        Line::from(args, argv::read(args, style.model(), &Valued(valued)))
    }

    /// Reads the options before the first operand (a tool's global options, ahead of its
    /// subcommand) and gives the index of that operand in `args`, if there is one.
    pub fn head(args: &'a [Word], style: Style, valued: &[&str]) -> (Line<'a>, Option<usize>) {
        let read = argv::read_head(args, style.model(), &Valued(valued));
        let at = read.stopped_at;
        (Line::from(args, read), at)
    }

    fn from(args: &'a [Word], read: Argv<'a>) -> Line<'a> {
        Line {
            opts: read.opts.iter().map(|o| (o.name, o.value)).collect(),
            operands: read
                .operands
                .iter()
                .filter_map(|&i| args.get(i))
                .map(|w| w.text.as_str())
                .collect(),
            read,
        }
    }

    /// Whether any of `names` is given, with whatever value.
    pub fn given(&self, names: &[&str]) -> bool {
        self.read.last(names).is_some()
    }

    /// Whether any of `names` is given and not switched off (`--force=false`, `--no-force`).
    pub fn on(&self, names: &[&str]) -> bool {
        self.read.on(names)
    }

    /// The value of the last of `names` given (none if that one has no value).
    pub fn value(&self, names: &[&str]) -> Option<&'a str> {
        self.read.last(names).and_then(|o| o.value)
    }

    /// The values of all of `names` given, in order.
    pub fn values(&self, names: &[&str]) -> Vec<&'a str> {
        self.read
            .opts
            .iter()
            .filter(|o| names.contains(&o.name))
            .filter_map(|o| o.value)
            .collect()
    }

    /// The indices in the line's words of the words that give any of `names`.
    pub fn words(&self, names: &[&str]) -> Vec<usize> {
        self.read
            .opts
            .iter()
            .filter(|o| names.contains(&o.name))
            .map(|o| o.word)
            .collect()
    }

    /// The operands before the first option: the command path of a tool that takes its
    /// command words first (`az vm delete -n x`).
    pub fn leading(&self) -> &[&'a str] {
        let first = self.read.operands.iter().enumerate();
        let leading = first.take_while(|(n, word)| n == *word).count();
        self.operands.get(..leading).unwrap_or_default()
    }

    pub fn operand(&self, n: usize) -> Option<&'a str> {
        self.operands.get(n).copied()
    }

    /// A dry run is asked for with any of `names` (`--dry-run`, `--dry-run=server`), unless
    /// its value or a later `--no-dry-run` switches it off (`--dry-run=none`): the one
    /// meaning of [`Argv::on`].
    pub fn dry_run(&self, names: &[&str]) -> bool {
        self.on(names)
    }

    /// Asks for help or the version instead of acting.
    pub fn help(&self) -> bool {
        self.on(&["help", "h", "version"]) || self.operands.contains(&"help")
    }
}

/// The command again without some options (`docker compose down -v` without `-v`), as a
/// safer twin to suggest: `longs` are dropped with their value, `shorts` are taken out of
/// their clusters (`-fsv` becomes `-fs`). `valued` names (without dashes) the options that
/// take a value, a list for each part of the line: each but the last reads the options
/// before a command word (`docker [globals] compose [globals] down [options]`), the last the
/// rest, so that no value is read as an option or dropped as one.
pub(crate) fn without(
    cmd: &SimpleCommand,
    valued: &[&[&str]],
    longs: &[&str],
    shorts: &[char],
) -> String {
    let args = cmd.args();
    let opts = options_by_part(args, valued);
    let dropped = |opt: &argv::Opt| match opt.spelling {
        argv::Spelling::Long => longs.contains(&opt.name),
        argv::Spelling::Short => opt.name.chars().all(|c| shorts.contains(&c)),
    };
    let dropped_values: Vec<usize> = opts
        .iter()
        .filter(|opt| dropped(opt))
        .filter_map(|opt| opt.value_word)
        .collect();
    let mut words: Vec<String> = cmd
        .argv
        .first()
        .map(Word::shell_quoted)
        .into_iter()
        .collect();
    for (at, word) in args.iter().enumerate() {
        let given: Vec<&argv::Opt> = opts.iter().filter(|o| o.word == at).collect();
        if given.iter().any(|opt| dropped(opt)) {
            words.extend(short_without(&given, shorts).map(|w| Word::literal(w).shell_quoted()));
        } else if !dropped_values.contains(&at) {
            words.push(word.shell_quoted());
        }
    }
    words.join(" ")
}

/// The options of `args` read part by part (see [`without`]), their words counted from the
/// start of `args`.
fn options_by_part<'a>(args: &'a [Word], valued: &[&[&str]]) -> Vec<argv::Opt<'a>> {
    let Some((rest, heads)) = valued.split_last() else {
        return argv::read(args, argv::Style::Pflag, &Valued(&[])).opts;
    };
    let mut opts = Vec::new();
    let mut from = 0;
    let shifted = |from: usize| {
        move |opt: argv::Opt<'a>| argv::Opt {
            word: opt.word + from,
            value_word: opt.value_word.map(|at| at + from),
            ..opt
        }
    };
    for head in heads {
        let part = args.get(from..).unwrap_or_default();
        let read = argv::read_head(part, argv::Style::Pflag, &Valued(head));
        opts.extend(read.opts.into_iter().map(shifted(from)));
        let Some(command) = read.stopped_at else {
            return opts;
        };
        from += command + 1;
    }
    let part = args.get(from..).unwrap_or_default();
    let read = argv::read(part, argv::Style::Pflag, &Valued(rest));
    opts.extend(read.opts.into_iter().map(shifted(from)));
    opts
}

/// A cluster of one-letter options written again without `shorts` (`-fsv` as `-fs`), with
/// the value the last kept one has attached; nothing when no letter is left, or the word
/// was a long option.
fn short_without(given: &[&argv::Opt], shorts: &[char]) -> Option<String> {
    let kept: Vec<&argv::Opt> = given
        .iter()
        .copied()
        .filter(|opt| opt.spelling == argv::Spelling::Short)
        .filter(|opt| !opt.name.chars().all(|c| shorts.contains(&c)))
        .collect();
    let last = kept.last()?;
    let letters: String = kept.iter().map(|opt| opt.name).collect();
    let attached = last.value.filter(|_| last.value_word == Some(last.word));
    Some(format!("-{letters}{}", attached.unwrap_or_default()))
}

/// The words of `args` that are neither options nor the value of a `valued` option given as
/// its own word (`-h db1`, `--context prod`; named as written). Everything after `--` is an
/// operand, and so is a lone `-`.
pub(crate) fn operand_words<'a>(args: &'a [Word], valued: &[&str]) -> Vec<&'a Word> {
    read(args, valued)
        .operands
        .into_iter()
        .filter_map(|i| args.get(i))
        .collect()
}

/// [`operand_words`] as text, for matching subcommands (`["db", "push"]`).
pub(crate) fn operands<'a>(args: &'a [Word], valued: &[&str]) -> Vec<&'a str> {
    operand_words(args, valued)
        .into_iter()
        .map(|w| w.text.as_str())
        .collect()
}

/// `args` read into options and operands, the options that take a value named in `valued`
/// as written (`-h`, `--host`, `-prefix`), for the questions the helpers here do not ask.
pub(crate) fn read<'a>(args: &'a [Word], valued: &[&str]) -> Argv<'a> {
    let options = Written {
        names: valued,
        valued,
    };
    argv::read(args, argv::Style::Pflag, &options)
}

/// [`read`] of the options before the first operand (a tool's global options, ahead of its
/// subcommand); [`Argv::stopped_at`] is the index of that operand.
pub(crate) fn read_head<'a>(args: &'a [Word], valued: &[&str]) -> Argv<'a> {
    let options = Written {
        names: valued,
        valued,
    };
    argv::read_head(args, argv::Style::Pflag, &options)
}

/// The options of `args` named by `names` (as written: `-l`, `--list`, `-prefix`), of which
/// `valued` take a value, before `--`.
fn named<'a>(args: &'a [Word], names: &[&str], valued: &[&str]) -> Vec<argv::Opt<'a>> {
    let options = Written { names, valued };
    let unwritten = |name: &&str| name.trim_start_matches('-').to_string();
    let wanted: Vec<String> = names.iter().map(unwritten).collect();
    argv::read(args, argv::Style::Pflag, &options)
        .opts
        .into_iter()
        .filter(|o| wanted.iter().any(|w| w == o.name))
        .collect()
}

/// Whether any of `names` (as written: `-l`, `--list`, `-prefix`) is given before `--`, with
/// whatever value: `--file=x`, a one-letter one also in a cluster of letters (`-lqt`).
pub(crate) fn has(args: &[Word], names: &[&str]) -> bool {
    !named(args, names, &[]).is_empty()
}

/// Whether a dry run (or another preview) is asked for with any of `names` (as written), in
/// the one meaning of [`Argv::on`]: `--dry-run`, `-n`, `--dry-run=true` are; `--dry-run=false`,
/// `--dry-run=none`, `-n=0`, a later `--no-dry-run`, and anything after `--` are not.
pub(crate) fn dry_run(args: &[Word], names: &[&str]) -> bool {
    let options = Written { names, valued: &[] };
    let unwritten: Vec<&str> = names.iter().map(|n| n.trim_start_matches('-')).collect();
    argv::read(args, argv::Style::Pflag, &options).on(&unwritten)
}

/// The values given to any of `names` before `--`, in order: `--file=x`, `--file x`, `-f x`,
/// `-fx`, `-f=x`, and `-Atf x` (a one-letter option that ends a cluster of flags).
pub(crate) fn values<'a>(args: &'a [Word], names: &[&str]) -> Vec<&'a str> {
    named(args, names, names)
        .into_iter()
        .filter_map(|o| o.value)
        .collect()
}

/// The last value given to any of `names` (see [`values`]).
pub(crate) fn value<'a>(args: &'a [Word], names: &[&str]) -> Option<&'a str> {
    values(args, names).pop()
}

/// `--help`, `-help` or `-h` before `--`: the tool prints its usage and does nothing else.
/// Exact spellings only: in a cluster, `h` means something else to many tools.
pub(crate) fn asks_help(args: &[Word]) -> bool {
    args.iter()
        .map(|w| w.text.as_str())
        .take_while(|w| *w != "--")
        .any(|w| matches!(w, "--help" | "-help" | "-h"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<Word> {
        s.split_whitespace().map(Word::literal).collect()
    }

    #[test]
    fn gnu_clusters_values_and_operands() {
        let args = words("-n prod delete -fv --all ns/a --context=x -- -b");
        let line = Line::parse(&args, Style::Gnu, &["n", "context"]);
        assert_eq!(line.operands, ["delete", "ns/a", "-b"]);
        assert_eq!(line.value(&["n"]), Some("prod"));
        assert_eq!(line.value(&["context"]), Some("x"));
        assert!(line.on(&["f"]) && line.on(&["v"]) && line.on(&["all"]));
        assert!(!line.on(&["b"]));
    }

    #[test]
    fn head_stops_at_the_subcommand() {
        let args = words("-f a.yml -p x rm -fsv web");
        let (globals, at) = Line::head(&args, Style::Gnu, &["f", "p"]);
        assert_eq!(globals.value(&["f"]), Some("a.yml"));
        assert_eq!(at, Some(4));
        let rest = Line::parse(&args[5..], Style::Gnu, &[]);
        assert!(rest.on(&["v"]));
        assert_eq!(rest.operands, ["web"]);
    }

    #[test]
    fn go_single_dash_long_options() {
        let args = words("-chdir=infra apply -destroy -auto-approve=false -var x=1 main");
        let line = Line::parse(&args, Style::Go, &["var"]);
        assert_eq!(line.operands, ["apply", "main"]);
        assert!(line.on(&["destroy"]));
        assert!(!line.on(&["auto-approve"]));
        assert_eq!(line.value(&["chdir"]), Some("infra"));
    }

    #[test]
    fn leading_operands_and_the_words_of_options() {
        let args = words("vm delete -n web --yes x");
        let line = Line::parse(&args, Style::Gnu, &["n"]);
        assert_eq!(line.leading(), ["vm", "delete"]);
        assert_eq!(line.words(&["n", "yes"]), [2, 4]);
        let args = words("-- vm delete");
        assert!(Line::parse(&args, Style::Gnu, &[]).leading().is_empty());
    }

    #[test]
    fn without_takes_options_out_of_clusters() {
        let cmd = crate::shell::analyze("docker compose rm -fsv --volumes=true web")
            .commands
            .remove(0);
        assert_eq!(
            without(&cmd, &[], &["volumes"], &['v']),
            "docker compose rm -fs web"
        );
        let cmd = crate::shell::analyze("docker compose -f a.yml -p -v rm -v --volumes -fvt 5 web")
            .commands
            .remove(0);
        assert_eq!(
            without(&cmd, &[&[], &["f", "p"], &["t"]], &["volumes"], &['v']),
            "docker compose -f a.yml -p -v rm -ft 5 web"
        );
    }

    #[test]
    fn operands_skip_option_values() {
        let args = words("-h db1 --port=5 -U me shop -- -x");
        assert_eq!(operands(&args, &["-h", "-U"]), ["shop", "-x"]);
        let args = words("-r repo --verbose forget - -- --keep");
        let ops: Vec<&str> = operand_words(&args, &["-r"])
            .iter()
            .map(|w| w.text.as_str())
            .collect();
        assert_eq!(ops, ["forget", "-", "--keep"]);
    }

    #[test]
    fn flags_in_every_spelling() {
        let args = words("-lqt --file=a.sql -prefix=true -n -- -c");
        assert!(has(&args, &["-l"]) && has(&args, &["-q"]));
        assert!(has(&args, &["--file"]) && has(&args, &["-prefix"]));
        assert!(has(&args, &["--dry-run", "-n"]));
        assert!(!has(&args, &["-c"]) && !has(&args, &["--fil"]));
        assert!(!has(&words("-?x"), &["-?"]) && has(&words("-?"), &["-?"]));
        // pflag gives a flag its value this way; the value may switch it off.
        assert!(has(&words("-l=x"), &["-l"]));
    }

    #[test]
    fn dry_run_in_one_meaning() {
        let dry = |line: &str| dry_run(&words(line), &["--dry-run", "-n"]);
        assert!(dry("forget --dry-run") && dry("forget -vn") && dry("--dry-run=server"));
        assert!(!dry("forget --dry-run=false") && !dry("--dry-run=none") && !dry("-n=0"));
        assert!(!dry("--dry-run --no-dry-run") && !dry("rm -- --dry-run"));
        let line = |text: &str| {
            let args = words(text);
            Line::parse(&args, Style::Gnu, &[]).dry_run(&["dry-run"])
        };
        assert!(line("delete ns x --dry-run=client") && !line("delete ns x --dry-run=none"));
        assert!(!line("forget --prune --dry-run=false"));
    }

    #[test]
    fn values_in_every_spelling() {
        let args = words("-lqt --file=a.sql -f b.sql -fc.sql --dbname x -Atf d.sql -f=e.sql");
        assert_eq!(
            values(&args, &["-f", "--file"]),
            ["a.sql", "b.sql", "c.sql", "d.sql", "e.sql"]
        );
        assert_eq!(values(&args, &["--dbname"]), ["x"]);
        assert_eq!(value(&args, &["--dbname", "-f"]), Some("e.sql"));
        assert_eq!(value(&words("--method=PUT"), &["--method"]), Some("PUT"));
        assert_eq!(value(&words("--name"), &["--name"]), None);
    }

    #[test]
    fn help_only_in_its_own_spellings() {
        assert!(asks_help(&words("forget --help")));
        assert!(asks_help(&words("-h")));
        assert!(!asks_help(&words("-vh")));
        assert!(!asks_help(&words("run -- -h")));
    }
}
