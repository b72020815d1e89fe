//! What git-rule findings would really lose, asked of the repository itself.

use std::path::{Path, PathBuf};

use super::run::git;
use super::{Assessment, Context, sample};
use crate::git::porcelain;
use crate::rules::GitSubject;
use crate::shell::Word;

pub(super) fn assess(
    ctx: &Context,
    dir: &Path,
    env: &[(String, String)],
    globals: &[String],
    what: &GitSubject,
) -> Assessment {
    let ask = |args: &[&str]| git(ctx, dir, Some(env), globals, args);
    // `GIT_DIR=../other git push . +a:b` writes the branches of the repository here, by path:
    // asking the one `GIT_DIR` names would answer about the wrong branches.
    let elsewhere = env
        .iter()
        .any(|(name, _)| matches!(name.as_str(), "GIT_DIR" | "GIT_WORK_TREE"))
        || elsewhere_by_option(globals);
    if matches!(what, GitSubject::BranchMove { by_path: true, .. }) && elsewhere {
        return Assessment::Unknown;
    }
    let answer = match what {
        GitSubject::ResetHard { target } => reset_hard(&ask, target.as_deref()),
        GitSubject::Discard { paths } => discard(&ask, paths),
        GitSubject::CheckoutOperand { name } => checkout_operand(&ask, name),
        GitSubject::Clean { dry_run } => clean(ctx, dir, &ask, dry_run),
        GitSubject::BranchDelete { names } => branch_delete(&ask, names),
        GitSubject::RefDelete { name } => ref_delete(&ask, name),
        GitSubject::StashDrop { entry, clear } => stash_drop(ctx, &ask, entry.as_deref(), *clear),
        GitSubject::WorktreeRemove { path } => worktree_remove(ctx, dir, path),
        GitSubject::Rewrite { amend, upstream } => rewrite(&ask, *amend, upstream.as_deref()),
        GitSubject::BranchMove { .. }
        | GitSubject::Overwrite { .. }
        | GitSubject::Submodules { .. } => super::moves::assess(&ask, what),
        GitSubject::Push {
            remote,
            branches,
            delete,
        } => match push(&ask, remote.as_deref(), branches, &ctx.protected_branches) {
            Some(protected) => Some(protected),
            None if *delete => push_delete(&ask, remote.as_deref(), branches),
            None => None,
        },
    };
    answer.unwrap_or(Assessment::Unknown)
}

/// Whether git's own options (`--git-dir`, `--work-tree`) point it at another repository.
fn elsewhere_by_option(globals: &[String]) -> bool {
    let words: Vec<Word> = globals.iter().map(Word::literal).collect();
    let read = crate::syntax::git::read(&words);
    read.git_dir().is_some() || read.work_tree().is_some()
}

pub(super) fn alias(
    ctx: &Context,
    dir: &Path,
    env: &[(String, String)],
    globals: &[String],
    name: &str,
) -> Option<String> {
    let key = format!("alias.{name}");
    let value = git(ctx, dir, Some(env), globals, &["config", "--get", &key])?;
    let value = value.trim();
    (!value.is_empty()).then(|| value.to_string())
}

/// Paths with uncommitted changes to tracked files (staged or not), limited to `paths`.
fn changed(ask: &dyn Fn(&[&str]) -> Option<String>, paths: &[String]) -> Option<Vec<String>> {
    let mut args = vec![
        "status",
        "--porcelain=v1",
        "-z",
        "--untracked-files=no",
        "--",
    ];
    args.extend(paths.iter().map(String::as_str));
    Some(
        porcelain(&ask(&args)?)
            .into_iter()
            .map(|(_, path)| path)
            .collect(),
    )
}

