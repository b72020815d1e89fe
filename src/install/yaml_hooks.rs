//! Our hooks in Hermes Agent's `config.yaml`: a top-level `hooks:` block with one entry under
//! `pre_tool_call` and one under `post_tool_call`, both for the `terminal` tool.
//!
//! There is no YAML editor that keeps a file's comments and layout, so the block is text that
//! install appends and uninstall cuts out line for line; the rest of the file is never touched.
//! A file that already has a `hooks:` section is not merged into: install names the lines to
//! add there by hand rather than guess at the section's indentation.

use super::{Located, Outcome, Removal};

/// The events our block registers, in the order it lists them.
const EVENTS: [&str; 2] = ["pre_tool_call", "post_tool_call"];

/// Our block for `command_line`. The command is a double-quoted YAML string: a path in single
/// quotes would otherwise start a quoted scalar.
pub fn block(command_line: &str) -> String {
    let mut text = String::from("hooks:\n");
    for event in EVENTS {
        text.push_str(&format!(
            "  {event}:\n    - matcher: terminal\n      command: {}\n      timeout: 30\n",
            quote(command_line)
        ));
    }
    text
}

fn quote(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

fn unquote(s: &str) -> Option<String> {
    let inner = s.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push(chars.next()?),
            c => out.push(c),
        }
    }
    Some(out)
}

/// The first line of our block in `text`, and its command: the `hooks:` line followed by
/// exactly the lines [`block`] writes.
fn find(text: &str, ours: &dyn Fn(&str) -> bool) -> Option<(usize, String)> {
    let lines: Vec<&str> = text.lines().collect();
    lines.iter().enumerate().find_map(|(at, line)| {
        if *line != "hooks:" {
            return None;
        }
        let command = lines
            .get(at + 3)?
            .trim()
            .strip_prefix("command: ")
            .and_then(unquote)?;
        let expected = block(&command);
        let here: Vec<&str> = lines.get(at..at + expected.lines().count())?.to_vec();
        (ours(&command) && here == expected.lines().collect::<Vec<_>>()).then_some((at, command))
    })
}

/// The commands of our block.
pub fn commands(text: &str, ours: &dyn Fn(&str) -> bool) -> Vec<String> {
    find(text, ours).map(|(_, c)| c).into_iter().collect()
}

/// The file with our block appended, or its command updated.
pub fn install(
    text: Option<&str>,
    command_line: &str,
    ours: &dyn Fn(&str) -> bool,
) -> Result<(String, Outcome), Located> {
    let Some(text) = text.filter(|t| !t.trim().is_empty()) else {
        return Ok((block(command_line), Outcome::Created));
    };
    if let Some((_, current)) = find(text, ours) {
        return Ok(match current == command_line {
            true => (text.to_string(), Outcome::AlreadyThere),
            false => (
                text.replace(&block(&current), &block(command_line)),
                Outcome::Updated,
            ),
        });
    }
    if let Some(at) = text
        .lines()
        .position(|line| line.trim_end() == "hooks:" || line.starts_with("hooks:"))
    {
        return Err(Located {
            line: at + 1,
            column: 1,
            message: format!(
                "already has a `hooks:` section; add to it by hand:\n{}",
                block(command_line)
                    .lines()
                    .skip(1)
                    .collect::<Vec<_>>()
                    .join("\n")
            ),
        });
    }
    let separator = match text.ends_with('\n') {
        true => "\n",
        false => "\n\n",
    };
    Ok((
        format!("{text}{separator}{}", block(command_line)),
        Outcome::Added,
    ))
}

/// The file without our block; a file that held only the block is deleted.
pub fn uninstall(text: &str, ours: &dyn Fn(&str) -> bool) -> Removal {
    let Some((at, command)) = find(text, ours) else {
        return Removal::NotThere;
    };
    if text == block(&command) {
        return Removal::DeleteFile;
    }
    let count = block(&command).lines().count();
    let lines: Vec<&str> = text.lines().collect();
    let mut kept: Vec<&str> = lines.get(..at).unwrap_or_default().to_vec();
    // The blank line install put before the block goes with it.
    if at + count == lines.len() && kept.last() == Some(&"") {
        kept.pop();
    }
    kept.extend(lines.get(at + count..).unwrap_or_default());
    let mut out = kept.join("\n");
    if text.ends_with('\n') && !out.is_empty() {
        out.push('\n');
    }
    Removal::Text(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ours(c: &str) -> bool {
        c.contains("agent-guard")
    }

    const COMMAND: &str = "'/opt/my tools/agent-guard' hook --host hermes";

    #[test]
    fn install_then_uninstall_is_the_original() {
        let original = "# mine\nmodel:\n  default: x\nterminal:\n  cwd: .\n";
        let (installed, outcome) = install(Some(original), COMMAND, &ours).unwrap();
        assert_eq!(outcome, Outcome::Added);
        assert!(installed.starts_with(original), "{installed}");
        assert!(
            installed.contains(
                "\nhooks:\n  pre_tool_call:\n    - matcher: terminal\n      command: \"'/opt/my tools/agent-guard' hook --host hermes\"\n      timeout: 30\n  post_tool_call:\n"
            ),
            "{installed}"
        );
        assert_eq!(commands(&installed, &ours), [COMMAND]);
        assert_eq!(
            install(Some(&installed), COMMAND, &ours).unwrap(),
            (installed.clone(), Outcome::AlreadyThere)
        );
        let moved = "/bin/agent-guard hook --host hermes";
        let (updated, outcome) = install(Some(&installed), moved, &ours).unwrap();
        assert_eq!(outcome, Outcome::Updated);
        assert_eq!(commands(&updated, &ours), [moved]);
        assert_eq!(
            uninstall(&updated, &ours),
            Removal::Text(original.to_string())
        );
    }

    #[test]
    fn a_file_of_ours_alone_is_deleted_and_a_hooks_section_is_not_merged_into() {
        let (created, outcome) = install(None, COMMAND, &ours).unwrap();
        assert_eq!(outcome, Outcome::Created);
        assert_eq!(uninstall(&created, &ours), Removal::DeleteFile);
        let theirs = "model: x\nhooks:\n  on_session_start:\n    - command: notify\n";
        let err = install(Some(theirs), COMMAND, &ours).unwrap_err();
        assert_eq!(err.line, 2);
        assert!(err.message.contains("pre_tool_call:"), "{}", err.message);
        assert_eq!(uninstall(theirs, &ours), Removal::NotThere);
    }

    #[test]
    fn a_quoted_command_reads_back_as_written() {
        let command = r#"C:/a\b "c"/agent-guard.exe hook --host hermes"#;
        let (text, _) = install(None, command, &ours).unwrap();
        assert_eq!(commands(&text, &ours), [command]);
    }
}
