//! Backup tools: restic, Borg, Velero, Duplicacy, Duplicity, Kopia, Tarsnap, rdiff-backup, and
//! the machine's Timeshift and Snapper snapshots. Deleting a backup feels like tidying up, but
//! it is the copy that every other recovery route in this guard points to.

mod repositories;
mod system_snapshots;

use super::Pack;
use super::args::{self, asks_help, has, operands, value};
use crate::rules::git::list;
use crate::rules::{Hit, Rule, Tier};
use crate::shell::{SimpleCommand, Word};

pub use repositories::{
    DUPLICACY_PRUNE, DUPLICITY_REMOVE, KOPIA_DELETE, RDIFF_BACKUP_REMOVE, TARSNAP_DELETE,
};
pub use system_snapshots::SYSTEM_SNAPSHOT_DELETE;

pub static RESTIC_FORGET: Rule = Rule {
    id: "backup.restic-forget",
    catches: "`restic forget` (by snapshot id or keep policy, with or without `--prune`), \
              `restic prune` and `restic rewrite --forget`, unless `--dry-run`/`-n`",
    why: "`restic forget` removes snapshots from the repository and `restic prune` deletes the \
          data no snapshot references any more. A keep policy that is one number off, or a \
          `--tag`/`--host` filter that matches more than meant, takes the only backup of a \
          machine with it.",
    instead: "Run the same command with `--dry-run` to list what would be removed, and \
              `restic snapshots` to see what stays.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "restic forget bdbd3439",
        "restic forget --keep-last 1 --prune",
        "restic -r /srv/restic forget --keep-daily 7 --keep-weekly 4 --prune",
        "restic forget --tag prod --unsafe-allow-remove-all",
        "restic prune",
        "restic --repo s3:s3.amazonaws.com/bkp prune --max-unused 0",
        "restic rewrite --exclude '*.key' --forget latest",
    ],
    passes: &[
        "restic forget --keep-last 1 --prune --dry-run",
        "restic prune -n",
        "restic snapshots",
        "restic -r path/to/repository backup path/to/directory",
        "restic restore latest --target /tmp/restore",
        "restic check",
        "restic unlock",
        "restic rewrite --exclude '*.key' latest",
    ],
};

pub static BORG_DELETE: Rule = Rule {
    id: "backup.borg-delete",
    catches: "`borg delete` (archives or a whole repository), `borg prune`, `borg compact`, \
              `borg repo-delete`/`rdelete`, `borg recreate` that drops files (excludes or \
              paths, no `--target`), unless `--dry-run`/`-n` (and `borg delete \
              --cache-only`, which only drops the local cache)",
    why: "`borg delete repo` deletes the repository with every archive in it, `borg delete` \
          and `borg prune` remove archives, and `borg compact` frees their space for good. \
          Backups are the copy nobody misses until the day they are needed.",
    instead: "Add `--dry-run --list` to see which archives would go; `borg list` shows what \
              is there.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "borg delete repo::archive",
        "borg delete --stats repo::archive",
        "borg delete -a 'sh:host-*'",
        "borg delete /srv/borg",
        "borg prune --keep-last 1 --keep-daily 7",
        "borg compact",
        "borg rdelete",
        "borg recreate --exclude '*.iso' repo::archive",
    ],
    passes: &[
        "borg delete --cache-only",
        "borg delete --dry-run repo::archive",
        "borg prune -n --list --keep-daily 7 repo",
        "borg list repo",
        "borg create repo::archive /srv/data",
        "borg extract --dry-run repo::archive",
        "borg check repo",
        "borg recreate --recompress always --compression zstd repo",
        "borg recreate --exclude '*.iso' --target slim repo::archive",
    ],
};

pub static VELERO_DELETE: Rule = Rule {
    id: "backup.velero-delete",
    catches: "`velero backup|restore|schedule|snapshot|backup-location|snapshot-location \
              delete` and the `velero delete <kind>` spelling",
    why: "Deleting a Velero backup deletes its files in object storage and its volume \
          snapshots: the cluster's way back after a bad deploy or a deleted namespace. \
          Deleting a schedule silently stops future backups.",
    instead: "`velero backup describe <name>` / `velero backup get` to check what it is; let \
              a backup's TTL expire it; `velero schedule pause <name>` instead of deleting a \
              schedule.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "velero backup delete daily-backup --confirm",
        "velero backup delete --all --confirm",
        "velero backup delete --selector env=prod --confirm",
        "velero restore delete restore-2025-01-01",
        "velero schedule delete nightly --confirm",
        "velero delete backup daily-backup",
    ],
    passes: &[
        "velero backup get",
        "velero backup describe daily-backup --details",
        "velero backup create backup_name",
        "velero schedule pause nightly",
        "velero restore create --from-backup daily-backup",
        "velero get backups",
    ],
};

