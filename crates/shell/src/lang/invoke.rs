//! Which programs are interpreters, and where their code is on the command line: a code
//! argument (`-c`, `-e`, `-E`, `-r`, `-p`, `--eval`, `eval`, `-Command`, `-EncodedCommand`,
//! `/c`), standard input (`python3 -`, a bare `node` fed a heredoc), or a script file.

use super::Lang;
use crate::syntax::{Word, argv};

/// Where an interpreter's code comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Code {
    /// Given on the command line.
    Text(Word),
    /// Read from standard input.
    Stdin,
    /// The script file at this index of the argv (`python3 fix.py`, `node x.js`).
    File(usize),
    /// A module, or nothing that runs code (`--version`), or code this does not place.
    Elsewhere,
}

/// The language of an interpreter named `program` (a base name), if it is one. Called for
/// every command, so it compares without allocating.
pub fn language_of(program: &str) -> Option<Lang> {
    let name = match program
        .len()
        .checked_sub(4)
        .and_then(|at| program.get(at..))
    {
        Some(ext) if ext.eq_ignore_ascii_case(".exe") => &program[..program.len() - 4],
        _ => program,
    };
    let versioned = |stem: &str| {
        name.get(..stem.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(stem))
            && name[stem.len()..]
                .bytes()
                .all(|b| b.is_ascii_digit() || b == b'.')
    };
    let is = |other: &str| name.eq_ignore_ascii_case(other);
    Some(if versioned("python") || versioned("pypy") {
        Lang::Python
    } else if is("node") || is("nodejs") || is("deno") || is("bun") || is("tsx") || is("ts-node") {
        Lang::JavaScript
    } else if versioned("ruby") {
        Lang::Ruby
    } else if versioned("perl") {
        Lang::Perl
    } else if versioned("php") {
        Lang::Php
    } else if is("pwsh") || is("powershell") {
        Lang::PowerShell
    } else if is("cmd") {
        Lang::Cmd
    } else {
        return None;
    })
}

/// The language and code an interpreter command runs. `argv[0]` names the interpreter.
pub fn code_of(argv: &[Word]) -> Option<(Lang, Code)> {
    let program = argv
        .first()?
        .text
        .rsplit(['/', '\\'])
        .next()?
        .to_ascii_lowercase();
    let lang = language_of(&program)?;
    let args = argv.get(1..).unwrap_or_default();
    let code = match lang {
        Lang::JavaScript if program.starts_with("deno") => deno(args),
        Lang::JavaScript if program.starts_with("bun") => match node(args) {
            // `bun run x.ts`: bun's own `run` before the file.
            Code::File(0) if args.first().is_some_and(|w| w.text == "run") => {
                match node(args.get(1..).unwrap_or_default()) {
                    Code::File(at) => Code::File(at + 1),
                    other => other,
                }
            }
            other => other,
        },
        Lang::Python => short_options(args, "c", "WXQ", "m"),
        Lang::Ruby => short_options(args, "e", "rICEFx", ""),
        Lang::Perl => perl(args),
        Lang::Php => {
            let (lang, code) = php(args);
            return Some((lang, shifted(code)));
        }
        Lang::JavaScript => node(args),
        Lang::PowerShell => powershell(args),
        Lang::Cmd => cmd(args),
        Lang::PhpTagged => Code::Elsewhere,
    };
    Some((lang, shifted(code)))
}

/// The readers count from the first argument; the argv from the program.
fn shifted(code: Code) -> Code {
    match code {
        Code::File(at) => Code::File(at + 1),
        other => other,
    }
}

