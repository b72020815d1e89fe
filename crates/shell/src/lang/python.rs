//! Python: `shutil.rmtree`, `os.remove`, `pathlib` deletions, `os.system`, `subprocess`,
//! `open(..., 'w')` and `Path.write_text`, the SQL database drivers run (sqlite3,
//! psycopg, PyMySQL, SQLAlchemy, Django's cursor), and HTTP requests that change something
//! (requests, httpx, urllib).

use tree_sitter::{Node, Tree};

use super::args::{self as script, ScriptArgs};
use super::driver::{self, Commits, Connection, Engine};
use super::tree::{self, Part, Value, named_nodes, text};
use super::{
    Effect, Lang, fresh, make_dir, mode_writes, remove, remove_dir, rename, request, run, unknown,
    write, write_as,
};
use crate::syntax::Word;

pub(super) fn effects(tree: &Tree, code: &str, given: ScriptArgs) -> Vec<Effect> {
    let nodes = named_nodes(tree.root_node());
    let aliases = aliases(&nodes, code);
    let databases = Databases::read(&nodes, code);
    let mut effects: Vec<Effect> = nodes
        .iter()
        .filter(|n| n.kind() == "call")
        .filter_map(|n| {
            call(*n, code, &aliases).or_else(|| databases.as_ref()?.statement(*n, code))
        })
        .collect();
    fresh::mark(&mut effects, &nodes, code, &fresh::PYTHON);
    let lists = script::lists(code, &script::PYTHON, given);
    let names = script::names(
        &nodes,
        code,
        &lists,
        &script::PYTHON,
        given,
        &["identifier"],
        |node| {
            let left = node.child_by_field_name("left")?;
            (node.kind() == "assignment" && left.kind() == "identifier")
                .then_some((left, node.child_by_field_name("right")?))
        },
        // A call's argument, a keyword argument's value, an item of a list or tuple, an
        // f-string's field: reads only.
        |name| {
            script::within(name, &["argument_list", "list", "tuple", "interpolation"])
                || name.parent().is_some_and(|p| {
                    p.kind() == "keyword_argument"
                        && p.child_by_field_name("value").map(|v| v.id()) == Some(name.id())
                })
        },
    );
    script::bind(&mut effects, &lists, &names, false, given);
    effects
}

/// `import shutil as sh` and `from shutil import rmtree as rt`: each alias with the name
/// it stands for, so that `sh.rmtree` and `rt` read as `shutil.rmtree` and `rmtree`.
fn aliases<'s>(nodes: &[Node], src: &'s str) -> Vec<(&'s str, &'s str)> {
    nodes
        .iter()
        .filter(|n| n.kind() == "aliased_import")
        .filter_map(|n| {
            let name = text(n.child_by_field_name("name")?, src);
            let alias = text(n.child_by_field_name("alias")?, src);
            Some((alias, name))
        })
        .collect()
}

struct Args {
    positional: Vec<Value>,
    keywords: Vec<(String, Value)>,
}

impl Args {
    fn get(&self, at: usize, keyword: &str) -> Option<&Value> {
        self.positional.get(at).or_else(|| self.keyword(keyword))
    }

    fn keyword(&self, name: &str) -> Option<&Value> {
        self.keywords
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v)
    }
}

fn arguments(node: Node, src: &str) -> Args {
    let mut args = Args {
        positional: Vec::new(),
        keywords: Vec::new(),
    };
    for arg in tree::args(node) {
        if arg.kind() == "keyword_argument" {
            if let (Some(name), Some(value)) = (
                arg.child_by_field_name("name"),
                arg.child_by_field_name("value"),
            ) {
                args.keywords
                    .push((text(name, src).to_string(), value_of(value, src)));
            }
        } else {
            args.positional.push(value_of(arg, src));
        }
    }
    args
}

