//! The HTTP request a `curl`, `wget`, HTTPie or `xh` line sends: its method and URLs, for the
//! packs that judge a service by the API call made to it.

use super::args::{Line, Style, operands};
use crate::rules::Hit;
use crate::shell::{SimpleCommand, Word};

/// A request a command-line HTTP client sends.
#[derive(Debug)]
pub(super) struct Request {
    /// Upper case: `GET`, `DELETE`, ...
    pub method: String,
    pub urls: Vec<Url>,
    /// The body as the line gives it: each data option's text (`-d`, `--data-raw`, `--json`,
    /// wget's `--body-data`), a file's (`@file`) left out since it is not read here.
    pub body: Vec<String>,
}

impl Request {
    /// Whether any part of the body contains `needle`, ignoring ASCII case and whitespace.
    pub fn body_has(&self, needle: &str) -> bool {
        self.body
            .iter()
            .any(|part| compact(part).contains(&compact(needle)))
    }
}

/// Lower case without whitespace, so that `{"match_all": {}}` and `{"match_all":{}}` compare
/// equal.
pub(super) fn compact(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// The parts of a URL the packs judge by. For a word with expansions left in it (`$ES/x`) the
/// expansion's source stands in for the unknown text.
#[derive(Debug)]
pub(super) struct Url {
    /// Lower case, without user info or port; `localhost` for HTTPie's `:9200/x`.
    pub host: String,
    pub port: Option<u16>,
    /// Non-empty path segments, query and fragment removed.
    pub segments: Vec<String>,
    /// The query's parameters, decoded (`%20` and `+` as a space), in order.
    pub query: Vec<(String, String)>,
}

impl Url {
    pub fn parse(text: &str) -> Url {
        let rest = text.split_once("://").map_or(text, |(_, r)| r);
        let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let (authority, tail) = rest.split_at(end);
        let hostport = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
        let (host, port) = match hostport.rsplit_once(':') {
            Some((h, p)) if !h.ends_with(':') && !p.contains(']') => (h, p.parse().ok()),
            _ => (hostport, None),
        };
        let host = if host.is_empty() && port.is_some() {
            "localhost".to_string()
        } else {
            host.to_ascii_lowercase()
        };
        let without_fragment = tail.split('#').next().unwrap_or("");
        let (path, query) = without_fragment
            .split_once('?')
            .unwrap_or((without_fragment, ""));
        Url {
            host,
            port,
            segments: path
                .split('/')
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect(),
            query: parameters(query),
        }
    }

    /// The value of query parameter `name` (the last one given; ASCII case ignored in the
    /// name), `""` for a parameter given without one.
    pub fn param(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .rev()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The host's name split into its words: `search-logs.eu.es.amazonaws.com` gives
    /// `search`, `logs`, `eu`, `es`, `amazonaws`, `com`.
    pub fn host_words(&self) -> impl Iterator<Item = &str> {
        self.host
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
    }

    pub fn segment(&self, i: usize) -> Option<&str> {
        self.segments.get(i).map(String::as_str)
    }

    /// The path as written, for messages.
    pub fn path(&self) -> String {
        format!("/{}", self.segments.join("/"))
    }
}

/// `a=1&b=x+y` as pairs, each part decoded.
fn parameters(query: &str) -> Vec<(String, String)> {
    query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (decode(k), decode(v))
        })
        .collect()
}

