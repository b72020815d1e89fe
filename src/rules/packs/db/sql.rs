//! The SQL reader shared by the `db` pack (SQL on a client's command line or stdin) and the
//! context (SQL in a file the command names): which statements of a text destroy data.
//!
//! The text is parsed with `sqlparser` in the client's dialect, so a string literal or a
//! comment that only mentions `DROP TABLE` is data, not a statement. Text the parser rejects
//! (a client's meta-commands, a dialect quirk, a typo) is not passed on trust: its statements
//! are split on `;` by the tokenizer and their first words read, which still tells
//! `DROP TABLE x` from `SELECT 'DROP TABLE x'`. Where the tokenizer gives up too (a quote that
//! never ends), the statements before that point are still read; the one it stopped in is not
//! SQL the client would run as written, but neither it nor what follows was seen, so a reading
//! says so when that part names a destructive statement. So does a reading of text too large
//! to read at all.

use sqlparser::ast::{
    AlterTableOperation, FromTable, ObjectName, ObjectType, Statement, TableFactor,
};
use sqlparser::dialect::{
    ClickHouseDialect, Dialect as ParserDialect, DuckDbDialect, MySqlDialect, PostgreSqlDialect,
    SQLiteDialect,
};
use sqlparser::parser::Parser;
use sqlparser::tokenizer::{Location, Token, Tokenizer, Whitespace};

/// Text past this size is not read: no client line holds that much SQL by hand.
pub const MAX_SQL_BYTES: usize = 256 << 10;
/// Nesting the parser follows before it gives up (and the head scan takes over).
const RECURSION_LIMIT: usize = 40;

/// Which client's SQL this is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Postgres,
    MySql,
    Sqlite,
    DuckDb,
    ClickHouse,
}

/// What a destructive statement does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `DROP DATABASE|SCHEMA|TABLE|MATERIALIZED VIEW`, or any `DROP ... CASCADE`.
    Drop,
    Truncate,
    /// `DELETE` without `WHERE`.
    DeleteAll,
    /// `UPDATE` without `WHERE`.
    UpdateAll,
    /// `ALTER TABLE ... DROP COLUMN|PARTITION`.
    AlterDrop,
}

/// One destructive statement: what it does and to what, in a phrase ("table `orders`").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Destruction {
    pub kind: Kind,
    pub what: String,
    /// The databases and schemas it names (a dropped database or schema itself, the qualifier
    /// of a table such as `prod` in `prod.orders`), for the production check. A table's own
    /// name is left out: `live_events` is a table, not a place.
    pub names: Vec<String>,
}

/// What `found` does, in a phrase: "drops table `orders`".
pub fn describe(found: &Destruction) -> String {
    let what = &found.what;
    match found.kind {
        Kind::Drop => format!("drops {what}"),
        Kind::Truncate => format!("deletes every row of {what} (`TRUNCATE`)"),
        Kind::DeleteAll => format!("deletes every row of {what} (`DELETE` with no `WHERE`)"),
        Kind::UpdateAll => format!("overwrites every row of {what} (`UPDATE` with no `WHERE`)"),
        Kind::AlterDrop => format!("drops {what}"),
    }
}

/// What a reading of SQL text found.
#[derive(Debug, Default)]
pub struct Read {
    /// Every destructive statement, in order.
    pub found: Vec<Destruction>,
    /// Why part of the text was not read, when that part names a destructive statement:
    /// silence about it is no sign of safety.
    pub unread: Option<&'static str>,
}

/// Every destructive statement in `sql`, in order.
pub fn destructions(sql: &str, dialect: Dialect) -> Vec<Destruction> {
    read(sql, dialect).found
}

/// Every destructive statement in `sql`, and whether a part that was not read names one.
pub fn read(sql: &str, dialect: Dialect) -> Read {
    if sql.len() > MAX_SQL_BYTES {
        return Read {
            found: Vec::new(),
            unread: names_destruction(sql)
                .then_some("the SQL is larger than the 256 KiB the guard reads"),
        };
    }
    if sql.trim().is_empty() {
        return Read::default();
    }
    let parser_dialect = parser_dialect(dialect);
    // A parser bug must not take the hook down with it: a panic reads as "not parsed".
    let parsed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        Parser::new(parser_dialect.as_ref())
            .with_recursion_limit(RECURSION_LIMIT)
            .try_with_sql(sql)
            .and_then(|mut p| p.parse_statements())
    }));
    match parsed {
        Ok(Ok(statements)) => Read {
            found: statements.iter().filter_map(statement).collect(),
            unread: None,
        },
        _ => head_scan(sql, parser_dialect.as_ref()),
    }
}

