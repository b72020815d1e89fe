//! Seeing through commands that run other commands.
//!
//! Wrappers (`sudo -u root`, `env -i X=1`, `timeout 10`, `nice -n 5`, ...) are peeled here,
//! once, so rules only ever see the program that really runs. Commands that run a *script*
//! (`sh -c`, `eval`, `su -c`, `watch`, `env -S`, `flock -c`, `script -c`, a `trap` action)
//! hand it back to the walker to be parsed, and `xargs`, GNU `parallel` and `find -exec`
//! yield the command they run.

use super::word::Word;
use super::{SimpleCommand, Via};

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
    /// A shell with no script argument: it runs whatever its stdin holds.
    ShellReadingStdin(SimpleCommand),
    /// `find` itself and the commands its `-exec` actions run.
    Find {
        find: SimpleCommand,
        execs: Vec<SimpleCommand>,
    },
}

/// Option syntax of a wrapper: which options take a value, which mean no command runs.
struct Wrapper {
    /// Short options that take a value (`-u root` or `-uroot`).
    short_value: &'static str,
    /// Long options that take a value in the next word when written without `=`.
    long_value: &'static [&'static str],
    /// Short options after which no command runs (`command -v`, `sudo -l`).
    short_no_command: &'static str,
    long_no_command: &'static [&'static str],
    /// Operands before the command (`timeout DURATION cmd`).
    operands: usize,
}

const PLAIN: Wrapper = Wrapper {
    short_value: "",
    long_value: &[],
    short_no_command: "",
    long_no_command: &["--help", "--version"],
    operands: 0,
};

fn wrapper(name: &str) -> Option<Wrapper> {
    Some(match name {
        "sudo" => Wrapper {
            short_value: "CDghpRrTtUu",
            long_value: &[
                "--user",
                "--group",
                "--host",
                "--prompt",
                "--role",
                "--type",
                "--close-from",
                "--chdir",
                "--chroot",
                "--command-timeout",
                "--other-user",
            ],
            short_no_command: "eKlVv",
            long_no_command: &[
                "--edit",
                "--list",
                "--version",
                "--validate",
                "--remove-timestamp",
                "--help",
            ],
            operands: 0,
        },
        "doas" => Wrapper {
            short_value: "uC",
            short_no_command: "L",
            ..PLAIN
        },
        "command" => Wrapper {
            short_no_command: "vV",
            ..PLAIN
        },
        "exec" => Wrapper {
            short_value: "a",
            ..PLAIN
        },
        "nice" => Wrapper {
            short_value: "n",
            long_value: &["--adjustment"],
            ..PLAIN
        },
        "timeout" => Wrapper {
            short_value: "sk",
            long_value: &["--signal", "--kill-after"],
            operands: 1,
            ..PLAIN
        },
        "time" => Wrapper {
            short_value: "fo",
            long_value: &["--format", "--output"],
            ..PLAIN
        },
        "stdbuf" => Wrapper {
            short_value: "ioe",
            long_value: &["--input", "--output", "--error"],
            ..PLAIN
        },
        "ionice" => Wrapper {
            short_value: "cn",
            long_value: &["--class", "--classdata"],
            short_no_command: "pP",
            long_no_command: &["--pid", "--pgid", "--uid", "--help", "--version"],
            ..PLAIN
        },
        "caffeinate" => Wrapper {
            short_value: "tw",
            ..PLAIN
        },
        "nohup" | "builtin" | "setsid" | "busybox" | "nocorrect" | "noglob" | "chronic"
        | "unbuffer" | "coproc" => PLAIN,
        _ => return None,
    })
}

enum Peeled {
    /// The wrapped command starts at this index.
    At(usize),
    NoCommand,
}

/// Skips a wrapper's options and operands.
fn peel(spec: &Wrapper, argv: &[Word]) -> Peeled {
    let mut i = 1;
    while let Some(word) = argv.get(i) {
        let w = word.text.as_str();
        if w == "--" {
            i += 1;
            break;
        }
        if let Some(long) = w.strip_prefix("--") {
            let name = long.split('=').next().unwrap_or(long);
            let flag = format!("--{name}");
            if spec.long_no_command.contains(&flag.as_str()) {
                return Peeled::NoCommand;
            }
            i += if !long.contains('=') && spec.long_value.contains(&flag.as_str()) {
                2
            } else {
                1
            };
            continue;
        }
        if w.len() > 1 && w.starts_with('-') {
            for (pos, c) in w[1..].char_indices() {
                if spec.short_no_command.contains(c) {
                    return Peeled::NoCommand;
                }
                if spec.short_value.contains(c) {
                    if pos + 1 + c.len_utf8() == w.len() {
                        i += 1; // the value is the next word
                    }
                    break;
                }
            }
            i += 1;
            continue;
        }
        break;
    }
    i += spec.operands;
    if i < argv.len() {
        Peeled::At(i)
    } else {
        Peeled::NoCommand
    }
}

