//! Pack `vcs`: version control other than git's own commands. Mercurial, Subversion, Fossil
//! and Jujutsu each have their ways to throw away uncommitted edits, untracked files or
//! history, and git-extras adds git subcommands (`git delete-branch`, `git clear`, ...) that
//! git's own rules do not know.
//!
//! git-extras arrive as `git <name> ...`, so this pack also reads `git`: it looks at the
//! subcommand only, and only the names git-extras defines lead anywhere, so every other git
//! command costs one lookup in a short list.

mod extras;
mod fossil;
mod hg;
mod jj;
mod svn;

use super::Pack;
use super::args::{self, asks_help};
use crate::rules::Hit;
use crate::shell::{SimpleCommand, Word};
use crate::syntax::argv;

pub use extras::{EXTRAS_DELETE, EXTRAS_DISCARD, EXTRAS_REWRITE};
pub use fossil::{FOSSIL_DISCARD, FOSSIL_PURGE};
pub use hg::{HG_DISCARD, HG_PURGE, HG_SHELVE_DELETE, HG_STRIP};
pub use jj::JJ_OP_ABANDON;
pub use svn::{SVN_CLEANUP, SVN_DISCARD};

pub static PACK: Pack = Pack {
    id: "vcs",
    summary: "other version control: Mercurial, Subversion, Fossil and Jujutsu discards, purges and history removal; git-extras (`git delete-branch`, `git clear`, `git undo --hard`, ...)",
    default_on: true,
    programs: &[
        "hg",
        "chg",
        "svn",
        "fossil",
        "jj",
        "git",
        "git-bulk",
        "git-clear",
        "git-clear-soft",
        "git-delete-branch",
        "git-delete-gone-branches",
        "git-delete-submodule",
        "git-delete-tag",
        "git-force-clone",
        "git-fresh-branch",
        "git-obliterate",
        "git-reauthor",
        "git-reset-file",
        "git-sync",
        "git-undo",
    ],
    rules: &[
        &HG_DISCARD,
        &HG_PURGE,
        &HG_STRIP,
        &HG_SHELVE_DELETE,
        &SVN_DISCARD,
        &SVN_CLEANUP,
        &FOSSIL_DISCARD,
        &FOSSIL_PURGE,
        &JJ_OP_ABANDON,
        &EXTRAS_DISCARD,
        &EXTRAS_DELETE,
        &EXTRAS_REWRITE,
    ],
    check,
};

/// What a command would lose in a Mercurial or Subversion working copy, as a question the
/// context asks the tool itself (`hg status`, `svn status`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkingCopy {
    pub tool: Tool,
    /// The command's options that choose the repository or its configuration (`-R repo`,
    /// `--cwd dir`, `--config key=value`), as written: the question is asked with the same.
    pub options: Vec<String>,
    /// The paths the command acts on, as written; none: the whole working copy.
    pub paths: Vec<String>,
    /// How far below each path the command reaches (Subversion's `--depth`).
    pub depth: Depth,
    pub loses: Loses,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    Hg,
    Svn,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Depth {
    Empty,
    Files,
    Immediates,
    Infinity,
}

impl Depth {
    /// Subversion's name for it.
    pub fn as_str(self) -> &'static str {
        match self {
            Depth::Empty => "empty",
            Depth::Files => "files",
            Depth::Immediates => "immediates",
            Depth::Infinity => "infinity",
        }
    }

    fn parse(name: &str) -> Option<Depth> {
        match name {
            "empty" => Some(Depth::Empty),
            "files" => Some(Depth::Files),
            "immediates" => Some(Depth::Immediates),
            "infinity" => Some(Depth::Infinity),
            _ => None,
        }
    }
}

/// What the command throws away in the working copy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Loses {
    /// Uncommitted edits of versioned files; with `added`, files scheduled for addition too.
    Changes { added: bool },
    /// Files the tool does not version (`unversioned`) and those it ignores (`ignored`).
    Untracked { unversioned: bool, ignored: bool },
    /// Uncommitted edits, added files, and every unversioned or ignored file.
    Everything,
    /// `hg update --clean`: uncommitted edits, an uncommitted merge, and untracked or ignored
    /// files that the files of `target` (`None`: the default destination) would overwrite.
    Checkout { target: Option<String> },
}

fn check(cmd: &SimpleCommand) -> Vec<Hit> {
    let Some(program) = cmd.program() else {
        return Vec::new();
    };
    let args = cmd.args();
    if program == "git" {
        return extras::git(args);
    }
    if let Some(name) = program.strip_prefix("git-") {
        return extras::extra(name, args, &[]);
    }
    if asks_help(args) {
        return Vec::new();
    }
    let hit = match program {
        "hg" | "chg" => hg::hg(args),
        "svn" => svn::svn(args),
        "fossil" => fossil::fossil(args),
        "jj" => jj::jj(args),
        _ => None,
    };
    hit.into_iter().collect()
}

/// Where the first operand of `args` is (a tool's command name, after the options that may
/// come before it); `valued` names, as written, the options that take the next word.
fn first_operand(args: &[Word], valued: &[&str]) -> Option<usize> {
    args::read_head(args, valued).stopped_at
}

