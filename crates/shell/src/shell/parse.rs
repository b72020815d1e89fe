//! The walker over tree-sitter-bash's syntax tree.
//!
//! Iterative, with its own stack of pending nodes (deep `$( $( ... ) )` nesting must not
//! overflow our stack, and tree-sitter's `parent()` is slow on deep trees). Each stack item
//! carries how the node was reached and, for a command, what its stdin holds when we can
//! know it (a heredoc, a here-string, `echo ... |`), so a script fed to a shell is parsed too.

use std::borrow::Cow;
use std::cell::Cell;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use tree_sitter::{Node, Tree};

use super::pieces;
use super::unwrap::{self, Run};
use super::values::{self, Env, MAX_VARIANTS, Value, Vars};
use super::word::{self, Word};
use super::{
    Analysis, Elsewhere, FromRecipe, Incomplete, MAX_NESTING, Redirect, SimpleCommand, Unread, Via,
};
use crate::lang::{self, Code, Deadline, Effect, Grammar, Lang, ScriptArgs};
use crate::motion::channels::Sent;
use crate::motion::recipes::{self, Outcome};
use crate::syntax::argv::{self, Style, Valued};
use crate::syntax::writes::{self, How};

struct Item<'t> {
    node: Node<'t>,
    via: Via,
    /// Index into [`Walker::scopes`]: the shell (or subshell) this node runs in.
    scope: usize,
    /// What a redirect around this node gives the command it belongs to.
    attached: Attached,
}

/// What tree-sitter hangs on a node around a command rather than on the command itself.
#[derive(Default)]
struct Attached {
    /// What the command reads on stdin, when known (heredoc, here-string, `echo ... |`).
    stdin: Option<String>,
    /// Words tree-sitter attached to a redirect that are really the command's arguments
    /// (`git checkout 2>/dev/null -- foo`), or that error recovery cut off.
    extra: Vec<Word>,
    /// Files the command's output is redirected to or read from.
    redirects: Vec<Redirect>,
    /// The earlier stages of its pipeline, when it reads names from them.
    fed_by: Vec<Vec<Word>>,
}

impl Attached {
    fn is_empty(&self) -> bool {
        self.stdin.is_none()
            && self.extra.is_empty()
            && self.redirects.is_empty()
            && self.fed_by.is_empty()
    }
}

impl<'t> Item<'t> {
    fn new(node: Node<'t>, via: Via, scope: usize, stdin: Option<String>) -> Self {
        Item {
            node,
            via,
            scope,
            attached: Attached {
                stdin,
                ..Attached::default()
            },
        }
    }
}

pub(super) struct Walker<'r> {
    /// The one deadline of the whole line: nested scripts and embedded code share it.
    deadline: Deadline,
    out: Analysis,
    /// Where the top-level text lost bytes to [`join_lines`], to report spans in the
    /// command line as the host sent it.
    removed: Removed,
    /// The `cd` arguments in effect in each shell and subshell seen so far. A subshell
    /// starts from a copy of its parent's, and its own `cd`s never leak out.
    scopes: Vec<Vec<Word>>,
    /// Files the line writes, in order, with their text when the line shows it: a later
    /// command may run one as a script.
    written: Vec<Written>,
    /// Literal values the line gives shell variables (`cmd="git reset --hard"`), for a
    /// command run as `$cmd`.
    values: Vec<(String, String)>,
    /// The directory the line starts in, where task runners' recipe files are read
    /// (inside, `None` for the process's current directory, found when first needed);
    /// `None` when the line is read as text alone.
    cwd: Option<Option<PathBuf>>,
    /// The variables of each shell in [`Walker::scopes`], at the same index.
    vars: Vec<Vars>,
    /// Names a function body or `trap` action assigns, with the values it may give them:
    /// wherever read, they may hold those or anything.
    poisoned: Vec<(String, Vec<Value>)>,
    /// A function body or `trap` action may assign any name (it runs `eval "$x"`).
    all_poisoned: bool,
    /// Every assignment so far: the shell it was in and what the name may then hold, for
    /// the `trap` actions that may run at any later moment.
    history: Vec<(usize, String, Vec<Value>)>,
    /// Set while a script runs in the shell of a command that may not run (`if c; then eval
    /// "$s"; fi`): what it assigns is one more possible value.
    maybe: bool,
    /// `trap` actions that read variables, read once their shell's last command is seen:
    /// they run at its exit.
    traps: Vec<PendingTrap>,
    /// Shell functions defined so far, in the line or in a script it runs, latest last.
    functions: Vec<Function>,
    /// The functions being followed into, innermost last: a call of one of them again is
    /// not followed (its body was walked once as a deferred scope already).
    calling: Vec<String>,
    /// The script files being walked, innermost last: one that runs itself again is not
    /// read again.
    running: Vec<String>,
    /// The `pushd` stack of each shell in [`Walker::scopes`] that has one.
    stacks: std::collections::HashMap<usize, DirStack>,
    /// What the next script read in a shell of its own starts with: the variables its
    /// parent exported, and its command's prefixes (`X=1 sh -c '...'`).
    inherit: Option<Vars>,
    /// Who answers what `git rev-parse` prints, when the caller may look.
    repository: Option<&'r dyn super::Repository>,
    /// Assignments after the first `&&` of a chain: may not run, but hold for sure for the
    /// commands later in the same chain.
    chained: Vec<Chained>,
    /// How many of the commands recorded so far were looked at for one that may make a
    /// repository, and whether one may: commands are only ever added, and their words never
    /// change, so each is looked at once however many words are expanded after it.
    made_repository: Cell<(usize, bool)>,
    /// Script texts this long or longer are parsed in [`pieces`].
    long_text: usize,
}

/// An assignment in a chain of `&&` (`cd x && d=$(mktemp -d) && rm -rf "$d"`).
struct Chained {
    scope: usize,
    name: String,
    values: Vec<Value>,
    /// The outermost list of the chain (its node id, in the tree it was read from).
    root: usize,
    range: Range<usize>,
    /// Where the assignment ends: a command after it in the chain runs only if it ran.
    after: usize,
    /// Its place in [`Walker::history`]: a later assignment of the name ends the hold.
    at: usize,
}

/// A shell's `pushd` stack: how many of its `cd`s were in effect at each `pushd`, so that
/// `popd` goes back to there.
#[derive(Debug, Clone, Default)]
struct DirStack {
    pushed: Vec<usize>,
    /// The last change was a `popd`: `cd -` then goes where the `cd`s do not say.
    popped: bool,
}

/// A shell function: its body's text, and where that text lies when it is in a script file.
struct Function {
    name: String,
    body: String,
    file: Option<Rc<InFile>>,
    from: Option<Box<FromRecipe>>,
    /// The body read at its first call: each call walks it again with its own words, but
    /// the text, and so its tree, is the same every time.
    read: Option<Rc<Read>>,
}

/// A text ready to walk: its continued lines joined (see [`join_lines`]), and its tree.
struct Read {
    text: String,
    removed: Removed,
    tree: Tree,
}

/// The text of a script to walk: as given, or a function's body, read once.
#[derive(Clone, Copy)]
enum Text<'a> {
    Given(&'a str),
    Body(usize),
}

/// Largest script file read from disk. Scripts people write and tools generate for a
/// project's own use (build wrappers, install scripts) are a few KiB to some tens of KiB;
/// what is bigger is generated code such as an autoconf `configure` (300 KiB to 1 MiB),
/// which no one reviews line by line either. Reading it whole would cost more than the
/// line's deadline allows, so it is judged by what the line shows of it.
pub(super) const MAX_SCRIPT_BYTES: u64 = 256 << 10;

/// A script file whose text is being walked: reasons name it and the line in it.
pub(super) struct InFile {
    /// The command that runs it, as written (`bash scripts/reset.sh`).
    runner: String,
    /// The file as the command names it.
    name: String,
    /// Lines of the file above the text walked (a function body starts inside the file).
    above: usize,
    /// Where, in the text walked, [`join_lines`] joined two lines into one.
    joins: Vec<usize>,
}

impl InFile {
    /// The same file, for a text of it `above` lines down, with its own joined lines.
    fn moved(&self, above: usize, joins: Vec<usize>) -> Rc<InFile> {
        Rc::new(InFile {
            runner: self.runner.clone(),
            name: self.name.clone(),
            above,
            joins,
        })
    }
}

/// How a file is run.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Runs {
    /// By a shell named on the line (`bash x.sh`): shell text, whatever its `#!` says.
    Shell,
    /// By `source`/`.`, in the shell of the line itself.
    Source,
    /// As a program (`./x.sh`, `bin/tool`): its `#!` line says what reads it.
    Program,
}

/// What a script file holds, as the walker can know it.
enum Load {
    /// Nothing to read: no such file, or one whose text is not known here (written by
    /// the line with text it does not show, named by a word known only at run time).
    Nothing,
    Text {
        text: String,
        name: String,
        key: String,
    },
    /// It holds NUL bytes: a compiled program, or no text a shell reads.
    Binary { seen: String },
    /// It exists but was not read: `why`.
    Unread { why: String },
}

/// The reader a `#!` line names.
enum Reader {
    Shell,
    Lang(Lang),
    Other,
}

/// What reads a file run as a program: the interpreter its `#!` line names; a file without
/// one is run by the shell (the kernel refuses it, the shell then reads it as a script).
fn shebang(text: &str) -> Reader {
    let Some(line) = text.strip_prefix("#!") else {
        return Reader::Shell;
    };
    let line = line.lines().next().unwrap_or("");
    let words: Vec<Word> = line.split_whitespace().map(Word::literal).collect();
    let mut program = words
        .first()
        .map_or("", |w| w.text.rsplit('/').next().unwrap_or(""))
        .to_string();
    if program == "env" {
        // `#!/usr/bin/env -S python3 -u`, `#!/usr/bin/env NODE_ENV=x node`.
        program = unwrap::env_program(&words).unwrap_or_default();
    }
    let program = program.as_str();
    if unwrap::is_shell(program) {
        Reader::Shell
    } else if let Some(lang) = lang::language_of(program) {
        Reader::Lang(lang)
    } else {
        Reader::Other
    }
}

/// A script file's text, or why it was not read; `None` when there is no such file. A
/// file with a NUL byte in its first KiB is no script (a compiled program): it is not read
/// further when it is bigger than a script may be.
fn read_script(path: &Path, shown: &str) -> Option<Load> {
    use std::io::Read;
    let unread = |e: std::io::Error| Load::Unread {
        why: format!("`{shown}` could not be read: {e}"),
    };
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => return Some(unread(e)),
    };
    if !meta.is_file() {
        return None;
    }
    let mut file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) => return Some(unread(e)),
    };
    let mut bytes = Vec::new();
    if let Err(e) = (&mut file).take(1024).read_to_end(&mut bytes) {
        return Some(unread(e));
    }
    let binary = bytes.contains(&0);
    if meta.len() > MAX_SCRIPT_BYTES {
        return Some(if binary {
            Load::Binary {
                seen: String::new(),
            }
        } else {
            Load::Unread {
                why: format!(
                    "`{shown}` is over {} KiB, more than the guard reads",
                    MAX_SCRIPT_BYTES >> 10
                ),
            }
        });
    }
    if let Err(e) = file.read_to_end(&mut bytes) {
        return Some(unread(e));
    }
    let text = String::from_utf8_lossy(&bytes);
    if binary || bytes.contains(&0) {
        return Some(Load::Binary {
            seen: text.replace('\0', " "),
        });
    }
    let key = std::fs::canonicalize(path)
        .unwrap_or_else(|_| path.to_path_buf())
        .to_string_lossy()
        .into_owned();
    Some(Load::Text {
        text: text.into_owned(),
        name: shown.to_string(),
        key,
    })
}

/// Where a command at `node` of a walked text comes from, for reasons: the file and line
/// when the text is a script file's, or what the text itself was reached through.
fn attribution(node: Node, src: &str, origin: &Origin) -> Option<Box<FromRecipe>> {
    let Some(file) = &origin.file else {
        return origin.from.clone();
    };
    let joined = file.joins.partition_point(|&at| at <= node.start_byte());
    let line = file.above + node.start_position().row + joined + 1;
    let text = src[node.byte_range()].lines().next().unwrap_or("").trim();
    let here = format!("{}:{line}", file.name);
    Some(in_file(origin, file, here, text))
}

/// `text`, found at `here` in the script file `file` that `origin`'s command runs: by the
/// line's own command, or in turn by the script that ran that one.
fn in_file(origin: &Origin, file: &InFile, here: String, text: &str) -> Box<FromRecipe> {
    Box::new(match &origin.from {
        None => FromRecipe {
            runner: file.runner.clone(),
            source: here,
            text: text.to_string(),
        },
        Some(outer) => FromRecipe {
            runner: outer.runner.clone(),
            source: format!("{here}, run by {}", outer.source),
            text: text.to_string(),
        },
    })
}

/// `origin` for a text whose continued lines [`join_lines`] joined: when the text is a
/// script file's, reasons count each joined line as the two it was.
fn joined<'o>(origin: &'o Origin, removed: &Removed) -> Cow<'o, Origin> {
    let Some(file) = origin.file.as_ref().filter(|_| !removed.drops.is_empty()) else {
        return Cow::Borrowed(origin);
    };
    let mut last = 0;
    let mut joins = Vec::new();
    for &(at, total) in &removed.drops {
        if total - last == 2 {
            joins.push(at);
        }
        last = total;
    }
    Cow::Owned(Origin {
        file: Some(file.moved(file.above, joins)),
        ..origin.clone()
    })
}

/// The lines of a long text above each of its pieces, counted once as the pieces go by.
#[derive(Default)]
struct Lines {
    at: usize,
    above: usize,
}

impl Lines {
    /// `origin` for the piece of `text` that starts at `start`: reasons name the lines of
    /// the file, not of the piece.
    fn rebase<'o>(&mut self, origin: &'o Origin, text: &str, start: usize) -> Cow<'o, Origin> {
        self.above += text
            .get(self.at..start)
            .map_or(0, |skipped| skipped.matches('\n').count());
        self.at = start;
        let Some(file) = &origin.file else {
            return Cow::Borrowed(origin);
        };
        let joined = file.joins.partition_point(|&j| j <= start);
        let joins = file.joins.iter().filter(|&&j| j > start).map(|j| j - start);
        Cow::Owned(Origin {
            file: Some(file.moved(file.above + self.above + joined, joins.collect())),
            ..origin.clone()
        })
    }
}

/// A `trap` action waiting for the end of the shell that set it.
struct PendingTrap {
    script: String,
    origin: Origin,
    scope: usize,
    /// The variables when the trap was set.
    then: Vars,
    /// How much of [`Walker::history`] was written then.
    since: usize,
}