/// Joins several code arguments (`ruby -e a -e b`) as the interpreter does, one a line.
fn joined(parts: Vec<Word>) -> Option<Word> {
    if parts.is_empty() {
        return None;
    }
    Some(Word {
        literal: parts.iter().all(|w| w.literal),
        text: parts
            .iter()
            .map(|w| w.text.as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        temp: None,
    })
}

/// Interpreters with clustered short options (`python -vc CODE`, `ruby -we CODE`), read by
/// the shared argv model up to the script: `code` letters take the code, `value` letters a
/// value, `module` letters run something else.
fn short_options(args: &[Word], code: &str, value: &str, module: &str) -> Code {
    struct Letters<'s>(&'s str, &'s str);
    impl argv::Options for Letters<'_> {
        fn long(&self, _: &str) -> Option<argv::Takes> {
            Some(argv::Takes::Nothing)
        }
        fn short(&self, letter: char) -> Option<argv::Takes> {
            Some(if self.0.contains(letter) || self.1.contains(letter) {
                argv::Takes::Value
            } else {
                argv::Takes::Nothing
            })
        }
    }
    let read = argv::read_head(args, argv::Style::Getopt, &Letters(code, value));
    let mut parts = Vec::new();
    for opt in &read.opts {
        let letter = opt.name.chars().next().unwrap_or_default();
        match opt.spelling {
            argv::Spelling::Long if matches!(opt.name, "help" | "version") => {
                return Code::Elsewhere;
            }
            argv::Spelling::Long => {}
            argv::Spelling::Short if code.contains(letter) => {
                let Some(word) = opt.value_in(args) else {
                    continue;
                };
                parts.push(word);
                // Python's `-c` ends its options: what follows are the code's own arguments.
                if code == "c" {
                    break;
                }
            }
            argv::Spelling::Short if module.contains(letter) => return Code::Elsewhere,
            argv::Spelling::Short => {}
        }
    }
    if let Some(text) = joined(parts) {
        return Code::Text(text);
    }
    // No script: the code comes from standard input (`-` names it too).
    match read.stopped_at.map(|at| (at, args.get(at))) {
        None | Some((_, None)) => Code::Stdin,
        Some((_, Some(w))) if w.text == "-" => Code::Stdin,
        Some((at, Some(_))) => Code::File(at),
    }
}

/// `perl -e/-E CODE`, clusters like `-lne`, and options whose value is attached
/// (`-MFile::Path`, `-i.bak`, `-0777`).
fn perl(args: &[Word]) -> Code {
    struct Perl;
    impl argv::Options for Perl {
        fn long(&self, _: &str) -> Option<argv::Takes> {
            Some(argv::Takes::Nothing)
        }
        fn short(&self, letter: char) -> Option<argv::Takes> {
            Some(match letter {
                'e' | 'E' | 'I' | 'M' | 'm' => argv::Takes::Value,
                // An optional number, then more switches (`-lne`, `-0777ne`).
                'l' | '0' => argv::Takes::Number,
                'i' | 'x' | 'F' | 'C' | 'd' | 'D' => argv::Takes::Attached,
                _ => argv::Takes::Nothing,
            })
        }
    }
    let read = argv::read_head(args, argv::Style::Getopt, &Perl);
    let mut parts = Vec::new();
    for opt in &read.opts {
        match opt.name {
            "e" | "E" => parts.extend(opt.value_in(args)),
            "v" | "V" | "help" | "version" => return Code::Elsewhere,
            _ => {}
        }
    }
    if let Some(text) = joined(parts) {
        return Code::Text(text);
    }
    script_or_stdin(args, read.stopped_at)
}

/// The script file an interpreter's options stopped at, or standard input when there is
/// none or it is `-`.
fn script_or_stdin(args: &[Word], stopped_at: Option<usize>) -> Code {
    match stopped_at.map(|at| (at, args.get(at))) {
        Some((at, Some(w))) if w.text != "-" => Code::File(at),
        _ => Code::Stdin,
    }
}

/// `php -r CODE` (and the per-line `-B`/`-R`/`-E` codes); bare `php` reads a PHP file on
/// stdin, tags and all.
fn php(args: &[Word]) -> (Lang, Code) {
    struct Php;
    impl argv::Options for Php {
        fn long(&self, name: &str) -> Option<argv::Takes> {
            let valued = [
                "run",
                "process-begin",
                "process-code",
                "process-end",
                "define",
                "file",
            ];
            Some(if valued.contains(&name) {
                argv::Takes::Value
            } else {
                argv::Takes::Nothing
            })
        }
        fn short(&self, letter: char) -> Option<argv::Takes> {
            Some(if "rBREdczf".contains(letter) {
                argv::Takes::Value
            } else {
                argv::Takes::Nothing
            })
        }
    }
    let read = argv::read_head(args, argv::Style::Getopt, &Php);
    let mut parts = Vec::new();
    for opt in &read.opts {
        match opt.name {
            "r" | "B" | "R" | "E" | "run" | "process-begin" | "process-code" | "process-end" => {
                parts.extend(opt.value_in(args));
            }
            "f" | "file" | "S" | "a" | "v" | "h" | "i" | "m" | "version" | "help" => {
                return (Lang::Php, Code::Elsewhere);
            }
            _ => {}
        }
    }
    // A script file; after `--` (or a lone `-`) the code is read from standard input.
    let script = read.stopped_at.filter(|&at| {
        args.get(at).is_some_and(|w| w.text != "-")
            && at
                .checked_sub(1)
                .and_then(|before| args.get(before))
                .is_none_or(|w| w.text != "--")
    });
    match (joined(parts), script) {
        (Some(text), _) => (Lang::Php, Code::Text(text)),
        (None, Some(at)) => (Lang::Php, Code::File(at)),
        (None, None) => (Lang::PhpTagged, Code::Stdin),
    }
}

