//! Who may talk to the page: the server listens on the loopback interface only, but any
//! local process and any web page the user has open can reach a loopback port. So every
//! request must carry the random token printed with the address (a page elsewhere cannot
//! read it), name this server in `Host` (a rebound DNS name cannot pass as it), and a write
//! must come from one of this server's own pages (`Origin`, `Sec-Fetch-Site`).

/// Bytes of randomness in a token: 128 bits, written as 32 hexadecimal digits.
const TOKEN_BYTES: usize = 16;

/// A fresh token from the operating system's random source.
pub fn new_token() -> Result<String, String> {
    let mut bytes = [0u8; TOKEN_BYTES];
    getrandom::fill(&mut bytes).map_err(|e| format!("no random numbers from the system: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// What the server knows to judge a request by.
#[derive(Debug, Clone)]
pub struct Gate {
    pub token: String,
    pub port: u16,
}

/// The parts of a request the checks read.
#[derive(Debug, Clone, Copy)]
pub struct Asked<'a> {
    pub post: bool,
    /// The request target: `/TOKEN/page?query`.
    pub target: &'a str,
    pub host: Option<&'a str>,
    pub origin: Option<&'a str>,
    pub fetch_site: Option<&'a str>,
}

/// Why a request is refused, said to whoever sent it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    Token,
    Host,
    CrossOrigin,
}

impl Refusal {
    pub fn message(self) -> &'static str {
        match self {
            Refusal::Token => {
                "refused: the address lacks this server's token; open the address `agent-guard ui` printed"
            }
            Refusal::Host => "refused: the Host header names another server",
            Refusal::CrossOrigin => "refused: a change must come from this server's own pages",
        }
    }
}

impl Gate {
    /// The names this server answers to in `Host` and `Origin`.
    fn authorities(&self) -> [String; 2] {
        [
            format!("127.0.0.1:{}", self.port),
            format!("localhost:{}", self.port),
        ]
    }

    /// The page the request asks for (`/stops?rule=x`), or why it is refused.
    pub fn admit<'a>(&self, asked: &Asked<'a>) -> Result<&'a str, Refusal> {
        let authorities = self.authorities();
        let host_ok = asked
            .host
            .is_some_and(|h| authorities.iter().any(|a| a.eq_ignore_ascii_case(h.trim())));
        if !host_ok {
            return Err(Refusal::Host);
        }
        let page = asked
            .target
            .strip_prefix('/')
            .and_then(|rest| strip_token(rest, &self.token))
            .ok_or(Refusal::Token)?;
        if asked.post {
            let same_site = asked
                .fetch_site
                .is_none_or(|site| site.trim().eq_ignore_ascii_case("same-origin"));
            let origin_ok = asked.origin.is_some_and(|origin| {
                authorities
                    .iter()
                    .any(|a| origin.trim().eq_ignore_ascii_case(&format!("http://{a}")))
            });
            if !(same_site && origin_ok) {
                return Err(Refusal::CrossOrigin);
            }
        }
        Ok(if page.is_empty() { "/" } else { page })
    }
}

/// `rest` past the token and before the page (`TOKEN/stops` gives `/stops`), compared in
/// time that does not depend on where the first wrong character is.
fn strip_token<'a>(rest: &'a str, token: &str) -> Option<&'a str> {
    let end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (given, page) = rest.split_at(end);
    let same_length = given.len() == token.len();
    let differ = given
        .bytes()
        .zip(token.bytes())
        .fold(0u8, |acc, (a, b)| acc | (a ^ b));
    (same_length && differ == 0 && !token.is_empty()).then_some(page)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gate() -> Gate {
        Gate {
            token: "0123456789abcdef0123456789abcdef".into(),
            port: 4321,
        }
    }

    fn get(target: &str) -> Asked<'_> {
        Asked {
            post: false,
            target,
            host: Some("127.0.0.1:4321"),
            origin: None,
            fetch_site: None,
        }
    }

    #[test]
    fn tokens_are_long_and_differ() {
        let (a, b) = (new_token().unwrap(), new_token().unwrap());
        assert_eq!(a.len(), 32);
        assert_ne!(a, b);
    }

    #[test]
    fn the_token_opens_its_pages() {
        let g = gate();
        let t = "/0123456789abcdef0123456789abcdef";
        assert_eq!(g.admit(&get(t)), Ok("/"));
        assert_eq!(
            g.admit(&get(&format!("{t}/stops?rule=x"))),
            Ok("/stops?rule=x")
        );
        assert_eq!(g.admit(&get(&format!("{t}?a=b"))), Ok("?a=b"));
    }

    #[test]
    fn a_missing_or_wrong_token_is_refused() {
        let g = gate();
        for target in [
            "/",
            "/stops",
            "/0123456789abcdef0123456789abcdee/stops",
            "/0123456789abcdef0123456789abcdef0/stops",
            "/0123456789abcdef/stops",
            "0123456789abcdef0123456789abcdef/stops",
        ] {
            assert_eq!(g.admit(&get(target)), Err(Refusal::Token), "{target}");
        }
    }

    #[test]
    fn another_host_is_refused() {
        let g = gate();
        let target = "/0123456789abcdef0123456789abcdef/stops";
        for host in [
            None,
            Some("evil.example:4321"),
            Some("127.0.0.1:80"),
            Some("127.0.0.1"),
        ] {
            let asked = Asked {
                host,
                ..get(target)
            };
            assert_eq!(g.admit(&asked), Err(Refusal::Host), "{host:?}");
        }
        let asked = Asked {
            host: Some("localhost:4321"),
            ..get(target)
        };
        assert!(g.admit(&asked).is_ok());
    }

    #[test]
    fn a_write_must_come_from_the_page() {
        let g = gate();
        let target = "/0123456789abcdef0123456789abcdef/undo";
        let post = |origin, fetch_site| Asked {
            post: true,
            origin,
            fetch_site,
            ..get(target)
        };
        assert_eq!(
            g.admit(&post(Some("http://127.0.0.1:4321"), Some("same-origin"))),
            Ok("/undo")
        );
        assert_eq!(
            g.admit(&post(Some("http://localhost:4321"), None)),
            Ok("/undo")
        );
        for (origin, site) in [
            (None, None),
            (None, Some("same-origin")),
            (Some("http://evil.example"), None),
            (Some("null"), None),
            (Some("http://127.0.0.1:4322"), None),
            (Some("http://127.0.0.1:4321"), Some("cross-site")),
            (Some("http://127.0.0.1:4321"), Some("same-site")),
        ] {
            assert_eq!(
                g.admit(&post(origin, site)),
                Err(Refusal::CrossOrigin),
                "{origin:?} {site:?}"
            );
        }
    }
}
