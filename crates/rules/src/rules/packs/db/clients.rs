//! The programs that run SQL against a server: where each takes its SQL from (its command
//! line, files it reads, its stdin), which server's dialect that SQL is in, and how to keep a
//! copy of, or get back, what it destroys.

use super::super::args::{asks_help, has, operand_words, operands, value, values};
use super::sql::Dialect;
use crate::shell::Word;
use crate::syntax::argv;

/// A program that runs SQL.
#[derive(Clone, Copy)]
pub(super) enum Client {
    Psql,
    MySql,
    Sqlite,
    DuckDb,
    ClickHouse,
    SqlCmd,
    Cqlsh,
    /// InfluxDB 1.x's shell.
    Influx,
    Cockroach,
    /// Cloudflare D1 through `wrangler d1 execute`, on Cloudflare or in the local copy.
    D1 {
        remote: bool,
    },
    Turso,
    PlanetScale,
    /// Snowflake's `snowsql`.
    Snowflake,
    /// Google BigQuery's `bq query`.
    BigQuery,
    /// A client that speaks to whatever server its URL names (`usql`, `prisma db execute`,
    /// `typeorm query`): the dialect, when the URL shows it.
    Any(Dialect),
}

/// The SQL one command runs.
pub(super) struct Script<'a> {
    pub client: Client,
    /// Statements given on the command line, in the order the client runs them.
    pub texts: Vec<&'a str>,
    /// Files of SQL it runs.
    pub files: Vec<&'a str>,
    /// Whether it runs what it reads on stdin (a heredoc, a pipe, `< file.sql`).
    pub stdin: bool,
    /// Whether the database is one in memory that the command makes and drops when it
    /// ends (`sqlite3 :memory:`, `duckdb` with no file), unless its SQL opens a file.
    pub memory: bool,
    /// The database file it opens, for the clients that take one (`sqlite3 app.db`).
    pub database: Option<&'a Word>,
}

impl<'a> Script<'a> {
    fn new(client: Client, texts: Vec<&'a str>, files: Vec<&'a str>, stdin: bool) -> Self {
        Script {
            client,
            texts,
            files,
            stdin,
            memory: false,
            database: None,
        }
    }
}

/// The SQL `program` runs with `args`, if it is a client of SQL; `None` for anything else,
/// and for help and version requests.
pub(super) fn script<'a>(program: &str, args: &'a [Word]) -> Option<Script<'a>> {
    let (client, args) = match program {
        "psql" => (Client::Psql, args),
        "mysql" | "mariadb" => (Client::MySql, args),
        "sqlite3" => (Client::Sqlite, args),
        "duckdb" => (Client::DuckDb, args),
        "clickhouse-client" => (Client::ClickHouse, args),
        "clickhouse" if args.first().is_some_and(|w| w.text == "client") => {
            (Client::ClickHouse, args.get(1..).unwrap_or_default())
        }
        "cockroach" if args.first().is_some_and(|w| w.text == "sql") => {
            (Client::Cockroach, args.get(1..).unwrap_or_default())
        }
        _ => return tool(program, args),
    };
    if has(args, &["--help", "--version", "-?", "-help", "-version"]) {
        return None;
    }
    Some(match client {
        Client::Psql => Script::new(
            client,
            values(args, &["-c", "--command"]),
            values(args, &["-f", "--file"]),
            true,
        ),
        Client::MySql => Script::new(client, values(args, &["-e", "--execute"]), Vec::new(), true),
        Client::ClickHouse => Script::new(
            client,
            values(args, &["-q", "--query"]),
            values(args, &["--queries-file"]),
            true,
        ),
        Client::Cockroach => Script::new(
            client,
            values(args, &["-e", "--execute"]),
            values(args, &["-f", "--file"]),
            true,
        ),
        _ => {
            let (texts, files, database) = sqlite_shell(args);
            let memory = database.is_none_or(|db| db.text == ":memory:");
            Script {
                memory,
                database: database.filter(|_| !memory),
                ..Script::new(client, texts, files, true)
            }
        }
    })
}

