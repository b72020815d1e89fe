//! Shell analysis: the only place that reads shell text.
//!
//! [`analyze`] turns a command line into every [`SimpleCommand`] the shell would run: at any
//! position in lists and pipelines, inside `$( )`, backticks, subshells and compound
//! statements, through wrappers (`sudo`, `env`, `timeout`, ...), `sh -c`, `eval`, `xargs`,
//! `find -exec` and scripts fed to a shell on stdin. Text that is only data (quoted
//! arguments, comments, heredocs nobody executes) never becomes a command.
//!
//! It knows nothing of rules: it answers "what would run", never "is that dangerous".

mod parse;
mod pieces;
mod unwrap;

pub use unwrap::wrapped;
mod values;
pub mod word;

use std::ops::Range;
use std::path::Path;

use crate::lang::Deadline;
use crate::syntax::argv::{self, Style, Valued};

pub use crate::motion::channels::Elsewhere;
pub use crate::syntax::{Incomplete, MAX_INPUT_BYTES, MAX_NESTING, PARSE_DEADLINE, Redirect, Word};

/// How a command was reached, for reasons and for telling the agent where we looked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    /// Written directly in the command line (lists, pipelines, compound statements).
    Direct,
    /// Inside `$( )`, backticks or `<( )`.
    Substitution,
    /// The script argument of `sh -c`, `bash -lc`, `su -c`, `watch`, `env -S`.
    ShellArgument,
    /// The arguments of `eval`.
    Eval,
    /// A script fed to a shell on stdin: heredoc, here-string, `echo ... | sh`.
    ShellStdin,
    /// The command `xargs` runs.
    Xargs,
    /// The command `find -exec`/`-execdir`/`-ok`/`-okdir` runs.
    FindExec,
    /// The command `fd --exec`/`--exec-batch` runs.
    FdExec,
    /// A job GNU `parallel` runs.
    Parallel,
    /// The action of a `trap`, run when a signal or the shell's exit comes.
    Trap,
    /// A job `at` or `batch` reads on stdin and runs later.
    Scheduled,
    /// A script file the line runs (`bash scripts/reset.sh`, `./fix.sh`, `source env.sh`), as
    /// the line wrote it (`cat > fix.sh <<EOF`) or as it is on disk.
    ScriptFile,
    /// Found in code given to an interpreter (`python3 -c`, `node -e`, PowerShell, `cmd /c`).
    Embedded(crate::lang::Lang),
    /// Shell text sent to run elsewhere (`ssh host '...'`); where is the command's
    /// [`SimpleCommand::elsewhere`].
    Sent,
    /// A recipe a task runner runs (`npm run build`, `make clean`, `just reset`).
    Recipe,
}

impl Via {
    pub fn describe(self) -> Option<&'static str> {
        match self {
            Via::Direct => None,
            Via::Substitution => Some("inside a command substitution"),
            Via::ShellArgument => Some("inside a `sh -c` script"),
            Via::Eval => Some("inside `eval`"),
            Via::ShellStdin => Some("in a script fed to a shell"),
            Via::Xargs => Some("run by `xargs`"),
            Via::FindExec => Some("run by `find -exec`"),
            Via::FdExec => Some("run by `fd --exec`"),
            Via::Parallel => Some("run by `parallel`"),
            Via::Trap => Some("in a `trap` action"),
            Via::Scheduled => Some("in a job scheduled with `at`"),
            Via::ScriptFile => Some("in a script file the line runs"),
            Via::Embedded(lang) => Some(lang.describe()),
            Via::Sent => None,
            Via::Recipe => Some("in a recipe a task runner runs"),
        }
    }
}

