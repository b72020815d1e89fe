//! Mercurial (`hg`, and `chg`, its command-server client). Mercurial takes any unambiguous
//! beginning of a command or long option (`hg upd --cl` is `hg update --clean`), so both are
//! read that way.

use super::{Depth, Loses, Tool, WorkingCopy, command, first_operand, passed_on, switched_on};
use crate::rules::git::{list, texts};
use crate::rules::packs::args::{has, operand_words, operands, value};
use crate::rules::{Hit, Rule, Subject, Tier};
use crate::shell::Word;
use crate::syntax::argv;

pub static HG_DISCARD: Rule = Rule {
    id: "vcs.hg-discard",
    catches: "`hg update -C`/`--clean` (also `up`, `checkout`, `co`), `hg revert` with \
              `-C`/`--no-backup`, and `hg remove -f` (`rm -f`)",
    why: "`update --clean` throws away every uncommitted change in the working directory, and \
          Mercurial keeps no backup of it. `revert` normally saves each edited file as \
          `FILE.orig`, but `--no-backup` does not; `remove --force` deletes files together \
          with their uncommitted edits.",
    instead: "`hg status` and `hg diff` show what would be lost; `hg shelve` sets the changes \
              aside (`hg unshelve` brings them back); plain `hg revert FILE` keeps \
              `FILE.orig`; `hg forget FILE` stops tracking a file and keeps it.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "hg update -C",
        "hg up --clean default",
        "hg checkout -C tip",
        "hg upd --cl",
        "hg revert --all --no-backup",
        "hg revert -C src/app.py",
        "hg --cwd repo revert --no-b -a",
        "hg remove -f notes.txt",
    ],
    passes: &[
        "hg status",
        "hg update",
        "hg update -r a1b2c3d",
        "hg revert --all",
        "hg revert src/app.py",
        "hg revert --all --no-backup --dry-run",
        "hg remove path/to/file",
        "hg diff",
    ],
};

pub static HG_PURGE: Rule = Rule {
    id: "vcs.hg-purge",
    catches: "`hg purge` and its alias `hg clean` (untracked files; with `--all`, ignored ones \
              too), unless `--print`/`-p`/`--print0`/`-0`",
    why: "Purge deletes files Mercurial does not track: new source files never added, local \
          configuration, data, notes. They are in no commit and go to no trash. Whether it asks \
          first depends on the user's configuration, and where a terminal is attached the \
          agent is the one who answers.",
    instead: "`hg purge --print` (or `hg status --unknown --ignored`) lists what would go; add \
              the files that matter, or remove only the ones named.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "hg purge",
        "hg purge --all",
        "hg clean --all",
        "hg --config extensions.purge= purge",
        "hg purge --no-confirm build/",
    ],
    passes: &[
        "hg purge --print",
        "hg purge -p",
        "hg purge --all --print0",
        "hg status --unknown",
        "hg help purge",
    ],
};

pub static HG_STRIP: Rule = Rule {
    id: "vcs.hg-strip",
    catches: "`hg strip` and `hg debugstrip` (unless `--soft`), `hg rollback --force`, and `hg \
              censor`",
    why: "Strip removes changesets and all their descendants from the repository; the only \
          copy left is a backup bundle in `.hg/strip-backup` (none at all with `--no-backup`, \
          and `--force` also discards uncommitted changes). A forced rollback undoes the last \
          transaction with no backup, and censor replaces a file's content in history for good.",
    instead: "`hg log -r 'REV::'` shows what would be removed. To hide changesets \
              recoverably, use `hg prune` (evolve) or `hg strip --soft`; `hg backout REV` \
              undoes a change with a new commit. Plain `hg rollback` refuses when it could lose \
              data.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "hg strip -r 5",
        "hg strip --no-backup tip",
        "hg --config extensions.strip= strip -f 1234abcd",
        "hg debugstrip -r 'draft()'",
        "hg rollback --force",
        "hg censor -r 3 secrets.txt",
    ],
    passes: &[
        "hg log -r 'draft()'",
        "hg rollback",
        "hg rollback -n",
        "hg strip --soft -r 5",
        "hg backout -r 5",
        "hg histedit",
    ],
};

