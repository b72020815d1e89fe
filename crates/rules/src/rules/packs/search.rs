//! Search engines through their HTTP APIs: Elasticsearch and OpenSearch, Meilisearch,
//! Algolia, Solr and Typesense, driven by `curl`, `wget`, HTTPie, `xh` or a request in
//! interpreter code. Only a request that deletes (a `DELETE`, a `POST` to a delete-by-query or
//! clear endpoint, a bulk or update body with delete actions, Solr's admin actions) against one
//! of these services' URL shapes is a finding; every other request these everyday clients
//! send passes.

use super::Pack;
use super::args::{asks_help, dry_run, operands, value};
use super::http::{Request, Url, body_hits};
use crate::rules::{Hit, Rule, Tier};
use crate::shell::{SimpleCommand, Word};

pub static ELASTICSEARCH_DELETE: Rule = Rule {
    id: "search.elasticsearch-delete",
    catches: "an HTTP `DELETE` of an Elasticsearch or OpenSearch index, data stream, snapshot, \
              document or template (`_all` and wildcards too), and `POST .../_delete_by_query`, \
              sent with `curl`, `wget`, HTTPie or `xh` to port 9200, a host named for the \
              engine or its managed service, or a path only these engines use (`_data_stream`, \
              `_snapshot`, `<index>/_doc/<id>`, ...); a `_bulk` request whose body has \
              `delete` actions and an `_aliases` request with `remove_index`; and `curator_cli \
              delete_indices|delete_snapshots` without `--dry-run`",
    why: "Deleting an index deletes every document in it, with no trash; `_all` or a wildcard \
          takes every matching index, `.kibana*` the dashboards, and a deleted snapshot is a \
          deleted backup. A search index is often the only place logs and events were kept.",
    instead: "`GET _cat/indices/<pattern>?v` lists what a pattern matches and `GET \
              <index>/_count` what it holds; take a snapshot first (`PUT \
              _snapshot/<repo>/<name>?wait_for_completion=true`); close an index (`POST \
              <index>/_close`) instead of deleting it.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "curl -X DELETE 'http://localhost:9200/logs-2024'",
        "curl -XDELETE 'http://localhost:9200/_all'",
        "curl -X DELETE 'https://opensearch.local:9200/.kibana*'",
        "curl -X DELETE 'http://localhost:9200/_snapshot/backup_repo/snap_01'",
        "curl -X POST 'http://localhost:9200/logs/_delete_by_query' -H 'Content-Type: application/json' -d '{\"query\":{\"match_all\":{}}}'",
        "http DELETE :9200/logs-2024",
        "curl -s -X DELETE \"$ELASTICSEARCH_URL/orders\"",
        "curl -X POST 'http://localhost:9200/_bulk' -H 'Content-Type: application/x-ndjson' -d '{\"delete\":{\"_index\":\"orders\",\"_id\":\"1\"}}'",
        "curator_cli --host es01 delete_indices --filter_list '{\"filtertype\":\"pattern\",\"kind\":\"prefix\",\"value\":\"logs-\"}'",
    ],
    passes: &[
        "curl -X GET 'http://localhost:9200/_cat/indices?v'",
        "curl 'http://localhost:9200/logs-2024/_search?q=error'",
        "curl -X PUT 'http://localhost:9200/logs-2025'",
        "curl -X DELETE 'http://localhost:9200/_search/scroll/abc'",
        "curl -X DELETE 'http://localhost:9200/logs/_alias/current'",
        "curl -X POST 'http://localhost:9200/logs/_close'",
        "curl -X POST 'http://localhost:9200/_bulk' -H 'Content-Type: application/x-ndjson' -d '{\"index\":{\"_index\":\"orders\",\"_id\":\"1\"}}'",
        "curl -X DELETE https://api.example.com/users/42",
        "curator_cli --dry-run delete_indices --filter_list '{\"filtertype\":\"none\"}'",
        "curator_cli show_indices",
    ],
};

