//! Reading one configuration file into the settings, key by key, with the line of every
//! problem. toml_edit's `Document` keeps the byte span of each key and value, which is what
//! lets a message point at `.agent-guard.toml:7` instead of "somewhere in the file".

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::Path;
use std::time::Duration;

use toml_edit::{Document, Item, Key, TableLike, Value};

use super::{Origin, Problem};
use crate::settings::{Exception, Mode, OnDestructive, Profile, Settings};
use crate::team::{CommandPattern, PathPattern, Pattern, Stop, TeamRule};
use crate::units::{self, Date};

/// Every key a file may set, for "did you mean".
const TOP_KEYS: &[&str] = &[
    "profile",
    "mode",
    "on_destructive",
    "context",
    "protected_branches",
    "regenerable",
    "inline_override",
    "rules",
    "packs",
    "production",
    "allow",
    "deny",
    "ask",
    "snapshots",
    "audit",
];
const RULES_KEYS: &[&str] = &["disable"];
const PACKS_KEYS: &[&str] = &["disable", "enable"];
const ALLOW_KEYS: &[&str] = &["rule", "command", "reason", "expires"];
const TEAM_KEYS: &[&str] = &["id", "reason", "command", "path"];
const SNAPSHOTS_KEYS: &[&str] = &["max_age", "max_size"];
const AUDIT_KEYS: &[&str] = &["max_size", "log_allowed"];

/// Lays the file at `path` (its text) over `settings`, noting in `origins` where each value
/// came from and in `problems` what was wrong and ignored. It never fails: what cannot be read
/// keeps its value.
pub fn apply(
    text: &str,
    path: &Path,
    settings: &mut Settings,
    origins: &mut BTreeMap<&'static str, Origin>,
    problems: &mut Vec<Problem>,
) {
    let mut file = File {
        text,
        path,
        origins,
        problems,
    };
    let doc = match Document::parse(text) {
        Ok(doc) => doc,
        Err(e) => {
            let line = file.line(e.span());
            let message = e.message().trim().replace('\n', " ");
            file.problem(line, "", format!("not valid TOML: {message}"));
            return;
        }
    };
    for (name, item) in doc.iter() {
        let key = doc.key(name);
        match name {
            "profile" => {
                if let Some(v) = file.choice(
                    "profile",
                    key,
                    item,
                    Profile::parse,
                    "\"standard\" or \"strict\"",
                ) {
                    settings.profile = v;
                }
            }
            "mode" => {
                if let Some(v) =
                    file.choice("mode", key, item, Mode::parse, "\"enforce\" or \"observe\"")
                {
                    settings.mode = v;
                }
            }
            "on_destructive" => {
                if let Some(v) = file.choice(
                    "on_destructive",
                    key,
                    item,
                    OnDestructive::parse,
                    "\"deny\" or \"ask\"",
                ) {
                    settings.on_destructive = v;
                }
            }
            "context" => {
                if let Some(v) = file.boolean("context", key, item) {
                    settings.context = v;
                }
            }
            "inline_override" => {
                if let Some(v) = file.boolean("inline_override", key, item) {
                    settings.inline_override = v;
                }
            }
            "protected_branches" => {
                if let Some(v) = file.names("protected_branches", key, item, "branch name") {
                    settings.protected_branches = v;
                }
            }
            "regenerable" => {
                if let Some(v) = file.names("regenerable", key, item, "folder name") {
                    settings.regenerable = v;
                }
            }
            "rules" => file.rules(key, item, settings),
            "packs" => file.packs(key, item, settings),
            "production" => {
                if let Some(v) = file.names("production", key, item, "word") {
                    settings.production = v;
                }
            }
            "allow" => file.allow(key, item, settings),
            "deny" => file.team(Stop::Deny, key, item, settings),
            "ask" => file.team(Stop::Ask, key, item, settings),
            "snapshots" => file.snapshots(key, item, settings),
            "audit" => file.audit(key, item, settings),
            other => {
                let line = file.key_line(key, item);
                file.problem(line, other, unknown("key", other, TOP_KEYS));
            }
        }
    }
}

struct File<'a> {
    text: &'a str,
    path: &'a Path,
    origins: &'a mut BTreeMap<&'static str, Origin>,
    problems: &'a mut Vec<Problem>,
}