pub static PACK: Pack = Pack {
    id: "backup",
    summary: "backups: restic forget/prune, Borg delete/prune/compact, Velero deletes, Duplicacy prune, Duplicity remove with `--force`, Kopia snapshot deletes, Tarsnap deletes, rdiff-backup increment removal; Timeshift and Snapper snapshot deletes",
    default_on: true,
    programs: &[
        "restic",
        "borg",
        "borg2",
        "velero",
        "duplicacy",
        "duplicity",
        "kopia",
        "tarsnap",
        "rdiff-backup",
        "rdiff-backup-delete",
        "timeshift",
        "snapper",
    ],
    rules: &[
        &RESTIC_FORGET,
        &BORG_DELETE,
        &VELERO_DELETE,
        &DUPLICACY_PRUNE,
        &DUPLICITY_REMOVE,
        &KOPIA_DELETE,
        &TARSNAP_DELETE,
        &RDIFF_BACKUP_REMOVE,
        &SYSTEM_SNAPSHOT_DELETE,
    ],
    check,
};

fn check(cmd: &SimpleCommand) -> Vec<Hit> {
    let args = cmd.args();
    if asks_help(args) {
        return Vec::new();
    }
    let hit = match cmd.program() {
        Some("restic") => restic(args, cmd),
        Some("borg" | "borg2") => borg(args, cmd),
        Some("velero") => velero(args),
        Some("duplicacy") => repositories::duplicacy(args, cmd),
        Some("duplicity") => repositories::duplicity(args),
        Some("kopia") => repositories::kopia(args),
        Some("tarsnap") => repositories::tarsnap(args),
        Some("rdiff-backup") => repositories::rdiff_backup(args),
        Some("rdiff-backup-delete") => repositories::rdiff_backup_delete(args),
        Some("timeshift") => system_snapshots::timeshift(args),
        Some("snapper") => system_snapshots::snapper(args),
        _ => None,
    };
    hit.into_iter().collect()
}

fn dry_run(args: &[Word]) -> bool {
    args::dry_run(args, &["--dry-run", "-n"])
}

/// restic options (global, `forget` and `prune`) that take the next word as their value.
const RESTIC_VALUED: &[&str] = &[
    "-r",
    "--repo",
    "--repository-file",
    "-p",
    "--password-file",
    "--password-command",
    "--cache-dir",
    "-o",
    "--option",
    "--limit-upload",
    "--limit-download",
    "--key-hint",
    "--cacert",
    "--tls-client-cert",
    "--pack-size",
    "--compression",
    "--retry-lock",
    "--keep-last",
    "-l",
    "--keep-hourly",
    "-H",
    "--keep-daily",
    "-d",
    "--keep-weekly",
    "-w",
    "--keep-monthly",
    "-m",
    "--keep-yearly",
    "-y",
    "--keep-within",
    "--keep-within-hourly",
    "--keep-within-daily",
    "--keep-within-weekly",
    "--keep-within-monthly",
    "--keep-within-yearly",
    "--keep-tag",
    "--tag",
    "--host",
    "--path",
    "--group-by",
    "-g",
    "--max-unused",
    "--max-repack-size",
];

