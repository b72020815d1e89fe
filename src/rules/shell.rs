//! Commands the guard cannot read: a program name built at run time, or input it could not
//! analyze in full.
#![deny(clippy::indexing_slicing)]

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
              too deep, or too slow to parse) that mentions a destructive command",
    why: "Silence must never be read as safety: when part of the input was not seen and it \
          mentions `rm`, `git` or `find`, the guard stops it rather than guess.",
    instead: "Split the work into smaller commands, or write the script to a file and review it.",
    protected_when: None,
    strict_only: false,
    stops: &[],
    passes: &[],
};

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

/// The strict fallback when the command line was not analyzed in full: stop it if its text
/// so much as names a program the rules cover. This is a coarse word scan, not parsing; it
/// runs only when parsing gave up, where the alternative would be to wave the command through.
pub fn unanalyzable(command: &str, why: Incomplete) -> Option<Finding> {
    let mentions = command
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .any(|w| matches!(w, "rm" | "git" | "find" | "unlink" | "shred"));
    mentions.then(|| Finding {
        rule: &UNANALYZABLE,
        tier: Tier::Destructive,
        command: command.chars().take(80).collect(),
        loses: format!(
            "could not be checked in full ({}) and mentions a command that deletes",
            why.describe()
        ),
        safer: Some(
            "split it into smaller commands, or put the script in a file and review it".into(),
        ),
        recovery: None,
        span: 0..command.len(),
        via: Via::Direct,
        uncertain: false,
        inline_override: false,
        subject: super::Subject::Nothing,
        needs_confirmation: false,
        dirs: Vec::new(),
        env: Vec::new(),
    })
}
