//! Pack `db`: databases. SQL that drops, truncates or rewrites every row, run through a
//! database client's command line, its stdin or a file it reads, or handed to a database
//! driver in interpreter code; the clients' own drop commands (`dropdb`, `mysqladmin drop`,
//! `pg_restore --clean`); databases deleted through their service's command line (InfluxDB,
//! Turso, PlanetScale, Neon, D1, Supabase); MongoDB drops and unfiltered deletes; Redis
//! flushes and keys deleted by pattern; databases deleted through their HTTP APIs (SQL sent
//! to ClickHouse's, InfluxQL to InfluxDB's, CouchDB, InfluxDB and ArangoDB deletes by URL).
//!
//! SQL is read by [`sql`] only for a database client, so no other command pays for the
//! parser. A driver call in interpreter code (`cursor.execute('DROP TABLE t')`) reaches here
//! as the client command it amounts to (`psql -c 'DROP TABLE t'`), lowered by the language
//! reader. SQL in a file (`psql -f reset.sql`, `mysql < reset.sql`) is judged by the context,
//! which reads the file; with the rules alone it passes, since its text is not in the command.

mod clients;
mod http;
mod services;
pub mod sql;

use super::Pack;
use super::args::{has, operand_words, values};
use crate::rules::{Hit, Rule, Subject, Tier, WorldExample};
use crate::shell::{SimpleCommand, Word};
use clients::{Client, Script};
use sql::{Destruction, Kind};

/// The programs whose SQL is read, for the rules' documentation: in full once, in
/// [`SQL_DROP`], and by reference in the other SQL rules.
macro_rules! clients {
    () => {
        "a database client (psql, mysql/mariadb, sqlite3, duckdb, clickhouse-client, sqlcmd, \
         cqlsh, influx, `cockroach sql`, usql, `prisma db execute`, `typeorm query`, \
         `wrangler d1 execute`, `turso db shell`, `pscale sql --force`/`shell`, snowsql, \
         `bq query`) or a database \
         driver's call in interpreter code (Python's sqlite3, psycopg, pymysql, SQLAlchemy; \
         Node's pg, mysql2, better-sqlite3, knex, Prisma; Ruby's pg, sqlite3, mysql2, Sequel, \
         ActiveRecord; PHP's PDO, mysqli, pg_query, SQLite3)"
    };
    (short) => {
        "a database client or a database driver in interpreter code (those `db.sql-drop` lists)"
    };
}

pub static SQL_DROP: Rule = Rule {
    id: "db.sql-drop",
    catches: concat!(
        "`DROP DATABASE`/`SCHEMA`/`TABLE`/`MATERIALIZED VIEW` (CQL's `KEYSPACE`, InfluxQL's \
         `MEASUREMENT`, `SERIES`, `RETENTION POLICY`), or any `DROP … CASCADE`, through ",
        clients!(),
        "; `dropdb`; `mysqladmin drop`"
    ),
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
        "cqlsh -e 'DROP KEYSPACE shop'",
        "influx -execute 'DROP MEASUREMENT cpu'",
        "sqlcmd -S db1 -Q 'DROP TABLE dbo.orders'",
        "npx wrangler d1 execute app --remote --command 'DROP TABLE users'",
        "node -e \"const {Client}=require('pg'); const c=new Client(); c.connect().then(()=>c.query('DROP SCHEMA public CASCADE'))\"",
    ],
    passes: &[
        "psql -c 'SELECT count(*) FROM orders'",
        "psql -c \"SELECT 'DROP TABLE x'\"",
        "mysql -e 'DROP INDEX idx_email ON users'",
        "echo 'DROP TABLE users'",
        "pg_dump shop > shop.sql",
        "dropdb --help",
        "psql -c 'BEGIN; DROP TABLE orders; ROLLBACK'",
        "cqlsh -e 'DESCRIBE KEYSPACES'",
        "pscale sql shop main --org acme --query 'DROP TABLE t'",
        "python3 -c \"import sqlite3; print(sqlite3.connect('app.db').execute('SELECT count(*) FROM users').fetchone())\"",
    ],
};

