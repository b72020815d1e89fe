//! rm: recursive deletes in the standard profile, every shell `rm` in the strict one.

pub(super) mod find;
pub(super) mod listings;
pub(super) mod overwrite;
pub(super) mod rsync;
pub(super) mod sets;

use crate::rules::opts::{self, Opt, flag, optional};
use crate::rules::{Hit, Reading, Rule, Subject, Tier};
use crate::settings::Profile;
use crate::shell::Word;
use crate::syntax::argv;

pub static RM_RECURSIVE: Rule = Rule {
    id: "fs.rm-recursive",
    catches: "`rm -r`/`-R`/`--recursive` in any flag spelling, forced or not, at any command position",
    why: "A recursive rm deletes a whole tree with no trash and no undo. Files in it that git \
          does not track (new work, `.env`, local data) are gone for good.",
    instead: "`git rm -r <path>` for tracked files (refuses to drop uncommitted edits); move \
              anything else aside with `mv <path> \"$(mktemp -d)\"` so it can come back.",
    protected_when: Some(
        "the target is `/`, `~`, `$HOME`, `.`, `..`, `*` (but where a `cd` of the line leads into a temporary folder), a `.git` folder or a system folder, or `--no-preserve-root` is given, or it is sent to a place named as production (a host, container, pod, kube context or namespace, project or app whose name holds a `production` word)",
    ),
    strict_only: false,
    stops: &[
        "rm -rf build/",
        "rm -r -f node_modules",
        "sudo rm -rf /",
        "bash -lc 'rm -rf dist'",
        "ls -d */ | xargs rm -rf",
    ],
    passes: &[
        "rm stale.log",
        "rm -f out.txt",
        "rmdir empty",
        "git rm -r docs",
        "docker rm -f web",
        "rm -- -rf",
    ],
};

pub static RM_ANY: Rule = Rule {
    id: "fs.rm-any",
    catches: "every shell `rm`, in the strict profile",
    why: "In the strict profile no file is deleted by a bare `rm`: an unquoted variable or a \
          glob that matched more than expected cannot be undone, and the guarded routes can \
          check what they delete. Literal by-products (`*.log`, `*.tmp`, `*.pyc`, `*.o`, \
          `*.swp`) still pass.",
    instead: "`git rm <path>` for tracked files; `mv <path> \"$(mktemp -d)\"` to set a file \
              aside; overwrite a file in place when replacing it.",
    protected_when: None,
    strict_only: true,
    stops: &[
        "rm notes.txt",
        "rm -f /tmp/x",
        "ls *.log | xargs rm",
        "find . -name '*.tmp' -exec rm {} \\;",
    ],
    passes: &[
        "git rm docs/old.md",
        "rmdir empty",
        "npm rm left-pad",
        "echo rm x",
        "command -v rm",
        "rm stale.log",
    ],
};

const RM: &[Opt] = &[
    flag("force", Some('f')),
    flag("i", Some('i')),
    flag("I", Some('I')),
    optional("interactive"),
    flag("one-file-system", None),
    flag("no-preserve-root", None),
    optional("preserve-root"),
    flag("recursive", Some('r')),
    flag("R", Some('R')),
    flag("dir", Some('d')),
    flag("verbose", Some('v')),
    flag("help", None),
    flag("version", None),
];

/// Whether every `rm` refuses `args` and deletes nothing: an option before the first operand
/// that neither GNU nor BSD `rm` knows (`rm -rf --typescript`). GNU's rm would refuse one
/// after an operand too, but BSD's takes that as a file name, so only the leading ones count.
/// A word known only when it runs could be anything, so reading stops there.
pub(super) fn refused(args: &[Word]) -> bool {
    let known = args.iter().position(|w| !w.literal).unwrap_or(args.len());
    let known = args.get(..known).unwrap_or_default();
    argv::read_head(known, argv::Style::Getopt, &AnyRm).unknown
}

/// The options of GNU's and BSD's `rm` together, long ones by any prefix as getopt takes
/// them; every other option is unknown.
struct AnyRm;

