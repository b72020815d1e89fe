//! The SQL reader shared by the `db` pack (SQL on a client's command line or stdin) and the
//! context (SQL in a file the command names): which statements of a text destroy data.
//!
//! The text is parsed with `sqlparser` in the client's dialect, so a string literal or a
//! comment that only mentions `DROP TABLE` is data, not a statement. Text the parser rejects
//! (a client's meta-commands, a dialect quirk, CQL or InfluxQL statements it does not know, a
//! typo) is not passed on trust: its statements are split on `;` by the tokenizer and their
//! first words read, which still tells `DROP TABLE x` from `SELECT 'DROP TABLE x'`. Where the
//! tokenizer gives up too (a quote that never ends), the statements before that point are
//! still read; the one it stopped in is not SQL the client would run as written, but neither
//! it nor what follows was seen, so a reading says so when that part names a destructive
//! statement. So does a reading of text too large to read at all.
//!
//! Statements are read in order, as the server runs them: what a transaction rolls back
//! (`BEGIN; DELETE FROM t; ROLLBACK`) destroys nothing, unless the server commits it anyway
//! (MySQL ends a transaction at any DDL statement), and `EXPLAIN ANALYZE` runs the statement
//! it explains.

use sqlparser::ast::{
    AlterTableOperation, BinaryOperator, Expr, FromTable, ObjectName, ObjectType, Statement,
    TableFactor, UnaryOperator, Value,
};
use sqlparser::dialect::{
    ClickHouseDialect, Dialect as ParserDialect, DuckDbDialect, GenericDialect, MsSqlDialect,
    MySqlDialect, PostgreSqlDialect, SQLiteDialect,
};
use sqlparser::keywords::Keyword;
use sqlparser::parser::{Parser, ParserError};
use sqlparser::tokenizer::{Location, Token, Tokenizer, Whitespace};

/// Text past this size is not read: no client line holds that much SQL by hand.
pub const MAX_SQL_BYTES: usize = 256 << 10;
/// Nesting the parser follows before it gives up (and the head scan takes over).
const RECURSION_LIMIT: usize = 40;

/// Which server's SQL this is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Postgres,
    MySql,
    Sqlite,
    DuckDb,
    ClickHouse,
    /// SQL Server's T-SQL.
    MsSql,
    /// Cassandra's CQL.
    Cql,
    /// InfluxDB 1.x's InfluxQL.
    InfluxQl,
    /// A server not known from the command (a universal client, an ORM's raw query).
    Generic,
}

/// What a transaction rolled back takes back with it, on a server.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Transactions {
    /// Every statement: DDL is transactional too (PostgreSQL, SQLite, DuckDB, SQL Server).
    All,
    /// Row changes only; any other statement commits what came before it (MySQL). Also
    /// assumed of a server not known.
    RowsOnly,
    /// Nothing: every statement takes effect at once (ClickHouse, Cassandra, InfluxDB).
    None,
}

impl Dialect {
    fn transactions(self) -> Transactions {
        match self {
            Dialect::Postgres | Dialect::Sqlite | Dialect::DuckDb | Dialect::MsSql => {
                Transactions::All
            }
            Dialect::MySql | Dialect::Generic => Transactions::RowsOnly,
            Dialect::ClickHouse | Dialect::Cql | Dialect::InfluxQl => Transactions::None,
        }
    }

    fn parser(self) -> Box<dyn ParserDialect> {
        match self {
            Dialect::Postgres => Box::new(PostgreSqlDialect {}),
            Dialect::MySql => Box::new(MySqlDialect {}),
            Dialect::Sqlite => Box::new(SQLiteDialect {}),
            Dialect::DuckDb => Box::new(DuckDbDialect {}),
            Dialect::ClickHouse => Box::new(ClickHouseDialect {}),
            Dialect::MsSql => Box::new(MsSqlDialect {}),
            Dialect::Cql | Dialect::InfluxQl | Dialect::Generic => Box::new(GenericDialect {}),
        }
    }
}

/// What a destructive statement does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `DROP DATABASE|SCHEMA|TABLE|MATERIALIZED VIEW` (CQL's `KEYSPACE`, InfluxQL's
    /// `MEASUREMENT`, `SERIES`, `RETENTION POLICY`, `SHARD`), or any `DROP ... CASCADE`.
    Drop,
    Truncate,
    /// `DELETE` without `WHERE`, or with a `WHERE` that holds for every row.
    DeleteAll,
    /// `UPDATE` without `WHERE`, or with a `WHERE` that holds for every row.
    UpdateAll,
    /// `ALTER TABLE ... DROP COLUMN|PARTITION`.
    AlterDrop,
}