pub static HG_SHELVE_DELETE: Rule = Rule {
    id: "vcs.hg-shelve-delete",
    catches: "`hg shelve --delete NAME` (`-d`) and `hg shelve --cleanup`",
    why: "A shelve holds uncommitted work set aside; deleting it throws that work away. \
          Mercurial moves deleted shelves to `.hg/shelve-backup`, but keeps only the last few \
          there, and nothing shows them.",
    instead: "`hg shelve --list` and `hg shelve --patch NAME` show what a shelve holds; `hg \
              unshelve NAME` brings it back into the working directory, where it can be \
              committed.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "hg shelve --delete default",
        "hg shelve -d wip",
        "hg shelve --cleanup",
    ],
    passes: &[
        "hg shelve",
        "hg shelve --list",
        "hg shelve -p wip",
        "hg unshelve wip",
    ],
};

/// Mercurial's commands (name, then aliases), with those of the extensions it ships and of
/// evolve: enough to tell when a beginning of a name is ambiguous.
const COMMANDS: &[&[&str]] = &[
    &["abort"],
    &["absorb"],
    &["add"],
    &["addremove"],
    &["amend"],
    &["annotate", "blame"],
    &["archive"],
    &["backout"],
    &["bisect"],
    &["bookmarks", "bookmark"],
    &["branch"],
    &["branches"],
    &["bundle"],
    &["cat"],
    &["censor"],
    &["children"],
    &["churn"],
    &["clone"],
    &["close-head", "close-heads"],
    &["commit", "ci"],
    &["config", "showconfig"],
    &["continue"],
    &["convert"],
    &["copy", "cp"],
    &["debugstrip", "strip"],
    &["diff"],
    &["email"],
    &["evolve", "stabilize", "solve"],
    &["export"],
    &["extdiff"],
    &["fetch"],
    &["files"],
    &["fix"],
    &["fold"],
    &["forget"],
    &["githelp", "git"],
    &["graft"],
    &["grep"],
    &["heads"],
    &["help"],
    &["histedit"],
    &["identify", "id"],
    &["import", "patch"],
    &["incoming", "in"],
    &["init"],
    &["journal"],
    &["locate"],
    &["log", "history"],
    &["manifest"],
    &["merge"],
    &["metaedit"],
    &["next"],
    &["obslog", "olog"],
    &["outgoing", "out"],
    &["parents"],
    &["paths"],
    &["phase"],
    &["prev"],
    &["prune", "obsolete"],
    &["pull"],
    &["purge", "clean"],
    &["push"],
    &["rebase"],
    &["record"],
    &["recover"],
    &["remove", "rm"],
    &["rename", "move", "mv"],
    &["resolve"],
    &["revert"],
    &["rollback"],
    &["root"],
    &["serve"],
    &["share"],
    &["shelve"],
    &["show"],
    &["sign"],
    &["split"],
    &["status", "st"],
    &["summary", "sum"],
    &["tag"],
    &["tags"],
    &["tip"],
    &["touch"],
    &["transplant"],
    &["unamend"],
    &["unbundle"],
    &["uncommit"],
    &["unshare"],
    &["unshelve"],
    &["update", "up", "checkout", "co"],
    &["verify"],
    &["version"],
];

/// Global options that take a value, anywhere on the line.
const GLOBAL_VALUED: &[&str] = &[
    "-R",
    "--repository",
    "--repo",
    "--cwd",
    "--config",
    "--encoding",
    "--encodingmode",
    "--color",
    "--pager",
];

/// Every global long option, for telling abbreviations apart.
const GLOBAL_LONGS: &[&str] = &[
    "repository",
    "cwd",
    "noninteractive",
    "quiet",
    "verbose",
    "color",
    "config",
    "debug",
    "debugger",
    "encoding",
    "encodingmode",
    "traceback",
    "time",
    "profile",
    "version",
    "help",
    "hidden",
    "pager",
];

