//! LVM: removing logical volumes, volume groups and physical volumes, shrinking a volume, and
//! merging a snapshot back into its origin.

use super::super::args::{Line, Style};
use super::{SNAPSHOT_ROLLBACK, asks};
use crate::rules::git::list;
use crate::rules::{Hit, Rule, Tier};
use crate::shell::{SimpleCommand, Word};

pub static LVM_REMOVE: Rule = Rule {
    id: "disk.lvm-remove",
    catches: "`lvremove` (a volume, or every volume of a group named alone), `vgremove`, \
              `pvremove -ff` of a disk a group still uses, `vgreduce --removemissing --force` \
              (also through `lvm <command>`), unless `-t`/`--test`",
    why: "A logical volume is a disk to whatever lives on it: a file system, a database, a \
          virtual machine's drive. Removing it, or the group holding it, frees its extents for \
          the next volume to overwrite; there is no trash, and `-f`/`-y` skip the only question \
          LVM asks.",
    instead: "`lvs`, `vgs`, `pvs` to see what is there; `lvchange -an <vg>/<lv>` or \
              `vgchange -an <vg>` to take it out of use and keep its data; `-t` (`--test`) to \
              see what the command would do.",
    protected_when: Some("when a word of the command names production"),
    strict_only: false,
    stops: &[
        "lvremove -f vg0/data",
        "sudo lvremove vg0",
        "lvremove /dev/vg0/home",
        "vgremove -f vg0",
        "lvm lvremove -y vg0/scratch",
        "pvremove -ff /dev/sdb1",
        "vgreduce --removemissing --force vg0",
        "lvremove -f vg0/prod-db",
    ],
    passes: &[
        "lvs",
        "vgs -o +devices",
        "lvremove -t vg0/data",
        "lvremove --help",
        "lvchange -an vg0/data",
        "pvremove -f /dev/sdb1",
        "vgreduce --removemissing vg0",
        "lvcreate -L 10G -n data vg0",
        "echo lvremove -f vg0/data",
    ],
};

pub static LVM_SHRINK: Rule = Rule {
    id: "disk.lvm-shrink",
    catches: "`lvreduce`, and `lvresize` to a smaller size (`-L -10G`, `-l -100`), without \
              `-r`/`--resizefs` (or `--fs resize`) and without `-t`",
    why: "Shrinking a logical volume under its file system cuts off whatever lies past the new \
          end: the tail of the file system, or of the database or disk image kept on it.",
    instead: "Add `-r` (`--resizefs`): LVM shrinks the file system first and fails rather than \
              cut into data; check sizes with `lvs` and `df -h` before.",
    protected_when: Some("when a word of the command names production"),
    strict_only: false,
    stops: &[
        "lvreduce -L 20G vg0/data",
        "lvreduce -f -l -100 vg0/data",
        "lvresize -L -10G vg0/data",
        "lvresize --size=-5G /dev/vg0/home",
        "lvm lvreduce -L -40G vg0/data",
    ],
    passes: &[
        "lvreduce -r -L 20G vg0/data",
        "lvresize -L -10G --resizefs vg0/data",
        "lvreduce --fs resize -L 20G vg0/data",
        "lvresize -L +10G vg0/data",
        "lvextend -L +40G -r vg0/data",
        "lvreduce -t -L 20G vg0/data",
    ],
};

/// LVM options that take the next word as their value.
const VALUED: &[&str] = &[
    "config",
    "commandprofile",
    "profile",
    "metadataprofile",
    "reportformat",
    "S",
    "select",
    "A",
    "autobackup",
    "lockopt",
    "devices",
    "devicesfile",
    "driverloaded",
    "journal",
    "L",
    "size",
    "l",
    "extents",
    "fs",
    "fsmode",
    "i",
    "stripes",
    "I",
    "stripesize",
    "type",
    "alloc",
    "poolmetadatasize",
];

