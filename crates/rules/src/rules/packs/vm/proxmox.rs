//! Proxmox VE: `qm` (virtual machines), `pct` (containers), `qmrestore` and `pvesm` (storage).
//! Their command line accepts any unambiguous beginning of a command (`qm des 101`) and long
//! options with one or two dashes; a boolean option may carry its value (`--force 1`).

use super::super::args::{Line, Style};
use super::super::disk::abbreviated;
use super::{destroyed, disk_deleted, reverted, snapshot_deleted};
use crate::rules::Hit;
use crate::shell::Word;

const QM: &[&str] = &[
    "list",
    "create",
    "destroy",
    "clone",
    "migrate",
    "remote-migrate",
    "set",
    "config",
    "pending",
    "showcmd",
    "status",
    "snapshot",
    "delsnapshot",
    "listsnapshot",
    "rollback",
    "template",
    "start",
    "stop",
    "reset",
    "shutdown",
    "reboot",
    "suspend",
    "resume",
    "sendkey",
    "vncproxy",
    "wait",
    "unlock",
    "importdisk",
    "move-disk",
    "move_disk",
    "rescan",
    "resize",
    "unlink",
    "disk",
    "enroll-efi-keys",
    "monitor",
    "agent",
    "guest",
    "mtunnel",
    "nbdstop",
    "terminal",
    "importovf",
    "cleanup",
    "cloudinit",
    "import",
    "help",
];

const QM_DISK: &[&str] = &["import", "move", "rescan", "resize", "unlink"];

const PCT: &[&str] = &[
    "list",
    "config",
    "pending",
    "set",
    "resize",
    "create",
    "restore",
    "destroy",
    "start",
    "suspend",
    "resume",
    "shutdown",
    "stop",
    "reboot",
    "clone",
    "migrate",
    "move-volume",
    "move_volume",
    "remote-migrate",
    "snapshot",
    "delsnapshot",
    "listsnapshot",
    "rollback",
    "template",
    "status",
    "console",
    "enter",
    "unlock",
    "exec",
    "fsck",
    "mount",
    "unmount",
    "push",
    "pull",
    "df",
    "rescan",
    "cpusets",
    "fstrim",
    "help",
];

const PVESM: &[&str] = &[
    "add",
    "set",
    "remove",
    "status",
    "list",
    "alloc",
    "free",
    "scan",
    "nfsscan",
    "cifsscan",
    "iscsiscan",
    "lvmscan",
    "lvmthinscan",
    "zfsscan",
    "path",
    "extractconfig",
    "export",
    "import",
    "apiinfo",
    "prune-backups",
    "help",
];

/// Options read here that take a value; booleans are among them because Proxmox lets them
/// carry one (`--force 0` is off).
const VALUED: &[&str] = &["archive", "force", "purge", "idlist", "storage", "delay"];

pub(super) fn check(program: &str, args: &[Word]) -> Option<Hit> {
    let line = Line::parse(args, Style::Go, VALUED);
    if line.on(&["help", "h"]) {
        return None;
    }
    let (&first, rest) = line.operands.split_first()?;
    if program == "qmrestore" {
        return restore_over("VM", rest.first().copied(), &line);
    }
    let table = match program {
        "qm" => QM,
        "pct" => PCT,
        _ => PVESM,
    };
    let guest = if program == "qm" { "VM" } else { "container" };
    let id = rest.first().copied();
    let of = |id: Option<&str>| format!("{guest} {}", id.unwrap_or("given"));
    match (program, abbreviated(first, table)?) {
        ("qm" | "pct", "destroy") => {
            let purge = if line.on(&["purge"]) {
                ", and drops it from backup jobs, replication and HA"
            } else {
                ""
            };
            let owns = if program == "qm" {
                "every disk it owns"
            } else {
                "its root file system and every volume it owns"
            };
            Some(destroyed(
                format!("destroys {} with {owns}{purge}", of(id)),
                format!(
                    "`{program} shutdown <id>` or `{program} stop <id>` keeps it; `vzdump <id>` \
                     first makes a backup"
                ),
                if program == "qm" {
                    "`qmrestore <backup> <id>` from a vzdump backup taken before; without one, none"
                } else {
                    "`pct restore <id> <backup>` from a vzdump backup taken before; without one, \
                     none"
                },
            ))
        }
        ("qm", "create") if line.value(&["archive"]).is_some() => restore_over("VM", id, &line),
        ("pct", "restore") => restore_over("container", id, &line),
        ("qm" | "pct", "delsnapshot") => Some(snapshot_deleted(
            format!(
                "deletes snapshot `{}` of {}",
                rest.get(1).unwrap_or(&"given"),
                of(id)
            ),
            format!("`{program} listsnapshot <id>` shows them"),
        )),
        ("qm" | "pct", "rollback") => Some(reverted(
            format!(
                "rolls {} back to snapshot `{}`",
                of(id),
                rest.get(1).unwrap_or(&"given")
            ),
            format!("`{program} snapshot <id> before-rollback` first keeps the current state"),
        )),
        ("qm", "unlink") => unlink(id, &line),
        ("qm", "disk") if abbreviated(rest.first()?, QM_DISK)? == "unlink" => {
            unlink(rest.get(1).copied(), &line)
        }
        ("pvesm", "free") => Some(disk_deleted(
            format!(
                "deletes volume `{}` from its storage with its data",
                id.unwrap_or("given")
            ),
            "`pvesm list <storage>` shows the volumes and which guest owns them",
        )),
        _ => None,
    }
}

/// A restore with `--force` onto an id that exists replaces that guest.
fn restore_over(guest: &str, id: Option<&str>, line: &Line) -> Option<Hit> {
    line.on(&["force"]).then(|| {
        destroyed(
            format!(
                "replaces {guest} {} with the backup (`--force`): its current disks and \
                 configuration are overwritten",
                id.unwrap_or("given")
            ),
            "restore to a free id instead, and compare before swapping",
            "none for the overwritten disks, unless they were backed up first",
        )
    })
}

/// `qm disk unlink --force` deletes the disks; without it they become `unused` entries.
fn unlink(id: Option<&str>, line: &Line) -> Option<Hit> {
    line.on(&["force"]).then(|| {
        disk_deleted(
            format!(
                "deletes disk {} of VM {} from storage (`--force`)",
                line.value(&["idlist"]).unwrap_or("given"),
                id.unwrap_or("given")
            ),
            "without `--force` the disks only become `unused` entries and stay on the storage",
        )
    })
}
