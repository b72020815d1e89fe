//! Secrets managers: HashiCorp Vault, 1Password and Doppler. A deleted secret is often the
//! only copy of a credential; the systems that used it stop working and nobody can say what
//! the value was.

use super::Pack;
use super::args::{asks_help, has, operands, value};
use super::http::{Url, request_hits};
use crate::rules::git::list;
use crate::rules::{Hit, Rule, Tier};
use crate::shell::SimpleCommand;

pub static VAULT_DELETE: Rule = Rule {
    id: "secrets.vault-delete",
    catches: "`vault kv delete|destroy`, `vault kv metadata delete`, `vault delete`, `vault \
              secrets disable`, `vault auth disable`, `vault policy delete` and `vault lease \
              revoke -prefix`",
    why: "Vault is where the credentials live. `kv destroy` and `kv metadata delete` remove \
          secret versions for good, `secrets disable` throws away every secret under the mount, \
          `auth disable` revokes every token the method issued, and revoking leases by prefix \
          destroys the database users and cloud keys they stand for.",
    instead: "Read what you are about to remove first (`vault kv get`, `vault read`, `vault \
              policy read`) and keep a copy; prefer `vault kv delete` (undone with `vault kv \
              undelete`) to `destroy`; `vault secrets move` renames a mount without losing it.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "vault kv destroy -versions=1-3 secret/myapp/config",
        "vault kv metadata delete secret/myapp/config",
        "vault kv delete -mount=secret myapp/config",
        "vault delete secret/myapp/config",
        "vault secrets disable kv/",
        "vault auth disable github",
        "vault policy delete myapp-policy",
        "vault lease revoke -prefix database/creds/",
        "curl -X DELETE -H \"X-Vault-Token: $VAULT_TOKEN\" http://127.0.0.1:8200/v1/secret/metadata/myapp/config",
        "curl -X DELETE -H \"X-Vault-Token: $VAULT_TOKEN\" http://127.0.0.1:8200/v1/sys/mounts/kv",
    ],
    passes: &[
        "vault kv get secret/myapp/config",
        "vault kv put secret/myapp/config password=s3cret",
        "vault kv undelete -versions=3 secret/myapp/config",
        "vault secrets list",
        "vault policy read myapp-policy",
        "vault lease revoke database/creds/readonly/abc123",
        "vault read secret/hello",
        "echo \"vault secrets disable secret/\"",
        "curl -H \"X-Vault-Token: $VAULT_TOKEN\" http://127.0.0.1:8200/v1/secret/data/myapp/config",
        "curl -X POST -H \"X-Vault-Token: $VAULT_TOKEN\" http://127.0.0.1:8200/v1/secret/undelete/myapp/config -d '{\"versions\":[3]}'",
    ],
};

pub static ONEPASSWORD_DELETE: Rule = Rule {
    id: "secrets.onepassword-delete",
    catches: "`op item|document|vault|user|group delete` (also `remove`/`rm`) and `op connect \
              server|token delete`",
    why: "A 1Password item or document may be the only copy of a credential or key; deleting a \
          vault deletes every item in it, deleting a user deletes their private vault, and \
          deleting a group removes the vault access it grants.",
    instead: "Read it first (`op item get`, `op vault get`) and ask the user; retire an item by \
              archiving it from the app, or rename it, rather than deleting it.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "op item delete \"Database Password\"",
        "op item delete --archive \"Legacy Token\"",
        "op document delete \"Prod Cert\" --vault Engineering",
        "op vault delete Engineering",
        "op user delete user@example.com",
        "op group delete Contractors",
        "op --account acme item rm 4f3b2c",
    ],
    passes: &[
        "op item get \"Database Password\"",
        "op item list --vault Engineering",
        "op vault list",
        "op whoami",
        "op item create --category login --title x",
        "jj op undo",
    ],
};

