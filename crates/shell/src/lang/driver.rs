//! Database drivers called from interpreter code. A driver call that runs SQL given as a
//! string known in full (`cursor.execute('DELETE FROM users')`) is lowered to the database
//! client command that runs the same SQL on the same server (`psql -c 'DELETE FROM users'`),
//! so the database rules judge it as they judge the client. SQL known only in part, or not at
//! all (a variable, an f-string), is not lowered: a driver call is not destructive by itself.
//!
//! What the driver does with transactions is part of what the SQL does, so it is written into
//! the SQL: a driver that opens a transaction the code never commits (Python's DB-API
//! drivers) runs its statements between `BEGIN` and `ROLLBACK`.

use super::{Effect, call_text, unknown};
use crate::syntax::Word;

/// The kind of server a driver speaks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Engine {
    Postgres,
    MySql,
    Sqlite,
    /// Whatever its connection URL names (an ORM's raw query, Django's cursor).
    Any,
}

/// When a driver makes a statement's changes permanent, in code that never commits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Commits {
    /// At once (autocommit).
    Always,
    /// Never: the driver opens a transaction before the first statement, and the server
    /// rolls back one that is not committed when the connection closes (psycopg, PyMySQL).
    Never,
    /// Python's sqlite3: a transaction is opened before a row change (`INSERT`, `UPDATE`,
    /// `DELETE`, `REPLACE`) only; any other statement runs at once.
    SchemaOnly,
}

/// A database the code connects to, and how.
#[derive(Debug, Clone)]
pub(super) struct Connection {
    pub engine: Engine,
    pub commits: Commits,
    /// The words a client takes to reach it: a file, a URL or connection string, `-h host`.
    pub target: Vec<Word>,
}

impl Connection {
    pub(super) fn new(engine: Engine, commits: Commits) -> Self {
        Connection {
            engine,
            commits,
            target: Vec::new(),
        }
    }
}

/// The client command a driver call running `sql` on `connection` amounts to; `None` when the
/// SQL is not known in full, or the database is one that lives in memory and goes with the
/// process (SQLite's `:memory:`).
pub(super) fn statement(call: &str, connection: &Connection, sql: &Word) -> Option<Effect> {
    if !sql.literal || sql.text.trim().is_empty() {
        return None;
    }
    let text = match connection.commits {
        Commits::Never => rolled_back(&sql.text),
        Commits::SchemaOnly if changes_rows(&sql.text) => rolled_back(&sql.text),
        _ => sql.text.clone(),
    };
    let sql = Word::literal(text);
    let target = connection.target.clone();
    let argv = match connection.engine {
        Engine::Postgres => [
            vec![Word::literal("psql"), Word::literal("-c"), sql],
            target,
        ]
        .concat(),
        Engine::MySql => [
            vec![Word::literal("mysql"), Word::literal("-e"), sql],
            target,
        ]
        .concat(),
        Engine::Sqlite => {
            let file = target
                .into_iter()
                .next()
                .unwrap_or_else(|| unknown("the database"));
            if file.literal && matches!(file.text.as_str(), ":memory:" | "") {
                return None;
            }
            vec![Word::literal("sqlite3"), file, sql]
        }
        Engine::Any => [
            vec![Word::literal("usql")],
            target,
            vec![Word::literal("-c"), sql],
        ]
        .concat(),
    };
    Some(Effect::Command {
        argv,
        redirects: Vec::new(),
        call: call_text(call),
    })
}

/// `sql` inside a transaction that is rolled back, as a driver that never commits runs it.
fn rolled_back(sql: &str) -> String {
    let body = sql.trim().trim_end_matches(';');
    format!("BEGIN;\n{body};\nROLLBACK;")
}

/// Whether Python's sqlite3 opens a transaction before `sql`: it looks at the first word,
/// past blanks and comments.
fn changes_rows(sql: &str) -> bool {
    let mut rest = sql.trim_start();
    loop {
        if let Some(line) = rest.strip_prefix("--") {
            rest = line.split_once('\n').map_or("", |(_, r)| r).trim_start();
        } else if let Some(block) = rest.strip_prefix("/*") {
            rest = block.split_once("*/").map_or("", |(_, r)| r).trim_start();
        } else {
            break;
        }
    }
    let word: String = rest.chars().take_while(char::is_ascii_alphabetic).collect();
    matches!(
        word.to_ascii_uppercase().as_str(),
        "INSERT" | "UPDATE" | "DELETE" | "REPLACE"
    )
}

