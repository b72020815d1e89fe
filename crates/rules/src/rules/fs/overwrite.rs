//! Single files deleted or written over: `rm notes.md`, `> config.yml`, `cp a b`,
//! `curl -o f`. Most such commands lose nothing (the file is new, tracked and clean, or build
//! output), so these findings stand only when the context shows the old bytes exist nowhere
//! else; with context off they pass.

use crate::rules::{Hit, Rule, Subject, Tier, WorldExample};
use crate::shell::{SimpleCommand, Word};
use crate::syntax::{argv, writes};

pub static RM_FILE: Rule = Rule {
    id: "fs.rm-file",
    catches: "a single-file delete (`rm`, `unlink`, `shred`, an interpreter's `os.remove`, \
              `fs.unlinkSync`, `File.delete`, `Remove-Item`) of a file whose bytes exist \
              nowhere else, with context on",
    why: "A deleted file has no trash and no undo. When git has no copy of its bytes (an \
          untracked note, a `.env` holding the only copy of the keys, uncommitted edits), \
          they are gone for good. A file that is new, tracked and unmodified, build output \
          or temporary passes.",
    instead: "`agent-guard rm --root . <file>` keeps it in a trash `agent-guard restore` \
              brings back; or set it aside with `mv <file> <file>.bak`.",
    protected_when: Some(
        "when it is sent to a place named as production (a host, container, pod, kube context or \
         namespace, project or app whose name holds a `production` word): there it stands \
         without a look, unless the file is temporary",
    ),
    strict_only: false,
    stops: &[],
    passes: &[
        "rm -f out.txt",
        "rm -i notes.md",
        "rm \"$tmp\"",
        "unlink \"$f\"",
    ],
};

pub static OVERWRITE: Rule = Rule {
    id: "fs.overwrite",
    catches: "writing over a file whose bytes exist nowhere else, with context on: `>`, `>|`, \
              `&>`, `2>` (not `>>`), `tee` without `-a`, `cp`/`mv`/`install`/`ln -f`/`rsync` \
              onto a file, `truncate`, `dd of=`, `sort -o`, `uniq IN OUT`, `tree -o`, `curl -o`, \
              `wget -O`, an interpreter's file write",
    why: "The shell empties the file before the command runs, and a copy replaces it whole: \
          the old bytes go with no undo. When git has no copy of them (uncommitted edits, an \
          untracked file, an ignored `.env` or local database), they are lost. A file that \
          is new, tracked and unmodified, output, temporary, or gets the same bytes passes.",
    instead: "Write to a new name, append with `>>`, or refuse to replace with `cp -n`, \
              `mv -n`; copy the old file aside first (`cp f f.bak`).",
    protected_when: Some(
        "when it is sent to a place named as production (a host, container, pod, kube context or \
         namespace, project or app whose name holds a `production` word): there it stands \
         without a look, unless the file is temporary",
    ),
    strict_only: false,
    stops: &[],
    passes: &[
        "echo hi >> notes.md",
        "cp -n .env.example .env",
        "mv -n draft.md notes.md",
        "make 2>&1 | tee -a build.log",
        "echo x > /dev/null",
        "ln -s target link",
    ],
};

/// Each rule, in a fresh repository holding these files untracked.
pub static WORLD_EXAMPLES: &[WorldExample] = &[
    WorldExample {
        rule: &RM_FILE,
        files: &[("notes.md", "ideas for the next release\n")],
        command: "rm notes.md",
        stops: true,
    },
    WorldExample {
        rule: &RM_FILE,
        files: &[("server.log", "GET / 200\n")],
        command: "rm server.log",
        stops: false,
    },
    WorldExample {
        rule: &RM_FILE,
        files: &[],
        command: "rm -f notes.md",
        stops: false,
    },
    WorldExample {
        rule: &OVERWRITE,
        files: &[("notes.md", "ideas for the next release\n")],
        command: "echo '# Notes' > notes.md",
        stops: true,
    },
    WorldExample {
        rule: &OVERWRITE,
        files: &[("draft.md", "second try\n"), ("notes.md", "first try\n")],
        command: "cp draft.md notes.md",
        stops: true,
    },
    WorldExample {
        rule: &OVERWRITE,
        files: &[("a.md", "same\n"), ("b.md", "same\n")],
        command: "cp a.md b.md",
        stops: false,
    },
    WorldExample {
        rule: &OVERWRITE,
        files: &[("notes.md", "ideas\n")],
        command: "cp notes.md notes.md.bak && echo '# Notes' > notes.md",
        stops: false,
    },
];

