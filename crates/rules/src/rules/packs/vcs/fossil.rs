//! Fossil. Fossil takes any unambiguous beginning of a command name (`fossil rev` is `fossil
//! revert`) and spells long options with one dash or two (`-force`, `--force`).

use super::{command, first_operand};
use crate::rules::git::list;
use crate::rules::{Hit, Rule, Tier};
use crate::shell::Word;
use crate::syntax::argv;

pub static FOSSIL_DISCARD: Rule = Rule {
    id: "vcs.fossil-discard",
    catches: "`fossil revert`, `fossil clean` (unless `-n`/`--dry-run`), `fossil checkout \
              --force`, `fossil stash drop|rm`, and `fossil rm --hard`",
    why: "These throw away uncommitted edits, untracked files or stashed work. Fossil's undo \
          keeps a single step: `fossil undo` brings back what the last revert, clean or stash \
          drop removed, until the next such command or a commit replaces it, and it never \
          covers cleaned files over 10 MiB, `clean --verily`/`--disable-undo`, `stash drop \
          --all`, a forced checkout or `rm --hard`.",
    instead: "`fossil changes` and `fossil diff` show uncommitted edits, `fossil extras` the \
              untracked files and `fossil clean --dry-run` what clean would delete; `fossil \
              stash save` sets edits aside instead of reverting them.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "fossil revert",
        "fossil revert src/main.c",
        "fossil rev",
        "fossil clean",
        "fossil clean --verily",
        "fossil co --force trunk",
        "fossil stash drop --all",
        "fossil rm --hard old.c",
    ],
    passes: &[
        "fossil status",
        "fossil changes",
        "fossil clean --dry-run",
        "fossil clean -n",
        "fossil extras",
        "fossil update trunk",
        "fossil stash list",
        "fossil rm path/to/file",
        "fossil undo",
    ],
};

pub static FOSSIL_PURGE: Rule = Rule {
    id: "vcs.fossil-purge",
    catches: "`fossil purge checkins|files|artifacts|tickets|wiki|obliterate` (unless \
              `--explain`/`--dry-run`), `fossil scrub`, and `fossil unversioned rm`",
    why: "Purge takes check-ins and files out of the repository's history into a graveyard, and \
          `purge obliterate` empties the graveyard for good; `scrub` deletes passwords, private \
          branches and other records irreversibly; unversioned files keep no history, so \
          removing one (and syncing) loses it everywhere.",
    instead: "`fossil purge --explain ...` shows what would be purged; `fossil purge list` what \
              the graveyard holds. Hide a check-in with a tag (`fossil amend --hide`) instead of \
              purging it, and run `scrub` only on a copy made to share.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "fossil purge checkins abc123",
        "fossil purge files secrets.txt",
        "fossil purge obliterate 1 --force",
        "fossil scrub --verily",
        "fossil unversioned rm download.tar.gz",
    ],
    passes: &[
        "fossil purge list",
        "fossil purge checkins abc123 --explain",
        "fossil purge undo 1",
        "fossil unversioned ls",
        "fossil timeline",
    ],
};

/// Fossil's commands (name, then aliases): enough to tell when a beginning of a name is
/// ambiguous.
const COMMANDS: &[&[&str]] = &[
    &["3-way-merge"],
    &["add"],
    &["addremove"],
    &["alerts"],
    &["all"],
    &["amend"],
    &["annotate"],
    &["artifact"],
    &["attachment"],
    &["backoffice"],
    &["backup"],
    &["bisect"],
    &["blame", "praise"],
    &["branch"],
    &["bundle"],
    &["cache"],
    &["cat"],
    &["cgi"],
    &["changes"],
    &["chat"],
    &["checkout", "co"],
    &["cherry-pick"],
    &["clean"],
    &["clone"],
    &["close"],
    &["commit", "ci"],
    &["configuration"],
    &["dbstat"],
    &["deconstruct"],
    &["describe"],
    &["descendants"],
    &["detach"],
    &["diff"],
    &["export"],
    &["extras"],
    &["finfo"],
    &["forget"],
    &["fts-config"],
    &["fusefs"],
    &["gdiff"],
    &["git"],
    &["grep"],
    &["hash-policy"],
    &["help"],
    &["hook"],
    &["http"],
    &["import"],
    &["info"],
    &["init", "new"],
    &["interwiki"],
    &["json"],
    &["leaves"],
    &["login-group"],
    &["ls"],
    &["md5sum"],
    &["merge"],
    &["merge-base"],
    &["mv", "rename"],
    &["open"],
    &["patch"],
    &["pikchr"],
    &["publish"],
    &["pull"],
    &["purge"],
    &["push"],
    &["rebuild"],
    &["reconstruct"],
    &["redo"],
    &["remote", "remote-url"],
    &["repack"],
    &["reparent"],
    &["revert"],
    &["rm", "delete"],
    &["rss"],
    &["scrub"],
    &["search"],
    &["server"],
    &["settings"],
    &["sha1sum"],
    &["sha3sum"],
    &["shell"],
    &["sql", "sqlite3"],
    &["sqlar"],
    &["ssl-config", "tls-config"],
    &["stash"],
    &["status"],
    &["sync"],
    &["tag"],
    &["tarball"],
    &["ticket"],
    &["timeline"],
    &["touch"],
    &["ui"],
    &["undo"],
    &["unpublished"],
    &["unset"],
    &["unversioned", "uv"],
    &["update"],
    &["user"],
    &["version"],
    &["whatis"],
    &["wiki"],
    &["xdiff"],
    &["zip"],
];

