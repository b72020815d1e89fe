//! The team's own rules: `[[deny]]` and `[[ask]]` entries of a configuration file, each with
//! an id, a reason and one pattern — over the words of one command (`terraform apply **`) or
//! over the paths no delete, overwrite or move may touch (`data/**`, `*.sqlite`).
//!
//! The matchers are small and hand-written: a pattern is split into its parts once, when the
//! file is read, and matching walks those parts. Nothing is compiled when the hook starts, and
//! a configuration without team rules costs nothing at all.

use std::path::{Component, Path, PathBuf};

use crate::shell::Word;
use crate::syntax::argv;

/// What a team rule does to a command it matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// Never run by an agent: no override, no question.
    Deny,
    /// Put to the person, whatever `on_destructive` says.
    Ask,
}

impl Stop {
    pub fn as_str(self) -> &'static str {
        match self {
            Stop::Deny => "deny",
            Stop::Ask => "ask",
        }
    }
}

/// One `[[deny]]` or `[[ask]]` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamRule {
    /// `team.<name>`.
    pub id: String,
    pub stop: Stop,
    /// Why the team stops it: the agent reads it in the stop's reason.
    pub reason: String,
    pub pattern: Pattern,
    /// The file and line it was declared at.
    pub file: PathBuf,
    pub line: usize,
}

impl TeamRule {
    pub fn origin(&self) -> String {
        format!("{}:{}", self.file.display(), self.line)
    }
}

/// The team rules of both files, and what their paths are read against.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TeamRules {
    pub rules: Vec<TeamRule>,
    /// The folder a pattern like `data/**` starts at: the repository's top folder, or the
    /// folder the command runs in outside a repository.
    pub root: Option<PathBuf>,
    /// The folder the command runs in, which its relative paths start at.
    pub here: Option<PathBuf>,
    /// What `~` stands for, in patterns and in commands.
    pub home: Option<PathBuf>,
}

impl TeamRules {
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    pub fn by_id(&self, id: &str) -> Option<&TeamRule> {
        self.rules.iter().find(|r| r.id == id)
    }

    /// `path` as a list of parts from `/`: `~` read as the home folder, a relative path read
    /// from the `cd`s in `dirs`, in turn, from the folder the command runs in. `None` when a
    /// part is not known before the command runs (`$DIR`, `~user`). Each part is a [`Glob`]:
    /// an unquoted `*.csv` names whatever files it expands to.
    pub fn resolve(&self, dirs: &[Spelled<'_>], path: Spelled<'_>) -> Option<Vec<Glob>> {
        let mut parts = from_path(self.here.as_deref()?)?;
        for dir in dirs {
            self.walk(&mut parts, *dir)?;
        }
        self.walk(&mut parts, path)?;
        Some(parts)
    }

    /// `parts` after going to `word` from there.
    fn walk(&self, parts: &mut Vec<Glob>, word: Spelled<'_>) -> Option<()> {
        let text = word.known()?;
        let rest = if text == "~" || text.starts_with("~/") {
            *parts = from_path(self.home.as_deref()?)?;
            text.get(1..).unwrap_or_default()
        } else {
            if text.starts_with('/') {
                parts.clear();
            }
            text
        };
        for part in rest.split('/') {
            match part {
                "" | "." => {}
                ".." => {
                    parts.pop();
                }
                part => parts.push(Glob::parse(part, word.glob).ok()?),
            }
        }
        Some(())
    }
}

/// A word of a command as the rules have it: its text, and whether that text is known
/// (literal), a glob the shell expands, or not known before the command runs.
#[derive(Debug, Clone, Copy)]
pub struct Spelled<'a> {
    pub text: &'a str,
    pub known: bool,
    /// Unquoted `*`, `?` and `[...]` in it are the shell's: it names every file they match.
    pub glob: bool,
}

impl<'a> Spelled<'a> {
    fn known(self) -> Option<&'a str> {
        self.known.then_some(self.text)
    }
}

fn from_path(path: &Path) -> Option<Vec<Glob>> {
    let mut parts = Vec::new();
    for component in path.components() {
        match component {
            Component::Normal(part) => parts.push(Glob::literal(part.to_str()?)),
            Component::ParentDir => {
                parts.pop();
            }
            Component::RootDir | Component::CurDir | Component::Prefix(_) => {}
        }
    }
    Some(parts)
}

