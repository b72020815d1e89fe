//! PHP: `unlink`, `rmdir`, `system`/`exec`/`shell_exec`/`passthru`/`popen`/`proc_open`,
//! backticks, `file_put_contents` and `fopen` for writing; the SQL database drivers run
//! (PDO, mysqli, `pg_query`, SQLite3).

use tree_sitter::{Node, Tree};

use super::args::{self as script, ScriptArgs};
use super::driver::{self, Commits, Connection, Engine};
use super::tree::{self, Part, Value, named_nodes, text};
use super::{Effect, append, mode_writes, remove, remove_dir, rename, unknown, write, write_as};
use crate::syntax::Word;

pub(super) fn effects(tree: &Tree, code: &str, given: ScriptArgs) -> Vec<Effect> {
    let nodes = named_nodes(tree.root_node());
    let databases = Databases::read(&nodes, code);
    let mut effects: Vec<Effect> = nodes
        .iter()
        .filter_map(|n| match n.kind() {
            "function_call_expression" => {
                call(*n, code).or_else(|| databases.as_ref()?.function(*n, code))
            }
            "member_call_expression" => databases.as_ref()?.method(*n, code),
            "shell_command_expression" => Some(string(*n, code).shell(text(*n, code))),
            _ => None,
        })
        .collect();
    let lists = script::lists(code, &script::PHP, given);
    let names = script::names(
        &nodes,
        code,
        &lists,
        &script::PHP,
        given,
        &["variable_name"],
        |node| {
            let left = node.child_by_field_name("left")?;
            (node.kind() == "assignment_expression" && left.kind() == "variable_name")
                .then_some((left, node.child_by_field_name("right")?))
        },
        // A call's argument, an array's item or a name in a double-quoted string: reads only.
        |name| {
            script::within(
                name,
                &["argument", "array_element_initializer", "encapsed_string"],
            )
        },
    );
    script::bind(&mut effects, &lists, &names, false, given);
    effects
}

fn call(node: Node, src: &str) -> Option<Effect> {
    let name = text(node.child_by_field_name("function")?, src).trim_start_matches('\\');
    let args: Vec<Value> = tree::args(node.child_by_field_name("arguments")?)
        .into_iter()
        .map(|arg| {
            // `argument` wraps the expression, after an optional `name:`.
            let value = tree::args(arg).into_iter().next_back().unwrap_or(arg);
            value_of(value, src)
        })
        .collect();
    let whole = text(node, src);
    let arg = |i: usize| args.get(i).map(Value::word);
    match name.to_ascii_lowercase().as_str() {
        "unlink" => Some(remove(whole, vec![arg(0)?], false)),
        "rmdir" => Some(remove_dir(whole, arg(0)?)),
        "system" | "exec" | "shell_exec" | "passthru" | "popen" => Some(args.first()?.shell(whole)),
        "proc_open" => args.first()?.argv_or_shell(whole),
        "pcntl_exec" => tree::program_with_list(whole, arg(0)?, args.get(1)),
        "file_put_contents" if arg(2).is_some_and(|f| f.text.contains("FILE_APPEND")) => {
            Some(append(whole, name, arg(0)?))
        }
        "file_put_contents" => Some(write(whole, name, arg(0)?)),
        "fopen" => {
            let target = arg(0)?;
            let mode = arg(1)?;
            mode_writes(&mode).then(|| write_as(whole, name, target, &mode))
        }
        "rename" => Some(rename(whole, arg(0)?, arg(1)?)),
        _ => None,
    }
}

fn value_of(node: Node, src: &str) -> Value {
    let source = text(node, src);
    match node.kind() {
        "string" | "encapsed_string" | "nowdoc" | "heredoc" => string(node, src),
        "binary_expression" => tree::joined(node, src, ".", value_of),
        "array_creation_expression" => Value::List(
            tree::args(node)
                .into_iter()
                .map(|element| match tree::args(element).as_slice() {
                    [value] => value_of(*value, src),
                    _ => Value::Other(unknown(text(element, src))),
                })
                .collect(),
            unknown(source),
        ),
        "boolean" => Value::Bool(source.eq_ignore_ascii_case("true")),
        _ => Value::Other(unknown(source)),
    }
}

