//! Pack `db`: databases. SQL that drops, truncates or rewrites every row, run through a
//! database client's command line, its stdin or a file it reads; the clients' own drop
//! commands (`dropdb`, `mysqladmin drop`, `pg_restore --clean`); MongoDB drops and
//! unfiltered deletes; Redis flushes.
//!
//! SQL is read by [`sql`] only for a database client, so no other command pays for the
//! parser. SQL in a file (`psql -f reset.sql`, `mysql < reset.sql`) is judged by the context,
//! which reads the file; with the rules alone it passes, since its text is not in the command.

pub mod sql;

use super::Pack;
use super::args::{has, operand_words, values};
use crate::rules::{Hit, Rule, Subject, Tier, WorldExample};
use crate::shell::{SimpleCommand, Word};
use sql::{Destruction, Dialect, Kind};

pub static SQL_DROP: Rule = Rule {
    id: "db.sql-drop",
    catches: "`DROP DATABASE`/`SCHEMA`/`TABLE`/`MATERIALIZED VIEW` (and any `DROP … CASCADE`) through \
              psql, mysql/mariadb, sqlite3, duckdb or clickhouse-client; `dropdb`; \
              `mysqladmin drop`",
    why: "A dropped table or database takes every row with it, and the server keeps no trash: \
          only a backup brings it back. `DROP INDEX` and `DROP VIEW` pass: they hold no data and \
          are recreated from their definition.",
    instead: "Dump it first (`pg_dump`, `mysqldump`, `sqlite3 <db> .dump`); rename instead of \
              dropping (`ALTER TABLE t RENAME TO t_old`) until the user confirms.",
    protected_when: Some("when the command names production (a database, host or URL)"),
    strict_only: false,
    stops: &[
        "psql -c 'drop table orders'",
        "mysql -e 'DROP DATABASE shop'",
        "sqlite3 app.db 'DROP TABLE users'",
        "dropdb shop",
        "mysqladmin -u root drop shop",
        "duckdb local.duckdb -c 'DROP SCHEMA staging CASCADE'",
        "clickhouse-client --query 'DROP TABLE events'",
    ],
    passes: &[
        "psql -c 'SELECT count(*) FROM orders'",
        "psql -c \"SELECT 'DROP TABLE x'\"",
        "mysql -e 'DROP INDEX idx_email ON users'",
        "echo 'DROP TABLE users'",
        "pg_dump shop > shop.sql",
        "dropdb --help",
    ],
};

pub static SQL_TRUNCATE: Rule = Rule {
    id: "db.sql-truncate",
    catches: "`TRUNCATE` through a database client",
    why: "`TRUNCATE` empties a table at once, without a `WHERE` and, in MySQL, without a \
          transaction to roll back: every row is gone.",
    instead: "Dump the table first; delete only the rows meant to go with `DELETE … WHERE …`.",
    protected_when: Some("when the command names production (a database, host or URL)"),
    strict_only: false,
    stops: &[
        "psql shop -c 'TRUNCATE orders'",
        "mysql shop -e 'truncate table sessions'",
        "echo 'TRUNCATE audit_log;' | psql shop",
    ],
    passes: &[
        "psql -c \"select * from pg_tables where tablename = 'truncate'\"",
        "grep -ri truncate src/",
    ],
};

pub static SQL_DELETE_ALL: Rule = Rule {
    id: "db.sql-delete-all",
    catches: "`DELETE` without `WHERE` through a database client",
    why: "A `DELETE` with no `WHERE` removes every row of the table, and an agent that meant a \
          few rows rarely has the backup it would need.",
    instead: "Add the `WHERE` that picks the rows and count them first (`SELECT count(*) FROM t \
              WHERE …`); preview inside `BEGIN; …; ROLLBACK;`.",
    protected_when: Some("when the command names production (a database, host or URL)"),
    strict_only: false,
    stops: &[
        "psql -c 'DELETE FROM users'",
        "sqlite3 app.db <<< 'delete from sessions;'",
        "mysql app <<'SQL'\nDELETE FROM carts;\nSQL",
    ],
    passes: &[
        "psql -c 'DELETE FROM users WHERE id = 42'",
        "psql -c 'INSERT INTO users (name) VALUES ($$delete from users$$)'",
        "psql -c 'EXPLAIN DELETE FROM users'",
    ],
};