impl Kind {
    /// Whether a statement of this kind changes rows only, so that even a server whose
    /// transactions hold rows only ([`Transactions::RowsOnly`]) rolls it back.
    fn changes_rows_only(self) -> bool {
        matches!(self, Kind::DeleteAll | Kind::UpdateAll)
    }
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
    /// The line of the text its statement starts on, from 1; 0 when not known.
    pub line: u64,
}

/// What `found` does, in a phrase: "drops table `orders`".
pub fn describe(found: &Destruction) -> String {
    let what = &found.what;
    match found.kind {
        Kind::Drop => format!("drops {what}"),
        Kind::Truncate => format!("deletes every row of {what} (`TRUNCATE`)"),
        Kind::DeleteAll => {
            format!("deletes every row of {what} (`DELETE` with no `WHERE` that picks rows)")
        }
        Kind::UpdateAll => {
            format!("overwrites every row of {what} (`UPDATE` with no `WHERE` that picks rows)")
        }
        Kind::AlterDrop => format!("drops {what}"),
    }
}

/// What a reading of SQL text found.
#[derive(Debug, Default)]
pub struct Read {
    /// Every destructive statement that takes effect, in order.
    pub found: Vec<Destruction>,
    /// Why part of the text was not read, when that part names a destructive statement:
    /// silence about it is no sign of safety.
    pub unread: Option<&'static str>,
}

/// Every destructive statement in `sql` that takes effect, in order.
pub fn destructions(sql: &str, dialect: Dialect) -> Vec<Destruction> {
    read(sql, dialect).found
}

/// Every destructive statement in `sql` that takes effect, and whether a part that was not
/// read names one.
pub fn read(sql: &str, dialect: Dialect) -> Read {
    read_all([sql], dialect)
}

/// [`read`] for `texts` run one after the other in one session (`psql -c 'BEGIN' -c 'DELETE
/// FROM t' -c 'ROLLBACK'`).
pub fn read_all<'a>(texts: impl IntoIterator<Item = &'a str>, dialect: Dialect) -> Read {
    let mut steps = Vec::new();
    let mut unread = None;
    for text in texts {
        let (read, why) = statements(text, dialect);
        steps.extend(read);
        unread = unread.or(why);
    }
    Read {
        found: settle(steps, dialect.transactions()),
        unread,
    }
}

/// A file a client's meta-command in SQL text runs (`\i reset.sql`, `source reset.sql`,
/// `.read reset.sql`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Included<'a> {
    pub file: &'a str,
    /// Named from the folder of the file that holds the command (psql's `\ir`), not from
    /// where the client started.
    pub relative: bool,
    /// The line of the text the command stands on, from 1.
    pub line: u64,
}

/// The files the client's meta-commands in `sql` run, in order: psql's `\i`, `\include`,
/// `\ir` and `\include_relative` (which `cockroach sql` and `usql` take too), the mysql
/// client's `source` and `\.`, the sqlite3 and duckdb shells' `.read`. Each stands at the
/// start of a line; a `.read` of `|command` runs a program, not a file, and is left out.
pub fn included(sql: &str, dialect: Dialect) -> Vec<Included<'_>> {
    let commands: &[(&str, bool)] = match dialect {
        Dialect::Postgres => &[
            ("\\include_relative", true),
            ("\\include", false),
            ("\\ir", true),
            ("\\i", false),
        ],
        Dialect::MySql => &[("source", false), ("\\.", false)],
        Dialect::Sqlite | Dialect::DuckDb => &[(".read", false)],
        _ => &[],
    };
    let mut found = Vec::new();
    for (at, line) in sql.lines().enumerate() {
        let line = line.trim_start();
        let command = commands.iter().find_map(|(name, relative)| {
            let rest = line
                .get(..name.len())
                .filter(|head| head.eq_ignore_ascii_case(name))
                .map(|_| &line[name.len()..])?;
            rest.starts_with([' ', '\t'])
                .then_some((rest.trim(), *relative))
        });
        let Some((rest, relative)) = command else {
            continue;
        };
        let file = match rest.chars().next() {
            Some(quote @ ('\'' | '"')) => rest[1..].split(quote).next().unwrap_or(""),
            _ => rest
                .split_whitespace()
                .next()
                .unwrap_or("")
                .trim_end_matches(';'),
        };
        if !file.is_empty() && !file.starts_with('|') {
            found.push(Included {
                file,
                relative,
                line: at as u64 + 1,
            });
        }
    }
    found
}