fn restic(args: &[Word], cmd: &SimpleCommand) -> Option<Hit> {
    let ops = operands(args, RESTIC_VALUED);
    let sub = *ops.first()?;
    let rewrite_forget = sub == "rewrite" && has(args, &["--forget"]);
    if !(matches!(sub, "forget" | "prune") || rewrite_forget) || dry_run(args) {
        return None;
    }
    let preview = format!("`{} --dry-run` lists what would be removed", cmd.display());
    let hit = if rewrite_forget {
        Hit::new(
            &RESTIC_FORGET,
            Tier::Destructive,
            "rewrites the snapshots without the excluded files and removes the originals \
             (`--forget`): the excluded files are then in no snapshot",
        )
        .recovery(
            "the data stays until the next `restic prune`: `restic recover` makes a snapshot \
             of what is left unreferenced",
        )
    } else if sub == "prune" {
        Hit::new(
            &RESTIC_FORGET,
            Tier::Destructive,
            "deletes from the repository all data that no snapshot references any more: \
             whatever `restic forget` left recoverable",
        )
        .recovery("none: pruned data is gone from the repository")
    } else {
        let prune = has(args, &["--prune"]);
        let ids = ops.get(1..).unwrap_or_default();
        let what = if has(args, &["--unsafe-allow-remove-all"]) {
            "may remove every snapshot in the repository".to_string()
        } else if !ids.is_empty() && !has_policy(args) {
            format!("removes snapshot {}", list(ids.iter().copied()))
        } else {
            "removes every snapshot its keep policy does not keep".to_string()
        };
        let (data, recovery) = if prune {
            (
                " and deletes their data from the repository",
                "none: `--prune` deletes the data at once",
            )
        } else {
            (
                "",
                "the data stays until the next `restic prune`: `restic recover` makes a \
                 snapshot of what is left unreferenced",
            )
        };
        Hit::new(&RESTIC_FORGET, Tier::Destructive, format!("{what}{data}")).recovery(recovery)
    };
    Some(hit.safer(preview))
}

/// Whether a keep policy is given (`--keep-last 3`, `-d 7`).
fn has_policy(args: &[Word]) -> bool {
    args::read(args, RESTIC_VALUED)
        .opts
        .iter()
        .any(|o| o.name.starts_with("keep-") || matches!(o.name, "l" | "H" | "d" | "w" | "m" | "y"))
}

/// Borg options that take the next word as their value.
const BORG_VALUED: &[&str] = &[
    "--remote-path",
    "--rsh",
    "--lock-wait",
    "--umask",
    "-r",
    "--repo",
    "-a",
    "--match-archives",
    "--glob-archives",
    "-P",
    "--prefix",
    "--keep-within",
    "--keep-last",
    "--keep-secondly",
    "--keep-minutely",
    "-H",
    "--keep-hourly",
    "-d",
    "--keep-daily",
    "-w",
    "--keep-weekly",
    "-m",
    "--keep-monthly",
    "-y",
    "--keep-yearly",
    "--sort-by",
    "--first",
    "--last",
    "--threshold",
    "--checkpoint-interval",
    "--target",
    "-e",
    "--exclude",
    "--exclude-from",
    "--pattern",
    "--patterns-from",
    "--exclude-if-present",
    "-C",
    "--compression",
    "--recompress",
    "--comment",
    "--timestamp",
];

/// `borg recreate` options that drop files from the archives they rewrite.
const RECREATE_FILTERS: &[&str] = &[
    "-e",
    "--exclude",
    "--exclude-from",
    "--pattern",
    "--patterns-from",
    "--exclude-caches",
    "--exclude-if-present",
];

