//! Pack `vm`: virtual machines and system containers. Deleting a machine with its disks,
//! deleting or wiping a disk or storage volume, deleting a snapshot, and reverting to one, in
//! the tools agents drive: Vagrant, libvirt (`virsh`, `qemu-img`), VirtualBox, Proxmox (`qm`,
//! `pct`, `pvesm`), LXC, Incus and LXD, Multipass, Lima, Colima, Podman machines, Docker
//! Machine, Parallels, VMware, Tart and UTM. Stopping, listing and inspecting always pass.

mod desktop;
mod libvirt;
mod lxc;
mod proxmox;

use super::Pack;
use crate::rules::{Hit, Rule, Tier};
use crate::shell::SimpleCommand;

pub static VM_DESTROY: Rule = Rule {
    id: "vm.destroy",
    catches: "deleting a machine with its disks: `vagrant destroy`, `virsh undefine` with \
              `--remove-all-storage`/`--storage`/`--wipe-storage`, `VBoxManage unregistervm \
              --delete`, `qm destroy`/`pct destroy` (and `--force` restores over an existing \
              id), `lxc-destroy`, `incus`/`lxc delete` and `rebuild`, `multipass delete \
              --purge`/`purge`, `limactl delete`/`factory-reset`, `colima delete`, `podman \
              machine rm`/`reset`, `docker-machine rm`, `prlctl delete`, `vmrun deleteVM`, \
              `tart delete`, `utmctl delete`",
    why: "A machine's disk holds everything installed, configured and stored inside it since \
          it was created; deleting the machine deletes that disk, and a fresh one from the \
          image or box has none of it. A confirmation prompt is no guard for an agent (`-f` \
          skips it, and hosts that run commands in a terminal can answer it), so `vagrant \
          destroy` without `-f` is stopped too.",
    instead: "Stop the machine instead (`vagrant halt`, `virsh shutdown`, `qm shutdown`, \
              `incus stop`, `multipass stop`, `limactl stop`, `colima stop`, `podman machine \
              stop`); keep a copy first (`vagrant snapshot save`, `vzdump <id>`, `incus \
              export`); `multipass delete` without `--purge` stays recoverable with \
              `multipass recover`.",
    protected_when: Some("when a word of the command names production"),
    strict_only: false,
    stops: &[
        "vagrant destroy -f",
        "vagrant destroy",
        "virsh undefine web1 --remove-all-storage",
        "VBoxManage unregistervm devbox --delete",
        "qm destroy 101",
        "pct destroy 200 --purge",
        "lxc-destroy -n c1",
        "incus delete c1 --force",
        "lxc delete web",
        "multipass delete --purge dev",
        "multipass purge",
        "limactl delete default",
        "colima delete -f",
        "podman machine rm -f",
        "docker-machine rm -y dev",
        "vagrant destroy -f prod-web",
    ],
    passes: &[
        "vagrant halt",
        "vagrant status",
        "virsh shutdown web1",
        "virsh destroy web1",
        "virsh undefine web1",
        "VBoxManage unregistervm devbox",
        "VBoxManage list vms",
        "qm list",
        "qm stop 101",
        "pct list",
        "incus list",
        "incus stop c1",
        "multipass delete dev",
        "multipass list",
        "limactl list",
        "colima status",
        "podman machine ls",
        "docker-machine ls",
        "echo vagrant destroy -f",
    ],
};

pub static VM_DISK_DELETE: Rule = Rule {
    id: "vm.disk-delete",
    catches: "deleting or wiping a disk or storage volume: `virsh vol-delete`/`vol-wipe`/\
              `pool-delete`, `virsh vol-resize --shrink`, `VBoxManage closemedium --delete`, \
              `incus`/`lxc storage volume delete`/`rebuild` and `storage bucket delete`, `qm \
              disk unlink --force`, `pvesm free`, `limactl disk delete`, `qemu-img resize \
              --shrink`",
    why: "A storage volume is a machine's disk or a container's data; deleting or wiping it \
          takes the data even when the machine that used it stays defined, and deleting a \
          storage pool deletes every volume in it.",
    instead: "List first (`virsh vol-list <pool>`, `incus storage volume list <pool>`, `pvesm \
              list <storage>`); copy the volume out (`virsh vol-download`, `incus storage \
              volume export`); `virsh pool-destroy`/`pool-undefine` stop or forget a pool and \
              keep its data; `closemedium` without `--delete` only forgets an image.",
    protected_when: Some("when a word of the command names production"),
    strict_only: false,
    stops: &[
        "virsh vol-delete --pool default web1.qcow2",
        "virsh vol-wipe data.img --pool default",
        "virsh pool-delete images",
        "VBoxManage closemedium disk old.vdi --delete",
        "incus storage volume delete default pgdata",
        "qm disk unlink 101 --idlist scsi1 --force",
        "pvesm free local-lvm:vm-101-disk-1",
        "limactl disk delete data",
        "qemu-img resize --shrink disk.qcow2 -10G",
    ],
    passes: &[
        "virsh vol-list default",
        "virsh pool-destroy images",
        "virsh pool-undefine images",
        "VBoxManage closemedium disk old.vdi",
        "incus storage volume list default",
        "qm disk unlink 101 --idlist scsi1",
        "pvesm list local-lvm",
        "limactl disk list",
        "qemu-img resize disk.qcow2 +10G",
        "qemu-img info disk.qcow2",
    ],
};