pub static SQL_UPDATE_ALL: Rule = Rule {
    id: "db.sql-update-all",
    catches: "`UPDATE` without `WHERE` through a database client",
    why: "An `UPDATE` with no `WHERE` overwrites the column in every row: the old values are \
          gone unless a backup has them.",
    instead: "Add the `WHERE` that picks the rows and check it with a `SELECT` first; preview \
              inside `BEGIN; …; ROLLBACK;`.",
    protected_when: Some("when the command names production (a database, host or URL)"),
    strict_only: false,
    stops: &[
        "psql -c \"UPDATE users SET email = 'x@example.com'\"",
        "mysql -e 'update accounts set balance = 0'",
    ],
    passes: &["psql -c 'UPDATE users SET active = false WHERE id = 7'"],
};

pub static SQL_ALTER_DROP: Rule = Rule {
    id: "db.sql-alter-drop",
    catches: "`ALTER TABLE … DROP COLUMN`/`PARTITION` through a database client",
    why: "Dropping a column or a partition deletes the data it holds in every row; adding the \
          column back brings back an empty one.",
    instead: "Dump the table first; stop using the column and drop it later, once the user \
              confirms.",
    protected_when: Some("when the command names production (a database, host or URL)"),
    strict_only: false,
    stops: &[
        "psql -c 'ALTER TABLE users DROP COLUMN email'",
        "mysql -e 'ALTER TABLE t DROP PARTITION p2019'",
    ],
    passes: &[
        "psql -c 'ALTER TABLE users ADD COLUMN age int'",
        "psql -c 'ALTER TABLE users DROP CONSTRAINT users_email_key'",
    ],
};

pub static SQL_FILE: Rule = Rule {
    id: "db.sql-file",
    catches: "a SQL file run by a database client (`psql -f f.sql`, `mysql db < f.sql`, \
              `sqlite3 db < f.sql`) that drops, truncates, or deletes or updates without \
              `WHERE`, when the context reads the file",
    why: "What the file destroys does not show in the command. The context reads it when it \
          exists and is small (256 KiB at most) and judges its statements as the SQL rules do; \
          with the rules alone, or when the file is missing, the command passes.",
    instead: "Dump what the file drops first; read the file and run only the statements meant \
              to run.",
    protected_when: Some("when the command names production (a database, host or URL)"),
    strict_only: false,
    stops: &[],
    passes: &[
        "psql -f schema.sql",
        "mysql shop < seed.sql",
        "psql -f - < x.sql",
    ],
};

/// `db.sql-file` in a folder that holds the files it runs.
pub static WORLD_EXAMPLES: &[WorldExample] = &[
    WorldExample {
        rule: &SQL_FILE,
        files: &[("reset.sql", "DROP TABLE orders;\n")],
        command: "psql -f reset.sql",
        stops: true,
    },
    WorldExample {
        rule: &SQL_FILE,
        files: &[("cleanup.sql", "BEGIN;\nDELETE FROM sessions;\nCOMMIT;\n")],
        command: "mysql shop < cleanup.sql",
        stops: true,
    },
    WorldExample {
        rule: &SQL_FILE,
        files: &[(
            "seed.sql",
            "CREATE TABLE t (id int);\nINSERT INTO t VALUES (1);\n",
        )],
        command: "psql -f seed.sql",
        stops: false,
    },
    WorldExample {
        rule: &SQL_FILE,
        files: &[(
            "prune.sql",
            "DELETE FROM sessions WHERE expires_at < now();\n",
        )],
        command: "sqlite3 app.db < prune.sql",
        stops: false,
    },
];

pub static RESTORE_CLEAN: Rule = Rule {
    id: "db.restore-clean",
    catches: "`pg_restore --clean`/`-c` into a database (`-d`)",
    why: "`--clean` drops every object in the dump from the target database before recreating \
          it: whatever the target held that the dump does not is lost.",
    instead: "Restore into a new database (`createdb shop_restored && pg_restore -d \
              shop_restored dump`), or dump the target first.",
    protected_when: Some("when the command names production (a database, host or URL)"),
    strict_only: false,
    stops: &[
        "pg_restore --clean -d shop shop.dump",
        "pg_restore -c --if-exists -d shop shop.dump",
    ],
    passes: &[
        "pg_restore -d shop_copy shop.dump",
        "pg_restore -l shop.dump",
        "pg_restore -c -f out.sql shop.dump",
    ],
};

