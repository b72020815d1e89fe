//! Embedded languages: code handed to an interpreter (`python3 -c`, `node -e`, `ruby -e`,
//! `perl -e`, `php -r`, PowerShell, `cmd /c`), read beside the shell parser.
//!
//! Each language module finds the calls that delete files, run processes or write files and
//! lowers them into the shell's vocabulary: a deletion becomes the `rm` it amounts to, a
//! process call its shell text or argv, a file write a command with an output redirect. The
//! rules then judge them like any other command, so no rule has a copy per language. Code
//! that only prints, reads or mentions a command lowers to nothing.
//!
//! Grammars are created on first use: a command line with no interpreter pays nothing.

mod args;
mod cmd;
mod driver;
mod fresh;
mod invoke;
mod js;
mod perl;
mod php;
mod powershell;
mod python;
mod ruby;
mod tree;

use tree_sitter::Tree;

use crate::syntax::argv::{self, Style, Valued};
use crate::syntax::{Incomplete, Redirect, Word};

pub use args::ScriptArgs;
pub use invoke::{Code, code_of, language_of};
pub use tree::{Deadline, parses};
pub(crate) use tree::{Grammar, parse};

/// The languages read here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    Python,
    JavaScript,
    Ruby,
    Perl,
    Php,
    /// A `php` reading a file from stdin: code only inside `<?php ... ?>` tags.
    PhpTagged,
    PowerShell,
    Cmd,
}

impl Lang {
    /// Where a command was found, for reasons.
    pub fn describe(self) -> &'static str {
        match self {
            Lang::Python => "in Python code",
            Lang::JavaScript => "in JavaScript code",
            Lang::Ruby => "in Ruby code",
            Lang::Perl => "in Perl code",
            Lang::Php | Lang::PhpTagged => "in PHP code",
            Lang::PowerShell => "in a PowerShell command",
            Lang::Cmd => "in a `cmd` command",
        }
    }
}

/// What one call in the code amounts to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// A command to judge as it stands: the `rm -r` a `shutil.rmtree` amounts to, the argv
    /// of `subprocess.run([...])`, or a write carried as an output redirect.
    Command {
        argv: Vec<Word>,
        redirects: Vec<Redirect>,
        /// The call as written, for reasons.
        call: String,
    },
    /// Shell text the code hands to a shell (`os.system`, `execSync`, backticks).
    Shell { script: Word },
    /// Code of the same or another embedded language (`Invoke-Expression`, `cmd /c` in
    /// PowerShell).
    Code { lang: Lang, code: Word },
}

/// What a reader made of some code.
#[derive(Debug, Default)]
pub struct Lowered {
    /// Every effect found, in source order.
    pub effects: Vec<Effect>,
    /// Why reading stopped, when it did before the end (the deadline passed, the code is too
    /// large): nothing after that point was read, in the code or in the line around it.
    pub incomplete: Option<Incomplete>,
    /// Parts of the code the reader could not follow, as written (from a quote that never
    /// ends, the command inside cmd's `for`): what is around them was read.
    pub unread: Vec<String>,
}

impl Lowered {
    fn whole(effects: Vec<Effect>) -> Lowered {
        Lowered {
            effects,
            ..Lowered::default()
        }
    }

    fn stopped(why: Incomplete) -> Lowered {
        Lowered {
            incomplete: Some(why),
            ..Lowered::default()
        }
    }
}

/// Every effect of `code` in `lang`, read before `deadline`, with `args` as the arguments of
/// the script file it is. Never panics; unparsable code gives what could be read of it.
pub fn effects(lang: Lang, code: &str, args: ScriptArgs, deadline: Deadline) -> Lowered {
    if code.len() > crate::syntax::MAX_INPUT_BYTES {
        return Lowered::stopped(Incomplete::TooLarge);
    }
    if deadline.passed() {
        return Lowered::stopped(Incomplete::Timeout);
    }
    let parsed = |grammar, lower: fn(&Tree, &str, ScriptArgs) -> Vec<Effect>| match tree::parse(
        grammar, code, deadline,
    ) {
        Some(tree) => Lowered::whole(lower(&tree, code, args)),
        None => Lowered::stopped(Incomplete::Timeout),
    };
    match lang {
        Lang::Python => parsed(Grammar::Python, python::effects),
        Lang::JavaScript => parsed(Grammar::JavaScript, js::effects),
        Lang::Ruby => parsed(Grammar::Ruby, ruby::effects),
        Lang::Php => parsed(Grammar::Php, php::effects),
        Lang::PhpTagged => parsed(Grammar::PhpTagged, php::effects),
        Lang::PowerShell => parsed(Grammar::PowerShell, powershell::effects),
        Lang::Perl => perl::effects(code, args),
        Lang::Cmd => cmd::effects(code, args),
    }
}