/// Whether every change to `files` (paths from the top of the work tree) is agent sessions'
/// own: nothing of them is staged (a discard that also resets the index would drop that), the
/// journal shows the agents started from what the index holds, which is what a discard puts
/// back, and no one changed the file after their last write.
fn agents_own_changes(ask: &dyn Fn(&[&str]) -> Option<String>, files: &[String]) -> bool {
    const MAX_WEIGHED: usize = 20;
    if files.len() > MAX_WEIGHED {
        return false;
    }
    let specs: Vec<String> = files.iter().map(|f| format!(":(top,literal){f}")).collect();
    let mut staged = vec!["diff", "--cached", "--name-only", "-z", "--"];
    staged.extend(specs.iter().map(String::as_str));
    if ask(&staged).is_none_or(|out| !out.is_empty()) {
        return false;
    }
    let Some(top) = work_tree(ask) else {
        return false;
    };
    let mut journals = crate::journal::Journals::new();
    files.iter().all(|file| {
        ask(&["show", &format!(":{file}")]).is_some_and(|restored| {
            journals
                .changes_owner(&top.join(file), restored.as_bytes())
                .is_agents()
        })
    })
}

/// The top folder of the repository's work tree, as git names it.
fn work_tree(ask: &dyn Fn(&[&str]) -> Option<String>) -> Option<PathBuf> {
    let top = ask(&["rev-parse", "--show-toplevel"])?;
    Some(PathBuf::from(top.trim_end_matches('\n')))
}

/// `sha subject` lines of commits in `revs`, at most 50.
fn commits(ask: &dyn Fn(&[&str]) -> Option<String>, revs: &[&str]) -> Option<Vec<String>> {
    let mut args = vec!["log", "--format=%h %s", "-n", "50"];
    args.extend_from_slice(revs);
    Some(ask(&args)?.lines().map(str::to_string).collect())
}

fn reflog_window(ask: &dyn Fn(&[&str]) -> Option<String>) -> String {
    ask(&["config", "--get", "gc.reflogExpireUnreachable"])
        .map(|v| {
            v.trim()
                .replace('.', " ")
                .trim_end_matches(" ago")
                .to_string()
        })
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "30 days".into())
}

fn reset_hard(ask: &dyn Fn(&[&str]) -> Option<String>, target: Option<&str>) -> Option<Assessment> {
    let lost_edits = changed(ask, &[])?;
    let mut stranded = Vec::new();
    if let Some(target) = target.filter(|t| *t != "HEAD") {
        let commit = format!("{target}^{{commit}}");
        if ask(&["rev-parse", "--verify", "-q", &commit]).is_none() {
            return Some(Assessment::Clear(format!(
                "`{target}` is not a commit here, so git would refuse"
            )));
        }
        let branch = ask(&["symbolic-ref", "-q", "--short", "HEAD"]).map(|b| b.trim().to_string());
        // `--exclude` patterns for `--branches` name branches without `refs/heads/`.
        let exclude = branch.map(|b| format!("--exclude={b}"));
        let mut revs = vec!["HEAD", "--not", target];
        revs.extend(exclude.as_deref());
        revs.extend(["--branches", "--remotes", "--tags"]);
        stranded = commits(ask, &revs)?;
    }
    if lost_edits.is_empty() && stranded.is_empty() {
        return Some(Assessment::Clear(
            "the tree has no uncommitted changes and no commit would be left behind".into(),
        ));
    }
    let mut loses = Vec::new();
    if !lost_edits.is_empty() {
        loses.push(format!(
            "discards uncommitted changes to {}",
            sample(&lost_edits, "file")
        ));
    }
    let mut recovery = vec![];
    if !stranded.is_empty() {
        loses.push(format!(
            "leaves {} reachable only from the reflog",
            sample(&stranded, "commit")
        ));
        let head = ask(&["rev-parse", "--short", "HEAD"]).unwrap_or_default();
        recovery.push(format!(
            "`git reset --keep {}` brings the commits back (the reflog keeps them for {})",
            head.trim(),
            reflog_window(ask)
        ));
    }
    if !lost_edits.is_empty() {
        recovery.push("uncommitted changes cannot be recovered".into());
    }
    Some(Assessment::Loss {
        loses: loses.join(" and "),
        recovery: Some(recovery.join("; ")),
    })
}