pub static MONGO_DROP: Rule = Rule {
    id: "db.mongo-drop",
    catches: "`mongosh`/`mongo` scripts (`--eval`, stdin) with `dropDatabase()`, `.drop()`, \
              `deleteMany({})` or `remove({})`",
    why: "A dropped database or collection, or one emptied by an unfiltered delete, has no \
          undo in MongoDB: only a backup or a replica's delayed member has the documents.",
    instead: "`mongodump --db <db> --collection <coll>` first; give `deleteMany` a filter and \
              check it with `countDocuments(<filter>)`.",
    protected_when: Some("when the command names production (a database, host or URL)"),
    strict_only: false,
    stops: &[
        "mongosh shop --eval 'db.dropDatabase()'",
        "mongo --eval 'db.orders.drop()'",
        "mongosh --eval 'db.sessions.deleteMany({})'",
    ],
    passes: &[
        "mongosh --eval 'db.orders.countDocuments()'",
        "mongosh --eval 'db.sessions.deleteMany({ expired: true })'",
        "mongodump --db shop",
    ],
};

pub static REDIS_FLUSH: Rule = Rule {
    id: "db.redis-flush",
    catches: "`redis-cli FLUSHALL`/`FLUSHDB` in any case, as arguments or on stdin",
    why: "A flush deletes every key of the database (or of every database) at once; unless \
          persistence is on and the last snapshot is kept, they are gone.",
    instead: "`redis-cli --scan --pattern '<prefix>*'` to see what is there and `DEL`/`UNLINK` \
              only those keys; `redis-cli BGSAVE` first so a snapshot holds the data.",
    protected_when: Some("when the command names production (a host or URL)"),
    strict_only: false,
    stops: &[
        "redis-cli flushall",
        "redis-cli -h cache -n 2 FLUSHDB",
        "echo FLUSHALL | redis-cli",
    ],
    passes: &[
        "redis-cli get session:42",
        "redis-cli --scan --pattern 'tmp:*'",
        "redis-cli info keyspace",
    ],
};

pub static PACK: Pack = Pack {
    id: "db",
    summary: "databases: SQL drops, truncates and unfiltered deletes or updates, dropdb, \
              pg_restore --clean, MongoDB drops, Redis flushes",
    default_on: true,
    programs: &[
        "psql",
        "mysql",
        "mariadb",
        "sqlite3",
        "duckdb",
        "clickhouse-client",
        "clickhouse",
        "dropdb",
        "mysqladmin",
        "mariadb-admin",
        "pg_restore",
        "mongosh",
        "mongo",
        "redis-cli",
        "valkey-cli",
    ],
    rules: &[
        &SQL_DROP,
        &SQL_TRUNCATE,
        &SQL_DELETE_ALL,
        &SQL_UPDATE_ALL,
        &SQL_ALTER_DROP,
        &SQL_FILE,
        &RESTORE_CLEAN,
        &MONGO_DROP,
        &REDIS_FLUSH,
    ],
    check,
};

/// The database clients whose SQL is read.
#[derive(Clone, Copy)]
enum Client {
    Psql,
    MySql,
    Sqlite,
    DuckDb,
    ClickHouse,
}

impl Client {
    fn dialect(self) -> Dialect {
        match self {
            Client::Psql => Dialect::Postgres,
            Client::MySql => Dialect::MySql,
            Client::Sqlite => Dialect::Sqlite,
            Client::DuckDb => Dialect::DuckDb,
            Client::ClickHouse => Dialect::ClickHouse,
        }
    }

    /// How to keep a copy of what goes, with this client's tools.
    fn backup(self) -> &'static str {
        match self {
            Client::Psql => "`pg_dump --table=<table> <db> > backup.sql` (or the whole database)",
            Client::MySql => "`mysqldump <db> <table> > backup.sql`",
            Client::Sqlite => "`sqlite3 <db> .dump > backup.sql` (or copy the database file)",
            Client::DuckDb => "`EXPORT DATABASE 'backup'` (or copy the database file)",
            Client::ClickHouse => "`BACKUP TABLE <db>.<table> TO Disk('backups', '<name>')`",
        }
    }

    fn recovery(self) -> &'static str {
        match self {
            Client::Sqlite | Client::DuckDb => "only from a copy of the database file",
            _ => "only from a backup, or the server's point-in-time recovery if it keeps one",
        }
    }
}

