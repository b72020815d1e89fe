//! btrfs: deleting subvolumes and snapshots, and the repairs its own manual warns can finish
//! off a damaged file system. Commands and subcommands may be abbreviated (`btrfs su de`).

use super::super::args::{Line, Style, has};
use super::{abbreviated, asks};
use crate::rules::git::list;
use crate::rules::{Hit, Rule, Tier};
use crate::shell::Word;

pub static BTRFS_SUBVOLUME_DELETE: Rule = Rule {
    id: "disk.btrfs-subvolume-delete",
    catches: "`btrfs subvolume delete` of subvolumes or snapshots, in any abbreviation btrfs \
              accepts (`btrfs sub del`, `btrfs su d`), unless `btrfs --dry-run`",
    why: "A subvolume is a whole file tree (a home, a root file system, a container's storage); \
          deleting one removes every file in it at once, and a deleted snapshot is a way back \
          that is gone. btrfs has no undelete.",
    instead: "`btrfs subvolume list <mount>` to see what is there; `btrfs subvolume snapshot -r \
              <subvolume> <subvolume>-keep` before deleting keeps a read-only copy.",
    protected_when: Some("when a word of the command names production"),
    strict_only: false,
    stops: &[
        "btrfs subvolume delete /mnt/data/@home",
        "sudo btrfs sub del /.snapshots/42/snapshot",
        "btrfs su d path/to/subvolume",
        "btrfs subvolume delete -R /mnt/pool/containers",
        "btrfs -q subvolume delete --commit-after /srv/@var",
    ],
    passes: &[
        "btrfs subvolume list /mnt/data",
        "btrfs su l /",
        "btrfs subvolume show /mnt/data/@home",
        "btrfs subvolume snapshot -r /mnt/data/@home /mnt/data/@home-keep",
        "btrfs --dry-run subvolume delete /mnt/data/@home",
        "btrfs subvolume delete --help",
        "btrfs filesystem df /mnt/data",
        "btrfs device remove /dev/sdc /mnt/data",
    ],
};

pub static BTRFS_REPAIR: Rule = Rule {
    id: "disk.btrfs-repair",
    catches: "`btrfs check --repair`/`--init-csum-tree`/`--init-extent-tree` (also `btrfsck`), \
              `btrfs rescue zero-log`",
    why: "btrfs's own manual warns against `check --repair` unless a developer advises it: on \
          some damage it rewrites the trees into a file system that no longer mounts, losing \
          what a read-only copy could have saved. `rescue zero-log` drops the last writes \
          before a crash.",
    instead: "`btrfs check --readonly <device>` to see the damage; copy the files off first \
              with `btrfs restore <device> <folder>`; mount with `-o ro,rescue=all` to read \
              what is left; then leave the repair to the user.",
    protected_when: Some("when a word of the command names production"),
    strict_only: false,
    stops: &[
        "btrfs check --repair /dev/sdb1",
        "btrfsck --repair /dev/sdb1",
        "btrfs c --repair --init-extent-tree /dev/sdb1",
        "btrfs rescue zero-log /dev/sdb1",
    ],
    passes: &[
        "btrfs check /dev/sdb1",
        "btrfs check --readonly -p /dev/sdb1",
        "btrfs restore /dev/sdb1 /mnt/recovered",
        "btrfs rescue zero-log --help",
        "btrfs scrub start /mnt/data",
    ],
};

/// btrfs's command groups and commands, in the order btrfs matches them.
const COMMANDS: &[&str] = &[
    "balance",
    "check",
    "device",
    "filesystem",
    "inspect-internal",
    "property",
    "qgroup",
    "quota",
    "receive",
    "replace",
    "rescue",
    "restore",
    "scrub",
    "send",
    "subvolume",
    "help",
    "version",
];

const SUBVOLUME: &[&str] = &[
    "create",
    "delete",
    "list",
    "snapshot",
    "get-default",
    "set-default",
    "find-new",
    "show",
    "sync",
];

