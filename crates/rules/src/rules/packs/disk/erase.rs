//! Erasing a device below any file system: discards, LUKS headers and key slots, NVMe and
//! SCSI formats and sanitizes, destructive bad-block tests, RAID superblocks, ATA secure erase,
//! and forcing an LVM label over whatever a disk holds.

use super::super::args::{Line, Style, dry_run, has, operand_words, values, without};
use super::super::system::is_block_device;
use super::asks;
use crate::rules::git::list;
use crate::rules::{Hit, Rule, Tier};
use crate::shell::{SimpleCommand, Word};

pub static DEVICE_ERASE: Rule = Rule {
    id: "disk.device-erase",
    catches: "`blkdiscard`; `cryptsetup luksFormat` of a device, `cryptsetup erase`/`luksErase`; \
              `nvme format`/`sanitize`/`delete-ns`/`write-zeroes`; `badblocks -w`; `mdadm \
              --zero-superblock`/`--create`/`--build`/`--kill-subarray`; `hdparm \
              --security-erase(-enhanced)`, `--trim-sector-ranges`, `--write-sector`, \
              `--make-bad-sector`, `--fwdownload*`; `sg_format --format`; `sg_sanitize \
              --block`/`--crypto`/`--overwrite`; `pvcreate -f`/`-y`",
    why: "Each of these erases a disk or partition below any file system: discarded or \
          sanitized blocks read back as zeros, a new LUKS header or wiped key slots leave the \
          encrypted data unreadable for good, a format or a write-mode test overwrites every \
          block, and a RAID superblock is what holds an array together. An agent never needs \
          them for its work, and nothing brings the data back.",
    instead: "Look first: `lsblk -f`, `blkid`, `cryptsetup luksDump`, `nvme list`, `mdadm \
              --detail`, `hdparm -I`. Test read-only (`badblocks`, or `badblocks -n`, which \
              keeps the data). Try tools on an image file (`truncate -s 1G disk.img`, then \
              `cryptsetup luksFormat disk.img`). Leave real disks to the user.",
    protected_when: Some("always"),
    strict_only: false,
    stops: &[
        "blkdiscard /dev/nvme0n1",
        "sudo blkdiscard -f -s /dev/sda",
        "cryptsetup luksFormat /dev/sdb1",
        "cryptsetup -q --type luks2 luksFormat /dev/sdc keyfile",
        "cryptsetup erase /dev/sdb1",
        "nvme format /dev/nvme0n1 -s 1",
        "nvme sanitize /dev/nvme0 -a start-crypto-erase",
        "badblocks -w /dev/sdc",
        "badblocks -svw -b 4096 /dev/sdc",
        "mdadm --zero-superblock /dev/sdd1",
        "mdadm --create /dev/md0 --level=1 --raid-devices=2 /dev/sdb1 /dev/sdc1",
        "hdparm --user-master u --security-erase secret /dev/sdb",
        "sg_format --format /dev/sg1",
        "sg_sanitize --crypto /dev/sdb",
        "pvcreate -ff -y /dev/sdb",
    ],
    passes: &[
        "lsblk -f",
        "blkdiscard --help",
        "cryptsetup luksFormat disk.img",
        "cryptsetup luksDump /dev/sdb1",
        "cryptsetup open /dev/sdb1 data",
        "nvme list",
        "nvme smart-log /dev/nvme0",
        "nvme sanitize /dev/nvme0 -a exit-failure",
        "badblocks -n /dev/sdc",
        "badblocks -sv /dev/sdc",
        "mdadm --detail /dev/md0",
        "mdadm --assemble /dev/md0 /dev/sdb1 /dev/sdc1",
        "hdparm -I /dev/sda",
        "sg_format /dev/sg1",
        "sg_sanitize --dry-run --crypto /dev/sdb",
        "pvcreate /dev/sdb",
        "pvcreate -t -ff /dev/sdb",
    ],
};

pub static LUKS_KEY_REMOVE: Rule = Rule {
    id: "disk.luks-key-remove",
    catches: "`cryptsetup luksKillSlot`, `luksRemoveKey`, and `erase`/`luksErase` of a LUKS \
              image file",
    why: "A LUKS key slot is one of the ways to unlock the data; removing the last one, or \
          erasing them all, leaves the encrypted data unreadable for good. Which slot is the \
          last one only shows on the device itself.",
    instead: "`cryptsetup luksDump <device>` to see which key slots are in use; back the header \
              up first (`cryptsetup luksHeaderBackup <device> --header-backup-file <file>`); \
              `cryptsetup luksChangeKey` replaces a passphrase without removing access.",
    protected_when: Some("when a word of the command names production"),
    strict_only: false,
    stops: &[
        "cryptsetup luksKillSlot /dev/sdb1 1",
        "cryptsetup luksRemoveKey /dev/sdb1",
        "cryptsetup -q luksKillSlot vault.img 0",
        "cryptsetup luksErase vault.img",
    ],
    passes: &[
        "cryptsetup luksDump /dev/sdb1",
        "cryptsetup luksAddKey /dev/sdb1",
        "cryptsetup luksChangeKey /dev/sdb1",
        "cryptsetup luksHeaderBackup /dev/sdb1 --header-backup-file hdr.img",
        "cryptsetup status data",
    ],
};

