//! Ruby: `FileUtils` deletions, `File.delete`, `system`/`exec`/`spawn`, backticks and `%x`,
//! `Open3`, and `File.write`; the SQL database drivers run (pg, sqlite3, mysql2, Sequel,
//! ActiveRecord's connection).

use tree_sitter::{Node, Tree};

use super::args::{self as script, ScriptArgs};
use super::driver::{self, Commits, Connection, Engine};
use super::tree::{self, Part, Value, named_nodes, text};
use super::{
    Effect, fresh, make_dir, mode_writes, remove, remove_dir, rename, run, unknown, write, write_as,
};
use crate::syntax::Word;

pub(super) fn effects(tree: &Tree, code: &str, given: ScriptArgs) -> Vec<Effect> {
    let nodes = named_nodes(tree.root_node());
    let databases = Databases::read(&nodes, code);
    let mut effects: Vec<Effect> = nodes
        .iter()
        .filter_map(|n| match n.kind() {
            "call" => call(*n, code).or_else(|| databases.statement(*n, code)),
            "subshell" => Some(string(*n, code).shell(text(*n, code))),
            _ => None,
        })
        .collect();
    fresh::mark(&mut effects, &nodes, code, &fresh::RUBY);
    let lists = script::lists(code, &script::RUBY, given);
    let names = script::names(
        &nodes,
        code,
        &lists,
        &script::RUBY,
        given,
        &["identifier"],
        |node| {
            let left = node.child_by_field_name("left")?;
            (node.kind() == "assignment" && left.kind() == "identifier")
                .then_some((left, node.child_by_field_name("right")?))
        },
        // A call's argument or a string's `#{}`: reads only.
        |name| script::within(name, &["argument_list", "interpolation"]),
    );
    script::bind(&mut effects, &lists, &names, false, given);
    effects
}

fn call(node: Node, src: &str) -> Option<Effect> {
    let name = text(node.child_by_field_name("method")?, src);
    let owner = node
        .child_by_field_name("receiver")
        .map_or("", |r| text(r, src));
    let args: Vec<Value> = node
        .child_by_field_name("arguments")
        .map(|a| {
            tree::args(a)
                .into_iter()
                .map(|a| value_of(a, src))
                .collect()
        })
        .unwrap_or_default();
    let whole = text(node, src);
    // The paths: a single argument may be a list of them.
    let paths = || -> Vec<Word> {
        args.iter()
            .filter(|a| !matches!(a, Value::Map(..)))
            .flat_map(|a| a.list().unwrap_or_else(|| vec![a.word()]))
            .collect()
    };
    let owner = owner.trim_start_matches("::");
    match (owner, name) {
        (
            "FileUtils",
            "rm_rf" | "rm_r" | "rmtree" | "remove_dir" | "remove_entry" | "remove_entry_secure",
        )
        | ("", "rm_rf" | "rm_r") => nonempty(paths()).map(|p| remove(whole, p, true)),
        ("FileUtils", "rm" | "rm_f" | "remove" | "safe_unlink" | "remove_file")
        | ("File", "delete" | "unlink") => nonempty(paths()).map(|p| remove(whole, p, false)),
        ("FileUtils", "mkdir_p" | "mkdir" | "makedirs" | "mkpath") | ("Dir", "mkdir") => {
            Some(make_dir(whole, paths().into_iter().next()?))
        }
        ("FileUtils" | "Dir", "rmdir" | "delete" | "unlink") => {
            Some(remove_dir(whole, paths().into_iter().next()?))
        }
        (_, "rmtree") if args.is_empty() => {
            Some(remove(whole, vec![receiver_path(node, src)], true))
        }
        ("" | "Kernel" | "Process", "system" | "exec" | "spawn")
        | ("Open3", "capture2" | "capture2e" | "capture3" | "popen3" | "popen2" | "pipeline")
        | ("IO", "popen") => {
            // A leading environment hash is not part of the command.
            let words: Vec<&Value> = args
                .iter()
                .skip_while(|a| matches!(a, Value::Map(..)))
                .filter(|a| !matches!(a, Value::Map(..)))
                .collect();
            match words.as_slice() {
                [] => None,
                [one] => one.argv_or_shell(whole),
                many => run(whole, many.iter().map(|a| a.word()).collect()),
            }
        }
        ("File" | "IO", "write" | "binwrite") => {
            Some(write(whole, name, paths().into_iter().next()?))
        }
        ("File", "open" | "new") => {
            let (file, rest) = args.split_first()?;
            let mode = rest.first().map(Value::word)?;
            mode_writes(&mode).then(|| write_as(whole, name, file.word(), &mode))
        }
        ("FileUtils" | "File", "mv" | "move" | "rename") => {
            Some(rename(whole, args.first()?.word(), args.get(1)?.word()))
        }
        _ => None,
    }
}

