//! A script file's own arguments, as its code reads them: `sys.argv[1]`, `process.argv[2]`,
//! `ARGV[0]`, `$ARGV[0]`, `$argv[1]`, `$args[0]`, and a name bound once to one of them
//! (`target = sys.argv[1]`). A word of an effect that reads an argument the line gives is
//! that argument, as the line wrote it: one the line knows only at run time stays unknown.
//!
//! Proof, not likeness: every mention of the list must read it (an element, its length), so
//! that nothing shifts, pops or assigns it, and code that could change it or bind names
//! where this cannot see it (`exec`, `eval`, option parsers that take what they read) binds
//! nothing. An element past the arguments given stays unknown, as it was.

use tree_sitter::Node;

use super::Effect;
use super::fresh::{Mentions, bound_names};
use super::tree::text;
use crate::syntax::Word;

/// The words a script file is run with after its path, which its code reads as its
/// arguments: none for code given on the command line or read from standard input.
#[derive(Debug, Clone, Copy, Default)]
pub struct ScriptArgs<'a> {
    words: &'a [Word],
}

impl<'a> ScriptArgs<'a> {
    /// No arguments: the code's reads of them stay unknown.
    pub const NONE: ScriptArgs<'static> = ScriptArgs { words: &[] };

    pub fn new(words: &'a [Word]) -> Self {
        ScriptArgs { words }
    }

    pub fn is_empty(self) -> bool {
        self.words.is_empty()
    }

    /// The argument at `at`, the first at 0.
    pub(super) fn get(self, at: usize) -> Option<&'a Word> {
        self.words.get(at)
    }
}

/// One way code names its list of arguments.
pub(super) struct List {
    /// The list as written before an index (`sys.argv`).
    pub spelling: &'static str,
    /// The index that holds the first argument (`sys.argv[1]`, `ARGV[0]`).
    pub first: usize,
    /// Text the code must hold for the spelling to name the list (`from sys import argv`).
    pub needs: Option<&'static str>,
}

/// How one language's code reads its arguments.
pub(super) struct Reads {
    pub lists: &'static [List],
    /// Members of the list that only read it (`process.argv.length`).
    pub members: &'static [&'static str],
    /// Calls that only measure the list given alone (`len(`).
    pub measures: &'static [&'static str],
    /// Text that may change the list, or bind names where this cannot see it.
    pub unsafe_text: &'static [&'static str],
    /// Whether names differ only by case (PowerShell's `$Args` is `$args`).
    pub any_case: bool,
}

pub(super) const PYTHON: Reads = Reads {
    lists: &[
        List {
            spelling: "sys.argv",
            first: 1,
            needs: None,
        },
        List {
            spelling: "argv",
            first: 1,
            needs: Some("from sys import argv"),
        },
    ],
    members: &[],
    measures: &["len("],
    unsafe_text: &[
        "import *", "exec", "eval", "globals", "locals", "__dict__", "setattr", "vars(",
    ],
    any_case: false,
};

pub(super) const JS: Reads = Reads {
    lists: &[List {
        spelling: "process.argv",
        first: 2,
        needs: None,
    }],
    members: &["length", "slice("],
    measures: &[],
    unsafe_text: &["eval", "Function(", "with(", "with ("],
    any_case: false,
};

pub(super) const RUBY: Reads = Reads {
    lists: &[List {
        spelling: "ARGV",
        first: 0,
        needs: None,
    }],
    members: &["length", "size", "empty?", "count"],
    measures: &[],
    // `gets` and `ARGF` take what they read from the list; `parse!` takes the options.
    unsafe_text: &[
        "eval", "binding", "send", "$*", "gets", "ARGF", "parse!", "readline",
    ],
    any_case: false,
};

pub(super) const PERL: Reads = Reads {
    lists: &[List {
        spelling: "$ARGV",
        first: 0,
        needs: None,
    }],
    members: &[],
    measures: &[],
    // A plain `shift` takes from the list; `<>` reads the files it names and takes them;
    // option parsers take what they read; `$#ARGV` sets its length; `s///` and `tr` change
    // a string in place.
    unsafe_text: &[
        "eval",
        "shift",
        "pop",
        "splice",
        "push",
        "chomp",
        "chop",
        "local",
        "<>",
        "<ARGV>",
        "$#ARGV",
        "{ARGV}",
        "Getopt",
        "getopt",
        "getopts",
        "GetOptions",
        "=~",
        "\\@",
        "\\$",
        "@{[",
        "$$",
    ],
    any_case: false,
};

