//! The Replay page: pick a folder of past sessions (a host's own, or any) and see what the
//! guard would have stopped in them, judged by the rules alone as `agent-guard replay` does.

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::form::Form;
use super::html::{esc, page as layout, table};
use super::{Ctx, Reply};
use crate::host::transcript;
use crate::policy::{Channel, Decision};
use crate::settings::Mode;

/// Stops listed at most; the counts cover them all.
const MAX_ROWS: usize = 500;

pub(super) fn page(ctx: &Ctx, query: &Form) -> Reply {
    let chosen = query.get("path").map(PathBuf::from);
    let mut body = form(chosen.as_ref());
    if let Some(path) = &chosen {
        body.push_str(&results(ctx, path));
    }
    Reply::ok(layout(&ctx.base, "/replay", "Replay", &body))
}

/// The folder picker: the hosts' own folders that exist here, or any path typed in.
fn form(chosen: Option<&PathBuf>) -> String {
    let mut out = String::from("<form class=\"bar\" method=\"get\" id=\"pick\">");
    let mut shortcuts = String::new();
    for (source, root) in transcript::default_roots() {
        if root.is_dir() {
            shortcuts.push_str(&format!(
                "<button type=\"submit\" name=\"path\" value=\"{0}\">{1}: {0}</button>",
                esc(&root.display().to_string()),
                source.name()
            ));
        }
    }
    let typed = chosen.map(|p| p.display().to_string()).unwrap_or_default();
    out.push_str(&format!(
        "<label>Transcripts folder or file<input name=\"path\" id=\"path\" size=\"60\" value=\"{}\"></label>\
         <button type=\"submit\" id=\"run\">Replay</button></form>",
        esc(&typed)
    ));
    if shortcuts.is_empty() {
        out.push_str("<p class=\"muted\">No Claude Code, Codex or Gemini CLI session folders here; type a path.</p>");
    } else {
        out.push_str(&format!(
            "<form class=\"bar\" method=\"get\">{shortcuts}</form>"
        ));
    }
    out
}

fn results(ctx: &Ctx, path: &PathBuf) -> String {
    if !path.exists() {
        return format!(
            "<p class=\"bad\">{}: no such file or folder</p>",
            esc(&path.display().to_string())
        );
    }
    let mut settings = crate::config::load(Some(&ctx.dir)).settings;
    // What the guard would stop, whatever switches it off or to observing here.
    settings.off = false;
    settings.mode = Mode::Enforce;
    settings.context = false;
    let (mut files, mut commands) = (0, 0);
    let mut by_rule: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut rows = Vec::new();
    let mut stopped = 0;
    for file in transcript::files(std::slice::from_ref(path), true) {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        let found = transcript::read(&text);
        let Some(source) = found.source else { continue };
        files += 1;
        for call in found.calls {
            commands += 1;
            let verdict = crate::evaluate_dialect(
                &call.command,
                call.dialect,
                None,
                &settings,
                Channel::default(),
            );
            if verdict.decision == Decision::Allow {
                continue;
            }
            stopped += 1;
            let mut ids: Vec<&'static str> = verdict.findings.iter().map(|f| f.rule.id).collect();
            ids.dedup();
            for id in &ids {
                *by_rule.entry(id).or_default() += 1;
            }
            if rows.len() < MAX_ROWS {
                let name = file
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                rows.push(vec![
                    esc(source.name()),
                    esc(call.session.as_deref().unwrap_or(&name)),
                    esc(verdict.decision.as_str()),
                    esc(&ids.join(", ")),
                    format!(
                        "<code>{}</code>",
                        esc(&crate::policy::shorten(&call.command))
                    ),
                ]);
            }
        }
    }
    if files == 0 {
        return format!(
            "<p class=\"bad\">No session records in {}: it holds no Claude Code, Codex or Gemini CLI transcripts, nor plain command lists.</p>",
            esc(&path.display().to_string())
        );
    }
    let share = if commands == 0 {
        0.0
    } else {
        100.0 * stopped as f64 / commands as f64
    };
    let mut out = format!(
        "<p id=\"summary\">{files} file(s), {commands} command(s): <b>{stopped}</b> would have been stopped ({share:.1}%).</p>"
    );
    if !by_rule.is_empty() {
        let rule_rows: Vec<Vec<String>> = by_rule
            .iter()
            .map(|(id, n)| vec![format!("<code>{id}</code>"), n.to_string()])
            .collect();
        out.push_str(&table("by-rule", &["Rule", "Stops"], &rule_rows));
    }
    out.push_str("<h2>Commands it would stop</h2>");
    out.push_str(&table(
        "replay",
        &["Host", "Session", "Decision", "Rules", "Command"],
        &rows,
    ));
    out
}
