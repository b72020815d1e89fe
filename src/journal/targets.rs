//! What a command line may create or write: output redirects (interpreter code's file writes
//! are lowered to those), `cp`/`mv`/`install`/`ln` destinations, `mkdir`, `touch`, `tee`,
//! `truncate`, `dd of=`, `unzip -d` and `git clone` targets. Only words known before the line
//! runs count; the rest is never the agents' own.

use std::path::{Component, Path, PathBuf};

use crate::shell::{SimpleCommand, Word};

/// A path the line may write, as written, and the `cd`s in effect where it is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub dirs: Vec<Word>,
    pub path: String,
    /// When `path` turns out to be an existing folder, the names that land in it instead
    /// (`cp a b dest/`).
    pub into: Vec<String>,
    /// What `mv` brings there: its content is whoever's it was before the move.
    pub moved: Vec<String>,
}

/// A path the line writes, absolute, and where its content comes from when it is moved there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    pub path: PathBuf,
    pub moved: Vec<PathBuf>,
}

/// Every target of `commands` whose words are all known before the line runs.
pub fn of(commands: &[SimpleCommand]) -> Vec<Target> {
    let mut targets = Vec::new();
    for cmd in commands {
        if cmd.uncertain || cmd.dirs.iter().any(|d| !d.literal) {
            continue;
        }
        let mut add = |word: &Word, into: Vec<String>, moved: Vec<String>| {
            if let Some(text) = word.value().filter(|t| !t.is_empty() && *t != "-")
                && !text.starts_with("/dev/")
            {
                targets.push(Target {
                    dirs: cmd.dirs.clone(),
                    path: text.to_string(),
                    into,
                    moved,
                });
            }
        };
        for redirect in cmd.redirects.iter().filter(|r| r.writes()) {
            add(&redirect.target, Vec::new(), Vec::new());
        }
        for (word, into) in operands_written(cmd) {
            let moved = match cmd.program() {
                Some("mv") => match moved_sources(cmd.args()) {
                    Some(sources) => sources,
                    None => continue,
                },
                _ => Vec::new(),
            };
            add(&word, into, moved);
        }
    }
    targets
}

/// The operands of `cmd` that name what it creates or writes, each with the names that land
/// in it should it be an existing folder.
fn operands_written(cmd: &SimpleCommand) -> Vec<(Word, Vec<String>)> {
    let args = cmd.args();
    let alone = |words: Vec<Word>| words.into_iter().map(|w| (w, Vec::new())).collect();
    match cmd.program() {
        Some("cp" | "mv" | "install" | "ln") => {
            let read = operands(args, "tSgmoZ", &["target-directory", "suffix", "mode"]);
            if let Some(dir) = read.value("t", "target-directory") {
                return alone(read.operands.iter().map(|s| joined(&dir, s)).collect());
            }
            let [sources @ .., dest] = read.operands.as_slice() else {
                return Vec::new();
            };
            if sources.is_empty() {
                return Vec::new();
            }
            // Into an existing folder each source lands under its own name.
            let names = sources.iter().map(name_of).collect::<Option<Vec<_>>>();
            vec![(dest.clone(), names.unwrap_or_default())]
        }
        Some("mkdir" | "tee") => alone(operands(args, "m", &["mode", "context"]).operands),
        Some("touch") => alone(operands(args, "drt", &["date", "reference"]).operands),
        Some("truncate") => alone(operands(args, "sr", &["size", "reference"]).operands),
        Some("dd") => alone(
            args.iter()
                .filter_map(|w| {
                    Some(Word {
                        text: w.text.strip_prefix("of=")?.to_string(),
                        literal: w.literal,
                        temp: None,
                    })
                })
                .collect(),
        ),
        Some("unzip") => alone(
            operands(args, "dxP", &[])
                .value("d", "")
                .into_iter()
                .collect(),
        ),
        Some("git") => alone(clone_target(args).into_iter().collect()),
        _ => Vec::new(),
    }
}

/// What `mv` moves, when every source is known before it runs.
fn moved_sources(args: &[Word]) -> Option<Vec<String>> {
    let read = operands(args, "tS", &["target-directory", "suffix"]);
    let into_option = read.value("t", "target-directory").is_some();
    let mut sources = read.operands;
    if !into_option {
        sources.pop();
    }
    sources
        .iter()
        .map(|w| w.value().map(str::to_string))
        .collect()
}

/// `git clone <url> [<dir>]`: the folder it makes.
fn clone_target(args: &[Word]) -> Option<Word> {
    let read = crate::syntax::git::read(args);
    if read.subcommand()?.text != "clone" {
        return None;
    }
    let read = operands(
        read.rest(),
        "bocuj",
        &[
            "branch",
            "origin",
            "config",
            "upload-pack",
            "jobs",
            "depth",
            "reference",
            "reference-if-able",
            "separate-git-dir",
            "template",
            "shallow-since",
            "shallow-exclude",
            "server-option",
            "filter",
            "bundle-uri",
            "ref-format",
        ],
    );
    match read.operands.as_slice() {
        [_, dir, ..] => Some(dir.clone()),
        [url] => {
            let url = url.value()?.trim_end_matches('/');
            let name = url.rsplit(['/', ':']).next()?;
            let name = name.strip_suffix(".git").unwrap_or(name);
            (!name.is_empty()).then(|| Word {
                text: name.to_string(),
                literal: true,
                temp: None,
            })
        }
        [] => None,
    }
}

/// `source`'s last component under `dir`.
fn joined(dir: &Word, source: &Word) -> Word {
    let name = name_of(source).unwrap_or_default();
    Word {
        text: format!("{}/{name}", dir.text.trim_end_matches('/')),
        literal: dir.literal && source.literal && !name.is_empty(),
        temp: None,
    }
}

