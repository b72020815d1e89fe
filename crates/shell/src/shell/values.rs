//! Values the line gives its shell variables, so that `m=--hard; git reset $m` is judged as
//! `git reset --hard` and `d=target; rm -rf "$d"` as `rm -rf target`.
//!
//! Tracking is sound or silent: a variable holds a set of values it may have where a
//! command reads it, and a value the line does not show (the environment, `read` from a
//! pipe, `$( )` output, whatever an `eval` of unknown text may set) is unknown, never
//! empty and never "missing". An assignment in a branch, a `&&`/`||` tail, a loop or a
//! background job adds a possible value instead of replacing one; a name a loop body, a
//! function body or a `trap` action assigns may hold what it assigns or anything, wherever
//! the order of runs is not the order written; each subshell has its own copy. A command reading a variable of several values is
//! judged once per value (any that stops, stops); past [`MAX_VARIANTS`] it keeps its
//! unexpanded words.
//!
//! A folder `mktemp -d` makes is a value of its own kind: its name is not known, but what
//! lies under it is fresh. Such a word stays unexpanded and carries [`Temp`] (see
//! [`crate::syntax::Word::temp`]), so that only the clearing of temporary folders reads it.

use tree_sitter::Node;

use super::SimpleCommand;
use super::unwrap::shell_options;
use super::word::{self, Word};
use crate::syntax::Temp;
use crate::syntax::argv::{self, Argv, Options, Style, Takes, Valued};

/// How many commands one command may become, one per combination of values.
pub(super) const MAX_VARIANTS: usize = 16;

/// What `IFS` holds when a shell starts.
const DEFAULT_IFS: &str = " \t\n";

/// One value a variable may hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Value {
    /// Unknown where the command runs: from the environment, input, or a `$( )`.
    Unknown,
    Text(String),
    /// An array's elements, or the positional parameters after `set --`.
    List(Vec<String>),
    /// A folder `mktemp -d` just made. `from` holds the `cd`s in effect when its path is
    /// relative (`mktemp -d tmp.XXXX`): the path means that folder only from there.
    /// `plain` when its path cannot hold a blank or a glob character, so that an unquoted
    /// use stays one word.
    Fresh {
        made: &'static str,
        from: Option<Vec<Word>>,
        plain: bool,
    },
    /// The machine's temporary root itself (`$TMPDIR`, `${TMPDIR:-/tmp}`).
    TempRoot,
    /// A path that names a folder only from where it was computed: `$(pwd)` or `$PWD` is
    /// `.` there, `$(cd app && pwd)` is `app`. `from` holds the `cd`s in effect then; read
    /// after other `cd`s, it is unknown.
    Here {
        from: Vec<Word>,
        path: String,
    },
}

#[derive(Debug, Clone)]
pub(super) struct Entry {
    name: String,
    values: Vec<Value>,
}

/// The variables of one shell or subshell.
#[derive(Debug, Clone, Default)]
pub(super) struct Vars {
    entries: Vec<Entry>,
    /// Something ran that may have set any variable (`eval "$x"`, `source` of an unknown
    /// file), or this shell starts from an environment the line does not show.
    opaque: bool,
    /// A function body or a `trap` action: it runs whenever it is called or signalled, so
    /// what it assigns is unknown everywhere from now on.
    deferred: bool,
    /// Names exported to the programs this shell runs (`export`, `declare -x`, or any name
    /// assigned while `set -a` is on).
    exported: Vec<String>,
    /// `set -a` (`set -o allexport`) is on: every name assigned is exported.
    allexport: bool,
    /// A shell just started: it takes no `IFS` from its environment, so an unquoted
    /// value splits on blanks until it sets one.
    own_ifs: bool,
}

impl Vars {
    /// A shell whose variables the line does not show: a script run by `sh -c`.
    pub(super) fn opaque() -> Self {
        Vars {
            opaque: true,
            ..Vars::default()
        }
    }

    /// A new shell process (`sh -c`, a script file, a recipe line): it inherits exported
    /// variables the line does not show, but starts with the default `IFS` (shells do not
    /// take `IFS` from the environment), and with `args` as its positional parameters when
    /// they are known.
    pub(super) fn new_shell(args: Option<Vec<String>>) -> Self {
        let mut vars = Vars::opaque();
        vars.set("IFS", vec![Value::Text(DEFAULT_IFS.into())], false);
        if let Some(args) = args {
            vars.set("@", vec![Value::List(args)], false);
        }
        vars
    }

    /// Whether unquoted values split on blanks alone here: `IFS` is the default.
    fn default_ifs(&self) -> bool {
        match self.get("IFS") {
            None => true,
            Some([Value::Text(t)]) => t == DEFAULT_IFS,
            Some(_) => false,
        }
    }

    /// A function body or `trap` action: it runs later, when nothing is known of its shell.
    pub(super) fn deferred() -> Self {
        Vars {
            opaque: true,
            deferred: true,
            ..Vars::default()
        }
    }

    /// The variables a program this shell runs starts with: what it exported; any other
    /// name it set is unknown (set in the environment it started from, the name is
    /// exported with its new value; otherwise the program does not see it); the rest comes
    /// from the environment as this shell's does.
    pub(super) fn inherited(&self) -> Vars {
        let mut child = Vars {
            opaque: self.opaque,
            ..Vars::default()
        };
        // A shell sets its own `IFS` when it starts, whatever its parent had.
        child.entries = self
            .entries
            .iter()
            .filter(|e| e.name != "IFS")
            .map(|e| match self.exported.contains(&e.name) {
                true => e.clone(),
                false => Entry {
                    name: e.name.clone(),
                    values: vec![Value::Unknown],
                },
            })
            .collect();
        child.exported = self.exported.clone();
        child.own_ifs = true;
        child
    }

    /// Gives `name` the export attribute.
    pub(super) fn export(&mut self, name: &str) {
        if !self.exported.iter().any(|n| n == name) {
            self.exported.push(name.to_string());
        }
    }

    /// `set -a` (`true`) or `set +a`.
    pub(super) fn set_allexport(&mut self, on: bool) {
        self.allexport = on;
    }

    pub(super) fn is_deferred(&self) -> bool {
        self.deferred
    }

    pub(super) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The values of `name`; `None` when the line never set it and nothing that ran could
    /// have (its value then comes from the environment).
    pub(super) fn get(&self, name: &str) -> Option<&[Value]> {
        match self.entries.iter().find(|e| e.name == name) {
            Some(e) => Some(&e.values),
            None if name == "IFS" && self.own_ifs => None,
            None if self.opaque => Some(&[Value::Unknown]),
            None => None,
        }
    }

