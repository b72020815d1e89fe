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
        "pkexec" => Wrapper {
            long_value: &["--user"],
            ..PLAIN
        },
        // `chroot NEWROOT cmd`: the command runs under another root, its paths too.
        "chroot" => Wrapper {
            long_value: &["--userspec", "--groups"],
            operands: 1,
            ..PLAIN
        },
        "systemd-run" => Wrapper {
            short_value: "upEMH",
            long_value: &[
                "--unit",
                "--property",
                "--setenv",
                "--machine",
                "--host",
                "--uid",
                "--gid",
                "--nice",
                "--working-directory",
                "--description",
                "--slice",
                "--service-type",
                "--on-active",
                "--on-boot",
                "--on-startup",
                "--on-unit-active",
                "--on-unit-inactive",
                "--on-calendar",
            ],
            ..PLAIN
        },
        // A Flatpak sandbox runs a command on the host through it.
        "flatpak-spawn" => Wrapper {
            long_value: &["--env", "--directory", "--forward-fd"],
            ..PLAIN
        },
        "nohup" | "builtin" | "setsid" | "busybox" | "nocorrect" | "noglob" | "chronic"
        | "unbuffer" | "coproc" | "firejail" => PLAIN,
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
                match xargs_replacement(&cmd.argv[1..i]) {
                    // Each word holding the replacement string becomes an input line: not
                    // known until it runs, so never a literal path.
                    Some(replace) => {
                        for word in &mut cmd.argv[i..] {
                            if word.text.contains(replace.as_str()) {
                                word.literal = false;
                            }
                        }
                    }
                    None => {
                        cmd.argv.push(Word {
                            text: "{}".into(),
                            literal: false,
                        });
                    }
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
            "fd" | "fdfind" => {
                let execs = fd_execs(&cmd);
                return Run::Find { find: cmd, execs };
            }
            "git" => return git(cmd),
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
                    Some((lang, code)) => Run::Embedded { cmd, lang, code },
                    None => Run::Command(cmd),
                };
            }
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
    if let Some(file) = cmd.argv.get(i).cloned() {
        Run::ScriptFile { cmd, file }
    } else {
        Run::ShellReadingStdin {
            cmd,
            via: Via::ShellStdin,
        }
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
    // `-C DIR` / `--chdir=DIR`: the command runs there, as after a `cd`.
    let mut chdir: Option<Word> = None;
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
            } else if let Some(dir) = long.strip_prefix("chdir=") {
                chdir = Some(Word {
                    text: dir.to_string(),
                    literal: word.literal,
                });
                i += 1;
            } else if long == "chdir" {
                chdir = argv.get(i + 1).cloned();
                i += 2;
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
                        argv.get(i).cloned()
                    } else {
                        Some(Word {
                            text: rest.to_string(),
                            literal: word.literal,
                        })
                    };
                    if c == 'S' {
                        split = value.map(|w| w.text);
                    } else if c == 'C' {
                        chdir = value;
                    }
                    break;
                }
            }
            i += 1;
            continue;
        }
        break;
    }
    if let Some(dir) = chdir {
        cmd.dirs.push(dir);
    }
    let argv = &cmd.argv;
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

