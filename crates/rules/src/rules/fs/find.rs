//! find: deletes that reach files no test picked out, or that a pattern picks among the
//! project's own files; and, for a pipeline that feeds find's output to a deleter, which
//! files that output names.

use super::sets::{self, Picked};
use crate::rules::{Hit, Rule, Subject, Tier};
use crate::shell::Word;

pub static FIND_DELETE: Rule = Rule {
    id: "fs.find-delete",
    catches: "`find -delete`, or `-exec`/`-execdir`/`-ok rm` (or `shred`, `srm`, `wipe`, \
              `unlink`), reaching files no name or path pattern (or `-empty`) picked out; \
              the same `find` piped to `xargs rm`",
    why: "Only a name or path pattern (`-name`, `-path`, `-regex`, ...), `-empty`, or one \
          file's identity (`-inum`, `-samefile`) says which files go. Without one, and behind a negation (`-not -name '*.md'`) or an `-o` branch \
          that skips it, find matches nearly everything under its starting points: tests on \
          age, size, owner, permissions or type alone still take whole folders of work, so \
          `find . -mmin -30 -delete` deletes everything written in the last half hour. \
          Folders alone (`-type d` before `-delete`, nothing else) go as `rmdir` takes them: \
          only the empty ones; and an `-exec` with no `;` or `{} +` makes find refuse the \
          whole line, so nothing runs.",
    instead: "Narrow it by name and look first: `find . -name '*.pyc' -print`, then the same \
              with `-delete`.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "find . -delete",
        "find build -depth -delete",
        "find . -exec rm -f {} \\;",
        "find . -delete -name '*.o'",
        "find . -not -name '*.md' -delete",
        "find . -mmin -30 -delete",
        "find . -type f -size +0 -exec rm {} +",
        "find . -name '*.tmp' -o -delete",
        "find . -type f -exec shred -u {} \\;",
        "find . -type f -print0 | xargs -0 rm -f",
    ],
    passes: &[
        "find . -name '*.pyc' -delete",
        "find . -empty -delete",
        "find . -name '*.log' -exec rm {} \\;",
        "find . -print",
        "find . -exec grep -l x {} +",
        "find . -type l ! -exec test -e {} \\; -delete",
        "find . -type f -mtime +7 -name '*.log' -delete",
        "find . \\( -name '*.o' -o -name '*.a' \\) -delete",
        "find . -type f | xargs wc -l",
        "find build -type d -delete",
        "find . -name '*.log' -exec rm -rf {}",
    ],
};

/// What a word of find's expression is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `!`, `-not`, `-a`, `-and`, `-o`, `-or`, `,` and parentheses.
    Operator,
    /// A test or an option: true or false of a file, acting on none.
    Test,
    /// A test of a name or path pattern: the only ones that say *which* files go.
    Pattern,
    /// An action: with none of them (`-prune` aside) find prints every file the whole
    /// expression is true for.
    Action,
    /// An action that runs a command, whose words run to `;` or `{} +`.
    Exec,
}

/// A primary (or operator) of find's expression, and how many words after it it takes.
struct Primary {
    name: &'static str,
    kind: Kind,
    takes: usize,
}

const fn primary(name: &'static str, kind: Kind, takes: usize) -> Primary {
    Primary { name, kind, takes }
}