fn call<'s>(node: Node, src: &'s str, aliases: &[(&'s str, &'s str)]) -> Option<Effect> {
    let function = node.child_by_field_name("function")?;
    let args = arguments(node.child_by_field_name("arguments")?, src);
    let whole = text(node, src);
    let (receiver, name) = match function.kind() {
        "identifier" => (None, text(function, src)),
        "attribute" => (
            function.child_by_field_name("object"),
            text(function.child_by_field_name("attribute")?, src),
        ),
        // `getattr(os, 'system')(...)`: the attribute named by a string.
        "call" => {
            let inner = function.child_by_field_name("arguments").map(tree::args)?;
            let getter = function.child_by_field_name("function")?;
            match inner.as_slice() {
                [object, attribute] if text(getter, src) == "getattr" => {
                    (Some(*object), string_text(*attribute, src)?)
                }
                _ => return None,
            }
        }
        _ => return None,
    };
    let unaliased = |n: &'s str| {
        aliases
            .iter()
            .find(|(alias, _)| *alias == n)
            .map_or(n, |(_, name)| *name)
    };
    let owner = unaliased(receiver.map_or("", |r| module_of(r, src, aliases)));
    let name = unaliased(name);
    let first = |keyword: &str| args.get(0, keyword).map(Value::word);
    match (owner, name) {
        ("shutil" | "", "rmtree") => Some(remove(whole, vec![first("path")?], true)),
        ("os", "remove" | "unlink") | ("", "unlink") => {
            Some(remove(whole, vec![first("path")?], false))
        }
        ("os", "rmdir" | "removedirs") => Some(remove_dir(whole, first("path")?)),
        ("os", "mkdir" | "makedirs") => Some(make_dir(whole, first("name").or(first("path"))?)),
        (_, "mkdir") if receiver.is_some_and(|r| is_path(r, src)) => {
            Some(make_dir(whole, path_of(receiver?, src)))
        }
        (_, "unlink") if args.positional.is_empty() => {
            Some(remove(whole, vec![path_of(receiver?, src)], false))
        }
        (_, "rmdir") if args.positional.is_empty() => {
            Some(remove_dir(whole, path_of(receiver?, src)))
        }
        ("os", "system" | "popen")
        | ("", "system")
        | ("subprocess", "getoutput" | "getstatusoutput") => Some(
            args.get(0, "command")
                .or_else(|| args.keyword("cmd"))?
                .shell(whole),
        ),
        ("subprocess", "run" | "call" | "check_call" | "check_output" | "Popen") => {
            let command = args.get(0, "args")?;
            if let Some(argv) = command.list() {
                return run(whole, argv);
            }
            if tree::truthy(args.keyword("shell")) {
                return Some(command.shell(whole));
            }
            run(whole, vec![command.word()])
        }
        // Code in a string runs as Python too.
        ("" | "builtins", "exec" | "eval") => {
            Some(args.get(0, "source")?.code(Lang::Python, whole))
        }
        (_, "rename" | "replace") if receiver.is_some_and(|r| is_path(r, src)) => {
            Some(rename(whole, path_of(receiver?, src), first("target")?))
        }
        ("os", "rename" | "replace") | ("shutil", "move") => {
            Some(rename(whole, first("src")?, args.get(1, "dst")?.word()))
        }
        ("" | "io" | "builtins" | "codecs", "open") => {
            let mode = args.get(1, "mode").map(Value::word)?;
            mode_writes(&mode)
                .then(|| first("file"))
                .flatten()
                .map(|target| write_as(whole, "open", target, &mode))
        }
        (_, "open") if receiver.is_some_and(|r| is_path(r, src)) => {
            let mode = args.get(0, "mode").map(Value::word)?;
            let target = path_of(receiver?, src);
            mode_writes(&mode).then(|| write_as(whole, "open", target, &mode))
        }
        (_, "write_text" | "write_bytes") => Some(write(whole, name, path_of(receiver?, src))),
        // HTTP clients: requests and httpx (module functions, sessions and clients), and
        // urllib's `Request(url, method=...)`.
        (_, "delete" | "post" | "put" | "patch") if http_client(owner, &args) => {
            request(whole, name, first("url")?, body(&args))
        }
        (_, "request") if http_client(owner, &args) || owner.ends_with("requests") => {
            let method = args.get(0, "method")?.word();
            method
                .literal
                .then(|| request(whole, &method.text, args.get(1, "url")?.word(), body(&args)))
                .flatten()
        }
        ("urllib.request" | "request" | "", "Request") => {
            let method = args.get(3, "method")?.word();
            method
                .literal
                .then(|| request(whole, &method.text, first("url")?, body(&args)))
                .flatten()
        }
        _ => None,
    }
}