fn check(cmd: &SimpleCommand) -> Vec<Hit> {
    let Some(program) = cmd.program() else {
        return Vec::new();
    };
    let args = cmd.args();
    let client = match program {
        "psql" => Client::Psql,
        "mysql" | "mariadb" => Client::MySql,
        "sqlite3" => Client::Sqlite,
        "duckdb" => Client::DuckDb,
        "clickhouse-client" => Client::ClickHouse,
        "clickhouse" if args.first().is_some_and(|w| w.text == "client") => Client::ClickHouse,
        "dropdb" => return dropdb(args).into_iter().collect(),
        "mysqladmin" | "mariadb-admin" => return mysqladmin(args).into_iter().collect(),
        "pg_restore" => return pg_restore(args).into_iter().collect(),
        "mongosh" | "mongo" => return mongo(cmd).into_iter().collect(),
        "redis-cli" | "valkey-cli" => return redis(cmd).into_iter().collect(),
        _ => return Vec::new(),
    };
    let args = match (program, client) {
        ("clickhouse", _) => &args[1..],
        _ => args,
    };
    if has(args, &["--help", "--version", "-?", "-help", "-version"]) {
        return Vec::new();
    }
    let (texts, files) = client_sql(client, args);
    let mut found: Vec<Destruction> = Vec::new();
    let mut unread = None;
    for text in texts.into_iter().chain(cmd.input.as_deref()) {
        let read = sql::read(text, client.dialect());
        found.extend(read.found);
        unread = unread.or(read.unread);
    }
    let mut hits = by_kind(client, &found);
    if let Some(why) = unread.filter(|_| found.is_empty()) {
        hits.push(crate::rules::shell::unread(why));
    }
    let files = files.into_iter().map(Word::literal).chain(
        cmd.redirects
            .iter()
            .filter(|r| r.op == "<")
            .map(|r| r.target.clone()),
    );
    hits.extend(files.filter(|f| f.text != "-").map(|file| {
        let mut hit = Hit::new(
            &SQL_FILE,
            Tier::Destructive,
            format!("runs the SQL in {}", file.shell_quoted()),
        )
        .safer(format!(
            "take a copy first: {}; run only the statements meant to run",
            client.backup()
        ))
        .recovery(client.recovery())
        .about(Subject::SqlFile {
            path: file,
            dialect: client.dialect(),
        });
        hit.needs_confirmation = true;
        hit
    }));
    hits
}

/// The SQL texts a client is given on its command line, and the files it is told to run.
fn client_sql(client: Client, args: &[Word]) -> (Vec<&str>, Vec<&str>) {
    match client {
        Client::Psql => (
            values(args, &["-c", "--command"]),
            values(args, &["-f", "--file"]),
        ),
        Client::MySql => (values(args, &["-e", "--execute"]), Vec::new()),
        Client::ClickHouse => (
            values(args, &["-q", "--query"]),
            values(args, &["--queries-file"]),
        ),
        // `sqlite3 [options] FILE [SQL]...` and duckdb's shell, which follows it: options take
        // one dash or two; every operand after the database file is a statement.
        Client::Sqlite | Client::DuckDb => {
            let sql_options = ["cmd", "c", "s"];
            let file_options = ["init", "f"];
            let valued = [
                "cmd",
                "c",
                "s",
                "init",
                "f",
                "separator",
                "newline",
                "nullvalue",
                "vfs",
                "mmap",
                "maxsize",
                "escape",
                "lookaside",
                "pagecache",
                "heap",
            ];
            let (mut texts, mut files, mut operands) = (Vec::new(), Vec::new(), Vec::new());
            let mut words = args.iter();
            while let Some(word) = words.next() {
                let name = word.text.trim_start_matches('-');
                if !word.text.starts_with('-') || word.text == "-" {
                    operands.push(word.text.as_str());
                    continue;
                }
                if valued.contains(&name) {
                    if let Some(value) = words.next() {
                        if sql_options.contains(&name) {
                            texts.push(value.text.as_str());
                        } else if file_options.contains(&name) {
                            files.push(value.text.as_str());
                        }
                    }
                    if matches!(name, "lookaside" | "pagecache" | "heap") {
                        words.next();
                    }
                }
            }
            texts.extend(operands.into_iter().skip(1));
            (texts, files)
        }
    }
}