/// find's expression language: its operators and every primary GNU find knows, with the
/// words each takes. find reads these words by name, not as getopt options: `-name` is no
/// cluster of letters, and `-O3` no option with a value.
const PRIMARIES: &[Primary] = &[
    primary("!", Kind::Operator, 0),
    primary("-not", Kind::Operator, 0),
    primary("-a", Kind::Operator, 0),
    primary("-and", Kind::Operator, 0),
    primary("-o", Kind::Operator, 0),
    primary("-or", Kind::Operator, 0),
    primary(",", Kind::Operator, 0),
    primary("(", Kind::Operator, 0),
    primary(")", Kind::Operator, 0),
    primary("-name", Kind::Pattern, 1),
    primary("-iname", Kind::Pattern, 1),
    primary("-path", Kind::Pattern, 1),
    primary("-ipath", Kind::Pattern, 1),
    primary("-wholename", Kind::Pattern, 1),
    primary("-iwholename", Kind::Pattern, 1),
    primary("-regex", Kind::Pattern, 1),
    primary("-iregex", Kind::Pattern, 1),
    primary("-lname", Kind::Pattern, 1),
    primary("-ilname", Kind::Pattern, 1),
    primary("-amin", Kind::Test, 1),
    primary("-anewer", Kind::Test, 1),
    primary("-atime", Kind::Test, 1),
    primary("-cmin", Kind::Test, 1),
    primary("-cnewer", Kind::Test, 1),
    primary("-context", Kind::Test, 1),
    primary("-ctime", Kind::Test, 1),
    primary("-fstype", Kind::Test, 1),
    primary("-gid", Kind::Test, 1),
    primary("-group", Kind::Test, 1),
    primary("-inum", Kind::Test, 1),
    primary("-links", Kind::Test, 1),
    primary("-mmin", Kind::Test, 1),
    primary("-mtime", Kind::Test, 1),
    primary("-newer", Kind::Test, 1),
    primary("-perm", Kind::Test, 1),
    primary("-samefile", Kind::Test, 1),
    primary("-size", Kind::Test, 1),
    primary("-type", Kind::Test, 1),
    primary("-uid", Kind::Test, 1),
    primary("-used", Kind::Test, 1),
    primary("-user", Kind::Test, 1),
    primary("-xtype", Kind::Test, 1),
    // `-newerXY`: X and Y each one of access, birth, change and modification time (`t`, a
    // date written out, only for Y).
    primary("-neweraa", Kind::Test, 1),
    primary("-neweraB", Kind::Test, 1),
    primary("-newerac", Kind::Test, 1),
    primary("-neweram", Kind::Test, 1),
    primary("-newerat", Kind::Test, 1),
    primary("-newerBa", Kind::Test, 1),
    primary("-newerBB", Kind::Test, 1),
    primary("-newerBc", Kind::Test, 1),
    primary("-newerBm", Kind::Test, 1),
    primary("-newerBt", Kind::Test, 1),
    primary("-newerca", Kind::Test, 1),
    primary("-newercB", Kind::Test, 1),
    primary("-newercc", Kind::Test, 1),
    primary("-newercm", Kind::Test, 1),
    primary("-newerct", Kind::Test, 1),
    primary("-newerma", Kind::Test, 1),
    primary("-newermB", Kind::Test, 1),
    primary("-newermc", Kind::Test, 1),
    primary("-newermm", Kind::Test, 1),
    primary("-newermt", Kind::Test, 1),
    primary("-empty", Kind::Test, 0),
    primary("-executable", Kind::Test, 0),
    primary("-false", Kind::Test, 0),
    primary("-true", Kind::Test, 0),
    primary("-nogroup", Kind::Test, 0),
    primary("-nouser", Kind::Test, 0),
    primary("-readable", Kind::Test, 0),
    primary("-writable", Kind::Test, 0),
    primary("-prune", Kind::Test, 0),
    // Options: true of every file, they change how find walks.
    primary("-maxdepth", Kind::Test, 1),
    primary("-mindepth", Kind::Test, 1),
    primary("-regextype", Kind::Test, 1),
    primary("-files0-from", Kind::Test, 1),
    primary("-d", Kind::Test, 0),
    primary("-depth", Kind::Test, 0),
    primary("-daystart", Kind::Test, 0),
    primary("-follow", Kind::Test, 0),
    primary("-mount", Kind::Test, 0),
    primary("-xdev", Kind::Test, 0),
    primary("-noleaf", Kind::Test, 0),
    primary("-ignore_readdir_race", Kind::Test, 0),
    primary("-noignore_readdir_race", Kind::Test, 0),
    primary("-warn", Kind::Test, 0),
    primary("-nowarn", Kind::Test, 0),
    primary("-help", Kind::Test, 0),
    primary("-version", Kind::Test, 0),
    primary("-delete", Kind::Action, 0),
    primary("-print", Kind::Action, 0),
    primary("-print0", Kind::Action, 0),
    primary("-printf", Kind::Action, 1),
    primary("-fprint", Kind::Action, 1),
    primary("-fprint0", Kind::Action, 1),
    primary("-fprintf", Kind::Action, 2),
    primary("-ls", Kind::Action, 0),
    primary("-fls", Kind::Action, 1),
    primary("-quit", Kind::Action, 0),
    primary("-exec", Kind::Exec, 0),
    primary("-execdir", Kind::Exec, 0),
    primary("-ok", Kind::Exec, 0),
    primary("-okdir", Kind::Exec, 0),
];