/// A team rule's pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pattern {
    Command(CommandPattern),
    Path(PathPattern),
}

impl Pattern {
    /// The key it was written under.
    pub fn key(&self) -> &'static str {
        match self {
            Pattern::Command(_) => "command",
            Pattern::Path(_) => "path",
        }
    }

    pub fn text(&self) -> &str {
        match self {
            Pattern::Command(p) => &p.text,
            Pattern::Path(p) => &p.text,
        }
    }
}

/// A pattern over the words of one command: `*` is one word, `**` any number of words (none
/// included), and inside a word `*` and `?` match characters (`*-prod`). `--name=value` reads
/// as the two words `--name value`, in the pattern and in the command alike.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandPattern {
    pub text: String,
    tokens: Vec<Token>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    AnyWords,
    Word(Glob),
}

impl CommandPattern {
    pub fn parse(text: &str) -> Result<CommandPattern, String> {
        let words: Vec<&str> = split_options(text.split_whitespace().map(Some).collect())
            .into_iter()
            .flatten()
            .collect();
        let Some(first) = words.first() else {
            return Err("an empty command pattern".into());
        };
        if *first == "**" {
            return Err("a command pattern starts with the program's name (or `*`)".into());
        }
        let mut tokens = Vec::new();
        for (at, word) in words.iter().enumerate() {
            if *word == "**" {
                if tokens.last() != Some(&Token::AnyWords) {
                    tokens.push(Token::AnyWords);
                }
                continue;
            }
            if word.contains("**") {
                return Err(format!(
                    "`**` stands alone for any words; in {word:?} use `*` for characters"
                ));
            }
            // The program is matched by its name, wherever it was run from.
            let word = if at == 0 {
                word.rsplit('/').next().unwrap_or(word)
            } else {
                word
            };
            tokens.push(Token::Word(Glob::parse(word, true)?));
        }
        Ok(CommandPattern {
            text: text.trim().to_string(),
            tokens,
        })
    }