fn discard(ask: &dyn Fn(&[&str]) -> Option<String>, paths: &[String]) -> Option<Assessment> {
    let lost = changed(ask, paths)?;
    if lost.is_empty() {
        return Some(Assessment::Clear(
            "none of the files it overwrites has uncommitted changes".into(),
        ));
    }
    if agents_own_changes(ask, &lost) {
        return Some(Assessment::Owned(format!(
            "the uncommitted changes to {} are agent sessions' own, unchanged since",
            sample(&lost, "file")
        )));
    }
    Some(Assessment::Loss {
        loses: format!("discards uncommitted changes to {}", sample(&lost, "file")),
        recovery: Some("those changes were never saved by git: they cannot be recovered".into()),
    })
}

fn checkout_operand(ask: &dyn Fn(&[&str]) -> Option<String>, name: &str) -> Option<Assessment> {
    let commit = format!("{name}^{{commit}}");
    if ask(&["rev-parse", "--verify", "-q", &commit]).is_some() {
        return Some(Assessment::Clear(format!(
            "`{name}` is a branch or commit: git switches to it and refuses to drop changes"
        )));
    }
    discard(ask, &[name.to_string()])
}

fn clean(
    ctx: &Context,
    dir: &Path,
    ask: &dyn Fn(&[&str]) -> Option<String>,
    dry_run: &[String],
) -> Option<Assessment> {
    let question = crate::rules::git_clean_question(dry_run)?;
    if outside_work_tree(ask, &question) {
        return Some(Assessment::Clear(
            "`git clean` stops at a path outside the repository and deletes nothing".into(),
        ));
    }
    let mut args = vec!["clean"];
    args.extend(question.iter().map(String::as_str));
    let out = ask(&args)?;
    let doomed: Vec<String> = out
        .lines()
        .filter_map(|l| l.strip_prefix("Would remove "))
        .map(str::to_string)
        .collect();
    if doomed.is_empty() {
        return Some(Assessment::Clear(
            "`git clean` with these options would delete nothing here".into(),
        ));
    }
    // Paths another agent claimed are its work in progress, untracked or not.
    let paths: Vec<&Path> = doomed
        .iter()
        .map(|p| Path::new(p.trim_end_matches('/')))
        .collect();
    if let Some(claim) = ctx.claim_on(dir, &paths).ok()? {
        return Some(Assessment::Loss {
            loses: format!("would delete {}", super::claimed(&claim)),
            recovery: Some("untracked files were never in git: they cannot be recovered".into()),
        });
    }
    // Ignored build output (`target/`, `node_modules/`) is rebuilt, not lost, and so is a
    // package manager's install folder beside its manifest; an ignored `.env` is. Git says
    // which of the paths it would remove are ignored.
    let mut status = vec![
        "status",
        "--porcelain=v1",
        "-z",
        "--ignored=matching",
        "--untracked-files=normal",
        "--",
    ];
    status.extend(doomed.iter().map(String::as_str));
    let ignored: Vec<String> = porcelain(&ask(&status)?)
        .into_iter()
        .filter(|(code, _)| code == "!!")
        .map(|(_, p)| p)
        .collect();
    let mut manifests = super::paths::Manifests::default();
    let mut output = |p: &String| {
        (ignored.contains(p) && super::paths::regenerable(ctx, p)) || manifests.installed(dir, p)
    };
    let lost: Vec<&String> = doomed.iter().filter(|p| !output(p)).collect();
    if lost.is_empty() {
        return Some(Assessment::Clear(format!(
            "`git clean` would delete only ignored build output here: {}",
            sample(&doomed, "path")
        )));
    }
    let lost: Vec<String> = lost.into_iter().cloned().collect();
    Some(Assessment::Loss {
        loses: format!("would delete {}", sample(&lost, "untracked path")),
        recovery: Some("untracked files were never in git: they cannot be recovered".into()),
    })
}