pub static MEILISEARCH_DELETE: Rule = Rule {
    id: "search.meilisearch-delete",
    catches: "an HTTP `DELETE` of a Meilisearch index, its documents, settings or an API key, \
              and `POST /indexes/<uid>/documents/delete[-batch]`, sent to port 7700 or a host \
              named for Meilisearch",
    why: "Deleting an index deletes every document in it; deleting documents or resetting \
          settings cannot be undone; the only way back is a dump or snapshot taken before.",
    instead: "`GET /indexes/<uid>/stats` to see what it holds; `POST /dumps` (or `POST \
              /snapshots`) first keeps a copy.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "curl -X DELETE 'http://localhost:7700/indexes/movies'",
        "curl -X DELETE 'http://localhost:7700/indexes/movies/documents'",
        "curl -X POST 'http://localhost:7700/indexes/movies/documents/delete-batch' --data-binary '[1,2]'",
        "curl -X DELETE 'https://meilisearch.example.com/indexes/products/settings'",
        "xh DELETE :7700/indexes/movies",
    ],
    passes: &[
        "curl -X GET 'http://localhost:7700/indexes'",
        "curl 'http://localhost:7700/indexes/movies/stats'",
        "curl -X POST 'http://localhost:7700/dumps'",
        "curl -X POST 'http://localhost:7700/indexes/movies/documents' --data-binary @movies.json",
        "curl -X DELETE 'http://localhost:7700/tasks?statuses=succeeded'",
    ],
};

pub static ALGOLIA_DELETE: Rule = Rule {
    id: "search.algolia-delete",
    catches: "an HTTP `DELETE` against the Algolia API (`*.algolia.net`, `*.algolianet.com`): \
              an index, a record, a rule, a synonym or an API key; and `POST \
              .../clear|deleteByQuery`",
    why: "Deleting an Algolia index deletes every record, rule and synonym in it and the live \
          search that uses it stops returning results; Algolia keeps no trash.",
    instead: "`GET /1/indexes` to list indices and their sizes; copy the index first (`POST \
              /1/indexes/<name>/operation` with `{\"operation\":\"copy\",\"destination\":\"<name>-backup\"}`).",
    protected_when: None,
    strict_only: false,
    stops: &[
        "curl -X DELETE 'https://APPID-dsn.algolia.net/1/indexes/products'",
        "curl -X DELETE 'https://APPID-dsn.algolia.net/1/indexes/products/obj-42'",
        "curl -X POST 'https://APPID.algolia.net/1/indexes/products/clear'",
        "curl -X POST https://APPID-dsn.algolia.net/1/indexes/products/deleteByQuery -d '{}'",
        "curl -X DELETE 'https://APPID.algolianet.com/1/keys/abcdef'",
    ],
    passes: &[
        "curl -X GET 'https://APPID-dsn.algolia.net/1/indexes'",
        "curl 'https://APPID-dsn.algolia.net/1/indexes/products'",
        "curl -X POST 'https://APPID-dsn.algolia.net/1/indexes/products/query' -d '{}'",
        "curl -X POST 'https://APPID.algolia.net/1/indexes/products/batch' -d @records.json",
        "curl -X GET 'https://APPID-dsn.algolia.net/1/keys'",
    ],
};