    /// Whether the command whose program is `program` and whose arguments are `args`
    /// matches. A word not known before the command runs matches only `*` and `**`.
    pub fn matches(&self, program: &str, args: &[Spelled<'_>]) -> bool {
        let mut words: Vec<Option<Glob>> = vec![Some(Glob::literal(program))];
        let known = args.iter().map(|arg| arg.known()).collect();
        words.extend(
            split_options(known)
                .into_iter()
                .map(|w| w.map(Glob::literal)),
        );
        match_words(&self.tokens, &words)
    }
}

/// `--name=value` as `--name`, `value`: each long option the shared argv model finds given
/// a value in its own word (with no program's table at hand, every option a flag). A word
/// not known (`None`) stays one word.
fn split_options(words: Vec<Option<&str>>) -> Vec<Option<&str>> {
    let argv: Vec<Word> = words
        .iter()
        .map(|w| Word::literal(w.unwrap_or_default()))
        .collect();
    let read = argv::read(&argv, argv::Style::Getopt, &argv::Valued(&[]));
    let inline = |at: usize| {
        read.opts.iter().any(|o| {
            o.word == at
                && o.value_word == Some(at)
                && o.spelling == argv::Spelling::Long
                && !o.name.is_empty()
        })
    };
    let mut out = Vec::with_capacity(words.len());
    for (at, word) in words.into_iter().enumerate() {
        match word.and_then(|w| w.split_once('=')) {
            Some((name, value)) if inline(at) => out.extend([Some(name), Some(value)]),
            _ => out.push(word),
        }
    }
    out
}

fn match_words(tokens: &[Token], words: &[Option<Glob>]) -> bool {
    match tokens.split_first() {
        None => words.is_empty(),
        Some((Token::AnyWords, rest)) => {
            (0..=words.len()).any(|skip| match_words(rest, words.get(skip..).unwrap_or_default()))
        }
        Some((Token::Word(glob), rest)) => match words.split_first() {
            Some((Some(word), more)) => glob.meets(word) && match_words(rest, more),
            Some((None, more)) => glob.is_any() && match_words(rest, more),
            None => false,
        },
    }
}

/// A glob of paths: a pattern without `/` names a file or folder by its name, anywhere
/// (`*.sqlite`); one with `/` starts at the repository's top folder (`data/**`), the home
/// folder (`~/.ssh/**`) or `/`. `**` is any number of folders; a trailing `/` means the
/// folder and everything in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathPattern {
    pub text: String,
    anchor: Anchor,
    parts: Vec<Part>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Anchor {
    Name,
    Root,
    Home,
    Absolute,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    AnyDepth,
    One(Glob),
}

impl PathPattern {
    pub fn parse(text: &str) -> Result<PathPattern, String> {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err("an empty path pattern".into());
        }
        let (anchor, rest) = if trimmed == "~" {
            (Anchor::Home, "")
        } else if let Some(rest) = trimmed.strip_prefix("~/") {
            (Anchor::Home, rest)
        } else if trimmed.starts_with('~') {
            return Err("`~user` is not read; write the folder's full path".into());
        } else if let Some(rest) = trimmed.strip_prefix('/') {
            (Anchor::Absolute, rest)
        } else if trimmed.trim_end_matches('/').contains('/') {
            (Anchor::Root, trimmed.strip_prefix("./").unwrap_or(trimmed))
        } else {
            (Anchor::Name, trimmed)
        };
        let mut parts = Vec::new();
        for part in rest.split('/') {
            match part {
                "" | "." => {}
                ".." => return Err("`..` is not allowed in a path pattern".into()),
                "**" => {
                    if parts.last() != Some(&Part::AnyDepth) {
                        parts.push(Part::AnyDepth);
                    }
                }
                part if part.contains("**") => {
                    return Err(format!(
                        "`**` stands alone between slashes; in {part:?} use `*`"
                    ));
                }
                part => parts.push(Part::One(Glob::parse(part, true)?)),
            }
        }
        if trimmed.ends_with('/') && parts.last() != Some(&Part::AnyDepth) {
            parts.push(Part::AnyDepth);
        }
        if anchor == Anchor::Name && parts.len() != 1 {
            return Err("a name pattern names one file or folder".into());
        }
        Ok(PathPattern {
            text: trimmed.to_string(),
            anchor,
            parts,
        })
    }

    /// Whether writing over, deleting or moving the file at `path` (from [`TeamRules::resolve`])
    /// touches what the pattern names.
    pub fn names(&self, rules: &TeamRules, path: &[Glob]) -> bool {
        self.test(rules, path, false)
    }

    /// Whether deleting or moving `path` with everything in it touches what the pattern names:
    /// the folder itself, or a folder above what it names (`rm -rf data` for `data/**`).
    /// A name pattern is tested against the folder's own name only: what lies inside a folder
    /// is not known from the command.
    pub fn reaches(&self, rules: &TeamRules, path: &[Glob]) -> bool {
        self.test(rules, path, true)
    }

    fn test(&self, rules: &TeamRules, path: &[Glob], tree: bool) -> bool {
        let start = match self.anchor {
            Anchor::Name => {
                return match (path.last(), self.parts.first()) {
                    (Some(name), Some(Part::One(glob))) => glob.meets(name),
                    _ => false,
                };
            }
            Anchor::Absolute => Some(Vec::new()),
            Anchor::Root => rules.root.as_deref().and_then(from_path),
            Anchor::Home => rules.home.as_deref().and_then(from_path),
        };
        let Some(start) = start else {
            return false;
        };
        let mut parts: Vec<Part> = start.into_iter().map(Part::One).collect();
        parts.extend(self.parts.iter().cloned());
        match_parts(&parts, path, tree)
    }
}

/// `tree`: `path` also matches when the pattern names something below it.
fn match_parts(parts: &[Part], path: &[Glob], tree: bool) -> bool {
    let Some((first, rest)) = parts.split_first() else {
        return path.is_empty();
    };
    if path.is_empty() {
        return tree || parts.iter().all(|p| *p == Part::AnyDepth);
    }
    match first {
        Part::AnyDepth => (0..=path.len())
            .any(|skip| match_parts(rest, path.get(skip..).unwrap_or_default(), tree)),
        Part::One(glob) => match path.split_first() {
            Some((name, more)) => glob.meets(name) && match_parts(rest, more, tree),
            None => false,
        },
    }
}

