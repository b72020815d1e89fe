//! Vector databases through their HTTP APIs: Qdrant, Weaviate, Milvus, Chroma, Pinecone and
//! Vespa, driven by `curl`, `wget`, HTTPie, `xh` or a request in interpreter code. A collection
//! of embeddings took hours of model calls to fill, and none of these keeps a trash: only a
//! request that deletes (a collection, a class, an index, the points a filter picks, the whole
//! store) against one of these services' URL shapes is a finding.

use super::Pack;
use super::http::{Request, Url, body_hits};
use crate::rules::{Hit, Rule, Tier};
use crate::shell::SimpleCommand;

pub static VECTOR_DELETE: Rule = Rule {
    id: "vectors.delete",
    catches: "HTTP requests that delete from a vector database: Qdrant (`DELETE \
              /collections/<c>`, `POST .../points/delete`, snapshots), Weaviate (`DELETE \
              /v1/schema/<Class>`, `/v1/batch/objects`, objects and tenants), Milvus (`POST \
              /v2/vectordb/collections|databases|partitions/drop`, `entities/delete`), Chroma \
              (collections, records, `/reset`), Pinecone (`DELETE /indexes/<i>`, \
              `/collections/<c>`, `POST /vectors/delete`, namespaces) and Vespa (`DELETE \
              /document/v1/...`), by port, host or path",
    why: "A vector collection holds embeddings that took hours of model calls (and money) to \
          compute, often with the only copy of the text they were made from in their payload. \
          These services keep no trash: a dropped collection, a deleted index or an emptied \
          namespace is gone unless a snapshot or backup was taken.",
    instead: "Look first (`GET /collections/<c>`, `POST /v2/vectordb/collections/describe`, \
              `GET /v1/schema`, `POST /describe_index_stats`); take a snapshot or backup first \
              (Qdrant `POST /collections/<c>/snapshots`, Weaviate `POST /v1/backups/<backend>`, \
              Pinecone `POST /collections`); delete the points a filter picks only after \
              counting them.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "curl -X DELETE http://localhost:6333/collections/documents",
        "curl -X POST http://localhost:6333/collections/documents/points/delete -H 'Content-Type: application/json' -d '{\"filter\":{\"must\":[{\"key\":\"source\",\"match\":{\"value\":\"crawl\"}}]}}'",
        "curl -X DELETE http://localhost:8080/v1/schema/Article",
        "curl -X POST http://localhost:19530/v2/vectordb/collections/drop -d '{\"collectionName\":\"quick_setup\"}'",
        "curl -X DELETE http://localhost:8000/api/v1/collections/docs",
        "curl -X DELETE https://api.pinecone.io/indexes/docs-example -H \"Api-Key: $PINECONE_API_KEY\"",
        "curl -X POST https://docs-example-abc123.svc.us-east1-gcp.pinecone.io/vectors/delete -d '{\"deleteAll\": true, \"namespace\": \"example-namespace\"}'",
        "curl -X DELETE 'http://localhost:8080/document/v1/mynamespace/music/docid?selection=true&cluster=music'",
    ],
    passes: &[
        "curl http://localhost:6333/collections",
        "curl -X PUT http://localhost:6333/collections/documents -d '{\"vectors\":{\"size\":384,\"distance\":\"Cosine\"}}'",
        "curl -X POST http://localhost:6333/collections/documents/points/search -d '{\"vector\":[0.1,0.2],\"limit\":3}'",
        "curl -X POST http://localhost:6333/collections/documents/snapshots",
        "curl http://localhost:8080/v1/schema",
        "curl -X POST http://localhost:19530/v2/vectordb/collections/describe -d '{\"collectionName\":\"quick_setup\"}'",
        "curl -X POST https://docs-example-abc123.svc.us-east1-gcp.pinecone.io/describe_index_stats",
        "curl -X DELETE http://localhost:8080/api/items/42",
    ],
};

pub static PACK: Pack = Pack {
    id: "vectors",
    summary: "vector databases: Qdrant, Weaviate, Milvus, Chroma, Pinecone and Vespa deletes \
              through curl, wget, HTTPie, xh or requests in code",
    default_on: true,
    programs: super::http::and_http_clients![],
    rules: &[&VECTOR_DELETE],
    check,
};