const VGCFGRESTORE: &str = "`vgcfgrestore --list <vg>` lists the metadata LVM archived before \
                            each change; restoring the one from before brings the volumes back \
                            while their space was not reused or discarded (`issue_discards`)";

pub(super) fn check(program: &str, cmd: &SimpleCommand, args: &[Word]) -> Option<Hit> {
    if program == "lvm" {
        // `lvm lvremove ...`: the LVM shell runs its first word as the command.
        let (_, at) = Line::head(args, Style::Gnu, VALUED);
        let (command, rest) = args.get(at?..)?.split_first()?;
        return check(command.text.as_str(), cmd, rest);
    }
    let line = Line::parse(args, Style::Gnu, VALUED);
    if asks(args, &["-h", "--help", "-?"]) || line.on(&["t", "test"]) {
        return None;
    }
    match program {
        "lvremove" => lvremove(&line),
        "vgremove" => vgremove(&line),
        "pvremove" => pvremove(&line),
        "vgreduce" => vgreduce(&line),
        "lvreduce" | "lvresize" => shrink(program, cmd, &line),
        "lvconvert" => merge(&line),
        _ => None,
    }
}

fn removed(loses: String) -> Hit {
    Hit::new(&LVM_REMOVE, Tier::Destructive, loses).recovery(VGCFGRESTORE)
}

fn lvremove(line: &Line) -> Option<Hit> {
    let targets = &line.operands;
    let what = match line.value(&["S", "select"]) {
        Some(select) if targets.is_empty() => {
            format!("every logical volume matching `{select}`")
        }
        _ if targets.is_empty() => return None,
        // A volume group named alone stands for every volume in it (`@tag` names volumes).
        _ if targets
            .iter()
            .all(|t| !t.contains('/') && !t.starts_with('@')) =>
        {
            format!(
                "every logical volume in volume group {}",
                list(targets.iter().copied())
            )
        }
        _ => format!("logical volume {}", list(targets.iter().copied())),
    };
    Some(
        removed(format!(
            "removes {what}, with the file system and data on it"
        ))
        .safer(format!(
            "`{}` to see what is there; `lvchange -an <vg>/<lv>` takes a volume out of use and \
             keeps its data",
            [&["lvs"][..], targets].concat().join(" ")
        )),
    )
}

fn vgremove(line: &Line) -> Option<Hit> {
    let which = match line.value(&["S", "select"]) {
        Some(select) if line.operands.is_empty() => {
            format!("every volume group matching `{select}`")
        }
        _ if line.operands.is_empty() => return None,
        _ => format!("volume group {}", list(line.operands.iter().copied())),
    };
    let in_it = if line.operands.len() > 1 {
        "them"
    } else {
        "it"
    };
    Some(
        removed(format!(
            "removes {which} with every logical volume in {in_it} and the data they hold"
        ))
        .safer(
            "`vgs` and `lvs <vg>` to see what it holds; `vgchange -an <vg>` takes it out of \
             use and keeps the data",
        ),
    )
}

/// `pvremove` refuses a disk that a volume group uses unless forced twice (`-ff`); on a disk
/// no group uses, it only drops a label nothing reads.
fn pvremove(line: &Line) -> Option<Hit> {
    let forced = line
        .opts
        .iter()
        .filter(|(name, _)| matches!(*name, "f" | "force"))
        .count();
    if forced < 2 {
        return None;
    }
    Some(
        Hit::new(
            &LVM_REMOVE,
            Tier::Destructive,
            format!(
                "wipes the LVM label from {} even while a volume group uses it (`-ff`): the \
                 group loses that disk and every volume with space on it",
                list(line.operands.iter().copied())
            ),
        )
        .safer(
            "`pvs` shows which group uses the disk; `pvmove <disk>` then `vgreduce <vg> <disk>` \
             take it out of the group with its data moved first",
        )
        .recovery(
            "`pvcreate --uuid <old uuid> --restorefile /etc/lvm/archive/<vg>_<n>.vg <disk>` \
             then `vgcfgrestore <vg>`, while the disk was not reused",
        ),
    )
}

