//! The house has no circles: among the modules of one parent, no module uses one that uses it
//! back, directly or through others. A circle means two modules that cannot be understood,
//! tested or moved apart; the readers (shell, lang) must stand on a leaf of shared syntax
//! types rather than on each other.
//!
//! The graph is read from the source: every `crate::a::b` path and every `super::` path in a
//! module's code (its `#[cfg(test)]` tests left out) is an edge from that module to the
//! sibling, at the level where their paths part, that holds what it names. A parent naming
//! its own child (or a child its parent) is how Rust nests modules, not a circle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module's path below the crate root: `src/context/git.rs` is `["context", "git"]`.
type ModPath = Vec<String>;

fn module_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            module_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn module_path(src: &Path, file: &Path) -> ModPath {
    let relative = file.strip_prefix(src).expect("a file under src");
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The module's code without its unit tests and comments (a doc link is not a use).
fn code_of(text: &str) -> String {
    let code = text
        .find("#[cfg(test)]\nmod tests")
        .map_or(text, |at| &text[..at]);
    code.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Identifier segments of a path that starts at `at` (`a::b::{c, d}` gives `a`, `b`).
fn path_segments(text: &str, mut at: usize) -> Vec<String> {
    let bytes = text.as_bytes();
    let mut segments = Vec::new();
    loop {
        let start = at;
        while at < bytes.len() && (bytes[at].is_ascii_alphanumeric() || bytes[at] == b'_') {
            at += 1;
        }
        if at == start {
            break;
        }
        segments.push(text[start..at].to_string());
        if text[at..].starts_with("::") {
            at += 2;
        } else {
            break;
        }
    }
    segments
}

/// Every module path `code` of module `me` refers to (resolved to absolute segments).
fn references(me: &ModPath, code: &str, is_dir_module: bool) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$') {
            continue;
        }
        found.push(path_segments(code, at + "crate::".len()));
    }
    for (at, _) in code.match_indices("super::") {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        // `super` of a folder's mod.rs is the folder's parent; of a file, its folder.
        let mut base = me.clone();
        if !is_dir_module || !base.is_empty() {
            base.pop();
        }
        let mut rest = at + "super::".len();
        while code[rest..].starts_with("super::") {
            base.pop();
            rest += "super::".len();
        }
        let mut path = base;
        path.extend(path_segments(code, rest));
        found.push(path);
    }
    found
}

/// The edge `me` → `target` between siblings, as (parent, from, to), or `None` when one path
/// holds the other.
fn sibling_edge(me: &ModPath, target: &[String]) -> Option<(ModPath, String, String)> {
    let common = me.iter().zip(target).take_while(|(a, b)| a == b).count();
    let from = me.get(common)?;
    let to = target.get(common)?;
    Some((me[..common].to_vec(), from.clone(), to.clone()))
}

/// Where each crate of the workspace keeps its modules, and the path they have in the
/// library: the readers' and the rules' crates re-export theirs under the names they had, and
/// the syntax crate is the library's `syntax`.
const ROOTS: &[(&str, &[&str])] = &[
    ("src", &[]),
    ("crates/syntax/src", &["syntax"]),
    ("crates/shell/src", &[]),
    ("crates/rules/src", &[]),
];

/// Every module file with its path in the library.
fn modules() -> Vec<(PathBuf, ModPath)> {
    let mut out = Vec::new();
    for (root, prefix) in ROOTS {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(root);
        let mut files = Vec::new();
        module_files(&src, &mut files);
        for file in files {
            let mut path: ModPath = prefix.iter().map(|p| p.to_string()).collect();
            path.extend(module_path(&src, &file));
            out.push((file, path));
        }
    }
    out
}