/// Whether a call is made through an HTTP client: the requests or httpx module, or any
/// object whose first argument is a URL written out (`session.delete('http://…')`).
fn http_client(owner: &str, args: &Args) -> bool {
    matches!(owner, "requests" | "httpx")
        || args.get(0, "url").is_some_and(|url| {
            let url = url.word();
            url.text.starts_with("http://") || url.text.starts_with("https://")
        })
}

/// The body a requests or httpx call sends, as written: `json=`, `data=` or `content=`.
fn body(args: &Args) -> Option<Word> {
    ["json", "data", "content"]
        .iter()
        .find_map(|k| args.keyword(k))
        .map(Value::word)
}

/// The module a receiver names: `__import__('os')` and `importlib.import_module('os')`
/// give the module they import; anything else is its own source text.
fn module_of<'s>(receiver: Node, src: &'s str, aliases: &[(&'s str, &'s str)]) -> &'s str {
    let import = || {
        let function = receiver.child_by_field_name("function")?;
        let called = text(function, src);
        let called = aliases
            .iter()
            .find(|(alias, _)| *alias == called)
            .map_or(called, |(_, name)| *name);
        let last = called.rsplit('.').next().unwrap_or(called);
        if !matches!(last, "__import__" | "import_module") {
            return None;
        }
        let args = tree::args(receiver.child_by_field_name("arguments")?);
        string_text(*args.first()?, src)
    };
    if receiver.kind() == "call"
        && let Some(module) = import()
    {
        return module;
    }
    text(receiver, src)
}

/// The text of a plain string literal (`'os'`), with no escape or replacement field in it.
fn string_text<'s>(node: Node, src: &'s str) -> Option<&'s str> {
    if node.kind() != "string" {
        return None;
    }
    let parts = tree::args(node);
    match parts.as_slice() {
        [_, content, _] if content.kind() == "string_content" => {
            let body = text(*content, src);
            (!body.contains('\\')).then_some(body)
        }
        _ => None,
    }
}

/// Whether `node` builds a path object: `Path('x')`, `pathlib.Path(p)`, `PurePath(...)`.
fn is_path(node: Node, src: &str) -> bool {
    node.kind() == "call"
        && node
            .child_by_field_name("function")
            .is_some_and(|f| text(f, src).ends_with("Path"))
}

/// The path a method is called on: the literal given to `Path(...)`, else the receiver's
/// source as an unknown value.
fn path_of(receiver: Node, src: &str) -> Word {
    if is_path(receiver, src)
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
        "string" => string(node, src),
        "concatenated_string" => tree::args(node)
            .into_iter()
            .map(|part| value_of(part, src))
            .reduce(Value::concat)
            .unwrap_or_else(|| Value::Other(unknown(source))),
        "binary_operator" => tree::joined(node, src, "+", value_of),
        "parenthesized_expression" => tree::parenthesized(node, src, value_of),
        "list" | "tuple" => tree::list(node, src, value_of),
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        _ => Value::Other(unknown(source)),
    }
}

/// A string literal; an f-string with replacement fields is known only in part.
fn string(node: Node, src: &str) -> Value {
    let raw = node
        .child(0)
        .is_some_and(|start| text(start, src).contains(['r', 'R']));
    tree::string(node, src, |part| match part.kind() {
        "string_start" | "string_end" => Part::Skip,
        "string_content" if raw => Part::Text,
        "string_content" => Part::Escape,
        // A replacement field.
        _ => Part::Interpolation,
    })
}

/// The database drivers the code imports and the connections it opens, to lower what its
/// driver calls run (see [`driver`]).
struct Databases<'t> {
    /// Each driver imported, by its module, in import order.
    drivers: Vec<(&'t str, Connection)>,
    /// The calls that open a connection (`sqlite3.connect('app.db')`, `create_engine(url)`).
    connects: Vec<Node<'t>>,
}