/// A file a command writes: where (see [`file_key`]) and the text it holds afterwards,
/// when known.
struct Written {
    key: String,
    text: Option<String>,
}

/// Where `path`, opened after the `cd`s `dirs`, lies: from where the line starts, from `/`
/// or from `~`, with `.` and `..` folded, so that two spellings of one file give one key.
/// `None` when a step is not known (`cd -`, an expansion).
fn file_key(dirs: &[Word], path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for step in dirs.iter().map(Word::value).chain([Some(path)]) {
        let step = step.filter(|s| *s != "-")?;
        if step.starts_with('/') {
            parts = vec!["/"];
        } else if step == "~" || step.starts_with("~/") {
            parts = vec!["~"];
        }
        for part in step.split('/') {
            match part {
                "" | "." | "~" => {}
                ".." => match parts.last() {
                    Some(&"/") => {}
                    Some(&"~") => return None,
                    Some(&"..") | None => parts.push(".."),
                    Some(_) => {
                        parts.pop();
                    }
                },
                part => parts.push(part),
            }
        }
    }
    Some(parts.join("/"))
}

/// Where a nested script's commands are reported in the top-level line.
#[derive(Clone)]
pub(super) struct Origin {
    pub span: Option<Range<usize>>,
    pub uncertain: bool,
    pub depth: u8,
    /// The directory changes in effect where the nested script runs.
    pub dirs: Vec<Word>,
    /// Where the nested script runs when that is not here (`ssh host '...'`).
    pub elsewhere: Option<Elsewhere>,
    /// The script file whose text this is, when it is one.
    pub file: Option<Rc<InFile>>,
    /// The script file line (or the chain of them) the text was reached through.
    pub from: Option<Box<FromRecipe>>,
}

impl Origin {
    /// A script `cmd` runs, one level below `origin`: its commands are reported where `cmd`
    /// is, and start in `cmd`'s directory.
    fn inside(cmd: &SimpleCommand, origin: &Origin) -> Origin {
        Origin {
            span: Some(cmd.span.clone()),
            uncertain: cmd.uncertain,
            depth: origin.depth + 1,
            dirs: cmd.dirs.clone(),
            elsewhere: cmd.elsewhere.clone(),
            file: None,
            from: cmd.recipe.clone(),
        }
    }
}

impl<'r> Walker<'r> {
    pub(super) fn new(
        deadline: Deadline,
        cwd: Option<Option<PathBuf>>,
        repository: Option<&'r dyn super::Repository>,
    ) -> Self {
        Walker {
            cwd,
            deadline,
            out: Analysis::default(),
            removed: Removed::default(),
            scopes: Vec::new(),
            written: Vec::new(),
            values: Vec::new(),
            vars: Vec::new(),
            poisoned: Vec::new(),
            all_poisoned: false,
            history: Vec::new(),
            maybe: false,
            traps: Vec::new(),
            functions: Vec::new(),
            calling: Vec::new(),
            running: Vec::new(),
            stacks: std::collections::HashMap::new(),
            inherit: None,
            repository,
            chained: Vec::new(),
            made_repository: Cell::new((0, false)),
            long_text: pieces::LONG_TEXT,
        }
    }

    /// The same walker, reading every text whole: what walking in [`pieces`] must equal.
    #[cfg(test)]
    pub(super) fn unpieced(self) -> Self {
        Walker {
            long_text: usize::MAX,
            ..self
        }
    }

    /// A new (sub)shell that starts in the same directory, with the same variables, as
    /// `parent`.
    fn subshell(&mut self, parent: usize) -> usize {
        let dirs = self.scopes.get(parent).cloned().unwrap_or_default();
        let vars = self.vars.get(parent).cloned().unwrap_or_default();
        let stack = self.stacks.get(&parent).cloned();
        let scope = self.new_scope(dirs, vars);
        if let Some(stack) = stack {
            self.stacks.insert(scope, stack);
        }
        scope
    }

    /// Makes the next script read in a shell of its own start with what `cmd`, run in
    /// `scope`, passes it in its environment.
    fn pass_environment(&mut self, scope: usize, cmd: &SimpleCommand) {
        let Some(vars) = self.vars.get(scope) else {
            return;
        };
        let mut child = vars.inherited();
        for (name, value) in &cmd.assigns {
            let value = value
                .value()
                .map_or(Value::Unknown, |v| Value::Text(v.to_string()));
            child.set(name, vec![value], false);
        }
        self.inherit = Some(child);
    }

    /// Follows a `cd`, `pushd` or `popd` of `scope`'s shell. `popd` goes back to where the
    /// matching `pushd` was run, whatever `cd`s came between; with no `pushd` seen, or
    /// after a `pushd` that rotates the stack, where it goes is unknown.
    fn change_directory(&mut self, scope: usize, cmd: &SimpleCommand) {
        let Some(dir) = unwrap::changes_directory(cmd) else {
            return;
        };
        let Some(dirs) = self.scopes.get_mut(scope) else {
            return;
        };
        let stack = self.stacks.entry(scope).or_default();
        let unknown = Word {
            text: "?".into(),
            literal: false,
            temp: None,
        };
        match cmd.program() {
            Some("popd") if cmd.args().is_empty() => match stack.pushed.pop() {
                Some(len) => {
                    dirs.truncate(len);
                    stack.popped = true;
                }
                None => dirs.push(unknown),
            },
            Some("popd") => {
                stack.pushed.clear();
                dirs.push(unknown);
            }
            program => {
                if program == Some("pushd") {
                    if dir.literal || dir.temp.is_some() {
                        stack.pushed.push(dirs.len());
                    } else {
                        stack.pushed.clear();
                    }
                }
                let back = dir.value() == Some("-");
                dirs.push(if back && stack.popped { unknown } else { dir });
                stack.popped = false;
            }
        }
    }

    fn new_scope(&mut self, dirs: Vec<Word>, vars: Vars) -> usize {
        self.scopes.push(dirs);
        self.vars.push(vars);
        self.scopes.len() - 1
    }

    pub(super) fn run(mut self, command: &str) -> Analysis {
        let top = Origin {
            span: None,
            uncertain: false,
            depth: 0,
            dirs: Vec::new(),
            elsewhere: None,
            file: None,
            from: None,
        };
        self.script(command, Via::Direct, &top);
        self.out
    }

    /// Analyzes a whole command line written in an embedded language (a host tool that runs
    /// PowerShell).
    pub(super) fn run_code(mut self, lang: Lang, command: &str) -> Analysis {
        let top = Origin {
            span: Some(0..command.len()),
            uncertain: false,
            depth: 0,
            dirs: Vec::new(),
            elsewhere: None,
            file: None,
            from: None,
        };
        self.new_scope(Vec::new(), Vars::default());
        self.embedded(lang, Word::literal(command), ScriptArgs::NONE, &[], &top, 0);
        self.out
    }

    fn parse(&mut self, src: &str) -> Option<Tree> {
        let tree = lang::parse(Grammar::Bash, src, self.deadline);
        if tree.is_none() {
            self.out.incomplete = Some(Incomplete::Timeout);
        }
        tree
    }

    /// Parses `src` as a shell script and records every command in it. It runs in a shell
    /// of its own: its `cd`s stay in it.
    pub(super) fn script(&mut self, src: &str, via: Via, origin: &Origin) {
        self.script_in(src, via, origin, None);
    }

    /// Parses `src` as a script run by the shell of `scope` itself (`eval`): its `cd`s
    /// move the commands after it.
    fn script_in(&mut self, src: &str, via: Via, origin: &Origin, shared: Option<usize>) {
        self.walk_text(Text::Given(src), via, origin, shared);
    }

    /// Joins the continued lines of `src` and parses it.
    fn read(&mut self, src: &str) -> Option<Rc<Read>> {
        let (text, removed) = join_lines(src);
        let tree = self.parse(&guard_brace_scanner(&text))?;
        Some(Rc::new(Read {
            text,
            removed,
            tree,
        }))
    }

    /// What [`Walker::read`] makes of `text`: a function's body is read at its first call
    /// only.
    fn read_text(&mut self, text: Text) -> Option<Rc<Read>> {
        let at = match text {
            Text::Given(src) => return self.read(src),
            Text::Body(at) => at,
        };
        let function = self.functions.get(at)?;
        if let Some(read) = &function.read {
            return Some(read.clone());
        }
        let body = function.body.clone();
        let read = self.read(&body)?;
        if let Some(function) = self.functions.get_mut(at) {
            function.read = Some(read.clone());
        }
        Some(read)
    }

    fn walk_text(&mut self, text: Text, via: Via, origin: &Origin, shared: Option<usize>) {
        let inherit = self.inherit.take();
        // Past the deadline no nested script is read: scripts that run each other many times
        // over would otherwise go on being followed one by one. (The line itself starts with
        // its deadline; its parse and walk watch the deadline on their own.)
        if origin.depth > 0
            && (self.out.incomplete == Some(Incomplete::Timeout) || self.deadline.passed())
        {
            self.out.incomplete = Some(Incomplete::Timeout);
            return;
        }
        if origin.depth > MAX_NESTING {
            self.out.incomplete = Some(Incomplete::TooDeep);
            return;
        }
        if let Text::Given(src) = text
            && origin.depth > 0
            && src.len() >= self.long_text
        {
            self.walk_long(src, via, origin, shared, inherit);
            return;
        }
        let Some(read) = self.read_text(text) else {
            return;
        };
        let origin = &joined(origin, &read.removed);
        if origin.depth == 0 {
            self.removed = read.removed.clone();
        }
        let scope = shared.unwrap_or_else(|| self.text_scope(via, origin, inherit));
        if self.walk_tree(read.tree.root_node(), &read.text, via, scope, origin) {
            self.end_text(shared, origin, scope);
        }
    }

    /// A long script, parsed in [`pieces`] on a second thread while this one walks the
    /// pieces already parsed. A piece is walked only when it parsed without an error, which
    /// proves it ended at the top level; when one did not, the rest is parsed as one.
    fn walk_long(
        &mut self,
        src: &str,
        via: Via,
        origin: &Origin,
        shared: Option<usize>,
        inherit: Option<Vars>,
    ) {
        let (text, removed) = join_lines(src);
        let scanned = guard_brace_scanner(&text);
        let origin = &joined(origin, &removed);
        let scope = shared.unwrap_or_else(|| self.text_scope(via, origin, inherit));
        let ranges = pieces::pieces(&text);
        let texts: Vec<&str> = ranges.iter().map(|r| &scanned[r.clone()]).collect();
        let finished = pieces::parsed_alongside(&texts, self.deadline, |parsed| {
            // Every tree stays alive until the last piece is walked: node ids, which the
            // walk keeps for chains of `&&`, are unique only among trees alive together.
            let mut trees = Vec::new();
            let mut lines = Lines::default();
            for (i, range) in ranges.iter().enumerate() {
                let last = i + 1 == ranges.len();
                let (range, tree) = match parsed.tree(i) {
                    Some(tree) if last || !tree.root_node().has_error() => (range.clone(), tree),
                    Some(_) => {
                        parsed.stop();
                        let rest = range.start..text.len();
                        let Some(tree) = self.parse(&scanned[rest.clone()]) else {
                            return false;
                        };
                        (rest, tree)
                    }
                    None => {
                        self.out.incomplete = Some(Incomplete::Timeout);
                        return false;
                    }
                };
                let from_here = lines.rebase(origin, &text, range.start);
                trees.push(tree);
                let Some(root) = trees.last().map(Tree::root_node) else {
                    return false;
                };
                if !self.walk_tree(root, &text[range.clone()], via, scope, &from_here) {
                    return false;
                }
                if range.end == text.len() {
                    break;
                }
            }
            true
        });
        if finished {
            self.end_text(shared, origin, scope);
        }
    }

    /// The shell a text read in a shell of its own runs in. Only the line itself starts from
    /// nothing the line does not show; a script it runs inherits what was exported, and a
    /// `trap` action runs at any time.
    fn text_scope(&mut self, via: Via, origin: &Origin, inherit: Option<Vars>) -> usize {
        let vars = match via {
            _ if origin.depth == 0 => Vars::default(),
            Via::Trap => Vars::deferred(),
            // Backquotes run in a subshell of this shell, whose `IFS` may be any.
            Via::Substitution => inherit.unwrap_or_else(Vars::opaque),
            _ => inherit.unwrap_or_else(|| Vars::new_shell(None)),
        };
        self.new_scope(origin.dirs.clone(), vars)
    }

    /// Follows every node under `root`, a tree of `src`: `false` when the deadline passed
    /// first.
    fn walk_tree(
        &mut self,
        root: Node,
        src: &str,
        via: Via,
        scope: usize,
        origin: &Origin,
    ) -> bool {
        if root.has_error() {
            self.out.syntax_error = true;
        }
        let mut stack = vec![Item::new(root, via, scope, None)];
        let mut visited = 0u32;
        while let Some(item) = stack.pop() {
            visited += 1;
            if visited.is_multiple_of(256) && self.deadline.passed() {
                self.out.incomplete = Some(Incomplete::Timeout);
                return false;
            }
            self.visit(item, src, origin, &mut stack);
        }
        true
    }

    /// The end of a text walked in a shell of its own: its `trap` actions run. A subshell's
    /// traps are read with the line's: its variables are final by then too.
    fn end_text(&mut self, shared: Option<usize>, origin: &Origin, scope: usize) {
        match shared {
            None if origin.depth == 0 => self.run_traps(None),
            None => self.run_traps(Some(scope)),
            Some(_) => {}
        }
    }

    /// Reads the `trap` actions `scope` set (every one, for `None`) that read variables, as
    /// they run on a signal or at its exit: with every value a name may hold from the
    /// moment the trap was set.
    fn run_traps(&mut self, scope: Option<usize>) {
        let ours = |t: &PendingTrap| scope.is_none_or(|s| t.scope == s);
        while self.traps.iter().any(ours) {
            let (mine, rest): (Vec<PendingTrap>, Vec<PendingTrap>) =
                std::mem::take(&mut self.traps).into_iter().partition(ours);
            self.traps = rest;
            self.read_traps(mine);
        }
    }

    fn read_traps(&mut self, traps: Vec<PendingTrap>) {
        for trap in traps {
            let since: Vec<(String, Vec<Value>)> = self
                .history
                .get(trap.since..)
                .unwrap_or_default()
                .iter()
                .filter(|(scope, _, _)| *scope == trap.scope)
                .map(|(_, name, values)| (name.clone(), values.clone()))
                .collect();
            let vars = self
                .vars
                .get(trap.scope)
                .map_or_else(Vars::deferred, |now| now.at_trap(&trap.then, &since));
            let inner = self.new_scope(trap.origin.dirs.clone(), vars);
            self.script_in(&trap.script, Via::Trap, &trap.origin, Some(inner));
        }
    }