fn nonempty(paths: Vec<Word>) -> Option<Vec<Word>> {
    (!paths.is_empty()).then_some(paths)
}

/// The path of `Pathname.new('x').rmtree`, or the receiver's source.
fn receiver_path(node: Node, src: &str) -> Word {
    let Some(receiver) = node.child_by_field_name("receiver") else {
        return unknown(text(node, src));
    };
    if receiver.kind() == "call"
        && let Some(args) = receiver.child_by_field_name("arguments")
        && let Some(first) = tree::args(args).first()
    {
        return value_of(*first, src).word();
    }
    unknown(text(receiver, src))
}

fn value_of(node: Node, src: &str) -> Value {
    let source = text(node, src);
    match node.kind() {
        // A bare string is a word of `%w[...]`.
        "string" | "bare_string" => string(node, src),
        "array" | "string_array" => tree::list(node, src, value_of),
        "binary" => tree::joined(node, src, "+", value_of),
        "hash" => Value::Map(Vec::new(), unknown(source)),
        "pair" => {
            let key = node
                .child_by_field_name("key")
                .map_or("", |k| text(k, src))
                .trim_matches(':')
                .to_string();
            let value = node
                .child_by_field_name("value")
                .map_or_else(|| Value::Other(unknown(source)), |v| value_of(v, src));
            Value::Map(vec![(key, value)], unknown(source))
        }
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        _ => Value::Other(unknown(source)),
    }
}

/// A string, backticks or `%x()`: literal unless it interpolates (`#{...}`).
fn string(node: Node, src: &str) -> Value {
    let source = text(node, src);
    if node.kind() == "bare_string" && tree::args(node).is_empty() {
        return Value::Str(Word::literal(source));
    }
    let single = source.starts_with('\'') || source.starts_with("%q");
    tree::string(node, src, |part| match part.kind() {
        "string_content" if single => Part::SingleQuoted,
        "string_content" => Part::Text,
        "escape_sequence" => Part::Escape,
        // `#{...}`.
        _ => Part::Interpolation,
    })
}

/// The database drivers the code requires and the connections it opens, to lower what its
/// driver calls run (see [`driver`]). ActiveRecord needs no `require` (`rails runner`).
struct Databases<'t> {
    /// Each driver required, with the methods that run the SQL they are given.
    drivers: Vec<(Connection, &'static [&'static str])>,
    /// The calls that open a connection (`PG.connect(dbname: 'app')`).
    opens: Vec<Node<'t>>,
}

/// The methods of ActiveRecord's connection that run the SQL they are given.
const ACTIVE_RECORD: &[&str] = &["execute", "exec_query", "exec_update", "exec_delete"];