impl<'t> Databases<'t> {
    /// `None` when the code imports no database driver: then no call runs SQL.
    fn read(nodes: &[Node<'t>], src: &'t str) -> Option<Self> {
        let mut drivers = Vec::new();
        for node in nodes {
            let modules: Vec<Node> = match node.kind() {
                "import_statement" => tree::args(*node)
                    .into_iter()
                    .map(|m| m.child_by_field_name("name").unwrap_or(m))
                    .collect(),
                "import_from_statement" => node
                    .child_by_field_name("module_name")
                    .into_iter()
                    .collect(),
                _ => continue,
            };
            for module in modules {
                let name = text(module, src);
                drivers.extend(python_driver(name).map(|c| (name, c)));
            }
        }
        if drivers.is_empty() {
            return None;
        }
        // Code that commits, or turns autocommit on, keeps what it runs.
        let commits = src.contains("commit")
            || src.contains("isolation_level")
            || nodes.iter().any(|n| n.kind() == "with_statement");
        if commits {
            for (_, connection) in &mut drivers {
                connection.commits = Commits::Always;
            }
        }
        let connects = nodes
            .iter()
            .copied()
            .filter(|n| n.kind() == "call" && opens(*n, src))
            .collect();
        Some(Databases { drivers, connects })
    }

    /// The client command a driver call amounts to: `<cursor>.execute(sql)` and its kin.
    fn statement(&self, node: Node, src: &str) -> Option<Effect> {
        let function = node.child_by_field_name("function")?;
        if function.kind() != "attribute" {
            return None;
        }
        let method = text(function.child_by_field_name("attribute")?, src);
        if !matches!(
            method,
            "execute" | "executemany" | "executescript" | "exec_driver_sql"
        ) {
            return None;
        }
        let first = *tree::args(node.child_by_field_name("arguments")?).first()?;
        let sql = sql_text(first, src)?;
        let receiver = function.child_by_field_name("object")?;
        let opened = opened_by(receiver, src).or_else(|| self.connects.first().copied());
        let (_, connection) = opened
            .and_then(|call| {
                let function = text(call.child_by_field_name("function")?, src);
                self.drivers.iter().find(|(module, _)| {
                    function.starts_with(module.split('.').next().unwrap_or(module))
                })
            })
            .or_else(|| self.drivers.first())?;
        let mut connection = match opened {
            Some(call) => connected(call, src, connection),
            None => connection.clone(),
        };
        // `executescript` commits what is pending and runs the script in autocommit mode.
        if method == "executescript" {
            connection.commits = Commits::Always;
        }
        driver::statement(text(node, src), &connection, &sql)
    }
}

/// The driver a module is, with how it commits in code that does not commit.
fn python_driver(module: &str) -> Option<Connection> {
    let top = module.split('.').next()?;
    let (engine, commits) = match top {
        "sqlite3" => (Engine::Sqlite, Commits::SchemaOnly),
        "psycopg2" | "psycopg" | "pg8000" => (Engine::Postgres, Commits::Never),
        "asyncpg" => (Engine::Postgres, Commits::Always),
        "pymysql" | "MySQLdb" => (Engine::MySql, Commits::Never),
        "mysql" if module.starts_with("mysql.connector") => (Engine::MySql, Commits::Never),
        // SQLAlchemy's commit rules changed between versions; Django runs in autocommit.
        "sqlalchemy" | "sqlmodel" => (Engine::Any, Commits::Always),
        "django" if module.starts_with("django.db") => (Engine::Any, Commits::Always),
        _ => return None,
    };
    Some(Connection::new(engine, commits))
}

/// Whether `call` opens a database connection.
fn opens(call: Node, src: &str) -> bool {
    let Some(function) = call.child_by_field_name("function") else {
        return false;
    };
    let name = match function.kind() {
        "attribute" => function
            .child_by_field_name("attribute")
            .map_or("", |a| text(a, src)),
        _ => text(function, src),
    };
    matches!(name, "connect" | "create_engine" | "create_async_engine")
}

/// The call in a method chain that opened its connection:
/// `sqlite3.connect('app.db').cursor().execute(...)`.
fn opened_by<'t>(mut node: Node<'t>, src: &str) -> Option<Node<'t>> {
    loop {
        node = match node.kind() {
            "call" if opens(node, src) => return Some(node),
            "call" => node.child_by_field_name("function")?,
            "attribute" => node.child_by_field_name("object")?,
            _ => return None,
        };
    }
}

