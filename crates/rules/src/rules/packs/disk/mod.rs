//! Pack `disk`: what storage tools destroy below the file system. Removing an LVM volume or
//! group, shrinking one, destroying a ZFS dataset, pool or snapshot, rolling one back, deleting
//! a btrfs subvolume, and erasing a device (discard, LUKS format, NVMe format or sanitize,
//! destructive bad-block tests, RAID superblocks, ATA secure erase). Writing over a disk with
//! `dd`, `mkfs` or a partition tool stays with `system.disk-write`.

mod btrfs;
mod erase;
mod lvm;
mod zfs;

use super::Pack;
use crate::rules::{Hit, Rule};
use crate::shell::{SimpleCommand, Word};

pub use btrfs::{BTRFS_REPAIR, BTRFS_SUBVOLUME_DELETE};
pub use erase::{DEVICE_ERASE, LUKS_KEY_REMOVE};
pub use lvm::{LVM_REMOVE, LVM_SHRINK};
pub use zfs::ZFS_DESTROY;

pub static SNAPSHOT_ROLLBACK: Rule = Rule {
    id: "disk.snapshot-rollback",
    catches: "`zfs rollback` (`-r`/`-R` also destroy later snapshots), `zfs receive -F` (unless \
              `-n`), `lvconvert --merge` of an LVM snapshot",
    why: "Going back to a snapshot throws away everything written since it was taken: the \
          live file system or volume becomes the old one, and with `-r` the snapshots taken in \
          between are destroyed too. Nothing keeps the discarded state.",
    instead: "Copy the files you need out of the snapshot (`<mountpoint>/.zfs/snapshot/<name>/`, \
              or mount an LVM snapshot read-only), or clone it beside the live data (`zfs clone \
              <fs>@<snap> <pool>/restored`); snapshot the current state first if you must roll \
              back.",
    protected_when: Some("when a word of the command names production"),
    strict_only: false,
    stops: &[
        "zfs rollback tank/home@yesterday",
        "zfs rollback -r tank/db@before-migration",
        "zfs recv -F backup/home < home.zfs",
        "ssh src zfs send -R tank/home@now | zfs receive -F backup/home",
        "lvconvert --merge vg0/data-snap",
    ],
    passes: &[
        "zfs snapshot tank/home@before-rollback",
        "zfs clone tank/home@yesterday tank/restored",
        "zfs list -t snapshot tank/home",
        "zfs receive backup/home < home.zfs",
        "zfs receive -n -F backup/home < home.zfs",
        "lvconvert --type raid1 -m 1 vg0/data",
    ],
};

pub static PACK: Pack = Pack {
    id: "disk",
    summary: "volumes and devices: LVM removes and shrinks, ZFS destroys and rollbacks, btrfs subvolume deletes and repairs, device erasure (blkdiscard, LUKS format, NVMe format, badblocks -w, mdadm, hdparm secure erase)",
    default_on: true,
    programs: &[
        "lvm",
        "lvremove",
        "vgremove",
        "pvremove",
        "vgreduce",
        "lvreduce",
        "lvresize",
        "lvconvert",
        "pvcreate",
        "zfs",
        "zpool",
        "btrfs",
        "btrfsck",
        "blkdiscard",
        "cryptsetup",
        "nvme",
        "badblocks",
        "mdadm",
        "hdparm",
        "sg_format",
        "sg_sanitize",
    ],
    rules: &[
        &LVM_REMOVE,
        &LVM_SHRINK,
        &ZFS_DESTROY,
        &SNAPSHOT_ROLLBACK,
        &BTRFS_SUBVOLUME_DELETE,
        &BTRFS_REPAIR,
        &DEVICE_ERASE,
        &LUKS_KEY_REMOVE,
    ],
    check,
};

fn check(cmd: &SimpleCommand) -> Vec<Hit> {
    let Some(program) = cmd.program() else {
        return Vec::new();
    };
    let args = cmd.args();
    let hit = match program {
        "zfs" => zfs::zfs(cmd, args),
        "zpool" => zfs::zpool(args),
        "btrfs" => btrfs::btrfs(args),
        "btrfsck" => btrfs::check(args),
        "blkdiscard" | "cryptsetup" | "nvme" | "badblocks" | "mdadm" | "hdparm" | "sg_format"
        | "sg_sanitize" | "pvcreate" => erase::check(program, cmd, args),
        _ => lvm::check(program, cmd, args),
    };
    hit.into_iter().collect()
}

/// The command `word` names among `commands`: itself, or the one command it is an unambiguous
/// beginning of. Proxmox's tools and btrfs take abbreviations (`qm des 100`, `btrfs su d x`).
pub(super) fn abbreviated<'a>(word: &str, commands: &[&'a str]) -> Option<&'a str> {
    if let Some(exact) = commands.iter().find(|c| **c == word) {
        return Some(exact);
    }
    let mut matches = commands
        .iter()
        .filter(|c| !word.is_empty() && c.starts_with(word));
    match (matches.next(), matches.next()) {
        (Some(only), None) => Some(only),
        _ => None,
    }
}

/// Whether any word before `--` is exactly one of `spellings` (`--help`, `-?`): the tool prints
/// its usage and does nothing else. Each tool names its own, as `-h` means help to some tools
/// and something else (a hash, a host) to others.
pub(super) fn asks(args: &[Word], spellings: &[&str]) -> bool {
    args.iter()
        .map(|w| w.text.as_str())
        .take_while(|w| *w != "--")
        .any(|w| spellings.contains(&w))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Tier;
    use crate::settings::Settings;

    #[test]
    fn abbreviations_resolve_only_when_unambiguous() {
        let commands = ["delete", "delsnapshot", "destroy", "list"];
        assert_eq!(abbreviated("destroy", &commands), Some("destroy"));
        assert_eq!(abbreviated("des", &commands), Some("destroy"));
        assert_eq!(abbreviated("l", &commands), Some("list"));
        assert_eq!(abbreviated("de", &commands), None);
        assert_eq!(abbreviated("", &commands), None);
        assert_eq!(abbreviated("destroyer", &commands), None);
    }

    fn tiers(command: &str) -> Vec<(&'static str, Tier)> {
        crate::rules::packs::judged(command, &Settings::default())
    }

    #[test]
    fn volumes_named_for_production_are_protected() {
        assert_eq!(
            tiers("zfs destroy -r tank/prod"),
            [("disk.zfs-destroy", Tier::Protected)]
        );
        assert_eq!(
            tiers("lvremove -f vg0/db-production"),
            [("disk.lvm-remove", Tier::Protected)]
        );
        assert_eq!(
            tiers("zfs destroy -r tank/home"),
            [("disk.zfs-destroy", Tier::Destructive)]
        );
    }

    #[test]
    fn erasing_a_device_is_always_protected_and_reported_once() {
        for command in [
            "blkdiscard /dev/nvme0n1",
            "cryptsetup luksFormat /dev/sdb1",
            "nvme format /dev/nvme0n1 -s 1",
            "mdadm --zero-superblock /dev/sdd1",
        ] {
            assert_eq!(
                tiers(command),
                [("disk.device-erase", Tier::Protected)],
                "{command}"
            );
        }
    }
}