/// Longest source text kept in a non-literal word.
const MAX_SOURCE_TEXT: usize = 120;

/// A value known only at run time, shown by its source.
fn unknown(source: &str) -> Word {
    let text = if source.len() <= MAX_SOURCE_TEXT {
        source.to_string()
    } else {
        let cut = (0..=MAX_SOURCE_TEXT)
            .rev()
            .find(|&i| source.is_char_boundary(i))
            .unwrap_or(0);
        format!("{}…", &source[..cut])
    };
    Word {
        text,
        literal: false,
        temp: None,
    }
}

/// A call's text for a reason, on one line and not too long.
fn call_text(source: &str) -> String {
    let line: String = source.split_whitespace().collect::<Vec<_>>().join(" ");
    unknown(&line).text
}

/// Deleting `targets` as `rm` would, recursive or not.
fn remove(call: &str, targets: Vec<Word>, recursive: bool) -> Effect {
    let mut argv = vec![Word::literal("rm")];
    if recursive {
        argv.push(Word::literal("-r"));
    }
    // A target rm would read as an option goes after `--`.
    if argv::read(&targets, Style::Getopt, &Valued(&[]))
        .operands
        .len()
        != targets.len()
    {
        argv.push(Word::literal("--"));
    }
    argv.extend(targets);
    Effect::Command {
        argv,
        redirects: Vec::new(),
        call: call_text(call),
    }
}

/// Making a directory (and its parents), as `mkdir -p` would: what the code then puts there
/// is its own, which a later delete of the directory does not lose.
fn make_dir(call: &str, target: Word) -> Effect {
    Effect::Command {
        argv: vec![Word::literal("mkdir"), Word::literal("-p"), target],
        redirects: Vec::new(),
        call: call_text(call),
    }
}

/// Removing an (empty) directory, as `rmdir` would.
fn remove_dir(call: &str, target: Word) -> Effect {
    Effect::Command {
        argv: vec![Word::literal("rmdir"), target],
        redirects: Vec::new(),
        call: call_text(call),
    }
}

/// Moving `from` to `to`, as `mv` would.
fn rename(call: &str, from: Word, to: Word) -> Effect {
    Effect::Command {
        argv: vec![Word::literal("mv"), from, to],
        redirects: Vec::new(),
        call: call_text(call),
    }
}

/// Whether `name` is what a file write read from code is lowered to (the command
/// `write` and `append` make): it only writes the bytes the code gives it.
pub fn is_file_write(name: &str) -> bool {
    const CALLS: &[&str] = &[
        "open",
        "write_text",
        "write_bytes",
        "writefilesync",
        "writefile",
        "appendfilesync",
        "appendfile",
        "createwritestream",
        "writetextfile",
        "writetextfilesync",
        "write",
        "binwrite",
        "new",
        "file_put_contents",
        "fopen",
        "set-content",
        "sc",
        "add-content",
        "ac",
        "out-file",
        "new-item",
        "ni",
    ];
    CALLS.contains(&name.to_ascii_lowercase().as_str())
}

/// Writing `target` from its start: a command named after the call, its output redirected
/// there.
fn write(call: &str, name: &str, target: Word) -> Effect {
    written(call, name, target, ">")
}

/// Adding to the end of `target` (`>>`): what it held stays.
fn append(call: &str, name: &str, target: Word) -> Effect {
    written(call, name, target, ">>")
}

/// Writing `target` as `mode` (`w`, `a`, `r+`, ...) opens it: a mode that truncates, or one
/// not known, writes over it; any other adds to it.
fn write_as(call: &str, name: &str, target: Word, mode: &Word) -> Effect {
    if !mode.literal || mode.text.contains('w') {
        write(call, name, target)
    } else {
        append(call, name, target)
    }
}