/// `driver`'s connection as `call` opens it: the file, URL or connection string it names,
/// and its `host` and database keywords.
fn connected(call: Node, src: &str, driver: &Connection) -> Connection {
    let mut connection = driver.clone();
    let Some(list) = call.child_by_field_name("arguments") else {
        return connection;
    };
    let args = arguments(list, src);
    let known = |value: Option<&Value>| match value {
        Some(Value::Str(w)) if w.literal => Some(w.clone()),
        _ => None,
    };
    let main = known(args.positional.first())
        .or_else(|| known(args.keyword("dsn")))
        .or_else(|| known(args.keyword("url")))
        .or_else(|| known(args.keyword("conninfo")));
    if connection.engine == Engine::Any {
        if let Some((engine, target)) = main.as_ref().and_then(driver::from_url) {
            connection.engine = engine;
            connection.target = target;
        }
        return connection;
    }
    let database = ["database", "dbname", "db"]
        .iter()
        .find_map(|k| known(args.keyword(k)));
    connection.target = main.into_iter().collect();
    match connection.engine {
        Engine::Sqlite => connection.target.extend(database),
        Engine::Postgres | Engine::MySql => {
            if let Some(host) = known(args.keyword("host")) {
                connection.target.extend([Word::literal("-h"), host]);
            }
            if let Some(database) = database {
                if connection.engine == Engine::Postgres {
                    connection.target.push(Word::literal("-d"));
                }
                connection.target.push(database);
            }
        }
        Engine::Any => {}
    }
    connection
}

