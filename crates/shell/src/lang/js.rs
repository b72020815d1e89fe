//! JavaScript (node, deno, bun): `fs.rmSync`, `fs.rm`, `fs.promises.rm`, `rmdirSync` with
//! `recursive`, `unlinkSync`, `Deno.remove`, `child_process`, `Bun.spawn`, `Deno.Command`
//! and file writes; the SQL database drivers run (pg, mysql2, better-sqlite3, node:sqlite,
//! libsql, knex, Prisma, Sequelize, TypeORM); HTTP requests that change something (`fetch`,
//! axios).

use tree_sitter::{Node, Tree};

use super::args::{self as script, ScriptArgs};
use super::driver::{self, Commits, Connection, Engine};
use super::tree::{self, Part, Value, named_nodes, text};
use super::{
    Effect, Lang, append, fresh, make_dir, remove, remove_dir, rename, request, run, unknown, write,
};
use crate::syntax::Word;

pub(super) fn effects(tree: &Tree, code: &str, given: ScriptArgs) -> Vec<Effect> {
    let nodes = named_nodes(tree.root_node());
    let aliases = aliases(&nodes, code);
    let databases = Databases::read(&nodes, code);
    let constants = constants(&nodes, code);
    let mut effects: Vec<Effect> = nodes
        .iter()
        .filter(|n| matches!(n.kind(), "call_expression" | "new_expression"))
        .filter_map(|n| {
            call(*n, code, &aliases, &constants).or_else(|| databases.as_ref()?.statement(*n, code))
        })
        .collect();
    fresh::mark(&mut effects, &nodes, code, &fresh::JS);
    let lists = script::lists(code, &script::JS, given);
    let names = script::names(
        &nodes,
        code,
        &lists,
        &script::JS,
        given,
        &["identifier", "shorthand_property_identifier_pattern"],
        |node| {
            let name = node.child_by_field_name("name")?;
            (node.kind() == "variable_declarator" && name.kind() == "identifier")
                .then_some((name, node.child_by_field_name("value")?))
        },
        // A call's argument, an array's item or a template's field: reads only.
        |name| script::within(name, &["arguments", "array", "template_substitution"]),
    );
    script::bind(&mut effects, &lists, &names, false, given);
    effects
}

