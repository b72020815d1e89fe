//! Message brokers: Kafka, RabbitMQ and NATS. A deleted topic, queue or stream takes the
//! messages nobody has consumed yet with it, and those exist nowhere else.

use super::Pack;
use super::args::{asks_help, has, operands, value};
use super::http::{Url, request_hits};
use crate::rules::git::list;
use crate::rules::{Hit, Rule, Tier};
use crate::shell::{SimpleCommand, Word};

pub static KAFKA_DELETE: Rule = Rule {
    id: "messaging.kafka-delete",
    catches: "`kafka-topics --delete`, an HTTP `DELETE` of a topic through the Kafka REST \
              API (`/v3/clusters/<id>/topics/<name>`), `kafka-delete-records`, `kafka-consumer-groups --delete`/\
              `--delete-offsets`/`--reset-offsets --execute`, `kafka-acls --remove` and \
              `kafka-configs --alter --delete-config` (also the `.sh` spellings)",
    why: "Deleting a topic deletes every message in it on every broker; deleting records or a \
          consumer group's offsets makes consumers lose their place or the data outright. \
          Removing a topic config such as `retention.ms` or `cleanup.policy` can start the \
          broker deleting messages on its own.",
    instead: "`kafka-topics --describe --topic <t>` and `kafka-consumer-groups --describe \
              --group <g>` to see what is there; `--reset-offsets` without `--execute` is a \
              dry run.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "kafka-topics --bootstrap-server localhost:9092 --delete --topic payments",
        "kafka-topics.sh --bootstrap-server localhost:9092 --topic orders --delete",
        "curl -X DELETE http://localhost:8082/v3/clusters/lkc-123/topics/orders",
        "kafka-delete-records --bootstrap-server localhost:9092 --offset-json-file offsets.json",
        "kafka-consumer-groups --bootstrap-server localhost:9092 --delete --group billing",
        "kafka-consumer-groups --bootstrap-server b:9092 --group g --reset-offsets --to-latest --all-topics --execute",
        "kafka-acls --bootstrap-server localhost:9092 --remove --topic payments --operation All",
        "kafka-configs --bootstrap-server localhost:9092 --alter --delete-config retention.ms --entity-type topics --entity-name logs",
    ],
    passes: &[
        "kafka-topics --bootstrap-server localhost:9092 --list",
        "kafka-topics --bootstrap-server localhost:9092 --create --topic new-topic --partitions 3",
        "kafka-consumer-groups --bootstrap-server localhost:9092 --describe --group billing",
        "kafka-consumer-groups --bootstrap-server b:9092 --group g --reset-offsets --to-latest --all-topics --dry-run",
        "kafka-acls --bootstrap-server localhost:9092 --list",
        "kafka-configs --bootstrap-server localhost:9092 --describe --entity-type topics --entity-name logs",
        "kafka-console-consumer --bootstrap-server localhost:9092 --topic orders --from-beginning",
        "curl http://localhost:8082/v3/clusters/lkc-123/topics",
    ],
};

pub static RABBITMQ_DELETE: Rule = Rule {
    id: "messaging.rabbitmq-delete",
    catches: "`rabbitmqctl delete_user|delete_vhost|delete_queue|purge_queue|clear_permissions|\
              reset|force_reset|...`, `rabbitmqadmin delete|purge <kind>`, and an HTTP `DELETE` \
              to the management API (`/api/queues|exchanges|vhosts|users|...` on port 15672 or a \
              host named for RabbitMQ)",
    why: "Deleting a vhost deletes every queue, exchange and message in it; deleting or purging \
          a queue drops the messages waiting in it; `reset` wipes the node's whole state. \
          Deleting users or clearing permissions locks services out.",
    instead: "`rabbitmqctl list_queues name messages` / `rabbitmqadmin list queues` to see \
              what is there; `rabbitmqctl export_definitions defs.json` keeps users, vhosts, \
              queues and permissions to import again.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "rabbitmqctl delete_vhost /prod",
        "rabbitmqctl delete_user deployer",
        "rabbitmqctl clear_permissions -p /staging ci-bot",
        "rabbitmqctl purge_queue jobs",
        "rabbitmqctl force_reset",
        "rabbitmqadmin delete queue name=jobs",
        "rabbitmqadmin delete exchange name=events",
        "rabbitmqadmin purge queue name=jobs",
        "curl -u guest:guest -X DELETE http://localhost:15672/api/queues/%2F/jobs",
        "curl -i -u guest:guest -X DELETE http://localhost:15672/api/queues/%2F/jobs/contents",
    ],
    passes: &[
        "rabbitmqctl list_queues name messages",
        "rabbitmqctl list_users",
        "rabbitmqctl status",
        "rabbitmqctl export_definitions /tmp/defs.json",
        "rabbitmqadmin list queues",
        "rabbitmqadmin declare queue name=jobs durable=true",
        "rabbitmq-diagnostics ping",
        "curl -u guest:guest http://localhost:15672/api/queues",
        "curl -u guest:guest -X PUT http://localhost:15672/api/vhosts/staging",
    ],
};