pub(super) const PHP: Reads = Reads {
    lists: &[List {
        spelling: "$argv",
        first: 1,
        needs: None,
    }],
    members: &[],
    measures: &["count("],
    unsafe_text: &[
        "eval",
        "extract",
        "compact",
        "$$",
        "global",
        "GLOBALS",
        "parse_str",
        "unset",
        "&$",
    ],
    any_case: false,
};

pub(super) const POWERSHELL: Reads = Reads {
    lists: &[List {
        spelling: "$args",
        first: 0,
        needs: None,
    }],
    members: &["count", "length"],
    measures: &[],
    // A `param` block takes arguments before `$args` sees them.
    unsafe_text: &[
        "param",
        "invoke-expression",
        "iex",
        "-variable",
        "sv ",
        "nv ",
        "[ref]",
        "$script:",
        "$global:",
        "$local:",
        "${",
        "-outvariable",
        "-pipelinevariable",
        "-ov",
        "-pv",
    ],
    any_case: true,
};

/// The lists `src` reads and never changes, or none when no argument is given or the code
/// may change them, or bind names, unseen. Costs nothing without arguments.
pub(super) fn lists(src: &str, reads: &Reads, args: ScriptArgs) -> Vec<&'static List> {
    if args.is_empty() {
        return Vec::new();
    }
    let lower;
    let src = if reads.any_case {
        lower = src.to_ascii_lowercase();
        lower.as_str()
    } else {
        src
    };
    let any_case = |t: &str| {
        if reads.any_case {
            t.to_ascii_lowercase()
        } else {
            t.to_string()
        }
    };
    if reads.unsafe_text.iter().any(|t| holds(src, &any_case(t))) {
        return Vec::new();
    }
    let lists: Vec<&'static List> = reads
        .lists
        .iter()
        .filter(|list| list.needs.is_none_or(|needs| src.contains(needs)))
        .collect();
    let all_read = lists.iter().all(|list| {
        let spelling = any_case(list.spelling);
        let root = spelling.split_once('.').map(|(root, _)| root);
        mentions(src, &spelling).all(|at| read_at(src, at, &spelling, reads))
            && root.is_none_or(|root| mentions(src, root).all(|at| reached(src, at, root)))
    });
    if all_read { lists } else { Vec::new() }
}

/// Whether `src` holds `text`, not as part of a longer name (`gets` is not in `targets`).
fn holds(src: &str, text: &str) -> bool {
    let is_name = |c: char| c.is_alphanumeric() || c == '_';
    src.match_indices(text).any(|(at, _)| {
        let before = src[..at].chars().next_back();
        let after = src[at + text.len()..].chars().next();
        let longer_before = text.starts_with(is_name) && before.is_some_and(is_name);
        let longer_after = text.ends_with(is_name) && after.is_some_and(is_name);
        !longer_before && !longer_after
    })
}

/// Where `name` stands in `src` as a whole name, not part of a longer one.
fn mentions<'s>(src: &'s str, name: &'s str) -> impl Iterator<Item = usize> + 's {
    let is_name = |c: char| c.is_alphanumeric() || c == '_';
    src.match_indices(name)
        .map(|(at, _)| at)
        .filter(move |&at| {
            let before = src[..at].chars().next_back();
            let after = src[at + name.len()..].chars().next();
            // `$` and `@` start a name of their own in the languages that spell lists with them.
            let starts =
                name.starts_with(['$', '@']) || !before.is_some_and(|c| is_name(c) || c == '$');
            starts && !after.is_some_and(is_name)
        })
}

/// Whether the mention of the list `spelling` at `at` only reads it: an element not assigned
/// or changed in place, a member that reads, a call that measures it, or an import line.
fn read_at(src: &str, at: usize, spelling: &str, reads: &Reads) -> bool {
    let before = src[..at].trim_end();
    let after = &src[at + spelling.len()..];
    if import_line(src, at) {
        return true;
    }
    if reads.measures.iter().any(|m| before.ends_with(m)) && after.trim_start().starts_with(')') {
        return true;
    }
    if let Some(member) = after.strip_prefix('.') {
        return reads.members.iter().any(|m| {
            member.strip_prefix(m).is_some_and(|rest| {
                m.ends_with('(') || !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_')
            })
        });
    }
    let Some(index) = after.trim_start().strip_prefix('[') else {
        return false;
    };
    let Some((inside, rest)) = index.split_once(']') else {
        return false;
    };
    let changed_before = ["del", "delete", "++", "--", "\\", "&", "unset("]
        .iter()
        .any(|op| before.ends_with(op));
    !inside.contains(['[', '=']) && !changed_before && !changes(rest.trim_start())
}

