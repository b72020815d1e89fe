//! Deleting branches, tags and refs.

use super::checkout::{CHECKOUT, SWITCH};
use super::{Invocation, about, list, parse};
use crate::rules::opts::Parsed;
use crate::rules::opts::{self, Opt, flag, optional, valued};
use crate::rules::{GitSubject, Hit, Rule, Subject, Tier};
use crate::shell::Word;
use crate::shell::word::quote;

pub static BRANCH_FORCE_DELETE: Rule = Rule {
    id: "git.branch-force-delete",
    catches: "`git branch -D`, `-d -f`, `-df`, `--delete --force`",
    why: "A forced delete removes the branch even when its commits are merged nowhere; those \
          commits are then reachable only from the reflog until it expires.",
    instead: "`git branch -d <branch>` deletes only a branch that is fully merged.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "git branch -D feature/x",
        "git branch -df old",
        "git branch --delete --force old",
    ],
    passes: &[
        "git branch -d merged",
        "git branch feature",
        "git branch -dr origin/old",
    ],
};

pub static TAG_DELETE: Rule = Rule {
    id: "git.tag-delete",
    catches: "`git tag -d`/`--delete`",
    why: "Release tags are how people find a version; deleting one loses the name and, for an \
          annotated tag, its message and signature.",
    instead: "Ask the user first; `git tag -l` lists tags.",
    protected_when: None,
    strict_only: false,
    stops: &["git tag -d v1.0", "git tag --delete v1.0"],
    passes: &["git tag v1.0", "git tag -l", "git tag -a v1.1 -m release"],
};

pub static REF_DELETE: Rule = Rule {
    id: "git.ref-delete",
    catches: "`git update-ref -d`",
    why: "Deleting a ref directly skips every safety check `git branch -d` makes; commits only \
          it pointed to become unreachable.",
    instead: "`git branch -d <branch>` for branches; ask the user for anything else.",
    protected_when: None,
    strict_only: false,
    stops: &["git update-ref -d refs/heads/old"],
    passes: &["git update-ref refs/heads/new HEAD", "git show-ref"],
};

pub static BRANCH_MOVE: Rule = Rule {
    id: "git.branch-move",
    catches: "`git branch -f <branch> <start>`, `git checkout -B`, `git switch -C`/`--force-create`, \
              `git fetch` with `+<src>:<branch>` or `--force` into a local branch, \
              `git push . +<src>:<branch>`; and `git branch -M`/`-C` (or `--move --force`, \
              `--copy --force`) and `git update-ref <ref> <new>` when repository context shows \
              the branch they overwrite exists and holds commits nothing else reaches",
    why: "Moving a branch that already exists drops the commits only it held: they are then \
          reachable from the reflog alone, which expires. Nothing asks first, unlike \
          `git branch -d` or a fast-forward. `update-ref` mostly creates refs, so it is stopped \
          only when the repository shows a loss (with the rules alone it passes); so is \
          `git branch -M`, whose everyday use renames onto a name that is still free.",
    instead: "Create a new branch (`git branch <new> <start>`, `git checkout -b`, `git switch -c`, \
              `git branch -m`/`-c` without force all refuse an existing name); move an existing \
              one only forward with `git push . <start>:refs/heads/<branch>`; fetch into \
              `refs/remotes/...` or without `+`.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "git branch -f main origin/main",
        "git checkout -B main origin/main",
        "git switch -C feature HEAD~3",
        "git fetch origin +main:refs/heads/main",
        "git fetch --force origin main:main",
        "git push . +HEAD~2:refs/heads/feature",
    ],
    passes: &[
        "git branch feature",
        "git branch -m old new",
        "git branch -M main",
        "git checkout -b feature origin/main",
        "git switch -c feature",
        "git fetch origin main:refs/remotes/origin/main",
        "git fetch origin main:feature",
        "git push . HEAD:refs/heads/feature",
        "git update-ref refs/heads/new HEAD",
    ],
};