impl argv::Options for AnyRm {
    fn long(&self, name: &str) -> Option<argv::Takes> {
        let opt = RM.iter().find(|o| o.long.starts_with(name))?;
        Some(match opt.value {
            opts::Value::Optional => argv::Takes::Attached,
            _ => argv::Takes::Nothing,
        })
    }
    fn short(&self, letter: char) -> Option<argv::Takes> {
        // BSD's own letters: `-P` (overwrite), `-W` (undelete), `-x` (stay on one file system).
        "fiIrRdvPWx"
            .contains(letter)
            .then_some(argv::Takes::Nothing)
    }
}

/// Whether `rm ARGS` deletes recursively.
pub(super) fn is_recursive(args: &[Word]) -> bool {
    let p = opts::parse(args, RM);
    p.has("recursive") || p.has("R")
}

/// Whether `srm ARGS` or `wipe ARGS` deletes recursively: both spell it as rm does.
pub(super) fn secure_recursive(args: &[Word]) -> bool {
    argv::read(args, argv::Style::Getopt, &argv::Valued(&[])).on(&["r", "R", "recursive"])
}

/// `del-cli`: deletes the files and folders its globs match, a folder with everything in
/// it, as `rm -rf` would; `--dry-run` only lists them.
pub(super) fn del_cli(args: &[Word], profile: Profile, reading: Reading) -> Option<Hit> {
    let dry_run = argv::read(args, argv::Style::Pflag, &argv::Valued(&[])).on(&["dry-run", "d"]);
    if dry_run {
        return None;
    }
    let as_rm = [&[Word::literal("-rf")][..], args].concat();
    rm(&as_rm, profile, reading)
}

pub(super) fn rm(args: &[Word], profile: Profile, reading: Reading) -> Option<Hit> {
    let p = opts::parse(args, RM);
    if p.has("help") || p.has("version") || (reading == Reading::Guessed && p.unknown) {
        return None;
    }
    let targets: Vec<&Word> = p.operands.iter().map(|(_, w)| *w).collect();
    let recursive = p.has("recursive") || p.has("R");
    if !recursive {
        // A guessed `rm` that is not recursive is reported as a dynamic command instead.
        // An `rm` with no operand still deletes when `xargs` supplies them.
        let disposable = !targets.is_empty() && targets.iter().all(|w| is_disposable(w));
        if reading == Reading::Guessed {
            return None;
        }
        if profile == Profile::Strict && !disposable {
            return Some(any(&targets));
        }
        // `-i` asks before each file; an agent's shell has no one to answer.
        if p.has("i") || p.has("interactive") {
            return None;
        }
        let files: Vec<Word> = targets.into_iter().cloned().collect();
        return overwrite::delete(&files);
    }
    let protected: Vec<&str> = targets
        .iter()
        .filter(|w| is_protected_target(w))
        .map(|w| w.text.as_str())
        .collect();
    let tier = if protected.is_empty() && !p.has("no-preserve-root") {
        Tier::Destructive
    } else {
        Tier::Protected
    };
    let shown = if targets.is_empty() {
        "whatever it is given".to_string()
    } else {
        crate::rules::git::list(targets.iter().map(|w| w.text.as_str()))
    };
    let mut hit = Hit::new(
        &RM_RECURSIVE,
        tier,
        format!("deletes {shown} and everything under it, with no trash and no undo"),
    )
    .recovery("none for files git does not track; tracked files: `git restore <path>`")
    .about(Subject::Paths(
        targets.iter().map(|w| (*w).clone()).collect(),
    ));
    // `"skills/{a,b}"`: quoted, the braces are not expanded and name one path, made only by
    // someone who meant that very name; unless the context finds it, nothing goes.
    hit.needs_confirmation = tier == Tier::Destructive
        && !targets.is_empty()
        && targets
            .iter()
            .all(|w| w.literal && names_brace_list(&w.text));
    Some(match tier {
        Tier::Protected => hit.safer(format!(
            "never delete {}; ask the user what should really go",
            crate::rules::git::list(
                protected
                    .iter()
                    .copied()
                    .chain(p.has("no-preserve-root").then_some("/"))
            )
        )),
        Tier::Destructive | Tier::Ask => hit.safer(set_aside(&targets, true)),
    })
}