/// The options that choose the repository or its configuration (`-R repo`, `--cwd dir`,
/// `--config key=value`), passed on to `hg status`.
const CHOOSING: &[&str] = &["R", "repository", "repo", "cwd", "config"];

/// A command's own long options (for abbreviations) and the options that take a value.
struct Options {
    longs: &'static [&'static str],
    valued: &'static [&'static str],
}

const UPDATE: Options = Options {
    longs: &["abort", "clean", "check", "merge", "date", "rev", "tool"],
    valued: &["-r", "--rev", "-d", "--date", "-t", "--tool"],
};
const REVERT: Options = Options {
    longs: &[
        "abort",
        "all",
        "date",
        "rev",
        "no-backup",
        "interactive",
        "include",
        "exclude",
        "dry-run",
    ],
    valued: &[
        "-d",
        "--date",
        "-r",
        "--rev",
        "-I",
        "--include",
        "-X",
        "--exclude",
    ],
};
const PURGE: Options = Options {
    longs: &[
        "abort-on-err",
        "all",
        "ignored",
        "dirs",
        "files",
        "print",
        "print0",
        "confirm",
        "include",
        "exclude",
    ],
    valued: &["-I", "--include", "-X", "--exclude"],
};
const STRIP: Options = Options {
    longs: &[
        "rev",
        "force",
        "no-backup",
        "nobackup",
        "keep",
        "bookmark",
        "soft",
    ],
    valued: &["-r", "--rev", "-B", "--bookmark"],
};
const ROLLBACK: Options = Options {
    longs: &["dry-run", "force"],
    valued: &[],
};
const REMOVE: Options = Options {
    longs: &[
        "after", "force", "subrepos", "include", "exclude", "dry-run",
    ],
    valued: &["-I", "--include", "-X", "--exclude"],
};
const SHELVE: Options = Options {
    longs: &[
        "addremove",
        "unknown",
        "cleanup",
        "date",
        "delete",
        "edit",
        "keep",
        "list",
        "message",
        "name",
        "patch",
        "interactive",
        "stat",
        "include",
        "exclude",
    ],
    valued: &[
        "--date",
        "-m",
        "--message",
        "-n",
        "--name",
        "-I",
        "--include",
        "-X",
        "--exclude",
    ],
};

/// A command line read against one command's options.
struct Line<'a> {
    /// Everything after `hg`.
    all: &'a [Word],
    /// What follows the command's name.
    args: &'a [Word],
    options: &'a Options,
}

impl Line<'_> {
    /// The long option `name` (in any abbreviation Mercurial takes) or the short `short`.
    fn given(&self, name: &str, short: Option<&str>) -> bool {
        let longs: Vec<&str> = self
            .options
            .longs
            .iter()
            .chain(GLOBAL_LONGS)
            .copied()
            .collect();
        switched_on(self.args, name, short.and_then(argv::letter_of), &longs)
    }

    /// What the context should ask `hg status` about the `paths` (none: the whole working
    /// copy), with the line's options that choose the repository; nothing when a word of
    /// them is known only at run time, or patterns (`-I`, `-X`) pick the files.
    fn working_copy(&self, paths: &[&Word], loses: Loses) -> Subject {
        if has(self.args, &["-I", "-X", "--include", "--exclude"]) {
            return Subject::Nothing;
        }
        let (Some(options), Some(paths)) =
            (passed_on(self.all, &self.valued(), CHOOSING), texts(paths))
        else {
            return Subject::Nothing;
        };
        Subject::WorkingCopy(WorkingCopy {
            tool: Tool::Hg,
            options,
            paths,
            depth: Depth::Infinity,
            loses,
        })
    }

    /// The options of the command and the global ones that take a value, as written.
    fn valued(&self) -> Vec<&str> {
        self.options
            .valued
            .iter()
            .chain(GLOBAL_VALUED)
            .copied()
            .collect()
    }

    /// The operand words after the command name.
    fn operand_words(&self) -> Vec<&Word> {
        operand_words(self.args, &self.valued())
    }

    /// The operands after the command name.
    fn operands(&self) -> Vec<&str> {
        operands(self.args, &self.valued())
    }
}