/// The replacement string of `xargs -I REPL` / `-iREPL` / `--replace[=REPL]` / BSD `-J REPL`
/// (`-i` and `--replace` alone mean `{}`), when the options ask for one.
fn xargs_replacement(options: &[Word]) -> Option<String> {
    let mut found = None;
    let mut words = options.iter();
    while let Some(word) = words.next() {
        let w = word.text.as_str();
        if let Some(long) = w.strip_prefix("--") {
            if long == "replace" {
                found = Some("{}".to_string());
            } else if let Some(r) = long.strip_prefix("replace=") {
                found = Some(r.to_string());
            } else if !long.contains('=')
                && matches!(
                    long,
                    "arg-file"
                        | "delimiter"
                        | "max-args"
                        | "max-procs"
                        | "max-chars"
                        | "process-slot-var"
                )
            {
                words.next();
            }
            continue;
        }
        let Some(flags) = w.strip_prefix('-').filter(|f| !f.is_empty()) else {
            continue;
        };
        for (pos, c) in flags.char_indices() {
            let rest = &flags[pos + c.len_utf8()..];
            match c {
                'I' | 'J' => {
                    let value = if rest.is_empty() {
                        words.next().map(|n| n.text.clone())
                    } else {
                        Some(rest.to_string())
                    };
                    found = value.or(found);
                    break;
                }
                'i' => {
                    found = Some(if rest.is_empty() { "{}" } else { rest }.to_string());
                    break;
                }
                'a' | 'd' | 'E' | 'L' | 'n' | 'P' | 's' | 'R' | 'S' => {
                    if rest.is_empty() {
                        words.next();
                    }
                    break;
                }
                'e' | 'l' => break,
                _ => {}
            }
        }
    }
    found.filter(|r| !r.is_empty())
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

/// `git`, with configuration from the environment read as the `-c` options git treats it as,
/// aliases defined on the line expanded, and `submodule foreach` yielding its shell command.
fn git(mut cmd: SimpleCommand) -> Run {
    let env_config = git_env_config(&cmd.assigns);
    if !env_config.is_empty() {
        let words = env_config.into_iter().flat_map(|(key, value)| {
            [Word::literal("-c"), Word::literal(format!("{key}={value}"))]
        });
        cmd.argv.splice(1..1, words);
    }
    let read = crate::syntax::git::read(&cmd.argv[1..]);
    let Some(sub_at) = read.sub else {
        return Run::Command(cmd);
    };
    // Indices in argv, past `git` itself.
    let at = sub_at + 1;
    if cmd.argv[at].text == "submodule" {
        return submodule_foreach(cmd, at);
    }
    let Some((def, value)) = line_alias(&read, &cmd.argv[at]) else {
        return Run::Command(cmd);
    };
    let rest: Vec<String> = cmd.argv[at + 1..].iter().map(Word::shell_quoted).collect();
    let literal = value.literal && cmd.argv.iter().all(|w| w.literal);
    if let Some(shell_text) = value.text.strip_prefix('!') {
        // git runs a `!` alias with `sh -c` from the top of the work tree, arguments appended.
        cmd.dirs.push(Word {
            text: "$(git rev-parse --show-toplevel)".into(),
            literal: false,
        });
        let script = [shell_text.to_string()]
            .into_iter()
            .chain(rest)
            .collect::<Vec<_>>()
            .join(" ");
        return Run::Script {
            cmd,
            script,
            via: Via::ShellArgument,
            literal,
        };
    }
    // The same git with the alias's words in place of its name. The definition itself is
    // left out, as git refuses an alias that expands to itself.
    let globals = cmd.argv[1..at]
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != def && *i != def + 1)
        .map(|(_, w)| w.shell_quoted());
    // Its environment goes with it (`GIT_DIR`, the override prefix), but for the
    // configuration already turned into `-c` options, so the alias is not defined twice.
    let assigns = cmd
        .assigns
        .iter()
        .filter(|(name, _)| !name.starts_with("GIT_CONFIG_"))
        .map(|(name, value)| format!("{name}={}", value.shell_quoted()));
    let script = assigns
        .chain(["git".to_string()])
        .chain(globals)
        .chain([value.text.clone()])
        .chain(rest)
        .collect::<Vec<_>>()
        .join(" ");
    Run::Script {
        cmd,
        script,
        via: Via::Direct,
        literal,
    }
}

/// The last `-c alias.<name>=<value>` among git's global options for the subcommand `sub`:
/// where the definition's `-c` stands among git's arguments, and the alias's value. Alias
/// names ignore case.
fn line_alias(read: &crate::syntax::git::GitArgs, sub: &Word) -> Option<(usize, Word)> {
    let name = sub.value()?.to_ascii_lowercase();
    read.globals
        .iter()
        .rev()
        .filter(|g| g.name == "-c")
        .find_map(|g| {
            let setting = g.value.as_ref()?;
            let (key, value) = setting.text.split_once('=')?;
            let alias = key.to_ascii_lowercase().strip_prefix("alias.")? == name;
            alias.then(|| {
                let value = Word {
                    text: value.to_string(),
                    literal: setting.literal,
                };
                (g.at, value)
            })
        })
}