/// `node -e/--eval/-p/--print CODE`, `bun -e CODE`, `node -` and a bare `node` on stdin.
fn node(args: &[Word]) -> Code {
    // node spells `-pe` and `-ep` as words of their own; it has no clusters.
    const NODE: argv::Written = argv::Written {
        names: &[],
        valued: &[
            "-e",
            "--eval",
            "-p",
            "--print",
            "-pe",
            "-ep",
            "-r",
            "--require",
            "--import",
            "--loader",
            "--experimental-loader",
            "-C",
            "--conditions",
            "--input-type",
            "--env-file",
            "--cwd",
            "--preload",
            "--title",
        ],
    };
    let read = argv::read_head(args, argv::Style::Getopt, &NODE);
    for opt in &read.opts {
        match opt.name {
            "e" | "eval" | "p" | "print" | "pe" | "ep" => {
                return opt.value_in(args).map_or(Code::Elsewhere, Code::Text);
            }
            "v" | "version" | "h" | "help" | "c" | "check" => return Code::Elsewhere,
            _ => {}
        }
    }
    // A script file, or a bun subcommand (`bun run x`, `bun install`).
    script_or_stdin(args, read.stopped_at)
}

/// deno's options whose value is the next word; the others are flags, or take theirs
/// after `=` (`--allow-read=.`).
const DENO_VALUED: &[&str] = &[
    "c",
    "config",
    "import-map",
    "cert",
    "location",
    "seed",
    "L",
    "log-level",
    "ext",
    "preload",
];

/// `deno eval [options] CODE`, `deno run [options] FILE`, `deno run -`.
fn deno(args: &[Word]) -> Code {
    let Some((sub, rest)) = args.split_first() else {
        return Code::Elsewhere;
    };
    let read = argv::read_head(rest, argv::Style::Pflag, &argv::Valued(DENO_VALUED));
    let operand = read
        .stopped_at
        .and_then(|at| rest.get(at).map(|w| (at + 1, w)));
    match (sub.text.as_str(), operand) {
        ("eval", Some((_, code))) => Code::Text(code.clone()),
        ("run", Some((_, w))) if w.text == "-" => Code::Stdin,
        ("run", Some((at, _))) => Code::File(at),
        _ => Code::Elsewhere,
    }
}

/// What a `pwsh`/`powershell` parameter does, by the name written: any case, and shortened
/// as far as PowerShell takes it.
enum Param {
    /// `-Command`: every word after it is the command.
    Command,
    /// `-EncodedCommand BASE64`.
    Encoded,
    /// `-File SCRIPT`.
    File,
    /// Help, version, `-CommandWithArgs`: no code this places.
    Elsewhere,
    /// A parameter with a value (`-ExecutionPolicy Bypass`).
    Valued,
    Switch,
}

fn pwsh_param(name: &str) -> Param {
    const VALUE: &[&str] = &[
        "executionpolicy",
        "windowstyle",
        "inputformat",
        "outputformat",
        "workingdirectory",
        "configurationname",
        "custompipename",
        "version",
        "settingsfile",
        "psconsolefile",
        "encodedarguments",
    ];
    let param = name.to_ascii_lowercase();
    let prefix_of = |full: &str| !param.is_empty() && full.starts_with(param.as_str());
    if param == "c" || (param.len() >= 3 && prefix_of("command")) {
        Param::Command
    } else if matches!(param.as_str(), "e" | "ec" | "en" | "enc") || prefix_of("encodedcommand") {
        Param::Encoded
    } else if param == "f" || prefix_of("file") {
        Param::File
    } else if param == "cwa"
        || prefix_of("commandwithargs")
        || matches!(param.as_str(), "?" | "h" | "help" | "v")
    {
        Param::Elsewhere
    } else if VALUE
        .iter()
        .any(|full| *full == param || (param.len() >= 2 && full.starts_with(param.as_str())))
        || matches!(param.as_str(), "ex" | "ep" | "w" | "wd")
    {
        Param::Valued
    } else {
        Param::Switch
    }
}