/// The SQL a driver call is given: a string, or SQLAlchemy's `text('...')` around one.
fn sql_text(node: Node, src: &str) -> Option<Word> {
    if node.kind() == "call"
        && let Some(function) = node.child_by_field_name("function")
        && (text(function, src) == "text" || text(function, src).ends_with(".text"))
    {
        let inner = *tree::args(node.child_by_field_name("arguments")?).first()?;
        return sql_text(inner, src);
    }
    match value_of(node, src) {
        Value::Str(word) => Some(word),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lowered(code: &str) -> Vec<String> {
        crate::lang::shown(Lang::Python, code)
    }

    #[test]
    fn deletions() {
        assert_eq!(
            lowered("import shutil; shutil.rmtree('out')"),
            ["rm -r out"]
        );
        assert_eq!(lowered("import os\nos.remove(\"a.txt\")"), ["rm a.txt"]);
        assert_eq!(
            lowered("from pathlib import Path; Path('x').unlink()"),
            ["rm x"]
        );
        assert_eq!(lowered("os.rmdir('d')"), ["rmdir d"]);
        assert_eq!(
            lowered("import shutil as sh; sh.rmtree('out')"),
            ["rm -r out"]
        );
        assert_eq!(
            lowered("from shutil import rmtree as wipe; wipe('out')"),
            ["rm -r out"]
        );
        assert_eq!(
            lowered("import subprocess as sp; sp.run(['git', 'clean', '-fd'])"),
            ["git clean -fd"]
        );
        assert_eq!(
            lowered("shutil.rmtree(f'{base}/out')"),
            ["rm -r {base}/out"]
        );
        assert_eq!(lowered("os.system(f'rm -rf {d}')"), ["sh rm -rf {d}"]);
        assert_eq!(lowered("os.system('rm -rf ' + d)"), ["sh rm -rf d"]);
        assert_eq!(
            lowered("exec(\"import shutil; shutil.rmtree('x')\")"),
            ["code import shutil; shutil.rmtree('x')"]
        );
    }

    #[test]
    fn processes() {
        assert_eq!(
            lowered("import os; os.system('git clean -fd')"),
            ["sh git clean -fd"]
        );
        assert_eq!(
            lowered("subprocess.run(['git', 'reset', '--hard'])"),
            ["git reset --hard"]
        );
        assert_eq!(
            lowered("subprocess.call('rm -rf x', shell=True)"),
            ["sh rm -rf x"]
        );
        // A variable is not a program named after it, nor shell text.
        assert_eq!(lowered("os.system(cmd)"), ["cmd"]);
        assert_eq!(lowered("exec(src)"), ["src"]);
    }

    #[test]
    fn modules_and_attributes_reached_indirectly() {
        assert_eq!(
            lowered("__import__('os').system('git clean -fdx')"),
            ["sh git clean -fdx"]
        );
        assert_eq!(
            lowered("import os; getattr(os, 'system')('rm -rf out')"),
            ["sh rm -rf out"]
        );
        assert_eq!(
            lowered("getattr(__import__('shutil'), 'rmtree')('out')"),
            ["rm -r out"]
        );
        assert_eq!(
            lowered("import importlib; importlib.import_module('shutil').rmtree('out')"),
            ["rm -r out"]
        );
        assert_eq!(
            lowered("from importlib import import_module as im; im('os').remove('a.txt')"),
            ["rm a.txt"]
        );
        assert_eq!(
            lowered("eval(\"__import__('os').system('git reset --hard')\")"),
            ["code __import__('os').system('git reset --hard')"]
        );
        assert!(lowered("print(__import__('os').getcwd())").is_empty());
        assert!(lowered("getattr(os, 'path').join('a', 'b')").is_empty());
        assert!(lowered("getattr(obj, name)('x')").is_empty());
    }

    #[test]
    fn writes_and_reads() {
        assert_eq!(
            lowered("open('.claude/settings.json','w').write('{}')"),
            ["open > .claude/settings.json"]
        );
        assert!(lowered("print(open('.claude/settings.json').read())").is_empty());
        assert_eq!(
            lowered("open('log.txt', 'a').write('x')"),
            ["open >> log.txt"]
        );
        assert_eq!(lowered("open('db.json', 'r+')"), ["open >> db.json"]);
        assert_eq!(lowered("open('out.txt', mode)"), ["open > out.txt"]);
        assert_eq!(lowered("import os; os.makedirs('d/e')"), ["mkdir -p d/e"]);
        assert_eq!(
            lowered("from pathlib import Path; Path('a').replace('b')"),
            ["mv a b"]
        );
        assert!(lowered("print('rm -rf /')").is_empty());
        assert_eq!(
            lowered("Path('.agent-guard.toml').write_text('')"),
            ["write_text > .agent-guard.toml"]
        );
    }

    #[test]
    fn database_drivers() {
        assert_eq!(
            lowered("import sqlite3; sqlite3.connect('app.db').execute('DROP TABLE t')"),
            ["sqlite3 app.db DROP TABLE t"]
        );
        // sqlite3 opens a transaction before a row change; never committed, it is rolled back.
        assert_eq!(
            lowered("import sqlite3; sqlite3.connect('app.db').execute('DELETE FROM t')"),
            ["sqlite3 app.db BEGIN;\nDELETE FROM t;\nROLLBACK;"]
        );
        assert_eq!(
            lowered(
                "import sqlite3\nc = sqlite3.connect('a.db')\nc.execute('DELETE FROM t')\nc.commit()"
            ),
            ["sqlite3 a.db DELETE FROM t"]
        );
        assert_eq!(
            lowered(
                "import psycopg2; c = psycopg2.connect(host='db1', dbname='shop'); c.cursor().execute('TRUNCATE t')"
            ),
            ["psql -c BEGIN;\nTRUNCATE t;\nROLLBACK; -h db1 -d shop"]
        );
        assert_eq!(
            lowered(
                "from sqlalchemy import create_engine, text\nwith create_engine('postgresql://h/db').begin() as c:\n    c.execute(text('DROP TABLE t'))"
            ),
            ["psql -c DROP TABLE t postgresql://h/db"]
        );
        assert_eq!(
            lowered(
                "from django.db import connection\nconnection.cursor().execute('DROP TABLE t')"
            ),
            ["usql -c DROP TABLE t"]
        );
        // No driver imported, or SQL known only in part: nothing to judge.
        assert!(lowered("cursor.execute('DROP TABLE t')").is_empty());
        assert!(
            lowered("import sqlite3; sqlite3.connect('a.db').execute(f'DROP TABLE {t}')")
                .is_empty()
        );
        assert!(
            lowered("import sqlite3; sqlite3.connect(':memory:').execute('DROP TABLE t')")
                .is_empty()
        );
    }

    #[test]
    fn http_requests_that_change_something() {
        assert_eq!(
            lowered("import requests; requests.delete('http://h:9200/logs')"),
            ["curl -X DELETE http://h:9200/logs"]
        );
        assert_eq!(
            lowered("import httpx as h; h.post('http://h:8123/', content='DROP TABLE t')"),
            ["curl -X POST http://h:8123/ --data-raw DROP TABLE t"]
        );
        assert_eq!(
            lowered("requests.request('DELETE', 'http://h:5984/db')"),
            ["curl -X DELETE http://h:5984/db"]
        );
        assert_eq!(
            lowered("s.delete('https://h/x')"),
            ["curl -X DELETE https://h/x"]
        );
        assert_eq!(
            lowered("urllib.request.Request('http://h/x', method='DELETE')"),
            ["curl -X DELETE http://h/x"]
        );
        // Reads, and a `delete` that is no HTTP client's, lower to nothing.
        assert!(lowered("import requests; requests.get('http://h:9200/logs')").is_empty());
        assert!(lowered("requests.request('GET', 'http://h/x')").is_empty());
        assert!(lowered("cache.delete('session:1')").is_empty());
        assert!(lowered("requests.request(method, 'http://h/x')").is_empty());
    }

    #[test]
    fn a_script_files_arguments() {
        let run = |code: &str, args: &[&str]| crate::lang::shown_with(Lang::Python, code, args);
        let rmtree = "import shutil, sys\nshutil.rmtree(sys.argv[1])";
        assert_eq!(run(rmtree, &["build"]), ["rm -r build"]);
        // Past the arguments given, or the script's own path: unknown, as before.
        assert_eq!(run(rmtree, &[]), ["rm -r sys.argv[1]"]);
        assert_eq!(
            run("import os, sys\nos.remove(sys.argv[2])", &["a"]),
            ["rm sys.argv[2]"]
        );
        assert_eq!(
            run("import os, sys\nos.remove(sys.argv[0])", &["a"]),
            ["rm sys.argv[0]"]
        );
        assert_eq!(
            run(
                "from sys import argv\nimport shutil\nshutil.rmtree(argv[1])",
                &["out"]
            ),
            ["rm -r out"]
        );
        let named = "import sys, subprocess\nif len(sys.argv) < 2:\n    sys.exit(1)\ntarget = sys.argv[1]\nprint(f'checking out {target}')\nsubprocess.run(['git', 'checkout', target])";
        assert_eq!(run(named, &["feature"]), ["git checkout feature"]);
        assert_eq!(run(named, &["$REF"]), ["git checkout $REF"]);
        // Bound twice, or changed, or the list changed: unknown.
        for code in [
            "import sys, shutil\nt = sys.argv[1]\nt = 'src'\nshutil.rmtree(t)",
            "import sys, shutil\nt = sys.argv[1]\nt += '/x'\nshutil.rmtree(t)",
            "import sys, shutil\nt = sys.argv[1]\nfor t in ['src']:\n    shutil.rmtree(t)",
            "import sys, shutil\nsys.argv.pop(1)\nt = sys.argv[1]\nshutil.rmtree(t)",
            "import sys, shutil\nt = sys.argv[1]\nexec('t = 1')\nshutil.rmtree(t)",
        ] {
            let lowered = run(code, &["out", "src"]);
            assert_eq!(
                lowered.last().map(String::as_str),
                Some("rm -r t"),
                "{code}"
            );
        }
    }
}
