//! The few pieces of HTML every page is made of. No script runs in the pages: filters are
//! forms, and the undo asks for its confirmation on a page of its own.

use std::fmt::Write;

/// Escapes text for an element's content or a quoted attribute.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The pages, in the order of the menu: (path, title).
pub const PAGES: &[(&str, &str)] = &[
    ("/stops", "Stops"),
    ("/replay", "Replay"),
    ("/snapshots", "Snapshots"),
    ("/policy", "Policy"),
];

const STYLE: &str = "body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1d2329;background:#f6f7f9}\
header{background:#1f2933;color:#fff;padding:.6em 1.2em;display:flex;gap:1.4em;align-items:center}\
header b{font-size:1.1em}header a{color:#cfd8e3;text-decoration:none}header a.on{color:#fff;border-bottom:2px solid #f0b429}\
main{padding:1em 1.4em;max-width:1300px}table{border-collapse:collapse;width:100%;background:#fff}\
th,td{border:1px solid #d9dee4;padding:.3em .5em;text-align:left;vertical-align:top}th{background:#eef1f4}\
code,textarea{font-family:ui-monospace,monospace;font-size:13px}textarea{width:100%;box-sizing:border-box}\
form.bar{display:flex;flex-wrap:wrap;gap:.6em;align-items:end;margin:.6em 0 1em}form.bar label{display:flex;flex-direction:column;font-size:.85em}\
.note{background:#fff8e1;border:1px solid #f0b429;padding:.5em .8em;margin:.6em 0}\
.bad{background:#fdecea;border:1px solid #d64545;padding:.5em .8em;margin:.6em 0}\
.good{background:#e6f6ec;border:1px solid #2f9e5a;padding:.5em .8em;margin:.6em 0}\
.d-deny{color:#b42318;font-weight:600}.d-ask{color:#b54708;font-weight:600}.muted{color:#66707a}\
section{background:#fff;border:1px solid #d9dee4;padding:.6em 1em;margin:1em 0}\
#charts{display:flex;flex-wrap:wrap;gap:1em}#charts figure{margin:0;flex:1 1 40%}svg{max-width:100%;height:auto}";

/// A whole page: the menu with `current` marked, then `body`.
pub fn page(base: &str, current: &str, title: &str, body: &str) -> String {
    let mut menu = String::new();
    for (path, name) in PAGES {
        let class = if *path == current {
            " class=\"on\""
        } else {
            ""
        };
        let _ = write!(menu, "<a{class} href=\"{base}{path}\">{name}</a>");
    }
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"referrer\" content=\"same-origin\">\
         <title>{title} · agent-guard</title><style>{STYLE}</style></head>\
         <body><header><b>agent-guard</b>{menu}</header><main><h1>{title}</h1>{body}</main></body></html>",
        title = esc(title)
    )
}

/// A `<select>` of `choices` with an "any" first entry, `chosen` selected.
pub fn select(name: &str, label: &str, choices: &[String], chosen: Option<&str>) -> String {
    let mut out = format!(
        "<label>{label}<select name=\"{name}\" id=\"{name}\"><option value=\"\">any</option>"
    );
    for choice in choices {
        let on = if Some(choice.as_str()) == chosen {
            " selected"
        } else {
            ""
        };
        let _ = write!(out, "<option{on} value=\"{0}\">{0}</option>", esc(choice));
    }
    out.push_str("</select></label>");
    out
}

/// A table with a header row; cells are HTML already.
pub fn table(id: &str, head: &[&str], rows: &[Vec<String>]) -> String {
    let mut out = format!("<table id=\"{id}\"><thead><tr>");
    for h in head {
        let _ = write!(out, "<th>{h}</th>");
    }
    out.push_str("</tr></thead><tbody>");
    for row in rows {
        out.push_str("<tr>");
        for cell in row {
            let _ = write!(out, "<td>{cell}</td>");
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_cannot_open_markup() {
        assert_eq!(
            esc("<a href=\"x\">'&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
    }

    #[test]
    fn a_page_marks_where_it_is() {
        let html = page("/t", "/replay", "Replay <x>", "<p>hi</p>");
        assert!(html.contains("<a class=\"on\" href=\"/t/replay\">Replay</a>"));
        assert!(html.contains("<h1>Replay &lt;x&gt;</h1><p>hi</p>"));
    }
}
