//! Subversion (`svn`). A working copy keeps a pristine copy of each versioned file, but no
//! copy of local edits, so whatever replaces them loses them.

use super::first_operand;
use crate::rules::git::list;
use crate::rules::packs::args::{has, operands, value};
use crate::rules::{Hit, Rule, Tier};
use crate::shell::Word;

pub static SVN_DISCARD: Rule = Rule {
    id: "vcs.svn-discard",
    catches: "`svn revert` of any path (`-R`, `--depth infinity`, `--targets`), conflict \
              resolution that takes another version over local edits (`--accept \
              theirs-full|tf|theirs-conflict|tc|base` on `update`, `switch`, `merge`, \
              `resolve`), and `svn delete --force` of working-copy paths",
    why: "Subversion keeps no copy of uncommitted edits: `revert` throws them away (with \
          `--remove-added`, new files too), `--accept theirs-full` or `base` replaces edited \
          files with another version, and `delete --force` removes files even when they hold \
          edits or unversioned files.",
    instead: "`svn status` and `svn diff PATH` show what would be lost; `svn diff PATH > \
              PATH.patch` keeps the edits (`svn patch PATH.patch` brings them back). Resolve \
              conflicts with `--accept postpone` and by hand; `svn delete` without `--force` \
              refuses when edits would be lost.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "svn revert -R .",
        "svn revert src/main.c",
        "svn revert --depth infinity trunk",
        "svn revert --targets changed.txt",
        "svn revert --remove-added new.c",
        "svn update --accept theirs-full",
        "svn resolve --accept tf conflicted.c",
        "svn merge --accept=base ^/trunk",
        "svn delete --force notes.txt",
        "svn rm --force build.xml",
    ],
    passes: &[
        "svn status",
        "svn diff",
        "svn log -vl 10",
        "svn update",
        "svn up --accept postpone",
        "svn resolve --accept working file.c",
        "svn delete --keep-local old.c",
        "svn rm --force https://svn.example.com/repo/branches/old -m 'remove branch'",
        "svn revert",
    ],
};

pub static SVN_CLEANUP: Rule = Rule {
    id: "vcs.svn-cleanup",
    catches: "`svn cleanup --remove-unversioned` and `--remove-ignored`",
    why: "These delete every file Subversion does not version (or ignores) under the path: new \
          files never added, local configuration, data. They are in no commit and go to no \
          trash. Plain `svn cleanup` only releases locks and passes.",
    instead: "`svn status` (`svn status --no-ignore` for ignored files too) lists them first; \
              `svn add` what matters, delete only what is named.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "svn cleanup --remove-unversioned",
        "svn cleanup --remove-ignored .",
        "svn cleanup --remove-unversioned --remove-ignored wc",
    ],
    passes: &[
        "svn cleanup",
        "svn cleanup --vacuum-pristines",
        "svn status --no-ignore",
    ],
};

/// svn options that take a value.
const VALUED: &[&str] = &[
    "-r",
    "--revision",
    "-c",
    "--change",
    "-m",
    "--message",
    "-F",
    "--file",
    "--targets",
    "--depth",
    "--set-depth",
    "--accept",
    "--changelist",
    "--cl",
    "--encoding",
    "--with-revprop",
    "--username",
    "--password",
    "--config-dir",
    "--config-option",
    "--diff3-cmd",
    "--editor-cmd",
    "--diff-cmd",
    "-x",
    "--extensions",
    "-l",
    "--limit",
    "--search",
    "--search-and",
    "--native-eol",
    "--show-item",
    "--strip",
];

/// `--accept` choices that replace local edits in conflicted files.
const TAKES_OTHERS: &[&str] = &["theirs-full", "tf", "theirs-conflict", "tc", "base"];

const DISCARDED: &str = "none: Subversion keeps no copy of local edits";

pub(super) fn svn(args: &[Word]) -> Option<Hit> {
    let at = first_operand(args, VALUED)?;
    let sub = args[at].value()?;
    let rest = &args[at + 1..];
    let paths = || operands(rest, VALUED);
    match sub {
        "revert" => {
            let paths = paths();
            if paths.is_empty() && !has(rest, &["--targets"]) {
                return None; // svn refuses to revert without a path
            }
            let deep =
                has(rest, &["-R", "--recursive"]) || value(rest, &["--depth"]) == Some("infinity");
            let mut loses = format!(
                "discards the uncommitted edits to {}{}",
                list(paths.iter().copied()),
                if deep {
                    " and everything under them"
                } else {
                    ""
                }
            );
            if has(rest, &["--remove-added"]) {
                loses.push_str(", and deletes added files from disk");
            }
            Some(discard(loses))
        }
        "update" | "up" | "switch" | "sw" | "merge" | "resolve" => {
            let accept = value(rest, &["--accept"])?;
            TAKES_OTHERS.contains(&accept).then(|| {
                discard(format!(
                    "resolves conflicts with `--accept {accept}`, replacing local edits in the \
                     conflicted files"
                ))
            })
        }
        "delete" | "del" | "remove" | "rm" if has(rest, &["--force"]) => {
            if has(rest, &["--keep-local"]) {
                return None;
            }
            let paths = paths();
            let local: Vec<&str> = paths
                .iter()
                .copied()
                .filter(|p| !p.contains("://") && !p.starts_with("^/"))
                .collect();
            if local.is_empty() && !paths.is_empty() {
                return None; // a commit in the repository, where history keeps it
            }
            Some(discard(format!(
                "deletes {} from disk even with uncommitted edits or unversioned files in them",
                list(local.iter().copied())
            )))
        }
        "cleanup" => {
            let unversioned = has(rest, &["--remove-unversioned"]);
            let ignored = has(rest, &["--remove-ignored"]);
            let what = match (unversioned, ignored) {
                (true, true) => "every unversioned and ignored file",
                (true, false) => "every unversioned file",
                (false, true) => "every ignored file",
                (false, false) => return None,
            };
            let paths = paths();
            let place = match paths.is_empty() {
                true => "in the working copy".to_string(),
                false => format!("under {}", list(paths.iter().copied())),
            };
            Some(
                Hit::new(
                    &SVN_CLEANUP,
                    Tier::Destructive,
                    format!("deletes {what} {place}: files in no commit and no trash"),
                )
                .safer("`svn status --no-ignore` lists them first")
                .recovery("none: they are deleted, not moved anywhere"),
            )
        }
        _ => None,
    }
}

fn discard(loses: String) -> Hit {
    Hit::new(&SVN_DISCARD, Tier::Destructive, loses)
        .safer(
            "`svn diff PATH > PATH.patch` keeps the edits first (`svn patch PATH.patch` brings \
             them back); `svn status` shows what is modified",
        )
        .recovery(DISCARDED)
}