/// Whether `sql` may open a database file: the sqlite3 and duckdb shells' `.open`, or an
/// `ATTACH`, as a word in any case.
pub fn opens_database(sql: &str) -> bool {
    sql.lines()
        .any(|line| line.trim_start().to_ascii_lowercase().starts_with(".open"))
        || sql
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .any(|w| w.eq_ignore_ascii_case("attach"))
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

/// One statement as far as losing data goes.
enum Step {
    Begin,
    Commit,
    Rollback,
    Destroys(Destruction),
    /// Changes or reads rows, or sets the session: stays inside a transaction everywhere.
    Rows,
    /// Anything else (DDL, grants, ...): MySQL commits before and after it.
    Other,
}

/// What takes effect of `steps` on a server whose transactions roll back `transactions`.
/// A transaction never closed counts as committed: the guard does not lean on a session
/// ending to roll it back.
fn settle(steps: Vec<Step>, transactions: Transactions) -> Vec<Destruction> {
    let mut done = Vec::new();
    // What the open transaction would lose if it commits.
    let mut open: Option<Vec<Destruction>> = None;
    for step in steps {
        if transactions == Transactions::None {
            if let Step::Destroys(found) = step {
                done.push(found);
            }
            continue;
        }
        match step {
            // A `BEGIN` inside a transaction commits it in MySQL and is ignored elsewhere;
            // counting what came before as done is right for both or errs on the stop side.
            Step::Begin => done.extend(open.replace(Vec::new()).unwrap_or_default()),
            Step::Commit => done.extend(open.take().unwrap_or_default()),
            Step::Rollback => open = None,
            Step::Destroys(found) => match open.as_mut() {
                Some(pending)
                    if transactions == Transactions::All || found.kind.changes_rows_only() =>
                {
                    pending.push(found)
                }
                // A statement MySQL commits at once ends the transaction it was in.
                Some(_) => {
                    done.extend(open.take().unwrap_or_default());
                    done.push(found);
                }
                None => done.push(found),
            },
            Step::Other if transactions == Transactions::RowsOnly => {
                done.extend(open.take().unwrap_or_default())
            }
            Step::Rows | Step::Other => {}
        }
    }
    done.extend(open.unwrap_or_default());
    done
}

/// The statements of `sql`, read by the parser or, failing that, by their first words; and
/// why part of it was not read, when that part names a destructive statement.
fn statements(sql: &str, dialect: Dialect) -> (Vec<Step>, Option<&'static str>) {
    if sql.len() > MAX_SQL_BYTES {
        let why = "the SQL is larger than the 256 KiB the guard reads";
        return (Vec::new(), names_destruction(sql).then_some(why));
    }
    if sql.trim().is_empty() {
        return (Vec::new(), None);
    }
    let parser_dialect = dialect.parser();
    // A parser bug must not take the hook down with it: a panic reads as "not parsed".
    let parsed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        Parser::new(parser_dialect.as_ref())
            .with_recursion_limit(RECURSION_LIMIT)
            .try_with_sql(sql)
            .and_then(|mut p| statements_with_lines(&mut p))
    }));
    match parsed {
        Ok(Ok(statements)) => {
            let mut out = Vec::new();
            for (s, line) in &statements {
                let start = out.len();
                statement_steps(s, &mut out);
                for step in out.iter_mut().skip(start) {
                    if let Step::Destroys(found) = step {
                        found.line = *line;
                    }
                }
            }
            (out, None)
        }
        _ => head_scan(sql, parser_dialect.as_ref()),
    }
}

/// The parser's own `parse_statements`, keeping the line each statement starts on: a
/// statement's span is not known for every kind (`DROP` has none), its first token's is.
fn statements_with_lines(parser: &mut Parser) -> Result<Vec<(Statement, u64)>, ParserError> {
    let mut out = Vec::new();
    let mut expecting_delimiter = false;
    loop {
        while parser.consume_token(&Token::SemiColon) {
            expecting_delimiter = false;
        }
        let next = parser.peek_token();
        match &next.token {
            Token::EOF => break,
            Token::Word(word) if expecting_delimiter && word.keyword == Keyword::END => break,
            _ => {}
        }
        if expecting_delimiter {
            return Err(ParserError::ParserError(format!(
                "expected end of statement, found {next}"
            )));
        }
        out.push((parser.parse_statement()?, next.span.start.line));
        expecting_delimiter = true;
    }
    Ok(out)
}