/// Follows `cmd` through wrappers and command runners to what finally runs.
pub(super) fn resolve(mut cmd: SimpleCommand) -> Run {
    loop {
        let Some(name) = cmd.program() else {
            return dynamic(cmd);
        };
        let start = match name {
            "env" => match env(&mut cmd) {
                Some(EnvRun::At(i)) => i,
                Some(EnvRun::Split(script)) => {
                    return Run::Script {
                        cmd,
                        script,
                        via: Via::ShellArgument,
                        literal: true,
                    };
                }
                None => return Run::Nothing,
            },
            "xargs" => {
                let Some(i) = xargs_command(&cmd.argv) else {
                    return Run::Nothing;
                };
                cmd.via = Via::Xargs;
                cmd.uncertain = true;
                // xargs appends what it reads to the command, unless it substitutes it
                // (`-I {}`); that input stands as one operand known only at run time.
                let substitutes = cmd.argv[1..i].iter().any(|w| {
                    let t = w.text.as_str();
                    t.starts_with("-I")
                        || t.starts_with("-i")
                        || t.starts_with("-J")
                        || t.starts_with("--replace")
                });
                if !substitutes {
                    cmd.argv.push(Word {
                        text: "{}".into(),
                        literal: false,
                    });
                }
                i
            }
            "watch" => match watch(&cmd.argv) {
                Some(WatchRun::At(i)) => i,
                Some(WatchRun::Script(script, literal)) => {
                    return Run::Script {
                        cmd,
                        script,
                        via: Via::ShellArgument,
                        literal,
                    };
                }
                None => return Run::Nothing,
            },
            "eval" => {
                if cmd.argv.len() < 2 {
                    return Run::Nothing;
                }
                let (script, literal) = joined(&cmd.argv[1..]);
                return Run::Script {
                    cmd,
                    script,
                    via: Via::Eval,
                    literal,
                };
            }
            "su" => {
                return match su_script(&cmd.argv) {
                    Some(word) => Run::Script {
                        cmd,
                        script: word.text,
                        via: Via::ShellArgument,
                        literal: word.literal,
                    },
                    None => Run::Command(cmd),
                };
            }
            "find" => {
                let execs = find_execs(&cmd);
                return Run::Find { find: cmd, execs };
            }
            "flock" => match flock(&cmd.argv) {
                Some(Started::At(i)) => i,
                Some(Started::Script(word)) => return script_word(cmd, word, Via::ShellArgument),
                None => return Run::Nothing,
            },
            "runuser" => match runuser(&cmd.argv) {
                Some(Started::At(i)) => i,
                Some(Started::Script(word)) => return script_word(cmd, word, Via::ShellArgument),
                None => return Run::Command(cmd),
            },
            "script" => match script_command(&cmd.argv) {
                Some(Started::At(i)) => i,
                Some(Started::Script(word)) => return script_word(cmd, word, Via::ShellArgument),
                None => return Run::Nothing,
            },
            "trap" => {
                return match trap_action(&cmd.argv) {
                    Some(word) => script_word(cmd, word, Via::Trap),
                    None => Run::Nothing,
                };
            }
            "parallel" => return parallel(cmd),
            n if is_shell(n) => return shell(cmd),
            n => match wrapper(n) {
                Some(spec) => match peel(&spec, &cmd.argv) {
                    Peeled::At(i) => i,
                    Peeled::NoCommand => return Run::Nothing,
                },
                None => return Run::Command(cmd),
            },
        };
        cmd.argv.drain(..start);
        // `sudo FOO=1 cmd`, `time FOO=1 cmd`: assignments may follow the wrapper too.
        while cmd.argv.len() > 1 {
            let Some((name, value)) = cmd.argv[0].text.split_once('=') else {
                break;
            };
            if !is_name(name) {
                break;
            }
            let value = Word {
                text: value.to_string(),
                literal: cmd.argv[0].literal,
            };
            cmd.assigns.push((name.to_string(), value));
            cmd.argv.remove(0);
        }
    }
}

