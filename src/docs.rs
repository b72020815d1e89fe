//! Rule documentation, generated from the rules' own declarations.
//!
//! `agent-guard explain` prints these pages and docs/rules/ holds the same text; a test
//! regenerates it and fails on any difference, so the docs cannot drift from the code.

use std::fmt::Write;

use crate::rules::packs::PACKS;
use crate::rules::{self, Rule};

/// The page for one rule, in Markdown.
pub fn page(rule: &Rule) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# {}\n", rule.id);
    let _ = writeln!(out, "**Catches:** {}.\n", rule.catches);
    if rule.strict_only {
        let _ = writeln!(
            out,
            "Active in the strict profile only (`AGENT_GUARD_PROFILE=strict`).\n"
        );
    }
    let _ = writeln!(out, "## Why it matters\n\n{}\n", rule.why);
    let _ = writeln!(out, "## Do this instead\n\n{}\n", rule.instead);
    let tier = match rule.protected_when {
        Some("always") => "Protected: always denied, no override.".to_string(),
        Some(when) => format!(
            "Destructive: denied, or asked about with `AGENT_GUARD_ON_DESTRUCTIVE=ask`; \
             `AGENT_GUARD_OFF=1 <command>` lets it through. Protected {when}: always denied, \
             no override."
        ),
        None => "Destructive: denied, or asked about with `AGENT_GUARD_ON_DESTRUCTIVE=ask`; \
                 `AGENT_GUARD_OFF=1 <command>` lets it through."
            .to_string(),
    };
    let _ = writeln!(out, "## Tier\n\n{tier}\n");
    if !rule.stops.is_empty() {
        let _ = writeln!(out, "## Stopped\n\n```sh");
        for example in rule.stops {
            let _ = writeln!(out, "{example}");
        }
        let _ = writeln!(out, "```\n");
    }
    if !rule.passes.is_empty() {
        let _ = writeln!(out, "## Passes\n\n```sh");
        for example in rule.passes {
            let _ = writeln!(out, "{example}");
        }
        let _ = writeln!(out, "```\n");
    }
    let world: Vec<_> = rules::world_examples()
        .filter(|e| e.rule.id == rule.id)
        .collect();
    if !world.is_empty() {
        let _ = writeln!(out, "## With the files it reads\n");
        for example in world {
            let files: Vec<String> = example
                .files
                .iter()
                .map(|(name, text)| format!("`{name}` holds `{}`", text.trim().replace('\n', " ")))
                .collect();
            let _ = writeln!(
                out,
                "- `{}` is {} when {}.",
                example.command,
                if example.stops { "stopped" } else { "passed" },
                if files.is_empty() {
                    "the folder holds no such file".to_string()
                } else {
                    files.join(", ")
                }
            );
        }
        out.push('\n');
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

/// The index of every rule: id, profile and one line.
pub fn index() -> String {
    let mut out = String::from("# Rules\n\n| id | profile | catches |\n|---|---|---|\n");
    for rule in rules::all() {
        let profile = if rule.strict_only { "strict" } else { "all" };
        let _ = writeln!(
            out,
            "| [{0}]({0}.md) | {1} | {2} |",
            rule.id, profile, rule.catches
        );
    }
    out
}

/// The README's table of packs: each pack's id, what it guards, its rules and a few of the
/// commands its rules stop and pass, all read from the declarations. The README holds this
/// text between `<!-- packs:begin -->` and `<!-- packs:end -->`, and a test keeps it current.
pub fn pack_table() -> String {
    let mut out = String::from(
        "| pack | guards | stops (examples) | passes (examples) |\n|---|---|---|---|\n",
    );
    for pack in PACKS {
        let examples = |pick: fn(&Rule) -> &[&str]| -> String {
            pack.rules
                .iter()
                .filter_map(|rule| pick(rule).first())
                .take(4)
                .map(|example| format!("`{}`", example.replace('|', "\\|")))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let rules: Vec<String> = pack
            .rules
            .iter()
            .map(|r| format!("[{0}](docs/rules/{0}.md)", r.id))
            .collect();
        let _ = writeln!(
            out,
            "| `{}`{} | {}: {} | {} | {} |",
            pack.id,
            if pack.default_on {
                ""
            } else {
                " (off by default)"
            },
            pack.summary,
            rules.join(", "),
            examples(|r| r.stops),
            examples(|r| r.passes),
        );
    }
    out
}