const BRANCH: &[Opt] = &[
    flag("delete", Some('d')),
    flag("D", Some('D')),
    flag("force", Some('f')),
    flag("move", Some('m')),
    flag("M", Some('M')),
    flag("copy", Some('c')),
    flag("C", Some('C')),
    flag("remotes", Some('r')),
    flag("all", Some('a')),
    flag("list", Some('l')),
    flag("verbose", Some('v')),
    flag("quiet", Some('q')),
    optional("track"),
    flag("t", Some('t')),
    flag("no-track", None),
    valued("set-upstream-to", Some('u')),
    flag("unset-upstream", None),
    optional("color"),
    flag("no-color", None),
    optional("column"),
    flag("no-column", None),
    valued("sort", None),
    optional("merged"),
    optional("no-merged"),
    optional("contains"),
    optional("no-contains"),
    optional("points-at"),
    valued("format", None),
    flag("show-current", None),
    flag("edit-description", None),
    flag("create-reflog", None),
    flag("recurse-submodules", None),
    flag("ignore-case", Some('i')),
    flag("omit-empty", None),
    optional("abbrev"),
    flag("no-abbrev", None),
];

const TAG: &[Opt] = &[
    flag("delete", Some('d')),
    flag("list", Some('l')),
    flag("annotate", Some('a')),
    flag("sign", Some('s')),
    valued("local-user", Some('u')),
    flag("force", Some('f')),
    valued("message", Some('m')),
    valued("file", Some('F')),
    flag("verify", Some('v')),
    optional("n"),
];

const FETCH: &[Opt] = &[
    flag("all", None),
    flag("multiple", None),
    flag("force", Some('f')),
    flag("no-force", None),
    flag("dry-run", None),
    flag("stdin", None),
    flag("append", Some('a')),
    flag("atomic", None),
    valued("depth", None),
    valued("deepen", None),
    valued("shallow-since", None),
    valued("shallow-exclude", None),
    flag("unshallow", None),
    flag("update-shallow", None),
    valued("negotiation-tip", None),
    flag("negotiate-only", None),
    flag("keep", Some('k')),
    flag("prefetch", None),
    flag("prune", Some('p')),
    flag("prune-tags", Some('P')),
    flag("no-tags", Some('n')),
    flag("tags", Some('t')),
    valued("refmap", None),
    optional("recurse-submodules"),
    flag("no-recurse-submodules", None),
    valued("jobs", Some('j')),
    valued("submodule-prefix", None),
    valued("recurse-submodules-default", None),
    flag("update-head-ok", Some('u')),
    valued("upload-pack", None),
    flag("quiet", Some('q')),
    flag("verbose", Some('v')),
    flag("progress", None),
    valued("server-option", Some('o')),
    flag("show-forced-updates", None),
    flag("no-show-forced-updates", None),
    flag("ipv4", Some('4')),
    flag("ipv6", Some('6')),
    valued("filter", None),
    flag("refetch", None),
    flag("write-fetch-head", None),
    flag("no-write-fetch-head", None),
    flag("set-upstream", None),
    flag("auto-maintenance", None),
    flag("no-auto-maintenance", None),
    flag("auto-gc", None),
    flag("no-auto-gc", None),
    flag("write-commit-graph", None),
    flag("no-write-commit-graph", None),
    flag("porcelain", None),
];

const FOR_EACH_REF: &[Opt] = &[
    valued("format", None),
    valued("count", None),
    valued("sort", None),
    valued("points-at", None),
    valued("merged", None),
    valued("no-merged", None),
    valued("contains", None),
    valued("no-contains", None),
    valued("exclude", None),
    valued("start-after", None),
    optional("color"),
];

const UPDATE_REF: &[Opt] = &[
    flag("delete", Some('d')),
    valued("m", Some('m')),
    flag("no-deref", None),
    flag("create-reflog", None),
    flag("stdin", None),
    flag("z", Some('z')),
];

pub(super) fn branch(inv: &Invocation) -> Option<Hit> {
    let p = parse(inv, BRANCH);
    let deleting = p.has("delete") || p.has("D");
    if !deleting {
        return branch_reset(inv, &p);
    }
    let forced = p.has("D") || (p.has("delete") && p.has("force"));
    if !deleting || !forced || p.has("remotes") {
        return None;
    }
    let names: Vec<&str> = p.operand_texts().collect();
    if names.is_empty() {
        return None; // git refuses: "branch name required"
    }
    let safer = format!(
        "`{}` deletes only fully merged branches",
        inv.line(
            &std::iter::once("-d".to_string())
                .chain(names.iter().map(|n| quote(n)))
                .collect::<Vec<_>>()
        )
    );
    Some(
        Hit::new(
            &BRANCH_FORCE_DELETE,
            Tier::Destructive,
            format!("deletes {} even if unmerged; its commits become reachable only from the reflog", list(names.iter().copied())),
        )
        .safer(safer)
        .recovery("`git branch <name> <sha>` with the sha git printed (`was abc1234`) or found in `git reflog`")
        .about(match p.operands.iter().all(|(_, w)| w.literal) {
            true => about(GitSubject::BranchDelete { names: names.iter().map(|n| n.to_string()).collect() }),
            false => Subject::Nothing,
        }),
    )
}