/// `git [options] submodule [--quiet] foreach [--recursive] [--quiet] [--] <command>...`:
/// git runs the command with `sh -c` in every submodule, its first word as shell text and
/// the others as that script's arguments.
fn submodule_foreach(mut cmd: SimpleCommand, at: usize) -> Run {
    let mut i = at + 1;
    while cmd
        .argv
        .get(i)
        .is_some_and(|w| matches!(w.text.as_str(), "-q" | "--quiet" | "--cached"))
    {
        i += 1;
    }
    if cmd.argv.get(i).is_none_or(|w| w.text != "foreach") {
        return Run::Command(cmd);
    }
    i += 1;
    while cmd
        .argv
        .get(i)
        .is_some_and(|w| matches!(w.text.as_str(), "-q" | "--quiet" | "--recursive"))
    {
        i += 1;
    }
    if cmd.argv.get(i).is_some_and(|w| w.text == "--") {
        i += 1;
    }
    let Some(first) = cmd.argv.get(i) else {
        return Run::Command(cmd);
    };
    let rest = cmd.argv[i + 1..].iter().map(Word::shell_quoted);
    let script = [first.text.clone()]
        .into_iter()
        .chain(rest)
        .collect::<Vec<_>>()
        .join(" ");
    let literal = cmd.argv[i..].iter().all(|w| w.literal);
    // It runs inside each submodule, not where the line runs.
    cmd.dirs.push(Word {
        text: "$sm_path".into(),
        literal: false,
    });
    Run::Script {
        cmd,
        script,
        via: Via::ShellArgument,
        literal,
    }
}

/// Configuration the environment gives git (`GIT_CONFIG_COUNT` with `GIT_CONFIG_KEY_<n>` and
/// `GIT_CONFIG_VALUE_<n>`, then `GIT_CONFIG_PARAMETERS`), in the order git applies it. Only
/// literal settings are read.
fn git_env_config(assigns: &[(String, Word)]) -> Vec<(String, String)> {
    let get = |name: &str| {
        assigns
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .and_then(|(_, w)| w.value())
    };
    let mut out = Vec::new();
    let count = get("GIT_CONFIG_COUNT").and_then(|n| n.parse::<usize>().ok());
    // A count beyond the assignments on the line cannot be filled from them.
    for n in 0..count.unwrap_or(0).min(assigns.len()) {
        if let (Some(key), Some(value)) = (
            get(&format!("GIT_CONFIG_KEY_{n}")),
            get(&format!("GIT_CONFIG_VALUE_{n}")),
        ) {
            out.push((key.to_string(), value.to_string()));
        }
    }
    if let Some(params) = get("GIT_CONFIG_PARAMETERS") {
        out.extend(config_parameters(params));
    }
    out
}