/// The options of `args` named by `names` (without dashes), each with its value, written
/// again as words for another command of the same tool (`--config-dir DIR`, `-R repo`);
/// `valued` names, as written, the options of the line that take a value. `None` when one
/// of them or its value is known only at run time, or its value is missing.
fn passed_on(args: &[Word], valued: &[&str], names: &[&str]) -> Option<Vec<String>> {
    let mut out = Vec::new();
    for opt in args::read(args, valued)
        .opts
        .iter()
        .filter(|opt| names.contains(&opt.name))
    {
        args.get(opt.word)?.value()?;
        let value = opt.value_in(args)?;
        let dashes = match opt.spelling {
            argv::Spelling::Long => "--",
            argv::Spelling::Short => "-",
        };
        out.extend([format!("{dashes}{}", opt.name), value.value()?.to_string()]);
    }
    Some(out)
}

/// The command `word` names, for tools that take an unambiguous beginning of a command's
/// name for the command (Mercurial, Fossil): the command of which it is a name or alias, or
/// the only one of `commands` (each its name, then its aliases) with a name it begins.
fn command<'a>(word: &str, commands: &[&[&'a str]]) -> Option<&'a str> {
    if word.is_empty() {
        return None;
    }
    if let Some(names) = commands.iter().find(|names| names.contains(&word)) {
        return names.first().copied();
    }
    let mut found = commands
        .iter()
        .filter(|names| names.iter().any(|n| n.starts_with(word)));
    let first = *found.next()?.first()?;
    found.next().is_none().then_some(first)
}

/// Whether `args` switch on the long option `name` or its letter `short` (`-n`), read as
/// Python's getopt reads them (Mercurial): `--name`, `--name=value`, or a beginning of `name`
/// that begins no other of `longs` (all the command's long options). The last spelling wins,
/// and Mercurial's `--no-name` or a value that says no (see [`argv::Argv::setting`]) switches
/// it off.
fn switched_on(args: &[Word], name: &str, short: Option<char>, longs: &[&str]) -> bool {
    let names = |given: &str| given == name || abbreviates(given, name, longs);
    argv::read(args, argv::Style::Getopt, &argv::Valued(&[]))
        .opts
        .iter()
        .rev()
        .find_map(|opt| match opt.spelling {
            argv::Spelling::Short => short
                .is_some_and(|s| opt.name.chars().eq([s]))
                .then(|| opt.on()),
            argv::Spelling::Long if names(opt.name) => Some(opt.on()),
            argv::Spelling::Long => opt
                .name
                .strip_prefix("no-")
                .filter(|n| names(n))
                .map(|_| false),
        })
        .unwrap_or(false)
}

/// Whether `given` is a beginning of `name` that begins no other of `longs`.
fn abbreviates(given: &str, name: &str, longs: &[&str]) -> bool {
    !given.is_empty()
        && !longs.contains(&given)
        && name.starts_with(given)
        && longs
            .iter()
            .all(|other| *other == name || !other.starts_with(given))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<Word> {
        s.split_whitespace().map(Word::literal).collect()
    }

    #[test]
    fn commands_by_unique_beginnings() {
        let table: &[&[&str]] = &[
            &["update", "up", "checkout", "co"],
            &["revert"],
            &["remove", "rm"],
        ];
        assert_eq!(command("up", table), Some("update"));
        assert_eq!(command("upd", table), Some("update"));
        assert_eq!(command("co", table), Some("update"));
        assert_eq!(command("rev", table), Some("revert"));
        assert_eq!(command("re", table), None);
        assert_eq!(command("x", table), None);
        assert_eq!(command("", table), None);
    }

    #[test]
    fn long_options_by_unique_beginnings() {
        let longs = ["print", "print0", "all", "abort-on-err"];
        assert!(switched_on(&words("--print"), "print", None, &longs));
        assert!(!switched_on(&words("--print"), "print0", None, &longs));
        assert!(!switched_on(&words("--pr"), "print", None, &longs));
        assert!(switched_on(&words("--al"), "all", None, &longs));
        assert!(!switched_on(&words("--a"), "all", None, &longs));
        assert!(!switched_on(&words("-- --all"), "all", None, &longs));
        assert!(!switched_on(&words("--all --no-all"), "all", None, &longs));
        assert!(switched_on(&words("-vn"), "dry-run", Some('n'), &longs));
        assert!(!switched_on(
            &words("-n --no-dry"),
            "dry-run",
            Some('n'),
            &["dry-run"]
        ));
    }

    #[test]
    fn global_options_before_the_command_and_passed_on() {
        let valued = ["-R", "--repository", "--cwd"];
        let args = words("-vR repo --cwd=/w up -C");
        assert_eq!(first_operand(&args, &valued), Some(3));
        assert_eq!(first_operand(&words("-- up"), &valued), Some(1));
        assert_eq!(first_operand(&words("-R repo"), &valued), None);
        assert_eq!(
            passed_on(&args, &valued, &["R", "repository", "cwd"]),
            Some(["-R", "repo", "--cwd", "/w"].map(String::from).to_vec())
        );
        let unknown = Word {
            text: "$REPO".to_string(),
            literal: false,
            temp: None,
        };
        let args = [Word::literal("-R"), unknown];
        assert_eq!(passed_on(&args, &valued, &["R"]), None);
        assert_eq!(passed_on(&words("up --cwd"), &valued, &["cwd"]), None);
    }
}
