//! Seeing through commands that run other commands.
//!
//! Wrappers (`sudo -u root`, `env -i X=1`, `timeout 10`, `nice -n 5`, ...) are peeled here,
//! once, so rules only ever see the program that really runs. Commands that run a *script*
//! (`sh -c`, `eval`, `su -c`, `watch`, `env -S`) hand it back to the walker to be parsed, and
//! `xargs` and `find -exec` yield the command they run.

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
        "nohup" | "builtin" | "setsid" | "busybox" | "nocorrect" | "noglob" => PLAIN,
        _ => return None,
    })
}

/// Package and environment runners that run a program of the project's dependencies
/// (`npx prisma ...`, `bundle exec rake ...`, `uv run alembic ...`): what runs is that
/// program. `None` when `argv` is not such a run; `npx -c '<script>'` runs a script of its
/// own and is left as it is.
fn runner(name: &str, argv: &[Word]) -> Option<Peeled> {
    // yarn's own commands, which are not a program to run (`yarn add rimraf`).
    const YARN: &[&str] = &[
        "add",
        "audit",
        "autoclean",
        "bin",
        "cache",
        "check",
        "config",
        "constraints",
        "create",
        "dedupe",
        "explain",
        "generate-lock-entry",
        "global",
        "help",
        "import",
        "info",
        "init",
        "install",
        "licenses",
        "link",
        "list",
        "login",
        "logout",
        "node",
        "npm",
        "outdated",
        "owner",
        "pack",
        "patch",
        "plugin",
        "policies",
        "publish",
        "rebuild",
        "remove",
        "search",
        "set",
        "stage",
        "tag",
        "team",
        "unlink",
        "unplug",
        "up",
        "upgrade",
        "upgrade-interactive",
        "version",
        "versions",
        "why",
        "workspace",
        "workspaces",
    ];
    let sub = argv.get(1).map(|w| w.text.as_str());
    let node = Wrapper {
        short_value: "pw",
        long_value: &["--package", "--workspace", "--node-options", "--cache"],
        ..PLAIN
    };
    let (skip, spec) = match (name, sub) {
        ("npx" | "bunx" | "pnpx", _) => (0, node),
        ("pnpm", Some("dlx" | "exec")) | ("npm", Some("exec" | "x")) => (1, node),
        ("yarn", Some("dlx" | "exec" | "run")) => (1, node),
        ("yarn", Some(s)) if !s.starts_with('-') && !YARN.contains(&s) => (0, PLAIN),
        ("bundle", Some("exec")) | ("poetry", Some("run")) | ("pipenv", Some("run")) => (1, PLAIN),
        ("uv", Some("run")) => (
            1,
            Wrapper {
                short_value: "pw",
                long_value: &[
                    "--with",
                    "--with-requirements",
                    "--with-editable",
                    "--python",
                    "--package",
                    "--project",
                    "--directory",
                    "--env-file",
                    "--extra",
                    "--group",
                    "--index",
                    "--index-url",
                ],
                ..PLAIN
            },
        ),
        _ => return None,
    };
    let start = match peel(&spec, &argv[skip..]) {
        Peeled::At(i) => i + skip,
        Peeled::NoCommand => return Some(Peeled::NoCommand),
    };
    let calls_script = argv[..start].iter().any(|w| {
        let t = w.text.as_str();
        t == "-c" || t == "--call" || t.starts_with("--call=")
    });
    (!calls_script).then_some(Peeled::At(start))
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
            n if is_shell(n) => return shell(cmd),
            n => match runner(n, &cmd.argv).or_else(|| wrapper(n).map(|w| peel(&w, &cmd.argv))) {
                Some(Peeled::At(i)) => i,
                Some(Peeled::NoCommand) => return Run::Nothing,
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