    /// Sets `name` for sure (`conditional` false) or as one more possibility.
    pub(super) fn set(&mut self, name: &str, mut values: Vec<Value>, conditional: bool) {
        if self.allexport {
            self.export(name);
        }
        if values.is_empty() || values.len() > MAX_VARIANTS {
            values = vec![Value::Unknown];
        }
        let at = self.entries.iter().position(|e| e.name == name);
        if conditional {
            let mut before = match at.and_then(|at| self.entries.get(at)) {
                Some(e) => e.values.clone(),
                None => vec![Value::Unknown],
            };
            for v in values {
                if !before.contains(&v) {
                    before.push(v);
                }
            }
            values = before;
            if values.len() > MAX_VARIANTS {
                values = vec![Value::Unknown];
            }
        }
        let entry = Entry {
            name: name.to_string(),
            values,
        };
        match at.and_then(|at| self.entries.get_mut(at)) {
            Some(e) => *e = entry,
            None => self.entries.push(entry),
        }
    }

    /// Puts back what `name` held before a call or a `source` gave it a value for a
    /// while (`None`: it was not set).
    pub(super) fn restore(&mut self, name: &str, values: Option<Vec<Value>>) {
        match values {
            Some(values) => self.set(name, values, false),
            None => self.entries.retain(|e| e.name != name),
        }
    }

    /// Anything may have been set.
    pub(super) fn havoc(&mut self) {
        self.entries.clear();
        self.opaque = true;
        self.own_ifs = false;
    }

    /// What a `trap` action set when the shell was at `then` may meet, in a shell now at
    /// `self`: it runs on a signal at any moment from then on, or at the exit, so each name
    /// may hold what it held then or any value `since` gave it after.
    pub(super) fn at_trap(&self, then: &Vars, since: &[(String, Vec<Value>)]) -> Vars {
        let mut out = Vars {
            entries: Vec::new(),
            opaque: then.opaque || self.opaque,
            deferred: true,
            exported: self.exported.clone(),
            allexport: self.allexport,
            own_ifs: self.own_ifs,
        };
        let names = self
            .entries
            .iter()
            .chain(&then.entries)
            .map(|e| e.name.as_str());
        for name in names {
            if out.entries.iter().any(|e| e.name == name) {
                continue;
            }
            let mut values: Vec<Value> = match then.get(name) {
                Some(values) => values.to_vec(),
                None => vec![Value::Unknown],
            };
            let later = since.iter().filter(|(n, _)| n == name).flat_map(|(_, v)| v);
            for v in later.chain(self.get(name).unwrap_or(&[Value::Unknown])) {
                if !values.contains(v) {
                    values.push(v.clone());
                }
            }
            if values.len() > MAX_VARIANTS {
                values = vec![Value::Unknown];
            }
            out.entries.push(Entry {
                name: name.to_string(),
                values,
            });
        }
        out
    }
}

/// Where a variable is read: the values in effect, and names that are unknown everywhere
/// (assigned by a function body or a `trap`).
pub(super) struct Env<'a> {
    pub vars: &'a Vars,
    pub poisoned: &'a [(String, Vec<Value>)],
    pub all_poisoned: bool,
    /// The `cd`s in effect where the command runs.
    pub dirs: &'a [Word],
    /// Set when an expansion gave a path that holds only from these `cd`s (see
    /// [`Value::Here`]): what it built must not be kept as plain text.
    pub here: std::cell::Cell<bool>,
    /// Who answers what `git rev-parse` prints, and the folder the command runs in, when
    /// both are known.
    pub repository: Option<(&'a dyn super::Repository, std::path::PathBuf)>,
    /// A command of the line before this one may have made or moved a repository.
    pub repository_made: bool,
}

/// One reference to a variable, from the text of a `$x`/`${...}` node.
enum Reference<'s> {
    /// `$x`, `${x}`; `$a` and `${a}` of an array give its first element.
    Plain(&'s str),
    /// `${a[@]}`, `$@`: every element, each a word of its own even when quoted.
    All(&'s str),
    /// `${a[*]}`, `$*`: the elements joined by a blank (the first character of `IFS`).
    Joined(&'s str),
    /// `${x:-word}` (`colon`), `${x-word}`, and the assigning `:=`/`=` forms.
    Default {
        name: &'s str,
        colon: bool,
        word: &'s str,
    },
    /// `$$`, `$RANDOM`, `$BASHPID`: digits only, unknown.
    Digits,
    /// `$1`, `${12}`: one positional parameter.
    Positional(usize),
    /// `$#`: how many positional parameters there are.
    Count,
}

fn reference(raw: &str) -> Option<Reference<'_>> {
    let body = raw.strip_prefix('$')?;
    let Some(inner) = body.strip_prefix('{').and_then(|b| b.strip_suffix('}')) else {
        return Some(match body {
            "$" | "RANDOM" | "BASHPID" => Reference::Digits,
            "#" => Reference::Count,
            // The script's own path, where a shell that runs a file gives it.
            "0" => Reference::Plain("0"),
            n if n.len() == 1 && n.bytes().all(|b| b.is_ascii_digit()) => {
                Reference::Positional(n.parse().ok()?)
            }
            "@" => Reference::All("@"),
            "*" => Reference::Joined("@"),
            name if is_name(name) => Reference::Plain(name),
            _ => return None,
        });
    };
    if matches!(inner, "RANDOM" | "BASHPID") {
        return Some(Reference::Digits);
    }
    if inner == "0" {
        return Some(Reference::Plain("0"));
    }
    match inner {
        "@" => return Some(Reference::All("@")),
        "*" => return Some(Reference::Joined("@")),
        "#" => return Some(Reference::Count),
        n if !n.is_empty() && n != "0" && n.bytes().all(|b| b.is_ascii_digit()) => {
            return n.parse().ok().map(Reference::Positional);
        }
        _ => {}
    }
    if is_name(inner) {
        return Some(Reference::Plain(inner));
    }
    if let Some(array) = inner.strip_suffix("[@]").filter(|a| is_name(a)) {
        return Some(Reference::All(array));
    }
    if let Some(array) = inner.strip_suffix("[*]").filter(|a| is_name(a)) {
        return Some(Reference::Joined(array));
    }
    let end = inner
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(inner.len());
    let (name, rest) = inner.split_at(end);
    let positional = !name.is_empty() && name != "0" && name.bytes().all(|b| b.is_ascii_digit());
    if !is_name(name) && !positional {
        return None;
    }
    let (colon, word) = match rest.strip_prefix(':') {
        Some(r) => (true, r),
        None => (false, rest),
    };
    let word = word.strip_prefix(['-', '='])?;
    // Only a plain default: quotes and expansions in it are left to run time.
    let plain = word
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"-_./:@%+,".contains(&b));
    plain.then_some(Reference::Default { name, colon, word })
}

pub(super) fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `${X:=word}`, `${X=word}`: the name such an expansion assigns, and the word when it is
/// plain.
pub(super) fn assigned_by_expansion(raw: &str) -> Option<(&str, Option<&str>)> {
    let inner = raw.strip_prefix("${")?;
    let end = inner.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))?;
    let (name, rest) = inner.split_at(end);
    if !is_name(name) || !(rest.starts_with(":=") || rest.starts_with('=')) {
        return None;
    }
    let word = match reference(raw) {
        Some(Reference::Default { word, .. }) => Some(word),
        _ => None,
    };
    Some((name, word))
}