fn borg(args: &[Word], cmd: &SimpleCommand) -> Option<Hit> {
    let ops = operands(args, BORG_VALUED);
    let sub = *ops.first()?;
    let targets = ops.get(1..).unwrap_or_default();
    if dry_run(args) {
        return None;
    }
    let preview = format!(
        "`{} --dry-run --list` lists the archives it would remove; `borg list` shows what \
         is there",
        cmd.display()
    );
    let undelete = "none once `borg compact` has run (Borg 2 can `borg undelete` archives \
                    until then)";
    let (loses, recovery) = match sub {
        "delete" => {
            if has(args, &["--cache-only"]) {
                return None;
            }
            let archives: Vec<&str> = targets
                .iter()
                .copied()
                .filter(|t| t.split_once("::").is_some_and(|(_, a)| !a.is_empty()))
                .collect();
            let pattern = value(args, &["-a", "--match-archives", "--glob-archives"]);
            let repo_given = value(args, &["-r", "--repo"]).is_some();
            if !archives.is_empty() {
                (
                    format!("deletes archive {}", list(archives.iter().copied())),
                    undelete,
                )
            } else if let Some(p) = pattern {
                (format!("deletes every archive matching `{p}`"), undelete)
            } else if repo_given && !targets.is_empty() {
                (
                    format!("deletes archive {}", list(targets.iter().copied())),
                    undelete,
                )
            } else {
                let repo = targets
                    .first()
                    .map_or("the repository in `BORG_REPO`".to_string(), |r| {
                        format!("repository `{}`", r.trim_end_matches("::"))
                    });
                (
                    format!("deletes {repo} with every archive in it"),
                    "none: the repository is gone",
                )
            }
        }
        "prune" => (
            "deletes every archive its keep policy does not keep".to_string(),
            undelete,
        ),
        "compact" | "repo-compact" | "rcompact" => (
            "frees the space of deleted archives for good, ending any chance to bring them \
             back"
                .to_string(),
            "none: compacted segments are gone",
        ),
        "repo-delete" | "rdelete" => (
            "deletes the whole repository with every archive in it".to_string(),
            "none: the repository is gone",
        ),
        // Without `--target`, recreate replaces each archive by one without what its
        // excludes or paths (after the archive) leave out; recompressing alone keeps every file.
        "recreate"
            if !has(args, &["--target"]) && (has(args, RECREATE_FILTERS) || targets.len() > 1) =>
        {
            (
                "rewrites the archives in place without the files its excludes or paths leave \
                 out: those files are then in no archive"
                    .to_string(),
                undelete,
            )
        }
        _ => return None,
    };
    Some(
        Hit::new(&BORG_DELETE, Tier::Destructive, loses)
            .safer(preview)
            .recovery(recovery),
    )
}

/// Velero options that take the next word as their value.
const VELERO_VALUED: &[&str] = &[
    "--selector",
    "-l",
    "--namespace",
    "-n",
    "--kubeconfig",
    "--kubecontext",
    "--features",
    "-o",
    "--output",
];

fn velero(args: &[Word]) -> Option<Hit> {
    let ops = operands(args, VELERO_VALUED);
    let (kind, names) = match ops.as_slice() {
        ["delete", kind, names @ ..] => (*kind, names),
        [kind, "delete", names @ ..] => (*kind, names),
        _ => return None,
    };
    let kind = kind.strip_suffix('s').unwrap_or(kind);
    let given = value(args, &["--name"])
        .map(|n| vec![n])
        .unwrap_or_else(|| names.to_vec());
    let which = if has(args, &["--all"]) {
        format!("every {kind}")
    } else if let Some(sel) = value(args, &["--selector", "-l"]) {
        format!("every {kind} matching `{sel}`")
    } else if given.is_empty() {
        format!("the {kind} given")
    } else {
        format!("{kind} {}", list(given.iter().copied()))
    };
    let (loses, safer, recovery) = match kind {
        "backup" => (
            format!("deletes {which}: the backup files in object storage and its volume snapshots"),
            "`velero backup describe <name>` and `velero backup download <name>` to keep a \
             copy; a backup's TTL expires it on schedule",
            "none: the backup data and snapshots are deleted",
        ),
        "restore" => (
            format!("deletes {which}: its record, logs and results (restored resources stay)"),
            "`velero restore logs <name>` and `velero restore describe <name>` to keep them",
            "none for the logs and results",
        ),
        "schedule" => (
            format!("deletes {which}: no more backups are taken on it"),
            "`velero schedule pause <name>` stops it without deleting it",
            "`velero schedule create` again from `velero schedule get <name> -o yaml`",
        ),
        "snapshot" => (
            format!("deletes {which}: a volume's backup copy"),
            "`velero backup describe <backup> --details` to see which backups rely on it",
            "none: the snapshot is deleted",
        ),
        "backup-location" | "snapshot-location" => {
            return Some(
                Hit::new(
                    &VELERO_DELETE,
                    Tier::Destructive,
                    format!("deletes {which}: Velero stops seeing the backups kept there"),
                )
                .safer(format!(
                    "`velero {kind} get <name> -o yaml` to keep its definition"
                ))
                .recovery(format!(
                    "`velero {kind} create` with the same settings; the data in the bucket stays"
                )),
            );
        }
        _ => return None,
    };
    Some(
        Hit::new(&VELERO_DELETE, Tier::Destructive, loses)
            .safer(safer)
            .recovery(recovery),
    )
}
