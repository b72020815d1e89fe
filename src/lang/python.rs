//! Python: `shutil.rmtree`, `os.remove`, `pathlib` deletions, `os.system`, `subprocess`,
//! `open(..., 'w')` and `Path.write_text`.

use tree_sitter::{Node, Tree};

use super::tree::{self, Part, Value, named_nodes, text};
use super::{Effect, Lang, mode_writes, remove, remove_dir, rename, run, unknown, write};
use crate::syntax::Word;

pub(super) fn effects(tree: &Tree, code: &str) -> Vec<Effect> {
    let nodes = named_nodes(tree.root_node());
    let aliases = aliases(&nodes, code);
    nodes
        .into_iter()
        .filter(|n| n.kind() == "call")
        .filter_map(|n| call(n, code, &aliases))
        .collect()
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
        ("os", "rename" | "replace") | ("shutil", "move") => {
            Some(rename(whole, first("src")?, args.get(1, "dst")?.word()))
        }
        ("" | "io" | "builtins" | "codecs", "open") => {
            let mode = args.get(1, "mode").map(Value::word);
            mode.is_some_and(|m| mode_writes(&m))
                .then(|| first("file"))
                .flatten()
                .map(|target| write(whole, "open", target))
        }
        (_, "open") if receiver.is_some_and(|r| is_path(r, src)) => {
            let mode = args.get(0, "mode").map(Value::word);
            let target = path_of(receiver?, src);
            mode.is_some_and(|m| mode_writes(&m))
                .then(|| write(whole, "open", target))
        }
        (_, "write_text" | "write_bytes") => Some(write(whole, name, path_of(receiver?, src))),
        _ => None,
    }
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
        assert!(lowered("print('rm -rf /')").is_empty());
        assert_eq!(
            lowered("Path('.agent-guard.toml').write_text('')"),
            ["write_text > .agent-guard.toml"]
        );
    }
}