pub static SOLR_DELETE: Rule = Rule {
    id: "search.solr-delete",
    catches: "Solr's Collections API `action=DELETE` (also `DELETESHARD`, `DELETEBACKUP`), the \
              Cores API `action=UNLOAD` with `deleteIndex`/`deleteDataDir`/`deleteInstanceDir`, \
              the v2 API's `DELETE /api/collections/<c>`, and an `/update` request whose body \
              deletes (`<delete>`, `{\"delete\": ...}`), sent to port 8983, a host named for \
              Solr or a `/solr/` path",
    why: "Deleting a collection deletes every shard and replica of its index; a delete by \
          query of `*:*` empties it; unloading a core with `deleteIndex` removes its files. \
          Solr keeps no trash, and re-indexing needs the source data and hours.",
    instead: "`/solr/admin/collections?action=LIST` and `/solr/<c>/select?q=*:*&rows=0` show \
              what is there and how much; `action=BACKUP` first keeps a copy; unload a core \
              without the delete flags to keep its files.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "curl 'http://localhost:8983/solr/admin/collections?action=DELETE&name=products'",
        "curl 'http://localhost:8983/solr/admin/cores?action=UNLOAD&core=products&deleteIndex=true'",
        "curl -X POST 'http://localhost:8983/solr/products/update?commit=true' -H 'Content-Type: text/xml' --data-binary '<delete><query>*:*</query></delete>'",
        "curl -X POST -H 'Content-Type: application/json' 'http://localhost:8983/solr/products/update?commit=true' -d '{\"delete\": {\"query\": \"*:*\"}}'",
        "curl -X DELETE http://localhost:8983/api/collections/products",
    ],
    passes: &[
        "curl 'http://localhost:8983/solr/admin/collections?action=LIST'",
        "curl 'http://localhost:8983/solr/products/select?q=*:*&rows=0'",
        "curl 'http://localhost:8983/solr/admin/collections?action=BACKUP&name=nightly&collection=products&location=/backups'",
        "curl 'http://localhost:8983/solr/admin/cores?action=UNLOAD&core=products'",
        "curl -X POST 'http://localhost:8983/solr/products/update?commit=true' -H 'Content-Type: application/json' -d '[{\"id\":\"1\",\"title\":\"delete me later\"}]'",
    ],
};

pub static TYPESENSE_DELETE: Rule = Rule {
    id: "search.typesense-delete",
    catches: "an HTTP `DELETE` of a Typesense collection, its documents (by id or by \
              `filter_by`) or an API key, sent to port 8108, a host named for Typesense or \
              Typesense Cloud (`*.typesense.net`)",
    why: "Deleting a collection deletes its schema and every document in it; a delete by \
          filter removes every document it matches. Typesense keeps no trash: only a \
          snapshot or the source data brings them back.",
    instead: "`GET /collections/<c>` shows how many documents it holds; `POST \
              /operations/snapshot?snapshot_path=<dir>` first keeps a copy; `GET \
              /collections/<c>/documents/export` saves the documents.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "curl -X DELETE -H \"X-TYPESENSE-API-KEY: ${TYPESENSE_API_KEY}\" http://localhost:8108/collections/companies",
        "curl -X DELETE -H \"X-TYPESENSE-API-KEY: ${TYPESENSE_API_KEY}\" 'http://localhost:8108/collections/companies/documents?filter_by=num_employees:>=100'",
        "curl -X DELETE 'https://xyz.a1.typesense.net/keys/42' -H \"X-TYPESENSE-API-KEY: $KEY\"",
    ],
    passes: &[
        "curl -H \"X-TYPESENSE-API-KEY: ${TYPESENSE_API_KEY}\" http://localhost:8108/collections",
        "curl -H \"X-TYPESENSE-API-KEY: ${TYPESENSE_API_KEY}\" 'http://localhost:8108/collections/companies/documents/export'",
        "curl -X DELETE -H \"X-TYPESENSE-API-KEY: ${TYPESENSE_API_KEY}\" http://localhost:8108/aliases/companies",
    ],
};

pub static PACK: Pack = Pack {
    id: "search",
    summary: "search engines: Elasticsearch/OpenSearch, Meilisearch, Algolia, Solr and \
              Typesense deletes through curl, wget, HTTPie, xh or requests in code",
    default_on: true,
    programs: super::http::and_http_clients!["curator_cli"],
    rules: &[
        &ELASTICSEARCH_DELETE,
        &MEILISEARCH_DELETE,
        &ALGOLIA_DELETE,
        &SOLR_DELETE,
        &TYPESENSE_DELETE,
    ],
    check,
};

