//! git-extras: shell scripts installed as `git-<name>`, so git runs them as `git <name>`.
//! Several wrap the most destructive git commands (`git clear` is `git clean -dfx` and `git
//! reset --hard`) under names git's own rules do not know. Read from the scripts themselves.
//!
//! A prompt some of them print (`git clear`, `git sync`) is not a safeguard: from an agent's
//! shell the agent is the one who answers it.

use crate::rules::git::list;
use crate::rules::packs::args::operands;
use crate::rules::{GitSubject, Hit, Rule, Subject, Tier};
use crate::shell::Word;
use crate::syntax::argv;

pub static EXTRAS_DISCARD: Rule = Rule {
    id: "vcs.git-extras-discard",
    catches: "git-extras that throw away uncommitted work: `git clear` and `git clear-soft` \
              (`clean` plus `reset --hard`), `git reset-file`, `git undo --hard`/`-h`, `git \
              sync` (unless `--help`), `git force-clone` onto an existing repository and `git \
              fresh-branch`. (`git bulk CMD` is judged as `git CMD`, run in every repository of \
              its workspace.)",
    why: "Each runs `git reset --hard`, `git checkout -- FILE` or `git clean -f` under another \
          name: uncommitted edits, untracked files and (for `clear`, `sync` and \
          `fresh-branch`) ignored files such as `.env` and local databases are deleted, and git \
          keeps no copy of any of them.",
    instead: "`git status` and `git stash push --include-untracked` (brought back with `git \
              stash pop`) first; `git undo` without `--hard` keeps the changes; `git clone URL \
              NEW-DIR` instead of `force-clone`; `git switch --orphan NAME` instead of \
              `fresh-branch`.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "git clear",
        "git clear -f",
        "git clear-soft",
        "git reset-file path/to/file",
        "git reset-file src/app.py a1b2c3d",
        "git undo --hard",
        "git undo --hard 3",
        "git sync origin main",
        "git sync -s",
        "git force-clone https://github.com/me/repo.git ./repo_dir",
        "git fresh-branch docs",
        "git-clear --force",
    ],
    passes: &[
        "git undo",
        "git undo 3",
        "git undo --soft 2",
        "git sync --help",
        "git clear --help",
        "git bulk --listall",
        "git bulk -a fetch",
        "git abort",
        "git delete-merged-branches",
        "git info",
    ],
};

pub static EXTRAS_DELETE: Rule = Rule {
    id: "vcs.git-extras-delete",
    catches: "`git delete-branch` (local with `-D`, and on the remote), `git delete-tag` (local \
              and remote), `git delete-submodule`, `git delete-gone-branches` (unless `-n`)",
    why: "`delete-branch` force-deletes the local branch, merged or not, then deletes the branch \
          on the remote, where other people's clones are the only copies left. `delete-tag` \
          deletes a release tag everywhere at once, `delete-submodule` discards the \
          submodule's working tree with everything uncommitted in it, and \
          `delete-gone-branches` force-deletes every branch whose upstream disappeared, with \
          its unpushed commits.",
    instead: "`git branch -d NAME` deletes a local branch only when it is merged; `git branch \
              -vv` and `git log origin/NAME..NAME` show what a branch has that the remote lacks; \
              `git delete-gone-branches -n` lists what it would delete; leave remote branches \
              and tags to their owners.",
    protected_when: Some("when a branch it deletes is a protected branch"),
    strict_only: false,
    stops: &[
        "git delete-branch feature/x",
        "git delete-branch branch_name1 branch_name2",
        "git delete-tag v1.2.0",
        "git delete-submodule path/to/submodule",
        "git delete-gone-branches -f",
        "git -C ~/src/app delete-branch old",
        "git-delete-branch feature/x",
    ],
    passes: &[
        "git delete-gone-branches -n",
        "git delete-merged-branches",
        "git delete-squashed-branches feature",
        "git branch -d feature/x",
        "git show-merged-branches",
        "git rename-branch old new",
    ],
};

pub static EXTRAS_REWRITE: Rule = Rule {
    id: "vcs.git-extras-rewrite",
    catches: "`git obliterate FILE...` and `git reauthor` (both `git filter-branch` over every \
              branch and tag)",
    why: "They rewrite every commit of every branch and tag at once: `obliterate` removes the \
          files from all of history, `reauthor` changes author and committer identities. Every \
          commit id changes, so every clone, open pull request and pinned reference no longer \
          matches, and a forced push then replaces the shared history.",
    instead: "Ask the user first. To stop tracking a file, `git rm --cached FILE` and commit; to \
              remove a secret from history, work on a fresh mirror clone (`git clone --mirror`) \
              with `git filter-repo`, so the original stays as it is.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "git obliterate secrets.env",
        "git obliterate file_1 file_2 -- a1b2c3d..HEAD",
        "git reauthor --old-email old@example.com --correct-email new@example.com",
        "git reauthor --all --use-config",
    ],
    passes: &[
        "git reauthor -h",
        "git authors",
        "git summary",
        "git rm --cached secrets.env",
    ],
};