fn check(cmd: &SimpleCommand) -> Vec<Hit> {
    body_hits(cmd, judge).unwrap_or_default()
}

fn judge(req: &Request, url: &Url) -> Option<Hit> {
    let method = req.method.as_str();
    if !matches!(method, "DELETE" | "POST") {
        return None;
    }
    let named = |w: &str| url.host_words().any(|h| h.contains(w));
    let (service, loses, safer) = if url.host.ends_with("pinecone.io") || named("pinecone") {
        ("Pinecone", pinecone(req, url)?, PINECONE_SAFER)
    } else if url.segment(0) == Some("v2") && url.segment(1) == Some("vectordb") {
        ("Milvus", milvus(url)?, MILVUS_SAFER)
    } else if url.segment(0) == Some("document") && url.segment(1) == Some("v1") {
        ("Vespa", vespa(method, url)?, VESPA_SAFER)
    } else if url.port == Some(6333) || named("qdrant") {
        ("Qdrant", qdrant(method, url)?, QDRANT_SAFER)
    } else if named("weaviate") || url.segment(1) == Some("schema") && url.segment(0) == Some("v1")
    {
        ("Weaviate", weaviate(method, url)?, WEAVIATE_SAFER)
    } else if named("chroma") || chroma_path(url) {
        ("Chroma", chroma(method, url)?, CHROMA_SAFER)
    } else {
        return None;
    };
    Some(
        Hit::new(
            &VECTOR_DELETE,
            Tier::Destructive,
            format!("{loses} ({service})"),
        )
        .safer(safer)
        .recovery("only from a snapshot or backup taken before; the vectors must otherwise be computed again"),
    )
}

const QDRANT_SAFER: &str = "`GET /collections/<c>` shows what it holds; `POST \
                            /collections/<c>/snapshots` first keeps a copy";
const WEAVIATE_SAFER: &str = "`GET /v1/schema/<Class>` and an aggregate count first; `POST \
                              /v1/backups/<backend>` keeps a copy";
const MILVUS_SAFER: &str = "`POST /v2/vectordb/collections/describe` (and `entities/query` with \
                            the same filter) first; back up with milvus-backup";
const CHROMA_SAFER: &str = "`GET` the collection and its `count` first; copy the persist \
                            directory before deleting";
const PINECONE_SAFER: &str = "`POST /describe_index_stats` first; `POST /collections` (pod \
                              indexes) or `POST /backups` (serverless) keeps a copy";
const VESPA_SAFER: &str = "`GET /document/v1/...` with the same selection lists what it would \
                           delete";

/// Qdrant's REST API (port 6333).
fn qdrant(method: &str, url: &Url) -> Option<String> {
    let seg = |i: usize| url.segment(i);
    let name = seg(1).unwrap_or("(the one given)");
    Some(match (method, seg(0)?, seg(2), seg(3), seg(4)) {
        ("DELETE", "collections", None, ..) => {
            format!("deletes collection `{name}` with every point and vector in it")
        }
        ("DELETE", "collections", Some("snapshots"), Some(snap), _) => {
            format!("deletes snapshot `{snap}` of collection `{name}`: a backup")
        }
        ("DELETE", "snapshots", ..) => format!("deletes full-storage snapshot `{name}`: a backup"),
        ("POST", "collections", Some("points"), Some("delete"), None) => {
            format!("deletes the points of collection `{name}` that the request names")
        }
        ("POST", "collections", Some("points"), Some("vectors" | "payload"), Some(op))
            if op == "delete" || op == "clear" =>
        {
            format!("deletes vectors or payload of points in collection `{name}`")
        }
        _ => return None,
    })
}

