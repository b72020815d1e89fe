//! Query strings and form bodies (`application/x-www-form-urlencoded`): the only input the
//! pages take.

/// The fields of a query string or form body, in order; a name may repeat.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Form(Vec<(String, String)>);

impl Form {
    pub fn parse(text: &str) -> Form {
        Form(
            text.split('&')
                .filter(|pair| !pair.is_empty())
                .map(|pair| {
                    let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
                    (decode(name), decode(value))
                })
                .collect(),
        )
    }

    /// The first value of `name`, trimmed; `None` when absent or blank.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.trim())
            .filter(|v| !v.is_empty())
    }

    /// The first value of `name` as sent, blank or not.
    pub fn raw(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Undoes percent-encoding and `+` for a space; a broken escape is kept as written.
fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while let Some(&b) = bytes.get(at) {
        match b {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = bytes
                    .get(at + 1..at + 3)
                    .and_then(|h| u8::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok());
                if let Some(byte) = hex {
                    out.push(byte);
                    at += 3;
                    continue;
                }
                out.push(b'%');
            }
            other => out.push(other),
        }
        at += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Percent-encodes `text` for a query string.
pub fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~' | b'/') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_decode() {
        let f = Form::parse("rule=git.reset-hard&text=a+b%0Ac%3D1&empty=&bad=%zz&rule=second");
        assert_eq!(f.get("rule"), Some("git.reset-hard"));
        assert_eq!(f.raw("text"), Some("a b\nc=1"));
        assert_eq!(f.get("empty"), None);
        assert_eq!(f.raw("empty"), Some(""));
        assert_eq!(f.get("bad"), Some("%zz"));
        assert_eq!(f.get("missing"), None);
    }

    #[test]
    fn encoding_round_trips() {
        let text = "/home/a b/ü&x=1";
        assert_eq!(
            Form::parse(&format!("p={}", encode(text))).get("p"),
            Some(text)
        );
    }
}