fn any(targets: &[&Word]) -> Hit {
    Hit::new(
        &RM_ANY,
        Tier::Destructive,
        format!(
            "deletes {} with no undo",
            crate::rules::git::list(targets.iter().map(|w| w.text.as_str()))
        ),
    )
    .safer(set_aside(targets, false))
    .recovery("none for files git does not track; tracked files: `git restore <path>`")
}

/// The suggestion shared by the rm rules: the guarded `agent-guard rm`, which previews,
/// refuses tracked or claimed paths and keeps what it removes in a trash; `git rm` for
/// tracked files.
pub(super) fn set_aside(targets: &[&Word], recursive: bool) -> String {
    let paths: Vec<String> = targets.iter().map(|w| w.shell_quoted()).collect();
    if paths.is_empty() {
        return "name the paths and use `agent-guard rm --root <dir> <paths>`: it previews, \
                then `--yes` moves them to a trash `agent-guard restore` brings back"
            .into();
    }
    let root = guarded_root(targets);
    let paths = paths.join(" ");
    let git_rm = if recursive { "git rm -r" } else { "git rm" };
    format!(
        "`agent-guard rm --root {root} {paths}` previews what would go; add `--yes` to move it \
         to a trash (`agent-guard restore` brings it back). Tracked files: `{git_rm} {paths}`"
    )
}

/// The folder to name as `--root`: here for relative paths, else the first target's parent.
fn guarded_root(targets: &[&Word]) -> String {
    let outside = |t: &str| t.starts_with('/') || t.starts_with('~') || t.starts_with("..");
    let (far, near): (Vec<&&Word>, Vec<&&Word>) = targets.iter().partition(|w| outside(&w.text));
    match (far.first(), near.is_empty()) {
        (None, _) => ".".into(),
        (Some(_), false) => "<dir>".into(),
        (Some(w), true) => {
            let text = w.text.trim_end_matches('/');
            match text.rsplit_once('/') {
                Some(("", _)) => "/".into(),
                Some((parent, _)) => crate::shell::word::quote(parent),
                None => ".".into(),
            }
        }
    }
}

/// Whether `text` holds a brace list (`{a,b}`, `{1..3}`) that a shell would have expanded
/// had it not been quoted.
fn names_brace_list(text: &str) -> bool {
    text.match_indices('{').any(|(open, _)| {
        text[open + 1..]
            .find('}')
            .map(|close| &text[open + 1..open + 1 + close])
            .is_some_and(|inner| inner.contains(',') || inner.contains(".."))
    })
}

/// A literal file whose name marks it as a by-product nobody keeps: a log, a temp file, a
/// compiled object. The strict profile lets a plain `rm` of those through.
fn is_disposable(word: &Word) -> bool {
    const EXTENSIONS: &[&str] = &["log", "tmp", "temp", "pyc", "pyo", "o", "obj", "swp", "swo"];
    let Some(text) = word.value() else {
        return false;
    };
    let name = text.rsplit('/').next().unwrap_or(text);
    match name.rsplit_once('.') {
        Some((stem, ext)) => !stem.is_empty() && EXTENSIONS.contains(&ext),
        None => false,
    }
}