/// One command the shell would execute, wrappers peeled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimpleCommand {
    /// The program and its arguments, de-quoted. Never empty.
    pub argv: Vec<Word>,
    /// `NAME=value` prefixes (including those given to `env`).
    pub assigns: Vec<(String, Word)>,
    pub via: Via,
    /// Byte range in the top-level command line this command came from.
    pub span: Range<usize>,
    /// Some arguments are only known at run time (`xargs` appends its input; a script
    /// built from variables was parsed from its unexpanded text).
    pub uncertain: bool,
    /// The `cd`/`pushd` arguments in effect when it runs, in order, relative to where the
    /// command line starts (`cd app && rm -rf build` gives `["app"]`). A non-literal word
    /// means the directory is not known.
    pub dirs: Vec<Word>,
    /// Files redirected to or from (`> out.txt`, `2>> log`, `< in`), in order.
    pub redirects: Vec<Redirect>,
    /// What it reads on stdin, when the command line shows it (a heredoc, a here-string,
    /// the output of an `echo` piped in).
    pub input: Option<String>,
    /// The commands whose output becomes its arguments or instructions, first to last,
    /// wrappers peeled: the earlier stages of its pipeline when it is `xargs`, `parallel` or
    /// `git update-ref --stdin` (`find . -name '*.c' | xargs rm`), the command substitution
    /// that gives a deleter its operands (`rm $(find . -name '*.c')`), or the search
    /// `fd --exec` runs it for. What they list is known by how they pick it, not by name.
    pub fed_by: Vec<Vec<Word>>,
    /// The call it was lowered from, when it comes from interpreter code
    /// (`shutil.rmtree('out')` for `rm -r out`): reasons name the call as written.
    pub call: Option<String>,
    /// Where it runs when that is not here: a container, a pod, another host
    /// (`docker exec api rm -rf /srv`). Its `dirs` are then the `cd`s made over there.
    pub elsewhere: Option<Elsewhere>,
    /// The recipe it runs in, when a task runner runs it, or the line of the script file it
    /// stands in: reasons name the runner command, where the recipe or line is and what it
    /// says.
    pub recipe: Option<Box<FromRecipe>>,
}

/// The recipe or script file line a command comes from, as reasons show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FromRecipe {
    /// The runner command, wrappers peeled (`pnpm run fresh`, `bash scripts/reset.sh`).
    pub runner: String,
    /// Where the recipe is defined (`package.json scripts.fresh`) or the file and line
    /// (`scripts/reset.sh:4`), and through which other recipes or script lines it was
    /// reached.
    pub source: String,
    /// The recipe's text, or the line's.
    pub text: String,
}

impl SimpleCommand {
    /// A command of just these words, run directly where the line starts: what a tool call or
    /// a word list stands for when no shell line wrote it.
    pub fn of_words(argv: Vec<Word>) -> SimpleCommand {
        SimpleCommand {
            argv,
            assigns: Vec::new(),
            via: Via::Direct,
            span: 0..0,
            uncertain: false,
            dirs: Vec::new(),
            redirects: Vec::new(),
            input: None,
            fed_by: Vec::new(),
            call: None,
            elsewhere: None,
            recipe: None,
        }
    }

    /// The program's name when it is literal: `/usr/bin/rm`, `\rm` and `"rm"` all give `rm`.
    pub fn program(&self) -> Option<&str> {
        self.argv.first().and_then(program_name)
    }

    pub fn args(&self) -> &[Word] {
        self.argv.get(1..).unwrap_or_default()
    }

    /// The value of a `NAME=value` prefix, if literal.
    pub fn assigned(&self, name: &str) -> Option<&str> {
        self.assigns
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .and_then(|(_, w)| w.value())
    }

    /// The command as a shell line again, for messages and suggested rewrites.
    pub fn display(&self) -> String {
        self.argv
            .iter()
            .map(Word::shell_quoted)
            .collect::<Vec<_>>()
            .join(" ")
    }
}

fn program_name(word: &Word) -> Option<&str> {
    let text = word.value()?;
    let base = text.rsplit('/').next().unwrap_or(text);
    (!base.is_empty()).then_some(base)
}

/// A part of the line that was not read: the code, and where its command stands in the line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unread {
    pub code: String,
    pub span: Range<usize>,
    /// Why, when it is not code an interpreter reader gave up on (a recipe that could not
    /// be resolved).
    pub why: Option<String>,
}

