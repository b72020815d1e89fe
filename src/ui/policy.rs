//! The Policy page: the effective settings for the repository, forms for the common changes
//! (a rule or a pack on or off, an `[[allow]]` entry with its expiry, the protected branches
//! and production words, the team's own `[[deny]]` and `[[ask]]` rules added or removed), and
//! each configuration file as text.
//!
//! Every change is made on the file's own document (toml_edit keeps its comments, order and
//! spacing), then read back by the parser the hook uses: a change it reports a problem with
//! is not written, and the page says why.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};

use toml_edit::{Array, ArrayOfTables, DocumentMut, Item, Table, value};

use super::form::Form;
use super::html::{esc, page as layout, table};
use super::{Ctx, Reply};
use crate::config::{self, Loaded, Scope};
use crate::rules::{self, packs};
use crate::settings::Settings;
use crate::team::Stop;
use crate::units::Date;

/// What a change came to: `Ok` with what was done, or `Err` with why nothing was written.
type Outcome = Result<String, String>;

pub(super) fn page(ctx: &Ctx, _query: &Form, outcome: Option<&Outcome>) -> Reply {
    let loaded = config::load(Some(&ctx.dir));
    let mut body = String::new();
    match outcome {
        Some(Ok(done)) => {
            let _ = write!(body, "<p class=\"good\" id=\"outcome\">{}</p>", esc(done));
        }
        Some(Err(why)) => {
            let _ = write!(
                body,
                "<div class=\"bad\" id=\"outcome\">Nothing was written: {}</div>",
                esc(why).replace('\n', "<br>")
            );
        }
        None => {}
    }
    for problem in &loaded.problems {
        let _ = write!(body, "<p class=\"bad\">{}</p>", esc(problem));
    }
    body.push_str(&effective(&loaded));
    body.push_str(&team_rules(ctx, &loaded));
    let scopes = scope_options(&loaded);
    body.push_str(&forms(ctx, &scopes));
    for file in &loaded.files {
        let name = scope_name(file.scope);
        let text = std::fs::read_to_string(&file.path).unwrap_or_default();
        let state = if file.found {
            ""
        } else {
            " (not there yet: saving creates it)"
        };
        let _ = write!(
            body,
            "<section><h2>The {name} file</h2><p><code>{}</code>{state}</p>\
             <form method=\"post\" action=\"{}/policy\" id=\"file-{name}\"><input type=\"hidden\" name=\"action\" value=\"file\">\
             <input type=\"hidden\" name=\"scope\" value=\"{name}\">\
             <textarea name=\"text\" id=\"text-{name}\" rows=\"14\" spellcheck=\"false\">{}</textarea>\
             <p><button type=\"submit\" id=\"save-{name}\">Check and save</button></p></form></section>",
            esc(&file.path.display().to_string()),
            ctx.base,
            esc(&text)
        );
    }
    if loaded.repository.is_none() {
        let _ = write!(
            body,
            "<p class=\"muted\">{} is in no repository, so there is no {} here.</p>",
            esc(&ctx.dir.display().to_string()),
            config::PROJECT_FILE
        );
    }
    Reply::ok(layout(&ctx.base, "/policy", "Policy", &body))
}

/// `POST /policy`: one change to one file.
pub(super) fn change(ctx: &Ctx, fields: &Form) -> Reply {
    let loaded = config::load(Some(&ctx.dir));
    let outcome = match file_of(&loaded, fields.get("scope")) {
        None => {
            Err("no such configuration file here; pick the project or the user file".to_string())
        }
        Some(path) => apply(&loaded, &path, fields),
    };
    page(ctx, &Form::default(), Some(&outcome))
}