/// The module graph among siblings: parent → (from → {to}).
fn sibling_graph() -> BTreeMap<ModPath, BTreeMap<String, BTreeSet<String>>> {
    let files = modules();
    let modules: BTreeSet<ModPath> = files.iter().map(|(_, m)| m.clone()).collect();
    let mut graph: BTreeMap<ModPath, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for (file, me) in &files {
        let me = me.clone();
        let is_dir_module = file
            .file_name()
            .is_some_and(|n| n == "mod.rs" || n == "lib.rs" || n == "main.rs");
        let text = std::fs::read_to_string(file).expect("read a source file");
        for target in references(&me, &code_of(&text), is_dir_module) {
            // Only edges to modules that exist: `crate::Foo` may name an item of lib.rs.
            let Some((parent, from, to)) = sibling_edge(&me, &target) else {
                continue;
            };
            let mut sibling = parent.clone();
            sibling.push(to.clone());
            if from != to && modules.contains(&sibling) {
                graph
                    .entry(parent)
                    .or_default()
                    .entry(from)
                    .or_default()
                    .insert(to);
            }
        }
    }
    graph
}

/// One circle through `start`, if any, as the modules in order.
fn circle_from(start: &str, edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    let mut stack: Vec<(String, Vec<String>)> = vec![(start.to_string(), vec![start.to_string()])];
    let mut seen = BTreeSet::new();
    while let Some((node, path)) = stack.pop() {
        for next in edges.get(&node).into_iter().flatten() {
            if next == start {
                let mut circle = path.clone();
                circle.push(start.to_string());
                return Some(circle);
            }
            if seen.insert(next.clone()) {
                let mut longer = path.clone();
                longer.push(next.clone());
                stack.push((next.clone(), longer));
            }
        }
    }
    None
}

#[test]
fn no_module_uses_one_that_uses_it_back() {
    let mut circles = BTreeSet::new();
    for (parent, edges) in sibling_graph() {
        for start in edges.keys() {
            if let Some(mut circle) = circle_from(start, &edges) {
                // One spelling per circle: start from its least module.
                circle.pop();
                let least = circle
                    .iter()
                    .enumerate()
                    .min_by_key(|(_, m)| *m)
                    .map_or(0, |(i, _)| i);
                circle.rotate_left(least);
                let first = circle[0].clone();
                circle.push(first);
                let prefix = if parent.is_empty() {
                    "crate".to_string()
                } else {
                    format!("crate::{}", parent.join("::"))
                };
                circles.insert(format!("{prefix}: {}", circle.join(" -> ")));
            }
        }
    }
    assert!(
        circles.is_empty(),
        "modules that use each other in a circle:\n{}",
        circles.into_iter().collect::<Vec<_>>().join("\n")
    );
}

/// The readers of command text (the syntax leaf, the shell walker, the interpreter-code
/// readers, the reader of what a line sets in motion) know nothing of what is done with
/// what they read.
#[test]
fn readers_never_use_rules_context_policy_or_hosts() {
    let graph = sibling_graph();
    let top = &graph[&Vec::new()];
    let mut reaching = Vec::new();
    for reader in ["syntax", "shell", "lang", "motion"] {
        for used in top.get(reader).into_iter().flatten() {
            if ["rules", "context", "policy", "host", "config", "settings"].contains(&used.as_str())
            {
                reaching.push(format!("{reader} uses {used}"));
            }
        }
    }
    assert!(reaching.is_empty(), "{reaching:?}");
    assert!(
        top.get("syntax").is_none_or(|used| used.is_empty()),
        "syntax is a leaf: {top:?}"
    );
    // The recipes are read as text the shell then reads: motion stands below the shell.
    assert!(
        top.get("motion")
            .is_none_or(|used| used.iter().all(|u| u == "syntax")),
        "motion reads only with syntax: {top:?}"
    );
}

#[test]
fn the_graph_reader_sees_edges() {
    let graph = sibling_graph();
    let top = &graph[&Vec::new()];
    // The command line calls into the library; a reader never uses the rules.
    assert!(top["cli"].contains("host"), "{top:?}");
    assert!(top["shell"].iter().all(|to| to != "rules"), "{top:?}");
    assert!(
        sibling_edge(
            &vec!["context".into(), "git".into()],
            &["context".into(), "moves".into(), "X".into()]
        ) == Some((vec!["context".into()], "git".into(), "moves".into()))
    );
}
