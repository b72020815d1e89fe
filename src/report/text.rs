//! The report as plain text, for a terminal or a README.

use std::fmt::Write;

use super::{Counts, DECISIONS, Summary, first_line};

/// How many characters of a command a stop's line shows.
const COMMAND_WIDTH: usize = 120;

pub fn text(summary: &Summary) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}: {}", summary.scope.title, summary.scope.about);
    let _ = writeln!(out, "{}", headline(summary));
    if !summary.by_day.is_empty() {
        by_day(&mut out, summary);
    }
    for (title, counts) in [
        ("By decision", &summary.by_decision),
        ("By rule", &summary.by_rule),
        ("By host", &summary.by_host),
        ("By repository", &summary.by_repository),
        ("Stopped most", &summary.stopped_most),
    ] {
        table(&mut out, title, counts);
    }
    if summary.by_session.len() > 1 || summary.scope.every_command {
        let _ = writeln!(out, "\nBy session (stopped / commands):");
        for (session, n, stopped) in summary.by_session.iter().filter(|row| row.2 > 0) {
            let _ = writeln!(out, "  {stopped:>6} / {n:<6} {session}");
        }
    }
    stops(&mut out, summary);
    out
}

/// `12 commands stopped (0.47% of 2,549 judged)` or `12 stops, 3 asks ... in 20 records`.
pub(super) fn headline(summary: &Summary) -> String {
    let stopped = summary.stopped();
    match summary.share() {
        Some(share) => format!(
            "{stopped} of {} commands would have been stopped ({share:.2}%), in {} of {} sessions.",
            summary.entries.len(),
            summary.by_session.iter().filter(|row| row.2 > 0).count(),
            summary.by_session.len(),
        ),
        None => format!(
            "{} records: {stopped} stopped (denied or asked).",
            summary.entries.len()
        ),
    }
}

fn by_day(out: &mut String, summary: &Summary) {
    let used: Vec<usize> = (0..DECISIONS.len())
        .filter(|&at| {
            summary
                .by_day
                .iter()
                .any(|(_, n)| n.get(at).is_some_and(|n| *n > 0))
        })
        .collect();
    let _ = write!(out, "\nBy day:\n  {:<10}", "");
    for &at in &used {
        let _ = write!(out, "  {:>8}", DECISIONS.get(at).unwrap_or(&""));
    }
    out.push('\n');
    for (day, counts) in &summary.by_day {
        let _ = write!(out, "  {day:<10}");
        for &at in &used {
            let _ = write!(out, "  {:>8}", counts.get(at).unwrap_or(&0));
        }
        out.push('\n');
    }
}

fn table(out: &mut String, title: &str, counts: &Counts) {
    if counts.is_empty() {
        return;
    }
    let _ = writeln!(out, "\n{title}:");
    for (key, n) in counts {
        let _ = writeln!(out, "  {n:>6}  {key}");
    }
}

fn stops(out: &mut String, summary: &Summary) {
    if summary.stopped() == 0 {
        return;
    }
    let _ = writeln!(out, "\nStops:");
    for e in summary.stops() {
        let when = e
            .time
            .as_deref()
            .and_then(|t| t.get(..19))
            .map(|t| format!("{}Z  ", t.replace('T', " ")))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "  {when}{} [{}]  {}",
            e.decision,
            e.rules.join(","),
            first_line(&e.command, COMMAND_WIDTH)
        );
        if !e.reasons.is_empty() {
            let _ = writeln!(out, "      loses:   {}", e.reasons.join("; "));
        }
        if let Some(safer) = &e.safer {
            let _ = writeln!(out, "      instead: {}", first_line(safer, COMMAND_WIDTH));
        }
    }
}