fn written(call: &str, name: &str, target: Word, op: &str) -> Effect {
    Effect::Command {
        argv: vec![Word::literal(name)],
        redirects: vec![Redirect {
            op: op.into(),
            target,
        }],
        call: call_text(call),
    }
}

/// Running a program with these arguments, no shell in between.
fn run(call: &str, argv: Vec<Word>) -> Option<Effect> {
    (!argv.is_empty()).then(|| Effect::Command {
        argv,
        redirects: Vec::new(),
        call: call_text(call),
    })
}

/// An HTTP request sent from code (`requests.delete(url)`, `fetch(url, {method: 'DELETE'})`,
/// `Invoke-RestMethod -Method Delete`), as the `curl` line that sends it: the packs judge a
/// service's API by the request, whichever client sends it. A read (`GET`, `HEAD`) changes
/// nothing and lowers to nothing.
fn request(call: &str, method: &str, url: Word, body: Option<Word>) -> Option<Effect> {
    let method = method.to_ascii_uppercase();
    if matches!(method.as_str(), "GET" | "HEAD" | "OPTIONS") {
        return None;
    }
    let mut argv = vec![
        Word::literal("curl"),
        Word::literal("-X"),
        Word::literal(&method),
        url,
    ];
    if let Some(body) = body {
        argv.push(Word::literal("--data-raw"));
        argv.push(body);
    }
    run(call, argv)
}

/// Shell text handed to a shell. A string is read as the script it is, even when only part
/// of it is known (`f'rm -rf {d}'`); a value of which nothing is known (`os.system(cmd)`) is
/// a command whose program is known only at run time, not a program named after the variable.
fn shell(call: &str, script: Word, known: bool) -> Effect {
    if known {
        Effect::Shell { script }
    } else {
        dynamic(call, script)
    }
}

/// Code of `lang` run from a value (`exec(src)`, `eval(code)`); as with [`shell`], a value of
/// which nothing is known is a command known only at run time.
fn code(lang: Lang, call: &str, code: Word, known: bool) -> Effect {
    if known {
        Effect::Code { lang, code }
    } else {
        dynamic(call, code)
    }
}

/// A command whose program is `value`, which is not literal.
fn dynamic(call: &str, value: Word) -> Effect {
    Effect::Command {
        argv: vec![Word {
            literal: false,
            ..value
        }],
        redirects: Vec::new(),
        call: call_text(call),
    }
}

/// Whether an `open`-style mode string writes (`w`, `a`, `x`, `+`, PHP's `c`).
fn mode_writes(mode: &Word) -> bool {
    !mode.literal || mode.text.contains(['w', 'a', 'x', '+', 'c'])
}

/// Each effect of `code` in `lang` on one line, for tests: a command's words and redirects,
/// `sh` and shell text, or `code` and code. The code must be read whole.
#[cfg(test)]
fn shown(lang: Lang, code: &str) -> Vec<String> {
    shown_with(lang, code, &[])
}

