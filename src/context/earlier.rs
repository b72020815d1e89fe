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
use crate::rules::{Finding, GitSubject, Subject};
use crate::shell::{SimpleCommand, Via, Word};
use crate::syntax::argv::{self, Style, Takes, Valued};
use crate::syntax::writes;

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
    // The interpreter that runs the code does nothing but run it: what the code does is
    // judged call by call (each call an earlier command of its own), so code that moves or
    // writes files before its delete is seen as such, and the interpreter adds nothing.
    let runs_the_code = |cmd: &SimpleCommand| {
        matches!(finding.via, Via::Embedded(_))
            && !matches!(cmd.via, Via::Embedded(_))
            && cmd.span == finding.span
    };
    // A delete `find -exec` runs on what the search finds is the finding's own delete.
    let deletes_what_find_finds = |cmd: &SimpleCommand| {
        cmd.via == Via::FindExec
            && cmd.span == finding.span
            && cmd.redirects.iter().all(|r| !r.writes())
            && matches!(cmd.program(), Some("rm" | "rmdir" | "unlink" | "shred"))
    };
    before.iter().any(|cmd| match effect(cmd) {
        _ if leaves_alone(finding, cmd) => false,
        _ if deletes_what_find_finds(cmd) => false,
        _ if runs_the_code(cmd) => false,
        // A folder the line made has a name no one knew: a command given nothing that
        // spells it, in its words, its environment or its input, cannot put anything there.
        _ if all_temp && blind_to_fresh(cmd) => false,
        _ if only_shell_state(finding, cmd) => false,
        _ if temp && may_move_in(cmd) => true,
        Effect::Nothing => false,
        // What the line's own folder holds came from the line: a program given its name
        // creates, copies, builds or reads there. Only a move (ruled out above) brings
        // anyone's files in.
        _ if all_temp => false,
        Effect::Anything => true,
        // Git's answers rest on the whole tree and its refs: a write anywhere may matter.
        // Writes only inside a folder the line made touch nothing that was there before.
        Effect::Paths(written)
            if written
                .iter()
                .all(|w| matches!(w.temp, Some(crate::syntax::Temp::Made(_)))) =>
        {
            false
        }
        Effect::Paths(written) => match &finding.subject {
            // Copies into a folder the line made are the line's own: only the other
            // targets can be written over.
            Subject::Paths(_) if all_temp => false,
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

/// Whether `cmd` is a git command that cannot change what a routine clearing rests on: the
/// remote-tracking branches, for a remote branch's deletion (work on local branches, the
/// index and the tree never moves them); the other worktree's files, for a worktree's
/// removal (git run from the same folder works in this one). Neither fetches nor pushes.
fn leaves_alone(finding: &Finding, cmd: &SimpleCommand) -> bool {
    const LOCAL: &[&str] = &[
        "add",
        "branch",
        "checkout",
        "commit",
        "merge",
        "reset",
        "restore",
        "rm",
        "stash",
        "status",
        "switch",
        "tag",
        "log",
        "diff",
        "show",
        "rev-parse",
    ];
    let Subject::Git { what, .. } = &finding.subject else {
        return false;
    };
    let same_folder = match what {
        GitSubject::Push { delete: true, .. } => true,
        GitSubject::WorktreeRemove { .. } => cmd.dirs == finding.dirs,
        _ => return false,
    };
    if cmd.program() != Some("git") || !cmd.assigns.is_empty() || !same_folder {
        return false;
    }
    let read = crate::syntax::git::read(cmd.args());
    read.prefix().is_empty()
        && read
            .subcommand()
            .and_then(Word::value)
            .is_some_and(|sub| LOCAL.contains(&sub))
}

/// Whether `cmd` may move existing files somewhere (into a temporary folder a later
/// command deletes): `mv`, `rsync`, `rename`, `git mv`, an archiver that removes what it
/// packs, a mount that lays a folder over it, or a program whose name is known only when
/// it runs (one the line built inside its own folder is named by that folder).
fn may_move_in(cmd: &SimpleCommand) -> bool {
    let has = |flags: &[&str]| cmd.args().iter().any(|w| flags.contains(&w.text.as_str()));
    match cmd.program() {
        None => !cmd
            .argv
            .first()
            .is_some_and(|w| matches!(w.temp, Some(crate::syntax::Temp::Made(_)))),
        Some("mv" | "rsync" | "rename" | "mount" | "bindfs") => true,
        Some("tar") => has(&["--remove-files"]),
        Some("zip") => has(&["-m", "--move"]),
        Some("7z" | "7za") => has(&["-sdel"]),
        Some("git") => crate::syntax::git::read(cmd.args())
            .subcommand()
            .is_some_and(|sub| sub.text == "mv"),
        _ => false,
    }
}

/// Whether `cmd` is a builtin that sets only the shell's own variables and options
/// (`export OUT=dist`, `set -a`), for a finding about files: those change no file, and
/// only `HOME` and `CDPATH` change which file a path names. Git's answers rest on its
/// environment (`GIT_DIR`), so a git finding still counts them.
fn only_shell_state(finding: &Finding, cmd: &SimpleCommand) -> bool {
    const BUILTINS: &[&str] = &[
        "export", "declare", "typeset", "local", "readonly", "set", "unset", "shift",
    ];
    let files = matches!(
        finding.subject,
        Subject::Paths(_) | Subject::Files(_) | Subject::Mirror(_)
    );
    files
        && cmd.program().is_some_and(|p| BUILTINS.contains(&p))
        && cmd.redirects.is_empty()
        && cmd.args().iter().all(|w| {
            let name = w.text.split('=').next().unwrap_or_default();
            !matches!(name, "HOME" | "CDPATH") && !w.text.contains(['$', '`'])
        })
}

/// Whether `cmd` is given no way to name a folder the line made: every word literal and
/// none of them marked inside such a folder, no prefixes, no input the line pipes or
/// feeds it.
fn blind_to_fresh(cmd: &SimpleCommand) -> bool {
    cmd.argv.iter().all(|w| w.literal && w.temp.is_none())
        && cmd.assigns.is_empty()
        && cmd.input.is_none()
        && cmd.fed_by.is_empty()
        && cmd.redirects.iter().all(|r| r.target.literal)
        && cmd.call.is_none()
        && !matches!(
            cmd.via,
            Via::Xargs | Via::Parallel | Via::FindExec | Via::FdExec
        )
}

/// Where `source` lands when written to `path`: inside it when `path` is a folder that
/// exists now, at `path` itself otherwise.
fn inside(path: PathBuf, source: Option<&Word>) -> PathBuf {
    match source.and_then(writes::name_of) {
        Some(name) if path.is_dir() => path.join(name),
        _ => path,
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
    // Run elsewhere, it reaches this machine only through the folders a container mounts,
    // by paths of its own: there any write may land anywhere.
    if let Some(place) = &cmd.elsewhere {
        if !place.mounts_here() {
            return Effect::Nothing;
        }
        let as_if_here = SimpleCommand {
            elsewhere: None,
            ..cmd.clone()
        };
        return match effect(&as_if_here) {
            Effect::Nothing => Effect::Nothing,
            Effect::Paths(_) | Effect::Anything => Effect::Anything,
        };
    }
    let mut written: Vec<Word> = cmd
        .redirects
        .iter()
        .filter(|r| r.writes() && r.target.value() != Some("/dev/null"))
        .map(|r| r.target.clone())
        .collect();
    let Some(program) = cmd.program() else {
        return Effect::Anything;
    };
    // `mktemp` makes a name no one had: nothing that was there before changes.
    if reads_only(cmd) || program == "mktemp" {
        // `sort -o out`, `tree -o out`, `less --log-file=out`, `uniq in out`.
        written.extend(
            writes::of(program, cmd.args())
                .writes
                .into_iter()
                .map(|w| w.path),
        );
        return if written.is_empty() {
            Effect::Nothing
        } else {
            Effect::Paths(written)
        };
    }
    if !WRITERS.contains(&program) {
        return Effect::Anything;
    }
    let args = cmd.args();
    match program {
        // What they change is every operand.
        "chmod" | "rm" | "rmdir" => {
            let read = argv::read(args, Style::Getopt, &argv::Valued(&[]));
            written.extend(read.operands.iter().filter_map(|&at| args.get(at).cloned()));
        }
        // What they write, and what `mv` takes away from where it was.
        _ => {
            for write in writes::of(program, args).writes {
                written.extend(write.from.filter(|_| write.moves));
                written.push(write.path);
            }
        }
    }
    Effect::Paths(written)
}

/// Whether `cmd`'s program only reads (its redirects and output options aside).
fn reads_only(cmd: &SimpleCommand) -> bool {
    match cmd.program() {
        Some("git") => git_reads_only(cmd.args()),
        Some("find") => !cmd.args().iter().any(|w| {
            matches!(
                w.text.as_str(),
                "-delete" | "-fprint" | "-fprint0" | "-fprintf" | "-fls"
            )
        }),
        // fd only lists: what its `-x` runs is judged as commands of their own.
        Some("fd" | "fdfind") => true,
        // `rg --pre <program>` runs that program on every file it searches.
        Some("rg") => argv::read(cmd.args(), Style::Getopt, &Valued(RG_VALUED))
            .last(&["pre"])
            .is_none(),
        Some(program) => READERS.contains(&program),
        None => false,
    }
}

/// Whether a command in `before` may write `file` (resolved from `dir`): a redirect into
/// it, a copy or move onto it, or a write to a path that cannot be resolved. An unknown
/// program is not counted here; this is for findings that stand only on what a file holds.
pub(super) fn may_write(ctx: &Context, dir: &Path, file: &Word, before: &[&SimpleCommand]) -> bool {
    let Some(target) = resolve(ctx, dir, file) else {
        return true;
    };
    before.iter().any(|cmd| writes(ctx, cmd, &target))
}

/// What `file` holds once the commands in `before` ran, when exactly one of them may write
/// it and the line shows all it writes there (`cat > reset.sql <<'EOF'` … `EOF`).
pub(super) fn written_text(
    ctx: &Context,
    dir: &Path,
    file: &Word,
    before: &[&SimpleCommand],
) -> Option<String> {
    let target = resolve(ctx, dir, file)?;
    let mut writers = before.iter().filter(|cmd| writes(ctx, cmd, &target));
    let (Some(writer), None) = (writers.next(), writers.next()) else {
        return None;
    };
    // Named the same way from the same folder: the word names the same file.
    let here = ctx.directory(&writer.dirs)?;
    (here == dir).then(|| crate::shell::written_by(writer, file))?
}

/// Whether `cmd` may write `target` (see [`may_write`]).
fn writes(ctx: &Context, cmd: &SimpleCommand, target: &Path) -> bool {
    match effect(cmd) {
        Effect::Paths(written) => {
            let Some(written_dir) = ctx.directory(&cmd.dirs) else {
                return true;
            };
            written
                .iter()
                .any(|w| resolve(ctx, &written_dir, w).is_none_or(|w| target.starts_with(&w)))
        }
        Effect::Nothing | Effect::Anything => false,
    }
}

/// Programs that change no file and no repository (their output redirects and the files
/// [`writes`] reads from their options aside).
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

/// ripgrep's options that take a value in the next word, so that none of them is read as
/// `--pre`'s program or `--pre` as a pattern.
const RG_VALUED: &[&str] = &[
    "e",
    "regexp",
    "f",
    "file",
    "g",
    "glob",
    "iglob",
    "t",
    "type",
    "T",
    "type-not",
    "type-add",
    "type-clear",
    "A",
    "after-context",
    "B",
    "before-context",
    "C",
    "context",
    "m",
    "max-count",
    "j",
    "threads",
    "M",
    "max-columns",
    "d",
    "max-depth",
    "r",
    "replace",
    "E",
    "encoding",
    "pre",
    "pre-glob",
    "sort",
    "sortr",
    "color",
    "colors",
    "max-filesize",
    "ignore-file",
    "path-separator",
    "context-separator",
    "field-match-separator",
    "field-context-separator",
    "engine",
    "dfa-size-limit",
    "regex-size-limit",
    "hostname-bin",
    "hyperlink-format",
];

/// `git <sub>` that only reads the repository.
fn git_reads_only(args: &[Word]) -> bool {
    git_reads(args, true)
}

/// `git <sub>` that only reads the repository, but for the file its `--output` names
/// (`git log --output=<file>`, `git diff --output <file>`) when `output_writes` is false.
fn git_reads(args: &[Word], output_writes: bool) -> bool {
    let read = crate::syntax::git::read(args);
    let Some(sub) = read.subcommand() else {
        return true; // `git` alone, `git --version`: it prints and exits
    };
    let sub = sub.text.as_str();
    if output_writes
        && argv::read(read.rest(), Style::Getopt, &Valued(&["output"]))
            .last(&["output"])
            .is_some()
    {
        return false;
    }
    let rest: Vec<&str> = read.rest().iter().map(|w| w.text.as_str()).collect();
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

/// The literal paths a finding deletes or writes over, as written; `None` when one is not
/// literal or the finding is about something else.
fn targets(finding: &Finding) -> Option<Vec<&Word>> {
    let words: Vec<&Word> = match &finding.subject {
        Subject::Paths(words) => words.iter().collect(),
        Subject::Files(files) => files.iter().map(|f| &f.path).collect(),
        Subject::Database(db)
        | Subject::SqlFile {
            database: Some(db), ..
        } => vec![db],
        _ => return None,
    };
    (!words.is_empty() && words.iter().all(|w| w.value().is_some())).then_some(words)
}

/// Why nothing `finding` removes existed before the line: every path it names is missing
/// now, so whatever is there when it runs, an earlier command of the line made, and none of
/// them brings in bytes from elsewhere by moving them (`mkdir d && cd d && ... && rm -rf d`,
/// `curl -o x.zip URL && unzip x.zip && rm -rf x x.zip`). `None` when that is not shown.
pub(super) fn made_by_line(
    ctx: &Context,
    finding: &Finding,
    dir: &Path,
    before: &[&SimpleCommand],
) -> Option<String> {
    let targets = targets(finding)?;
    for word in &targets {
        let path = resolve(ctx, dir, word)?;
        match std::fs::symlink_metadata(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            _ => return None,
        }
    }
    // A reader writes only what it prints (`echo hi > d/x`): new bytes.
    let copies_only = before
        .iter()
        .all(|cmd| reads_only(cmd) || makes_without_moving(cmd) || holds_finding(finding, cmd));
    copies_only.then(|| {
        format!(
            "{} did not exist before this line: what it holds then, the line made",
            targets
                .iter()
                .map(|w| format!("`{}`", w.text))
                .collect::<Vec<_>>()
                .join(", ")
        )
    })
}

/// Whether `cmd` is the shell or interpreter whose script or code holds `finding`'s command
/// (`sh -c '…'`, `python3 -c '…'`): it stands for the commands read from that text, which
/// are in `before` themselves.
fn holds_finding(finding: &Finding, cmd: &SimpleCommand) -> bool {
    let inside = finding.via != crate::shell::Via::Direct
        && cmd.span.start <= finding.span.start
        && finding.span.end <= cmd.span.end;
    let runs_text = crate::lang::code_of(&cmd.argv).is_some()
        || matches!(cmd.program(), Some("sh" | "bash" | "zsh" | "dash" | "ksh"))
            && cmd.args().iter().any(|w| w.text == "-c" || w.text == "-lc");
    inside && runs_text
}

/// A command that creates, copies, downloads or unpacks, and never moves a file from where
/// it was: whatever it puts somewhere still exists where it came from.
fn makes_without_moving(cmd: &SimpleCommand) -> bool {
    let args = cmd.args();
    let says = |option: &str| args.iter().any(|w| w.text == option);
    match cmd.program() {
        // Not `ln -s`: a link made to a folder elsewhere, removed as `rm -rf link/`, takes
        // that folder's files.
        Some("mkdir" | "touch" | "cp" | "tee" | "chmod" | "curl" | "wget" | "unzip") => true,
        // A database client writes its own database; a delete brings nothing in.
        Some("sqlite3" | "duckdb" | "rm" | "rmdir" | "unlink") => true,
        Some("tar") => !says("--remove-files"),
        // A file write read from interpreter code (`open('d/x', 'w')`): the code's bytes.
        Some(call)
            if matches!(cmd.via, crate::shell::Via::Embedded(_))
                && cmd.call.is_some()
                && args.is_empty()
                && crate::lang::is_file_write(call) =>
        {
            true
        }
        Some("rsync") => !says("--remove-source-files"),
        // A clone, or a reader whose `--output` file is new bytes.
        Some("git") => {
            git_reads(args, false)
                || crate::syntax::git::read(args)
                    .subcommand()
                    .is_some_and(|sub| sub.text == "clone")
        }
        _ => false,
    }
}

/// Why the bytes `finding` destroys survive: for every path it names, an earlier command of
/// the line copied it to a fresh name (`cp notes.md notes.md.bak && rm notes.md`), nothing
/// else before it writes to the file or to its copy, and no command `after` it deletes,
/// moves or writes over the copy (`... && rm notes.md.bak`). `None` when that is not shown.
pub(super) fn backed_up(
    ctx: &Context,
    finding: &Finding,
    dir: &Path,
    before: &[&SimpleCommand],
    after: &[&SimpleCommand],
) -> Option<String> {
    let words: Vec<Word>;
    let targets: Vec<&Word> = match &finding.subject {
        Subject::Git {
            globals,
            what: crate::rules::GitSubject::Discard { paths },
        } if globals.is_empty() && finding.env.is_empty() && !paths.is_empty() => {
            words = paths.iter().map(|p| Word::literal(p.clone())).collect();
            words.iter().collect()
        }
        _ => targets(finding)?,
    };
    let mut copies: Vec<(usize, PathBuf)> = Vec::new();
    let mut shown = Vec::new();
    for word in &targets {
        let target = resolve(ctx, dir, word)?;
        let (at, copy) = before.iter().enumerate().find_map(|(at, cmd)| {
            let copy = backup_of(ctx, cmd, &target)?;
            (cmd.span.end <= finding.span.start).then_some((at, copy))
        })?;
        shown.push(format!("`{}` to `{}`", word.text, copy.1));
        let copy = copy.0;
        copies.push((at, target));
        copies.push((at, copy));
    }
    let fresh: Vec<&PathBuf> = copies.iter().skip(1).step_by(2).map(|(_, p)| p).collect();
    if after.iter().any(|cmd| touches(ctx, cmd, &fresh)) {
        return None;
    }
    let guarded: Vec<&PathBuf> = copies.iter().map(|(_, p)| p).collect();
    let untouched = before.iter().enumerate().all(|(at, cmd)| {
        if copies.iter().any(|(copy, _)| *copy == at) || holds_finding(finding, cmd) {
            return true;
        }
        match effect(cmd) {
            Effect::Nothing => true,
            Effect::Anything => false,
            Effect::Paths(written) => {
                let Some(written_dir) = ctx.directory(&cmd.dirs) else {
                    return false;
                };
                written.iter().all(|w| {
                    resolve(ctx, &written_dir, w).is_some_and(|w| {
                        !guarded
                            .iter()
                            .any(|g| w.starts_with(g.as_path()) || g.starts_with(&w))
                    })
                })
            }
        }
    });
    untouched.then(|| format!("the line first copies {}", shown.join(", ")))
}

/// Whether `cmd` names a path written, moved or deleted that is one of `paths`, lies inside
/// one, or holds one. A program that is not known is not counted: only a command shown to
/// reach a copy voids it.
fn touches(ctx: &Context, cmd: &SimpleCommand, paths: &[&PathBuf]) -> bool {
    // A `cp` only reads its sources (`cp notes.bak notes2.txt` leaves the copy): what it
    // writes is its destination alone.
    let Effect::Paths(written) = effect(cmd) else {
        return false;
    };
    let Some(written_dir) = ctx.directory(&cmd.dirs) else {
        return true;
    };
    written.iter().any(|w| {
        resolve(ctx, &written_dir, w).is_none_or(|w| {
            paths
                .iter()
                .any(|p| w.starts_with(p.as_path()) || p.starts_with(&w))
        })
    })
}

/// Where `cmd` copies `target` to, when it is a plain `cp` of it to a literal name that
/// does not exist yet (so the copy is a fresh one, not written into a folder or over a file).
fn backup_of(ctx: &Context, cmd: &SimpleCommand, target: &Path) -> Option<(PathBuf, String)> {
    if cmd.program() != Some("cp") || cmd.uncertain {
        return None;
    }
    let args = cmd.args();
    if args.iter().any(|w| !w.literal) {
        return None;
    }
    let read = argv::read(args, Style::Getopt, &PlainCopy);
    if read.unknown {
        return None;
    }
    let operands: Vec<&Word> = read
        .operands
        .iter()
        .filter_map(|&at| args.get(at))
        .collect();
    let [source, copy] = operands.as_slice() else {
        return None;
    };
    let cp_dir = ctx.directory(&cmd.dirs)?;
    if resolve(ctx, &cp_dir, source)? != *target {
        return None;
    }
    let named = copy.text.clone();
    let copy = resolve(ctx, &cp_dir, copy)?;
    let fresh = matches!(
        std::fs::symlink_metadata(&copy),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound
    );
    (fresh && !copy.starts_with(target)).then_some((copy, named))
}

/// The options of a `cp` that makes a plain copy of its bytes. Links (`-l`, `-s`) would share
/// the bytes rather than copy them; any other option may change what is copied or where.
struct PlainCopy;

impl argv::Options for PlainCopy {
    fn long(&self, name: &str) -> Option<Takes> {
        match name {
            "recursive" | "archive" | "verbose" => Some(Takes::Nothing),
            "preserve" => Some(Takes::Attached),
            _ => None,
        }
    }
    fn short(&self, letter: char) -> Option<Takes> {
        "rRapvPL".contains(letter).then_some(Takes::Nothing)
    }
}

/// The files earlier `mv` commands of the line move onto or into a path `finding` deletes
/// or writes over, each with the folder its `mv` runs in.
pub(super) fn moved_into(
    ctx: &Context,
    finding: &Finding,
    dir: &Path,
    before: &[&SimpleCommand],
) -> Vec<(PathBuf, Word)> {
    let Some(words) = targets(finding) else {
        return Vec::new();
    };
    // `mv notes.md docs/`: what is written is the file of that name inside the folder.
    let into: Vec<Option<&Word>> = match &finding.subject {
        Subject::Files(files) => files.iter().map(|f| f.into_folder.as_ref()).collect(),
        _ => vec![None; words.len()],
    };
    let targets: Vec<PathBuf> = words
        .iter()
        .zip(into)
        .filter_map(|(w, source)| Some(inside(resolve(ctx, dir, w)?, source)))
        .collect();
    let mut moved = Vec::new();
    for cmd in before.iter().filter(|c| c.program() == Some("mv")) {
        let Some(mv_dir) = ctx.directory(&cmd.dirs) else {
            continue;
        };
        for write in writes::of("mv", cmd.args()).writes {
            let Some(source) = write.from else {
                continue;
            };
            let reaches = resolve(ctx, &mv_dir, &write.path).is_none_or(|d| {
                let d = inside(d, write.into.as_ref());
                targets
                    .iter()
                    .any(|t| t.starts_with(&d) || d.starts_with(t))
            });
            if reaches {
                moved.push((mv_dir.clone(), source));
            }
        }
    }
    moved
}