/// Options before the starting points, with the words each takes: `-H`, `-L`, `-P`,
/// `-D debugopts`, `-O3`.
const LEADING: &[(&str, usize)] = &[
    ("-H", 0),
    ("-L", 0),
    ("-P", 0),
    ("-D", 1),
    ("-O0", 0),
    ("-O1", 0),
    ("-O2", 0),
    ("-O3", 0),
];

/// A word as find reads it in its expression.
enum Piece {
    Primary(&'static Primary),
    /// A word find takes for a primary it does not know (and refuses the line).
    Unknown,
    /// A starting point, or a primary's argument.
    Operand,
}

/// How find reads `word`. Whether a word it does not know is a primary is find's own rule:
/// one that starts with `-` is (and where the expression begins).
fn piece(word: &str) -> Piece {
    match PRIMARIES.iter().find(|p| p.name == word) {
        Some(primary) => Piece::Primary(primary),
        None if word.starts_with('-') => Piece::Unknown,
        None => Piece::Operand,
    }
}

/// The kind of primary `word` is, when find knows it.
fn kind(word: &str) -> Option<Kind> {
    match piece(word) {
        Piece::Primary(primary) => Some(primary.kind),
        Piece::Unknown | Piece::Operand => None,
    }
}

fn is_action(word: &str) -> bool {
    matches!(kind(word), Some(Kind::Action | Kind::Exec))
}

/// Nesting of parentheses and negations followed; deeper ones count as narrowing nothing.
const MAX_DEPTH: usize = 32;

/// What an expression is read for: the files it deletes, or the files it prints.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Delete,
    List,
}

/// What is known about the files at one point of a find expression: how closely the tests
/// before it picked every file for which it is true (`when_true`) or false (`when_false`),
/// and the least picked files an action in it reaches (deletes, or prints for a listing).
#[derive(Clone, Copy)]
struct Reach {
    acts: Option<Picked>,
    when_true: Picked,
    when_false: Picked,
}

impl Reach {
    /// A primary that picks nothing and acts on nothing: `-type f`, `-maxdepth 1`.
    fn neutral(picked: Picked) -> Reach {
        Reach {
            acts: None,
            when_true: picked,
            when_false: picked,
        }
    }

    fn acting(picked: Picked) -> Reach {
        Reach {
            acts: Some(picked),
            ..Reach::neutral(picked)
        }
    }
}

/// The less picked of two reaches of an action, either of which may be missing.
fn least(a: Option<Picked>, b: Option<Picked>) -> Option<Picked> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, None) => a,
        (None, b) => b,
    }
}

/// Reads find's expression (`!`/`-not` over `-a` over `-o` over `,`, with parentheses) the
/// way find evaluates it, carrying how closely the files that reach each point were picked.
struct Expr<'a> {
    args: &'a [Word],
    at: usize,
    mode: Mode,
    /// Nesting went past [`MAX_DEPTH`]: the reading is not trusted to narrow anything.
    too_deep: bool,
    /// An action (not `-prune`) appears: find prints nothing by itself.
    has_action: bool,
    /// Where the last pattern test read that names no output stands.
    last_pattern: Option<usize>,
    /// Where the pattern test stands that picked the files an action first reached.
    pattern: Option<usize>,
    /// An `-exec` deletes recursively: a folder a test picks goes with everything in it.
    folders: bool,
}

