//! Subversion (`svn`). A working copy keeps a pristine copy of each versioned file, but no
//! copy of local edits, so whatever replaces them loses them.

use super::{Depth, Loses, Tool, WorkingCopy, first_operand, passed_on};
use crate::rules::git::{list, texts};
use crate::rules::packs::args::{has, operand_words, value};
use crate::rules::{Hit, Rule, Subject, Tier};
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

/// Whether `path` names a repository URL rather than a working-copy path.
fn is_url(path: &str) -> bool {
    path.contains("://") || path.starts_with("^/")
}

/// What the context should ask `svn status` about `paths` (none: the working copy here), to
/// `depth`, with the line's configuration options; nothing when a word of them is known only
/// at run time, or a list file or changelist picks the paths.
fn working_copy(args: &[Word], paths: &[&Word], depth: Depth, loses: Loses) -> Subject {
    if has(args, &["--targets", "--changelist", "--cl"]) {
        return Subject::Nothing;
    }
    let Some(options) = passed_on(args, VALUED, &["config-dir", "config-option"]) else {
        return Subject::Nothing;
    };
    let Some(paths) = texts(paths) else {
        return Subject::Nothing;
    };
    Subject::WorkingCopy(WorkingCopy {
        tool: Tool::Svn,
        options,
        paths,
        depth,
        loses,
    })
}

pub(super) fn svn(args: &[Word]) -> Option<Hit> {
    let at = first_operand(args, VALUED)?;
    let (sub, rest) = args.get(at..)?.split_first()?;
    let sub = sub.value()?;
    let words = operand_words(rest, VALUED);
    let paths: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
    let local: Vec<&Word> = words.iter().copied().filter(|w| !is_url(&w.text)).collect();
    match sub {
        "revert" => {
            if paths.is_empty() && !has(rest, &["--targets"]) {
                return None; // svn refuses to revert without a path
            }
            let depth = match value(rest, &["--depth"]) {
                _ if has(rest, &["-R", "--recursive"]) => Some(Depth::Infinity),
                Some(name) => Depth::parse(name),
                None => Some(Depth::Empty),
            };
            let below = match depth {
                Some(Depth::Empty) => "",
                _ => " and what is under them",
            };
            let mut loses = format!(
                "discards the uncommitted edits to {}{below}",
                list(paths.iter().copied())
            );
            let added = has(rest, &["--remove-added"]);
            if added {
                loses.push_str(", and deletes added files from disk");
            }
            let subject = match depth {
                Some(depth) => working_copy(args, &words, depth, Loses::Changes { added }),
                None => Subject::Nothing,
            };
            Some(discard(loses).about(subject))
        }
        "update" | "up" | "switch" | "sw" | "merge" | "resolve" => {
            let accept = value(rest, &["--accept"])?;
            if !TAKES_OTHERS.contains(&accept) {
                return None;
            }
            // Which files will conflict shows only once it runs: nothing is at stake only
            // when no local edit is where it works (its paths, or here; a merge's target may
            // be here even when its sources are paths).
            let here = Word::literal(".");
            let mut checked = local.clone();
            if sub == "merge" || checked.is_empty() {
                checked.push(&here);
            }
            let subject = working_copy(
                args,
                &checked,
                Depth::Infinity,
                Loses::Changes { added: true },
            );
            Some(
                discard(format!(
                    "resolves conflicts with `--accept {accept}`, replacing local edits in the \
                     conflicted files"
                ))
                .about(subject),
            )
        }
        "delete" | "del" | "remove" | "rm" if has(rest, &["--force"]) => {
            if has(rest, &["--keep-local"]) || local.is_empty() && !paths.is_empty() {
                return None; // kept on disk, or a commit in the repository, whose history keeps it
            }
            Some(
                discard(format!(
                    "deletes {} from disk even with uncommitted edits or unversioned files in them",
                    list(local.iter().map(|w| w.text.as_str()))
                ))
                .about(working_copy(
                    args,
                    &local,
                    Depth::Infinity,
                    Loses::Everything,
                )),
            )
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
                .recovery("none: they are deleted, not moved anywhere")
                .about(working_copy(
                    args,
                    &words,
                    Depth::Infinity,
                    Loses::Untracked {
                        unversioned,
                        ignored,
                    },
                )),
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