fn apply(loaded: &Loaded, path: &Path, fields: &Form) -> Outcome {
    let shown = path.display();
    match fields.get("action") {
        Some("file") => {
            // Browsers send a text area's lines ended by CR LF.
            let text = fields.raw("text").unwrap_or_default().replace("\r\n", "\n");
            save(path, &text)?;
            Ok(format!("Saved {shown}."))
        }
        Some("rule") => {
            let id = fields.get("rule").ok_or("pick a rule")?;
            if rules::by_id(id).is_none() {
                return Err(format!("there is no rule {id}"));
            }
            let off = fields.get("state") == Some("off");
            edit(path, |doc| {
                if off {
                    add_id(doc, "rules", "disable", id)
                } else {
                    remove_id(doc, "rules", "disable", id)
                }
            })?;
            Ok(format!(
                "Rule {id} turned {} in {shown}.",
                if off { "off" } else { "on" }
            ))
        }
        Some("pack") => {
            let id = fields.get("pack").ok_or("pick a pack")?;
            if !packs::PACKS.iter().any(|p| p.id == id) {
                return Err(format!("there is no pack {id}"));
            }
            let on = fields.get("state") == Some("on");
            let (add, remove) = if on {
                ("enable", "disable")
            } else {
                ("disable", "enable")
            };
            edit(path, |doc| {
                remove_id(doc, "packs", remove, id)?;
                add_id(doc, "packs", add, id)
            })?;
            Ok(format!(
                "Pack {id} turned {} in {shown}.",
                if on { "on" } else { "off" }
            ))
        }
        Some("allow") => {
            let entry = allow_entry(fields)?;
            edit(path, |doc| {
                let item = doc
                    .entry("allow")
                    .or_insert(Item::ArrayOfTables(ArrayOfTables::new()));
                let entries = item.as_array_of_tables_mut().ok_or(
                    "`allow` is not written as [[allow]] tables; add the entry in the file below",
                )?;
                entries.push(entry);
                Ok(())
            })?;
            Ok(format!("Allow entry added to {shown}."))
        }
        Some("list") => {
            let key = match fields.get("key") {
                Some(key @ ("protected_branches" | "production")) => key,
                _ => return Err("pick protected branches or production words".into()),
            };
            let values: Array = fields
                .get("values")
                .unwrap_or_default()
                .split(',')
                .map(str::trim)
                .filter(|v| !v.is_empty())
                .collect();
            let empty = values.is_empty();
            edit(path, |doc| {
                if empty {
                    doc.remove(key);
                } else {
                    doc.insert(key, value(values));
                }
                Ok(())
            })?;
            Ok(format!("{key} set in {shown}."))
        }
        Some("team") => {
            let (stop, entry) = team_entry(loaded, fields)?;
            edit(path, |doc| {
                let item = doc
                    .entry(stop.as_str())
                    .or_insert(Item::ArrayOfTables(ArrayOfTables::new()));
                let entries = item.as_array_of_tables_mut().ok_or_else(|| {
                    format!(
                        "`{0}` is not written as [[{0}]] tables; add the rule in the file below",
                        stop.as_str()
                    )
                })?;
                entries.push(entry);
                Ok(())
            })?;
            Ok(format!("Team rule added to {shown}."))
        }
        Some("team-remove") => {
            let id = fields.get("id").ok_or("pick a team rule")?;
            edit(path, |doc| remove_team_rule(doc, id))?;
            Ok(format!("Team rule {id} removed from {shown}."))
        }
        _ => Err("unknown change".into()),
    }
}

/// The `[[deny]]` or `[[ask]]` table the form describes. Only what was filled in is written:
/// a missing id, reason or pattern, or a pattern that does not read, is left for the hook's
/// parser to report, in its own words.
fn team_entry(loaded: &Loaded, fields: &Form) -> Result<(Stop, Table), String> {
    let stop = match fields.get("stop") {
        Some("deny") => Stop::Deny,
        Some("ask") => Stop::Ask,
        _ => return Err("pick deny or ask".into()),
    };
    let key = match fields.get("key") {
        Some(key @ ("command" | "path")) => key,
        _ => return Err("pick a command or a path pattern".into()),
    };
    let mut entry = Table::new();
    if let Some(id) = fields.get("id") {
        // The parser sees one file at a time; an id the other file declares is caught here.
        // An id that does not read is left to the parser.
        if let Some(first) = config::parse::team_id(id)
            .ok()
            .and_then(|full| loaded.settings.team.by_id(&full))
        {
            return Err(format!(
                "{} is already declared at {}",
                first.id,
                first.origin()
            ));
        }
        entry.insert("id", value(id));
    }
    if let Some(reason) = fields.get("reason") {
        entry.insert("reason", value(reason));
    }
    if let Some(pattern) = fields.get("pattern") {
        entry.insert(key, value(pattern));
    }
    Ok((stop, entry))
}