/// Fossil options that take a value.
const VALUED: &[&str] = &[
    "-R",
    "--repository",
    "-repository",
    "-r",
    "--revision",
    "-revision",
    "-m",
    "--comment",
    "-comment",
    "-W",
    "--width",
    "-width",
    "-U",
    "--user",
    "-user",
    "--chdir",
    "-chdir",
    "--clean",
    "-clean",
    "--ignore",
    "-ignore",
    "--keep",
    "-keep",
    "--case-sensitive",
    "-case-sensitive",
];

/// Whether `args` switch on the option `long` (`--long`, `-long`, `--long=x`) or `short`
/// (`-s`): fossil reads one dash or two alike, and a later `--no-long` or a value that says
/// no switches it off.
fn given(args: &[Word], long: &str, short: Option<char>) -> bool {
    let mut letter = [0; 4];
    let mut names = vec![long];
    names.extend(short.map(|s| &*s.encode_utf8(&mut letter)));
    argv::read(args, argv::Style::Go, &argv::Valued(&[])).on(&names)
}

/// The operands after a command name, options and their values skipped.
fn operands(args: &[Word]) -> Vec<&str> {
    crate::rules::packs::args::operands(args, VALUED)
}

const UNDO: &str = "`fossil undo` right away brings it back, until the next revert, clean, \
                    update, merge or stash command, or a commit, replaces the undo";

pub(super) fn fossil(args: &[Word]) -> Option<Hit> {
    let at = first_operand(args, VALUED)?;
    let (word, rest) = args.get(at..)?.split_first()?;
    let dry_run = given(rest, "dry-run", Some('n')) || given(rest, "explain", None);
    let hit = match command(word.value()?, COMMANDS)? {
        "revert" => {
            let files = operands(rest);
            let what = match files.is_empty() {
                true => "every uncommitted change in the check-out".to_string(),
                false => format!("the uncommitted changes to {}", list(files.iter().copied())),
            };
            discard(format!("reverts {what}"), UNDO)
        }
        "clean" if !dry_run && !given(rest, "dirsonly", None) && !given(rest, "temp", None) => {
            let no_undo = given(rest, "verily", Some('x'))
                || given(rest, "disable-undo", None)
                || given(rest, "prompt", Some('i'))
                || given(rest, "clean", None);
            discard(
                "deletes every file in the check-out that Fossil does not manage".to_string(),
                match no_undo {
                    true => "none: these options turn off Fossil's undo for clean",
                    false => {
                        "`fossil undo` right away brings back removed files under 10 MiB, until the next undoable command or a commit"
                    }
                },
            )
        }
        "checkout" if given(rest, "force", None) && !given(rest, "keep", None) => discard(
            "switches the check-out ignoring edited files: their uncommitted changes are lost"
                .to_string(),
            "none: a checkout clears Fossil's undo",
        ),
        "stash" => {
            let ops = operands(rest);
            if !matches!(ops.first(), Some(&("drop" | "rm"))) {
                return None;
            }
            let all = given(rest, "all", Some('a'));
            discard(
                match all {
                    true => "drops every stashed change".to_string(),
                    false => "drops a stashed change: uncommitted work set aside".to_string(),
                },
                match all {
                    true => "none: `stash drop --all` cannot be undone",
                    false => UNDO,
                },
            )
        }
        "rm" if given(rest, "hard", None) && !given(rest, "soft", None) && !dry_run => {
            let files = operands(rest);
            discard(
                format!(
                    "deletes {} from disk, uncommitted edits and all",
                    list(files.iter().copied())
                ),
                "committed content comes back with `fossil revert`; uncommitted edits do not",
            )
        }
        "purge" => {
            let ops = operands(rest);
            let sub = *ops.first()?;
            if dry_run
                || !matches!(
                    sub,
                    "checkins" | "files" | "artifacts" | "tickets" | "wiki" | "obliterate"
                )
            {
                return None;
            }
            let (loses, recovery) = if sub == "obliterate" {
                (
                    "empties purge events from the graveyard: that content is gone for good"
                        .to_string(),
                    "none: obliterated content cannot be restored",
                )
            } else {
                (
                    format!(
                        "takes {sub} {} out of the repository's history",
                        list(ops.iter().skip(1).copied())
                    ),
                    "`fossil purge list` shows the purge event and `fossil purge undo ID` restores it, until it is obliterated",
                )
            };
            purge(loses, recovery)
        }
        "scrub" => purge(
            "permanently deletes passwords (with `--verily` or `--private`, also private branches \
             and other records) from the repository"
                .to_string(),
            "none: scrubbing is irreversible; only a copy of the repository made before keeps them",
        ),
        "unversioned" => {
            let ops = operands(rest);
            if !matches!(ops.first(), Some(&("rm" | "remove" | "delete"))) {
                return None;
            }
            purge(
                format!(
                    "removes the unversioned file {}, which keeps no history, and the next sync removes it everywhere",
                    list(ops.iter().skip(1).copied())
                ),
                "none: unversioned files keep no history",
            )
        }
        _ => return None,
    };
    Some(hit)
}

fn discard(loses: String, recovery: &str) -> Hit {
    Hit::new(&FOSSIL_DISCARD, Tier::Destructive, loses)
        .safer(
            "`fossil changes` and `fossil extras` show what would be lost (`fossil clean \
             --dry-run` for clean); `fossil stash save` sets edits aside instead",
        )
        .recovery(recovery)
}

fn purge(loses: String, recovery: &str) -> Hit {
    Hit::new(&FOSSIL_PURGE, Tier::Destructive, loses)
        .safer("`fossil purge --explain ...` shows what would go; `fossil amend --hide` hides a check-in instead")
        .recovery(recovery)
}
