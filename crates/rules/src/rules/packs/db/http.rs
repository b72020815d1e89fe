//! Databases driven through their own HTTP APIs with `curl`, `wget`, HTTPie, `xh` or a request
//! in interpreter code: SQL sent to ClickHouse's HTTP interface and InfluxQL to InfluxDB 1.x's
//! `/query` are read as the client's statements would be (the SQL rules judge them); CouchDB
//! databases and documents, InfluxDB 2 and 3 buckets, organizations and databases, and
//! ArangoDB databases and collections deleted by URL are [`DATABASE_API_DELETE`] findings.

use super::super::http::{Request, Url, request};
use super::clients::Client;
use super::sql::{self, Dialect};
use super::{DATABASE_API_DELETE, by_kind};
use crate::rules::{Hit, Tier};
use crate::shell::SimpleCommand;

/// Every finding in the request `cmd` sends, when it runs an HTTP client.
pub(super) fn check(cmd: &SimpleCommand) -> Vec<Hit> {
    let Some(req) = cmd.program().and_then(|p| request(p, cmd.args())) else {
        return Vec::new();
    };
    req.urls.iter().flat_map(|url| judge(&req, url)).collect()
}

fn judge(req: &Request, url: &Url) -> Vec<Hit> {
    let named = |w: &str| url.host_words().any(|h| h.contains(w));
    if url.port == Some(8123) || named("clickhouse") {
        return statements(req, url, "query", Client::ClickHouse);
    }
    if url.port == Some(8086) || named("influx") {
        if url.segment(0) == Some("query") {
            return statements(req, url, "q", Client::Influx);
        }
        return influx(req, url).into_iter().collect();
    }
    let found = if url.port == Some(5984) || named("couch") || named("cloudant") {
        couchdb(req, url)
    } else if url.port == Some(8529) || named("arango") {
        arangodb(req, url)
    } else {
        None
    };
    found.into_iter().collect()
}

/// The statements a request sends in query parameter `param` or as its body (ClickHouse
/// takes a query as the body of a `POST`; InfluxDB 1.x a form field `q=`), read by the
/// SQL reader for `client`.
fn statements(req: &Request, url: &Url, param: &str, client: Client) -> Vec<Hit> {
    let field = format!("{param}=");
    let texts = url.param(param).into_iter().chain(req.body.iter().map(|b| {
        // A form body (`--data-urlencode 'q=DROP ...'`) sends the field's value.
        b.strip_prefix(&field).unwrap_or(b)
    }));
    let dialect = match client {
        Client::Influx => Dialect::InfluxQl,
        _ => Dialect::ClickHouse,
    };
    let read = sql::read_all(texts, dialect);
    by_kind(client, &read.found)
}

fn found(loses: String, safer: &str, names: Vec<String>) -> Option<Hit> {
    Some(
        Hit::new(&DATABASE_API_DELETE, Tier::Destructive, loses)
            .safer(safer)
            .recovery("only from a backup taken before")
            .names(names),
    )
}

/// CouchDB (port 5984, Cloudant): `DELETE /<db>`, `DELETE /<db>/<doc>`, `POST /<db>/_purge`,
/// and `_bulk_docs` that marks documents `_deleted`.
fn couchdb(req: &Request, url: &Url) -> Option<Hit> {
    let db = url.segment(0)?;
    let safer = "`GET /<db>` shows its document count; replicate it first (`POST /_replicate` \
                 to a backup database) or `GET /<db>/_all_docs?include_docs=true > backup.json`";
    match (req.method.as_str(), url.segment(1), url.segment(2)) {
        // `/_session` (log out) and the other endpoints of the server itself.
        ("DELETE", None, _) if !db.starts_with('_') => found(
            format!("deletes database `{db}` with every document in it (CouchDB)"),
            safer,
            vec![db.to_string()],
        ),
        ("DELETE", Some(doc), None) if !doc.starts_with('_') => found(
            format!("deletes document `{doc}` from database `{db}` (CouchDB)"),
            safer,
            vec![db.to_string()],
        ),
        ("POST", Some("_purge"), _) => found(
            format!(
                "purges documents from database `{db}`: no tombstone is kept, replication cannot bring them back (CouchDB)"
            ),
            safer,
            vec![db.to_string()],
        ),
        ("POST", Some("_bulk_docs"), _) if req.body_has("\"_deleted\":true") => found(
            format!("deletes the documents marked `_deleted` from database `{db}` (CouchDB)"),
            safer,
            vec![db.to_string()],
        ),
        _ => None,
    }
}

