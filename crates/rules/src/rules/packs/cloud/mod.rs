//! Cloud and object storage: deletes through the AWS, Google Cloud, Azure, DigitalOcean,
//! Linode, OpenStack and Hetzner command lines, MinIO's `mc`, rclone, s3cmd, s5cmd and
//! Backblaze's `b2`, of what holds data
//! (buckets and their objects, databases, disks, servers, snapshots, secrets, queues) or a
//! whole project or resource group. Deleting one object or one item passes, as deleting one
//! file does.

mod aws;
mod azure;
mod digitalocean;
mod gcp;
mod hetzner;
mod linode;
mod objects;
mod openstack;
mod storage;
mod table;

use super::Pack;
use crate::rules::Hit;
use crate::shell::SimpleCommand;

pub use aws::{AWS_BUCKET_DELETE, AWS_DELETE};
pub use azure::AZURE_DELETE;
pub use digitalocean::DIGITALOCEAN_DELETE;
pub use gcp::GCP_DELETE;
pub use hetzner::HETZNER_DELETE;
pub use linode::LINODE_DELETE;
pub use openstack::OPENSTACK_DELETE;
pub use storage::STORAGE_DELETE;

pub static PACK: Pack = Pack {
    id: "cloud",
    summary: "AWS, Google Cloud, Azure, DigitalOcean, Linode, OpenStack and Hetzner deletes of buckets, databases, disks, servers, snapshots, secrets, queues, projects; MinIO `mc`, rclone, s3cmd, s5cmd and Backblaze `b2` deletes and syncs",
    default_on: true,
    programs: &[
        "aws",
        "gcloud",
        "gsutil",
        "az",
        "azcopy",
        "mc",
        "rclone",
        "s3cmd",
        "s5cmd",
        "b2",
        "doctl",
        "linode-cli",
        "linode",
        "openstack",
        "hcloud",
    ],
    rules: &[
        &AWS_BUCKET_DELETE,
        &AWS_DELETE,
        &GCP_DELETE,
        &AZURE_DELETE,
        &DIGITALOCEAN_DELETE,
        &LINODE_DELETE,
        &OPENSTACK_DELETE,
        &HETZNER_DELETE,
        &STORAGE_DELETE,
    ],
    check,
};

fn check(cmd: &SimpleCommand) -> Vec<Hit> {
    let args = cmd.args();
    let hit = match cmd.program() {
        Some("aws") => aws::check(cmd, args),
        Some("gcloud") => gcp::gcloud(args),
        Some("gsutil") => gcp::gsutil(cmd, args),
        Some("az") => azure::az(args),
        Some("azcopy") => azure::azcopy(cmd, args),
        Some("mc") => storage::mc(cmd, args),
        Some("rclone") => storage::rclone(cmd, args),
        Some("s3cmd") => objects::s3cmd(cmd, args),
        Some("s5cmd") => objects::s5cmd(cmd, args),
        Some("b2") => objects::b2(cmd, args),
        Some("doctl") => digitalocean::check(args),
        Some("linode-cli" | "linode") => linode::check(args),
        Some("openstack") => openstack::check(args),
        Some("hcloud") => hetzner::check(args),
        _ => None,
    };
    hit.into_iter().collect()
}
