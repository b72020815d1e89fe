//! System containers: Incus and LXD (`incus`, `lxc`), and the classic LXC tools.

use super::super::args::{Line, Style, value};
use super::super::disk::asks;
use super::{by_count, destroyed, disk_deleted, named, reverted, snapshot_deleted};
use crate::rules::Hit;
use crate::rules::git::list;
use crate::shell::Word;

/// `incus ...` / `lxc ...` (LXD): cobra reads options anywhere, so the whole line is split at
/// once. `--explain` only prints how the command was understood.
pub(super) fn incus(program: &str, args: &[Word]) -> Option<Hit> {
    let line = Line::parse(args, Style::Gnu, &["project", "target"]);
    if line.help() || line.on(&["explain"]) {
        return None;
    }
    let ops = line.operands.as_slice();
    let snapshot_safer = format!("`{program} snapshot list <instance>` shows them");
    let revert_safer = format!(
        "`{program} snapshot create <instance> before-restore` first keeps the current state"
    );
    match ops {
        [delete, names @ ..] if is_delete(delete) && !names.is_empty() => {
            // `<instance>/<snapshot>` names a snapshot.
            let (snapshots, instances): (Vec<&str>, Vec<&str>) =
                names.iter().partition(|name| name.contains('/'));
            if instances.is_empty() {
                return Some(snapshot_deleted(
                    format!("deletes snapshot {}", list(snapshots.iter().copied())),
                    snapshot_safer,
                ));
            }
            Some(destroyed(
                format!(
                    "deletes instance {} with {}",
                    list(instances.iter().copied()),
                    by_count(
                        &instances,
                        "its root disk and snapshots",
                        "their root disks and snapshots"
                    )
                ),
                format!(
                    "`{program} stop <instance>` keeps it; `{program} export <instance> \
                     <file>.tar.gz` first keeps a copy"
                ),
                format!(
                    "`{program} import <file>.tar.gz` from an export taken before; without one, \
                     none"
                ),
            ))
        }
        ["rebuild", .., instance] => Some(destroyed(
            format!("wipes the root disk of instance `{instance}` and starts it afresh"),
            format!("`{program} export <instance> <file>.tar.gz` first keeps a copy"),
            "none for the old root disk, unless it was exported or snapshotted first",
        )),
        ["snapshot", delete, instance, snapshots @ ..] if is_delete(delete) => {
            Some(snapshot_deleted(
                format!(
                    "deletes snapshot {} of instance `{instance}`",
                    list(snapshots.iter().copied())
                ),
                snapshot_safer,
            ))
        }
        ["snapshot", "restore", instance, rest @ ..] | ["restore", instance, rest @ ..] => {
            Some(reverted(
                format!(
                    "restores instance `{instance}` to snapshot {}",
                    named(rest.first().copied(), "given")
                ),
                revert_safer,
            ))
        }
        ["storage", "volume", delete, pool, volumes @ ..] if is_delete(delete) => {
            Some(disk_deleted(
                format!(
                    "deletes storage volume {} from pool `{pool}` with {} data",
                    list(volumes.iter().copied()),
                    by_count(volumes, "its", "their")
                ),
                format!(
                    "`{program} storage volume export <pool> <volume> <file>` first keeps a copy"
                ),
            ))
        }
        ["storage", "volume", "rebuild", pool, volume, ..] => Some(disk_deleted(
            format!("wipes storage volume `{volume}` of pool `{pool}` and recreates it empty"),
            format!("`{program} storage volume export <pool> <volume> <file>` first keeps a copy"),
        )),
        [
            "storage",
            "volume",
            "snapshot",
            delete,
            pool,
            volume,
            snapshots @ ..,
        ] if is_delete(delete) => Some(snapshot_deleted(
            format!(
                "deletes snapshot {} of volume `{volume}` in pool `{pool}`",
                list(snapshots.iter().copied())
            ),
            format!("`{program} storage volume snapshot list <pool> <volume>` shows them"),
        )),
        [
            "storage",
            "volume",
            "snapshot",
            "restore",
            pool,
            volume,
            rest @ ..,
        ]
        | ["storage", "volume", "restore", pool, volume, rest @ ..] => Some(reverted(
            format!(
                "restores volume `{volume}` of pool `{pool}` to snapshot {}",
                named(rest.first().copied(), "given")
            ),
            format!(
                "`{program} storage volume snapshot create <pool> <volume> before-restore` first \
                 keeps the current state"
            ),
        )),
        ["storage", "bucket", delete, pool, buckets @ ..] if is_delete(delete) => {
            Some(disk_deleted(
                format!(
                    "deletes storage bucket {} of pool `{pool}` with every object in it",
                    list(buckets.iter().copied())
                ),
                format!("`{program} storage bucket list <pool>` shows the buckets"),
            ))
        }
        _ => None,
    }
}

fn is_delete(word: &str) -> bool {
    matches!(word, "delete" | "rm" | "remove")
}

const LXC_HELP: &[&str] = &["-h", "--help", "-?", "--usage", "--version"];

/// `lxc-destroy -n <name>` (or the name alone), `-s` with its snapshots.
pub(super) fn lxc_destroy(args: &[Word]) -> Option<Hit> {
    if asks(args, LXC_HELP) {
        return None;
    }
    let line = Line::parse(
        args,
        Style::Gnu,
        &[
            "n",
            "name",
            "P",
            "lxcpath",
            "o",
            "logfile",
            "l",
            "logpriority",
            "rcfile",
        ],
    );
    let name = named(
        line.value(&["n", "name"]).or(line.operand(0)),
        "the container",
    );
    let snapshots = if line.on(&["s", "snapshots"]) {
        " and its snapshots"
    } else {
        ""
    };
    Some(destroyed(
        format!("destroys container {name} with its root file system{snapshots}"),
        "`lxc-stop -n <name>` keeps it; `lxc-copy -n <name> -N <name>-keep` first keeps a copy",
        "none: the container's root file system is deleted",
    ))
}

/// `lxc-snapshot -d <snap>` deletes a snapshot; `-r <snap>` restores it over the container
/// itself unless `-N` names a new one.
pub(super) fn lxc_snapshot(args: &[Word]) -> Option<Hit> {
    if asks(args, LXC_HELP) {
        return None;
    }
    let name = value(args, &["-n", "--name"]);
    let container = named(name, "the container");
    if let Some(snapshot) = value(args, &["-d", "--destroy"]) {
        return Some(snapshot_deleted(
            format!("deletes snapshot `{snapshot}` of container {container}"),
            "`lxc-snapshot -n <name> -L` lists them",
        ));
    }
    let snapshot = value(args, &["-r", "--restore"])?;
    let new_name = value(args, &["-N", "--newname"]);
    if new_name.is_some() && new_name != name {
        return None;
    }
    Some(reverted(
        format!("restores snapshot `{snapshot}` over container {container}"),
        "`lxc-snapshot -n <name> -r <snapshot> -N <new name>` restores into a new container and \
         keeps this one",
    ))
}