    fn visit<'t>(&mut self, item: Item<'t>, src: &str, origin: &Origin, stack: &mut Vec<Item<'t>>) {
        let Item {
            node,
            via,
            scope,
            attached,
        } = item;
        match node.kind() {
            "comment" | "raw_string" | "ansi_c_string" | "word" | "number" | "heredoc_start"
            | "heredoc_end" | "heredoc_content" | "string_content" | "test_operator"
            | "file_descriptor" => {}
            "command" => {
                self.command(node, src, via, scope, attached, origin);
                // Only a substitution, an expansion or arithmetic inside a command runs or
                // assigns anything, and each is written with `$`, a backquote or `(`.
                if src[node.byte_range()].contains(['$', '`', '(']) {
                    push_children(stack, node, via, scope, src);
                }
            }
            // `export GIT_DIR=..`, `declare -x`, `unset`: they change what later commands
            // run with, so they are recorded as commands (their words never literal).
            "declaration_command" | "unset_command" => {
                self.exports(node, src, scope);
                self.declaration(node, src, via, scope, origin);
                push_children(stack, node, via, scope, src);
            }
            // `cmd="rm -rf x"` on its own or after `export`/`local`; a prefix (`A=1 cmd`)
            // only sets the environment of its command.
            "variable_assignment" => {
                if node.parent().is_some_and(|p| p.kind() != "command") {
                    if let Some((name, value)) = assignment(node, src)
                        && let Some(value) = value.value()
                    {
                        self.values.push((name, value.to_string()));
                    }
                    self.assign(node, src, scope);
                }
                push_children(stack, node, via, scope, src);
            }
            // A name assigned some other way (`(( n++ ))`, `unset x`): unknown from here.
            "variable_name"
                if node.parent().is_some_and(|p| {
                    !matches!(
                        p.kind(),
                        "simple_expansion"
                            | "expansion"
                            | "variable_assignment"
                            | "for_statement"
                            | "declaration_command"
                    )
                }) =>
            {
                self.forget(scope, &src[node.byte_range()]);
            }
            "expansion" => {
                if let Some((name, word)) = values::assigned_by_expansion(&src[node.byte_range()]) {
                    self.default_assigned(node, scope, name, word);
                }
                push_children(stack, node, via, scope, src);
            }
            "command_substitution" if src[node.byte_range()].starts_with('`') => {
                self.backticks(node, src, origin, scope, stack);
            }
            "list" if !attached.is_empty() => {
                // tree-sitter hangs the heredoc or redirect of `a && sh <<EOF` on the whole
                // list; the shell gives it to the last command.
                let start = stack.len();
                push_children(stack, node, via, scope, src);
                if let Some(last) = stack.get_mut(start) {
                    last.attached = attached;
                }
            }
            "command_substitution" | "process_substitution" => {
                let inner = self.subshell(scope);
                push_children(stack, node, Via::Substitution, inner, src);
            }
            "subshell" | "function_definition" => {
                let inner = self.subshell(scope);
                if node.kind() == "function_definition" {
                    self.define(node, src, origin);
                    let range = self.range(node, origin);
                    self.out.deferred.push(range);
                    if let Some(vars) = self.vars.get_mut(inner) {
                        *vars = Vars::deferred();
                    }
                }
                push_children(stack, node, via, inner, src);
            }
            "redirected_statement" => self.redirected(node, src, via, scope, attached, stack),
            "pipeline" => {
                let range = self.range(node, origin);
                self.out.together.push(range);
                self.pipeline(node, src, via, scope, attached.stdin, stack)
            }
            "for_statement" | "c_style_for_statement" | "while_statement" => {
                let range = self.range(node, origin);
                self.out.loops.push(range.clone());
                self.out.together.push(range);
                self.enter_loop(node, src, scope);
                push_children(stack, node, via, scope, src);
            }
            "program" | "list" | "compound_statement" | "do_group" if backgrounds(node, src) => {
                let range = self.range(node, origin);
                self.out.together.push(range);
                push_children(stack, node, via, scope, src);
            }
            // Text of a heredoc nobody executes is data, but an unquoted one still runs its
            // `$( )` substitutions while the shell expands it; those are found below it.
            _ => push_children(stack, node, via, scope, src),
        }
    }

    /// The variables where a command of `scope` runs, to expand its words.
    fn env(&self, scope: usize) -> Option<Env<'_>> {
        let dirs = self.scopes.get(scope)?;
        Some(Env {
            vars: self.vars.get(scope)?,
            poisoned: &self.poisoned,
            all_poisoned: self.all_poisoned,
            dirs,
            here: Cell::new(false),
            repository: self.repository.and_then(|repository| {
                let start = match self.cwd.as_ref()? {
                    Some(cwd) => cwd.clone(),
                    None => std::env::current_dir().ok()?,
                };
                Some((repository, start_dir(&start, dirs)?))
            }),
            repository_made: self.made_repository(),
        })
    }

    /// Whether a command recorded so far may make a repository (`git init`, `git clone`).
    fn made_repository(&self) -> bool {
        let (seen, made) = self.made_repository.get();
        let commands = &self.out.commands;
        let made = made
            || commands
                .get(seen..)
                .unwrap_or_default()
                .iter()
                .any(makes_repository);
        self.made_repository.set((commands.len(), made));
        made
    }

    /// Gives `name` `values` in `scope`: for sure, or as one more possibility when the
    /// assignment may not run (`conditional`). In a function body or `trap` action the
    /// name is unknown everywhere from now on.
    fn set_var(&mut self, scope: usize, name: &str, values: Vec<Value>, conditional: bool) {
        let Some(vars) = self.vars.get_mut(scope) else {
            return;
        };
        if vars.is_deferred() {
            let given: Vec<Value> = values
                .iter()
                .filter(|v| **v != Value::Unknown)
                .cloned()
                .collect();
            match self.poisoned.iter_mut().find(|(p, _)| p == name) {
                Some((_, known)) => known.extend(given),
                None => self.poisoned.push((name.to_string(), given)),
            }
        }
        vars.set(name, values, conditional || self.maybe);
        let now = vars.get(name).map(<[Value]>::to_vec).unwrap_or_default();
        self.history.push((scope, name.to_string(), now));
    }

    fn forget(&mut self, scope: usize, name: &str) {
        self.set_var(scope, name, vec![Value::Unknown], false);
    }

    /// Something ran that may set any variable of `scope`.
    fn havoc(&mut self, scope: usize) {
        if let Some(vars) = self.vars.get_mut(scope) {
            if vars.is_deferred() {
                self.all_poisoned = true;
            }
            vars.havoc();
        }
    }

    /// `${X:=word}`: X gets the word when the line and the environment set it nowhere;
    /// otherwise it may now hold anything.
    fn default_assigned(&mut self, node: Node, scope: usize, name: &str, word: Option<&str>) {
        let unset = !self.all_poisoned
            && !self.poisoned.iter().any(|(p, _)| p == name)
            && self
                .vars
                .get(scope)
                .is_some_and(|vars| vars.get(name).is_none())
            && std::env::var_os(name).is_none();
        match word {
            Some(word) if unset => {
                let values = vec![Value::Text(word.to_string())];
                self.set_var(scope, name, values, values::conditional(node));
            }
            _ => self.forget(scope, name),
        }
    }

    /// `name=value` (alone, or after `export`, `local`, `declare`): what `name` may hold
    /// from here.
    fn assign(&mut self, node: Node, src: &str, scope: usize) {
        let Some(name_node) = node.child_by_field_name("name") else {
            return;
        };
        let name = &src[name_node.byte_range()];
        let base = name.split('[').next().unwrap_or(name);
        let appends = src
            .get(name_node.end_byte()..)
            .is_some_and(|rest| rest.starts_with("+="));
        // `declare -i n=1+1`, `-l`, `-u`, `-n`: the value is transformed or is a reference.
        let transformed = node.parent().is_some_and(|p| {
            p.kind() == "declaration_command"
                && declared_options(p, src)
                    .iter()
                    .any(|f| !matches!(f.as_str(), "x" | "r" | "g"))
        });
        if name != base || appends || transformed || !values::is_name(base) {
            self.forget(scope, base);
            return;
        }
        let values = match node.child_by_field_name("value") {
            None => vec![Value::Text(String::new())],
            Some(value) => self.assigned_values(value, src, scope),
        };
        let conditional = values::conditional(node);
        self.set_var(scope, base, values.clone(), conditional);
        if let Some(root) = conditional.then(|| and_chain(node)).flatten()
            && !self.maybe
        {
            self.chained.push(Chained {
                scope,
                name: base.to_string(),
                values,
                root: root.id(),
                range: root.byte_range(),
                after: node.end_byte(),
                at: self.history.len(),
            });
        }
    }

    /// The values an assignment's right side may give.
    fn assigned_values(&self, value: Node, src: &str, scope: usize) -> Vec<Value> {
        if let Some(made) = self.mktemp_in(value, src, scope) {
            return vec![made];
        }
        let Some(env) = self.env(scope) else {
            return vec![Value::Unknown];
        };
        if value.kind() == "array" {
            let mut items = Vec::new();
            let mut cursor = value.walk();
            for element in value.named_children(&mut cursor) {
                let words = match values::expand(element, src, &env) {
                    Some(alternatives) => match alternatives.as_slice() {
                        [one] => one.clone(),
                        _ => return vec![Value::Unknown],
                    },
                    None => vec![word::from_node(element, src)],
                };
                for w in words {
                    match w.value() {
                        Some(text) => items.push(text.to_string()),
                        None => return vec![Value::Unknown],
                    }
                }
            }
            if env.here.get() {
                return vec![Value::Unknown];
            }
            return vec![Value::List(items)];
        }
        let one = |words: &[Word]| match words {
            [w] => w
                .value()
                .map_or(Value::Unknown, |t| Value::Text(t.to_string())),
            [] => Value::Text(String::new()),
            _ => Value::Unknown,
        };
        let values: Vec<Value> = match values::expand_quoted(value, src, &env) {
            Some(alternatives) => alternatives.iter().map(|words| one(words)).collect(),
            None => vec![one(&[word::from_node(value, src)])],
        };
        // `d=$(pwd)`: the path holds from here only, not after a later `cd`.
        if !env.here.get() {
            return values;
        }
        values
            .into_iter()
            .map(|v| match v {
                Value::Text(path) => Value::Here {
                    from: env.dirs.to_vec(),
                    path,
                },
                v => v,
            })
            .collect()
    }

    /// `$(mktemp -d ...)` (quoted or not): the folder it makes.
    fn mktemp_in(&self, value: Node, src: &str, scope: usize) -> Option<Value> {
        let substitution = match value.kind() {
            "command_substitution" => value,
            "string" if value.named_child_count() == 1 => value
                .named_child(0)
                .filter(|c| c.kind() == "command_substitution")?,
            _ => return None,
        };
        if src[substitution.byte_range()].starts_with('`') || substitution.named_child_count() != 1
        {
            return None;
        }
        let inner = substitution
            .named_child(0)
            .filter(|c| c.kind() == "command")?;
        let parts = command_parts(inner, src);
        let root_known = !parts.assigns.iter().any(|(name, _)| name == "TMPDIR")
            && self.vars.get(scope)?.get("TMPDIR").is_none();
        values::mktemp_dir(&parts.argv, self.scopes.get(scope)?, root_known)
    }

    /// A loop may run its body many times, after anything in it: every name it assigns is
    /// unknown inside it, and `for v in a b c` gives `v` each of its words.
    fn enter_loop(&mut self, node: Node, src: &str, scope: usize) {
        // A `for` loop's words are read once, before it starts; the rest runs each round.
        // Only a body that reads a variable can meet what a later round assigns.
        let runs_again = match node.kind() {
            "for_statement" => node.child_by_field_name("body"),
            _ => Some(node),
        }
        .filter(|body| src[body.byte_range()].contains('$'));
        let assigned = runs_again.map_or_else(Default::default, |n| values::assigned_in(n, src));
        if assigned.any {
            self.havoc(scope);
        }
        for name in &assigned.names {
            let mut values = vec![Value::Unknown];
            values.extend(
                assigned
                    .literals
                    .iter()
                    .filter(|(n, _)| n == name)
                    .map(|(_, v)| Value::Text(v.clone())),
            );
            self.set_var(scope, name, values, true);
        }
        let names = assigned.names;
        if node.kind() != "for_statement" {
            return;
        }
        let Some(variable) = node.child_by_field_name("variable") else {
            return;
        };
        let name = src[variable.byte_range()].to_string();
        let mut cursor = node.walk();
        let list: Vec<Node> = node.children_by_field_name("value", &mut cursor).collect();
        let mut items = Vec::new();
        let mut known = !list.is_empty();
        if let Some(env) = self.env(scope) {
            for value in list {
                let words = match values::expand(value, src, &env) {
                    Some(alternatives) => match alternatives.as_slice() {
                        [one] => one.clone(),
                        _ => {
                            known = false;
                            break;
                        }
                    },
                    None => vec![word::from_node(value, src)],
                };
                for w in words {
                    match w.value() {
                        Some(text) => items.push(Value::Text(text.to_string())),
                        None => known = false,
                    }
                }
            }
            // A path that holds from here only may be read after a `cd` in the body.
            known &= !env.here.get();
        }
        if !known || items.len() > MAX_VARIANTS || names.contains(&name) {
            items = vec![Value::Unknown];
        }
        self.set_var(scope, &name, items, values::conditional(node));
    }

    /// `export NAME[=value]...`, `declare -x NAME...`: the names go to the programs the
    /// shell runs from now on.
    fn exports(&mut self, node: Node, src: &str, scope: usize) {
        let mut cursor = node.walk();
        let children: Vec<Node> = node.children(&mut cursor).collect();
        let keyword = children.first().map(|k| &src[k.byte_range()]);
        let flagged = declared_options(node, src).iter().any(|f| f == "x");
        if !(keyword == Some("export") || matches!(keyword, Some("declare" | "typeset")) && flagged)
        {
            return;
        }
        let Some(vars) = self.vars.get_mut(scope) else {
            return;
        };
        for child in children {
            let name = match child.kind() {
                "variable_assignment" => child.child_by_field_name("name"),
                "variable_name" => Some(child),
                _ => None,
            };
            if let Some(name) = name {
                vars.export(&src[name.byte_range()]);
            }
        }
    }

    fn declaration(&mut self, node: Node, src: &str, via: Via, scope: usize, origin: &Origin) {
        let Some(keyword) = node.child(0).filter(|k| !k.is_named()) else {
            return;
        };
        let mut argv = vec![Word::literal(&src[keyword.byte_range()])];
        let mut cursor = node.walk();
        argv.extend(node.named_children(&mut cursor).map(|child| Word {
            text: src[child.byte_range()].to_string(),
            literal: false,
            temp: None,
        }));
        self.out.commands.push(SimpleCommand {
            argv,
            assigns: Vec::new(),
            via,
            span: self.range(node, origin),
            uncertain: origin.uncertain,
            dirs: self.scopes.get(scope).cloned().unwrap_or_default(),
            redirects: Vec::new(),
            input: None,
            fed_by: Vec::new(),
            call: None,
            elsewhere: origin.elsewhere.clone(),
            recipe: attribution(node, src, origin),
        });
    }

    /// Where `node` lies in the top-level line (a nested script lies where its command is).
    fn range(&self, node: Node, origin: &Origin) -> Range<usize> {
        origin
            .span
            .clone()
            .unwrap_or_else(|| self.removed.original(node.byte_range()))
    }

    /// Follows `cmd`, which runs the script in `file` (`how`): its text as the line wrote
    /// it, or else as the file holds it now. `cmd` itself is recorded when the file is not
    /// read as shell text.
    fn run_file(
        &mut self,
        cmd: SimpleCommand,
        file: Option<Word>,
        origin: &Origin,
        scope: usize,
        how: Runs,
    ) {
        let Some(file) = file else {
            self.out.commands.push(cmd);
            return;
        };
        let loaded = self.load(&cmd, &file);
        // A file sourced unread may set any variable of this shell.
        if how == Runs::Source && !matches!(loaded, Load::Text { .. }) {
            self.havoc(scope);
        }
        let (text, name, key) = match loaded {
            Load::Text { text, name, key } => (text, name, key),
            // A compiled program: nothing of it is a script.
            Load::Binary { .. } if how == Runs::Program => {
                self.out.commands.push(cmd);
                return;
            }
            Load::Binary { seen } => {
                let why = format!("`{}` is not text", file.text);
                self.unread_file(&cmd, why, &seen);
                return;
            }
            Load::Unread { why } => {
                self.unread_file(&cmd, why, "");
                return;
            }
            Load::Nothing => {
                self.out.commands.push(cmd);
                return;
            }
        };
        let reader = match how {
            Runs::Program if is_batch(&file.text) => Reader::Lang(Lang::Cmd),
            Runs::Program => shebang(&text),
            Runs::Shell | Runs::Source => Reader::Shell,
        };
        // A script that runs itself again, at any depth, was read once already.
        if self.running.contains(&key) {
            self.out.commands.push(cmd);
            return;
        }
        // Its arguments: the words after it, or after the program it is; a script read on
        // stdin (`bash -s a b < x.sh`) has arguments this does not place.
        let args = match how {
            Runs::Program => cmd.argv.get(1..),
            _ => cmd
                .argv
                .iter()
                .skip(1)
                .position(|w| *w == file)
                .and_then(|at| cmd.argv.get(at + 2..)),
        };
        let args: Option<Vec<String>> =
            args.and_then(|args| args.iter().map(|w| w.value().map(str::to_string)).collect());
        let nested = Origin {
            file: Some(Rc::new(InFile {
                runner: cmd.display(),
                name,
                above: 0,
                joins: Vec::new(),
            })),
            ..Origin::inside(&cmd, origin)
        };
        self.running.push(key);
        // A program named by its path is judged itself too (`node_modules/.bin/rimraf`
        // may be a shell shim of the program it names).
        if how == Runs::Program && !matches!(reader, Reader::Lang(_)) {
            self.out.commands.push(cmd.clone());
        }
        match reader {
            Reader::Shell => {
                // A shell of its own starts with what this one exported, and `$0` is the
                // path it was run by.
                if how != Runs::Source {
                    self.pass_environment(scope, &cmd);
                    if let (Some(vars), Some(path)) = (self.inherit.as_mut(), file.value()) {
                        vars.set("0", vec![Value::Text(path.to_string())], false);
                    }
                }
                self.shell_file(&text, &nested, scope, how, args)
            }
            Reader::Lang(lang) => {
                // A PHP file is read as PHP reads it: text until `<?php`.
                let lang = if lang == Lang::Php {
                    Lang::PhpTagged
                } else {
                    lang
                };
                let assigns = cmd.assigns.clone();
                // The words after the file are its arguments (no copy without any).
                let given = cmd.argv.get(1..).unwrap_or_default().to_vec();
                self.out.commands.push(cmd);
                let args = ScriptArgs::new(&given);
                self.embedded(lang, Word::literal(&text), args, &assigns, &nested, scope);
            }
            Reader::Other => {}
        }
        self.running.pop();
    }

    /// Walks a shell script file: in a shell of its own with `args` as its positional
    /// parameters, or (`source`) in the shell of `scope`, whose parameters it takes while it
    /// runs when it is given any.
    fn shell_file(
        &mut self,
        text: &str,
        origin: &Origin,
        scope: usize,
        how: Runs,
        args: Option<Vec<String>>,
    ) {
        if how != Runs::Source {
            let mut vars = self.inherit.take().unwrap_or_else(|| Vars::new_shell(None));
            if let Some(args) = args {
                vars.set("@", vec![Value::List(args)], false);
            }
            let own = self.new_scope(origin.dirs.clone(), vars);
            self.script_in(text, Via::ScriptFile, origin, Some(own));
            self.run_traps(Some(own));
            return;
        }
        let given = args.filter(|a| !a.is_empty());
        let saved = given
            .as_ref()
            .and_then(|_| self.vars.get(scope))
            .map(|v| v.get("@").map(<[Value]>::to_vec));
        if let Some(args) = given {
            self.set_var(scope, "@", vec![Value::List(args)], false);
        }
        self.script_in(text, Via::ScriptFile, origin, Some(scope));
        if let Some(saved) = saved
            && let Some(vars) = self.vars.get_mut(scope)
        {
            vars.restore("@", saved);
        }
    }

    /// Notes that the script file `cmd` runs was not read (`why`): what shows of it is
    /// judged instead, the command and `seen`.
    fn unread_file(&mut self, cmd: &SimpleCommand, why: String, seen: &str) {
        self.out.unread.push(Unread {
            code: format!("{}\n{seen}", cmd.display()),
            span: cmd.span.clone(),
            why: Some(format!("the script it runs was not read: {why}")),
        });
        self.out.commands.push(cmd.clone());
    }

    /// What `file`, run by `cmd`, holds when it runs: the text the line wrote there, or
    /// else the file as it is now, read from where the line starts (only when it is read
    /// with its files, and only for a command run here).
    fn load(&mut self, cmd: &SimpleCommand, file: &Word) -> Load {
        let Some(path) = file.value() else {
            return Load::Nothing;
        };
        // `cmd /c .venv\Scripts\activate.bat`: a Windows path, whose separators are `/`
        // here.
        let path: Cow<str> = if is_batch(path) && !cfg!(windows) {
            Cow::Owned(path.replace('\\', "/"))
        } else {
            Cow::Borrowed(path)
        };
        let path = path.as_ref();
        if let Some(key) = file_key(&cmd.dirs, path)
            && let Some(written) = self.written.iter().rev().find(|w| w.key == key)
        {
            return match &written.text {
                Some(text) => Load::Text {
                    text: text.clone(),
                    name: path.to_string(),
                    key,
                },
                None => Load::Nothing,
            };
        }
        if cmd.elsewhere.is_some() || path.starts_with('~') {
            return Load::Nothing;
        }
        if let Some(cwd @ None) = &mut self.cwd {
            *cwd = std::env::current_dir().ok();
        }
        let Some(Some(cwd)) = &self.cwd else {
            return Load::Nothing;
        };
        let full = if Path::new(path).is_absolute() {
            PathBuf::from(path)
        } else {
            match start_dir(cwd, &cmd.dirs) {
                Some(dir) => dir.join(path),
                None => {
                    return Load::Unread {
                        why: "the folder it runs in is only known at run time".into(),
                    };
                }
            }
        };
        read_script(&full, path).unwrap_or(Load::Nothing)
    }

    /// Remembers the function `node` defines, to follow its body where it is called.
    fn define(&mut self, node: Node, src: &str, origin: &Origin) {
        let (Some(name), Some(body)) = (
            node.child_by_field_name("name"),
            node.child_by_field_name("body"),
        ) else {
            return;
        };
        let file = origin.file.as_ref().map(|file| {
            let at = body.start_byte();
            let joined = file.joins.partition_point(|&j| j <= at);
            file.moved(file.above + body.start_position().row + joined, Vec::new())
        });
        // The body's own text, its braces or parentheses kept: it runs as one compound
        // command (a `( … )` body in a subshell of its own).
        self.functions.push(Function {
            name: src[name.byte_range()].to_string(),
            body: src[body.byte_range()].to_string(),
            file,
            from: origin.from.clone(),
            read: None,
        });
    }

    /// Follows a call of a function defined so far, its words bound to `$1`…, `$@`, `$#`,
    /// in the shell of `scope`. `false` when `cmd` calls no such function, or one already
    /// being followed.
    fn call(&mut self, cmd: &SimpleCommand, origin: &Origin, scope: usize) -> bool {
        let Some(name) = cmd
            .argv
            .first()
            .filter(|w| w.literal && !w.text.contains('/'))
        else {
            return false;
        };
        let Some(at) = self.functions.iter().rposition(|f| f.name == name.text) else {
            return false;
        };
        let Some(function) = self.functions.get(at) else {
            return false;
        };
        if self.calling.contains(&function.name) || origin.depth >= MAX_NESTING {
            return false;
        }
        let called = function.name.clone();
        let nested = Origin {
            file: function.file.clone(),
            from: match &function.file {
                Some(_) => function.from.clone(),
                None => cmd.recipe.clone(),
            },
            ..Origin::inside(cmd, origin)
        };
        let args: Option<Vec<String>> = cmd
            .args()
            .iter()
            .map(|w| w.value().map(str::to_string))
            .collect();
        let saved = self
            .vars
            .get(scope)
            .map(|v| v.get("@").map(<[Value]>::to_vec));
        let given = args.map_or(Value::Unknown, Value::List);
        self.set_var(scope, "@", vec![given], false);
        self.calling.push(called);
        self.walk_text(Text::Body(at), cmd.via, &nested, Some(scope));
        self.calling.pop();
        if let Some(saved) = saved
            && let Some(vars) = self.vars.get_mut(scope)
        {
            vars.restore("@", saved);
        }
        true
    }

    /// Remembers the files `cmd` writes and what they then hold, when the line shows it:
    /// `cat > fix.sh <<'EOF'`, `echo … > fix.sh`, `printf … >> fix.sh`, `… | tee fix.sh`.
    fn note_written(&mut self, cmd: &SimpleCommand) {
        let mut targets: Vec<(Word, bool)> = cmd
            .redirects
            .iter()
            .filter(|r| r.writes())
            .map(|r| (r.target.clone(), r.op.contains(">>")))
            .collect();
        let tee = cmd.program() == Some("tee");
        if tee {
            let written = writes::of("tee", cmd.args()).writes;
            targets.extend(written.into_iter().map(|w| (w.path, w.how == How::Append)));
        }
        if targets.is_empty() {
            return;
        }
        let output = if tee {
            cmd.input.clone()
        } else {
            printed(cmd.clone())
        };
        for (target, append) in targets {
            // A file whose place is not known: a later run of it is not followed.
            let Some(key) = target.value().and_then(|path| file_key(&cmd.dirs, path)) else {
                continue;
            };
            let earlier = self
                .written
                .iter()
                .rposition(|w| w.key == key)
                .map(|i| self.written.remove(i).text);
            let text = if append {
                // Appended lines run after whatever the file held, known or not, and what
                // was known still runs when the appended part is not.
                let kept = earlier.flatten().unwrap_or_default();
                match output.as_deref() {
                    Some(output) => Some(format!("{kept}{output}\n")),
                    None => (!kept.is_empty()).then_some(kept),
                }
            } else {
                output.as_deref().map(|output| format!("{output}\n"))
            };
            self.written.push(Written { key, text });
        }
    }

    /// `` `...` ``: inside backquotes the shell first drops the backslash before `\`, `` ` ``
    /// and `$`, then parses what is left. Without escapes tree-sitter's reading stands.
    fn backticks<'t>(
        &mut self,
        node: Node<'t>,
        src: &str,
        origin: &Origin,
        scope: usize,
        stack: &mut Vec<Item<'t>>,
    ) {
        let raw = &src[node.byte_range()];
        let inner = raw.strip_prefix('`').unwrap_or(raw);
        let inner = inner.strip_suffix('`').unwrap_or(inner);
        if !inner.contains('\\') {
            let inner = self.subshell(scope);
            push_children(stack, node, Via::Substitution, inner, src);
            return;
        }
        let mut script = String::with_capacity(inner.len());
        let mut chars = inner.chars().peekable();
        while let Some(c) = chars.next() {
            match (c, chars.peek()) {
                ('\\', Some('\\' | '`' | '$')) => script.extend(chars.next()),
                _ => script.push(c),
            }
        }
        let nested = Origin {
            span: Some(self.range(node, origin)),
            uncertain: origin.uncertain,
            depth: origin.depth + 1,
            dirs: self.scopes.get(scope).cloned().unwrap_or_default(),
            elsewhere: origin.elsewhere.clone(),
            file: None,
            from: attribution(node, src, origin),
        };
        self.script(&script, Via::Substitution, &nested);
    }

    /// `body <<EOF ... EOF`, `body <<< word`, `body > file`: the redirect feeds the body.
    fn redirected<'t>(
        &mut self,
        node: Node<'t>,
        src: &str,
        via: Via,
        scope: usize,
        attached: Attached,
        stack: &mut Vec<Item<'t>>,
    ) {
        let mut feed = attached.stdin;
        let mut later = Vec::new();
        let mut extra = Vec::new();
        let mut redirects = Vec::new();
        let mut cursor = node.walk();
        // `> out 2> err`: the first destination is the file, any more are arguments the
        // command takes (tree-sitter hangs `cmd > out arg` on the redirect).
        let mut file_redirect = |child: Node| {
            let mut inner = child.walk();
            let mut targets = child.children_by_field_name("destination", &mut inner);
            if let Some(target) = targets.next() {
                redirects.push(Redirect {
                    op: redirect_operator(child, src),
                    target: word::from_node(target, src),
                });
            }
            extra.extend(targets.map(|w| word::from_node(w, src)));
        };
        for child in node.named_children(&mut cursor) {
            if child.kind() == "file_redirect" {
                file_redirect(child);
            }
            if child.kind() == "heredoc_redirect" {
                let mut inner = child.walk();
                for part in child.named_children(&mut inner) {
                    match part.kind() {
                        "heredoc_body" => {
                            feed = Some(heredoc_text(part, src));
                            later.push(part);
                        }
                        // A body that starts with a backslash (`\i reset.sql`) is read as no
                        // body at all: it is the text between the line of `<<` and the end.
                        "heredoc_end" if feed.as_deref().is_none_or(str::is_empty) => {
                            let from = src[child.start_byte()..]
                                .find('\n')
                                .map(|at| child.start_byte() + at + 1);
                            feed = from
                                .and_then(|from| src.get(from..part.start_byte()))
                                .map(str::to_string)
                                .or(feed);
                        }
                        "heredoc_start" | "heredoc_end" => {}
                        // `cat <<'EOF' > fix.sh`: the command's own redirect (whose
                        // target may still hold a `$( )` to look into).
                        "file_redirect" => {
                            file_redirect(part);
                            later.push(part);
                        }
                        // The rest of the line after `<<EOF` (`| sh`, `&& next`) hangs here.
                        _ => later.push(part),
                    }
                }
            } else if child.kind() == "herestring_redirect" {
                feed = herestring_text(child, src);
                later.push(child);
            } else if Some(child) != node.child_by_field_name("body") {
                later.push(child);
            }
        }
        let body = node.child_by_field_name("body");
        // What the body prints, for a pipeline that continues inside the heredoc node.
        let piped = body.and_then(|b| stdout_of(b, src, feed.as_deref()));
        for part in later.into_iter().rev() {
            let stdin = (part.kind() == "pipeline").then(|| piped.clone()).flatten();
            stack.push(Item::new(part, via, scope, stdin));
        }
        if let Some(body) = body {
            stack.push(Item {
                node: body,
                via,
                scope,
                attached: Attached {
                    stdin: feed,
                    extra,
                    redirects,
                    fed_by: attached.fed_by,
                },
            });
        }
    }

    /// `a | b | c`: each command's stdin is what the one before it prints, when we know it,
    /// and a stage that reads names on stdin (`| xargs rm`) learns which commands list them.
    fn pipeline<'t>(
        &mut self,
        node: Node<'t>,
        src: &str,
        via: Via,
        scope: usize,
        stdin: Option<String>,
        stack: &mut Vec<Item<'t>>,
    ) {
        let mut items = Vec::new();
        let mut feed = stdin;
        let mut cursor = node.walk();
        for (at, child) in node.named_children(&mut cursor).enumerate() {
            let printed = stdout_of(child, src, feed.as_deref());
            // Every stage of a pipeline runs in a subshell of its own.
            let stage = self.subshell(scope);
            let mut item = Item::new(child, via, stage, feed.take());
            if at > 0 && reads_names(&src[child.byte_range()]) {
                item.attached.fed_by = listers(node, at, src);
            }
            items.push(item);
            feed = printed;
        }
        stack.extend(items.into_iter().rev());
    }

    fn command(
        &mut self,
        node: Node,
        src: &str,
        via: Via,
        scope: usize,
        attached: Attached,
        origin: &Origin,
    ) {
        let mut parts = command_parts(node, src);
        let cut = !attached.extra.is_empty();
        let variants = self.variants(node, src, scope, &parts, &attached.extra);
        parts.argv.extend(attached.extra);
        let mut stdin = attached.stdin;
        if parts.herestring.is_some() {
            stdin = parts.herestring;
        }
        if parts.argv.is_empty() {
            return;
        }
        let span = self.range(node, origin);
        let fed_by = if attached.fed_by.is_empty() {
            substituted_listing(node, &parts.argv, src)
        } else {
            attached.fed_by
        };
        let cmd = SimpleCommand {
            argv: parts.argv,
            assigns: parts.assigns,
            via,
            span,
            uncertain: origin.uncertain || cut,
            dirs: self.scopes.get(scope).cloned().unwrap_or_default(),
            redirects: attached.redirects,
            input: stdin.clone(),
            fed_by,
            call: None,
            elsewhere: origin.elsewhere.clone(),
            recipe: attribution(node, src, origin),
        };
        let cmds: Vec<SimpleCommand> = match variants {
            Some(variants) => variants
                .into_iter()
                .map(|argv| SimpleCommand {
                    argv,
                    ..cmd.clone()
                })
                .collect(),
            None => vec![cmd],
        };
        let mut cmds = cmds;
        if let Some(made) = values::fresh_folder(self.scopes.get(scope).map_or(&[][..], |d| d)) {
            for cmd in &mut cmds {
                values::mark_inside(made, cmd);
            }
        }
        if let [one] = cmds.as_slice() {
            self.note_written(one);
        }
        let several = cmds.len() > 1;
        for cmd in cmds {
            self.note_variables(node, src, scope, &cmd);
            // `eval`, `source` and `.` run in this shell: what they assign holds as surely
            // as they run.
            let was = self.maybe;
            if matches!(cmd.program(), Some("eval" | "source" | ".")) {
                self.maybe |= several || values::conditional(node);
            }
            let expanded = self.expansions(&cmd);
            self.follow(cmd, stdin.clone(), origin, scope);
            for cmd in expanded {
                self.follow(cmd, stdin.clone(), origin, scope);
            }
            self.maybe = was;
        }
    }

    /// The argument lists `node` runs with, one per combination of the values its
    /// variables may hold; `None` when the line gives none of them a value (its words
    /// stand as written). Words proven inside a temporary folder are marked so.
    fn variants(
        &self,
        node: Node,
        src: &str,
        scope: usize,
        parts: &CommandParts,
        extra: &[Word],
    ) -> Option<Vec<Vec<Word>>> {
        let argv = &parts.argv;
        let text = &src[node.byte_range()];
        let vars = self.vars.get(scope)?;
        // Only a line that gives values, names the temporary root or the folder it runs
        // in, or substitutes a command, pays for the look.
        let worth = (text.contains('$') || text.contains('`'))
            && (!vars.is_empty()
                || ["${", "$$", "$(", "`", "TMPDIR", "RANDOM", "BASHPID", "PWD"]
                    .iter()
                    .any(|s| text.contains(s)));
        if !worth {
            return None;
        }
        let held = self.held_in_chain(node, scope);
        let mut env = self.env(scope)?;
        if let Some(held) = &held {
            env.vars = held;
        }
        let mut changed = false;
        let mut per_word: Vec<Vec<Vec<Word>>> = Vec::with_capacity(argv.len());
        for (node, word) in parts.words.iter().zip(argv) {
            if word.literal {
                per_word.push(vec![vec![word.clone()]]);
                continue;
            }
            if let Some(alternatives) = values::expand(*node, src, &env) {
                changed = true;
                per_word.push(alternatives);
                continue;
            }
            let mut word = word.clone();
            word.temp = values::temp(*node, src, &env);
            changed |= word.temp.is_some();
            per_word.push(vec![vec![word]]);
        }
        if !changed {
            return None;
        }
        let mut combos: Vec<Vec<Word>> = vec![Vec::new()];
        for alternatives in per_word {
            if combos.len() * alternatives.len() > MAX_VARIANTS {
                return None;
            }
            combos = combos
                .iter()
                .flat_map(|done| {
                    alternatives.iter().map(move |words| {
                        let mut next = done.clone();
                        next.extend(words.iter().cloned());
                        next
                    })
                })
                .collect();
        }
        combos.retain(|argv| !argv.is_empty());
        // A `cd` to one of several folders leaves where later commands run unknown.
        let moves = |argv: &Vec<Word>| {
            argv.first()
                .is_some_and(|w| matches!(w.text.as_str(), "cd" | "pushd" | "popd"))
        };
        if combos.is_empty() || (combos.len() > 1 && combos.iter().any(moves)) {
            return None;
        }
        for argv in &mut combos {
            argv.extend(extra.iter().cloned());
        }
        Some(combos)
    }

    /// The variables of `scope` as `node` meets them when it stands later in a chain of `&&`
    /// than an assignment not yet replaced: that assignment then surely ran. Only lists lie
    /// between `node` and the chain, so no loop or function runs it at another time.
    fn held_in_chain(&self, node: Node, scope: usize) -> Option<Vars> {
        let held: Vec<&Chained> = self
            .chained
            .iter()
            .filter(|c| {
                c.scope == scope
                    && node.start_byte() >= c.after
                    && node.end_byte() <= c.range.end
                    && !self
                        .history
                        .get(c.at..)
                        .unwrap_or_default()
                        .iter()
                        .any(|(s, n, _)| *s == scope && *n == c.name)
            })
            .collect();
        if held.is_empty() {
            return None;
        }
        let mut root = None;
        let mut at = node;
        while let Some(parent) = at.parent().filter(|p| p.kind() == "list") {
            root = Some(parent.id());
            if held.iter().any(|c| c.root == parent.id()) {
                break;
            }
            at = parent;
        }
        let root = root?;
        let mut vars = self.vars.get(scope)?.clone();
        for c in held.iter().filter(|c| c.root == root) {
            vars.set(&c.name, c.values.clone(), false);
        }
        Some(vars)
    }

    /// What `cmd` does to the variables of its shell: `read`, `set --`, `shift`, the
    /// builtins that assign their operands, and `eval`/`source` of text not shown.
    fn note_variables(&mut self, node: Node, src: &str, scope: usize, cmd: &SimpleCommand) {
        let Some(program) = cmd.program() else {
            // A program inside a folder the line made is named by a path, and a name with a
            // slash is never a builtin or a function: it cannot touch this shell's variables.
            let in_made_folder = cmd
                .argv
                .first()
                .is_some_and(|w| matches!(w.temp, Some(crate::syntax::Temp::Made(_))));
            if !in_made_folder {
                self.havoc(scope);
            }
            return;
        };
        let args = cmd.args();
        match program {
            "read" => {
                let input = herestring_word(node, src);
                match values::read_values(args, input.as_ref()) {
                    Some(assigned) => {
                        let conditional = values::conditional(node);
                        for (name, value) in assigned {
                            self.set_var(scope, &name, vec![Value::Text(value)], conditional);
                        }
                    }
                    None => self.forget_operands(scope, args),
                }
            }
            "set" => {
                if let Some(on) = values::allexport(args)
                    && let Some(vars) = self.vars.get_mut(scope)
                {
                    vars.set_allexport(on);
                }
                let values = match args.split_first() {
                    Some((first, rest)) if first.text == "--" => {
                        let items: Option<Vec<String>> =
                            rest.iter().map(|w| w.value().map(str::to_string)).collect();
                        items.map_or(Value::Unknown, Value::List)
                    }
                    // Options alone (`set -euo pipefail`, `set +x`) leave them as they were.
                    _ if unwrap::shell_options(args).end >= args.len() => return,
                    _ => Value::Unknown,
                };
                self.set_var(scope, "@", vec![values], values::conditional(node));
            }
            "shift" => {
                let by = match args.first() {
                    None => Some(1),
                    Some(w) => w.value().and_then(|n| n.parse::<usize>().ok()),
                };
                let now = self.vars.get(scope).and_then(|v| v.get("@"));
                let shifted: Option<Vec<Value>> = by.zip(now).map(|(by, now)| {
                    now.iter()
                        .map(|v| match v {
                            Value::List(items) => {
                                Value::List(items.iter().skip(by).cloned().collect())
                            }
                            _ => Value::Unknown,
                        })
                        .collect()
                });
                match shifted {
                    Some(values) => self.set_var(scope, "@", values, values::conditional(node)),
                    None => self.forget(scope, "@"),
                }
            }
            "eval" if args.iter().any(|w| !w.literal) => self.havoc(scope),
            "source" | "." if args.is_empty() => self.havoc(scope),
            p if values::ASSIGNERS.contains(&p) => self.forget_operands(scope, args),
            _ => {}
        }
    }

    fn forget_operands(&mut self, scope: usize, args: &[Word]) {
        for arg in args {
            let name = arg.text.split('=').next().unwrap_or("");
            if values::is_name(name) {
                self.forget(scope, name);
            }
        }
    }

    /// `$cmd args` where the line gives `cmd` literal text: the shell splits that text into
    /// words, so the command runs as each value `cmd` was given (its parts known only at
    /// run time, since which value holds then is not).
    fn expansions(&self, cmd: &SimpleCommand) -> Vec<SimpleCommand> {
        let Some((first, rest)) = cmd.argv.split_first() else {
            return Vec::new();
        };
        let Some(name) = first.text.strip_prefix('$').filter(|_| !first.literal) else {
            return Vec::new();
        };
        let name = name
            .strip_prefix('{')
            .and_then(|n| n.strip_suffix('}'))
            .unwrap_or(name);
        self.values
            .iter()
            .filter(|(n, value)| n == name && !value.trim().is_empty())
            .map(|(_, value)| {
                let mut argv: Vec<Word> = value.split_whitespace().map(Word::literal).collect();
                argv.extend_from_slice(rest);
                SimpleCommand {
                    argv,
                    uncertain: true,
                    ..cmd.clone()
                }
            })
            .collect()
    }

    /// Records `cmd`, following it into whatever it runs in turn.
    fn follow(&mut self, cmd: SimpleCommand, stdin: Option<String>, origin: &Origin, scope: usize) {
        match unwrap::resolve(cmd) {
            Run::Nothing => {}
            Run::Command(cmd) => {
                self.change_directory(scope, &cmd);
                if self.call(&cmd, origin, scope) {
                    // The function's name stands for the commands of its body.
                    return;
                }
                // `./fix.sh`, `bin/setup`: a program named by a path may be a script.
                let file = cmd
                    .argv
                    .first()
                    .filter(|w| w.text.contains(['/', '\\']) || is_batch(&w.text))
                    .cloned();
                match file {
                    Some(file) => self.run_file(cmd, Some(file), origin, scope, Runs::Program),
                    None => self.out.commands.push(cmd),
                }
            }
            Run::ScriptFile { cmd, file } => {
                // `source` and `.` run the file in this very shell.
                let how = match cmd.program() {
                    Some("source" | ".") => Runs::Source,
                    _ => Runs::Shell,
                };
                self.run_file(cmd, Some(file), origin, scope, how);
            }
            Run::Script {
                cmd,
                script,
                via,
                literal,
            } => {
                let computed = matches!(via, Via::Eval | Via::ShellArgument) && !literal;
                let (script, literal) = match computed.then(|| self.computed(&script)).flatten() {
                    Some(text) => (text, true),
                    None => (script, literal),
                };
                let nested = Origin {
                    uncertain: cmd.uncertain || !literal,
                    ..Origin::inside(&cmd, origin)
                };
                // A `trap` action reads its variables when it runs, at the shell's exit.
                if via == Via::Trap && script.contains('$') {
                    let then = self.vars.get(scope).cloned().unwrap_or_default();
                    self.traps.push(PendingTrap {
                        script,
                        origin: nested,
                        scope,
                        then,
                        since: self.history.len(),
                    });
                    return;
                }
                // `sh -c SCRIPT NAME ARGS...`: the words after the script's name are its `$1`….
                let at = cmd.argv.iter().skip(1).position(|w| w.text == script);
                if via == Via::ShellArgument
                    && cmd.program().is_some_and(unwrap::is_shell)
                    && let Some(at) = at
                {
                    let args: Option<Vec<String>> = cmd
                        .argv
                        .get(at + 3..)
                        .unwrap_or_default()
                        .iter()
                        .map(|w| w.value().map(str::to_string))
                        .collect();
                    self.pass_environment(scope, &cmd);
                    let mut vars = self.inherit.take().unwrap_or_else(|| Vars::new_shell(None));
                    if let Some(args) = args {
                        vars.set("@", vec![Value::List(args)], false);
                    }
                    let own = self.new_scope(nested.dirs.clone(), vars);
                    let first = self.out.commands.len();
                    self.script_in(&script, via, &nested, Some(own));
                    self.run_traps(Some(own));
                    if computed && !literal {
                        self.built_at_run_time(first);
                    }
                    return;
                }
                let shared = (via == Via::Eval).then_some(scope);
                if shared.is_none() {
                    self.pass_environment(scope, &cmd);
                }
                let first = self.out.commands.len();
                self.script_in(&script, via, &nested, shared);
                if computed && !literal {
                    self.built_at_run_time(first);
                }
            }
            Run::ShellReadingStdin { cmd, via } => {
                // `sh < scripts/reset.sh`: the file it reads is its script.
                let from_file = cmd
                    .redirects
                    .iter()
                    .rev()
                    .find(|r| r.op == "<")
                    .map(|r| r.target.clone());
                match (stdin, from_file) {
                    (Some(script), _) => {
                        self.pass_environment(scope, &cmd);
                        self.script(&script, via, &Origin::inside(&cmd, origin))
                    }
                    (None, Some(file)) if via == Via::ShellStdin => {
                        self.run_file(cmd, Some(file), origin, scope, Runs::Shell)
                    }
                    _ => {}
                }
            }
            Run::Embedded { cmd, lang, code } => {
                let mut nested = Origin::inside(&cmd, origin);
                let mut file_lang = lang;
                // A script file's arguments are the words after it (no copy without any).
                let given = match code {
                    Code::File(at) => cmd.argv.get(at + 1..).unwrap_or_default().to_vec(),
                    _ => Vec::new(),
                };
                let code = match code {
                    Code::Text(word) if lang == Lang::PowerShell => Some(powershell_env(word)),
                    Code::Text(word) => Some(word),
                    Code::Stdin => stdin.map(Word::literal),
                    Code::Elsewhere => None,
                    // `python3 fix.py`: the code is what the line wrote there, or else
                    // what the file holds.
                    Code::File(at) => {
                        let file = cmd.argv.get(at).cloned().unwrap_or(Word {
                            text: String::new(),
                            literal: false,
                            temp: None,
                        });
                        match self.load(&cmd, &file) {
                            Load::Text { text, name, key } if !self.running.contains(&key) => {
                                nested.file = Some(Rc::new(InFile {
                                    runner: cmd.display(),
                                    name,
                                    above: 0,
                                    joins: Vec::new(),
                                }));
                                if lang == Lang::Php {
                                    // A PHP file is read as PHP reads it: text until `<?php`.
                                    file_lang = Lang::PhpTagged;
                                }
                                Some(Word::literal(&text))
                            }
                            Load::Binary { seen } => {
                                let why = format!("`{}` is not text", file.text);
                                self.unread_file(&cmd, why, &seen);
                                return;
                            }
                            Load::Unread { why } => {
                                self.unread_file(&cmd, why, "");
                                return;
                            }
                            _ => None,
                        }
                    }
                };
                // The interpreter itself is judged too (`perl -i` edits files in place).
                if let Some(code) = code {
                    let assigns = cmd.assigns.clone();
                    self.out.commands.push(cmd);
                    let args = ScriptArgs::new(&given);
                    self.embedded(file_lang, code, args, &assigns, &nested, scope);
                } else {
                    self.out.commands.push(cmd);
                }
            }
            Run::Find { find, execs } => {
                self.out.commands.push(find);
                for cmd in execs {
                    self.follow(cmd, None, origin, scope);
                }
            }
            Run::Sent { cmd, place, sent } => self.sent(cmd, place, sent, stdin, origin),
            Run::Recipe { cmd } => self.recipe(cmd, stdin, origin, scope),
        }
    }

    /// Records `cmd`, which sends a command to run in `place`, and follows that command
    /// there: in a shell of its own that starts in no folder of ours.
    fn sent(
        &mut self,
        cmd: SimpleCommand,
        place: Elsewhere,
        sent: Sent,
        stdin: Option<String>,
        origin: &Origin,
    ) {
        // The guard's override in front of the sending command covers all it sends.
        let overrides: Vec<(String, Word)> = cmd
            .assigns
            .iter()
            .filter(|(name, _)| name.starts_with("AGENT_GUARD_"))
            .cloned()
            .collect();
        let nested = Origin {
            dirs: Vec::new(),
            elsewhere: Some(place.clone()),
            ..Origin::inside(&cmd, origin)
        };
        let first = self.out.commands.len() + 1;
        match sent {
            Sent::Argv { argv, env } => {
                let there = SimpleCommand {
                    argv,
                    assigns: env,
                    dirs: Vec::new(),
                    redirects: Vec::new(),
                    input: stdin.clone(),
                    fed_by: Vec::new(),
                    call: None,
                    elsewhere: Some(place),
                    ..cmd.clone()
                };
                self.out.commands.push(cmd);
                self.scopes.push(Vec::new());
                let scope = self.scopes.len() - 1;
                self.follow(there, stdin, &nested, scope);
            }
            Sent::Script(script) => {
                let nested = Origin {
                    uncertain: cmd.uncertain || !script.literal,
                    ..nested
                };
                self.out.commands.push(cmd);
                self.script(&script.text, Via::Sent, &nested);
            }
            Sent::Stdin => {
                self.out.commands.push(cmd);
                if let Some(script) = stdin {
                    self.script(&script, Via::Sent, &nested);
                }
            }
        }
        if !overrides.is_empty() {
            for there in self.out.commands.get_mut(first..).into_iter().flatten() {
                there.assigns.splice(0..0, overrides.iter().cloned());
            }
        }
    }

    /// A task runner asked for a recipe: the recipe's shell text is read as scripts the
    /// runner runs, found where the runner would look. A runner whose recipes are not
    /// known is recorded itself.
    fn recipe(&mut self, cmd: SimpleCommand, stdin: Option<String>, origin: &Origin, scope: usize) {
        // A runner sent elsewhere reads that machine's recipe files, not ours; except in a
        // new container whose folder it starts in is one it mounts from here.
        let steps = match &cmd.elsewhere {
            None => Some(cmd.dirs.clone()),
            Some(place) => place
                .folder_here(&cmd.dirs)
                .map(|folder| place.dirs_here.iter().cloned().chain([folder]).collect()),
        };
        let (Some(name), Some(steps)) = (cmd.program().map(str::to_string), steps) else {
            self.out.commands.push(cmd);
            return;
        };
        if let Some(cwd @ None) = &mut self.cwd {
            *cwd = std::env::current_dir().ok();
        }
        let dir = self
            .cwd
            .as_ref()
            .map(|cwd| cwd.as_deref().and_then(|cwd| start_dir(cwd, &steps)));
        if let Some(None) = dir {
            self.unresolved(
                &cmd,
                "the directory it runs in is only known at run time",
                "",
            );
        }
        let dir = dir.flatten();
        // A recipe file found in a folder above, in a container, is reached by climbing
        // from where the runner starts there: the same folder, as the container names it.
        let real = dir
            .as_deref()
            .filter(|_| cmd.elsewhere.is_some())
            .and_then(|dir| std::fs::canonicalize(dir).ok());
        let recipe_dir = |found: &str| match &real {
            Some(real) if Path::new(found).is_absolute() => {
                let levels = real.components().count();
                let above = Path::new(found).components().count();
                vec![".."; levels.saturating_sub(above)].join("/")
            }
            _ => found.to_string(),
        };
        match recipes::read(&name, &cmd.argv, dir.as_deref()) {
            Outcome::Nothing => self.out.commands.push(cmd),
            Outcome::Program(at) => {
                let mut program = cmd;
                program.argv.drain(..at.min(program.argv.len()));
                if !program.argv.is_empty() {
                    self.follow(program, stdin, origin, scope);
                }
            }
            Outcome::Unknown { why, seen } => {
                self.unresolved(&cmd, &why, &seen);
                self.out.commands.push(cmd);
            }
            // The runner itself does nothing but run them: its recipes stand for it (so it
            // is not a command that could change anything before them).
            Outcome::Runs(found) => {
                let runner = cmd.display();
                for recipe in found {
                    let mut dirs = cmd.dirs.clone();
                    dirs.extend(recipe.dir.as_deref().map(recipe_dir).map(Word::literal));
                    let nested = Origin {
                        dirs,
                        from: None,
                        ..Origin::inside(&cmd, origin)
                    };
                    let start = self.out.commands.len();
                    for line in &recipe.lines {
                        self.script(line, Via::Recipe, &nested);
                    }
                    let text = recipe.text();
                    for ran in self.out.commands.iter_mut().skip(start) {
                        // The runner's environment is the recipe's (`GIT_DIR=x make`).
                        let own = std::mem::take(&mut ran.assigns);
                        ran.assigns = cmd.assigns.iter().cloned().chain(own).collect();
                        ran.recipe = Some(Box::new(match ran.recipe.take() {
                            None => FromRecipe {
                                runner: runner.clone(),
                                source: recipe.source.clone(),
                                text: text.clone(),
                            },
                            Some(inner) => FromRecipe {
                                runner: runner.clone(),
                                source: format!("{}, run by {}", inner.source, recipe.source),
                                text: inner.text,
                            },
                        }));
                    }
                }
            }
        }
    }

    /// The text of `$(printf FORMAT ARGS...)` or `$(echo WORDS...)` handed whole to `eval` or
    /// `sh -c`, when every word is known: what the shell then runs.
    fn computed(&mut self, script: &str) -> Option<String> {
        let inner = script.strip_prefix("$(")?.strip_suffix(')')?;
        let tree = self.parse(inner)?;
        let root = tree.root_node();
        if root.has_error() || root.named_child_count() != 1 {
            return None;
        }
        let command = root.named_child(0).filter(|c| c.kind() == "command")?;
        let parts = command_parts(command, inner);
        let words: Option<Vec<&str>> = parts.argv.iter().map(Word::value).collect();
        let words = words?;
        if !parts.assigns.is_empty() || command.named_child_count() != words.len() {
            return None;
        }
        let (program, args) = words.split_first()?;
        let text = match *program {
            "printf" => {
                let own = parts.argv.get(1..).unwrap_or_default();
                let head = argv::read_head(own, Style::Getopt, &Valued(&["v"]));
                if !head.opts.is_empty() {
                    return None;
                }
                let (format, args) = args.get(head.stopped_at?..)?.split_first()?;
                printf_output(format, args)?
            }
            "echo" => {
                let own = parts.argv.get(1..).unwrap_or_default();
                let (opts, text) = unwrap::echo_words(own)?;
                if !opts.is_empty() {
                    return None;
                }
                args.get(text..)?.join(" ")
            }
            _ => return None,
        };
        // A substitution drops the trailing newlines of what it captures.
        Some(text.trim_end_matches('\n').to_string())
    }

    /// `eval` or `sh -c` of text built at run time, whose commands from `first` on were read
    /// from its unexpanded text: one whose program, or one of whose options, is only known
    /// then (`eval "$(printf 'git reset --%s' "$m")"`, `sh -c "git reset --$m"`) may be
    /// anything its visible words allow, so the text is kept as not read.
    fn built_at_run_time(&mut self, first: usize) {
        let unread: Vec<Unread> = self
            .out
            .commands
            .get(first..)
            .unwrap_or_default()
            .iter()
            .filter(|cmd| {
                cmd.program().is_none() || {
                    let args = cmd.args();
                    let read = argv::read(args, Style::Getopt, &Valued(&[]));
                    read.opts
                        .iter()
                        .any(|o| args.get(o.word).is_some_and(|w| !w.literal))
                }
            })
            .map(|cmd| Unread {
                code: visible(&cmd.argv),
                span: cmd.span.clone(),
                why: Some("the text it runs is built at run time".into()),
            })
            .collect();
        self.out.unread.extend(unread);
    }

    /// Notes that what `cmd` runs could not be resolved: `seen` is the recipe text that
    /// could be seen, any of which may run.
    fn unresolved(&mut self, cmd: &SimpleCommand, why: &str, seen: &str) {
        self.out.unread.push(Unread {
            code: format!("{}\n{seen}", cmd.display()),
            span: cmd.span.clone(),
            why: Some(format!("the recipe it runs cannot be told: {why}")),
        });
    }
}