impl Expr<'_> {
    fn peek(&self) -> Option<&str> {
        self.args.get(self.at).map(|w| w.text.as_str())
    }

    fn list(&mut self, picked: Picked, depth: usize) -> Reach {
        let mut reach = self.or(picked, depth);
        while self.peek() == Some(",") {
            self.at += 1;
            // Both sides of `,` run on every file; the value is the right side's.
            let right = self.or(picked, depth);
            reach = Reach {
                acts: least(reach.acts, right.acts),
                ..right
            };
        }
        reach
    }

    fn or(&mut self, picked: Picked, depth: usize) -> Reach {
        let mut reach = self.and(picked, depth);
        while matches!(self.peek(), Some("-o" | "-or")) {
            self.at += 1;
            // The right side sees only the files the left side was false for.
            let right = self.and(reach.when_false, depth);
            reach = Reach {
                acts: least(reach.acts, right.acts),
                when_true: reach.when_true.min(right.when_true),
                when_false: right.when_false,
            };
        }
        reach
    }

    fn and(&mut self, picked: Picked, depth: usize) -> Reach {
        let mut reach = self.not(picked, depth);
        loop {
            match self.peek() {
                None | Some("-o" | "-or" | "," | ")") => return reach,
                Some("-a" | "-and") => self.at += 1,
                Some(_) => {}
            }
            if self.peek().is_none() {
                return reach;
            }
            // The right side sees only the files the left side was true for.
            let right = self.not(reach.when_true, depth);
            reach = Reach {
                acts: least(reach.acts, right.acts),
                when_true: right.when_true,
                when_false: reach.when_false.min(right.when_false),
            };
        }
    }

    fn not(&mut self, picked: Picked, depth: usize) -> Reach {
        match self.peek() {
            Some("!" | "-not") if depth < MAX_DEPTH => {
                self.at += 1;
                let inner = self.not(picked, depth + 1);
                Reach {
                    acts: inner.acts,
                    when_true: inner.when_false,
                    when_false: inner.when_true,
                }
            }
            Some("(") if depth < MAX_DEPTH => {
                self.at += 1;
                let inner = self.list(picked, depth + 1);
                if self.peek() == Some(")") {
                    self.at += 1;
                }
                inner
            }
            Some("!" | "-not" | "(") => {
                self.too_deep = true;
                self.primary(picked)
            }
            _ => self.primary(picked),
        }
    }

    fn primary(&mut self, picked: Picked) -> Reach {
        let Some(word) = self.args.get(self.at) else {
            return Reach::neutral(picked);
        };
        let at = self.at;
        self.at += 1;
        let w = word.text.as_str();
        // An operand out of place, or a primary find does not know, picks nothing.
        let Piece::Primary(primary) = piece(w) else {
            return Reach::neutral(picked);
        };
        if primary.kind == Kind::Exec {
            self.has_action = true;
            return self.exec(picked);
        }
        let value = self.args.get(self.at).map(|v| v.text.as_str());
        self.at += primary.takes;
        self.has_action |= primary.kind == Kind::Action;
        if primary.kind == Kind::Pattern {
            let Some(pattern) = value else {
                return Reach::neutral(picked);
            };
            let by = pattern_picks(w, pattern, self.folders);
            if by == Picked::Pattern {
                self.last_pattern = Some(at);
            }
            return Reach {
                when_true: picked.max(by),
                ..Reach::neutral(picked)
            };
        }
        let known = Reach {
            when_true: Picked::Known,
            ..Reach::neutral(picked)
        };
        // One folder by identity, or what a test of the agent's lets through, still goes
        // with everything in it: a set to look at first, not something known by name.
        let identified = if self.folders {
            Reach {
                when_true: picked.max(Picked::Pattern),
                ..Reach::neutral(picked)
            }
        } else {
            known
        };
        match w {
            // One file, by identity: as narrow as a name.
            "-inum" | "-samefile" => identified,
            "-empty" => known,
            // `-size 0` is `-empty` for files.
            "-size" if value.is_some_and(is_zero_size) => known,
            // Never true: whatever follows it with `-a` is never reached.
            "-false" => known,
            "-delete" if self.mode == Mode::Delete => self.act(picked),
            "-print" | "-print0" | "-printf" if self.mode == Mode::List => self.act(picked),
            _ => Reach::neutral(picked),
        }
    }

    /// An action on the files `picked` so; a pattern that picked them is remembered.
    fn act(&mut self, picked: Picked) -> Reach {
        if picked == Picked::Pattern && self.pattern.is_none() {
            self.pattern = self.last_pattern;
        }
        Reach::acting(picked)
    }

    /// `-exec PROGRAM ARGS... ;` or `... {} +`, the program's words already due.
    fn exec(&mut self, picked: Picked) -> Reach {
        // `-exec sudo rm {} +` runs `rm`.
        let program = crate::shell::wrapped(self.args.get(self.at..).unwrap_or_default())
            .and_then(|argv| argv.first())
            .and_then(|w| w.value())
            .map(|p| p.rsplit('/').next().unwrap_or(p));
        let mut terminator = "";
        while let Some(next) = self.args.get(self.at) {
            self.at += 1;
            let after_braces = self
                .at
                .checked_sub(2)
                .and_then(|before| self.args.get(before))
                .is_some_and(|w| w.text == "{}");
            if next.text == ";" || (next.text == "+" && after_braces) {
                terminator = if next.text == ";" { ";" } else { "+" };
                break;
            }
        }
        if self.mode == Mode::Delete && program.is_some_and(sets::is_deleter) {
            return self.act(picked);
        }
        // `-exec test -e {} ;` is a test the agent wrote for these files: only those it
        // succeeds on (or, negated, fails on) go further. A program that always succeeds
        // tells nothing apart.
        let filters =
            terminator == ";" && !matches!(program, Some("echo" | "printf" | "true" | ":") | None);
        let by = if self.folders {
            Picked::Pattern
        } else {
            Picked::Known
        };
        Reach::neutral(if filters { picked.max(by) } else { picked })
    }
}

