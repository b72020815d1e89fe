//! Runs a file of real-world commands through the rules (context off) and lists every one
//! that would be stopped, with its rule ids, then a count per rule.
//!
//! A guard that stops ordinary commands gets switched off, so every line this prints should
//! be a command that really destroys work.
//!
//!     cargo run --release --example stops -- commands.jsonl [--profile strict]
//!
//! Input: one JSON object a line with a `command` string (other keys are ignored), or plain
//! text with one command a line.

use std::collections::BTreeMap;
use std::process::ExitCode;

use agent_guard::policy::Decision;
use agent_guard::settings::{Profile, Settings};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: stops FILE [--profile standard|strict]");
        return ExitCode::from(2);
    };
    let profile = match args
        .iter()
        .position(|a| a == "--profile")
        .and_then(|i| args.get(i + 1))
    {
        Some(p) => match Profile::parse(p) {
            Some(p) => p,
            None => {
                eprintln!("stops: unknown profile {p:?}");
                return ExitCode::from(2);
            }
        },
        None => Profile::Standard,
    };
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("stops: {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let settings = Settings {
        profile,
        context: false,
        ..Settings::default()
    };
    let mut per_rule: BTreeMap<&str, usize> = BTreeMap::new();
    let (mut total, mut stopped) = (0usize, 0usize);
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let command = match serde_json::from_str::<serde_json::Value>(line) {
            Ok(v) => match v.get("command").and_then(|c| c.as_str()) {
                Some(c) => c.to_string(),
                None => continue,
            },
            Err(_) => line.to_string(),
        };
        total += 1;
        let verdict = agent_guard::evaluate(&command, &settings);
        if verdict.decision == Decision::Allow {
            continue;
        }
        stopped += 1;
        let ids: Vec<&str> = verdict.findings.iter().map(|f| f.rule.id).collect();
        for id in &ids {
            *per_rule.entry(id).or_default() += 1;
        }
        println!("{}\t{}", ids.join(","), command.replace('\n', "\\n"));
    }
    println!(
        "\n{stopped} of {total} commands stopped ({:.2}%)",
        100.0 * stopped as f64 / total.max(1) as f64
    );
    for (id, n) in per_rule {
        println!("{n:>6}  {id}");
    }
    ExitCode::SUCCESS
}
