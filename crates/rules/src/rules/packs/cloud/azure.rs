//! Azure: `az` deletes of resource groups and data holders, `azcopy rm` and
//! `azcopy sync --delete-destination`.

use crate::rules::packs::args::{Line, Style};
use crate::rules::{Hit, Rule, Tier};
use crate::shell::{SimpleCommand, Word};

pub static AZURE_DELETE: Rule = Rule {
    id: "cloud.azure-delete",
    catches: "`az group delete`, `az storage account`/`container`/`share`/`table`/`queue`/`fs delete`, `az storage blob delete-batch`, `az sql`/`cosmosdb`/`postgres`/`mysql`/`keyvault`/`vm`/`disk`/`aks`/`redis`/`acr … delete`, `azcopy rm`, `azcopy sync --delete-destination true`",
    why: "A resource group delete takes every resource in the group with it; a storage \
          account, container or database delete takes its data. Soft delete, where it was \
          switched on, is the only way back.",
    instead: "`az group show` / `az resource list -g <group>` (or the matching `show`/`list`) to \
              see what is there; back the data up first (`az sql db export`, `azcopy copy`); \
              `azcopy rm --dry-run` lists what would go.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "az group delete -n demo --yes",
        "az storage account delete -n mystorage -g rg1",
        "az storage container delete --account-name acct -n web",
        "az sql db delete -g rg1 -s sqlsrv -n appdb --yes",
        "az keyvault purge --name my-vault",
        "azcopy rm 'https://acct.blob.core.windows.net/web/old' --recursive",
        "azcopy sync ./site 'https://acct.blob.core.windows.net/web' --delete-destination true",
    ],
    passes: &[
        "az group list",
        "az group show -n demo",
        "az storage blob list --account-name acct -c web",
        "az storage blob delete --account-name acct -c web -n old.txt",
        "az webapp delete -n demo -g rg1",
        "azcopy rm 'https://acct.blob.core.windows.net/web/old' --recursive --dry-run",
        "azcopy sync ./site 'https://acct.blob.core.windows.net/web'",
    ],
};

/// `az` command paths that delete data, and what goes.
const DELETES: &[(&[&str], &str)] = &[
    (
        &["group", "delete"],
        "the resource group and every resource in it",
    ),
    (
        &["storage", "account", "delete"],
        "the storage account and every blob, file, table and queue in it",
    ),
    (
        &["storage", "container", "delete"],
        "the blob container and every blob in it",
    ),
    (
        &["storage", "share", "delete"],
        "the file share and every file in it",
    ),
    (
        &["storage", "share-rm", "delete"],
        "the file share and every file in it",
    ),
    (
        &["storage", "table", "delete"],
        "the table and every entity in it",
    ),
    (
        &["storage", "queue", "delete"],
        "the queue and its messages",
    ),
    (
        &["storage", "fs", "delete"],
        "the file system and every file in it",
    ),
    (
        &["storage", "fs", "directory", "delete"],
        "the directory and everything under it",
    ),
    (
        &["storage", "blob", "delete-batch"],
        "every blob the source and pattern match",
    ),
    (
        &["storage", "file", "delete-batch"],
        "every file the source and pattern match",
    ),
    (&["sql", "db", "delete"], "the database"),
    (
        &["sql", "server", "delete"],
        "the SQL server and every database on it",
    ),
    (
        &["sql", "mi", "delete"],
        "the managed instance and its databases",
    ),
    (
        &["postgres", "server", "delete"],
        "the PostgreSQL server and its databases",
    ),
    (
        &["postgres", "flexible-server", "delete"],
        "the PostgreSQL server and its databases",
    ),
    (
        &["postgres", "flexible-server", "db", "delete"],
        "the database",
    ),
    (
        &["mysql", "server", "delete"],
        "the MySQL server and its databases",
    ),
    (
        &["mysql", "flexible-server", "delete"],
        "the MySQL server and its databases",
    ),
    (
        &["mysql", "flexible-server", "db", "delete"],
        "the database",
    ),
    (
        &["keyvault", "delete"],
        "the key vault and its keys, secrets and certificates",
    ),
    (
        &["keyvault", "purge"],
        "the soft-deleted key vault, for good",
    ),
    (&["keyvault", "secret", "delete"], "the secret"),
    (
        &["keyvault", "secret", "purge"],
        "the soft-deleted secret, for good",
    ),
    (&["keyvault", "key", "delete"], "the key"),
    (
        &["keyvault", "key", "purge"],
        "the soft-deleted key, for good",
    ),
    (&["vm", "delete"], "the virtual machine"),
    (&["disk", "delete"], "the managed disk and its data"),
    (&["snapshot", "delete"], "the disk snapshot"),
    (
        &["aks", "delete"],
        "the Kubernetes cluster and its workloads",
    ),
    (&["redis", "delete"], "the cache and its data"),
    (&["acr", "delete"], "the container registry and its images"),
    (&["acr", "repository", "delete"], "the repository's images"),
    (&["backup", "vault", "delete"], "the backup vault"),
];

