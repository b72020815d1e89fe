//! Backup repositories beyond restic and Borg: Duplicacy, Duplicity, Kopia, Tarsnap and
//! rdiff-backup. Each has a command that removes backups, and most guard it with a flag that
//! separates listing what would go from deleting it.

use crate::rules::git::list;
use crate::rules::packs::args::{Line, Style, dry_run, has, operands, value, values};
use crate::rules::{Hit, Rule, Tier};
use crate::shell::{SimpleCommand, Word};

pub static DUPLICACY_PRUNE: Rule = Rule {
    id: "backup.duplicacy-prune",
    catches: "`duplicacy prune` that deletes revisions (`-r`, `-t`, `-keep`) or deletes at once \
              (`-exclusive`), unless `-dry-run`/`-d`",
    why: "`duplicacy prune -r`/`-t`/`-keep` deletes backup revisions; a keep policy such as \
          `-keep 0:30` deletes every revision older than 30 days. `-exclusive` skips the two-step \
          fossil collection and deletes chunks at once, which also destroys the backups of any \
          other client writing to the storage at the same time.",
    instead: "The same command with `-dry-run` lists what would be deleted; `duplicacy list` \
              shows the revisions there are.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "duplicacy prune -exclusive",
        "duplicacy prune -r a1b2c3d",
        "duplicacy prune -r 344-350",
        "duplicacy prune -keep 0:360 -keep 30:180 -keep 7:30",
        "duplicacy prune -all -keep 0:90",
        "duplicacy -log prune -id laptop -t nightly",
    ],
    passes: &[
        "duplicacy prune -keep 0:360 -dry-run",
        "duplicacy prune -r 6 -d",
        "duplicacy prune",
        "duplicacy list",
        "duplicacy check",
        "duplicacy backup",
        "duplicacy restore -r a1b2c3d",
    ],
};

pub static DUPLICITY_REMOVE: Rule = Rule {
    id: "backup.duplicity-remove",
    catches: "`duplicity remove-older-than`, `remove-all-but-n-full`, `remove-all-inc-of-but-n-full` \
              with `--force`",
    why: "With `--force` these delete backup sets from the backend: everything older than a \
          time, or every full backup chain but the last N. Without `--force` duplicity only \
          lists what it would delete.",
    instead: "Run it without `--force` to list what would be deleted; `duplicity \
              collection-status <url>` shows the backup chains there are.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "duplicity remove-older-than 1D --force file:///srv/backup",
        "duplicity remove-older-than 1Y --force webdavs://user@host/backups",
        "duplicity remove-all-but-n-full 1 --force s3://bucket/prefix",
        "duplicity remove-all-inc-of-but-n-full 2 --force sftp://host//backups",
        "duplicity --force remove-older-than 6M b2://key@bucket",
    ],
    passes: &[
        "duplicity remove-older-than 1D file:///srv/backup",
        "duplicity remove-all-but-n-full 1 s3://bucket/prefix",
        "duplicity collection-status file:///srv/backup",
        "duplicity list-current-files file:///srv/backup",
        "duplicity cleanup --force file:///srv/backup",
        "duplicity /home/me file:///srv/backup",
        "duplicity remove-older-than 1D --force --dry-run file:///srv/backup",
    ],
};

pub static KOPIA_DELETE: Rule = Rule {
    id: "backup.kopia-delete",
    catches: "`kopia snapshot delete ... --delete`, `kopia snapshot expire --delete`, `kopia \
              blob delete`, `kopia content delete`",
    why: "`kopia snapshot delete --delete` removes snapshots, and `snapshot expire --delete` \
          removes every snapshot the retention policy no longer keeps; their data is then \
          collected by maintenance. Deleting blobs or contents directly breaks every snapshot \
          that uses them.",
    instead: "Run `kopia snapshot delete` or `kopia snapshot expire` without `--delete`: they \
              only say what would go. `kopia snapshot list` shows the snapshots there are.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "kopia snapshot delete k1234abcd --delete",
        "kopia snapshot delete /home/me --all-snapshots-for-source --delete",
        "kopia snapshot expire --all --delete",
        "kopia blob delete p0123456789abcdef",
    ],
    passes: &[
        "kopia snapshot delete k1234abcd",
        "kopia snapshot expire --all",
        "kopia snapshot list",
        "kopia snapshot create path/to/directory",
        "kopia snapshot restore k1234abcd path/to/target_directory",
        "kopia repository connect filesystem --path /srv/kopia",
        "kopia policy set --global --keep-latest 10",
    ],
};

