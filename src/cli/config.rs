//! `agent-guard config`: the effective settings for a folder, and where each one came from.

use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::{Value, json};

use crate::config::{Loaded, Scope};
use crate::settings::Settings;
use crate::units::{self, Date};

#[derive(clap::Args)]
pub struct Args {
    /// The folder whose settings to show (default: the current one); the `.agent-guard.toml`
    /// of its repository applies.
    #[arg(long, value_name = "DIR")]
    cwd: Option<PathBuf>,
    /// Print one JSON object: {"settings": {KEY: {"value", "from"}}, "files", "problems"}.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args) -> ExitCode {
    if let Err(code) = super::check_cwd(args.cwd.as_ref()) {
        return code;
    }
    let loaded = crate::config::load(args.cwd.as_deref());
    if args.json {
        println!("{}", to_json(&loaded));
    } else {
        print!("{}", to_text(&loaded));
        for problem in &loaded.problems {
            eprintln!("{problem}");
        }
    }
    if loaded.problems.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Every key with its effective value, in the order the documentation lists them.
fn values(s: &Settings) -> Vec<(&'static str, Value)> {
    let today = Date::today();
    let allow: Vec<Value> = s
        .allow
        .iter()
        .map(|e| {
            json!({
                "rule": e.rule,
                "command": e.command,
                "reason": e.reason,
                "expires": e.expires.map(|d| d.to_string()),
                "expired": e.expired(today),
                "from": e.origin,
            })
        })
        .collect();
    let team: Vec<Value> = s
        .team
        .rules
        .iter()
        .map(|r| {
            json!({
                "id": r.id,
                "stop": r.stop.as_str(),
                r.pattern.key(): r.pattern.text(),
                "reason": r.reason,
                "from": r.origin(),
            })
        })
        .collect();
    vec![
        ("off", json!(s.off)),
        ("mode", json!(s.mode.as_str())),
        ("profile", json!(s.profile.as_str())),
        ("on_destructive", json!(s.on_destructive.as_str())),
        ("context", json!(s.context)),
        ("protected_branches", json!(s.protected_branches)),
        ("regenerable", json!(s.regenerable)),
        ("inline_override", json!(s.inline_override)),
        ("rules.disable", json!(s.disabled_rules)),
        ("packs.disable", json!(s.disabled_packs)),
        ("packs.enable", json!(s.enabled_packs)),
        ("production", json!(s.production)),
        ("allow", Value::Array(allow)),
        ("team", Value::Array(team)),
        (
            "snapshots.max_age",
            json!(units::format_duration(s.snapshot_max_age)),
        ),
        (
            "snapshots.max_size",
            json!(units::format_size(s.snapshot_max_size)),
        ),
        (
            "audit.max_size",
            json!(units::format_size(s.audit_max_size)),
        ),
        ("audit.log_allowed", json!(s.log_allowed)),
    ]
}

fn to_json(loaded: &Loaded) -> Value {
    let mut settings = serde_json::Map::new();
    for (key, value) in values(&loaded.settings) {
        let from = loaded.origin(key).to_string();
        settings.insert(key.into(), json!({ "value": value, "from": from }));
    }
    let files: Vec<Value> = loaded
        .files
        .iter()
        .map(|f| json!({ "scope": scope(f.scope, f.named), "path": f.path, "found": f.found }))
        .collect();
    json!({
        "settings": settings,
        "files": files,
        "repository": loaded.repository,
        "audit_log": crate::audit::log_path(),
        "problems": loaded.problems,
    })
}

fn to_text(loaded: &Loaded) -> String {
    let mut out = String::new();
    for (key, value) in values(&loaded.settings) {
        let from = loaded.origin(key);
        if key == "allow" || key == "team" {
            continue;
        }
        let mut shown = match &value {
            Value::String(s) => s.clone(),
            Value::Array(items) => items
                .iter()
                .map(|i| i.as_str().unwrap_or_default().to_string())
                .collect::<Vec<_>>()
                .join(", "),
            other => other.to_string(),
        };
        if key == "protected_branches" && loaded.settings.context {
            shown.push_str(" (and the remote's default branch)");
        }
        if shown.is_empty() {
            shown = "(none)".into();
        }
        out.push_str(&format!("{key:<20} {shown}  [{from}]\n"));
    }
    let today = Date::today();
    if loaded.settings.allow.is_empty() {
        out.push_str(&format!("{:<20} (none)\n", "allow"));
    }
    for e in &loaded.settings.allow {
        let mut what = Vec::new();
        if let Some(rule) = &e.rule {
            what.push(rule.clone());
        }
        if let Some(command) = &e.command {
            what.push(format!("`{command}`"));
        }
        let until = match e.expires {
            Some(day) if e.expired(today) => format!(" (expired {day}: no longer applies)"),
            Some(day) => format!(" (until {day})"),
            None => String::new(),
        };
        out.push_str(&format!(
            "{:<20} {}{until}: {}  [{}]\n",
            "allow",
            what.join(" "),
            e.reason,
            e.origin
        ));
    }
    for r in &loaded.settings.team.rules {
        out.push_str(&format!(
            "{:<20} {} `{} = \"{}\"`: {}  [{}]\n",
            r.stop.as_str(),
            r.id,
            r.pattern.key(),
            r.pattern.text(),
            r.reason,
            r.origin()
        ));
    }
    out.push('\n');
    for f in &loaded.files {
        let state = if f.found { "" } else { " (not found)" };
        out.push_str(&format!(
            "{:<20} {}{state}\n",
            format!("{} file", scope(f.scope, f.named)),
            f.path.display()
        ));
    }
    if loaded.repository.is_none() {
        out.push_str(&format!(
            "{:<20} (not in a repository: no {})\n",
            "project file",
            crate::config::PROJECT_FILE
        ));
    }
    match crate::audit::log_path() {
        Some(path) => out.push_str(&format!("{:<20} {}\n", "audit log", path.display())),
        None => out.push_str(&format!(
            "{:<20} (none: {})\n",
            "audit log",
            crate::audit::why_no_log()
        )),
    }
    out
}

fn scope(scope: Scope, named: bool) -> &'static str {
    match (scope, named) {
        (Scope::User, true) => "AGENT_GUARD_CONFIG",
        (Scope::User, false) => "user",
        (Scope::Project, _) => "project",
    }
}