/// Local names for what modules export, each with the name it stands for: `const {spawnSync:
/// run} = require('child_process')` and `import { execSync as sh } from 'child_process'` make
/// `run` and `sh` read as `spawnSync` and `execSync`; `const cp = require('node:child_process')`,
/// `import * as cp from ...` and default imports make `cp` read as the module's name.
fn aliases<'s>(nodes: &[Node], src: &'s str) -> Vec<(&'s str, &'s str)> {
    let mut out = Vec::new();
    for node in nodes {
        match node.kind() {
            "variable_declarator" => {
                let (Some(name), Some(value)) = (
                    node.child_by_field_name("name"),
                    node.child_by_field_name("value"),
                ) else {
                    continue;
                };
                if name.kind() == "object_pattern" {
                    for pair in tree::args(name) {
                        if let (Some(key), Some(local)) = (
                            pair.child_by_field_name("key"),
                            pair.child_by_field_name("value"),
                        ) && local.kind() == "identifier"
                        {
                            out.push((text(local, src), text(key, src)));
                        }
                    }
                    continue;
                }
                if name.kind() != "identifier" {
                    continue;
                }
                let stands_for = match value.kind() {
                    "call_expression" => required(value, src),
                    // `require('child_process').execSync`
                    "member_expression" => value
                        .child_by_field_name("object")
                        .and_then(|o| required(o, src))
                        .and(value.child_by_field_name("property"))
                        .map(|p| text(p, src)),
                    _ => None,
                };
                out.extend(stands_for.map(|s| (text(name, src), s)));
            }
            "import_statement" => {
                let Some(module) = node
                    .child_by_field_name("source")
                    .and_then(|s| module_name(s, src))
                else {
                    continue;
                };
                let clauses = tree::args(*node);
                let Some(clause) = clauses.iter().find(|c| c.kind() == "import_clause") else {
                    continue;
                };
                for part in tree::args(*clause) {
                    match part.kind() {
                        "identifier" => out.push((text(part, src), module)),
                        "namespace_import" => {
                            out.extend(tree::args(part).first().map(|id| (text(*id, src), module)));
                        }
                        "named_imports" => {
                            for spec in tree::args(part) {
                                if let (Some(name), Some(alias)) = (
                                    spec.child_by_field_name("name"),
                                    spec.child_by_field_name("alias"),
                                ) {
                                    out.push((text(alias, src), text(name, src)));
                                }
                            }
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// The module `require('x')` loads.
fn required<'s>(call: Node, src: &'s str) -> Option<&'s str> {
    let function = call.child_by_field_name("function")?;
    if text(function, src) != "require" {
        return None;
    }
    let args = tree::args(call.child_by_field_name("arguments")?);
    module_name(*args.first()?, src)
}

/// A module's name from its string literal, without the `node:` scheme.
fn module_name<'s>(string: Node, src: &'s str) -> Option<&'s str> {
    if string.kind() != "string" {
        return None;
    }
    let parts = tree::args(string);
    let [fragment] = parts.as_slice() else {
        return None;
    };
    let name = text(*fragment, src);
    Some(name.strip_prefix("node:").unwrap_or(name))
}

/// `const d = 'out'` (or `let`, or a template with no `${}`): each name whose value is that
/// string wherever the code passes it to a call. Proof, not likeness: the name is declared
/// once, in a block or at the top, and every other mention of it is a plain call argument
/// or operand (`d + '/x'`) inside that block, so nothing assigns, shadows or destructures
/// it; code that could bind names unseen (`eval`, `with`, `Function`) proves nothing.
fn constants<'s>(nodes: &[Node], src: &'s str) -> Vec<(&'s str, Word)> {
    if ["eval", "with(", "with (", "Function("]
        .iter()
        .any(|t| src.contains(t))
    {
        return Vec::new();
    }
    nodes
        .iter()
        .filter(|n| n.kind() == "variable_declarator")
        .filter_map(|declarator| {
            let name = declarator.child_by_field_name("name")?;
            let declaration = declarator.parent()?;
            let scope = declaration.parent()?;
            let lexical = declaration.kind() == "lexical_declaration"
                && matches!(scope.kind(), "program" | "statement_block");
            let Value::Str(word) = value_of(declarator.child_by_field_name("value")?, src) else {
                return None;
            };
            let named = text(name, src);
            let only_passed = nodes
                .iter()
                .filter(|n| n.kind().contains("identifier") && n.kind() != "property_identifier")
                .filter(|n| text(**n, src) == named)
                .all(|n| {
                    n.id() == name.id()
                        || (n
                            .parent()
                            .is_some_and(|p| matches!(p.kind(), "arguments" | "binary_expression"))
                            && scope.start_byte() <= n.start_byte()
                            && n.end_byte() <= scope.end_byte())
                });
            (lexical && name.kind() == "identifier" && word.literal && only_passed)
                .then_some((named, word))
        })
        .collect()
}

fn call<'s>(
    node: Node,
    src: &'s str,
    aliases: &[(&'s str, &'s str)],
    constants: &[(&str, Word)],
) -> Option<Effect> {
    let function = node
        .child_by_field_name("function")
        .or_else(|| node.child_by_field_name("constructor"))?;
    let args: Vec<Value> = tree::args(node.child_by_field_name("arguments")?)
        .into_iter()
        .map(|a| {
            let constant = (a.kind() == "identifier")
                .then(|| constants.iter().find(|(n, _)| *n == text(a, src)))
                .flatten();
            match constant {
                Some((_, word)) => Value::Str(word.clone()),
                None => value_of(a, src),
            }
        })
        .collect();
    let whole = text(node, src);
    let (owner, name) = match function.kind() {
        "identifier" => ("", text(function, src)),
        "member_expression" => (
            text(function.child_by_field_name("object")?, src),
            text(function.child_by_field_name("property")?, src),
        ),
        _ => return None,
    };
    let local = name;
    let unaliased = |n: &'s str| {
        aliases
            .iter()
            .find(|(alias, _)| *alias == n)
            .map_or(n, |(_, name)| *name)
    };
    let (owner, name) = (unaliased(owner), unaliased(name));
    let imported = owner.is_empty() && aliases.iter().any(|(alias, _)| *alias == local);
    let arg = |i: usize| args.get(i).map(Value::word);
    let option = |i: usize, key: &str| args.get(i).is_some_and(|o| o.sets(key));
    let is_new = node.kind() == "new_expression";
    match (owner, name) {
        (_, "rmSync" | "rm") if !is_new => {
            Some(remove(whole, vec![arg(0)?], option(1, "recursive")))
        }
        (_, "rmdirSync" | "rmdir") if !is_new => Some(if option(1, "recursive") {
            remove(whole, vec![arg(0)?], true)
        } else {
            remove_dir(whole, arg(0)?)
        }),
        (_, "unlinkSync" | "unlink") if !is_new => Some(remove(whole, vec![arg(0)?], false)),
        (o, "mkdirSync" | "mkdir") if !is_new && o.contains("fs") => Some(make_dir(whole, arg(0)?)),
        ("Deno", "remove" | "removeSync") => {
            Some(remove(whole, vec![arg(0)?], option(1, "recursive")))
        }
        (o, "remove" | "removeSync") if o.contains("fs") => {
            Some(remove(whole, vec![arg(0)?], true))
        }
        // fs-extra's `emptyDir`: everything inside the folder goes, the folder stays.
        (o, "emptyDir" | "emptyDirSync") if o.contains("fs") => {
            let dir = arg(0)?;
            let inside = Word {
                text: format!("{}/*", dir.text.trim_end_matches('/')),
                literal: false,
                temp: None,
            };
            Some(remove(whole, vec![inside], true))
        }
        // rimraf and del (the API of `del-cli`) delete their paths or globs, folders and all.
        (_, "rimraf" | "rimrafSync" | "deleteAsync" | "deleteSync")
        | ("rimraf" | "del", "sync")
        | ("", "del")
            if !is_new && (name != "del" || imported) =>
        {
            let targets = args.first()?;
            Some(remove(
                whole,
                targets.list().unwrap_or_else(|| vec![targets.word()]),
                true,
            ))
        }
        (_, "execSync") => Some(args.first()?.shell(whole)),
        // Code in a string runs as JavaScript too.
        ("", "eval") | ("", "Function") => Some(args.last()?.code(Lang::JavaScript, whole)),
        (o, "exec") if o.is_empty() || o.contains("child") || o == "cp" => {
            Some(args.first()?.shell(whole))
        }
        (_, "execFile" | "execFileSync") => tree::program_with_list(whole, arg(0)?, args.get(1)),
        ("Bun", "spawn" | "spawnSync") => run(whole, args.first()?.list()?),
        (_, "spawn" | "spawnSync") => {
            let mut argv = vec![arg(0)?];
            let rest = args.get(1).and_then(Value::list);
            let options = if rest.is_some() { 2 } else { 1 };
            argv.extend(rest.unwrap_or_default());
            if option(options, "shell") {
                let script = argv.iter().map(|w| w.text.as_str()).collect::<Vec<_>>();
                return Some(Effect::Shell {
                    script: Word {
                        text: script.join(" "),
                        literal: argv.iter().all(|w| w.literal),
                        temp: None,
                    },
                });
            }
            run(whole, argv)
        }
        ("Deno", "Command") if is_new => {
            let mut argv = vec![arg(0)?];
            if let Some(Value::Map(pairs, _)) = args.get(1)
                && let Some((_, list)) = pairs.iter().find(|(k, _)| k == "args")
            {
                argv.extend(list.list().unwrap_or_else(|| vec![list.word()]));
            }
            run(whole, argv)
        }
        (
            _,
            "writeFileSync" | "writeFile" | "createWriteStream" | "writeTextFile"
            | "writeTextFileSync",
        )
        | ("Bun", "write") => Some(write(whole, name, arg(0)?)),
        (_, "appendFileSync" | "appendFile") => Some(append(whole, name, arg(0)?)),
        (_, "renameSync" | "rename") if !is_new => Some(rename(whole, arg(0)?, arg(1)?)),
        // HTTP: `fetch(url, {method, body})`, axios's methods and its config object, and a
        // client's `delete('http://…')`.
        ("", "fetch") => {
            let options = args.get(1);
            let method = options.and_then(|o| o.field("method"))?.word();
            let body = options.and_then(|o| o.field("body")).map(Value::word);
            method
                .literal
                .then(|| request(whole, &method.text, arg(0)?, body))
                .flatten()
        }
        ("axios", "delete" | "post" | "put" | "patch") => {
            let body = if name == "delete" {
                args.get(1).and_then(|c| c.field("data")).map(Value::word)
            } else {
                arg(1)
            };
            request(whole, name, arg(0)?, body)
        }
        (_, "delete") if arg(0).is_some_and(|u| written_url(&u)) => {
            request(whole, "DELETE", arg(0)?, None)
        }
        ("", "axios") | ("axios", "request") => {
            let config = args.first()?;
            let method = config.field("method")?.word();
            let url = config.field("url")?.word();
            let body = config.field("data").map(Value::word);
            method
                .literal
                .then(|| request(whole, &method.text, url, body))
                .flatten()
        }
        _ => None,
    }
}