/// What one reference may give.
fn lookup(env: &Env, reference: &Reference) -> Vec<Value> {
    let known = |name: &str| -> Option<Vec<Value>> {
        if env.all_poisoned {
            return Some(vec![Value::Unknown]);
        }
        // Unknown, or any value a function body gives it, or what holds here.
        if let Some((_, given)) = env.poisoned.iter().find(|(p, _)| p == name) {
            let mut values = vec![Value::Unknown];
            values.extend(env.vars.get(name).unwrap_or_default().iter().cloned());
            for v in given {
                if !values.contains(v) {
                    values.push(v.clone());
                }
            }
            values.truncate(MAX_VARIANTS);
            return Some(values);
        }
        env.vars.get(name).map(<[Value]>::to_vec)
    };
    match reference {
        Reference::Digits => vec![Value::Unknown],
        Reference::Positional(n) => known("@")
            .unwrap_or_else(|| vec![Value::Unknown])
            .into_iter()
            .map(|v| match v {
                Value::List(items) => Value::Text(items.get(n - 1).cloned().unwrap_or_default()),
                _ => Value::Unknown,
            })
            .collect(),
        Reference::Count => known("@")
            .unwrap_or_else(|| vec![Value::Unknown])
            .into_iter()
            .map(|v| match v {
                Value::List(items) => Value::Text(items.len().to_string()),
                _ => Value::Unknown,
            })
            .collect(),
        Reference::Plain(name) => match known(name) {
            Some(values) => values
                .into_iter()
                .map(|v| match v {
                    Value::List(items) => {
                        items.first().cloned().map_or(Value::Unknown, Value::Text)
                    }
                    v => v,
                })
                .collect(),
            None if *name == "TMPDIR" && temp_root_from_env() => vec![Value::TempRoot],
            // The shell keeps `PWD` where each `cd` leads.
            None if *name == "PWD" => vec![here(env.dirs, ".")],
            None => vec![Value::Unknown],
        },
        Reference::All(name) => known(name).unwrap_or_else(|| vec![Value::Unknown]),
        Reference::Joined(name) => known(name)
            .unwrap_or_else(|| vec![Value::Unknown])
            .into_iter()
            .map(|v| match v {
                Value::List(items) => Value::Text(items.join(" ")),
                v => v,
            })
            .collect(),
        Reference::Default { name, colon, word }
            if name.starts_with(|c: char| c.is_ascii_digit()) =>
        {
            let n = name.parse().unwrap_or(usize::MAX);
            lookup(env, &Reference::Positional(n))
                .into_iter()
                .map(|v| match v {
                    Value::Text(t) if t.is_empty() && *colon => Value::Text((*word).to_string()),
                    v => v,
                })
                .collect()
        }
        Reference::Default { name, colon, word } => match known(name) {
            Some(values) => values
                .into_iter()
                .map(|v| match v {
                    Value::Text(t) if t.is_empty() && *colon => Value::Text((*word).to_string()),
                    Value::List(_) => Value::Unknown,
                    v => v,
                })
                .collect(),
            // Set nowhere: neither in the line nor in the environment the line runs in.
            None if std::env::var_os(name).is_none() => {
                if *name == "TMPDIR" && is_temp_root(word) {
                    vec![Value::TempRoot]
                } else {
                    vec![Value::Text((*word).to_string())]
                }
            }
            None if *name == "TMPDIR" && temp_root_from_env() && is_temp_root(word) => {
                vec![Value::TempRoot]
            }
            None => vec![Value::Unknown],
        },
    }
}

/// The folder `path` names from the `cd`s `dirs`.
fn here(dirs: &[Word], path: &str) -> Value {
    Value::Here {
        from: dirs.to_vec(),
        path: path.to_string(),
    }
}

/// `values` as they read where `env`'s command runs: a path computed from where the line
/// was then is text when the `cd`s are the same, and unknown otherwise.
fn at_here(values: Vec<Value>, env: &Env) -> Vec<Value> {
    values
        .into_iter()
        .map(|v| match v {
            Value::Here { from, path } if from == env.dirs => {
                env.here.set(true);
                Value::Text(path)
            }
            Value::Here { .. } => Value::Unknown,
            v => v,
        })
        .collect()
}

/// What a command substitution prints, when that is known from the line alone and from
/// where it runs: `$(pwd)` (and `` `pwd` ``), `$(cd DIR && pwd)`, `$(dirname PATH)`,
/// `$(basename PATH)`. The folder it runs in is spelled `.` (see [`Value::Here`]): a path
/// built from it names the same file where the command using it runs, which is all a rule
/// or the context needs. Anything that asks the disk or git (`realpath`, `git rev-parse`)
/// is not read here.
fn printed_by(node: Node, src: &str, env: &Env) -> Option<Vec<Value>> {
    if too_nested(node, src) {
        return None;
    }
    let mut cursor = node.walk();
    let inner: Vec<Node> = node.named_children(&mut cursor).collect();
    let [inner] = inner.as_slice() else {
        return None;
    };
    match inner.kind() {
        "command" => {
            let was = env.here.replace(false);
            let argv = command_words(*inner, src, env);
            let from_here = env.here.replace(was);
            let argv = argv?;
            let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
            let text = match argv.as_slice() {
                ["pwd"] | ["pwd", "-L" | "-P"] => {
                    env.here.set(true);
                    ".".to_string()
                }
                // A path spelled from `.` says nothing of the real folder's name or parent.
                _ if from_here => return None,
                ["git", "rev-parse", flag] if super::REV_PARSE_FLAGS.contains(flag) => {
                    let text = rev_parse(env, flag)?;
                    env.here.set(true);
                    text
                }
                ["dirname", args @ ..] => match bare_operands(args)?.as_slice() {
                    [path] => dirname(path),
                    _ => return None,
                },
                ["basename", args @ ..] => match bare_operands(args)?.as_slice() {
                    [path] => basename(path, ""),
                    [path, suffix] => basename(path, suffix),
                    _ => return None,
                },
                _ => return None,
            };
            Some(vec![Value::Text(text)])
        }
        // `$(cd DIR && pwd)`: DIR, or nothing when the `cd` fails.
        "list" => {
            let mut cursor = inner.walk();
            let parts: Vec<Node> = inner.children(&mut cursor).collect();
            let [first, and, second] = parts.as_slice() else {
                return None;
            };
            if and.kind() != "&&" || first.kind() != "command" || second.kind() != "command" {
                return None;
            }
            let was = env.here.replace(false);
            let cd = command_words(*first, src, env);
            let from_here = env.here.replace(was);
            let cd = cd?;
            let pwd = command_words(*second, src, env)?;
            let dir = match cd.as_slice() {
                [cd, dir] if cd == "cd" => dir,
                _ => return None,
            };
            if pwd != ["pwd"] || !plain_folder(dir) || from_here && dir.starts_with('/') {
                return None;
            }
            if !dir.starts_with('/') {
                env.here.set(true);
            }
            Some(vec![Value::Text(dir.clone()), Value::Text(String::new())])
        }
        _ => None,
    }
}