/// One word or one path part as a glob: literal characters, `?`, `*` and `[...]` sets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Glob(Vec<Char>);

#[derive(Debug, Clone, PartialEq, Eq)]
enum Char {
    Is(char),
    One,
    Any,
    /// `[...]`: the ranges, and whether it is negated (`[!...]`, `[^...]`).
    Set(Vec<(char, char)>, bool),
}

impl Glob {
    fn literal(text: &str) -> Glob {
        Glob(text.chars().map(Char::Is).collect())
    }

    /// `text` as a glob when `glob`, else literally.
    fn parse(text: &str, glob: bool) -> Result<Glob, String> {
        if !glob {
            return Ok(Glob::literal(text));
        }
        let mut out = Vec::new();
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '*' => {
                    if out.last() != Some(&Char::Any) {
                        out.push(Char::Any);
                    }
                }
                '?' => out.push(Char::One),
                '\\' => out.push(Char::Is(chars.next().unwrap_or('\\'))),
                '[' => {
                    let negated = chars.next_if(|c| *c == '!' || *c == '^').is_some();
                    let mut ranges = Vec::new();
                    let mut closed = false;
                    let mut first = true;
                    while let Some(c) = chars.next() {
                        if c == ']' && !first {
                            closed = true;
                            break;
                        }
                        first = false;
                        if chars.peek() == Some(&'-') {
                            chars.next();
                            match chars.next_if(|c| *c != ']') {
                                Some(end) => ranges.push((c, end)),
                                None => {
                                    ranges.push((c, c));
                                    ranges.push(('-', '-'));
                                }
                            }
                        } else {
                            ranges.push((c, c));
                        }
                    }
                    if !closed {
                        return Err(format!("{text:?} has a `[` that is never closed"));
                    }
                    out.push(Char::Set(ranges, negated));
                }
                c => out.push(Char::Is(c)),
            }
        }
        Ok(Glob(out))
    }

    /// Only `*`: any one word or name.
    fn is_any(&self) -> bool {
        self.0 == [Char::Any]
    }

    /// Whether some text matches both globs (for a literal `other`: whether it matches this
    /// one). Read as two automata run side by side, so it takes at most one step per pair of
    /// positions.
    fn meets(&self, other: &Glob) -> bool {
        let (a, b) = (&self.0, &other.0);
        let width = b.len() + 1;
        let mut seen = vec![false; (a.len() + 1) * width];
        let mut todo = vec![(0usize, 0usize)];
        while let Some((i, j)) = todo.pop() {
            let Some(slot) = seen.get_mut(i * width + j) else {
                continue;
            };
            if *slot {
                continue;
            }
            *slot = true;
            let (x, y) = (a.get(i), b.get(j));
            match (x, y) {
                (None, None) => return true,
                (Some(Char::Any), Some(Char::Any)) => {
                    todo.push((i + 1, j));
                    todo.push((i, j + 1));
                }
                (Some(Char::Any), Some(_)) => {
                    todo.push((i + 1, j));
                    todo.push((i, j + 1));
                }
                (Some(_), Some(Char::Any)) => {
                    todo.push((i, j + 1));
                    todo.push((i + 1, j));
                }
                (Some(Char::Any), None) => todo.push((i + 1, j)),
                (None, Some(Char::Any)) => todo.push((i, j + 1)),
                (Some(x), Some(y)) if one_char_meets(x, y) => todo.push((i + 1, j + 1)),
                _ => {}
            }
        }
        false
    }
}