/// A URL written out in the code (`'http://localhost:9200/logs'`), so that a method named
/// `delete` called with it is an HTTP request, whatever the client.
fn written_url(word: &Word) -> bool {
    word.text.starts_with("http://") || word.text.starts_with("https://")
}

fn value_of(node: Node, src: &str) -> Value {
    let source = text(node, src);
    match node.kind() {
        "string" | "template_string" => tree::string(node, src, |part| match part.kind() {
            "string_fragment" => Part::Text,
            "escape_sequence" => Part::Escape,
            // `${...}` in a template.
            "template_substitution" => Part::Interpolation,
            _ => Part::Unreadable,
        }),
        "binary_expression" => tree::joined(node, src, "+", value_of),
        "parenthesized_expression" => tree::parenthesized(node, src, value_of),
        "array" => tree::list(node, src, value_of),
        "object" => {
            let mut pairs = Vec::new();
            for pair in tree::args(node) {
                match pair.kind() {
                    "pair" => {
                        if let (Some(k), Some(v)) = (
                            pair.child_by_field_name("key"),
                            pair.child_by_field_name("value"),
                        ) {
                            let key = text(k, src).trim_matches(['"', '\'']).to_string();
                            pairs.push((key, value_of(v, src)));
                        }
                    }
                    // `{recursive}`: set by a variable of that name.
                    "shorthand_property_identifier" => pairs.push((
                        text(pair, src).to_string(),
                        Value::Other(unknown(text(pair, src))),
                    )),
                    _ => {}
                }
            }
            Value::Map(pairs, unknown(source))
        }
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        _ => Value::Other(unknown(source)),
    }
}