fn statement_steps(statement: &Statement, out: &mut Vec<Step>) {
    let step = match statement {
        // A `BEGIN ... END` block of statements (T-SQL) runs them; it is no transaction.
        Statement::StartTransaction { statements, .. } if !statements.is_empty() => {
            for inner in statements {
                statement_steps(inner, out);
            }
            return;
        }
        Statement::StartTransaction { .. } => Step::Begin,
        Statement::Commit { .. } => Step::Commit,
        // `ROLLBACK TO SAVEPOINT` keeps the transaction open and what came before it.
        Statement::Rollback {
            savepoint: None, ..
        } => Step::Rollback,
        Statement::Explain {
            analyze,
            options,
            statement,
            ..
        } => {
            let runs = *analyze
                || options
                    .iter()
                    .flatten()
                    .any(|o| o.name.value.eq_ignore_ascii_case("analyze") && !is_off(&o.arg));
            if runs {
                statement_steps(statement, out);
            }
            return;
        }
        Statement::Query(_)
        | Statement::Insert(_)
        | Statement::Update(_)
        | Statement::Delete(_)
        | Statement::Set(_)
        | Statement::Savepoint { .. }
        | Statement::ReleaseSavepoint { .. }
        | Statement::Rollback { .. } => match destruction(statement) {
            Some(found) => Step::Destroys(found),
            None => Step::Rows,
        },
        other => match destruction(other) {
            Some(found) => Step::Destroys(found),
            None => Step::Other,
        },
    };
    out.push(step);
}

/// Whether an `EXPLAIN` option's value switches it off: `(ANALYZE false)`, `(ANALYZE off)`.
fn is_off(arg: &Option<Expr>) -> bool {
    match arg {
        Some(Expr::Value(v)) => match &v.value {
            Value::Boolean(b) => !b,
            Value::Number(n, _) => n == "0",
            _ => false,
        },
        Some(Expr::Identifier(word)) => {
            matches!(word.value.to_ascii_lowercase().as_str(), "off" | "false")
        }
        _ => false,
    }
}

fn destruction(statement: &Statement) -> Option<Destruction> {
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
        Statement::Delete(d) if picks_no_rows(d.selection.as_ref()) => {
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
        Statement::Update(u) if picks_no_rows(u.selection.as_ref()) => {
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
                line: 0,
            })
        }
        _ => None,
    }
}

/// Whether a `WHERE` (or its absence) lets every row through: none at all, or one that holds
/// whatever the row (`WHERE true`, `WHERE 1`, `WHERE 1=1`, `WHERE id = id`, `... OR 1=1`).
fn picks_no_rows(selection: Option<&Expr>) -> bool {
    selection.is_none_or(|e| constant(e) == Some(true))
}

/// The truth of `expr` when it is the same for every row, as far as it can be seen without
/// the data: literals, a column compared with itself, `LIKE '%'`, and `AND`/`OR`/`NOT` of
/// those. A number counts as true when it is not zero, as MySQL and SQLite read it.
fn constant(expr: &Expr) -> Option<bool> {
    match expr {
        Expr::Value(v) => match &v.value {
            Value::Boolean(b) => Some(*b),
            Value::Number(n, _) => n.parse::<f64>().ok().map(|n| n != 0.0),
            _ => None,
        },
        Expr::Nested(inner) | Expr::IsTrue(inner) => constant(inner),
        Expr::UnaryOp {
            op: UnaryOperator::Not,
            expr,
        } => constant(expr).map(|b| !b),
        Expr::BinaryOp { left, op, right } => match op {
            BinaryOperator::And => match (constant(left), constant(right)) {
                (Some(false), _) | (_, Some(false)) => Some(false),
                (Some(true), Some(true)) => Some(true),
                _ => None,
            },
            BinaryOperator::Or => match (constant(left), constant(right)) {
                (Some(true), _) | (_, Some(true)) => Some(true),
                (Some(false), Some(false)) => Some(false),
                _ => None,
            },
            _ => compared(left, op, right),
        },
        // `name LIKE '%'` holds for every row whose value is set.
        Expr::Like {
            negated: false,
            pattern,
            ..
        } => match pattern.as_ref() {
            Expr::Value(v) => match &v.value {
                Value::SingleQuotedString(p) if !p.is_empty() && p.chars().all(|c| c == '%') => {
                    Some(true)
                }
                _ => None,
            },
            _ => None,
        },
        _ => None,
    }
}

