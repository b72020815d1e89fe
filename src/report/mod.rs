//! A report of what the guard did or would do, for people: a page from a set of entries,
//! as text for a terminal or as one self-contained HTML page with SVG charts.
//!
//! The module knows nothing of where entries come from (the audit log, a replay of past
//! sessions, a local page): its caller turns its own records into [`Entry`] values, with the
//! reason and safe twin already filled in, and asks for [`text`] or [`html`] of the
//! [`Summary`] they make.

mod charts;
mod html;
mod text;

use std::collections::BTreeMap;

pub use html::{figures, html};
pub use text::text;

/// One command the guard judged, as the report shows it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Entry {
    /// UTC, `2026-01-02T03:04:05.678Z`, when known; its first ten characters are the day.
    pub time: Option<String>,
    /// `deny`, `ask`, `override`, `observe`, `error`, `undo` or `allow`.
    pub decision: String,
    pub rules: Vec<String>,
    pub host: Option<String>,
    pub repository: Option<String>,
    pub session: Option<String>,
    pub command: String,
    /// What running the command would destroy, one phrase a finding.
    pub reasons: Vec<String>,
    /// The command to run instead, when the rules name one.
    pub safer: Option<String>,
    /// The guard's own error, for an `error` entry.
    pub error: Option<String>,
}

impl Entry {
    /// Whether the guard stopped the command (or asked the user first).
    pub fn stopped(&self) -> bool {
        matches!(self.decision.as_str(), "deny" | "ask")
    }

    fn day(&self) -> Option<&str> {
        self.time.as_deref().and_then(|t| t.get(..10))
    }
}

/// The decisions in the order every table and chart lists them.
pub const DECISIONS: [&str; 7] = [
    "deny", "ask", "override", "observe", "undo", "error", "allow",
];

/// What the page is about, in the words its title and first line use.
#[derive(Debug, Clone, PartialEq)]
pub struct Scope {
    /// `agent-guard report`, `agent-guard replay`.
    pub title: String,
    /// One line on where the entries came from and what was left out.
    pub about: String,
    /// Whether every command judged is an entry (a replay), so that the share stopped means
    /// something; the audit log holds only the commands the guard stepped in on.
    pub every_command: bool,
}

/// Counts, most frequent first (ties by name).
pub type Counts = Vec<(String, usize)>;

/// Everything the page shows, counted once.
#[derive(Debug, Clone)]
pub struct Summary {
    pub scope: Scope,
    pub entries: Vec<Entry>,
    /// Per day, oldest first: each decision's count in [`DECISIONS`] order.
    pub by_day: Vec<(String, [usize; DECISIONS.len()])>,
    pub by_decision: Counts,
    /// Rules of the stopped, asked, overridden and observed entries.
    pub by_rule: Counts,
    pub by_host: Counts,
    pub by_repository: Counts,
    /// Per session: (session, commands, stopped), most stopped first.
    pub by_session: Vec<(String, usize, usize)>,
    /// The commands stopped most, by their first line.
    pub stopped_most: Counts,
}

/// How many rows a "most" table keeps.
const TOP: usize = 15;

impl Summary {
    pub fn of(scope: Scope, entries: Vec<Entry>) -> Summary {
        let mut by_day: BTreeMap<String, [usize; DECISIONS.len()]> = BTreeMap::new();
        for e in &entries {
            let (Some(day), Some(at)) = (e.day(), DECISIONS.iter().position(|d| *d == e.decision))
            else {
                continue;
            };
            if let Some(n) = by_day.entry(day.to_string()).or_default().get_mut(at) {
                *n += 1;
            }
        }
        let judged = entries.iter().filter(|e| e.decision != "allow");
        let unknown = |v: &Option<String>| v.clone().unwrap_or_else(|| "(unknown)".to_string());
        let by_session = sessions(&entries);
        Summary {
            by_decision: count(entries.iter().map(|e| e.decision.clone())),
            by_rule: count(
                judged
                    .clone()
                    .filter(|e| e.decision != "error" && e.decision != "undo")
                    .flat_map(|e| dedup(&e.rules)),
            ),
            by_host: count(judged.clone().map(|e| unknown(&e.host))),
            by_repository: count(judged.map(|e| unknown(&e.repository))),
            by_session,
            stopped_most: count(
                entries
                    .iter()
                    .filter(|e| e.stopped())
                    .map(|e| first_line(&e.command, 100)),
            )
            .into_iter()
            .take(TOP)
            .collect(),
            by_day: by_day.into_iter().collect(),
            scope,
            entries,
        }
    }