/// Where a call in interpreter code comes from, for reasons: the file and the line of its
/// first spelling in it when the code is a script file's.
fn called_from(origin: &Origin, code: &str, call: &str) -> Option<Box<FromRecipe>> {
    let Some(file) = &origin.file else {
        return origin.from.clone();
    };
    let here = match code.find(call) {
        Some(at) => format!(
            "{}:{}",
            file.name,
            file.above + code[..at].matches('\n').count() + 1
        ),
        None => file.name.clone(),
    };
    Some(in_file(origin, file, here, call))
}

/// A Windows batch file, which `cmd` runs when it is named (`cmd /c build.bat`).
fn is_batch(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.ends_with(".bat") || lower.ends_with(".cmd")
}

/// The outermost list of `&&` that `node` stands in, past its first element: `node` runs
/// only if everything before it in that list succeeded.
fn and_chain(node: Node) -> Option<Node> {
    let mut at = node;
    let mut root = None;
    while let Some(parent) = at.parent().filter(|p| p.kind() == "list") {
        let mut cursor = parent.walk();
        let and = parent
            .children(&mut cursor)
            .any(|c| !c.is_named() && c.kind() == "&&");
        if !and {
            break;
        }
        root = Some(parent);
        at = parent;
    }
    root.filter(|root| root.start_byte() < node.start_byte())
}