fn check(cmd: &SimpleCommand) -> Vec<Hit> {
    if cmd.program() == Some("curator_cli") {
        return curator(cmd.args()).into_iter().collect();
    }
    body_hits(cmd, |req, url| {
        let method = req.method.as_str();
        match method {
            _ if solr_host(url) => solr(req, url),
            "DELETE" | "POST" if algolia_host(url) => algolia(method, url),
            "DELETE" | "POST" if meili_host(url) => meilisearch(method, url),
            "DELETE" if typesense_host(url) => typesense(url),
            "POST" if elastic_engine(url).is_some() && bulk_deletes(req, url) => {
                elasticsearch_bulk(url)
            }
            "DELETE" | "POST" => elasticsearch(method, url),
            _ => None,
        }
    })
    .unwrap_or_default()
}

fn solr_host(url: &Url) -> bool {
    url.port == Some(8983)
        || url.host_words().any(|w| w == "solr")
        || url.segment(0) == Some("solr")
}

fn typesense_host(url: &Url) -> bool {
    url.port == Some(8108)
        || url.host.ends_with(".typesense.net")
        || url.host_words().any(|w| w == "typesense")
}

/// Solr: the Collections and Cores admin actions (sent by any method, usually `GET`), the v2
/// API's collection delete, and an update whose body deletes.
fn solr(req: &Request, url: &Url) -> Option<Hit> {
    let segments: Vec<&str> = url.segments.iter().map(String::as_str).collect();
    let action = url.param("action").map(str::to_ascii_uppercase);
    let on = |flag: &str| url.param(flag).is_some_and(|v| v == "true");
    // `/solr/<core>/update[/json|/xml]`: the core is the segment before `update`.
    let core = segments
        .iter()
        .position(|s| *s == "update")
        .and_then(|i| i.checked_sub(1))
        .and_then(|i| segments.get(i).copied());
    let loses = match (segments.as_slice(), action.as_deref()) {
        ([.., "admin", "collections"], Some("DELETE")) => format!(
            "deletes collection `{}` with every shard, replica and document in it",
            url.param("name").unwrap_or("(the one given)")
        ),
        ([.., "admin", "collections"], Some("DELETESHARD")) => format!(
            "deletes shard `{}` of collection `{}` with its documents",
            url.param("shard").unwrap_or("(the one given)"),
            url.param("collection").unwrap_or("(the one given)")
        ),
        ([.., "admin", "collections"], Some("DELETEBACKUP")) => format!(
            "deletes backup `{}`",
            url.param("name").unwrap_or("(the one given)")
        ),
        ([.., "admin", "cores"], Some("UNLOAD"))
            if on("deleteIndex") || on("deleteDataDir") || on("deleteInstanceDir") =>
        {
            format!(
                "unloads core `{}` and deletes its index files",
                url.param("core").unwrap_or("(the one given)")
            )
        }
        (["api" | "v2", "collections" | "c", name], _) if req.method == "DELETE" => {
            format!("deletes collection `{name}` with every shard, replica and document in it")
        }
        (_, _) if core.is_some() && update_deletes(req, url) => {
            let core = core.unwrap_or_default();
            if req.body_has("*:*") || url.param("stream.body").is_some_and(|b| b.contains("*:*")) {
                format!("deletes every document in `{core}` (a delete by query of `*:*`)")
            } else {
                format!("deletes the documents of `{core}` that its delete names")
            }
        }
        _ => return None,
    };
    Some(
        Hit::new(&SOLR_DELETE, Tier::Destructive, format!("{loses} (Solr)"))
            .safer(
                "`/solr/admin/collections?action=LIST` and `select?q=*:*&rows=0` to see what it                  holds; `action=BACKUP` first keeps a copy",
            )
            .recovery("restore from a backup (`action=RESTORE`); without one, re-index from the source"),
    )
}

/// Whether an update request deletes: a `<delete>` element or a `"delete"` command in its
/// body, or in `stream.body`.
fn update_deletes(req: &Request, url: &Url) -> bool {
    let in_text = |text: &str| {
        let compact = super::http::compact(text);
        compact.contains("<delete>") || compact.contains("\"delete\":")
    };
    req.body.iter().any(|b| in_text(b)) || url.param("stream.body").is_some_and(in_text)
}