/// One file a command deletes or writes over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replaced {
    /// The file whose bytes go.
    pub path: Word,
    /// What takes its place.
    pub with: With,
    /// When `path` is an existing folder, the command writes the file inside it named as
    /// this word's last part (`cp notes.md docs/` writes `docs/notes.md`).
    pub into_folder: Option<Word>,
    /// A symbolic link there is replaced itself (rm, mv, ln), not followed.
    pub unlinks: bool,
    /// The file it is written with goes from where it was (`mv`).
    pub moves: bool,
}

/// What a file is replaced with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum With {
    /// Nothing: the file is deleted.
    Nothing,
    /// Bytes not known before the command runs.
    Unknown,
    /// The bytes of another file (`cp a b`, `cat a > b`).
    File(Word),
    /// The bytes git shows for `REV:path` (`git show HEAD:f > f`).
    Blob(String),
}

/// The single files `cmd` deletes (`rm`, `unlink`, `shred`) or writes over (its output
/// redirects, and the programs that write a named file). Only literal paths are named: what
/// a variable holds is not known, so it can never be shown lost.
pub(crate) fn check(cmd: &SimpleCommand, name: Option<&str>) -> Vec<Hit> {
    let mut hits = Vec::new();
    let args = cmd.args();
    let deleted = match name {
        Some("unlink") => operands(args, &[]),
        Some("shred") => operands(args, &["-n", "-s", "--iterations", "--size"]),
        _ => Vec::new(),
    };
    hits.extend(delete(&deleted));
    let mut written: Vec<Replaced> = cmd
        .redirects
        .iter()
        .filter(|r| r.writes() && matches!(r.op.as_str(), ">" | ">|" | "&>" | ">&"))
        .map(|r| Replaced {
            path: r.target.clone(),
            with: redirect_source(cmd),
            into_folder: None,
            unlinks: false,
            moves: false,
        })
        .collect();
    if let Some(name) = name {
        written.extend(by_program(name, args));
    }
    written.retain(|r| r.path.value().is_some_and(|p| !is_device(p)));
    if !written.is_empty() {
        let safer = match name {
            Some("cp") => "`cp -n` refuses to replace an existing file; or copy to a new name",
            Some("mv") => "`mv -n` refuses to replace an existing file; or move to a new name",
            _ => {
                "write to a new name, or append with `>>`; copy the old file aside first \
                  (`cp <file> <file>.bak`) if it must be replaced"
            }
        };
        let shown = crate::rules::git::list(written.iter().map(|r| r.path.text.as_str()));
        let mut hit = Hit::new(
            &OVERWRITE,
            Tier::Destructive,
            format!("writes over {shown}"),
        )
        .safer(safer)
        .recovery("none: the old bytes were in no commit")
        .about(Subject::Files(written));
        hit.needs_confirmation = true;
        hits.push(hit);
    }
    hits
}

/// The finding for deleting `targets`, one by one, if any is named. A glob (`*.sqlite`) is
/// kept: what it matches is not known, so the context never shows it lost, but a team's path
/// rule can tell what it may match.
pub(super) fn delete(targets: &[Word]) -> Option<Hit> {
    let targets: Vec<&Word> = targets
        .iter()
        .filter(|w| w.value().is_some() || only_glob(w))
        .collect();
    if targets.is_empty() {
        return None;
    }
    let shown = crate::rules::git::list(targets.iter().map(|w| w.text.as_str()));
    let mut hit = Hit::new(
        &RM_FILE,
        Tier::Destructive,
        format!("deletes {shown} with no undo"),
    )
    .safer(super::set_aside(&targets, false))
    .recovery("none: the file was in no commit")
    .about(Subject::Files(
        targets
            .iter()
            .map(|w| Replaced {
                path: (*w).clone(),
                with: With::Nothing,
                into_folder: None,
                unlinks: true,
                moves: false,
            })
            .collect(),
    ));
    hit.needs_confirmation = true;
    Some(hit)
}

/// A word whose only expansion is a glob: the shell turns it into the names it matches.
fn only_glob(word: &Word) -> bool {
    !word.literal && !word.text.contains(['$', '`']) && word.text.contains(['*', '?', '['])
}

/// `/dev/null`, `/dev/stderr` and the like: no file's bytes to lose.
fn is_device(path: &str) -> bool {
    path.starts_with("/dev/")
}

