//! What a command line may create or write: output redirects (interpreter code's file writes
//! are lowered to those) and the files programs write by their arguments (`cp`/`mv`
//! destinations, `mkdir`, `tee`, `dd of=`, `curl -o`, `git clone`'s folder, ...), read once for
//! every asker by [`crate::syntax::writes`]. Only words known before the line runs count; the
//! rest is never the agents' own.

use std::path::{Component, Path, PathBuf};

use crate::shell::{SimpleCommand, Word};
use crate::syntax::writes;

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

/// Every target of `commands` whose words are all known before the line runs: their output
/// redirects, and what each program writes by its arguments as [`writes`] reads it.
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
        let Some(program) = cmd.program() else {
            continue;
        };
        for write in writes::of(program, cmd.args()).writes {
            // What `mv` brings is whoever's it was: known only when its source is.
            let moved = match (&write.from, write.moves) {
                (Some(from), true) => match from.value() {
                    Some(from) => vec![from.to_string()],
                    None => continue,
                },
                _ => Vec::new(),
            };
            let into = write.into.as_ref().and_then(writes::name_of);
            match into {
                // `-t DIR`: the file is DIR/name, whether DIR is there yet or not.
                Some(name) if write.inside => {
                    let path = Word {
                        text: format!("{}/{name}", write.path.text.trim_end_matches('/')),
                        ..write.path
                    };
                    add(&path, Vec::new(), moved);
                }
                _ => add(&write.path, into.into_iter().collect(), moved),
            }
        }
    }
    targets
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
