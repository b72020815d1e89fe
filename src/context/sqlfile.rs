//! SQL files a database client is told to run (`psql -f reset.sql`, `mysql db < reset.sql`):
//! the file is read, when it exists and is small, and its statements judged by the same SQL
//! reader the `db` pack uses for SQL on the command line.

use std::io::Read;
use std::path::{Path, PathBuf};

use super::Assessment;
use crate::rules::packs::db::sql::{self, Dialect, MAX_SQL_BYTES};
use crate::shell::Word;

/// Files followed through the meta-commands of files (`\i` in a file that `\i` runs).
const MAX_DEPTH: usize = 4;

/// Where a client runs a file and against what.
pub(super) struct Client<'a> {
    pub dir: &'a Path,
    pub home: Option<&'a Path>,
    pub dialect: Dialect,
    /// Against a database in memory the command makes (`sqlite3 :memory:`).
    pub memory: bool,
}

/// The verdict on the file `file` a client runs, read from the file system.
pub(super) fn assess(client: &Client, file: &Word) -> Assessment {
    let Some(name) = file.value() else {
        return Assessment::Unknown;
    };
    let path = locate(client.dir, name, client.home);
    let Some(text) = read_small(&path) else {
        return Assessment::Unknown;
    };
    judge(client, name, &path, &text)
}

/// The verdict on a file an earlier command of the line writes with `text` it shows
/// (`cat > reset.sql <<'EOF'` … `EOF` `&& psql -f reset.sql`): that text is what runs.
pub(super) fn assess_written(client: &Client, file: &Word, text: &str) -> Assessment {
    let Some(name) = file.value() else {
        return Assessment::Unknown;
    };
    judge(client, name, &locate(client.dir, name, client.home), text)
}

