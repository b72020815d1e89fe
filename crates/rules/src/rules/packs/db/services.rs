//! Databases deleted or emptied through their own service's command line rather than SQL:
//! InfluxDB buckets, organizations and time ranges, Turso, PlanetScale, Neon and Cloudflare D1
//! databases and branches, Workers KV namespaces, Supabase projects.

use super::super::args::{asks_help, has, operands, value};
use super::DATABASE_DELETE;
use crate::rules::{Hit, Tier};
use crate::shell::Word;

/// What one delete destroys, how to keep a copy first, and how to get it back.
struct Loss {
    loses: String,
    safer: String,
    recovery: &'static str,
    names: Vec<String>,
}

const FROM_BACKUP: &str = "only from a backup taken before";

/// The finding for `program args` when it deletes or empties a database.
pub(super) fn check(program: &str, args: &[Word]) -> Option<Hit> {
    if asks_help(args) {
        return None;
    }
    let loss = match program {
        "influx" => influx(args),
        "influxdb3" => influxdb3(args),
        "turso" => turso(args),
        "pscale" => pscale(args),
        "neonctl" | "neon" => neon(args),
        "wrangler" => d1(args),
        "supabase" => supabase(args),
        _ => None,
    }?;
    Some(
        Hit::new(&DATABASE_DELETE, Tier::Destructive, loss.loses)
            .safer(loss.safer)
            .recovery(loss.recovery)
            .names(loss.names),
    )
}

/// `<name>` or "the named one" when the command line does not show it.
fn shown(name: Option<&str>, noun: &str) -> String {
    match name {
        Some(name) => format!("{noun} `{name}`"),
        None => format!("the named {noun}"),
    }
}

/// InfluxDB 2.x: `influx bucket delete`, `influx org delete`, `influx delete` of a time range
/// with no `--predicate` to pick the points.
fn influx(args: &[Word]) -> Option<Loss> {
    let valued = [
        "-n",
        "--name",
        "-i",
        "--id",
        "-o",
        "--org",
        "--org-id",
        "-b",
        "--bucket",
        "--bucket-id",
        "--start",
        "--stop",
        "-p",
        "--predicate",
        "--host",
        "-t",
        "--token",
        "-c",
        "--active-config",
        "--configs-path",
    ];
    let ops = operands(args, &valued);
    let name = value(args, &["-n", "--name", "-i", "--id"]);
    let backup = "`influx backup <dir>` first (it copies every bucket's data)".to_string();
    match ops.as_slice() {
        ["bucket", "delete", ..] => Some(Loss {
            loses: format!(
                "deletes {} and every point in it, with no undo",
                shown(name, "bucket")
            ),
            safer: backup,
            recovery: FROM_BACKUP,
            names: name.map(String::from).into_iter().collect(),
        }),
        ["org", "delete", ..] => Some(Loss {
            loses: format!(
                "deletes {} with every bucket, dashboard and token in it, with no undo",
                shown(name, "organization")
            ),
            safer: backup,
            recovery: FROM_BACKUP,
            names: name.map(String::from).into_iter().collect(),
        }),
        ["delete", ..] if !has(args, &["-p", "--predicate"]) => {
            let bucket = value(args, &["-b", "--bucket", "--bucket-id"]);
            Some(Loss {
                loses: format!(
                    "deletes every point between `--start` and `--stop` in {}, whatever its \
                     measurement or tags (no `--predicate`), with no undo",
                    shown(bucket, "bucket")
                ),
                safer: "add a `--predicate` that picks the points (`_measurement=\"<m>\" AND \
                        <tag>=\"<v>\"`) and query the range first; `influx backup <dir>` \
                        before"
                    .into(),
                recovery: FROM_BACKUP,
                names: bucket.map(String::from).into_iter().collect(),
            })
        }
        _ => None,
    }
}

/// InfluxDB 3: `influxdb3 delete database|table`.
fn influxdb3(args: &[Word]) -> Option<Loss> {
    let valued = [
        "-H",
        "--host",
        "-d",
        "--database",
        "--token",
        "--hard-delete",
        "--tls-ca",
    ];
    let ops = operands(args, &valued);
    let (noun, name) = match ops.as_slice() {
        ["delete", "database", name, ..] => ("database", Some(*name)),
        ["delete", "database"] => ("database", value(args, &["-d", "--database"])),
        ["delete", "table", rest @ ..] => ("table", rest.first().copied()),
        _ => return None,
    };
    Some(Loss {
        loses: format!("deletes {} and its data", shown(name, noun)),
        safer: "query and export what you need first; delete only with the user's go-ahead".into(),
        recovery: FROM_BACKUP,
        names: name.map(String::from).into_iter().collect(),
    })
}

/// Turso: `turso db destroy <db>...`, `turso group destroy <group>` (with all its databases).
fn turso(args: &[Word]) -> Option<Loss> {
    let ops = operands(args, &["--location", "--instance"]);
    let (noun, names) = match ops.as_slice() {
        ["db" | "database", "destroy", names @ ..] => ("database", names),
        ["group", "destroy", names @ ..] => ("group (with every database in it)", names),
        _ => return None,
    };
    let dump = match (noun, names.first()) {
        ("database", Some(db)) => format!("`turso db shell {db} .dump > {db}.sql` first"),
        _ => "`turso db shell <db> .dump > <db>.sql` first for each database".into(),
    };
    Some(Loss {
        loses: format!(
            "destroys {}, with every row in it",
            shown(names.first().copied(), noun)
        ),
        safer: dump,
        recovery: "only from a dump: point-in-time recovery makes a new database from one that \
                   still exists",
        names: names.iter().map(|n| n.to_string()).collect(),
    })
}