pub(super) fn az(args: &[Word]) -> Option<Hit> {
    let line = Line::parse(args, Style::Gnu, &["n", "name", "g", "resource-group"]);
    // az takes its command words first, then options.
    let path = line.leading();
    // `delete-batch --dryrun` only lists what it would delete.
    if line.help() || line.on(&["dryrun"]) {
        return None;
    }
    let cosmos = path.first() == Some(&"cosmosdb") && path.last() == Some(&"delete");
    let what = match DELETES.iter().find(|(p, _)| *p == path) {
        Some((_, what)) => *what,
        None if cosmos => "the Cosmos DB account, database or container and its data",
        None => return None,
    };
    let name = line
        .value(&["n", "name"])
        .map_or_else(String::new, |n| format!(" (`{n}`)"));
    let group = line
        .value(&["g", "resource-group"])
        .filter(|_| path.first() != Some(&"group"))
        .map_or_else(String::new, |g| format!(" in resource group `{g}`"));
    let recovery = match path.first().copied().unwrap_or_default() {
        "keyvault" if path.last() == Some(&"purge") => {
            "none: a purge ends the soft-delete retention"
        }
        "keyvault" => {
            "`az keyvault recover` (or `az keyvault secret|key recover`) within the soft-delete retention"
        }
        "storage" => {
            "only if soft delete or versioning was on for the account: `az storage blob undelete` / `az storage container restore`"
        }
        "sql" if path.get(1) == Some(&"db") => {
            "`az sql db restore --dest-name ... --deleted-time ...` from the server's retained backups, while the server exists"
        }
        _ => "only from a backup taken before",
    };
    let show = path
        .split_last()
        .map(|(_, parent)| parent.join(" "))
        .unwrap_or_default();
    Some(
        Hit::new(
            &AZURE_DELETE,
            Tier::Destructive,
            format!("deletes {what}{name}{group}"),
        )
        .safer(format!(
            "`az {show} show` (or `list`) to see what is there, and a backup or export first"
        ))
        .recovery(recovery),
    )
}

pub(super) fn azcopy(cmd: &SimpleCommand, args: &[Word]) -> Option<Hit> {
    let line = Line::parse(
        args,
        Style::Gnu,
        &[
            "delete-destination",
            "include-pattern",
            "exclude-pattern",
            "include-path",
            "exclude-path",
            "list-of-files",
            "log-level",
        ],
    );
    if line.help() || line.on(&["dry-run"]) {
        return None;
    }
    let target = |n: usize| line.operand(n).unwrap_or("the target");
    let hit = match line.operand(0)? {
        "rm" | "remove" => Hit::new(
            &AZURE_DELETE,
            Tier::Destructive,
            format!(
                "deletes {} `{}`",
                if line.on(&["recursive"]) {
                    "everything under"
                } else {
                    "the blobs or files at"
                },
                target(1)
            ),
        ),
        "sync"
            if line
                .value(&["delete-destination"])
                .is_some_and(|v| v.eq_ignore_ascii_case("true")) =>
        {
            Hit::new(
                &AZURE_DELETE,
                Tier::Destructive,
                format!(
                    "deletes every file under `{}` that the source does not have",
                    target(2)
                ),
            )
        }
        _ => return None,
    };
    Some(
        hit.safer(format!(
            "`{} --dry-run` to list what would go",
            cmd.display()
        ))
        .recovery("only if blob soft delete or versioning was on: `az storage blob undelete`"),
    )
}
