//! Seeing through commands that run other commands.
//!
//! Wrappers (`sudo -u root`, `env -i X=1`, `timeout 10`, `nice -n 5`, ...) are peeled here,
//! once, so rules only ever see the program that really runs. Commands that run a *script*
//! (`sh -c`, `eval`, `su -c`, `watch`, `env -S`, `flock -c`, `script -c`, a `trap` action)
//! hand it back to the walker to be parsed, and `xargs`, GNU `parallel` and `find -exec`
//! yield the command they run.
//!
//! ```text
//! wrappers   sudo, nice, timeout, ... : options, then the command
//! runners    npx, bundle exec, uv run, ... : a project's program
//! env        env: assignments, -C, -S
//! shells     sh -c SCRIPT, bash file.sh, a shell reading stdin
//! scripts    watch, su -c, flock, runuser, script, trap, at
//! xargs      xargs: its command, fed what it reads
//! parallel   GNU parallel: its command, or each input a command line
//! find       find -exec, fd -x
//! git        aliases given on the line, configuration from the environment, submodule foreach
//! ```

mod env;
mod find;
mod git;
mod parallel;
mod runners;
mod scripts;
mod shells;
mod wrappers;
mod xargs;

use super::word::Word;
use super::{Elsewhere, SimpleCommand, Via};
use crate::motion::channels::{self, Sent};
use crate::syntax::argv::{self, Options, Style, Takes};
use env::env;
pub(in crate::shell) use env::env_program;
use find::{fd_execs, find_execs};
use git::git;
use parallel::parallel;
use runners::runner;
use scripts::{at, flock, runuser, script_command, su_script, trap_action, watch};
use shells::shell;
pub(in crate::shell) use shells::{is_shell, shell_options};
use wrappers::{peel, wrapper};
pub(in crate::shell) use xargs::echo_words;
use xargs::xargs;

/// What running one simple command amounts to.
pub(super) enum Run {
    /// Nothing runs (`command -v rm`, `sudo -l`, a bare `xargs` that only echoes).
    Nothing,
    /// This program runs, with these arguments.
    Command(SimpleCommand),
    /// `cmd` runs `script` as shell text. `literal` is false when the script was built from
    /// expansions and only its unexpanded text is known.
    Script {
        cmd: SimpleCommand,
        script: String,
        via: Via,
        literal: bool,
    },
    /// `cmd` runs the shell script in `file` (`bash fix.sh`, `source env.sh`, `./fix.sh`).
    ScriptFile { cmd: SimpleCommand, file: Word },
    /// A shell with no script argument (or `at`): it runs whatever its stdin holds.
    ShellReadingStdin { cmd: SimpleCommand, via: Via },
    /// An interpreter (`python3 -c`, `node -e`, `pwsh -Command`, `cmd /c`) and its code.
    Embedded {
        cmd: SimpleCommand,
        lang: crate::lang::Lang,
        code: crate::lang::Code,
    },
    /// `find` (or `fd`) itself and the commands its `-exec` actions run.
    Find {
        find: SimpleCommand,
        execs: Vec<SimpleCommand>,
    },
    /// `cmd` sends `sent` to run in `place` (`docker exec`, `ssh host ...`).
    Sent {
        cmd: SimpleCommand,
        place: Elsewhere,
        sent: Sent,
    },
    /// A task runner asked for a recipe (`npm run build`, `make clean`): what runs is in
    /// its recipe file.
    Recipe { cmd: SimpleCommand },
}

/// The command a chain of wrappers runs (`sudo -u ci nice -n 5 rm -rf d` gives `rm -rf d`),
/// read as the walker unwraps it, for a reader of another program's argv that names a command
/// (`find -exec sudo rm {} +`); `None` when a wrapper runs none (`sudo -l`). A command with no
/// wrapper is itself.
pub fn wrapped(argv: &[Word]) -> Option<&[Word]> {
    let mut argv = argv;
    for _ in 0..MAX_WRAPPERS {
        let name = argv.first()?.value()?;
        let Some(spec) = wrapper(name.rsplit('/').next().unwrap_or(name)) else {
            return Some(argv);
        };
        match peel(&spec, argv) {
            Start::At(at) => argv = argv.get(at..)?,
            _ => return None,
        }
    }
    None
}

