//! Configuration stores: Consul's KV store, etcd and ZooKeeper, through their command lines
//! and HTTP APIs. The keys there are the configuration services read at start and the state
//! a cluster coordinates by; none of these stores keeps deleted keys.

use super::Pack;
use super::args::{Line, Style};
use super::http::{Request, Url, body_hits};
use crate::rules::{Hit, Rule, Tier};
use crate::shell::{SimpleCommand, Word};

pub static KV_DELETE: Rule = Rule {
    id: "kv.delete",
    catches: "deletes of a whole tree of keys: `consul kv delete -recurse`, `consul snapshot \
              restore`, Consul's HTTP `DELETE /v1/kv/<prefix>?recurse` and `delete-tree` in a \
              `/v1/txn`; `etcdctl del --prefix|--from-key` or with a range end, `etcdctl rm \
              --recursive`, etcd's HTTP `/v3/kv/deleterange` with a `range_end` and `DELETE \
              /v2/keys/<dir>?recursive=true`; ZooKeeper's `deleteall`/`rmr` (`zkCli.sh`, \
              `zookeeper-shell`)",
    why: "Consul KV, etcd and ZooKeeper hold the configuration and coordination state \
          services read at start (feature flags, service config, leader locks, Kafka's broker \
          metadata). A recursive delete removes every key under the prefix at once and keeps \
          no history; restoring a Consul snapshot replaces the whole cluster's state.",
    instead: "List first (`consul kv get -recurse <prefix>`, `etcdctl get --prefix --keys-only \
              <prefix>`, `ls -R /path` in zkCli); export first (`consul kv export <prefix> > \
              kv.json`, `etcdctl snapshot save backup.db`, `consul snapshot save backup.snap`); \
              delete single keys by name.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "consul kv delete -recurse app/config",
        "consul kv delete -recurse=true ''",
        "consul snapshot restore backup.snap",
        "curl -X DELETE 'http://localhost:8500/v1/kv/app?recurse'",
        "etcdctl del --prefix /registry/",
        "etcdctl del '' --from-key=true",
        "ETCDCTL_API=2 etcdctl rm --recursive /config",
        "curl -X POST http://localhost:2379/v3/kv/deleterange -d '{\"key\": \"Zm9v\", \"range_end\": \"Zm9w\"}'",
        "zkCli.sh -server localhost:2181 deleteall /brokers",
        "echo 'deleteall /config' | zookeeper-shell localhost:2181",
    ],
    passes: &[
        "consul kv get -recurse app/config",
        "consul kv delete app/config/feature-x",
        "consul kv export app/ > kv.json",
        "consul snapshot save backup.snap",
        "curl http://localhost:8500/v1/kv/app?recurse",
        "etcdctl get --prefix --keys-only /registry/",
        "etcdctl del /config/feature-x",
        "etcdctl snapshot save backup.db",
        "zkCli.sh -server localhost:2181 ls /brokers",
        "curl -X DELETE http://localhost:8500/v1/kv/app/feature-x",
    ],
};

pub static PACK: Pack = Pack {
    id: "kv",
    summary: "configuration stores: Consul KV, etcd and ZooKeeper recursive deletes, through \
              their command lines or HTTP APIs",
    default_on: true,
    programs: super::http::and_http_clients![
        "consul",
        "etcdctl",
        "zkCli.sh",
        "zkCli",
        "zookeeper-shell",
        "zookeeper-shell.sh"
    ],
    rules: &[&KV_DELETE],
    check,
};

fn check(cmd: &SimpleCommand) -> Vec<Hit> {
    if let Some(hits) = body_hits(cmd, http) {
        return hits;
    }
    let args = cmd.args();
    let hit = match cmd.program() {
        Some("consul") => consul(args),
        Some("etcdctl") => etcdctl(args),
        Some(_) => zookeeper(cmd),
        None => None,
    };
    hit.into_iter().collect()
}

fn found(loses: String, safer: &str) -> Hit {
    Hit::new(&KV_DELETE, Tier::Destructive, loses)
        .safer(safer)
        .recovery("only from an export or snapshot taken before (`consul kv import`, `etcdctl snapshot restore`)")
}

const CONSUL_SAFER: &str = "`consul kv export <prefix> > kv.json` first (`consul kv import` \
                            puts it back); `consul kv get -recurse <prefix>` lists what goes";
const ETCD_SAFER: &str = "`etcdctl get --prefix --keys-only <prefix>` lists what goes; \
                          `etcdctl snapshot save backup.db` first";
const ZK_SAFER: &str = "`ls -R <path>` lists what goes; copy what you need with `get` first";

/// The prefix a recursive delete names, for messages: `''` and `/` are every key.
fn tree(prefix: &str) -> String {
    match prefix.trim_matches('/') {
        "" => "every key in the store".to_string(),
        p => format!("every key under `{p}`"),
    }
}