/// The git-extras that this pack reads, as `git <name>`.
const NAMES: &[&str] = &[
    "bulk",
    "clear",
    "clear-soft",
    "delete-branch",
    "delete-gone-branches",
    "delete-submodule",
    "delete-tag",
    "force-clone",
    "fresh-branch",
    "obliterate",
    "reauthor",
    "reset-file",
    "sync",
    "undo",
];

/// `git [global options] <extra> ...`.
pub(super) fn git(args: &[Word]) -> Vec<Hit> {
    let read = crate::syntax::git::read(args);
    match read.subcommand().and_then(Word::value) {
        Some(name) if NAMES.contains(&name) => extra(name, read.rest(), read.prefix()),
        _ => Vec::new(),
    }
}

/// The script `git-<name>` run with `args`, under git's global options `globals`.
pub(super) fn extra(name: &str, args: &[Word], globals: &[Word]) -> Vec<Hit> {
    // git turns `git <name> --help` into `git help <name>`.
    if args.first().is_some_and(|w| w.text == "--help") {
        return Vec::new();
    }
    let texts: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
    let asks_usage = |flags: &[&str]| texts.iter().any(|t| flags.contains(t));
    let in_repo = |what: GitSubject| match globals.iter().all(|w| w.literal) {
        true => Subject::Git {
            globals: globals.iter().map(|w| w.text.clone()).collect(),
            what,
        },
        false => Subject::Nothing,
    };
    let stash = "`git stash push --include-untracked` first (`git stash pop` brings it all back)";
    let hit = match name {
        "bulk" => return bulk(args),
        "clear" if !asks_usage(&["-h", "--help", "?"]) => discard(
            "runs `git clean -d -f -x` and `git reset --hard`: every untracked and ignored file \
             (`.env`, local databases) and every uncommitted change is deleted",
            stash,
        ),
        "clear-soft" => discard(
            "runs `git clean -d -f` and `git reset --hard`: every untracked file and every \
             uncommitted change is deleted",
            stash,
        ),
        "reset-file" => {
            let Some(file) = args.first() else {
                return Vec::new();
            };
            let to = args.get(1).map_or("HEAD", |w| w.text.as_str());
            discard(
                &format!(
                    "overwrites `{}` with its version at `{to}`, discarding its uncommitted edits",
                    file.text
                ),
                &format!("`git stash push -- {}` first keeps the edits", file.shell_quoted()),
            )
            .about(match file.value() {
                Some(path) => in_repo(GitSubject::Discard {
                    paths: vec![path.to_string()],
                }),
                None => Subject::Nothing,
            })
        }
        "undo" if matches!(texts.first(), Some(&("--hard" | "-h"))) => {
            let count = texts.get(1).copied().unwrap_or("1");
            if !count.bytes().all(|b| b.is_ascii_digit()) {
                return Vec::new(); // the script refuses a count that is not a number
            }
            discard(
                &format!(
                    "runs `git reset --hard HEAD~{count}`: the last {count} commit(s) leave the \
                     branch and every uncommitted change is discarded"
                ),
                "`git undo` (soft) keeps the undone commits' changes in the working tree",
            )
            .about(in_repo(GitSubject::ResetHard {
                target: Some(format!("HEAD~{count}")),
            }))
            .recovery(
                "the undone commits stay in `git reflog` for a while; uncommitted changes are gone",
            )
        }
        "sync" if !asks_usage(&["-h", "--help"]) => {
            let soft = asks_usage(&["-s", "--soft"]);
            discard(
                match soft {
                    true => "runs `git reset --hard` to the remote branch: local commits not on it and every uncommitted change are discarded",
                    false => "runs `git reset --hard` to the remote branch and `git clean -d -f -x`: local commits not on it, uncommitted changes, untracked and ignored files are all deleted",
                },
                "`git fetch` then `git status` to compare; `git pull --rebase` keeps local work",
            )
        }
        "force-clone" if !asks_usage(&["-h", "--help"]) => {
            let ops = operands(args, &["-b", "--branch"]);
            let dir = ops.get(1).copied().unwrap_or("the destination");
            discard(
                &format!(
                    "if `{dir}` is already a git repository, resets it to the remote: its local \
                     branches, other remotes, uncommitted changes and untracked files are deleted"
                ),
                "`git clone URL NEW-DIR` into a new folder",
            )
        }
        "fresh-branch" => discard(
            "removes the index and runs `git clean -fdx`: every untracked and ignored file is \
             deleted",
            "`git switch --orphan NAME` starts an empty branch and keeps untracked files",
        ),
        "delete-branch" if !args.is_empty() => {
            let names = &texts;
            Hit::new(
                &EXTRAS_DELETE,
                Tier::Destructive,
                format!(
                    "force-deletes the local branch {} (`git branch -D`, merged or not) and \
                     deletes it on its remote",
                    list(names.iter().copied())
                ),
            )
            .branches(names)
            .safer("`git branch -d NAME` deletes the local branch only if it is merged; leave the remote branch to its owners")
            .recovery("the local tip stays in `git reflog` for a while (`git branch NAME <sha>`); the remote branch only from someone's clone")
        }
        "delete-tag" if !args.is_empty() => Hit::new(
            &EXTRAS_DELETE,
            Tier::Destructive,
            format!(
                "deletes the tag {} here and on the remote",
                list(texts.iter().copied())
            ),
        )
        .safer("`git tag -l` and `git show TAG` to look at it; leave published tags alone")
        .recovery("`git tag NAME <sha>` and a push, if the commit it named is known"),
        "delete-submodule" => {
            let ops: Vec<&str> = texts.iter().copied().filter(|t| *t != "--force").collect();
            Hit::new(
                &EXTRAS_DELETE,
                Tier::Destructive,
                format!(
                    "removes the submodule {}: `git submodule deinit -f` discards its working \
                     tree with every uncommitted change and untracked file in it",
                    list(ops.iter().take(1).copied())
                ),
            )
            .safer("`git -C PATH status` first; commit and push inside the submodule")
            .recovery("commits in the submodule stay under `.git/modules`; uncommitted work is gone")
        }
        "delete-gone-branches" if !asks_usage(&["-n", "--dry-run"]) => Hit::new(
            &EXTRAS_DELETE,
            Tier::Destructive,
            "force-deletes (`git branch -D`) every local branch whose upstream is gone, with any \
             commits that were never merged",
        )
        .safer("`git delete-gone-branches -n` lists them; `git branch -d NAME` deletes merged ones only")
        .recovery("the tips stay in `git reflog` for a while (`git branch NAME <sha>`)"),
        "obliterate" if !args.is_empty() => {
            let files: Vec<&str> = texts.iter().copied().take_while(|t| *t != "--").collect();
            rewrite(format!(
                "rewrites every commit (`git filter-branch`) to remove {} from all of history",
                list(files.iter().copied())
            ))
        }
        "reauthor" if !asks_usage(&["-h"]) => rewrite(
            "rewrites every commit and tag (`git filter-branch`) to change author and committer \
             identities"
                .to_string(),
        ),
        _ => return Vec::new(),
    };
    vec![hit]
}