pub static SQL_TRUNCATE: Rule = Rule {
    id: "db.sql-truncate",
    catches: concat!("`TRUNCATE` through ", clients!(short)),
    why: "`TRUNCATE` empties a table at once, without a `WHERE` and, in MySQL, without a \
          transaction to roll back: every row is gone.",
    instead: "Dump the table first; delete only the rows meant to go with `DELETE … WHERE …`.",
    protected_when: Some("when the command names production (a database, host or URL)"),
    strict_only: false,
    stops: &[
        "psql shop -c 'TRUNCATE orders'",
        "mysql shop -e 'truncate table sessions'",
        "echo 'TRUNCATE audit_log;' | psql shop",
        "cqlsh -k shop -e 'TRUNCATE carts'",
        "mysql -e 'BEGIN; TRUNCATE sessions; ROLLBACK'",
    ],
    passes: &[
        "psql -c \"select * from pg_tables where tablename = 'truncate'\"",
        "grep -ri truncate src/",
    ],
};

pub static SQL_DELETE_ALL: Rule = Rule {
    id: "db.sql-delete-all",
    catches: concat!(
        "`DELETE` without `WHERE`, or with one that holds for every row (`WHERE true`, \
         `WHERE 1`, `WHERE 1=1`, `WHERE id = id`, `… OR 1=1`), and `EXPLAIN ANALYZE` of one, \
         through ",
        clients!(short),
        "; not inside a transaction that is rolled back"
    ),
    why: "A `DELETE` with no `WHERE` that picks rows removes every row of the table, and an \
          agent that meant a few rows rarely has the backup it would need. `EXPLAIN ANALYZE` \
          runs the statement it measures. A transaction that ends in `ROLLBACK` keeps nothing \
          of it, except where the server commits anyway (MySQL commits at any DDL statement).",
    instead: "Add the `WHERE` that picks the rows and count them first (`SELECT count(*) FROM t \
              WHERE …`); preview inside `BEGIN; …; ROLLBACK;`.",
    protected_when: Some("when the command names production (a database, host or URL)"),
    strict_only: false,
    stops: &[
        "psql -c 'DELETE FROM users'",
        "sqlite3 app.db <<< 'delete from sessions;'",
        "mysql app <<'SQL'\nDELETE FROM carts;\nSQL",
        "psql -c 'DELETE FROM users WHERE 1=1'",
        "psql -c 'EXPLAIN ANALYZE DELETE FROM users'",
        "npx prisma db execute --stdin <<< 'DELETE FROM invoices'",
        "python3 -c \"import sqlite3; c = sqlite3.connect('app.db'); c.execute('DELETE FROM users'); c.commit()\"",
    ],
    passes: &[
        "psql -c 'DELETE FROM users WHERE id = 42'",
        "psql -c 'INSERT INTO users (name) VALUES ($$delete from users$$)'",
        "psql -c 'EXPLAIN DELETE FROM users'",
        "psql -c 'BEGIN; DELETE FROM users; ROLLBACK'",
        "npx prisma db execute --stdin <<< 'SELECT count(*) FROM invoices'",
        "python3 -c \"import psycopg2; c = psycopg2.connect('dbname=app'); c.cursor().execute('DELETE FROM users')\"",
    ],
};

pub static SQL_UPDATE_ALL: Rule = Rule {
    id: "db.sql-update-all",
    catches: concat!(
        "`UPDATE` without `WHERE`, or with one that holds for every row, through ",
        clients!(short)
    ),
    why: "An `UPDATE` with no `WHERE` overwrites the column in every row: the old values are \
          gone unless a backup has them.",
    instead: "Add the `WHERE` that picks the rows and check it with a `SELECT` first; preview \
              inside `BEGIN; …; ROLLBACK;`.",
    protected_when: Some("when the command names production (a database, host or URL)"),
    strict_only: false,
    stops: &[
        "psql -c \"UPDATE users SET email = 'x@example.com'\"",
        "mysql -e 'update accounts set balance = 0'",
        "mysql -e 'UPDATE accounts SET balance = 0 WHERE true'",
    ],
    passes: &[
        "psql -c 'UPDATE users SET active = false WHERE id = 7'",
        "mysql -e 'START TRANSACTION; UPDATE accounts SET balance = 0; ROLLBACK'",
    ],
};