/// sqlite3's options that take a value; `-lookaside` and `-pagecache` are read to take a
/// second one as well (`-heap SIZE` takes one).
const SQLITE_VALUED: &[&str] = &[
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

/// `sqlite3 [options] FILE [SQL]...` and duckdb's shell, which follows it: options take one
/// dash or two; every operand after the database file is a statement. The database file is
/// given too, if one is named.
fn sqlite_shell(args: &[Word]) -> (Vec<&str>, Vec<&str>, Option<&Word>) {
    let read = argv::read(args, argv::Style::Go, &argv::Valued(SQLITE_VALUED));
    let second_values: Vec<usize> = read
        .opts
        .iter()
        .filter(|opt| matches!(opt.name, "lookaside" | "pagecache"))
        .filter_map(|opt| opt.value_word)
        .map(|at| at + 1)
        .collect();
    let mut operands = read
        .operands
        .iter()
        .filter(|at| !second_values.contains(at))
        .filter_map(|&at| args.get(at));
    let database = operands.next();
    let mut texts: Vec<&str> = read.values(&["cmd", "c", "s"]).collect();
    texts.extend(operands.map(|w| w.text.as_str()));
    let files = read.values(&["init", "f"]).collect();
    (texts, files, database)
}

/// The clients whose SQL sits behind a subcommand or a tool's own option names.
fn tool<'a>(program: &str, args: &'a [Word]) -> Option<Script<'a>> {
    // sqlcmd's `-h` is the header count; its help is `-?`.
    let help = match program {
        "sqlcmd" => has(args, &["-?"]),
        _ => asks_help(args) || has(args, &["--version"]),
    };
    if help {
        return None;
    }
    let script = match program {
        // `sqlcmd -Q "..."` runs and exits, `-q` runs and stays; `-i a.sql,b.sql` reads files.
        "sqlcmd" => Script::new(
            Client::SqlCmd,
            values(args, &["-Q", "-q"]),
            values(args, &["-i"])
                .into_iter()
                .flat_map(|list| list.split(','))
                .collect(),
            true,
        ),
        "cqlsh" => Script::new(
            Client::Cqlsh,
            values(args, &["-e", "--execute"]),
            values(args, &["-f", "--file"]),
            true,
        ),
        // InfluxDB 1.x's shell: `influx -execute '...'`, or statements on stdin. The 2.x
        // command line (`influx bucket delete`) takes subcommands instead.
        "influx" => {
            let valued = [
                "-host",
                "-port",
                "-username",
                "-password",
                "-database",
                "-execute",
                "--execute",
                "-format",
                "-precision",
                "-consistency",
                "-path",
                "-pps",
                "-type",
            ];
            let shell = operand_words(args, &valued).is_empty();
            Script::new(
                Client::Influx,
                values(args, &["-execute", "--execute"]),
                Vec::new(),
                shell,
            )
        }
        "usql" => {
            let valued = [
                "-c",
                "--command",
                "-f",
                "--file",
                "-o",
                "--output",
                "-U",
                "--username",
                "-v",
                "--set",
                "-P",
                "--pset",
                "--config",
            ];
            let url = operands(args, &valued).first().copied();
            Script::new(
                Client::Any(url.map_or(Dialect::Generic, dialect_of_url)),
                values(args, &["-c", "--command"]),
                values(args, &["-f", "--file"]),
                true,
            )
        }
        // `prisma db execute --stdin | --file f.sql`: the datasource is in the project's
        // configuration unless `--url` names it.
        "prisma" => {
            let ops = operands(args, &["--schema", "--url", "--file", "--config"]);
            if ops.get(..2) != Some(&["db", "execute"][..]) {
                return None;
            }
            let url = value(args, &["--url"]);
            Script::new(
                Client::Any(url.map_or(Dialect::Generic, dialect_of_url)),
                Vec::new(),
                values(args, &["--file"]),
                has(args, &["--stdin"]),
            )
        }
        "typeorm" | "typeorm-ts-node-commonjs" | "typeorm-ts-node-esm" => {
            let valued = ["-d", "--dataSource", "-c", "--connection", "-f", "--config"];
            match operands(args, &valued).as_slice() {
                ["query", sql @ ..] => Script::new(
                    Client::Any(Dialect::Generic),
                    sql.to_vec(),
                    Vec::new(),
                    false,
                ),
                _ => return None,
            }
        }
        // `snowsql -q "..."`, `-f a.sql` (as often as wanted), or SQL on its stdin.
        "snowsql" => Script::new(
            Client::Snowflake,
            values(args, &["-q", "--query"]),
            values(args, &["-f", "--filename"]),
            true,
        ),
        // `bq [global flags] query [flags] 'SQL'`, or the SQL on its stdin when none is given.
        "bq" => {
            let valued = [
                "--project_id",
                "--dataset_id",
                "--location",
                "--format",
                "--destination_table",
                "--parameter",
                "--max_rows",
                "-n",
                "--job_id",
                "--label",
                "--flagfile",
                "--api",
                "--credential_file",
                "--display_name",
                "--schedule",
                "--target_dataset",
                "--destination_kms_key",
                "--maximum_bytes_billed",
                "--udf_resource",
                "--external_table_definition",
                "--time_partitioning_field",
                "--time_partitioning_type",
                "--clustering_fields",
                "--range_partitioning",
                "--connection_property",
                "--session_id",
                "--reservation_id",
            ];
            match operands(args, &valued).as_slice() {
                ["query", sql @ ..] => {
                    let stdin = sql.is_empty();
                    Script::new(Client::BigQuery, sql.to_vec(), Vec::new(), stdin)
                }
                _ => return None,
            }
        }
        // `turso db shell <db> [SQL]`, or SQL on its stdin.
        "turso" => {
            let ops = operands(args, &["--instance", "--location", "--proxy"]);
            match ops.as_slice() {
                ["db", "shell", _db, sql @ ..] => {
                    Script::new(Client::Turso, sql.to_vec(), Vec::new(), true)
                }
                _ => return None,
            }
        }
        "wrangler" => {
            let valued = [
                "--command",
                "--file",
                "--config",
                "-c",
                "--env",
                "-e",
                "--persist-to",
                "--batch-size",
            ];
            if operands(args, &valued).get(..2) != Some(&["d1", "execute"][..]) {
                return None;
            }
            Script::new(
                Client::D1 {
                    remote: has(args, &["--remote"]),
                },
                values(args, &["--command"]),
                values(args, &["--file"]),
                false,
            )
        }
        // `pscale sql` refuses destructive statements unless `--force`; `pscale shell` runs
        // what it reads on stdin.
        "pscale" => {
            let valued = [
                "--org",
                "--query",
                "--role",
                "--dbname",
                "--keyspace",
                "--format",
                "-f",
                "--service-token",
                "--service-token-id",
                "--api-token",
                "--config",
            ];
            match operands(args, &valued).first().copied() {
                Some("sql") if has(args, &["--force"]) => Script::new(
                    Client::PlanetScale,
                    values(args, &["--query"]),
                    Vec::new(),
                    false,
                ),
                Some("shell") => Script::new(Client::PlanetScale, Vec::new(), Vec::new(), true),
                _ => return None,
            }
        }
        _ => return None,
    };
    Some(script)
}