/// Whether text after an element read assigns it or changes it in place: `=` but not `==`
/// or `=>`, an operator with `=` (`+=`, `.=`), `++`, Ruby's `<<` and `.sub!`.
fn changes(rest: &str) -> bool {
    let op: String = rest
        .chars()
        .take_while(|c| "=+-*/%.|&^<>!~?:".contains(*c))
        .collect();
    if let Some(method) = rest.strip_prefix('.') {
        let name: String = method
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '!')
            .collect();
        return name.ends_with('!');
    }
    let compares = ["==", "!=", "<=", ">=", "=>", "=~"]
        .iter()
        .any(|c| op == *c || op.starts_with("=="));
    !compares
        && (op.ends_with('=')
            || op.starts_with("++")
            || op.starts_with("--")
            || op.starts_with("<<"))
}

/// Whether `at` lies on a Python import line of `sys` without `as`.
fn import_line(src: &str, at: usize) -> bool {
    let start = src[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = src[at..].find('\n').map_or(src.len(), |i| at + i);
    let line = src[start..end].trim();
    (line.starts_with("import ") || line.starts_with("from sys import")) && !line.contains(" as ")
}

/// Whether the root of a dotted list (`sys` of `sys.argv`) is only reached into at `at`,
/// or imported: never rebound, passed or aliased.
fn reached(src: &str, at: usize, root: &str) -> bool {
    src[at + root.len()..].starts_with('.') || import_line(src, at)
}

/// The argument an expression reads, as written (`sys.argv[1]`, `$ARGV[ 0 ]`): `None` for
/// anything else, the script's own path, or an index past the arguments given.
pub(super) fn element<'a>(
    text: &str,
    lists: &[&List],
    any_case: bool,
    args: ScriptArgs<'a>,
) -> Option<&'a Word> {
    let text = text.trim();
    lists.iter().find_map(|list| {
        let head = text.get(..list.spelling.len())?;
        let same = if any_case {
            head.eq_ignore_ascii_case(list.spelling)
        } else {
            head == list.spelling
        };
        let index = text[list.spelling.len()..]
            .trim_start()
            .strip_prefix('[')?
            .strip_suffix(']')?
            .trim();
        let at: usize = index
            .bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| index.parse().ok())
            .flatten()?;
        same.then(|| args.get(at.checked_sub(list.first)?))
            .flatten()
    })
}