impl File<'_> {
    /// The 1-based line of a byte offset (line 1 when the parser gave none).
    fn line(&self, span: Option<Range<usize>>) -> usize {
        let at = span.map_or(0, |s| s.start.min(self.text.len()));
        self.text[..at].matches('\n').count() + 1
    }

    fn key_line(&self, key: Option<&Key>, item: &Item) -> usize {
        self.line(key.and_then(Key::span).or_else(|| item.span()))
    }

    fn problem(&mut self, line: usize, key: &str, message: String) {
        self.problems.push(Problem {
            path: self.path.to_path_buf(),
            line,
            key: key.to_string(),
            message,
        });
    }

    fn set(&mut self, key: &'static str, line: usize) {
        self.origins.insert(
            key,
            Origin::File {
                path: self.path.to_path_buf(),
                line,
            },
        );
    }

    /// A value (not a table) at `key`, or a problem naming what was found instead.
    fn value<'i>(&mut self, name: &str, key: Option<&Key>, item: &'i Item) -> Option<&'i Value> {
        let line = self.key_line(key, item);
        match item.as_value() {
            Some(value) => Some(value),
            None => {
                self.problem(line, name, "expected a value, found a table".into());
                None
            }
        }
    }

    fn string<'i>(&mut self, name: &str, key: Option<&Key>, item: &'i Item) -> Option<&'i str> {
        let value = self.value(name, key, item)?;
        match value.as_str() {
            Some(text) => Some(text),
            None => {
                let line = self.key_line(key, item);
                self.problem(
                    line,
                    name,
                    format!("expected a string, found {}", kind(value)),
                );
                None
            }
        }
    }

    fn choice<T>(
        &mut self,
        name: &'static str,
        key: Option<&Key>,
        item: &Item,
        parse: fn(&str) -> Option<T>,
        expected: &str,
    ) -> Option<T> {
        let text = self.string(name, key, item)?;
        let line = self.key_line(key, item);
        match parse(text) {
            Some(v) => {
                self.set(name, line);
                Some(v)
            }
            None => {
                self.problem(line, name, format!("expected {expected}, found {text:?}"));
                None
            }
        }
    }

    fn boolean(&mut self, name: &'static str, key: Option<&Key>, item: &Item) -> Option<bool> {
        let value = self.value(name, key, item)?;
        let line = self.key_line(key, item);
        match value.as_bool() {
            Some(b) => {
                self.set(name, line);
                Some(b)
            }
            None => {
                self.problem(
                    line,
                    name,
                    format!("expected true or false, found {}", kind(value)),
                );
                None
            }
        }
    }

    /// A list of plain names (branches, folders): strings without `/`-paths or blanks.
    fn names(
        &mut self,
        name: &'static str,
        key: Option<&Key>,
        item: &Item,
        what: &str,
    ) -> Option<Vec<String>> {
        let strings = self.strings(name, key, item)?;
        let line = self.key_line(key, item);
        let mut names = Vec::new();
        for (text, at) in strings {
            let bad = if text.trim().is_empty() {
                Some("an empty name")
            } else if what == "folder name" && text.contains('/') {
                Some("a path; it takes folder names, matched wherever they are")
            } else {
                None
            };
            match bad {
                Some(why) => self.problem(at, name, format!("{text:?} is {why}")),
                None => names.push(text.trim().to_string()),
            }
        }
        self.set(name, line);
        Some(names)
    }

    /// An array of strings, each with its line. Problems for anything else.
    fn strings(
        &mut self,
        name: &str,
        key: Option<&Key>,
        item: &Item,
    ) -> Option<Vec<(String, usize)>> {
        let value = self.value(name, key, item)?;
        let line = self.key_line(key, item);
        let Some(array) = value.as_array() else {
            self.problem(
                line,
                name,
                format!("expected a list of strings, found {}", kind(value)),
            );
            return None;
        };
        let mut out = Vec::new();
        for element in array.iter() {
            let at = self.line(element.span());
            match element.as_str() {
                Some(text) => out.push((text.to_string(), at)),
                None => self.problem(
                    at,
                    name,
                    format!("expected a string, found {}", kind(element)),
                ),
            }
        }
        Some(out)
    }

    /// A table (`[name]` or an inline `{ ... }`) whose keys must be among `known`.
    fn table<'i>(
        &mut self,
        name: &str,
        key: Option<&Key>,
        item: &'i Item,
        known: &[&str],
    ) -> Option<&'i dyn TableLike> {
        let line = self.key_line(key, item);
        let Some(table) = item.as_table_like() else {
            self.problem(line, name, "expected a table".into());
            return None;
        };
        for (inner, inner_item) in table.iter() {
            if !known.contains(&inner) {
                let at = self.key_line(table.key(inner), inner_item);
                let dotted = format!("{name}.{inner}");
                self.problem(at, &dotted, unknown("key", inner, known));
            }
        }
        Some(table)
    }

    fn rules(&mut self, key: Option<&Key>, item: &Item, settings: &mut Settings) {
        let Some(table) = self.table("rules", key, item, RULES_KEYS) else {
            return;
        };
        let ids: Vec<&str> = crate::rules::all().map(|r| r.id).collect();
        if let Some(v) = self.ids(table, "disable", "rules.disable", "rule id", &ids) {
            settings.disabled_rules = v;
        }
    }

    fn packs(&mut self, key: Option<&Key>, item: &Item, settings: &mut Settings) {
        let Some(table) = self.table("packs", key, item, PACKS_KEYS) else {
            return;
        };
        let ids: Vec<&str> = crate::rules::packs::PACKS.iter().map(|p| p.id).collect();
        if let Some(v) = self.ids(table, "disable", "packs.disable", "pack", &ids) {
            settings.disabled_packs = v;
        }
        if let Some(v) = self.ids(table, "enable", "packs.enable", "pack", &ids) {
            settings.enabled_packs = v;
        }
    }

    /// The list at `table.inner` of ids among `known`; a problem for each unknown one.
    fn ids(
        &mut self,
        table: &dyn TableLike,
        inner: &str,
        name: &'static str,
        what: &str,
        known: &[&str],
    ) -> Option<Vec<String>> {
        let item = table.get(inner)?;
        let entries = self.strings(name, table.key(inner), item)?;
        let mut ids = Vec::new();
        for (id, at) in entries {
            if known.contains(&id.as_str()) {
                ids.push(id);
            } else {
                self.problem(at, name, unknown(what, &id, known));
            }
        }
        let line = self.key_line(table.key(inner), item);
        self.set(name, line);
        Some(ids)
    }

    /// The entries of `[[name]]` (or an array of inline tables), each with its line.
    fn entries<'i>(
        &mut self,
        name: &str,
        key: Option<&Key>,
        item: &'i Item,
    ) -> Option<Vec<(&'i dyn TableLike, usize)>> {
        let line = self.key_line(key, item);
        if let Some(tables) = item.as_array_of_tables() {
            return Some(
                tables
                    .iter()
                    .map(|t| (t as &dyn TableLike, self.line(t.span())))
                    .collect(),
            );
        }
        let Some(array) = item.as_array() else {
            self.problem(line, name, format!("expected [[{name}]] tables"));
            return None;
        };
        let mut entries = Vec::new();
        for element in array.iter() {
            let at = self.line(element.span());
            match element.as_inline_table() {
                Some(t) => entries.push((t as &dyn TableLike, at)),
                None => self.problem(
                    at,
                    name,
                    format!("expected a table, found {}", kind(element)),
                ),
            }
        }
        Some(entries)
    }

    fn allow(&mut self, key: Option<&Key>, item: &Item, settings: &mut Settings) {
        let line = self.key_line(key, item);
        let Some(entries) = self.entries("allow", key, item) else {
            return;
        };
        for (n, (table, at)) in entries.into_iter().enumerate() {
            if let Some(exception) = self.exception(table, at, n + 1) {
                settings.allow.push(exception);
            }
        }
        self.set("allow", line);
    }

    /// One `[[allow]]` entry; `None` (and problems) when any part of it is wrong, so that a
    /// half-understood exception never applies.
    fn exception(&mut self, table: &dyn TableLike, at: usize, n: usize) -> Option<Exception> {
        let name = format!("allow[{n}]");
        let before = self.problems.len();
        for (inner, inner_item) in table.iter() {
            if !ALLOW_KEYS.contains(&inner) {
                let line = self.key_line(table.key(inner), inner_item);
                self.problem(
                    line,
                    &format!("{name}.{inner}"),
                    unknown("key", inner, ALLOW_KEYS),
                );
            }
        }
        let mut text = |field: &str| -> Option<String> {
            let item = table.get(field)?;
            let key = format!("{name}.{field}");
            let value = self.string(&key, table.key(field), item)?;
            if value.trim().is_empty() {
                let line = self.key_line(table.key(field), item);
                self.problem(line, &key, "must not be empty".into());
                return None;
            }
            Some(value.to_string())
        };
        let rule = text("rule");
        let command = text("command").map(|c| c.trim().to_string());
        let reason = text("reason");
        if let (Some(id), Some(item)) = (&rule, table.get("rule"))
            && crate::rules::by_id(id).is_none()
        {
            let line = self.key_line(table.key("rule"), item);
            let ids: Vec<&str> = crate::rules::all().map(|r| r.id).collect();
            self.problem(line, &format!("{name}.rule"), unknown("rule id", id, &ids));
        }
        if table.get("rule").is_none() && table.get("command").is_none() {
            self.problem(at, &name, "needs a `rule`, a `command`, or both".into());
        }
        if table.get("reason").is_none() {
            self.problem(
                at,
                &name,
                "needs a `reason`: say why the team allows it".into(),
            );
        }
        let expires = match table.get("expires") {
            None => None,
            Some(item) => self.date(&format!("{name}.expires"), table.key("expires"), item),
        };
        if self.problems.len() > before {
            return None;
        }
        Some(Exception {
            rule,
            command,
            reason: reason?,
            expires,
            origin: format!("{}:{at}", self.path.display()),
        })
    }

    /// The `[[deny]]` or `[[ask]]` entries: each one that has an id, a reason and a pattern
    /// that reads is added; each problem is reported and costs only its own entry.
    fn team(&mut self, stop: Stop, key: Option<&Key>, item: &Item, settings: &mut Settings) {
        let name = stop.as_str();
        let Some(entries) = self.entries(name, key, item) else {
            return;
        };
        for (n, (table, at)) in entries.into_iter().enumerate() {
            let entry = format!("{name}[{}]", n + 1);
            if let Some(rule) = self.team_rule(stop, table, at, &entry) {
                match settings.team.by_id(&rule.id) {
                    Some(first) => {
                        let message =
                            format!("{} is already declared at {}", rule.id, first.origin());
                        self.problem(at, &format!("{entry}.id"), message);
                    }
                    None => settings.team.rules.push(rule),
                }
            }
        }
    }

    fn team_rule(
        &mut self,
        stop: Stop,
        table: &dyn TableLike,
        at: usize,
        entry: &str,
    ) -> Option<TeamRule> {
        // A key the guard does not know is reported, and the rule stands all the same: what
        // it stops is what its pattern says.
        for (inner, inner_item) in table.iter() {
            if !TEAM_KEYS.contains(&inner) {
                let line = self.key_line(table.key(inner), inner_item);
                let dotted = format!("{entry}.{inner}");
                self.problem(line, &dotted, unknown("key", inner, TEAM_KEYS));
            }
        }
        let mut text = |field: &str| -> Option<(String, usize)> {
            let item = table.get(field)?;
            let key = format!("{entry}.{field}");
            let line = self.key_line(table.key(field), item);
            let value = self.string(&key, table.key(field), item)?;
            if value.trim().is_empty() {
                self.problem(line, &key, "must not be empty".into());
                return None;
            }
            Some((value.trim().to_string(), line))
        };
        let id = text("id");
        let reason = text("reason");
        let command = text("command");
        let path = text("path");
        let id = match id {
            Some((id, line)) => match team_id(&id) {
                Ok(id) => Some(id),
                Err(why) => {
                    self.problem(line, &format!("{entry}.id"), why);
                    None
                }
            },
            None => {
                if table.get("id").is_none() {
                    self.problem(at, entry, "needs an `id`, like \"team.no-apply\"".into());
                }
                None
            }
        };
        if table.get("reason").is_none() {
            self.problem(
                at,
                entry,
                "needs a `reason`: the agent reads it when it is stopped".into(),
            );
        }
        let pattern = match (command, path) {
            (Some((text, line)), None) => match CommandPattern::parse(&text) {
                Ok(p) => Some(Pattern::Command(p)),
                Err(why) => {
                    self.problem(line, &format!("{entry}.command"), why);
                    None
                }
            },
            (None, Some((text, line))) => match PathPattern::parse(&text) {
                Ok(p) => Some(Pattern::Path(p)),
                Err(why) => {
                    self.problem(line, &format!("{entry}.path"), why);
                    None
                }
            },
            (Some(_), Some(_)) => {
                self.problem(
                    at,
                    entry,
                    "has both `command` and `path`; write two entries".into(),
                );
                None
            }
            (None, None) => {
                if table.get("command").is_none() && table.get("path").is_none() {
                    self.problem(at, entry, "needs a `command` or a `path` pattern".into());
                }
                None
            }
        };
        Some(TeamRule {
            id: id?,
            stop,
            reason: reason?.0,
            pattern: pattern?,
            file: self.path.to_path_buf(),
            line: at,
        })
    }

    /// A TOML date (`2026-06-30`) or the same as a string.
    fn date(&mut self, name: &str, key: Option<&Key>, item: &Item) -> Option<Date> {
        let value = self.value(name, key, item)?;
        let line = self.key_line(key, item);
        let parsed = match value {
            Value::Datetime(d) => {
                let d = d.value();
                match (d.date, d.time) {
                    (Some(date), None) => Date::parse(&date.to_string()),
                    _ => None,
                }
            }
            Value::String(s) => Date::parse(s.value()),
            _ => None,
        };
        if parsed.is_none() {
            self.problem(
                line,
                name,
                format!(
                    "expected a date like 2026-06-30, found {}",
                    value_text(value)
                ),
            );
        }
        parsed
    }

    fn snapshots(&mut self, key: Option<&Key>, item: &Item, settings: &mut Settings) {
        let Some(table) = self.table("snapshots", key, item, SNAPSHOTS_KEYS) else {
            return;
        };
        if let Some(item) = table.get("max_age")
            && let Some(age) = self.duration("snapshots.max_age", table.key("max_age"), item)
        {
            settings.snapshot_max_age = age;
        }
        if let Some(item) = table.get("max_size")
            && let Some(size) = self.size("snapshots.max_size", table.key("max_size"), item)
        {
            settings.snapshot_max_size = size;
        }
    }

    fn audit(&mut self, key: Option<&Key>, item: &Item, settings: &mut Settings) {
        let Some(table) = self.table("audit", key, item, AUDIT_KEYS) else {
            return;
        };
        if let Some(item) = table.get("max_size")
            && let Some(size) = self.size("audit.max_size", table.key("max_size"), item)
        {
            settings.audit_max_size = size;
        }
        if let Some(item) = table.get("log_allowed")
            && let Some(on) = self.boolean("audit.log_allowed", table.key("log_allowed"), item)
        {
            settings.log_allowed = on;
        }
    }

    fn duration(&mut self, name: &'static str, key: Option<&Key>, item: &Item) -> Option<Duration> {
        let text = self.string(name, key, item)?;
        let line = self.key_line(key, item);
        match units::parse_duration(text).filter(|d| !d.is_zero()) {
            Some(d) => {
                self.set(name, line);
                Some(d)
            }
            None => {
                self.problem(
                    line,
                    name,
                    format!("expected an age like \"14d\", \"12h\" or \"2w\", found {text:?}"),
                );
                None
            }
        }
    }

    /// A size as a string (`"100MB"`) or a whole number of bytes.
    fn size(&mut self, name: &'static str, key: Option<&Key>, item: &Item) -> Option<u64> {
        let value = self.value(name, key, item)?;
        let line = self.key_line(key, item);
        let size = match value {
            Value::String(s) => units::parse_size(s.value()),
            Value::Integer(n) => u64::try_from(*n.value()).ok(),
            _ => None,
        };
        match size.filter(|s| *s > 0) {
            Some(s) => {
                self.set(name, line);
                Some(s)
            }
            None => {
                self.problem(
                    line,
                    name,
                    format!(
                        "expected a size like \"100MB\", found {}",
                        value_text(value)
                    ),
                );
                None
            }
        }
    }
}

