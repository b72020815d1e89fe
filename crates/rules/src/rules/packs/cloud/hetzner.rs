//! Hetzner Cloud's `hcloud`: deletes of servers, volumes, images, IPs, load balancers,
//! networks, Storage Boxes and DNS zones, server rebuilds, and disabling backups (which deletes
//! them).

use super::table::{self, Delete, row};
use crate::rules::{Hit, Rule};
use crate::shell::Word;

pub static HETZNER_DELETE: Rule = Rule {
    id: "cloud.hetzner-delete",
    catches: "`hcloud server|volume|image|floating-ip|primary-ip|load-balancer|network|\
              storage-box|zone delete`, `hcloud storage-box snapshot delete`, `hcloud server \
              rebuild`, `hcloud server disable-backup`",
    why: "A deleted server takes its disk and its backups with it (snapshots stay); a deleted \
          volume, image or Storage Box is gone; a released IP cannot be claimed back; disabling \
          a server's backups deletes every backup it has.",
    instead: "`hcloud <resource> describe <name>` first; `hcloud server create-image --type \
              snapshot <server>` or `hcloud volume` snapshots before deleting; `hcloud server \
              shutdown` to stop a server without losing it.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "hcloud server delete web1",
        "hcloud volume delete data1",
        "hcloud image delete 4711",
        "hcloud primary-ip delete web1-ipv4",
        "hcloud floating-ip delete 123",
        "hcloud server rebuild web1 --image ubuntu-24.04",
        "hcloud server disable-backup web1",
        "hcloud --context prod servers delete db1",
        "hcloud storage-box delete backups",
        "hcloud zone delete example.com",
    ],
    passes: &[
        "hcloud server list",
        "hcloud server describe web1",
        "hcloud server create-image --type snapshot web1",
        "hcloud server shutdown web1",
        "hcloud volume detach data1",
        "hcloud image list --type snapshot",
        "hcloud context delete old",
        "hcloud ssh-key delete laptop",
        "hcloud server delete --help",
        "hcloud context",
    ],
};

const VALUED: &[&str] = &[
    "--config",
    "--context",
    "--endpoint",
    "--poll-interval",
    "-o",
    "--output",
];

const DELETE: &[&str] = &["delete"];

const TABLE: &[Delete] = &[
    row(
        &[&["server", "servers"], DELETE],
        "the servers with their disks and their backups",
        "only from a snapshot image taken before: snapshots outlive the server, backups do not",
    ),
    row(
        &[&["server", "servers"], &["rebuild"]],
        "everything on the server's disk, which is overwritten with a fresh image",
        "only from a snapshot or backup taken before the rebuild",
    ),
    row(
        &[&["server", "servers"], &["disable-backup"]],
        "every backup of the server (disabling backups deletes them)",
        "none: the backups are deleted; take a snapshot first",
    ),
    row(
        &[&["volume", "volumes"], DELETE],
        "the volumes and all their data",
        "none: Hetzner volumes have no snapshots; copy the data off first",
    ),
    row(
        &[&["image", "images"], DELETE],
        "the images (snapshots or backups)",
        "none: a deleted image is gone",
    ),
    row(
        &[&["floating-ip", "floating-ips"], DELETE],
        "the floating IPs: the addresses are released",
        "none: a released address is not given back; DNS pointing to it breaks",
    ),
    row(
        &[&["primary-ip", "primary-ips"], DELETE],
        "the primary IPs: the addresses are released",
        "none: a released address is not given back; DNS pointing to it breaks",
    ),
    row(
        &[&["load-balancer", "load-balancers"], DELETE],
        "the load balancers with their services, targets and public IPs",
        "re-create them by hand; their public addresses are not given back",
    ),
    row(
        &[&["network", "networks"], DELETE],
        "the private networks with their subnets and routes",
        "re-create them by hand and attach the servers again",
    ),
    row(
        &[
            &["storage-box", "storage-boxes"],
            &["snapshot", "snapshots"],
            DELETE,
        ],
        "the Storage Box snapshots",
        "none: a deleted snapshot is gone",
    ),
    row(
        &[&["storage-box", "storage-boxes"], DELETE],
        "the Storage Boxes with all their files and snapshots",
        "none: the files are gone",
    ),
    row(
        &[&["zone", "zones", "dns"], DELETE],
        "the DNS zones with all their records",
        "re-create the zone from a zone file exported before (`hcloud zone export-zonefile <zone>`)",
    ),
];

pub(super) fn check(args: &[Word]) -> Option<Hit> {
    table::check(
        &HETZNER_DELETE,
        args,
        VALUED,
        TABLE,
        "`hcloud <resource> describe <name>` to check what it is; `hcloud server create-image \
         --type snapshot <server>` first; `hcloud server shutdown` stops a server without \
         losing it",
    )
}