/// A program named at run time: `$SHELL -c '...'` still runs its script.
fn dynamic(cmd: SimpleCommand) -> Run {
    let names_a_shell = cmd.argv[0].text.to_ascii_uppercase().contains("SH");
    let has_c = cmd
        .argv
        .get(1)
        .is_some_and(|w| w.text.starts_with('-') && w.text.contains('c'));
    if names_a_shell && has_c {
        let mut run = shell(cmd);
        if let Run::Script { literal, .. } = &mut run {
            *literal = false;
        }
        return run;
    }
    Run::Command(cmd)
}

fn is_shell(name: &str) -> bool {
    matches!(
        name,
        "sh" | "bash" | "zsh" | "dash" | "ksh" | "mksh" | "ash" | "yash" | "fish"
    )
}

/// `bash [options] -c SCRIPT`, `bash script.sh`, or a bare shell reading stdin.
fn shell(cmd: SimpleCommand) -> Run {
    let mut i = 1;
    let mut has_c = false;
    while let Some(word) = cmd.argv.get(i) {
        let w = word.text.as_str();
        if w == "--" || w == "-" {
            i += 1;
            break;
        }
        if w.starts_with("--") {
            i += if matches!(w, "--rcfile" | "--init-file") {
                2
            } else {
                1
            };
            continue;
        }
        if w.len() > 1 && (w.starts_with('-') || w.starts_with('+')) {
            for c in w[1..].chars() {
                match c {
                    'c' => has_c = true,
                    'o' | 'O' => i += 1, // `-o pipefail`: the option name is the next word
                    _ => {}
                }
            }
            i += 1;
            continue;
        }
        break;
    }
    if has_c {
        return match cmd.argv.get(i) {
            Some(word) => {
                let (script, literal) = (word.text.clone(), word.literal);
                Run::Script {
                    cmd,
                    script,
                    via: Via::ShellArgument,
                    literal,
                }
            }
            None => Run::Nothing,
        };
    }
    if i < cmd.argv.len() {
        // A script file we cannot see into.
        Run::Command(cmd)
    } else {
        Run::ShellReadingStdin(cmd)
    }
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

enum EnvRun {
    At(usize),
    Split(String),
}

/// `env [-i] [-u NAME] [-C DIR] [-S STRING] [NAME=VALUE]... [COMMAND [ARG]...]`.
fn env(cmd: &mut SimpleCommand) -> Option<EnvRun> {
    let argv = &cmd.argv;
    let mut i = 1;
    let mut split: Option<String> = None;
    while let Some(word) = argv.get(i) {
        let w = word.text.as_str();
        if w == "--" || w == "-" {
            i += 1;
            break;
        }
        if let Some(long) = w.strip_prefix("--") {
            if let Some(s) = long.strip_prefix("split-string=") {
                split = Some(s.to_string());
                i += 1;
            } else if long == "split-string" {
                split = argv.get(i + 1).map(|w| w.text.clone());
                i += 2;
            } else if matches!(long, "help" | "version") {
                return None;
            } else {
                i += if matches!(long, "unset" | "chdir") {
                    2
                } else {
                    1
                };
            }
            continue;
        }
        if w.len() > 1 && w.starts_with('-') {
            for (pos, c) in w[1..].char_indices() {
                let rest = &w[1 + pos + c.len_utf8()..];
                if matches!(c, 'u' | 'C' | 'S' | 'P') {
                    let value = if rest.is_empty() {
                        i += 1;
                        argv.get(i).map(|w| w.text.clone())
                    } else {
                        Some(rest.to_string())
                    };
                    if c == 'S' {
                        split = value;
                    }
                    break;
                }
            }
            i += 1;
            continue;
        }
        break;
    }
    while let Some(word) = argv.get(i) {
        match word.text.split_once('=') {
            Some((name, value)) if is_name(name) => {
                let value = Word {
                    text: value.to_string(),
                    literal: word.literal,
                };
                cmd.assigns.push((name.to_string(), value));
                i += 1;
            }
            _ => break,
        }
    }
    if let Some(script) = split {
        let rest: Vec<String> = argv[i.min(argv.len())..]
            .iter()
            .map(Word::shell_quoted)
            .collect();
        return Some(EnvRun::Split(
            [script]
                .into_iter()
                .chain(rest)
                .collect::<Vec<_>>()
                .join(" "),
        ));
    }
    (i < argv.len()).then_some(EnvRun::At(i))
}

fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Where the command starts in `xargs [options] [command [initial-arguments]]`.
fn xargs_command(argv: &[Word]) -> Option<usize> {
    const LONG_VALUE: &[&str] = &[
        "--arg-file",
        "--delimiter",
        "--max-args",
        "--max-procs",
        "--max-chars",
        "--process-slot-var",
    ];
    let mut i = 1;
    while let Some(word) = argv.get(i) {
        let w = word.text.as_str();
        if w == "--" {
            i += 1;
            break;
        }
        if w.starts_with("--") {
            if matches!(w, "--help" | "--version" | "--show-limits") {
                return None;
            }
            i += if !w.contains('=') && LONG_VALUE.contains(&w) {
                2
            } else {
                1
            };
            continue;
        }
        if w.len() > 1 && w.starts_with('-') {
            for (pos, c) in w[1..].char_indices() {
                if "adEILnPsJRS".contains(c) {
                    if pos + 1 + c.len_utf8() == w.len() {
                        i += 1;
                    }
                    break;
                }
                if "eil".contains(c) {
                    break; // optional value, only ever attached
                }
            }
            i += 1;
            continue;
        }
        break;
    }
    (i < argv.len()).then_some(i)
}

enum WatchRun {
    At(usize),
    Script(String, bool),
}

/// `watch [options] command...`: joined and run by `sh -c`, or exec'd as is with `-x`.
fn watch(argv: &[Word]) -> Option<WatchRun> {
    let mut i = 1;
    let mut exec = false;
    while let Some(word) = argv.get(i) {
        let w = word.text.as_str();
        if w == "--" {
            i += 1;
            break;
        }
        if w.starts_with("--") {
            exec |= w == "--exec";
            if matches!(w, "--help" | "--version") {
                return None;
            }
            i += if matches!(w, "--interval") { 2 } else { 1 };
            continue;
        }
        if w.len() > 1 && w.starts_with('-') {
            exec |= w.contains('x');
            if w.ends_with('n') {
                i += 1;
            }
            i += 1;
            continue;
        }
        break;
    }
    if i >= argv.len() {
        return None;
    }
    if exec {
        return Some(WatchRun::At(i));
    }
    // watch joins its words with spaces for `sh -c`; a word that held spaces was most
    // likely one quoted argument (`watch sh -c 'git reset --hard'`). Both readings are
    // parsed, one per line, so neither can hide a command.
    let (mut script, literal) = joined(&argv[i..]);
    let quoted: Vec<String> = argv[i..].iter().map(Word::shell_quoted).collect();
    let quoted = quoted.join(" ");
    if argv.len() - i > 1 && quoted != script {
        script = format!("{script}\n{quoted}");
    }
    Some(WatchRun::Script(script, literal))
}

/// The script of `su -c SCRIPT` / `su --command=SCRIPT`, wherever it stands.
fn su_script(argv: &[Word]) -> Option<Word> {
    let mut iter = argv.iter().skip(1);
    while let Some(word) = iter.next() {
        if matches!(word.text.as_str(), "-c" | "--command") {
            return iter.next().cloned();
        }
        if let Some(script) = word.text.strip_prefix("--command=") {
            return Some(Word {
                text: script.to_string(),
                literal: word.literal,
            });
        }
    }
    None
}

/// Where a runner's command is: at an index of argv, or a script in one word.
enum Started {
    At(usize),
    Script(Word),
}

fn script_word(cmd: SimpleCommand, word: Word, via: Via) -> Run {
    Run::Script {
        cmd,
        script: word.text,
        via,
        literal: word.literal,
    }
}

/// How a runner that takes `-c SCRIPT` reads its words.
struct Runner {
    /// Short options that take a value, besides `-c`.
    short_value: &'static str,
    long_value: &'static [&'static str],
    /// Operands before the command: `flock FILE cmd`, BSD `script FILE cmd`, `runuser USER`.
    operands: usize,
    /// Whether words after those operands are a command to run (not a shell's arguments).
    command_follows: bool,
}

