//! `agent-guard doctor`: for every host in use, is the guard wired, does the wired command run,
//! does it stop a destructive command and let a harmless one through. Exit 0 when every host
//! found is healthy, 1 otherwise.

use std::process::ExitCode;

use crate::host::Host;
use crate::install::{self, DESTRUCTIVE, DESTRUCTIVE_SQL, Health, SAFE};

/// One row of the table, and the notes that explain its failures.
struct Row {
    cells: [String; 5],
    healthy: bool,
    notes: Vec<String>,
}

fn mark(ok: bool) -> String {
    (if ok { "ok" } else { "NO" }).into()
}

pub fn run() -> ExitCode {
    let loc = match super::install::locations() {
        Ok(loc) => loc,
        Err(code) => return code,
    };
    let cwd = loc
        .project
        .clone()
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| loc.home.clone());
    let detected = install::detect(&loc);
    let mut rows = Vec::new();
    for host in Host::ALL {
        let name = host.name().to_string();
        match install::wired(host, &loc) {
            Err(problem) => rows.push(Row {
                cells: [
                    name,
                    format!("? {}", problem.path.display()),
                    "-".into(),
                    "-".into(),
                    "-".into(),
                ],
                healthy: false,
                notes: vec![format!("{}: {problem}", host.name())],
            }),
            Ok(wired) if wired.is_empty() => {
                if detected.contains(&host) {
                    rows.push(Row {
                        cells: [name, "NO".into(), "-".into(), "-".into(), "-".into()],
                        healthy: false,
                        notes: vec![format!(
                            "{}: not wired; run `agent-guard install --host {}`",
                            host.name(),
                            host.name()
                        )],
                    });
                }
            }
            Ok(wired) => {
                for entry in wired {
                    let health: Health = install::examine(host, &entry, &cwd);
                    let mut notes = Vec::new();
                    let who = format!("{} ({})", host.name(), entry.path.display());
                    if let Err(why) = &health.runs {
                        notes.push(format!("{who}: `{}` does not run: {why}", entry.command));
                    } else {
                        if !health.stops {
                            notes.push(format!(
                                "{who}: `{DESTRUCTIVE}` was not stopped ({})",
                                health.destructive_output
                            ));
                        }
                        if !health.passes {
                            notes.push(format!("{who}: `{SAFE}` was stopped"));
                        }
                        if entry.mcp_event == Some(false) {
                            notes.push(format!(
                                "{who}: no hook under the host's MCP event: run `agent-guard install --host {}` again",
                                host.name()
                            ));
                        } else if health.stops_mcp == Some(false) {
                            notes.push(format!(
                                "{who}: an MCP tool's `{DESTRUCTIVE_SQL}` was not stopped"
                            ));
                        }
                    }
                    rows.push(Row {
                        cells: [
                            name.clone(),
                            format!("{}: {}", entry.scope.name(), entry.path.display()),
                            mark(health.runs.is_ok()),
                            mark(health.stops),
                            mark(health.passes),
                        ],
                        healthy: health.healthy(),
                        notes,
                    });
                }
            }
        }
    }
    if rows.is_empty() {
        println!(
            "No agent host found (no host folder in {} or {}): nothing is guarded.",
            loc.project
                .as_deref()
                .map_or("(no project)".into(), |p| p.display().to_string()),
            loc.home.display()
        );
        return ExitCode::from(1);
    }
    let header = [
        "host".to_string(),
        "wired".into(),
        "runs".into(),
        format!("stops `{DESTRUCTIVE}`"),
        format!("passes `{SAFE}`"),
    ];
    let mut widths = header.clone().map(|h| h.chars().count());
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(&row.cells) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let print = |cells: &[String; 5]| {
        let line: Vec<String> = cells
            .iter()
            .zip(widths)
            .map(|(cell, width)| format!("{cell:<width$}"))
            .collect();
        println!("{}", line.join("  ").trim_end());
    };
    print(&header);
    for row in &rows {
        print(&row.cells);
    }
    let sick = rows.iter().filter(|r| !r.healthy).count();
    if sick == 0 {
        println!("\nEvery host found is guarded.");
        return ExitCode::SUCCESS;
    }
    println!();
    for note in rows.iter().flat_map(|r| &r.notes) {
        println!("{note}");
    }
    ExitCode::from(1)
}