pub static NATS_DELETE: Rule = Rule {
    id: "messaging.nats-delete",
    catches: "`nats stream rm|delete|purge|rmm`, `nats consumer rm|delete`, `nats kv \
              del|rm|purge`, `nats object rm|del` and `nats bucket delete`",
    why: "A JetStream stream holds messages not yet consumed, and a key-value or object bucket \
          holds state services read at start: deleting or purging them loses that data for \
          every consumer at once.",
    instead: "`nats stream info <s>`, `nats kv ls <b>`, `nats kv history <b> <key>` to see \
              what is there; `nats stream backup <s> <dir>` first keeps a copy.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "nats stream delete ORDERS",
        "nats stream rm ORDERS -f",
        "nats stream purge PAYMENTS",
        "nats consumer delete ORDERS CONSUMER1",
        "nats kv del CONFIG api-key --purge",
        "nats kv purge CONFIG",
        "nats --context prod str rm ORDERS",
    ],
    passes: &[
        "nats stream list",
        "nats stream info ORDERS",
        "nats stream backup ORDERS /tmp/backup",
        "nats kv get CONFIG api-key",
        "nats kv put CONFIG api-key value",
        "nats pub orders.new '{}'",
        "nats context ls",
    ],
};

pub static PACK: Pack = Pack {
    id: "messaging",
    summary: "message brokers: Kafka topics, records, groups; RabbitMQ vhosts, queues, users; \
              NATS streams and buckets",
    default_on: true,
    programs: super::http::and_http_clients![
        "kafka-topics",
        "kafka-topics.sh",
        "kafka-delete-records",
        "kafka-delete-records.sh",
        "kafka-consumer-groups",
        "kafka-consumer-groups.sh",
        "kafka-acls",
        "kafka-acls.sh",
        "kafka-configs",
        "kafka-configs.sh",
        "rabbitmqctl",
        "rabbitmqadmin",
        "nats"
    ],
    rules: &[&KAFKA_DELETE, &RABBITMQ_DELETE, &NATS_DELETE],
    check,
};

fn check(cmd: &SimpleCommand) -> Vec<Hit> {
    if let Some(hits) = request_hits(cmd, |method, url| {
        (method == "DELETE")
            .then(|| rabbitmq_api(url).or_else(|| kafka_rest(url)))
            .flatten()
    }) {
        return hits;
    }
    let args = cmd.args();
    if asks_help(args) {
        return Vec::new();
    }
    let hit = match cmd.program() {
        Some("rabbitmqctl") => rabbitmqctl(args),
        Some("rabbitmqadmin") => rabbitmqadmin(args),
        Some("nats") => nats(args),
        Some(name) => kafka(name.strip_suffix(".sh").unwrap_or(name), args),
        None => None,
    };
    hit.into_iter().collect()
}

/// A `DELETE` through the Kafka REST API (v3): a topic, a topic's config, or ACLs.
fn kafka_rest(url: &Url) -> Option<Hit> {
    let seg = |i: usize| url.segment(i);
    if seg(0) != Some("v3") || seg(1) != Some("clusters") {
        return None;
    }
    let (loses, recovery) = match (seg(3)?, seg(4), seg(5), seg(6)) {
        ("topics", Some(topic), None, _) => (
            format!("deletes topic `{topic}` and every message in it on every broker"),
            "none: the topic's messages are deleted from the brokers' logs",
        ),
        ("topics", Some(topic), Some("configs"), Some(key)) => (
            format!(
                "resets config `{key}` of topic `{topic}` to the broker default, which for \
                 retention or cleanup settings can delete messages"
            ),
            "set it again; messages already deleted are gone",
        ),
        ("acls", ..) => (
            "deletes the ACLs the query matches: clients relying on them lose access".to_string(),
            "create them again from a saved `GET` of the same URL",
        ),
        _ => return None,
    };
    Some(
        Hit::new(&KAFKA_DELETE, Tier::Destructive, loses)
            .safer("`GET` the same URL first to see what it is")
            .recovery(recovery),
    )
}