impl<'t> Databases<'t> {
    fn read(nodes: &[Node<'t>], src: &str) -> Self {
        let mut drivers = Vec::new();
        for node in nodes.iter().filter(|n| n.kind() == "call") {
            let method = node.child_by_field_name("method").map(|m| text(m, src));
            if method != Some("require") {
                continue;
            }
            let library = node
                .child_by_field_name("arguments")
                .and_then(|a| tree::args(a).first().copied())
                .map(|a| value_of(a, src));
            if let Some(Value::Str(library)) = library {
                drivers.extend(ruby_driver(&library.text));
            }
        }
        let opens = nodes.iter().copied().filter(|n| opens(*n, src)).collect();
        Databases { drivers, opens }
    }

    /// The client command a driver call amounts to: `conn.exec(sql)`,
    /// `ActiveRecord::Base.connection.execute(sql)`.
    fn statement(&self, node: Node, src: &str) -> Option<Effect> {
        let method = text(node.child_by_field_name("method")?, src);
        let receiver = text(node.child_by_field_name("receiver")?, src);
        let active_record = Connection::new(Engine::Any, Commits::Always);
        let driver = if receiver.ends_with("connection") && ACTIVE_RECORD.contains(&method) {
            &active_record
        } else {
            &self
                .drivers
                .iter()
                .find(|(_, methods)| methods.contains(&method))?
                .0
        };
        let first = *tree::args(node.child_by_field_name("arguments")?).first()?;
        let Value::Str(sql) = value_of(first, src) else {
            return None;
        };
        let connection = match self.opens.first() {
            Some(open) => connected(*open, src, driver),
            None => driver.clone(),
        };
        driver::statement(text(node, src), &connection, &sql)
    }
}

/// The driver a library is, with the methods that run SQL; every one commits each statement.
fn ruby_driver(library: &str) -> Option<(Connection, &'static [&'static str])> {
    let (engine, methods): (Engine, &'static [&'static str]) = match library {
        "pg" => (
            Engine::Postgres,
            &[
                "exec",
                "exec_params",
                "async_exec",
                "sync_exec",
                "query",
                "async_query",
            ],
        ),
        "sqlite3" => (
            Engine::Sqlite,
            &["execute", "execute_batch", "execute_batch2", "query"],
        ),
        "mysql2" => (Engine::MySql, &["query"]),
        "sequel" => (
            Engine::Any,
            &["run", "execute", "execute_dui", "execute_ddl"],
        ),
        "active_record" | "activerecord" => (Engine::Any, ACTIVE_RECORD),
        _ => return None,
    };
    Some((Connection::new(engine, Commits::Always), methods))
}

/// Whether `call` opens a database connection: `PG.connect`, `PG::Connection.new`,
/// `SQLite3::Database.new`, `Mysql2::Client.new`, `Sequel.connect`/`.sqlite`/`.postgres`.
fn opens(call: Node, src: &str) -> bool {
    let (Some(receiver), Some(method)) = (
        call.child_by_field_name("receiver"),
        call.child_by_field_name("method"),
    ) else {
        return false;
    };
    let receiver = text(receiver, src).trim_start_matches("::");
    matches!(
        (receiver, text(method, src)),
        ("PG" | "PG::Connection", "connect" | "new" | "open")
            | ("SQLite3::Database", "new" | "open")
            | ("Mysql2::Client", "new")
            | ("Sequel", "connect" | "sqlite" | "postgres" | "mysql2")
    )
}

/// `driver`'s connection as `open` makes it: the URL, file or connection string it names,
/// or its `host:` and database keywords.
fn connected(open: Node, src: &str, driver: &Connection) -> Connection {
    let mut connection = driver.clone();
    let args: Vec<Value> = open
        .child_by_field_name("arguments")
        .map(|a| {
            tree::args(a)
                .into_iter()
                .map(|a| value_of(a, src))
                .collect()
        })
        .unwrap_or_default();
    let known = |value: &Value| match value {
        Value::Str(w) if w.literal => Some(w.clone()),
        _ => None,
    };
    let keyword = |names: &[&str]| {
        args.iter().find_map(|a| match a {
            Value::Map(pairs, _) => pairs
                .iter()
                .find(|(k, _)| names.contains(&k.as_str()))
                .and_then(|(_, v)| known(v)),
            _ => None,
        })
    };
    let main = args.first().and_then(known);
    if let Some((engine, target)) = main.as_ref().and_then(driver::from_url) {
        if connection.engine == Engine::Any {
            connection.engine = engine;
        }
        connection.target = target;
    } else if let Some(main) = main {
        connection.target = vec![main];
    }
    if let Some(host) = keyword(&["host"]) {
        connection.target.extend([Word::literal("-h"), host]);
    }
    if let Some(database) = keyword(&["dbname", "database"]) {
        if connection.engine == Engine::Postgres {
            connection.target.push(Word::literal("-d"));
        }
        connection.target.push(database);
    }
    connection
}

