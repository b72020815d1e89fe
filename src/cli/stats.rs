//! `agent-guard stats`: how often the guard stepped in, by rule, decision and repository.

use std::collections::BTreeMap;
use std::process::ExitCode;
use std::time::Duration;

use serde_json::json;

use crate::audit::Record;

#[derive(clap::Args)]
pub struct Args {
    /// Only records from the last DURATION: `30m`, `12h`, `7d`, `2w`.
    #[arg(long, value_name = "DURATION", value_parser = super::log::duration)]
    since: Option<Duration>,
    /// Print one JSON object: {"records", "by_decision", "by_rule", "by_tool",
    /// "by_repository"}.
    #[arg(long)]
    json: bool,
}

/// Counts, most frequent first (ties by name).
struct Counts(BTreeMap<String, usize>);

impl Counts {
    fn of<'a>(keys: impl Iterator<Item = &'a str>) -> Counts {
        let mut map = BTreeMap::new();
        for key in keys {
            *map.entry(key.to_string()).or_insert(0) += 1;
        }
        Counts(map)
    }

    fn sorted(&self) -> Vec<(&str, usize)> {
        let mut rows: Vec<(&str, usize)> = self.0.iter().map(|(k, n)| (k.as_str(), *n)).collect();
        rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        rows
    }
}

pub fn run(args: &Args) -> ExitCode {
    let records = match super::log::records(args.since) {
        Ok(records) => records,
        Err(code) => return code,
    };
    let by_decision = Counts::of(records.iter().map(|r| r.decision.as_str()));
    let by_rule = Counts::of(
        records
            .iter()
            .flat_map(|r| r.rules.iter().map(String::as_str)),
    );
    let by_tool = Counts::of(
        records
            .iter()
            .filter_map(|r| crate::tools::shown_tool(&r.command)),
    );
    let by_repository = Counts::of(records.iter().map(repository));
    if args.json {
        let object = |c: &Counts| json!(c.0);
        println!(
            "{}",
            json!({
                "records": records.len(),
                "by_decision": object(&by_decision),
                "by_rule": object(&by_rule),
                "by_tool": object(&by_tool),
                "by_repository": object(&by_repository),
            })
        );
        return ExitCode::SUCCESS;
    }
    println!("{} record(s)", records.len());
    for (title, counts) in [
        ("by decision", &by_decision),
        ("by rule", &by_rule),
        ("by MCP server/tool and file tool", &by_tool),
        ("by repository", &by_repository),
    ] {
        if counts.0.is_empty() && std::ptr::eq(counts, &by_tool) {
            continue;
        }
        println!("\n{title}:");
        for (key, n) in counts.sorted() {
            println!("  {n:>6}  {key}");
        }
    }
    ExitCode::SUCCESS
}

/// The repository a record is about; its folder when it ran outside one.
fn repository(r: &Record) -> &str {
    r.repository
        .as_deref()
        .or(r.cwd.as_deref())
        .unwrap_or("(unknown)")
}