pub(super) fn hg(args: &[Word]) -> Option<Hit> {
    let at = first_operand(args, GLOBAL_VALUED)?;
    let (word, rest) = args.get(at..)?.split_first()?;
    let line = |options| Line {
        all: args,
        args: rest,
        options,
    };
    match command(word.value()?, COMMANDS)? {
        "update" => update(&line(&UPDATE)),
        "revert" => revert(&line(&REVERT)),
        "remove" => remove(&line(&REMOVE)),
        "purge" => purge(&line(&PURGE)),
        "debugstrip" => strip(&line(&STRIP)),
        "rollback" => rollback(&line(&ROLLBACK)),
        "shelve" => shelve(&line(&SHELVE)),
        "censor" => Some(
            Hit::new(
                &HG_STRIP,
                Tier::Destructive,
                "replaces a file's content at that revision with a tombstone: that version is \
                 gone from the repository for good",
            )
            .safer(
                "`hg cat -r REV FILE` shows the content first; keep a copy outside the repository",
            )
            .recovery("only from another clone that still has the revision"),
        ),
        _ => None,
    }
}

const DISCARDED: &str = "none: Mercurial keeps no copy of discarded edits";

fn update(line: &Line) -> Option<Hit> {
    if !line.given("clean", Some("-C")) {
        return None;
    }
    // Where it goes: `-r REV` or the operand; a date picks a revision only hg can find.
    let target = match (
        value(line.args, &["-r", "--rev"]),
        line.operand_words().first(),
    ) {
        (Some(rev), _) => Some(Some(rev.to_string())),
        (None, Some(word)) => word.value().map(|rev| Some(rev.to_string())),
        (None, None) => Some(None),
    };
    let subject = match target {
        Some(target) if !has(line.args, &["-d", "--date"]) => {
            line.working_copy(&[], Loses::Checkout { target })
        }
        _ => Subject::Nothing,
    };
    Some(
        Hit::new(
            &HG_DISCARD,
            Tier::Destructive,
            "throws away every uncommitted change in the working directory (`--clean` keeps no \
             backup)",
        )
        .safer(
            "`hg shelve` first (`hg unshelve` brings the changes back), or `hg update REV` \
             without `-C`, which refuses or merges when edits are in the way",
        )
        .recovery(DISCARDED)
        .about(subject),
    )
}

fn revert(line: &Line) -> Option<Hit> {
    if !line.given("no-backup", Some("-C"))
        || line.given("dry-run", Some("-n"))
        || line.given("interactive", Some("-i"))
    {
        return None;
    }
    let files = line.operands();
    let everything = line.given("all", Some("-a"));
    if files.is_empty() && !everything && !has(line.args, &["-I", "-X", "--include", "--exclude"]) {
        return None;
    }
    let what = if everything {
        "every uncommitted change".to_string()
    } else {
        format!("the uncommitted changes to {}", list(files.iter().copied()))
    };
    // To another revision, revert also writes over untracked files in the way.
    let subject = match has(line.args, &["-r", "--rev", "-d", "--date"]) {
        true => Subject::Nothing,
        false => line.working_copy(&line.operand_words(), Loses::Changes { added: false }),
    };
    Some(
        Hit::new(
            &HG_DISCARD,
            Tier::Destructive,
            format!("reverts {what} without saving `.orig` backups"),
        )
        .safer("the same `hg revert` without `-C`/`--no-backup`: each edited file is kept as `FILE.orig`")
        .recovery(DISCARDED)
        .about(subject),
    )
}