/// A `DELETE` through RabbitMQ's management HTTP API.
fn rabbitmq_api(url: &Url) -> Option<Hit> {
    let rabbit = url.port == Some(15672) || url.host_words().any(|w| w.contains("rabbit"));
    if !rabbit || url.segment(0) != Some("api") {
        return None;
    }
    let part = |i: usize| {
        url.segment(i).map_or("(the one given)".to_string(), |s| {
            format!("`{}`", s.replace("%2F", "/").replace("%2f", "/"))
        })
    };
    let loses = match (url.segment(1)?, url.segment(4)) {
        ("queues", Some("contents")) => format!(
            "deletes every message waiting in queue {} of vhost {}",
            part(3),
            part(2)
        ),
        ("queues", _) => format!(
            "deletes queue {} of vhost {} with every message waiting in it",
            part(3),
            part(2)
        ),
        ("exchanges", _) => format!("deletes exchange {} of vhost {}", part(3), part(2)),
        ("vhosts", _) => format!(
            "deletes vhost {} with every queue, exchange and message in it",
            part(2)
        ),
        ("users", _) => format!(
            "deletes user {}: services logging in as it are locked out",
            part(2)
        ),
        ("permissions", _) => format!("clears the permissions of {} in vhost {}", part(3), part(2)),
        ("policies" | "operator-policies", _) => {
            format!("removes policy {} in vhost {}", part(3), part(2))
        }
        ("bindings", _) => format!("deletes a binding in vhost {}", part(2)),
        _ => return None,
    };
    Some(
        Hit::new(&RABBITMQ_DELETE, Tier::Destructive, loses)
            .safer(
                "`GET /api/definitions` first keeps users, vhosts, queues and permissions; `GET` \
                 the same URL shows what it is",
            )
            .recovery(
                "`POST /api/definitions` with the saved definitions restores them; deleted \
                 messages are gone",
            ),
    )
}

fn kafka(tool: &str, args: &[Word]) -> Option<Hit> {
    if has(args, &["--version"]) {
        return None;
    }
    let topic = value(args, &["--topic"])
        .map_or("the topics given".to_string(), |t| format!("topic `{t}`"));
    let group = value(args, &["--group"]).map_or("the groups given".to_string(), |g| {
        format!("consumer group `{g}`")
    });
    let (loses, safer, recovery) = match tool {
        "kafka-topics" if has(args, &["--delete"]) => (
            format!("deletes {topic} and every message in it on every broker"),
            format!("`{tool} --describe --topic <topic>` to check what it holds first"),
            "none: the topic's messages are deleted from the brokers' logs",
        ),
        "kafka-delete-records" => (
            format!(
                "deletes every record before the offsets listed in `{}`",
                value(args, &["--offset-json-file"]).unwrap_or("the offset file")
            ),
            "`kafka-get-offsets` / `kafka-run-class kafka.tools.GetOffsetShell` to check \
             the offsets first"
                .to_string(),
            "none: the records are deleted from the log",
        ),
        "kafka-consumer-groups" if has(args, &["--delete"]) => (
            format!("deletes {group} with its committed offsets"),
            format!("`{tool} --describe --group <group>` to record its offsets first"),
            "recreate the offsets with `--reset-offsets --to-offset` from a saved `--describe`",
        ),
        "kafka-consumer-groups" if has(args, &["--delete-offsets"]) => (
            format!("deletes the committed offsets of {group} for {topic}"),
            format!("`{tool} --describe --group <group>` to record its offsets first"),
            "recreate the offsets with `--reset-offsets --to-offset` from a saved `--describe`",
        ),
        "kafka-consumer-groups" if has(args, &["--reset-offsets"]) && has(args, &["--execute"]) => {
            (
                format!(
                    "moves the committed offsets of {group}: its consumers skip or re-read messages"
                ),
                "the same command without `--execute` (or with `--dry-run`) shows the new offsets"
                    .to_string(),
                "reset again with `--to-offset` from a saved `--describe`",
            )
        }
        "kafka-acls" if has(args, &["--remove"]) => (
            format!("removes ACLs on {topic}: clients relying on them lose access"),
            format!("`{tool} --list` to record the ACLs first"),
            "add them back with `kafka-acls --add` from the saved list",
        ),
        "kafka-configs" if has(args, &["--alter"]) && has(args, &["--delete-config"]) => (
            format!(
                "removes config `{}` from {} `{}`: it falls back to the broker default, which \
                 for retention or cleanup settings can delete messages",
                value(args, &["--delete-config"]).unwrap_or("the given keys"),
                value(args, &["--entity-type"]).unwrap_or("the entity"),
                value(args, &["--entity-name"]).unwrap_or("given")
            ),
            format!("`{tool} --describe` the entity first to record the current value"),
            "set it again with `--alter --add-config`; messages already deleted are gone",
        ),
        _ => return None,
    };
    Some(
        Hit::new(&KAFKA_DELETE, Tier::Destructive, loses)
            .safer(safer)
            .recovery(recovery),
    )
}

