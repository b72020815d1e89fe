//! Google Cloud: `gcloud` deletes of projects and data holders, `gsutil rm -r`/`rb`/`rsync -d`.

use crate::rules::git::list;
use crate::rules::packs::args::{Line, Style, without};
use crate::rules::{Hit, Rule, Tier};
use crate::shell::{SimpleCommand, Word};

pub static GCP_DELETE: Rule = Rule {
    id: "cloud.gcp-delete",
    catches: "`gcloud projects delete`, `gcloud sql`/`compute`/`container`/`spanner`/`… delete` of data holders, `gcloud storage rm -r`, `gcloud storage buckets delete`, `gsutil rm -r`, `gsutil rm` of a wildcard or of the URLs on its stdin (`-I`), `gsutil rb`, `gsutil rsync -d`",
    why: "A deleted Cloud SQL instance takes its backups with it; a deleted disk, bucket \
          prefix or Spanner database is gone; a deleted project shuts everything in it down \
          and is purged after 30 days.",
    instead: "`describe`/`list` the resource first; export or snapshot it (`gcloud sql export`, \
              `gcloud compute disks snapshot`); for buckets, `gcloud storage ls -r` and \
              `gsutil rsync -n` show what would go.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "gcloud projects delete my-project",
        "gcloud sql instances delete main-db --quiet",
        "gcloud compute instances delete vm-1 --zone us-central1-a",
        "gcloud storage rm -r gs://assets/2023",
        "gsutil -m rm -r gs://my-bucket",
        "gsutil rb gs://old-bucket",
        "gsutil -m rm -a 'gs://my-bucket/**'",
        "gsutil ls 'gs://my-bucket/logs/**' | gsutil -m rm -I",
        "gcloud beta container clusters delete dev --region us-east1",
    ],
    passes: &[
        "gcloud projects list",
        "gcloud sql instances describe main-db",
        "gcloud sql export sql main-db gs://backups/db.sql",
        "gcloud storage rm gs://assets/logo.png",
        "gsutil ls -r gs://my-bucket",
        "gsutil rm gs://my-bucket/logs/app.log",
        "gsutil rsync -r ./site gs://www",
        "gcloud compute instances stop vm-1",
    ],
};

/// gcloud options that take a separate value (most are written `--flag=value`).
const GCLOUD_VALUED: &[&str] = &[
    "project",
    "account",
    "configuration",
    "verbosity",
    "format",
    "impersonate-service-account",
    "billing-project",
    "zone",
    "region",
    "location",
    "instance",
    "database",
    "filter",
    "sort-by",
    "limit",
    "page-size",
    "trace-token",
    "cluster",
];

/// Command groups whose `delete` removes data (the words after the optional release track).
const DELETES: &[(&[&str], &str)] = &[
    (
        &["projects", "delete"],
        "the project and every resource in it",
    ),
    (
        &["sql", "instances", "delete"],
        "the Cloud SQL instance, its databases and its backups",
    ),
    (
        &["sql", "databases", "delete"],
        "the database and its tables",
    ),
    (&["sql", "backups", "delete"], "the Cloud SQL backup"),
    (
        &["compute", "instances", "delete"],
        "the VM instances and their boot disks (unless kept with `--keep-disks`)",
    ),
    (
        &["compute", "disks", "delete"],
        "the persistent disks and their data",
    ),
    (&["compute", "snapshots", "delete"], "the disk snapshots"),
    (
        &["container", "clusters", "delete"],
        "the GKE cluster and its workloads",
    ),
    (
        &["spanner", "instances", "delete"],
        "the Spanner instance and its databases",
    ),
    (&["spanner", "databases", "delete"], "the Spanner database"),
    (
        &["bigtable", "instances", "delete"],
        "the Bigtable instance and its tables",
    ),
    (
        &["firestore", "databases", "delete"],
        "the Firestore database",
    ),
    (
        &["alloydb", "clusters", "delete"],
        "the AlloyDB cluster and its data",
    ),
    (
        &["redis", "instances", "delete"],
        "the Memorystore instance and its data",
    ),
    (
        &["filestore", "instances", "delete"],
        "the Filestore share and its files",
    ),
    (&["secrets", "delete"], "the secret and all its versions"),
    (&["pubsub", "topics", "delete"], "the topic"),
    (
        &["pubsub", "subscriptions", "delete"],
        "the subscription and its unacknowledged messages",
    ),
    (&["storage", "buckets", "delete"], "the bucket"),
];