/// `pwsh`/`powershell` parameters, which may be shortened and may start with `/` too.
fn powershell(args: &[Word]) -> Code {
    struct Pwsh;
    impl argv::Options for Pwsh {
        fn long(&self, name: &str) -> Option<argv::Takes> {
            Some(match pwsh_param(name) {
                Param::Encoded | Param::File | Param::Valued => argv::Takes::Value,
                _ => argv::Takes::Nothing,
            })
        }
        fn short(&self, _: char) -> Option<argv::Takes> {
            Some(argv::Takes::Nothing)
        }
    }
    let read = argv::read_head(args, argv::Style::PowerShell, &Pwsh);
    for opt in &read.opts {
        match pwsh_param(opt.name) {
            Param::Command => {
                return match args.get(opt.word + 1..).unwrap_or_default() {
                    [w, ..] if w.text == "-" => Code::Stdin,
                    rest @ [_, ..] => rest_as_command(rest),
                    [] => Code::Elsewhere,
                };
            }
            Param::Encoded => {
                let Some(encoded) = opt.value_in(args) else {
                    return Code::Elsewhere;
                };
                return match decode_utf16_base64(&encoded.text) {
                    Some(text) => Code::Text(Word {
                        text,
                        literal: encoded.literal,
                        temp: None,
                    }),
                    None => Code::Elsewhere,
                };
            }
            // A script named in a word of its own; `-File:x.ps1` is not placed.
            Param::File => {
                return match opt.value_word.filter(|&at| at > opt.word) {
                    Some(at) => Code::File(at),
                    None => Code::Elsewhere,
                };
            }
            Param::Elsewhere => return Code::Elsewhere,
            Param::Valued | Param::Switch => {}
        }
    }
    // A bare word: the command itself, unless it names a script.
    match read
        .stopped_at
        .map(|at| (at, args.get(at..).unwrap_or_default()))
    {
        Some((_, [w, ..])) if w.text == "-" => Code::Stdin,
        Some((at, [w, ..])) if w.text.to_ascii_lowercase().ends_with(".ps1") => Code::File(at),
        Some((_, rest @ [_, ..])) => rest_as_command(rest),
        _ => Code::Stdin,
    }
}

/// `-Command` takes every word after it, joined with spaces.
fn rest_as_command(words: &[Word]) -> Code {
    Code::Text(Word {
        text: words
            .iter()
            .map(|w| w.text.as_str())
            .collect::<Vec<_>>()
            .join(" "),
        literal: words.iter().all(|w| w.literal),
        temp: None,
    })
}

/// `cmd [/q /d /v:on ...] /c|/k COMMAND...`: the rest of the line is the command, its
/// first word attached to the switch too (`/cdir`).
fn cmd(args: &[Word]) -> Code {
    struct Cmd;
    impl argv::Options for Cmd {
        fn long(&self, _: &str) -> Option<argv::Takes> {
            Some(argv::Takes::Nothing)
        }
        fn short(&self, _: char) -> Option<argv::Takes> {
            Some(argv::Takes::Attached)
        }
    }
    let read = argv::read_head(args, argv::Style::Slash, &Cmd);
    let runs = |opt: &&argv::Opt| {
        ["c", "k", "r"]
            .iter()
            .any(|s| opt.name.eq_ignore_ascii_case(s))
    };
    if let Some(opt) = read.opts.iter().find(runs) {
        let mut words: Vec<Word> = opt.value_in(args).into_iter().collect();
        words.extend(args.iter().skip(opt.word + 1).cloned());
        return if words.is_empty() {
            Code::Elsewhere
        } else {
            rest_as_command(&words)
        };
    }
    match read.stopped_at {
        Some(_) => Code::Elsewhere,
        None => Code::Stdin,
    }
}