/// Whether `text` names a statement that destroys data, as a whole word in any case.
fn names_destruction(text: &str) -> bool {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .any(|w| {
            ["DROP", "TRUNCATE", "DELETE", "UPDATE"]
                .iter()
                .any(|kw| kw.eq_ignore_ascii_case(w))
        })
}

fn parser_dialect(dialect: Dialect) -> Box<dyn ParserDialect> {
    match dialect {
        Dialect::Postgres => Box::new(PostgreSqlDialect {}),
        Dialect::MySql => Box::new(MySqlDialect {}),
        Dialect::Sqlite => Box::new(SQLiteDialect {}),
        Dialect::DuckDb => Box::new(DuckDbDialect {}),
        Dialect::ClickHouse => Box::new(ClickHouseDialect {}),
    }
}

fn statement(statement: &Statement) -> Option<Destruction> {
    match statement {
        Statement::Drop {
            object_type,
            names,
            cascade,
            ..
        } => {
            let noun = match object_type {
                ObjectType::Database => "database",
                ObjectType::Schema => "schema",
                ObjectType::Table | ObjectType::ForeignTable => "table",
                ObjectType::MaterializedView => "materialized view",
                _ if *cascade => "object",
                _ => return None,
            };
            let mut found = named(Kind::Drop, noun, names.iter());
            if *cascade {
                found
                    .what
                    .push_str(" with CASCADE (and everything that depends on it)");
            }
            Some(found)
        }
        Statement::Truncate(t) => Some(named(
            Kind::Truncate,
            "table",
            t.table_names.iter().map(|t| &t.name),
        )),
        Statement::Delete(d) if d.selection.is_none() => {
            let from = match &d.from {
                FromTable::WithFromKeyword(t) | FromTable::WithoutKeyword(t) => t,
            };
            let tables: Vec<&ObjectName> = d
                .tables
                .iter()
                .chain(from.iter().filter_map(|t| match &t.relation {
                    TableFactor::Table { name, .. } => Some(name),
                    _ => None,
                }))
                .collect();
            Some(named(Kind::DeleteAll, "table", tables))
        }
        Statement::Update(u) if u.selection.is_none() => {
            let table = match &u.table.relation {
                TableFactor::Table { name, .. } => vec![name],
                _ => Vec::new(),
            };
            Some(named(Kind::UpdateAll, "table", table))
        }
        Statement::AlterTable(alter) => {
            let mut dropped = Vec::new();
            for op in &alter.operations {
                match op {
                    AlterTableOperation::DropColumn { column_names, .. } => {
                        dropped.extend(column_names.iter().map(|c| format!("column `{}`", c.value)))
                    }
                    AlterTableOperation::DropPartitions { .. } => {
                        dropped.push("partitions".to_string())
                    }
                    _ => {}
                }
            }
            (!dropped.is_empty()).then(|| Destruction {
                kind: Kind::AlterDrop,
                what: format!("{} of table `{}`", dropped.join(", "), alter.name),
                names: container(&bare(&alter.name), false).into_iter().collect(),
            })
        }
        _ => None,
    }
}

fn named<'a>(
    kind: Kind,
    noun: &str,
    names: impl IntoIterator<Item = &'a ObjectName>,
) -> Destruction {
    let names: Vec<&ObjectName> = names.into_iter().collect();
    let shown: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    let what = match shown.len() {
        0 => noun.to_string(),
        1 => format!("{noun} {}", shown[0]),
        _ => format!("{noun}s {}", shown.join(", ")),
    };
    Destruction {
        kind,
        what,
        names: names
            .iter()
            .filter_map(|n| container(&bare(n), noun == "database" || noun == "schema"))
            .collect(),
    }
}

/// The database or schema in a name: all of it for a database or schema, else the qualifier.
fn container(name: &str, whole: bool) -> Option<String> {
    if whole {
        return (!name.is_empty()).then(|| name.to_string());
    }
    name.rsplit_once('.')
        .map(|(qualifier, _)| qualifier.to_string())
}

/// `db.schema.table` as plain text without quotes, for matching names against patterns.
fn bare(name: &ObjectName) -> String {
    name.to_string().replace(['"', '`', '[', ']'], "")
}

