//! Commands that run shell text or another command for their own ends: `watch`, `su -c`,
//! `flock`, `runuser`, `script`, a `trap` action, and `at`/`batch` reading a job.

use super::wrappers::{PLAIN, Wrapper, long_takes, peel, short_takes};
use super::{Run, SimpleCommand, Start, Via, Word, joined};
use crate::syntax::argv::{self, Opt, Options, Spelling, Style, Takes, Valued};

/// `watch [options] command...`: joined and run by `sh -c`, or exec'd as is with `-x`.
pub(super) fn watch(argv: &[Word]) -> Start {
    let args = argv.get(1..).unwrap_or_default();
    let head = argv::read_head(args, Style::Getopt, &WatchOptions);
    let ends = |o: &Opt| o.spelling == Spelling::Long && matches!(o.name, "help" | "version");
    if head.opts.iter().any(ends) {
        return Start::Nothing;
    }
    let exec = head.on(&["x", "exec"]);
    let i = head.stopped_at.map_or(argv.len(), |at| at + 1);
    let Some(words) = argv.get(i..).filter(|w| !w.is_empty()) else {
        return Start::Nothing;
    };
    if exec {
        return Start::At(i);
    }
    // watch joins its words with spaces for `sh -c`; a word that held spaces was most
    // likely one quoted argument (`watch sh -c 'git reset --hard'`). Both readings are
    // parsed, one per line, so neither can hide a command.
    let (mut script, literal) = joined(words);
    let quoted: Vec<String> = words.iter().map(Word::shell_quoted).collect();
    let quoted = quoted.join(" ");
    if words.len() > 1 && quoted != script {
        script = format!("{script}\n{quoted}");
    }
    Start::Script { script, literal }
}

/// watch's options (procps): `-d` and `--differences` take a value only attached.
struct WatchOptions;

impl Options for WatchOptions {
    fn long(&self, name: &str) -> Option<Takes> {
        Some(match name {
            "differences" => Takes::Attached,
            _ => long_takes(&["interval", "equexit"], name),
        })
    }
    fn short(&self, letter: char) -> Option<Takes> {
        Some(match letter {
            'd' => Takes::Attached,
            _ => short_takes("nq", letter),
        })
    }
}

/// su's options (util-linux) that take a value; `-c`/`--command` gives the script.
const SU: Valued = Valued(&[
    "c",
    "command",
    "s",
    "shell",
    "g",
    "group",
    "G",
    "supp-group",
    "w",
    "whitelist-environment",
]);

