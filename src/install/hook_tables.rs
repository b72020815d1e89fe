//! Our hook as one `[[hooks]]` table of a TOML file, the shape of Mistral Vibe's `hooks.toml`
//! and Kimi Code's `config.toml`: every hook a flat table of its own, told apart by its keys
//! rather than by where it sits.
//!
//! As with Codex's `config.toml`, toml_edit keeps every byte of the user's tables, comments and
//! spacing; install appends our table after a blank line and uninstall removes exactly it, so
//! the two together give the file back.

use toml_edit::{ArrayOfTables, DocumentMut, Item, Table};

use super::toml::{located_at, parse};
use super::{Located, Outcome, Removal};
use crate::host::wiring::{Field, Tables};

impl Tables {
    fn command_key(&self) -> &'static str {
        self.fields
            .iter()
            .find(|(_, field)| matches!(field, Field::Command))
            .map_or("command", |(key, _)| *key)
    }

    /// Whether `table` is for our event, as [`Tables::fields`] names it.
    fn same_event(&self, table: &Table) -> bool {
        let ours = self.fields.iter().find_map(|(key, field)| match field {
            Field::Str(value) if *key == self.event_key => Some(*value),
            _ => None,
        });
        table.get(self.event_key).and_then(Item::as_str) == ours
    }

    fn table(&self, command_line: &str) -> Table {
        let mut table = Table::new();
        for (key, field) in self.fields {
            let value = match field {
                Field::Str(s) => toml_edit::value(*s),
                Field::Int(n) => toml_edit::value(*n),
                Field::Float(x) => toml_edit::value(*x),
                Field::Command => toml_edit::value(command_line),
            };
            table.insert(key, value);
        }
        table
    }

    /// The file install writes when there is none.
    fn new_file(&self, command_line: &str) -> String {
        let mut doc = DocumentMut::new();
        let mut tables = ArrayOfTables::new();
        tables.push(self.table(command_line));
        doc.insert("hooks", Item::ArrayOfTables(tables));
        doc.to_string()
    }
}

/// The commands of our tables in the file.
pub fn commands(
    text: &str,
    tables: &Tables,
    ours: &dyn Fn(&str) -> bool,
) -> Result<Vec<String>, Located> {
    let doc = parse(text)?;
    Ok(ours_in(&doc, text, tables, ours)?
        .into_iter()
        .map(|(_, command)| command)
        .collect())
}

/// The file (or no file) with our table appended, or our command and strings updated in place.
pub fn install(
    text: Option<&str>,
    tables: &Tables,
    command_line: &str,
    ours: &dyn Fn(&str) -> bool,
) -> Result<(String, Outcome), Located> {
    let Some(text) = text else {
        return Ok((tables.new_file(command_line), Outcome::Created));
    };
    let mut doc = parse(text)?;
    let found = ours_in(&doc, text, tables, ours)?;
    if !found.is_empty() {
        let list = hooks_mut(&mut doc)?;
        let (mut moved, mut changed) = (false, false);
        for (index, _) in found {
            let Some(table) = list.get_mut(index) else {
                continue;
            };
            // The command and the strings we write (the matcher a newer release widened)
            // follow this install; numbers the user tuned stay.
            let wanted = tables.fields.iter().filter_map(|(k, field)| match field {
                Field::Str(s) => Some((*k, *s, false)),
                Field::Command => Some((*k, command_line, true)),
                Field::Int(_) | Field::Float(_) => None,
            });
            for (k, want, is_command) in wanted {
                if table.get(k).and_then(Item::as_str) == Some(want) {
                    continue;
                }
                let mut value = toml_edit::Value::from(want);
                if let Some(Item::Value(old)) = table.get(k) {
                    *value.decor_mut() = old.decor().clone();
                }
                table.insert(k, Item::Value(value));
                match is_command {
                    true => moved = true,
                    false => changed = true,
                }
            }
        }
        return Ok(match (moved, changed) {
            (false, false) => (text.to_string(), Outcome::AlreadyThere),
            (true, false) => (doc.to_string(), Outcome::Updated),
            (_, true) => (doc.to_string(), Outcome::Rematched),
        });
    }
    let mut table = tables.table(command_line);
    // A blank line between the file's last table and ours, as a person would write it.
    if !text.trim().is_empty() {
        table.decor_mut().set_prefix("\n");
    }
    hooks_mut(&mut doc)?.push(table);
    Ok((doc.to_string(), Outcome::Added))
}