/// Whether `cmd` may make a repository, or move one, where a later `git rev-parse` would
/// find it: `git init`, `clone`, `worktree`, `submodule`, or a git command not read.
fn makes_repository(cmd: &SimpleCommand) -> bool {
    cmd.program() == Some("git")
        && crate::syntax::git::read(cmd.args())
            .subcommand()
            .is_none_or(|sub| {
                sub.value()
                    .is_none_or(|sub| matches!(sub, "init" | "clone" | "worktree" | "submodule"))
            })
}

/// The directory a command starts in, from the line's own and the `cd`s before it;
/// `None` when a step is only known at run time.
fn start_dir(cwd: &Path, dirs: &[Word]) -> Option<PathBuf> {
    let mut at = cwd.to_path_buf();
    for step in dirs {
        let step = step.value().filter(|s| *s != "-" && !s.starts_with('~'))?;
        at.push(step);
    }
    Some(at)
}

impl Walker<'_> {
    /// Records what interpreter code does: each call it lowers to is followed like a
    /// command of the shell, in a scope of its own (a `cd` in the code stays there).
    /// `args` are the arguments of the script file the code is, `assigns` the interpreter's
    /// own (`AGENT_GUARD_OFF=1 python3 -c ...`).
    fn embedded(
        &mut self,
        lang: Lang,
        code: Word,
        args: ScriptArgs,
        assigns: &[(String, Word)],
        origin: &Origin,
        scope: usize,
    ) {
        if origin.depth > MAX_NESTING {
            self.out.incomplete = Some(Incomplete::TooDeep);
            return;
        }
        let via = Via::Embedded(lang);
        let inner = self.subshell(scope);
        let uncertain = origin.uncertain || !code.literal;
        let lowered = lang::effects(lang, &code.text, args, self.deadline);
        if let Some(why) = lowered.incomplete {
            self.out.incomplete = Some(why);
        }
        let span = origin.span.clone().unwrap_or_default();
        self.out
            .unread
            .extend(lowered.unread.into_iter().map(|code| Unread {
                code,
                span: span.clone(),
                why: None,
            }));
        for effect in lowered.effects {
            let nested = Origin {
                span: origin.span.clone(),
                uncertain,
                depth: origin.depth + 1,
                dirs: self.scopes.get(inner).cloned().unwrap_or_default(),
                elsewhere: origin.elsewhere.clone(),
                file: None,
                from: origin.from.clone(),
            };
            match effect {
                Effect::Command {
                    argv,
                    redirects,
                    call,
                } => {
                    let cmd = SimpleCommand {
                        argv,
                        assigns: assigns.to_vec(),
                        via,
                        span: origin.span.clone().unwrap_or_default(),
                        uncertain,
                        dirs: nested.dirs.clone(),
                        redirects,
                        input: None,
                        fed_by: Vec::new(),
                        recipe: called_from(origin, &code.text, &call),
                        call: Some(call),
                        elsewhere: origin.elsewhere.clone(),
                    };
                    self.follow(cmd, None, &nested, inner);
                }
                Effect::Shell { script } => {
                    let nested = Origin {
                        uncertain: uncertain || !script.literal,
                        from: called_from(origin, &code.text, &script.text),
                        ..nested
                    };
                    self.script(&script.text, via, &nested);
                }
                // Code the code runs from a value reads no file's arguments of its own.
                Effect::Code { lang, code } => {
                    self.embedded(lang, code, ScriptArgs::NONE, assigns, &nested, inner)
                }
            }
        }
    }
}