pub(super) fn gcloud(args: &[Word]) -> Option<Hit> {
    let line = Line::parse(args, Style::Gnu, GCLOUD_VALUED);
    if line.help() {
        return None;
    }
    let track = usize::from(matches!(
        line.operand(0),
        Some("alpha" | "beta" | "preview")
    ));
    let path = line.operands.get(track..).unwrap_or_default();
    let project = line
        .value(&["project"])
        .map_or_else(String::new, |p| format!(" in project `{p}`"));

    if path.starts_with(&["storage", "rm"]) {
        if !line.on(&["r", "R", "recursive", "a", "all-versions"]) {
            return None;
        }
        let urls = path.get(2..).unwrap_or_default();
        return Some(
            Hit::new(
                &GCP_DELETE,
                Tier::Destructive,
                format!(
                    "deletes every object under {}",
                    if urls.is_empty() {
                        "the given URLs".to_string()
                    } else {
                        list(urls.iter().copied())
                    }
                ),
            )
            .safer("`gcloud storage ls -r <url>` to see what would go")
            .recovery(OBJECT_VERSIONS),
        );
    }
    if path.starts_with(&["storage", "rsync"]) && line.on(&["delete-unmatched-destination-objects"])
    {
        return Some(
            Hit::new(
                &GCP_DELETE,
                Tier::Destructive,
                format!(
                    "deletes every object under `{}` that the source does not have",
                    path.last().copied().unwrap_or("the destination")
                ),
            )
            .safer("the same command with `--dry-run`; without `--delete-unmatched-destination-objects` it only copies")
            .recovery(OBJECT_VERSIONS),
        );
    }
    let (prefix, what) = DELETES
        .iter()
        .find(|(prefix, _)| path.starts_with(prefix))?;
    let names = path.get(prefix.len()..).unwrap_or_default();
    let named = if names.is_empty() {
        String::new()
    } else {
        format!(" ({})", list(names.iter().copied()))
    };
    let recovery = match prefix.first().copied().unwrap_or_default() {
        "projects" => "`gcloud projects undelete <id>` within 30 days",
        "sql" if prefix.get(1) == Some(&"instances") => {
            "none: the instance's backups go with it; only an export (`gcloud sql export`) kept elsewhere restores it"
        }
        "compute" if prefix.get(1) == Some(&"snapshots") => "none",
        "compute" => "only from a disk snapshot or image taken before",
        "secrets" => "none: the secret's values are gone",
        _ => "only from a backup or export taken before",
    };
    Some(
        Hit::new(
            &GCP_DELETE,
            Tier::Destructive,
            format!("deletes {what}{named}{project}"),
        )
        .safer(format!(
            "`gcloud {} describe` first, and an export or snapshot of the data",
            prefix
                .split_last()
                .map(|(_, parent)| parent.join(" "))
                .unwrap_or_default()
        ))
        .recovery(recovery),
    )
}

const OBJECT_VERSIONS: &str = "only if the bucket keeps object versions or soft-deleted \
                               objects: `gcloud storage restore`";

/// gsutil's top-level options that take a value.
const GSUTIL_GLOBAL: &[&str] = &["o", "h", "u", "i"];

pub(super) fn gsutil(cmd: &SimpleCommand, args: &[Word]) -> Option<Hit> {
    let (globals, at) = Line::head(args, Style::Gnu, GSUTIL_GLOBAL);
    let (verb, rest) = args.get(at?..)?.split_first()?;
    let line = Line::parse(rest, Style::Gnu, &["x", "p", "c"]);
    if globals.help() || line.help() {
        return None;
    }
    let urls = || {
        if line.operands.is_empty() {
            "the given URLs".to_string()
        } else {
            list(line.operands.iter().copied())
        }
    };
    let hit = match verb.text.as_str() {
        "rm" | "del" | "delete" | "remove" if line.on(&["r", "R"]) => Hit::new(
            &GCP_DELETE,
            Tier::Destructive,
            format!("deletes every object under {}", urls()),
        )
        .safer("`gsutil ls -r <url>` to see what would go"),
        // A wildcard names every object it matches (`**` at any depth).
        "rm" | "del" | "delete" | "remove" if line.operands.iter().any(|u| u.contains('*')) => {
            Hit::new(
                &GCP_DELETE,
                Tier::Destructive,
                format!(
                    "deletes every object matching {}{}",
                    urls(),
                    if line.on(&["a"]) {
                        ", every version of each"
                    } else {
                        ""
                    }
                ),
            )
            .safer("`gsutil ls` with the same wildcard to see what would go")
        }
        // `-I`: the URLs to delete are read from stdin, as a listing piped in gives them.
        "rm" | "del" | "delete" | "remove" if line.on(&["I"]) => Hit::new(
            &GCP_DELETE,
            Tier::Destructive,
            "deletes every object whose URL arrives on its stdin (`-I`)",
        )
        .safer("run the listing alone first to see what would go"),
        "rb" | "removebucket" | "deletebucket" => Hit::new(
            &GCP_DELETE,
            Tier::Destructive,
            format!(
                "deletes the bucket {}{}",
                urls(),
                if line.on(&["f"]) {
                    " with every object in it"
                } else {
                    ""
                }
            ),
        )
        .safer("`gsutil du -s <bucket>` and `gsutil ls <bucket>` first"),
        "rsync" if line.on(&["d"]) && !line.on(&["n"]) => Hit::new(
            &GCP_DELETE,
            Tier::Destructive,
            format!(
                "deletes every object under `{}` that the source does not have",
                line.operands.last().copied().unwrap_or("the destination")
            ),
        )
        .safer(format!(
            "`{}` shows what it would do; without `-d` it only copies",
            without(cmd, &[], &[], &[]).replacen(" rsync ", " rsync -n ", 1)
        )),
        _ => return None,
    };
    Some(hit.recovery(OBJECT_VERSIONS))
}