/// A string or backticks: literal unless a variable or expression is interpolated.
fn string(node: Node, src: &str) -> Value {
    let single = text(node, src).starts_with('\'');
    tree::string(node, src, |part| match part.kind() {
        "string_content" | "string_value" if single => Part::SingleQuoted,
        "string_content" | "string_value" => Part::Text,
        "escape_sequence" => Part::Escape,
        "heredoc_start" | "heredoc_end" | "heredoc_body" | "nowdoc_body" => Part::Unreadable,
        // An interpolated variable or expression.
        _ => Part::Interpolation,
    })
}

/// The database connections the code opens (`new PDO($dsn)`, `new SQLite3($file)`, `new
/// mysqli(...)`, `mysqli_connect`, `pg_connect`), to lower what its driver calls run (see
/// [`driver`]). Every one of them commits each statement.
struct Databases {
    /// Each connection opened, with the methods that run the SQL they are given.
    connections: Vec<(Connection, &'static [&'static str])>,
}

impl Databases {
    /// `None` when the code opens no database connection: then no call runs SQL.
    fn read(nodes: &[Node], src: &str) -> Option<Self> {
        let connections: Vec<_> = nodes.iter().filter_map(|n| opened(*n, src)).collect();
        (!connections.is_empty()).then_some(Databases { connections })
    }

    /// `$pdo->exec(sql)`, `$db->query(sql)`, `$mysqli->multi_query(sql)`.
    fn method(&self, node: Node, src: &str) -> Option<Effect> {
        let name = text(node.child_by_field_name("name")?, src);
        let (connection, _) = self
            .connections
            .iter()
            .find(|(_, methods)| methods.contains(&name))?;
        let sql = arguments(node, src).into_iter().next()?;
        self.run(node, src, connection, sql)
    }

    /// `mysqli_query($link, sql)`, `pg_query([$conn,] sql)`.
    fn function(&self, node: Node, src: &str) -> Option<Effect> {
        let name = text(node.child_by_field_name("function")?, src)
            .trim_start_matches('\\')
            .to_ascii_lowercase();
        let mut args = arguments(node, src);
        let at = match name.as_str() {
            "mysqli_query"
            | "mysqli_multi_query"
            | "mysqli_real_query"
            | "mysqli_execute_query"
            | "pg_send_query" => 1,
            "pg_query" | "pg_exec" => args.len().checked_sub(1)?,
            "pg_query_params" => usize::from(args.len() > 2),
            _ => return None,
        };
        let engine = if name.starts_with("pg_") {
            Engine::Postgres
        } else {
            Engine::MySql
        };
        let connection = self
            .connections
            .iter()
            .map(|(c, _)| c)
            .find(|c| c.engine == engine)
            .cloned()
            .unwrap_or_else(|| Connection::new(engine, Commits::Always));
        if at >= args.len() {
            return None;
        }
        let sql = args.swap_remove(at);
        self.run(node, src, &connection, sql)
    }

    fn run(&self, node: Node, src: &str, connection: &Connection, sql: Value) -> Option<Effect> {
        let Value::Str(sql) = sql else {
            return None;
        };
        driver::statement(text(node, src), connection, &sql)
    }
}

/// The values of a call's arguments (`new X(...)` has them as a child, not a field).
fn arguments(node: Node, src: &str) -> Vec<Value> {
    let list = node.child_by_field_name("arguments").or_else(|| {
        tree::args(node)
            .into_iter()
            .find(|c| c.kind() == "arguments")
    });
    let Some(list) = list else {
        return Vec::new();
    };
    tree::args(list)
        .into_iter()
        .map(|arg| {
            let value = tree::args(arg).into_iter().next_back().unwrap_or(arg);
            value_of(value, src)
        })
        .collect()
}

