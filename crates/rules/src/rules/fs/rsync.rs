//! rsync: the `--delete` family, which removes from the destination whatever the source lacks.

use crate::rules::opts::{self, Opt, flag, optional, valued};
use crate::rules::{Hit, Rule, Subject, Tier};
use crate::shell::Word;

pub static RSYNC_DELETE: Rule = Rule {
    id: "fs.rsync-delete",
    catches: "`rsync` with `--delete`, `--del`, `--delete-before`/`-during`/`-after`/`-delay`/\
              `-excluded` or `--delete-missing-args`, without `-n`/`--dry-run` or `--backup`",
    why: "With a delete option rsync makes the destination a mirror: every file there that \
          the source lacks is deleted, with no trash. Synced the wrong way round, or onto a \
          folder that holds work of its own, it wipes that work.",
    instead: "Look first with the same command plus `--dry-run --itemize-changes`; keep what \
              it deletes with `--backup --backup-dir=<folder>`; or leave out `--delete`.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "rsync -a --delete staging/ src/",
        "rsync -av --del build/ out/",
        "rsync -r --delete-after site/ user@host:/srv/www/",
        "rsync --delete-excluded -a --exclude=.env app/ deploy/",
    ],
    passes: &[
        "rsync -a staging/ src/",
        "rsync -avn --delete staging/ src/",
        "rsync -a --delete --dry-run a/ b/",
        "rsync -a --remove-source-files in/ done/",
        "rsync -a --delete --backup --backup-dir=../old a/ b/",
    ],
};

/// Every option whose meaning matters here, plus the common ones, so that an option the
/// table lacks marks the line as not understood (and the context as unable to clear it).
const RSYNC: &[Opt] = &[
    // The delete family. `--del` is rsync's own short name for `--delete-during`.
    flag("del", None),
    flag("delete", None),
    flag("delete-before", None),
    flag("delete-during", None),
    flag("delete-delay", None),
    flag("delete-after", None),
    flag("delete-excluded", None),
    flag("delete-missing-args", None),
    flag("ignore-errors", None),
    flag("force", None),
    valued("max-delete", None),
    // What keeps it harmless.
    flag("dry-run", Some('n')),
    flag("list-only", None),
    flag("backup", Some('b')),
    valued("backup-dir", None),
    valued("suffix", None),
    flag("help", None),
    flag("version", Some('V')),
    // What changes which files are compared.
    flag("recursive", Some('r')),
    flag("archive", Some('a')),
    flag("dirs", Some('d')),
    flag("relative", Some('R')),
    flag("copy-links", Some('L')),
    flag("copy-dirlinks", Some('k')),
    flag("keep-dirlinks", Some('K')),
    valued("filter", Some('f')),
    flag("F", Some('F')),
    valued("files-from", None),
    valued("exclude-from", None),
    valued("include-from", None),
    flag("cvs-exclude", Some('C')),
    valued("exclude", None),
    valued("include", None),
    flag("one-file-system", Some('x')),
    flag("existing", None),
    flag("ignore-existing", None),
    flag("remove-source-files", None),
    // Common ones that change nothing deleted.
    flag("verbose", Some('v')),
    flag("quiet", Some('q')),
    flag("checksum", Some('c')),
    flag("update", Some('u')),
    flag("links", Some('l')),
    flag("perms", Some('p')),
    flag("executability", Some('E')),
    flag("owner", Some('o')),
    flag("group", Some('g')),
    flag("D", Some('D')),
    flag("devices", None),
    flag("specials", None),
    flag("times", Some('t')),
    flag("omit-dir-times", Some('O')),
    flag("omit-link-times", Some('J')),
    flag("atimes", Some('U')),
    flag("crtimes", Some('N')),
    flag("hard-links", Some('H')),
    flag("acls", Some('A')),
    flag("xattrs", Some('X')),
    flag("sparse", Some('S')),
    flag("whole-file", Some('W')),
    flag("compress", Some('z')),
    flag("human-readable", Some('h')),
    flag("P", Some('P')),
    flag("partial", None),
    valued("partial-dir", None),
    flag("progress", None),
    flag("itemize-changes", Some('i')),
    flag("stats", None),
    flag("prune-empty-dirs", Some('m')),
    flag("safe-links", None),
    flag("copy-unsafe-links", None),
    flag("numeric-ids", None),
    flag("inplace", None),
    flag("append", None),
    flag("append-verify", None),
    flag("mkpath", None),
    flag("no-motd", None),
    flag("size-only", None),
    flag("ignore-times", Some('I')),
    flag("protect-args", Some('s')),
    flag("secluded-args", None),
    flag("fuzzy", Some('y')),
    flag("8-bit-output", Some('8')),
    flag("ipv4", Some('4')),
    flag("ipv6", Some('6')),
    flag("from0", Some('0')),
    flag("delay-updates", None),
    flag("fake-super", None),
    flag("super", None),
    flag("no-implied-dirs", None),
    valued("rsh", Some('e')),
    valued("rsync-path", None),
    valued("temp-dir", Some('T')),
    valued("block-size", Some('B')),
    valued("modify-window", Some('@')),
    valued("remote-option", Some('M')),
    valued("chmod", None),
    valued("chown", None),
    valued("usermap", None),
    valued("groupmap", None),
    valued("timeout", None),
    valued("contimeout", None),
    valued("bwlimit", None),
    valued("port", None),
    valued("password-file", None),
    valued("log-file", None),
    valued("log-file-format", None),
    valued("out-format", None),
    valued("max-size", None),
    valued("min-size", None),
    valued("compare-dest", None),
    valued("copy-dest", None),
    valued("link-dest", None),
    valued("compress-level", None),
    valued("compress-choice", None),
    valued("checksum-choice", None),
    valued("skip-compress", None),
    valued("iconv", None),
    optional("info"),
    optional("debug"),
];

