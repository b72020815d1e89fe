//! The Snapshots page: what each snapshot of a repository holds, and its undo, which first
//! shows what it would write back and asks for a confirmation.

use std::path::PathBuf;

use super::form::{Form, encode};
use super::html::{esc, page as layout, table};
use super::{Ctx, Reply};
use crate::snapshot::{self, RestoreOptions, Restored};
use crate::units;

/// File names listed for one snapshot; the count covers the rest.
const MAX_NAMES: usize = 30;

/// The repository a request is about: its `dir` field, else the folder `ui` started in.
fn folder(ctx: &Ctx, fields: &Form) -> PathBuf {
    fields
        .get("dir")
        .map_or_else(|| ctx.dir.clone(), PathBuf::from)
}

pub(super) fn page(ctx: &Ctx, query: &Form) -> Reply {
    let dir = folder(ctx, query);
    let shown = dir.display().to_string();
    let mut body = format!(
        "<form class=\"bar\" method=\"get\"><label>Repository<input name=\"dir\" id=\"dir\" size=\"60\" value=\"{}\"></label>\
         <button type=\"submit\">Show</button></form>",
        esc(&shown)
    );
    let list = match snapshot::list(&dir) {
        Ok(list) => list,
        Err(why) => {
            body.push_str(&format!("<p class=\"bad\">{}</p>", esc(&why)));
            return Reply::ok(layout(&ctx.base, "/snapshots", "Snapshots", &body));
        }
    };
    if list.is_empty() {
        body.push_str("<p id=\"none\">No snapshots in this repository. The guard takes one before a destructive command it lets through (an override, a question, or observe mode).</p>");
    }
    let rows: Vec<Vec<String>> = list
        .iter()
        .map(|s| {
            let when = s.time.map_or("?".to_string(), |t| {
                let stamp = units::timestamp(t);
                format!(
                    "{} ({} ago)",
                    stamp.get(..19).unwrap_or(&stamp).replace('T', " "),
                    units::age(t)
                )
            });
            let names = match snapshot::contents(&dir, s) {
                Ok(names) => {
                    let mut shown: Vec<String> = names
                        .iter()
                        .take(MAX_NAMES)
                        .map(|n| format!("<code>{}</code>", esc(n)))
                        .collect();
                    if names.len() > MAX_NAMES {
                        shown.push(format!("and {} more", names.len() - MAX_NAMES));
                    }
                    shown.join("<br>")
                }
                Err(why) => format!("<span class=\"bad\">{}</span>", esc(&why)),
            };
            vec![
                format!("<code>{}</code>", esc(&s.id)),
                esc(&when),
                format!("<code>{}</code>", esc(&crate::policy::shorten(&s.command))),
                esc(&s.rules.join(", ")),
                format!(
                    "{} file(s), {}<br>{names}",
                    s.files,
                    units::format_size(s.bytes)
                ),
                undo_form(ctx, &shown, &s.id, false, "Undo…"),
            ]
        })
        .collect();
    body.push_str(&table(
        "snapshots",
        &["Id", "Taken (UTC)", "Before", "Rules", "Holds", ""],
        &rows,
    ));
    Reply::ok(layout(&ctx.base, "/snapshots", "Snapshots", &body))
}

fn undo_form(ctx: &Ctx, dir: &str, id: &str, confirm: bool, label: &str) -> String {
    let (confirm_field, button_id) = if confirm {
        (
            "<input type=\"hidden\" name=\"confirm\" value=\"yes\">",
            "confirm",
        )
    } else {
        ("", "undo")
    };
    format!(
        "<form method=\"post\" action=\"{}/undo\"><input type=\"hidden\" name=\"dir\" value=\"{}\">\
         <input type=\"hidden\" name=\"id\" value=\"{}\">{confirm_field}\
         <button type=\"submit\" class=\"{button_id}\" id=\"{button_id}-{}\">{label}</button></form>",
        ctx.base,
        esc(dir),
        esc(id),
        esc(id)
    )
}

/// `POST /undo`: without `confirm`, what the undo would do and a button to do it; with it,
/// the undo, and what it did.
pub(super) fn undo(ctx: &Ctx, fields: &Form) -> Reply {
    let dir = folder(ctx, fields);
    let shown = dir.display().to_string();
    let Some(id) = fields.get("id") else {
        return Reply {
            status: 400,
            body: layout(
                &ctx.base,
                "/snapshots",
                "Undo",
                "<p class=\"bad\">No snapshot named.</p>",
            ),
        };
    };
    let confirmed = fields.get("confirm") == Some("yes");
    let settings = crate::config::load(Some(&dir)).settings;
    let options = RestoreOptions {
        force: false,
        dry_run: !confirmed,
        max_size: settings.snapshot_max_size,
        max_age: settings.snapshot_max_age,
    };
    let back = format!(
        "<p><a id=\"back\" href=\"{}/snapshots?dir={}\">Back to the snapshots</a></p>",
        ctx.base,
        encode(&shown)
    );
    let done = match snapshot::restore(&dir, Some(id), options) {
        Ok(done) => done,
        Err(why) => {
            let body = format!("<p class=\"bad\">{}</p>{back}", esc(&why));
            return Reply::ok(layout(&ctx.base, "/snapshots", "Undo", &body));
        }
    };
    let mut body = outcome(&done, confirmed);
    if !confirmed && !done.restored.is_empty() {
        body.push_str(&undo_form(
            ctx,
            &shown,
            id,
            true,
            "Yes, restore these files",
        ));
    }
    body.push_str(&back);
    Reply::ok(layout(&ctx.base, "/snapshots", "Undo", &body))
}

/// What an undo did (or would do), as the command line says it.
fn outcome(done: &Restored, confirmed: bool) -> String {
    let s = &done.snapshot;
    let list = |paths: &[String]| -> String {
        let items: String = paths
            .iter()
            .map(|p| format!("<li><code>{}</code></li>", esc(p)))
            .collect();
        format!("<ul>{items}</ul>")
    };
    let before = format!(
        "snapshot <code>{}</code> (before <code>{}</code>)",
        esc(&s.id),
        esc(&crate::policy::shorten(&s.command))
    );
    let mut out = String::new();
    if done.restored.is_empty() && done.kept.is_empty() {
        out.push_str(&format!("<p class=\"good\" id=\"outcome\">Nothing to restore: the working tree already holds everything {before} saved.</p>"));
    } else if !done.restored.is_empty() {
        let (class, verb) = if confirmed {
            ("good", "Restored")
        } else {
            ("note", "Would restore")
        };
        out.push_str(&format!(
            "<div class=\"{class}\" id=\"outcome\">{verb} {} file(s) from {before}:{}</div>",
            done.restored.len(),
            list(&done.restored)
        ));
    }
    if !done.kept.is_empty() {
        out.push_str(&format!(
            "<div class=\"bad\">Keeps {} file(s) that changed after the snapshot (<code>agent-guard undo --force</code> overwrites them):{}</div>",
            done.kept.len(),
            list(&done.kept)
        ));
    }
    for hint in &done.refs {
        out.push_str(&format!("<p>Also: {}.</p>", esc(hint)));
    }
    out
}