/// `a <op> b` when its truth does not depend on the row: the same expression on both sides
/// (`id = id`, true wherever `id` is set), or two literals.
fn compared(left: &Expr, op: &BinaryOperator, right: &Expr) -> Option<bool> {
    use BinaryOperator::{Eq, Gt, GtEq, Lt, LtEq, NotEq};
    if !matches!(op, Eq | NotEq | Gt | GtEq | Lt | LtEq) {
        return None;
    }
    // Two `?` are two parameters, not one value.
    let placeholder =
        |e: &Expr| matches!(e, Expr::Value(v) if matches!(v.value, Value::Placeholder(_)));
    if left == right && !placeholder(left) {
        return Some(matches!(op, Eq | GtEq | LtEq));
    }
    let ordering = match (literal(left)?, literal(right)?) {
        (Literal::Number(a), Literal::Number(b)) => a.partial_cmp(&b)?,
        (Literal::Text(a), Literal::Text(b)) => a.cmp(b),
        _ => return None,
    };
    Some(match op {
        Eq => ordering.is_eq(),
        NotEq => ordering.is_ne(),
        Gt => ordering.is_gt(),
        GtEq => ordering.is_ge(),
        Lt => ordering.is_lt(),
        _ => ordering.is_le(),
    })
}

enum Literal<'a> {
    Number(f64),
    Text(&'a str),
}

