//! Object storage through tools that speak to many providers: MinIO's `mc` and rclone (and
//! the rule s3cmd, s5cmd and `b2` findings share).

use crate::rules::git::list;
use crate::rules::packs::args::{Line, Style, without};
use crate::rules::{Hit, Rule, Tier};
use crate::shell::{SimpleCommand, Word};

pub static STORAGE_DELETE: Rule = Rule {
    id: "cloud.storage-delete",
    catches: "`mc rm -r`/`--recursive`, `mc rb`, `mc mirror --remove`; `rclone sync`/`delete`/`deletefile`/`purge`/`rmdir`/`rmdirs`/`move`/`moveto`; `s3cmd del -r`, `s3cmd rb --recursive|--force`, `s3cmd sync --delete-removed`; `s5cmd rm` of a wildcard or several objects, `s5cmd sync --delete`; `b2 rm --recursive`, `b2 bucket delete`, `b2 sync --delete`",
    why: "Remote storage has no trash unless the bucket keeps versions: a recursive delete or \
          a purge empties a path, `sync` and `mirror --remove` delete whatever the source \
          lacks, and `move` deletes the source once it is copied.",
    instead: "the same command with `--dry-run` (rclone, `mc rm`); `rclone copy` instead of \
              `sync`/`move` (never deletes); `rclone sync --backup-dir <remote:old>` keeps what \
              sync would delete; `mc ls -r` / `rclone ls` to see what is there.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "rclone sync /src remote:important-bucket",
        "rclone purge remote:important-bucket",
        "rclone delete remote:bucket/path --min-age 30d",
        "rclone move /src remote:bucket",
        "mc rm -r --force play/bucket/logs",
        "mc rb --force play/old-bucket",
        "mc mirror --remove ./site play/www",
        "s3cmd del --recursive s3://logs-bucket/2023/",
        "s3cmd rb --recursive --force s3://old-bucket",
        "s5cmd rm 's3://bucket/logs/*'",
        "b2 rm --recursive b2://my-bucket/backups",
    ],
    passes: &[
        "rclone copy /src remote:important-bucket",
        "rclone sync /src remote:important-bucket --dry-run",
        "rclone -n delete origin:path",
        "rclone sync /src remote:b --backup-dir remote:old",
        "rclone ls remote:important-bucket",
        "mc ls -r play/bucket",
        "mc rm play/bucket/one.txt",
        "mc mirror ./site play/www",
        "printf \"%s\" \"rclone sync /src remote:bucket --delete\"",
        "s3cmd del s3://logs-bucket/2023/app.log",
        "s3cmd sync --delete-removed --dry-run ./site/ s3://www-bucket/",
        "s5cmd rm s3://bucket/logs/app.log",
        "b2 rm --recursive --dry-run b2://my-bucket/backups",
    ],
};

const VERSIONS: &str = "only if the bucket keeps versions (`mc undo`, or restore the previous \
                        versions); local files deleted by a move are gone";

/// `mc` options that take a value.
const MC_VALUED: &[&str] = &[
    "C",
    "config-dir",
    "older-than",
    "newer-than",
    "rewind",
    "version-id",
    "encrypt-key",
    "storage-class",
    "exclude",
    "region",
    "limit-upload",
    "limit-download",
];

pub(super) fn mc(cmd: &SimpleCommand, args: &[Word]) -> Option<Hit> {
    let line = Line::parse(args, Style::Gnu, MC_VALUED);
    if line.help() || line.on(&["dry-run"]) {
        return None;
    }
    let targets = &line.operands.get(1..).unwrap_or_default();
    let shown = if targets.is_empty() {
        "the given path".to_string()
    } else {
        list(targets.iter().copied())
    };
    let hit = match line.operand(0)? {
        "rm" if line.on(&["r", "recursive"]) => Hit::new(
            &STORAGE_DELETE,
            Tier::Destructive,
            format!("deletes every object under {shown}"),
        )
        .safer(format!(
            "`{} --dry-run` to list what would go",
            cmd.display()
        )),
        "rb" => Hit::new(
            &STORAGE_DELETE,
            Tier::Destructive,
            format!(
                "deletes the bucket {shown}{}",
                if line.on(&["force"]) {
                    " with every object in it"
                } else {
                    ""
                }
            ),
        )
        .safer("`mc du` and `mc ls -r` on the bucket first"),
        "mirror" if line.on(&["remove"]) => mirror_deletes(targets).safer(format!(
            "`{}` (copies without deleting); `--dry-run` to see what would go",
            without(cmd, &[MC_VALUED], &["remove"], &[])
        )),
        _ => return None,
    };
    Some(hit.recovery(VERSIONS))
}

