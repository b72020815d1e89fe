//! A program's options are read in one place: `syntax::argv`, against a table of what each
//! option takes, so that no reader takes an option's value for an operand, or `-rf` for
//! something other than `-r -f`, and two readers of one program cannot disagree.
//!
//! This test reads the source of every crate but the syntax crate for code that looks at a
//! word's leading dash itself (`starts_with('-')`, `strip_prefix("--")`, ...). The few files
//! that do are listed with why: the dash they look at is no program's option.

use std::path::{Path, PathBuf};

/// The files outside the syntax crate that may look at a leading dash, and why.
const KEPT: &[(&str, &str)] = &[
    (
        "crates/shell/src/motion/recipes/mod.rs",
        "a YAML list item (`- x`) and a glob's range (`[a-z]`)",
    ),
    (
        "crates/shell/src/motion/recipes/workspaces.rs",
        "a YAML list item (`- x`) in a workspace file",
    ),
    (
        "crates/shell/src/shell/values.rs",
        "a folder `cd` goes to (`cd -` is the previous one), and a word after a `cd` into a \
         folder the line made, whatever program takes it: one that starts with a dash is no \
         relative path inside it",
    ),
    (
        "crates/shell/src/lang/driver.rs",
        "a SQL comment (`-- note`)",
    ),
    (
        "crates/shell/src/lang/args.rs",
        "the decrement operator (`i--`) of interpreter code",
    ),
    (
        "crates/rules/src/rules/fs/find.rs",
        "find's expression starts at the first word that begins with a dash and is no \
         option of find's own: a primary the table does not know",
    ),
];

/// At most this many files outside the syntax crate look at a dash themselves.
const BUDGET: usize = 8;

/// What looking at a word's leading dash is spelled as.
const SPELLINGS: &[&str] = &[
    "starts_with('-')",
    "starts_with(\"-",
    "strip_prefix('-')",
    "strip_prefix(\"-",
    "Some('-')",
    "Some(b'-')",
    "[0] == b'-'",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The files, relative to the workspace, whose code (comments aside) has a spelling.
fn looking_at_dashes() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    for krate in ["shell", "rules"] {
        rust_files(&root.join("crates").join(krate).join("src"), &mut files);
    }
    let mut found: Vec<String> = files
        .into_iter()
        .filter(|file| {
            let text = std::fs::read_to_string(file).expect("a source file");
            text.lines()
                .filter(|line| !line.trim_start().starts_with("//"))
                .any(|line| {
                    SPELLINGS.iter().any(|s| line.contains(s))
                        || line.contains("starts_with([") && line.contains("'-'")
                })
        })
        .map(|file| {
            file.strip_prefix(root)
                .expect("under the workspace")
                .to_string_lossy()
                .replace('\\', "/")
        })
        .collect();
    found.sort();
    found
}

#[test]
fn options_are_read_by_the_argv_model() {
    let found = looking_at_dashes();
    let unlisted: Vec<&String> = found
        .iter()
        .filter(|file| !KEPT.iter().any(|(kept, _)| kept == file))
        .collect();
    assert!(
        unlisted.is_empty(),
        "these files read a word's leading dash themselves; read the program's options \
         through `syntax::argv` with a table of what they take: {unlisted:?}"
    );
    let stale: Vec<&str> = KEPT
        .iter()
        .map(|(kept, _)| *kept)
        .filter(|kept| !found.iter().any(|file| file == kept))
        .collect();
    assert!(stale.is_empty(), "no longer look at a dash: {stale:?}");
    assert!(KEPT.len() <= BUDGET, "{} files over {BUDGET}", KEPT.len());
}

#[test]
fn the_search_sees_a_dash_read() {
    assert!(
        looking_at_dashes()
            .iter()
            .any(|f| f == "crates/rules/src/rules/fs/find.rs")
    );
}
