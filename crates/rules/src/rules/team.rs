//! The team's own rules (`[[deny]]`, `[[ask]]`) over one command, wherever the walker found
//! it. A command pattern reads the command's words; a path pattern reads the paths the
//! built-in rules already found the command deleting, writing over or moving (their
//! subjects), so a path has one reading whatever the spelling: `rm`, `find -delete`, a
//! redirect, `tee`, `cp`, `mv`, `shutil.rmtree`, `Remove-Item`, `git clean`, `rsync --delete`.
//! They only add findings; what the built-in rules found stands as it was.

use std::sync::Mutex;

use super::{GitSubject, Hit, Replaced, Rule, Subject, Tier, With};
use crate::settings::Settings;
use crate::shell::{SimpleCommand, Word};
use crate::team::{Glob, Pattern, Spelled, Stop, TeamRule, TeamRules};

/// The findings of the team's rules for `cmd`, whose built-in findings are `hits`.
pub(crate) fn check(cmd: &SimpleCommand, hits: &[Hit], settings: &Settings) -> Vec<Hit> {
    let team = &settings.team;
    if team.is_empty() {
        return Vec::new();
    }
    let mut found = Vec::new();
    let mut touched: Option<Vec<Touched>> = None;
    for rule in &team.rules {
        let hit = match &rule.pattern {
            Pattern::Command(pattern) => {
                let Some(program) = cmd.program() else {
                    continue;
                };
                let args: Vec<Spelled<'_>> = cmd.args().iter().map(spelled).collect();
                pattern.matches(program, &args).then(|| {
                    format!(
                        "matches the team's rule `command = \"{}\"` ({})",
                        pattern.text,
                        rule.origin()
                    )
                })
            }
            // Paths over there are another machine's (or a container's) own.
            Pattern::Path(_) if cmd.elsewhere.is_some() => None,
            Pattern::Path(pattern) => {
                let touched = touched.get_or_insert_with(|| paths_touched(cmd, hits, team));
                touched
                    .iter()
                    .find(|t| {
                        if t.whole {
                            pattern.reaches(team, &t.parts)
                        } else {
                            pattern.names(team, &t.parts)
                        }
                    })
                    .map(|t| {
                        format!(
                            "{} `{}`, which the team's rule `path = \"{}\"` ({}) keeps from agents",
                            t.verb,
                            t.shown,
                            pattern.text,
                            rule.origin()
                        )
                    })
            }
        };
        if let Some(what) = hit {
            let tier = match rule.stop {
                Stop::Deny => Tier::Protected,
                Stop::Ask => Tier::Ask,
            };
            let reason = rule.reason.trim_end_matches('.');
            found.push(Hit::new(declared(rule), tier, format!("{what}: {reason}")));
        }
    }
    found
}

fn spelled(word: &Word) -> Spelled<'_> {
    // An unquoted glob is not literal, but its text is the pattern the shell expands;
    // anything with an expansion in it is not known.
    let glob = !word.literal && !word.text.contains(['$', '`', '{']);
    Spelled {
        text: &word.text,
        known: word.literal || glob,
        glob,
    }
}

/// A path the command deletes, writes over or moves away.
struct Touched {
    parts: Vec<Glob>,
    /// With everything in it (a recursive delete, a folder moved away).
    whole: bool,
    verb: &'static str,
    shown: String,
}

fn paths_touched(cmd: &SimpleCommand, hits: &[Hit], team: &TeamRules) -> Vec<Touched> {
    let dirs: Vec<Spelled<'_>> = cmd.dirs.iter().map(spelled).collect();
    let mut out = Vec::new();
    let mut add = |word: &Word, whole: bool, verb: &'static str| {
        if let Some(parts) = team.resolve(&dirs, spelled(word)) {
            out.push(Touched {
                parts,
                whole,
                verb,
                shown: word.text.clone(),
            });
        }
    };
    for hit in hits {
        match &hit.subject {
            Subject::Paths(paths) => paths.iter().for_each(|p| add(p, true, "deletes")),
            Subject::Mirror(mirror) => add(&mirror.dest, true, "deletes files in"),
            Subject::Files(files) => {
                for file in files {
                    replaced(file, &mut add);
                }
            }
            Subject::Git { what, .. } => match what {
                GitSubject::Clean { dry_run } => {
                    let words: Vec<Word> = dry_run.iter().map(Word::literal).collect();
                    let named = super::git::clean_pathspecs(&words);
                    if named.is_empty() {
                        add(&Word::literal("."), true, "deletes untracked files in");
                    }
                    named.iter().for_each(|p| add(p, true, "deletes"));
                }
                GitSubject::Discard { paths } | GitSubject::Overwrite { paths, .. } => paths
                    .iter()
                    .for_each(|p| add(&Word::literal(p.as_str()), true, "writes over")),
                _ => {}
            },
            Subject::Nothing
            | Subject::WorkingCopy(_)
            | Subject::SqlFile { .. }
            | Subject::Database(_) => {}
        }
    }
    out
}

fn replaced(file: &Replaced, add: &mut impl FnMut(&Word, bool, &'static str)) {
    let verb = if file.with == With::Nothing {
        "deletes"
    } else {
        "writes over"
    };
    add(&file.path, false, verb);
    if let Some(name) = &file.into_folder
        && let Some(last) = name.text.rsplit('/').find(|p| !p.is_empty())
    {
        let inside = Word {
            text: format!("{}/{last}", file.path.text.trim_end_matches('/')),
            literal: file.path.literal && name.literal,
            temp: None,
        };
        add(&inside, false, verb);
    }
    if file.moves
        && let With::File(source) = &file.with
    {
        add(source, true, "moves away");
    }
}

/// The declaration a team rule's findings point at, made once per process for each distinct
/// rule: a finding names its rule as the built-in ones do.
fn declared(rule: &TeamRule) -> &'static Rule {
    static DECLARED: Mutex<Vec<(TeamRule, &'static Rule)>> = Mutex::new(Vec::new());
    let mut declared = match DECLARED.lock() {
        Ok(guard) => guard,
        Err(poisoned) => poisoned.into_inner(),
    };
    if let Some((_, made)) = declared.iter().find(|(r, _)| r == rule) {
        return made;
    }
    let leak = |text: String| -> &'static str { Box::leak(text.into_boxed_str()) };
    let made: &'static Rule = Box::leak(Box::new(Rule {
        id: leak(rule.id.clone()),
        catches: leak(format!(
            "`{} = \"{}\"`, the team's `[[{}]]` rule at {}",
            rule.pattern.key(),
            rule.pattern.text(),
            rule.stop.as_str(),
            rule.origin()
        )),
        why: leak(rule.reason.clone()),
        instead: leak(match rule.stop {
            Stop::Deny => "leave it to the user: the team rules it out for agents".to_string(),
            Stop::Ask => "the user decides; ask first".to_string(),
        }),
        protected_when: None,
        strict_only: false,
        stops: &[],
        passes: &[],
    }));
    declared.push((rule.clone(), made));
    made
}