/// How a pattern test picks files: everything (`*`), files known for what they are (a name
/// or path with no wildcard, output by name such as `*.pyc`, a path inside a build folder,
/// links), or by a pattern over the project's own files (`*.c`, `*.txt`, `.*`).
/// With `folders`, what is picked goes with everything under it: one name with no wildcard
/// (`-name src`) then picks whole folders of work unless it names output.
fn pattern_picks(test: &str, pattern: &str, folders: bool) -> Picked {
    if matches_all(test, pattern) {
        return Picked::Any;
    }
    if test.ends_with("regex") {
        return if sets::regex_names_output(pattern) {
            Picked::Known
        } else {
            Picked::Pattern
        };
    }
    // Only symbolic links match a link test: removing them loses no file's content.
    if test.ends_with("lname") || !(folders || pattern.contains(['*', '?', '['])) {
        return Picked::Known;
    }
    let path_test = test.ends_with("path") || test.ends_with("wholename");
    if sets::names_output(pattern) || (path_test && sets::in_output_folder(pattern)) {
        Picked::Known
    } else {
        Picked::Pattern
    }
}

/// A pattern every name or path matches: the glob `*`, or the regex `.*`.
fn matches_all(test: &str, pattern: &str) -> bool {
    if test.ends_with("regex") {
        matches!(pattern, ".*" | ".*.*" | "./.*")
    } else {
        matches!(pattern, "*" | "**" | "./*" | "*/*")
    }
}