/// Percent-decoding as a form does it (`+` is a space); a malformed escape stays as written.
fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (b, hex) {
            (b'%', Some(v)) => {
                out.push(v);
                i += 3;
            }
            (b'+', _) => {
                out.push(b' ');
                i += 1;
            }
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A pack's `programs`: the ones given, then the HTTP clients [`request`] reads, for the packs
/// that also judge a service by the API call made to it.
macro_rules! and_http_clients {
    ($($program:literal),* $(,)?) => {
        &[$($program,)* "curl", "wget", "http", "https", "xh", "xhs"]
    };
}
pub(super) use and_http_clients;

/// The request `program` sends with `args`, as far as argv shows it; `None` unless `program`
/// is one of the clients read here: curl, wget, HTTPie (`http`, `https`) and xh (`xh`, `xhs`).
pub(super) fn request(program: &str, args: &[Word]) -> Option<Request> {
    match program {
        "curl" => Some(curl(args)),
        "wget" => Some(wget(args)),
        "http" | "https" | "xh" | "xhs" => Some(httpie(args)),
        _ => None,
    }
}

/// What `judge` finds in the request `cmd` sends, URL by URL with the request's method, when
/// `cmd` runs an HTTP client [`request`] reads; `None` for any other program.
pub(super) fn request_hits(
    cmd: &SimpleCommand,
    judge: impl Fn(&str, &Url) -> Option<Hit>,
) -> Option<Vec<Hit>> {
    body_hits(cmd, |req, url| judge(&req.method, url))
}

/// [`request_hits`] for the judges that read the body too (a `POST` whose body names what it
/// deletes).
pub(super) fn body_hits(
    cmd: &SimpleCommand,
    judge: impl Fn(&Request, &Url) -> Option<Hit>,
) -> Option<Vec<Hit>> {
    let req = request(cmd.program()?, cmd.args())?;
    Some(req.urls.iter().filter_map(|url| judge(&req, url)).collect())
}

/// curl's options that send a body; they take a value.
const CURL_DATA: &[&str] = &[
    "d",
    "F",
    "data",
    "data-ascii",
    "data-binary",
    "data-raw",
    "data-urlencode",
    "json",
    "form",
    "form-string",
];
/// curl's other options that take a value: every short one, and the usual long ones (an
/// unknown one costs at most a word read as a URL).
const CURL_VALUED: &[&str] = &[
    "A",
    "b",
    "c",
    "C",
    "D",
    "e",
    "E",
    "H",
    "K",
    "m",
    "o",
    "P",
    "Q",
    "r",
    "t",
    "T",
    "u",
    "U",
    "w",
    "x",
    "X",
    "y",
    "Y",
    "z",
    "request",
    "url",
    "upload-file",
    "header",
    "proxy-header",
    "output",
    "user",
    "user-agent",
    "referer",
    "cookie",
    "cookie-jar",
    "write-out",
    "proxy",
    "proxy-user",
    "config",
    "cert",
    "cert-type",
    "key",
    "key-type",
    "pass",
    "cacert",
    "capath",
    "max-time",
    "connect-timeout",
    "retry",
    "retry-delay",
    "retry-max-time",
    "range",
    "resolve",
    "connect-to",
    "oauth2-bearer",
    "aws-sigv4",
    "max-redirs",
    "limit-rate",
    "interface",
    "dns-servers",
    "unix-socket",
    "output-dir",
    "variable",
    "expand-data",
    "trace",
    "trace-ascii",
    "stderr",
    "dump-header",
];

fn curl(args: &[Word]) -> Request {
    let line = Line::parse(args, Style::Gnu, &[CURL_DATA, CURL_VALUED].concat());
    let method = line
        .value(&["request", "X"])
        .map(str::to_ascii_uppercase)
        .unwrap_or_else(|| {
            match () {
                _ if line.given(&["head", "I"]) => "HEAD",
                _ if line.given(&["get", "G"]) => "GET",
                _ if line.given(&["upload-file", "T"]) => "PUT",
                _ if line.given(CURL_DATA) => "POST",
                _ => "GET",
            }
            .to_string()
        });
    let named = line.opts.iter().filter(|(name, _)| *name == "url");
    let body: Vec<String> = line
        .values(CURL_DATA)
        .into_iter()
        .filter(|d| !d.starts_with('@'))
        .map(str::to_string)
        .collect();
    // `-G` sends the data as the URL's query instead of a body.
    let get = line.given(&["get", "G"]);
    let urls = named
        .filter_map(|(_, url)| *url)
        .chain(line.operands.iter().copied())
        .map(|text| {
            let mut url = Url::parse(text);
            if get {
                url.query
                    .extend(body.iter().flat_map(|d| parameters_raw(d)));
            }
            url
        })
        .collect();
    Request {
        method,
        urls,
        body: if get { Vec::new() } else { body },
    }
}

/// curl's `-G` data (`--data-urlencode 'query=DROP TABLE t'`) as parameters: the text is
/// sent encoded, so it is read as written.
fn parameters_raw(data: &str) -> Vec<(String, String)> {
    data.split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (k.to_string(), v.to_string())
        })
        .collect()
}

