//! Pack `system`: the machine itself. Deleting files the operating system is made of,
//! writing over or formatting a disk, and taking permissions or ownership of a whole system
//! folder. An agent never needs any of these for its work, and the damage is the machine's,
//! not one project's: every finding is protected.

use super::Pack;
use super::args::{dry_run, has, operand_words};
use crate::rules::fs::{OS_FOLDERS, is_system_folder};
use crate::rules::{Hit, Rule, Tier};
use crate::shell::{SimpleCommand, Word};

pub static RM_SYSTEM: Rule = Rule {
    id: "system.rm-system",
    catches: "`rm` (single files too) of anything in `/etc`, `/usr`, `/bin`, `/sbin`, `/lib*`, \
              `/boot`, `/var/lib` (`/usr/local` is the administrator's own and passes)",
    why: "These folders hold the operating system, its configuration and its packages' data; a \
          missing file there can stop the machine from booting, a service from starting or a \
          package manager from working, and nothing in the project's repository brings it back.",
    instead: "Leave system files to the package manager (`apt remove`, `dnf remove`, `brew \
              uninstall`); ask the user to make any change under `/etc` themselves.",
    protected_when: Some("always"),
    strict_only: false,
    stops: &[
        "sudo rm /etc/hosts",
        "rm -f /usr/bin/python3",
        "rm -rf /var/lib/postgresql/data",
        "rm /boot/vmlinuz-6.1.0",
        "rm -r /lib/modules/6.1.0",
    ],
    passes: &[
        "rm /tmp/x",
        "rm -f /usr/local/bin/mytool",
        "ls /etc",
        "cat /etc/hosts",
        "echo rm /etc/hosts",
    ],
};

pub static DISK_WRITE: Rule = Rule {
    id: "system.disk-write",
    catches: "`dd of=` a block device, `mkfs*`/`mkswap` of a device, `wipefs -a`, \
              `fdisk`/`sfdisk`/`sgdisk`/`parted` writes, `shred` of a device; PowerShell's \
              `Format-Volume`, `Clear-Disk` and `Remove-Partition`",
    why: "Writing over a disk, formatting it or rewriting its partition table destroys every \
          file system on it at once, with no trash and no undo.",
    instead: "Write to an image file instead (`dd of=disk.img`, `mkfs.ext4 disk.img`); list \
              before changing anything (`lsblk`, `fdisk -l`, `parted -l`, `wipefs` without \
              `-a`); leave disks to the user.",
    protected_when: Some("always"),
    strict_only: false,
    stops: &[
        "dd if=/dev/zero of=/dev/sda bs=1M",
        "sudo dd if=ubuntu.iso of=/dev/disk4",
        "mkfs.ext4 /dev/nvme0n1p2",
        "mkfs -t xfs /dev/sdb1",
        "wipefs -a /dev/sdb",
        "sfdisk /dev/sda < layout.txt",
        "parted -s /dev/sdb mklabel gpt",
        "shred -n 1 /dev/sdc",
        "pwsh -c 'Format-Volume -DriveLetter D'",
        "pwsh -c 'Clear-Disk -Number 1 -RemoveData'",
    ],
    passes: &[
        "dd if=/dev/sda of=backup.img",
        "dd if=/dev/urandom of=random.dat bs=1k count=1",
        "mkfs.ext4 disk.img",
        "fdisk -l",
        "parted /dev/sda print",
        "wipefs /dev/sdb",
        "shred -u secret.txt",
        "lsblk",
        "pwsh -c 'Get-Volume'",
        "pwsh -c 'Format-Volume -DriveLetter D -WhatIf'",
        "pwsh -c 'Initialize-Disk -Number 1'",
    ],
};