/// PlanetScale: `pscale database delete <db>`, `pscale branch delete <db> <branch>`.
fn pscale(args: &[Word]) -> Option<Loss> {
    let valued = [
        "--org",
        "--format",
        "-f",
        "--service-token",
        "--service-token-id",
        "--api-token",
        "--config",
    ];
    let ops = operands(args, &valued);
    let (what, names) = match ops.as_slice() {
        ["database" | "db", "delete", db, ..] => {
            (format!("database `{db}` with every branch"), vec![*db])
        }
        ["branch", "delete", db, branch, ..] => (
            format!("branch `{branch}` of database `{db}`"),
            vec![*db, *branch],
        ),
        _ => return None,
    };
    Some(Loss {
        loses: format!("deletes {what} and its data, with no undo"),
        safer: "`pscale database dump <db> <branch>` first".into(),
        recovery: FROM_BACKUP,
        names: names.into_iter().map(String::from).collect(),
    })
}

/// Neon: `neonctl projects|branches|databases delete`, and `branches reset --parent`, which
/// replaces a branch's data with its parent's.
fn neon(args: &[Word]) -> Option<Loss> {
    let valued = [
        "--project-id",
        "--branch",
        "--api-key",
        "--context-file",
        "--config-dir",
        "--org-id",
        "-o",
        "--output",
        "--preserve-under-name",
    ];
    let ops = operands(args, &valued);
    let pitr = "Neon's instant restore brings a branch back to a moment of its history window, \
                while the project exists: `neonctl branches restore <branch> ^self@<just before>`";
    let (loses, recovery) = match ops.as_slice() {
        ["projects" | "project", "delete", id, ..] => (
            format!("deletes project `{id}` with every branch and database in it, with no undo"),
            FROM_BACKUP,
        ),
        ["branches" | "branch", "delete", id, ..] => (
            format!("deletes branch `{id}` and the data written on it"),
            FROM_BACKUP,
        ),
        ["databases" | "database" | "db", "delete", name, ..] => (
            format!("drops database `{name}` and everything in it"),
            pitr,
        ),
        ["branches" | "branch", "reset", id, ..] if !has(args, &["--preserve-under-name"]) => (
            format!(
                "replaces branch `{id}`'s data with its parent's, losing what was written on it"
            ),
            pitr,
        ),
        _ => return None,
    };
    Some(Loss {
        loses,
        safer: "`pg_dump` the branch's databases first; for a reset, `--preserve-under-name \
                <backup>` keeps the old data as a branch"
            .into(),
        recovery,
        names: ops.get(2).map(|n| n.to_string()).into_iter().collect(),
    })
}

/// Cloudflare D1: `wrangler d1 delete <db>`; Workers KV: `wrangler kv namespace delete`,
/// `wrangler kv bulk delete <file>`.
fn d1(args: &[Word]) -> Option<Loss> {
    let ops = operands(
        args,
        &[
            "--config",
            "-c",
            "--env",
            "-e",
            "--namespace-id",
            "--binding",
        ],
    );
    let namespace = value(args, &["--namespace-id", "--binding"]);
    match ops.as_slice() {
        ["kv", "namespace", "delete", ..] | ["kv:namespace", "delete", ..] => {
            return Some(Loss {
                loses: format!(
                    "deletes Workers KV {} with every key in it",
                    shown(namespace, "namespace")
                ),
                safer: "`wrangler kv key list --namespace-id <id>` to see what it holds, and \
                        `wrangler kv key get` the values to keep"
                    .into(),
                recovery: FROM_BACKUP,
                names: namespace.map(String::from).into_iter().collect(),
            });
        }
        ["kv", "bulk", "delete", file, ..] | ["kv:bulk", "delete", file, ..] => {
            return Some(Loss {
                loses: format!(
                    "deletes every key listed in `{file}` from Workers KV {}",
                    shown(namespace, "namespace")
                ),
                safer: "`wrangler kv key get` the values to keep first".into(),
                recovery: FROM_BACKUP,
                names: namespace.map(String::from).into_iter().collect(),
            });
        }
        _ => {}
    }
    let ["d1", "delete", name, ..] = ops.as_slice() else {
        return None;
    };
    Some(Loss {
        loses: format!("deletes D1 database `{name}` and every row in it"),
        safer: format!("`wrangler d1 export {name} --remote --output=backup.sql` first"),
        recovery: "Time Travel restores only a database that still exists: only from an export",
        names: vec![name.to_string()],
    })
}

/// Supabase: `supabase projects delete <ref>`, which takes the project's database with it.
fn supabase(args: &[Word]) -> Option<Loss> {
    let ops = operands(args, &["--workdir", "--profile", "-o", "--output"]);
    let ["projects", "delete", reference, ..] = ops.as_slice() else {
        return None;
    };
    Some(Loss {
        loses: format!(
            "deletes project `{reference}` with its database, storage and auth users, with no undo"
        ),
        safer: "`supabase db dump --linked -f backup.sql` (and `--data-only`) first".into(),
        recovery: FROM_BACKUP,
        names: vec![reference.to_string()],
    })
}