/// `0`, `0c`, `-1k`: a size only empty files have (find rounds sizes up to whole units).
fn is_zero_size(value: &str) -> bool {
    let number = value
        .strip_suffix(['b', 'c', 'w', 'k', 'M', 'G'])
        .unwrap_or(value);
    number == "-1" || !number.is_empty() && number.bytes().all(|b| b == b'0')
}

/// How many words the options before the starting points take.
fn leading_options(args: &[Word]) -> usize {
    let mut at = 0;
    while let Some((_, takes)) = args
        .get(at)
        .and_then(|w| LEADING.iter().find(|(name, _)| *name == w.text))
    {
        at += 1 + takes;
    }
    at
}

/// find's words split into its starting points (`.` when none is given) and its expression.
struct Split<'a> {
    starts: Vec<&'a Word>,
    expression: &'a [Word],
}

fn split(args: &[Word]) -> Split<'_> {
    let mut starts: Vec<&Word> = Vec::new();
    let mut i = leading_options(args).min(args.len());
    while let Some(word) = args.get(i) {
        let w = word.text.as_str();
        if w == "-f" {
            // BSD find's `-f PATH`: a starting point that may look like anything.
            starts.extend(args.get(i + 1));
            i += 2;
        } else if matches!(piece(w), Piece::Operand) {
            starts.push(word);
            i += 1;
        } else {
            break;
        }
    }
    Split {
        starts,
        expression: args.get(i..).unwrap_or_default(),
    }
}

/// What an expression does, read in `mode`: the least picked files it acts on, and the
/// pattern test that picked them.
struct Outcome<'a> {
    acts: Option<Picked>,
    pattern: Option<&'a [Word]>,
}

fn read(expression: &[Word], mode: Mode) -> Outcome<'_> {
    let mut expr = Expr {
        args: expression,
        at: 0,
        mode,
        too_deep: false,
        has_action: false,
        last_pattern: None,
        pattern: None,
        folders: mode == Mode::Delete && deletes_folders(expression),
    };
    let mut acts = None;
    let mut printed: Option<Picked> = None;
    // A stray `)` ends a parse early; what follows it is read too, picking nothing.
    while expr.peek().is_some() {
        let reach = expr.list(Picked::Any, 0);
        acts = least(acts, reach.acts);
        printed = least(printed, Some(reach.when_true));
        if expr.peek() == Some(")") {
            expr.at += 1;
        }
    }
    if mode == Mode::List && !expr.has_action {
        // find's own `-print` of every file the whole expression is true for.
        acts = least(acts, Some(printed.unwrap_or(Picked::Any)));
        expr.pattern = expr.pattern.or(expr.last_pattern);
    }
    if expr.too_deep {
        let acting = match mode {
            Mode::Delete => {
                expr.args.iter().any(|w| w.text == "-delete")
                    || expr.args.windows(2).any(|pair| match pair {
                        [action, program] => {
                            kind(&action.text) == Some(Kind::Exec)
                                && program.value().is_some_and(|p| {
                                    sets::is_deleter(p.rsplit('/').next().unwrap_or(p))
                                })
                        }
                        _ => false,
                    })
            }
            Mode::List => true,
        };
        if acting {
            acts = Some(Picked::Any);
        }
    }
    Outcome {
        acts,
        pattern: expr.pattern.and_then(|at| expression.get(at..at + 2)),
    }
}

/// `-type d` before `-delete`, in an expression of tests joined by "and" alone: find removes a
/// folder as `rmdir` does, so only empty folders go and no file's content with them. An "or",
/// a negation, a group or another action could reach files, so any of them keeps the finding.
fn only_empty_folders(expression: &[Word]) -> bool {
    let mut folders = false;
    let mut words = expression.iter();
    while let Some(word) = words.next() {
        let w = word.text.as_str();
        let primary = match piece(w) {
            Piece::Primary(primary) => primary,
            // A primary find does not know: it refuses the line.
            Piece::Unknown if word.value().is_some() => continue,
            Piece::Unknown | Piece::Operand => return false,
        };
        match (w, primary.kind) {
            ("-type", _) => folders |= words.next().is_some_and(|t| t.value() == Some("d")),
            ("-delete", _) if folders => {}
            ("-a" | "-and", _) => {}
            (_, Kind::Test | Kind::Pattern) => {
                for _ in 0..primary.takes {
                    words.next();
                }
            }
            _ => return false,
        }
    }
    folders
}