    pub fn stops(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter().filter(|e| e.stopped())
    }

    pub fn stopped(&self) -> usize {
        self.stops().count()
    }

    /// The share of commands stopped, in percent, when every command judged is an entry.
    pub fn share(&self) -> Option<f64> {
        (self.scope.every_command && !self.entries.is_empty())
            .then(|| 100.0 * self.stopped() as f64 / self.entries.len() as f64)
    }
}

fn dedup(rules: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for rule in rules {
        if !out.contains(rule) {
            out.push(rule.clone());
        }
    }
    out
}

fn count(keys: impl Iterator<Item = String>) -> Counts {
    let mut map: BTreeMap<String, usize> = BTreeMap::new();
    for key in keys {
        *map.entry(key).or_default() += 1;
    }
    let mut rows: Counts = map.into_iter().collect();
    rows.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    rows
}

fn sessions(entries: &[Entry]) -> Vec<(String, usize, usize)> {
    let mut map: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for e in entries {
        let Some(session) = e.session.as_deref() else {
            continue;
        };
        let row = map.entry(session).or_default();
        row.0 += 1;
        row.1 += usize::from(e.stopped());
    }
    let mut rows: Vec<(String, usize, usize)> = map
        .into_iter()
        .map(|(s, (n, stopped))| (s.to_string(), n, stopped))
        .collect();
    rows.sort_by(|a, b| b.2.cmp(&a.2).then(b.1.cmp(&a.1)).then(a.0.cmp(&b.0)));
    rows
}

/// The first line of `command`, cut to `max` characters, with `…` when anything was left out.
pub fn first_line(command: &str, max: usize) -> String {
    let trimmed = command.trim();
    let first = trimmed.lines().next().unwrap_or("");
    let mut out: String = first.chars().take(max).collect();
    if first.len() < trimmed.len() || first.chars().count() > max {
        out.push_str(" …");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(time: &str, decision: &str, rule: &str, command: &str) -> Entry {
        Entry {
            time: Some(time.to_string()),
            decision: decision.to_string(),
            rules: vec![rule.to_string()],
            session: Some("s1".to_string()),
            command: command.to_string(),
            ..Entry::default()
        }
    }

    fn scope(every_command: bool) -> Scope {
        Scope {
            title: "t".into(),
            about: "a".into(),
            every_command,
        }
    }

    #[test]
    fn counts_by_day_rule_and_command() {
        let summary = Summary::of(
            scope(false),
            vec![
                entry(
                    "2026-01-01T00:00:00Z",
                    "deny",
                    "git.reset-hard",
                    "git reset --hard",
                ),
                entry(
                    "2026-01-01T01:00:00Z",
                    "deny",
                    "git.reset-hard",
                    "git reset --hard",
                ),
                entry("2026-01-02T00:00:00Z", "ask", "git.clean", "git clean -fd"),
                entry("2026-01-02T00:00:00Z", "error", "", "x"),
            ],
        );
        assert_eq!(summary.by_day.len(), 2);
        assert_eq!(summary.by_day[0].1[0], 2);
        assert_eq!(summary.by_day[1].1[1], 1);
        assert_eq!(summary.by_rule[0], ("git.reset-hard".to_string(), 2));
        assert_eq!(summary.by_rule.len(), 2);
        assert_eq!(summary.stopped_most[0], ("git reset --hard".to_string(), 2));
        assert_eq!(summary.stopped(), 3);
        assert_eq!(summary.share(), None);
        assert_eq!(summary.by_session, [("s1".to_string(), 4, 3)]);
    }

    #[test]
    fn the_share_needs_every_command() {
        let entries = vec![
            entry(
                "2026-01-01T00:00:00Z",
                "deny",
                "git.reset-hard",
                "git reset --hard",
            ),
            entry("2026-01-01T00:00:00Z", "allow", "", "ls"),
        ];
        assert_eq!(Summary::of(scope(true), entries).share(), Some(50.0));
    }

    #[test]
    fn first_lines_say_when_they_were_cut() {
        assert_eq!(first_line("  ls\n", 10), "ls");
        assert_eq!(first_line("cat <<EOF\nx\nEOF", 10), "cat <<EOF …");
        assert_eq!(first_line("abcdef", 3), "abc …");
    }
}
