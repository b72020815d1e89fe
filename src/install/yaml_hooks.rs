//! Our hooks in Hermes Agent's `config.yaml`: a top-level `hooks:` block with one entry under
//! `pre_tool_call` and one under `post_tool_call`, each with the tools install was asked for.
//!
//! There is no YAML editor that keeps a file's comments and layout, so the block is text that
//! install appends and uninstall cuts out line for line; the rest of the file is never touched.
//! A file that already has a `hooks:` section is not merged into: install names the lines to
//! add there by hand rather than guess at the section's indentation.

use super::{Located, Outcome, Removal};

/// The events our block registers, in the order it lists them.
const EVENTS: [&str; 2] = ["pre_tool_call", "post_tool_call"];

/// The tools each of our entries is for: Hermes tests a matcher as a regular expression
/// against the whole tool name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Matchers {
    pub before: &'static str,
    pub after: &'static str,
}

/// Our block for `command_line`. The command and the matchers are double-quoted YAML strings:
/// a path in single quotes would otherwise start a quoted scalar, and a matcher holds `|` and
/// `*`.
pub fn block(command_line: &str, matchers: Matchers) -> String {
    let mut text = String::from("hooks:\n");
    for (event, matcher) in EVENTS.into_iter().zip([matchers.before, matchers.after]) {
        text.push_str(&format!(
            "  {event}:\n    - matcher: {}\n      command: {}\n      timeout: 30\n",
            quote(matcher),
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

/// Our block in `text`: where it starts, its command, and the block as it stands. Its lines
/// are the ones [`block`] writes, whatever tools the matchers name (an earlier install may have
/// been asked for others, or written the bare `terminal` of earlier releases).
fn find(text: &str, ours: &dyn Fn(&str) -> bool) -> Option<(usize, String, String)> {
    let lines: Vec<&str> = text.lines().collect();
    lines.iter().enumerate().find_map(|(at, line)| {
        if *line != "hooks:" {
            return None;
        }
        let here = lines.get(at..at + 1 + 4 * EVENTS.len())?;
        let [_, _, _, command_line, ..] = here else {
            return None;
        };
        let command = command_line
            .trim()
            .strip_prefix("command: ")
            .and_then(unquote)?;
        let matcher = |line: &str| {
            let value = line.strip_prefix("    - matcher: ")?;
            unquote(value).or_else(|| (!value.contains([' ', '"'])).then(|| value.to_string()))
        };
        let entries = here.get(1..).unwrap_or_default().chunks_exact(4);
        let shaped = entries.zip(EVENTS).all(|(entry, event)| {
            let [name, matched, command_at, timeout] = entry else {
                return false;
            };
            *name == format!("  {event}:")
                && matcher(matched).is_some_and(|m| !m.is_empty())
                && *command_at == format!("      command: {}", quote(&command))
                && *timeout == "      timeout: 30"
        });
        (ours(&command) && shaped).then(|| {
            let mut block = here.join("\n");
            block.push('\n');
            (at, command, block)
        })
    })
}

/// The commands of our block.
pub fn commands(text: &str, ours: &dyn Fn(&str) -> bool) -> Vec<String> {
    find(text, ours).map(|(_, c, _)| c).into_iter().collect()
}

/// The file with our block appended, or its command updated.
pub fn install(
    text: Option<&str>,
    command_line: &str,
    matchers: Matchers,
    ours: &dyn Fn(&str) -> bool,
) -> Result<(String, Outcome), Located> {
    let ours_now = block(command_line, matchers);
    let Some(text) = text.filter(|t| !t.trim().is_empty()) else {
        return Ok((ours_now, Outcome::Created));
    };
    if let Some((at, _, current)) = find(text, ours) {
        if current == ours_now {
            return Ok((text.to_string(), Outcome::AlreadyThere));
        }
        let lines: Vec<&str> = text.lines().collect();
        let mut kept: Vec<&str> = lines.get(..at).unwrap_or_default().to_vec();
        kept.extend(ours_now.lines());
        kept.extend(
            lines
                .get(at + current.lines().count()..)
                .unwrap_or_default(),
        );
        let mut updated = kept.join("\n");
        if text.ends_with('\n') {
            updated.push('\n');
        }
        return Ok((updated, Outcome::Updated));
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
                ours_now.lines().skip(1).collect::<Vec<_>>().join("\n")
            ),
        });
    }
    let separator = match text.ends_with('\n') {
        true => "\n",
        false => "\n\n",
    };
    Ok((format!("{text}{separator}{ours_now}"), Outcome::Added))
}

/// The file without our block; a file that held only the block is deleted.
pub fn uninstall(text: &str, ours: &dyn Fn(&str) -> bool) -> Removal {
    let Some((at, _, block)) = find(text, ours) else {
        return Removal::NotThere;
    };
    if text == block {
        return Removal::DeleteFile;
    }
    let count = block.lines().count();
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
    const SHELL: Matchers = Matchers {
        before: "terminal|mcp__.*",
        after: "terminal",
    };

    #[test]
    fn install_then_uninstall_is_the_original() {
        let original = "# mine\nmodel:\n  default: x\nterminal:\n  cwd: .\n";
        let (installed, outcome) = install(Some(original), COMMAND, SHELL, &ours).unwrap();
        assert_eq!(outcome, Outcome::Added);
        assert!(installed.starts_with(original), "{installed}");
        assert!(
            installed.contains(
                "\nhooks:\n  pre_tool_call:\n    - matcher: \"terminal|mcp__.*\"\n      command: \"'/opt/my tools/agent-guard' hook --host hermes\"\n      timeout: 30\n  post_tool_call:\n"
            ),
            "{installed}"
        );
        assert_eq!(commands(&installed, &ours), [COMMAND]);
        assert_eq!(
            install(Some(&installed), COMMAND, SHELL, &ours).unwrap(),
            (installed.clone(), Outcome::AlreadyThere)
        );
        let moved = "/bin/agent-guard hook --host hermes";
        let (updated, outcome) = install(Some(&installed), moved, SHELL, &ours).unwrap();
        assert_eq!(outcome, Outcome::Updated);
        assert_eq!(commands(&updated, &ours), [moved]);
        assert_eq!(
            uninstall(&updated, &ours),
            Removal::Text(original.to_string())
        );
    }

    #[test]
    fn a_file_of_ours_alone_is_deleted_and_a_hooks_section_is_not_merged_into() {
        let (created, outcome) = install(None, COMMAND, SHELL, &ours).unwrap();
        assert_eq!(outcome, Outcome::Created);
        assert_eq!(uninstall(&created, &ours), Removal::DeleteFile);
        let theirs = "model: x\nhooks:\n  on_session_start:\n    - command: notify\n";
        let err = install(Some(theirs), COMMAND, SHELL, &ours).unwrap_err();
        assert_eq!(err.line, 2);
        assert!(err.message.contains("pre_tool_call:"), "{}", err.message);
        assert_eq!(uninstall(theirs, &ours), Removal::NotThere);
    }

    #[test]
    fn a_block_with_other_tools_is_ours_and_is_rewritten_for_the_tools_asked_for() {
        let earlier = format!(
            "model: x\n\nhooks:\n  pre_tool_call:\n    - matcher: terminal\n      command: {q}\n      timeout: 30\n  post_tool_call:\n    - matcher: terminal\n      command: {q}\n      timeout: 30\n",
            q = quote(COMMAND)
        );
        assert_eq!(commands(&earlier, &ours), [COMMAND]);
        let files = Matchers {
            before: "terminal|write_file|patch|mcp__.*",
            after: "terminal|write_file|patch",
        };
        let (updated, outcome) = install(Some(&earlier), COMMAND, files, &ours).unwrap();
        assert_eq!(outcome, Outcome::Updated);
        assert!(updated.starts_with("model: x\n\nhooks:\n"), "{updated}");
        assert!(updated.ends_with(&block(COMMAND, files)), "{updated}");
        assert_eq!(
            uninstall(&earlier, &ours),
            Removal::Text("model: x\n".into())
        );
        assert_eq!(
            uninstall(&updated, &ours),
            Removal::Text("model: x\n".into())
        );
    }

    #[test]
    fn a_quoted_command_reads_back_as_written() {
        let command = r#"C:/a\b "c"/agent-guard.exe hook --host hermes"#;
        let (text, _) = install(None, command, SHELL, &ours).unwrap();
        assert_eq!(commands(&text, &ours), [command]);
    }
}