/// wget's options that take a value: every short one, and the long ones a line commonly
/// spells with a separate value (wget's long options are nearly always written `--name=value`).
const WGET_VALUED: &[&str] = &[
    "a",
    "A",
    "B",
    "d",
    "D",
    "e",
    "i",
    "I",
    "l",
    "O",
    "o",
    "P",
    "Q",
    "R",
    "t",
    "T",
    "U",
    "w",
    "X",
    "method",
    "header",
    "output-document",
    "user",
    "password",
    "post-data",
    "post-file",
    "body-data",
    "body-file",
    "directory-prefix",
    "user-agent",
    "tries",
    "timeout",
    "input-file",
    "output-file",
];

fn wget(args: &[Word]) -> Request {
    let line = Line::parse(args, Style::Gnu, WGET_VALUED);
    let method = match line.value(&["method"]) {
        Some(method) => method.to_ascii_uppercase(),
        None if line.given(&["post-data", "post-file"]) => "POST".to_string(),
        None => "GET".to_string(),
    };
    Request {
        method,
        urls: line.operands.iter().map(|u| Url::parse(u)).collect(),
        body: line
            .values(&["post-data", "body-data"])
            .into_iter()
            .map(str::to_string)
            .collect(),
    }
}

/// HTTPie's and xh's options that take a value as the next word.
const HTTPIE_VALUED: &[&str] = &[
    "-a",
    "--auth",
    "-A",
    "--auth-type",
    "-o",
    "--output",
    "-p",
    "--print",
    "-P",
    "--history-print",
    "-s",
    "--style",
    "--session",
    "--session-read-only",
    "--timeout",
    "--verify",
    "--cert",
    "--cert-key",
    "--proxy",
    "--max-redirects",
    "--pretty",
    "--format-options",
    "--default-scheme",
    "--ssl",
    "--ciphers",
    "--boundary",
    "--bearer",
];

const METHODS: &[&str] = &[
    "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "CONNECT",
];

