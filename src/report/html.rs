//! The report as one HTML page: inline CSS, charts as inline SVG, no script and no file or
//! address outside it, so it can be mailed, archived or opened offline. The markup is also
//! well-formed XML, which lets tests read it with an XML parser.

use std::fmt::Write;

use super::{Counts, Entry, Summary, charts, first_line};

/// How many rows a bar chart shows.
const CHART_ROWS: usize = 15;
/// Most characters of one command the page prints.
const COMMAND_CHARS: usize = 2000;

const STYLE: &str = "\
body{font-family:sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}\
h1{font-size:1.6rem;margin-bottom:.2rem}\
.about{color:#555;margin-top:0}\
.headline{font-size:1.15rem}\
figure{margin:1.5rem 0}\
svg{max-width:100%;height:auto}\
table{border-collapse:collapse;margin:.5rem 0 1.5rem}\
td,th{padding:.2rem .8rem;border-bottom:1px solid #ddd;text-align:left}\
td.n{text-align:right;font-variant-numeric:tabular-nums}\
ol.stops{padding-left:1.5rem}\
li.stop{margin-bottom:1.2rem}\
.meta{color:#555;font-size:.9rem}\
.decision{font-weight:bold;text-transform:uppercase}\
pre{background:#f5f5f5;padding:.5rem;white-space:pre-wrap;word-break:break-all;margin:.3rem 0}\
code{background:#eef5ee;padding:0 .2rem}\
footer{color:#777;font-size:.85rem;margin-top:3rem}";

/// The whole page, or why a chart could not be drawn.
pub fn html(summary: &Summary) -> Result<String, String> {
    let mut out = String::new();
    let title = escape(&summary.scope.title);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n\
         <title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{title}</h1>\n\
         <p class=\"about\">{}</p>\n<p class=\"headline\">{}</p>\n",
        escape(&summary.scope.about),
        escape(&super::text::headline(summary)),
    );
    out.push_str(&figures(summary)?);
    if summary.scope.every_command && !summary.by_session.is_empty() {
        sessions(&mut out, summary);
    }
    if !summary.stopped_most.is_empty() {
        out.push_str("<section id=\"stopped-most\">\n<h2>Stopped most</h2>\n");
        table(&mut out, "Command", &summary.stopped_most, true);
        out.push_str("</section>\n");
    }
    stops(&mut out, summary);
    let _ = write!(
        out,
        "<footer>Made by agent-guard {}. This page runs no script and loads nothing from \
         outside itself.</footer>\n</body>\n</html>\n",
        env!("CARGO_PKG_VERSION")
    );
    Ok(out)
}

/// The charts of `summary` as one `<section id="charts">`, for this page and any other that
/// shows a set of entries.
pub fn figures(summary: &Summary) -> Result<String, String> {
    let mut out = String::new();
    out.push_str("<section id=\"charts\">\n");
    if !summary.by_day.is_empty() {
        figure(&mut out, "by-day", &charts::by_day(&summary.by_day)?);
    }
    let stopped_by_session: Counts = summary
        .by_session
        .iter()
        .filter(|row| row.2 > 0)
        .map(|(session, _, stopped)| (session.clone(), *stopped))
        .collect();
    for (id, title, counts) in [
        ("by-decision", "By decision", &summary.by_decision),
        ("by-rule", "By rule", &summary.by_rule),
        ("by-host", "By host", &summary.by_host),
        ("by-repository", "By repository", &summary.by_repository),
        ("by-session", "Stopped, by session", &stopped_by_session),
    ] {
        if counts.is_empty() || (id == "by-session" && summary.by_session.len() < 2) {
            continue;
        }
        // One host or one repository is a fact, not a comparison: a line says it.
        if let ([(only, n)], "by-host" | "by-repository") = (counts.as_slice(), id) {
            let _ = writeln!(
                out,
                "<p id=\"{id}\">{}: {} ({n})</p>",
                escape(title),
                escape(only)
            );
            continue;
        }
        let rows: Vec<(String, usize)> = counts.iter().take(CHART_ROWS).cloned().collect();
        figure(&mut out, id, &charts::bars(title, &rows)?);
    }
    out.push_str("</section>\n");
    Ok(out)
}

fn figure(out: &mut String, id: &str, svg: &str) {
    let _ = write!(out, "<figure id=\"{id}\">\n{}</figure>\n", svg.trim_end());
    out.push('\n');
}

