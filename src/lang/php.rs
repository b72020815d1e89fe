//! PHP: `unlink`, `rmdir`, `system`/`exec`/`shell_exec`/`passthru`/`popen`/`proc_open`,
//! backticks, `file_put_contents` and `fopen` for writing.

use tree_sitter::{Node, Tree};

use super::tree::{self, Part, Value, named_nodes, text};
use super::{Effect, mode_writes, remove, remove_dir, rename, unknown, write};

pub(super) fn effects(tree: &Tree, code: &str) -> Vec<Effect> {
    named_nodes(tree.root_node())
        .into_iter()
        .filter_map(|n| match n.kind() {
            "function_call_expression" => call(n, code),
            "shell_command_expression" => Some(string(n, code).shell(text(n, code))),
            _ => None,
        })
        .collect()
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
        "file_put_contents" => Some(write(whole, name, arg(0)?)),
        "fopen" => {
            let target = arg(0)?;
            mode_writes(&arg(1)?).then(|| write(whole, name, target))
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
}
