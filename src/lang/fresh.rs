//! Folders interpreter code makes for itself: `tempfile.mkdtemp()` and `with
//! tempfile.TemporaryDirectory() as d` in Python, `fs.mkdtempSync()` in JavaScript,
//! `Dir.mktmpdir` in Ruby. A delete of such a folder, or of a path joined under it with
//! plain names, loses nothing: the word is marked [`Temp::Made`], as the shell marks what
//! `mktemp -d` makes.
//!
//! Proof, not likeness: the name must be bound only to such calls, every other use of it
//! must be a plain call argument (no attribute, no rebinding, no closure parameter of the
//! same name), and code that could bind names behind the reader's back (`exec`, `eval`,
//! `globals()`, star imports) or change the folder a relative path means (`chdir`) proves
//! nothing; nor does code that may move files at all (`rename`, `move`): what it moves
//! into the folder would be deleted with it.

use tree_sitter::Node;

use super::Effect;
use super::tree::text;
use crate::syntax::Temp;

/// How one language makes temporary folders and uses their names.
pub(super) struct Maker {
    /// Calls whose result, bound to a name, is a fresh folder, each with how reasons name it.
    pub calls: &'static [(&'static str, &'static str)],
    /// The node kind of an assignment, with the fields of its name and value.
    pub assignment: (&'static str, &'static str, &'static str),
    /// The kind of a call's argument list: the only place a use may stand.
    pub arguments: &'static str,
    /// The call that joins names under a folder (`os.path.join`).
    pub join: &'static str,
    /// Text that may bind names or move the working folder where this cannot see it.
    pub unsafe_text: &'static [&'static str],
    /// How the code loads the module that makes the folder: one must be there.
    pub imports: &'static [&'static str],
}

pub(super) const PYTHON: Maker = Maker {
    calls: &[
        ("tempfile.mkdtemp", "tempfile.mkdtemp()"),
        (
            "tempfile.TemporaryDirectory",
            "tempfile.TemporaryDirectory()",
        ),
    ],
    assignment: ("assignment", "left", "right"),
    arguments: "argument_list",
    join: "os.path.join",
    unsafe_text: &[
        "import *",
        "exec",
        "eval",
        "globals",
        "locals",
        "__dict__",
        "setattr",
        "chdir",
        "tempfile =",
        "as tempfile",
        "rename",
        "move",
        "replace",
    ],
    imports: &["import tempfile"],
};

pub(super) const JS: Maker = Maker {
    calls: &[("fs.mkdtempSync", "fs.mkdtempSync()")],
    assignment: ("variable_declarator", "name", "value"),
    arguments: "arguments",
    join: "path.join",
    unsafe_text: &[
        "eval",
        "Function(",
        "with(",
        "with (",
        "chdir",
        "rename",
        "move",
        "var fs",
        "let fs",
    ],
    imports: &[
        "const fs = require('fs')",
        "const fs = require(\"fs\")",
        "const fs = require('node:fs')",
        "const fs = require(\"node:fs\")",
        "import fs from",
        "import * as fs from",
    ],
};

pub(super) const RUBY: Maker = Maker {
    calls: &[("Dir.mktmpdir", "Dir.mktmpdir")],
    assignment: ("assignment", "left", "right"),
    arguments: "argument_list",
    join: "File.join",
    unsafe_text: &[
        "eval",
        "binding",
        "instance_variable_set",
        "send",
        "chdir",
        "mv",
        "rename",
        "move",
    ],
    imports: &["tmpdir"],
};

/// Marks the words of `effects` that lie inside a folder the code made.
pub(super) fn mark(effects: &mut [Effect], nodes: &[Node], src: &str, maker: &Maker) {
    if !maker.calls.iter().any(|(c, _)| src.contains(c))
        || !maker.imports.iter().any(|i| src.contains(i))
        || maker.unsafe_text.iter().any(|t| src.contains(t))
    {
        return;
    }
    let names = fresh_names(nodes, src, maker);
    if names.is_empty() {
        return;
    }
    for effect in effects {
        let Effect::Command { argv, .. } = effect else {
            continue;
        };
        for word in argv.iter_mut().filter(|w| !w.literal) {
            let made = names
                .iter()
                .find(|(n, _)| *n == word.text || joined_under(&word.text, n, maker));
            if let Some((_, shown)) = made {
                word.temp = Some(Temp::Made(shown));
            }
        }
    }
}