/// What `git rev-parse FLAG` prints where `env`'s command runs, asked of the repository:
/// never when the line itself may point git elsewhere (`GIT_DIR`, `GIT_WORK_TREE`, ...) or
/// may have made a repository before.
fn rev_parse(env: &Env, flag: &str) -> Option<String> {
    const POINTERS: &[&str] = &[
        "GIT_DIR",
        "GIT_WORK_TREE",
        "GIT_COMMON_DIR",
        "GIT_CEILING_DIRECTORIES",
        "GIT_DISCOVERY_ACROSS_FILESYSTEM",
    ];
    let (repository, dir) = env.repository.as_ref()?;
    let pointed = env.all_poisoned
        || POINTERS.iter().any(|name| {
            env.vars.get(name).is_some() || env.poisoned.iter().any(|(p, _)| p == name)
        });
    if pointed || env.repository_made {
        return None;
    }
    repository.rev_parse(dir, flag)
}

/// Most substitutions one substitution read for its output may hold, nested or not: each
/// is read again at every level.
const MAX_INNER_SUBSTITUTIONS: usize = 4;

fn too_nested(node: Node, src: &str) -> bool {
    let raw = src.get(node.byte_range()).unwrap_or_default();
    raw.matches("$(").count() + raw.matches('`').count() > MAX_INNER_SUBSTITUTIONS
}

/// A folder `cd` goes to as written, with no `..` (the shell's logical `..` may differ from
/// the file system's), `-`, `~` or option.
fn plain_folder(dir: &str) -> bool {
    !dir.is_empty() && !dir.starts_with(['-', '~', '+']) && !climbs(dir)
}

/// The operands of `dirname`/`basename` given no option, which is all that is read of
/// them here (`basename -s .c`, `dirname -z` are not).
fn bare_operands(args: &[&str]) -> Option<Vec<String>> {
    let words: Vec<Word> = args.iter().map(|a| Word::literal(*a)).collect();
    let read = argv::read(&words, Style::Getopt, &Valued(&[]));
    if !read.opts.is_empty() {
        return None;
    }
    let operands = read.operands.iter().filter_map(|&i| args.get(i));
    Some(operands.map(|a| a.to_string()).collect())
}

/// The words of a simple command inside a substitution, each known: no prefixes, no
/// redirects.
fn command_words(node: Node, src: &str, env: &Env) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut cursor = node.walk();
    for (i, child) in node.children(&mut cursor).enumerate() {
        if !matches!(
            node.field_name_for_child(i as u32),
            Some("name" | "argument")
        ) {
            return None;
        }
        let w = word::from_node(child, src);
        if w.literal {
            out.push(w.text);
            continue;
        }
        match expand_quoted(child, src, env)?.as_slice() {
            [one] => match one.as_slice() {
                [w] => out.push(w.value()?.to_string()),
                _ => return None,
            },
            _ => return None,
        }
    }
    (!out.is_empty()).then_some(out)
}

/// What `dirname` prints for `path`.
fn dirname(path: &str) -> String {
    let trimmed = path.trim_end_matches('/');
    if trimmed.is_empty() {
        return if path.is_empty() { "." } else { "/" }.to_string();
    }
    match trimmed.rfind('/') {
        None => ".".to_string(),
        Some(at) => {
            let parent = trimmed[..at].trim_end_matches('/');
            if parent.is_empty() { "/" } else { parent }.to_string()
        }
    }
}

/// What `basename` prints for `path`, less `suffix` when it ends so and is not all of it.
fn basename(path: &str, suffix: &str) -> String {
    let trimmed = path.trim_end_matches('/');
    if trimmed.is_empty() {
        return if path.is_empty() { "" } else { "/" }.to_string();
    }
    let name = trimmed.rsplit('/').next().unwrap_or(trimmed);
    match name.strip_suffix(suffix) {
        Some(stem) if !suffix.is_empty() && !stem.is_empty() => stem.to_string(),
        _ => name.to_string(),
    }
}

/// `$TMPDIR` as the environment gives it is the temporary root: set, and not empty.
fn temp_root_from_env() -> bool {
    std::env::var_os("TMPDIR").is_some_and(|v| !v.is_empty())
}

/// The usual temporary roots, and the one this machine names.
fn is_temp_root(path: &str) -> bool {
    let path = path.trim_end_matches('/');
    matches!(path, "/tmp" | "/var/tmp")
        || std::env::temp_dir()
            .to_str()
            .is_some_and(|t| !path.is_empty() && t.trim_end_matches('/') == path)
}

/// Whether the machine's temporary root holds a blank or glob character: an unquoted
/// path under it could then split into other words.
fn temp_root_plain() -> bool {
    let root = std::env::temp_dir();
    root.to_str().is_some_and(plain_path)
}

fn plain_path(path: &str) -> bool {
    !path.contains(|c: char| c.is_whitespace() || matches!(c, '*' | '?' | '['))
}

/// A word being built: its fields so far, and whether the last one takes more text.
#[derive(Clone, Default)]
struct Fields {
    words: Vec<Word>,
    open: bool,
}

impl Fields {
    fn text(&mut self, text: &str, literal: bool) {
        if !self.open || self.words.is_empty() {
            self.words.push(Word::literal(""));
            self.open = true;
        }
        if let Some(w) = self.words.last_mut() {
            w.text.push_str(text);
            w.literal &= literal;
        }
    }

    /// An unquoted value: split on blanks, each piece globbed.
    fn split(&mut self, value: &str) {
        if value.starts_with(char::is_whitespace) {
            self.open = false;
        }
        let mut first = true;
        for piece in value.split_whitespace() {
            if !first {
                self.open = false;
            }
            first = false;
            self.text(piece, plain_glob(piece));
        }
        if value.ends_with(char::is_whitespace) {
            self.open = false;
        }
    }

    /// Several fields (`"${a[@]}"`): the first joins what comes before, the last what
    /// comes after.
    fn list(&mut self, items: &[String], quoted: bool) {
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.open = false;
            }
            if quoted {
                self.text(item, true);
            } else {
                self.split(item);
            }
        }
    }
}

fn plain_glob(piece: &str) -> bool {
    !piece.contains(['*', '?', '['])
}

/// Every way `node` (one argument) may expand, each as the words it gives; `None` when
/// it holds nothing the line gives a value to (it is then read as today).
pub(super) fn expand(node: Node, src: &str, env: &Env) -> Option<Vec<Vec<Word>>> {
    expand_as(node, src, env, false)
}

/// As [`expand`], for the right side of an assignment: no splitting, no globbing.
pub(super) fn expand_quoted(node: Node, src: &str, env: &Env) -> Option<Vec<Vec<Word>>> {
    expand_as(node, src, env, true)
}