pub static SQL_ALTER_DROP: Rule = Rule {
    id: "db.sql-alter-drop",
    catches: concat!(
        "`ALTER TABLE … DROP COLUMN`/`PARTITION` through ",
        clients!(short)
    ),
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
              `sqlite3 db < f.sql`, `duckdb -f f.sql`, `clickhouse client --queries-file`, \
              `cockroach sql --file`, `snowsql -f`, `bq query < f.sql`, `prisma db execute \
              --file f.sql`, `wrangler d1 execute --file`, `sqlcmd -i`, `cqlsh -f`), or by the \
              client's own command in the SQL (`\\i f.sql`, `\\ir`, `source f.sql`, `\\.`, \
              `.read f.sql`), that drops, truncates, or deletes or updates without `WHERE`, \
              when the context reads the file",
    why: "What the file destroys does not show in the command. The context reads it when it \
          exists and is small (256 KiB at most), follows the files it runs in turn, and judges \
          their statements as the SQL rules do, naming the file and line of each; a file the \
          line itself writes first with text it shows (`cat > f.sql <<'EOF'`) is judged by \
          that text. With the rules alone, or when the file is missing, the command passes.",
    instead: "Dump what the file drops first; read the file and run only the statements meant \
              to run.",
    protected_when: Some("when the command names production (a database, host or URL)"),
    strict_only: false,
    stops: &[],
    passes: &[
        "psql -f schema.sql",
        "mysql shop < seed.sql",
        "psql -f - < x.sql",
        "npx prisma db execute --file ./reset.sql",
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
    catches: "`redis-cli FLUSHALL`/`FLUSHDB` in any case, as arguments or on stdin (in Redis's \
              wire protocol too, as `--pipe` reads it), and sent through `nc` to port 6379",
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
        "printf '*1\\r\\n$8\\r\\nFLUSHALL\\r\\n' | redis-cli --pipe",
        "printf 'FLUSHALL\\r\\n' | nc localhost 6379",
    ],
    passes: &[
        "redis-cli get session:42",
        "redis-cli --scan --pattern 'tmp:*'",
        "redis-cli info keyspace",
        "printf 'PING\\r\\n' | nc localhost 6379",
    ],
};

pub static CACHE_DELETE: Rule = Rule {
    id: "db.cache-delete",
    catches: "keys deleted in bulk from a cache or key-value server: `redis-cli --scan`/`KEYS` \
              piped through `xargs` into `redis-cli DEL`/`UNLINK` (also `valkey-cli`), an `EVAL` \
              script that deletes what `KEYS` or `SCAN` lists, and memcached's `flush_all` sent \
              through `nc` (port 11211)",
    why: "Every key the pattern matches goes at once, with no undo; a pattern of `*` (or none) \
          is the whole database, as a flush is. memcached keeps nothing on disk: a flush \
          empties it, and every service that reads it falls through to its database at once.",
    instead: "`redis-cli --scan --pattern '<prefix>*' | head` to see what the pattern matches, \
              and `--scan ... | wc -l` to count it; `redis-cli BGSAVE` first so a snapshot holds \
              the data; let keys expire (`EXPIRE`) rather than deleting them.",
    protected_when: Some("when the command names production (a host or URL)"),
    strict_only: false,
    stops: &[
        "redis-cli --scan --pattern 'session:*' | xargs redis-cli DEL",
        "redis-cli -h cache KEYS 'user:*' | xargs -n 100 redis-cli -h cache UNLINK",
        "redis-cli EVAL \"return redis.call('del', unpack(redis.call('keys', ARGV[1])))\" 0 'cache:*'",
        "echo flush_all | nc localhost 11211",
    ],
    passes: &[
        "redis-cli --scan --pattern 'session:*' | head -20",
        "redis-cli --scan --pattern 'session:*' | wc -l",
        "redis-cli DEL session:42",
        "redis-cli EVAL \"return redis.call('get', KEYS[1])\" 1 user:1",
        "echo stats | nc localhost 11211",
    ],
};