/// The database drivers the code loads and the connections it opens, to lower what its
/// driver calls run (see [`driver`]).
struct Databases<'t> {
    /// Each driver loaded, with the methods that run the SQL they are given, in load order.
    drivers: Vec<(Connection, &'static [&'static str])>,
    /// The calls that open a connection (`new Client(url)`, `new Database('app.db')`).
    opens: Vec<Node<'t>>,
}

impl<'t> Databases<'t> {
    /// `None` when the code loads no database driver: then no call runs SQL.
    fn read(nodes: &[Node<'t>], src: &str) -> Option<Self> {
        let mut drivers = Vec::new();
        for node in nodes {
            let source = match node.kind() {
                // `require('pg')`, `await import('pg')`.
                "call_expression" => {
                    let function = node.child_by_field_name("function");
                    if !function.is_some_and(|f| matches!(text(f, src), "require" | "import")) {
                        continue;
                    }
                    node.child_by_field_name("arguments")
                        .and_then(|a| tree::args(a).first().copied())
                }
                "import_statement" => node.child_by_field_name("source"),
                _ => continue,
            };
            if let Some(Value::Str(module)) = source.map(|s| value_of(s, src)) {
                drivers.extend(js_driver(&module.text));
            }
        }
        if drivers.is_empty() {
            return None;
        }
        let opens = nodes.iter().copied().filter(|n| opens(*n, src)).collect();
        Some(Databases { drivers, opens })
    }

    /// The client command a driver call amounts to: `client.query(sql)`, `db.exec(sql)`,
    /// ``prisma.$executeRaw`...` ``.
    fn statement(&self, node: Node, src: &str) -> Option<Effect> {
        let function = node.child_by_field_name("function")?;
        if function.kind() != "member_expression" {
            return None;
        }
        let method = text(function.child_by_field_name("property")?, src);
        let (driver, _) = self
            .drivers
            .iter()
            .find(|(_, methods)| methods.contains(&method))?;
        let arguments = node.child_by_field_name("arguments")?;
        // A tagged template is its own argument.
        let sql = match arguments.kind() {
            "template_string" => value_of(arguments, src),
            _ => value_of(*tree::args(arguments).first()?, src),
        };
        let Value::Str(sql) = sql else {
            return None;
        };
        let connection = match self.opens.first() {
            Some(open) => connected(*open, src, driver),
            None => driver.clone(),
        };
        driver::statement(text(node, src), &connection, &sql)
    }
}

/// The driver a module is, with the methods that run SQL; every one commits each statement.
fn js_driver(module: &str) -> Option<(Connection, &'static [&'static str])> {
    let (engine, methods): (Engine, &'static [&'static str]) = match module {
        "pg" | "pg-pool" | "@neondatabase/serverless" | "@vercel/postgres" => {
            (Engine::Postgres, &["query"])
        }
        "pg-promise" => (
            Engine::Postgres,
            &[
                "none",
                "any",
                "query",
                "result",
                "many",
                "manyOrNone",
                "one",
                "oneOrNone",
                "multi",
            ],
        ),
        // postgres.js runs a string only through `sql.unsafe`.
        "postgres" => (Engine::Postgres, &["unsafe"]),
        "mysql" | "mysql2" | "mysql2/promise" | "mariadb" => (Engine::MySql, &["query", "execute"]),
        "better-sqlite3" | "sqlite3" | "sqlite" | "node:sqlite" | "bun:sqlite" => (
            Engine::Sqlite,
            &["exec", "run", "prepare", "query", "all", "get", "each"],
        ),
        "@libsql/client" | "libsql" => (Engine::Sqlite, &["execute", "executeMultiple"]),
        "knex" => (Engine::Any, &["raw"]),
        "@prisma/client" => (
            Engine::Any,
            &[
                "$executeRawUnsafe",
                "$queryRawUnsafe",
                "$executeRaw",
                "$queryRaw",
            ],
        ),
        "sequelize" | "typeorm" => (Engine::Any, &["query"]),
        _ => return None,
    };
    Some((Connection::new(engine, Commits::Always), methods))
}