/// The names bound a single time to an argument given (`target = sys.argv[1]`), each with
/// that argument, when every other mention of the name (a node of one of `kinds`) is a use
/// `used` allows. `assignment` reads a node as the name it binds and the value it binds.
#[allow(clippy::too_many_arguments)]
pub(super) fn names<'t, 's, 'a>(
    nodes: &[Node<'t>],
    src: &'s str,
    lists: &[&List],
    reads: &Reads,
    args: ScriptArgs<'a>,
    kinds: &[&str],
    assignment: impl Fn(Node<'t>) -> Option<(Node<'t>, Node<'t>)>,
    used: impl Fn(Node<'t>) -> bool,
) -> Vec<(&'s str, &'a Word)> {
    if lists.is_empty() {
        return Vec::new();
    }
    let mentions = Mentions {
        kinds,
        any_case: reads.any_case,
        once: true,
    };
    bound_names(
        nodes,
        src,
        &mentions,
        |node| {
            let (name, value) = assignment(node)?;
            let arg = element(text(value, src), lists, reads.any_case, args)?;
            Some((name, arg))
        },
        used,
    )
}

/// Whether `node`'s parent is of one of `kinds`.
pub(super) fn within(node: Node, kinds: &[&str]) -> bool {
    node.parent().is_some_and(|p| kinds.contains(&p.kind()))
}

/// Puts each argument the code reads in place of the words that read it: an element
/// (`sys.argv[1]`) or a name in `names` bound to one. Only unknown words are looked at.
pub(super) fn bind(
    effects: &mut [Effect],
    lists: &[&List],
    names: &[(&str, &Word)],
    any_case: bool,
    args: ScriptArgs,
) {
    if lists.is_empty() {
        return;
    }
    let same = |a: &str, b: &str| {
        if any_case {
            a.eq_ignore_ascii_case(b)
        } else {
            a == b
        }
    };
    let given = |word: &Word| {
        element(&word.text, lists, any_case, args).or_else(|| {
            names
                .iter()
                .find(|(name, _)| same(name, &word.text))
                .map(|(_, arg)| *arg)
        })
    };
    for effect in effects {
        let Effect::Command {
            argv, redirects, ..
        } = effect
        else {
            continue;
        };
        let words = argv
            .iter_mut()
            .chain(redirects.iter_mut().map(|r| &mut r.target));
        for word in words.filter(|w| !w.literal) {
            if let Some(arg) = given(word) {
                *word = arg.clone();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(words: &[&str]) -> Vec<Word> {
        words.iter().map(|w| Word::literal(*w)).collect()
    }

    #[test]
    fn elements_count_from_each_languages_first_argument() {
        let given = args(&["build", "src"]);
        let args = ScriptArgs::new(&given);
        let read = |text: &str, reads: &Reads| {
            let lists: Vec<&List> = reads.lists.iter().collect();
            element(text, &lists, reads.any_case, args).map(|w| w.text.clone())
        };
        assert_eq!(read("sys.argv[1]", &PYTHON).as_deref(), Some("build"));
        assert_eq!(read("sys.argv[ 2 ]", &PYTHON).as_deref(), Some("src"));
        assert_eq!(read("sys.argv[0]", &PYTHON), None);
        assert_eq!(read("sys.argv[3]", &PYTHON), None);
        assert_eq!(read("sys.argv[-1]", &PYTHON), None);
        assert_eq!(read("process.argv[2]", &JS).as_deref(), Some("build"));
        assert_eq!(read("process.argv[1]", &JS), None);
        assert_eq!(read("ARGV[1]", &RUBY).as_deref(), Some("src"));
        assert_eq!(read("$argv[1]", &PHP).as_deref(), Some("build"));
        assert_eq!(read("$Args[0]", &POWERSHELL).as_deref(), Some("build"));
        assert_eq!(read("xsys.argv[1]", &PYTHON), None);
    }

    #[test]
    fn a_list_changed_anywhere_binds_nothing() {
        let given = args(&["build"]);
        let args = ScriptArgs::new(&given);
        let bound = |src: &str, reads: &Reads| !lists(src, reads, args).is_empty();
        assert!(bound(
            "import sys\nif len(sys.argv) < 2: sys.exit(1)\nshutil.rmtree(sys.argv[1])",
            &PYTHON
        ));
        assert!(bound("x = sys.argv[1:]\ny = sys.argv[1] == 'a'", &PYTHON));
        for changed in [
            "sys.argv.pop(1)",
            "sys.argv[1] = 'x'",
            "sys.argv[1] += 'x'",
            "del sys.argv[1]",
            "sys.argv = ['a']",
            "main(sys.argv)",
            "import sys as s",
            "s = sys; s.argv.pop()",
            "exec(code)",
        ] {
            assert!(!bound(changed, &PYTHON), "{changed}");
        }
        assert!(bound("from sys import argv\nrm(argv[1])", &PYTHON));
        assert!(!bound("from sys import argv\nargv.pop()", &PYTHON));
        assert!(bound("if (process.argv.length < 3) process.exit(1)", &JS));
        assert!(!bound("process.argv.splice(2, 1)", &JS));
        assert!(!bound("const { argv } = process", &JS));
        assert!(!bound("ARGV.shift", &RUBY));
        assert!(!bound("ARGV[0] << 'x'", &RUBY));
        assert!(!bound("ARGV[0].sub!('a', 'b')", &RUBY));
        assert!(!bound("my $d = shift;", &PERL));
        assert!(!bound("array_shift($argv);", &PHP));
        assert!(bound("if (count($argv) < 2) exit(1);", &PHP));
        assert!(!bound("param($Path)\n$args[0]", &POWERSHELL));
        assert!(lists("sys.argv[1]", &PYTHON, ScriptArgs::NONE).is_empty());
    }
}
