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
    let mut parts = Vec::new();
    let mut i = 0;
    while let Some(word) = args.get(i) {
        let w = word.text.as_str();
        i += 1;
        if w == "-" {
            return Code::Stdin;
        }
        if w == "--" {
            break;
        }
        if matches!(w, "--help" | "--version" | "-v" | "-V") {
            return Code::Elsewhere;
        }
        let Some(cluster) = w.strip_prefix('-').filter(|c| !c.is_empty()) else {
            return joined(parts).map_or(Code::File(i - 1), Code::Text);
        };
        let mut digits_end = 0;
        for (at, c) in cluster.char_indices() {
            if at < digits_end {
                continue;
            }
            let rest = &cluster[at + c.len_utf8()..];
            match c {
                // `-l`, `-0`: an optional number, then more switches (`-lne`, `-0777ne`).
                'l' | '0' => {
                    digits_end = at
                        + 1
                        + rest
                            .find(|d: char| !d.is_ascii_hexdigit() && d != 'x')
                            .unwrap_or(rest.len());
                    if c == 'l' {
                        digits_end = at
                            + 1
                            + rest
                                .find(|d: char| !d.is_ascii_digit())
                                .unwrap_or(rest.len());
                    }
                }
                'e' | 'E' => {
                    if rest.is_empty() {
                        parts.extend(args.get(i).cloned());
                        i += 1;
                    } else {
                        parts.push(Word {
                            text: rest.to_string(),
                            literal: word.literal,
                            temp: None,
                        });
                    }
                    break;
                }
                'I' | 'M' | 'm' if rest.is_empty() => {
                    i += 1;
                    break;
                }
                'I' | 'M' | 'm' | 'i' | 'x' | 'F' | 'C' | 'd' | 'D' => break,
                _ => {}
            }
        }
    }
    match joined(parts) {
        Some(text) => Code::Text(text),
        None => Code::Stdin,
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
    const VALUE: &[&str] = &[
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
    ];
    let mut i = 0;
    while let Some(word) = args.get(i) {
        let w = word.text.as_str();
        i += 1;
        if let Some(code) = w
            .strip_prefix("--eval=")
            .or_else(|| w.strip_prefix("--print="))
        {
            return Code::Text(Word {
                text: code.to_string(),
                literal: word.literal,
                temp: None,
            });
        }
        match w {
            "-e" | "--eval" | "-p" | "--print" | "-pe" | "-ep" => {
                return args.get(i).cloned().map_or(Code::Elsewhere, Code::Text);
            }
            "-" => return Code::Stdin,
            "--" => break,
            "-v" | "--version" | "-h" | "--help" | "-c" | "--check" => return Code::Elsewhere,
            _ if VALUE.contains(&w) => i += 1,
            _ if w.starts_with('-') => {}
            // A script file, or a bun subcommand (`bun run x`, `bun install`).
            _ => return Code::File(i - 1),
        }
    }
    Code::Stdin
}

/// `deno eval [options] CODE`, `deno run -`.
fn deno(args: &[Word]) -> Code {
    match args.first().map(|w| w.text.as_str()) {
        Some("eval") => args
            .iter()
            .skip(1)
            .find(|w| !w.text.starts_with('-'))
            .cloned()
            .map_or(Code::Elsewhere, Code::Text),
        Some("run") if args.last().is_some_and(|w| w.text == "-") => Code::Stdin,
        // `deno run [options] FILE`: options with a value are written `--opt=value`.
        Some("run") => args
            .iter()
            .skip(1)
            .position(|w| !w.text.starts_with('-'))
            .map_or(Code::Elsewhere, |at| Code::File(at + 1)),
        _ => Code::Elsewhere,
    }
}

/// `pwsh`/`powershell` parameters, which may be shortened and may start with `/` too.
fn powershell(args: &[Word]) -> Code {
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
    let mut i = 0;
    while let Some(word) = args.get(i) {
        let w = word.text.as_str();
        i += 1;
        let Some(param) = w.strip_prefix('-').or_else(|| w.strip_prefix('/')) else {
            // A bare word: the command itself, unless it names a script.
            if w.to_ascii_lowercase().ends_with(".ps1") {
                return Code::File(i - 1);
            }
            return rest_as_command(args.get(i - 1..).unwrap_or_default());
        };
        let param = param.to_ascii_lowercase();
        let prefix_of = |full: &str| !param.is_empty() && full.starts_with(param.as_str());
        if param == "c" || (param.len() >= 3 && prefix_of("command")) {
            return match args.get(i..).unwrap_or_default() {
                [w, ..] if w.text == "-" => Code::Stdin,
                rest @ [_, ..] => rest_as_command(rest),
                [] => Code::Elsewhere,
            };
        }
        if matches!(param.as_str(), "e" | "ec" | "en" | "enc") || prefix_of("encodedcommand") {
            let Some(encoded) = args.get(i) else {
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
        if param == "f" || prefix_of("file") {
            return if args.get(i).is_some() {
                Code::File(i)
            } else {
                Code::Elsewhere
            };
        }
        if param == "cwa" || prefix_of("commandwithargs") {
            return Code::Elsewhere;
        }
        if matches!(param.as_str(), "?" | "h" | "help" | "v") {
            return Code::Elsewhere;
        }
        if VALUE
            .iter()
            .any(|full| *full == param || (param.len() >= 2 && full.starts_with(param.as_str())))
            || matches!(param.as_str(), "ex" | "ep" | "w" | "wd")
        {
            i += 1;
        }
    }
    Code::Stdin
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

/// `cmd [/q /d /v:on ...] /c|/k COMMAND...`: the rest of the line is the command.
fn cmd(args: &[Word]) -> Code {
    for (i, word) in args.iter().enumerate() {
        let w = word.text.to_ascii_lowercase();
        if w == "/c" || w == "/k" || w == "/r" {
            return match args.get(i + 1..) {
                Some(rest) if !rest.is_empty() => rest_as_command(rest),
                _ => Code::Elsewhere,
            };
        }
        if let Some(attached) = w
            .strip_prefix("/c")
            .or_else(|| w.strip_prefix("/k"))
            .filter(|rest| rest.starts_with(['"', ' ']) || !rest.contains(':'))
        {
            let mut words = vec![Word {
                text: word.text[word.text.len() - attached.len()..].to_string(),
                literal: word.literal,
                temp: None,
            }];
            words.extend(args.iter().skip(i + 1).cloned());
            return rest_as_command(&words);
        }
        if !w.starts_with('/') {
            return Code::Elsewhere;
        }
    }
    Code::Stdin
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