fn remove(line: &Line) -> Option<Hit> {
    if !line.given("force", Some("-f")) || line.given("dry-run", Some("-n")) {
        return None;
    }
    let files = line.operands();
    Some(
        Hit::new(
            &HG_DISCARD,
            Tier::Destructive,
            format!(
                "deletes {} from disk even when they have uncommitted edits",
                list(files.iter().copied())
            ),
        )
        .safer("`hg remove FILE` refuses edited files; `hg forget FILE` stops tracking and keeps the file")
        .recovery(DISCARDED)
        .about(line.working_copy(&line.operand_words(), Loses::Changes { added: false })),
    )
}

fn purge(line: &Line) -> Option<Hit> {
    if line.given("print", Some("-p")) || line.given("print0", Some("-0")) {
        return None;
    }
    let all = line.given("all", None);
    let only_ignored = !all && line.given("ignored", Some("-i"));
    let what = if all {
        "every untracked and ignored file"
    } else if only_ignored {
        "every ignored file"
    } else {
        "every untracked file"
    };
    let subject = line.working_copy(
        &line.operand_words(),
        Loses::Untracked {
            unversioned: !only_ignored,
            ignored: all || only_ignored,
        },
    );
    let dirs = line.operands();
    let place = if dirs.is_empty() {
        "in the working directory".to_string()
    } else {
        format!("under {}", list(dirs.iter().copied()))
    };
    Some(
        Hit::new(
            &HG_PURGE,
            Tier::Destructive,
            format!("deletes {what} {place}: files in no commit and no trash"),
        )
        .safer("`hg purge --print` with the same options lists what would be deleted")
        .recovery("none: purged files are deleted, not moved anywhere")
        .about(subject),
    )
}

fn strip(line: &Line) -> Option<Hit> {
    if line.given("soft", None) {
        return None;
    }
    let no_backup = line.given("no-backup", None) || line.given("nobackup", None);
    let force = line.given("force", Some("-f"));
    let keep = line.given("keep", Some("-k"));
    let revs: Vec<&str> = line.operands();
    let mut loses = format!(
        "removes changesets {} and all their descendants from the repository",
        list(revs.iter().copied())
    );
    if force && !keep {
        loses.push_str(", and discards uncommitted changes");
    }
    let recovery = if no_backup {
        "none: `--no-backup` keeps no bundle"
    } else {
        "`hg unbundle .hg/strip-backup/<hash>-backup.hg` brings the changesets back"
    };
    Some(
        Hit::new(&HG_STRIP, Tier::Destructive, loses)
            .safer(
                "`hg log -r 'REV::'` shows what would go; `hg prune` (evolve) hides changesets \
                 recoverably, `hg backout REV` undoes one with a new commit",
            )
            .recovery(recovery),
    )
}

fn rollback(line: &Line) -> Option<Hit> {
    if !line.given("force", Some("-f")) || line.given("dry-run", Some("-n")) {
        return None;
    }
    Some(
        Hit::new(
            &HG_STRIP,
            Tier::Destructive,
            "undoes the last transaction (a commit, pull or import) with the safety checks off \
             and no backup",
        )
        .safer("`hg rollback --dry-run` shows what would be undone; plain `hg rollback` refuses when it could lose data")
        .recovery("none: rollback keeps no bundle"),
    )
}

fn shelve(line: &Line) -> Option<Hit> {
    let cleanup = line.given("cleanup", None);
    if !cleanup && !line.given("delete", Some("-d")) {
        return None;
    }
    let what = if cleanup {
        "every shelved change".to_string()
    } else {
        format!(
            "the shelved change {}",
            list(line.operands().iter().copied())
        )
    };
    Some(
        Hit::new(
            &HG_SHELVE_DELETE,
            Tier::Destructive,
            format!("deletes {what}: uncommitted work set aside"),
        )
        .safer(match line.operands().first() {
            Some(name) => format!(
                "`hg unshelve {name}` brings it back into the working directory, to commit or keep"
            ),
            None => "`hg shelve --list` shows what is shelved; `hg unshelve NAME` brings one back"
                .to_string(),
        })
        .recovery(
            "copy the files back from `.hg/shelve-backup` into `.hg/shelved` and `hg unshelve`, \
             while Mercurial still keeps them there",
        ),
    )
}