/// The file without our tables; a `hooks` list left empty goes too, and a file that is exactly
/// what install writes from nothing is deleted.
pub fn uninstall(
    text: &str,
    tables: &Tables,
    ours: &dyn Fn(&str) -> bool,
) -> Result<Removal, Located> {
    let mut doc = parse(text)?;
    let found = ours_in(&doc, text, tables, ours)?;
    let Some((_, command)) = found.first() else {
        return Ok(Removal::NotThere);
    };
    if text == tables.new_file(command) {
        return Ok(Removal::DeleteFile);
    }
    let list = hooks_mut(&mut doc)?;
    // Back to front, so that the indices still to visit stay valid.
    for (index, _) in found.into_iter().rev() {
        list.remove(index);
    }
    if list.is_empty() {
        doc.remove("hooks");
    }
    Ok(Removal::Text(doc.to_string()))
}

/// The index and command of each table of ours; an error when `hooks` is not `[[hooks]]`.
fn ours_in(
    doc: &DocumentMut,
    text: &str,
    tables: &Tables,
    ours: &dyn Fn(&str) -> bool,
) -> Result<Vec<(usize, String)>, Located> {
    let Some(item) = doc.get("hooks") else {
        return Ok(Vec::new());
    };
    let Some(list) = item.as_array_of_tables() else {
        // An editable document keeps no positions: the read-only parse has them.
        let at = toml_edit::Document::parse(text)
            .ok()
            .and_then(|read| read.get("hooks").and_then(Item::span))
            .map_or(0, |span| span.start);
        return Err(located_at(
            text,
            at,
            "`hooks` is not written as [[hooks]] tables".into(),
        ));
    };
    let key = tables.command_key();
    Ok(list
        .iter()
        .enumerate()
        .filter(|(_, table)| tables.same_event(table))
        .filter_map(|(index, table)| {
            let command = table.get(key)?.as_str()?;
            ours(command).then(|| (index, command.to_string()))
        })
        .collect())
}