/// What a command writes to its output redirect, when plain: one file (`cat a`) or one
/// blob (`git show REV:path`).
fn redirect_source(cmd: &SimpleCommand) -> With {
    let args = cmd.args();
    let source = match cmd.argv.first().and_then(Word::value) {
        Some("cat") => only_operand(args).map(|file| With::File(Word::literal(file))),
        Some("git") => match args.split_first() {
            Some((show, rest)) if show.value() == Some("show") => only_operand(rest)
                .filter(|spec| spec.contains(':'))
                .map(|spec| With::Blob(spec.to_string())),
            _ => None,
        },
        _ => None,
    };
    source.unwrap_or(With::Unknown)
}

/// The one word of `args`, when it is an operand, literal and not `-` (standard input).
fn only_operand(args: &[Word]) -> Option<&str> {
    let [word] = args else {
        return None;
    };
    let read = argv::read(args, argv::Style::Getopt, &argv::Valued(&[]));
    let file = word.value().filter(|text| *text != "-")?;
    (read.operands == [0]).then_some(file)
}

/// The operands of a command, after its options; `valued` are the options that take a value.
fn operands(args: &[Word], valued: &[&str]) -> Vec<Word> {
    let options = argv::Written { names: &[], valued };
    let read = argv::read(args, argv::Style::Getopt, &options);
    read.operands
        .iter()
        .filter_map(|&at| args.get(at).cloned())
        .collect()
}

/// The files a program replaces whole by its arguments, as [`writes`] reads them, unless it
/// keeps what is there (`cp -n`, `ln` without `-f`, a backup).
fn by_program(name: &str, args: &[Word]) -> Vec<Replaced> {
    let read = writes::of(name, args);
    if read.keeps {
        return Vec::new();
    }
    read.writes
        .into_iter()
        .filter(|w| w.how == writes::How::Replace)
        .map(|w| Replaced {
            path: w.path,
            with: w.from.map_or(With::Unknown, With::File),
            into_folder: w.into,
            unlinks: w.unlinks,
            moves: w.moves,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(line: &str) -> Vec<String> {
        let analysis = crate::shell::analyze(line);
        analysis
            .commands
            .iter()
            .flat_map(|cmd| check(cmd, cmd.program()))
            .flat_map(|hit| match hit.subject {
                Subject::Files(files) => files,
                _ => Vec::new(),
            })
            .map(|r| match r.into_folder {
                Some(inside) => format!("{}<{}", r.path.text, inside.text),
                None => r.path.text,
            })
            .collect()
    }

    #[test]
    fn names_the_files_written_over() {
        assert_eq!(written("echo x > a"), ["a"]);
        assert_eq!(written("make 2> err.txt"), ["err.txt"]);
        assert_eq!(written("make &> all.txt"), ["all.txt"]);
        assert!(written("echo x >> a").is_empty());
        assert!(written("make 2>&1").is_empty());
        assert!(written("echo x > /dev/null").is_empty());
        assert_eq!(written("cp a b"), ["b<a"]);
        assert_eq!(written("cp -T a b"), ["b"]);
        assert!(written("cp -n a b").is_empty());
        assert!(written("mv -i a b").is_empty());
        assert_eq!(written("cp -t dir a b"), ["dir<a", "dir<b"]);
        assert!(written("ln a b").is_empty());
        assert_eq!(written("ln -sf a b"), ["b<a"]);
        assert_eq!(written("tee x y"), ["x", "y"]);
        assert!(written("tee -a x").is_empty());
        assert_eq!(written("truncate -s 0 f"), ["f"]);
        assert!(written("truncate -s +1K f").is_empty());
        assert_eq!(written("dd if=a of=b bs=1M"), ["b"]);
        assert_eq!(written("sort -o out in"), ["out"]);
        assert_eq!(written("sort -k 2 --output=out in"), ["out"]);
        assert_eq!(written("uniq -c in out"), ["out"]);
        assert_eq!(written("tree -L 2 -o tree.txt"), ["tree.txt"]);
        assert!(written("uniq -c in").is_empty());
        assert!(written("tree -L 2 src").is_empty());
        assert!(written("sort -k 2 in").is_empty());
        assert!(written("mkdir -p out && touch out/x").is_empty());
        assert!(written("cp --backup=numbered a b").is_empty());
        assert_eq!(written("curl -sSo f.zip https://x"), ["f.zip"]);
        assert_eq!(written("wget -O page.html https://x"), ["page.html"]);
        assert!(written("wget -O - https://x").is_empty());
        assert!(written("rsync -a host:/x y").is_empty());
        assert_eq!(written("unlink a"), ["a"]);
        assert_eq!(written("shred -u -n 3 key.pem"), ["key.pem"]);
        assert!(written("echo x > \"$f\"").is_empty());
    }
}