/// rabbitmqctl options that take the next word as their value.
const RABBITMQCTL_VALUED: &[&str] = &["-p", "--vhost", "-n", "--node", "-t", "--timeout"];

fn rabbitmqctl(args: &[Word]) -> Option<Hit> {
    let ops = operands(args, RABBITMQCTL_VALUED);
    let (sub, rest) = ops.split_first()?;
    let sub = sub.replace('-', "_");
    let name = rest
        .first()
        .map_or("(the one given)".to_string(), |n| format!("`{n}`"));
    let vhost = value(args, &["-p", "--vhost"]).unwrap_or("/");
    let loses = match sub.as_str() {
        "delete_vhost" => {
            format!("deletes vhost {name} with every queue, exchange and message in it")
        }
        "delete_user" => format!("deletes user {name}: services logging in as it are locked out"),
        "clear_permissions" => format!("clears the permissions of {name} in vhost `{vhost}`"),
        "clear_topic_permissions" => {
            format!("clears the topic permissions of {name} in vhost `{vhost}`")
        }
        "delete_queue" => format!("deletes queue {name} with every message waiting in it"),
        "purge_queue" => format!("deletes every message waiting in queue {name}"),
        "reset" | "force_reset" => {
            "wipes this node's state: its users, vhosts, queues and messages".to_string()
        }
        "forget_cluster_node" => format!("removes node {name} from the cluster"),
        "clear_policy" | "clear_operator_policy" => {
            format!("removes policy {name} (queue limits, mirroring, TTLs) in vhost `{vhost}`")
        }
        "delete_shovel" => format!("deletes shovel {name}: messages stop moving"),
        _ => return None,
    };
    Some(
        Hit::new(&RABBITMQ_DELETE, Tier::Destructive, loses)
            .safer(
                "`rabbitmqctl export_definitions defs.json` first keeps users, vhosts, queues \
                 and permissions; `rabbitmqctl list_queues name messages` shows what waits",
            )
            .recovery(
                "`rabbitmqctl import_definitions defs.json` restores definitions from an \
                 export; deleted messages are gone",
            ),
    )
}

/// rabbitmqadmin options that take the next word as their value.
const RABBITMQADMIN_VALUED: &[&str] = &[
    "-H",
    "--host",
    "-P",
    "--port",
    "-V",
    "--vhost",
    "-u",
    "--username",
    "-p",
    "--password",
    "-U",
    "--base-uri",
    "-c",
    "--config",
    "-N",
    "--node",
    "-f",
    "--format",
    "--name",
];