/// The engine a connection URL or DSN names by its scheme or prefix (`postgresql://`,
/// `mysql+pymysql://`, `sqlite:///app.db`, PDO's `pgsql:host=...`), with the words a client
/// takes for it: the file of a SQLite URL, else the URL itself.
pub(super) fn from_url(url: &Word) -> Option<(Engine, Vec<Word>)> {
    let (scheme, rest) = url.text.split_once(':')?;
    let engine = match scheme.split('+').next()?.to_ascii_lowercase().as_str() {
        "postgres" | "postgresql" | "pgsql" => Engine::Postgres,
        "mysql" | "mariadb" => Engine::MySql,
        "sqlite" | "sqlite3" | "file" => Engine::Sqlite,
        _ => return Some((Engine::Any, vec![url.clone()])),
    };
    let target = match engine {
        // `sqlite:///rel.db`, `sqlite:////abs.db`, PDO's `sqlite:/abs.db`; `sqlite://` alone
        // is in memory.
        Engine::Sqlite => {
            let path = match rest.strip_prefix("//") {
                Some(after) => after.strip_prefix('/').unwrap_or(after),
                None => rest,
            };
            let path = if path.is_empty() { ":memory:" } else { path };
            Word {
                text: path.to_string(),
                literal: url.literal,
                temp: None,
            }
        }
        _ => url.clone(),
    };
    Some((engine, vec![target]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lowered(connection: &Connection, sql: &str) -> Vec<String> {
        match statement("x", connection, &Word::literal(sql)) {
            Some(Effect::Command { argv, .. }) => argv.into_iter().map(|w| w.text).collect(),
            _ => Vec::new(),
        }
    }

    #[test]
    fn each_engine_lowers_to_its_client() {
        let mut pg = Connection::new(Engine::Postgres, Commits::Always);
        pg.target = vec![Word::literal("postgres://db/app")];
        assert_eq!(
            lowered(&pg, "DROP TABLE t"),
            ["psql", "-c", "DROP TABLE t", "postgres://db/app"]
        );
        let mut lite = Connection::new(Engine::Sqlite, Commits::Always);
        assert_eq!(lowered(&lite, "DROP TABLE t")[0], "sqlite3");
        lite.target = vec![Word::literal(":memory:")];
        assert!(lowered(&lite, "DROP TABLE t").is_empty());
        let any = Connection::new(Engine::Any, Commits::Always);
        assert_eq!(lowered(&any, "TRUNCATE t"), ["usql", "-c", "TRUNCATE t"]);
    }

    #[test]
    fn transactions_the_code_never_commits_are_rolled_back() {
        let pg = Connection::new(Engine::Postgres, Commits::Never);
        assert_eq!(
            lowered(&pg, "DELETE FROM t;")[2],
            "BEGIN;\nDELETE FROM t;\nROLLBACK;"
        );
        let lite = Connection::new(Engine::Sqlite, Commits::SchemaOnly);
        assert!(lowered(&lite, " -- rows\n delete from t")[2].starts_with("BEGIN;"));
        assert_eq!(lowered(&lite, "DROP TABLE t")[2], "DROP TABLE t");
    }

    #[test]
    fn sql_known_only_in_part_is_not_lowered() {
        let pg = Connection::new(Engine::Postgres, Commits::Always);
        assert!(statement("x", &pg, &unknown("DELETE FROM {t}")).is_none());
    }

    #[test]
    fn urls_name_their_engine() {
        let engine = |url: &str| from_url(&Word::literal(url)).map(|(e, t)| (e, t[0].text.clone()));
        assert_eq!(
            engine("postgresql+psycopg2://u@h/db"),
            Some((Engine::Postgres, "postgresql+psycopg2://u@h/db".into()))
        );
        assert_eq!(
            engine("sqlite:///app.db"),
            Some((Engine::Sqlite, "app.db".into()))
        );
        assert_eq!(
            engine("sqlite:////var/app.db"),
            Some((Engine::Sqlite, "/var/app.db".into()))
        );
        assert_eq!(
            engine("sqlite:/var/app.db"),
            Some((Engine::Sqlite, "/var/app.db".into()))
        );
        assert_eq!(
            engine("sqlite://"),
            Some((Engine::Sqlite, ":memory:".into()))
        );
        assert_eq!(
            engine("mysql:host=db;dbname=shop").map(|e| e.0),
            Some(Engine::MySql)
        );
        assert_eq!(engine("oracle://x").map(|e| e.0), Some(Engine::Any));
        assert_eq!(engine("app.db"), None);
    }
}