/// The server a database URL names, by its scheme: `postgres://`, `mysql://`, `file:` ...
pub(super) fn dialect_of_url(url: &str) -> Dialect {
    let scheme = url
        .split_once(':')
        .map_or("", |(scheme, _)| scheme)
        .to_ascii_lowercase();
    let engine = scheme.split('+').next().unwrap_or("");
    match engine {
        "postgres" | "postgresql" | "pg" | "pgsql" | "cockroachdb" | "cockroach" => {
            Dialect::Postgres
        }
        "mysql" | "my" | "mariadb" | "maria" => Dialect::MySql,
        "sqlite" | "sqlite3" | "sq" | "file" => Dialect::Sqlite,
        "sqlserver" | "mssql" | "ms" => Dialect::MsSql,
        "clickhouse" | "ch" => Dialect::ClickHouse,
        "duckdb" | "dk" => Dialect::DuckDb,
        _ => Dialect::Generic,
    }
}

impl Client {
    pub(super) fn dialect(self) -> Dialect {
        match self {
            Client::Psql | Client::Cockroach => Dialect::Postgres,
            Client::MySql | Client::PlanetScale => Dialect::MySql,
            Client::Snowflake | Client::BigQuery => Dialect::Generic,
            Client::Sqlite | Client::D1 { .. } | Client::Turso => Dialect::Sqlite,
            Client::DuckDb => Dialect::DuckDb,
            Client::ClickHouse => Dialect::ClickHouse,
            Client::SqlCmd => Dialect::MsSql,
            Client::Cqlsh => Dialect::Cql,
            Client::Influx => Dialect::InfluxQl,
            Client::Any(dialect) => dialect,
        }
    }

