//! git: the subcommands that throw away work git cannot give back, or can give back only
//! from the reflog for a while.
//!
//! argv is read as git reads it: global options before the subcommand (`-C`, `-c`,
//! `--git-dir`, ...), combined short flags, unambiguous long-option abbreviations, `--`.
//! This file holds that shared reading; each command family has its own file with its rules'
//! declarations and checks.

mod alias;
mod branch;
mod checkout;
mod clean;
mod history;
mod plumbing;
mod push;
mod reset;
mod stash;

use super::opts::{self, Opt, Parsed};
use super::{GitSubject, Hit, Subject};
use crate::shell::Word;
use crate::syntax::argv;
use crate::syntax::git::GitArgs;

pub use alias::{Aliases, alias_calls, alias_findings, configured_findings};
pub use branch::{BRANCH_FORCE_DELETE, BRANCH_MOVE, REF_DELETE, TAG_DELETE};
pub use checkout::{DISCARD_WORKTREE, WORKTREE_FORCE_REMOVE};
pub(in crate::rules) use clean::clean_pathspecs;
pub use clean::{CLEAN_FORCE, clean_question};
pub(super) use history::filter_repo;
pub use history::{HISTORY_REWRITE, RECOVERY_DESTROY};
pub use plumbing::{PLUMBING_DISCARD, SUBMODULE_DISCARD};
pub use push::{PUSH_DELETE, PUSH_FORCE};
pub use reset::RESET_HARD;
pub use stash::STASH_DROP;

/// Subcommand and its arguments, after git's own global options.
pub(super) struct Invocation<'a> {
    pub(super) sub: &'a str,
    pub(super) args: &'a [Word],
    /// The global options as written, so suggested commands keep `-C dir` and friends.
    pub(super) prefix: &'a [Word],
    /// The same options as git reads them.
    globals: GitArgs<'a>,
}

impl Invocation<'_> {
    /// `git <global options> <sub> <words>` as a command line.
    pub(super) fn line(&self, words: &[String]) -> String {
        let mut out = vec!["git".to_string()];
        out.extend(self.prefix.iter().map(Word::shell_quoted));
        out.push(self.sub.to_string());
        out.extend(words.iter().cloned());
        out.join(" ")
    }

    /// The value of the last configuration given on the line (`-c key=value`; `-c key`
    /// alone means true) whose key, in lower case, `wanted` accepts. Section and variable
    /// names ignore case; a value only known at run time keeps its unexpanded text.
    pub(super) fn config(&self, wanted: impl Fn(&str) -> bool) -> Option<&str> {
        self.globals.settings().rev().find_map(|setting| {
            let text = setting.text.as_str();
            let (key, value) = text.split_once('=').unwrap_or((text, "true"));
            wanted(&key.to_ascii_lowercase()).then_some(value)
        })
    }
}

/// Skips git's global options. `None` when no subcommand runs (`git --version`).
fn invocation(args: &[Word]) -> Option<Invocation<'_>> {
    let globals = crate::syntax::git::read(args);
    let sub = globals.subcommand()?.value()?;
    let rest = globals.rest();
    // `git <sub> --help` / `-h` only prints usage; so does `git help <sub>`.
    let before_dashdash = rest.iter().take_while(|w| w.text != "--");
    if sub == "help"
        || before_dashdash
            .clone()
            .any(|w| w.text == "--help" || w.text == "-h")
    {
        return None;
    }
    Some(Invocation {
        sub,
        args: rest,
        prefix: globals.prefix(),
        globals,
    })
}

/// `git update-ref --stdin` fed instructions: ref deletions among them, shown by the text
/// it reads (`input`) or by the command that prints them (`fed_by`, the earlier stages of
/// its pipeline).
pub(super) fn update_ref_stdin(
    args: &[Word],
    input: Option<&str>,
    fed_by: &[Vec<Word>],
) -> Option<Hit> {
    let inv = invocation(args)?;
    (inv.sub == "update-ref")
        .then(|| branch::update_ref_stdin(&inv, input, fed_by))
        .flatten()
}

