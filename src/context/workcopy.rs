//! Mercurial and Subversion working copies: what `hg status` and `svn status` report where a
//! command of the `vcs` pack would throw something away. Both are asked with the command's
//! own repository and configuration options, and only their exact answer clears: a tool that
//! is missing, fails or is late leaves the finding standing.

use std::collections::HashSet;
use std::path::Path;
use std::process::Command;

use super::run::output;
use super::{Assessment, Context, sample};
use crate::rules::packs::vcs::{Loses, Tool, WorkingCopy};

pub(super) fn assess(
    ctx: &Context,
    dir: &Path,
    env: &[(String, String)],
    wc: &WorkingCopy,
) -> Assessment {
    let ask = |program: &str, args: &[&str]| {
        let mut command = Command::new(program);
        command
            .envs(env.iter().map(|(k, v)| (k, v)))
            .current_dir(dir)
            .args(&wc.options)
            .args(args);
        if program == "hg" {
            // Plain output, whatever aliases and defaults the user's configuration sets.
            command.env("HGPLAIN", "1");
        }
        output(ctx, command)
    };
    let answer = match wc.tool {
        Tool::Hg => hg(&ask, wc),
        Tool::Svn => svn(&ask, wc),
    };
    answer.unwrap_or(Assessment::Unknown)
}

type Ask<'a> = &'a dyn Fn(&str, &[&str]) -> Option<String>;

/// `hg status` with `flags`, of `paths` (none: the whole working copy): each file with the
/// letter of its state (`M`, `A`, `?`, `I`).
fn hg_status(ask: Ask, flags: &[&str], paths: &[String]) -> Option<Vec<(char, String)>> {
    let mut args = vec!["--noninteractive", "status", "--print0", "--subrepos"];
    args.extend_from_slice(flags);
    if !paths.is_empty() {
        args.push("--");
        args.extend(paths.iter().map(String::as_str));
    }
    ask("hg", &args)?
        .split('\0')
        .filter(|entry| !entry.is_empty())
        .map(|entry| {
            let (state, path) = entry.split_once(' ')?;
            Some((state.chars().next()?, path.to_string()))
        })
        .collect()
}

fn hg(ask: Ask, wc: &WorkingCopy) -> Option<Assessment> {
    let (flags, clear): (&[&str], &str) = match &wc.loses {
        Loses::Changes { added: false } => (&["--modified"], "no uncommitted edit"),
        Loses::Changes { added: true } => (&["--modified", "--added"], "no uncommitted edit"),
        Loses::Untracked {
            unversioned: true,
            ignored: false,
        } => (&["--unknown"], "no untracked file"),
        Loses::Untracked {
            unversioned: false,
            ignored: true,
        } => (&["--ignored"], "no ignored file"),
        Loses::Untracked { .. } => (&["--unknown", "--ignored"], "no untracked or ignored file"),
        Loses::Everything => (
            &["--modified", "--added", "--unknown", "--ignored"],
            "nothing uncommitted",
        ),
        Loses::Checkout { target } => return checkout(ask, target.as_deref()),
    };
    let found = hg_status(ask, flags, &wc.paths)?;
    Some(judge(found, &format!("`hg status` shows {clear} there")))
}

/// `hg update --clean`: it discards edits, and writes the files of the destination over
/// untracked or ignored files in their way. (An uncommitted merge with no edited file
/// loses nothing but the merge itself, which `hg merge` makes again.)
fn checkout(ask: Ask, target: Option<&str>) -> Option<Assessment> {
    let found = hg_status(ask, &["--modified", "--unknown", "--ignored"], &[])?;
    let (edited, untracked): (Vec<_>, Vec<_>) = found.into_iter().partition(|(s, _)| *s == 'M');
    if !edited.is_empty() {
        return Some(judge(edited, ""));
    }
    // Where a plain `hg update` would go, when no revision is named.
    let rev = target.unwrap_or("_destupdate()");
    let clear = format!(
        "`hg status` shows no uncommitted edit and no untracked file in the way of `{rev}`"
    );
    if untracked.is_empty() {
        return Some(Assessment::Clear(clear));
    }
    let files: HashSet<String> = ask("hg", &["--noninteractive", "files", "--print0", "-r", rev])?
        .split('\0')
        .filter(|f| !f.is_empty())
        .map(str::to_string)
        .collect();
    // In the way: the same path, a folder of the destination's, or below one of its files.
    let in_the_way: Vec<String> = untracked
        .into_iter()
        .map(|(_, path)| path)
        .filter(|path| {
            files.contains(path)
                || files.iter().any(|f| {
                    f.strip_prefix(path.as_str())
                        .is_some_and(|r| r.starts_with('/'))
                })
                || path
                    .match_indices('/')
                    .any(|(at, _)| files.contains(&path[..at]))
        })
        .collect();
    if in_the_way.is_empty() {
        return Some(Assessment::Clear(clear));
    }
    Some(Assessment::Loss {
        loses: format!(
            "writes `{rev}`'s files over {}",
            sample(&in_the_way, "untracked file")
        ),
        recovery: None,
    })
}