/// Takes the `[[deny]]` or `[[ask]]` entry with `id` out of the document (an id written
/// without `team.` included), and the whole key with its last entry.
fn remove_team_rule(doc: &mut DocumentMut, id: &str) -> Result<(), String> {
    let full = config::parse::team_id(id)?;
    for stop in [Stop::Deny, Stop::Ask] {
        let key = stop.as_str();
        let Some(entries) = doc.get_mut(key).and_then(Item::as_array_of_tables_mut) else {
            continue;
        };
        let at = entries.iter().position(|t| {
            t.get("id")
                .and_then(Item::as_str)
                .and_then(|written| config::parse::team_id(written.trim()).ok())
                .is_some_and(|written| written == full)
        });
        if let Some(at) = at {
            entries.remove(at);
            if entries.is_empty() {
                doc.remove(key);
            }
            return Ok(());
        }
    }
    Err(format!(
        "no [[deny]] or [[ask]] table in this file has the id {id}; remove it in the file below"
    ))
}

/// The `[[allow]]` table the form describes.
fn allow_entry(fields: &Form) -> Result<Table, String> {
    let mut entry = Table::new();
    let rule = fields.get("rule");
    let command = fields.get("command");
    if rule.is_none() && command.is_none() {
        return Err("an allow entry needs a rule, a command or both".into());
    }
    if let Some(rule) = rule {
        entry.insert("rule", value(rule));
    }
    if let Some(command) = command {
        entry.insert("command", value(command));
    }
    entry.insert(
        "reason",
        value(
            fields
                .get("reason")
                .ok_or("say why it is allowed (reason)")?,
        ),
    );
    if let Some(day) = fields.get("expires") {
        if Date::parse(day).is_none() {
            return Err(format!("{day:?} is not a date like 2026-06-30"));
        }
        let date: toml_edit::Datetime = day
            .parse()
            .map_err(|_| format!("{day:?} is not a date like 2026-06-30"))?;
        entry.insert("expires", value(date));
    }
    Ok(entry)
}

/// `id` added to the list `[table] key`, made when missing.
fn add_id(doc: &mut DocumentMut, table: &str, key: &str, id: &str) -> Result<(), String> {
    let item = doc.entry(table).or_insert(Item::Table(Table::new()));
    let t = item
        .as_table_like_mut()
        .ok_or_else(|| format!("`{table}` is not a table; fix it in the file below"))?;
    let list = t.entry(key).or_insert(value(Array::new()));
    let array = list
        .as_array_mut()
        .ok_or_else(|| format!("`{table}.{key}` is not a list; fix it in the file below"))?;
    if !array.iter().any(|v| v.as_str() == Some(id)) {
        array.push(id);
    }
    Ok(())
}

/// `id` taken out of the list `[table] key`, when it is there.
fn remove_id(doc: &mut DocumentMut, table: &str, key: &str, id: &str) -> Result<(), String> {
    let Some(t) = doc.get_mut(table).and_then(Item::as_table_like_mut) else {
        return Ok(());
    };
    if let Some(array) = t.get_mut(key).and_then(Item::as_array_mut) {
        array.retain(|v| v.as_str() != Some(id));
    }
    Ok(())
}

/// Changes the file at `path` through its document, keeping everything else as it is.
fn edit(
    path: &Path,
    change: impl FnOnce(&mut DocumentMut) -> Result<(), String>,
) -> Result<(), String> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let mut doc: DocumentMut = text.parse().map_err(|e: toml_edit::TomlError| {
        format!(
            "{} is not valid TOML ({}); fix it in the file below",
            path.display(),
            e.message().trim()
        )
    })?;
    change(&mut doc)?;
    save(path, &doc.to_string())
}

/// Writes `text` to `path` when the hook's parser finds no problem in it.
fn save(path: &Path, text: &str) -> Result<(), String> {
    let mut problems = Vec::new();
    config::parse::apply(
        text,
        path,
        &mut Settings::default(),
        &mut BTreeMap::new(),
        &mut problems,
    );
    if !problems.is_empty() {
        let lines: Vec<String> = problems.iter().map(ToString::to_string).collect();
        return Err(lines.join("\n"));
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("cannot make {}: {e}", parent.display()))?;
    }
    // Written beside, then renamed over: a hook reading the file meanwhile sees one whole file.
    let mut beside = path.as_os_str().to_owned();
    beside.push(".agent-guard-ui");
    let beside = PathBuf::from(beside);
    std::fs::write(&beside, text).map_err(|e| format!("cannot write {}: {e}", beside.display()))?;
    std::fs::rename(&beside, path).map_err(|e| format!("cannot replace {}: {e}", path.display()))
}

