//! Context: looking at the repository and the file system before judging.
//!
//! Asked only about findings, never about a command with none, so the common path runs no
//! git process and walks no folder. Every question shares one deadline; an answer that is
//! not in by then, or any error, is "unknown", and an unknown leaves the rules' verdict
//! standing. Read-only throughout: git runs with `--no-optional-locks`, so it never takes the
//! index lock, and nothing is written.
//!
//! One principle: **clear only on proof about the state the command will meet.**
//!
//! - Loss comes from git's own answer to the exact question, asked with only the options
//!   that change the answer (pathspecs, `-d`, `-x`/`-X`, `-e`, the repository); never by
//!   echoing the agent's flags into a human-readable command (`git clean -q` prints nothing
//!   even when it deletes).
//! - An operand known only at run time is never "missing": placeholders (`{}` of
//!   `find -exec`, the replacement string of `xargs -I`), input fed by `xargs` or
//!   `while read`, `$( )`, variables and globs. The shell module marks such words as not
//!   literal, and nothing here clears on a word that is not literal.
//! - The repository is the one git will use: `-C`, `--git-dir`, `--work-tree` and the
//!   `GIT_*` prefixes (`GIT_DIR`, `GIT_WORK_TREE`, `GIT_INDEX_FILE`, the `GIT_CONFIG_*`
//!   configuration, ...) go into every question; one known only at run time, or exported
//!   earlier in the line, leaves the finding standing.
//! - A command that may run first (earlier in a list, in the same loop, pipeline or
//!   background list, inside the command's `$( )`) and could create, move, fetch, commit,
//!   stash or rewrite what a clearing rests on voids it; an unknown command could do
//!   anything. A clearing nothing earlier can touch (ignored build output no earlier
//!   command writes into) still clears (the `earlier` module).

mod earlier;
mod files;
mod git;
mod moves;
mod paths;
mod rsync;
mod run;
mod sqlfile;
mod temp;
mod workcopy;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::motion::channels::Landing;
use crate::rules::{Finding, GitAliases, GitSubject, Replaced, Subject, Tier, With};
use crate::settings::Settings;
use crate::shell::{Elsewhere, SimpleCommand, Word};

/// All context work for one hook call must fit in this.
pub const DEADLINE: Duration = Duration::from_millis(200);

/// What the context says about one finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Assessment {
    /// Nothing would be lost; the reason says why.
    Clear(String),
    /// Only agent sessions' own work would be lost (the journal shows it): the command passes,
    /// and what it destroys is snapshotted first so that `undo` still brings it back.
    Owned(String),
    /// Something would be lost: what, concretely, and how to get it back if there is a way.
    Loss {
        loses: String,
        recovery: Option<String>,
    },
    /// The command touches something protected that only the repository shows (the
    /// remote's default branch): the finding becomes protected, for the reason given.
    Protected(String),
    /// The context could not tell.
    Unknown,
}

#[derive(Debug)]
pub struct Context {
    /// Where the command line starts: the host's working directory.
    start: Option<PathBuf>,
    home: Option<PathBuf>,
    deadline: Instant,
    regenerable: Vec<String>,
    protected_branches: Vec<String>,
    /// Whose claims count as our own: worked out once, when a claim is first looked at.
    session: std::cell::OnceCell<String>,
}

impl Context {
    pub fn new(cwd: Option<&Path>, settings: &Settings) -> Self {
        let start = cwd
            .map(Path::to_path_buf)
            .or_else(|| std::env::current_dir().ok());
        Context {
            start,
            // `~` in a command: `$HOME`, on Windows `%USERPROFILE%`.
            home: crate::config::dirs::home(
                crate::config::dirs::Os::CURRENT,
                &crate::config::dirs::process_env,
            ),
            deadline: Instant::now() + DEADLINE,
            regenerable: settings.regenerable.clone(),
            protected_branches: settings.protected_branches.clone(),
            session: std::cell::OnceCell::new(),
        }
    }

