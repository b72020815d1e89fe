//! Property tests: the guard's verdict must not depend on how a command is spelled, must
//! see through whatever a command is wrapped in, and must never panic or hang on any input.
//!
//! Every property runs with a fixed, modest case count so the whole file stays well under
//! 30 seconds in a debug build. A failure here is a real bug (a way past the guard, or a
//! crash of the hook), never a reason to weaken the property: proptest prints the minimal
//! input it shrank to.

use std::collections::BTreeSet;

use agent_guard::host;
use agent_guard::policy::{Decision, Verdict};
use agent_guard::settings::{Profile, Settings};
use agent_guard::shell;
use proptest::prelude::*;
use proptest::sample::Index;

const PROFILES: [Profile; 2] = [Profile::Standard, Profile::Strict];

fn settings(profile: Profile) -> Settings {
    Settings {
        profile,
        context: false,
        ..Settings::default()
    }
}

fn evaluate(command: &str, profile: Profile) -> Verdict {
    agent_guard::evaluate(command, &settings(profile))
}

fn rule_ids(verdict: &Verdict) -> BTreeSet<&'static str> {
    verdict.findings.iter().map(|f| f.rule.id).collect()
}

// ---------------------------------------------------------------------------------------
// Shell quoting helpers
// ---------------------------------------------------------------------------------------

/// `s` as one single-quoted shell word, with the `'\''` idiom for embedded quotes.
fn single_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// `s` as one double-quoted shell word: `\`, `$`, `` ` `` and `"` are escaped.
fn double_quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        if matches!(c, '\\' | '$' | '`' | '"') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// `s` as an ANSI-C `$'...'` word; the char at `hex` (if any) is written as `\xHH`.
fn ansi_c_quote(s: &str, hex: Option<usize>) -> String {
    let mut out = String::from("$'");
    for (i, c) in s.chars().enumerate() {
        if Some(i) == hex && c.is_ascii() {
            out.push_str(&format!("\\x{:02x}", c as u32));
        } else {
            if matches!(c, '\\' | '\'') {
                out.push('\\');
            }
            out.push(c);
        }
    }
    out.push('\'');
    out
}

/// Characters that mean something to the shell when unquoted somewhere in a word.
fn is_special(c: char) -> bool {
    c.is_whitespace() || "|&;<>()$`\\\"'*?[]#~{}!".contains(c)
}

