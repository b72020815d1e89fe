//! What the commands that may run before a finding's own could change.
//!
//! A clearing is proof about the state the command meets. `git fetch && git reset --hard
//! upstream/x` meets a ref the fetch creates, `mkdir old && mv draft.md old && rm -rf old`
//! a folder the `mv` fills, `git stash && git stash drop` an entry the first command adds.
//! So a clearing stands only when every command that may run first is known to leave its
//! ground alone: it only reads, or it writes paths that are named, literal, and apart from
//! the paths a delete clears. Anything else, including any program this does not know,
//! could change anything.

use std::path::{Component, Path, PathBuf};

use super::Context;
use crate::rules::{Finding, Subject};
use crate::shell::{SimpleCommand, Via, Word};

/// What one command may change.
enum Effect {
    /// Nothing: it only reads.
    Nothing,
    /// Only these paths (and what lies under them), in the directory given by its `cd`s.
    Paths(Vec<Word>),
    /// Anything at all.
    Anything,
}

/// Whether a command in `before` could change what clearing `finding` rests on. `dir` is
/// where `finding`'s command runs.
pub(super) fn could_change(
    ctx: &Context,
    finding: &Finding,
    dir: &Path,
    before: &[&SimpleCommand],
) -> bool {
    // A temporary folder the line made holds nothing of anyone's unless a command moves
    // it in: what commands create or copy there is the line's own.
    let (temp, all_temp) = match &finding.subject {
        Subject::Paths(targets) => (
            targets.iter().any(|t| t.temp.is_some()),
            targets.iter().all(|t| t.temp.is_some()),
        ),
        _ => (false, false),
    };
    // The interpreter that runs the code: what that code does is judged call by call,
    // and code that could move files gets no temporary folder proven.
    let runs_the_code = |cmd: &SimpleCommand| {
        matches!(finding.via, Via::Embedded(_))
            && !matches!(cmd.via, Via::Embedded(_))
            && cmd.span == finding.span
    };
    before.iter().any(|cmd| match effect(cmd) {
        _ if all_temp && runs_the_code(cmd) => false,
        _ if temp && may_move_in(cmd) => true,
        Effect::Nothing => false,
        Effect::Anything => !(all_temp && only_creates(cmd)),
        // Git's answers rest on the whole tree and its refs: a write anywhere may matter.
        Effect::Paths(written) => match &finding.subject {
            Subject::Paths(targets) => {
                let Some(written_dir) = ctx.directory(&cmd.dirs) else {
                    return true;
                };
                written.iter().any(|w| {
                    targets.iter().filter(|t| t.temp.is_none()).any(|t| {
                        match (resolve(ctx, &written_dir, w), resolve(ctx, dir, t)) {
                            (Some(a), Some(b)) => a.starts_with(&b) || b.starts_with(&a),
                            _ => true,
                        }
                    })
                })
            }
            _ => true,
        },
    })
}

/// Whether `cmd` may move existing files somewhere (into a temporary folder a later
/// command deletes): `mv`, `rsync`, `rename`, `git mv`, or a program not known.
fn may_move_in(cmd: &SimpleCommand) -> bool {
    match cmd.program() {
        None => true,
        Some("mv" | "rsync" | "rename") => true,
        Some("git") => crate::syntax::git::read(cmd.args())
            .subcommand()
            .is_some_and(|sub| sub.text == "mv"),
        _ => false,
    }
}

/// Programs that only create or copy files (a clone, an archive unpacked, a download, a
/// file interpreter code writes): the originals stay where they are.
fn only_creates(cmd: &SimpleCommand) -> bool {
    if cmd.call.is_some() && cmd.argv.len() == 1 && cmd.redirects.iter().all(|r| r.writes()) {
        return true;
    }
    match cmd.program() {
        Some("git" | "unzip" | "curl" | "wget" | "mktemp") => true,
        Some("tar") => !cmd.args().iter().any(|w| w.text == "--remove-files"),
        _ => false,
    }
}

/// `word` as an absolute path from `dir`, `..` folded away; `None` when not literal.
fn resolve(ctx: &Context, dir: &Path, word: &Word) -> Option<PathBuf> {
    let text = word.value()?;
    let joined = match text {
        "~" => ctx.home.clone()?,
        t if t.starts_with("~/") => ctx.home.as_ref()?.join(&t[2..]),
        t => dir.join(t),
    };
    let mut out = PathBuf::new();
    for part in joined.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    Some(out)
}

fn effect(cmd: &SimpleCommand) -> Effect {
    let mut written: Vec<Word> = cmd
        .redirects
        .iter()
        .filter(|r| r.writes() && r.target.value() != Some("/dev/null"))
        .map(|r| r.target.clone())
        .collect();
    let Some(program) = cmd.program() else {
        return Effect::Anything;
    };
    let reads_only = match program {
        "git" => git_reads_only(cmd.args()),
        "find" => !cmd
            .args()
            .iter()
            .any(|w| w.text == "-delete" || w.text.starts_with("-fprint") || w.text == "-fls"),
        // `rg --pre <program>` runs that program on every file it searches.
        "rg" => !cmd.args().iter().any(|w| w.text.starts_with("--pre")),
        _ => READERS.contains(&program),
    };
    if reads_only {
        written.extend(output_options(program, cmd.args()));
        return if written.is_empty() {
            Effect::Nothing
        } else {
            Effect::Paths(written)
        };
    }
    if !WRITERS.contains(&program) {
        return Effect::Anything;
    }
    let mut options_done = false;
    for word in cmd.args() {
        if !options_done && word.text == "--" {
            options_done = true;
        } else if !options_done && word.text.starts_with('-') {
            // `--target-directory=dir`: the value is a path written too.
            if let Some((_, value)) = word.text.split_once('=') {
                written.push(Word {
                    text: value.to_string(),
                    literal: word.literal,
                    temp: None,
                });
            }
        } else {
            written.push(word.clone());
        }
    }
    Effect::Paths(written)
}