/// Whether one of a `git clean` question's pathspecs (after its `--`) is an absolute path
/// outside the work tree: git then refuses the whole command (`… is outside repository`)
/// before it removes anything. Git follows links to tell, so the path is read as the file
/// system resolves it, up to its nearest folder that is there.
fn outside_work_tree(ask: &dyn Fn(&[&str]) -> Option<String>, question: &[String]) -> bool {
    let specs: Vec<&Path> = question
        .iter()
        .skip_while(|w| *w != "--")
        .skip(1)
        .map(Path::new)
        .filter(|p| p.is_absolute())
        .collect();
    if specs.is_empty() {
        return false;
    }
    let Some(top) = work_tree(ask).and_then(|top| std::fs::canonicalize(top).ok()) else {
        return false;
    };
    specs.iter().any(|spec| {
        spec.ancestors()
            .find_map(|at| std::fs::canonicalize(at).ok())
            .is_some_and(|real| !real.starts_with(&top))
    })
}

/// `git clean --dry-run` with only the options of `args` that change which paths it
/// removes: `-d`, `-x`, `-X`, `-e`/`--exclude` and the pathspecs. Whatever only changes how
/// it reports (`-q` prints nothing at all) stays out, and an option this does not know
/// makes the question unaskable.
fn branch_delete(ask: &dyn Fn(&[&str]) -> Option<String>, names: &[String]) -> Option<Assessment> {
    let mut lost = Vec::new();
    let mut recovery = Vec::new();
    for name in names {
        let full = format!("refs/heads/{name}");
        let Some(tip) = ask(&["rev-parse", "--verify", "-q", "--short", &full]) else {
            continue; // no such branch: git refuses
        };
        let exclude = format!("--exclude={name}");
        let only_here = commits(
            ask,
            &[
                &full,
                "--not",
                "HEAD",
                &exclude,
                "--branches",
                "--remotes",
                "--tags",
            ],
        )?;
        if !only_here.is_empty() {
            lost.push(format!(
                "`{name}` holds {} found on no other branch",
                sample(&only_here, "commit")
            ));
            recovery.push(format!("`git branch {name} {}`", tip.trim()));
        }
    }
    if lost.is_empty() {
        return Some(Assessment::Clear(
            "every commit on it is on HEAD, another branch, a tag or a remote".into(),
        ));
    }
    Some(Assessment::Loss {
        loses: format!(
            "deletes branches whose commits exist nowhere else: {}",
            lost.join("; ")
        ),
        recovery: Some(format!(
            "{} (the reflog keeps the commits for {})",
            recovery.join(", "),
            reflog_window(ask)
        )),
    })
}

fn ref_delete(ask: &dyn Fn(&[&str]) -> Option<String>, name: &str) -> Option<Assessment> {
    let full = ask(&["rev-parse", "--symbolic-full-name", name]).map(|f| f.trim().to_string());
    let Some(full) = full.filter(|f| !f.is_empty()) else {
        return Some(Assessment::Clear(format!(
            "`{name}` is not a ref here, so git would refuse"
        )));
    };
    let Some(tip) = ask(&["rev-parse", "--verify", "-q", "--short", &full]) else {
        return Some(Assessment::Clear(format!(
            "`{name}` is not a ref here, so git would refuse"
        )));
    };
    // `--exclude` before `--all` takes full ref names.
    let exclude = format!("--exclude={full}");
    let only_here = commits(ask, &[&full, "--not", "HEAD", &exclude, "--all"])?;
    if only_here.is_empty() {
        return Some(Assessment::Clear(
            "every commit it points to is reachable from another ref".into(),
        ));
    }
    Some(Assessment::Loss {
        loses: format!(
            "deletes `{full}`, the only ref to {}",
            sample(&only_here, "commit")
        ),
        recovery: Some(format!(
            "`git update-ref {full} {}` (the reflog keeps the commits for {})",
            tip.trim(),
            reflog_window(ask)
        )),
    })
}

