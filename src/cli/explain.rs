//! `agent-guard explain [RULE]`: the rule's documentation page, or the list of rules.

use std::process::ExitCode;

use crate::{docs, rules};

pub fn run(rule: Option<&str>) -> ExitCode {
    let Some(id) = rule else {
        for rule in rules::ALL {
            let profile = if rule.strict_only { " (strict)" } else { "" };
            println!("{:<28} {}{profile}", rule.id, first_sentence(rule.catches));
        }
        return ExitCode::SUCCESS;
    };
    match rules::by_id(id) {
        Some(rule) => {
            print!("{}", docs::page(rule));
            ExitCode::SUCCESS
        }
        None => {
            eprintln!("agent-guard: no rule {id:?}; `agent-guard explain` lists them");
            ExitCode::from(2)
        }
    }
}

fn first_sentence(text: &str) -> String {
    let one_line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match one_line.char_indices().nth(90) {
        Some((at, _)) => format!("{}…", &one_line[..at]),
        None => one_line,
    }
}