/// For text the parser rejects: each statement's first words, unquoted and outside comments.
/// Where the tokenizer gives up, the statements before the one it stopped in are read, and
/// the rest is reported unread when it names a destructive statement.
fn head_scan(sql: &str, dialect: &dyn ParserDialect) -> Read {
    let mut tokens = Vec::new();
    let failed_at = Tokenizer::new(dialect, sql)
        .tokenize_with_location_into_buf(&mut tokens)
        .err()
        .map(|e| e.location);
    let mut found = Vec::new();
    let mut statement: Vec<String> = Vec::new();
    // Where the statement under way starts.
    let mut start: Option<Location> = None;
    for token in &tokens {
        match &token.token {
            Token::SemiColon => {
                found.extend(head(&statement));
                statement.clear();
                start = None;
                continue;
            }
            Token::Whitespace(
                Whitespace::Space
                | Whitespace::Newline
                | Whitespace::Tab
                | Whitespace::SingleLineComment { .. }
                | Whitespace::MultiLineComment(_),
            ) => continue,
            // A quoted word is a name, never a keyword; keep it only as a name.
            Token::Word(w) if w.quote_style.is_none() => {
                statement.push(w.value.to_ascii_uppercase())
            }
            Token::Word(w) => statement.push(format!("\"{}\"", w.value)),
            Token::Period => statement.push(".".into()),
            _ => statement.push(String::new()),
        }
        start.get_or_insert(token.span.start);
    }
    let Some(failed_at) = failed_at else {
        found.extend(head(&statement));
        return Read {
            found,
            unread: None,
        };
    };
    let rest = &sql[offset(sql, start.unwrap_or(failed_at))..];
    Read {
        found,
        unread: names_destruction(rest).then_some("the SQL could not be read to its end"),
    }
}

/// The byte offset in `sql` of a tokenizer location (line and character column, from 1).
fn offset(sql: &str, at: Location) -> usize {
    let mut line_start = 0;
    for _ in 1..at.line {
        match sql[line_start..].find('\n') {
            Some(end) => line_start += end + 1,
            None => return sql.len(),
        }
    }
    let column = usize::try_from(at.column.saturating_sub(1)).unwrap_or(usize::MAX);
    sql[line_start..]
        .char_indices()
        .nth(column)
        .map_or(sql.len(), |(i, _)| line_start + i)
}

