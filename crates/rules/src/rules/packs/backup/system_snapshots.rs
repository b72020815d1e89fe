//! The machine's own snapshots: Timeshift and Snapper. They are what brings a system back after
//! a bad upgrade or a deleted folder, and deleting them is silent until that day.

use crate::rules::git::list;
use crate::rules::packs::args::{has, operands, value};
use crate::rules::{Hit, Rule, Tier};
use crate::shell::Word;

pub static SYSTEM_SNAPSHOT_DELETE: Rule = Rule {
    id: "backup.system-snapshot-delete",
    catches: "`timeshift --delete [--snapshot <name>]`, `timeshift --delete-all`, `snapper \
              delete`/`remove`/`rm <number or range>`, `snapper delete-config`",
    why: "Timeshift and Snapper snapshots are the machine's way back after a bad upgrade or a \
          deleted folder. A deleted snapshot cannot be restored from, and `--delete-all` or a \
          range such as `1-20` takes every one of them.",
    instead: "`timeshift --list` / `snapper list` to see what is there; leave old snapshots to \
              the retention settings (`snapper cleanup` follows the configured limits).",
    protected_when: None,
    strict_only: false,
    stops: &[
        "timeshift --delete-all",
        "sudo timeshift --delete --snapshot '2025-01-01_10-00-01'",
        "timeshift --delete --snapshot-device /dev/sda2 --scripted",
        "snapper delete 1-20",
        "snapper -c home delete 42",
        "sudo snapper -c root rm --sync 3 4 5",
        "snapper -c home delete-config",
    ],
    passes: &[
        "timeshift --list",
        "sudo timeshift --check",
        "sudo timeshift --create --comments 'before upgrade'",
        "snapper list",
        "snapper -c config list",
        "snapper -c root create -d 'before upgrade'",
        "snapper list-configs",
        "snapper cleanup number",
        "snapper status 41..42",
    ],
};

pub(super) fn timeshift(args: &[Word]) -> Option<Hit> {
    let (loses, safer) = if has(args, &["--delete-all"]) {
        (
            "deletes every Timeshift snapshot: the machine keeps no way back".to_string(),
            "`timeshift --list` to see them; delete one by name if space is needed",
        )
    } else if has(args, &["--delete"]) {
        let which = value(args, &["--snapshot"])
            .map_or("the snapshot it asks for".to_string(), |s| {
                format!("the snapshot `{s}`")
            });
        (
            format!("deletes {which}: the system cannot be restored to it any more"),
            "`timeshift --list` to check which snapshot it is; leave old ones to the schedule's \
             retention",
        )
    } else {
        return None;
    };
    Some(
        Hit::new(&SYSTEM_SNAPSHOT_DELETE, Tier::Destructive, loses)
            .safer(safer)
            .recovery("none: a deleted snapshot is gone"),
    )
}

/// snapper's global options that take a value.
const SNAPPER_VALUED: &[&str] = &[
    "-c",
    "--config",
    "-r",
    "--root",
    "-t",
    "--table-style",
    "--machine-readable",
    "--separator",
];

pub(super) fn snapper(args: &[Word]) -> Option<Hit> {
    let ops = operands(args, SNAPPER_VALUED);
    let config = value(args, &["-c", "--config"]).unwrap_or("root");
    let loses = match ops.as_slice() {
        ["delete" | "remove" | "rm", numbers @ ..] => {
            let which = if numbers.is_empty() {
                "the snapshots given".to_string()
            } else {
                format!("snapshots {}", list(numbers.iter().copied()))
            };
            format!("deletes {which} of the `{config}` configuration")
        }
        ["delete-config", ..] => {
            format!("deletes the `{config}` configuration together with every snapshot it holds")
        }
        _ => return None,
    };
    Some(
        Hit::new(&SYSTEM_SNAPSHOT_DELETE, Tier::Destructive, loses)
            .safer(format!(
                "`snapper -c {config} list` to see them; `snapper cleanup number` deletes only \
                 what the configured limits allow"
            ))
            .recovery("none: a deleted snapshot is gone"),
    )
}