/// The options of `git bulk` that run a git command; any other (`--addworkspace`, `--help`)
/// only keeps the workspaces' books.
struct BulkOptions;

impl argv::Options for BulkOptions {
    fn long(&self, name: &str) -> Option<argv::Takes> {
        matches!(name, "quiet" | "no-follow-symlinks" | "no-follow-hidden")
            .then_some(argv::Takes::Nothing)
    }
    fn short(&self, letter: char) -> Option<argv::Takes> {
        match letter {
            'w' => Some(argv::Takes::Value),
            'a' | 'g' | 'q' => Some(argv::Takes::Nothing),
            _ => None,
        }
    }
}

fn discard(loses: &str, safer: &str) -> Hit {
    Hit::new(&EXTRAS_DISCARD, Tier::Destructive, loses)
        .safer(safer)
        .recovery("none: git keeps no copy of uncommitted changes or untracked files")
}

fn rewrite(loses: String) -> Hit {
    Hit::new(&EXTRAS_REWRITE, Tier::Destructive, loses)
        .safer("ask the user; work on a `git clone --mirror` copy with `git filter-repo` instead")
        .recovery("`refs/original/` keeps the old refs until it is deleted; other clones keep the old history")
}

/// `git bulk [options] <git command>`: the git command runs in every repository of the
/// workspace, so it is judged as that command, with no repository to look at.
fn bulk(args: &[Word]) -> Vec<Hit> {
    let head = argv::read_head(args, argv::Style::Getopt, &BulkOptions);
    // Workspace bookkeeping, unknown options: no git command runs.
    if head.unknown {
        return Vec::new();
    }
    let Some(command) = head.stopped_at.and_then(|at| args.get(at..)) else {
        return Vec::new();
    };
    let shown: Vec<String> = command.iter().map(Word::shell_quoted).collect();
    let mut hits = crate::rules::git::check(command);
    hits.extend(git(command));
    for hit in &mut hits {
        hit.subject = Subject::Nothing;
        hit.loses = format!(
            "runs `git {}` in every repository of the workspace, which {}",
            shown.join(" "),
            hit.loses
        );
    }
    hits
}
