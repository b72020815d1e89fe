//! Linode (Akamai) `linode-cli`: deletes of Linodes, disks, volumes, images, Kubernetes
//! clusters, managed databases, buckets and DNS domains; rebuilds; cancelling backups.

use super::table::{self, Delete, row};
use crate::rules::{Hit, Rule};
use crate::shell::Word;

pub static LINODE_DELETE: Rule = Rule {
    id: "cloud.linode-delete",
    catches: "`linode-cli linodes delete|disk-delete|rebuild|backups-cancel`, `volumes delete`, \
              `images delete`, `lke cluster-delete`, `databases mysql-delete|postgresql-delete`, \
              `object-storage` bucket deletes and `cancel`, `obj rb`, `domains delete`",
    why: "Deleting a Linode deletes its disks and its backups; cancelling the Backup service \
          deletes every backup; a rebuild wipes the disks. Volumes, images, clusters, managed \
          databases and buckets are gone once deleted: Linode keeps no trash.",
    instead: "`linode-cli <group> view <id>` / `list` first; `linode-cli linodes snapshot <id>` \
              takes a manual backup; `linode-cli linodes shutdown <id>` stops a Linode without \
              losing it.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "linode-cli linodes delete 123",
        "linode-cli volumes delete 4567",
        "linode-cli lke cluster-delete 12345",
        "linode-cli lke clusters delete 12345",
        "linode-cli linodes rebuild 123 --image linode/debian12 --root_pass x",
        "linode-cli linodes backups-cancel 123",
        "linode-cli databases postgresql-delete 42",
        "linode-cli object-storage buckets delete us-east-1 assets",
        "linode-cli obj rb --recursive assets",
        "linode-cli domains delete 1234",
    ],
    passes: &[
        "linode-cli linodes list",
        "linode-cli linodes view 123",
        "linode-cli linodes backups-list 123",
        "linode-cli linodes snapshot 123 --label pre-change",
        "linode-cli linodes shutdown 123",
        "linode-cli volumes detach 4567",
        "linode-cli lke clusters list",
        "linode-cli domains records-delete 1234 5678",
        "linode-cli object-storage keys revoke 99",
        "linode-cli obj del assets logo.png",
        "linode-cli obj rb empty-bucket",
    ],
};

const VALUED: &[&str] = &[
    "--as-user",
    "--page",
    "--page-size",
    "--format",
    "--delimiter",
    "--config",
    "--label",
    "--cluster",
];

const LINODES: &[&str] = &["linodes", "linode"];

const TABLE: &[Delete] = &[
    row(
        &[LINODES, &["delete", "rm"]],
        "the Linodes with their disks, configuration profiles and backups",
        "none: the Linode's backups are deleted with it; only a saved image or a copy kept \
         elsewhere brings its data back",
    ),
    row(
        &[LINODES, &["disk-delete"]],
        "the disk and its data",
        "only from a backup of the Linode taken before (`linode-cli linodes backups-restore`)",
    ),
    row(
        &[LINODES, &["rebuild"]],
        "everything on the Linode's disks, which are rebuilt from a fresh image",
        "only from a backup of the Linode taken before (`linode-cli linodes backups-restore`)",
    ),
    row(
        &[LINODES, &["backups-cancel"]],
        "every backup of the Linode (cancelling the Backup service deletes them)",
        "none: the backups are deleted",
    ),
    row(
        &[&["volumes", "volume"], &["delete", "rm"]],
        "the block storage volumes and all their data",
        "none: a deleted volume is gone; clone it first (`linode-cli volumes clone`)",
    ),
    row(
        &[&["images", "image"], &["delete", "rm"]],
        "the images",
        "none: a deleted image is gone",
    ),
    row(
        &[&["lke"], &["cluster-delete"]],
        "the Kubernetes cluster and every Linode in its node pools",
        "none: re-create the cluster and re-deploy; its volumes and NodeBalancers are left \
         behind and can be used again",
    ),
    row(
        &[&["lke"], &["clusters", "cluster"], &["delete", "rm"]],
        "the Kubernetes cluster and every Linode in its node pools",
        "none: re-create the cluster and re-deploy; its volumes and NodeBalancers are left \
         behind and can be used again",
    ),
    row(
        &[
            &["databases", "database"],
            &["mysql-delete", "postgresql-delete"],
        ],
        "the managed database cluster with every database in it",
        "only from a dump kept elsewhere: the cluster's backups go with it",
    ),
    row(
        &[
            &["databases", "database"],
            &["mysql-backup-delete", "postgresql-backup-delete"],
        ],
        "the managed database backup",
        "none: a deleted backup is gone",
    ),
    row(
        &[
            &["object-storage"],
            &["buckets", "bucket"],
            &["delete", "remove", "rm"],
        ],
        "the bucket",
        "none: Object Storage keeps no deleted buckets",
    ),
    row(
        &[&["object-storage"], &["bucket-remove", "bucket-delete"]],
        "the bucket",
        "none: Object Storage keeps no deleted buckets",
    ),
    row(
        &[&["object-storage"], &["cancel"]],
        "every bucket on the account with all its objects (cancelling Object Storage)",
        "none: the buckets and objects are gone",
    ),
    Delete {
        path: &[&["obj"], &["rb"]],
        what: "the bucket and every object in it",
        recovery: "none: Object Storage keeps no deleted objects unless versioning was on",
        needs: &["--recursive"],
    },
    row(
        &[&["domains", "domain"], &["delete", "rm"]],
        "the DNS domains with all their records",
        "re-create the domain and its records by hand, or import the zone again",
    ),
];

pub(super) fn check(args: &[Word]) -> Option<Hit> {
    table::check(
        &LINODE_DELETE,
        args,
        VALUED,
        TABLE,
        "`linode-cli <group> view <id>` to check what it is; `linode-cli linodes snapshot <id>` \
         or `linode-cli volumes clone <id>` first; `linode-cli linodes shutdown <id>` stops a \
         Linode without losing it",
    )
}
