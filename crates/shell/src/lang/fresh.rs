//! Folders interpreter code makes for itself: `tempfile.mkdtemp()` and `with
//! tempfile.TemporaryDirectory() as d` in Python, `fs.mkdtempSync()` in JavaScript,
//! `Dir.mktmpdir` in Ruby, also wrapped in pathlib's `Path(...)`. A delete of such a folder,
//! or of a path joined under it with plain names, loses nothing: the word is marked
//! [`Temp::Made`], as the shell marks what `mktemp -d` makes.
//!
//! Proof, not likeness: the name must be bound only to such calls, every other use of it
//! must be a plain call argument or the left of pathlib's `/` (no attribute, no rebinding,
//! no closure parameter of the same name), and code that could bind names behind the
//! reader's back (`exec`, `eval`, `globals()`, star imports) or change the folder a relative
//! path means (`chdir`) proves nothing; nor does code that may move files at all (`rename`,
//! `move`): what it moves into the folder would be deleted with it.

use tree_sitter::Node;

use super::Effect;
use super::tree::{args, text};
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
    /// Calls that hand back the same folder they are given (`Path(tempfile.mkdtemp())`),
    /// each with the module the name it is called by must be imported from.
    pub wrappers: &'static [(&'static str, &'static str)],
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
    wrappers: &[("Path", "pathlib"), ("pathlib.Path", "pathlib")],
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
    wrappers: &[],
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
    wrappers: &[],
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
    let mentions = Mentions {
        kinds: &["identifier", "shorthand_property_identifier_pattern"],
        any_case: false,
        once: false,
    };
    bound_names(
        nodes,
        src,
        &mentions,
        |node| binding(node, nodes, src, maker),
        |n| n.parent().is_some_and(|p| p.kind() == maker.arguments) || joined_by_slash(n, src),
    )
}

/// Which nodes mention a name, and how often it may be bound.
pub(super) struct Mentions<'k> {
    /// The kinds of node that name a variable (`{d}` in a pattern binds `d` too).
    pub kinds: &'k [&'k str],
    /// Whether names differ only by case (PowerShell's do not).
    pub any_case: bool,
    /// Whether a name must be bound a single time, not only by bindings `binds` reads.
    pub once: bool,
}