/// A team rule's id as given, with `team.` in front when it was left out; an id of other
/// letters would read as one of the guard's own rules.
pub fn team_id(id: &str) -> Result<String, String> {
    let name = id.strip_prefix("team.").unwrap_or(id);
    let fits = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.');
    if name.is_empty() || !name.chars().all(fits) {
        return Err(format!(
            "{id:?} is not an id: letters, digits, `-`, `_` and `.` after `team.`"
        ));
    }
    Ok(format!("team.{name}"))
}

/// "a string", "an integer", ...: what a value is, for messages.
fn kind(value: &Value) -> &'static str {
    match value {
        Value::String(_) => "a string",
        Value::Integer(_) => "an integer",
        Value::Float(_) => "a float",
        Value::Boolean(_) => "a boolean",
        Value::Datetime(_) => "a date",
        Value::Array(_) => "a list",
        Value::InlineTable(_) => "a table",
    }
}

/// The value as written in the file, for messages.
fn value_text(value: &Value) -> String {
    value.to_string().trim().to_string()
}

/// "unknown key `profil` (did you mean `profile`?)".
fn unknown(what: &str, name: &str, known: &[&str]) -> String {
    let near = known
        .iter()
        .map(|k| (distance(name, k), *k))
        .filter(|(d, k)| *d <= 2.max(k.len() / 4))
        .min();
    match near {
        Some((_, k)) => format!("unknown {what} `{name}` (did you mean `{k}`?)"),
        None => format!("unknown {what} `{name}`"),
    }
}

