//! `agent-guard rm`: the guarded delete. A preview unless `--yes`; then into the trash.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::json;

use crate::saferm::claims::Session;
use crate::saferm::text::{count, size};
use crate::saferm::trash::Trash;
use crate::saferm::{self, Plan, Removed, Request, Target};
use crate::shell::word::quote;

#[derive(clap::Args)]
pub struct Args {
    /// The folder every target must be strictly inside, once symbolic links are resolved.
    #[arg(long, value_name = "DIR")]
    root: PathBuf,
    /// The files and folders to remove.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Remove them. Without it nothing changes: only a preview is shown.
    #[arg(long)]
    yes: bool,
    /// Delete for good instead of moving to the trash: for large outputs a build recreates.
    #[arg(long)]
    permanent: bool,
    /// Print one JSON object: {"status": "preview"|"refused"|"removed"|"failed", "root",
    /// "permanent", "targets": [{"given", "path", "kind", "entries", "bytes", "refused",
    /// "claimed_by", "within"}], "trash", "entry", "notes"}.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args) -> ExitCode {
    let cwd = match std::env::current_dir() {
        Ok(cwd) => cwd,
        Err(e) => {
            eprintln!("agent-guard rm: cannot read the current directory: {e}");
            return ExitCode::from(1);
        }
    };
    let session = Session::from_env(None);
    let request = Request {
        root: &args.root,
        paths: &args.paths,
        cwd: &cwd,
        session: &session.id,
    };
    let plan = match saferm::inspect(&request) {
        Ok(plan) => plan,
        Err(e) => {
            eprintln!("agent-guard rm: {e}");
            return ExitCode::from(2);
        }
    };
    if plan.is_refused() {
        print(args, Status::Refused, &plan, None, &cwd);
        if let Some(note) = &session.derived
            && plan.targets.iter().any(|t| t.claimed_by.is_some())
        {
            eprintln!("agent-guard: {note}");
        }
        return ExitCode::from(1);
    }
    if !args.yes {
        print(args, Status::Preview, &plan, None, &cwd);
        return ExitCode::SUCCESS;
    }
    match saferm::remove(&plan, args.permanent) {
        Ok(removed) => {
            print(args, Status::Removed, &plan, Some(&removed), &cwd);
            for note in &removed.notes {
                eprintln!("agent-guard rm: note: {note}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            if args.json {
                let mut out = report_json(Status::Failed, args.permanent, &plan, None);
                if let Some(fields) = out.as_object_mut() {
                    fields.insert("error".into(), json!(e.to_string()));
                }
                println!("{out}");
            }
            eprintln!("agent-guard rm: {e}");
            ExitCode::from(1)
        }
    }
}

#[derive(Clone, Copy)]
enum Status {
    Preview,
    Refused,
    Removed,
    Failed,
}

impl Status {
    fn as_str(self) -> &'static str {
        match self {
            Status::Preview => "preview",
            Status::Refused => "refused",
            Status::Removed => "removed",
            Status::Failed => "failed",
        }
    }
}

fn print(args: &Args, status: Status, plan: &Plan, removed: Option<&Removed>, cwd: &Path) {
    if args.json {
        println!("{}", report_json(status, args.permanent, plan, removed));
    } else {
        print!(
            "{}",
            report_text(status, args.permanent, plan, removed, cwd)
        );
    }
}

fn report_json(
    status: Status,
    permanent: bool,
    plan: &Plan,
    removed: Option<&Removed>,
) -> serde_json::Value {
    json!({
        "status": status.as_str(),
        "root": plan.root.to_string_lossy(),
        "permanent": permanent,
        "targets": plan.targets,
        "trash": removed
            .and_then(|r| r.trash.as_ref())
            .map(|t| t.dir.to_string_lossy()),
        "entry": removed.and_then(|r| r.entry.as_ref()),
        "notes": removed.map_or(&[][..], |r| &r.notes[..]),
    })
}

fn report_text(
    status: Status,
    permanent: bool,
    plan: &Plan,
    removed: Option<&Removed>,
    cwd: &Path,
) -> String {
    let root = plan.root.display();
    let mut out = String::new();
    match (status, removed) {
        (Status::Refused, _) => {
            out.push_str("agent-guard rm: refused; nothing was removed.\n");
            let refused: Vec<&Target> = plan
                .targets
                .iter()
                .filter(|t| t.refused.is_some())
                .collect();
            for t in &refused {
                let why = t.refused.as_deref().unwrap_or_default();
                out.push_str(&format!("  {}: {why}\n", t.given.display()));
            }
            if refused.len() < plan.targets.len() {
                out.push_str(&format!(
                    "{} of {} targets refused, and one refused target refuses them all.\n",
                    refused.len(),
                    plan.targets.len()
                ));
            }
        }
        (
            Status::Removed,
            Some(Removed {
                entry: Some(entry),
                trash: Some(trash),
                ..
            }),
        ) => {
            out.push_str(&format!(
                "Moved to the trash as {} (root {root}):\n{}",
                entry.id,
                lines(plan)
            ));
            let here = Trash::for_dir(cwd).ok();
            let restore = if here.as_ref() == Some(trash) {
                format!("agent-guard restore {}", entry.id)
            } else {
                format!(
                    "agent-guard restore -C {} {}",
                    quote(&plan.root.to_string_lossy()),
                    entry.id
                )
            };
            out.push_str(&format!("Bring them back with `{restore}`.\n"));
        }
        (Status::Removed, _) => {
            out.push_str(&format!("Deleted for good (root {root}):\n{}", lines(plan)));
        }
        _ => {
            let into = match (permanent, plan.trash()) {
                (true, _) => "delete for good".to_string(),
                (false, Ok(trash)) => format!("move to the trash in {}", trash.dir.display()),
                (false, Err(e)) => format!("move to the trash, but {e}"),
            };
            out.push_str(&format!("Would {into} (root {root}):\n{}", lines(plan)));
            out.push_str("Preview only: add --yes to remove these.\n");
        }
    }
    out
}

/// One line per target: what it is and how much it holds, aligned.
fn lines(plan: &Plan) -> String {
    let width = plan
        .targets
        .iter()
        .map(|t| t.given.display().to_string().chars().count())
        .max()
        .unwrap_or(0);
    plan.targets
        .iter()
        .map(|t| {
            let what = match &t.within {
                Some(outer) => format!("inside {}, goes with it", outer.display()),
                None => format!(
                    "{}, {}, {}",
                    t.kind.noun(),
                    count(t.entries, "entry", "entries"),
                    size(t.bytes)
                ),
            };
            format!("  {:<width$}  {what}\n", t.given.display().to_string())
        })
        .collect()
}