/// Finds `-c SCRIPT` (also in a cluster: `-qc SCRIPT`, `-cSCRIPT`) or `--command SCRIPT`
/// among the runner's own options, or else the command after its operands. Words of the
/// command itself are never read as the runner's options (`flock l git -c x reset`).
fn run_or_script(argv: &[Word], spec: &Runner) -> Option<Started> {
    let mut seen = 0;
    let mut i = 1;
    while let Some(word) = argv.get(i) {
        let w = word.text.as_str();
        if w == "--" {
            // What follows is operands, then the command.
            i += 1 + spec.operands.saturating_sub(seen);
            seen = spec.operands;
            break;
        }
        if let Some(long) = w.strip_prefix("--") {
            if long == "command" {
                return argv.get(i + 1).cloned().map(Started::Script);
            }
            if let Some(script) = long.strip_prefix("command=") {
                return Some(Started::Script(Word {
                    text: script.to_string(),
                    literal: word.literal,
                }));
            }
            let name = long.split('=').next().unwrap_or(long);
            let takes =
                !long.contains('=') && spec.long_value.contains(&format!("--{name}").as_str());
            i += if takes { 2 } else { 1 };
            continue;
        }
        if w.len() > 1 && w.starts_with('-') {
            for (pos, c) in w[1..].char_indices() {
                let rest = &w[1 + pos + c.len_utf8()..];
                if c == 'c' {
                    return if rest.is_empty() {
                        argv.get(i + 1).cloned().map(Started::Script)
                    } else {
                        Some(Started::Script(Word {
                            text: rest.to_string(),
                            literal: word.literal,
                        }))
                    };
                }
                if spec.short_value.contains(c) {
                    if rest.is_empty() {
                        i += 1;
                    }
                    break;
                }
            }
            i += 1;
            continue;
        }
        if seen == spec.operands {
            break;
        }
        seen += 1;
        i += 1;
    }
    (spec.command_follows && seen == spec.operands && i < argv.len()).then_some(Started::At(i))
}

