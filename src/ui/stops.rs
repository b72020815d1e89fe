//! The Stops page: the audit log, newest first, filtered by rule, host, repository, decision
//! and age, with the report's charts of what is shown.

use std::collections::BTreeSet;
use std::time::SystemTime;

use super::form::{Form, encode};
use super::html::{esc, page as layout, select, table};
use super::{Ctx, Reply};
use crate::audit::{self, Record};
use crate::report;
use crate::units;

/// Rows shown at most; the count says how many matched.
const MAX_ROWS: usize = 1000;

pub(super) fn page(ctx: &Ctx, query: &Form) -> Reply {
    let title = "Stops";
    let Some(path) = audit::log_path() else {
        let body = format!(
            "<p class=\"bad\">No audit log: {}</p>",
            esc(&audit::why_no_log())
        );
        return Reply::ok(layout(&ctx.base, "/stops", title, &body));
    };
    let (records, bad) = match audit::read(&path) {
        Ok(read) => read,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => (Vec::new(), 0),
        Err(e) => {
            let body = format!(
                "<p class=\"bad\">Cannot read {}: {}</p>",
                esc(&path.display().to_string()),
                esc(&e.to_string())
            );
            return Reply::ok(layout(&ctx.base, "/stops", title, &body));
        }
    };
    let filter = Filter::from(query);
    let mut body = filter.form(&records);
    if let Some(problem) = &filter.problem {
        body.push_str(&format!("<p class=\"bad\">{}</p>", esc(problem)));
    }
    let matching: Vec<&Record> = records.iter().rev().filter(|r| filter.keeps(r)).collect();
    body.push_str(&format!(
        "<p id=\"count\">{} of {} records{}. Log: <code>{}</code>{}</p>",
        matching.len(),
        records.len(),
        if matching.len() > MAX_ROWS {
            format!(", the newest {MAX_ROWS} shown")
        } else {
            String::new()
        },
        esc(&path.display().to_string()),
        if bad > 0 {
            format!(" ({bad} unreadable lines skipped)")
        } else {
            String::new()
        }
    ));
    // The report's charts of the records shown, drawn by the report's own code.
    let summary = report::Summary::of(
        report::Scope {
            title: title.to_string(),
            about: String::new(),
            every_command: false,
        },
        matching.iter().map(|r| report::Entry::from(*r)).collect(),
    );
    match report::figures(&summary) {
        Ok(_) if matching.is_empty() => {}
        Ok(figures) => body.push_str(&figures),
        Err(why) => body.push_str(&format!("<p class=\"bad\">No charts: {}</p>", esc(&why))),
    }
    let rows: Vec<Vec<String>> = matching
        .iter()
        .take(MAX_ROWS)
        .map(|r| row(ctx, r))
        .collect();
    body.push_str(&table(
        "stops",
        &[
            "Time (UTC)",
            "Decision",
            "Rules",
            "Command",
            "Host",
            "Repository",
            "Snapshot",
        ],
        &rows,
    ));
    Reply::ok(layout(&ctx.base, "/stops", title, &body))
}

/// The filters a query asks for.
struct Filter<'a> {
    rule: Option<&'a str>,
    host: Option<&'a str>,
    repository: Option<&'a str>,
    decision: Option<&'a str>,
    since_text: Option<&'a str>,
    cutoff: Option<SystemTime>,
    problem: Option<String>,
}

impl<'a> Filter<'a> {
    fn from(query: &'a Form) -> Filter<'a> {
        let since_text = query.get("since");
        let mut problem = None;
        let cutoff = since_text.and_then(|text| match units::parse_duration(text) {
            Some(d) => SystemTime::now().checked_sub(d),
            None => {
                problem = Some(format!(
                    "{text:?} is not an age such as 30m, 12h, 7d or 2w; all times shown"
                ));
                None
            }
        });
        Filter {
            rule: query.get("rule"),
            host: query.get("host"),
            repository: query.get("repository"),
            decision: query.get("decision"),
            since_text,
            cutoff,
            problem,
        }
    }

    fn keeps(&self, r: &Record) -> bool {
        let is = |wanted: Option<&str>, have: Option<&str>| wanted.is_none_or(|w| have == Some(w));
        self.rule.is_none_or(|w| r.rules.iter().any(|id| id == w))
            && is(self.host, r.host.as_deref())
            && is(self.repository, r.repository.as_deref())
            && is(self.decision, Some(&r.decision))
            && self
                .cutoff
                .is_none_or(|cutoff| r.time().is_some_and(|t| t >= cutoff))
    }

    /// The filter form, its choices the values the log holds.
    fn form(&self, records: &[Record]) -> String {
        let choices = |values: &mut dyn Iterator<Item = &str>| -> Vec<String> {
            let set: BTreeSet<&str> = values.collect();
            set.into_iter().map(str::to_string).collect()
        };
        let rules = choices(
            &mut records
                .iter()
                .flat_map(|r| r.rules.iter().map(String::as_str)),
        );
        let hosts = choices(&mut records.iter().filter_map(|r| r.host.as_deref()));
        let repos = choices(&mut records.iter().filter_map(|r| r.repository.as_deref()));
        let decisions = choices(&mut records.iter().map(|r| r.decision.as_str()));
        format!(
            "<form class=\"bar\" method=\"get\" id=\"filter\">{}{}{}{}\
             <label>Within<input name=\"since\" id=\"since\" size=\"6\" placeholder=\"7d\" value=\"{}\"></label>\
             <button type=\"submit\" id=\"apply\">Filter</button></form>",
            select("rule", "Rule", &rules, self.rule),
            select("host", "Host", &hosts, self.host),
            select("repository", "Repository", &repos, self.repository),
            select("decision", "Decision", &decisions, self.decision),
            esc(self.since_text.unwrap_or_default()),
        )
    }
}

fn row(ctx: &Ctx, r: &Record) -> Vec<String> {
    let time = r.time.get(..19).unwrap_or(&r.time).replace('T', " ");
    let decision = match (&r.override_by, &r.would_be) {
        (Some(by), _) => format!("{} ({by})", r.decision),
        (None, Some(would)) => format!("{} (would {would})", r.decision),
        _ => r.decision.clone(),
    };
    let mut command = format!("<code>{}</code>", esc(&crate::policy::shorten(&r.command)));
    if let Some(error) = &r.error {
        command.push_str(&format!(
            "<br><span class=\"muted\">error: {}</span>",
            esc(error)
        ));
    }
    let snapshot = match (&r.snapshot, &r.repository) {
        (Some(reference), Some(repo)) => format!(
            "<a href=\"{}/snapshots?dir={}\">{}</a>",
            ctx.base,
            encode(repo),
            esc(reference.trim_start_matches(crate::snapshot::REF_PREFIX))
        ),
        (Some(reference), None) => esc(reference.trim_start_matches(crate::snapshot::REF_PREFIX)),
        (None, _) => String::new(),
    };
    vec![
        esc(&time),
        format!(
            "<span class=\"d-{0}\">{1}</span>",
            esc(&r.decision),
            esc(&decision)
        ),
        esc(&r.rules.join(", ")),
        command,
        esc(r.host.as_deref().unwrap_or_default()),
        esc(r.repository.as_deref().unwrap_or_default()),
        snapshot,
    ]
}
