//! Codex's `apply_patch` text: which files it deletes and which it writes over.
//!
//! A patch is a list of file operations between `*** Begin Patch` and `*** End Patch`:
//! `*** Add File: <path>` (the lines after it are the file, so a file already there is
//! replaced), `*** Delete File: <path>`, and `*** Update File: <path>` with hunks, optionally
//! followed by `*** Move to: <path>` (the updated file lands there, replacing what was there).
//! Codex keeps no copy of what a patch removes, so these are judged as the shell commands
//! that do the same: `rm`, `mv` and a truncating redirect, which the context then weighs by
//! content and by whose work the file is. Hunks that edit a file in place lose nothing the
//! patch does not show, and stand for no command.

use crate::shell::word::quote;

/// The shell line that deletes and replaces what `patch` does, `None` when it only adds new
/// files and edits files in place (or is not a patch).
pub fn line(patch: &str) -> Option<String> {
    let mut commands = Vec::new();
    let mut updating: Option<&str> = None;
    for raw in patch.lines() {
        let line = raw.trim_end_matches('\r');
        if let Some(path) = op(line, "*** Delete File:") {
            commands.push(format!("rm -- {}", quote(path)));
        } else if let Some(path) = op(line, "*** Add File:") {
            commands.push(format!(": > {}", quote(path)));
        } else if let Some(to) = op(line, "*** Move to:") {
            if let Some(from) = updating.take() {
                commands.push(format!("mv -- {} {}", quote(from), quote(to)));
            }
            continue;
        }
        updating = op(line, "*** Update File:");
    }
    (!commands.is_empty()).then(|| commands.join("; "))
}

/// The files `patch` writes: those it adds, updates and moves to.
pub fn written(patch: &str) -> Vec<std::path::PathBuf> {
    patch
        .lines()
        .map(|l| l.trim_end_matches('\r'))
        .filter_map(|l| {
            op(l, "*** Add File:")
                .or_else(|| op(l, "*** Update File:"))
                .or_else(|| op(l, "*** Move to:"))
        })
        .map(std::path::PathBuf::from)
        .collect()
}

/// The path of a file operation line starting with `marker`.
fn op<'a>(line: &'a str, marker: &str) -> Option<&'a str> {
    line.strip_prefix(marker)
        .map(str::trim)
        .filter(|p| !p.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deletes_moves_and_adds_become_commands() {
        let patch = "*** Begin Patch\n*** Delete File: old.txt\n*** Update File: a.rs\n*** Move to: b.rs\n@@\n-x\n+y\n*** Add File: notes/new file.md\n+hello\n*** End Patch\n";
        assert_eq!(
            line(patch).as_deref(),
            Some("rm -- old.txt; mv -- a.rs b.rs; : > 'notes/new file.md'")
        );
    }

    #[test]
    fn edits_in_place_stand_for_nothing() {
        let patch = "*** Begin Patch\n*** Update File: src/main.rs\n@@ fn main\n-    a();\n+    b();\n*** End Patch";
        assert_eq!(line(patch), None);
        assert_eq!(line("not a patch"), None);
        assert_eq!(line("*** Delete File:   "), None);
    }

    #[test]
    fn a_move_names_the_file_the_update_began() {
        let patch = "*** Update File: a\n@@\n-1\n+2\n*** Update File: b\n*** Move to: c\n";
        assert_eq!(line(patch).as_deref(), Some("mv -- b c"));
    }
}
