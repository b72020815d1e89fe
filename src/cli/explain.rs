//! `agent-guard explain [RULE]`: the rule's documentation page, or the list of rules;
//! `agent-guard explain --packs`: the packs and whether each is on here.

use std::process::ExitCode;

use crate::rules::packs;
use crate::team::{Stop, TeamRule};
use crate::{docs, rules};

pub fn run(rule: Option<&str>, list_packs: bool) -> ExitCode {
    if list_packs {
        return show_packs();
    }
    let Some(id) = rule else {
        for rule in rules::all() {
            let profile = if rule.strict_only { " (strict)" } else { "" };
            println!("{:<28} {}{profile}", rule.id, first_sentence(rule.catches));
        }
        let loaded = crate::config::load(None);
        for rule in &loaded.settings.team.rules {
            let what = format!("`{} = \"{}\"`", rule.pattern.key(), rule.pattern.text());
            println!("{:<28} {what} ({})", rule.id, rule.stop.as_str());
        }
        return ExitCode::SUCCESS;
    };
    if let Some(rule) = rules::by_id(id) {
        print!("{}", docs::page(rule));
        if rule.id == "mcp.destructive-tool" {
            println!("\nThe MCP tools it knows:\n");
            for (tool, servers, loses) in rules::mcp_catalog() {
                let on = match servers {
                    [] => "any server".to_string(),
                    named => format!("a server named {}", named.join(" or ")),
                };
                println!("- `{tool}` ({on}): {loses}");
            }
        }
        return ExitCode::SUCCESS;
    }
    let loaded = crate::config::load(None);
    match loaded.settings.team.by_id(id) {
        Some(rule) => {
            print!("{}", team_page(rule));
            ExitCode::SUCCESS
        }
        None if id.starts_with("team.") => {
            for problem in &loaded.problems {
                eprintln!("{problem}");
            }
            eprintln!(
                "agent-guard: no team rule {id:?} in the configuration here; `agent-guard config` lists them"
            );
            ExitCode::from(2)
        }
        None => {
            eprintln!("agent-guard: no rule {id:?}; `agent-guard explain` lists them");
            ExitCode::from(2)
        }
    }
}

fn show_packs() -> ExitCode {
    let loaded = crate::config::load(None);
    for problem in &loaded.problems {
        eprintln!("{problem}");
    }
    for pack in packs::PACKS {
        let state = if packs::enabled(pack, &loaded.settings) {
            "on"
        } else {
            "off"
        };
        let ids: Vec<&str> = pack.rules.iter().map(|r| r.id).collect();
        println!("{:<12} {state:<4} {}", pack.id, pack.summary);
        println!("{:<17}{}", "", ids.join(", "));
    }
    ExitCode::SUCCESS
}

/// A team rule as `explain` shows it: what it matches, where it is declared, and why.
fn team_page(rule: &TeamRule) -> String {
    let what = match rule.stop {
        Stop::Deny => "deny: an agent never runs it; no override or exception lifts it",
        Stop::Ask => "ask: the person decides, whatever `on_destructive` says",
    };
    let matches = match rule.pattern.key() {
        "path" => {
            "no delete, overwrite or move by an agent may touch these paths, however it is spelled"
        }
        _ => {
            "the words of any command the guard finds: in the line, inside `sh -c`, `ssh`, containers, recipes and interpreter code"
        }
    };
    format!(
        "# {}\n\n{} = \"{}\"\n  {matches}\n\nDeclared at {} ([[{}]]).\nStops with: {what}.\nWhy: {}\n",
        rule.id,
        rule.pattern.key(),
        rule.pattern.text(),
        rule.origin(),
        rule.stop.as_str(),
        rule.reason
    )
}

fn first_sentence(text: &str) -> String {
    let one_line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match one_line.char_indices().nth(90) {
        Some((at, _)) => format!("{}…", &one_line[..at]),
        None => one_line,
    }
}