/// Levenshtein distance, for suggestions: one row of the table at a time, each cell from the
/// one to its left (`left`), above (`above`) and above-left (`diagonal`).
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = i;
        let mut left = i + 1;
        for (cell, cb) in row.iter_mut().skip(1).zip(&b) {
            let above = *cell;
            left = (diagonal + usize::from(ca != *cb))
                .min(above + 1)
                .min(left + 1);
            diagonal = above;
            *cell = left;
        }
        if let Some(first) = row.first_mut() {
            *first = i + 1;
        }
    }
    row.last().copied().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> (Settings, Vec<String>, BTreeMap<&'static str, Origin>) {
        let mut settings = Settings::default();
        let mut origins = BTreeMap::new();
        let mut problems = Vec::new();
        apply(
            text,
            Path::new("t.toml"),
            &mut settings,
            &mut origins,
            &mut problems,
        );
        let problems = problems
            .iter()
            .map(|p| format!("{}:{}: {}", p.line, p.key, p.message))
            .collect();
        (settings, problems, origins)
    }

    #[test]
    fn every_key() {
        let (s, problems, origins) = read(
            r#"
profile = "strict"
mode = "observe"
on_destructive = "ask"
context = false
protected_branches = ["main", "release"]
regenerable = ["dist"]
inline_override = false

[rules]
disable = ["git.stash-drop"]

[snapshots]
max_age = "3d"
max_size = "5MB"

[audit]
max_size = 4096
log_allowed = true

[[allow]]
rule = "git.push-force"
command = "git push --force origin gh-pages"
reason = "the docs site is rebuilt from main"
expires = 2030-01-01

[[allow]]
command = "make clean-all"
reason = "our clean target"
expires = "2031-02-03"
"#,
        );
        assert_eq!(problems, Vec::<String>::new());
        assert_eq!(s.profile, Profile::Strict);
        assert_eq!(s.mode, Mode::Observe);
        assert_eq!(s.on_destructive, OnDestructive::Ask);
        assert!(!s.context && !s.inline_override && s.log_allowed);
        assert_eq!(s.protected_branches, ["main", "release"]);
        assert_eq!(s.regenerable, ["dist"]);
        assert_eq!(s.disabled_rules, ["git.stash-drop"]);
        assert_eq!(s.snapshot_max_age, Duration::from_secs(3 * 86_400));
        assert_eq!((s.snapshot_max_size, s.audit_max_size), (5 << 20, 4096));
        assert_eq!(s.allow.len(), 2);
        assert_eq!(s.allow[0].origin, "t.toml:21");
        assert_eq!(s.allow[1].expires, Date::parse("2031-02-03"));
        assert_eq!(
            origins.get("inline_override"),
            Some(&Origin::File {
                path: "t.toml".into(),
                line: 8
            })
        );
    }

    #[test]
    fn production_words_replace_the_default() {
        let (s, problems, _) = read("production = [\"prd\", \"live\"]\n");
        assert_eq!(problems, Vec::<String>::new());
        assert_eq!(s.production, ["prd", "live"]);
        let (s, problems, _) = read("production = [\"\", \"prd\"]\n");
        assert_eq!(problems.len(), 1);
        assert_eq!(s.production, ["prd"]);
    }

    #[test]
    fn problems_name_the_line_and_the_key_and_leave_the_default() {
        let table: &[(&str, &str)] = &[
            (
                "profil = \"strict\"",
                "1:profil: unknown key `profil` (did you mean `profile`?)",
            ),
            (
                "\n\non_destructive = \"maybe\"",
                "3:on_destructive: expected \"deny\" or \"ask\", found \"maybe\"",
            ),
            (
                "context = \"off\"",
                "1:context: expected true or false, found a string",
            ),
            ("mode = 1", "1:mode: expected a string, found an integer"),
            (
                "protected_branches = \"main\"",
                "1:protected_branches: expected a list of strings, found a string",
            ),
            (
                "regenerable = [\"a/b\"]",
                "1:regenerable: \"a/b\" is a path; it takes folder names, matched wherever they are",
            ),
            (
                "[rules]\ndisable = [\"git.rest-hard\"]",
                "2:rules.disable: unknown rule id `git.rest-hard` (did you mean `git.reset-hard`?)",
            ),
            (
                "[rules]\nenable = []",
                "2:rules.enable: unknown key `enable`",
            ),
            (
                "[snapshots]\nmax_age = \"forever\"",
                "2:snapshots.max_age: expected an age like \"14d\", \"12h\" or \"2w\", found \"forever\"",
            ),
            (
                "[audit]\nmax_size = \"huge\"",
                "2:audit.max_size: expected a size like \"100MB\", found \"huge\"",
            ),
            (
                "[[allow]]\nrule = \"git.push-force\"",
                "1:allow[1]: needs a `reason`: say why the team allows it",
            ),
            (
                "[[allow]]\nreason = \"x\"",
                "1:allow[1]: needs a `rule`, a `command`, or both",
            ),
            (
                "[[allow]]\nrule = \"git.push-force\"\nreason = \"x\"\nexpires = \"soon\"",
                "4:allow[1].expires: expected a date like 2026-06-30, found \"soon\"",
            ),
            (
                "[[allow]]\nrule = \"x.y\"\nreason = \"r\"",
                "2:allow[1].rule: unknown rule id `x.y`",
            ),
            (
                "[[allow]]\nrul = \"git.push-force\"\nreason = \"r\"",
                "2:allow[1].rul: unknown key `rul` (did you mean `rule`?)",
            ),
            (
                "profile = ",
                "1:: not valid TOML: string values must be quoted, expected literal string",
            ),
        ];
        for (text, want) in table {
            let (s, problems, _) = read(text);
            assert_eq!(problems.first().map(String::as_str), Some(*want), "{text}");
            assert_eq!(s.profile, Profile::Standard, "{text}");
            assert!(s.allow.is_empty(), "{text}");
        }
    }

    #[test]
    fn a_bad_key_leaves_the_good_ones() {
        let (s, problems, _) = read("profile = \"strict\"\non_destructive = \"maybe\"\n");
        assert_eq!(problems.len(), 1);
        assert_eq!(s.profile, Profile::Strict);
        assert_eq!(s.on_destructive, OnDestructive::Deny);
    }

    #[test]
    fn inline_allow_entries() {
        let (s, problems, _) =
            read("allow = [{ rule = \"git.stash-drop\", reason = \"scratch stashes\" }, 3]");
        assert_eq!(problems, ["1:allow: expected a table, found an integer"]);
        assert_eq!(s.allow.len(), 1);
    }
}
