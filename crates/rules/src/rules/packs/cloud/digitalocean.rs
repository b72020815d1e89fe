//! DigitalOcean's `doctl`: deletes of Droplets, volumes, snapshots, images, managed databases,
//! Kubernetes clusters, registries, apps, NFS shares and DNS domains, in every alias doctl
//! accepts (`doctl compute d d`, `doctl d rm`, `doctl k c d`).

use super::table::{self, Delete, row};
use crate::rules::{Hit, Rule};
use crate::shell::Word;

pub static DIGITALOCEAN_DELETE: Rule = Rule {
    id: "cloud.digitalocean-delete",
    catches: "`doctl compute droplet|volume|snapshot|image|domain delete`, `doctl compute \
              droplet-action rebuild|restore`, `doctl databases delete` and `databases db|topics|\
              indexes delete`, `doctl kubernetes cluster delete`, `doctl registry delete`, \
              `doctl apps delete`, `doctl nfs delete`, with their aliases (`d`, `rm`, ...)",
    why: "A deleted Droplet takes its disk and its automatic backups with it; a deleted volume, \
          snapshot or image is gone; a deleted database cluster, registry or app takes all it \
          holds. DigitalOcean keeps no trash for any of them.",
    instead: "`doctl ... get <id>` / `list` first; take a snapshot before deleting \
              (`doctl compute droplet-action snapshot <id>`, `doctl compute volume snapshot \
              <id>`), or a dump of a database.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "doctl compute droplet delete web-1 --force",
        "doctl compute d d 386734086",
        "doctl compute volume delete 7724db7c-e098-11e5-b522-000f53304e51",
        "doctl compute snapshot delete 119192817 -f",
        "doctl databases delete ca9f591d-f38h-5555-a0ef-1c02d1d1e35",
        "doctl d db rm ca9f591d mydb",
        "doctl kubernetes cluster delete prod-k8s --dangerous",
        "doctl k c d cluster1",
        "doctl apps delete 5f4a2b1c --force",
        "doctl registry delete --force",
    ],
    passes: &[
        "doctl compute droplet list",
        "doctl compute d ls",
        "doctl compute droplet get web-1",
        "doctl databases list",
        "doctl d fw rm ca9f591d rule-uuid",
        "doctl d u rm ca9f591d alice",
        "doctl k c ls",
        "doctl compute droplet-action snapshot 386734086 --snapshot-name pre-change",
        "doctl auth remove --context old",
        "doctl compute droplet delete --help",
    ],
};

/// doctl's global options that take a value, and the value options of its deletes.
const VALUED: &[&str] = &[
    "-t",
    "--access-token",
    "-c",
    "--config",
    "--context",
    "-u",
    "--api-url",
    "-o",
    "--output",
    "--format",
    "--http-retry-max",
    "--http-retry-wait-max",
    "--http-retry-wait-min",
    "--tag-name",
    "--region",
];

const COMPUTE: &[&str] = &["compute"];
const DATABASES: &[&str] = &["databases", "database", "db", "dbs", "d"];
const KUBERNETES: &[&str] = &["kubernetes", "kube", "k8s", "k"];
const DELETE: &[&str] = &["delete", "d", "del", "rm"];

const TABLE: &[Delete] = &[
    row(
        &[COMPUTE, &["droplet", "d"], DELETE],
        "the Droplets with their disks and their automatic backups",
        "only from a snapshot taken before: snapshots outlive the Droplet, its backups do not",
    ),
    row(
        &[COMPUTE, &["droplet-action", "da"], &["rebuild", "restore"]],
        "everything on the Droplet's disk, which is overwritten with an image or backup",
        "only from a snapshot taken before the rebuild",
    ),
    row(
        &[COMPUTE, &["volume"], DELETE],
        "the block storage volumes and all their data",
        "only from a volume snapshot taken before",
    ),
    row(
        &[COMPUTE, &["snapshot", "s"], DELETE],
        "the snapshots",
        "none: a deleted snapshot is gone",
    ),
    row(
        &[COMPUTE, &["image"], DELETE],
        "the custom images",
        "none: a deleted image is gone",
    ),
    row(
        &[COMPUTE, &["domain"], DELETE],
        "the DNS domains with all their records",
        "re-create the domain and its records by hand; keep `doctl compute domain records list \
         <domain>` first",
    ),
    row(
        &[DATABASES, &["db"], DELETE],
        "the database and all its tables",
        "only from a dump or a fork of the cluster made before",
    ),
    row(
        &[DATABASES, &["topics"], DELETE],
        "the Kafka topic and its messages",
        "none: the messages are gone",
    ),
    row(
        &[DATABASES, &["indexes"], DELETE],
        "the OpenSearch index and its documents",
        "only from a snapshot of the index taken before",
    ),
    row(
        &[DATABASES, DELETE],
        "the managed database cluster with every database in it",
        "only from a dump (`pg_dump`, `mysqldump`) or a fork made before",
    ),
    row(
        &[
            KUBERNETES,
            &["cluster", "clusters", "c"],
            &["delete", "d", "rm", "delete-selective", "ds"],
        ],
        "the Kubernetes cluster and its worker Droplets (with `--dangerous`, also its volumes, \
         volume snapshots and load balancers)",
        "none: re-create the cluster and re-deploy; volumes left behind can be attached again",
    ),
    row(
        &[
            &["registry", "reg", "r", "registries", "regs", "rs"],
            DELETE,
        ],
        "the container registry and every image in it",
        "none: push the images again from their builds",
    ),
    row(
        &[&["apps", "app", "a"], &["delete", "d", "rm"]],
        "the App Platform app with all its deployments",
        "re-create it from its spec (`doctl apps spec get <app>` keeps a copy)",
    ),
    row(
        &[&["nfs"], &["snapshot"], &["delete", "rm"]],
        "the NFS share snapshot",
        "none: a deleted snapshot is gone",
    ),
    row(
        &[&["nfs"], &["delete", "rm"]],
        "the NFS share and all its files",
        "only from a snapshot of the share taken before",
    ),
];

pub(super) fn check(args: &[Word]) -> Option<Hit> {
    table::check(
        &DIGITALOCEAN_DELETE,
        args,
        VALUED,
        TABLE,
        "`doctl ... get <id>` to check what it is; snapshot it first (`doctl compute \
         droplet-action snapshot`, `doctl compute volume snapshot`), or dump the database",
    )
}