pub(super) fn tag(inv: &Invocation) -> Option<Hit> {
    let p = parse(inv, TAG);
    if !p.has("delete") {
        return None;
    }
    let names: Vec<&str> = p.operand_texts().collect();
    Some(
        Hit::new(
            &TAG_DELETE,
            Tier::Destructive,
            format!("deletes the tag {}", list(names.iter().copied())),
        )
        .safer("ask the user before deleting tags; `git tag -l` lists them")
        .recovery("`git tag <name> <sha>` with the sha git printed (`was abc1234`)"),
    )
}

pub(super) fn update_ref(inv: &Invocation) -> Option<Hit> {
    let p = parse(inv, UPDATE_REF);
    if !p.has("delete") {
        return ref_move(inv, &p);
    }
    let refs: Vec<&str> = p.operand_texts().take(1).collect();
    Some(
        Hit::new(
            &REF_DELETE,
            Tier::Destructive,
            format!(
                "deletes the ref {} with no merge check",
                list(refs.iter().copied())
            ),
        )
        .safer("`git branch -d <branch>` for a branch (refuses unmerged work)")
        .recovery("`git update-ref <ref> <sha>` with the sha from `git reflog`")
        .about(match p.operands.first() {
            Some((_, w)) if w.literal => about(GitSubject::RefDelete {
                name: w.text.clone(),
            }),
            _ => Subject::Nothing,
        }),
    )
}

/// `git update-ref --stdin [-z]`: each `delete <ref>` instruction, and each `update <ref>`
/// to the zero id, deletes a ref as `update-ref -d` does; an `update` to another commit moves
/// it, which only the repository shows to lose anything. The instructions are the text the
/// line feeds it, or every ref a `git for-each-ref --format='delete %(refname)'` before it
/// lists.
pub(super) fn update_ref_stdin(
    inv: &Invocation,
    input: Option<&str>,
    fed_by: &[Vec<Word>],
) -> Option<Hit> {
    let p = parse(inv, UPDATE_REF);
    if !p.has("stdin") {
        return None;
    }
    let (deleted, moved) = match input {
        Some(text) => instructions(text, p.has("z")),
        None => (listed_deletions(fed_by)?, Vec::new()),
    };
    if deleted.is_empty() {
        let name = moved.first()?;
        let mut hit = Hit::new(
            &BRANCH_MOVE,
            Tier::Destructive,
            format!(
                "moves {} from instructions on stdin; commits only they held become reachable \
                 only from the reflog",
                list(moved.iter().map(String::as_str))
            ),
        )
        .safer(format!(
            "`git branch <backup> {}` first keeps its commits; `create <ref> <new>` only \
             creates a ref",
            quote(name)
        ))
        .recovery(format!(
            "`git update-ref {} {}@{{1}}` puts it back while the reflog has it",
            quote(name),
            quote(name)
        ))
        .about(about(GitSubject::BranchMove {
            refs: moved.clone(),
            to: None,
            by_path: false,
        }));
        hit.needs_confirmation = true;
        return Some(hit);
    }
    let subject = match deleted.as_slice() {
        [name] if !name.contains(' ') => about(GitSubject::RefDelete { name: name.clone() }),
        _ => Subject::Nothing,
    };
    Some(
        Hit::new(
            &REF_DELETE,
            Tier::Destructive,
            format!(
                "deletes the ref {}, fed on stdin, with no merge check",
                list(deleted.iter().map(String::as_str))
            ),
        )
        .safer(
            "`git branch -d <branch>` for a branch (refuses unmerged work); `git for-each-ref` \
             lists refs first",
        )
        .recovery("`git update-ref <ref> <sha>` with the sha from `git reflog`")
        .about(subject),
    )
}