/// Typesense: collections, their documents, API keys.
fn typesense(url: &Url) -> Option<Hit> {
    let seg = |i: usize| url.segment(i);
    let name = seg(1).unwrap_or("(the one given)");
    let loses = match (seg(0)?, seg(2), seg(3)) {
        ("collections", None, _) => {
            format!("deletes collection `{name}` with every document in it")
        }
        ("collections", Some("documents"), None) => format!(
            "deletes every document of collection `{name}` matching `{}`",
            url.param("filter_by").unwrap_or("(the filter given)")
        ),
        ("collections", Some("documents"), Some(id)) => {
            format!("deletes document `{id}` of collection `{name}`")
        }
        ("keys", ..) => format!("deletes API key `{name}`: clients using it are locked out"),
        _ => return None,
    };
    Some(
        Hit::new(&TYPESENSE_DELETE, Tier::Destructive, format!("{loses} (Typesense)"))
            .safer(
                "`GET /collections/<c>/documents/export` saves the documents first; `POST                  /operations/snapshot` keeps a copy of the whole store",
            )
            .recovery("only from a snapshot or an export taken before"),
    )
}

/// Whether an Elasticsearch request body deletes: `delete` actions in a `_bulk` request, a
/// `remove_index` action in `_aliases`.
fn bulk_deletes(req: &Request, url: &Url) -> bool {
    match url.segments.last().map(String::as_str) {
        Some("_bulk") => req.body_has("{\"delete\":"),
        Some("_aliases") => req.body_has("\"remove_index\""),
        _ => false,
    }
}

fn elasticsearch_bulk(url: &Url) -> Option<Hit> {
    let engine = elastic_engine(url)?;
    let loses = if url.segments.last().map(String::as_str) == Some("_aliases") {
        "deletes the indices its `remove_index` actions name, with every document in them"
    } else {
        "deletes the documents its `delete` actions name"
    };
    Some(
        Hit::new(
            &ELASTICSEARCH_DELETE,
            Tier::Destructive,
            format!("{loses} ({engine})"),
        )
        .safer("take a snapshot first (`PUT /_snapshot/<repo>/<name>?wait_for_completion=true`)")
        .recovery(
            "restore the index from a snapshot (`POST /_snapshot/<repo>/<snapshot>/_restore`);              without one, none",
        ),
    )
}

/// curator_cli options that take the next word as their value.
const CURATOR_VALUED: &[&str] = &[
    "--config",
    "--host",
    "--url_prefix",
    "--port",
    "--http_auth",
    "--certificate",
    "--client_cert",
    "--client_key",
    "--timeout",
    "--loglevel",
    "--logfile",
    "--logformat",
    "--filter_list",
    "--repository",
    "--hosts",
    "--cloud_id",
    "--api_key",
    "--username",
    "--password",
];

/// Elasticsearch Curator's one-shot command line.
fn curator(args: &[Word]) -> Option<Hit> {
    if asks_help(args) || dry_run(args, &["--dry-run"]) {
        return None;
    }
    let ops = operands(args, CURATOR_VALUED);
    let filter = value(args, &["--filter_list"]).unwrap_or("its filters");
    let loses = match *ops.first()? {
        "delete_indices" => format!("deletes every index matching {filter}"),
        "delete_snapshots" => format!(
            "deletes every snapshot in repository `{}` matching {filter}: backups",
            value(args, &["--repository"]).unwrap_or("(the one given)")
        ),
        _ => return None,
    };
    Some(
        Hit::new(&ELASTICSEARCH_DELETE, Tier::Destructive, loses)
            .safer("the same command with `--dry-run` logs what it would delete")
            .recovery("restore from a snapshot taken before; without one, none"),
    )
}

