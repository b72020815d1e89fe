//! Commands the guard cannot read: a program name built at run time, or input it could not
//! analyze in full.

use std::ops::Range;

use super::{Finding, Hit, Reading, Rule, Tier};
use crate::settings::Profile;
use crate::shell::{Incomplete, SimpleCommand, Via};

pub static DYNAMIC_COMMAND: Rule = Rule {
    id: "shell.dynamic-command",
    catches: "a command whose name is only known at run time (`$cmd x`, `$(echo rm) x`), in \
              the strict profile",
    why: "The guard cannot know what such a command runs, so in the strict profile it does \
          not vouch for it. In the standard profile the same command is stopped only when \
          its words would be destructive for `git`, `rm` or `find`, and then under that \
          rule's id (`$(printf r)m -rf /` is reported as fs.rm-recursive).",
    instead: "Write the program name literally (`rm`, `git`) so the command can be checked.",
    protected_when: None,
    strict_only: true,
    stops: &[
        "$cmd build",
        "$(echo rm) notes.txt",
        "\"$EDITOR\" notes.txt",
    ],
    passes: &["ls \"$dir\"", "echo $(date)", "git -C \"$repo\" status"],
};

pub static UNANALYZABLE: Rule = Rule {
    id: "shell.unanalyzable",
    catches: "a command line the guard could not analyze in full (over 1 MiB, scripts nested \
              too deep, too slow to parse, code handed to an interpreter or SQL handed to a \
              database client that could not be read to its end, a task runner's recipe that \
              could not be resolved, a script file the line runs that could not be read: \
              binary, over 256 KiB, or unreadable, or an internal error of the guard) that names \
              anything destructive",
    why: "Silence must never be read as safety: when part of the input was not seen and it \
          names a command, call or statement that destroys (`rm`, `git`, `find`, \
          `shutil.rmtree`, `fs.rmSync`, `Remove-Item`, `rd`, `DROP`, `TRUNCATE`, ...), the \
          guard stops it rather than guess. What names nothing of the kind passes.",
    instead: "Split the work into smaller commands, or write the script to a file and review it.",
    protected_when: None,
    strict_only: false,
    stops: &[],
    passes: &[],
};

/// Words that name something destructive, compared without regard to case: programs the
/// rules cover, the deleting calls the embedded-language readers lower to them, and the
/// verbs of destructive statements and subcommands. Only read when analysis fell short.
const DESTRUCTIVE_WORDS: &[&str] = &[
    // Programs and shell builtins.
    "rm",
    "rmdir",
    "unlink",
    "shred",
    "git",
    "find",
    "rsync",
    "rimraf",
    "dd",
    "mkfs",
    // Deleting calls in Python, JavaScript, Ruby, Perl, PHP, PowerShell and cmd.
    "rmtree",
    "remove_tree",
    "removedirs",
    "rmSync",
    "rmdirSync",
    "unlinkSync",
    "rm_rf",
    "rm_r",
    "Remove-Item",
    "rd",
    "del",
    "erase",
    // Statements and subcommands that destroy data.
    "drop",
    "truncate",
    "delete",
    "destroy",
    "purge",
];

/// Whether `text` names anything destructive: one of [`DESTRUCTIVE_WORDS`] as a whole word.
/// A coarse scan, not parsing, for input whose analysis fell short.
fn names_destructive(text: &str) -> bool {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .any(|w| DESTRUCTIVE_WORDS.iter().any(|d| d.eq_ignore_ascii_case(w)))
}

/// A command whose name is not literal.
pub(super) fn dynamic(cmd: &SimpleCommand, profile: Profile) -> Vec<Hit> {
    // Read the remaining words as each program they could plausibly be.
    for guess in ["git", "rm", "find"] {
        let hits = super::by_program(guess, cmd.args(), profile, Reading::Guessed);
        if !hits.is_empty() {
            return hits;
        }
    }
    if profile == Profile::Strict {
        return vec![
            Hit::new(
                &DYNAMIC_COMMAND,
                Tier::Destructive,
                format!(
                    "runs a program named only at run time (`{}`)",
                    cmd.argv.first().map_or("", |w| w.text.as_str())
                ),
            )
            .safer("write the program name literally so it can be checked"),
        ];
    }
    Vec::new()
}

/// The strict fallback when the command line was not analyzed in full: stop it if the text
/// that was not read so much as names something destructive. `unread` is the whole line, or
/// the code in it that was not read, whose command stands at `span`. This is a coarse word
/// scan, not parsing; it runs only when analysis fell short, where the alternative would be
/// to wave the command through.
pub fn unanalyzable(
    line: &str,
    span: Range<usize>,
    unread: &str,
    why: Incomplete,
) -> Option<Finding> {
    unanalyzable_because(line, span, unread, why.describe())
}

/// [`unanalyzable`], with `why` the analysis fell short in words.
pub fn unanalyzable_because(
    line: &str,
    span: Range<usize>,
    unread: &str,
    why: &str,
) -> Option<Finding> {
    names_destructive(unread).then(|| Finding {
        rule: &UNANALYZABLE,
        tier: Tier::Destructive,
        command: line
            .get(span.clone())
            .unwrap_or(line)
            .chars()
            .take(80)
            .collect(),
        loses: format!("could not be checked in full ({why}) and names a command that destroys"),
        safer: Some(SAFER.into()),
        recovery: None,
        span,
        via: Via::Direct,
        uncertain: false,
        inline_override: false,
        subject: super::Subject::Nothing,
        needs_confirmation: false,
        dirs: Vec::new(),
        env: Vec::new(),
        elsewhere: None,
        recipe: None,
        repeats: false,
    })
}

/// The same fallback for text a command hands a program that the program's reader could
/// not read to its end (SQL a database client runs), for the caller to raise when that text
/// names something destructive in the program's own terms; `why` says what was not read.
pub(crate) fn unread(why: &str) -> Hit {
    Hit::new(
        &UNANALYZABLE,
        Tier::Destructive,
        format!("could not be checked in full ({why}) and names a statement that destroys"),
    )
    .safer(SAFER)
}

const SAFER: &str = "split it into smaller commands, or put the script in a file and review it";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn destructive_names_are_whole_words_in_any_case() {
        for text in [
            "python3 -c \"import shutil; shutil.rmtree('build')\"",
            "node -e \"require('fs').rmSync('out', {recursive: true})\"",
            "pwsh -c 'Remove-Item -Recurse out'",
            "cmd /c \"RD /S /Q out\"",
            "psql -c 'DROP TABLE users'",
            "x; rm -rf build",
        ] {
            assert!(names_destructive(text), "{text}");
        }
        for text in [
            "python3 -c 'print(1)'",
            "echo firmware droplet purged-cache deleted",
            "ls -la src",
            "grep -r remove_item .",
        ] {
            assert!(!names_destructive(text), "{text}");
        }
    }
}