pub static PERMISSIONS: Rule = Rule {
    id: "system.permissions",
    catches: "`chmod -R`/`chown -R`/`chgrp -R` on `/` or a system folder",
    why: "Recursive permission or ownership changes across the system break `sudo`, `ssh` and \
          every service that checks its files' modes; the old modes are not recorded anywhere, \
          so they cannot be put back.",
    instead: "Change only the project's own files (`chmod -R u+w ./build`); ask the user for \
              anything outside them.",
    protected_when: Some("always"),
    strict_only: false,
    stops: &[
        "chmod -R 777 /",
        "sudo chown -R me:me /usr",
        "chmod -R a+w /etc/",
        "chgrp -R staff /var",
    ],
    passes: &[
        "chmod -R 755 ./public",
        "chmod 644 /etc/myapp.conf",
        "chown -R me /usr/local/share/app",
        "chmod -r notes.txt",
    ],
};

pub static PACK: Pack = Pack {
    id: "system",
    summary: "the machine itself: system files, disks and partitions, system-wide permissions",
    default_on: true,
    programs: &[
        "rm",
        "dd",
        "mkfs",
        "mkfs.ext2",
        "mkfs.ext3",
        "mkfs.ext4",
        "mkfs.xfs",
        "mkfs.btrfs",
        "mkfs.vfat",
        "mkfs.fat",
        "mkfs.msdos",
        "mkfs.exfat",
        "mkfs.ntfs",
        "mkfs.f2fs",
        "mkfs.bcachefs",
        "mkfs.minix",
        "mkfs.cramfs",
        "mkfs.hfsplus",
        "mkfs.jfs",
        "mkfs.reiserfs",
        "mkfs.udf",
        "mke2fs",
        "mkswap",
        "mkntfs",
        "wipefs",
        "fdisk",
        "sfdisk",
        "sgdisk",
        "parted",
        "shred",
        "chmod",
        "chown",
        "chgrp",
        "Format-Volume",
        "Clear-Disk",
        "Remove-Partition",
    ],
    rules: &[&RM_SYSTEM, &DISK_WRITE, &PERMISSIONS],
    check,
};

fn check(cmd: &SimpleCommand) -> Vec<Hit> {
    let Some(program) = cmd.program() else {
        return Vec::new();
    };
    let args = cmd.args();
    if has(args, &["--help", "--version"]) {
        return Vec::new();
    }
    let hit = match program {
        "rm" => rm(args),
        "dd" => dd(args),
        "chmod" | "chown" | "chgrp" => permissions(program, args),
        "wipefs" => (has(args, &["-a", "--all", "-o", "--offset"])
            && !dry_run(args, &["-n", "--no-act"]))
        .then(|| device_target(args, true))
        .flatten()
        .map(|dev| disk(format!("erases the file-system signatures on {dev}"))),
        "fdisk" | "sfdisk" => partition_table(program, args),
        "sgdisk" => {
            let writes = [
                "-Z",
                "--zap-all",
                "-z",
                "--zap",
                "-o",
                "--clear",
                "-d",
                "--delete",
                "-n",
                "--new",
                "-t",
                "--typecode",
                "-l",
                "--load-backup",
                "-G",
                "--randomize-guids",
            ];
            has(args, &writes)
                .then(|| device_target(args, false))
                .flatten()
                .map(|dev| disk(format!("rewrites the partition table of {dev}")))
        }
        "parted" => parted(cmd),
        "Format-Volume" | "Clear-Disk" | "Remove-Partition" => Some(windows_disk(program, args)),
        "shred" => device_target(args, false)
            .map(|dev| disk(format!("overwrites all of {dev} with random data"))),
        // mkfs and friends.
        _ => device_target(args, true).map(|dev| {
            disk(format!(
                "formats {dev}: every file system and file on it is gone"
            ))
        }),
    };
    hit.into_iter().collect()
}

fn disk(loses: String) -> Hit {
    Hit::new(
        &DISK_WRITE,
        Tier::Protected,
        format!("{loses}, with no undo"),
    )
    .safer("list first (`lsblk`, `fdisk -l`), and leave the disk to the user")
    .recovery("only from a backup of the disk")
}