    /// The folder `finding`'s command runs in, following its `cd`s from where the command
    /// line starts: where a snapshot of what it could destroy is taken.
    pub fn run_directory(&self, finding: &Finding) -> Option<PathBuf> {
        match &finding.elsewhere {
            // Only the folders a new container mounts from here are this machine's.
            Some(place) => self
                .here(finding, place)
                .and_then(|mapped| self.run_directory(&mapped)),
            None => self.directory(&finding.dirs),
        }
    }

    /// Looks at what `finding` would destroy. Protected findings are never cleared (but for a
    /// `git clean` that git says removes only build output), and neither is one whose clearing
    /// rests on state that a command in `before` (those that may run before it, see
    /// [`crate::shell::Analysis::before`]) could change. `after` are the commands that run
    /// once it is done: they can undo a copy it leans on.
    pub fn assess(
        &self,
        finding: &Finding,
        before: &[&SimpleCommand],
        after: &[&SimpleCommand],
    ) -> Assessment {
        // What lies elsewhere is not known here: no "missing", no "clean tree" there. Only
        // the folders a new container mounts from this machine are looked at, here.
        if let Some(place) = &finding.elsewhere {
            let Some(mapped) = self.here(finding, place) else {
                return Assessment::Unknown;
            };
            // The command here that sends it (`docker run ...`, at the same place in the
            // line) does nothing of its own before it. Others at that place are still
            // before it: all of `sh -c 'mv notes.txt build/ && docker run ... make clean'`
            // lies at the place of the `sh`.
            let sends = |cmd: &SimpleCommand| {
                cmd.elsewhere.is_none()
                    && cmd.span == finding.span
                    && crate::motion::channels::channel(&cmd.argv, &cmd.assigns).is_some()
            };
            let before: Vec<&SimpleCommand> =
                before.iter().copied().filter(|cmd| !sends(cmd)).collect();
            return self.assess(&mapped, &before, after);
        }
        // Inside a temporary folder a delete is judged by where it lies, which neither the
        // folder the command runs in nor what earlier commands left there changes.
        if let Subject::Paths(targets) = &finding.subject
            && finding.tier != Tier::Protected
            && !finding.uncertain
            && let Some(why) = temp::all_inside(self, &finding.dirs, targets, before)
        {
            return Assessment::Clear(why);
        }
        if let Subject::Git { globals, what } = &finding.subject
            && matches!(
                what,
                GitSubject::Discard { .. }
                    | GitSubject::Overwrite { .. }
                    | GitSubject::Clean { .. }
            )
            && finding.tier != Tier::Protected
            && let Some(why) = temp::work_tree_inside(self, globals, &finding.env)
        {
            return Assessment::Clear(why);
        }
        // Where a delete runs does not matter when every target is shown inside a folder
        // the line made (`cd "$(mktemp -d)" && rm -rf ./*`): nothing there is looked at.
        let all_temp = matches!(&finding.subject, Subject::Paths(targets)
            if !targets.is_empty() && targets.iter().all(|t| t.temp.is_some()));
        let Some(dir) = self
            .directory(&finding.dirs)
            .or_else(|| all_temp.then(|| self.start.clone()).flatten())
        else {
            return Assessment::Unknown;
        };
        let assessment = match &finding.subject {
            Subject::Nothing => Assessment::Unknown,
            Subject::Git { globals, what } => match git_env(&finding.env) {
                Some(env) => git::assess(self, &dir, &env, globals, what),
                None => Assessment::Unknown,
            },
            // Words built from run-time input (`xargs -I{} sh -c 'rm -rf {}'`) were read
            // as written: what they name is not known, so it is never "missing".
            Subject::Paths(_) | Subject::Mirror(_) if finding.uncertain => Assessment::Unknown,
            Subject::Paths(targets) => paths::assess(self, &dir, targets),
            Subject::WorkingCopy(_) if finding.uncertain => Assessment::Unknown,
            Subject::WorkingCopy(wc) => match tool_env(&finding.env) {
                Some(env) => workcopy::assess(self, &dir, &env, wc),
                None => Assessment::Unknown,
            },
            Subject::Mirror(mirror) => rsync::assess(self, &dir, mirror),
            // Only literal paths are named, and a redirect's target is written whatever the
            // program turns out to be (`"$EDITOR" > notes.md`).
            Subject::Files(files) => {
                let deletes = files.iter().all(|f| f.with == crate::rules::With::Nothing);
                files::assess(self, &dir, files, deletes, finding.repeats)
            }
            // What the file holds now says nothing of what runs once an earlier command
            // in the line wrote it (`echo 'DROP TABLE t;' > r.sql && psql -f r.sql`): only
            // the text that command shows it writes, if it shows it all.
            Subject::Database(db)
            | Subject::SqlFile {
                database: Some(db), ..
            } if let Some(why) = sqlfile::made_by_command(&dir, db) => Assessment::Clear(why),
            Subject::Database(_) => Assessment::Unknown,
            Subject::SqlFile {
                path,
                dialect,
                memory,
                ..
            } => {
                let client = sqlfile::Client {
                    dir: &dir,
                    home: self.home.as_deref(),
                    dialect: *dialect,
                    memory: *memory,
                };
                if earlier::may_write(self, &dir, path, before) {
                    match earlier::written_text(self, &dir, path, before) {
                        Some(text) => sqlfile::assess_written(&client, path, &text),
                        None => sqlfile::written_before(path),
                    }
                } else {
                    sqlfile::assess(&client, path)
                }
            }
        };
        match assessment {
            // What made `git clean -x` protected is the ignored files it takes with it; git's
            // own dry run listing nothing but build output is proof that none are there.
            Assessment::Clear(_) | Assessment::Owned(_)
                if finding.tier == Tier::Protected && !clean_of_output(finding) =>
            {
                Assessment::Unknown
            }
            Assessment::Clear(_) | Assessment::Owned(_)
                if earlier::could_change(self, finding, &dir, before) =>
            {
                match earlier::made_by_line(self, finding, &dir, before) {
                    Some(why) => Assessment::Clear(why),
                    // A file moved there first goes with it (`mv notes.md x && rm x`,
                    // `mkdir t && mv notes.md t/ && rm -rf t`).
                    None => match &finding.subject {
                        Subject::Files(_) | Subject::Paths(_) => {
                            let moved = earlier::moved_into(self, finding, &dir, before);
                            files::assess_moved(self, &moved)
                        }
                        _ => Assessment::Unknown,
                    },
                }
            }
            // What the line copied aside first is not lost (`cp f f.bak && rm f`), unless it
            // deletes or writes over the copy later (`... && rm f.bak`).
            loss @ Assessment::Loss { .. } if finding.tier != Tier::Protected => {
                match earlier::backed_up(self, finding, &dir, before, after) {
                    Some(why) => Assessment::Clear(why),
                    None => loss,
                }
            }
            other => other,
        }
    }