/// Whether the `cd`s `dirs` lead, as written, into a temporary folder (`/tmp`, `/var/tmp`,
/// macOS's `/private/tmp`, or one inside them).
pub(super) fn in_temporary_folder(dirs: &[Word]) -> bool {
    let mut parts: Vec<&str> = Vec::new();
    let mut rooted = false;
    // In a folder the line just made (`cd "$(mktemp -d)"`), which a `..` may climb out of.
    let mut fresh = false;
    for word in dirs {
        if !word.literal && matches!(word.temp, Some(crate::syntax::Temp::Made(_))) {
            parts.clear();
            rooted = true;
            fresh = true;
            continue;
        }
        let Some(step) = word.value() else {
            return false;
        };
        if step.starts_with('/') {
            parts.clear();
            rooted = true;
            fresh = false;
        } else if step == "-" || step.starts_with('~') {
            return false;
        }
        for part in step.split('/') {
            match part {
                "" | "." => {}
                ".." => {
                    if parts.pop().is_none() && fresh {
                        return false;
                    }
                }
                p => parts.push(p),
            }
        }
    }
    let rest = parts.strip_prefix(&["private"][..]).unwrap_or(&parts[..]);
    rooted && (fresh || matches!(rest, ["tmp", ..] | ["var", "tmp", ..]))
}

/// A recursive `rm` protected only for deleting "here" (`*`, `.`, `./*`) is an ordinary
/// one when here is a temporary folder: the context may then clear it.
pub(super) fn lift_here(hit: &mut Hit, args: &[Word]) {
    const HERE: &[&str] = &["*", "./*", ".*", "./.*"];
    if hit.rule.id != RM_RECURSIVE.id || hit.tier != Tier::Protected {
        return;
    }
    let p = opts::parse(args, RM);
    let targets: Vec<&Word> = p.operands.iter().map(|(_, w)| *w).collect();
    let only_here = targets
        .iter()
        .filter(|w| is_protected_target(w))
        .all(|w| HERE.contains(&w.text.as_str()));
    if only_here && !p.has("no-preserve-root") {
        hit.tier = Tier::Destructive;
        hit.safer = Some(set_aside(&targets, true));
    }
}

/// Targets whose deletion no agent should ever perform.
fn is_protected_target(word: &Word) -> bool {
    let text = word.text.trim_end_matches('/');
    let text = if text.is_empty() { "/" } else { text };
    const HOME: &[&str] = &[
        "~",
        "$HOME",
        "${HOME}",
        "$HOME/*",
        "${HOME}/*",
        "~/*",
        "~/.*",
    ];
    const HERE: &[&str] = &[
        ".", "./", "*", ".*", "./*", "./.*", "..", "../", "../*", "/*", "$PWD", "${PWD}", "$(pwd)",
        "`pwd`",
    ];
    if HOME.contains(&text) || HERE.contains(&text) || is_system_folder(text) {
        return true;
    }
    if text == ".git" || text.ends_with("/.git") {
        return true;
    }
    // A system folder's direct contents (`/usr/*`, `/etc/x` is not protected: too specific).
    if let Some(parent) = text.strip_suffix("/*") {
        return is_system_folder(parent) || HOME.contains(&parent);
    }
    // A user's home folder: `/home/alice`, `/Users/alice`, `~alice`.
    let home_of_user = ["/home/", "/Users/"].iter().any(|root| {
        text.strip_prefix(root)
            .is_some_and(|rest| !rest.is_empty() && !rest.contains('/'))
    });
    home_of_user || (text.starts_with('~') && !text.contains('/') && text.len() > 1)
}

/// Folders the operating system is installed in: nothing in them is an agent's to delete
/// (the `system` pack stops even a single file there).
pub(crate) const OS_FOLDERS: &[&str] = &[
    "/bin", "/boot", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/sbin", "/usr", "/var/lib",
    "/System",
];

/// The machine's other top-level folders: removing one whole is never what was meant.
const MACHINE_FOLDERS: &[&str] = &[
    "/",
    "/dev",
    "/home",
    "/opt",
    "/proc",
    "/root",
    "/run",
    "/srv",
    "/sys",
    "/var",
    "/Users",
    "/Library",
    "/Applications",
    "/Volumes",
    "/private",
];

/// `/`, a top-level folder of the machine or a folder the operating system lives in.
pub(crate) fn is_system_folder(path: &str) -> bool {
    OS_FOLDERS.contains(&path) || MACHINE_FOLDERS.contains(&path)
}