/// Clear with `clear` when nothing was found; else the loss: edits to the files found in a
/// changed state, and the untracked files found, which are deleted.
fn judge(found: Vec<(char, String)>, clear: &str) -> Assessment {
    if found.is_empty() {
        return Assessment::Clear(clear.to_string());
    }
    let (untracked, edited): (Vec<_>, Vec<_>) =
        found.into_iter().partition(|(s, _)| matches!(s, '?' | 'I'));
    let paths = |found: Vec<(char, String)>| -> Vec<String> {
        found.into_iter().map(|(_, path)| path).collect()
    };
    let (edited, untracked) = (paths(edited), paths(untracked));
    let mut loses = Vec::new();
    if !edited.is_empty() {
        loses.push(format!(
            "discards uncommitted edits to {}",
            sample(&edited, "file")
        ));
    }
    if !untracked.is_empty() {
        loses.push(format!(
            "deletes {}",
            sample(&untracked, "file that is in no commit")
        ));
    }
    Assessment::Loss {
        loses: loses.join(", and "),
        recovery: None,
    }
}

fn svn(ask: Ask, wc: &WorkingCopy) -> Option<Assessment> {
    let mut args = vec![
        "status",
        "--xml",
        "--non-interactive",
        "--ignore-externals",
        "--depth",
        wc.depth.as_str(),
    ];
    let untracked_too = matches!(wc.loses, Loses::Untracked { .. } | Loses::Everything);
    if untracked_too {
        args.push("--no-ignore");
    }
    args.push("--");
    match wc.paths.is_empty() {
        true => args.push("."),
        false => args.extend(wc.paths.iter().map(String::as_str)),
    }
    let entries = svn_entries(&ask("svn", &args)?)?;
    let edited = |e: &SvnEntry, added: bool| {
        matches!(
            e.item.as_str(),
            "modified" | "replaced" | "conflicted" | "obstructed" | "incomplete"
        ) || (added && e.item == "added")
            || matches!(e.props.as_str(), "modified" | "conflicted")
            || e.tree_conflict
    };
    let lost: Vec<(char, String)> = entries
        .into_iter()
        .filter_map(|e| {
            let untracked = match e.item.as_str() {
                "unversioned" => Some('?'),
                "ignored" => Some('I'),
                _ => None,
            };
            let keep = match &wc.loses {
                Loses::Changes { added } => edited(&e, *added),
                Loses::Untracked {
                    unversioned,
                    ignored,
                } => {
                    (*unversioned && untracked == Some('?')) || (*ignored && untracked == Some('I'))
                }
                Loses::Everything | Loses::Checkout { .. } => {
                    edited(&e, true) || untracked.is_some()
                }
            };
            keep.then(|| (untracked.unwrap_or('M'), e.path))
        })
        .collect();
    let clear = match wc.loses {
        Loses::Changes { .. } => "`svn status` shows no local edit there",
        _ => "`svn status` shows nothing uncommitted there",
    };
    Some(judge(lost, clear))
}

/// One `<entry>` of `svn status --xml`.
struct SvnEntry {
    path: String,
    item: String,
    props: String,
    tree_conflict: bool,
}