pub static DOPPLER_DELETE: Rule = Rule {
    id: "secrets.doppler-delete",
    catches: "`doppler secrets delete`, `doppler configs delete`, `doppler environments delete` \
              and `doppler projects delete`",
    why: "Doppler holds the secrets a deployment runs with: a deleted secret breaks every \
          service that reads it, and deleting a config, environment or project deletes every \
          secret in it.",
    instead: "`doppler secrets get <NAME> --plain` or `doppler secrets download --no-file` to \
              keep a copy first, and ask the user before removing anything shared.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "doppler secrets delete DATABASE_URL",
        "doppler secrets delete API_KEY --project backend --config prod --yes",
        "doppler configs delete dev --project backend -y",
        "doppler projects delete payments -y",
        "doppler environments delete staging --project backend",
    ],
    passes: &[
        "doppler secrets get DATABASE_URL",
        "doppler secrets list --project backend --config prod",
        "doppler secrets set API_KEY=123",
        "doppler run -- printenv DATABASE_URL",
        "doppler setup --project backend --config prod",
        "doppler configs list",
    ],
};

pub static PACK: Pack = Pack {
    id: "secrets",
    summary: "secrets managers: Vault (its CLI and HTTP API), 1Password (`op`) and Doppler \
              deletes",
    default_on: true,
    programs: super::http::and_http_clients!["vault", "op", "doppler"],
    rules: &[&VAULT_DELETE, &ONEPASSWORD_DELETE, &DOPPLER_DELETE],
    check,
};

fn check(cmd: &SimpleCommand) -> Vec<Hit> {
    if let Some(hits) = request_hits(cmd, vault_api) {
        return hits;
    }
    let args = cmd.args();
    if asks_help(args) {
        return Vec::new();
    }
    let hit = match cmd.program() {
        Some("vault") => vault(args),
        Some("op") => onepassword(args),
        Some("doppler") => doppler(args),
        _ => None,
    };
    hit.into_iter().collect()
}

/// Vault options that take the next word as their value.
const VAULT_VALUED: &[&str] = &[
    "-address",
    "-namespace",
    "-ns",
    "-mount",
    "-versions",
    "-format",
    "-field",
    "-ca-cert",
    "-client-cert",
    "-client-key",
    "-wrap-ttl",
    "-header",
    "-policy-override",
];

fn vault(args: &[crate::shell::Word]) -> Option<Hit> {
    let ops = operands(args, VAULT_VALUED);
    let target = |i: usize| {
        ops.get(i)
            .map_or("the given path".to_string(), |p| format!("`{p}`"))
    };
    let (loses, safer, recovery) = match ops.as_slice() {
        ["kv", "destroy", ..] => {
            let versions = value(args, &["-versions", "--versions"]).unwrap_or("the given");
            (
                format!("permanently destroys versions {versions} of {}", target(2)),
                "`vault kv delete` hides a version and can be undone with `vault kv undelete`",
                "none: destroyed versions are erased from storage",
            )
        }
        ["kv", "metadata", "delete", ..] => (
            format!("erases every version and the metadata of {}", target(3)),
            "`vault kv get` (and `vault kv metadata get`) first and keep a copy; `vault kv \
             delete` only hides the latest version",
            "none: all versions are erased",
        ),
        ["kv", "delete", ..] => (
            format!("deletes the latest version of {}", target(2)),
            "`vault kv get` first and keep a copy of the value",
            "on a KV version 2 engine, `vault kv undelete -versions=<n> <path>`; on version 1 \
             none",
        ),
        ["delete", ..] => (
            format!("deletes the secret at {}", target(1)),
            "`vault read` first and keep a copy of the value",
            "on a KV version 2 engine, `vault kv undelete`; on version 1 none",
        ),
        ["secrets", "disable", ..] => (
            format!(
                "disables the secrets engine at {} and deletes every secret stored under it",
                target(2)
            ),
            "`vault secrets list` and export what is needed first; `vault secrets move` \
             renames a mount without losing its data",
            "none: the engine's data is destroyed with the mount",
        ),
        ["auth", "disable", ..] => (
            format!(
                "disables the auth method at {}: its configuration is deleted and every token \
                 it issued is revoked",
                target(2)
            ),
            "`vault auth list -detailed` and `vault read auth/<path>/config` to keep its \
             configuration first",
            "enable and configure it again; revoked tokens are gone and clients must log in anew",
        ),
        ["policy", "delete", ..] => (
            format!(
                "deletes policy {}: tokens that rely on it lose that access",
                target(2)
            ),
            "`vault policy read <name> > policy.hcl` first",
            "`vault policy write <name> policy.hcl` from a saved copy",
        ),
        ["lease", "revoke", ..] if has(args, &["-prefix", "--prefix"]) => (
            format!(
                "revokes every lease under {}: the credentials they issued (database users, \
                 cloud keys) are destroyed",
                target(2)
            ),
            "`vault list sys/leases/lookup/<prefix>` to see the leases first; revoke one \
             lease id at a time",
            "none for the revoked credentials; clients must request new ones",
        ),
        _ => return None,
    };
    Some(
        Hit::new(&VAULT_DELETE, Tier::Destructive, loses)
            .safer(safer)
            .recovery(recovery),
    )
}