/// Wrappers stacked deeper than this are not read through.
const MAX_WRAPPERS: usize = 8;

/// Where the command a wrapper or runner runs starts.
enum Start {
    /// At this index of its argv.
    At(usize),
    /// In shell text handed to `sh -c` (`flock l -c SCRIPT`, `watch`'s joined words,
    /// `env -S`); `literal` is false when the text was built from expansions.
    Script { script: String, literal: bool },
    /// Nowhere: nothing runs (`sudo -l`, `watch --help`, `flock 9`).
    Nothing,
}

impl Start {
    /// A script in one word.
    fn script(word: Word) -> Start {
        Start::Script {
            script: word.text,
            literal: word.literal,
        }
    }
}

/// Follows `cmd` through wrappers and command runners to what finally runs.
pub(super) fn resolve(mut cmd: SimpleCommand) -> Run {
    loop {
        let Some(name) = cmd.program() else {
            return dynamic(cmd);
        };
        let start = match name {
            "env" => env(&mut cmd),
            "xargs" => xargs(&mut cmd),
            "watch" => watch(&cmd.argv),
            "flock" => flock(&cmd.argv),
            "script" => script_command(&cmd.argv),
            "runuser" => match runuser(&cmd.argv) {
                Some(start) => start,
                None => return Run::Command(cmd),
            },
            "eval" => {
                if cmd.argv.len() < 2 {
                    return Run::Nothing;
                }
                let (script, literal) = joined(cmd.args());
                return Run::Script {
                    cmd,
                    script,
                    via: Via::Eval,
                    literal,
                };
            }
            "su" => {
                return match su_script(&cmd.argv) {
                    Some(word) => script_word(cmd, word, Via::ShellArgument),
                    None => Run::Command(cmd),
                };
            }
            "find" => {
                return match find_execs(&cmd) {
                    Some(execs) => Run::Find { find: cmd, execs },
                    None => Run::Nothing,
                };
            }
            "fd" | "fdfind" => {
                let execs = fd_execs(&cmd);
                return Run::Find { find: cmd, execs };
            }
            "git" => return git(cmd),
            "trap" => {
                return match trap_action(&cmd.argv) {
                    Some(word) => script_word(cmd, word, Via::Trap),
                    None => Run::Nothing,
                };
            }
            "parallel" => return parallel(cmd),
            "at" | "batch" => return at(cmd),
            "source" | "." => {
                return match cmd.argv.get(1).cloned() {
                    Some(file) => Run::ScriptFile { cmd, file },
                    None => Run::Command(cmd),
                };
            }
            n if is_shell(n) => return shell(cmd),
            n if crate::lang::language_of(n).is_some() => {
                return match crate::lang::code_of(&cmd.argv) {
                    // `bun run build`, `deno task clean`: no code of its own, a recipe.
                    Some((_, crate::lang::Code::Elsewhere | crate::lang::Code::File(_))) | None
                        if crate::motion::recipes::runs_recipe(n, &cmd.argv) =>
                    {
                        Run::Recipe { cmd }
                    }
                    Some((lang, code)) => Run::Embedded { cmd, lang, code },
                    None => Run::Command(cmd),
                };
            }
            n if channels::is_channel(n)
                && let Some(channel) = channels::channel(&cmd.argv, &cmd.assigns) =>
            {
                return sent(cmd, channel);
            }
            n if crate::motion::recipes::runs_recipe(n, &cmd.argv) => {
                return Run::Recipe { cmd };
            }
            n => match runner(n, &cmd.argv).or_else(|| wrapper(n).map(|w| peel(&w, &cmd.argv))) {
                // `uv run fix.py`: uv runs a Python file with the project's Python.
                Some(Start::At(at))
                    if n == "uv" && cmd.argv.get(at).is_some_and(|w| w.text.ends_with(".py")) =>
                {
                    cmd.argv.drain(..at);
                    cmd.argv.insert(0, Word::literal("python"));
                    continue;
                }
                Some(start) => {
                    // `npx rimraf@5 dist`: the program is `rimraf`.
                    if let Start::At(at) = start
                        && let Some(bin) = runners::package_bin(n, &cmd.argv, at)
                        && let Some(word) = cmd.argv.get_mut(at)
                    {
                        word.text = bin;
                    }
                    start
                }
                None => return Run::Command(cmd),
            },
        };
        let start = match start {
            Start::At(i) => i,
            Start::Script { script, literal } => {
                return Run::Script {
                    cmd,
                    script,
                    via: Via::ShellArgument,
                    literal,
                };
            }
            Start::Nothing => return Run::Nothing,
        };
        cmd.argv.drain(..start);
        // `sudo FOO=1 cmd`, `time FOO=1 cmd`: assignments may follow the wrapper too.
        while cmd.argv.len() > 1 {
            let Some(first) = cmd.argv.first() else {
                break;
            };
            let Some((name, value)) = first.text.split_once('=') else {
                break;
            };
            if !is_name(name) {
                break;
            }
            let value = Word {
                text: value.to_string(),
                literal: first.literal,
                temp: None,
            };
            cmd.assigns.push((name.to_string(), value));
            cmd.argv.remove(0);
        }
    }
}