/// One hit per rule: the destructions of one kind together.
fn by_kind(client: Client, found: &[Destruction]) -> Vec<Hit> {
    let mut hits = Vec::new();
    for kind in [
        Kind::Drop,
        Kind::Truncate,
        Kind::DeleteAll,
        Kind::UpdateAll,
        Kind::AlterDrop,
    ] {
        let of_kind: Vec<&Destruction> = found.iter().filter(|d| d.kind == kind).collect();
        if of_kind.is_empty() {
            continue;
        }
        let loses = of_kind
            .iter()
            .map(|d| sql::describe(d))
            .collect::<Vec<_>>()
            .join("; ");
        let names = of_kind.iter().flat_map(|d| d.names.clone()).collect();
        let backup = client.backup();
        let (rule, safer) = match kind {
            Kind::Drop => (
                &SQL_DROP,
                format!(
                    "take a copy first: {backup}; or rename instead of dropping \
                     (`ALTER TABLE <t> RENAME TO <t>_old`) until the user confirms"
                ),
            ),
            Kind::Truncate => (
                &SQL_TRUNCATE,
                format!(
                    "take a copy first: {backup}; delete only the rows meant to go with \
                     `DELETE FROM <t> WHERE …`"
                ),
            ),
            Kind::DeleteAll => (&SQL_DELETE_ALL, unfiltered_safer(client)),
            Kind::UpdateAll => (&SQL_UPDATE_ALL, unfiltered_safer(client)),
            Kind::AlterDrop => (
                &SQL_ALTER_DROP,
                format!(
                    "take a copy first: {backup}; leave the column in place until the user confirms"
                ),
            ),
        };
        hits.push(
            Hit::new(rule, Tier::Destructive, format!("{loses}, with no undo"))
                .safer(safer)
                .recovery(client.recovery())
                .names(names),
        );
    }
    hits
}

fn unfiltered_safer(client: Client) -> String {
    let preview = match client {
        Client::Psql | Client::Sqlite | Client::DuckDb => {
            "; run it first inside `BEGIN; …; ROLLBACK;` to see how many rows it touches"
        }
        Client::MySql => "; preview inside `START TRANSACTION; …; ROLLBACK;` (InnoDB)",
        Client::ClickHouse => "",
    };
    format!(
        "add the `WHERE` that picks the rows and count them first with \
         `SELECT count(*) FROM <t> WHERE …`{preview}"
    )
}

/// `dropdb [options] DBNAME`.
fn dropdb(args: &[Word]) -> Option<Hit> {
    if has(args, &["--help", "-?", "--version", "-V"]) {
        return None;
    }
    let valued = [
        "-h",
        "--host",
        "-p",
        "--port",
        "-U",
        "--username",
        "--maintenance-db",
    ];
    let name = operand_words(args, &valued).last()?.text.as_str();
    Some(drops_database(
        name,
        Client::Psql,
        &format!("pg_dump -Fc {name} > {name}.dump"),
    ))
}

/// `mysqladmin [options] drop DBNAME`.
fn mysqladmin(args: &[Word]) -> Option<Hit> {
    if has(args, &["--help", "-?", "--version", "-V"]) {
        return None;
    }
    let valued = [
        "-u", "--user", "-h", "--host", "-P", "--port", "-S", "--socket",
    ];
    let ops = operand_words(args, &valued);
    let at = ops
        .iter()
        .position(|w| w.text.eq_ignore_ascii_case("drop"))?;
    let name = ops
        .get(at + 1)
        .map_or("the named database", |w| w.text.as_str());
    Some(drops_database(
        name,
        Client::MySql,
        &format!("mysqldump {name} > {name}.sql"),
    ))
}

/// A whole database dropped by name (`dropdb`, `mysqladmin drop`); `copy` keeps a copy of it.
fn drops_database(name: &str, client: Client, copy: &str) -> Hit {
    Hit::new(
        &SQL_DROP,
        Tier::Destructive,
        format!("drops database `{name}` and everything in it, with no undo"),
    )
    .safer(format!(
        "take a copy first: `{copy}`; ask the user before dropping it"
    ))
    .recovery(client.recovery())
    .names(vec![name.to_string()])
}

