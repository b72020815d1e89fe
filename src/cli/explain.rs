//! `agent-guard explain [RULE]`: the rule's documentation page, or the list of rules;
//! `agent-guard explain --packs`: the packs and whether each is on here.

use std::process::ExitCode;

use crate::rules::packs;
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
        return ExitCode::SUCCESS;
    };
    match rules::by_id(id) {
        Some(rule) => {
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
            ExitCode::SUCCESS
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

fn first_sentence(text: &str) -> String {
    let one_line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match one_line.char_indices().nth(90) {
        Some((at, _)) => format!("{}…", &one_line[..at]),
        None => one_line,
    }
}