fn algolia_host(url: &Url) -> bool {
    url.host.ends_with(".algolia.net")
        || url.host.ends_with(".algolianet.com")
        || url.host.ends_with(".algolia.io")
        || url.host_words().any(|w| w == "algolia")
}

fn meili_host(url: &Url) -> bool {
    url.port == Some(7700) || url.host_words().any(|w| w.contains("meili"))
}

/// Elasticsearch's own API families: a path that starts with one names the engine even when
/// the host does not.
const ES_APIS: &[&str] = &[
    "_all",
    "_data_stream",
    "_snapshot",
    "_index_template",
    "_template",
    "_component_template",
    "_ilm",
    "_ingest",
    "_slm",
    "_transform",
    "_enrich",
    "_security",
    "_ml",
];

/// Which engine `url` addresses, if it looks like Elasticsearch or OpenSearch.
fn elastic_engine(url: &Url) -> Option<&'static str> {
    let named = |w: &str| url.host_words().any(|h| h == w);
    // Amazon's managed domains live under `*.es.amazonaws.com`.
    if named("opensearch") || url.host.ends_with(".es.amazonaws.com") {
        return Some("OpenSearch");
    }
    // Elastic Cloud deployments live under `*.found.io` and `*.es.io`.
    let by_host = url.port == Some(9200)
        || named("elasticsearch")
        || named("elastic")
        || url.host.ends_with(".found.io")
        || url.host.ends_with(".es.io");
    let by_path = url.segment(0).is_some_and(|s| ES_APIS.contains(&s))
        || url.segments.iter().any(|s| s == "_delete_by_query")
        || url.segment(1) == Some("_doc");
    (by_host || by_path).then_some("Elasticsearch")
}

/// Delete requests that only release a cursor, a search or an alias: no data goes.
const ES_HARMLESS: &[&str] = &[
    "_search",
    "_pit",
    "_async_search",
    "_sql",
    "_query",
    "_eql",
    "_cluster",
    "_tasks",
    "_nodes",
];

fn elasticsearch(method: &str, url: &Url) -> Option<Hit> {
    let engine = elastic_engine(url)?;
    let first = url.segment(0)?;
    let loses = if method == "POST" {
        if url.segments.last().map(String::as_str) != Some("_delete_by_query") {
            return None;
        }
        let index = if first == "_delete_by_query" {
            "every index"
        } else {
            first
        };
        format!("deletes every document in `{index}` that the query matches")
    } else {
        if ES_HARMLESS.contains(&first) || matches!(url.segment(1), Some("_alias" | "_aliases")) {
            return None;
        }
        let name = |i: usize| url.segment(i).unwrap_or("(all)");
        match first {
            "_all" => "deletes every index and every document in them".to_string(),
            "_data_stream" => format!(
                "deletes data stream `{}` with its backing indices and every document in them",
                name(1)
            ),
            "_snapshot" if url.segments.len() >= 3 => format!(
                "deletes snapshot `{}` (a backup) from repository `{}`",
                name(2),
                name(1)
            ),
            "_snapshot" => format!("unregisters snapshot repository `{}`", name(1)),
            "_index_template" | "_template" | "_component_template" => {
                format!("deletes index template `{}`", name(1))
            }
            _ if first.starts_with('_') => format!("deletes `{}`", url.path()),
            _ if url.segment(1) == Some("_doc") => {
                format!("deletes document `{}` from index `{first}`", name(2))
            }
            _ if url.segments.len() > 1 => format!("deletes `{}`", url.path()),
            _ if first.contains('*') || first == "*" => {
                format!("deletes every index matching `{first}` and every document in them")
            }
            _ => {
                let indices: Vec<&str> = first.split(',').collect();
                let (noun, pronoun) = if indices.len() == 1 {
                    ("index", "it")
                } else {
                    ("indices", "them")
                };
                format!(
                    "deletes {noun} {} and every document in {pronoun}",
                    crate::rules::git::list(indices.iter().copied()),
                )
            }
        }
    };
    Some(
        Hit::new(
            &ELASTICSEARCH_DELETE,
            Tier::Destructive,
            format!("{loses} ({engine})"),
        )
        .safer(if first == "_snapshot" {
            format!(
                "`GET {}` shows what it is; keep at least one snapshot of every index",
                url.path()
            )
        } else {
            format!(
                "{}; take a snapshot first (`PUT /_snapshot/<repo>/<name>?wait_for_completion=true`)",
                if first.starts_with('_') && first != "_all" {
                    format!("`GET {}` shows what it is", url.path())
                } else {
                    format!("`GET /_cat/indices/{first}?v` shows what it matches")
                }
            )
        })
        .recovery(
            "restore the index from a snapshot (`POST /_snapshot/<repo>/<snapshot>/_restore`); \
                 without one, none",
        ),
    )
}

