//! OpenStack's `openstack` client: deletes of servers, volumes and their snapshots and backups,
//! images, Heat stacks, projects, Swift containers (recursive), Manila shares, Trove databases,
//! Magnum clusters, Barbican secrets and Designate zones, and server rebuilds.

use super::table::{self, Delete, row};
use crate::rules::{Hit, Rule};
use crate::shell::Word;

pub static OPENSTACK_DELETE: Rule = Rule {
    id: "cloud.openstack-delete",
    catches: "`openstack server delete|rebuild`, `openstack volume delete`, `volume snapshot|\
              backup delete`, `image delete`, `stack delete`, `project delete`, `container \
              delete --recursive`, `share delete`, `database instance delete`, `coe cluster \
              delete`, `secret delete`, `zone delete`",
    why: "A deleted server takes its local disks with it; a deleted volume, snapshot, backup or \
          image is gone; a Heat stack deletes every resource it created; a recursive container \
          delete removes every object in it. Only clouds that defer server deletes keep a way \
          back, and only for servers.",
    instead: "`openstack <resource> show <name>` first; `openstack server image create` or \
              `openstack volume snapshot create` / `volume backup create` before deleting; \
              `openstack server stop` or `shelve` keeps a server without running it.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "openstack server delete web1",
        "openstack server delete --wait instance_id1 instance_id2",
        "openstack volume delete data1",
        "openstack volume delete --purge data1",
        "openstack volume snapshot delete nightly",
        "openstack image delete image_id1 image_id2",
        "openstack stack delete -y api",
        "openstack --os-cloud prod server delete db1",
        "openstack container delete --recursive backups",
        "openstack server rebuild --image ubuntu-24.04 web1",
    ],
    passes: &[
        "openstack server list",
        "openstack server show web1",
        "openstack server stop web1",
        "openstack server image create --name pre-change web1",
        "openstack volume list --all-projects",
        "openstack volume snapshot create --volume data1 pre-change",
        "openstack image list --private",
        "openstack flavor delete m1.tiny",
        "openstack container delete empty-container",
        "openstack object delete assets logo.png",
        "openstack --help",
    ],
};

/// The client's global options that take a value (`--os-*` and its output options).
const VALUED: &[&str] = &[
    "--os-cloud",
    "--os-region-name",
    "--os-auth-url",
    "--os-auth-type",
    "--os-project-name",
    "--os-project-id",
    "--os-project-domain-name",
    "--os-project-domain-id",
    "--os-user-domain-name",
    "--os-user-domain-id",
    "--os-username",
    "--os-user-id",
    "--os-password",
    "--os-token",
    "--os-interface",
    "--os-endpoint",
    "--os-cacert",
    "--os-cert",
    "--os-key",
    "--os-identity-api-version",
    "--os-compute-api-version",
    "--os-volume-api-version",
    "--os-image-api-version",
    "--os-network-api-version",
    "--os-system-scope",
    "--os-domain-name",
    "--os-domain-id",
    "--os-default-domain",
    "--log-file",
    "-f",
    "--format",
];

const DELETE: &[&str] = &["delete"];

const TABLE: &[Delete] = &[
    row(
        &[&["server"], DELETE],
        "the servers with their local disks (attached volumes are only detached)",
        "`openstack server restore <server>` brings it back if the cloud defers deletes \
         (`reclaim_instance_interval`); otherwise only from an image taken before",
    ),
    row(
        &[&["server"], &["rebuild"]],
        "everything on the server's root disk, which is rebuilt from an image",
        "only from an image or snapshot of the server taken before",
    ),
    row(
        &[&["volume"], &["snapshot"], DELETE],
        "the volume snapshots",
        "none: a deleted snapshot is gone",
    ),
    row(
        &[&["volume"], &["backup"], DELETE],
        "the volume backups",
        "none: a deleted backup is gone",
    ),
    row(
        &[&["volume"], DELETE],
        "the volumes and all their data (with `--purge`, their snapshots too)",
        "only from a volume backup or snapshot taken before",
    ),
    row(
        &[&["image"], DELETE],
        "the images",
        "none: a deleted image is gone unless the cloud keeps deleted images",
    ),
    row(
        &[&["stack"], DELETE],
        "the Heat stacks and every resource they created (servers, volumes, networks)",
        "none for the deleted volumes and servers; the template re-creates empty resources",
    ),
    row(
        &[&["project"], DELETE],
        "the projects: their servers, volumes and networks are left without an owner to \
         reach them",
        "re-create the project and ask the cloud's operators to re-assign what it owned",
    ),
    Delete {
        path: &[&["container"], DELETE],
        what: "the object storage containers and every object in them",
        recovery: "none: Swift keeps no deleted objects unless the container was versioned",
        needs: &["--recursive", "-r"],
    },
    row(
        &[&["share"], DELETE],
        "the file shares and all their files",
        "only from a share snapshot or backup kept elsewhere",
    ),
    row(
        &[&["share"], &["snapshot"], DELETE],
        "the share snapshots",
        "none: a deleted snapshot is gone",
    ),
    row(
        &[&["database"], &["instance"], DELETE],
        "the database instances and their data",
        "only from a database backup taken before (`openstack database backup create`)",
    ),
    row(
        &[&["coe"], &["cluster"], DELETE],
        "the container clusters with their nodes and workloads",
        "none: re-create the cluster and re-deploy",
    ),
    row(
        &[&["secret"], DELETE],
        "the secrets and their payloads",
        "none: a deleted secret is gone",
    ),
    row(
        &[&["zone"], DELETE],
        "the DNS zones with all their record sets",
        "re-create the zone and its records; `openstack zone export create` keeps a copy",
    ),
];

pub(super) fn check(args: &[Word]) -> Option<Hit> {
    table::check(
        &OPENSTACK_DELETE,
        args,
        VALUED,
        TABLE,
        "`openstack <resource> show <name>` to check what it is; `openstack server image \
         create` or `openstack volume snapshot create` first; `openstack server stop` or \
         `shelve` keeps a server without running it",
    )
}