/// Whether an `-exec`/`-ok` of the expression deletes recursively (`-exec rm -rf {} +`).
fn deletes_folders(expression: &[Word]) -> bool {
    expression.iter().enumerate().any(|(at, action)| {
        let acts = kind(&action.text) == Some(Kind::Exec);
        let Some(run) = crate::shell::wrapped(expression.get(at + 1..).unwrap_or_default()) else {
            return false;
        };
        let Some(program) = run.first().and_then(Word::value) else {
            return false;
        };
        let program = program.rsplit('/').next().unwrap_or(program);
        let words = run.get(1..).unwrap_or_default();
        let end = words
            .iter()
            .position(|w| w.text == ";" || w.text == "+")
            .unwrap_or(words.len());
        acts && sets::recursive(program, words.get(..end).unwrap_or_default())
    })
}

/// Whether the tests of `find` (its whole argv) pick the files its `-exec` acts on by name,
/// a pattern or what they are: its deletes are then judged as that set, not as a delete of
/// whatever `find` hands over.
pub(in crate::rules) fn narrows(find: &[Word]) -> bool {
    let Split { expression, .. } = split(find.get(1..).unwrap_or_default());
    matches!(
        read(expression, Mode::Delete).acts,
        Some(Picked::Known | Picked::Pattern)
    )
}

/// Whether `find` (its whole argv) is itself found deleting what its `-exec` deletes: its
/// finding names the starting points, which the context can look at, where the `{}` of the
/// command it runs is known only when find runs.
pub(in crate::rules) fn covers_exec(find: &[Word]) -> bool {
    find.first().and_then(Word::value) == Some("find")
        && check(find.get(1..).unwrap_or_default()).is_some()
}

/// The starting points as words, `.` when none is given.
fn starts_or_here(starts: Vec<&Word>) -> Vec<Word> {
    if starts.is_empty() {
        vec![Word::literal(".")]
    } else {
        starts.into_iter().cloned().collect()
    }
}

pub(in crate::rules) fn check(args: &[Word]) -> Option<Hit> {
    let Split { starts, expression } = split(args);
    if only_empty_folders(expression) {
        return None;
    }
    let outcome = read(expression, Mode::Delete);
    let acts = outcome.acts?;
    let in_output = !starts.is_empty() && starts.iter().all(|w| sets::start_in_output(w));
    if acts == Picked::Known || (acts == Picked::Pattern && in_output) {
        return None;
    }
    let starts = starts_or_here(starts);
    // The same search, printing instead of acting: up to the first action.
    let tests = expression.iter().take_while(|w| !is_action(&w.text));
    let preview: Vec<String> = std::iter::once("find".to_string())
        .chain(starts.iter().map(Word::shell_quoted))
        .chain(tests.map(Word::shell_quoted))
        .chain(["-print".to_string()])
        .collect();
    let preview = preview.join(" ");
    if acts == Picked::Any {
        return Some(unnarrowed(&starts, &preview));
    }
    let what = format!(
        "every file {} picks under {}, a pattern that names no output",
        shown_pattern(outcome.pattern),
        crate::rules::git::list(starts.iter().map(|w| w.text.as_str()))
    );
    Some(sets::pattern_hit(&what, &preview, starts))
}

/// What `find ARGS` prints, as a set of files: how it picks them, the pattern tests that
/// did, and where it looks. `None` when it prints nothing a deleter could take as names
/// (its output comes from `-exec` commands or goes to files).
pub(super) fn listed(args: &[Word]) -> Option<sets::Listing> {
    let Split { starts, expression } = split(args);
    let outcome = read(expression, Mode::List);
    let starts = starts_or_here(starts);
    let picked = match outcome.acts? {
        Picked::Pattern if starts.iter().all(sets::start_in_output) => Picked::Known,
        picked => picked,
    };
    let shown = crate::rules::git::list(starts.iter().map(|w| w.text.as_str()));
    Some(sets::Listing {
        picked,
        how: format!("by {} under {shown}", shown_pattern(outcome.pattern)),
        starts,
        from_find: true,
    })
}