/// PowerShell's disk cmdlets, as the PowerShell reader lowers them (its `-WhatIf` left out):
/// the volume, disk or partition is named by its parameters or piped in.
fn windows_disk(program: &str, args: &[Word]) -> Hit {
    const NAMING: &[&str] = &[
        "-driveletter",
        "-number",
        "-disknumber",
        "-partitionnumber",
        "-path",
        "-friendlyname",
        "-filesystemlabel",
        "-uniqueid",
        "-objectid",
    ];
    let named: Vec<String> = args
        .windows(2)
        .filter_map(|pair| match pair {
            [flag, value] => {
                let name = flag.text.to_ascii_lowercase();
                NAMING
                    .iter()
                    .any(|n| n.starts_with(&name) && name.len() > 2)
                    .then(|| format!("{} {}", flag.text, value.text))
            }
            _ => None,
        })
        .collect();
    let target = if named.is_empty() {
        "what is piped to it".to_string()
    } else {
        format!("`{}`", named.join(" "))
    };
    disk(match program {
        "Format-Volume" => format!("formats the volume {target}: every file on it is gone"),
        "Clear-Disk" => format!("erases the partitions of the disk {target} and the data on them"),
        _ => format!("deletes the partition {target} and the files on it"),
    })
}

/// `path` with `.`, `..` and repeated slashes resolved, when it is absolute.
fn normalized(path: &str) -> Option<String> {
    if !path.starts_with('/') {
        return None;
    }
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    Some(format!("/{}", parts.join("/")))
}

/// The operating-system folder `path` lies strictly inside, if any.
fn inside_os_folder(path: &str) -> Option<&'static str> {
    let path = normalized(path)?;
    if path == "/usr/local" || path.starts_with("/usr/local/") {
        return None;
    }
    OS_FOLDERS.iter().copied().find(|folder| {
        path.strip_prefix(folder)
            .is_some_and(|rest| rest.starts_with('/') && rest.len() > 1)
    })
}

/// An entry of a web server's `*-enabled` folder (`/etc/nginx/sites-enabled/default`): a
/// link to its `*-available` twin by the servers' own convention, so removing it disables
/// the site and deletes no configuration.
fn is_enabled_link(path: &str) -> bool {
    let Some(path) = normalized(path) else {
        return false;
    };
    let parts: Vec<&str> = path.split('/').collect();
    matches!(
        parts.as_slice(),
        ["", "etc", "nginx" | "apache2" | "httpd", folder, name]
            if matches!(*folder, "sites-enabled" | "conf-enabled" | "mods-enabled")
                && !name.is_empty()
    )
}

fn rm(args: &[Word]) -> Option<Hit> {
    let targets: Vec<&str> = operand_words(args, &[])
        .into_iter()
        .filter_map(Word::value)
        .filter(|t| inside_os_folder(t).is_some() && !is_enabled_link(t))
        .collect();
    let first = *targets.first()?;
    let folder = inside_os_folder(first).unwrap_or("/");
    Some(
        Hit::new(
            &RM_SYSTEM,
            Tier::Protected,
            format!(
                "deletes {} from `{folder}`, part of the operating system, with no undo",
                crate::rules::git::list(targets.iter().copied())
            ),
        )
        .safer(
            "never delete system files; the package manager removes what it installed \
             (`apt remove`, `dnf remove`, `brew uninstall`), and the user changes the rest",
        )
        .recovery("reinstall the package that owned the file, or restore it from a backup"),
    )
}

/// Whether `path` names a disk or a partition (`/dev/sda`, `/dev/nvme0n1p1`, `/dev/disk2`,
/// `/dev/mapper/vg-root`, `/dev/stratis/pool/fs`): any device file that is not one of the
/// character or pseudo devices (`/dev/null`, `/dev/stdout`, a terminal). Disks go by too many
/// names to list; the devices a command writes to by habit are few.
pub(super) fn is_block_device(path: &str) -> bool {
    const NOT_DISKS: &[&str] = &[
        "null", "zero", "full", "random", "urandom", "stdin", "stdout", "stderr", "console",
        "ptmx", "kmsg", "log", "tty", "fd/", "pts/", "shm/", "mqueue/", "snd/", "input/", "dri/",
        "video", "audio", "dsp", "mixer", "cu.", "ttys", "net/",
    ];
    normalized(path)
        .as_deref()
        .and_then(|p| p.strip_prefix("/dev/"))
        .is_some_and(|name| !name.is_empty() && !NOT_DISKS.iter().any(|d| name.starts_with(d)))
}