/// `flock [options] FILE COMMAND...`, `flock [options] FILE -c SCRIPT`; `flock FD` alone
/// runs nothing.
fn flock(argv: &[Word]) -> Option<Started> {
    run_or_script(
        argv,
        &Runner {
            short_value: "wE",
            long_value: &["--timeout", "--wait", "--conflict-exit-code"],
            operands: 1,
            command_follows: true,
        },
    )
}

/// `runuser -u USER [--] COMMAND...`, or su's form `runuser [-l] USER -c SCRIPT`. `None`:
/// a login shell, or arguments for one, which run nothing this line shows.
fn runuser(argv: &[Word]) -> Option<Started> {
    let names_user = argv[1..]
        .iter()
        .take_while(|w| w.text != "--" && w.text.starts_with('-'))
        .any(|w| w.text == "--user" || w.text.starts_with("--user=") || w.text.starts_with("-u"));
    if !names_user {
        // su's form: no command follows, only a script given to `-c`.
        return su_script(argv).map(Started::Script);
    }
    let spec = Wrapper {
        short_value: "ugGws",
        long_value: &[
            "--user",
            "--group",
            "--supp-group",
            "--whitelist-environment",
            "--shell",
        ],
        short_no_command: "V",
        ..PLAIN
    };
    match peel(&spec, argv) {
        Peeled::At(i) => Some(Started::At(i)),
        Peeled::NoCommand => None,
    }
}

/// `script [options] [-c SCRIPT] [file]` (util-linux), or the BSD form
/// `script [options] FILE COMMAND...`; with neither it starts an interactive shell.
fn script_command(argv: &[Word]) -> Option<Started> {
    run_or_script(
        argv,
        &Runner {
            short_value: "EIOBTmot",
            long_value: &[
                "--echo",
                "--log-in",
                "--log-out",
                "--log-io",
                "--log-timing",
                "--logging-format",
                "--output-limit",
            ],
            operands: 1,
            command_follows: true,
        },
    )
}

/// The action of `trap ACTION SIGNAL...`: shell text run when a signal (or `EXIT`) comes.
/// `trap - SIG` resets, `trap '' SIG` ignores, `trap -l`/`-p` list.
fn trap_action(argv: &[Word]) -> Option<Word> {
    let args = match argv.get(1).map(|w| w.text.as_str()) {
        Some("--") => &argv[2..],
        _ => argv.get(1..)?,
    };
    let [action, _signal, ..] = args else {
        return None;
    };
    let listing = action.text.starts_with('-') && action.literal;
    (!listing && !action.text.trim().is_empty()).then(|| action.clone())
}

