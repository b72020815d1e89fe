//! Object storage through the S3 and Backblaze tools that speak to it directly: s3cmd,
//! s5cmd and Backblaze's `b2`. As with `aws s3`, deleting one object passes; a recursive
//! delete, a wildcard, a bucket removed with its objects or a sync that deletes what the
//! source lacks is a finding.

use super::storage::{STORAGE_DELETE, mirror_deletes};
use crate::rules::git::list;
use crate::rules::packs::args::{Line, Style};
use crate::rules::{Hit, Tier};
use crate::shell::{SimpleCommand, Word};

const RECOVERY: &str = "only if the bucket keeps versions (restore the previous versions); \
                        otherwise none";

/// `s3cmd` options that take a value.
const S3CMD_VALUED: &[&str] = &[
    "c",
    "config",
    "access_key",
    "secret_key",
    "access_token",
    "region",
    "bucket-location",
    "host",
    "host-bucket",
    "exclude",
    "include",
    "rexclude",
    "rinclude",
    "exclude-from",
    "include-from",
    "m",
    "mime-type",
    "add-header",
    "encoding",
    "storage-class",
    "limit-rate",
    "max-delete",
];

/// `s3cmd del|rm -r`, `s3cmd rb --recursive|--force`, `s3cmd sync --delete-removed`.
pub(super) fn s3cmd(cmd: &SimpleCommand, args: &[Word]) -> Option<Hit> {
    let line = Line::parse(args, Style::Gnu, S3CMD_VALUED);
    if line.help() || line.on(&["n", "dry-run"]) {
        return None;
    }
    let targets = line.operands.get(1..).unwrap_or_default();
    let shown = if targets.is_empty() {
        "the given path".to_string()
    } else {
        list(targets.iter().copied())
    };
    let dry = format!("`{} --dry-run` lists what would go", cmd.display());
    let hit = match line.operand(0)? {
        "del" | "rm" if line.on(&["r", "recursive"]) => Hit::new(
            &STORAGE_DELETE,
            Tier::Destructive,
            format!("deletes every object under {shown}"),
        )
        .safer(dry),
        "rb" if line.on(&["r", "recursive", "f", "force"]) => Hit::new(
            &STORAGE_DELETE,
            Tier::Destructive,
            format!("deletes the bucket {shown} with every object in it"),
        )
        .safer(format!("`s3cmd du {shown}` and `s3cmd ls -r` first")),
        "sync" if line.on(&["delete-removed", "delete-after"]) => mirror_deletes(targets).safer(
            format!("{dry}; without `--delete-removed` sync only copies"),
        ),
        _ => return None,
    };
    Some(hit.recovery(RECOVERY))
}

/// `s5cmd` global options that take a value.
const S5CMD_VALUED: &[&str] = &[
    "endpoint-url",
    "profile",
    "credentials-file",
    "numworkers",
    "log",
    "retry-count",
    "r",
    "request-payer",
    "addressing-style",
];

/// `s5cmd rm` of a wildcard or many objects, `s5cmd sync --delete`.
pub(super) fn s5cmd(cmd: &SimpleCommand, args: &[Word]) -> Option<Hit> {
    let line = Line::parse(args, Style::Gnu, S5CMD_VALUED);
    if line.help() || line.on(&["dry-run"]) {
        return None;
    }
    let targets = line.operands.get(1..).unwrap_or_default();
    let dry = format!("`{}` with `--dry-run` lists what would go", cmd.display());
    let hit = match line.operand(0)? {
        "rm" if targets.len() > 1 || targets.iter().any(|t| t.contains('*')) => Hit::new(
            &STORAGE_DELETE,
            Tier::Destructive,
            format!(
                "deletes every object matching {}",
                list(targets.iter().copied())
            ),
        )
        .safer(format!("`s5cmd ls` on the same pattern first; {dry}")),
        "sync" if line.on(&["delete"]) => {
            mirror_deletes(targets).safer(format!("{dry}; without `--delete` sync only copies"))
        }
        _ => return None,
    };
    Some(hit.recovery(RECOVERY))
}

/// `b2` options that take a value.
const B2_VALUED: &[&str] = &[
    "profile",
    "threads",
    "exclude-regex",
    "include-regex",
    "exclude-dir-regex",
    "exclude-if-modified-after",
    "compare-versions",
    "compare-threshold",
    "keep-days",
    "write-buckets",
];

/// Backblaze's `b2 rm --recursive`, `b2 bucket delete` (`delete-bucket`), `b2 sync --delete`.
pub(super) fn b2(cmd: &SimpleCommand, args: &[Word]) -> Option<Hit> {
    let line = Line::parse(args, Style::Gnu, B2_VALUED);
    if line.help() || line.on(&["dry-run"]) {
        return None;
    }
    let ops = line.operands.as_slice();
    let hit = match ops {
        ["rm", path, ..] if line.on(&["recursive", "r"]) => Hit::new(
            &STORAGE_DELETE,
            Tier::Destructive,
            format!(
                "deletes every file under `{path}`{}",
                if line.on(&["versions"]) {
                    ", every version of each"
                } else {
                    ""
                }
            ),
        )
        .safer(format!("`{} --dry-run` lists what would go", cmd.display())),
        ["bucket", "delete", name, ..] | ["delete-bucket", name, ..] => Hit::new(
            &STORAGE_DELETE,
            Tier::Destructive,
            format!("deletes bucket `{name}`"),
        )
        .safer(format!("`b2 ls --recursive b2://{name}` first")),
        ["sync", .., target] if line.on(&["delete"]) => Hit::new(
            &STORAGE_DELETE,
            Tier::Destructive,
            format!("deletes every file under `{target}` that the source does not have"),
        )
        .safer(format!(
            "`{} --dry-run` lists what would go; `--keep-days <n>` keeps old versions",
            cmd.display()
        )),
        _ => return None,
    };
    Some(hit.recovery(RECOVERY))
}