pub(super) fn check(args: &[Word]) -> Vec<Hit> {
    let Some(inv) = invocation(args) else {
        return Vec::new();
    };
    let found = match inv.sub {
        "reset" => reset::reset(&inv),
        "checkout" => checkout::checkout(&inv),
        "switch" => checkout::switch(&inv),
        "restore" => checkout::restore(&inv),
        "clean" => clean::clean(&inv),
        "push" => push::push(&inv),
        "branch" => branch::branch(&inv),
        "fetch" => branch::fetch(&inv),
        "stash" => stash::stash(&inv),
        "worktree" => checkout::worktree(&inv),
        "tag" => branch::tag(&inv),
        "update-ref" => branch::update_ref(&inv),
        "filter-branch" | "filter-repo" => Some(filter_repo()),
        "reflog" => history::reflog(&inv),
        "gc" => history::gc(&inv),
        "prune" => history::prune(&inv),
        "rebase" => history::rebase(&inv),
        "commit" => history::amend(&inv),
        "read-tree" => plumbing::read_tree(&inv),
        "checkout-index" => plumbing::checkout_index(&inv),
        "rm" => plumbing::rm(&inv),
        "submodule" => plumbing::submodule(&inv),
        _ => None,
    };
    // `checkout -B` / `switch -C` may also discard edits (`-f`): both findings stand.
    let reset = match inv.sub {
        "checkout" | "switch" => branch::switch_reset(&inv),
        _ => None,
    };
    found
        .into_iter()
        .chain(reset)
        .map(|mut hit| {
            // Context must ask the same repository the command acts on.
            if let Subject::Git { globals, .. } = &mut hit.subject {
                if inv.prefix.iter().all(|w| w.literal) {
                    *globals = inv.prefix.iter().map(|w| w.text.clone()).collect();
                } else {
                    hit.subject = Subject::Nothing;
                }
            }
            hit
        })
        .collect()
}

/// A subject in the repository the command runs in (`check` fills in the global options).
pub(super) fn about(what: GitSubject) -> Subject {
    Subject::Git {
        globals: Vec::new(),
        what,
    }
}

/// Words as plain texts, or `None` when any is only known at run time.
pub(super) fn texts(words: &[&Word]) -> Option<Vec<String>> {
    words
        .iter()
        .map(|w| w.value().map(str::to_string))
        .collect()
}

pub(super) fn parse<'a>(inv: &Invocation<'a>, table: &[Opt]) -> Parsed<'a> {
    opts::parse(inv.args, table)
}

/// The same git command with each word at a listed index replaced (or dropped, for `None`).
pub(super) fn rewrite(inv: &Invocation, replace: &[(usize, Option<String>)]) -> String {
    inv.line(&rewritten_args(inv, replace))
}

pub(super) fn rewritten_args(inv: &Invocation, replace: &[(usize, Option<String>)]) -> Vec<String> {
    inv.args
        .iter()
        .enumerate()
        .filter_map(|(i, w)| match replace.iter().find(|(at, _)| *at == i) {
            Some((_, with)) => with.clone(),
            None => Some(w.shell_quoted()),
        })
        .collect()
}

/// Replacements that drop the letter `f` from short clusters (`-fq` → `-q`) and drop the
/// long spellings of the given options entirely.
pub(super) fn drop_force(
    inv: &Invocation,
    p: &Parsed,
    names: &[&str],
) -> Vec<(usize, Option<String>)> {
    p.opts
        .iter()
        .filter(|o| names.contains(&o.name))
        .filter_map(|o| {
            let word = &inv.args.get(o.word)?.text;
            let kept = match o.spelling {
                argv::Spelling::Long => String::new(),
                argv::Spelling::Short => word.replace('f', ""),
            };
            Some((o.word, (kept.len() > 1).then_some(kept)))
        })
        .collect()
}

/// `a`, `a and b`, `a, b and 3 more`: a short list of names for a reason.
pub(crate) fn list<'a>(items: impl Iterator<Item = &'a str>) -> String {
    let items: Vec<String> = items.map(|s| format!("`{s}`")).collect();
    match items.as_slice() {
        [] => "(the current one)".to_string(),
        [one] => one.clone(),
        [first @ .., last] if items.len() <= 3 => format!("{} and {last}", first.join(", ")),
        [first, second, more @ ..] => format!("{first}, {second} and {} more", more.len()),
    }
}
