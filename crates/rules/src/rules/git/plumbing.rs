//! Index, working-tree and submodule commands that overwrite edits without asking:
//! `read-tree -u`, `checkout-index -f`, `rm -f`, `submodule deinit -f`, `submodule update -f`.

use super::{Invocation, about, drop_force, list, parse, rewrite, texts};
use crate::rules::opts::{self, Opt, flag, optional, valued};
use crate::rules::{GitSubject, Hit, Rule, Subject, Tier};
use crate::shell::Word;
use crate::syntax::argv;

pub static PLUMBING_DISCARD: Rule = Rule {
    id: "git.plumbing-discard",
    catches: "`git read-tree -u --reset` / `-m -u`, `git checkout-index -f` (with `-a` or paths), \
              `git rm -f` / `git rm -r -f` (not `--cached`)",
    why: "These write the index or a tree over the working tree, or delete files, without the \
          check the porcelain makes: uncommitted edits to the files they touch are gone, and \
          git never had a copy of them.",
    instead: "`git rm <paths>` refuses files with uncommitted changes; `git rm --cached <paths>` \
              only untracks them; `git stash push` first keeps the edits; `git checkout-index` \
              without `-f` skips files that exist.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "git rm -f src/lib.rs",
        "git rm -r -f src",
        "git rm -rf docs",
        "git read-tree -u --reset HEAD",
        "git read-tree -m -u HEAD~1",
        "git checkout-index -f -a",
        "git checkout-index --force -- src/lib.rs",
    ],
    passes: &[
        "git rm src/old.rs",
        "git rm --cached -r -f build",
        "git rm -r -n -f src",
        "git read-tree HEAD",
        "git read-tree -m HEAD~1",
        "git checkout-index -a",
        "git checkout-index -f --temp src/lib.rs",
        "git checkout-index -a -f --prefix=export/",
    ],
};

pub static SUBMODULE_DISCARD: Rule = Rule {
    id: "git.submodule-discard",
    catches: "`git submodule deinit -f` (or `--all --force`), `git submodule update --force`",
    why: "Forcing these throws away what was changed inside a submodule's working tree: \
          `deinit -f` deletes it, `update --force` checks the recorded commit out over it. \
          Edits and untracked files there were never in git.",
    instead: "`git submodule deinit <path>` and `git submodule update` without force both refuse \
              when a submodule has local changes; commit or stash inside the submodule first.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "git submodule deinit -f vendor/lib",
        "git submodule deinit --all --force",
        "git submodule update --force",
        "git submodule update --init --recursive -f",
    ],
    passes: &[
        "git submodule deinit vendor/lib",
        "git submodule update --init --recursive",
        "git submodule status",
        "git submodule foreach 'git status'",
    ],
};

const READ_TREE: &[Opt] = &[
    flag("m", Some('m')),
    flag("reset", None),
    flag("u", Some('u')),
    flag("i", Some('i')),
    flag("dry-run", Some('n')),
    flag("v", Some('v')),
    flag("trivial", None),
    flag("aggressive", None),
    optional("prefix"),
    optional("exclude-per-directory"),
    optional("index-output"),
    flag("no-sparse-checkout", None),
    flag("empty", None),
    flag("quiet", Some('q')),
    optional("recurse-submodules"),
    flag("no-recurse-submodules", None),
];

const CHECKOUT_INDEX: &[Opt] = &[
    flag("index", Some('u')),
    flag("quiet", Some('q')),
    flag("force", Some('f')),
    flag("no-force", None),
    flag("all", Some('a')),
    flag("no-create", Some('n')),
    valued("prefix", None),
    optional("stage"),
    flag("temp", None),
    flag("ignore-skip-worktree-bits", None),
    flag("z", Some('z')),
    flag("stdin", None),
];

const RM: &[Opt] = &[
    flag("force", Some('f')),
    flag("no-force", None),
    flag("dry-run", Some('n')),
    flag("r", Some('r')),
    flag("cached", None),
    flag("ignore-unmatch", None),
    flag("quiet", Some('q')),
    flag("sparse", None),
    valued("pathspec-from-file", None),
    flag("pathspec-file-nul", None),
];

/// `git submodule`'s own options, before its action.
const SUBMODULE: &[Opt] = &[flag("quiet", Some('q')), flag("cached", None)];

const SUBMODULE_DEINIT: &[Opt] = &[
    flag("force", Some('f')),
    flag("all", None),
    flag("quiet", Some('q')),
];

const SUBMODULE_UPDATE: &[Opt] = &[
    flag("init", None),
    flag("remote", None),
    flag("no-fetch", Some('N')),
    flag("force", Some('f')),
    flag("checkout", None),
    flag("rebase", None),
    flag("merge", None),
    flag("recursive", None),
    valued("depth", None),
    valued("jobs", Some('j')),
    valued("reference", None),
    flag("dissociate", None),
    flag("recommend-shallow", None),
    flag("no-recommend-shallow", None),
    flag("single-branch", None),
    flag("no-single-branch", None),
    valued("filter", None),
    flag("progress", None),
    flag("quiet", Some('q')),
    flag("require-init", None),
];

/// `git read-tree -u` with `--reset` (overwrites whatever is in the way) or `-m`.
pub(super) fn read_tree(inv: &Invocation) -> Option<Hit> {
    let p = parse(inv, READ_TREE);
    if !p.has("u") || !(p.has("reset") || p.has("m")) || p.has("dry-run") {
        return None;
    }
    Some(
        Hit::new(
            &PLUMBING_DISCARD,
            Tier::Destructive,
            "writes the tree over the working tree, discarding uncommitted edits and untracked \
             files in its way",
        )
        .safer("`git stash push --include-untracked` first (`git stash pop` brings it all back)")
        .recovery("none: uncommitted edits were never saved by git")
        .about(about(GitSubject::Overwrite {
            paths: Vec::new(),
            untracked: true,
        })),
    )
}