/// The names every binding of which is one `binds` reads (giving the node that names it and
/// what it is bound to), each with what its first binding gave, when every other mention of
/// it is a use `used` allows: so nothing else assigns, shadows or destructures it.
pub(super) fn bound_names<'t, 's, T: Copy>(
    nodes: &[Node<'t>],
    src: &'s str,
    mentions: &Mentions,
    binds: impl Fn(Node<'t>) -> Option<(Node<'t>, T)>,
    used: impl Fn(Node<'t>) -> bool,
) -> Vec<(&'s str, T)> {
    let same = |a: &str, b: &str| {
        if mentions.any_case {
            a.eq_ignore_ascii_case(b)
        } else {
            a == b
        }
    };
    let bindings: Vec<(&str, usize, T)> = nodes
        .iter()
        .filter_map(|node| binds(*node))
        .map(|(name, value)| (text(name, src), name.id(), value))
        .collect();
    let mut names: Vec<(&str, T)> = Vec::new();
    for (name, _, value) in &bindings {
        if !names.iter().any(|(n, _)| same(n, name)) {
            names.push((name, *value));
        }
    }
    names.retain(|(name, _)| {
        let bound = bindings.iter().filter(|(n, _, _)| same(n, name)).count();
        (!mentions.once || bound == 1)
            && nodes
                .iter()
                .filter(|n| mentions.kinds.contains(&n.kind()) && same(text(**n, src), name))
                .all(|n| bindings.iter().any(|(_, id, _)| *id == n.id()) || used(*n))
    });
    names
}

/// `d = tempfile.mkdtemp()`, `with tempfile.TemporaryDirectory() as d`,
/// `const d = fs.mkdtempSync(...)`, `d = Dir.mktmpdir`, `Dir.mktmpdir do |d|`: the node that
/// names it, and the call as reasons name it.
fn binding<'t>(
    node: Node<'t>,
    nodes: &[Node],
    src: &str,
    maker: &Maker,
) -> Option<(Node<'t>, &'static str)> {
    let makes = |call: Node| makes(call, src, maker).or_else(|| wrapped(call, nodes, src, maker));
    let (kind, name_field, value_field) = maker.assignment;
    if node.kind() == kind {
        let name = node.child_by_field_name(name_field)?;
        let value = node.child_by_field_name(value_field)?;
        let shown = makes(value).filter(|_| name.kind() == "identifier")?;
        return Some((name, shown));
    }
    match node.kind() {
        // `with tempfile.TemporaryDirectory() as d:`
        "as_pattern" => {
            let call = node.named_child(0)?;
            let target = node.child_by_field_name("alias")?.named_child(0)?;
            let shown = makes(call).filter(|_| target.kind() == "identifier")?;
            Some((target, shown))
        }
        // `Dir.mktmpdir do |d| ... end`
        "call" => {
            let shown = makes(node)?;
            let block = node.child_by_field_name("block")?;
            let params = block.child_by_field_name("parameters")?;
            let mut cursor = params.walk();
            let only: Vec<Node> = params.named_children(&mut cursor).collect();
            match only.as_slice() {
                [param] if param.kind() == "identifier" => Some((*param, shown)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The call as reasons name it, when `call` is one of the maker's calls.
fn makes(call: Node, src: &str, maker: &Maker) -> Option<&'static str> {
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
    }?;
    maker
        .calls
        .iter()
        .find(|(c, _)| *c == callee)
        .map(|(_, shown)| *shown)
}

/// `Path(tempfile.mkdtemp())`: a wrapper given only a fresh folder, called by a name that
/// is imported from its module and used nowhere but in calls (no one rebinds it).
fn wrapped(call: Node, nodes: &[Node], src: &str, maker: &Maker) -> Option<&'static str> {
    let function = call.child_by_field_name("function")?;
    let (_, module) = *maker
        .wrappers
        .iter()
        .find(|(w, _)| *w == text(function, src))?;
    let inner = match args(call.child_by_field_name("arguments")?).as_slice() {
        [only] => *only,
        _ => return None,
    };
    // Every name any wrapper is called by: `Path.__new__ = ...` changes `pathlib.Path` too.
    let names = maker.wrappers.iter().flat_map(|(w, _)| w.split('.'));
    let uses_sound = nodes
        .iter()
        .filter(|n| n.kind() == "identifier")
        .filter(|n| names.clone().any(|name| name == text(**n, src)))
        .all(|n| called(*n) || imported(*n, src, module));
    uses_sound.then(|| makes(inner, src, maker)).flatten()
}

/// Whether `name` is what a call calls: `Path(...)`, or a part of `pathlib.Path(...)`.
fn called(name: Node) -> bool {
    let mut callee = name;
    if let Some(parent) = name.parent()
        && parent.kind() == "attribute"
    {
        callee = parent;
    }
    callee.parent().is_some_and(|call| {
        call.kind() == "call"
            && call.child_by_field_name("function").map(|f| f.id()) == Some(callee.id())
    })
}

/// Whether `name` stands in `from <module> import name`, `from <module> import ...` or
/// `import <module>`, without `as`.
fn imported(name: Node, src: &str, module: &str) -> bool {
    let head = text(name, src);
    let Some(dotted) = name.parent().filter(|p| p.kind() == "dotted_name") else {
        return false;
    };
    let Some(statement) = dotted.parent() else {
        return false;
    };
    text(dotted, src) == head
        && match statement.kind() {
            "import_from_statement" => statement
                .child_by_field_name("module_name")
                .is_some_and(|m| text(m, src) == module),
            "import_statement" => head == module,
            _ => false,
        }
}

/// `d / 'state.json'`: a path under `d` made with `pathlib`'s `/`, which changes nothing.
fn joined_by_slash(name: Node, src: &str) -> bool {
    name.parent().is_some_and(|op| {
        op.kind() == "binary_operator"
            && op.child_by_field_name("left").map(|l| l.id()) == Some(name.id())
            && op
                .child_by_field_name("operator")
                .is_some_and(|o| text(o, src) == "/")
            && op
                .child_by_field_name("right")
                .is_some_and(|r| r.kind() == "string")
    })
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