/// `op` options that take the next word as their value.
const OP_VALUED: &[&str] = &[
    "--account",
    "--config",
    "--session",
    "--encoding",
    "--format",
    "--vault",
    "--iso-timestamps",
];

fn onepassword(args: &[crate::shell::Word]) -> Option<Hit> {
    let ops = operands(args, OP_VALUED);
    let is_delete = |w: &&str| matches!(*w, "delete" | "remove" | "rm");
    let (noun, name) = match ops.as_slice() {
        [noun, verb, rest @ ..] if is_delete(verb) => (*noun, rest.first()),
        ["connect", kind @ ("server" | "token"), verb, rest @ ..] if is_delete(verb) => {
            (*kind, rest.first())
        }
        _ => return None,
    };
    let shown = name.map_or("the one given on stdin".to_string(), |n| format!("`{n}`"));
    let archive = has(args, &["--archive"]);
    let (loses, recovery) = match noun {
        "item" | "document" if archive => (
            format!("moves {noun} {shown} to the archive"),
            "restore it from the Archive in the 1Password app",
        ),
        "item" | "document" => (
            format!("deletes {noun} {shown}, possibly the only copy of that credential"),
            "1Password keeps deleted items in Recently Deleted for 30 days: restore it there \
             from the app",
        ),
        "vault" => (
            format!("deletes vault {shown} and every item in it"),
            "none: the vault's items go with it",
        ),
        "user" => (
            format!("deletes user {shown} and their private vault"),
            "none: invite the person again; their private items are gone",
        ),
        "group" => (
            format!("deletes group {shown} and the vault access it grants its members"),
            "create the group again and grant its vault access anew",
        ),
        "server" | "token" => (
            format!("deletes Connect {noun} {shown}: integrations using it stop working"),
            "create a new one with `op connect server create` / `op connect token create`",
        ),
        _ => return None,
    };
    Some(
        Hit::new(&ONEPASSWORD_DELETE, Tier::Destructive, loses)
            .safer(format!(
                "`op {noun} get {}` first to keep a copy, and ask the user",
                name.unwrap_or(&"<name>")
            ))
            .recovery(recovery),
    )
}

/// Doppler options that take the next word as their value.
const DOPPLER_VALUED: &[&str] = &[
    "--project",
    "-p",
    "--config",
    "-c",
    "--token",
    "-t",
    "--scope",
    "--api-host",
    "--configuration",
    "--environment",
];

