//! Machines on a developer's own computer: Vagrant, VirtualBox, Multipass, Lima, Colima,
//! Podman machines, Docker Machine, Parallels, VMware, Tart and UTM.

use super::super::args::{Line, Style, operands};
use super::super::containers::GLOBAL as PODMAN_GLOBAL;
use super::{by_count, destroyed, disk_deleted, named, reverted, snapshot_deleted};
use crate::rules::Hit;
use crate::rules::git::list;
use crate::shell::Word;

pub(super) fn check(program: &str, args: &[Word]) -> Option<Hit> {
    match program {
        "vagrant" => vagrant(args),
        "VBoxManage" | "vboxmanage" => vboxmanage(args),
        "multipass" => multipass(args),
        "limactl" => limactl(args),
        "colima" => colima(args),
        "podman" => podman(args),
        "docker-machine" => docker_machine(args),
        "prlctl" => prlctl(args),
        "vmrun" => vmrun(args),
        "tart" | "utmctl" => simple_delete(program, args),
        _ => None,
    }
}

/// The command word of a tool that takes global options first, and its own options and
/// operands after it, unless either asks for help.
fn command<'a>(
    args: &'a [Word],
    style: Style,
    globals: &[&str],
    own: &[&str],
) -> Option<(&'a str, Line<'a>)> {
    let (head, Some(at)) = Line::head(args, style, globals) else {
        return None;
    };
    let (word, rest) = args.get(at..)?.split_first()?;
    let line = Line::parse(rest, style, own);
    (!head.help() && !line.help()).then_some((word.text.as_str(), line))
}

fn vagrant(args: &[Word]) -> Option<Hit> {
    let (command, line) = command(args, Style::Gnu, &[], &["provider"])?;
    match (command, line.operand(0)) {
        ("destroy", _) => {
            let which = if line.operands.is_empty() {
                "every machine of this Vagrantfile".to_string()
            } else {
                format!("machine {}", list(line.operands.iter().copied()))
            };
            Some(destroyed(
                format!(
                    "destroys {which}: the disk and everything changed inside since `vagrant up`"
                ),
                "`vagrant halt` stops it and keeps its disk; `vagrant snapshot save <name>` or \
                 `vagrant package` first keeps a copy",
                "none for what was inside; `vagrant up` builds a fresh machine from the box",
            ))
        }
        ("snapshot", Some(action @ ("delete" | "restore" | "pop"))) => {
            let rest = line.operands.get(1..).unwrap_or_default();
            let snapshot = rest.last().copied();
            if action == "delete" {
                return Some(snapshot_deleted(
                    format!("deletes snapshot {}", named(snapshot, "given")),
                    "`vagrant snapshot list` shows them; keep it until the user says it can go",
                ));
            }
            let what = if action == "pop" {
                "restores the last pushed snapshot and deletes it".to_string()
            } else {
                format!("restores snapshot {}", named(snapshot, "given"))
            };
            Some(reverted(
                what,
                "`vagrant snapshot save before-restore` first keeps the current state",
            ))
        }
        _ => None,
    }
}

/// VBoxManage also takes its long options with one dash (`-delete`).
fn vboxmanage(args: &[Word]) -> Option<Hit> {
    let (command, line) = command(
        args,
        Style::Go,
        &["settingspw", "settingspwfile"],
        &["name", "type", "format"],
    )?;
    match command {
        "unregistervm" if line.on(&["delete", "delete-all"]) => {
            let vm = named(line.operand(0), "the VM");
            let flag = if line.on(&["delete-all"]) {
                "--delete-all"
            } else {
                "--delete"
            };
            Some(destroyed(
                format!(
                    "unregisters VM {vm} and deletes its disks, saved states and snapshots \
                     (`{flag}`)"
                ),
                format!(
                    "`VBoxManage unregistervm {}` without `{flag}` keeps its files; \
                     `VBoxManage export <vm> -o <vm>.ova` first keeps a copy",
                    line.operand(0)
                        .map_or("<vm>".to_string(), |vm| Word::literal(vm).shell_quoted())
                ),
                "none: the disk images are deleted",
            ))
        }
        "closemedium" if line.on(&["delete"]) => {
            let image = line
                .operands
                .iter()
                .find(|o| !matches!(**o, "disk" | "dvd" | "floppy"))
                .copied();
            Some(disk_deleted(
                format!("deletes disk image {} from storage", named(image, "given")),
                "`VBoxManage closemedium <image>` without `--delete` only forgets it",
            ))
        }
        "snapshot" => {
            let vm = named(line.operand(0), "the VM");
            let snapshot = named(line.operand(2), "given");
            match line.operand(1)? {
                "delete" => Some(snapshot_deleted(
                    format!("deletes snapshot {snapshot} of VM {vm}"),
                    "`VBoxManage snapshot <vm> list` shows them; keep it until the user says it \
                     can go",
                )),
                "restore" => Some(reverted(
                    format!("restores VM {vm} to snapshot {snapshot}"),
                    "`VBoxManage snapshot <vm> take before-restore` first keeps the current \
                     state",
                )),
                "restorecurrent" => Some(reverted(
                    format!("restores VM {vm} to its current snapshot"),
                    "`VBoxManage snapshot <vm> take before-restore` first keeps the current \
                     state",
                )),
                _ => None,
            }
        }
        _ => None,
    }
}