pub static VM_SNAPSHOT_DELETE: Rule = Rule {
    id: "vm.snapshot-delete",
    catches: "`virsh snapshot-delete` (not `--metadata`), `VBoxManage snapshot <vm> delete`, \
              `qm`/`pct delsnapshot`, `incus`/`lxc delete <instance>/<snapshot>` and `snapshot \
              delete`, `storage volume snapshot delete`, `vagrant snapshot delete`, `multipass \
              delete --purge <instance>.<snapshot>`, `limactl snapshot delete`, `prlctl \
              snapshot-delete`, `vmrun deleteSnapshot`, `qemu-img snapshot -d`, `lxc-snapshot -d`",
    why: "A snapshot is the way back to a known state of the machine; deleting it removes that \
          way back for good. The machine's current state is kept.",
    instead: "List them first (`virsh snapshot-list <vm>`, `qm listsnapshot <id>`, `incus \
              snapshot list <instance>`, `vagrant snapshot list`); keep the snapshot until the \
              user says it can go.",
    protected_when: Some("when a word of the command names production"),
    strict_only: false,
    stops: &[
        "virsh snapshot-delete web1 clean-install",
        "VBoxManage snapshot devbox delete before-upgrade",
        "qm delsnapshot 101 pre-update",
        "incus delete c1/snap0",
        "vagrant snapshot delete base",
        "multipass delete --purge dev.snapshot1",
        "qemu-img snapshot -d clean disk.qcow2",
    ],
    passes: &[
        "virsh snapshot-list web1",
        "virsh snapshot-delete web1 clean-install --metadata",
        "VBoxManage snapshot devbox list",
        "qm listsnapshot 101",
        "incus snapshot list c1",
        "vagrant snapshot list",
        "qemu-img snapshot -l disk.qcow2",
    ],
};

pub static VM_SNAPSHOT_REVERT: Rule = Rule {
    id: "vm.snapshot-revert",
    catches: "`virsh snapshot-revert`, `VBoxManage snapshot <vm> restore`/`restorecurrent`, \
              `qm`/`pct rollback`, `incus`/`lxc restore` and `snapshot restore`, `storage \
              volume snapshot restore`, `vagrant snapshot restore`/`pop`, `multipass restore \
              --destructive`, `limactl snapshot apply`, `prlctl snapshot-switch`, `vmrun \
              revertToSnapshot`, `qemu-img snapshot -a`, `lxc-snapshot -r` onto the same \
              container",
    why: "Reverting replaces the machine's current disk (and memory) with the snapshot's: \
          everything done since the snapshot was taken is discarded, a `git reset --hard` \
          for a whole machine.",
    instead: "Snapshot the current state first (`vagrant snapshot save before-restore`, `virsh \
              snapshot-create-as <vm> before-revert`, `qm snapshot <id> before-rollback`), then \
              revert; `multipass restore` without `--destructive` offers to keep the current \
              state.",
    protected_when: Some("when a word of the command names production"),
    strict_only: false,
    stops: &[
        "virsh snapshot-revert web1 clean-install",
        "VBoxManage snapshot devbox restore before-upgrade",
        "qm rollback 101 pre-update",
        "pct rollback 200 base",
        "incus snapshot restore c1 snap0",
        "vagrant snapshot restore base",
        "vagrant snapshot pop",
        "multipass restore --destructive dev.snapshot1",
    ],
    passes: &[
        "virsh snapshot-create-as web1 before-revert",
        "VBoxManage snapshot devbox take before-upgrade",
        "qm snapshot 101 before-rollback",
        "incus snapshot create c1 snap1",
        "vagrant snapshot save before-restore",
        "vagrant snapshot push",
        "multipass restore dev.snapshot1",
    ],
};