fn vgreduce(line: &Line) -> Option<Hit> {
    if !line.on(&["removemissing"]) || !line.on(&["f", "force"]) {
        return None;
    }
    Some(
        removed(format!(
            "removes from volume group {} every logical volume that had space on a missing \
             disk (`--force`), with their data",
            list(line.operands.iter().take(1).copied())
        ))
        .safer(
            "`vgreduce --removemissing <vg>` without `--force` refuses while volumes still use \
             the missing disk; `lvs -a -o +devices <vg>` shows which do",
        ),
    )
}

/// `lvreduce`, or `lvresize` to a smaller size, without shrinking the file system first.
fn shrink(program: &str, cmd: &SimpleCommand, line: &Line) -> Option<Hit> {
    let resizes_fs = line.on(&["r", "resizefs"])
        || matches!(line.value(&["fs"]), Some("resize" | "resize_fsadm"));
    let smaller = program == "lvreduce"
        || line
            .value(&["L", "size", "l", "extents"])
            .is_some_and(shrinks_by);
    if resizes_fs || !smaller {
        return None;
    }
    let volume = line.operand(0).unwrap_or("the volume");
    Some(
        Hit::new(
            &LVM_SHRINK,
            Tier::Destructive,
            format!(
                "shrinks `{volume}` without shrinking its file system first: whatever lies past \
                 the new end is cut off"
            ),
        )
        .safer(match line.value(&["fs"]) {
            Some(fs) => format!(
                "the same command with `--fs resize` instead of `--fs {fs}` shrinks the file \
                 system first and fails rather than cut into data; `lvs` and `df -h` show the \
                 sizes"
            ),
            None => format!(
                "`{} -r` shrinks the file system first and fails rather than cut into data; \
                 `lvs` and `df -h` show the sizes",
                cmd.display()
            ),
        })
        .recovery(format!(
            "{VGCFGRESTORE}; a file system cut short may still need `fsck`"
        )),
    )
}

/// Whether a size given to `lvresize` (`-L -10G`, `-l -50%FREE`, `+5G`, `20G`) is a negative
/// change: a signed number, then its unit.
fn shrinks_by(size: &str) -> bool {
    let number = size.trim_end_matches(|c: char| !c.is_ascii_digit());
    number.parse::<f64>().is_ok_and(f64::is_sign_negative)
}

/// `lvconvert --merge <snapshot>`: the origin goes back to the snapshot's content.
fn merge(line: &Line) -> Option<Hit> {
    if !line.on(&["merge", "mergesnapshot", "mergethin"]) {
        return None;
    }
    Some(
        Hit::new(
            &SNAPSHOT_ROLLBACK,
            Tier::Destructive,
            format!(
                "merges snapshot {} back into its origin: everything written to the origin \
                 since the snapshot was taken is discarded",
                list(line.operands.iter().copied())
            ),
        )
        .safer(
            "mount the snapshot read-only and copy what you need (`mount -o ro \
             /dev/<vg>/<snapshot> /mnt`); or snapshot the origin's current state first \
             (`lvcreate -s -n <origin>-now -L <size> <vg>/<origin>`)",
        )
        .recovery("none, unless the origin's current state was snapshotted first"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Settings;

    #[test]
    fn a_negative_size_shrinks() {
        for size in ["-10G", "-5g", "-50%FREE", "-1.5T", "-0"] {
            assert!(shrinks_by(size), "{size}");
        }
        for size in ["10G", "+10G", "+50%FREE", "100%VG", ""] {
            assert!(!shrinks_by(size), "{size}");
        }
    }

    #[test]
    fn the_lvm_shell_runs_the_command_after_its_options() {
        let judged = |line| crate::rules::packs::judged(line, &Settings::default());
        assert_eq!(
            judged("lvm --config 'devices{}' lvresize -L -10G vg0/data"),
            [("disk.lvm-shrink", Tier::Destructive)]
        );
        assert!(judged("lvm --config lvremove lvs").is_empty());
    }
}