fn multipass(args: &[Word]) -> Option<Hit> {
    let (command, line) = command(args, Style::Gnu, &[], &[])?;
    match command {
        // Without `--purge` a deleted instance stays recoverable (`multipass recover`).
        "delete" if line.on(&["p", "purge"]) => {
            let (snapshots, instances): (Vec<&str>, Vec<&str>) =
                line.operands.iter().partition(|name| name.contains('.'));
            if line.on(&["all"]) || !instances.is_empty() {
                let (which, disks) = if line.on(&["all"]) {
                    ("every instance".to_string(), "their disks")
                } else {
                    (
                        format!("instance {}", list(instances.iter().copied())),
                        by_count(&instances, "its disk", "their disks"),
                    )
                };
                return Some(destroyed(
                    format!("deletes {which} for good (`--purge`), with {disks}"),
                    "`multipass delete` without `--purge` keeps it recoverable with `multipass \
                     recover`; `multipass stop` keeps it as is",
                    "none: purged instances cannot be recovered",
                ));
            }
            Some(snapshot_deleted(
                format!("deletes snapshot {}", list(snapshots.iter().copied())),
                "`multipass list --snapshots` shows them; keep it until the user says it can go",
            ))
        }
        "purge" => Some(destroyed(
            "removes every instance deleted earlier, for good: `multipass recover` can no \
             longer bring them back"
                .to_string(),
            "`multipass list` shows the deleted instances; `multipass recover <name>` the ones \
             to keep",
            "none: purged instances cannot be recovered",
        )),
        "restore" if line.on(&["d", "destructive"]) => Some(reverted(
            format!(
                "restores {} without saving the current state (`--destructive`)",
                named(line.operand(0), "the snapshot given")
            ),
            "`multipass restore` without `--destructive` offers to snapshot the current state \
             first",
        )),
        _ => None,
    }
}

fn limactl(args: &[Word]) -> Option<Hit> {
    let (command, line) = command(args, Style::Gnu, &["log-level", "log-format"], &["tag"])?;
    match command {
        "delete" | "remove" | "rm" if !line.operands.is_empty() => Some(destroyed(
            format!(
                "deletes Lima instance {} with {}",
                list(line.operands.iter().copied()),
                by_count(&line.operands, "its disk", "their disks")
            ),
            "`limactl stop <name>` keeps it; `limactl protect <name>` guards it against deletion",
            "none: the instance's disk is deleted",
        )),
        "factory-reset" => Some(destroyed(
            format!(
                "resets Lima instance {} to its first boot: its disk and everything installed or \
                 stored in it are deleted",
                named(line.operand(0), "`default`")
            ),
            "`limactl stop <name>` keeps it; `limactl snapshot create <name> --tag keep` first \
             keeps the current state",
            "none: the instance's disk is deleted",
        )),
        "disk" => match line.operand(0)? {
            "delete" | "remove" | "rm" => Some(disk_deleted(
                format!(
                    "deletes Lima disk {} with {} data",
                    list(line.operands.iter().skip(1).copied()),
                    by_count(line.operands.get(1..).unwrap_or_default(), "its", "their")
                ),
                "`limactl disk list` shows the disks and which instance uses them",
            )),
            _ => None,
        },
        "snapshot" => {
            let instance = named(line.operand(1), "the instance");
            let tag = named(line.value(&["tag"]), "given");
            match line.operand(0)? {
                "delete" | "del" => Some(snapshot_deleted(
                    format!("deletes snapshot {tag} of {instance}"),
                    "`limactl snapshot list <instance>` shows them",
                )),
                "apply" | "load" => Some(reverted(
                    format!("applies snapshot {tag} to {instance}"),
                    "`limactl snapshot create <instance> --tag before-apply` first keeps the \
                     current state",
                )),
                _ => None,
            }
        }
        _ => None,
    }
}

/// `colima delete` removes the VM and its settings; container data survives only on colima
/// versions that keep it on a separate disk, and not with `--data`.
fn colima(args: &[Word]) -> Option<Hit> {
    let (head, Some(at)) = Line::head(args, Style::Gnu, &["p", "profile"]) else {
        return None;
    };
    let (word, rest) = args.get(at..)?.split_first()?;
    let line = Line::parse(rest, Style::Gnu, &[]);
    if word.text != "delete" || head.help() || line.help() {
        return None;
    }
    let profile = named(
        line.operand(0).or(head.value(&["p", "profile"])),
        "`default`",
    );
    let loses = if line.on(&["d", "data"]) {
        format!(
            "deletes colima VM {profile} with its settings and all container data (images, \
             containers, volumes)"
        )
    } else {
        format!(
            "deletes colima VM {profile} and its settings; its containers, images and volumes \
             go too unless this colima keeps them on a separate disk"
        )
    };
    Some(destroyed(
        loses,
        "`colima stop` keeps everything; `docker volume ls` shows the data inside",
        "none for the VM, or container data not kept on a separate disk",
    ))
}