/// The entries of `svn status --xml`; `None` when the answer is not that document.
fn svn_entries(xml: &str) -> Option<Vec<SvnEntry>> {
    if !xml.contains("<status") {
        return None;
    }
    let attribute = |chunk: &str, name: &str| -> Option<String> {
        let start = chunk.find(&format!("{name}=\""))? + name.len() + 2;
        let len = chunk[start..].find('"')?;
        Some(unescape(&chunk[start..start + len]))
    };
    xml.split("<entry")
        .skip(1)
        .map(|chunk| {
            let status = &chunk[chunk.find("<wc-status")?..];
            Some(SvnEntry {
                path: attribute(chunk, "path")?,
                item: attribute(status, "item")?,
                props: attribute(status, "props").unwrap_or_default(),
                tree_conflict: attribute(status, "tree-conflicted").as_deref() == Some("true"),
            })
        })
        .collect()
}

fn unescape(text: &str) -> String {
    text.replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// Against real working copies made with the real `hg` and `svn` (CI installs both; a
/// missing tool fails these tests rather than skipping them). The context is given more
/// time than a hook call has, so that a loaded machine cannot make them flaky: what is
/// tested is what the tools' answers mean.
#[cfg(test)]
mod tests {
    use std::io::Write;
    use std::path::Path;
    use std::process::Command;
    use std::time::{Duration, Instant};

    use super::super::{Assessment, Context};
    use crate::settings::Settings;

    fn run(dir: &Path, program: &str, args: &[&str]) {
        let out = Command::new(program)
            .args(args)
            .current_dir(dir)
            .env("HGUSER", "test")
            .env("HGRCPATH", "")
            .output()
            .unwrap_or_else(|e| {
                panic!("`{program}` must be installed for these tests (.ci/run installs it): {e}")
            });
        assert!(
            out.status.success(),
            "{program} {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// Whether `program` runs here. Mercurial and Subversion are optional: without them a test
    /// says it is skipped, except in CI, whose script installs them and where they must run.
    fn installed(program: &str) -> bool {
        let runs = Command::new(program)
            .arg("--version")
            .env("HGRCPATH", "")
            .output()
            .is_ok_and(|out| out.status.success());
        assert!(
            runs || std::env::var_os("CI").is_none(),
            "`{program}` must be installed in CI (.ci/run installs it)"
        );
        if !runs {
            // Straight to stderr: the test harness would swallow `eprintln!` of a passing test.
            let _ = writeln!(std::io::stderr(), "skipped: `{program}` is not installed");
        }
        runs
    }

    fn write(dir: &Path, path: &str, text: &str) {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    /// What the context says about the one finding of `command`, run in `dir`.
    fn assess(dir: &Path, command: &str) -> Assessment {
        let settings = Settings::default();
        let mut ctx = Context::new(Some(dir), &settings);
        ctx.deadline = Instant::now() + Duration::from_secs(30);
        let analysis = crate::shell::analyze(command);
        let findings: Vec<_> = analysis
            .commands
            .iter()
            .flat_map(|cmd| crate::rules::check(cmd, &settings))
            .collect();
        assert_eq!(findings.len(), 1, "{command}: {findings:?}");
        ctx.assess(&findings[0], &[], &[])
    }

    #[track_caller]
    fn clear(dir: &Path, command: &str) {
        let answer = assess(dir, command);
        assert!(
            matches!(answer, Assessment::Clear(_)),
            "{command}: {answer:?}"
        );
    }

    #[track_caller]
    fn lost(dir: &Path, command: &str, named: &str) {
        match assess(dir, command) {
            Assessment::Loss { loses, .. } => assert!(loses.contains(named), "{command}: {loses}"),
            other => panic!("{command}: expected a loss naming {named}, got {other:?}"),
        }
    }

    /// A Mercurial repository with two commits (`a`, then `b`), its working directory at
    /// the first.
    fn hg_repo() -> tempfile::TempDir {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        run(dir, "hg", &["init"]);
        write(dir, ".hgignore", "syntax: glob\n*.log\n");
        write(dir, "a", "a\n");
        run(dir, "hg", &["add", "a", ".hgignore"]);
        run(dir, "hg", &["commit", "-m", "a"]);
        write(dir, "b", "b\n");
        run(dir, "hg", &["add", "b"]);
        run(dir, "hg", &["commit", "-m", "b"]);
        run(dir, "hg", &["update", "-r", "0"]);
        tmp
    }

    #[test]
    fn hg_update_clean_loses_edits_and_untracked_files_in_the_way() {
        if !installed("hg") {
            return;
        }
        let tmp = hg_repo();
        let dir = tmp.path();
        clear(dir, "hg update -C");
        clear(dir, "hg up --clean 1");
        write(dir, "notes.txt", "mine\n");
        clear(dir, "hg update -C");
        // `b` is not tracked here, but the destination has it: the update writes over it.
        write(dir, "b", "mine\n");
        lost(dir, "hg update -C", "b");
        lost(dir, "hg checkout -C 1", "b");
        clear(dir, "hg update -C 0");
        std::fs::remove_file(dir.join("b")).unwrap();
        write(dir, "a", "edited\n");
        lost(dir, "hg update -C", "a");
    }

    #[test]
    fn hg_revert_and_remove_lose_only_edits() {
        if !installed("hg") {
            return;
        }
        let tmp = hg_repo();
        let dir = tmp.path();
        clear(dir, "hg revert --no-backup --all");
        clear(dir, "hg remove -f a");
        write(dir, "a", "edited\n");
        lost(dir, "hg revert -C a", "a");
        lost(dir, "hg revert --all --no-backup", "a");
        lost(dir, "hg rm -f a", "a");
        // Another revision's files may overwrite untracked ones: not cleared.
        assert_eq!(assess(dir, "hg revert -C -r 1 --all"), Assessment::Unknown);
    }

    #[test]
    fn hg_purge_loses_untracked_and_with_all_ignored_files() {
        if !installed("hg") {
            return;
        }
        let tmp = hg_repo();
        let dir = tmp.path();
        clear(dir, "hg purge");
        write(dir, "build.log", "log\n");
        clear(dir, "hg purge");
        lost(dir, "hg purge --all", "build.log");
        write(dir, "sub/notes.txt", "mine\n");
        lost(dir, "hg purge", "notes.txt");
        clear(dir, "hg purge --config extensions.purge= a");
    }

    /// A Subversion working copy of a fresh repository, with `a` and `d/x` committed and
    /// `*.log` ignored.
    fn svn_wc() -> (tempfile::TempDir, std::path::PathBuf) {
        let tmp = tempfile::tempdir().unwrap();
        let repo = tmp.path().join("repo");
        run(tmp.path(), "svnadmin", &["create", repo.to_str().unwrap()]);
        let url = format!("file://{}", repo.display());
        run(tmp.path(), "svn", &["checkout", "-q", &url, "wc"]);
        let wc = tmp.path().join("wc");
        write(&wc, "a", "a\n");
        write(&wc, "d/x", "x\n");
        run(&wc, "svn", &["add", "-q", "a", "d"]);
        run(&wc, "svn", &["propset", "-q", "svn:ignore", "*.log", "."]);
        run(&wc, "svn", &["commit", "-q", "-m", "first"]);
        (tmp, wc)
    }

    #[test]
    fn svn_revert_loses_edits_as_deep_as_it_reaches() {
        if !installed("svn") || !installed("svnadmin") {
            return;
        }
        let (_tmp, wc) = svn_wc();
        clear(&wc, "svn revert -R .");
        write(&wc, "d/x", "edited\n");
        lost(&wc, "svn revert -R .", "x");
        lost(&wc, "svn revert --depth infinity d", "x");
        clear(&wc, "svn revert a");
        clear(&wc, "svn revert d");
        write(&wc, "new.c", "new\n");
        run(&wc, "svn", &["add", "-q", "new.c"]);
        clear(&wc, "svn revert new.c");
        lost(&wc, "svn revert --remove-added new.c", "new.c");
    }

    #[test]
    fn svn_cleanup_delete_and_accept() {
        if !installed("svn") || !installed("svnadmin") {
            return;
        }
        let (_tmp, wc) = svn_wc();
        clear(&wc, "svn cleanup --remove-unversioned");
        clear(&wc, "svn delete --force a");
        clear(&wc, "svn update --accept theirs-full");
        write(&wc, "build.log", "log\n");
        clear(&wc, "svn cleanup --remove-unversioned");
        lost(&wc, "svn cleanup --remove-ignored", "build.log");
        write(&wc, "d/notes.txt", "mine\n");
        lost(&wc, "svn cleanup --remove-unversioned", "notes.txt");
        lost(&wc, "svn delete --force d", "notes.txt");
        clear(&wc, "svn delete --force a");
        write(&wc, "a", "edited\n");
        lost(&wc, "svn rm --force a", "a");
        lost(&wc, "svn up --accept tf", "a");
        lost(&wc, "svn resolve --accept base a", "a");
    }
}