/// The first argument that names a block device; with `unknown_counts`, a word known only
/// at run time counts too (`mkfs.ext4 "$DEV"`), shown as written.
fn device_target(args: &[Word], unknown_counts: bool) -> Option<String> {
    args.iter().find_map(|w| match w.value() {
        Some(text) => is_block_device(text).then(|| format!("`{text}`")),
        None if unknown_counts => Some(format!("`{}` (known only when it runs)", w.text)),
        None => None,
    })
}

/// `dd ... of=DEVICE`.
fn dd(args: &[Word]) -> Option<Hit> {
    let target = args
        .iter()
        .rev()
        .filter_map(Word::value)
        .find_map(|w| w.strip_prefix("of="))?;
    is_block_device(target).then(|| {
        disk(format!(
            "writes over `{target}` from its first byte: the partition table and file systems on it"
        ))
    })
}

/// `fdisk DEVICE` (interactive or scripted), `sfdisk DEVICE`: not the listing forms.
fn partition_table(program: &str, args: &[Word]) -> Option<Hit> {
    let listing: &[&str] = match program {
        "fdisk" => &["-l", "--list", "-x", "--list-details", "-V", "--version"],
        _ => &[
            "-l",
            "--list",
            "-d",
            "--dump",
            "-J",
            "--json",
            "-s",
            "--show-size",
            "-g",
            "--show-geometry",
            "-F",
            "--list-free",
            "-V",
            "--verify",
            "-n",
            "--no-act",
            "-v",
            "--version",
        ],
    };
    if has(args, listing) {
        return None;
    }
    let dev = device_target(args, false)?;
    Some(disk(format!("rewrites the partition table of {dev}")))
}

/// `parted [-s] DEVICE COMMAND...`: the commands that change the disk.
fn parted(cmd: &SimpleCommand) -> Option<Hit> {
    const WRITES: &[&str] = &[
        "mklabel",
        "mktable",
        "mkpart",
        "mkpartfs",
        "rm",
        "resizepart",
        "resize",
        "move",
        "rescue",
        "name",
        "set",
        "toggle",
        "disk_set",
        "disk_toggle",
        "type",
        "cp",
        "mkfs",
    ];
    let args = cmd.args();
    if has(args, &["-l", "--list"]) {
        return None;
    }
    let dev = device_target(args, false)?;
    let on_stdin = cmd.input.as_deref().unwrap_or("").split_whitespace();
    let writes = args
        .iter()
        .map(|w| w.text.as_str())
        .chain(on_stdin)
        .any(|w| WRITES.contains(&w));
    writes.then(|| disk(format!("rewrites the partition table of {dev}")))
}

/// `chmod -R`, `chown -R`, `chgrp -R` on `/` or a system folder.
fn permissions(program: &str, args: &[Word]) -> Option<Hit> {
    if !has(args, &["-R", "--recursive"]) {
        return None;
    }
    let ops = operand_words(args, &["--reference", "--from"]);
    // The mode or owner comes first, unless `--reference` gives it.
    let skip = usize::from(!has(args, &["--reference"]));
    let folder = ops
        .iter()
        .skip(skip)
        .filter_map(|w| w.value())
        .find_map(|t| normalized(t).filter(|p| is_system_folder(p)))?;
    let what = if program == "chmod" {
        "the permissions"
    } else {
        "the ownership"
    };
    Some(
        Hit::new(
            &PERMISSIONS,
            Tier::Protected,
            format!(
                "changes {what} of every file under `{folder}`, and the old ones are not recorded"
            ),
        )
        .safer("change only the project's own files; ask the user for anything else")
        .recovery("only by reinstalling or restoring the system from a backup"),
    )
}
