//! SQL handed to a database client (`psql -c`, `mysql -e`, `sqlite3`, `duckdb`,
//! `clickhouse-client --query`): sqlparser in every dialect the db pack reads, then the
//! description each destructive statement gets in a reason.
#![no_main]

use agent_guard::rules::packs::db::sql::{Dialect, describe, destructions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let sql = String::from_utf8_lossy(data);
    for dialect in [
        Dialect::Postgres,
        Dialect::MySql,
        Dialect::Sqlite,
        Dialect::DuckDb,
        Dialect::ClickHouse,
    ] {
        for found in destructions(&sql, dialect) {
            assert!(
                !describe(&found).is_empty(),
                "a destruction with no description"
            );
        }
    }
});