/// The refs `update-ref --stdin` instructions delete and those they move. Records end at a
/// newline, or with `-z` at a NUL, where an `update`'s ids are records of their own.
fn instructions(text: &str, nul: bool) -> (Vec<String>, Vec<String>) {
    let records: Vec<&str> = if nul {
        text.split('\0').collect()
    } else {
        text.lines().collect()
    };
    let zero = |oid: &str| oid.is_empty() || oid.bytes().all(|b| b == b'0');
    let (mut deleted, mut moved) = (Vec::new(), Vec::new());
    for (i, record) in records.iter().enumerate() {
        let mut fields = record.trim_end_matches('\r').split(' ');
        let (Some(verb), Some(name)) = (fields.next(), fields.next()) else {
            continue;
        };
        match verb {
            "delete" => deleted.push(name.to_string()),
            "update" => {
                let new = if nul {
                    records.get(i + 1).copied()
                } else {
                    fields.next()
                };
                match new {
                    Some(new) if zero(new) => deleted.push(name.to_string()),
                    Some(_) => moved.push(name.to_string()),
                    None => {}
                }
            }
            _ => {}
        }
    }
    (deleted, moved)
}

/// `git for-each-ref --format='delete %(refname)' [patterns]` piped into `update-ref
/// --stdin`: every ref it lists is deleted. Named by its patterns, or as every ref.
fn listed_deletions(fed_by: &[Vec<Word>]) -> Option<Vec<String>> {
    let first = fed_by.first()?;
    let at = first.iter().position(|w| w.text == "for-each-ref")?;
    let p = opts::parse(first.get(at + 1..)?, FOR_EACH_REF);
    if !p.value("format")?.trim_start().starts_with("delete ") {
        return None;
    }
    let patterns: Vec<String> = p.operand_texts().map(str::to_string).collect();
    // With no pattern it lists every ref.
    Some(if patterns.is_empty() {
        vec!["refs/".to_string()]
    } else {
        patterns
    })
}

/// `git branch -f <b> [<start>]`, `git branch -M/-C [<old>] <new>` and their long spellings.
fn branch_reset(inv: &Invocation, p: &Parsed) -> Option<Hit> {
    if p.has("remotes") || p.has("list") || p.has("all") {
        return None;
    }
    let operands: Vec<&Word> = p.operands.iter().map(|(_, w)| *w).collect();
    let renaming = p.has("move") || p.has("M");
    let copying = p.has("copy") || p.has("C");
    if renaming || copying {
        let forced = p.has("M") || p.has("C") || p.has("force");
        let (from, to) = match operands.as_slice() {
            [to] => (None, *to),
            [from, to] => (Some(*from), *to),
            _ => return None,
        };
        if !forced {
            return None;
        }
        let (verb, flag) = if renaming {
            ("renames", "-m")
        } else {
            ("copies", "-c")
        };
        let source = from.map_or("the current branch".to_string(), |w| {
            format!("`{}`", w.text)
        });
        let mut safer = vec![flag.to_string()];
        safer.extend(operands.iter().map(|w| w.shell_quoted()));
        let hit = Hit::new(
            &BRANCH_MOVE,
            Tier::Destructive,
            format!(
                "{verb} {source} over `{}`, should it exist; commits only `{}` held become reachable only from the reflog",
                to.text, to.text
            ),
        )
        .safer(format!("`{}` refuses when `{}` exists", inv.line(&safer), to.text));
        // `git branch -M main` is the usual rename before a first push, onto a name that
        // does not exist: it stands only when the repository shows commits at stake.
        let mut hit = moved(hit, to, from.map_or(Some("HEAD"), |w| w.value()));
        hit.needs_confirmation = true;
        return Some(hit);
    }
    if !p.has("force") {
        return None;
    }
    let (name, start) = match operands.as_slice() {
        [name] => (*name, None),
        [name, start] => (*name, Some(*start)),
        _ => return None,
    };
    let start_text = start.map_or("HEAD", |w| w.text.as_str());
    let hit = Hit::new(
        &BRANCH_MOVE,
        Tier::Destructive,
        format!(
            "moves the branch `{}` to `{start_text}`, should it exist; commits only it held become reachable only from the reflog",
            name.text
        ),
    )
    .safer(format!(
        "`git push . {}:refs/heads/{}` moves it only forward (keeping every commit); `git branch <new-name> {}` makes a new branch",
        quote(start_text),
        name.text,
        quote(start_text)
    ));
    Some(moved(hit, name, start.map_or(Some("HEAD"), |w| w.value())))
}