/// `-EncodedCommand`: base64 of the script in UTF-16LE.
pub(super) fn decode_utf16_base64(text: &str) -> Option<String> {
    let mut bits = 0u32;
    let mut count = 0;
    let mut bytes = Vec::with_capacity(text.len() * 3 / 4);
    for c in text.bytes() {
        let value = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => break,
            c if c.is_ascii_whitespace() => continue,
            _ => return None,
        };
        bits = (bits << 6) | u32::from(value);
        count += 6;
        if count >= 8 {
            count -= 8;
            bytes.push((bits >> count) as u8);
            bits &= (1 << count) - 1;
        }
    }
    if bytes.len() % 2 != 0 {
        return None;
    }
    let units: Vec<u16> = bytes
        .chunks_exact(2)
        .filter_map(|pair| match *pair {
            [low, high] => Some(u16::from_le_bytes([low, high])),
            _ => None,
        })
        .collect();
    String::from_utf16(&units).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<Word> {
        line.split(' ').map(Word::literal).collect()
    }

    fn code(line: &str) -> Option<(Lang, Code)> {
        code_of(&words(line))
    }

    fn text(line: &str) -> String {
        match code(line) {
            Some((_, Code::Text(w))) => w.text,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn code_arguments() {
        assert_eq!(text("python3 -c X"), "X");
        assert_eq!(text("python -vc X"), "X");
        assert_eq!(text("python -cX"), "X");
        assert_eq!(text("python3.11 -W ignore -c X"), "X");
        assert_eq!(text("node -e X"), "X");
        assert_eq!(text("node --eval=X"), "X");
        assert_eq!(text("node -pe X"), "X");
        assert_eq!(text("bun -e X"), "X");
        assert_eq!(text("deno eval --quiet X"), "X");
        assert_eq!(text("ruby -rfileutils -e X"), "X");
        assert_eq!(text("ruby -we X"), "X");
        assert_eq!(text("ruby -e X -e Y"), "X\nY");
        assert_eq!(text("perl -MFile::Path -lne X"), "X");
        assert_eq!(text("perl -E X"), "X");
        assert_eq!(text("php -r X"), "X");
        assert_eq!(text("php -d memory_limit=1G -rX"), "X");
        assert_eq!(text("php -B A -R X"), "A\nX");
        assert_eq!(
            text("pwsh -NoProfile -Command Remove-Item x"),
            "Remove-Item x"
        );
        assert_eq!(text("powershell.exe -c X"), "X");
        assert_eq!(text("powershell X Y"), "X Y");
        assert_eq!(text("cmd /c rd /s x"), "rd /s x");
        assert_eq!(text("cmd.exe /q /C del x"), "del x");
        assert_eq!(text("cmd /v:on /cdel x"), "del x");
        assert_eq!(text("perl -0777ne X"), "X");
        assert_eq!(text("perl -i.bak -pe X"), "X");
        assert_eq!(text("node -r dotenv/config -e X"), "X");
        assert_eq!(text("pwsh /nop -ex Bypass --command X"), "X");
    }

    #[test]
    fn stdin_and_elsewhere() {
        assert_eq!(code("python3 -"), Some((Lang::Python, Code::Stdin)));
        assert_eq!(code("python3"), Some((Lang::Python, Code::Stdin)));
        assert_eq!(code("node"), Some((Lang::JavaScript, Code::Stdin)));
        assert_eq!(code("php"), Some((Lang::PhpTagged, Code::Stdin)));
        assert_eq!(code("php -- a"), Some((Lang::PhpTagged, Code::Stdin)));
        assert_eq!(code("php x.php -r y"), Some((Lang::Php, Code::File(1))));
        assert_eq!(
            code("python3 script.py -c x"),
            Some((Lang::Python, Code::File(1)))
        );
        assert_eq!(
            code("python -m pytest"),
            Some((Lang::Python, Code::Elsewhere))
        );
        assert_eq!(
            code("node server.js"),
            Some((Lang::JavaScript, Code::File(1)))
        );
        assert_eq!(
            code("pwsh -File x.ps1"),
            Some((Lang::PowerShell, Code::File(2)))
        );
        assert_eq!(code("bun install"), Some((Lang::JavaScript, Code::File(1))));
        assert_eq!(code("perl -w tidy.pl x"), Some((Lang::Perl, Code::File(2))));
        assert_eq!(
            code("deno run -A --quiet main.ts"),
            Some((Lang::JavaScript, Code::File(4)))
        );
        assert_eq!(
            code("bun run --smol x.ts"),
            Some((Lang::JavaScript, Code::File(3)))
        );
        assert_eq!(code("tsx seed.ts"), Some((Lang::JavaScript, Code::File(1))));
        assert_eq!(
            code("deno run --config deno.json main.ts"),
            Some((Lang::JavaScript, Code::File(4)))
        );
        assert_eq!(code("perl -l -- x.pl"), Some((Lang::Perl, Code::File(3))));
        assert_eq!(code("cmd /q dir"), Some((Lang::Cmd, Code::Elsewhere)));
        assert_eq!(code("pythonista"), None);
        assert_eq!(code("nodemon"), None);
    }

    #[test]
    fn encoded_commands() {
        // "rm x" in UTF-16LE.
        assert_eq!(decode_utf16_base64("cgBtACAAeAA=").as_deref(), Some("rm x"));
        assert_eq!(decode_utf16_base64("not base64!"), None);
        assert_eq!(text("pwsh -enc cgBtACAAeAA="), "rm x");
    }
}
