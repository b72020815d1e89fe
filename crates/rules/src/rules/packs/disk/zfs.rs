//! ZFS: destroying datasets, snapshots and pools, clearing a disk's label, and rolling a file
//! system back (or letting `zfs receive -F` do it).

use super::super::args::{Line, Style};
use super::{SNAPSHOT_ROLLBACK, asks};
use crate::rules::git::list;
use crate::rules::{Hit, Rule, Tier};
use crate::shell::{SimpleCommand, Word};

pub static ZFS_DESTROY: Rule = Rule {
    id: "disk.zfs-destroy",
    catches: "`zfs destroy` of a file system, volume or snapshot (`pool/fs@snap`, ranges \
              `@a%b`, lists `@a,b`), unless `-n`; `zpool destroy`; `zpool labelclear`",
    why: "A destroyed dataset takes every file in it at once, with `-r`/`-R` its children, \
          snapshots and clones too; a destroyed snapshot is a way back that is gone; a \
          destroyed pool is every dataset on its disks. ZFS has no trash.",
    instead: "`zfs destroy -nv ...` lists what would be destroyed and destroys nothing; \
              `zfs list -t all -r <pool>` shows what is there; `zfs send` a copy elsewhere \
              first; `zpool export <pool>` takes a pool offline and keeps it.",
    protected_when: Some("when a word of the command names production"),
    strict_only: false,
    stops: &[
        "zfs destroy -r tank/home",
        "sudo zfs destroy tank/scratch",
        "zfs destroy tank/home@2024-01-01",
        "zfs destroy -r tank@daily-%weekly-3",
        "zfs destroy -R pool/vm-disk",
        "zpool destroy tank",
        "zpool labelclear -f /dev/sdb",
        "zfs destroy -r tank/prod",
    ],
    passes: &[
        "zfs list",
        "zfs list -t snapshot -r tank",
        "zfs destroy -n -r tank/home",
        "zfs destroy -nv tank/home@2024-01-01",
        "zfs destroy -rnv tank/home",
        "zfs destroy tank/home#nightly",
        "zfs snapshot tank/home@before-upgrade",
        "zpool status",
        "zpool export tank",
        "echo zfs destroy tank/home",
    ],
};

pub(super) fn zfs(cmd: &SimpleCommand, args: &[Word]) -> Option<Hit> {
    let (sub, rest) = args.split_first()?;
    let sub = sub.text.as_str();
    if asks(rest, &["-?", "--help"]) {
        return None;
    }
    match sub {
        "destroy" => destroy(rest),
        "rollback" => rollback(rest),
        "receive" | "recv" => receive(cmd, rest),
        _ => None,
    }
}

pub(super) fn zpool(args: &[Word]) -> Option<Hit> {
    let (sub, rest) = args.split_first()?;
    let sub = sub.text.as_str();
    if asks(rest, &["-?", "--help"]) {
        return None;
    }
    let line = Line::parse(rest, Style::Gnu, &[]);
    let target = line.operand(0)?;
    let (loses, safer, recovery) = match sub {
        "destroy" => (
            format!("destroys pool `{target}` with every dataset, snapshot and file in it"),
            format!(
                "`zpool export {target}` takes the pool offline and keeps every byte; `zfs list \
                 -t all -r {target}` shows what it holds"
            ),
            "`zpool import -D` lists destroyed pools and can bring one back while its disks \
             were not reused",
        ),
        "labelclear" => (
            format!(
                "erases the ZFS label on `{target}`: the pool it belongs to can no longer find \
                 that disk"
            ),
            "`zpool status` and `zdb -l <disk>` show which pool the disk belongs to".to_string(),
            "only a redundant pool can rebuild the disk (`zpool replace`); otherwise a backup",
        ),
        _ => return None,
    };
    Some(
        Hit::new(&ZFS_DESTROY, Tier::Destructive, loses)
            .safer(safer)
            .recovery(recovery),
    )
}