/// As [`shown`], for the code of a script file run with the words `args`; an argument
/// written `$NAME` is one the line knows only at run time.
#[cfg(test)]
fn shown_with(lang: Lang, code: &str, args: &[&str]) -> Vec<String> {
    let words: Vec<Word> = args
        .iter()
        .map(|a| match a.strip_prefix('$') {
            Some(_) => unknown(a),
            None => Word::literal(*a),
        })
        .collect();
    let lowered = effects(
        lang,
        code,
        ScriptArgs::new(&words),
        Deadline::after(std::time::Duration::from_secs(60)),
    );
    assert_eq!(lowered.incomplete, None, "{code}");
    lowered
        .effects
        .into_iter()
        .map(|e| match e {
            Effect::Command {
                argv, redirects, ..
            } => {
                let mut words: Vec<String> = argv.into_iter().map(|w| w.text).collect();
                words.extend(
                    redirects
                        .iter()
                        .map(|r| format!("{} {}", r.op, r.target.text)),
                );
                words.join(" ")
            }
            Effect::Shell { script } => format!("sh {}", script.text),
            Effect::Code { code, .. } => format!("code {}", code.text),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(effect: &Effect) -> Vec<String> {
        match effect {
            Effect::Command { argv, .. } => argv.iter().map(|w| w.text.clone()).collect(),
            Effect::Shell { script } => vec![format!("sh: {}", script.text)],
            Effect::Code { code, .. } => vec![format!("code: {}", code.text)],
        }
    }

    #[test]
    fn code_read_past_the_deadline_or_too_large_says_so() {
        let passed = Deadline::at(std::time::Instant::now());
        let later = Deadline::after(std::time::Duration::from_secs(60));
        let huge = "x".repeat(crate::syntax::MAX_INPUT_BYTES + 1);
        for lang in [
            Lang::Python,
            Lang::JavaScript,
            Lang::Ruby,
            Lang::Perl,
            Lang::Php,
            Lang::PhpTagged,
            Lang::PowerShell,
            Lang::Cmd,
        ] {
            let late = effects(lang, "rm -rf build", ScriptArgs::NONE, passed);
            assert_eq!(late.incomplete, Some(Incomplete::Timeout), "{lang:?}");
            assert!(late.effects.is_empty(), "{lang:?}");
            let large = effects(lang, &huge, ScriptArgs::NONE, later);
            assert_eq!(large.incomplete, Some(Incomplete::TooLarge), "{lang:?}");
        }
    }

    #[test]
    fn parts_a_scanner_cannot_follow_are_kept_as_written() {
        let later = Deadline::after(std::time::Duration::from_secs(60));
        let perl = effects(
            Lang::Perl,
            "unlink 'a'; print \"never ends; unlink $b",
            ScriptArgs::NONE,
            later,
        );
        assert_eq!(argv(&perl.effects[0]), ["rm", "a"]);
        assert_eq!(perl.unread, ["\"never ends; unlink $b"]);
        assert_eq!(perl.incomplete, None);
        let cmd = effects(
            Lang::Cmd,
            "del a.txt & for /d %d in (build*) do rd /s /q %d & IF exist x del x",
            ScriptArgs::NONE,
            later,
        );
        assert_eq!(argv(&cmd.effects[0]), ["rm", "a.txt"]);
        assert_eq!(
            cmd.unread,
            ["for /d %d in (build*) do rd /s /q %d", "IF exist x del x"]
        );
        for whole in ["print -s $f; unlink $f", "my $x = 'a'; s/a/b/;"] {
            assert!(
                effects(Lang::Perl, whole, ScriptArgs::NONE, later)
                    .unread
                    .is_empty(),
                "{whole}"
            );
        }
    }

    #[test]
    fn removal_keeps_targets_and_guards_dashes() {
        let e = remove("x", vec![Word::literal("-a"), Word::literal("b")], true);
        assert_eq!(argv(&e), ["rm", "-r", "--", "-a", "b"]);
        let e = remove("x", vec![Word::literal("b")], false);
        assert_eq!(argv(&e), ["rm", "b"]);
    }

    #[test]
    fn long_sources_are_cut_on_a_char_boundary() {
        let long = "é".repeat(200);
        let word = unknown(&long);
        assert!(!word.literal);
        assert!(word.text.ends_with('…'));
        assert!(word.text.len() <= MAX_SOURCE_TEXT + '…'.len_utf8());
    }

    #[test]
    fn text_known_in_no_part_is_a_program_named_at_run_time() {
        let dynamic = shell("os.system(cmd)", unknown("cmd"), false);
        assert!(
            matches!(&dynamic, Effect::Command { argv, .. } if argv.len() == 1 && !argv[0].literal),
            "{dynamic:?}"
        );
        let script = shell("os.system(f'rm {d}')", unknown("rm {d}"), true);
        assert_eq!(argv(&script), ["sh: rm {d}"]);
        let code = code(Lang::Python, "exec(src)", unknown("src"), false);
        assert!(matches!(code, Effect::Command { .. }), "{code:?}");
    }

    #[test]
    fn write_modes() {
        for (mode, writes) in [("w", true), ("a+", true), ("r", false), ("rb", false)] {
            assert_eq!(mode_writes(&Word::literal(mode)), writes, "{mode}");
        }
        assert!(mode_writes(&unknown("m")));
    }
}
