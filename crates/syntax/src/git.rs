//! git's own options before its subcommand, read as git reads them: the one reader the shell
//! walker, the rules and the context share, so they cannot disagree about which word is the
//! subcommand or which repository it acts on.

use super::Word;

/// Global options that take a value: in the next word, or after `=`.
const TAKES_VALUE: &[&str] = &[
    "-C",
    "-c",
    "--git-dir",
    "--work-tree",
    "--namespace",
    "--config-env",
    "--super-prefix",
    "--attr-source",
    "--shallow-file",
];

/// Global options after which git runs no subcommand: it prints something and exits
/// (`--exec-path` alone prints; `--exec-path=DIR` sets it and goes on). `--version` and
/// `--help` (`-v`, `-h`) become `git version` and `git help`, which only print.
const NO_SUBCOMMAND: &[&str] = &[
    "--version",
    "-v",
    "--help",
    "-h",
    "--html-path",
    "--man-path",
    "--info-path",
    "--exec-path",
];

/// One global option as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Global {
    /// Index of its first word among the words read.
    pub at: usize,
    /// Its name: `-C`, `-c`, `--git-dir`, ... (an option git does not know, as written).
    pub name: String,
    /// Its value, from `--name=value` or from the next word.
    pub value: Option<Word>,
}

/// The words after `git`, split where git splits them.
#[derive(Debug, Clone)]
pub struct GitArgs<'a> {
    words: &'a [Word],
    /// The global options, in order.
    pub globals: Vec<Global>,
    /// Index of the subcommand; `None` when none runs (`git --version`, `git -C dir`).
    pub sub: Option<usize>,
}

/// Reads `words` (git's arguments, without `git` itself).
pub fn read(words: &[Word]) -> GitArgs<'_> {
    let mut globals = Vec::new();
    let mut i = 0;
    let sub = loop {
        let Some(word) = words.get(i) else {
            break None;
        };
        let text = word.text.as_str();
        if !text.starts_with('-') {
            break Some(i);
        }
        if NO_SUBCOMMAND.contains(&text) || text.starts_with("--list-cmds") {
            break None;
        }
        let (name, inline) = match text.split_once('=') {
            Some((name, value)) if name.starts_with("--") => (name, Some(value)),
            _ => (text, None),
        };
        let at = i;
        let value = match inline {
            Some(value) => Some(Word {
                text: value.to_string(),
                literal: word.literal,
                temp: None,
            }),
            None if TAKES_VALUE.contains(&name) => {
                i += 1;
                words.get(i).cloned()
            }
            None => None,
        };
        globals.push(Global {
            at,
            name: name.to_string(),
            value,
        });
        i += 1;
    };
    GitArgs {
        words,
        globals,
        sub,
    }
}

impl<'a> GitArgs<'a> {
    /// The global options' words as written, values included.
    pub fn prefix(&self) -> &'a [Word] {
        self.words
            .get(..self.sub.unwrap_or(self.words.len()))
            .unwrap_or_default()
    }

    /// The subcommand's word.
    pub fn subcommand(&self) -> Option<&'a Word> {
        self.sub.and_then(|at| self.words.get(at))
    }

    /// The words after the subcommand.
    pub fn rest(&self) -> &'a [Word] {
        self.sub
            .and_then(|at| self.words.get(at + 1..))
            .unwrap_or_default()
    }

    /// The values of the options named `name`, in order.
    pub fn values<'s>(&'s self, name: &'s str) -> impl DoubleEndedIterator<Item = &'s Word> {
        self.globals
            .iter()
            .filter(move |g| g.name == name)
            .filter_map(|g| g.value.as_ref())
    }

    /// The directories `-C` moves to, in order.
    pub fn dirs(&self) -> impl DoubleEndedIterator<Item = &Word> {
        self.values("-C")
    }

    /// The `-c` settings as written (`key=value`, or `key` alone for true), in order.
    pub fn settings(&self) -> impl DoubleEndedIterator<Item = &Word> {
        self.values("-c")
    }

    /// The repository `--git-dir` names (the last one given).
    pub fn git_dir(&self) -> Option<&Word> {
        self.values("--git-dir").next_back()
    }

    /// The work tree `--work-tree` names (the last one given).
    pub fn work_tree(&self) -> Option<&Word> {
        self.values("--work-tree").next_back()
    }
}

#[cfg(test)]
mod tests {
    use super::{Word, read};

    fn words(line: &str) -> Vec<Word> {
        line.split_whitespace().map(Word::literal).collect()
    }

    fn sub(line: &str) -> Option<String> {
        let w = words(line);
        read(&w).subcommand().map(|w| w.text.clone())
    }

    #[test]
    fn the_subcommand_follows_the_global_options() {
        for (line, expected) in [
            ("reset --hard", Some("reset")),
            (
                "-C sub --no-pager -c a.b=c --git-dir=.g reset",
                Some("reset"),
            ),
            ("--git-dir .g --work-tree wt clean -f", Some("clean")),
            ("--config-env a.b=ENV clean", Some("clean")),
            ("--config-env=a.b=ENV clean", Some("clean")),
            ("--super-prefix x/ clean", Some("clean")),
            ("--attr-source HEAD reset", Some("reset")),
            ("--shallow-file f reset", Some("reset")),
            ("--namespace=n -p --bare --literal-pathspecs gc", Some("gc")),
            ("--exec-path=/x reset", Some("reset")),
            ("--version reset --hard", None),
            ("-v reset", None),
            ("--help reset", None),
            ("-h", None),
            ("--exec-path", None),
            ("--list-cmds=main reset --hard", None),
            ("--list-cmds main", None),
            ("--html-path", None),
            ("-C sub", None),
            ("", None),
        ] {
            assert_eq!(sub(line).as_deref(), expected, "{line}");
        }
    }

    #[test]
    fn globals_keep_their_values() {
        let w = words("-C a -C b -c x.y=1 -c z --git-dir=.g --work-tree w --no-pager status -s");
        let git = read(&w);
        let texts = |it: &mut dyn Iterator<Item = &Word>| -> Vec<String> {
            it.map(|w| w.text.clone()).collect()
        };
        assert_eq!(texts(&mut git.dirs()), ["a", "b"]);
        assert_eq!(texts(&mut git.settings()), ["x.y=1", "z"]);
        assert_eq!(git.git_dir().map(|w| w.text.as_str()), Some(".g"));
        assert_eq!(git.work_tree().map(|w| w.text.as_str()), Some("w"));
        assert_eq!(git.prefix().len(), 12);
        assert_eq!(git.rest(), &w[13..]);
        assert_eq!(git.globals[2].at, 4);
        assert_eq!(
            git.globals.last().map(|g| g.name.as_str()),
            Some("--no-pager")
        );
    }
}