/// `GIT_CONFIG_PARAMETERS`: single-quoted `'key=value'` or `'key'='value'` entries separated
/// by spaces, a quote inside written `'\''`. A key with no value means true.
fn config_parameters(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    // One shell-quoted word: quoted runs and backslash escapes, up to a space or `=`.
    let word = |chars: &mut std::iter::Peekable<std::str::Chars>| {
        let mut w = String::new();
        while let Some(&c) = chars.peek() {
            match c {
                '\'' => {
                    chars.next();
                    w.extend(chars.by_ref().take_while(|&c| c != '\''));
                }
                '\\' => {
                    chars.next();
                    w.extend(chars.next());
                }
                ' ' | '=' => break,
                _ => {
                    w.push(c);
                    chars.next();
                }
            }
        }
        w
    };
    loop {
        while chars.next_if_eq(&' ').is_some() {}
        if chars.peek().is_none() {
            return out;
        }
        let first = word(&mut chars);
        let entry = if chars.next_if_eq(&'=').is_some() {
            (first, word(&mut chars))
        } else {
            match first.split_once('=') {
                Some((k, v)) => (k.to_string(), v.to_string()),
                None => (first, "true".to_string()),
            }
        };
        if entry.0.is_empty() {
            // Text that is no entry: stop rather than misread what follows.
            return out;
        }
        out.push(entry);
    }
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

/// `at TIME` and `batch` read a job on stdin and run it later with `sh`. With `-f FILE` the
/// job is in a file this line does not show; `-l`, `-r`/`-d`, `-c` and `-V` list, remove
/// or print jobs and schedule none.
fn at(cmd: SimpleCommand) -> Run {
    let mut args = cmd.argv[1..].iter();
    while let Some(word) = args.next() {
        let Some(flags) = word.text.strip_prefix('-').filter(|f| !f.starts_with('-')) else {
            continue;
        };
        for (i, flag) in flags.char_indices() {
            match flag {
                'f' | 'l' | 'r' | 'd' | 'c' | 'V' => return Run::Command(cmd),
                // `-q QUEUE`, `-t TIME`: the value is the rest of the word or the next one.
                'q' | 't' => {
                    if flags[i + 1..].is_empty() {
                        args.next();
                    }
                    break;
                }
                _ => {}
            }
        }
    }
    Run::ShellReadingStdin {
        cmd,
        via: Via::Scheduled,
    }
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
            return Run::ShellReadingStdin {
                cmd,
                via: Via::ShellStdin,
            };
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
            // `{}` stands for each file found: known only when find runs.
            let literal = w.literal && !w.text.contains("{}");
            argv.push(Word {
                text: w.text.clone(),
                literal,
            });
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
                fed_by: Vec::new(),
                call: None,
            });
        }
    }
    execs
}

/// The commands `fd`'s `-x`/`--exec` and `-X`/`--exec-batch` run: each one's words up to a
/// `;` or the end of the line, a placeholder (`{}`, `{/}`, `{//}`, `{.}`, `{/.}`) standing for
/// each file found, or the files appended when it names none. Each carries the search it
/// runs for (fd's own words, without the commands) as what feeds it.
fn fd_execs(fd: &SimpleCommand) -> Vec<SimpleCommand> {
    const PLACEHOLDERS: [&str; 5] = ["{}", "{/}", "{//}", "{.}", "{/.}"];
    let mut search = vec![fd.argv[0].clone()];
    let mut commands: Vec<Vec<Word>> = Vec::new();
    let mut words = fd.args().iter();
    while let Some(word) = words.next() {
        if !matches!(word.text.as_str(), "-x" | "--exec" | "-X" | "--exec-batch") {
            search.push(word.clone());
            continue;
        }
        let mut argv: Vec<Word> = Vec::new();
        let mut placeholder = false;
        for w in words.by_ref() {
            if w.text == ";" {
                break;
            }
            let stands_for_file = PLACEHOLDERS.iter().any(|p| w.text.contains(p));
            placeholder |= stands_for_file;
            argv.push(Word {
                text: w.text.clone(),
                literal: w.literal && !stands_for_file,
            });
        }
        if !argv.is_empty() {
            if !placeholder {
                argv.push(Word {
                    text: "{}".into(),
                    literal: false,
                });
            }
            commands.push(argv);
        }
    }
    commands
        .into_iter()
        .map(|argv| SimpleCommand {
            argv,
            assigns: Vec::new(),
            via: Via::FdExec,
            span: fd.span.clone(),
            uncertain: true,
            dirs: fd.dirs.clone(),
            redirects: Vec::new(),
            input: None,
            fed_by: vec![search.clone()],
            call: None,
        })
        .collect()
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
    use super::config_parameters;
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

    #[test]
    fn config_parameters_reads_both_forms_and_quotes() {
        let pairs = |text: &str| config_parameters(text);
        assert_eq!(
            pairs("'alias.x=reset --hard' 'gc.pruneexpire'='now'"),
            [
                ("alias.x".to_string(), "reset --hard".to_string()),
                ("gc.pruneexpire".to_string(), "now".to_string())
            ]
        );
        assert_eq!(
            pairs(r"'alias.q'='!echo '\''hi'\'''"),
            [("alias.q".to_string(), "!echo 'hi'".to_string())]
        );
        assert_eq!(
            pairs("'core.bare'"),
            [("core.bare".to_string(), "true".to_string())]
        );
        assert!(pairs("=oops 'a.b=c'").is_empty());
    }
}