/// The script of `su -c SCRIPT` / `su --command=SCRIPT`, wherever it stands (su reads
/// its options around the user's name); the last one given is the one that runs.
pub(super) fn su_script(argv: &[Word]) -> Option<Word> {
    let args = argv.get(1..).unwrap_or_default();
    argv::read(args, Style::Getopt, &SU)
        .last(&["c", "command"])?
        .value_in(args)
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

impl Options for Runner {
    fn long(&self, name: &str) -> Option<Takes> {
        Some(if name == "command" {
            Takes::Value
        } else {
            long_takes(self.long_value, name)
        })
    }
    fn short(&self, letter: char) -> Option<Takes> {
        Some(if letter == 'c' {
            Takes::Value
        } else {
            short_takes(self.short_value, letter)
        })
    }
}

/// Finds `-c SCRIPT` (also in a cluster: `-qc SCRIPT`, `-cSCRIPT`) or `--command SCRIPT`
/// among the runner's own options, or else the command after its operands. Options may
/// stand before and after each operand, but words of the command itself are never read as
/// the runner's options (`flock l git -c x reset`).
fn run_or_script(argv: &[Word], spec: &Runner) -> Start {
    let mut seen = 0;
    let mut from = 1;
    let command = loop {
        let args = argv.get(from..).unwrap_or_default();
        let head = argv::read_head(args, Style::Getopt, spec);
        let script = head.opts.iter().find(|opt| match opt.spelling {
            Spelling::Short => opt.is("c"),
            Spelling::Long => opt.is("command"),
        });
        if let Some(opt) = script {
            return opt.value_in(args).map_or(Start::Nothing, Start::script);
        }
        let Some(stop) = head.stopped_at else {
            return Start::Nothing;
        };
        // After `--` come the operands left, then the command: no more options.
        let dashdash = stop > 0
            && args.get(stop - 1).is_some_and(|w| w.text == "--")
            && head
                .opts
                .last()
                .is_none_or(|o| o.value_word != Some(stop - 1));
        if dashdash {
            break from + stop + spec.operands - seen;
        }
        if seen == spec.operands {
            break from + stop;
        }
        seen += 1;
        from += stop + 1;
    };
    if spec.command_follows && command < argv.len() {
        Start::At(command)
    } else {
        Start::Nothing
    }
}

/// `flock [options] FILE COMMAND...`, `flock [options] FILE -c SCRIPT`; `flock FD` alone
/// runs nothing.
pub(super) fn flock(argv: &[Word]) -> Start {
    run_or_script(
        argv,
        &Runner {
            short_value: "wE",
            long_value: &["timeout", "wait", "conflict-exit-code"],
            operands: 1,
            command_follows: true,
        },
    )
}

/// `runuser -u USER [--] COMMAND...`, or su's form `runuser [-l] USER -c SCRIPT`. `None`:
/// a login shell, or arguments for one, which run nothing this line shows.
pub(super) fn runuser(argv: &[Word]) -> Option<Start> {
    let spec = Wrapper {
        short_value: "ugGws",
        long_value: &[
            "user",
            "group",
            "supp-group",
            "whitelist-environment",
            "shell",
        ],
        short_no_command: "V",
        ..PLAIN
    };
    let head = argv::read_head(argv.get(1..).unwrap_or_default(), Style::Getopt, &spec);
    if head.last(&["u", "user"]).is_none() {
        // su's form: no command follows, only a script given to `-c`.
        return su_script(argv).map(Start::script);
    }
    match peel(&spec, argv) {
        Start::Nothing => None,
        start => Some(start),
    }
}

/// `script [options] [-c SCRIPT] [file]` (util-linux), or the BSD form
/// `script [options] FILE COMMAND...`; with neither it starts an interactive shell.
pub(super) fn script_command(argv: &[Word]) -> Start {
    run_or_script(
        argv,
        &Runner {
            short_value: "EIOBTmot",
            long_value: &[
                "echo",
                "log-in",
                "log-out",
                "log-io",
                "log-timing",
                "logging-format",
                "output-limit",
            ],
            operands: 1,
            command_follows: true,
        },
    )
}

/// The action of `trap ACTION SIGNAL...`: shell text run when a signal (or `EXIT`) comes.
/// `trap - SIG` resets, `trap '' SIG` ignores, `trap -l`/`-p` list.
pub(super) fn trap_action(argv: &[Word]) -> Option<Word> {
    let args = argv.get(1..)?;
    let head = argv::read_head(args, Style::Getopt, &Valued(&[]));
    // An action known only at run time is one whatever it starts with.
    let first = match head.opts.first() {
        Some(opt) if args.get(opt.word)?.literal => return None,
        Some(opt) => opt.word,
        None => head.stopped_at?,
    };
    let [action, _signal, ..] = args.get(first..)? else {
        return None;
    };
    let reset = action.literal && action.text == "-";
    (!reset && !action.text.trim().is_empty()).then(|| action.clone())
}

/// `at TIME` and `batch` read a job on stdin and run it later with `sh`. With `-f FILE` the
/// job is in a file this line does not show; `-l`, `-r`/`-d`, `-c` and `-V` list, remove
/// or print jobs and schedule none.
pub(super) fn at(cmd: SimpleCommand) -> Run {
    let read = argv::read(cmd.args(), Style::Getopt, &Valued(&["f", "q", "t"]));
    let schedules_none = |o: &Opt| {
        o.spelling == Spelling::Short && matches!(o.name, "f" | "l" | "r" | "d" | "c" | "V")
    };
    if read.opts.iter().any(schedules_none) {
        return Run::Command(cmd);
    }
    Run::ShellReadingStdin {
        cmd,
        via: Via::Scheduled,
    }
}