/// The destruction a statement's words (upper-cased keywords) begin with, if any.
fn head(words: &[String]) -> Option<Destruction> {
    let word = |i: usize| words.get(i).map(String::as_str).unwrap_or("");
    let has = |kw: &str| words.iter().any(|w| w == kw);
    // The object's name: the first word after the keywords, with its dotted parts.
    let name_after = |start: usize| {
        let mut i = start;
        while matches!(word(i), "IF" | "EXISTS" | "TABLE" | "ONLY" | "FROM") {
            i += 1;
        }
        let mut name = String::new();
        while let Some(w) = words.get(i).filter(|w| !w.is_empty()) {
            if w != "." && !name.is_empty() && !name.ends_with('.') {
                break;
            }
            name.push_str(&w.to_ascii_lowercase().replace('"', ""));
            i += 1;
        }
        name
    };
    let make = |kind, noun: &str, at: usize| {
        let name = name_after(at);
        Destruction {
            kind,
            what: if name.is_empty() {
                noun.to_string()
            } else {
                format!("{noun} `{name}`")
            },
            names: container(&name, noun == "database" || noun == "schema")
                .into_iter()
                .collect(),
        }
    };
    match (word(0), word(1)) {
        ("DROP", "DATABASE") => Some(make(Kind::Drop, "database", 2)),
        ("DROP", "SCHEMA") => Some(make(Kind::Drop, "schema", 2)),
        ("DROP", "TABLE") => Some(make(Kind::Drop, "table", 2)),
        ("DROP", "MATERIALIZED") => Some(make(Kind::Drop, "materialized view", 3)),
        ("DROP", _) if has("CASCADE") => {
            let mut found = make(Kind::Drop, "object", 2);
            found
                .what
                .push_str(" with CASCADE (and everything that depends on it)");
            Some(found)
        }
        ("TRUNCATE", _) => Some(make(Kind::Truncate, "table", 1)),
        ("DELETE", _) if !has("WHERE") => Some(make(Kind::DeleteAll, "table", 1)),
        ("UPDATE", _) if !has("WHERE") => Some(make(Kind::UpdateAll, "table", 1)),
        ("ALTER", "TABLE") if has("DROP") && (has("COLUMN") || has("PARTITION")) => {
            Some(make(Kind::AlterDrop, "columns or partitions of table", 2))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(sql: &str, dialect: Dialect) -> Vec<Kind> {
        destructions(sql, dialect).iter().map(|d| d.kind).collect()
    }

    #[test]
    fn destructive_statements_are_found_by_the_parser() {
        let pg = Dialect::Postgres;
        assert_eq!(kinds("drop table orders", pg), [Kind::Drop]);
        assert_eq!(
            kinds("DROP DATABASE app; DROP SCHEMA s CASCADE", pg),
            [Kind::Drop, Kind::Drop]
        );
        assert_eq!(kinds("truncate orders, items", pg), [Kind::Truncate]);
        assert_eq!(kinds("DELETE FROM users", pg), [Kind::DeleteAll]);
        assert_eq!(
            kinds("update users set admin = true", pg),
            [Kind::UpdateAll]
        );
        assert_eq!(
            kinds("ALTER TABLE t DROP COLUMN email", pg),
            [Kind::AlterDrop]
        );
        assert_eq!(kinds("DROP TABLE `x`", Dialect::MySql), [Kind::Drop]);
        let found = destructions("drop table public.orders", pg);
        assert_eq!(found[0].what, "table `public.orders`");
        assert_eq!(found[0].names, ["public"]);
        assert_eq!(destructions("DROP DATABASE shop", pg)[0].names, ["shop"]);
        assert_eq!(
            destructions("DELETE FROM live_events", pg)[0].names,
            [""; 0]
        );
    }

    #[test]
    fn reads_mentions_and_filtered_writes_pass() {
        for sql in [
            "SELECT 'DROP TABLE users'",
            "-- DROP TABLE users\nSELECT 1",
            "/* truncate t */ select 1",
            "DELETE FROM users WHERE id = 3",
            "UPDATE users SET a = 1 WHERE id = 2",
            "INSERT INTO log VALUES ('drop database x')",
            "CREATE TABLE t (id int)",
            "EXPLAIN DELETE FROM users",
            "DROP INDEX idx_users_email",
            "DROP VIEW recent_orders",
            "ALTER TABLE t DROP CONSTRAINT fk",
            "ALTER TABLE t ADD COLUMN c int",
        ] {
            assert_eq!(kinds(sql, Dialect::Postgres), [], "{sql}");
        }
    }

    #[test]
    fn text_the_parser_rejects_is_scanned_by_statement_heads() {
        let pg = Dialect::Postgres;
        assert_eq!(kinds("\\dt; DROP TABLE orders", pg), [Kind::Drop]);
        assert_eq!(kinds("\\x\nSELECT 'DROP TABLE x'", pg), []);
        assert_eq!(kinds("DROP TABLE orders PLEASE NOW", pg), [Kind::Drop]);
        assert_eq!(kinds("delete from t whatever where x", pg), []);
        assert_eq!(kinds("SELECT 'unterminated", pg), []);
    }

    #[test]
    fn statements_before_a_quote_that_never_ends_are_read() {
        let my = Dialect::MySql;
        assert_eq!(kinds("DROP TABLE a; SELECT 'x", my), [Kind::Drop]);
        let cut = read("SELECT 1; DELETE FROM t WHERE note = 'x", my);
        assert!(cut.found.is_empty());
        assert!(cut.unread.is_some());
        for sql in [
            "SELECT 'unterminated",
            "DELETE FROM t WHERE id = 1; SELECT 'x",
        ] {
            let cut = read(sql, Dialect::Postgres);
            assert_eq!((cut.found.len(), cut.unread), (0, None), "{sql}");
        }
    }

    #[test]
    fn text_too_large_to_read_says_so_when_it_names_a_destruction() {
        let filler = "SELECT 1;\n".repeat(MAX_SQL_BYTES / 10 + 1);
        let big = read(&format!("{filler}drop table users;"), Dialect::Postgres);
        assert!(big.found.is_empty());
        assert!(big.unread.is_some());
        assert_eq!(read(&filler, Dialect::Postgres).unread, None);
    }

    #[test]
    fn tokenizer_locations_map_to_byte_offsets() {
        let at = |line, column| offset("ab\nçd\n", Location { line, column });
        assert_eq!(
            [at(1, 1), at(1, 3), at(2, 1), at(2, 2), at(9, 1)],
            [0, 2, 3, 5, 7]
        );
    }

    #[test]
    fn oversized_and_deep_text_never_panics() {
        let deep = format!("SELECT {}1{}", "(".repeat(5000), ")".repeat(5000));
        assert_eq!(kinds(&deep, Dialect::Postgres), []);
        let big = "x".repeat(MAX_SQL_BYTES + 1);
        assert_eq!(kinds(&big, Dialect::Sqlite), []);
    }
}