pub static TARSNAP_DELETE: Rule = Rule {
    id: "backup.tarsnap-delete",
    catches: "`tarsnap -d -f <archive>` and `tarsnap --nuke`",
    why: "Tarsnap deletes are final: `-d` deletes the archives named with `-f`, `--nuke` every \
          archive the key can reach. There is no undelete on the service.",
    instead: "`tarsnap --list-archives` to see what is there; `tarsnap -tv -f <archive>` to see \
              what an archive holds before deleting it.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "tarsnap -d --keyfile /root/tarsnap.key -f home-2024-01-01",
        "tarsnap -d -f a -f b",
        "tarsnap --nuke --keyfile /root/tarsnap.key",
    ],
    passes: &[
        "tarsnap --list-archives --keyfile /root/tarsnap.key",
        "tarsnap -tv -f home-2024-01-01",
        "tarsnap -c -f home-2025-01-01 /home",
        "tarsnap -x -f home-2024-01-01",
        "tarsnap --fsck",
    ],
};

pub static RDIFF_BACKUP_REMOVE: Rule = Rule {
    id: "backup.rdiff-backup-remove",
    catches: "`rdiff-backup remove increments`, `rdiff-backup --remove-older-than`, \
              `rdiff-backup-delete <path>` (unless `--dry-run`)",
    why: "Removing increments deletes every version of the backed-up files older than the \
          given time: only the mirror and newer increments stay. `rdiff-backup-delete` removes \
          a file or folder from the repository with its whole history.",
    instead: "`rdiff-backup list increments <repo>` to see which versions exist; \
              `rdiff-backup-delete --dry-run <path>` shows what it would remove.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "rdiff-backup remove increments --older-than 2W /srv/backup",
        "rdiff-backup --remove-older-than 4W --force /home/backups/system",
        "rdiff-backup-delete /srv/backup/home/me/secret.txt",
    ],
    passes: &[
        "rdiff-backup list increments myrepo",
        "rdiff-backup backup path/to/source path/to/backup",
        "rdiff-backup restore --at 3D path/to/backup path/to/destination",
        "rdiff-backup-delete --dry-run /srv/backup/home/me/secret.txt",
        "rdiff-backup --list-increments /srv/backup",
    ],
};

/// Duplicacy's global options that take a value (before the command).
const DUPLICACY_VALUED: &[&str] = &[
    "-profile",
    "-comment",
    "-suppress",
    "-id",
    "-r",
    "-t",
    "-keep",
    "-ignore",
    "-storage",
    "-threads",
    "-pref-dir",
];

pub(super) fn duplicacy(args: &[Word], cmd: &SimpleCommand) -> Option<Hit> {
    if operands(args, DUPLICACY_VALUED).first() != Some(&"prune") {
        return None;
    }
    // Duplicacy spells its long options with one dash (`-id`, `-threads`), as Go's flag does.
    let valued: Vec<&str> = DUPLICACY_VALUED
        .iter()
        .map(|name| name.trim_start_matches('-'))
        .chain(["r", "t", "id"])
        .collect();
    let line = Line::parse(args, Style::Go, &valued);
    if line.dry_run(&["dry-run", "d"]) {
        return None;
    }
    let revisions = line.values(&["r"]);
    let tags = line.values(&["t"]);
    let keep = line.values(&["keep"]);
    let exclusive = line.on(&["exclusive"]);
    let who = if line.on(&["all", "a"]) {
        " of every snapshot id".to_string()
    } else {
        line.values(&["id"])
            .pop()
            .map_or_else(String::new, |id| format!(" of `{id}`"))
    };
    let mut parts = Vec::new();
    if !revisions.is_empty() {
        parts.push(format!("revisions {}", list(revisions.iter().copied())));
    }
    if !tags.is_empty() {
        parts.push(format!(
            "the revisions tagged {}",
            list(tags.iter().copied())
        ));
    }
    if !keep.is_empty() {
        parts.push(format!(
            "every revision its keep policy ({}) does not keep",
            list(keep.iter().copied())
        ));
    }
    let loses = match (parts.is_empty(), exclusive) {
        (true, false) => return None,
        (true, true) => "deletes the chunks of already pruned revisions at once, and with \
                         `-exclusive` the chunks of any backup another client is writing now"
            .to_string(),
        (false, _) => format!(
            "deletes {}{who}{}",
            parts.join(" and "),
            if exclusive {
                ", with their chunks at once (`-exclusive`)"
            } else {
                ""
            }
        ),
    };
    Some(
        Hit::new(&DUPLICACY_PRUNE, Tier::Destructive, loses)
            .safer(format!(
                "`{} -dry-run` lists what would be deleted; `duplicacy list` shows the revisions",
                cmd.display()
            ))
            .recovery(if exclusive {
                "none: `-exclusive` deletes the chunks at once"
            } else {
                "none for the revisions: their snapshot files are deleted at once (their chunks \
                 linger as fossils until the next prune)"
            }),
    )
}