/// InfluxDB 2 (`/api/v2/buckets|orgs/<id>`, `/api/v2/delete` without a predicate) and 3
/// (`/api/v3/configure/database|table`).
fn influx(req: &Request, url: &Url) -> Option<Hit> {
    let seg = |i: usize| url.segment(i);
    let safer = "`influx backup <dir>` first (it copies every bucket's data)";
    if seg(0) != Some("api") {
        return None;
    }
    match (req.method.as_str(), seg(1)?, seg(2)?, seg(3)) {
        ("DELETE", "v2", "buckets", Some(id)) => found(
            format!("deletes bucket `{id}` and every point in it (InfluxDB)"),
            safer,
            Vec::new(),
        ),
        ("DELETE", "v2", "orgs", Some(id)) => found(
            format!(
                "deletes organization `{id}` with every bucket, dashboard and token in it (InfluxDB)"
            ),
            safer,
            Vec::new(),
        ),
        ("POST", "v2", "delete", _) if !req.body_has("\"predicate\"") => found(
            format!(
                "deletes every point between `start` and `stop` in bucket `{}`, whatever its measurement or tags (no predicate) (InfluxDB)",
                url.param("bucket").unwrap_or("(the one given)")
            ),
            "add a `predicate` that picks the points (`_measurement=\"<m>\"`) and query the \
             range first",
            Vec::new(),
        ),
        ("DELETE", "v3", "configure", Some(kind @ ("database" | "table"))) => {
            let name = url
                .param(if kind == "table" { "table" } else { "db" })
                .unwrap_or("(the one given)");
            found(
                format!("deletes {kind} `{name}` and its data (InfluxDB 3)"),
                "query and export what you need first",
                vec![name.to_string()],
            )
        }
        _ => None,
    }
}

/// ArangoDB (port 8529): databases, collections (deleted or truncated), graphs with their
/// collections, documents; under `/_db/<name>/` too.
fn arangodb(req: &Request, url: &Url) -> Option<Hit> {
    let mut segments: Vec<&str> = url.segments.iter().map(String::as_str).collect();
    let mut db = "_system".to_string();
    if let ["_db", name, rest @ ..] = segments.as_slice() {
        db = name.to_string();
        segments = rest.to_vec();
    }
    let safer = "`arangodump --server.database <db>` first; `GET /_api/collection/<c>/count` \
                 shows what it holds";
    let loses = match (req.method.as_str(), segments.as_slice()) {
        ("DELETE", ["_api", "database", name]) => {
            format!("drops database `{name}` with every collection in it")
        }
        ("DELETE", ["_api", "collection", name]) => {
            format!("drops collection `{name}` of database `{db}` with every document in it")
        }
        ("PUT", ["_api", "collection", name, "truncate"]) => {
            format!("deletes every document of collection `{name}` in database `{db}`")
        }
        ("DELETE", ["_api", "gharial", graph])
            if url.param("dropCollections").is_some_and(|v| v == "true") =>
        {
            format!("deletes graph `{graph}` with its vertex and edge collections")
        }
        ("DELETE", ["_api", "document", collection, key]) => {
            format!("deletes document `{key}` from collection `{collection}`")
        }
        _ => return None,
    };
    found(format!("{loses} (ArangoDB)"), safer, vec![db])
}