fn stash_drop(
    ctx: &Context,
    ask: &dyn Fn(&[&str]) -> Option<String>,
    entry: Option<&str>,
    clear: bool,
) -> Option<Assessment> {
    let list = ask(&["stash", "list", "--format=%gd%x09%h%x09%gs"])?;
    let entries: Vec<(&str, &str, &str)> = list
        .lines()
        .filter_map(|l| {
            let mut parts = l.splitn(3, '\t');
            Some((parts.next()?, parts.next()?, parts.next()?))
        })
        .collect();
    if entries.is_empty() {
        return Some(Assessment::Clear("there are no stash entries".into()));
    }
    let wanted = match entry {
        Some(e) if e.chars().all(|c| c.is_ascii_digit()) => format!("stash@{{{e}}}"),
        Some(e) => e.to_string(),
        None => "stash@{0}".to_string(),
    };
    let dropped: Vec<&(&str, &str, &str)> = if clear {
        entries.iter().collect()
    } else {
        entries
            .iter()
            .filter(|(name, _, _)| *name == wanted)
            .collect()
    };
    if dropped.is_empty() {
        return Some(Assessment::Clear(format!(
            "there is no {wanted}, so git would refuse"
        )));
    }
    // An entry whose every change the work tree already holds loses nothing; the others
    // are named with the files whose stashed version exists nowhere else.
    let mut described = Vec::new();
    let mut shas = Vec::new();
    for (name, sha, msg) in &dropped {
        let missing = not_in_work_tree(ctx, ask, sha)?;
        if !missing.is_empty() {
            described.push(format!(
                "{name} \"{msg}\" (its changes to {} are not in the work tree)",
                sample(&missing, "file")
            ));
            shas.push(*sha);
        }
    }
    if described.is_empty() {
        return Some(Assessment::Clear(format!(
            "the work tree already holds every change of {}",
            dropped
                .iter()
                .map(|(name, _, _)| *name)
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    Some(Assessment::Loss {
        loses: format!(
            "deletes {}",
            sample(&described, "stash entry").replace("entrys", "entries")
        ),
        recovery: Some(format!(
            "`git stash apply {}` until gc prunes it",
            shas.join("` / `git stash apply ")
        )),
    })
}

/// Most files one stash entry is compared by, file by file; past it the entry is judged
/// not applied.
const MAX_STASHED_FILES: usize = 200;

/// The files stash entry `sha` changed (its untracked files too) whose stashed content the
/// work tree does not hold: different, missing, or present where the stash deleted it.
fn not_in_work_tree(
    ctx: &Context,
    ask: &dyn Fn(&[&str]) -> Option<String>,
    sha: &str,
) -> Option<Vec<String>> {
    let top = work_tree(ask)?;
    let base = format!("{sha}^1");
    let mut sources = vec![(
        sha.to_string(),
        nul_list(&ask(&[
            "diff",
            "--name-only",
            "-z",
            "--no-renames",
            &base,
            sha,
        ])?),
    )];
    let untracked = format!("{sha}^3");
    if ask(&[
        "rev-parse",
        "--verify",
        "-q",
        &format!("{untracked}^{{commit}}"),
    ])
    .is_some()
    {
        let files = nul_list(&ask(&["ls-tree", "-r", "-z", "--name-only", &untracked])?);
        sources.push((untracked, files));
    }
    if sources.iter().map(|(_, files)| files.len()).sum::<usize>() > MAX_STASHED_FILES {
        return Some(vec![format!("more than {MAX_STASHED_FILES} files")]);
    }
    let mut missing = Vec::new();
    for (tree, files) in &sources {
        if files.is_empty() {
            continue;
        }
        let mut args = vec!["ls-tree", "-r", "-z", tree.as_str(), "--"];
        args.extend(files.iter().map(String::as_str));
        let stashed: Vec<(String, String)> = nul_list(&ask(&args)?)
            .into_iter()
            .filter_map(|line| {
                let (meta, path) = line.split_once('\t')?;
                let blob = meta.split(' ').nth(2)?;
                Some((path.to_string(), blob.to_string()))
            })
            .collect();
        // Every regular file here, hashed by one git process as git would store it.
        let present: Vec<&String> = files
            .iter()
            .filter(|f| std::fs::symlink_metadata(top.join(f)).is_ok_and(|m| m.is_file()))
            .collect();
        let paths: Vec<String> = present
            .iter()
            .map(|f| top.join(f).to_string_lossy().into_owned())
            .collect();
        let hashes: Vec<String> = if paths.is_empty() {
            Vec::new()
        } else {
            let mut args = vec!["hash-object", "--"];
            args.extend(paths.iter().map(String::as_str));
            git(ctx, &top, None, &[], &args)?
                .lines()
                .map(str::to_string)
                .collect()
        };
        for file in files {
            let want = stashed.iter().find(|(p, _)| p == file).map(|(_, b)| b);
            let here = present
                .iter()
                .position(|p| *p == file)
                .and_then(|at| hashes.get(at));
            let held = match (want, here) {
                // Deleted by the stash: applied when the file is gone here too.
                (None, _) => std::fs::symlink_metadata(top.join(file)).is_err(),
                (Some(blob), Some(hash)) => blob == hash,
                (Some(_), None) => false,
            };
            if !held {
                missing.push(file.clone());
            }
        }
    }
    Some(missing)
}

/// The entries of git's `-z` output.
fn nul_list(out: &str) -> Vec<String> {
    out.split('\0')
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .collect()
}

/// `git push --delete`: each remote branch, as last fetched, whose every commit another
/// branch of the same remote holds loses nothing there; any other is named with the commits
/// only it holds.
fn push_delete(
    ask: &dyn Fn(&[&str]) -> Option<String>,
    remote: Option<&str>,
    branches: &[String],
) -> Option<Assessment> {
    let remote = remote.unwrap_or("origin");
    let mut lost = Vec::new();
    let mut recovery = Vec::new();
    for branch in branches {
        let tracking = format!("refs/remotes/{remote}/{branch}");
        // Not fetched here (or a tag): what it holds is not known.
        let tip = ask(&["rev-parse", "--verify", "-q", "--short", &tracking])?;
        // `--exclude` before `--remotes` names refs without `refs/remotes/`.
        let others = [
            format!("--exclude={remote}/{branch}"),
            format!("--exclude={remote}/HEAD"),
            format!("--remotes={remote}"),
        ];
        let mut revs = vec![tracking.as_str(), "--not"];
        revs.extend(others.iter().map(String::as_str));
        let only_there = commits(ask, &revs)?;
        if only_there.is_empty() {
            continue;
        }
        let exclude = format!("--exclude={tracking}");
        let nowhere = commits(ask, &[&tracking, "--not", &exclude, "--all"])?;
        let elsewhere = if nowhere.is_empty() {
            " (local branches or tags here still hold them)".to_string()
        } else {
            format!(
                "; {} of them {} on no other ref here",
                nowhere.len(),
                if nowhere.len() == 1 { "is" } else { "are" }
            )
        };
        lost.push(format!(
            "`{remote}/{branch}` is the only branch of `{remote}` with {}{elsewhere}",
            sample(&only_there, "commit")
        ));
        recovery.push(format!(
            "`git push {remote} {}:refs/heads/{branch}`",
            tip.trim()
        ));
    }
    if lost.is_empty() {
        return Some(Assessment::Clear(format!(
            "every commit of the branches it deletes (as last fetched) is on another branch of `{remote}`"
        )));
    }
    Some(Assessment::Loss {
        loses: format!("deletes remote branches: {}", lost.join("; ")),
        recovery: Some(format!(
            "{} puts it back while this clone still has the commits",
            recovery.join(", ")
        )),
    })
}

fn worktree_remove(ctx: &Context, dir: &Path, path: &str) -> Option<Assessment> {
    let tree = dir.join(path);
    if !tree.is_dir() {
        return None;
    }
    let out = git(
        ctx,
        &tree,
        None,
        &[],
        &[
            "status",
            "--porcelain=v1",
            "-z",
            "--untracked-files=all",
            "--ignored=matching",
        ],
    )?;
    // The whole folder goes, ignored files such as `.env` with it; build output aside.
    let lost: Vec<String> = porcelain(&out)
        .into_iter()
        .filter(|(code, p)| code != "!!" || !super::paths::regenerable(ctx, p))
        .map(|(_, p)| p)
        .collect();
    // A branch outlives its worktree; commits made on a detached HEAD there do not.
    let ask_there = |args: &[&str]| git(ctx, &tree, None, &[], args);
    let stranded = match ask_there(&["symbolic-ref", "-q", "HEAD"]) {
        Some(_) => Vec::new(),
        None => commits(
            &ask_there,
            &["HEAD", "--not", "--branches", "--remotes", "--tags"],
        )?,
    };
    if lost.is_empty() && stranded.is_empty() {
        return Some(Assessment::Clear(format!(
            "the worktree `{path}` has no uncommitted or untracked work, and its commits are on a branch"
        )));
    }
    let mut loses = Vec::new();
    if !lost.is_empty() {
        loses.push(sample(&lost, "changed or untracked file"));
    }
    if !stranded.is_empty() {
        loses.push(format!(
            "{} made on its detached HEAD and on no branch, tag or remote",
            sample(&stranded, "commit")
        ));
    }
    Some(Assessment::Loss {
        loses: format!("deletes the worktree `{path}` with {}", loses.join(" and ")),
        recovery: Some(if stranded.is_empty() {
            "uncommitted work in it was never in git: it cannot be recovered".into()
        } else {
            "`git branch <name> <sha>` keeps the commits before removing it; uncommitted work \
             in it cannot be recovered"
                .into()
        }),
    })
}

/// A push to the remote's default branch (what `origin/HEAD` names), or, with no branch named,
/// from a current branch that is protected, is protected like a push to `main`.
fn push(
    ask: &dyn Fn(&[&str]) -> Option<String>,
    remote: Option<&str>,
    branches: &[String],
    protected: &[String],
) -> Option<Assessment> {
    let remote = remote.unwrap_or("origin");
    let current = || ask(&["symbolic-ref", "-q", "--short", "HEAD"]).map(|b| b.trim().to_string());
    let targets: Vec<String> = if branches.is_empty() {
        vec![current()?]
    } else {
        let mut targets = Vec::new();
        for branch in branches {
            targets.push(if branch == "HEAD" {
                current()?
            } else {
                branch.clone()
            });
        }
        targets
    };
    if let Some(named) = targets.iter().find(|t| protected.contains(t)) {
        return Some(Assessment::Protected(format!(
            "`{named}` is the branch it pushes, and it is protected"
        )));
    }
    let head = format!("refs/remotes/{remote}/HEAD");
    let default = ask(&["symbolic-ref", "-q", "--short", &head])?;
    let default = default
        .trim()
        .strip_prefix(&format!("{remote}/"))?
        .to_string();
    targets
        .contains(&default)
        .then(|| Assessment::Protected(format!("`{default}` is the default branch of `{remote}`")))
}

fn rewrite(
    ask: &dyn Fn(&[&str]) -> Option<String>,
    amend: bool,
    upstream: Option<&str>,
) -> Option<Assessment> {
    let range: Vec<String> = match (amend, upstream) {
        (true, _) => vec!["-n".into(), "1".into(), "HEAD".into()],
        (false, Some("--root")) => vec!["HEAD".into()],
        (false, Some(up)) => vec![format!("{up}..HEAD")],
        (false, None) => vec!["@{upstream}..HEAD".into()],
    };
    let range: Vec<&str> = range.iter().map(String::as_str).collect();
    let all = commits(ask, &range)?;
    let mut local_revs = range.clone();
    local_revs.extend(["--not", "--remotes"]);
    let local = commits(ask, &local_revs)?;
    let pushed: Vec<String> = all.into_iter().filter(|c| !local.contains(c)).collect();
    if pushed.is_empty() {
        return Some(Assessment::Clear(
            "the commits it rewrites are on no remote".into(),
        ));
    }
    Some(Assessment::Loss {
        loses: format!("rewrites {} already on a remote", sample(&pushed, "commit")),
        recovery: Some(
            "the old commits stay in the reflog: `git reflog`, then `git reset --keep <sha>`"
                .into(),
        ),
    })
}
