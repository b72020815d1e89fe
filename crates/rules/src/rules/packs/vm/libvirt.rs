//! libvirt's `virsh` and QEMU's `qemu-img`. `virsh destroy` only pulls a domain's plug and
//! `virsh undefine` alone only forgets its definition; both keep the disks and pass.

use super::super::args::{Line, Style};
use super::{destroyed, disk_deleted, named, reverted, snapshot_deleted};
use crate::rules::Hit;
use crate::shell::Word;

/// virsh options (global, and of the commands read here) that take a value.
const GLOBAL: &[&str] = &[
    "c",
    "connect",
    "d",
    "debug",
    "e",
    "escape",
    "k",
    "keepalive-interval",
    "K",
    "keepalive-count",
    "l",
    "log",
];
const VALUED: &[&str] = &[
    "domain",
    "pool",
    "vol",
    "snapshotname",
    "storage",
    "algorithm",
    "capacity",
];

pub(super) fn virsh(args: &[Word]) -> Option<Hit> {
    let (globals, Some(at)) = Line::head(args, Style::Gnu, GLOBAL) else {
        return None;
    };
    let (word, rest) = args.get(at..)?.split_first()?;
    let line = Line::parse(rest, Style::Gnu, VALUED);
    if globals.help() || line.help() {
        return None;
    }
    let domain = || named(line.value(&["domain"]).or(line.operand(0)), "the domain");
    let volume = || {
        let vol = named(line.value(&["vol"]).or(line.operand(0)), "given");
        match line.value(&["pool"]) {
            Some(pool) => format!("{vol} (pool `{pool}`)"),
            None => vol,
        }
    };
    match word.text.as_str() {
        "undefine" => {
            let storage = if line.on(&["remove-all-storage"]) {
                "every storage volume it uses".to_string()
            } else if let Some(volumes) = line.value(&["storage"]) {
                format!("the storage volumes `{volumes}`")
            } else if line.on(&[
                "wipe-storage",
                "delete-storage-volume-snapshots",
                "delete-snapshots",
            ]) {
                "its storage volumes".to_string()
            } else {
                return None;
            };
            let wiped = if line.on(&["wipe-storage"]) {
                ", wiped first"
            } else {
                ""
            };
            Some(destroyed(
                format!("undefines domain {} and deletes {storage}{wiped}", domain()),
                "`virsh undefine <domain>` without the storage options keeps the disk images; \
                 `virsh shutdown <domain>` stops it; `virsh dumpxml <domain>` keeps the \
                 definition",
                "none for the deleted volumes",
            ))
        }
        "vol-delete" => Some(disk_deleted(
            format!("deletes storage volume {} with its data", volume()),
            "`virsh vol-list <pool>` and `virsh vol-info` to check it; `virsh vol-download \
             <volume> <file> --pool <pool>` first keeps a copy",
        )),
        "vol-wipe" => Some(disk_deleted(
            format!(
                "wipes storage volume {}: its content is overwritten",
                volume()
            ),
            "`virsh vol-download <volume> <file> --pool <pool>` first keeps a copy",
        )),
        "vol-resize" if line.on(&["shrink"]) => Some(disk_deleted(
            format!(
                "shrinks storage volume {}: data past the new end is cut off",
                volume()
            ),
            "grow instead, or shrink the file system inside first and keep a copy",
        )),
        "pool-delete" => Some(disk_deleted(
            format!(
                "deletes the storage behind pool {} (its folder or volume group) with every \
                 volume in it",
                named(line.value(&["pool"]).or(line.operand(0)), "given")
            ),
            "`virsh pool-destroy <pool>` only stops the pool and `virsh pool-undefine <pool>` \
             only forgets it; both keep the data",
        )),
        // `--metadata` drops only libvirt's record and leaves the snapshot's data.
        "snapshot-delete" if !line.on(&["metadata"]) => {
            let snapshot = if line.on(&["current"]) {
                "the current snapshot".to_string()
            } else {
                format!(
                    "snapshot {}",
                    named(line.value(&["snapshotname"]).or(line.operand(1)), "given")
                )
            };
            let children = if line.on(&["children", "children-only"]) {
                " and its children"
            } else {
                ""
            };
            Some(snapshot_deleted(
                format!("deletes {snapshot}{children} of domain {}", domain()),
                "`virsh snapshot-list <domain> --tree` shows them",
            ))
        }
        "snapshot-revert" => {
            let snapshot = if line.on(&["current"]) {
                "its current snapshot".to_string()
            } else {
                format!(
                    "snapshot {}",
                    named(line.value(&["snapshotname"]).or(line.operand(1)), "given")
                )
            };
            Some(reverted(
                format!("reverts domain {} to {snapshot}", domain()),
                "`virsh snapshot-create-as <domain> before-revert` first keeps the current \
                 state",
            ))
        }
        _ => None,
    }
}

/// `qemu-img snapshot -d|-a <name> <image>`, `qemu-img resize --shrink <image> <size>`.
pub(super) fn qemu_img(args: &[Word]) -> Option<Hit> {
    let (command, rest) = args.split_first()?;
    let line = Line::parse(rest, Style::Gnu, &["f", "a", "c", "d", "object"]);
    if line.help() {
        return None;
    }
    let image = named(line.operand(0), "the image");
    match command.text.as_str() {
        "snapshot" => {
            if let Some(snapshot) = line.value(&["d"]) {
                Some(snapshot_deleted(
                    format!("deletes internal snapshot `{snapshot}` of {image}"),
                    "`qemu-img snapshot -l <image>` shows them",
                ))
            } else {
                line.value(&["a"]).map(|snapshot| {
                    reverted(
                        format!("applies snapshot `{snapshot}` to {image}"),
                        "`qemu-img snapshot -c before-apply <image>` first keeps the current \
                         state",
                    )
                })
            }
        }
        "resize" if line.on(&["shrink"]) => Some(disk_deleted(
            format!("shrinks {image}: data past the new end is cut off"),
            "shrink the file system and partitions inside first, and copy the image \
             (`cp --reflink=auto <image> <image>.bak`)",
        )),
        _ => None,
    }
}