/// Whether one character can match both.
fn one_char_meets(x: &Char, y: &Char) -> bool {
    match (x, y) {
        (Char::Is(a), Char::Is(b)) => a == b,
        (Char::Is(c), Char::Set(ranges, negated)) | (Char::Set(ranges, negated), Char::Is(c)) => {
            ranges.iter().any(|(lo, hi)| lo <= c && c <= hi) != *negated
        }
        // A set against a set or `?`: some character is taken to match both.
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<Spelled<'_>> {
        text.split_whitespace()
            .map(|w| Spelled {
                text: w,
                known: !w.starts_with('$'),
                glob: false,
            })
            .collect()
    }

    fn command(pattern: &str, line: &str) -> bool {
        let p = CommandPattern::parse(pattern).unwrap();
        let all = words(line);
        let (program, args) = all.split_first().unwrap();
        p.matches(program.text, args)
    }

    #[test]
    fn command_patterns_match_words() {
        assert!(command("terraform apply **", "terraform apply"));
        assert!(command(
            "terraform apply **",
            "terraform apply -auto-approve plan.out"
        ));
        assert!(!command("terraform apply **", "terraform plan"));
        assert!(!command("terraform apply", "terraform apply -auto-approve"));
        assert!(command(
            "fly deploy ** --app *-prod",
            "fly deploy --app web-prod"
        ));
        assert!(command(
            "fly deploy ** --app *-prod",
            "fly deploy -c x.toml --app=web-prod"
        ));
        assert!(!command(
            "fly deploy ** --app *-prod",
            "fly deploy --app web-staging"
        ));
        assert!(!command(
            "fly deploy ** --app *-prod",
            "fly deploy --app $APP"
        ));
        assert!(command("kubectl * delete **", "kubectl $CTX delete pod x"));
        assert!(command("./scripts/deploy.sh **", "deploy.sh prod"));
    }

    #[test]
    fn bad_command_patterns_say_why() {
        assert!(CommandPattern::parse("  ").is_err());
        assert!(CommandPattern::parse("** apply").is_err());
        assert!(CommandPattern::parse("terraform a**").is_err());
        assert!(CommandPattern::parse("rm [abc").is_err());
    }

    fn rules() -> TeamRules {
        TeamRules {
            rules: Vec::new(),
            root: Some("/repo".into()),
            here: Some("/repo/src".into()),
            home: Some("/home/me".into()),
        }
    }

    fn path(text: &str, glob: bool) -> Vec<Glob> {
        let word = Spelled {
            text,
            known: true,
            glob,
        };
        rules().resolve(&[], word).unwrap()
    }

    #[test]
    fn path_patterns_name_files_and_reach_folders() {
        let t = rules();
        let data = PathPattern::parse("data/**").unwrap();
        assert!(data.names(&t, &path("../data/raw.csv", false)));
        assert!(data.reaches(&t, &path("..", false)));
        assert!(data.reaches(&t, &path("/", false)));
        assert!(!data.names(&t, &path("data/raw.csv", false)));
        assert!(!data.reaches(&t, &path("../docs", false)));
        let db = PathPattern::parse("*.sqlite").unwrap();
        assert!(db.names(&t, &path("app.sqlite", false)));
        assert!(db.names(&t, &path("*", true)));
        assert!(!db.names(&t, &path("*.csv", true)));
        assert!(!db.names(&t, &path("*", false)));
        let ssh = PathPattern::parse("~/.ssh/**").unwrap();
        assert!(ssh.names(&t, &path("~/.ssh/id_ed25519", false)));
        assert!(ssh.reaches(&t, &path("/home/me", false)));
        assert!(!ssh.reaches(&t, &path("/home/other", false)));
        let etc = PathPattern::parse("/etc/nginx/").unwrap();
        assert!(etc.names(&t, &path("/etc/nginx/nginx.conf", false)));
    }

    #[test]
    fn bad_path_patterns_say_why() {
        for bad in ["", "../x/**", "a/**b", "~bob/x", "data/[x"] {
            assert!(PathPattern::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn globs_meet() {
        let g = |t: &str| Glob::parse(t, true).unwrap();
        assert!(g("*.sqlite").meets(&g("*")));
        assert!(g("*-prod").meets(&Glob::literal("web-prod")));
        assert!(!g("*-prod").meets(&Glob::literal("web-staging")));
        assert!(g("[abc]?.db").meets(&Glob::literal("b1.db")));
        assert!(!g("[!abc].db").meets(&Glob::literal("a.db")));
        assert!(g("*a*b*c*d*").meets(&g("*d*c*b*a*")));
    }
}