/// Why nothing is lost in the database file `db`, when it does not exist yet: the client
/// makes it, so every table in it is one the line made.
pub(super) fn made_by_command(dir: &Path, db: &Word) -> Option<String> {
    let name = db.value()?;
    let missing = matches!(
        std::fs::symlink_metadata(dir.join(name)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound
    );
    missing.then(|| format!("`{name}` does not exist before this line: the client makes it"))
}

fn locate(dir: &Path, name: &str, home: Option<&Path>) -> PathBuf {
    match (name.strip_prefix("~/"), home) {
        (Some(rest), Some(home)) => home.join(rest),
        _ => dir.join(name),
    }
}

/// What running `text`, the SQL of the file `name` (at `path`), destroys: its own statements
/// and those of the files its meta-commands run, each named by file and line.
fn judge(client: &Client, name: &str, path: &Path, text: &str) -> Assessment {
    let mut walked = Walked::default();
    walk(client, (name, path, text), "", 0, &mut walked);
    if client.memory && !walked.opens && !walked.unknown {
        return Assessment::Clear(format!(
            "`{name}` runs against a database in memory that the command makes, and opens no \
             database file"
        ));
    }
    if !walked.found.is_empty() {
        return Assessment::Loss {
            loses: format!(
                "runs `{name}`, which {}, with no undo",
                walked.found.join("; ")
            ),
            recovery: None,
        };
    }
    if walked.unknown {
        return Assessment::Unknown;
    }
    Assessment::Clear(format!(
        "`{name}` holds no statement that drops, truncates, or deletes or updates every row"
    ))
}

/// What the files read so far hold.
#[derive(Default)]
struct Walked {
    /// What they destroy, each with its file and line.
    found: Vec<String>,
    /// One of them opens a database file.
    opens: bool,
    /// One of them could not be read, or they nest too deep.
    unknown: bool,
}

/// Adds what the file `(name, path, text)` holds to `walked`, following the files it runs
/// (`via` says which line ran it).
fn walk(
    client: &Client,
    (name, path, text): (&str, &Path, &str),
    via: &str,
    depth: usize,
    walked: &mut Walked,
) {
    walked.opens |= sql::opens_database(text);
    for destroys in sql::destructions(text, client.dialect) {
        let at = match destroys.line {
            0 => format!("`{name}`"),
            line => format!("`{name}:{line}`"),
        };
        walked
            .found
            .push(format!("{} ({at}{via})", sql::describe(&destroys)));
    }
    for included in sql::included(text, client.dialect) {
        // `\ir` names a file from the including file's folder; the others from the client's.
        let from = match path.parent() {
            Some(folder) if included.relative => folder,
            _ => client.dir,
        };
        let inner = locate(from, included.file, client.home);
        // A file that is not there only fails: the client goes on with the next statement.
        if !inner.exists() {
            continue;
        }
        let Some(inner_text) = read_small(&inner).filter(|_| depth < MAX_DEPTH) else {
            walked.unknown = true;
            continue;
        };
        let via = format!(", run by `{name}:{}`", included.line);
        walk(
            client,
            (included.file, &inner, &inner_text),
            &via,
            depth + 1,
            walked,
        );
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

    fn client(dir: &Path, dialect: Dialect) -> Client<'_> {
        Client {
            dir,
            home: None,
            dialect,
            memory: false,
        }
    }

    fn judged(text: &str) -> Assessment {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("f.sql"), text).expect("write");
        assess(
            &client(dir.path(), Dialect::Postgres),
            &Word::literal("f.sql"),
        )
    }

    #[test]
    fn a_file_that_drops_is_a_loss_and_one_that_reads_is_clear() {
        match judged("BEGIN;\nDROP TABLE orders;\nCOMMIT;\n") {
            Assessment::Loss { loses, .. } => {
                assert!(
                    loses.contains("drops table `orders` (`f.sql:2`)"),
                    "{loses}"
                )
            }
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
    fn the_files_a_file_runs_are_read_too_from_where_they_are_named() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir(dir.path().join("db")).expect("mkdir");
        std::fs::write(dir.path().join("db/wipe.sql"), "\n\nTRUNCATE orders;\n").expect("write");
        std::fs::write(dir.path().join("db/main.sql"), "SELECT 1;\n\\ir wipe.sql\n")
            .expect("write");
        match assess(
            &client(dir.path(), Dialect::Postgres),
            &Word::literal("db/main.sql"),
        ) {
            Assessment::Loss { loses, .. } => assert!(
                loses.contains("(`wipe.sql:3`, run by `db/main.sql:2`)"),
                "{loses}"
            ),
            other => panic!("expected a loss, got {other:?}"),
        }
        // `\\i` names it from where the client starts, where there is none: nothing runs.
        std::fs::write(dir.path().join("db/main.sql"), "\\i wipe.sql\n").expect("write");
        assert!(matches!(
            assess(
                &client(dir.path(), Dialect::Postgres),
                &Word::literal("db/main.sql")
            ),
            Assessment::Clear(_)
        ));
    }

    #[test]
    fn a_database_in_memory_loses_nothing_unless_the_file_opens_one() {
        let dir = tempfile::tempdir().expect("temp dir");
        let memory = Client {
            memory: true,
            ..client(dir.path(), Dialect::Sqlite)
        };
        std::fs::write(dir.path().join("t.sql"), "DROP TABLE t;\n").expect("write");
        let file = Word::literal("t.sql");
        assert!(matches!(assess(&memory, &file), Assessment::Clear(_)));
        std::fs::write(dir.path().join("t.sql"), ".open app.db\nDROP TABLE t;\n").expect("write");
        assert!(matches!(assess(&memory, &file), Assessment::Loss { .. }));
    }

    #[test]
    fn a_missing_or_large_file_is_unknown() {
        let dir = tempfile::tempdir().expect("temp dir");
        let missing = assess(
            &client(dir.path(), Dialect::MySql),
            &Word::literal("nope.sql"),
        );
        assert_eq!(missing, Assessment::Unknown);
        assert_eq!(judged(&"x".repeat(MAX_SQL_BYTES + 1)), Assessment::Unknown);
    }
}