fn expand_as(node: Node, src: &str, env: &Env, quoted: bool) -> Option<Vec<Vec<Word>>> {
    let mut states = vec![Some(Fields::default())];
    let mut substituted = false;
    walk(node, src, env, quoted, &mut states, &mut substituted)?;
    if !substituted {
        return None;
    }
    let original = || vec![word::from_node(node, src)];
    let mut out: Vec<Vec<Word>> = Vec::new();
    for state in states {
        let words = match state {
            Some(fields) => fields.words,
            None => original(),
        };
        if !out.contains(&words) {
            out.push(words);
        }
    }
    Some(out)
}

/// Appends `node` to every state; a state becomes `None` where a value is unknown (the
/// word then stays as written). `None` overall when the word holds something this does
/// not read.
fn walk(
    node: Node,
    src: &str,
    env: &Env,
    quoted: bool,
    states: &mut Vec<Option<Fields>>,
    substituted: &mut bool,
) -> Option<()> {
    let raw = src.get(node.byte_range())?;
    match node.kind() {
        "word" | "number" | "raw_string" | "ansi_c_string" => {
            let w = word::from_node(node, src);
            for s in states.iter_mut().flatten() {
                s.text(&w.text, w.literal);
            }
        }
        "string" => {
            for s in states.iter_mut().flatten() {
                s.text("", true);
            }
            let mut cursor = node.walk();
            let mut pos = None;
            for child in node.children(&mut cursor) {
                if let Some(from) = pos.filter(|&p| p < child.start_byte()) {
                    let gap = word::double_quoted(src.get(from..child.start_byte())?);
                    for s in states.iter_mut().flatten() {
                        s.text(&gap, true);
                    }
                }
                match child.kind() {
                    "\"" => {}
                    "string_content" => {
                        let text = word::double_quoted(src.get(child.byte_range())?);
                        for s in states.iter_mut().flatten() {
                            s.text(&text, true);
                        }
                    }
                    "simple_expansion" | "expansion" => {
                        variable(child, src, env, true, states, substituted)?
                    }
                    "command_substitution" => {
                        let values = printed_by(child, src, env)?;
                        apply(values, env, true, false, states, substituted)?
                    }
                    _ => return None,
                }
                pos = Some(child.end_byte());
            }
        }
        "command_substitution" => {
            let values = printed_by(node, src, env)?;
            apply(values, env, quoted, false, states, substituted)?
        }
        "concatenation" | "command_name" => {
            if word::has_brace_expansion(raw) {
                return None;
            }
            let mut cursor = node.walk();
            for child in node.children(&mut cursor) {
                walk(child, src, env, quoted, states, substituted)?;
            }
        }
        "simple_expansion" | "expansion" => variable(node, src, env, quoted, states, substituted)?,
        _ => return None,
    }
    Some(())
}

fn variable(
    node: Node,
    src: &str,
    env: &Env,
    quoted: bool,
    states: &mut Vec<Option<Fields>>,
    substituted: &mut bool,
) -> Option<()> {
    let reference = reference(src.get(node.byte_range())?)?;
    let values = at_here(lookup(env, &reference), env);
    let joined = matches!(reference, Reference::Joined(_));
    apply(values, env, quoted, joined, states, substituted)
}

/// Appends what an expansion may give, `values`, to every state.
fn apply(
    values: Vec<Value>,
    env: &Env,
    quoted: bool,
    joined: bool,
    states: &mut Vec<Option<Fields>>,
    substituted: &mut bool,
) -> Option<()> {
    if !values
        .iter()
        .any(|v| matches!(v, Value::Text(_) | Value::List(_)))
    {
        for s in states.iter_mut() {
            *s = None;
        }
        return Some(());
    }
    // A line that sets `IFS` splits unquoted values, and joins `"$*"`, where this cannot
    // tell.
    let splits_known = (quoted && !joined)
        || (!env.all_poisoned
            && env.vars.default_ifs()
            && !env.poisoned.iter().any(|(p, _)| p == "IFS"));
    if !splits_known {
        for s in states.iter_mut() {
            *s = None;
        }
        return Some(());
    }
    *substituted = true;
    let mut next = Vec::new();
    for state in states.drain(..) {
        let Some(state) = state else {
            if !next.iter().any(Option::is_none) {
                next.push(None);
            }
            continue;
        };
        for value in &values {
            let mut s = state.clone();
            let known = match value {
                Value::Text(t) if quoted => {
                    s.text(t, true);
                    true
                }
                Value::Text(t) => {
                    s.split(t);
                    true
                }
                Value::List(items) => {
                    s.list(items, quoted);
                    true
                }
                _ => false,
            };
            next.push(known.then_some(s));
        }
        if next.len() > MAX_VARIANTS {
            return None;
        }
    }
    *states = next;
    Some(())
}