/// `git checkout-index -f` writes index entries over the files, edited or not.
pub(super) fn checkout_index(inv: &Invocation) -> Option<Hit> {
    let p = parse(inv, CHECKOUT_INDEX);
    let whole = p.has("all") || p.has("stdin");
    // `--prefix=export/` writes a copy somewhere else, not over this working tree.
    let elsewhere = p
        .value("prefix")
        .is_some_and(|dir| !matches!(dir, "" | "." | "./"));
    let forced = p.last_of(&["force", "no-force"]) == Some("force");
    if !forced || p.has("temp") || elsewhere || (!whole && p.operands.is_empty()) {
        return None;
    }
    let paths: Vec<&Word> = p.operands.iter().map(|(_, w)| *w).collect();
    let shown = if whole {
        "every tracked file".to_string()
    } else {
        list(paths.iter().map(|w| w.text.as_str()))
    };
    Some(
        Hit::new(
            &PLUMBING_DISCARD,
            Tier::Destructive,
            format!("overwrites {shown} with the index, discarding unstaged edits"),
        )
        .safer(format!(
            "`{}` skips files that exist; `git stash push` first keeps the edits",
            rewrite(inv, &drop_force(inv, &p, &["force"]))
        ))
        .recovery("none: unstaged edits were never saved by git")
        .about(overwrite(whole, &paths)),
    )
}

/// `git rm -f` deletes files even with uncommitted changes, which plain `git rm` refuses.
pub(super) fn rm(inv: &Invocation) -> Option<Hit> {
    let p = parse(inv, RM);
    let forced = p.last_of(&["force", "no-force"]) == Some("force");
    if !forced || p.has("cached") || p.has("dry-run") {
        return None;
    }
    let from_file = p.has("pathspec-from-file");
    let paths: Vec<&Word> = p.operands.iter().map(|(_, w)| *w).collect();
    if paths.is_empty() && !from_file {
        return None; // git refuses: "no pathspec given"
    }
    let shown = if from_file {
        "the files listed in the pathspec file".to_string()
    } else {
        list(paths.iter().map(|w| w.text.as_str()))
    };
    Some(
        Hit::new(
            &PLUMBING_DISCARD,
            Tier::Destructive,
            format!("deletes {shown} even with uncommitted edits, which are then gone"),
        )
        .safer(format!(
            "`{}` refuses files with uncommitted changes; add `--cached` to keep the files",
            rewrite(inv, &drop_force(inv, &p, &["force"]))
        ))
        .recovery("committed content: `git checkout HEAD -- <paths>`; uncommitted edits cannot be recovered")
        .about(overwrite(from_file, &paths)),
    )
}

/// The subject for overwritten tracked paths: all of them when `whole`.
fn overwrite(whole: bool, paths: &[&Word]) -> Subject {
    if whole {
        return about(GitSubject::Overwrite {
            paths: Vec::new(),
            untracked: false,
        });
    }
    match texts(paths) {
        Some(paths) => about(GitSubject::Overwrite {
            paths,
            untracked: false,
        }),
        None => Subject::Nothing,
    }
}

/// `git submodule [--quiet] deinit -f ...` and `git submodule [--quiet] update --force ...`.
pub(super) fn submodule(inv: &Invocation) -> Option<Hit> {
    let head = opts::parse_head(inv.args, SUBMODULE);
    if head.unknown {
        return None;
    }
    let at = head.stopped_at?;
    let (action, rest) = inv.args.get(at..)?.split_first()?;
    let action = action.text.as_str();
    let table = match action {
        "deinit" => SUBMODULE_DEINIT,
        "update" => SUBMODULE_UPDATE,
        _ => return None,
    };
    let p = opts::parse(rest, table);
    if !p.has("force") {
        return None;
    }
    let paths: Vec<&Word> = p.operands.iter().map(|(_, w)| *w).collect();
    let shown = if paths.is_empty() {
        "every submodule".to_string()
    } else {
        format!(
            "the submodule {}",
            list(paths.iter().map(|w| w.text.as_str()))
        )
    };
    let loses = match action {
        "deinit" => {
            format!("deletes the working tree of {shown}, with any edits and untracked files in it")
        }
        _ => format!("checks out the recorded commit over {shown}, discarding edits made there"),
    };
    // The same line without the force: `-f`, `--force` and the `f` of a cluster go.
    let unforced: Vec<String> = rest
        .iter()
        .enumerate()
        .filter_map(
            |(i, w)| match p.opts.iter().find(|o| o.word == i && o.name == "force") {
                Some(o) if o.spelling == argv::Spelling::Long => None,
                Some(_) => Some(w.text.replace('f', "")).filter(|t| t.len() > 1),
                None => Some(w.shell_quoted()),
            },
        )
        .collect();
    let mut line: Vec<String> = inv
        .args
        .iter()
        .take(at + 1)
        .map(Word::shell_quoted)
        .collect();
    line.extend(unforced);
    Some(
        Hit::new(&SUBMODULE_DISCARD, Tier::Destructive, loses)
            .safer(format!(
                "`{}` refuses when a submodule has local changes",
                inv.line(&line)
            ))
            .recovery("none for uncommitted work inside the submodules")
            .about(match texts(&paths) {
                Some(paths) => about(GitSubject::Submodules { paths }),
                None => Subject::Nothing,
            }),
    )
}