fn doppler(args: &[crate::shell::Word]) -> Option<Hit> {
    let ops = operands(args, DOPPLER_VALUED);
    let [noun, verb, names @ ..] = ops.as_slice() else {
        return None;
    };
    if !matches!(*verb, "delete" | "rm" | "remove") {
        return None;
    }
    let project = value(args, &["--project", "-p"])
        .map(|p| format!(" of project `{p}`"))
        .unwrap_or_default();
    let config = value(args, &["--config", "-c"])
        .map(|c| format!(" in config `{c}`"))
        .unwrap_or_default();
    let shown = if names.is_empty() {
        "(the one given)".to_string()
    } else {
        list(names.iter().copied())
    };
    let (loses, safer, recovery) = match *noun {
        "secrets" => (
            format!("deletes secret {shown}{config}{project}: every service reading it breaks"),
            "`doppler secrets get <NAME> --plain` first to keep the value",
            "Doppler's config log records the change: find it with `doppler configs logs` and \
             undo it with `doppler configs logs rollback <log-id>`",
        ),
        "configs" => (
            format!("deletes config {shown}{project} and every secret in it"),
            "`doppler secrets download --no-file --config <name>` first to keep a copy",
            "none: create the config again and set its secrets from a saved copy",
        ),
        "environments" => (
            format!("deletes environment {shown}{project} with its configs and their secrets"),
            "`doppler secrets download --no-file` for each of its configs first",
            "none: recreate it and set its secrets from a saved copy",
        ),
        "projects" => (
            format!("deletes project {shown} with every environment, config and secret in it"),
            "`doppler secrets download --no-file` for each config first, and ask the user",
            "none: the project's secrets are gone",
        ),
        _ => return None,
    };
    Some(
        Hit::new(&DOPPLER_DELETE, Tier::Destructive, loses)
            .safer(safer)
            .recovery(recovery),
    )
}

/// Vault's HTTP API (`/v1/...` on port 8200, or a host named for Vault): what a `DELETE` (or
/// a `POST` to `destroy`) removes, by the path's shape.
fn vault_api(method: &str, url: &Url) -> Option<Hit> {
    let vault = url.port == Some(8200) || url.host_words().any(|w| w.contains("vault"));
    if !vault || url.segment(0) != Some("v1") {
        return None;
    }
    let rest = url.segments.get(1..).unwrap_or_default();
    let rest: Vec<&str> = rest.iter().map(String::as_str).collect();
    let path = |from: usize| rest.get(from..).unwrap_or_default().join("/");
    let (loses, recovery) = match (method, rest.as_slice()) {
        ("DELETE", ["sys", "mounts", ..]) => (
            format!(
                "disables the secrets engine at `{}` and deletes every secret stored under it",
                path(2)
            ),
            "none: the engine's data is destroyed with the mount",
        ),
        ("DELETE", ["sys", "auth", ..]) => (
            format!(
                "disables the auth method at `{}`: its configuration is deleted and every token \
                 it issued is revoked",
                path(2)
            ),
            "enable and configure it again; revoked tokens are gone",
        ),
        ("DELETE", ["sys", "policy" | "policies", ..]) => (
            format!(
                "deletes policy `{}`: tokens that rely on it lose that access",
                rest.last().copied().unwrap_or_default()
            ),
            "write it again from a saved copy",
        ),
        // Other system and auth endpoints (`sys/leases`, `auth/token/...`) are not secrets.
        (_, ["sys" | "auth" | "identity", ..]) => return None,
        ("DELETE", [mount, "metadata", ..]) => (
            format!(
                "erases every version and the metadata of `{mount}/{}`",
                path(2)
            ),
            "none: all versions are erased",
        ),
        ("POST" | "PUT", [mount, "destroy", ..]) => (
            format!("permanently destroys versions of `{mount}/{}`", path(2)),
            "none: destroyed versions are erased from storage",
        ),
        ("DELETE", [mount, "data", ..]) => (
            format!("deletes the latest version of `{mount}/{}`", path(2)),
            "on a KV version 2 engine, `POST /v1/<mount>/undelete/<path>`",
        ),
        ("DELETE", [_, _, ..]) => (
            format!("deletes the secret at `{}`", path(0)),
            "on a KV version 2 engine, undelete it; on version 1 none",
        ),
        _ => return None,
    };
    Some(
        Hit::new(
            &VAULT_DELETE,
            Tier::Destructive,
            format!("{loses} (Vault HTTP API)"),
        )
        .safer("`GET` the same path first and keep a copy of what it holds")
        .recovery(recovery),
    )
}