pub static DATABASE_API_DELETE: Rule = Rule {
    id: "db.api-delete",
    catches: "a database deleted or emptied through its HTTP API, sent with `curl`, `wget`, \
              HTTPie, `xh` or a request in interpreter code: CouchDB (`DELETE /<db>`, a \
              document, `_purge`, `_bulk_docs` with `_deleted`), InfluxDB (`DELETE \
              /api/v2/buckets|orgs/<id>`, `POST /api/v2/delete` without a predicate, `DELETE \
              /api/v3/configure/database|table`), ArangoDB (databases, collections, \
              `truncate`, graphs with `dropCollections`, documents); SQL sent to ClickHouse's \
              HTTP interface or InfluxQL to InfluxDB's `/query` is judged by the SQL rules",
    why: "The HTTP API is the database's own: a `DELETE` there is the same drop the client \
          would run, with every document or point in it and no undo.",
    instead: "Look first (`GET /<db>`, `GET /api/v2/buckets`, `GET \
              /_api/collection/<c>/count`); back up first (CouchDB replication, `influx \
              backup`, `arangodump`); give an InfluxDB delete a predicate.",
    protected_when: Some("when the command names production (a database, host or URL)"),
    strict_only: false,
    stops: &[
        "curl -X DELETE http://admin:password@127.0.0.1:5984/orders",
        "curl -X POST http://127.0.0.1:5984/orders/_purge -H 'Content-Type: application/json' -d '{\"doc1\":[\"1-abc\"]}'",
        "curl -X DELETE http://localhost:8086/api/v2/buckets/0a1b2c3d4e5f -H \"Authorization: Token $INFLUX_TOKEN\"",
        "curl -X POST 'http://localhost:8086/api/v2/delete?org=acme&bucket=metrics' -d '{\"start\":\"2020-01-01T00:00:00Z\",\"stop\":\"2030-01-01T00:00:00Z\"}'",
        "curl -X DELETE http://localhost:8529/_api/database/shop",
        "curl -X PUT http://localhost:8529/_db/shop/_api/collection/orders/truncate",
    ],
    passes: &[
        "curl http://127.0.0.1:5984/_all_dbs",
        "curl -X PUT http://127.0.0.1:5984/orders",
        "curl -X DELETE http://127.0.0.1:5984/_session",
        "curl http://localhost:8086/api/v2/buckets",
        "curl -X POST 'http://localhost:8086/api/v2/delete?org=acme&bucket=metrics' -d '{\"start\":\"2024-01-01T00:00:00Z\",\"stop\":\"2024-01-02T00:00:00Z\",\"predicate\":\"_measurement=\\\"cpu\\\"\"}'",
        "curl http://localhost:8529/_api/collection",
    ],
};

pub static DATABASE_DELETE: Rule = Rule {
    id: "db.database-delete",
    catches: "a database deleted or emptied through its service's command line: `influx bucket \
              delete`, `influx org delete`, `influx delete` without `--predicate`, `influxdb3 \
              delete database`/`table`, `turso db destroy`, `turso group destroy`, `pscale \
              database delete`, `pscale branch delete`, `neonctl projects`/`branches`/\
              `databases delete`, `neonctl branches reset`, `wrangler d1 delete`, `wrangler kv \
              namespace delete`, `wrangler kv bulk delete`, `supabase projects delete`",
    why: "These delete the database (or the bucket, branch, project or organization holding \
          it) on the service, with every row in it; the service keeps no copy of a deleted \
          database, and an `influx delete` without a predicate removes every point of the \
          time range.",
    instead: "Export first (`influx backup`, `turso db shell <db> .dump`, `pscale database \
              dump`, `pg_dump`, `wrangler d1 export`, `supabase db dump`); give `influx \
              delete` a `--predicate`; reset a Neon branch with `--preserve-under-name`.",
    protected_when: Some("when the command names production (a database, branch or project)"),
    strict_only: false,
    stops: &[
        "influx bucket delete -n metrics",
        "influx delete --bucket metrics --start 2020-01-01T00:00:00Z --stop 2030-01-01T00:00:00Z",
        "turso db destroy shop --yes",
        "pscale database delete shop --force",
        "neonctl branches delete dev",
        "npx wrangler d1 delete app",
    ],
    passes: &[
        "influx bucket list",
        "influx delete --bucket metrics --start 2020-01-01T00:00:00Z --stop 2020-02-01T00:00:00Z --predicate '_measurement=\"cpu\"'",
        "turso db list",
        "pscale branch list shop",
        "neonctl branches create --name dev",
        "npx wrangler d1 list",
        "influx bucket delete --help",
    ],
};

pub static PACK: Pack = Pack {
    id: "db",
    summary: "databases: SQL drops, truncates and unfiltered deletes or updates (from clients, \
              files and drivers in interpreter code), dropdb, pg_restore --clean, databases \
              deleted through their service's CLI or HTTP API, MongoDB drops, Redis flushes and \
              bulk deletes",
    default_on: true,
    programs: super::http::and_http_clients![
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
        "sqlcmd",
        "cqlsh",
        "influx",
        "influxdb3",
        "cockroach",
        "usql",
        "prisma",
        "typeorm",
        "typeorm-ts-node-commonjs",
        "typeorm-ts-node-esm",
        "turso",
        "snowsql",
        "bq",
        "wrangler",
        "pscale",
        "neonctl",
        "neon",
        "supabase",
        "nc",
        "ncat",
        "netcat"
    ],
    rules: &[
        &SQL_DROP,
        &SQL_TRUNCATE,
        &SQL_DELETE_ALL,
        &SQL_UPDATE_ALL,
        &SQL_ALTER_DROP,
        &SQL_FILE,
        &RESTORE_CLEAN,
        &DATABASE_DELETE,
        &MONGO_DROP,
        &REDIS_FLUSH,
        &CACHE_DELETE,
        &DATABASE_API_DELETE,
    ],
    check,
};