/// `pg_restore --clean -d DB dump`: drops what the dump holds from DB first.
fn pg_restore(args: &[Word]) -> Option<Hit> {
    let into_database = !values(args, &["-d", "--dbname"]).is_empty();
    let clean = has(args, &["-c", "--clean"]);
    if !(clean && into_database) || has(args, &["-l", "--list", "--help", "-?", "--version"]) {
        return None;
    }
    let db = values(args, &["-d", "--dbname"])
        .last()
        .map_or("the target database", |d| d)
        .to_string();
    Some(
        Hit::new(
            &RESTORE_CLEAN,
            Tier::Destructive,
            format!("drops the dump's objects from `{db}` before recreating them, with their current data"),
        )
        .safer(format!(
            "restore into a new database (`createdb restored && pg_restore -d restored <dump>`), \
             or `pg_dump -Fc {db} > before-restore.dump` first"
        ))
        .recovery(Client::Psql.recovery())
        .names(vec![db]),
    )
}

/// `mongosh`/`mongo` with a script (`--eval`, stdin) that drops or empties.
fn mongo(cmd: &SimpleCommand) -> Option<Hit> {
    let args = cmd.args();
    let scripts = values(args, &["--eval"])
        .into_iter()
        .chain(cmd.input.as_deref());
    let mut what = Vec::new();
    for script in scripts {
        let compact: String = script.chars().filter(|c| !c.is_whitespace()).collect();
        if compact.contains(".dropDatabase(") || compact.contains("dropDatabase:") {
            what.push("the whole database");
        }
        if compact.contains(".drop(") {
            what.push("a collection");
        }
        let empty_filter = |method: &str| {
            [")", ","]
                .iter()
                .any(|end| compact.contains(&format!(".{method}({{}}{end}")))
        };
        if empty_filter("deleteMany") || empty_filter("remove") {
            what.push("every document of a collection");
        }
    }
    if what.is_empty() {
        return None;
    }
    what.dedup();
    Some(
        Hit::new(
            &MONGO_DROP,
            Tier::Destructive,
            format!("deletes {}, with no undo", what.join(" and ")),
        )
        .safer(
            "`mongodump --db <db> [--collection <coll>]` first; give `deleteMany` a filter and \
             check it with `countDocuments(<filter>)`",
        )
        .recovery("only from a `mongodump` or a backup of the deployment"),
    )
}

/// `redis-cli [options] FLUSHALL|FLUSHDB`, or those commands on its stdin.
fn redis(cmd: &SimpleCommand) -> Option<Hit> {
    let valued = [
        "-h",
        "-p",
        "-s",
        "-a",
        "-u",
        "-n",
        "-r",
        "-i",
        "-d",
        "-D",
        "--user",
        "--pass",
        "--cacert",
        "--cacertdir",
        "--cert",
        "--key",
        "--sni",
        "--tls-ciphers",
        "--tls-ciphersuites",
        "--pattern",
        "--quoted-pattern",
        "--count",
        "--rdb",
        "--functions-rdb",
        "--memkeys-samples",
        "--eval",
    ];
    let args = cmd.args();
    let argument = operand_words(args, &valued)
        .first()
        .map(|w| w.text.as_str());
    let on_stdin = cmd
        .input
        .as_deref()
        .into_iter()
        .flat_map(str::lines)
        .filter_map(|line| line.split_whitespace().next());
    let flush = argument
        .into_iter()
        .chain(on_stdin)
        .find(|c| c.eq_ignore_ascii_case("flushall") || c.eq_ignore_ascii_case("flushdb"))?;
    let scope = if flush.eq_ignore_ascii_case("flushall") {
        "every key of every database on the server"
    } else {
        "every key of the selected database"
    };
    Some(
        Hit::new(
            &REDIS_FLUSH,
            Tier::Destructive,
            format!("deletes {scope}, with no undo"),
        )
        .safer(
            "`redis-cli --scan --pattern '<prefix>*'` to see the keys, then `UNLINK` only \
             those; `redis-cli BGSAVE` first so a snapshot holds the data",
        )
        .recovery(
            "only from the last RDB snapshot or AOF file, if persistence is on: copy \
             `dump.rdb` aside before the next save overwrites it",
        ),
    )
}