fn meilisearch(method: &str, url: &Url) -> Option<Hit> {
    let seg = |i: usize| url.segment(i);
    let uid = seg(1).unwrap_or("(all)");
    let loses = match (method, seg(0)?, seg(2), seg(3)) {
        ("POST", "indexes", Some("documents"), Some("delete-batch" | "delete")) => {
            format!("deletes documents from index `{uid}`")
        }
        ("POST", ..) => return None,
        (_, "tasks", ..) => return None,
        (_, "indexes", None, _) => format!("deletes index `{uid}` and every document in it"),
        (_, "indexes", Some("documents"), None) => {
            format!("deletes every document in index `{uid}`")
        }
        (_, "indexes", Some("documents"), Some(id)) => {
            format!("deletes document `{id}` from index `{uid}`")
        }
        (_, "indexes", Some("settings"), _) => {
            format!("resets the settings of index `{uid}` to their defaults")
        }
        (_, "keys", ..) => format!("deletes API key `{uid}`: clients using it are locked out"),
        _ => format!("deletes `{}`", url.path()),
    };
    Some(
        Hit::new(
            &MEILISEARCH_DELETE,
            Tier::Destructive,
            format!("{loses} (Meilisearch)"),
        )
        .safer("`GET /indexes/<uid>/stats` to see what it holds; `POST /dumps` first keeps a copy")
        .recovery("import the dump or snapshot taken before; without one, none"),
    )
}

fn algolia(method: &str, url: &Url) -> Option<Hit> {
    let seg = |i: usize| url.segment(i);
    let index = seg(2).unwrap_or("(all)");
    let loses = if method == "POST" {
        match url.segments.last().map(String::as_str)? {
            "deleteByQuery" => format!("deletes the records of index `{index}` the query matches"),
            "clear" => match seg(3) {
                Some(kind @ ("rules" | "synonyms")) => {
                    format!(
                        "deletes every {} of index `{index}`",
                        &kind[..kind.len() - 1]
                    )
                }
                _ => format!("deletes every record in index `{index}`"),
            },
            _ => return None,
        }
    } else {
        match (seg(1)?, seg(3), seg(4)) {
            ("indexes", None, _) => {
                format!("deletes index `{index}` with every record, rule and synonym in it")
            }
            ("indexes", Some(kind @ ("rules" | "synonyms")), Some(id)) => {
                format!(
                    "deletes {} `{id}` of index `{index}`",
                    &kind[..kind.len() - 1]
                )
            }
            ("indexes", Some(object), _) => {
                format!("deletes record `{object}` from index `{index}`")
            }
            ("keys", ..) => format!("deletes API key `{index}`: clients using it are locked out"),
            _ => format!("deletes `{}`", url.path()),
        }
    };
    Some(
        Hit::new(
            &ALGOLIA_DELETE,
            Tier::Destructive,
            format!("{loses} (Algolia)"),
        )
        .safer(format!(
            "copy the index first: `POST /1/indexes/{index}/operation` with \
                 `{{\"operation\":\"copy\",\"destination\":\"{index}-backup\"}}`"
        ))
        .recovery("copy the backup index back; without one, none (Algolia keeps no trash)"),
    )
}
