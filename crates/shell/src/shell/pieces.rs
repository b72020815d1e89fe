//! Where a long script may be cut into pieces that parse on their own.
//!
//! tree-sitter takes longer to read a 500-line script than the walker takes to follow it,
//! and it reads one text on one thread. Cut at lines where the script is at its top level,
//! the pieces parse on a second thread while the walker follows the ones already read, so
//! the two costs overlap instead of adding up.
//!
//! The cuts chosen here are guesses, and need not be more: the walker follows a piece only
//! when it parsed without an error, which proves the piece ended at the top level (an
//! unterminated quote, heredoc, compound command, function or pipeline is an error or a
//! missing node in tree-sitter-bash). When one did not, the rest of the text is parsed as
//! one, as if never cut. Every line a piece holds is then read as the whole text would read
//! it, since the shell starts each top-level line afresh.

use std::ops::Range;
use std::sync::mpsc::{self, Receiver};
use std::sync::{Mutex, PoisonError};

use tree_sitter::Tree;

use crate::lang::{self, Deadline, Grammar};

/// Texts shorter than this are parsed whole: starting a thread costs more than it saves.
pub(super) const LONG_TEXT: usize = 4 << 10;

/// The walker parses the first piece itself while the second thread starts: a sixth of the
/// text, and no less than `FIRST`, so that the thread is ahead of the walk from then on
/// (tree-sitter-bash reads a line in about twice the time the walker takes to follow it).
/// The pieces after it are `PIECE` long: small enough that the walker, when it parses one
/// rather than wait, does not fall behind; large enough that handing one over costs little.
const FIRST: usize = 1 << 10;
const PIECE: usize = 2 << 10;

/// The byte ranges of the pieces `text` is cut into, in order, covering it whole. A text
/// with no line to cut at is one piece.
pub(super) fn pieces(text: &str) -> Vec<Range<usize>> {
    let mut starts = vec![0];
    let mut target = (text.len() / 6).max(FIRST);
    let mut heredocs = Heredocs::default();
    let mut previous = "";
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let here = at;
        at += line.len();
        if heredocs.in_body(line) {
            previous = line;
            continue;
        }
        if here >= target
            && text.len() - here >= PIECE / 2
            && heredocs.none_open()
            && ends_a_command(previous)
            && starts_a_command(line)
        {
            starts.push(here);
            target = here + PIECE;
        }
        heredocs.opened_by(line);
        previous = line;
    }
    let mut ends: Vec<usize> = starts.iter().skip(1).copied().collect();
    ends.push(text.len());
    starts.into_iter().zip(ends).map(|(s, e)| s..e).collect()
}

/// Runs `walk` while a second thread parses `texts`, the pieces of one script, from the
/// first on. The walker parses the first piece itself, and whenever the piece it needs
/// next is still being parsed, it parses the last piece no one has started: the thread
/// keeps to the front, which the walker needs first, and neither waits for long.
pub(super) fn parsed_alongside<R>(
    texts: &[&str],
    deadline: Deadline,
    walk: impl FnOnce(&mut Alongside) -> R,
) -> R {
    // The pieces no one has started.
    let unclaimed = Mutex::new(1..texts.len());
    std::thread::scope(|threads| {
        let (sender, results) = mpsc::channel();
        let unclaimed = &unclaimed;
        // Without a second thread the walker parses every piece itself, in order.
        let _ = std::thread::Builder::new().spawn_scoped(threads, move || {
            while let Some(i) = claim(unclaimed, |left| left.next()) {
                let Some(text) = texts.get(i) else {
                    break;
                };
                // The walker stops listening when it is done, or parses the rest itself.
                if sender
                    .send((i, lang::parse(Grammar::Bash, text, deadline)))
                    .is_err()
                {
                    break;
                }
            }
        });
        let mut alongside = Alongside {
            texts,
            unclaimed,
            results,
            ready: texts.iter().map(|_| None).collect(),
            deadline,
        };
        if let (Some(first), Some(slot)) = (texts.first(), alongside.ready.first_mut()) {
            *slot = Some(lang::parse(Grammar::Bash, first, deadline));
        }
        let out = walk(&mut alongside);
        alongside.stop();
        out
    })
}