fn check(cmd: &SimpleCommand) -> Vec<Hit> {
    let Some(program) = cmd.program() else {
        return Vec::new();
    };
    let args = cmd.args();
    match program {
        "dropdb" => return dropdb(args).into_iter().collect(),
        "mysqladmin" | "mariadb-admin" => return mysqladmin(args).into_iter().collect(),
        "pg_restore" => return pg_restore(args).into_iter().collect(),
        "mongosh" | "mongo" => return mongo(cmd).into_iter().collect(),
        "redis-cli" | "valkey-cli" => {
            return redis(cmd).into_iter().chain(redis_keys(cmd)).collect();
        }
        "curl" | "wget" | "http" | "https" | "xh" | "xhs" => return http::check(cmd),
        "nc" | "ncat" | "netcat" => return netcat(cmd).into_iter().collect(),
        _ => {}
    }
    let mut hits: Vec<Hit> = services::check(program, args).into_iter().collect();
    if let Some(script) = clients::script(program, args) {
        hits.extend(judge(cmd, script));
    }
    hits
}

/// The findings for the SQL a client runs: what its statements destroy (or that a part that
/// names a destructive statement could not be read), and a finding for each file it runs,
/// which the context reads.
fn judge(cmd: &SimpleCommand, script: Script) -> Vec<Hit> {
    let client = script.client;
    let stdin = cmd.input.as_deref().filter(|_| script.stdin);
    // Files the SQL's own meta-commands run (`psql -c '\i reset.sql'`), named from where the
    // client starts.
    let included: Vec<Word> = script
        .texts
        .iter()
        .copied()
        .chain(stdin)
        .flat_map(|text| sql::included(text, client.dialect()))
        .map(|found| Word::literal(found.file))
        .collect();
    // A database in memory goes with the command: nothing of anyone's is in it, unless the
    // SQL opens a file after all (`.open app.db`, `ATTACH 'app.db'`).
    let memory = script.memory
        && !script
            .texts
            .iter()
            .copied()
            .chain(stdin)
            .any(sql::opens_database);
    let read = sql::read_all(script.texts.into_iter().chain(stdin), client.dialect());
    let mut hits = if memory {
        Vec::new()
    } else {
        by_kind(client, &read.found)
    };
    // A database file that is not there yet is one the command makes.
    let database = script.database.cloned();
    if let Some(db) = &database {
        hits = hits
            .into_iter()
            .map(|hit| hit.about(Subject::Database(db.clone())))
            .collect();
    }
    if let Some(why) = read.unread.filter(|_| read.found.is_empty()) {
        hits.push(crate::rules::shell::unread(why));
    }
    let redirected = cmd
        .redirects
        .iter()
        .filter(|r| script.stdin && r.op == "<")
        .map(|r| r.target.clone());
    let files = script
        .files
        .into_iter()
        .map(Word::literal)
        .chain(redirected)
        .chain(included);
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
            memory,
            database: database.clone(),
        });
        hit.needs_confirmation = true;
        hit
    }));
    hits
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
        let undo = if client.keeps_history() {
            ""
        } else {
            ", with no undo"
        };
        hits.push(
            Hit::new(rule, Tier::Destructive, format!("{loses}{undo}"))
                .safer(safer)
                .recovery(client.recovery())
                .names(names),
        );
    }
    hits
}

fn unfiltered_safer(client: Client) -> String {
    let preview = client.preview();
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
    let args = cmd.args();
    let argument = operand_words(args, REDIS_VALUED)
        .first()
        .map(|w| w.text.as_str());
    let on_stdin = cmd
        .input
        .as_deref()
        .into_iter()
        .flat_map(str::lines)
        .filter_map(|line| line.split_whitespace().next())
        // The wire protocol's line ends, as `printf '...\\r\\n'` writes them.
        .map(|word| word.trim_end_matches("\\r"));
    let flush = argument
        .into_iter()
        .chain(on_stdin)
        .find(|c| c.eq_ignore_ascii_case("flushall") || c.eq_ignore_ascii_case("flushdb"))?;
    Some(redis_flush(flush))
}