#[cfg(test)]
mod tests {
    fn lowered(code: &str) -> Vec<String> {
        crate::lang::shown(crate::lang::Lang::Ruby, code)
    }

    #[test]
    fn deletions() {
        assert_eq!(
            lowered("require \"fileutils\"; FileUtils.rm_r(\"tmp\")"),
            ["rm -r tmp"]
        );
        assert_eq!(lowered("FileUtils.rm_rf(%w[a b])"), ["rm -r a b"]);
        assert_eq!(lowered("File.delete('x.txt')"), ["rm x.txt"]);
    }

    #[test]
    fn processes() {
        assert_eq!(lowered("system 'git clean -fd'"), ["sh git clean -fd"]);
        assert_eq!(
            lowered("system('git', 'reset', '--hard')"),
            ["git reset --hard"]
        );
        assert_eq!(lowered("puts `rm -rf #{dir}`"), ["sh rm -rf #{dir}"]);
        assert_eq!(lowered("%x(git stash clear)"), ["sh git stash clear"]);
        assert!(lowered("puts 'rm -rf /'").is_empty());
    }

    #[test]
    fn writes() {
        assert_eq!(
            lowered("File.write('.codex/hooks.json', '{}')"),
            ["write > .codex/hooks.json"]
        );
        assert!(lowered("File.read('.codex/hooks.json')").is_empty());
    }

    #[test]
    fn database_drivers() {
        assert_eq!(
            lowered("require 'pg'; PG.connect(dbname: 'shop').exec('DROP TABLE t')"),
            ["psql -c DROP TABLE t -d shop"]
        );
        assert_eq!(
            lowered("require 'sqlite3'; SQLite3::Database.new('a.db').execute('DELETE FROM t')"),
            ["sqlite3 a.db DELETE FROM t"]
        );
        assert_eq!(
            lowered("ActiveRecord::Base.connection.execute('TRUNCATE t')"),
            ["usql -c TRUNCATE t"]
        );
        assert!(lowered("client.query('DROP TABLE t')").is_empty());
    }

    #[test]
    fn a_script_files_arguments() {
        let run = |code: &str, args: &[&str]| {
            crate::lang::shown_with(crate::lang::Lang::Ruby, code, args)
        };
        assert_eq!(
            run("require 'fileutils'\nFileUtils.rm_rf(ARGV[0])", &["tmp"]),
            ["rm -r tmp"]
        );
        assert_eq!(
            run("require 'fileutils'\nFileUtils.rm_rf(ARGV[1])", &["tmp"]),
            ["rm -r ARGV[1]"]
        );
        assert_eq!(
            run(
                "dir = ARGV[0]\nputs \"wiping #{dir}\"\nFileUtils.rm_rf(dir)",
                &["tmp"]
            ),
            ["rm -r tmp"]
        );
        for code in [
            "dir = ARGV[0]\ndir = 'src'\nFileUtils.rm_rf(dir)",
            "dir = ARGV[0]\ndir << '/x'\nFileUtils.rm_rf(dir)",
            "ARGV.shift\ndir = ARGV[0]\nFileUtils.rm_rf(dir)",
            "dir = ARGV[0]\n[1].each { |dir| FileUtils.rm_rf(dir) }",
        ] {
            assert_eq!(run(code, &["tmp", "src"]), ["rm -r dir"], "{code}");
        }
    }
}