/// `git checkout -B <b> [<start>]` and `git switch -C <b> [<start>]`: create the branch, or
/// reset it when it exists.
pub(super) fn switch_reset(inv: &Invocation) -> Option<Hit> {
    let (table, force_create, create) = match inv.sub {
        "checkout" => (CHECKOUT, "B", "-b"),
        _ => (SWITCH, "force-create", "-c"),
    };
    let p = parse(inv, table);
    let given = p.opts.iter().rev().find(|o| o.name == force_create)?;
    let value = given.value?;
    let name_word = match inv.args.get(given.word + 1) {
        // The value came from the next word, or was attached to the option.
        Some(next) if next.text == value => next.clone(),
        _ => Word {
            text: value.to_string(),
            literal: inv.args.get(given.word).is_some_and(|w| w.literal),
            temp: None,
        },
    };
    let start = p.operands.first().map(|(_, w)| *w);
    let start_text = start.map_or("HEAD", |w| w.text.as_str());
    let mut safer = vec![create.to_string(), name_word.shell_quoted()];
    safer.extend(start.map(Word::shell_quoted));
    let hit = Hit::new(
        &BRANCH_MOVE,
        Tier::Destructive,
        format!(
            "resets the branch `{}` to `{start_text}`, should it exist; commits only it held become reachable only from the reflog",
            name_word.text
        ),
    )
    .safer(format!(
        "`{}` refuses when `{}` exists",
        inv.line(&safer),
        name_word.text
    ));
    Some(moved(
        hit,
        &name_word,
        start.map_or(Some("HEAD"), |w| w.value()),
    ))
}

/// `git update-ref [--no-deref] <ref> <new> [<old>]`: only the repository shows whether the
/// ref exists and what it would leave behind, so this stands only on its word.
fn ref_move(inv: &Invocation, p: &Parsed) -> Option<Hit> {
    if p.has("stdin") {
        return None;
    }
    let operands: Vec<&Word> = p.operands.iter().map(|(_, w)| *w).collect();
    let (name, new) = match operands.as_slice() {
        [name, new] => (*name, *new),
        // An all-zero old value means "only if it does not exist yet".
        [_, _, old]
            if old.literal && old.text.len() >= 40 && old.text.bytes().all(|b| b == b'0') =>
        {
            return None;
        }
        [name, new, _] => (*name, *new),
        _ => return None,
    };
    let zero = "0".repeat(40);
    let safer = [name.shell_quoted(), new.shell_quoted(), zero];
    let mut hit = Hit::new(
        &BRANCH_MOVE,
        Tier::Destructive,
        format!(
            "moves `{}` to `{}`; commits only it held become reachable only from the reflog",
            name.text, new.text
        ),
    )
    .safer(format!(
        "`git branch <backup> {}` first keeps its commits; `{}` only creates the ref",
        name.shell_quoted(),
        inv.line(&safer)
    ))
    .recovery(format!(
        "`git update-ref {} {}@{{1}}` puts it back while the reflog has it",
        name.shell_quoted(),
        name.shell_quoted()
    ));
    hit.subject = match (name.value(), new.value()) {
        (Some(n), to) => about(GitSubject::BranchMove {
            refs: vec![n.to_string()],
            to: to.map(str::to_string),
            by_path: false,
        }),
        _ => Subject::Nothing,
    };
    hit.needs_confirmation = true;
    Some(hit)
}