/// A sync or mirror that deletes, at its last target, what its source does not have.
pub(super) fn mirror_deletes(targets: &[&str]) -> Hit {
    Hit::new(
        &STORAGE_DELETE,
        Tier::Destructive,
        format!(
            "deletes every object under `{}` that the source does not have",
            targets.last().copied().unwrap_or("the target")
        ),
    )
}

/// rclone options that take a separate value (the common ones; most are written `--opt=v`
/// by scripts, and subcommands are found by name anyway).
const RCLONE_VALUED: &[&str] = &[
    "config",
    "transfers",
    "checkers",
    "bwlimit",
    "log-file",
    "log-level",
    "filter",
    "filter-from",
    "include",
    "include-from",
    "exclude",
    "exclude-from",
    "files-from",
    "min-age",
    "max-age",
    "min-size",
    "max-size",
    "max-depth",
    "backup-dir",
    "suffix",
    "compare-dest",
    "copy-dest",
    "user-agent",
    "retries",
    "timeout",
    "contimeout",
    "order-by",
    "max-transfer",
    "max-delete",
    "stats",
];

/// rclone subcommands, so that an option's value is never taken for one.
const RCLONE_COMMANDS: &[&str] = &[
    "sync",
    "delete",
    "deletefile",
    "purge",
    "rmdir",
    "rmdirs",
    "move",
    "moveto",
    "copy",
    "copyto",
    "copyurl",
    "check",
    "checksum",
    "ls",
    "lsd",
    "lsl",
    "lsf",
    "lsjson",
    "cat",
    "size",
    "about",
    "md5sum",
    "sha1sum",
    "hashsum",
    "mkdir",
    "config",
    "serve",
    "mount",
    "bisync",
    "touch",
    "tree",
    "ncdu",
    "dedupe",
    "link",
    "version",
    "listremotes",
    "rcat",
    "backend",
    "cryptcheck",
    "cleanup",
    "obscure",
    "selfupdate",
    "test",
];

pub(super) fn rclone(cmd: &SimpleCommand, args: &[Word]) -> Option<Hit> {
    let line = Line::parse(args, Style::Gnu, RCLONE_VALUED);
    if line.help() || line.on(&["n", "dry-run", "i", "interactive"]) {
        return None;
    }
    let at = line
        .operands
        .iter()
        .position(|o| RCLONE_COMMANDS.contains(o))?;
    let (&command, paths) = line.operands.get(at..)?.split_first()?;
    let path = |n: usize| paths.get(n).copied().unwrap_or("the path");
    let dry = format!("`{} --dry-run` to see what would go", cmd.display());
    let copy = || cmd.display().replacen(command, "copy", 1);
    let hit = match command {
        // Files that sync would delete are moved aside instead.
        "sync" if line.value(&["backup-dir"]).is_some() => return None,
        "sync" => Hit::new(
            &STORAGE_DELETE,
            Tier::Destructive,
            format!(
                "makes `{}` match `{}`: every file there that the source does not have is deleted",
                path(1),
                path(0)
            ),
        )
        .safer(format!(
            "{dry}; `{}` never deletes; `--backup-dir <remote:old>` keeps what sync would delete",
            copy()
        )),
        "move" | "moveto" => Hit::new(
            &STORAGE_DELETE,
            Tier::Destructive,
            format!(
                "deletes `{}` once it is copied to `{}`{}",
                path(0),
                path(1),
                if line.on(&["delete-empty-src-dirs"]) {
                    ", empty source folders too"
                } else {
                    ""
                }
            ),
        )
        .safer(format!("{dry}; `{}` keeps the source", copy())),
        "delete" | "deletefile" => Hit::new(
            &STORAGE_DELETE,
            Tier::Destructive,
            format!(
                "deletes {} `{}`",
                if command == "delete" {
                    "every file (the filters allow) under"
                } else {
                    "the file"
                },
                path(0)
            ),
        )
        .safer(dry),
        "purge" => Hit::new(
            &STORAGE_DELETE,
            Tier::Destructive,
            format!(
                "deletes `{}` and everything in it, whatever the filters say",
                path(0)
            ),
        )
        .safer(format!(
            "`rclone size {}` and `rclone ls {}` to see what is there",
            path(0),
            path(0)
        )),
        "rmdir" | "rmdirs" => Hit::new(
            &STORAGE_DELETE,
            Tier::Destructive,
            format!("removes the empty folders under `{}`", path(0)),
        )
        .safer(dry),
        _ => return None,
    };
    Some(hit.recovery(VERSIONS))
}