/// Byte positions in a joined text after which bytes of the original were dropped, with
/// the running total dropped so far, and the original's length: nothing maps past its end
/// (the final newline [`join_lines`] may add is not in the original).
#[derive(Default, Clone)]
struct Removed {
    drops: Vec<(usize, usize)>,
    len: usize,
}

impl Removed {
    /// A start takes the drops at its own position; an (exclusive) end does not.
    fn original(&self, range: Range<usize>) -> Range<usize> {
        let start = self.drops.partition_point(|(pos, _)| *pos <= range.start);
        let end = self.drops.partition_point(|(pos, _)| *pos < range.end);
        let start = self.shifted(range.start, start).min(self.len);
        start..self.shifted(range.end, end).clamp(start, self.len)
    }

    fn shifted(&self, at: usize, drops: usize) -> usize {
        at + drops
            .checked_sub(1)
            .and_then(|i| self.drops.get(i))
            .map_or(0, |&(_, shift)| shift)
    }
}

/// The text the shell tokenizes: a backslash-newline outside single quotes joins two lines
/// into one word (`r\<newline>m` is `rm`, which tree-sitter would read as two words), and
/// NUL bytes are dropped, as bash does when it reads a script.
///
/// The text also ends with a newline, as every line the shell reads does. tree-sitter-bash
/// needs it to end a pipeline cheaply: without one, `a | b | c` costs ten times as much to
/// parse as with it (the stack versions its pipeline conflict leaves open are recovered from
/// at the end of input). A final backslash is left alone: a newline would make it a line
/// continuation.
fn join_lines(src: &str) -> (String, Removed) {
    let mut out = String::with_capacity(src.len() + 1);
    let mut removed = Removed {
        drops: Vec::new(),
        len: src.len(),
    };
    if !src.contains("\\\n") && !src.contains('\0') {
        out.push_str(src);
    } else {
        let mut dropped = 0;
        let mut drop = |out: &String, bytes: usize| {
            dropped += bytes;
            removed.drops.push((out.len(), dropped));
        };
        let mut in_single = false;
        let mut in_double = false;
        let mut chars = src.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\0' => drop(&out, 1),
                '\\' if !in_single => match chars.peek() {
                    Some('\n') => {
                        chars.next();
                        drop(&out, 2);
                    }
                    Some(_) => {
                        out.push(c);
                        out.extend(chars.next());
                    }
                    None => out.push(c),
                },
                '\'' if !in_double => {
                    in_single = !in_single;
                    out.push(c);
                }
                '"' if !in_single => {
                    in_double = !in_double;
                    out.push(c);
                }
                _ => out.push(c),
            }
        }
    }
    if !out.is_empty() && !out.ends_with(['\n', '\\']) {
        out.push('\n');
    }
    (out, removed)
}