/// A command sent elsewhere: its place, reached from wherever `cmd` itself runs.
fn sent(cmd: SimpleCommand, channel: channels::Channel) -> Run {
    let mut place = channel.place;
    place.dirs_here = cmd.dirs.clone();
    if let Some(outer) = &cmd.elsewhere {
        place = place.within(outer);
    }
    Run::Sent {
        cmd,
        place,
        sent: channel.sent,
    }
}

/// A program named at run time: `$SHELL -c '...'` still runs its script.
fn dynamic(cmd: SimpleCommand) -> Run {
    let names_a_shell = cmd
        .argv
        .first()
        .is_some_and(|w| w.text.to_ascii_uppercase().contains("SH"));
    let has_c = shell_options(cmd.args()).opts.iter().any(|o| o.name == "c");
    if names_a_shell && has_c {
        let mut run = shell(cmd);
        if let Run::Script { literal, .. } = &mut run {
            *literal = false;
        }
        return run;
    }
    Run::Command(cmd)
}

/// Words joined with spaces, as `eval` and `watch` do, and whether all were literal.
fn joined(words: &[Word]) -> (String, bool) {
    let text = words
        .iter()
        .map(|w| w.text.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    (text, words.iter().all(|w| w.literal))
}

/// A shell variable name, as an assignment (`NAME=value`) starts with.
fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn script_word(cmd: SimpleCommand, word: Word, via: Via) -> Run {
    Run::Script {
        cmd,
        script: word.text,
        via,
        literal: word.literal,
    }
}

/// The directory a `cd` or `pushd` moves to, as written: `cd` alone is `~`, `cd -` is `-`.
/// `popd` (and anything this cannot read) gives a non-literal word: directory unknown.
pub(super) fn changes_directory(cmd: &SimpleCommand) -> Option<Word> {
    let unknown = || Word {
        text: "?".into(),
        literal: false,
        temp: None,
    };
    match cmd.program()? {
        "cd" | "pushd" => {
            let args = cmd.args();
            let head = argv::read_head(args, Style::Getopt, &CdOptions);
            if head.unknown {
                return Some(unknown());
            }
            let Some(at) = head.stopped_at else {
                // `cd` alone goes home; `pushd` alone swaps the top two folders.
                let cd = cmd.program() == Some("cd");
                return Some(if cd { Word::literal("~") } else { unknown() });
            };
            let after_dashdash = at
                .checked_sub(1)
                .and_then(|i| args.get(i))
                .is_some_and(|w| w.text == "--");
            let dir = args.get(at)?;
            // `pushd +2` turns the stack.
            let turns = !after_dashdash && dir.text.starts_with('+');
            Some(if turns { unknown() } else { dir.clone() })
        }
        "popd" => Some(unknown()),
        _ => None,
    }
}

/// `cd`'s and `pushd`'s options that leave the folder named as is; any other (`pushd -n`,
/// `cd -2`) is unknown.
struct CdOptions;

impl Options for CdOptions {
    fn long(&self, _name: &str) -> Option<Takes> {
        None
    }
    fn short(&self, letter: char) -> Option<Takes> {
        matches!(letter, 'P' | 'L' | 'e' | '@').then_some(Takes::Nothing)
    }
}

#[cfg(test)]
mod tests {
    use super::wrapped;
    use crate::shell::{SimpleCommand, Via, Word, analyze};

    /// The commands a line runs, other than the runner itself.
    fn runs(line: &str) -> Vec<SimpleCommand> {
        analyze(line).commands
    }

    fn argv(cmd: &SimpleCommand) -> Vec<(&str, bool)> {
        cmd.argv
            .iter()
            .map(|w| (w.text.as_str(), w.literal))
            .collect()
    }

    #[test]
    fn input_the_line_shows_is_what_xargs_hands_on() {
        let last = |line: &str| runs(line).pop().expect("a command");
        let rm = last("echo build dist | xargs rm -rf");
        assert_eq!(
            argv(&rm),
            [("rm", true), ("-rf", true), ("build", true), ("dist", true)]
        );
        assert!(!rm.uncertain);
        let rm = last("printf '%s\\0' 'a b' c | xargs -0 rm");
        assert_eq!(argv(&rm), [("rm", true), ("a b", true), ("c", true)]);
        let rm = last("printf '%s\\n' x y | xargs -d '\\n' rm");
        assert_eq!(argv(&rm), [("rm", true), ("x", true), ("y", true)]);
        // Quotes xargs would remove, an end-of-input string, a replacement, input not shown.
        for line in [
            "echo \"'a b'\" | xargs rm",
            "echo a | xargs -E x rm",
            "echo a | xargs -I{} rm {}",
            "cat list | xargs rm",
            "echo $x | xargs rm",
            "echo *.log | xargs rm",
            "printf 'sr%s\\n' c | xargs rm -rf",
            "printf '%s\\0' a | xargs rm",
            "echo -e 'a\\nb' | xargs rm",
        ] {
            let rm = last(line);
            assert!(rm.uncertain, "{line}");
            assert!(rm.argv.iter().any(|w| !w.literal), "{line}");
        }
    }

    #[test]
    fn wrappers_read_as_the_walker_reads_them() {
        let words = |line: &str| -> Vec<Word> { line.split(' ').map(Word::literal).collect() };
        let run = |line: &str| {
            wrapped(&words(line))
                .map(|argv| argv.iter().map(|w| w.text.clone()).collect::<Vec<_>>())
        };
        assert_eq!(
            run("sudo -u ci nice -n 5 rm -rf d").unwrap(),
            ["rm", "-rf", "d"]
        );
        assert_eq!(run("rm x").unwrap(), ["rm", "x"]);
        assert_eq!(run("sudo -l"), None);
    }

    #[test]
    fn parallel_inputs_are_unknown_operands() {
        for line in [
            "parallel rm -rf ::: a b",
            "ls | parallel rm -rf",
            "parallel -j 4 rm -rf {} :::: dirs.txt",
        ] {
            let cmds = runs(line);
            let rm = cmds.iter().find(|c| c.program() == Some("rm")).unwrap();
            assert_eq!(
                argv(rm),
                [("rm", true), ("-rf", true), ("{}", false)],
                "{line}"
            );
            assert!(rm.uncertain, "{line}");
            assert_eq!(rm.via, Via::Parallel, "{line}");
        }
    }

    #[test]
    fn parallel_placeholders_and_replacement_strings_are_not_literal() {
        let cmds = runs("parallel -I XX mv XX XX.bak ::: a");
        assert_eq!(
            argv(&cmds[0]),
            [("mv", true), ("XX", false), ("XX.bak", false)]
        );
        let cmds = runs("parallel 'rm -rf {.}/out' ::: a");
        let rm = cmds.iter().find(|c| c.program() == Some("rm")).unwrap();
        assert!(rm.argv.iter().skip(2).all(|w| !w.literal), "{rm:?}");
        assert!(runs("parallel --dry-run rm -rf ::: a").is_empty());
    }

    #[test]
    fn runners_yield_the_command_they_run() {
        for (line, program, via) in [
            ("flock /tmp/l rm -rf x", "rm", Via::Direct),
            ("flock -w 5 /tmp/l -c 'rm -rf x'", "rm", Via::ShellArgument),
            ("flock -- /tmp/l rm -rf x", "rm", Via::Direct),
            ("flock /tmp/l git -c a.b=c reset --hard", "git", Via::Direct),
            (
                "script -q /dev/null git -c a.b=c reset --hard",
                "git",
                Via::Direct,
            ),
            ("script /dev/null -c 'rm -rf x'", "rm", Via::ShellArgument),
            ("chronic rm -rf x", "rm", Via::Direct),
            ("unbuffer rm -rf x", "rm", Via::Direct),
            ("caffeinate -t 60 rm -rf x", "rm", Via::Direct),
            ("runuser -u bob -- rm -rf x", "rm", Via::Direct),
            ("runuser bob -c 'rm -rf x'", "rm", Via::ShellArgument),
            ("script -qc 'rm -rf x' /dev/null", "rm", Via::ShellArgument),
            ("script -q /dev/null rm -rf x", "rm", Via::Direct),
            ("trap 'rm -rf x' EXIT", "rm", Via::Trap),
            ("coproc rm -rf x", "rm", Via::Direct),
            ("pkexec --user bob rm -rf x", "rm", Via::Direct),
            ("chroot /srv/root rm -rf x", "rm", Via::Direct),
            ("systemd-run --user -p Nice=5 rm -rf x", "rm", Via::Direct),
            ("flatpak-spawn --host --env=A=1 rm -rf x", "rm", Via::Direct),
            ("firejail --quiet rm -rf x", "rm", Via::Direct),
            ("echo 'rm -rf x' | at now + 1 hour", "rm", Via::Scheduled),
            ("at -q b -m 23:00 <<< 'rm -rf x'", "rm", Via::Scheduled),
            ("batch <<EOF\nrm -rf x\nEOF", "rm", Via::Scheduled),
        ] {
            let cmds = runs(line);
            assert!(
                cmds.iter()
                    .any(|c| c.program() == Some(program) && c.via == via),
                "{line}: {cmds:?}"
            );
        }
    }

    #[test]
    fn options_read_as_each_program_reads_them() {
        for (line, via) in [
            // bash's `-o` takes the next word, whatever follows it in its cluster.
            ("bash -oc pipefail 'rm -rf x'", Via::ShellArgument),
            ("bash +o posix -ec 'rm -rf x'", Via::ShellArgument),
            ("bash --rcfile x.rc -c 'rm -rf x'", Via::ShellArgument),
            ("su -lc 'rm -rf x' bob", Via::ShellArgument),
            ("env -u HOME -C /srv -- rm -rf x", Via::Direct),
            ("env - PATH=/bin rm -rf x", Via::Direct),
            ("watch -dn1 -x rm -rf x", Via::Direct),
            ("parallel -j4 --tag rm -rf ::: a", Via::Parallel),
        ] {
            let cmds = runs(line);
            assert!(
                cmds.iter()
                    .any(|c| c.program() == Some("rm") && c.via == via),
                "{line}: {cmds:?}"
            );
        }
    }

    #[test]
    fn at_runs_its_stdin_only_when_it_schedules_it() {
        for line in [
            "echo 'rm -rf x' | at -f job.sh now",
            "echo 'rm -rf x' | at -l",
            "echo 'rm -rf x' | at -r 3",
            "echo 'rm -rf x' | atq",
        ] {
            assert!(
                runs(line).iter().all(|c| c.program() != Some("rm")),
                "{line}: {:?}",
                runs(line)
            );
        }
    }

    #[test]
    fn runners_with_nothing_to_run_yield_nothing() {
        for line in [
            "flock 9",
            "caffeinate -t 60",
            "trap - EXIT",
            "trap '' INT",
            "trap -p",
            "script out.log",
        ] {
            assert!(runs(line).is_empty(), "{line}: {:?}", runs(line));
        }
    }

    #[test]
    fn a_stage_that_reads_names_knows_what_lists_them() {
        let fed = |line: &str, program: &str| -> Vec<String> {
            let cmds = runs(line);
            let cmd = cmds
                .iter()
                .find(|c| c.program() == Some(program))
                .unwrap_or_else(|| panic!("{line}: {cmds:?}"));
            cmd.fed_by
                .iter()
                .map(|argv| {
                    argv.iter()
                        .map(|w| w.text.as_str())
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect()
        };
        assert_eq!(
            fed("find . -name '*.c' | xargs rm -f", "rm"),
            ["find . -name *.c"]
        );
        assert_eq!(
            fed(
                "sudo find . -print0 2>/dev/null | sort -z | xargs -0 rm 2>/dev/null",
                "rm"
            ),
            ["find . -print0", "sort -z"]
        );
        assert_eq!(fed("ls | parallel rm", "rm"), ["ls"]);
        assert_eq!(
            fed("rm -f $(ls -t | tail -n +6)", "rm"),
            ["ls -t", "tail -n +6"]
        );
        assert_eq!(
            fed("shred -u `find . -type f`", "shred"),
            ["find . -type f"]
        );
        assert!(fed("echo $(find . -name '*.c')", "echo").is_empty());
        assert_eq!(
            fed(
                "printf 'delete refs/heads/x\\n' | git update-ref --stdin",
                "git"
            ),
            ["printf delete refs/heads/x\\n"]
        );
        // Stages that read no names, and a listing that is no simple command, say nothing.
        assert!(fed("find . -name '*.c' | grep x", "grep").is_empty());
        assert!(fed("(ls; ls -a) | xargs rm", "rm").is_empty());
    }

    #[test]
    fn fd_exec_runs_its_command_for_the_files_it_finds() {
        for (line, words) in [
            ("fd -e c -x rm", vec![("rm", true), ("{}", false)]),
            (
                "fd -e c -X rm -f",
                vec![("rm", true), ("-f", true), ("{}", false)],
            ),
            (
                "fd . src --exec mv {} {.}.bak ;",
                vec![("mv", true), ("{}", false), ("{.}.bak", false)],
            ),
        ] {
            let cmds = runs(line);
            let exec = cmds
                .iter()
                .find(|c| c.via == Via::FdExec)
                .unwrap_or_else(|| panic!("{line}: {cmds:?}"));
            assert_eq!(argv(exec), words, "{line}");
            assert!(exec.uncertain, "{line}");
            let search: Vec<&str> = exec.fed_by[0].iter().map(|w| w.text.as_str()).collect();
            assert_eq!(search[0], "fd", "{line}");
            assert!(!search.contains(&"-x") && !search.contains(&"rm"), "{line}");
        }
        assert!(runs("fd -e c").iter().all(|c| c.via != Via::FdExec));
    }
}
