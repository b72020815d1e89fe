//! Our hook in the inline `[hooks]` tables of Codex's `config.toml`.
//!
//! Codex reads hooks from `hooks.json` or from `[[hooks.<Event>]]` tables in `config.toml`,
//! merges the two when a folder has both and warns about it. So the installer writes here only
//! when the file already keeps its hooks inline; toml_edit keeps every other byte (comments,
//! spacing, key order) as it was, and removing the tables we appended gives the file back.

use toml_edit::{ArrayOfTables, DocumentMut, Item, Table, Value};

use super::{Located, Outcome, Removal};
use crate::host::wiring::Group;

/// Whether the file keeps hook event tables inline (`[hooks.state]`, where Codex records which
/// hooks were trusted, is not an event).
pub fn keeps_hooks(text: &str) -> Result<bool, Located> {
    let doc = parse(text)?;
    Ok(doc
        .get("hooks")
        .and_then(Item::as_table_like)
        .is_some_and(|hooks| hooks.iter().any(|(key, _)| key != "state")))
}

/// The commands of our hooks in the file.
pub fn commands(
    text: &str,
    group: &Group,
    ours: &dyn Fn(&str) -> bool,
) -> Result<Vec<String>, Located> {
    let doc = parse(text)?;
    let Some(groups) = event_tables(&doc, text, group)? else {
        return Ok(Vec::new());
    };
    Ok(handlers(groups)
        .filter_map(|(_, _, handler)| command(handler))
        .filter(|c| ours(c))
        .collect())
}

/// The file with our group appended to `[[hooks.<Event>]]`, or our command updated in place.
pub fn install(
    text: &str,
    group: &Group,
    command_line: &str,
    ours: &dyn Fn(&str) -> bool,
) -> Result<(String, Outcome), Located> {
    let mut doc = parse(text)?;
    let found: Vec<(usize, usize)> = match event_tables(&doc, text, group)? {
        Some(groups) => handlers(groups)
            .filter(|(_, _, handler)| command(handler).is_some_and(|c| ours(&c)))
            .map(|(g, h, _)| (g, h))
            .collect(),
        None => Vec::new(),
    };
    let Some(groups) = event_tables_mut(&mut doc, group) else {
        return Err(unwritable(text, group));
    };
    if !found.is_empty() {
        let mut changed = false;
        for (g, h) in found {
            let Some(handler) = handler_mut(groups, g, h) else {
                continue;
            };
            if command(handler).as_deref() != Some(command_line) {
                let mut value = Value::from(command_line);
                if let Some(Item::Value(old)) = handler.get("command") {
                    *value.decor_mut() = old.decor().clone();
                }
                handler.insert("command", Item::Value(value));
                changed = true;
            }
        }
        return Ok(match changed {
            true => (render(&doc, text), Outcome::Updated),
            false => (text.to_string(), Outcome::AlreadyThere),
        });
    }
    let mut handler = Table::new();
    handler.insert("type", toml_edit::value("command"));
    handler.insert("command", toml_edit::value(command_line));
    handler.insert("timeout", toml_edit::value(group.timeout));
    let mut handlers = ArrayOfTables::new();
    handlers.push(handler);
    let mut entry = Table::new();
    // A blank line between the file's last table and ours, as a person would write it.
    entry.decor_mut().set_prefix("\n");
    entry.insert("matcher", toml_edit::value(group.matcher));
    entry.insert("hooks", Item::ArrayOfTables(handlers));
    groups.push(entry);
    Ok((render(&doc, text), Outcome::Added))
}

/// The file without our hooks; an event, and a `[hooks]` table, left empty go too.
pub fn uninstall(
    text: &str,
    group: &Group,
    ours: &dyn Fn(&str) -> bool,
) -> Result<Removal, Located> {
    let mut doc = parse(text)?;
    let found: Vec<(usize, usize)> = match event_tables(&doc, text, group)? {
        Some(groups) => handlers(groups)
            .filter(|(_, _, handler)| command(handler).is_some_and(|c| ours(&c)))
            .map(|(g, h, _)| (g, h))
            .collect(),
        None => return Ok(Removal::NotThere),
    };
    if found.is_empty() {
        return Ok(Removal::NotThere);
    }
    let Some(groups) = event_tables_mut(&mut doc, group) else {
        return Err(unwritable(text, group));
    };
    // Back to front, so that the indices still to visit stay valid.
    for (g, h) in found.into_iter().rev() {
        let Some(inner) = groups
            .get_mut(g)
            .and_then(|entry| entry.get_mut("hooks"))
            .and_then(Item::as_array_of_tables_mut)
        else {
            continue;
        };
        inner.remove(h);
        if inner.is_empty() {
            groups.remove(g);
        }
    }
    if groups.is_empty()
        && let Some(hooks) = doc.get_mut("hooks").and_then(Item::as_table_mut)
    {
        hooks.remove(group.event);
        if hooks.is_empty() {
            doc.remove("hooks");
        }
    }
    Ok(Removal::Text(render(&doc, text)))
}

/// The document as text in the line endings of `original`: toml_edit writes `\n`, and a file
/// written with `\r\n` throughout (as on Windows) keeps them.
fn render(doc: &DocumentMut, original: &str) -> String {
    let text = doc.to_string();
    let crlf = original.contains("\r\n") && !original.replace("\r\n", "").contains('\n');
    match crlf {
        true => text.replace("\r\n", "\n").replace('\n', "\r\n"),
        false => text,
    }
}

pub(super) fn parse(text: &str) -> Result<DocumentMut, Located> {
    text.parse::<DocumentMut>().map_err(|e| {
        let at = e.span().map_or(0, |span| span.start);
        located_at(text, at, format!("not valid TOML: {}", e.message().trim()))
    })
}