/// `[[hooks]]`, created when missing. Called once [`ours_in`] has accepted the document, so
/// `hooks` is an array of tables when it exists.
fn hooks_mut(doc: &mut DocumentMut) -> Result<&mut ArrayOfTables, Located> {
    doc.entry("hooks")
        .or_insert(Item::ArrayOfTables(ArrayOfTables::new()))
        .as_array_of_tables_mut()
        .ok_or_else(|| Located {
            line: 1,
            column: 1,
            message: "`hooks` is not a list of `[[hooks]]` tables".into(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLES: Tables = Tables {
        fields: &[
            ("name", Field::Str("agent-guard")),
            ("type", Field::Str("pre_tool")),
            ("command", Field::Command),
            ("timeout", Field::Float(30.0)),
        ],
        event_key: "type",
    };

    fn ours(c: &str) -> bool {
        c.contains("agent-guard")
    }

    #[test]
    fn an_older_matcher_of_ours_is_rewritten_and_a_tuned_timeout_stays() {
        const WIDER: Tables = Tables {
            fields: &[
                ("event", Field::Str("PreToolUse")),
                ("matcher", Field::Str("^Bash$|^mcp__")),
                ("command", Field::Command),
                ("timeout", Field::Int(30)),
            ],
            event_key: "event",
        };
        let old = "[[hooks]]\nevent = \"PreToolUse\"\nmatcher = \"^Bash$\" # shell\ncommand = \"/bin/agent-guard hook\"\ntimeout = 9\n";
        let (out, outcome) = install(Some(old), &WIDER, "/bin/agent-guard hook", &ours).unwrap();
        assert_eq!(outcome, Outcome::Rematched);
        assert_eq!(out, old.replace("\"^Bash$\"", "\"^Bash$|^mcp__\""));
        let again = install(Some(&out), &WIDER, "/bin/agent-guard hook", &ours).unwrap();
        assert_eq!(again, (out, Outcome::AlreadyThere));
    }

    #[test]
    fn install_then_uninstall_is_the_original() {
        let original = "# mine\n[[hooks]]\nname = \"lint\" # keep\ntype = \"post_agent\"\ncommand = \"make lint\"\n\n[other]\nx = 1\n";
        let (installed, outcome) = install(
            Some(original),
            &TABLES,
            "/bin/agent-guard hook --host vibe",
            &ours,
        )
        .unwrap();
        assert_eq!(outcome, Outcome::Added);
        assert!(
            installed.contains("name = \"lint\" # keep\n"),
            "{installed}"
        );
        assert!(
            installed.contains("\n\n[[hooks]]\nname = \"agent-guard\"\ntype = \"pre_tool\"\ncommand = \"/bin/agent-guard hook --host vibe\"\ntimeout = 30.0\n"),
            "{installed}"
        );
        assert_eq!(
            commands(&installed, &TABLES, &ours).unwrap(),
            ["/bin/agent-guard hook --host vibe"]
        );
        let again = install(
            Some(&installed),
            &TABLES,
            "/bin/agent-guard hook --host vibe",
            &ours,
        )
        .unwrap();
        assert_eq!(again, (installed.clone(), Outcome::AlreadyThere));
        let (moved, outcome) = install(
            Some(&installed),
            &TABLES,
            "/opt/agent-guard hook --host vibe",
            &ours,
        )
        .unwrap();
        assert_eq!(outcome, Outcome::Updated);
        assert_eq!(moved, installed.replace("/bin/", "/opt/"));
        assert_eq!(
            uninstall(&moved, &TABLES, &ours).unwrap(),
            Removal::Text(original.to_string())
        );
    }

    #[test]
    fn a_file_of_ours_alone_is_deleted_and_others_are_left() {
        let (created, outcome) =
            install(None, &TABLES, "/bin/agent-guard hook --host vibe", &ours).unwrap();
        assert_eq!(outcome, Outcome::Created);
        assert!(created.starts_with("[[hooks]]\n"), "{created}");
        assert_eq!(
            uninstall(&created, &TABLES, &ours).unwrap(),
            Removal::DeleteFile
        );
        let theirs = "[[hooks]]\nname = \"x\"\ntype = \"pre_tool\"\ncommand = \"guard\"\n";
        assert_eq!(
            uninstall(theirs, &TABLES, &ours).unwrap(),
            Removal::NotThere
        );
    }

    /// Kimi Code's two tables run the same command: each event's table is its own entry.
    #[test]
    fn a_table_of_ours_under_another_event_is_another_entry() {
        const AFTER: Tables = Tables {
            fields: &[
                ("type", Field::Str("post_tool")),
                ("command", Field::Command),
            ],
            event_key: "type",
        };
        let command = "/bin/agent-guard hook --host vibe";
        let (before, _) = install(None, &TABLES, command, &ours).unwrap();
        let (both, outcome) = install(Some(&before), &AFTER, command, &ours).unwrap();
        assert_eq!(outcome, Outcome::Added);
        assert_eq!(commands(&both, &TABLES, &ours).unwrap(), [command]);
        assert_eq!(commands(&both, &AFTER, &ours).unwrap(), [command]);
        assert_eq!(
            uninstall(&both, &AFTER, &ours).unwrap(),
            Removal::Text(before.clone())
        );
        assert_eq!(
            install(Some(&both), &TABLES, command, &ours).unwrap(),
            (both, Outcome::AlreadyThere)
        );
    }

    #[test]
    fn hooks_of_another_shape_are_an_error_at_their_line() {
        let text = "model = \"x\"\nhooks = [{ name = \"a\" }]\n";
        let err = install(
            Some(text),
            &TABLES,
            "/bin/agent-guard hook --host vibe",
            &ours,
        )
        .unwrap_err();
        assert_eq!(err.line, 2, "{}", err.message);
        assert!(err.message.contains("[[hooks]]"), "{}", err.message);
    }
}