pub static PACK: Pack = Pack {
    id: "vm",
    summary: "virtual machines and system containers: deleting a machine with its disks, deleting or wiping storage volumes, deleting and reverting snapshots (Vagrant, libvirt, VirtualBox, Proxmox, LXC/Incus/LXD, Multipass, Lima, Colima, Podman machines, Docker Machine, Parallels, VMware, Tart, UTM)",
    default_on: true,
    programs: &[
        "vagrant",
        "virsh",
        "qemu-img",
        "VBoxManage",
        "vboxmanage",
        "qm",
        "qmrestore",
        "pct",
        "pvesm",
        "lxc-destroy",
        "lxc-snapshot",
        "incus",
        "lxc",
        "multipass",
        "limactl",
        "colima",
        "podman",
        "docker-machine",
        "prlctl",
        "vmrun",
        "tart",
        "utmctl",
    ],
    rules: &[
        &VM_DESTROY,
        &VM_DISK_DELETE,
        &VM_SNAPSHOT_DELETE,
        &VM_SNAPSHOT_REVERT,
    ],
    check,
};

fn check(cmd: &SimpleCommand) -> Vec<Hit> {
    let Some(program) = cmd.program() else {
        return Vec::new();
    };
    let args = cmd.args();
    let hit = match program {
        "virsh" => libvirt::virsh(args),
        "qemu-img" => libvirt::qemu_img(args),
        "qm" | "qmrestore" | "pct" | "pvesm" => proxmox::check(program, args),
        "incus" | "lxc" => lxc::incus(program, args),
        "lxc-destroy" => lxc::lxc_destroy(args),
        "lxc-snapshot" => lxc::lxc_snapshot(args),
        _ => desktop::check(program, args),
    };
    hit.into_iter().collect()
}

fn destroyed(loses: String, safer: impl Into<String>, recovery: impl Into<String>) -> Hit {
    Hit::new(&VM_DESTROY, Tier::Destructive, loses)
        .safer(safer)
        .recovery(recovery)
}

fn disk_deleted(loses: String, safer: impl Into<String>) -> Hit {
    Hit::new(&VM_DISK_DELETE, Tier::Destructive, loses)
        .safer(safer)
        .recovery("none: the volume's data is gone unless it was copied out first")
}

fn snapshot_deleted(loses: String, safer: impl Into<String>) -> Hit {
    Hit::new(
        &VM_SNAPSHOT_DELETE,
        Tier::Destructive,
        format!("{loses}: the way back to that point is gone (the current state stays)"),
    )
    .safer(safer)
    .recovery("none: a deleted snapshot cannot be brought back")
}

fn reverted(loses: String, safer: impl Into<String>) -> Hit {
    Hit::new(
        &VM_SNAPSHOT_REVERT,
        Tier::Destructive,
        format!("{loses}: everything done since the snapshot was taken is discarded"),
    )
    .safer(safer)
    .recovery("none, unless the current state was snapshotted first")
}

/// `one` for a single name, `many` for several.
fn by_count<'a>(names: &[&str], one: &'a str, many: &'a str) -> &'a str {
    if names.len() > 1 { many } else { one }
}

/// `name` in backticks, or `fallback` when the command names none.
fn named(name: Option<&str>, fallback: &str) -> String {
    name.map_or_else(|| fallback.to_string(), |n| format!("`{n}`"))
}

#[cfg(test)]
mod tests {
    use crate::rules::Tier;
    use crate::settings::Settings;

    fn findings(command: &str) -> Vec<(&'static str, Tier)> {
        crate::rules::packs::judged(command, &Settings::default())
    }

    #[test]
    fn machines_named_for_production_are_protected() {
        assert_eq!(
            findings("virsh undefine prod-web --remove-all-storage"),
            [("vm.destroy", Tier::Protected)]
        );
        assert_eq!(
            findings("qm destroy 101"),
            [("vm.destroy", Tier::Destructive)]
        );
    }

    #[test]
    fn a_podman_machine_is_reported_once() {
        assert_eq!(
            findings("podman machine rm -f dev"),
            [("vm.destroy", Tier::Destructive)]
        );
        assert_eq!(
            findings("podman volume rm pgdata"),
            [("containers.volume-delete", Tier::Destructive)]
        );
    }
}