/// `[[hooks.<Event>]]`, when present; an error when `hooks` or the event holds something else.
fn event_tables<'d>(
    doc: &'d DocumentMut,
    text: &str,
    group: &Group,
) -> Result<Option<&'d ArrayOfTables>, Located> {
    let Some(hooks) = doc.get("hooks") else {
        return Ok(None);
    };
    let Some(table) = hooks.as_table() else {
        return Err(located(
            text,
            hooks,
            "`hooks` is not written as a [hooks] table".into(),
        ));
    };
    let Some(item) = table.get(group.event) else {
        return Ok(None);
    };
    match item.as_array_of_tables() {
        Some(groups) => Ok(Some(groups)),
        None => Err(located(
            text,
            item,
            format!(
                "`hooks.{}` is not written as [[hooks.{}]] tables",
                group.event, group.event
            ),
        )),
    }
}

fn located(text: &str, item: &Item, message: String) -> Located {
    located_at(text, item.span().map_or(0, |span| span.start), message)
}

/// `message` at byte `at` of `text`, as line and column from 1.
pub(super) fn located_at(text: &str, at: usize, message: String) -> Located {
    let before = &text[..at.min(text.len())];
    Located {
        line: before.matches('\n').count() + 1,
        column: before[before.rfind('\n').map_or(0, |i| i + 1)..]
            .chars()
            .count()
            + 1,
        message,
    }
}

/// `[[hooks.<Event>]]`, created (under an implicit `[hooks]`) when missing; `None` when either
/// holds something else, which [`event_tables`] reports first.
fn event_tables_mut<'d>(doc: &'d mut DocumentMut, group: &Group) -> Option<&'d mut ArrayOfTables> {
    doc.entry("hooks")
        .or_insert_with(|| {
            let mut hooks = Table::new();
            hooks.set_implicit(true);
            Item::Table(hooks)
        })
        .as_table_mut()?
        .entry(group.event)
        .or_insert_with(|| Item::ArrayOfTables(ArrayOfTables::new()))
        .as_array_of_tables_mut()
}

/// The error for a document [`event_tables`] accepted but [`event_tables_mut`] cannot edit.
fn unwritable(text: &str, group: &Group) -> Located {
    located_at(
        text,
        0,
        format!(
            "cannot write [[hooks.{}]] tables into this file",
            group.event
        ),
    )
}

/// Every handler table with its group index and its index in the group.
fn handlers(groups: &ArrayOfTables) -> impl Iterator<Item = (usize, usize, &Table)> {
    groups.iter().enumerate().flat_map(|(g, entry)| {
        entry
            .get("hooks")
            .and_then(Item::as_array_of_tables)
            .into_iter()
            .flat_map(|inner| inner.iter())
            .enumerate()
            .map(move |(h, handler)| (g, h, handler))
    })
}

fn handler_mut(groups: &mut ArrayOfTables, g: usize, h: usize) -> Option<&mut Table> {
    groups
        .get_mut(g)
        .and_then(|entry| entry.get_mut("hooks"))
        .and_then(Item::as_array_of_tables_mut)
        .and_then(|inner| inner.get_mut(h))
}

fn command(handler: &Table) -> Option<String> {
    handler
        .get("command")
        .and_then(Item::as_str)
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CODEX: Group = Group {
        event: "PreToolUse",
        matcher: "Bash",
        timeout: 30,
    };

    fn ours(c: &str) -> bool {
        c.contains("agent-guard")
    }

    #[test]
    fn a_file_with_windows_line_endings_keeps_them() {
        let original = "model = \"o3\"\r\n# mine\r\n[[hooks.PreToolUse]]\r\nmatcher = \"Bash\"\r\n";
        let (installed, _) = install(original, &CODEX, "/bin/agent-guard hook", &ours).unwrap();
        assert!(
            !installed.replace("\r\n", "").contains('\n'),
            "{installed:?}"
        );
        assert_eq!(
            uninstall(&installed, &CODEX, &ours).unwrap(),
            Removal::Text(original.to_string())
        );
    }

    #[test]
    fn install_then_uninstall_is_the_original() {
        let original = "model = \"o4\" # mine\n\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"notify\"\n\n[hooks.state]\nx = 1\n";
        assert!(keeps_hooks(original).unwrap());
        let (installed, outcome) = install(
            original,
            &CODEX,
            "/bin/agent-guard hook --host codex",
            &ours,
        )
        .unwrap();
        assert_eq!(outcome, Outcome::Added);
        assert!(installed.starts_with(original.trim_end()), "{installed}");
        assert!(
            installed.contains("[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n"),
            "{installed}"
        );
        assert_eq!(
            commands(&installed, &CODEX, &ours).unwrap(),
            ["/bin/agent-guard hook --host codex"]
        );
        let again = install(
            &installed,
            &CODEX,
            "/bin/agent-guard hook --host codex",
            &ours,
        )
        .unwrap();
        assert_eq!(again, (installed.clone(), Outcome::AlreadyThere));
        let (moved, outcome) = install(
            &installed,
            &CODEX,
            "/opt/agent-guard hook --host codex",
            &ours,
        )
        .unwrap();
        assert_eq!(outcome, Outcome::Updated);
        assert_eq!(moved, installed.replace("/bin/", "/opt/"));
        assert_eq!(
            uninstall(&moved, &CODEX, &ours).unwrap(),
            Removal::Text(original.to_string())
        );
    }

    #[test]
    fn only_the_state_table_is_not_inline_hooks() {
        assert!(!keeps_hooks("[hooks.state]\na = 1\n").unwrap());
        assert!(!keeps_hooks("model = \"x\"\n").unwrap());
        let err = keeps_hooks("model = \n").unwrap_err();
        assert_eq!(err.line, 1);
    }
}