/// GNU parallel's options that take a value in the next word.
const PARALLEL_VALUE: &[&str] = &[
    "--jobs",
    "--max-procs",
    "--sshlogin",
    "--sshloginfile",
    "--slf",
    "--arg-file",
    "--delimiter",
    "--colsep",
    "--max-args",
    "--max-lines",
    "--max-chars",
    "--joblog",
    "--results",
    "--res",
    "--tmpdir",
    "--workdir",
    "--wd",
    "--timeout",
    "--delay",
    "--retries",
    "--tagstring",
    "--tag-string",
    "--halt",
    "--halt-on-error",
    "--memfree",
    "--load",
    "--basefile",
    "--bf",
    "--env",
    "--transferfile",
    "--tf",
    "--return",
    "--block",
    "--block-size",
    "--recstart",
    "--recend",
    "--header",
    "--nice",
    "--termseq",
    "--limit",
    "--arg-sep",
    "--arg-file-sep",
    "--eof",
    "--replace",
    "--extensionreplace",
    "--basenamereplace",
    "--dirnamereplace",
    "--seqreplace",
];

/// `parallel [options] COMMAND [ARGS] [::: INPUTS | :::: FILES]...`. Each job is the command
/// with an input put in for its placeholders (`{}`, `{.}`, `{1}`, ...), or appended when it
/// has none; with no command, each input is itself a command line. Inputs come from `:::`,
/// `::::` files or stdin, so they are unknown operands: placeholders stand as non-literal
/// words and the command is uncertain. `--pipe` feeds input on stdin instead of as
/// arguments; `--dry-run` only prints the jobs.
fn parallel(mut cmd: SimpleCommand) -> Run {
    let argv = &cmd.argv;
    let mut i = 1;
    let mut replace: Option<String> = None;
    let mut pipe = false;
    while let Some(word) = argv.get(i) {
        let w = word.text.as_str();
        if w == "--" {
            i += 1;
            break;
        }
        if let Some(long) = w.strip_prefix("--") {
            let (name, inline) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (long, None),
            };
            match name {
                "dry-run" | "dryrun" | "help" | "version" | "number-of-cpus"
                | "number-of-cores" => return Run::Nothing,
                "pipe" | "pipepart" | "spreadstdin" => pipe = true,
                _ => {}
            }
            let takes = PARALLEL_VALUE.contains(&format!("--{name}").as_str());
            if name == "replace" {
                replace = inline
                    .map(str::to_string)
                    .or_else(|| argv.get(i + 1).map(|v| v.text.clone()));
            }
            i += if takes && inline.is_none() { 2 } else { 1 };
            continue;
        }
        if w.starts_with(":::") {
            break;
        }
        if w.len() > 1 && w.starts_with('-') {
            for (pos, c) in w[1..].char_indices() {
                let rest = &w[1 + pos + c.len_utf8()..];
                if "jPSadECINnLs".contains(c) {
                    if c == 'I' {
                        replace = Some(rest.to_string())
                            .filter(|r| !r.is_empty())
                            .or_else(|| argv.get(i + 1).map(|v| v.text.clone()));
                    }
                    if rest.is_empty() {
                        i += 1;
                    }
                    break;
                }
                if c == 'i' {
                    replace = Some(if rest.is_empty() { "{}" } else { rest }.to_string());
                    break;
                }
                if "el".contains(c) {
                    break; // optional value, only ever attached
                }
            }
            i += 1;
            continue;
        }
        break;
    }
    let end = argv[i.min(argv.len())..]
        .iter()
        .position(|w| w.text.starts_with(":::"))
        .map_or(argv.len(), |n| i + n);
    cmd.via = Via::Parallel;
    cmd.uncertain = true;
    if i >= end {
        // No command: every input is a command line.
        let inputs = argv.get(end + 1..).unwrap_or_default();
        if inputs.is_empty() {
            return Run::ShellReadingStdin(cmd);
        }
        if argv[end].text.starts_with("::::") {
            // Command lines read from files this line does not show.
            return Run::Command(cmd);
        }
        let script: Vec<&str> = inputs
            .iter()
            .take_while(|w| !w.text.starts_with(":::"))
            .map(|w| w.text.as_str())
            .collect();
        let literal = inputs.iter().all(|w| w.literal);
        return Run::Script {
            script: script.join("\n"),
            cmd,
            via: Via::Parallel,
            literal,
        };
    }
    let has_placeholder = argv[i..end]
        .iter()
        .any(|w| is_placeholder(&w.text, replace.as_deref()));
    let mut words: Vec<Word> = argv[i..end]
        .iter()
        .map(|w| {
            if is_placeholder(&w.text, replace.as_deref()) {
                Word {
                    text: w.text.clone(),
                    literal: false,
                }
            } else {
                w.clone()
            }
        })
        .collect();
    // A command given as one string (`parallel 'rm -rf {}' ::: a`) is shell text.
    if words.len() == 1 && words[0].text.contains(char::is_whitespace) {
        let mut script = placeholders_unknown(&words[0].text, replace.as_deref());
        if !has_placeholder && !pipe {
            script.push_str(" \"$PARALLEL_INPUT\"");
        }
        return Run::Script {
            script,
            cmd,
            via: Via::Parallel,
            literal: false,
        };
    }
    if !has_placeholder && !pipe {
        words.push(Word {
            text: "{}".into(),
            literal: false,
        });
    }
    cmd.argv = words;
    Run::Command(cmd)
}