/// `rsync ...` with a delete option: what the destination loses.
pub(in crate::rules) fn check(args: &[Word]) -> Option<Hit> {
    let p = opts::parse(args, RSYNC);
    let deletes = p
        .opts
        .iter()
        .any(|o| o.name == "del" || o.name.starts_with("delete"));
    let harmless = [
        "dry-run",
        "list-only",
        "backup",
        "backup-dir",
        "help",
        "version",
    ];
    if !deletes || harmless.iter().any(|h| p.has(h)) {
        return None;
    }
    // With one operand rsync only lists it.
    let [sources @ .., dest] = p.operands.as_slice() else {
        return None;
    };
    if sources.is_empty() {
        return None;
    }
    let dest = dest.1;
    let sources: Vec<Word> = sources.iter().map(|(_, w)| (*w).clone()).collect();
    let remote = is_remote(dest) || sources.iter().any(is_remote);
    // Which files are compared, and so what is deleted, is not what the two trees show
    // when filters hide files from one side only or paths are rebuilt.
    let comparable = !remote
        && !p.unknown
        && ![
            "relative",
            "filter",
            "F",
            "files-from",
            "exclude-from",
            "include-from",
        ]
        .iter()
        .any(|o| p.has(o))
        && !p.has("delete-excluded");
    let subject = if comparable {
        Subject::Mirror(Mirror {
            sources: sources.clone(),
            dest: dest.clone(),
            copy_links: p.has("copy-links"),
            copy_dirlinks: p.has("copy-dirlinks"),
            keep_dirlinks: p.has("keep-dirlinks"),
            missing_args_deleted: p.has("delete-missing-args"),
        })
    } else {
        Subject::Nothing
    };
    let shown = crate::rules::git::list(sources.iter().map(|w| w.text.as_str()));
    let rest: Vec<String> = args.iter().map(Word::shell_quoted).collect();
    Some(
        Hit::new(
            &RSYNC_DELETE,
            Tier::Destructive,
            format!(
                "deletes everything in `{}` that {shown} lacks, with no trash",
                dest.text
            ),
        )
        .safer(format!(
            "`rsync --dry-run --itemize-changes {}` lists what would be deleted; add \
             `--backup --backup-dir=<folder>` to keep it",
            rest.join(" ")
        ))
        .recovery("none for files git does not track; tracked files: `git restore <path>`")
        .about(subject),
    )
}

/// `host:path`, `user@host:path`, `host::module` or `rsync://host/...`: not on this machine.
/// A non-literal operand may be any of these.
fn is_remote(word: &Word) -> bool {
    word.value().is_none_or(crate::syntax::writes::is_remote)
}

/// A local rsync with a delete option, as the context needs it to compare the two trees.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mirror {
    pub sources: Vec<Word>,
    pub dest: Word,
    /// `-L`: links in the source are read as what they point to.
    pub copy_links: bool,
    /// `-k`: links to folders in the source are read as folders.
    pub copy_dirlinks: bool,
    /// `-K`: links to folders in the destination are kept and entered as folders.
    pub keep_dirlinks: bool,
    /// `--delete-missing-args`: a source that does not exist deletes its destination.
    pub missing_args_deleted: bool,
}