/// Takes a piece from `unclaimed` by `take`.
fn claim(
    unclaimed: &Mutex<Range<usize>>,
    take: impl FnOnce(&mut Range<usize>) -> Option<usize>,
) -> Option<usize> {
    // A thread that panicked holding the lock left a range still worth reading.
    let mut left = unclaimed.lock().unwrap_or_else(PoisonError::into_inner);
    take(&mut left)
}

/// The walker's side of [`parsed_alongside`].
pub(super) struct Alongside<'a> {
    texts: &'a [&'a str],
    unclaimed: &'a Mutex<Range<usize>>,
    results: Receiver<(usize, Option<Tree>)>,
    /// Trees parsed before they were asked for.
    ready: Vec<Option<Option<Tree>>>,
    deadline: Deadline,
}

impl Alongside<'_> {
    /// The tree of piece `i`, asked for in order; `None` when the deadline passed first.
    pub(super) fn tree(&mut self, i: usize) -> Option<Tree> {
        loop {
            while let Ok((at, tree)) = self.results.try_recv() {
                *self.ready.get_mut(at)? = Some(tree);
            }
            if let Some(tree) = self.ready.get_mut(i)?.take() {
                return tree;
            }
            // `i` itself when the thread has not come to it, else the last piece left.
            let mine = claim(self.unclaimed, |left| {
                if left.start == i {
                    left.next()
                } else {
                    left.next_back()
                }
            });
            match mine {
                Some(at) => {
                    let text = self.texts.get(at)?;
                    *self.ready.get_mut(at)? =
                        Some(lang::parse(Grammar::Bash, text, self.deadline));
                }
                None => {
                    let (at, tree) = self.results.recv().ok()?;
                    *self.ready.get_mut(at)? = Some(tree);
                }
            }
        }
    }

    /// No piece is started any more: the walker is done, or reads the rest as one. A parse
    /// under way ends, unread, at its next send.
    pub(super) fn stop(&self) {
        claim(self.unclaimed, |left| {
            *left = 0..0;
            None
        });
    }
}

/// A line that starts a command of its own at the top level, as far as its first word
/// shows: written from the first column and not a word that closes or continues a compound
/// command.
fn starts_a_command(line: &str) -> bool {
    if !line.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        return false;
    }
    let word = line
        .split(|c: char| c.is_whitespace() || matches!(c, ';' | '&' | '|' | '(' | ')' | '<' | '>'))
        .next()
        .unwrap_or("");
    !matches!(
        word,
        "then" | "else" | "elif" | "fi" | "do" | "done" | "esac" | "in"
    )
}

/// A line after which the shell does not read on for the same command: not continued
/// with `\`, not ending in an operator, an opening bracket or a keyword that wants more.
fn ends_a_command(line: &str) -> bool {
    let line = line.trim_end();
    let last_word = line.rsplit(char::is_whitespace).next().unwrap_or("");
    !line.ends_with(['\\', '|', '(', '{', '[', ','])
        && !line.ends_with("&&")
        && !matches!(
            last_word,
            "then" | "else" | "do" | "in" | "!" | "if" | "while"
        )
}

/// The heredocs opened and not yet closed, by the words that end them.
#[derive(Default)]
struct Heredocs {
    /// Each delimiter, and whether it may stand indented (`<<-`).
    open: Vec<(String, bool)>,
}

impl Heredocs {
    fn none_open(&self) -> bool {
        self.open.is_empty()
    }

    /// Whether `line` is the body or the end of the first open heredoc (the end closes it).
    fn in_body(&mut self, line: &str) -> bool {
        let Some((word, dash)) = self.open.first() else {
            return false;
        };
        let line = line.trim_end_matches(['\n', '\r']);
        let line = if *dash {
            line.trim_start_matches('\t')
        } else {
            line
        };
        if line == word {
            self.open.remove(0);
        }
        true
    }