fn scope_name(scope: Scope) -> &'static str {
    match scope {
        Scope::Project => "project",
        Scope::User => "user",
    }
}

fn file_of(loaded: &Loaded, scope: Option<&str>) -> Option<PathBuf> {
    loaded
        .files
        .iter()
        .find(|f| Some(scope_name(f.scope)) == scope)
        .map(|f| f.path.clone())
}

/// `<option>`s for the files a change may go to, the project's first.
fn scope_options(loaded: &Loaded) -> String {
    let mut files: Vec<_> = loaded.files.iter().collect();
    files.sort_by_key(|f| f.scope != Scope::Project);
    files
        .iter()
        .map(|f| {
            format!(
                "<option value=\"{0}\">{0} file</option>",
                scope_name(f.scope)
            )
        })
        .collect()
}

/// The settings in force here, with where each came from.
fn effective(loaded: &Loaded) -> String {
    let s = &loaded.settings;
    let packs_on: Vec<&str> = packs::PACKS
        .iter()
        .filter(|p| packs::enabled(p, s))
        .map(|p| p.id)
        .collect();
    let rows = [
        ("profile", s.profile.as_str().to_string()),
        ("mode", s.mode.as_str().to_string()),
        ("protected_branches", s.protected_branches.join(", ")),
        ("production", s.production.join(", ")),
        ("rules.disable", s.disabled_rules.join(", ")),
        ("packs.disable", s.disabled_packs.join(", ")),
        ("packs.enable", s.enabled_packs.join(", ")),
    ];
    let mut out_rows: Vec<Vec<String>> = rows
        .iter()
        .map(|(key, shown)| {
            let shown = if shown.is_empty() { "(none)" } else { shown };
            vec![
                format!("<code>{key}</code>"),
                esc(shown),
                esc(&loaded.origin(key).to_string()),
            ]
        })
        .collect();
    out_rows.push(vec![
        "packs on".into(),
        esc(&packs_on.join(", ")),
        String::new(),
    ]);
    let today = Date::today();
    for e in &s.allow {
        let what: Vec<String> = e
            .rule
            .iter()
            .cloned()
            .chain(e.command.iter().map(|c| format!("`{c}`")))
            .collect();
        let until = match e.expires {
            Some(day) if e.expired(today) => format!(" (expired {day}: no longer applies)"),
            Some(day) => format!(" (until {day})"),
            None => String::new(),
        };
        out_rows.push(vec![
            "<code>allow</code>".into(),
            esc(&format!("{}{until}: {}", what.join(" "), e.reason)),
            esc(&e.origin),
        ]);
    }
    format!(
        "<section><h2>In force here</h2>{}<p class=\"muted\">The same as <code>agent-guard config</code> shows: the user's file, then the project's, then the environment.</p></section>",
        table("effective", &["Setting", "Value", "From"], &out_rows)
    )
}

/// The team's own rules in force here, each with a button that takes it out of its file.
fn team_rules(ctx: &Ctx, loaded: &Loaded) -> String {
    let rules = &loaded.settings.team.rules;
    if rules.is_empty() {
        return "<section><h2>Team rules</h2><p class=\"muted\" id=\"team-none\">No <code>[[deny]]</code> or <code>[[ask]]</code> rule here yet: add one below.</p></section>".into();
    }
    let rows: Vec<Vec<String>> = rules
        .iter()
        .map(|r| {
            let scope = loaded.files.iter().find(|f| f.path == r.file);
            let remove = scope.map_or_else(String::new, |f| {
                format!(
                    "<form method=\"post\" action=\"{}/policy\"><input type=\"hidden\" name=\"action\" value=\"team-remove\">\
                     <input type=\"hidden\" name=\"scope\" value=\"{}\"><input type=\"hidden\" name=\"id\" value=\"{id}\">\
                     <button type=\"submit\" class=\"team-remove\" data-id=\"{id}\">Remove</button></form>",
                    ctx.base,
                    scope_name(f.scope),
                    id = esc(&r.id)
                )
            });
            vec![
                format!("<span class=\"d-{0}\">{0}</span>", r.stop.as_str()),
                format!("<code>{}</code>", esc(&r.id)),
                format!(
                    "{} <code>{}</code>",
                    r.pattern.key(),
                    esc(r.pattern.text())
                ),
                esc(&r.reason),
                esc(&r.origin()),
                remove,
            ]
        })
        .collect();
    format!(
        "<section><h2>Team rules</h2>{}</section>",
        table(
            "team",
            &["Stop", "Id", "Pattern", "Reason", "From", ""],
            &rows
        )
    )
}