/// A pattern test as written (`-name '*.c'`), for a reason.
fn shown_pattern(test: Option<&[Word]>) -> String {
    match test {
        Some(words) => {
            let words: Vec<String> = words.iter().map(Word::shell_quoted).collect();
            format!("`{}`", words.join(" "))
        }
        None => "its pattern".into(),
    }
}

/// The finding for a delete no test narrows; `preview` lists what it would take.
pub(super) fn unnarrowed(starts: &[Word], preview: &str) -> Hit {
    Hit::new(
        &FIND_DELETE,
        Tier::Destructive,
        format!(
            "deletes every file under {}, since no test narrows the match",
            crate::rules::git::list(starts.iter().map(|w| w.text.as_str()))
        ),
    )
    .safer(format!(
        "`{preview}` to see what matches; narrow it by name (`-name '<pattern>'`), then delete"
    ))
    .recovery("none for files git does not track")
    .about(Subject::Paths(starts.to_vec()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deletes(line: &str) -> bool {
        let args: Vec<Word> = line.split_whitespace().map(Word::literal).collect();
        check(&args).is_some()
    }

    #[test]
    fn a_delete_of_folders_alone_takes_only_empty_ones() {
        for line in [
            ". -type d -delete",
            "build -mindepth 1 -type d -delete",
            ". -type d -name cache -delete",
        ] {
            assert!(!deletes(line), "{line}");
        }
        for line in [
            ". -delete -type d",
            ". -type d -o -delete",
            ". -not -type d -delete",
            ". ! -type d -delete",
            ". ( -type d ) -o -delete",
            ". -type f -delete",
            ". -type d,f -delete",
            ". -type d -exec rm -rf {} +",
        ] {
            assert!(deletes(line), "{line}");
        }
    }

    #[test]
    fn only_patterns_emptiness_and_identity_narrow() {
        for line in [
            ". -delete",
            ". -mtime +7 -delete",
            ". -not -name *.md -delete",
            ". ( -name *.o -o -type f ) -delete",
            ". -name *.o -o -delete",
            ". -name * -delete",
            ". -name *.o , -delete",
            ". -delete -name *.o",
            "-L . -size +1k -exec rm {} +",
        ] {
            assert!(deletes(line), "{line}");
        }
        for line in [
            ". -name *.o -delete",
            ". ( -name *.o -o -name *.a ) -delete",
            ". -not ( -not -name *.o ) -delete",
            ". -name *.o -delete -o -print",
            ". -size 0 -delete",
            ". -inum 42 -delete",
            ". -false -delete",
            ". -type l ! -exec test -e {} ; -delete",
        ] {
            assert!(!deletes(line), "{line}");
        }
    }

    #[test]
    fn primaries_take_the_words_the_table_gives_them() {
        for line in [
            "-O3 . -mtime +1 -delete",
            "-D tree -L . -delete",
            ". -type d -printf %p -delete",
        ] {
            assert!(deletes(line), "{line}");
        }
        for line in [
            ". -type d -newermt 2024-01-01 -delete",
            ". -fprintf out %p -name *.o -delete",
        ] {
            assert!(!deletes(line), "{line}");
        }
    }

    #[test]
    fn deep_nesting_neither_overflows_nor_hides_a_delete() {
        let open = "( ".repeat(10_000);
        assert!(deletes(&format!(". {open} -name x -o -delete")));
        assert!(!deletes(&format!(". {open} -name x -print")));
        let negations = "! ".repeat(10_000);
        assert!(deletes(&format!(". {negations} -name x -delete")));
    }
}
