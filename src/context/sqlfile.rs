//! SQL files a database client is told to run (`psql -f reset.sql`, `mysql db < reset.sql`):
//! the file is read, when it exists and is small, and its statements judged by the same SQL
//! reader the `db` pack uses for SQL on the command line.

use std::io::Read;
use std::path::Path;

use super::Assessment;
use crate::rules::packs::db::sql::{self, Dialect, MAX_SQL_BYTES};
use crate::shell::Word;

pub(super) fn assess(dir: &Path, file: &Word, dialect: Dialect, home: Option<&Path>) -> Assessment {
    let Some(name) = file.value() else {
        return Assessment::Unknown;
    };
    let path = match (name.strip_prefix("~/"), home) {
        (Some(rest), Some(home)) => home.join(rest),
        _ => dir.join(name),
    };
    let Some(text) = read_small(&path) else {
        return Assessment::Unknown;
    };
    let found = sql::destructions(&text, dialect);
    if found.is_empty() {
        return Assessment::Clear(format!(
            "`{name}` holds no statement that drops, truncates, or deletes or updates every row"
        ));
    }
    let what: Vec<String> = found.iter().map(sql::describe).collect();
    Assessment::Loss {
        loses: format!("runs `{name}`, which {}, with no undo", what.join("; ")),
        recovery: None,
    }
}

/// The verdict on a file that a command earlier in the line writes: what it will hold
/// when the client reads it cannot be read now, so the finding stands.
pub(super) fn written_before(file: &Word) -> Assessment {
    Assessment::Loss {
        loses: format!(
            "runs {}, which a command before it in this line writes: the SQL it will hold \
             cannot be checked beforehand",
            file.shell_quoted()
        ),
        recovery: None,
    }
}

/// The file's text, if it is a regular file of at most [`MAX_SQL_BYTES`].
fn read_small(path: &Path) -> Option<String> {
    let file = std::fs::File::open(path).ok()?;
    let meta = file.metadata().ok()?;
    if !meta.is_file() || meta.len() > MAX_SQL_BYTES as u64 {
        return None;
    }
    let mut bytes = Vec::new();
    file.take(MAX_SQL_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .ok()?;
    (bytes.len() <= MAX_SQL_BYTES).then(|| String::from_utf8_lossy(&bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judged(text: &str) -> Assessment {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("f.sql"), text).expect("write");
        assess(dir.path(), &Word::literal("f.sql"), Dialect::Postgres, None)
    }

    #[test]
    fn a_file_that_drops_is_a_loss_and_one_that_reads_is_clear() {
        match judged("BEGIN;\nDROP TABLE orders;\nCOMMIT;\n") {
            Assessment::Loss { loses, .. } => assert!(loses.contains("drops table `orders`")),
            other => panic!("expected a loss, got {other:?}"),
        }
        assert!(matches!(
            judged("-- DROP TABLE x\nSELECT 1;"),
            Assessment::Clear(_)
        ));
    }

    #[test]
    fn a_client_running_a_file_is_judged_by_what_the_file_holds() {
        use crate::policy::Decision;
        use crate::settings::Settings;
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("reset.sql"), "TRUNCATE orders;").expect("write");
        std::fs::write(dir.path().join("seed.sql"), "INSERT INTO t VALUES (1);").expect("write");
        let on = Settings::default();
        let judge = |command: &str, settings: &Settings| {
            crate::evaluate_in(command, Some(dir.path()), settings).decision
        };
        assert_eq!(judge("psql -f reset.sql", &on), Decision::Deny);
        assert_eq!(judge("mysql shop < reset.sql", &on), Decision::Deny);
        assert_eq!(judge("psql -f seed.sql", &on), Decision::Allow);
        assert_eq!(judge("psql -f missing.sql", &on), Decision::Allow);
        let off = Settings {
            context: false,
            ..Settings::default()
        };
        assert_eq!(judge("psql -f reset.sql", &off), Decision::Allow);
    }

    #[test]
    fn a_missing_or_large_file_is_unknown() {
        let dir = tempfile::tempdir().expect("temp dir");
        let missing = assess(dir.path(), &Word::literal("nope.sql"), Dialect::MySql, None);
        assert_eq!(missing, Assessment::Unknown);
        assert_eq!(judged(&"x".repeat(MAX_SQL_BYTES + 1)), Assessment::Unknown);
    }
}