    /// The directory a command runs in, following the `cd`s before it. `None` when any of
    /// them is not literal or does not lead to an existing directory: if a `cd` fails, the
    /// shell may well run the command somewhere else.
    fn directory(&self, dirs: &[Word]) -> Option<PathBuf> {
        let mut current = self.start.clone()?;
        let mut previous = current.clone();
        for word in dirs {
            let target = word.value()?;
            let next = match target {
                "-" => previous.clone(),
                "~" => self.home.clone()?,
                t if t.starts_with("~/") => self.home.as_ref()?.join(&t[2..]),
                t => current.join(t),
            };
            if !next.is_dir() {
                return None;
            }
            previous = std::mem::replace(&mut current, next);
        }
        Some(current)
    }

    /// `finding` as the same delete (or write over) of the files of this machine that the
    /// container `place` mounts, when every path it names that outlives the container is one.
    fn here(&self, finding: &Finding, place: &Elsewhere) -> Option<Finding> {
        let mapped = |target: &Word| match place.lands(&finding.dirs, target) {
            Landing::Own => Some(Vec::new()),
            Landing::Here(paths) => Some(paths),
            Landing::Kept => None,
        };
        let subject = match &finding.subject {
            Subject::Paths(targets) => {
                let mut here = Vec::new();
                for target in targets {
                    here.extend(mapped(target)?);
                }
                (!here.is_empty()).then_some(Subject::Paths(here))
            }
            Subject::Files(files) => {
                let mut here = Vec::new();
                for file in files {
                    here.extend(mapped(&file.path)?.into_iter().map(|path| Replaced {
                        path,
                        // A source inside the container is not a file here to compare.
                        with: match file.with {
                            With::File(_) => With::Unknown,
                            ref with => with.clone(),
                        },
                        ..file.clone()
                    }));
                }
                (!here.is_empty()).then_some(Subject::Files(here))
            }
            _ => None,
        }?;
        Some(Finding {
            subject,
            dirs: place.dirs_here.clone(),
            elsewhere: None,
            ..finding.clone()
        })
    }