/// The forms for the common changes.
fn forms(ctx: &Ctx, scopes: &str) -> String {
    let options = |ids: &mut dyn Iterator<Item = &str>| -> String {
        ids.map(|id| format!("<option value=\"{0}\">{0}</option>", esc(id)))
            .collect()
    };
    let rule_ids = options(&mut rules::all().map(|r| r.id));
    let pack_ids = options(&mut packs::PACKS.iter().map(|p| p.id));
    let action = format!("{}/policy", ctx.base);
    let scope =
        |id: &str| format!("<label>In<select name=\"scope\" id=\"{id}\">{scopes}</select></label>");
    format!(
        "<section><h2>Change</h2>\
         <form class=\"bar\" method=\"post\" action=\"{action}\" id=\"rule-form\"><input type=\"hidden\" name=\"action\" value=\"rule\">\
         <label>Rule<select name=\"rule\" id=\"rule-id\">{rule_ids}</select></label>\
         <label>Turn<select name=\"state\" id=\"rule-state\"><option value=\"off\">off</option><option value=\"on\">on</option></select></label>\
         {}<button type=\"submit\" id=\"rule-apply\">Apply</button></form>\
         <form class=\"bar\" method=\"post\" action=\"{action}\" id=\"pack-form\"><input type=\"hidden\" name=\"action\" value=\"pack\">\
         <label>Pack<select name=\"pack\" id=\"pack-id\">{pack_ids}</select></label>\
         <label>Turn<select name=\"state\" id=\"pack-state\"><option value=\"on\">on</option><option value=\"off\">off</option></select></label>\
         {}<button type=\"submit\" id=\"pack-apply\">Apply</button></form>\
         <form class=\"bar\" method=\"post\" action=\"{action}\" id=\"allow-form\"><input type=\"hidden\" name=\"action\" value=\"allow\">\
         <label>Allow rule<select name=\"rule\" id=\"allow-rule\"><option value=\"\">(any)</option>{rule_ids}</select></label>\
         <label>Command<input name=\"command\" id=\"allow-command\" size=\"28\"></label>\
         <label>Reason<input name=\"reason\" id=\"allow-reason\" size=\"28\"></label>\
         <label>Until<input type=\"date\" name=\"expires\" id=\"allow-expires\"></label>\
         {}<button type=\"submit\" id=\"allow-apply\">Add</button></form>\
         <form class=\"bar\" method=\"post\" action=\"{action}\" id=\"list-form\"><input type=\"hidden\" name=\"action\" value=\"list\">\
         <label>Set<select name=\"key\" id=\"list-key\"><option value=\"protected_branches\">protected branches</option>\
         <option value=\"production\">production words</option></select></label>\
         <label>To (comma-separated; empty removes the key)<input name=\"values\" id=\"list-values\" size=\"36\"></label>\
         {}<button type=\"submit\" id=\"list-apply\">Set</button></form>\
         <form class=\"bar\" method=\"post\" action=\"{action}\" id=\"team-form\"><input type=\"hidden\" name=\"action\" value=\"team\">\
         <label>Team rule<select name=\"stop\" id=\"team-stop\"><option value=\"deny\">deny</option><option value=\"ask\">ask</option></select></label>\
         <label>Id<input name=\"id\" id=\"team-id\" size=\"18\" placeholder=\"team.no-apply\"></label>\
         <label>Reason<input name=\"reason\" id=\"team-reason\" size=\"28\"></label>\
         <label>Pattern over<select name=\"key\" id=\"team-key\"><option value=\"command\">a command's words</option>\
         <option value=\"path\">paths</option></select></label>\
         <label>Pattern<input name=\"pattern\" id=\"team-pattern\" size=\"24\" placeholder=\"terraform ** apply **\"></label>\
         {}<button type=\"submit\" id=\"team-apply\">Add</button></form></section>",
        scope("rule-scope"),
        scope("pack-scope"),
        scope("allow-scope"),
        scope("list-scope"),
        scope("team-scope"),
    )
}