/// One piece of a word, for telling whether it lies inside a temporary folder.
enum Piece {
    Text(String),
    Digits,
    Fresh(&'static str),
    Root,
    Unknown,
}

/// Whether the word `node` is proven to lie inside a temporary folder: `"$work"` or
/// `"$work/sub"` after `work=$(mktemp -d)`, `/tmp/x-$$`, `"$TMPDIR/out"`,
/// `${TMPDIR:-/tmp}/out.$RANDOM`. Any `..`, unknown part, or reassignment breaks it.
pub(super) fn temp(node: Node, src: &str, env: &Env) -> Option<Temp> {
    let mut pieces = Vec::new();
    pieces_of(node, src, env, false, &mut pieces)?;
    let mut head = None;
    let mut path = String::new();
    let mut digits = false;
    for (i, piece) in pieces.iter().enumerate() {
        match piece {
            Piece::Fresh(made) if i == 0 => head = Some(Temp::Made(made)),
            Piece::Root if i == 0 => head = Some(Temp::Root),
            Piece::Text(t) => path.push_str(t),
            // Digits hold no `/` and no `..`: one stands in for them all.
            Piece::Digits => {
                digits = true;
                path.push('0');
            }
            _ => return None,
        }
    }
    match head {
        Some(made @ Temp::Made(_)) => {
            (path.is_empty() || (path.starts_with('/') && !climbs(&path))).then_some(made)
        }
        Some(Temp::Root) => inside(&path),
        // A literal temporary root, then a name made fresh by `$$` or `$RANDOM`.
        None if digits => {
            let root = ["/tmp", "/var/tmp"]
                .into_iter()
                .map(str::to_string)
                .chain(
                    std::env::temp_dir()
                        .to_str()
                        .map(|t| t.trim_end_matches('/').to_string()),
                )
                .find(|root| !root.is_empty() && path.starts_with(&format!("{root}/")))?;
            inside(path.get(root.len()..)?)
        }
        None => None,
    }
}

/// `rest` (after a temporary root) names something inside it: a first component that is
/// not `.` or `..`, and no `..` anywhere.
fn inside(rest: &str) -> Option<Temp> {
    let rest = rest.strip_prefix('/')?;
    let first = rest.split('/').find(|c| !c.is_empty() && *c != ".")?;
    (first != ".." && !climbs(rest)).then_some(Temp::Root)
}

fn climbs(path: &str) -> bool {
    path.split('/').any(|c| c == "..")
}

fn pieces_of(node: Node, src: &str, env: &Env, quoted: bool, out: &mut Vec<Piece>) -> Option<()> {
    match node.kind() {
        "word" | "number" | "raw_string" | "ansi_c_string" => {
            let w = word::from_node(node, src);
            if !w.literal {
                return None;
            }
            out.push(Piece::Text(w.text));
        }
        "string" => {
            let mut cursor = node.walk();
            let mut pos = None;
            for child in node.children(&mut cursor) {
                if let Some(from) = pos.filter(|&p| p < child.start_byte()) {
                    out.push(Piece::Text(word::double_quoted(
                        src.get(from..child.start_byte())?,
                    )));
                }
                match child.kind() {
                    "\"" => {}
                    "string_content" => out.push(Piece::Text(word::double_quoted(
                        src.get(child.byte_range())?,
                    ))),
                    "simple_expansion" | "expansion" | "command_substitution" => {
                        pieces_of(child, src, env, true, out)?
                    }
                    _ => return None,
                }
                pos = Some(child.end_byte());
            }
        }
        "concatenation" | "command_name" => {
            let mut cursor = node.walk();
            for child in node.children(&mut cursor) {
                pieces_of(child, src, env, quoted, out)?;
            }
        }
        // `cd "$(mktemp -d)"`: the folder made right there.
        "command_substitution" => {
            if too_nested(node, src) {
                return None;
            }
            let mut cursor = node.walk();
            let inner: Vec<Node> = node.named_children(&mut cursor).collect();
            let [inner] = inner.as_slice() else {
                return None;
            };
            let argv: Vec<Word> = command_words(*inner, src, env)?
                .iter()
                .map(Word::literal)
                .collect();
            let root_known = env.vars.get("TMPDIR").is_none();
            match mktemp_dir(&argv, env.dirs, root_known)? {
                Value::Fresh { made, plain, .. } if quoted || plain => out.push(Piece::Fresh(made)),
                _ => return None,
            }
        }
        // tree-sitter leaves `$$` an unnamed `$` token.
        "$" if src.get(node.byte_range()) == Some("$$") => out.push(Piece::Digits),
        "simple_expansion" | "expansion" => {
            let reference = reference(src.get(node.byte_range())?)?;
            if matches!(reference, Reference::Digits) {
                out.push(Piece::Digits);
                return Some(());
            }
            let values = at_here(lookup(env, &reference), env);
            let piece = match values.as_slice() {
                [Value::Fresh { made, from, plain }] => {
                    let here = from.as_deref().is_none_or(|from| from == env.dirs);
                    if !here || !(quoted || *plain) {
                        return None;
                    }
                    Piece::Fresh(made)
                }
                [Value::TempRoot] if quoted || temp_root_plain() => Piece::Root,
                [Value::Text(t)] if quoted || plain_path(t) => Piece::Text(t.clone()),
                _ => Piece::Unknown,
            };
            out.push(piece);
        }
        _ => return None,
    }
    Some(())
}

/// Where the `cd`s `dirs` lead, when that is inside a folder the line just made
/// (`cd "$(mktemp -d)"`, `d=$(mktemp -d); cd "$d/out"`): the call that made it, and how
/// many folders below the one the `cd` into it named the command runs (a later `cd ..` may
/// climb back, never above it).
pub(super) fn fresh_folder(dirs: &[Word]) -> Option<(&'static str, usize)> {
    let mut at: Option<(&'static str, usize)> = None;
    for step in dirs {
        // A word marked inside such a folder at an unknown depth stands for its top.
        if let Some(Temp::Made(made)) = step.temp.filter(|_| !step.literal) {
            at = Some((made, 0));
            continue;
        }
        let (made, depth) = at?;
        let text = step.value().filter(|t| !t.starts_with(['/', '~', '-']))?;
        at = Some((made, below(depth, text)?));
    }
    at
}

/// How deep `path` leads from `depth` folders below a root; `None` when it climbs above.
fn below(depth: usize, path: &str) -> Option<usize> {
    path.split('/').try_fold(depth, |depth, part| match part {
        "" | "." => Some(depth),
        ".." => depth.checked_sub(1),
        _ => Some(depth + 1),
    })
}

/// Marks the words of `cmd` that, as relative paths, lie inside the folder `made` (see
/// [`fresh_folder`]): `rm -rf ./*` or `rm -rf build` right after `cd "$(mktemp -d)"`. A
/// glob among them cannot climb out (`*` never matches `/`; a part that starts with a dot
/// and holds a glob may match `..`, and is refused).
pub(super) fn mark_inside((made, depth): (&'static str, usize), cmd: &mut SimpleCommand) {
    for word in cmd.argv.iter_mut().skip(1) {
        let text = &word.text;
        let plain = word.literal
            || !text.contains(['$', '`', '{'])
                && text
                    .split('/')
                    .all(|part| !(part.starts_with('.') && part.contains(['*', '?', '['])));
        if word.temp.is_none()
            && plain
            && !text.is_empty()
            && !text.starts_with(['-', '/', '~'])
            && below(depth, text).is_some()
        {
            word.temp = Some(Temp::Made(made));
        }
    }
}

/// `mktemp -d [-p DIR | -t | --tmpdir[=DIR]] [TEMPLATE]`: the folder it makes, when
/// `argv` is that command (never with `-u`, which makes nothing). `root_known` is false
/// when the line itself may have set `TMPDIR`: a folder under it may then be relative.
pub(super) fn mktemp_dir(argv: &[Word], dirs: &[Word], root_known: bool) -> Option<Value> {
    let (program, args) = argv.split_first()?;
    if program.value()? != "mktemp" || !args.iter().all(|w| w.literal) {
        return None;
    }
    let read = argv::read(args, Style::Getopt, &MktempOptions);
    let Mktemp {
        directory,
        under_tmp,
        dir,
    } = mktemp_options(&read, args)?;
    let template = match read.operands.as_slice() {
        [] => None,
        [at] => Some(args.get(*at)?),
        _ => return None,
    };
    if !directory {
        return None;
    }
    let dir_text = dir.as_ref().map(|d| d.text.clone());
    let relative = match (&dir_text, template) {
        (Some(d), _) => !d.starts_with('/'),
        (None, Some(t)) if !under_tmp => !t.text.starts_with('/'),
        _ => !root_known || !std::env::temp_dir().is_absolute(),
    };
    let plain = root_known
        && temp_root_plain()
        && dir.as_ref().is_none_or(|d| d.literal)
        && dir_text.as_deref().is_none_or(plain_path)
        && template.is_none_or(|t| t.literal && plain_path(&t.text));
    Some(Value::Fresh {
        made: "mktemp -d",
        from: relative.then(|| dirs.to_vec()),
        plain,
    })
}

/// mktemp's options (GNU and BSD); `None` for any other, which this does not follow
/// (`-u` makes nothing).
struct MktempOptions;

impl Options for MktempOptions {
    fn long(&self, name: &str) -> Option<Takes> {
        match name {
            "directory" | "quiet" => Some(Takes::Nothing),
            "tmpdir" => Some(Takes::Attached),
            "suffix" => Some(Takes::Value),
            _ => None,
        }
    }
    fn short(&self, letter: char) -> Option<Takes> {
        match letter {
            'd' | 'q' | 't' => Some(Takes::Nothing),
            'p' => Some(Takes::Value),
            _ => None,
        }
    }
}

/// What mktemp's options ask.
#[derive(Default)]
struct Mktemp {
    /// A folder (`-d`).
    directory: bool,
    /// Under the temporary root (`-t`, `--tmpdir`).
    under_tmp: bool,
    /// Under the folder given (`-p DIR`, `--tmpdir=DIR`).
    dir: Option<Word>,
}

/// Reads mktemp's options; `None` for one not followed here or one missing its value.
fn mktemp_options(read: &Argv, args: &[Word]) -> Option<Mktemp> {
    if read.unknown {
        return None;
    }
    let mut asks = Mktemp::default();
    for opt in &read.opts {
        match opt.name {
            "d" | "directory" => asks.directory = true,
            "t" => asks.under_tmp = true,
            "tmpdir" if opt.value.is_none() => asks.under_tmp = true,
            "tmpdir" | "p" => asks.dir = Some(opt.value_in(args)?),
            "suffix" if opt.value.is_none() => return None,
            _ => {}
        }
    }
    Some(asks)
}

/// What a loop may assign, for reading its body as any round would meet it.
#[derive(Default)]
pub(super) struct Assigned {
    /// Every name it may assign.
    pub names: Vec<String>,
    /// The literal values among them (`m=--hard`): a later round may meet those.
    pub literals: Vec<(String, String)>,
    /// It may set any name (`eval "$x"`, `source`).
    pub any: bool,
}

/// What `node` may assign.
pub(super) fn assigned_in(node: Node, src: &str) -> Assigned {
    let mut names: Vec<String> = Vec::new();
    let mut literals = Vec::new();
    let mut any = false;
    let add = |names: &mut Vec<String>, name: &str| {
        let base = name.split(['[', '+']).next().unwrap_or(name);
        if !names.iter().any(|n| n == base) {
            names.push(base.to_string());
        }
    };
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        let mut cursor = n.walk();
        stack.extend(n.named_children(&mut cursor));
        let text = |n: Node| src.get(n.byte_range()).unwrap_or("");
        match n.kind() {
            "variable_assignment" => {
                if let Some(name) = n.child_by_field_name("name") {
                    add(&mut names, text(name));
                    let value = n
                        .child_by_field_name("value")
                        .map(|v| word::from_node(v, src));
                    if let Some(value) = value.filter(|v| v.literal) {
                        literals.push((text(name).to_string(), value.text));
                    }
                }
            }
            "for_statement" => {
                if let Some(v) = n.child_by_field_name("variable") {
                    add(&mut names, text(v));
                }
            }
            "variable_name"
                if n.parent()
                    .is_some_and(|p| !matches!(p.kind(), "simple_expansion" | "expansion")) =>
            {
                add(&mut names, text(n));
            }
            "expansion" => {
                if let Some((name, _)) = assigned_by_expansion(text(n)) {
                    add(&mut names, name);
                }
            }
            "command" => {
                let Some(program) = n.child_by_field_name("name") else {
                    continue;
                };
                let program = word::from_node(program, src);
                if !program.literal {
                    any = true;
                    continue;
                }
                match program.text.as_str() {
                    "eval" | "source" | "." => any = true,
                    "set" | "shift" => add(&mut names, "@"),
                    p if ASSIGNERS.contains(&p) => {
                        let mut c = n.walk();
                        for arg in n.children_by_field_name("argument", &mut c) {
                            let arg = word::from_node(arg, src);
                            let name = arg.text.split('=').next().unwrap_or("");
                            if is_name(name) {
                                add(&mut names, name);
                            }
                        }
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
    Assigned {
        names,
        literals,
        any,
    }
}

/// Builtins that set the variables their operands name.
pub(super) const ASSIGNERS: &[&str] = &[
    "read",
    "mapfile",
    "readarray",
    "getopts",
    "printf",
    "let",
    "unset",
    "declare",
    "typeset",
    "local",
    "export",
    "readonly",
    "select",
];

/// What `set`'s options `args` do to `set -a`: `Some(true)` for `-a` or `-o allexport`,
/// `Some(false)` for `+a` or `+o allexport`, the last one winning.
pub(super) fn allexport(args: &[Word]) -> Option<bool> {
    shell_options(args).opts.iter().rev().find_map(|opt| {
        let allexport = opt.name == "a" || opt.setting.as_deref() == Some("allexport");
        allexport.then_some(opt.on)
    })
}

/// `read [-r] NAME... <<< WORD`: the values the names get, when the here-string is literal
/// (without `-r`, a backslash in it would be an escape).
pub(super) fn read_values(args: &[Word], input: Option<&Word>) -> Option<Vec<(String, String)>> {
    let mut raw = false;
    let mut names = Vec::new();
    for arg in args {
        let text = arg.value()?;
        match text {
            "-r" => raw = true,
            "-s" | "-e" => {}
            name if is_name(name) => names.push(name.to_string()),
            _ => return None,
        }
    }
    let input = input?.value()?;
    if !raw && input.contains('\\') {
        return None;
    }
    let (last, first) = names.split_last()?;
    let mut rest = input.trim_matches(char::is_whitespace);
    let mut out = Vec::new();
    for name in first {
        let (field, after) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        out.push((name.clone(), field.to_string()));
        rest = after.trim_start_matches(char::is_whitespace);
    }
    out.push((last.clone(), rest.to_string()));
    Some(out)
}

/// Whether `node` may not run when the commands around it do, or may run at another time:
/// inside a branch, a case arm, a loop, a function body, the right side of `&&`/`||`, or a
/// job sent to the background. Its assignment then adds a possible value.
pub(super) fn conditional(node: Node) -> bool {
    let mut at = node;
    while let Some(parent) = at.parent() {
        let background = at
            .next_sibling()
            .is_some_and(|next| !next.is_named() && next.kind() == "&");
        let later_in_list = parent.kind() == "list" && parent.named_child(0) != Some(at);
        if background
            || later_in_list
            || matches!(
                parent.kind(),
                "if_statement"
                    | "elif_clause"
                    | "else_clause"
                    | "case_item"
                    | "while_statement"
                    | "for_statement"
                    | "c_style_for_statement"
                    | "do_group"
                    | "function_definition"
            )
        {
            return true;
        }
        at = parent;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::analyze;

    fn words(line: &str) -> Vec<Vec<String>> {
        analyze(line)
            .commands
            .iter()
            .map(|c| c.argv.iter().map(|w| w.text.clone()).collect())
            .collect()
    }

    #[test]
    fn references_read_their_forms() {
        assert!(matches!(reference("$x"), Some(Reference::Plain("x"))));
        assert!(matches!(reference("${a[@]}"), Some(Reference::All("a"))));
        assert!(matches!(reference("${a[*]}"), Some(Reference::Joined("a"))));
        assert!(matches!(
            reference("\"$@\"".trim_matches('"')),
            Some(Reference::All("@"))
        ));
        assert!(matches!(reference("$$"), Some(Reference::Digits)));
        assert!(matches!(
            reference("${X:-hard}"),
            Some(Reference::Default {
                name: "X",
                colon: true,
                word: "hard"
            })
        ));
        assert!(reference("${X:-$y}").is_none());
        assert!(reference("${x%.txt}").is_none());
        assert!(reference("${#x}").is_none());
    }

    #[test]
    fn read_splits_its_input_over_the_names() {
        let args = |s: &[&str]| s.iter().map(|w| Word::literal(*w)).collect::<Vec<_>>();
        let input = Word::literal("  a b  c ");
        assert_eq!(
            read_values(&args(&["-r", "x", "y"]), Some(&input)),
            Some(vec![("x".into(), "a".into()), ("y".into(), "b  c".into())])
        );
        assert_eq!(read_values(&args(&["-a", "x"]), Some(&input)), None);
        assert_eq!(
            read_values(&args(&["x"]), Some(&Word::literal("a\\b"))),
            None
        );
    }

    #[test]
    fn mktemp_makes_a_folder_only_with_d() {
        let argv = |s: &[&str]| s.iter().map(|w| Word::literal(*w)).collect::<Vec<_>>();
        assert!(mktemp_dir(&argv(&["mktemp", "-d"]), &[], true).is_some());
        assert!(mktemp_dir(&argv(&["mktemp", "-dt", "x.XXXX"]), &[], true).is_some());
        assert!(mktemp_dir(&argv(&["mktemp"]), &[], true).is_none());
        assert!(mktemp_dir(&argv(&["mktemp", "-du"]), &[], true).is_none());
        assert!(
            mktemp_dir(
                &argv(&["mktemp", "-d", "--suffix", ".x", "y.XXX"]),
                &[],
                true
            )
            .is_some()
        );
        assert!(mktemp_dir(&argv(&["mktemp", "-d", "a.XXX", "b.XXX"]), &[], true).is_none());
        let relative = mktemp_dir(&argv(&["mktemp", "-d", "-p", "."]), &[], true);
        assert!(matches!(relative, Some(Value::Fresh { from: Some(_), .. })));
    }

    #[test]
    fn values_split_unquoted_and_stay_whole_quoted() {
        assert_eq!(
            words("o='-f -d'; git clean $o; git clean \"$o\""),
            [
                vec!["git", "clean", "-f", "-d"],
                vec!["git", "clean", "-f -d"]
            ]
        );
        assert_eq!(words("e=; rm $e x"), [vec!["rm", "x"]]);
    }

    #[test]
    fn a_variable_of_several_values_gives_one_command_each() {
        assert_eq!(words("for a in 1 2 3; do echo $a; done").len(), 3);
        // The inner loop may not run on a round: `$b` may also be unknown there.
        let all = words("for a in 1 2 3; do for b in x y z; do echo $a$b; done; done");
        assert_eq!(all.len(), 3 * 3 + 1);
        // Past the bound the words stay as written.
        let many = (0..20).map(|i| i.to_string()).collect::<Vec<_>>().join(" ");
        assert_eq!(
            words(&format!("for a in {many}; do echo $a; done")),
            [vec!["echo", "$a"]]
        );
    }

    #[test]
    fn dirname_and_basename_print_as_the_tools_do() {
        assert_eq!(dirname("src/app.py"), "src");
        assert_eq!(dirname("app.py"), ".");
        assert_eq!(dirname("/app"), "/");
        assert_eq!(dirname("a//b//"), "a");
        assert_eq!(dirname("///"), "/");
        assert_eq!(basename("src/app.py", ".py"), "app");
        assert_eq!(basename("src/", ""), "src");
        assert_eq!(basename(".py", ".py"), ".py");
    }

    #[test]
    fn set_turns_allexport_on_and_off() {
        let args = |s: &[&str]| s.iter().map(|w| Word::literal(*w)).collect::<Vec<_>>();
        assert_eq!(allexport(&args(&["-a"])), Some(true));
        assert_eq!(allexport(&args(&["-eau"])), Some(true));
        assert_eq!(allexport(&args(&["+a"])), Some(false));
        assert_eq!(allexport(&args(&["-o", "allexport"])), Some(true));
        assert_eq!(allexport(&args(&["+o", "allexport"])), Some(false));
        assert_eq!(allexport(&args(&["-euo", "pipefail"])), None);
        assert_eq!(allexport(&args(&["--", "-a"])), None);
        assert_eq!(allexport(&args(&["-oa", "pipefail"])), Some(true));
        assert_eq!(allexport(&args(&["-o", "pipefail", "+a"])), Some(false));
        assert_eq!(
            allexport(&args(&["-ao", "allexport", "+o", "allexport"])),
            Some(false)
        );
    }

    #[test]
    fn the_folder_a_command_runs_in_is_spelled_from_there() {
        let words = |line: &str| -> Vec<Vec<String>> {
            words(line).into_iter().filter(|w| w[0] == "rm").collect()
        };
        assert_eq!(
            words("rm -rf \"$(pwd)/build\" $PWD/x ~+/y `pwd`"),
            [vec!["rm", "-rf", "./build", "./x", "./y", "."]]
        );
        assert_eq!(
            words("rm -rf \"$(cd app && pwd)/x\""),
            [vec!["rm", "-rf", "app/x"], vec!["rm", "-rf", "/x"]]
        );
        assert_eq!(
            words("rm -rf \"$(dirname src/a.py)\" \"$(basename /x/y.py .py)\""),
            [vec!["rm", "-rf", "src", "y"]]
        );
        // Kept in a variable, it holds until the next `cd`.
        assert_eq!(
            words("d=$(pwd); rm -rf \"$d/a\"; cd sub; rm -rf \"$d/b\""),
            [vec!["rm", "-rf", "./a"], vec!["rm", "-rf", "$d/b"]]
        );
        // Nothing is known of the real folder's name or parent.
        assert_eq!(
            words("rm -rf \"$(dirname \"$(pwd)\")\""),
            [vec!["rm", "-rf", "$(dirname \"$(pwd)\")"]]
        );
    }

    #[test]
    fn exports_reach_the_shells_the_line_starts() {
        let last = |line: &str| words(line).pop().unwrap_or_default();
        assert_eq!(
            last("export M=hard; sh -c 'git reset --$M'"),
            ["git", "reset", "--hard"]
        );
        assert_eq!(
            last("M=hard; sh -c 'git reset --$M'"),
            ["git", "reset", "--$M"]
        );
        assert_eq!(
            last("set -a; M=hard; set +a; N=soft; sh -c 'echo $M $N'"),
            ["echo", "hard", "$N"]
        );
        assert_eq!(last("M=hard bash -c 'echo $M'"), ["echo", "hard"]);
    }

    #[test]
    fn subshells_keep_their_own_values() {
        assert_eq!(
            words("m=a; (m=b; echo $m); echo $m"),
            [vec!["echo", "b"], vec!["echo", "a"]]
        );
    }
}