/// `git fetch <remote> <refspec>...` that forces an update of a local branch: a `+` refspec,
/// or `--force`, with a destination outside `refs/remotes/` and `refs/tags/`.
pub(super) fn fetch(inv: &Invocation) -> Option<Hit> {
    let p = parse(inv, FETCH);
    if p.has("dry-run") || p.has("multiple") || p.has("all") || p.has("stdin") {
        return None;
    }
    let forced = p.last_of(&["force", "no-force"]) == Some("force");
    let mut moved_refs: Vec<(usize, &Word, String)> = Vec::new();
    for (at, w) in p.operands.iter().skip(1) {
        let spec = w.text.as_str();
        let plus = spec.starts_with('+');
        let Some((_, dst)) = spec.trim_start_matches('+').split_once(':') else {
            continue; // no destination: only FETCH_HEAD and remote-tracking refs move
        };
        let local = dst.starts_with("refs/heads/") || !(dst.is_empty() || dst.starts_with("refs/"));
        if local && (plus || forced) {
            let full = match dst.strip_prefix("refs/heads/") {
                Some(_) => dst.to_string(),
                None => format!("refs/heads/{dst}"),
            };
            moved_refs.push((*at, *w, full));
        }
    }
    if moved_refs.is_empty() {
        return None;
    }
    let mut replace = super::drop_force(inv, &p, &["force"]);
    for (at, w, _) in &moved_refs {
        if let Some(stripped) = w.text.strip_prefix('+') {
            replace.push((*at, Some(quote(stripped))));
        }
    }
    let names: Vec<String> = moved_refs
        .iter()
        .map(|(_, _, full)| full.trim_start_matches("refs/heads/").to_string())
        .collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let hit = Hit::new(
        &BRANCH_MOVE,
        Tier::Destructive,
        format!(
            "forces the local branch {} to what the remote has; commits only it held become reachable only from the reflog",
            list(names.iter().copied())
        ),
    )
    .safer(format!(
        "`{}` refuses an update that is not a fast-forward",
        super::rewrite(inv, &replace)
    ));
    let literal = moved_refs
        .iter()
        .all(|(_, w, _)| w.literal && !w.text.contains('*'));
    Some(with_recovery(
        hit.about(match literal {
            true => about(GitSubject::BranchMove {
                refs: moved_refs.into_iter().map(|(_, _, full)| full).collect(),
                to: None,
                by_path: false,
            }),
            false => Subject::Nothing,
        }),
        &names,
    ))
}

/// `git push . +<src>:<dst>` (or `--force`): a push to the repository itself moves its own
/// branch `dst`.
pub(super) fn push_here(inv: &Invocation, specs: &[&Word], forced: bool) -> Option<Hit> {
    let mut moved_refs: Vec<(&Word, String)> = Vec::new();
    for w in specs {
        let plus = w.text.starts_with('+');
        let Some((_, dst)) = w.text.trim_start_matches('+').split_once(':') else {
            continue; // `+a` pushes `a` onto itself
        };
        if (plus || forced)
            && !dst.is_empty()
            && (dst.starts_with("refs/heads/") || !dst.starts_with("refs/"))
        {
            let full = match dst.strip_prefix("refs/heads/") {
                Some(_) => dst.to_string(),
                None => format!("refs/heads/{dst}"),
            };
            moved_refs.push((*w, full));
        }
    }
    if moved_refs.is_empty() {
        return None;
    }
    let names: Vec<String> = moved_refs
        .iter()
        .map(|(_, full)| full.trim_start_matches("refs/heads/").to_string())
        .collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let unforced: Vec<String> = specs
        .iter()
        .map(|w| quote(w.text.trim_start_matches('+')))
        .collect();
    let mut line = vec![".".to_string()];
    line.extend(unforced);
    let hit = Hit::new(
        &BRANCH_MOVE,
        Tier::Destructive,
        format!(
            "forces the local branch {} to a new commit; commits only it held become reachable only from the reflog",
            list(names.iter().copied())
        ),
    )
    .safer(format!("`{}` moves it only forward", inv.line(&line)));
    let literal = moved_refs.iter().all(|(w, _)| w.literal);
    let target = moved_refs
        .first()
        .and_then(|(w, _)| w.text.trim_start_matches('+').split_once(':'))
        .map(|(src, _)| src.to_string());
    let subject = match literal {
        true => about(GitSubject::BranchMove {
            to: if moved_refs.len() == 1 { target } else { None },
            refs: moved_refs.into_iter().map(|(_, full)| full).collect(),
            by_path: true,
        }),
        false => Subject::Nothing,
    };
    Some(with_recovery(hit.about(subject), &names))
}

/// A branch-move hit about `branch`, moved to `to` (`None`: only known when it runs).
fn moved(hit: Hit, branch: &Word, to: Option<&str>) -> Hit {
    let subject = match branch.value() {
        Some(name) => about(GitSubject::BranchMove {
            refs: vec![format!("refs/heads/{name}")],
            to: to.map(str::to_string),
            by_path: false,
        }),
        None => Subject::Nothing,
    };
    with_recovery(hit.about(subject), &[branch.text.as_str()])
}

fn with_recovery(hit: Hit, names: &[&str]) -> Hit {
    let name = names.first().copied().unwrap_or("<branch>");
    hit.recovery(format!(
        "`git branch {}-before {}@{{1}}` recovers the old tip while the reflog keeps it",
        name.rsplit('/').next().unwrap_or(name),
        quote(name)
    ))
}