/// `podman [globals] machine rm|reset`; the rest of podman is the `containers` pack's.
fn podman(args: &[Word]) -> Option<Hit> {
    let (command, line) = command(args, Style::Gnu, PODMAN_GLOBAL, &[])?;
    if command != "machine" {
        return None;
    }
    let loses = match line.operand(0)? {
        "rm" | "remove" => format!(
            "deletes podman machine {} with its disk image: every container, image and volume \
             inside it",
            named(line.operand(1), "`podman-machine-default`")
        ),
        "reset" => "deletes every podman machine with its disk image, and podman's machine \
                    settings: every container, image and volume inside them"
            .to_string(),
        _ => return None,
    };
    Some(destroyed(
        loses,
        "`podman machine stop` keeps it; `podman volume export` and `podman save` keep what \
         must survive",
        "none: the machine's disk image is deleted",
    ))
}

fn docker_machine(args: &[Word]) -> Option<Hit> {
    const GLOBALS: &[&str] = &[
        "s",
        "storage-path",
        "tls-ca-cert",
        "tls-ca-key",
        "tls-client-cert",
        "tls-client-key",
        "github-api-token",
        "bugsnag-api-token",
    ];
    let (command, line) = command(args, Style::Gnu, GLOBALS, &[])?;
    (command == "rm").then(|| {
        destroyed(
            format!(
                "removes docker machine {} and the VM or cloud instance behind it, with every \
                 container, image and volume on it",
                list(line.operands.iter().copied())
            ),
            "`docker-machine stop <name>` keeps it",
            "none: the machine's disk is deleted",
        )
    })
}

fn prlctl(args: &[Word]) -> Option<Hit> {
    let (command, line) = command(args, Style::Gnu, &[], &["i", "id"])?;
    let vm = named(line.operand(0), "the VM");
    let id = named(line.value(&["i", "id"]), "given");
    match command {
        "delete" => Some(destroyed(
            format!("deletes Parallels VM {vm} with its disks"),
            "`prlctl stop <vm>` keeps it; `prlctl snapshot <vm>` or `prlctl clone <vm> --name \
             <vm>-keep` first keeps a copy",
            "none: the VM's files are deleted",
        )),
        "snapshot-delete" => Some(snapshot_deleted(
            format!("deletes snapshot {id} of VM {vm}"),
            "`prlctl snapshot-list <vm>` shows them",
        )),
        "snapshot-switch" => Some(reverted(
            format!("switches VM {vm} to snapshot {id}"),
            "`prlctl snapshot <vm> --name before-switch` first keeps the current state",
        )),
        _ => None,
    }
}

/// `vmrun [-T type] [-h host] ... <command> <vmx> ...`; vmrun reads its commands in any case.
fn vmrun(args: &[Word]) -> Option<Hit> {
    let ops = operands(args, &["-T", "-h", "-P", "-u", "-p", "-vp", "-gu", "-gp"]);
    let (command, rest) = ops.split_first()?;
    let vmx = named(rest.first().copied(), "the VM");
    let snapshot = named(rest.get(1).copied(), "given");
    match command.to_ascii_lowercase().as_str() {
        "deletevm" => Some(destroyed(
            format!("deletes VMware VM {vmx} with its disks"),
            "`vmrun stop <vmx>` keeps it; `vmrun snapshot <vmx> keep` first keeps the current \
             state",
            "none: the VM's files are deleted",
        )),
        "deletesnapshot" => Some(snapshot_deleted(
            format!("deletes snapshot {snapshot} of {vmx}"),
            "`vmrun listSnapshots <vmx>` shows them",
        )),
        "reverttosnapshot" => Some(reverted(
            format!("reverts {vmx} to snapshot {snapshot}"),
            "`vmrun snapshot <vmx> before-revert` first keeps the current state",
        )),
        _ => None,
    }
}

/// `tart delete <vm>...`, `utmctl delete <vm>`.
fn simple_delete(program: &str, args: &[Word]) -> Option<Hit> {
    let (command, line) = command(args, Style::Gnu, &[], &[])?;
    (command == "delete").then(|| {
        destroyed(
            format!(
                "deletes VM {} with {}",
                list(line.operands.iter().copied()),
                by_count(&line.operands, "its disk", "their disks")
            ),
            format!("`{program} stop <vm>` keeps it; `{program} clone` it first to keep a copy"),
            "none: the VM's disk is deleted",
        )
    })
}