fn rabbitmqadmin(args: &[Word]) -> Option<Hit> {
    let ops = operands(args, RABBITMQADMIN_VALUED);
    let [verb @ ("delete" | "purge"), kind, items @ ..] = ops.as_slice() else {
        return None;
    };
    let kind = kind.strip_suffix('s').unwrap_or(kind);
    let name = items
        .iter()
        .find_map(|i| i.strip_prefix("name="))
        .or_else(|| value(args, &["--name"]))
        .map_or("(the one given)".to_string(), |n| format!("`{n}`"));
    let loses = match (*verb, kind) {
        ("purge", "queue") => format!("deletes every message waiting in queue {name}"),
        ("purge", _) => return None,
        ("delete", "queue") => format!("deletes queue {name} with every message waiting in it"),
        ("delete", "vhost") => {
            format!("deletes vhost {name} with every queue, exchange and message in it")
        }
        ("delete", "exchange") => {
            format!("deletes exchange {name} and its bindings: messages published to it are lost")
        }
        ("delete", "user") => {
            format!("deletes user {name}: services logging in as it are locked out")
        }
        ("delete", other) => format!("deletes {other} {name}"),
        _ => return None,
    };
    Some(
        Hit::new(&RABBITMQ_DELETE, Tier::Destructive, loses)
            .safer(
                "`rabbitmqadmin export defs.json` first keeps the definitions; `rabbitmqadmin \
                 list queues` shows what waits",
            )
            .recovery(
                "`rabbitmqadmin import defs.json` restores definitions from an export; deleted \
                 messages are gone",
            ),
    )
}

/// natscli options that take the next word as their value.
const NATS_VALUED: &[&str] = &[
    "-s",
    "--server",
    "--context",
    "--creds",
    "--user",
    "--password",
    "--nkey",
    "--jwt",
    "--seed",
    "--tlscert",
    "--tlskey",
    "--tlsca",
    "--timeout",
    "--js-domain",
    "--js-api-prefix",
    "--js-event-prefix",
    "--connection-name",
    "--inbox-prefix",
    "--socks-proxy",
    "--colors",
    "--subject",
    "--seq",
    "--keep",
];

fn nats(args: &[Word]) -> Option<Hit> {
    let ops = operands(args, NATS_VALUED);
    let [noun, verb, rest @ ..] = ops.as_slice() else {
        return None;
    };
    let removes = matches!(*verb, "rm" | "del" | "delete" | "remove");
    let first = rest
        .first()
        .map_or("(the one given)".to_string(), |n| format!("`{n}`"));
    let (loses, recovery) = match (*noun, *verb) {
        ("stream" | "str", _) if removes => (
            format!("deletes stream {first} with every message in it"),
            "restore a copy made with `nats stream backup` (`nats stream restore`); otherwise none",
        ),
        ("stream" | "str", "purge") => {
            let subject = value(args, &["--subject"])
                .map(|s| format!(" on subject `{s}`"))
                .unwrap_or_default();
            (
                format!("deletes every message{subject} in stream {first}"),
                "restore a copy made with `nats stream backup`; otherwise none",
            )
        }
        ("stream" | "str", "rmm") => (
            format!("deletes a message from stream {first}"),
            "none: the message is erased",
        ),
        ("consumer" | "con" | "c", _) if removes => (
            format!(
                "deletes consumer {} of stream {first} and its delivery position",
                rest.get(1)
                    .map_or("(the one given)".to_string(), |c| format!("`{c}`"))
            ),
            "create it again with `nats consumer add`; unacknowledged state is lost",
        ),
        ("kv", _) if removes || *verb == "purge" => match rest.get(1) {
            Some(key) => (
                format!(
                    "deletes key `{key}` in bucket {first}{}",
                    if *verb == "purge" || has(args, &["--purge"]) {
                        " with its history"
                    } else {
                        ""
                    }
                ),
                "without `--purge`, earlier revisions stay: `nats kv history` and put the value \
                 back; purged history is gone",
            ),
            None => (
                format!("deletes key-value bucket {first} with every key in it"),
                "none: the bucket's keys are gone",
            ),
        },
        ("object" | "obj" | "bucket", _) if removes || *verb == "purge" => (
            format!("deletes {noun} store {first}{}", {
                let files: Vec<&str> = rest.iter().skip(1).copied().collect();
                if files.is_empty() {
                    " with everything in it".to_string()
                } else {
                    format!(" entry {}", list(files.into_iter()))
                }
            }),
            "none: the stored data is gone",
        ),
        _ => return None,
    };
    Some(
        Hit::new(&NATS_DELETE, Tier::Destructive, loses)
            .safer(
                "`nats stream info` / `nats kv ls` to see what is there; `nats stream backup \
                 <stream> <dir>` keeps a copy first",
            )
            .recovery(recovery),
    )
}