/// The connection `node` opens, if it opens one, with the methods that run SQL on it.
fn opened(node: Node, src: &str) -> Option<(Connection, &'static [&'static str])> {
    let class = match node.kind() {
        "object_creation_expression" => tree::args(node)
            .into_iter()
            .find(|c| matches!(c.kind(), "name" | "qualified_name"))
            .map(|c| text(c, src).trim_start_matches('\\').to_ascii_lowercase())?,
        "function_call_expression" => text(node.child_by_field_name("function")?, src)
            .trim_start_matches('\\')
            .to_ascii_lowercase(),
        _ => return None,
    };
    let known = |value: Option<Value>| match value {
        Some(Value::Str(w)) if w.literal => Some(w),
        _ => None,
    };
    let first = known(arguments(node, src).into_iter().next());
    let (engine, target, methods): (Engine, Vec<Word>, &'static [&'static str]) =
        match class.as_str() {
            "pdo" => {
                let (engine, target) = first
                    .as_ref()
                    .and_then(driver::from_url)
                    .unwrap_or((Engine::Any, Vec::new()));
                (engine, target, &["exec", "query", "prepare"])
            }
            "sqlite3" => (
                Engine::Sqlite,
                first.into_iter().collect(),
                &["exec", "query", "querySingle", "prepare"],
            ),
            "mysqli" | "mysqli_connect" => (
                Engine::MySql,
                first
                    .map(|host| vec![Word::literal("-h"), host])
                    .unwrap_or_default(),
                &[
                    "query",
                    "multi_query",
                    "real_query",
                    "execute_query",
                    "prepare",
                ],
            ),
            "pg_connect" | "pg_pconnect" => (Engine::Postgres, first.into_iter().collect(), &[]),
            _ => return None,
        };
    let mut connection = Connection::new(engine, Commits::Always);
    connection.target = target;
    Some((connection, methods))
}

#[cfg(test)]
mod tests {
    fn lowered(code: &str) -> Vec<String> {
        crate::lang::shown(crate::lang::Lang::Php, code)
    }

    #[test]
    fn calls() {
        assert_eq!(lowered("unlink('a.txt');"), ["rm a.txt"]);
        assert_eq!(
            lowered("system(\"git reset --hard\");"),
            ["sh git reset --hard"]
        );
        assert_eq!(lowered("echo `rm -rf $d`;"), ["sh rm -rf $d"]);
        assert_eq!(
            lowered("file_put_contents('.gemini/settings.json', '{}');"),
            ["file_put_contents > .gemini/settings.json"]
        );
        assert!(lowered("echo 'rm -rf /';").is_empty());
        assert!(lowered("echo file_get_contents('.gemini/settings.json');").is_empty());
    }

    #[test]
    fn tagged_files() {
        assert_eq!(
            crate::lang::shown(
                crate::lang::Lang::PhpTagged,
                "<?php exec('git clean -fdx'); ?>"
            )
            .len(),
            1
        );
    }

    #[test]
    fn database_drivers() {
        assert_eq!(
            lowered("$pdo = new PDO('sqlite:app.db'); $pdo->exec('DROP TABLE t');"),
            ["sqlite3 app.db DROP TABLE t"]
        );
        assert_eq!(
            lowered("$c = pg_connect('dbname=shop'); pg_query($c, 'DELETE FROM t');"),
            ["psql -c DELETE FROM t dbname=shop"]
        );
        assert_eq!(
            lowered("$m = new mysqli('h', 'u', 'p', 'shop'); $m->query('TRUNCATE t');"),
            ["mysql -e TRUNCATE t -h h"]
        );
        assert!(lowered("$x->exec('DROP TABLE t');").is_empty());
    }

    #[test]
    fn a_script_files_arguments() {
        let run =
            |code: &str, args: &[&str]| crate::lang::shown_with(crate::lang::Lang::Php, code, args);
        assert_eq!(run("unlink($argv[1]);", &["a.log"]), ["rm a.log"]);
        assert_eq!(run("unlink($argv[0]);", &["a.log"]), ["rm $argv[0]"]);
        assert_eq!(
            run(
                "if (count($argv) < 2) exit(1);\n$ref = $argv[1];\necho \"at $ref\";\nproc_open(['git', 'checkout', $ref], [], $p);",
                &["feature"]
            ),
            ["git checkout feature"]
        );
        for code in [
            "$f = $argv[1];\n$f = 'src';\nunlink($f);",
            "$f = $argv[1];\n$f .= '.bak';\nunlink($f);",
            "array_shift($argv);\n$f = $argv[1];\nunlink($f);",
        ] {
            assert_eq!(run(code, &["a.log", "b"]), ["rm $f"], "{code}");
        }
    }
}