/// `s` unquoted, with a backslash before every special character.
fn bare(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if is_special(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Text embedded in backquotes: inside `` `...` `` a backslash quotes `\`, `` ` `` and `$`.
fn backquote_escape(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if matches!(c, '\\' | '`' | '$') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Splits a corpus line into the word values the shell passes on: words are separated by
/// spaces; `'...'` and `\c` quote (enough for the corpus below).
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' => {
                if in_word {
                    out.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                for q in chars.by_ref() {
                    if q == '\'' {
                        break;
                    }
                    word.push(q);
                }
            }
            '\\' => {
                in_word = true;
                word.extend(chars.next());
            }
            _ => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        out.push(word);
    }
    out
}

// ---------------------------------------------------------------------------------------
// a. Quoting a word differently never changes the verdict
// ---------------------------------------------------------------------------------------

/// Commands whose words are re-quoted, with the rule the standard profile reports (if any).
/// The expectation only guards against a vacuous property: see `corpus_is_judged_as_expected`.
const QUOTING_CORPUS: &[(&str, Option<&str>)] = &[
    ("git reset --hard HEAD~1", Some("git.reset-hard")),
    ("git reset --hard", Some("git.reset-hard")),
    (
        "git -C repo reset --hard origin/main",
        Some("git.reset-hard"),
    ),
    ("rm -rf build", Some("fs.rm-recursive")),
    ("rm -r -f node_modules", Some("fs.rm-recursive")),
    ("rm -fr dist/", Some("fs.rm-recursive")),
    ("rm --recursive --force target", Some("fs.rm-recursive")),
    ("rm -rf /", Some("fs.rm-recursive")),
    ("git clean -fdx", Some("git.clean-force")),
    ("git clean -f", Some("git.clean-force")),
    ("git push --force origin main", Some("git.push-force")),
    ("git push -f", Some("git.push-force")),
    ("git push origin +feature", Some("git.push-force")),
    ("git push origin --delete feature", Some("git.push-delete")),
    ("git checkout -- .", Some("git.discard-worktree")),
    (
        "git checkout HEAD -- src/lib.rs",
        Some("git.discard-worktree"),
    ),
    ("git restore .", Some("git.discard-worktree")),
    (
        "git switch --discard-changes main",
        Some("git.discard-worktree"),
    ),
    ("find . -delete", Some("fs.find-delete")),
    ("find build -depth -delete", Some("fs.find-delete")),
    ("find . -exec rm -f {} \\;", Some("fs.find-delete")),
    ("git branch -D feature/x", Some("git.branch-force-delete")),
    ("git stash drop", Some("git.stash-drop")),
    ("git stash clear", Some("git.stash-drop")),
    (
        "git worktree remove --force ../wt",
        Some("git.worktree-force-remove"),
    ),
    ("git tag -d v1.0", Some("git.tag-delete")),
    ("git update-ref -d refs/heads/old", Some("git.ref-delete")),
    (
        "git reflog expire --expire=now --all",
        Some("git.recovery-destroy"),
    ),
    ("git gc --prune=now", Some("git.recovery-destroy")),
    (
        "git filter-branch --tree-filter x",
        Some("git.history-rewrite"),
    ),
    ("git status", None),
    ("rm file.txt", None),
    ("rm stale.log", None),
    ("rm -- -rf", None),
    ("git push --force-with-lease", None),
    ("git push --force-with-lease origin feature", None),
    ("git reset --soft HEAD~1", None),
    ("git clean -n", None),
    ("git clean --dry-run -fdx", None),
    ("find . -name '*.pyc' -delete", None),
    ("git checkout main", None),
    ("git restore --staged file.txt", None),
    ("git stash pop", None),
    ("git branch -d merged", None),
    ("git log --oneline", None),
    ("ls -la", None),
];

/// Directories a command name can be spelled from (`/usr/bin/git`).
const BIN_DIRS: &[&str] = &["/bin/", "/usr/bin/", "/usr/local/bin/"];

/// One way of writing a word that the shell turns back into the same value.
#[derive(Debug, Clone)]
enum Quoting {
    /// As is (specials backslash-escaped).
    Bare,
    /// `'w'`
    Single,
    /// `"w"`
    Double,
    /// A backslash before one ordinary character: `r\m`.
    Backslash(Index),
    /// `$'w'`, optionally with one character as a `\xHH` escape.
    AnsiC(Option<Index>),
    /// Adjacent parts, each quoted its own way: `'r'"m"`.
    Split(Vec<(Index, Part)>),
    /// An empty quoted string inside the word: `r''m`, `""rm`, `rm$''`.
    Empty(Index, Part),
    /// A line continuation inside the word: `r\<newline>m`.
    Continuation(Index),
}

#[derive(Debug, Clone, Copy)]
enum Part {
    Bare,
    Single,
    Double,
    AnsiC,
}

fn part_strategy() -> impl Strategy<Value = Part> {
    prop_oneof![
        Just(Part::Bare),
        Just(Part::Single),
        Just(Part::Double),
        Just(Part::AnsiC),
    ]
}

fn quoting_strategy() -> impl Strategy<Value = Quoting> {
    prop_oneof![
        2 => Just(Quoting::Bare),
        1 => Just(Quoting::Single),
        1 => Just(Quoting::Double),
        1 => any::<Index>().prop_map(Quoting::Backslash),
        1 => proptest::option::of(any::<Index>()).prop_map(Quoting::AnsiC),
        2 => prop::collection::vec((any::<Index>(), part_strategy()), 1..4)
            .prop_map(Quoting::Split),
        1 => (any::<Index>(), part_strategy()).prop_map(|(i, p)| Quoting::Empty(i, p)),
        1 => any::<Index>().prop_map(Quoting::Continuation),
    ]
}

/// How one word is rewritten; `path` only applies to the command name.
#[derive(Debug, Clone)]
struct Respell {
    path: Option<Index>,
    quoting: Quoting,
}

fn respell_strategy() -> impl Strategy<Value = Respell> {
    (
        proptest::option::weighted(0.3, any::<Index>()),
        quoting_strategy(),
    )
        .prop_map(|(path, quoting)| Respell { path, quoting })
}

fn quote_part(s: &str, part: Part) -> String {
    match part {
        Part::Bare => bare(s),
        Part::Single => single_quote(s),
        Part::Double => double_quote(s),
        Part::AnsiC => ansi_c_quote(s, None),
    }
}

fn apply_quoting(value: &str, quoting: &Quoting) -> String {
    let chars: Vec<char> = value.chars().collect();
    match quoting {
        Quoting::Bare => bare(value),
        Quoting::Single => single_quote(value),
        Quoting::Double => double_quote(value),
        Quoting::AnsiC(hex) => ansi_c_quote(value, hex.map(|i| i.index(chars.len()))),
        Quoting::Backslash(at) => {
            let at = at.index(chars.len());
            let mut out = String::new();
            for (i, &c) in chars.iter().enumerate() {
                let ordinary = c.is_ascii_alphanumeric() || "-_./:=@%+,".contains(c);
                if is_special(c) || (i == at && ordinary) {
                    out.push('\\');
                }
                out.push(c);
            }
            out
        }
        Quoting::Empty(at, part) => {
            let at = at.index(chars.len() + 1);
            let (head, tail): (String, String) =
                (chars[..at].iter().collect(), chars[at..].iter().collect());
            let empty = match part {
                Part::Bare | Part::Single => "''",
                Part::Double => "\"\"",
                Part::AnsiC => "$''",
            };
            format!("{}{empty}{}", bare(&head), bare(&tail))
        }
        Quoting::Continuation(at) => {
            let at = 1 + at.index(chars.len().max(2) - 1);
            let at = at.min(chars.len());
            let (head, tail): (String, String) =
                (chars[..at].iter().collect(), chars[at..].iter().collect());
            format!("{}\\\n{}", bare(&head), bare(&tail))
        }
        Quoting::Split(parts) => {
            // Cut points strictly inside the word; each part gets its own style.
            let mut cuts: Vec<usize> = if chars.len() > 1 {
                parts
                    .iter()
                    .map(|(i, _)| 1 + i.index(chars.len() - 1))
                    .collect()
            } else {
                Vec::new()
            };
            cuts.sort_unstable();
            cuts.dedup();
            let mut bounds = vec![0];
            bounds.extend(cuts);
            bounds.push(chars.len());
            bounds
                .windows(2)
                .enumerate()
                .map(|(n, w)| {
                    let piece: String = chars[w[0]..w[1]].iter().collect();
                    quote_part(&piece, parts[n.min(parts.len() - 1)].1)
                })
                .collect()
        }
    }
}

fn respell(words: &[String], spellings: &[Respell]) -> String {
    words
        .iter()
        .enumerate()
        .map(|(i, word)| {
            let s = &spellings[i % spellings.len()];
            let value = match (i, &s.path) {
                (0, Some(dir)) => format!("{}{word}", BIN_DIRS[dir.index(BIN_DIRS.len())]),
                _ => word.clone(),
            };
            apply_quoting(&value, &s.quoting)
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The corpus is judged as its table says, so the quoting property compares real verdicts
/// (a corpus the guard allowed wholesale would make it vacuous).
#[test]
fn corpus_is_judged_as_expected() {
    for (command, expected) in QUOTING_CORPUS {
        let verdict = evaluate(command, Profile::Standard);
        match expected {
            Some(id) => assert!(
                verdict.decision != Decision::Allow && rule_ids(&verdict).contains(id),
                "{command:?} should be stopped by {id}, got {:?}",
                rule_ids(&verdict)
            ),
            None => assert_eq!(verdict.decision, Decision::Allow, "{command:?}"),
        }
        // The word splitter and `bare` reproduce the corpus line itself.
        let unquoted: Vec<String> = words(command).iter().map(|w| bare(w)).collect();
        assert_eq!(
            evaluate(&unquoted.join(" "), Profile::Standard).decision,
            verdict.decision,
            "{command:?}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(384))]

    /// Quote removal happens before a program sees its argv, so `'rm' -"rf" b\uild`,
    /// `$'\x72m'`, `"g"'i't` and `/usr/bin/git` are the very same command as the plain
    /// spelling. If any of them changed the verdict, an agent (or a prompt injection) could
    /// slip a destructive command past the guard just by quoting it, or a safe command would
    /// be stopped for its spelling.
    #[test]
    fn quoting_never_changes_the_verdict(
        entry in prop::sample::select(QUOTING_CORPUS),
        spellings in prop::collection::vec(respell_strategy(), 1..8),
    ) {
        let (command, _) = entry;
        let respelled = respell(&words(command), &spellings);
        for profile in PROFILES {
            let plain = evaluate(command, profile);
            let quoted = evaluate(&respelled, profile);
            prop_assert_eq!(
                (plain.decision, rule_ids(&plain)),
                (quoted.decision, rule_ids(&quoted)),
                "{:?} profile: {:?} vs {:?}", profile, command, respelled
            );
        }
    }
}

// ---------------------------------------------------------------------------------------
// b. Wrapping a destructive command never lets it through
// ---------------------------------------------------------------------------------------

/// Destructive commands and the rule that must keep stopping them, however wrapped.
/// The second list is only destructive in the strict profile.
const DESTRUCTIVE: &[(&str, &str)] = &[
    ("git reset --hard HEAD~1", "git.reset-hard"),
    ("git -C repo reset --hard", "git.reset-hard"),
    ("rm -rf build", "fs.rm-recursive"),
    ("rm -r -f node_modules", "fs.rm-recursive"),
    ("rm -rf /", "fs.rm-recursive"),
    ("git clean -fdx", "git.clean-force"),
    ("git push --force origin main", "git.push-force"),
    ("git push origin --delete feature", "git.push-delete"),
    ("git checkout -- .", "git.discard-worktree"),
    ("git restore .", "git.discard-worktree"),
    ("git switch --discard-changes main", "git.discard-worktree"),
    ("find . -delete", "fs.find-delete"),
    ("find . -exec rm -f {} \\;", "fs.find-delete"),
    ("git branch -D feature/x", "git.branch-force-delete"),
    ("git stash drop", "git.stash-drop"),
    ("git stash clear", "git.stash-drop"),
    (
        "git worktree remove --force ../wt",
        "git.worktree-force-remove",
    ),
    ("git tag -d v1.0", "git.tag-delete"),
    ("git update-ref -d refs/heads/old", "git.ref-delete"),
    ("git filter-branch --tree-filter x", "git.history-rewrite"),
    (
        "git reflog expire --expire=now --all",
        "git.recovery-destroy",
    ),
    ("git gc --prune=now", "git.recovery-destroy"),
];

const STRICT_ONLY: &[(&str, &str)] =
    &[("rm notes.txt", "fs.rm-any"), ("rm -f /tmp/x", "fs.rm-any")];

/// One layer around a command.
#[derive(Debug, Clone, Copy)]
enum Wrap {
    Sudo,
    SudoUser,
    Doas,
    Env,
    EnvClean,
    Command,
    Exec,
    Nice,
    Nohup,
    Timeout,
    Time,
    Stdbuf,
    Ionice,
    Busybox,
    Assign,
    Xargs,
    BashC,
    ShC,
    Eval,
    Substitution,
    Backticks,
    Subshell,
    Group,
    And,
    Or,
    Sequence,
    Lines,
    Pipe,
    If,
    For,
    Heredoc,
    EchoToSh,
}

const WRAPS: &[Wrap] = &[
    Wrap::Sudo,
    Wrap::SudoUser,
    Wrap::Doas,
    Wrap::Env,
    Wrap::EnvClean,
    Wrap::Command,
    Wrap::Exec,
    Wrap::Nice,
    Wrap::Nohup,
    Wrap::Timeout,
    Wrap::Time,
    Wrap::Stdbuf,
    Wrap::Ionice,
    Wrap::Busybox,
    Wrap::Assign,
    Wrap::Xargs,
    Wrap::BashC,
    Wrap::ShC,
    Wrap::Eval,
    Wrap::Substitution,
    Wrap::Backticks,
    Wrap::Subshell,
    Wrap::Group,
    Wrap::And,
    Wrap::Or,
    Wrap::Sequence,
    Wrap::Lines,
    Wrap::Pipe,
    Wrap::If,
    Wrap::For,
    Wrap::Heredoc,
    Wrap::EchoToSh,
];

/// What a piece of shell text is, which decides what may legally wrap it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A simple command that starts with an external program: any wrapper may prefix it.
    External,
    /// A simple command with `NAME=value` prefixes: `sudo`, `env` and the shell's `time`
    /// accept those before the command; other programs would exec `NAME=value`.
    Assigned,
    /// A simple command a program cannot exec (`eval ...`, `exec cmd`): only the shell
    /// itself may prefix it.
    Builtin,
    /// Lists, pipelines, compound commands.
    Compound,
}

#[derive(Debug, Clone)]
struct Script {
    text: String,
    kind: Kind,
    /// The text ends in a heredoc body, so nothing may follow on its last line.
    heredoc: bool,
    /// The text is the unwrapped base command (for `busybox rm`, `busybox find`).
    bare: bool,
}

impl Script {
    fn base(command: &str) -> Self {
        Script {
            text: command.to_string(),
            kind: Kind::External,
            heredoc: false,
            bare: true,
        }
    }

    fn made(text: String, kind: Kind, heredoc: bool) -> Self {
        Script {
            text,
            kind,
            heredoc,
            bare: false,
        }
    }

    /// `bash -c '<script>'`: turns anything into a command a program can exec.
    fn bash_c(self) -> Self {
        Script::made(
            format!("bash -c {}", single_quote(&self.text)),
            Kind::External,
            false,
        )
    }

    /// The script as something an external program (`sudo`, `nice`, ...) can run.
    fn external(self) -> Self {
        if self.kind == Kind::External {
            self
        } else {
            self.bash_c()
        }
    }

    /// The script as a simple command (for `time`, `FOO=1`).
    fn simple(self) -> Self {
        if self.kind == Kind::Compound {
            self.bash_c()
        } else {
            self
        }
    }

    /// Separator before a closing keyword: a heredoc's terminator must end its line.
    fn end(&self) -> &'static str {
        if self.heredoc { "\n" } else { "; " }
    }
}

fn prefixed(prefix: &str, inner: Script, kind: Kind) -> Script {
    let inner = inner.external();
    Script::made(format!("{prefix} {}", inner.text), kind, inner.heredoc)
}

/// A prefix that also takes `NAME=value` words before the command (`sudo`, `env`).
fn prefixed_env(prefix: &str, inner: Script, kind: Kind) -> Script {
    let inner = if inner.kind == Kind::Assigned {
        inner
    } else {
        inner.external()
    };
    Script::made(format!("{prefix} {}", inner.text), kind, inner.heredoc)
}

/// Puts one layer around `script`. Every layer is written so that bash really runs the
/// wrapped command (a wrapper that cannot take what is inside goes through `bash -c`), so a
/// verdict of allow is a way past the guard, not an over-strict test. `builtin` is left out:
/// it only runs builtins, none of which the rules cover.
fn wrap(script: Script, how: Wrap) -> Script {
    use Kind::*;
    match how {
        Wrap::Sudo => prefixed_env("sudo", script, External),
        Wrap::SudoUser => prefixed_env("sudo -u root", script, External),
        Wrap::Doas => prefixed("doas", script, External),
        Wrap::Env => prefixed_env("env", script, External),
        Wrap::EnvClean => prefixed_env("env -i FOO=1", script, External),
        Wrap::Nice => prefixed("nice -n 5", script, External),
        Wrap::Nohup => prefixed("nohup", script, External),
        Wrap::Timeout => prefixed("timeout 10", script, External),
        Wrap::Stdbuf => prefixed("stdbuf -oL", script, External),
        Wrap::Ionice => prefixed("ionice -c3", script, External),
        Wrap::Command => prefixed("command", script, Builtin),
        Wrap::Exec => prefixed("exec", script, Builtin),
        Wrap::Busybox => {
            let applet =
                script.bare && (script.text.starts_with("rm ") || script.text.starts_with("find "));
            if applet {
                prefixed("busybox", script, External)
            } else {
                Script::made(
                    format!("busybox sh -c {}", single_quote(&script.text)),
                    External,
                    false,
                )
            }
        }
        Wrap::Time => {
            let inner = script.simple();
            Script::made(format!("time {}", inner.text), Builtin, inner.heredoc)
        }
        Wrap::Assign => {
            let inner = script.simple();
            let kind = if inner.kind == Builtin {
                Builtin
            } else {
                Assigned
            };
            Script::made(format!("FOO=1 {}", inner.text), kind, inner.heredoc)
        }
        Wrap::Xargs => {
            // xargs's stdin is the pipe; a heredoc would take its place. `echo` prints an
            // empty line, so xargs runs the command once, with no argument added (an added
            // `x` would make git or find reject the command instead of running it).
            let inner = if script.heredoc {
                script.bash_c()
            } else {
                script.external()
            };
            Script::made(format!("echo | xargs {}", inner.text), Compound, false)
        }
        Wrap::BashC => script.bash_c(),
        Wrap::ShC => Script::made(
            format!("sh -c {}", double_quote(&script.text)),
            External,
            false,
        ),
        Wrap::Eval => Script::made(
            format!("eval {}", single_quote(&script.text)),
            Builtin,
            false,
        ),
        Wrap::Substitution => substitution(script),
        Wrap::Backticks => {
            if script.heredoc {
                substitution(script)
            } else {
                Script::made(
                    format!("`{}`", backquote_escape(&script.text)),
                    External,
                    false,
                )
            }
        }
        Wrap::Subshell => {
            let close = if script.heredoc { "\n)" } else { " )" };
            Script::made(format!("( {}{close}", script.text), Compound, false)
        }
        Wrap::Group => Script::made(
            format!("{{ {}{}}}", script.text, script.end()),
            Compound,
            false,
        ),
        Wrap::And => Script::made(format!("true && {}", script.text), Compound, script.heredoc),
        Wrap::Or => Script::made(
            format!("false || {}", script.text),
            Compound,
            script.heredoc,
        ),
        Wrap::Sequence => Script::made(format!("ls; {}", script.text), Compound, script.heredoc),
        Wrap::Lines => Script::made(
            format!("echo start\n{}", script.text),
            Compound,
            script.heredoc,
        ),
        Wrap::Pipe => {
            let text = if script.heredoc {
                format!("{{ {}\n}} | cat", script.text)
            } else {
                format!("{} | cat", script.text)
            };
            Script::made(text, Compound, false)
        }
        Wrap::If => Script::made(
            format!("if true; then {}{}fi", script.text, script.end()),
            Compound,
            false,
        ),
        Wrap::For => Script::made(
            format!("for i in 1; do {}{}done", script.text, script.end()),
            Compound,
            false,
        ),
        Wrap::Heredoc => {
            let mut delimiter = String::from("EOF");
            while script.text.contains(&delimiter) {
                delimiter.push('X');
            }
            Script::made(
                format!("bash <<'{delimiter}'\n{}\n{delimiter}", script.text),
                External,
                true,
            )
        }
        Wrap::EchoToSh => Script::made(
            format!("echo {} | sh", single_quote(&script.text)),
            Compound,
            false,
        ),
    }
}

/// `$( <script> )`: spaced so `$( ( x ) )` is never read as arithmetic `$((`.
fn substitution(script: Script) -> Script {
    let close = if script.heredoc { "\n)" } else { " )" };
    Script::made(format!("$( {}{close}", script.text), Kind::External, false)
}

fn wrapped(command: &str, layers: &[Wrap]) -> String {
    layers
        .iter()
        .fold(Script::base(command), |s, &w| wrap(s, w))
        .text
}

fn assert_still_stopped(
    command: &str,
    rule: &str,
    layers: &[Wrap],
    profile: Profile,
) -> Result<(), TestCaseError> {
    let text = wrapped(command, layers);
    let verdict = evaluate(&text, profile);
    prop_assert!(
        verdict.decision != Decision::Allow && rule_ids(&verdict).contains(rule),
        "{:?} profile: {:?} wrapped by {:?} as\n{}\nwas judged {:?} with rules {:?} (expected {})",
        profile,
        command,
        layers,
        text,
        verdict.decision,
        rule_ids(&verdict),
        rule
    );
    Ok(())
}

/// The base commands really are stopped by the rule the table names, unwrapped.
#[test]
fn destructive_corpus_is_stopped_unwrapped() {
    for profile in PROFILES {
        for (command, rule) in DESTRUCTIVE {
            let v = evaluate(command, profile);
            assert!(
                v.decision != Decision::Allow && rule_ids(&v).contains(rule),
                "{profile:?}: {command:?} {:?}",
                rule_ids(&v)
            );
        }
    }
    for (command, rule) in STRICT_ONLY {
        let v = evaluate(command, Profile::Strict);
        assert!(
            rule_ids(&v).contains(rule),
            "{command:?} {:?}",
            rule_ids(&v)
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(384))]

    /// Agents routinely run commands through `sudo`, `env`, `timeout`, `bash -c`, `xargs`,
    /// subshells, `&&` chains and heredocs fed to a shell. Every one of those still runs the
    /// destructive command, so none may turn a stop into an allow, at any nesting depth;
    /// otherwise the guard is bypassed by one extra word.
    #[test]
    fn wrapping_never_lets_a_destructive_command_through(
        entry in prop::sample::select(DESTRUCTIVE),
        layers in prop::collection::vec(prop::sample::select(WRAPS), 1..=3),
    ) {
        let (command, rule) = entry;
        for profile in PROFILES {
            assert_still_stopped(command, rule, &layers, profile)?;
        }
    }

    /// The same for commands only the strict profile stops (a plain `rm`).
    #[test]
    fn wrapping_never_lets_a_strict_only_command_through(
        entry in prop::sample::select(STRICT_ONLY),
        layers in prop::collection::vec(prop::sample::select(WRAPS), 1..=3),
    ) {
        let (command, rule) = entry;
        assert_still_stopped(command, rule, &layers, Profile::Strict)?;
    }
}

// ---------------------------------------------------------------------------------------
// c. The analyzer and the hook input never panic and always return
// ---------------------------------------------------------------------------------------

/// Config for the properties that feed arbitrary input to the parser. The grammar is C:
/// a crash there is a signal, not a panic, and would take the whole test binary down
/// unshrunk. Each case therefore runs in a forked child (so proptest reports and shrinks a
/// crash like any failure) with a time limit far above what a few hundred bytes need even
/// in a debug build, so only a hang or a runaway loop trips it.
fn crash_proof(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        fork: true,
        timeout: 10_000,
        ..ProptestConfig::default()
    }
}

/// Evaluates `command` in both profiles and checks the invariants every caller relies on:
/// every analyzed command has a program and a span inside the input, and a verdict is allow
/// exactly when it carries no finding (and no reason).
fn check_total(command: &str) -> Result<(), TestCaseError> {
    let analysis = shell::analyze(command);
    for cmd in &analysis.commands {
        prop_assert!(!cmd.argv.is_empty(), "empty argv from {:?}", command);
        prop_assert!(
            command.get(cmd.span.clone()).is_some(),
            "span {:?} outside {:?}",
            cmd.span,
            command
        );
    }
    for profile in PROFILES {
        let verdict = evaluate(command, profile);
        prop_assert_eq!(
            verdict.decision == Decision::Allow,
            verdict.findings.is_empty(),
            "{:?}: {:?}",
            profile,
            command
        );
        prop_assert_eq!(verdict.reason.is_empty(), verdict.findings.is_empty());
        for f in &verdict.findings {
            prop_assert!(command.get(f.span.clone()).is_some(), "{:?}", command);
        }
    }
    Ok(())
}

/// Pieces of shell syntax, so generated input reaches deep into the grammar instead of
/// being one long word.
#[rustfmt::skip]
const SHELLISH: &[&str] = &[
    "$", "(", ")", "{", "}", "[", "]", "'", "\"", "\\", "|", "&", ";", "<", ">", "`", "#", "*",
    "?", "~", "=", " ", " ", " ", "\n", "\t", "a", "x", "f", "rm", "git", "-rf", "-f", "--",
    "reset", "--hard", "push", "--force", "clean", "-fdx", "find", ".", "-delete", "-exec",
    "{}", "\\;", "sh", "bash", "-c", "eval", "sudo", "env", "xargs", "echo", "$(", "${", "<<",
    "<<<", "EOF", "&&", "||", "$'", "\\x72", "if", "then", "fi", "for", "do", "done", "case",
    "esac", "((", "))", "[[", "]]", "<(", "function", "AGENT_GUARD_OFF=1",
];

fn shellish() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(SHELLISH), 0..120).prop_map(|parts| parts.concat())
}

/// Openers of nested constructs, for inputs that nest hundreds deep.
const OPENERS: &[(&str, &str)] = &[
    ("$(", ")"),
    ("( ", " )"),
    ("{ ", "; }"),
    ("\"$(", ")\""),
    ("<(", ")"),
    ("`", "`"),
    ("eval ", ""),
    ("bash -c ", ""),
    ("if true; then ", "; fi"),
    ("$((", "))"),
    ("${x:-", "}"),
];

/// Tool names: the shell tools the decoder accepts, and some it must ignore.
const TOOLS: &[&str] = &[
    "Bash",
    "bash",
    "Shell",
    "exec_command",
    "functions.shell_command",
    "local_shell",
    "Write",
    "",
];

proptest! {
    #![proptest_config(crash_proof(256))]

    /// The hook runs before every shell command the agent issues; a panic or a hang in the
    /// analyzer would stall or break the agent (the hook only catches panics as a last
    /// resort). Any text at all must get a verdict, in both profiles.
    #[test]
    fn any_text_gets_a_verdict(command in "(?s).{0,300}") {
        check_total(&command)?;
    }

    /// Arbitrary chars, including control characters, NUL and astral code points.
    #[test]
    fn any_chars_get_a_verdict(chars in prop::collection::vec(any::<char>(), 0..300)) {
        check_total(&chars.into_iter().collect::<String>())?;
    }

    /// Arbitrary bytes, as the hook receives them: through the payload decoder, and as
    /// (lossily decoded) command text.
    #[test]
    fn any_bytes_get_a_verdict(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        if let Some(call) = host::decode(&bytes, None) {
            prop_assert!(!call.command.trim().is_empty());
            check_total(&call.command)?;
        }
        check_total(&String::from_utf8_lossy(&bytes))?;
    }

    /// Text made of shell syntax: unbalanced quotes, half-open substitutions, heredocs with
    /// no end, `eval` of garbage. This is where a parser-driven walker is most likely to
    /// index out of bounds or recurse forever.
    #[test]
    fn shell_syntax_soup_gets_a_verdict(command in shellish()) {
        check_total(&command)?;
    }

    /// JSON-shaped payloads reach the decoder's deeper branches (tool names, `tool_input`
    /// as object, string or array) far more often than random bytes do.
    #[test]
    fn json_payloads_never_panic(
        tool in prop::sample::select(TOOLS),
        key in prop::sample::select(&["command", "cmd", "other"][..]),
        shape in 0u8..5,
        text in "(?s).{0,80}",
        argv in prop::collection::vec("(?s).{0,12}", 0..5),
    ) {
        use serde_json::{Value, json};
        let value: Value = match shape {
            0 => json!(text),
            1 => json!(argv),
            2 => json!(null),
            3 => json!([text, 7]),
            _ => json!({ "nested": text }),
        };
        let mut input = serde_json::Map::new();
        input.insert(key.to_string(), value);
        let input = Value::Object(input);
        for tool_input in [input.clone(), Value::String(input.to_string())] {
            let payload = json!({ "tool_name": tool, "tool_input": tool_input, "cwd": "/tmp" });
            let bytes = serde_json::to_vec(&payload).expect("serializable");
            if let Some(call) = host::decode(&bytes, None) {
                check_total(&call.command)?;
            }
        }
    }

    /// An argv-array payload (`"command": ["rm", "-rf", "--", path]`) is joined into shell
    /// text by the decoder; whatever the path contains, the result must still be the
    /// recursive delete it is, and stopped. (A path with a NUL byte is left out: no host can
    /// exec such an argv, so that command never runs.)
    #[test]
    fn argv_payloads_keep_their_meaning(
        path in "(?s)[^\\x00]{1,40}",
        encoded in any::<bool>(),
    ) {
        use serde_json::{Value, json};
        // A quoted brace list (`"{a,b}"`) names one odd path only the context can find.
        prop_assume!(!(path.contains('{') && path.contains('}')));
        let input = json!({ "command": ["rm", "-rf", "--", path] });
        let input = if encoded { Value::String(input.to_string()) } else { input };
        let payload = json!({ "tool_name": "exec_command", "tool_input": input });
        let call = host::decode(payload.to_string().as_bytes(), None);
        prop_assert!(call.is_some());
        let command = call.map(|c| c.command).unwrap_or_default();
        for profile in PROFILES {
            let verdict = evaluate(&command, profile);
            prop_assert!(
                rule_ids(&verdict).contains("fs.rm-recursive"),
                "{:?}: {:?} judged {:?}", profile, command, rule_ids(&verdict)
            );
        }
    }
}

proptest! {
    #![proptest_config(crash_proof(64))]

    /// Constructs nested hundreds deep, balanced or cut off: must not overflow the stack
    /// (the walker is iterative; nothing else may recurse per level without a bound).
    #[test]
    fn deep_nesting_gets_a_verdict(
        layers in prop::collection::vec(prop::sample::select(OPENERS), 0..300),
        closed in any::<bool>(),
        middle in prop::sample::select(&["rm -rf x", "git reset --hard", "ls", ""][..]),
    ) {
        let mut command: String = layers.iter().map(|(open, _)| *open).collect();
        command.push_str(middle);
        if closed {
            command.extend(layers.iter().rev().map(|(_, close)| *close));
        }
        check_total(&command)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// The hook reads whatever the host writes to its stdin. `host::decode` of any bytes
    /// must return (`None` for what it does not understand) and never panic: a crash would
    /// fail open or break the agent's tool call.
    #[test]
    fn decode_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..1024)) {
        let _ = host::decode(&bytes, None);
    }

    /// A Bash payload hands the guard exactly the command the host will run: whatever the
    /// text (quotes, newlines, NUL, non-ASCII), decoding must neither alter nor drop it,
    /// or the guard would judge a different command than the one that runs.
    #[test]
    fn bash_payloads_decode_to_their_command(text in "(?s).{0,200}") {
        let payload = serde_json::json!({
            "tool_name": "Bash",
            "tool_input": { "command": text },
            "session_id": "s",
        });
        let call = host::decode(payload.to_string().as_bytes(), None);
        if text.trim().is_empty() {
            prop_assert!(call.is_none());
        } else {
            prop_assert_eq!(call.map(|c| c.command), Some(text));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    /// Past the size the analyzer reads, silence must not be taken for safety: a command
    /// line too large to parse that names `rm`/`git`/`find` is stopped, not waved through.
    #[test]
    fn oversized_input_fails_safe(
        padding in 0usize..4096,
        entry in prop::sample::select(DESTRUCTIVE),
        at_end in any::<bool>(),
    ) {
        let (command, _) = entry;
        let filler = "#".repeat(shell::MAX_INPUT_BYTES + padding);
        let text = if at_end {
            format!("{filler}\n{command}")
        } else {
            format!("{command}\n{filler}")
        };
        for profile in PROFILES {
            let verdict = evaluate(&text, profile);
            prop_assert!(verdict.decision != Decision::Allow);
        }
    }
}