/// The name `source` keeps when copied or moved into a folder; `None` when not literal.
fn name_of(source: &Word) -> Option<String> {
    let name = Path::new(source.value()?.trim_end_matches('/')).file_name()?;
    Some(name.to_string_lossy().into_owned())
}

/// Operands and valued options, getopt-style: `short` letters and `long` names take a value.
struct Read {
    operands: Vec<Word>,
    values: Vec<(String, Word)>,
}

impl Read {
    fn value(&self, short: &str, long: &str) -> Option<Word> {
        self.values
            .iter()
            .rev()
            .find(|(name, _)| name == short || name == long)
            .map(|(_, w)| w.clone())
    }
}

fn operands(args: &[Word], short: &str, long: &[&str]) -> Read {
    let mut read = Read {
        operands: Vec::new(),
        values: Vec::new(),
    };
    let mut words = args.iter();
    let mut options = true;
    while let Some(word) = words.next() {
        let text = word.text.as_str();
        if !options || text == "-" || !text.starts_with('-') {
            read.operands.push(word.clone());
        } else if text == "--" {
            options = false;
        } else if let Some(name) = text.strip_prefix("--") {
            let (name, value) = match name.split_once('=') {
                Some((name, value)) => (name, Some(value)),
                None => (name, None),
            };
            if long.contains(&name) {
                let value = match value {
                    Some(v) => Some(Word {
                        text: v.to_string(),
                        literal: word.literal,
                        temp: None,
                    }),
                    None => words.next().cloned(),
                };
                read.values.extend(value.map(|v| (name.to_string(), v)));
            }
        } else {
            // `-pm 755`, `-d/out`: the first letter that takes a value takes the rest.
            let letters = text.get(1..).unwrap_or_default();
            if let Some((at, letter)) = letters.char_indices().find(|(_, c)| short.contains(*c)) {
                let rest = letters.get(at + letter.len_utf8()..).unwrap_or_default();
                let value = if rest.is_empty() {
                    words.next().cloned()
                } else {
                    Some(Word {
                        text: rest.to_string(),
                        literal: word.literal,
                        temp: None,
                    })
                };
                read.values.extend(value.map(|v| (letter.to_string(), v)));
            }
        }
    }
    read
}

/// The paths `target` writes, absolute from `start` and its `cd`s with `.` and `..` folded:
/// its own, or when that is an existing folder, the names landing in it. None when a `cd`
/// is `-` (the journal does not guess).
pub fn resolve(start: &Path, target: &Target, home: Option<&Path>) -> Vec<Written> {
    let mut dir = start.to_path_buf();
    for word in &target.dirs {
        match word.value().and_then(|w| step(&dir, w, home)) {
            Some(next) => dir = next,
            None => return Vec::new(),
        }
    }
    let Some(path) = step(&dir, &target.path, home).map(|p| normal(&p)) else {
        return Vec::new();
    };
    let moved: Option<Vec<PathBuf>> = target
        .moved
        .iter()
        .map(|m| step(&dir, m, home).map(|p| normal(&p)))
        .collect();
    let Some(moved) = moved else {
        return Vec::new();
    };
    if !target.into.is_empty() && path.is_dir() {
        return target
            .into
            .iter()
            .map(|name| Written {
                path: path.join(name),
                moved: moved.clone(),
            })
            .collect();
    }
    vec![Written { path, moved }]
}

fn step(dir: &Path, text: &str, home: Option<&Path>) -> Option<PathBuf> {
    Some(match text {
        "-" => return None,
        "~" => home?.to_path_buf(),
        t if t.starts_with("~/") => home?.join(t.get(2..)?),
        t => dir.join(t),
    })
}

/// `path` with `.` and `..` folded away lexically.
pub fn normal(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(line: &str) -> Vec<String> {
        of(&crate::shell::analyze(line).commands)
            .into_iter()
            .map(|t| t.path)
            .collect()
    }

    #[test]
    fn what_lines_create() {
        assert_eq!(paths("echo hi > a.txt 2>&1"), ["a.txt"]);
        assert_eq!(paths("cp -r src out"), ["out"]);
        assert!(paths("cp only-a-source").is_empty());
        assert_eq!(paths("mkdir -p a/b c"), ["a/b", "c"]);
        assert_eq!(paths("touch -d yesterday x"), ["x"]);
        assert_eq!(paths("ls | tee -a log.txt"), ["log.txt"]);
        assert_eq!(paths("unzip -q pkg.zip -d vendor"), ["vendor"]);
        assert_eq!(paths("git clone -b main https://h/o/repo.git"), ["repo"]);
        assert_eq!(paths("git clone git@h:o/r.git there"), ["there"]);
        assert_eq!(paths("mv -t dest a b/c"), ["dest/a", "dest/c"]);
        assert_eq!(
            paths("python3 -c \"open('gen.py','w').write('x')\""),
            ["gen.py"]
        );
        assert!(paths("ls -la && git status && cat x > /dev/null").is_empty());
        assert!(paths("echo x > $OUT").is_empty());
    }

    #[test]
    fn targets_follow_the_cds() {
        let targets = of(&crate::shell::analyze("cd app && touch ../b").commands);
        let target = targets.first().unwrap();
        let written = resolve(Path::new("/w"), target, None);
        assert_eq!(
            written,
            [Written {
                path: PathBuf::from("/w/b"),
                moved: Vec::new()
            }]
        );
        let targets = of(&crate::shell::analyze("mv -f a b").commands);
        assert_eq!(targets.first().unwrap().moved, ["a"]);
        assert!(of(&crate::shell::analyze("mv $x b").commands).is_empty());
    }
}