pub(super) fn check(program: &str, cmd: &SimpleCommand, args: &[Word]) -> Option<Hit> {
    match program {
        "blkdiscard" => blkdiscard(args),
        "cryptsetup" => cryptsetup(args),
        "nvme" => nvme(args),
        "badblocks" => badblocks(cmd, args),
        "mdadm" => mdadm(args),
        "hdparm" => hdparm(args),
        "sg_format" => {
            (has(args, &["--format", "-F"]) && !dry_run(args, &["--dry-run"])).then(|| {
                erased(format!(
                    "formats {}: every block on it is erased",
                    device(args)
                ))
            })
        }
        "sg_sanitize" => (has(
            args,
            &["--block", "-B", "--crypto", "-C", "--overwrite", "-O"],
        ) && !dry_run(args, &["--dry-run"]))
        .then(|| {
            erased(format!(
                "sanitizes {}: all user data on it is erased",
                device(args)
            ))
        }),
        "pvcreate" => pvcreate(args),
        _ => None,
    }
}

fn erased(loses: String) -> Hit {
    Hit::new(
        &DEVICE_ERASE,
        Tier::Protected,
        format!("{loses}, with no undo"),
    )
    .safer("look first (`lsblk -f`, `blkid`), and leave the disk to the user")
    .recovery("only from a backup of the disk")
}

/// The device a command names, for the message: the first word that is a device (or is known
/// only when the command runs), else the last operand.
fn device(args: &[Word]) -> String {
    args.iter()
        .find_map(|w| match w.value() {
            Some(text) => is_block_device(text).then(|| format!("`{text}`")),
            None => Some(format!("`{}`", w.text)),
        })
        .or_else(|| {
            operand_words(args, &[])
                .last()
                .map(|w| format!("`{}`", w.text))
        })
        .unwrap_or_else(|| "the device".to_string())
}

fn blkdiscard(args: &[Word]) -> Option<Hit> {
    if asks(args, &["-h", "--help", "-V", "--version"]) {
        return None;
    }
    let line = Line::parse(
        args,
        Style::Gnu,
        &["o", "offset", "l", "length", "p", "step"],
    );
    let target = line.operand(0)?;
    let range = if line.given(&["o", "offset", "l", "length"]) {
        "the given range of"
    } else {
        "every block of"
    };
    Some(erased(format!(
        "discards {range} `{target}`: on an SSD the blocks read back as zeros at once"
    )))
}

/// Every action cryptsetup knows: the first operand that is one of them is the action, so an
/// option's value is never taken for it.
const CRYPTSETUP_ACTIONS: &[&str] = &[
    "open",
    "close",
    "status",
    "resize",
    "refresh",
    "luksFormat",
    "luksAddKey",
    "luksRemoveKey",
    "luksChangeKey",
    "luksConvertKey",
    "luksKillSlot",
    "luksUUID",
    "isLuks",
    "luksDump",
    "luksSuspend",
    "luksResume",
    "luksHeaderBackup",
    "luksHeaderRestore",
    "erase",
    "luksErase",
    "token",
    "convert",
    "config",
    "reencrypt",
    "benchmark",
    "repair",
    "tcryptDump",
    "bitlkDump",
    "fvault2Dump",
    "create",
    "remove",
    "luksOpen",
    "luksClose",
    "plainOpen",
    "loopaesOpen",
    "tcryptOpen",
    "bitlkOpen",
    "fvault2Open",
];

fn cryptsetup(args: &[Word]) -> Option<Hit> {
    if asks(args, &["--help", "-?", "--usage", "--version", "-V"]) {
        return None;
    }
    let words = operand_words(args, &[]);
    let at = words
        .iter()
        .position(|w| CRYPTSETUP_ACTIONS.contains(&w.text.as_str()))?;
    let (action, rest) = words.get(at..)?.split_first()?;
    let action = action.text.as_str();
    // A word known only at run time may be a device.
    let device = rest.iter().find(|w| w.value().is_none_or(is_block_device));
    let on_device = device.is_some();
    let target = device
        .or(rest.first())
        .map_or("the device", |w| w.text.as_str());
    match action {
        "luksFormat" if on_device => Some(erased(format!(
            "writes a new LUKS header over `{target}`: whatever it held, encrypted or not, can \
             no longer be read"
        ))),
        "erase" | "luksErase" if on_device => Some(
            erased(format!(
                "wipes every key slot of `{target}`: the encrypted data on it can never be \
                 unlocked again"
            ))
            .recovery(LUKS_HEADER_RESTORE),
        ),
        "erase" | "luksErase" => Some(key_removed(format!(
            "wipes every key slot of `{target}`: the encrypted data in it can never be unlocked \
             again"
        ))),
        "luksKillSlot" => Some(key_removed(format!(
            "removes key slot {} of `{target}`: if it was the last one, the encrypted data can \
             never be unlocked again",
            rest.get(1).map_or("given", |w| w.text.as_str())
        ))),
        "luksRemoveKey" => Some(key_removed(format!(
            "removes a passphrase from `{target}`: if it was the last one, the encrypted data \
             can never be unlocked again"
        ))),
        _ => None,
    }
}

