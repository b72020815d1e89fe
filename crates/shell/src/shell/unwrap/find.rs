//! The commands `find -exec` and `fd -x` run for each file they find.

use super::{SimpleCommand, Via, Word};

/// The commands `find`'s `-exec`, `-execdir`, `-ok` and `-okdir` actions run, each carrying
/// the whole `find` as what feeds it. `None` when an action is never terminated by `;` or
/// `{} +`: find refuses the whole expression and runs nothing at all (not even a `-delete`
/// elsewhere in it). A word known only at run time could be the terminator, so it counts as
/// one could be there.
pub(super) fn find_execs(find: &SimpleCommand) -> Option<Vec<SimpleCommand>> {
    let mut execs = Vec::new();
    let mut words = find.args().iter();
    while let Some(word) = words.next() {
        if !matches!(word.text.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir") {
            continue;
        }
        let mut argv: Vec<Word> = Vec::new();
        let mut terminated = false;
        let mut unknown = false;
        for w in words.by_ref() {
            let ends =
                w.text == ";" || (w.text == "+" && argv.last().is_some_and(|l| l.text == "{}"));
            if ends {
                terminated = true;
                break;
            }
            unknown |= w.value().is_none();
            // `{}` stands for each file found: known only when find runs.
            let literal = w.literal && !w.text.contains("{}");
            argv.push(Word {
                text: w.text.clone(),
                literal,
                temp: None,
            });
        }
        if !terminated && !unknown {
            return None;
        }
        if !argv.is_empty() {
            execs.push(SimpleCommand {
                argv,
                assigns: Vec::new(),
                via: Via::FindExec,
                span: find.span.clone(),
                uncertain: true,
                dirs: find.dirs.clone(),
                redirects: Vec::new(),
                input: None,
                // The search that picks the files it runs on.
                fed_by: vec![find.argv.clone()],
                call: None,
                elsewhere: find.elsewhere.clone(),
                recipe: None,
            });
        }
    }
    Some(execs)
}

/// The commands `fd`'s `-x`/`--exec` and `-X`/`--exec-batch` run: each one's words up to a
/// `;` or the end of the line, a placeholder (`{}`, `{/}`, `{//}`, `{.}`, `{/.}`) standing for
/// each file found, or the files appended when it names none. Each carries the search it
/// runs for (fd's own words, without the commands) as what feeds it.
pub(super) fn fd_execs(fd: &SimpleCommand) -> Vec<SimpleCommand> {
    const PLACEHOLDERS: [&str; 5] = ["{}", "{/}", "{//}", "{.}", "{/.}"];
    let mut search: Vec<Word> = fd.argv.first().cloned().into_iter().collect();
    let mut commands: Vec<Vec<Word>> = Vec::new();
    let mut words = fd.args().iter();
    while let Some(word) = words.next() {
        if !matches!(word.text.as_str(), "-x" | "--exec" | "-X" | "--exec-batch") {
            search.push(word.clone());
            continue;
        }
        let mut argv: Vec<Word> = Vec::new();
        let mut placeholder = false;
        for w in words.by_ref() {
            if w.text == ";" {
                break;
            }
            let stands_for_file = PLACEHOLDERS.iter().any(|p| w.text.contains(p));
            placeholder |= stands_for_file;
            argv.push(Word {
                text: w.text.clone(),
                literal: w.literal && !stands_for_file,
                temp: None,
            });
        }
        if !argv.is_empty() {
            if !placeholder {
                argv.push(Word {
                    text: "{}".into(),
                    literal: false,
                    temp: None,
                });
            }
            commands.push(argv);
        }
    }
    commands
        .into_iter()
        .map(|argv| SimpleCommand {
            argv,
            assigns: Vec::new(),
            via: Via::FdExec,
            span: fd.span.clone(),
            uncertain: true,
            dirs: fd.dirs.clone(),
            redirects: Vec::new(),
            input: None,
            fed_by: vec![search.clone()],
            call: None,
            elsewhere: fd.elsewhere.clone(),
            recipe: None,
        })
        .collect()
}