/// Everything the shell would run, as far as it could be seen.
#[derive(Debug, Default)]
pub struct Analysis {
    pub commands: Vec<SimpleCommand>,
    /// Set when part of the input was not analyzed; callers must not read silence as safety.
    pub incomplete: Option<Incomplete>,
    /// Code handed to an interpreter that its reader could not follow (a quote that never
    /// ends, the command inside cmd's `for`): the rest of the line was read, this was not.
    pub unread: Vec<Unread>,
    /// The shell would reject some of the text; the commands before and around it are kept.
    pub syntax_error: bool,
    /// Byte ranges of the line whose commands need not run in the order written: loop
    /// bodies (a later command runs before the next round), pipelines and lists with a
    /// background `&` (they run at the same time).
    pub together: Vec<Range<usize>>,
    /// Loop bodies (with their conditions): a command in one may run again and again.
    pub loops: Vec<Range<usize>>,
    /// Function bodies: they run whenever the function is called, after anything.
    pub deferred: Vec<Range<usize>>,
}

impl Analysis {
    /// The commands that may run before `commands[at]` starts, or while it runs: those
    /// written before it, those inside it (its `$( )`, a script it runs), and any other
    /// that shares a loop, pipeline or background list with it; everything, when it lies
    /// in a function body, is a `trap` action (it runs at exit or on a signal) or a job
    /// scheduled with `at`: those run after whatever was written around them.
    pub fn before(&self, at: usize) -> Vec<&SimpleCommand> {
        let Some(earlier) = self.runs_before(at) else {
            return Vec::new();
        };
        self.commands
            .iter()
            .enumerate()
            .filter(|&(i, _)| earlier(i))
            .map(|(_, cmd)| cmd)
            .collect()
    }

    /// Whether `commands[i]` is one of [`Analysis::before`]`(at)`, asked of one command at
    /// a time: a caller that wants only a few of them need not list them all. `None` when
    /// there is no `commands[at]`.
    pub fn runs_before(&self, at: usize) -> Option<impl Fn(usize) -> bool + '_> {
        let this = self.commands.get(at)?;
        let within = |outer: &Range<usize>, inner: &Range<usize>| {
            outer.start <= inner.start && inner.end <= outer.end
        };
        let deferred = matches!(this.via, Via::Trap | Via::Scheduled)
            || self.deferred.iter().any(|r| within(r, &this.span));
        Some(move |i: usize| {
            i != at
                && (i < at
                    || deferred
                    || self.commands.get(i).is_some_and(|cmd| {
                        within(&this.span, &cmd.span)
                            || within(&cmd.span, &this.span)
                            || self
                                .together
                                .iter()
                                .any(|r| within(r, &this.span) && within(r, &cmd.span))
                    }))
        })
    }
}

/// What `cmd` leaves in the file `target` (a word of its own), when the line shows it all:
/// `cat > f <<'EOF'`, `echo … > f`, `printf '…' > f`, `… | tee f`. `None` for an append, and
/// for anything else it writes there, which is known only when it runs.
pub fn written_by(cmd: &SimpleCommand, target: &Word) -> Option<String> {
    let named = |word: &Word| word.value().is_some() && word.value() == target.value();
    let redirected = cmd
        .redirects
        .iter()
        .filter(|r| r.writes() && named(&r.target))
        .collect::<Vec<_>>();
    let tee = cmd.program() == Some("tee") && cmd.args().iter().any(named);
    // Any option of tee's (`-a`, `-p`, `--output-error`) is not followed here.
    let read = argv::read(cmd.args(), Style::Getopt, &Valued(&[]));
    let appends = redirected.iter().any(|r| r.op.contains(">>")) || tee && !read.opts.is_empty();
    // `printf FORMAT ARGS…` fills the format in: only a format alone is shown as it prints.
    let filled = cmd.program() == Some("printf") && cmd.args().len() > 1;
    let output = match (tee, redirected.as_slice()) {
        _ if appends => None,
        (true, []) => cmd.input.clone(),
        (false, [_]) if !filled => parse::printed(cmd.clone()),
        _ => None,
    };
    output.map(|text| format!("{text}\n"))
}