/// Consul's HTTP API (port 8500), etcd's (port 2379) and their look-alikes by host.
fn http(req: &Request, url: &Url) -> Option<Hit> {
    let named = |w: &str| url.host_words().any(|h| h.contains(w));
    let seg = |i: usize| url.segment(i);
    let path_after = |n: usize| url.segments.get(n..).unwrap_or_default().join("/");
    if (url.port == Some(8500) || named("consul")) && seg(0) == Some("v1") {
        return match (req.method.as_str(), seg(1)?) {
            ("DELETE", "kv") if url.param("recurse").is_some_and(|v| v != "false") => Some(found(
                format!("deletes {} (Consul KV)", tree(&path_after(2))),
                CONSUL_SAFER,
            )),
            ("PUT", "txn") if req.body_has("delete-tree") => Some(found(
                "deletes every key under the prefixes of its `delete-tree` operations (Consul KV)"
                    .to_string(),
                CONSUL_SAFER,
            )),
            ("PUT" | "POST", "snapshot") => Some(found(
                "replaces the cluster's whole state (KV, catalog, ACLs, sessions) with a snapshot"
                    .to_string(),
                "`consul snapshot save now.snap` first",
            )),
            _ => None,
        };
    }
    if !(url.port == Some(2379) || named("etcd")) {
        return None;
    }
    match (req.method.as_str(), seg(0)?, seg(1)) {
        ("POST", "v3" | "v3beta" | "v3alpha", Some("kv"))
            if seg(2) == Some("deleterange") && req.body_has("range_end") =>
        {
            Some(found(
                "deletes every key in the range it names (etcd)".to_string(),
                ETCD_SAFER,
            ))
        }
        ("DELETE", "v2", Some("keys")) if url.param("recursive").is_some_and(|v| v == "true") => {
            Some(found(
                format!("deletes {} (etcd)", tree(&path_after(2))),
                ETCD_SAFER,
            ))
        }
        _ => None,
    }
}

/// `consul kv delete -recurse <prefix>`, `consul snapshot restore <file>`.
fn consul(args: &[Word]) -> Option<Hit> {
    let line = Line::parse(
        args,
        Style::Go,
        &[
            "http-addr",
            "token",
            "token-file",
            "datacenter",
            "namespace",
            "partition",
            "modify-index",
            "ca-file",
            "ca-path",
            "client-cert",
            "client-key",
            "tls-server-name",
        ],
    );
    if line.help() {
        return None;
    }
    match line.operands.as_slice() {
        ["kv", "delete", rest @ ..] if line.on(&["recurse"]) => Some(found(
            format!(
                "deletes {} (Consul KV)",
                tree(rest.first().copied().unwrap_or(""))
            ),
            CONSUL_SAFER,
        )),
        ["snapshot", "restore", file, ..] => Some(found(
            format!(
                "replaces the cluster's whole state (KV, catalog, ACLs, sessions) with snapshot `{file}`"
            ),
            "`consul snapshot save now.snap` first",
        )),
        _ => None,
    }
}

/// `etcdctl del <key> [<range_end>] [--prefix|--from-key]`, and the v2 `rm --recursive`.
fn etcdctl(args: &[Word]) -> Option<Hit> {
    let line = Line::parse(
        args,
        Style::Gnu,
        &[
            "endpoints",
            "user",
            "password",
            "cacert",
            "cert",
            "key",
            "dial-timeout",
            "command-timeout",
            "keepalive-time",
            "keepalive-timeout",
            "w",
            "write-out",
            "discovery-srv",
            "discovery-srv-name",
            "C",
            "ca-file",
            "cert-file",
            "key-file",
            "peers",
        ],
    );
    if line.help() {
        return None;
    }
    let loses = match line.operands.as_slice() {
        ["del", key, ..] if line.on(&["prefix"]) => tree(key),
        ["del", key, ..] if line.on(&["from-key"]) => {
            format!("every key from `{key}` on, in byte order")
        }
        ["del", key, end, ..] => format!("every key from `{key}` up to `{end}`"),
        ["rm" | "rmdir", key, ..] if line.on(&["recursive", "r"]) => tree(key),
        _ => return None,
    };
    Some(found(format!("deletes {loses} (etcd)"), ETCD_SAFER))
}

/// ZooKeeper's shells: the command given after the options, or on stdin.
fn zookeeper(cmd: &SimpleCommand) -> Option<Hit> {
    let args = cmd.args();
    let words: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
    let given = words.windows(2).find_map(|pair| match pair {
        [verb @ ("deleteall" | "rmr"), path] => Some((*verb, path.to_string())),
        _ => None,
    });
    let typed = || {
        cmd.input.as_deref()?.lines().find_map(|line| {
            let mut parts = line.split_whitespace();
            match (parts.next()?, parts.next()) {
                (verb @ ("deleteall" | "rmr"), Some(path)) => Some((verb, path.to_string())),
                _ => None,
            }
        })
    };
    let (verb, path) = given.or_else(typed)?;
    Some(found(
        format!("`{verb}` deletes znode `{path}` and every znode under it (ZooKeeper)"),
        ZK_SAFER,
    ))
}