/// The names bound only to a fresh folder and used only as call arguments, each with the
/// call that made it.
fn fresh_names<'s>(nodes: &[Node], src: &'s str, maker: &Maker) -> Vec<(&'s str, &'static str)> {
    let bindings: Vec<(&str, usize, &'static str)> = nodes
        .iter()
        .filter_map(|node| binding(*node, src, maker))
        .collect();
    let mut names: Vec<(&str, &'static str)> = Vec::new();
    for (name, _, shown) in &bindings {
        if !names.iter().any(|(n, _)| n == name) {
            names.push((name, shown));
        }
    }
    names.retain(|(name, _)| {
        nodes
            .iter()
            .filter(|n| n.kind() == "identifier" && text(**n, src) == *name)
            .all(|n| {
                bindings.iter().any(|(_, id, _)| *id == n.id())
                    || n.parent().is_some_and(|p| p.kind() == maker.arguments)
            })
    });
    names
}

/// `d = tempfile.mkdtemp()`, `with tempfile.TemporaryDirectory() as d`,
/// `const d = fs.mkdtempSync(...)`, `d = Dir.mktmpdir`, `Dir.mktmpdir do |d|`: the name, the
/// id of its identifier node, and the call as reasons name it.
fn binding<'s>(node: Node, src: &'s str, maker: &Maker) -> Option<(&'s str, usize, &'static str)> {
    let makes = |call: Node| {
        let callee = match call.kind() {
            "call" | "call_expression" => call
                .child_by_field_name("function")
                .map(|f| text(f, src))
                .or_else(|| {
                    let method = call.child_by_field_name("method")?;
                    let receiver = call.child_by_field_name("receiver")?;
                    Some(&src[receiver.start_byte()..method.end_byte()])
                }),
            // A name or an attribute alone makes nothing.
            _ => None,
        };
        let callee = callee?;
        maker
            .calls
            .iter()
            .find(|(c, _)| *c == callee)
            .map(|(_, shown)| *shown)
    };
    let (kind, name_field, value_field) = maker.assignment;
    if node.kind() == kind {
        let name = node.child_by_field_name(name_field)?;
        let value = node.child_by_field_name(value_field)?;
        let shown = makes(value).filter(|_| name.kind() == "identifier")?;
        return Some((text(name, src), name.id(), shown));
    }
    match node.kind() {
        // `with tempfile.TemporaryDirectory() as d:`
        "as_pattern" => {
            let call = node.named_child(0)?;
            let target = node.child_by_field_name("alias")?.named_child(0)?;
            let shown = makes(call).filter(|_| target.kind() == "identifier")?;
            Some((text(target, src), target.id(), shown))
        }
        // `Dir.mktmpdir do |d| ... end`
        "call" => {
            let shown = makes(node)?;
            let block = node.child_by_field_name("block")?;
            let params = block.child_by_field_name("parameters")?;
            let mut cursor = params.walk();
            let only: Vec<Node> = params.named_children(&mut cursor).collect();
            match only.as_slice() {
                [param] if param.kind() == "identifier" => {
                    Some((text(*param, src), param.id(), shown))
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// `os.path.join(d, 'out', "x")` as written, with `d` fresh and every other part a plain
/// relative name with no `..`.
fn joined_under(source: &str, name: &str, maker: &Maker) -> bool {
    let Some(inner) = source
        .strip_prefix(maker.join)
        .and_then(|s| s.trim_start().strip_prefix('('))
        .and_then(|s| s.trim_end().strip_suffix(')'))
    else {
        return false;
    };
    let mut parts = inner.split(',').map(str::trim);
    let Some(first) = parts.next() else {
        return false;
    };
    first == name
        && parts.filter(|p| !p.is_empty()).all(|part| {
            let body = ['\'', '"']
                .iter()
                .find_map(|q| part.strip_prefix(*q)?.strip_suffix(*q));
            body.is_some_and(|b| {
                !b.is_empty()
                    && !b.starts_with('/')
                    && !b.contains(['\\', '\'', '"', '$', '`', '{'])
                    && !b.split('/').any(|c| c == "..")
            })
        })
}