    /// How to keep a copy of what goes, with this client's tools.
    pub(super) fn backup(self) -> &'static str {
        match self {
            Client::Psql | Client::Any(Dialect::Postgres) => {
                "`pg_dump --table=<table> <db> > backup.sql` (or the whole database)"
            }
            Client::MySql | Client::Any(Dialect::MySql) => "`mysqldump <db> <table> > backup.sql`",
            Client::Sqlite | Client::Any(Dialect::Sqlite) => {
                "`sqlite3 <db> .dump > backup.sql` (or copy the database file)"
            }
            Client::DuckDb | Client::Any(Dialect::DuckDb) => {
                "`EXPORT DATABASE 'backup'` (or copy the database file)"
            }
            Client::ClickHouse | Client::Any(Dialect::ClickHouse) => {
                "`BACKUP TABLE <db>.<table> TO Disk('backups', '<name>')`"
            }
            Client::SqlCmd | Client::Any(Dialect::MsSql) => {
                "`BACKUP DATABASE <db> TO DISK = '<db>.bak'`"
            }
            Client::Cqlsh | Client::Any(Dialect::Cql) => {
                "`nodetool snapshot <keyspace>` on every node"
            }
            Client::Influx | Client::Any(Dialect::InfluxQl) => {
                "`influxd backup -portable -db <db> <dir>`"
            }
            Client::Cockroach => "`BACKUP DATABASE <db> INTO '<storage URL>'`",
            Client::D1 { remote: true } => "`wrangler d1 export <db> --remote --output=backup.sql`",
            Client::D1 { remote: false } => "`wrangler d1 export <db> --local --output=backup.sql`",
            Client::Turso => "`turso db shell <db> .dump > backup.sql`",
            Client::PlanetScale => "`pscale database dump <db> <branch>`",
            Client::Snowflake => "`CREATE TABLE <t>_backup CLONE <t>`",
            Client::BigQuery => "`bq cp <dataset>.<t> <dataset>.<t>_backup`",
            Client::Any(Dialect::Generic) => "a dump of the database with its own tools",
        }
    }

    /// How to get it back if it runs anyway.
    pub(super) fn recovery(self) -> &'static str {
        match self {
            Client::Sqlite | Client::DuckDb | Client::Any(Dialect::Sqlite | Dialect::DuckDb) => {
                "only from a copy of the database file"
            }
            Client::D1 { remote: true } => {
                "D1 Time Travel restores the database to any minute of the last 30 days: \
                 `wrangler d1 time-travel restore <db> --timestamp=<just before>`"
            }
            Client::D1 { remote: false } => {
                "only from a copy of the local database under `.wrangler/state`"
            }
            Client::Turso => {
                "Turso's point-in-time recovery makes a new database from before the change: \
                 `turso db create <new> --from-db <db> --timestamp <just before>`"
            }
            Client::Snowflake => {
                "Snowflake's Time Travel keeps it for the retention period (1 day by default): \
                 `UNDROP TABLE <t>`, or `CREATE TABLE <t>_restored CLONE <t> AT(OFFSET => -<seconds>)`"
            }
            Client::BigQuery => {
                "BigQuery's time travel keeps a table's past for 7 days by default: \
                 `bq cp <dataset>.<t>@<milliseconds since the epoch, just before> <dataset>.<t>_restored`"
            }
            Client::Cqlsh | Client::Any(Dialect::Cql) => {
                "from the snapshot Cassandra takes before a drop or truncate when \
                 `auto_snapshot` is on (the default): copy it back from each node's \
                 `snapshots` folder and run `nodetool refresh`"
            }
            _ => "only from a backup, or the server's point-in-time recovery if it keeps one",
        }
    }

    /// Whether the service keeps what a statement destroys for a while (D1 Time Travel,
    /// Snowflake's and BigQuery's time travel, Turso's point-in-time recovery, Cassandra's
    /// snapshot before a drop or truncate).
    pub(super) fn keeps_history(self) -> bool {
        matches!(
            self,
            Client::D1 { remote: true }
                | Client::Turso
                | Client::Cqlsh
                | Client::Any(Dialect::Cql)
                | Client::Snowflake
                | Client::BigQuery
        )
    }

    /// A sentence (with its leading `; `) on how to see what an unfiltered change touches
    /// before it is kept, if the server can roll it back.
    pub(super) fn preview(self) -> &'static str {
        match self.dialect() {
            Dialect::Postgres | Dialect::Sqlite | Dialect::DuckDb
                if !matches!(self, Client::D1 { .. }) =>
            {
                "; run it first inside `BEGIN; …; ROLLBACK;` to see how many rows it touches"
            }
            Dialect::MySql => "; preview inside `START TRANSACTION; …; ROLLBACK;` (InnoDB)",
            Dialect::MsSql => "; preview inside `BEGIN TRANSACTION; …; ROLLBACK;`",
            _ => "",
        }
    }
}