/// A word that parallel replaces by an input: `{}`, `{.}`, `{/}`, `{//}`, `{/.}`, `{#}`,
/// `{%}`, `{1}`, `{2.}`, `{= perl =}`, or the string given to `-I`.
fn is_placeholder(text: &str, replace: Option<&str>) -> bool {
    if replace.is_some_and(|r| !r.is_empty() && text.contains(r)) {
        return true;
    }
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            return false;
        };
        let inner = &rest[open + 1..open + close];
        let digits = inner.trim_start_matches(|c: char| c.is_ascii_digit());
        if inner.starts_with('=') || matches!(digits, "" | "." | "/" | "//" | "/." | "#" | "%") {
            return true;
        }
        rest = &rest[open + close + 1..];
    }
    false
}

/// Shell text with each placeholder put as an expansion, so that what it names reads as
/// unknown until run time, as the inputs are.
fn placeholders_unknown(text: &str, replace: Option<&str>) -> String {
    let mut out = String::with_capacity(text.len());
    for (n, part) in text.split(' ').enumerate() {
        if n > 0 {
            out.push(' ');
        }
        if is_placeholder(part, replace) {
            out.push_str("\"$PARALLEL_INPUT\"");
        } else {
            out.push_str(part);
        }
    }
    out
}

/// The commands `find`'s `-exec`, `-execdir`, `-ok` and `-okdir` actions run.
fn find_execs(find: &SimpleCommand) -> Vec<SimpleCommand> {
    let mut execs = Vec::new();
    let mut words = find.args().iter();
    while let Some(word) = words.next() {
        if !matches!(word.text.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir") {
            continue;
        }
        let mut argv: Vec<Word> = Vec::new();
        for w in words.by_ref() {
            let ends =
                w.text == ";" || (w.text == "+" && argv.last().is_some_and(|l| l.text == "{}"));
            if ends {
                break;
            }
            argv.push(w.clone());
        }
        if !argv.is_empty() {
            execs.push(SimpleCommand {
                argv,
                assigns: Vec::new(),
                via: Via::FindExec,
                span: find.span.clone(),
                uncertain: true,
                dirs: find.dirs.clone(),
                redirects: Vec::new(),
                input: None,
            });
        }
    }
    execs
}

/// The directory a `cd` or `pushd` moves to, as written: `cd` alone is `~`, `cd -` is `-`.
/// `popd` (and anything this cannot read) gives a non-literal word: directory unknown.
pub(super) fn changes_directory(cmd: &SimpleCommand) -> Option<Word> {
    let unknown = || Word {
        text: "?".into(),
        literal: false,
    };
    match cmd.program()? {
        "cd" | "pushd" => {
            let mut args = cmd
                .args()
                .iter()
                .skip_while(|w| matches!(w.text.as_str(), "-P" | "-L" | "-e" | "-@"));
            match args.next() {
                Some(w) if w.text == "--" => {
                    Some(args.next().cloned().unwrap_or_else(|| Word::literal("~")))
                }
                Some(w)
                    if w.text.starts_with('+') || (w.text.starts_with('-') && w.text != "-") =>
                {
                    Some(unknown())
                }
                Some(w) => Some(w.clone()),
                None if cmd.program() == Some("cd") => Some(Word::literal("~")),
                None => Some(unknown()),
            }
        }
        "popd" => Some(unknown()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use crate::shell::{SimpleCommand, Via, analyze};

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
}