pub(super) fn duplicity(args: &[Word]) -> Option<Hit> {
    if !has(args, &["--force"]) || dry_run(args, &["--dry-run"]) {
        return None;
    }
    // The action and its argument come as plain words, before or after the options.
    let words: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
    let at = words.iter().position(|w| {
        matches!(
            *w,
            "remove-older-than" | "remove-all-but-n-full" | "remove-all-inc-of-but-n-full"
        )
    })?;
    let arg = words.get(at + 1).copied().unwrap_or("?");
    let loses = match *words.get(at)? {
        "remove-older-than" => format!("deletes every backup set older than `{arg}`"),
        "remove-all-but-n-full" => {
            format!(
                "deletes every backup chain but the last {arg} full ones, with their increments"
            )
        }
        _ => format!("deletes the incremental backups of every chain but the last {arg} full ones"),
    };
    Some(
        Hit::new(&DUPLICITY_REMOVE, Tier::Destructive, loses)
            .safer(
                "the same command without `--force` lists what it would delete; `duplicity \
                 collection-status <url>` shows the chains there are",
            )
            .recovery("none: the backup files are deleted from the backend"),
    )
}

pub(super) fn kopia(args: &[Word]) -> Option<Hit> {
    let ops = operands(args, &["--config-file", "--log-dir", "--password", "-p"]);
    let confirmed = has(args, &["--delete", "--unsafe-ignore-source"]);
    let (loses, recovery) = match ops.as_slice() {
        ["snapshot" | "snap", "delete", ids @ ..] if confirmed => (
            if has(args, &["--all-snapshots-for-source"]) {
                format!("deletes every snapshot of {}", list(ids.iter().copied()))
            } else {
                format!("deletes snapshot {}", list(ids.iter().copied()))
            },
            "none: the snapshot is gone; its data is collected by the next full maintenance",
        ),
        ["snapshot" | "snap", "expire", ..] if confirmed => (
            "deletes every snapshot the retention policy no longer keeps".to_string(),
            "none: the snapshots are gone; their data is collected by the next full maintenance",
        ),
        ["blob", "delete", ids @ ..] => (
            format!(
                "deletes the repository blobs {} directly, breaking every snapshot that uses them",
                list(ids.iter().copied())
            ),
            "none: the blobs are gone",
        ),
        ["content", "delete" | "rm", ids @ ..] => (
            format!(
                "deletes the repository contents {}, breaking every snapshot that uses them",
                list(ids.iter().copied())
            ),
            "none once maintenance has run",
        ),
        _ => return None,
    };
    Some(
        Hit::new(&KOPIA_DELETE, Tier::Destructive, loses)
            .safer(
                "the same `kopia snapshot delete`/`expire` without `--delete` says what would \
                 go; `kopia snapshot list` shows the snapshots",
            )
            .recovery(recovery),
    )
}

pub(super) fn tarsnap(args: &[Word]) -> Option<Hit> {
    let loses = if has(args, &["--nuke"]) {
        "deletes every archive stored with this key".to_string()
    } else if has(args, &["-d"]) {
        let archives = values(args, &["-f"]);
        if archives.is_empty() {
            "deletes the archives named with `-f`".to_string()
        } else {
            format!("deletes archive {}", list(archives.iter().copied()))
        }
    } else {
        return None;
    };
    Some(
        Hit::new(&TARSNAP_DELETE, Tier::Destructive, loses)
            .safer("`tarsnap --list-archives` to see what is there; `tarsnap -tv -f <archive>` to see what it holds")
            .recovery("none: Tarsnap deletes are final"),
    )
}

pub(super) fn rdiff_backup(args: &[Word]) -> Option<Hit> {
    let ops = operands(
        args,
        &[
            "--older-than",
            "--api-version",
            "--terminal-verbosity",
            "-v",
        ],
    );
    let older = if let Some(time) = value(args, &["--remove-older-than"]) {
        time
    } else if ops.starts_with(&["remove", "increments"]) {
        value(args, &["--older-than"]).unwrap_or("the time given")
    } else {
        return None;
    };
    let repo = ops
        .last()
        .filter(|r| !matches!(**r, "remove" | "increments"))
        .map_or_else(String::new, |r| format!(" in `{r}`"));
    Some(
        Hit::new(
            &RDIFF_BACKUP_REMOVE,
            Tier::Destructive,
            format!("deletes every increment older than `{older}`{repo}: those versions of the files are gone"),
        )
        .safer("`rdiff-backup list increments <repo>` to see which versions exist")
        .recovery("none: removed increments are gone"),
    )
}

pub(super) fn rdiff_backup_delete(args: &[Word]) -> Option<Hit> {
    if dry_run(args, &["--dry-run"]) {
        return None;
    }
    let paths = operands(args, &[]);
    Some(
        Hit::new(
            &RDIFF_BACKUP_REMOVE,
            Tier::Destructive,
            format!(
                "deletes {} from the repository with its whole history",
                if paths.is_empty() {
                    "the path given".to_string()
                } else {
                    list(paths.iter().copied())
                }
            ),
        )
        .safer("the same command with `--dry-run` shows what it would remove")
        .recovery("none: no trace of the path stays in the repository"),
    )
}