/// `zfs destroy [-fnpRrvd] target...`.
fn destroy(args: &[Word]) -> Option<Hit> {
    let line = Line::parse(args, Style::Gnu, &[]);
    // A bookmark holds no data: it only marks where an incremental send may start.
    let targets: Vec<&str> = line
        .operands
        .iter()
        .copied()
        .filter(|t| !t.contains('#'))
        .collect();
    if line.on(&["n"]) || targets.is_empty() {
        return None;
    }
    let recursive = if line.on(&["R"]) {
        ", with every descendant, snapshot and clone that depends on it"
    } else if line.on(&["r"]) {
        ", with every descendant and snapshot"
    } else {
        ""
    };
    let snapshots = targets.iter().all(|t| t.contains('@'));
    let (loses, recovery) = if snapshots {
        let ranges = if targets.iter().any(|t| t.contains('%') || t.contains(',')) {
            " (every snapshot in the ranges and lists given)"
        } else {
            ""
        };
        (
            format!(
                "destroys snapshot {}{ranges}{recursive}: the blocks no other snapshot or file \
                 system shares are freed, and with them the way back to that point",
                list(targets.iter().copied())
            ),
            "none for the snapshot; the live file system is untouched",
        )
    } else {
        (
            format!(
                "destroys {} and every file in it{recursive}",
                list(targets.iter().copied())
            ),
            "none: the blocks are freed at once; only a copy sent elsewhere (`zfs send`) or a \
             pool checkpoint (`zpool import --rewind-to-checkpoint`) brings it back",
        )
    };
    let preview: Vec<String> = args.iter().map(Word::shell_quoted).collect();
    Some(
        Hit::new(&ZFS_DESTROY, Tier::Destructive, loses)
            .safer(format!(
                "`zfs destroy -nv {}` lists what would be destroyed and destroys nothing",
                preview.join(" ")
            ))
            .recovery(recovery),
    )
}

/// `zfs rollback [-rRf] fs@snap`: everything written since the snapshot goes; `-r`/`-R` also
/// destroy the snapshots (and clones) taken after it.
fn rollback(args: &[Word]) -> Option<Hit> {
    let line = Line::parse(args, Style::Gnu, &[]);
    let snapshot = line.operand(0)?;
    let (fs, name) = snapshot.split_once('@').unwrap_or((snapshot, "<snapshot>"));
    let later = if line.on(&["R"]) {
        ", and destroys every later snapshot and its clones"
    } else if line.on(&["r"]) {
        ", and destroys every later snapshot"
    } else {
        ""
    };
    Some(
        Hit::new(
            &SNAPSHOT_ROLLBACK,
            Tier::Destructive,
            format!("discards every change to `{fs}` since snapshot `{name}`{later}"),
        )
        .safer(format!(
            "copy what you need from `<mountpoint of {fs}>/.zfs/snapshot/{name}/`, or `zfs clone \
             {snapshot} <pool>/restored` to see the old state beside the new; or `zfs snapshot \
             {fs}@before-rollback` first"
        ))
        .recovery("none: the discarded changes are freed, unless a snapshot was taken first"),
    )
}

/// `zfs receive` options that take a value.
const RECEIVE_VALUED: &[&str] = &["o", "x"];

/// `zfs receive -F`: the target is rolled back to its latest snapshot first, and a replication
/// stream destroys the target's snapshots and file systems the sender no longer has.
fn receive(cmd: &SimpleCommand, args: &[Word]) -> Option<Hit> {
    let line = Line::parse(args, Style::Gnu, RECEIVE_VALUED);
    if !line.on(&["F"]) || line.on(&["n"]) {
        return None;
    }
    let target = line.operands.last().copied().unwrap_or("the target");
    Some(
        Hit::new(
            &SNAPSHOT_ROLLBACK,
            Tier::Destructive,
            format!(
                "forces `{target}` back to its latest snapshot before receiving (`-F`): changes \
                 made there since are discarded, and from a replication stream the snapshots \
                 and file systems the sender lacks are destroyed"
            ),
        )
        .safer(format!(
            "`{}` (without `-F` the receive refuses a target that changed); `zfs receive -n -v` \
             shows what the stream holds",
            super::super::args::without(cmd, &[&[], RECEIVE_VALUED], &[], &['F'])
        ))
        .recovery("none for what was discarded on the target"),
    )
}