    fn time_left(&self) -> Option<Duration> {
        self.deadline
            .checked_duration_since(Instant::now())
            .filter(|d| !d.is_zero())
    }

    fn is_regenerable(&self, name: &str) -> bool {
        self.regenerable.iter().any(|r| r == name)
    }

    /// A claim another agent holds on one of `paths` (under `dir`), if any. `Err` when the
    /// claims cannot be read: the caller must then not clear anything.
    fn claim_on(&self, dir: &Path, paths: &[&Path]) -> Result<Option<crate::claims::Claim>, ()> {
        let session = self
            .session
            .get_or_init(|| crate::claims::Session::from_env(None).id);
        crate::claims::claimed_by_other(dir, paths, session).map_err(|_| ())
    }
}

/// Aliases are looked up in the repository the git command uses: where its `cd`s lead, with
/// its environment and global options.
impl GitAliases for Context {
    fn alias(&self, cmd: &SimpleCommand, globals: &[String], name: &str) -> Option<String> {
        let dir = self.directory(&cmd.dirs)?;
        git::alias(self, &dir, &git_env(&cmd.assigns)?, globals, name)
    }

    fn toplevel(&self, cmd: &SimpleCommand, globals: &[String]) -> Option<PathBuf> {
        let dir = self.directory(&cmd.dirs)?;
        let top = run::git(
            self,
            &dir,
            Some(&git_env(&cmd.assigns)?),
            globals,
            &["rev-parse", "--show-toplevel"],
        )?;
        let top = top.trim_end_matches('\n');
        (!top.is_empty()).then(|| PathBuf::from(top))
    }
}

/// A `git clean` finding: the one protected finding the repository's own answer can clear,
/// when every path git would remove is ignored build output.
fn clean_of_output(finding: &Finding) -> bool {
    matches!(
        &finding.subject,
        Subject::Git {
            what: GitSubject::Clean { .. },
            ..
        }
    )
}

/// The words a line computes from git (`$(git rev-parse --show-toplevel)`) are git's own
/// answer in the folder the command runs in, asked under this context's deadline.
impl crate::shell::Repository for Context {
    fn rev_parse(&self, dir: &Path, flag: &str) -> Option<String> {
        if !crate::shell::REV_PARSE_FLAGS.contains(&flag) {
            return None;
        }
        let out = run::git(self, dir, Some(&[]), &[], &["rev-parse", flag])?;
        let out = out.strip_suffix('\n').unwrap_or(&out);
        // One line, or the answer is not the one path it should be.
        (!out.contains('\n')).then(|| out.to_string())
    }
}

/// A [`Context`] made when the analysis first asks it something, so that its deadline
/// starts with the question rather than with the analysis.
pub struct AskedLater<'a> {
    cwd: Option<&'a Path>,
    settings: &'a Settings,
    context: std::cell::OnceCell<Context>,
}

impl<'a> AskedLater<'a> {
    pub fn new(cwd: Option<&'a Path>, settings: &'a Settings) -> Self {
        AskedLater {
            cwd,
            settings,
            context: std::cell::OnceCell::new(),
        }
    }
}

impl AskedLater<'_> {
    /// The context the reading asked, or a new one when it asked none: the one the rest of
    /// the call uses.
    pub fn into_context(self) -> Context {
        self.context
            .into_inner()
            .unwrap_or_else(|| Context::new(self.cwd, self.settings))
    }
}