/// The files a reader writes through an option: `sort -o out`, `tree -o out`,
/// `less --log-file=out`, and `uniq in out`'s second operand. Every word that may be such a
/// file is counted: counting one too many only keeps a finding standing.
fn output_options(program: &str, args: &[Word]) -> Vec<Word> {
    let (short, long): (char, &[&str]) = match program {
        "sort" => ('o', &["--output"]),
        "tree" => ('o', &[]),
        "less" => ('o', &["--log-file", "--LOG-FILE"]),
        "uniq" => {
            return args
                .iter()
                .filter(|w| !w.text.starts_with('-') || w.text == "-")
                .skip(1)
                .cloned()
                .collect();
        }
        _ => return Vec::new(),
    };
    let mut out = Vec::new();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let text = word.text.as_str();
        let value = if let Some((name, value)) = text.split_once('=')
            && long.contains(&name)
        {
            Some(Word {
                text: value.to_string(),
                literal: word.literal,
                temp: None,
            })
        } else if long.contains(&text) {
            words.next().cloned()
        } else if let Some(flags) = text.strip_prefix('-')
            && !flags.starts_with('-')
            && let Some(at) = flags.find([short, short.to_ascii_uppercase()])
        {
            // `-o out`, `-oout`, `-ro out`: the rest of the word, or the next word.
            let rest = &flags[at + 1..];
            if rest.is_empty() {
                words.next().cloned()
            } else {
                Some(Word {
                    text: rest.to_string(),
                    literal: word.literal,
                    temp: None,
                })
            }
        } else {
            None
        };
        out.extend(value);
    }
    out
}

/// Whether a command in `before` may write `file` (resolved from `dir`): a redirect into
/// it, a copy or move onto it, or a write to a path that cannot be resolved. An unknown
/// program is not counted here; this is for findings that stand only on what a file holds.
pub(super) fn may_write(ctx: &Context, dir: &Path, file: &Word, before: &[&SimpleCommand]) -> bool {
    let Some(target) = resolve(ctx, dir, file) else {
        return true;
    };
    before.iter().any(|cmd| match effect(cmd) {
        Effect::Paths(written) => {
            let Some(written_dir) = ctx.directory(&cmd.dirs) else {
                return true;
            };
            written
                .iter()
                .any(|w| resolve(ctx, &written_dir, w).is_none_or(|w| target.starts_with(&w)))
        }
        Effect::Nothing | Effect::Anything => false,
    })
}

/// Programs that change no file and no repository (their output redirects and the output
/// options [`output_options`] knows aside).
const READERS: &[&str] = &[
    ":",
    "[",
    "basename",
    "cat",
    "cd",
    "cmp",
    "date",
    "df",
    "diff",
    "dirname",
    "du",
    "echo",
    "false",
    "file",
    "grep",
    "head",
    "id",
    "less",
    "ls",
    "md5sum",
    "more",
    "popd",
    "printf",
    "pushd",
    "pwd",
    "readlink",
    "realpath",
    "rg",
    "sha1sum",
    "sha256sum",
    "sleep",
    "sort",
    "stat",
    "tail",
    "test",
    "tree",
    "true",
    "type",
    "uname",
    "uniq",
    "wc",
    "which",
    "whoami",
];

/// Programs whose every operand is a path they create, change, move or remove.
const WRITERS: &[&str] = &[
    "chmod", "cp", "install", "ln", "mkdir", "mv", "rm", "rmdir", "tee", "touch", "truncate",
];

/// `git <sub>` that only reads the repository.
fn git_reads_only(args: &[Word]) -> bool {
    let read = crate::syntax::git::read(args);
    let Some(sub) = read.subcommand() else {
        return true; // `git` alone, `git --version`: it prints and exits
    };
    let sub = sub.text.as_str();
    let rest: Vec<&str> = read.rest().iter().map(|w| w.text.as_str()).collect();
    // `git log --output=<file>`, `git diff --output <file>` write that file.
    if rest.iter().any(|w| w.starts_with("--output")) {
        return false;
    }
    match sub {
        "status" | "log" | "diff" | "show" | "rev-parse" | "ls-files" | "ls-tree" | "describe"
        | "blame" | "shortlog" | "cat-file" | "rev-list" | "grep" | "merge-base"
        | "for-each-ref" | "show-ref" | "name-rev" | "whatchanged" | "help" | "version" => true,
        "stash" => matches!(rest.first(), Some(&("list" | "show"))),
        "worktree" => rest.first() == Some(&"list"),
        "remote" => rest.iter().all(|w| *w == "-v" || *w == "--verbose"),
        "branch" | "tag" => rest.iter().all(|w| {
            matches!(
                *w,
                "-l" | "--list"
                    | "-a"
                    | "--all"
                    | "-r"
                    | "--remotes"
                    | "-v"
                    | "-vv"
                    | "--verbose"
                    | "--show-current"
            )
        }),
        "config" => rest
            .first()
            .is_some_and(|w| matches!(*w, "--get" | "--get-all" | "-l" | "--list")),
        _ => false,
    }
}