/// Whether `node` opens a database connection or handle.
fn opens(node: Node, src: &str) -> bool {
    let callee = match node.kind() {
        "new_expression" => node.child_by_field_name("constructor"),
        "call_expression" => node.child_by_field_name("function"),
        _ => None,
    };
    let Some(callee) = callee else {
        return false;
    };
    let name = text(callee, src).rsplit('.').next().unwrap_or("");
    match node.kind() {
        "new_expression" => matches!(
            name,
            "Client" | "Pool" | "Database" | "DatabaseSync" | "Sequelize" | "DataSource"
        ),
        _ => matches!(
            name,
            "createConnection" | "createPool" | "createClient" | "connect"
        ),
    }
}

/// `driver`'s connection as `open` makes it: the URL or file it names, as a string or as
/// the `connectionString`, `url` or `filename` of its options, or their `host` and
/// `database`.
fn connected(open: Node, src: &str, driver: &Connection) -> Connection {
    let mut connection = driver.clone();
    let Some(first) = open
        .child_by_field_name("arguments")
        .and_then(|a| tree::args(a).first().copied())
    else {
        return connection;
    };
    let known = |value: &Value| match value {
        Value::Str(w) if w.literal => Some(w.clone()),
        _ => None,
    };
    let (main, host, database) = match value_of(first, src) {
        Value::Map(pairs, _) => {
            let key = |names: &[&str]| {
                pairs
                    .iter()
                    .find(|(k, _)| names.contains(&k.as_str()))
                    .and_then(|(_, v)| known(v))
            };
            (
                key(&["connectionString", "url", "uri", "filename"]),
                key(&["host"]),
                key(&["database"]),
            )
        }
        value => (known(&value), None, None),
    };
    if let Some((engine, target)) = main.as_ref().and_then(driver::from_url) {
        if connection.engine == Engine::Any {
            connection.engine = engine;
        }
        connection.target = target;
    } else if let Some(main) = main {
        connection.target = vec![main];
    }
    if let Some(host) = host {
        connection.target.extend([Word::literal("-h"), host]);
    }
    if connection.engine == Engine::Postgres && database.is_some() {
        connection.target.push(Word::literal("-d"));
    }
    connection.target.extend(database);
    connection
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lowered(code: &str) -> Vec<String> {
        crate::lang::shown(Lang::JavaScript, code)
    }

    /// The last argument of each command lowered, with whether its text is known.
    fn targets(code: &str) -> Vec<(String, bool)> {
        let deadline = crate::lang::Deadline::after(std::time::Duration::from_secs(60));
        crate::lang::effects(Lang::JavaScript, code, ScriptArgs::NONE, deadline)
            .effects
            .into_iter()
            .filter_map(|e| match e {
                Effect::Command { argv, .. } => argv.into_iter().last(),
                _ => None,
            })
            .map(|w| (w.text, w.literal))
            .collect()
    }

    #[test]
    fn constants_passed_to_calls() {
        let known = |t: &str| vec![(t.to_string(), true)];
        let unknown = |t: &str| vec![(t.to_string(), false)];
        let rm = "fs.rmSync(d, {recursive: true})";
        assert_eq!(
            targets(&format!("const d = '/tmp/x'; {rm}")),
            known("/tmp/x")
        );
        assert_eq!(targets(&format!("let d = `/tmp/x`; {rm}")), known("/tmp/x"));
        assert_eq!(
            targets(&format!("const d = '/tmp/x'; {rm}; f(d + '/y')")),
            known("/tmp/x")
        );
        assert_eq!(
            targets(&format!("function f() {{ const d = 'out'; {rm} }}")),
            known("out")
        );
        for code in [
            // Assigned again, or known only when it runs.
            format!("let d = '/tmp/x'; d = 'src'; {rm}"),
            format!("let d = '/tmp/x'; d += '/../src'; {rm}"),
            format!("let d = '/tmp/x'; d++; {rm}"),
            format!("let d = '/tmp/x'; [d] = ['src']; {rm}"),
            format!("let d = '/tmp/x'; ({{d}} = o); {rm}"),
            format!("var d = '/tmp/x'; {rm}"),
            format!("const d = `/tmp/${{x}}`; {rm}"),
            format!("const d = '/tmp/' + x; {rm}"),
            // Another `d` in another scope, or the call outside the block.
            format!("const d = '/tmp/x'; function f(d) {{ {rm} }}"),
            format!("const d = '/tmp/x'; {{ const d = 'src'; {rm} }}"),
            format!("const d = '/tmp/x'; {{ const {{d}} = o; {rm} }}"),
            format!("const d = '/tmp/x'; for (const d of ds) {{ {rm} }}"),
            format!("{{ const d = '/tmp/x'; }} {rm}"),
            format!("const d = '/tmp/x'; with (o) {{ {rm} }}"),
            format!("const d = '/tmp/x'; eval(s); {rm}"),
        ] {
            assert_eq!(targets(&code).last(), unknown("d").first(), "{code}");
        }
    }

    #[test]
    fn deletions() {
        assert_eq!(
            lowered("require('fs').rmSync('cache', {recursive: true, force: true})"),
            ["rm -r cache"]
        );
        assert_eq!(lowered("fs.rmSync('a.txt')"), ["rm a.txt"]);
        assert_eq!(
            lowered("await fs.promises.rm(dir, {recursive: true})"),
            ["rm -r dir"]
        );
        assert_eq!(lowered("fs.rmdirSync('d', {recursive: true})"), ["rm -r d"]);
        assert_eq!(lowered("fs.rmdirSync('d')"), ["rmdir d"]);
        assert_eq!(
            lowered("await Deno.remove('out', { recursive: true })"),
            ["rm -r out"]
        );
    }

    #[test]
    fn processes_and_mentions() {
        assert_eq!(
            lowered("require('child_process').execSync('git reset --hard')"),
            ["sh git reset --hard"]
        );
        assert_eq!(
            lowered("spawnSync('git', ['clean', '-fd'], {stdio: 'inherit'})"),
            ["git clean -fd"]
        );
        assert_eq!(
            lowered("cp.execSync(`rm -rf ${dir}`)"),
            ["sh rm -rf ${dir}"]
        );
        assert_eq!(
            lowered("eval(\"require('fs').rmSync('x', {recursive: true})\")"),
            ["code require('fs').rmSync('x', {recursive: true})"]
        );
        assert!(lowered("console.log('git reset --hard')").is_empty());
        assert!(lowered("const del = (x) => x; del('a')").is_empty());
        assert!(lowered("/rm -rf/.exec('rm -rf x')").is_empty());
    }

    #[test]
    fn aliases_from_destructuring_and_imports() {
        assert_eq!(
            lowered(
                "const {spawnSync: run} = require('child_process'); run('git', ['reset', '--hard'])"
            ),
            ["git reset --hard"]
        );
        assert_eq!(
            lowered("import { execSync as sh } from 'child_process'; sh('git clean -fdx')"),
            ["sh git clean -fdx"]
        );
        assert_eq!(
            lowered("import * as proc from 'node:child_process'; proc.exec('rm -rf out')"),
            ["sh rm -rf out"]
        );
        assert_eq!(
            lowered("const x = require('child_process'); x.exec('rm -rf out')"),
            ["sh rm -rf out"]
        );
        assert_eq!(
            lowered("const run = require('child_process').execSync; run('git stash clear')"),
            ["sh git stash clear"]
        );
        assert_eq!(
            lowered("const {rm: remove} = require('fs/promises'); remove('d', {recursive: true})"),
            ["rm -r d"]
        );
        assert_eq!(
            lowered("import {deleteAsync} from 'del'; await deleteAsync(['data/**', 'tmp'])"),
            ["rm -r data/** tmp"]
        );
        assert_eq!(
            lowered("const rimraf = require('rimraf'); rimraf.sync('dist')"),
            ["rm -r dist"]
        );
        assert_eq!(
            lowered("import del from 'del'; del(['out'])"),
            ["rm -r out"]
        );
        assert_eq!(
            lowered("const {spawnSync: run} = require('child_process'); run('git', ['status'])"),
            ["git status"]
        );
    }

    #[test]
    fn writes() {
        assert_eq!(
            lowered("fs.writeFileSync('.claude/settings.json', '{}')"),
            ["writeFileSync > .claude/settings.json"]
        );
        assert_eq!(
            lowered("fs.appendFileSync('log.txt', 'x')"),
            ["appendFileSync >> log.txt"]
        );
        assert_eq!(lowered("fs.mkdirSync('tmp')"), ["mkdir -p tmp"]);
    }

    #[test]
    fn database_drivers() {
        assert_eq!(
            lowered("const {Client} = require('pg'); new Client().query('DROP TABLE t')"),
            ["psql -c DROP TABLE t"]
        );
        assert_eq!(
            lowered(
                "import Database from 'better-sqlite3'; new Database('app.db').exec('DELETE FROM t')"
            ),
            ["sqlite3 app.db DELETE FROM t"]
        );
        assert_eq!(
            lowered(
                "const mysql = require('mysql2'); mysql.createConnection({host: 'h', database: 'shop'}).query('TRUNCATE t')"
            ),
            ["mysql -e TRUNCATE t -h h shop"]
        );
        assert_eq!(
            lowered(
                "const {PrismaClient} = require('@prisma/client'); new PrismaClient().$executeRaw`DELETE FROM t`"
            ),
            ["usql -c DELETE FROM t"]
        );
        assert!(lowered("db.exec('DROP TABLE t')").is_empty());
        assert!(
            lowered("const {Client} = require('pg'); new Client().query(`DROP TABLE ${t}`)")
                .is_empty()
        );
    }

    #[test]
    fn http_requests_that_change_something() {
        assert_eq!(
            lowered("fetch('http://h:9200/logs', {method: 'DELETE'})"),
            ["curl -X DELETE http://h:9200/logs"]
        );
        assert_eq!(
            lowered("fetch('http://h:8123/', {method: 'POST', body: 'DROP TABLE t'})"),
            ["curl -X POST http://h:8123/ --data-raw DROP TABLE t"]
        );
        assert_eq!(
            lowered("const axios = require('axios'); axios.delete('http://h/x')"),
            ["curl -X DELETE http://h/x"]
        );
        assert_eq!(
            lowered("axios({method: 'delete', url: 'http://h/x'})"),
            ["curl -X DELETE http://h/x"]
        );
        assert_eq!(
            lowered("client.delete('https://h/x')"),
            ["curl -X DELETE https://h/x"]
        );
        assert!(lowered("fetch('http://h:9200/logs')").is_empty());
        assert!(lowered("fetch('http://h/x', {method: 'GET'})").is_empty());
        assert!(lowered("fetch('http://h/x', {method: m})").is_empty());
        assert!(lowered("map.delete('key')").is_empty());
    }

    #[test]
    fn a_script_files_arguments() {
        let run = |code: &str, args: &[&str]| crate::lang::shown_with(Lang::JavaScript, code, args);
        let rm = "const fs = require('fs');\nfs.rmSync(process.argv[2], { recursive: true });";
        assert_eq!(run(rm, &["dist"]), ["rm -r dist"]);
        assert_eq!(run(rm, &[]), ["rm -r process.argv[2]"]);
        let named = "const fs = require('fs');\nif (process.argv.length < 3) process.exit(1);\nconst dir = process.argv[2];\nconsole.log(`wiping ${dir}`);\nfs.rmSync(dir, { recursive: true });";
        assert_eq!(run(named, &["dist"]), ["rm -r dist"]);
        for code in [
            "let dir = process.argv[2];\ndir = 'src';\nfs.rmSync(dir, { recursive: true });",
            "const dir = process.argv[2];\nfunction f(dir) { fs.rmSync(dir, { recursive: true }); }",
            "process.argv.splice(2, 1);\nconst dir = process.argv[2];\nfs.rmSync(dir, { recursive: true });",
        ] {
            assert_eq!(run(code, &["dist", "src"]), ["rm -r dir"], "{code}");
        }
    }
}