impl crate::shell::Repository for AskedLater<'_> {
    fn rev_parse(&self, dir: &Path, flag: &str) -> Option<String> {
        self.context
            .get_or_init(|| Context::new(self.cwd, self.settings))
            .rev_parse(dir, flag)
    }
}

/// The prefixes of a git command that change which repository and configuration it
/// uses (`GIT_DIR`, `GIT_WORK_TREE`, `GIT_CONFIG_COUNT`, ..., `HOME`): the questions about it
/// are asked with the same. `None` when one of them is known only at run time.
fn git_env(assigns: &[(String, Word)]) -> Option<Vec<(String, String)>> {
    let mut env = Vec::new();
    for (name, value) in assigns {
        if name.starts_with("GIT_") || matches!(name.as_str(), "HOME" | "XDG_CONFIG_HOME") {
            env.push((name.clone(), value.value()?.to_string()));
        }
    }
    Some(env)
}

/// The prefixes of a Mercurial or Subversion command that change which repository and
/// configuration it uses (`HGRCPATH`, `HGPLAIN`, `SVN_*`, `HOME`); `None` when one of them
/// is known only at run time.
fn tool_env(assigns: &[(String, Word)]) -> Option<Vec<(String, String)>> {
    let mut env = Vec::new();
    for (name, value) in assigns {
        if name.starts_with("HG")
            || name.starts_with("SVN")
            || matches!(name.as_str(), "HOME" | "XDG_CONFIG_HOME")
        {
            env.push((name.clone(), value.value()?.to_string()));
        }
    }
    Some(env)
}

/// "claimed by session `x` (pid n)": why another agent's path stays untouched.
fn claimed(claim: &crate::claims::Claim) -> String {
    format!(
        "`{}`, claimed by another agent (session `{}`, pid {})",
        claim.path.display(),
        claim.session,
        claim.pid
    )
}

/// A few names from a list, for a reason line: "3 files (a, b, c)", or past three, "8
/// untracked paths, among them notes.txt and src/scratch.rs (and 6 more: build/, dist/, …)".
/// What a person wrote comes before what looks like build output, whose loss matters less.
fn sample(items: &[String], noun: &str) -> String {
    let n = items.len();
    let plural = if n == 1 {
        noun.to_string()
    } else {
        format!("{noun}s")
    };
    let mut ordered: Vec<&str> = items.iter().map(String::as_str).collect();
    ordered.sort_by_key(|item| looks_built(item));
    if n <= 3 {
        return format!("{n} {plural} ({})", ordered.join(", "));
    }
    let [first, second, rest @ ..] = ordered.as_slice() else {
        return format!("{n} {plural} ({})", ordered.join(", "));
    };
    let mut more: Vec<&str> = rest.iter().take(2).copied().collect();
    if rest.len() > 2 {
        more.push("…");
    }
    format!(
        "{n} {plural}, among them {} and {} (and {} more: {})",
        first,
        second,
        rest.len(),
        more.join(", ")
    )
}

/// A file's size for a reason line: "812 bytes", "1.2 KB", "3.4 MB".
fn size(len: u64) -> String {
    const UNITS: &[&str] = &["KB", "MB", "GB"];
    if len < 1000 {
        return format!("{len} bytes");
    }
    let mut value = len as f64 / 1000.0;
    let mut unit = "KB";
    for next in UNITS.iter().skip(1) {
        if value < 1000.0 {
            break;
        }
        value /= 1000.0;
        unit = next;
    }
    format!("{value:.1} {unit}")
}

/// Whether `path` looks like output a build makes again: under a folder such as `build/`,
/// `dist/` or `node_modules/`, a cache, or an object file.
fn looks_built(path: &str) -> bool {
    const BUILT_EXTENSIONS: &[&str] = &["o", "obj", "a", "so", "dylib", "dll", "pyc", "class"];
    let path = path.trim_end_matches('/');
    let folder = path.split('/').any(|part| {
        crate::settings::REGENERABLE.contains(&part) || part.to_ascii_lowercase().contains("cache")
    });
    let extension = path
        .rsplit_once('.')
        .is_some_and(|(stem, ext)| !stem.is_empty() && BUILT_EXTENSIONS.contains(&ext));
    folder || extension
}
