//! Ruby: `FileUtils` deletions, `File.delete`, `system`/`exec`/`spawn`, backticks and `%x`,
//! `Open3`, and `File.write`.

use tree_sitter::{Node, Tree};

use super::tree::{self, Part, Value, named_nodes, text};
use super::{Effect, mode_writes, remove, remove_dir, rename, run, unknown, write};
use crate::syntax::Word;

pub(super) fn effects(tree: &Tree, code: &str) -> Vec<Effect> {
    named_nodes(tree.root_node())
        .into_iter()
        .filter_map(|n| match n.kind() {
            "call" => call(n, code),
            "subshell" => Some(string(n, code).shell(text(n, code))),
            _ => None,
        })
        .collect()
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
            let mode = args.get(1).map(Value::word)?;
            mode_writes(&mode).then(|| write(whole, name, args[0].word()))
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
}
