//! find: `-delete` and `-exec rm` with nothing narrowing what matches.

use super::{Hit, Rule, Subject, Tier};
use crate::shell::Word;

pub static FIND_DELETE: Rule = Rule {
    id: "fs.find-delete",
    catches: "`find -delete`, or `-exec`/`-execdir`/`-ok rm`, with no test narrowing the match",
    why: "With no `-name`, `-path`, `-newer`, `-empty`-style test, find matches every file \
          under its starting points, so `find . -delete` is `rm -rf .` spelled differently.",
    instead: "Narrow it and look first: `find . -name '*.pyc' -print`, then the same with \
              `-delete`.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "find . -delete",
        "find build -depth -delete",
        "find . -exec rm -f {} \\;",
        "find . -delete -name '*.o'",
    ],
    passes: &[
        "find . -name '*.pyc' -delete",
        "find . -empty -delete",
        "find . -name '*.txt' -exec rm {} \\;",
        "find . -print",
        "find . -exec grep -l x {} +",
        "find . -type l ! -exec test -e {} \\; -delete",
    ],
};

/// Tests that take one argument; the argument is never an action.
const TESTS_WITH_VALUE: &[&str] = &[
    "-name",
    "-iname",
    "-path",
    "-ipath",
    "-wholename",
    "-iwholename",
    "-regex",
    "-iregex",
    "-lname",
    "-ilname",
    "-newer",
    "-anewer",
    "-cnewer",
    "-mtime",
    "-mmin",
    "-atime",
    "-amin",
    "-ctime",
    "-cmin",
    "-used",
    "-size",
    "-user",
    "-group",
    "-uid",
    "-gid",
    "-perm",
    "-inum",
    "-samefile",
    "-links",
    "-type",
    "-xtype",
    "-fstype",
    "-maxdepth",
    "-mindepth",
    "-regextype",
    "-printf",
    "-fprint",
    "-fprint0",
    "-fls",
    "-context",
    "-files0-from",
];

/// Tests that restrict which files match (unlike `-type f` or `-maxdepth`).
fn narrows(test: &str) -> bool {
    matches!(
        test,
        "-name"
            | "-iname"
            | "-path"
            | "-ipath"
            | "-wholename"
            | "-iwholename"
            | "-regex"
            | "-iregex"
            | "-lname"
            | "-ilname"
            | "-anewer"
            | "-cnewer"
            | "-mtime"
            | "-mmin"
            | "-atime"
            | "-amin"
            | "-ctime"
            | "-cmin"
            | "-used"
            | "-size"
            | "-user"
            | "-group"
            | "-uid"
            | "-gid"
            | "-perm"
            | "-inum"
            | "-samefile"
            | "-links"
            | "-empty"
            | "-nouser"
            | "-nogroup"
    ) || test.starts_with("-newer")
}

pub(super) fn check(args: &[Word]) -> Option<Hit> {
    let mut narrowed = false;
    let mut deletes = false;
    let mut starts: Vec<&Word> = Vec::new();
    let mut in_expression = false;
    let mut i = 0;
    while let Some(word) = args.get(i) {
        let w = word.text.as_str();
        i += 1;
        if w == "-f" && !in_expression {
            starts.extend(args.get(i));
            i += 1;
            continue;
        }
        if !in_expression && !w.starts_with('-') && !matches!(w, "(" | "!") {
            starts.push(word);
            continue;
        }
        in_expression = true;
        if narrows(w) {
            narrowed = true;
        }
        if TESTS_WITH_VALUE.contains(&w) || w.starts_with("-newer") {
            i += if w == "-fprintf" { 2 } else { 1 };
            continue;
        }
        match w {
            // Tests only narrow the actions that come after them.
            "-delete" => deletes |= !narrowed,
            "-exec" | "-execdir" | "-ok" | "-okdir" => {
                let program = args
                    .get(i)
                    .and_then(|w| w.value())
                    .map(|p| p.rsplit('/').next().unwrap_or(p));
                let removes = program == Some("rm");
                deletes |= removes && !narrowed;
                let mut terminator = "";
                while let Some(next) = args.get(i) {
                    i += 1;
                    let prev_braces = i >= 2 && args[i - 2].text == "{}";
                    if next.text == ";" || (next.text == "+" && prev_braces) {
                        terminator = if next.text == ";" { ";" } else { "+" };
                        break;
                    }
                }
                // `-exec grep -q x {} ;` is a test: only files it succeeds on go further.
                narrowed |= !removes && terminator == ";";
            }
            _ => {}
        }
    }
    if !deletes {
        return None;
    }
    let here = Word::literal(".");
    let starts = if starts.is_empty() {
        vec![&here]
    } else {
        starts
    };
    let shown: Vec<&str> = starts.iter().map(|w| w.text.as_str()).collect();
    let preview: Vec<String> = std::iter::once("find".to_string())
        .chain(shown.iter().map(|s| crate::shell::word::quote(s)))
        .chain(["-name", "'<pattern>'", "-print"].map(String::from))
        .collect();
    Some(
        Hit::new(
            &FIND_DELETE,
            Tier::Destructive,
            format!(
                "deletes every file under {}, since no test narrows the match",
                super::git::list(shown.iter().copied())
            ),
        )
        .safer(format!(
            "`{}` to see what matches, then add `-delete`",
            preview.join(" ")
        ))
        .recovery("none for files git does not track")
        .about(Subject::Paths(starts.into_iter().cloned().collect())),
    )
}