    /// Notes the heredocs `line` opens: `<<WORD`, `<<-WORD`, `<< 'WORD'`, `<<"WORD"`. A
    /// `<<` that opens none (`$(( 1 << 2 ))`, in a comment) may be taken for one: the text
    /// is then cut less, never wrongly.
    fn opened_by(&mut self, line: &str) {
        let mut rest = line;
        while let Some(at) = rest.find("<<") {
            let before = &line[..line.len() - rest.len() + at];
            let operator = &rest[at..];
            // A here-string.
            if let Some(string) = operator.strip_prefix("<<<") {
                rest = string;
                continue;
            }
            let dash = operator.starts_with("<<-");
            let after = &operator[if dash { 3 } else { 2 }..];
            rest = after;
            // A shift inside `$(( ))` or `(( ))`.
            if before.matches("((").count() > before.matches("))").count() {
                continue;
            }
            let word = after
                .trim_start_matches([' ', '\t'])
                .trim_start_matches(['\'', '"', '\\']);
            let end = word
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(word.len());
            // A delimiter that is no plain word is kept as it is written: the body then runs
            // to the end of the text, and nothing after this line is cut.
            let word = if end == 0 { after } else { &word[..end] };
            self.open.push((word.to_string(), dash));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn script(lines: &[&str], times: usize) -> String {
        let mut text = String::new();
        for i in 0..times {
            for line in lines {
                text.push_str(&line.replace("{i}", &i.to_string()));
                text.push('\n');
            }
        }
        text
    }

    fn texts(text: &str) -> Vec<&str> {
        pieces(text).into_iter().map(|r| &text[r]).collect()
    }

    #[test]
    fn a_long_plain_script_is_cut_at_lines_that_start_commands() {
        let text = script(&["echo step {i}", "cargo build -p c{i}"], 300);
        let parts = texts(&text);
        assert!(parts.len() > 4, "{}", parts.len());
        assert_eq!(parts.concat(), text);
        assert!(parts.iter().all(|p| p.ends_with('\n')));
        assert!(
            parts
                .iter()
                .all(|p| p.starts_with("echo") || p.starts_with("cargo"))
        );
    }

    #[test]
    fn a_short_text_is_one_piece() {
        assert_eq!(pieces("rm -rf x\n"), vec![0..9]);
        assert_eq!(pieces(""), vec![0..0]);
    }

    #[test]
    fn no_cut_falls_inside_a_heredoc() {
        let body = script(&["rm -rf build{i}"], 400);
        let text = format!("cat > clean.sh <<'EOF'\n{body}EOF\necho done\n");
        assert_eq!(texts(&text), vec![text.as_str()]);
        let text = format!("cat <<-EOF\n{body}\tEOF\n{}", script(&["ls {i}"], 600));
        let parts = texts(&text);
        assert!(parts.len() > 1);
        assert!(parts[0].contains("\tEOF\n"), "{}", &parts[0][..40]);
    }

    #[test]
    fn no_cut_follows_a_line_the_command_goes_on_from() {
        for end in [
            "a |",
            "a &&",
            "a \\",
            "if true; then",
            "for f in *; do",
            "f() {",
        ] {
            assert!(!ends_a_command(end), "{end}");
        }
        for end in ["a", "a &", "fi", "done", "}"] {
            assert!(ends_a_command(end), "{end}");
        }
        for start in [
            "fi\n",
            "done\n",
            "  rm x\n",
            "}\n",
            "elif x; then\n",
            "# note\n",
        ] {
            assert!(!starts_a_command(start), "{start}");
        }
    }
}

/// Walking a long text in pieces must find what walking it whole finds, to the letter.
#[cfg(test)]
mod same_reading {
    use std::ops::Range;
    use std::path::Path;
    use std::time::Duration;

    use proptest::prelude::*;

    use super::super::parse::Walker;
    use crate::lang::Deadline;

    /// Lines and blocks of the kinds scripts hold, `{i}` made unique in each.
    const SNIPPETS: &[&str] = &[
        "echo step {i}",
        "cargo build -p c{i} --release",
        "git log --oneline -1 -- crates/c{i} >> changes.txt",
        "rm -rf build/{i}",
        "git reset --hard HEAD~{i}",
        "x{i}=$(pwd)/t{i}\nrm -rf \"$x{i}\"",
        "f{i}() {\n  rm -rf \"$1\"\n  git clean -fdx\n}\nf{i} dist{i}",
        "if [ -f a{i} ]; then\n  git clean -fdx\nelse\n  echo none\nfi",
        "for f in src/*.{i}; do\n  rm \"$f\"\ndone",
        "cat > gen{i}.sh <<'EOF'\nrm -rf /tmp/x{i}\ngit push --force\nEOF\nbash gen{i}.sh",
        "cat <<-EOF\n\tgit push --force origin b{i}\n\tEOF",
        "echo \"multi\nline {i}\" | tee log{i}",
        "trap 'rm -rf \"$T{i}\"' EXIT\nT{i}=$(mktemp -d)",
        "cargo build \\\n  --release -p c{i}",
        "case $1 in\n  a) rm -rf a{i} ;;\n  *) echo no ;;\nesac",
        "d=$(mktemp -d) && cd \"$d\" && rm -rf ./*",
        "cd sub{i}\nrm -rf ./out",
        "export OUT{i}=dist{i}\nrm -rf \"$OUT{i}\"",
        "echo $(( {i} << 2 ))",
        "sh -c 'rm -rf x{i}'",
        "git commit -m 'fix {i}: rm -rf is not run'",
        "while read l; do echo \"$l\"; done < list{i}",
        "pushd d{i} && rm -rf ./x && popd",
        "# a comment, isn't it {i}",
        "sleep 1 &",
        "a{i}=(one\ntwo {i})\nrm ${a{i}[@]}",
        "git stash drop stash@{{i}}",
        "find . -name '*.o{i}' -delete",
    ];

    fn script(picks: &[usize]) -> String {
        picks
            .iter()
            .enumerate()
            .map(|(i, &p)| SNIPPETS[p % SNIPPETS.len()].replace("{i}", &i.to_string()) + "\n")
            .collect()
    }

    fn reading(line: &str, dir: &Path, whole: bool) -> String {
        let deadline = Deadline::after(Duration::from_secs(120));
        let walker = Walker::new(deadline, Some(Some(dir.to_path_buf())), None);
        let walker = if whole { walker.unpieced() } else { walker };
        let mut analysis = walker.run(line);
        // Sets of ranges, asked only whether one holds a command: each piece with a job
        // sent to the background adds its own copy of the script's range.
        for ranges in [
            &mut analysis.together,
            &mut analysis.loops,
            &mut analysis.deferred,
        ] {
            ranges.sort_by_key(|r| (r.start, r.end));
            ranges.dedup();
        }
        format!("{analysis:#?}")
    }

    /// The script as a file the line runs, and as a heredoc fed to a shell.
    fn assert_same(text: &str) {
        let dir = tempfile::tempdir().expect("a temp dir");
        std::fs::write(dir.path().join("s.sh"), text).expect("write s.sh");
        for line in [
            "bash s.sh one two".to_string(),
            format!("sh <<'END_OF_SCRIPT'\n{text}END_OF_SCRIPT"),
        ] {
            let whole = reading(&line, dir.path(), true);
            let pieced = reading(&line, dir.path(), false);
            assert!(
                whole == pieced,
                "{line}\n--- whole:\n{whole}\n--- in pieces:\n{pieced}"
            );
        }
    }

    #[test]
    fn every_kind_of_snippet_in_turn() {
        let picks: Vec<usize> = (0..SNIPPETS.len() * 12).collect();
        let text = script(&picks);
        assert!(super::pieces(&text).len() > 3);
        assert_same(&text);
    }

    #[test]
    fn reasons_name_the_line_of_the_file() {
        let mut text: String = (0..600).map(|i| format!("echo {i}\n")).collect();
        text.push_str("cargo build \\\n  --release\ngit reset --hard\n");
        let dir = tempfile::tempdir().expect("a temp dir");
        std::fs::write(dir.path().join("s.sh"), &text).expect("write s.sh");
        let pieced = reading("bash s.sh", dir.path(), false);
        assert!(pieced.contains("s.sh:603"), "{pieced}");
        assert_eq!(pieced, reading("bash s.sh", dir.path(), true));
    }

    #[test]
    fn a_piece_that_does_not_end_a_command_is_read_with_the_rest() {
        // Lines a cut could fall before that continue an open quote, a function, a heredoc
        // with an unusual delimiter.
        let lines =
            |word: &str| -> String { (0..200).map(|i| format!("rm -rf {word}{i}\n")).collect() };
        let echoes: String = (0..300).map(|i| format!("echo {i}\n")).collect();
        let text = format!(
            "{echoes}echo \"\n{}\"\nf() {{\n{}}}\ncat <<\"E-1\"\n{}E-1\ngit clean -fdx\n",
            lines("a"),
            lines("b"),
            lines("c"),
        );
        // A cut falls inside the quote, so a piece ends with it open.
        let inside = |r: &Range<usize>| text[..r.start].matches('"').count() % 2 == 1;
        assert!(super::pieces(&text).iter().any(inside));
        assert_same(&text);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn random_scripts(picks in prop::collection::vec(0..SNIPPETS.len(), 150..400)) {
            assert_same(&script(&picks));
        }
    }
}