fn table(out: &mut String, key: &str, counts: &Counts, code: bool) {
    let _ = write!(
        out,
        "<table>\n<tr><th>{}</th><th>Count</th></tr>\n",
        escape(key)
    );
    for (key, n) in counts {
        let key = if code {
            format!("<code>{}</code>", escape(key))
        } else {
            escape(key)
        };
        let _ = writeln!(out, "<tr><td>{key}</td><td class=\"n\">{n}</td></tr>");
    }
    out.push_str("</table>\n");
}

fn sessions(out: &mut String, summary: &Summary) {
    out.push_str(
        "<section id=\"sessions\">\n<h2>By session</h2>\n<table>\n\
         <tr><th>Session</th><th>Commands</th><th>Stopped</th><th>Share</th></tr>\n",
    );
    for (session, n, stopped) in &summary.by_session {
        let share = if *n == 0 {
            0.0
        } else {
            100.0 * *stopped as f64 / *n as f64
        };
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td class=\"n\">{n}</td><td class=\"n\">{stopped}</td>\
             <td class=\"n\">{share:.2}%</td></tr>",
            escape(session)
        );
    }
    out.push_str("</table>\n</section>\n");
}

fn stops(out: &mut String, summary: &Summary) {
    let _ = writeln!(
        out,
        "<section id=\"stops\">\n<h2>Stops ({})</h2>",
        summary.stopped()
    );
    if summary.stopped() == 0 {
        out.push_str("<p>None.</p>\n</section>\n");
        return;
    }
    out.push_str("<ol class=\"stops\">\n");
    for e in summary.stops() {
        stop(out, e);
    }
    out.push_str("</ol>\n</section>\n");
}

fn stop(out: &mut String, e: &Entry) {
    let mut meta = vec![format!(
        "<span class=\"decision\">{}</span>",
        escape(&e.decision)
    )];
    if let Some(time) = e.time.as_deref().and_then(|t| t.get(..19)) {
        meta.push(escape(&format!("{}Z", time.replace('T', " "))));
    }
    meta.push(format!(
        "<span class=\"rules\">{}</span>",
        escape(&e.rules.join(", "))
    ));
    for about in [&e.host, &e.repository, &e.session].into_iter().flatten() {
        meta.push(escape(about));
    }
    let _ = write!(
        out,
        "<li class=\"stop\">\n<div class=\"meta\">{}</div>\n<pre class=\"command\">{}</pre>\n",
        meta.join(" · "),
        escape(&clip(&e.command))
    );
    if !e.reasons.is_empty() {
        let _ = writeln!(
            out,
            "<p class=\"reason\">Loses: {}</p>",
            escape(&e.reasons.join("; "))
        );
    }
    if let Some(safer) = &e.safer {
        let _ = writeln!(
            out,
            "<p class=\"safer\">Instead: {}</p>",
            advice(&first_line(safer, COMMAND_CHARS))
        );
    }
    out.push_str("</li>\n");
}

/// A safe twin as markup: a bare command is code; advice in words keeps its `quoted`
/// commands as code.
fn advice(text: &str) -> String {
    if !text.contains('`') {
        return format!("<code>{}</code>", escape(text));
    }
    text.split('`')
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                format!("<code>{}</code>", escape(part))
            } else {
                escape(part)
            }
        })
        .collect()
}

fn clip(command: &str) -> String {
    let n = command.chars().count();
    if n <= COMMAND_CHARS {
        return command.to_string();
    }
    let kept: String = command.chars().take(COMMAND_CHARS).collect();
    format!("{kept}… ({n} characters)")
}

/// Text for HTML content or a quoted attribute.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Control characters other than line breaks and tabs are not allowed in XML.
            c if c.is_control() && c != '\n' && c != '\t' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Scope;

    #[test]
    fn escapes_markup_and_control_characters() {
        assert_eq!(
            escape("<a href='x'>&\u{1b}"),
            "&lt;a href=&#39;x&#39;&gt;&amp;\u{fffd}"
        );
    }

    #[test]
    fn advice_keeps_its_quoted_commands_as_code() {
        assert_eq!(advice("git stash"), "<code>git stash</code>");
        assert_eq!(
            advice("`git clean -n` lists <them>"),
            "<code>git clean -n</code> lists &lt;them&gt;"
        );
    }

    #[test]
    fn a_page_without_stops_says_so() {
        let summary = Summary::of(
            Scope {
                title: "agent-guard report".into(),
                about: "nothing".into(),
                every_command: false,
            },
            Vec::new(),
        );
        let page = html(&summary).unwrap();
        assert!(page.contains("<p>None.</p>"));
        assert!(!page.contains("<script"));
    }
}
