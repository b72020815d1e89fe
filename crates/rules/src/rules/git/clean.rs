//! `git clean`: deleting what git does not track.

use super::{Invocation, about, parse, rewrite, rewritten_args};
use crate::rules::opts::{self, Opt, flag, valued};
use crate::rules::{GitSubject, Hit, Rule, Subject, Tier};
use crate::shell::Word;
use crate::syntax::argv;

pub static CLEAN_FORCE: Rule = Rule {
    id: "git.clean-force",
    catches: "`git clean -f` in any spelling (`-fd`, `-xdf`, `--force`) without `-n`/`--dry-run`/`-i`, \
              and `git -c clean.requireForce=false clean` (no `-f` needed then)",
    why: "git clean deletes files git does not track: work that was never committed, so git \
          has no copy of it. With `-x`/`-X` it also deletes ignored files such as `.env` and \
          local configuration.",
    instead: "`git clean -n` (the same flags with `-n`) lists what would go; then delete only \
              what you mean by name, or `git clean -i` to choose.",
    protected_when: Some(
        "with `-x` or `-X` (ignored files such as `.env` go too), unless git's own dry run lists \
         only ignored build output (`target/`, `node_modules/`)",
    ),
    strict_only: false,
    stops: &[
        "git clean -f",
        "git clean -fd",
        "git clean --force -d",
        "git clean -fdx",
        "git -c clean.requireForce=false clean -d",
    ],
    passes: &[
        "git clean -n",
        "git clean -nd",
        "git clean -fn",
        "git clean -i",
        "git clean --dry-run -fdx",
        "git -c clean.requireForce=false clean -n",
    ],
};

const CLEAN: &[Opt] = &[
    flag("d", Some('d')),
    flag("force", Some('f')),
    flag("no-force", None),
    flag("interactive", Some('i')),
    flag("dry-run", Some('n')),
    flag("quiet", Some('q')),
    flag("no-quiet", None),
    valued("exclude", Some('e')),
    flag("x", Some('x')),
    flag("X", Some('X')),
];

pub(super) fn clean(inv: &Invocation) -> Option<Hit> {
    let p = parse(inv, CLEAN);
    // With `clean.requireForce` off, git cleans without `-f` (and `--no-force` changes nothing).
    let unguarded = inv
        .config(|key| key == "clean.requireforce")
        .is_some_and(|v| {
            matches!(
                v.to_ascii_lowercase().as_str(),
                "false" | "no" | "off" | "0" | ""
            )
        });
    let forced = unguarded || p.last_of(&["force", "no-force"]) == Some("force");
    if !forced || p.has("dry-run") || p.has("interactive") {
        return None;
    }
    let ignored = p.has("x") || p.has("X");
    let tier = if ignored {
        Tier::Protected
    } else {
        Tier::Destructive
    };
    let mut replace: Vec<(usize, Option<String>)> = Vec::new();
    let mut dry_run_added = false;
    for o in p.opts.iter().filter(|o| o.name == "force") {
        let Some(word) = inv.args.get(o.word).map(|w| &w.text) else {
            continue;
        };
        let with = match o.spelling {
            argv::Spelling::Long => "--dry-run".to_string(),
            argv::Spelling::Short => {
                let mut w = word.replacen('f', "n", 1).replace('f', "");
                if dry_run_added {
                    w = w.replace('n', "");
                }
                w
            }
        };
        dry_run_added = true;
        replace.push((o.word, (with.len() > 1).then_some(with)));
    }
    // A quiet dry run prints nothing, which would read as "nothing to delete": the suggested
    // preview drops `-q` wherever it was given.
    for o in p.opts.iter().filter(|o| o.name == "quiet") {
        let Some(word) = inv.args.get(o.word).map(|w| &w.text) else {
            continue;
        };
        let current = match replace.iter().position(|(at, _)| *at == o.word) {
            Some(i) => replace.remove(i).1,
            None => Some(word.clone()),
        };
        let without = current
            .filter(|_| o.spelling == argv::Spelling::Short)
            .map(|w| w.replace('q', ""))
            .filter(|w| w.len() > 1);
        replace.push((o.word, without));
    }
    let what = match (p.has("d"), ignored) {
        (_, true) => "untracked files and directories, and ignored files such as `.env`",
        (true, false) => "untracked files and directories",
        (false, false) => "untracked files",
    };
    Some(
        Hit::new(
            &CLEAN_FORCE,
            tier,
            format!("permanently deletes {what}: work git never had a copy of"),
        )
        .safer(format!(
            "`{}` lists what would be deleted; then remove only what you mean",
            match dry_run_added {
                true => rewrite(inv, &replace),
                false => inv.line(
                    &[
                        ["-n".to_string()].as_slice(),
                        &rewritten_args(inv, &replace),
                    ]
                    .concat()
                ),
            }
        ))
        .recovery("none: untracked files are not in git, so there is no way back")
        .about(dry_run_subject(inv, &replace)),
    )
}

/// `git clean` with the force options swapped for a dry run, as plain argv.
fn dry_run_subject(inv: &Invocation, replace: &[(usize, Option<String>)]) -> Subject {
    let mut args = Vec::new();
    for (i, w) in inv.args.iter().enumerate() {
        match replace.iter().find(|(at, _)| *at == i) {
            Some((_, with)) => args.extend(with.clone()),
            None if w.literal => args.push(w.text.clone()),
            None => return Subject::Nothing,
        }
    }
    // Last among the options, so no `--no-dry-run` of the line can switch it off again.
    let words: Vec<Word> = args.iter().map(Word::literal).collect();
    if !opts::parse(&words, CLEAN).has("dry-run") {
        let end = args.iter().position(|a| a == "--").unwrap_or(args.len());
        args.insert(end, "--dry-run".into());
    }
    about(GitSubject::Clean { dry_run: args })
}

/// What to ask git to learn what the dry run `dry_run` (a [`GitSubject::Clean`]'s) would
/// remove: `--dry-run` with two `-f` (a second also takes nested repositories; how many the
/// command gave is not known, so the answer can only be larger), its `-d`, `-x`, `-X` and
/// excludes, then its pathspecs. `None` when it chooses interactively or gives an option the
/// table does not know.
pub fn clean_question(dry_run: &[String]) -> Option<Vec<String>> {
    let words: Vec<Word> = dry_run.iter().map(Word::literal).collect();
    let p = opts::parse(&words, CLEAN);
    if p.unknown || p.has("interactive") {
        return None;
    }
    let mut question: Vec<String> = ["--dry-run", "-f", "-f"].map(String::from).to_vec();
    for o in &p.opts {
        match o.name {
            "d" | "x" | "X" => question.push(format!("-{}", o.name)),
            "exclude" => question.push(format!("--exclude={}", o.value?)),
            _ => {}
        }
    }
    question.push("--".into());
    question.extend(p.operand_texts().map(str::to_string));
    Some(question)
}

/// The paths a `git clean` line is limited to: its operands, options and their values left
/// out.
pub(in crate::rules) fn clean_pathspecs(args: &[Word]) -> Vec<Word> {
    opts::parse(args, CLEAN)
        .operands
        .into_iter()
        .map(|(_, w)| w.clone())
        .collect()
}