/// tree-sitter-bash's scanner passes the character after `{` (and after `{N..`) to C's
/// `isdigit`, which reads out of bounds, and crashes, for a large code point. Such a
/// character is replaced, for parsing only, by as many `x` bytes as it has: no digit either,
/// so the parse is the same, and every byte offset still points into the original text.
fn guard_brace_scanner(src: &str) -> Cow<'_, str> {
    let mut out: Option<String> = None;
    let mut after_brace = false;
    for (at, c) in src.char_indices() {
        if !c.is_ascii() && after_brace {
            let text = out.get_or_insert_with(|| src.to_string());
            text.replace_range(at..at + c.len_utf8(), &"x".repeat(c.len_utf8()));
        }
        after_brace = c == '{' || (after_brace && (c.is_ascii_digit() || c == '.'));
    }
    out.map_or(Cow::Borrowed(src), Cow::Owned)
}

/// `a & b`: a command sent to the background runs alongside what follows it.
fn backgrounds(node: Node, src: &str) -> bool {
    // A whole text has one child for each of its lines; most have no `&` at all, and
    // looking for one costs less than walking them. (Not for the lists inside, which nest
    // as deep as a chain is long: each would look at the rest of the chain again.)
    if node.kind() == "program" && !src[node.byte_range()].contains('&') {
        return false;
    }
    let mut cursor = node.walk();
    node.children(&mut cursor)
        .any(|c| !c.is_named() && c.kind() == "&")
}

fn push_children<'t>(stack: &mut Vec<Item<'t>>, node: Node<'t>, via: Via, scope: usize, src: &str) {
    let start = stack.len();
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
        if child.is_error()
            && let Some(last) = stack.get_mut(start..).and_then(|added| added.last_mut())
            && last.node.kind() == "command"
        {
            last.attached.extra.extend(cut_short(last.node, child, src));
        }
        stack.push(Item::new(child, via, scope, None));
    }
    if let Some(children) = stack.get_mut(start..) {
        children.reverse();
    }
}

/// PowerShell code in a shell string whose only expansions are `$env:NAME`: the shell
/// reads `$env` as a variable of its own, which no shell sets, so PowerShell gets `:NAME`, a
/// path that names nothing; what the line means is PowerShell's environment variable. Read
/// that way the code is known whole, and judged by no less than it can do.
fn powershell_env(word: Word) -> Word {
    let only_env = !word.text.contains('`')
        && word.text.match_indices('$').all(|(at, _)| {
            word.text[at + 1..]
                .get(..4)
                .is_some_and(|head| head.eq_ignore_ascii_case("env:"))
        });
    if word.literal || !only_env {
        return word;
    }
    Word {
        literal: true,
        ..word
    }
}

/// Error recovery can cut a command short (`git restore x 'unterminated`): the words the
/// shell would still see on that line are taken from the error node that follows it. They
/// are not literal, since the shell would reject the line as written.
fn cut_short(command: Node, error: Node, src: &str) -> Vec<Word> {
    if src[command.end_byte()..error.start_byte()].contains('\n') {
        return Vec::new();
    }
    let text = &src[error.byte_range()];
    let line = text.split(['\n', ';', '|', '&']).next().unwrap_or("");
    line.split_whitespace()
        .map(|raw| {
            raw.chars()
                .filter(|c| !matches!(c, '\'' | '"' | '\\'))
                .collect::<String>()
        })
        .filter(|t| !t.is_empty())
        .map(|text| Word {
            text,
            literal: false,
            temp: None,
        })
        .collect()
}

struct CommandParts<'t> {
    argv: Vec<Word>,
    /// The node of each word of `argv`, in the same order.
    words: Vec<Node<'t>>,
    assigns: Vec<(String, Word)>,
    herestring: Option<String>,
}

/// The options a declaration (`declare -ix`, `local -r`, `export -n`) gives, read from its
/// plain words; a `+x` word, which takes an attribute off, gives none.
fn declared_options(node: Node, src: &str) -> Vec<String> {
    let mut cursor = node.walk();
    let words: Vec<Word> = node
        .named_children(&mut cursor)
        .filter(|c| c.kind() == "word")
        .map(|c| Word::literal(&src[c.byte_range()]))
        .collect();
    let read = argv::read(&words, Style::Getopt, &Valued(&[]));
    read.opts.iter().map(|o| o.name.to_string()).collect()
}

fn command_parts<'t>(node: Node<'t>, src: &str) -> CommandParts<'t> {
    let words = node.named_child_count();
    let mut parts = CommandParts {
        argv: Vec::with_capacity(words),
        words: Vec::with_capacity(words),
        assigns: Vec::new(),
        herestring: None,
    };
    // The cursor knows the field of the child it is on; asking the node for the field of
    // its i-th child walks its children again from the first.
    let mut cursor = node.walk();
    let mut more = cursor.goto_first_child();
    while more {
        let child = cursor.node();
        match cursor.field_name() {
            Some("name") | Some("argument") => {
                parts.argv.push(word::from_node(child, src));
                parts.words.push(child);
            }
            _ => match child.kind() {
                "variable_assignment" => {
                    if let Some(assign) = assignment(child, src) {
                        parts.assigns.push(assign);
                    }
                }
                "herestring_redirect" => parts.herestring = herestring_text(child, src),
                _ => {}
            },
        }
        more = cursor.goto_next_sibling();
    }
    parts
}

fn assignment(node: Node, src: &str) -> Option<(String, Word)> {
    let name = node.child_by_field_name("name")?;
    let value = match node.child_by_field_name("value") {
        Some(v) => word::from_node(v, src),
        None => Word::literal(""),
    };
    Some((src[name.byte_range()].to_string(), value))
}

/// `>`, `>>`, `&>`, `<`, ... as written, without the file descriptor.
fn redirect_operator(redirect: Node, src: &str) -> String {
    let mut cursor = redirect.walk();
    let op = redirect.children(&mut cursor).find(|c| !c.is_named());
    op.map_or_else(String::new, |op| src[op.byte_range()].to_string())
}

fn heredoc_text(body: Node, src: &str) -> String {
    src[body.byte_range()].to_string()
}

/// The word a command's here-string gives its stdin (`read -r v <<< word`).
fn herestring_word(command: Node, src: &str) -> Option<Word> {
    let mut cursor = command.walk();
    let redirect = command
        .children(&mut cursor)
        .find(|c| c.kind() == "herestring_redirect")?;
    let mut inner = redirect.walk();
    let value = redirect.named_children(&mut inner).last()?;
    Some(word::from_node(value, src))
}

fn herestring_text(node: Node, src: &str) -> Option<String> {
    let mut cursor = node.walk();
    let value = node.named_children(&mut cursor).last()?;
    Some(word::from_node(value, src).text)
}

/// What a command node prints, when that is plain from its text. Used to see through
/// `echo 'rm -rf x' | sh`.
fn stdout_of(node: Node, src: &str, stdin: Option<&str>) -> Option<String> {
    if node.kind() != "command" {
        return None;
    }
    let parts = command_parts(node, src);
    if parts.argv.is_empty() {
        return None;
    }
    printed(SimpleCommand {
        argv: parts.argv,
        assigns: Vec::new(),
        via: Via::Direct,
        span: 0..0,
        uncertain: false,
        dirs: Vec::new(),
        redirects: Vec::new(),
        input: parts.herestring.or(stdin.map(str::to_string)),
        fed_by: Vec::new(),
        call: None,
        elsewhere: None,
        recipe: None,
    })
}

/// Whether a pipeline stage may turn what it reads into arguments or instructions: `xargs`,
/// `parallel`, `git update-ref --stdin`. A plain substring test, so that the stages of
/// every other pipeline cost nothing more.
fn reads_names(stage: &str) -> bool {
    stage.contains("xargs") || stage.contains("parallel") || stage.contains("update-ref")
}

/// `rm $(find . -name '*.c')`, `` shred -u `ls *.key` ``: the commands whose output becomes
/// the operands of a command that may delete them. Only a command with a substitution and a
/// deleter among its words pays for the look.
fn substituted_listing(node: Node, argv: &[Word], src: &str) -> Vec<Vec<Word>> {
    let text = &src[node.byte_range()];
    let deletes = (text.contains("$(") || text.contains('`'))
        && argv
            .iter()
            .any(|w| matches!(w.text.as_str(), "rm" | "unlink" | "shred" | "srm" | "wipe"));
    if !deletes {
        return Vec::new();
    }
    let mut cursor = node.walk();
    let Some(substitution) = node
        .children_by_field_name("argument", &mut cursor)
        .find(|a| a.kind() == "command_substitution")
    else {
        return Vec::new();
    };
    match substitution.named_child(0) {
        Some(inner) if inner.kind() == "pipeline" => listers(inner, inner.named_child_count(), src),
        // One command: the only stage of the substitution.
        Some(inner) if matches!(inner.kind(), "command" | "redirected_statement") => {
            listers(substitution, 1, src)
        }
        _ => Vec::new(),
    }
}