/// Weaviate's REST API (`/v1/...`).
fn weaviate(method: &str, url: &Url) -> Option<String> {
    if method != "DELETE" || url.segment(0) != Some("v1") {
        return None;
    }
    let seg = |i: usize| url.segment(i);
    Some(match (seg(1)?, seg(2), seg(3)) {
        ("schema", Some(class), None) => {
            format!("deletes class `{class}` with every object in it")
        }
        ("schema", Some(class), Some("tenants")) => {
            format!("deletes tenants of class `{class}` with their objects")
        }
        ("batch", Some("objects"), _) => {
            "deletes every object the request's `where` filter matches".to_string()
        }
        ("objects", Some(a), b) => format!("deletes object `{}`", b.unwrap_or(a)),
        _ => return None,
    })
}

/// Milvus's RESTful API v2 (`/v2/vectordb/<resource>/<action>`): all `POST`.
fn milvus(url: &Url) -> Option<String> {
    Some(match (url.segment(2)?, url.segment(3)?) {
        ("collections", "drop") => "drops a collection with every entity in it".to_string(),
        ("databases", "drop") => "drops a database with every collection in it".to_string(),
        ("partitions", "drop") => "drops a partition with every entity in it".to_string(),
        ("entities", "delete") => "deletes the entities the filter or ids match".to_string(),
        _ => return None,
    })
}

/// Chroma's paths: `/api/v1/collections`, `/api/v2/tenants/...`, `/api/v{1,2}/reset`.
fn chroma_path(url: &Url) -> bool {
    url.segment(0) == Some("api")
        && match (url.segment(1), url.segment(2)) {
            (Some("v2"), Some("tenants")) => true,
            (Some("v1" | "v2"), Some("reset")) => url.port == Some(8000),
            (Some("v1"), Some("collections")) => url.port == Some(8000),
            _ => false,
        }
}

fn chroma(method: &str, url: &Url) -> Option<String> {
    let segments: Vec<&str> = url.segments.iter().map(String::as_str).collect();
    let at = segments.iter().position(|s| *s == "collections");
    Some(match (method, segments.as_slice(), at) {
        ("POST", ["api", _, "reset"], _) => {
            "resets the whole store: every collection and record".to_string()
        }
        ("DELETE", _, Some(i)) if i + 2 == segments.len() => format!(
            "deletes collection `{}` with every record in it",
            segments.get(i + 1)?
        ),
        ("POST", _, Some(i)) if segments.get(i + 2) == Some(&"delete") => format!(
            "deletes the records of collection `{}` that the request picks",
            segments.get(i + 1)?
        ),
        ("DELETE", [.., "databases", db], None) => {
            format!("deletes database `{db}` with every collection in it")
        }
        _ => return None,
    })
}

/// Pinecone: the control plane (`api.pinecone.io`) and an index's own host.
fn pinecone(req: &Request, url: &Url) -> Option<String> {
    let seg = |i: usize| url.segment(i);
    Some(match (req.method.as_str(), seg(0)?, seg(1)) {
        ("DELETE", "indexes", Some(name)) => {
            format!("deletes index `{name}` with every vector in it")
        }
        ("DELETE", "collections", Some(name)) => format!("deletes collection `{name}`: a backup"),
        ("DELETE", "backups", Some(id)) => format!("deletes backup `{id}`"),
        ("DELETE", "namespaces", Some(ns)) => {
            format!("deletes namespace `{ns}` with every vector in it")
        }
        ("POST", "vectors", Some("delete")) if req.body_has("\"deleteAll\":true") => {
            "deletes every vector in the namespace (`deleteAll`)".to_string()
        }
        ("POST", "vectors", Some("delete")) => {
            "deletes the vectors the ids or filter name".to_string()
        }
        _ => return None,
    })
}

/// Vespa's `/document/v1/<namespace>/<type>/docid[/<id>]`.
fn vespa(method: &str, url: &Url) -> Option<String> {
    if method != "DELETE" {
        return None;
    }
    let kind = url.segment(3).unwrap_or("(the given type)");
    Some(match url.segment(5) {
        Some(id) => format!("deletes document `{id}` of type `{kind}`"),
        None if url.param("selection").is_some() => format!(
            "deletes every document of type `{kind}` the selection `{}` matches",
            url.param("selection").unwrap_or_default()
        ),
        None => return None,
    })
}