/// The finding for a Redis `FLUSHALL` or `FLUSHDB`, however it was sent.
fn redis_flush(flush: &str) -> Hit {
    let scope = if flush.eq_ignore_ascii_case("flushall") {
        "every key of every database on the server"
    } else {
        "every key of the selected database"
    };
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
    )
}

/// Cache commands a pipeline gives to the server's own protocol through `nc`: Redis's
/// `FLUSHALL`/`FLUSHDB` to port 6379, memcached's `flush_all` to port 11211.
fn netcat(cmd: &SimpleCommand) -> Option<Hit> {
    let input = cmd.input.as_deref()?;
    let port = |p: &str| cmd.args().iter().any(|w| w.text == p);
    let commands = || {
        input
            .lines()
            .filter_map(|line| line.split_whitespace().next())
            .map(|word| word.trim_end_matches("\\r"))
    };
    if port("6379") {
        let flush = commands()
            .find(|c| c.eq_ignore_ascii_case("flushall") || c.eq_ignore_ascii_case("flushdb"))?;
        return Some(redis_flush(flush));
    }
    if port("11211") && commands().any(|c| c == "flush_all") {
        return Some(
            Hit::new(
                &CACHE_DELETE,
                Tier::Destructive,
                "deletes every item in the memcached server (`flush_all`)",
            )
            .safer("delete only the keys meant to go (`delete <key>`)")
            .recovery("none: memcached keeps nothing on disk; the services refill it from their databases"),
        );
    }
    None
}

/// Options of `redis-cli` that take a value, for finding its command among its words.
const REDIS_VALUED: &[&str] = &[
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

/// `redis-cli DEL|UNLINK` fed by `xargs` with the keys a `--scan` or `KEYS` lists, and an
/// `EVAL` script that deletes the keys it lists.
fn redis_keys(cmd: &SimpleCommand) -> Option<Hit> {
    let ops = operand_words(cmd.args(), REDIS_VALUED);
    let (command, rest) = ops.split_first()?;
    let command = command.text.to_ascii_lowercase();
    let listed = |argv: &Vec<Word>| {
        let program = argv.first().map(|w| w.text.as_str());
        matches!(program, Some("redis-cli" | "valkey-cli"))
            && argv
                .iter()
                .any(|w| w.text == "--scan" || w.text.eq_ignore_ascii_case("keys"))
    };
    let pattern = |argv: &Vec<Word>| {
        let args = argv.get(1..).unwrap_or_default();
        values(args, &["--pattern"])
            .first()
            .map(|p| p.to_string())
            .or_else(|| {
                let words = operand_words(args, REDIS_VALUED);
                let at = words
                    .iter()
                    .position(|w| w.text.eq_ignore_ascii_case("keys"))?;
                words.get(at + 1).map(|w| w.text.clone())
            })
            .unwrap_or_else(|| "*".to_string())
    };
    let loses = match command.as_str() {
        "del" | "unlink" => {
            let feeder = cmd.fed_by.iter().find(|argv| listed(argv))?;
            let pattern = pattern(feeder);
            if pattern == "*" {
                "deletes every key of the database, one listing at a time".to_string()
            } else {
                format!("deletes every key matching `{pattern}`")
            }
        }
        "eval" | "evalsha" => {
            let script = rest.first()?.text.to_ascii_lowercase();
            let compact: String = script.chars().filter(|c| !c.is_whitespace()).collect();
            let deletes = ["'del'", "\"del\"", "'unlink'", "\"unlink\""]
                .iter()
                .any(|d| compact.contains(d));
            let lists = ["'keys'", "\"keys\"", "'scan'", "\"scan\""]
                .iter()
                .any(|l| compact.contains(l));
            if !(deletes && lists) {
                return None;
            }
            "deletes every key the script's `KEYS`/`SCAN` lists".to_string()
        }
        _ => return None,
    };
    Some(
        Hit::new(
            &CACHE_DELETE,
            Tier::Destructive,
            format!("{loses}, with no undo"),
        )
        .safer(
            "`redis-cli --scan --pattern '<prefix>*' | wc -l` to count what matches first; \
                 `redis-cli BGSAVE` first so a snapshot holds the data",
        )
        .recovery("only from the last RDB snapshot or AOF file, if persistence is on"),
    )
}