/// The commands of the first `count` stages of `pipeline`, wrappers peeled (`sudo find ...`
/// is `find ...`); empty when a stage is not one simple command (a subshell, a loop), as
/// what it prints is then not known.
fn listers(pipeline: Node, count: usize, src: &str) -> Vec<Vec<Word>> {
    let mut out = Vec::with_capacity(count);
    let mut cursor = pipeline.walk();
    for stage in pipeline.named_children(&mut cursor).take(count) {
        let node = match stage.kind() {
            "redirected_statement" => stage.child_by_field_name("body"),
            _ => Some(stage),
        };
        let Some(node) = node.filter(|n| n.kind() == "command") else {
            return Vec::new();
        };
        let parts = command_parts(node, src);
        if parts.argv.is_empty() {
            return Vec::new();
        }
        let cmd = SimpleCommand::of_words(parts.argv);
        out.push(match unwrap::resolve(cmd) {
            Run::Command(cmd) => cmd.argv,
            Run::Find { find, .. } => find.argv,
            _ => return Vec::new(),
        });
    }
    out
}

/// The words of a command read from text built at run time, as far as they show what
/// runs: a substitution shows its output only when it prints its own words (`printf`,
/// `echo`); any other (`$(find ...)`) shows the command that prints, not what is printed,
/// and stands as `?`.
fn visible(argv: &[Word]) -> String {
    let shows = |word: &Word| {
        let text = word.text.as_str();
        let opened = text.match_indices("$(").map(|(at, _)| at + 2);
        let ticked = text.match_indices('`').map(|(at, _)| at + 1);
        opened.chain(ticked).all(|at| {
            let inner = text.get(at..).unwrap_or_default().trim_start();
            inner.is_empty()
                || inner.starts_with(['`', '"', '\''])
                || inner.starts_with("printf ")
                || inner.starts_with("echo ")
        })
    };
    argv.iter()
        .map(|w| match shows(w) {
            true => w.shell_quoted(),
            false => "?".to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// What `printf FORMAT ARGS...` prints, for the escapes and conversions read here (`%s`,
/// `%b` of text without escapes, `%d`, `%%`); the format is reused while arguments remain.
fn printf_output(format: &str, args: &[&str]) -> Option<String> {
    let mut out = String::new();
    let mut args = args.iter();
    loop {
        let mut used = false;
        let mut chars = format.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => out.push(match chars.next()? {
                    'n' => '\n',
                    't' => '\t',
                    c @ ('\\' | '"' | '\'') => c,
                    _ => return None,
                }),
                '%' => match chars.next()? {
                    '%' => out.push('%'),
                    's' | 'b' => {
                        used = true;
                        let arg = args.next().copied().unwrap_or("");
                        if arg.contains('\\') {
                            return None;
                        }
                        out.push_str(arg);
                    }
                    'd' | 'i' => {
                        used = true;
                        let arg = args.next().copied().unwrap_or("0");
                        out.push_str(&arg.parse::<i64>().ok()?.to_string());
                    }
                    _ => return None,
                },
                c => out.push(c),
            }
        }
        if !used || args.len() == 0 {
            return Some(out);
        }
    }
}

/// What `cmd` prints, when that is plain from its text: `echo`/`printf` of literal words,
/// or `cat` of its stdin, wrappers peeled (`command echo …`, `timeout 30 echo …`).
pub(super) fn printed(cmd: SimpleCommand) -> Option<String> {
    let Run::Command(cmd) = unwrap::resolve(cmd) else {
        return None;
    };
    let args: Vec<&str> = cmd.args().iter().map(|w| w.text.as_str()).collect();
    match cmd.program()? {
        "echo" => {
            let words: Vec<&str> = args
                .iter()
                .copied()
                .skip_while(|a| matches!(*a, "-n" | "-e" | "-E" | "-ne" | "-en"))
                .collect();
            Some(words.join(" "))
        }
        "printf" => {
            let (format, rest) = args.split_first()?;
            let format = format.replace("\\n", "\n");
            if rest.is_empty() {
                Some(format)
            } else {
                Some(rest.join("\n"))
            }
        }
        "cat" if args.is_empty() || args == ["-"] => cmd.input.clone(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continuations_join_outside_single_quotes() {
        let joined = |s| join_lines(s).0;
        assert_eq!(joined("r\\\nm -rf x"), "rm -rf x\n");
        assert_eq!(joined("echo 'a\\\nb' \"c\\\nd\""), "echo 'a\\\nb' \"cd\"\n");
        assert_eq!(joined("a\\\\\nb"), "a\\\\\nb\n");
        assert_eq!(joined("rm\0 -rf x"), "rm -rf x\n");
    }

    #[test]
    fn a_line_ends_with_one_newline_unless_it_ends_with_a_backslash() {
        let joined = |s| join_lines(s).0;
        assert_eq!(joined("a | b | c"), "a | b | c\n");
        assert_eq!(joined("ls\n"), "ls\n");
        assert_eq!(joined("echo a\\"), "echo a\\");
        assert_eq!(joined(""), "");
    }

    #[test]
    fn spans_map_back_to_the_original() {
        let (joined, removed) = join_lines("ls; r\\\nm -rf x\0; pwd");
        assert_eq!(joined, "ls; rm -rf x; pwd\n");
        assert_eq!(removed.original(4..12), 4..14);
        assert_eq!(removed.original(14..17), 17..20);
        assert_eq!(removed.original(0..2), 0..2);
        // The added newline is not in the original.
        assert_eq!(removed.original(14..18), 17..20);
        assert_eq!(removed.original(18..18), 20..20);
    }

    #[test]
    fn file_keys_fold_directories_and_spellings() {
        let dirs = |d: &[&str]| d.iter().map(|s| Word::literal(*s)).collect::<Vec<_>>();
        let key = |d: &[&str], p: &str| file_key(&dirs(d), p);
        assert_eq!(key(&[], "./x.sh"), key(&[], "x.sh"));
        assert_eq!(key(&["s"], "x.sh"), key(&[], "s/x.sh"));
        assert_eq!(key(&["s", ".."], "s/x.sh"), key(&["s"], "./x.sh"));
        assert_eq!(key(&["/tmp"], "x.sh"), key(&["app"], "/tmp/x.sh"));
        assert_eq!(key(&[], "../x.sh").as_deref(), Some("../x.sh"));
        assert_ne!(key(&[], "x.sh"), key(&["s"], "x.sh"));
        assert_eq!(key(&["-"], "x.sh"), None);
        assert_eq!(key(&["~"], "../x.sh"), None);
    }

    #[test]
    fn popd_goes_back_to_where_its_pushd_ran() {
        let dirs = |line: &str| -> Vec<String> {
            let analysis = crate::shell::analyze(line);
            let last = analysis.commands.last().expect("a command");
            last.dirs.iter().map(|w| w.text.clone()).collect()
        };
        assert_eq!(dirs("pushd a; cd b; popd; rm x"), Vec::<String>::new());
        assert_eq!(dirs("cd a; pushd b; pushd c; popd; rm x"), ["a", "b"]);
        assert_eq!(dirs("popd; rm x"), ["?"]);
        assert_eq!(dirs("pushd a; popd; cd -; rm x"), ["?"]);
        assert_eq!(dirs("pushd; popd; rm x"), ["?", "?"]);
    }

    #[test]
    fn printf_prints_its_format_for_each_round_of_arguments() {
        assert_eq!(
            printf_output("git reset --%s", &["hard"]).as_deref(),
            Some("git reset --hard")
        );
        assert_eq!(
            printf_output("%s=%d\\n", &["a", "1", "b", "2"]).as_deref(),
            Some("a=1\nb=2\n")
        );
        assert_eq!(printf_output("100%%", &[]).as_deref(), Some("100%"));
        assert_eq!(printf_output("%x", &["1"]), None);
        assert_eq!(printf_output("%d", &["one"]), None);
    }

    #[test]
    fn eval_changes_the_directory_of_its_own_shell() {
        let analysis = crate::shell::analyze("eval 'cd sub'; eval cd in; rm -rf build");
        let rm = analysis.commands.last().unwrap();
        let dirs: Vec<&str> = rm.dirs.iter().map(|w| w.text.as_str()).collect();
        assert_eq!(dirs, ["sub", "in"]);
    }

    #[test]
    fn directory_changes_follow_shell_scopes() {
        let analysis = crate::shell::analyze(
            "cd app && rm -rf build; (cd /tmp; ls); cd x | cat; bash -c 'cd y; pwd'; cd; rm z",
        );
        let dirs: Vec<(String, Vec<String>)> = analysis
            .commands
            .iter()
            .map(|c| {
                (
                    c.argv[0].text.clone(),
                    c.dirs.iter().map(|w| w.text.clone()).collect(),
                )
            })
            .collect();
        let expect = |name: &str, dirs: &[&str]| {
            (
                name.to_string(),
                dirs.iter().map(|d| d.to_string()).collect::<Vec<_>>(),
            )
        };
        assert_eq!(
            dirs,
            vec![
                expect("cd", &[]),
                expect("rm", &["app"]),
                expect("cd", &["app"]),
                expect("ls", &["app", "/tmp"]),
                expect("cd", &["app"]),
                expect("cat", &["app"]),
                expect("cd", &["app"]),
                expect("pwd", &["app", "y"]),
                expect("cd", &["app"]),
                expect("rm", &["app", "~"]),
            ]
        );
    }

    #[test]
    fn a_recipe_runs_where_its_runner_sends_it_with_the_runners_environment() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("api")).unwrap();
        std::fs::write(
            dir.path().join("api/Makefile"),
            "reset: clean\n\tgit reset --hard\nclean:\n\tcd out && rm -rf cache\n",
        )
        .unwrap();
        let line = "cd svc; GIT_DIR=g make -C ../api reset";
        std::fs::create_dir(dir.path().join("svc")).unwrap();
        let analysis =
            crate::shell::analyze_in(line, crate::shell::Dialect::Posix, Some(dir.path()));
        let ran: Vec<(String, Vec<String>, Option<String>)> = analysis
            .commands
            .iter()
            .filter(|c| c.via == Via::Recipe)
            .map(|c| {
                (
                    c.display(),
                    c.dirs.iter().map(|w| w.text.clone()).collect(),
                    c.recipe.as_ref().map(|r| r.source.clone()),
                )
            })
            .collect();
        let dirs = |d: &[&str]| d.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let source = |s: &str| Some(s.to_string());
        assert_eq!(
            ran,
            [
                (
                    "cd out".into(),
                    dirs(&["svc", "../api"]),
                    source("Makefile target clean")
                ),
                (
                    "rm -rf cache".into(),
                    dirs(&["svc", "../api", "out"]),
                    source("Makefile target clean")
                ),
                (
                    "git reset --hard".into(),
                    dirs(&["svc", "../api"]),
                    source("Makefile target reset")
                ),
            ]
        );
        let git = analysis.commands.last().unwrap();
        assert_eq!(git.assigned("GIT_DIR"), Some("g"));
        assert_eq!(git.span, 8..line.len());
        // The runner itself stands for nothing once its recipes are known.
        assert!(
            analysis
                .commands
                .iter()
                .all(|c| c.program() != Some("make"))
        );
        // Read as text alone, no file is opened and the runner is a command like any other.
        let text_only = crate::shell::analyze(line);
        assert!(
            text_only
                .commands
                .iter()
                .any(|c| c.program() == Some("make"))
        );
        assert!(text_only.commands.iter().all(|c| c.via != Via::Recipe));
    }

    /// The commands `line` runs in `dir`, each with where its reason says it comes from.
    fn sources_in(dir: &Path, line: &str) -> Vec<(String, Option<String>)> {
        crate::shell::analyze_in(line, crate::shell::Dialect::Posix, Some(dir))
            .commands
            .iter()
            .map(|c| (c.display(), c.recipe.as_ref().map(|r| r.source.clone())))
            .collect()
    }

    #[test]
    fn a_script_files_lines_are_counted_as_written() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("x.sh"),
            "echo a \\\n  b\nwipe() {\n  rm -rf \"$1\"\n}\nwipe out\n",
        )
        .unwrap();
        let ran = sources_in(dir.path(), "bash x.sh");
        assert!(
            ran.contains(&("rm -rf out".into(), Some("x.sh:4".into()))),
            "{ran:?}"
        );
        assert!(
            ran.contains(&("echo a b".into(), Some("x.sh:1".into()))),
            "{ran:?}"
        );
    }

    #[test]
    fn a_script_over_the_limit_is_not_read_and_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let big = "echo filler line of a generated script\n".repeat(8000) + "rm -rf build\n";
        assert!(big.len() as u64 > MAX_SCRIPT_BYTES);
        std::fs::write(dir.path().join("big.sh"), &big).unwrap();
        let analysis = crate::shell::analyze_in(
            "bash big.sh",
            crate::shell::Dialect::Posix,
            Some(dir.path()),
        );
        assert!(analysis.commands.iter().all(|c| c.program() != Some("rm")));
        let [unread] = analysis.unread.as_slice() else {
            panic!("{:?}", analysis.unread);
        };
        assert!(
            unread.why.as_deref().unwrap_or("").contains("256 KiB"),
            "{unread:?}"
        );
        // What shows of it is the command alone, which names nothing destructive.
        assert_eq!(unread.code.trim(), "bash big.sh");
        // A compiled program run by its path is no script, however big.
        let mut program = vec![0x7f, b'E', b'L', b'F', 0, 0];
        program.resize(MAX_SCRIPT_BYTES as usize + 10, b'x');
        std::fs::write(dir.path().join("app"), &program).unwrap();
        let analysis = crate::shell::analyze_in(
            "./app serve",
            crate::shell::Dialect::Posix,
            Some(dir.path()),
        );
        assert!(analysis.unread.is_empty(), "{:?}", analysis.unread);
        assert_eq!(analysis.commands.len(), 1);
    }

    #[test]
    fn brace_scanner_guard_keeps_offsets() {
        let src = "echo {\u{65e20} {1..\u{10ffff}} é";
        let guarded = guard_brace_scanner(src);
        assert_eq!(guarded.len(), src.len());
        assert_eq!(guarded, "echo {xxxx {1..xxxx} é");
        assert!(matches!(
            guard_brace_scanner("echo é {a,b}"),
            Cow::Borrowed(_)
        ));
    }
}