const RESCUE: &[&str] = &[
    "chunk-recover",
    "super-recover",
    "zero-log",
    "fix-device-size",
    "fix-data-checksum",
    "create-control-device",
    "clear-uuid-tree",
    "clear-ino-cache",
    "clear-space-cache",
];

/// `btrfs [global options] <group> [<command>] ...`.
pub(super) fn btrfs(args: &[Word]) -> Option<Hit> {
    let (globals, Some(at)) = Line::head(args, Style::Gnu, &["format", "log", "param"]) else {
        return None;
    };
    if globals.on(&["dry-run"]) || globals.help() {
        return None;
    }
    let (command, rest) = args.get(at..)?.split_first()?;
    match abbreviated(command.text.as_str(), COMMANDS)? {
        "check" => check(rest),
        "subvolume" => {
            let (command, rest) = rest.split_first()?;
            if abbreviated(command.text.as_str(), SUBVOLUME)? != "delete" || asks(rest, &["--help"])
            {
                return None;
            }
            subvolume_delete(rest)
        }
        "rescue" => {
            let (command, rest) = rest.split_first()?;
            if abbreviated(command.text.as_str(), RESCUE)? != "zero-log" || asks(rest, &["--help"])
            {
                return None;
            }
            let line = Line::parse(rest, Style::Gnu, &[]);
            let device = line.operand(0).unwrap_or("the device");
            Some(repair(format!(
                "clears the log tree of `{device}`: the last writes before the crash are dropped"
            )))
        }
        _ => None,
    }
}

/// `btrfs check` / `btrfsck`: only the options that write.
pub(super) fn check(args: &[Word]) -> Option<Hit> {
    const WRITES: &[&str] = &["--repair", "--init-csum-tree", "--init-extent-tree"];
    if asks(args, &["--help"]) || !has(args, WRITES) {
        return None;
    }
    let line = Line::parse(
        args,
        Style::Gnu,
        &[
            "s",
            "super",
            "b",
            "r",
            "tree-root",
            "chunk-root",
            "mode",
            "E",
            "subvol-extents",
            "Q",
            "clear-space-cache",
        ],
    );
    let device = line.operand(0).unwrap_or("the device");
    Some(repair(format!(
        "rewrites the trees of `{device}` in place: on some damage the file system no longer \
         mounts afterwards, and what a read-only copy could have saved is lost"
    )))
}

fn repair(loses: String) -> Hit {
    Hit::new(&BTRFS_REPAIR, Tier::Destructive, loses)
        .safer(
            "`btrfs check --readonly <device>` to see the damage, and `btrfs restore <device> \
             <folder>` to copy the files off first; leave the repair to the user",
        )
        .recovery("none: btrfs keeps no copy of the trees it rewrote")
}

fn subvolume_delete(args: &[Word]) -> Option<Hit> {
    let line = Line::parse(args, Style::Gnu, &["i", "subvolid"]);
    let targets = &line.operands;
    let first = targets.first()?;
    let nested = if line.on(&["R", "recursive"]) {
        " and every subvolume nested in it"
    } else {
        ""
    };
    let what = match line.value(&["i", "subvolid"]) {
        Some(id) => format!("subvolume id {id} of `{first}`"),
        None => format!("subvolume {}", list(targets.iter().copied())),
    };
    Some(
        Hit::new(
            &BTRFS_SUBVOLUME_DELETE,
            Tier::Destructive,
            format!("deletes {what}{nested}, with every file in it"),
        )
        .safer(format!(
            "`btrfs subvolume snapshot -r {first} {first}-keep` first keeps a read-only copy; \
             `btrfs subvolume list <mount>` shows what is there"
        ))
        .recovery(
            "none: a deleted subvolume cannot be brought back; a snapshot taken before it \
             (`btrfs subvolume list -s <mount>`) is the only way back",
        ),
    )
}