/// Analyzes one command line.
pub fn analyze(command: &str) -> Analysis {
    analyze_as(command, Dialect::Posix)
}

/// The language a host's tool runs its command in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Dialect {
    /// A POSIX shell (bash, zsh, sh): every host's shell tool.
    #[default]
    Posix,
    /// PowerShell: Copilot CLI's `powershell` tool, Claude Code's `PowerShell` tool.
    PowerShell,
}

/// Analyzes one command line written for `dialect`, as text alone: no recipe file is read.
pub fn analyze_as(command: &str, dialect: Dialect) -> Analysis {
    analyze_within(
        command,
        dialect,
        Deadline::after(PARSE_DEADLINE),
        Files::Unread,
    )
}

/// Analyzes one command line written for `dialect` that runs in `cwd` (the process's
/// current directory when `None`): the recipes a task runner in it runs are read from the
/// files there.
pub fn analyze_in(command: &str, dialect: Dialect, cwd: Option<&Path>) -> Analysis {
    let files = cwd.map_or(Files::Current, Files::In);
    analyze_within(command, dialect, Deadline::after(PARSE_DEADLINE), files)
}

/// What only git can tell of the repository a line runs in, for the words a line computes
/// from it (`rm -rf "$(git rev-parse --show-toplevel)/target"`). This layer reads text and
/// runs nothing: the caller that may look at the repository answers (the context, under its
/// deadline), and without an answer such a word stays unknown. Asked only for a line that
/// substitutes `git rev-parse`, so every other line costs no git process.
pub trait Repository {
    /// What `git rev-parse <flag>` prints run in `dir`, its newline dropped, for a flag of
    /// [`REV_PARSE_FLAGS`]; `None` when that is not known.
    fn rev_parse(&self, dir: &Path, flag: &str) -> Option<String>;
}

/// The `git rev-parse` flags whose output names a folder: the top of the work tree, the
/// way from it to here and back, and the repository's own folder.
pub const REV_PARSE_FLAGS: &[&str] = &[
    "--show-toplevel",
    "--show-prefix",
    "--show-cdup",
    "--git-dir",
    "--absolute-git-dir",
    "--git-common-dir",
];

/// [`analyze_in`], with `repository` answering for the words the line computes from git.
pub fn analyze_asking(
    command: &str,
    dialect: Dialect,
    cwd: Option<&Path>,
    repository: &dyn Repository,
) -> Analysis {
    let files = cwd.map_or(Files::Current, Files::In);
    run_walker(
        command,
        dialect,
        Deadline::after(PARSE_DEADLINE),
        files,
        Some(repository),
    )
}

/// Where the files a line's task runners read are found.
#[derive(Debug, Clone, Copy)]
pub enum Files<'a> {
    /// Nowhere: the line is read as text alone.
    Unread,
    /// From this directory.
    In(&'a Path),
    /// From the process's current directory, asked for only when a runner needs it.
    Current,
}

/// Analyzes one command line written for `dialect`, reading nothing more once `deadline`
/// passes: the line, every script nested in it and every piece of code it hands an
/// interpreter share it. Recipe files are read from where `files` says.
pub fn analyze_within(
    command: &str,
    dialect: Dialect,
    deadline: Deadline,
    files: Files,
) -> Analysis {
    run_walker(command, dialect, deadline, files, None)
}

fn run_walker(
    command: &str,
    dialect: Dialect,
    deadline: Deadline,
    files: Files,
    repository: Option<&dyn Repository>,
) -> Analysis {
    if command.len() > MAX_INPUT_BYTES {
        return Analysis {
            incomplete: Some(Incomplete::TooLarge),
            ..Analysis::default()
        };
    }
    let cwd = match files {
        Files::Unread => None,
        Files::In(dir) => Some(Some(dir.to_path_buf())),
        Files::Current => Some(None),
    };
    let walker = parse::Walker::new(deadline, cwd, repository);
    match dialect {
        Dialect::Posix => walker.run(command),
        Dialect::PowerShell => walker.run_code(crate::lang::Lang::PowerShell, command),
    }
}