fn httpie(args: &[Word]) -> Request {
    let words = operands(args, HTTPIE_VALUED);
    let (method, rest) = match words.split_first() {
        Some((first, rest)) if METHODS.iter().any(|m| m.eq_ignore_ascii_case(first)) => {
            (Some(first.to_ascii_uppercase()), rest)
        }
        _ => (None, words.as_slice()),
    };
    let (url, items) = match rest.split_first() {
        Some((url, items)) => (Some(Url::parse(url)), items),
        None => (None, &[][..]),
    };
    // Data items (`name=value`, `name:=json`, `field@file`) turn the default into a POST;
    // query (`==`) and header (`:`) items do not.
    let data = items.iter().any(|item| {
        let first = item.find(['=', ':', '@']);
        first.is_some_and(|i| {
            let after = &item[i..];
            (after.starts_with('=') && !after.starts_with("=="))
                || after.starts_with(":=")
                || after.starts_with('@')
        })
    });
    let method = method.unwrap_or_else(|| if data { "POST" } else { "GET" }.to_string());
    let mut url = url;
    // Query items (`name==value`) join the URL's query.
    if let Some(url) = url.as_mut() {
        url.query.extend(items.iter().filter_map(|item| {
            let (k, v) = item.split_once("==")?;
            Some((k.to_string(), v.to_string()))
        }));
    }
    Request {
        method,
        urls: url.into_iter().collect(),
        // Data items are the JSON body's fields, as written.
        body: items
            .iter()
            .filter(|item| !item.contains("==") && item.contains('='))
            .map(|item| item.to_string())
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<Word> {
        s.split_whitespace().map(Word::literal).collect()
    }

    #[test]
    fn curl_methods_and_urls() {
        let r = request(
            "curl",
            &words("-sSXDELETE -H Accept:x http://localhost:9200/logs?x=1"),
        )
        .unwrap();
        assert_eq!(r.method, "DELETE");
        assert_eq!(r.urls.len(), 1);
        assert_eq!(r.urls[0].host, "localhost");
        assert_eq!(r.urls[0].port, Some(9200));
        assert_eq!(r.urls[0].segments, ["logs"]);
        let r = request("curl", &words("-d {} -o out https://a.b/c")).unwrap();
        assert_eq!(r.method, "POST");
        assert_eq!(r.urls.len(), 1);
        let r = request("curl", &words("--request delete --url u:1/x")).unwrap();
        assert_eq!(r.method, "DELETE");
        assert_eq!(r.urls[0].port, Some(1));
        let r = request("curl", &words("-sI http://h/x")).unwrap();
        assert_eq!(r.method, "HEAD");
        let r = request("curl", &words("-T f.txt -XPOST -X PATCH http://h/x")).unwrap();
        assert_eq!(r.method, "PATCH");
        let r = request("curl", &words("-T f.txt --data-raw=x http://h/x")).unwrap();
        assert_eq!(r.method, "PUT");
        let r = request("curl", &words("--data-urlencode a=b http://h/x")).unwrap();
        assert_eq!((r.method.as_str(), r.urls.len()), ("POST", 1));
    }

    #[test]
    fn httpie_and_wget() {
        let r = request("http", &words("-a u:p delete :7700/indexes/movies")).unwrap();
        assert_eq!(r.method, "DELETE");
        assert_eq!(r.urls[0].host, "localhost");
        assert_eq!(r.urls[0].segments, ["indexes", "movies"]);
        let r = request("xh", &words("example.org/x name=v")).unwrap();
        assert_eq!(r.method, "POST");
        let r = request("http", &words("example.org/x q==1 H:v")).unwrap();
        assert_eq!(r.method, "GET");
        let r = request("wget", &words("--method=DELETE -O - http://h:9200/i")).unwrap();
        assert_eq!(r.method, "DELETE");
        assert_eq!(r.urls.len(), 1);
        let r = request("wget", &words("-qO- --post-data x=1 http://h/i")).unwrap();
        assert_eq!(r.method, "POST");
        assert_eq!(r.urls[0].segments, ["i"]);
    }

    #[test]
    fn urls_keep_host_port_and_path_only() {
        let u = Url::parse("https://elastic:pw@Search.Example.com:9243/logs/_doc/1?refresh#x");
        assert_eq!(u.host, "search.example.com");
        assert_eq!(u.port, Some(9243));
        assert_eq!(u.segments, ["logs", "_doc", "1"]);
        assert_eq!(u.path(), "/logs/_doc/1");
        let u = Url::parse("http://[::1]:9200/x");
        assert_eq!((u.host.as_str(), u.port), ("[::1]", Some(9200)));
        let u = Url::parse("[::1]");
        assert_eq!((u.host.as_str(), u.port), ("[::1]", None));
        let u = Url::parse("$ES_URL/orders");
        assert_eq!(u.host_words().collect::<Vec<_>>(), ["es", "url"]);
        assert_eq!(u.segments, ["orders"]);
        assert!(Url::parse("").segments.is_empty());
    }

    #[test]
    fn queries_and_bodies() {
        let u = Url::parse("http://h:8983/solr/admin/collections?action=DELETE&name=a+b&x=%2Fy");
        assert_eq!(u.param("action"), Some("DELETE"));
        assert_eq!(u.param("NAME"), Some("a b"));
        assert_eq!(u.param("x"), Some("/y"));
        assert_eq!(u.param("missing"), None);
        assert_eq!(Url::parse("http://h/x?recurse").param("recurse"), Some(""));
        let r = request(
            "curl",
            &words("-X POST http://h:9200/_bulk -d {\"delete\":{}}"),
        )
        .unwrap();
        assert!(r.body_has("{ \"delete\" : {"));
        let r = request("curl", &words("-d @body.json http://h/x")).unwrap();
        assert!(r.body.is_empty());
        // `-G` moves the data into the query.
        let r = request(
            "curl",
            &words("-G http://h:8086/query --data-urlencode q=DROP"),
        )
        .unwrap();
        assert_eq!(
            (r.method.as_str(), r.urls[0].param("q")),
            ("GET", Some("DROP"))
        );
        assert!(r.body.is_empty());
        let r = request("http", &words("POST :8086/api/v2/delete bucket==m start=0")).unwrap();
        assert_eq!(r.urls[0].param("bucket"), Some("m"));
        assert_eq!(r.body, ["start=0"]);
        let r = request("wget", &words("--body-data=x --method=POST http://h/y")).unwrap();
        assert_eq!(r.body, ["x"]);
    }
}