fn literal(expr: &Expr) -> Option<Literal<'_>> {
    match expr {
        Expr::Nested(inner) => literal(inner),
        Expr::Value(v) => match &v.value {
            Value::Number(n, _) => n.parse().ok().map(Literal::Number),
            Value::SingleQuotedString(s) => Some(Literal::Text(s)),
            _ => None,
        },
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
    let what = match shown.as_slice() {
        [] => noun.to_string(),
        [one] => format!("{noun} {one}"),
        _ => format!("{noun}s {}", shown.join(", ")),
    };
    Destruction {
        kind,
        what,
        names: names
            .iter()
            .filter_map(|n| container(&bare(n), noun == "database" || noun == "schema"))
            .collect(),
        line: 0,
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
fn head_scan(sql: &str, dialect: &dyn ParserDialect) -> (Vec<Step>, Option<&'static str>) {
    let mut tokens = Vec::new();
    let failed_at = Tokenizer::new(dialect, sql)
        .tokenize_with_location_into_buf(&mut tokens)
        .err()
        .map(|e| e.location);
    let mut found = Vec::new();
    let mut statement: Vec<String> = Vec::new();
    // Where the statement under way starts.
    let mut start: Option<Location> = None;
    // A client's meta-command (psql's `\x`, the sqlite3 shell's `.open`) runs to the end of
    // its line (or, read strictly, to a `;`).
    let mut meta = false;
    for token in &tokens {
        match &token.token {
            Token::Backslash | Token::Period if statement.is_empty() => {
                meta = true;
                continue;
            }
            Token::Whitespace(Whitespace::Newline) | Token::SemiColon if meta => {
                meta = false;
                continue;
            }
            _ if meta => continue,
            Token::SemiColon => {
                found.extend(head(&statement).map(|step| on_line(step, start)));
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
            Token::Eq => statement.push("=".into()),
            Token::Number(n, _) => statement.push(n.clone()),
            _ => statement.push(String::new()),
        }
        start.get_or_insert(token.span.start);
    }
    let Some(failed_at) = failed_at else {
        found.extend(head(&statement).map(|step| on_line(step, start)));
        return (found, None);
    };
    let rest = &sql[offset(sql, start.unwrap_or(failed_at))..];
    let why = "the SQL could not be read to its end";
    (found, names_destruction(rest).then_some(why))
}

/// `step`, its destruction (if it is one) placed on the line of `start`.
fn on_line(mut step: Step, start: Option<Location>) -> Step {
    if let (Step::Destroys(found), Some(start)) = (&mut step, start) {
        found.line = start.line;
    }
    step
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

/// The step a statement's words (upper-cased keywords) make, if it is any.
fn head(words: &[String]) -> Option<Step> {
    let word = |i: usize| words.get(i).map(String::as_str).unwrap_or("");
    match (word(0), word(1)) {
        ("", _) => return None,
        ("BEGIN", "" | "TRANSACTION" | "WORK") | ("START", "TRANSACTION") => {
            return Some(Step::Begin);
        }
        ("COMMIT" | "END", _) => return Some(Step::Commit),
        ("ROLLBACK", _) if !words.iter().any(|w| w == "TO") => return Some(Step::Rollback),
        ("ABORT", _) => return Some(Step::Rollback),
        ("EXPLAIN", _) => {
            // `EXPLAIN ANALYZE [VERBOSE] <statement>` runs it; plain `EXPLAIN` does not.
            let after = words.get(1..).unwrap_or_default();
            let verb = after
                .iter()
                .position(|w| matches!(w.as_str(), "DELETE" | "UPDATE"))?;
            let (options, statement) = (after.get(..verb)?, after.get(verb..)?);
            let runs = options.iter().any(|w| w == "ANALYZE" || w == "ANALYSE");
            return if runs { head(statement) } else { None };
        }
        _ => {}
    }
    Some(match head_destruction(words) {
        Some(found) => Step::Destroys(found),
        None if matches!(
            word(0),
            "SELECT" | "INSERT" | "UPDATE" | "DELETE" | "WITH" | "SET" | "SAVEPOINT" | "RELEASE"
        ) =>
        {
            Step::Rows
        }
        None => Step::Other,
    })
}

/// The destruction a statement's words begin with, if any.
fn head_destruction(words: &[String]) -> Option<Destruction> {
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
        let whole = matches!(noun, "database" | "schema" | "keyspace");
        Destruction {
            kind,
            what: if name.is_empty() {
                noun.to_string()
            } else {
                format!("{noun} `{name}`")
            },
            names: container(&name, whole).into_iter().collect(),
            line: 0,
        }
    };
    // Whether the statement's `WHERE`, if it has one, picks rows.
    let picks_rows = || match words.iter().position(|w| w == "WHERE") {
        Some(at) => !always_true(words.get(at + 1..).unwrap_or_default()),
        None => false,
    };
    match (word(0), word(1)) {
        ("DROP", "DATABASE") => Some(make(Kind::Drop, "database", 2)),
        ("DROP", "SCHEMA") => Some(make(Kind::Drop, "schema", 2)),
        ("DROP", "KEYSPACE") => Some(make(Kind::Drop, "keyspace", 2)),
        ("DROP", "TABLE" | "COLUMNFAMILY") => Some(make(Kind::Drop, "table", 2)),
        ("DROP", "MATERIALIZED") => Some(make(Kind::Drop, "materialized view", 3)),
        ("DROP", "MEASUREMENT") => Some(make(Kind::Drop, "measurement", 2)),
        ("DROP", "RETENTION") => Some(make(Kind::Drop, "retention policy", 3)),
        ("DROP", "SHARD") => Some(make(Kind::Drop, "shard", 2)),
        ("DROP", "SERIES") if !picks_rows() => Some(make(Kind::Drop, "series", 2)),
        ("DROP", _) if has("CASCADE") => {
            let mut found = make(Kind::Drop, "object", 2);
            found
                .what
                .push_str(" with CASCADE (and everything that depends on it)");
            Some(found)
        }
        ("TRUNCATE", _) => Some(make(Kind::Truncate, "table", 1)),
        ("DELETE", _) if !picks_rows() => Some(make(Kind::DeleteAll, "table", 1)),
        ("UPDATE", _) if !picks_rows() => Some(make(Kind::UpdateAll, "table", 1)),
        ("ALTER", "TABLE") if has("DROP") && (has("COLUMN") || has("PARTITION")) => {
            Some(make(Kind::AlterDrop, "columns or partitions of table", 2))
        }
        _ => None,
    }
}

/// Whether the words of a `WHERE` clause read as one that holds for every row: `TRUE`, a
/// number other than zero, `x = x`, or any of those after an `OR`.
fn always_true(condition: &[String]) -> bool {
    let alone = |words: &[String]| match words {
        [w] => w == "TRUE" || w.parse::<f64>().is_ok_and(|n| n != 0.0),
        [a, eq, b] => eq == "=" && a == b && !a.is_empty(),
        _ => false,
    };
    alone(condition) || condition.split(|w| w == "OR").skip(1).any(alone)
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
    fn a_where_that_holds_for_every_row_picks_none() {
        let pg = Dialect::Postgres;
        for sql in [
            "DELETE FROM t WHERE true",
            "DELETE FROM t WHERE 1",
            "DELETE FROM t WHERE 1=1",
            "delete from t where (1 = 1)",
            "DELETE FROM t WHERE id = id",
            "DELETE FROM t WHERE t.id = t.id",
            "DELETE FROM t WHERE id = 3 OR 1=1",
            "DELETE FROM t WHERE 'a' = 'a'",
            "DELETE FROM t WHERE NOT false",
            "DELETE FROM t WHERE 2 > 1 AND true",
            "DELETE FROM t WHERE name LIKE '%'",
        ] {
            assert_eq!(kinds(sql, pg), [Kind::DeleteAll], "{sql}");
        }
        assert_eq!(
            kinds("UPDATE t SET a = 0 WHERE 1 = 1", pg),
            [Kind::UpdateAll]
        );
        for sql in [
            "DELETE FROM t WHERE id = 3",
            "DELETE FROM t WHERE 1 = 1 AND id = 3",
            "DELETE FROM t WHERE false",
            "DELETE FROM t WHERE 0",
            "DELETE FROM t WHERE 1 = 2 OR id = 4",
            "DELETE FROM t WHERE id = other_id",
            "DELETE FROM t WHERE name LIKE 'a%'",
            "DELETE FROM t WHERE name NOT LIKE '%'",
        ] {
            assert_eq!(kinds(sql, pg), [], "{sql}");
        }
        assert_eq!(kinds("DELETE FROM t WHERE ? = ?", Dialect::MySql), []);
        // Text the parser rejects: the head scan knows the common spellings.
        assert_eq!(kinds("\\x\nDELETE FROM t WHERE 1=1", pg), [Kind::DeleteAll]);
        assert_eq!(kinds("\\x\nDELETE FROM t WHERE id=1", pg), []);
    }

    #[test]
    fn explain_analyze_runs_the_statement() {
        let pg = Dialect::Postgres;
        assert_eq!(
            kinds("EXPLAIN ANALYZE DELETE FROM t", pg),
            [Kind::DeleteAll]
        );
        assert_eq!(
            kinds("explain (analyze, buffers) delete from t", pg),
            [Kind::DeleteAll]
        );
        assert_eq!(
            kinds("EXPLAIN ANALYZE UPDATE t SET a = 1", Dialect::MySql),
            [Kind::UpdateAll]
        );
        assert_eq!(kinds("EXPLAIN (ANALYZE false) DELETE FROM t", pg), []);
        assert_eq!(kinds("EXPLAIN DELETE FROM t", pg), []);
        assert_eq!(
            kinds("EXPLAIN QUERY PLAN DELETE FROM t", Dialect::Sqlite),
            []
        );
        assert_eq!(
            kinds("\\timing\nEXPLAIN ANALYZE DELETE FROM t", pg),
            [Kind::DeleteAll]
        );
    }

    #[test]
    fn a_transaction_rolled_back_destroys_nothing() {
        let pg = Dialect::Postgres;
        for sql in [
            "BEGIN; DELETE FROM t; ROLLBACK",
            "begin; drop table orders; truncate items; rollback;",
            "START TRANSACTION; UPDATE t SET a = 1; ABORT",
            "BEGIN; EXPLAIN ANALYZE DELETE FROM t; ROLLBACK",
        ] {
            assert_eq!(kinds(sql, pg), [], "{sql}");
        }
        for sql in [
            "BEGIN; DELETE FROM t; COMMIT",
            "BEGIN; DELETE FROM t; END",
            "BEGIN; DELETE FROM t",
            "BEGIN; DELETE FROM t; ROLLBACK; DELETE FROM u",
            "BEGIN; SAVEPOINT a; DELETE FROM t; ROLLBACK TO SAVEPOINT a; COMMIT",
            "BEGIN; DELETE FROM t; BEGIN; ROLLBACK",
        ] {
            assert!(!kinds(sql, pg).is_empty(), "{sql}");
        }
        // Spread over a client's commands, in one session.
        assert_eq!(
            read_all(["BEGIN", "DELETE FROM t", "ROLLBACK"], pg).found,
            []
        );
        // MySQL commits at any DDL statement: the drop, and the delete before it, stay.
        let my = Dialect::MySql;
        assert_eq!(kinds("BEGIN; DELETE FROM t; ROLLBACK", my), []);
        assert_eq!(kinds("BEGIN; DROP TABLE t; ROLLBACK", my), [Kind::Drop]);
        assert_eq!(
            kinds(
                "BEGIN; DELETE FROM t; CREATE INDEX i ON u (a); ROLLBACK",
                my
            ),
            [Kind::DeleteAll]
        );
        assert_eq!(kinds("BEGIN; TRUNCATE t; ROLLBACK", my), [Kind::Truncate]);
        // ClickHouse has no transactions to roll back.
        assert_eq!(
            kinds("BEGIN; DROP TABLE t; ROLLBACK", Dialect::ClickHouse),
            [Kind::Drop]
        );
    }

    #[test]
    fn cql_and_influxql_drops() {
        let cql = Dialect::Cql;
        let found = destructions("DROP KEYSPACE shop", cql);
        assert_eq!(found[0].kind, Kind::Drop);
        assert_eq!(found[0].what, "keyspace `shop`");
        assert_eq!(found[0].names, ["shop"]);
        assert_eq!(kinds("TRUNCATE shop.carts", cql), [Kind::Truncate]);
        assert_eq!(kinds("DROP COLUMNFAMILY shop.carts", cql), [Kind::Drop]);
        assert_eq!(kinds("SELECT * FROM system_schema.keyspaces", cql), []);
        assert_eq!(kinds("DELETE FROM shop.carts WHERE id = 1", cql), []);
        let influx = Dialect::InfluxQl;
        assert_eq!(kinds("DROP DATABASE metrics", influx), [Kind::Drop]);
        assert_eq!(kinds("DROP MEASUREMENT cpu", influx), [Kind::Drop]);
        assert_eq!(
            kinds("DROP RETENTION POLICY \"one_week\" ON metrics", influx),
            [Kind::Drop]
        );
        assert_eq!(kinds("DROP SERIES FROM cpu", influx), [Kind::Drop]);
        assert_eq!(kinds("DROP SERIES FROM cpu WHERE host = 'a'", influx), []);
        assert_eq!(kinds("SHOW MEASUREMENTS", influx), []);
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
    fn each_destruction_keeps_the_line_its_statement_starts_on() {
        let lines = |sql: &str, dialect| -> Vec<u64> {
            destructions(sql, dialect).iter().map(|d| d.line).collect()
        };
        let sql = "SELECT 1;\n\nDROP TABLE a;\nDELETE\n  FROM b;\n";
        assert_eq!(lines(sql, Dialect::Postgres), [3, 4]);
        // Read by first words when the parser gives up (a meta-command): lines still hold.
        let sql = "\\set x 1\nSELECT 1;\nTRUNCATE c;\n";
        assert_eq!(lines(sql, Dialect::Postgres), [3]);
        let sql = ".headers on\nDROP TABLE d;\n";
        assert_eq!(lines(sql, Dialect::Sqlite), [2]);
    }

    #[test]
    fn the_files_a_clients_own_commands_run_are_found() {
        let files = |sql: &str, dialect| -> Vec<(String, bool, u64)> {
            included(sql, dialect)
                .into_iter()
                .map(|i| (i.file.to_string(), i.relative, i.line))
                .collect()
        };
        let psql = "\\i a.sql\n  \\ir 'b c.sql'\n\\include_relative d.sql\n\\x\n";
        assert_eq!(
            files(psql, Dialect::Postgres),
            [
                ("a.sql".into(), false, 1),
                ("b c.sql".into(), true, 2),
                ("d.sql".into(), true, 3)
            ]
        );
        assert_eq!(
            files("SOURCE e.sql;\n\\. f.sql\n", Dialect::MySql),
            [("e.sql".into(), false, 1), ("f.sql".into(), false, 2)]
        );
        assert_eq!(
            files(".read g.sql\n.read '|gen.sh'\n", Dialect::Sqlite),
            [("g.sql".into(), false, 1)]
        );
        // Each client knows only its own.
        assert!(files(".read g.sql\n", Dialect::Postgres).is_empty());
        assert!(opens_database(".open app.db\nSELECT 1;"));
        assert!(opens_database("attach 'x.db' as x;"));
        assert!(!opens_database("SELECT 'attached';"));
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