const LUKS_HEADER_RESTORE: &str = "`cryptsetup luksHeaderRestore <device> --header-backup-file \
                                   <file>` from a header backup taken before; without one, none";

fn key_removed(loses: String) -> Hit {
    Hit::new(&LUKS_KEY_REMOVE, Tier::Destructive, loses)
        .safer(
            "`cryptsetup luksDump <device>` shows the key slots in use; `cryptsetup \
             luksHeaderBackup <device> --header-backup-file <file>` first keeps a way back",
        )
        .recovery(LUKS_HEADER_RESTORE)
}

/// `nvme <command> <device> ...`: the commands that erase a namespace or the whole drive.
fn nvme(args: &[Word]) -> Option<Hit> {
    let (command, rest) = args.split_first()?;
    if asks(rest, &["-h", "--help"]) {
        return None;
    }
    let dev = device(rest);
    let loses = match command.text.as_str() {
        "format" => format!("formats {dev}: every block of the namespace is erased"),
        "sanitize" => {
            let action = values(rest, &["-a", "--sanact"]).pop();
            if matches!(action, Some("1" | "0x1" | "0x01" | "exit-failure")) {
                return None;
            }
            format!("sanitizes {dev}: all user data on the drive is erased")
        }
        "delete-ns" => format!("deletes a namespace of {dev} with all the data in it"),
        "write-zeroes" => format!("writes zeros over blocks of {dev}"),
        _ => return None,
    };
    Some(erased(loses))
}

/// badblocks options that take a value.
const BADBLOCKS_VALUED: &[&str] = &["b", "c", "d", "e", "i", "o", "p", "t"];

fn badblocks(cmd: &SimpleCommand, args: &[Word]) -> Option<Hit> {
    let line = Line::parse(args, Style::Gnu, BADBLOCKS_VALUED);
    if !line.on(&["w"]) {
        return None;
    }
    let target = line.operand(0).unwrap_or("the device");
    Some(
        erased(format!(
            "writes test patterns over every block of `{target}` (`-w`): all data on it is \
             overwritten"
        ))
        .safer(format!(
            "`{}` tests read-only; add `-n` for the read-write test that keeps the data",
            without(cmd, &[BADBLOCKS_VALUED], &[], &['w'])
        )),
    )
}

fn mdadm(args: &[Word]) -> Option<Hit> {
    if asks(args, &["-h", "--help"]) {
        return None;
    }
    // Devices as written; a glob or variable is known only when the command runs.
    let devices: Vec<&str> = args
        .iter()
        .filter(|w| w.value().is_none_or(is_block_device))
        .map(|w| w.text.as_str())
        .collect();
    let loses = if has(args, &["--zero-superblock"]) {
        format!(
            "erases the RAID superblock of {}: the array no longer recognises {}",
            list(devices.iter().copied()),
            if devices.len() == 1 { "it" } else { "them" }
        )
    } else if has(args, &["-C", "--create", "-B", "--build"]) {
        let members = match devices.get(1..).unwrap_or_default() {
            [] => "the devices given".to_string(),
            members => list(members.iter().copied()),
        };
        format!(
            "builds a new array over {members}: what they held is overwritten by the new \
             array's superblocks and first sync"
        )
    } else if has(args, &["--kill-subarray"]) {
        "deletes a subarray from its container, with its data".to_string()
    } else {
        return None;
    };
    Some(erased(loses))
}

fn hdparm(args: &[Word]) -> Option<Hit> {
    if asks(args, &["-h", "--help"]) {
        return None;
    }
    let dev = device(args);
    let loses = if has(args, &["--security-erase", "--security-erase-enhanced"]) {
        format!("erases all of {dev} with the ATA secure-erase command")
    } else if has(
        args,
        &["--trim-sector-ranges", "--trim-sector-ranges-stdin"],
    ) {
        format!("discards sectors of {dev}")
    } else if has(args, &["--write-sector"]) {
        format!("overwrites a sector of {dev} with zeros")
    } else if has(args, &["--make-bad-sector"]) {
        format!("corrupts a sector of {dev} on purpose")
    } else if has(
        args,
        &[
            "--fwdownload",
            "--fwdownload-mode3",
            "--fwdownload-mode3-max",
            "--fwdownload-mode7",
        ],
    ) {
        format!("flashes new firmware onto {dev}: a wrong image leaves the drive unusable")
    } else {
        return None;
    };
    Some(erased(loses))
}

/// `pvcreate -f`/`-y` writes an LVM label even over a file system or another volume group's
/// disk; without them LVM asks first, and refuses when nobody answers.
fn pvcreate(args: &[Word]) -> Option<Hit> {
    if asks(args, &["-h", "--help", "-?"])
        || has(args, &["-t", "--test"])
        || !has(args, &["-f", "--force", "-y", "--yes"])
    {
        return None;
    }
    Some(erased(format!(
        "writes an LVM label over {} without checking for a file system or volume group \
         already on it",
        device(args)
    )))
}
