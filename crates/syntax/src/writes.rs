//! Which files a program writes by its arguments: the destinations of `cp`, `mv`, `install`,
//! `ln` and `rsync`, what `mkdir`, `touch`, `tee`, `truncate` and `dd of=` name, the output
//! options of `sort -o`, `tree -o`, `less -o`, `curl -o` and `wget -O`, `uniq`'s second
//! operand, `unzip -d` and a `git clone`'s folder.
//!
//! One reading, against each program's options, for everyone who asks: the rule that stops
//! an overwrite, the journal of what agents create, and the context's question of what an
//! earlier command may have changed. Each asks its own question of the same answer, so the
//! three can never disagree on which word a command writes. Output redirects are the shell's,
//! not the program's, and are not read here.

use std::path::Path;

use super::Word;
use super::argv::{self, Argv, Style, Written as Named};

/// What a write does to what was at its path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum How {
    /// Makes it when it is not there (`mkdir`, `touch`, `unzip -d`, `git clone`'s folder):
    /// what was there stays.
    Create,
    /// Replaces its bytes whole.
    Replace,
    /// Adds to its end (`tee -a`, `dd oflag=append`) or only grows it (`truncate -s +1K`).
    Append,
}

/// One file a command writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Write {
    /// The path as written.
    pub path: Word,
    pub how: How,
    /// The file whose bytes land there (`cp a b`, `dd if=a of=b`), when that is all it gets.
    pub from: Option<Word>,
    /// When `path` turns out to be an existing folder, the file lands inside it under this
    /// word's last part (`cp notes.md docs/` writes `docs/notes.md`).
    pub into: Option<Word>,
    /// A symbolic link at the path is replaced itself (`mv`, `ln`, `rsync`, `install`), not
    /// followed.
    pub unlinks: bool,
    /// `from` goes from where it was (`mv`).
    pub moves: bool,
    /// `path` is surely a folder (`-t DIR`): the file lands inside it, under `into`'s name.
    pub inside: bool,
}

/// Every file `program` writes by its arguments `args`.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Writes {
    pub writes: Vec<Write>,
    /// The command refuses to replace a file that is there, or keeps a backup of it (`cp -n`,
    /// `mv -b`, `ln` without `-f`, `curl --no-clobber`, a dry run): it writes only where
    /// nothing was.
    pub keeps: bool,
}

/// What `program` (a base name) writes, given the words after it. Programs not read here
/// write nothing by their arguments.
pub fn of(program: &str, args: &[Word]) -> Writes {
    match program {
        "cp" | "mv" | "install" | "ln" | "rsync" => copies(program, args),
        "mkdir" => each(args, &MKDIR, How::Create),
        "touch" => each(args, &TOUCH, How::Create),
        "tee" => {
            let read = argv::read(args, Style::Getopt, &TEE);
            let how = if read.on(&["a", "append"]) {
                How::Append
            } else {
                How::Replace
            };
            plain(operands(&read, args).filter(|w| w.text != "-"), how)
        }
        "truncate" => {
            let read = argv::read(args, Style::Getopt, &TRUNCATE);
            // `-s +10K` and `-s '>1M'` only grow a file.
            let grows = read
                .values(&["s", "size"])
                .last()
                .is_some_and(|size| size.starts_with(['+', '>']));
            let how = if grows { How::Append } else { How::Replace };
            plain(operands(&read, args), how)
        }
        "dd" => dd(args),
        "sort" => option(args, &SORT, &["o", "output"], How::Replace),
        "tree" => option(args, &TREE, &["o"], How::Replace),
        "less" => option(
            args,
            &LESS,
            &["o", "O", "log-file", "LOG-FILE"],
            How::Replace,
        ),
        "uniq" => {
            let read = argv::read(args, Style::Getopt, &UNIQ);
            plain(operands(&read, args).skip(1), How::Replace)
        }
        "curl" => {
            let mut writes = option(args, &CURL, &["o", "output"], How::Replace);
            writes.keeps = argv::read(args, Style::Getopt, &CURL).on(&["no-clobber"]);
            writes
        }
        "wget" => {
            let mut writes = option(args, &WGET, &["O", "output-document"], How::Replace);
            writes.writes.retain(|w| w.path.text != "-");
            writes
        }
        "unzip" => option(args, &UNZIP, &["d"], How::Create),
        "git" => Writes {
            writes: clone_folder(args)
                .map(|path| write(path, How::Create))
                .into_iter()
                .collect(),
            keeps: false,
        },
        _ => Writes::default(),
    }
}

const COPY: Named = Named {
    names: &[],
    valued: &["-t", "-S", "--target-directory", "--suffix"],
};
const INSTALL: Named = Named {
    names: &[],
    valued: &[
        "-t",
        "-S",
        "-m",
        "-o",
        "-g",
        "--target-directory",
        "--suffix",
        "--mode",
        "--owner",
        "--group",
        "--strip-program",
    ],
};
const RSYNC: Named = Named {
    names: &[],
    valued: &[
        "-e",
        "-f",
        "-T",
        "--rsh",
        "--exclude",
        "--include",
        "--filter",
        "--files-from",
        "--exclude-from",
        "--include-from",
        "--chmod",
        "--chown",
        "--temp-dir",
        "--rsync-path",
        "--timeout",
        "--port",
    ],
};
const MKDIR: Named = Named {
    names: &[],
    valued: &["-m", "--mode"],
};
const TOUCH: Named = Named {
    names: &[],
    valued: &["-d", "-r", "-t", "--date", "--reference"],
};
const TEE: Named = Named {
    names: &[],
    valued: &[],
};
const TRUNCATE: Named = Named {
    names: &[],
    valued: &["-s", "-r", "--size", "--reference"],
};
const SORT: Named = Named {
    names: &[],
    valued: &[
        "-o",
        "-k",
        "-t",
        "-S",
        "-T",
        "--output",
        "--key",
        "--field-separator",
        "--buffer-size",
        "--temporary-directory",
        "--files0-from",
        "--parallel",
        "--batch-size",
        "--compress-program",
        "--random-source",
        "--sort",
    ],
};
const TREE: Named = Named {
    names: &[],
    valued: &[
        "-o",
        "-L",
        "-P",
        "-I",
        "--filelimit",
        "--charset",
        "--timefmt",
    ],
};
const LESS: Named = Named {
    names: &[],
    valued: &[
        "-o",
        "-O",
        "-p",
        "-t",
        "-x",
        "-y",
        "-z",
        "-b",
        "-h",
        "-j",
        "--log-file",
        "--LOG-FILE",
    ],
};
const UNIQ: Named = Named {
    names: &[],
    valued: &[
        "-f",
        "-s",
        "-w",
        "--skip-fields",
        "--skip-chars",
        "--check-chars",
    ],
};
const CURL: Named = Named {
    names: &[],
    valued: &[
        "-o",
        "-d",
        "-H",
        "-X",
        "-u",
        "-A",
        "-e",
        "-b",
        "-c",
        "-F",
        "-T",
        "-x",
        "-K",
        "-m",
        "-r",
        "-w",
        "-E",
        "-U",
        "-Y",
        "-y",
        "-z",
        "-C",
        "--output",
        "--data",
        "--data-raw",
        "--data-binary",
        "--data-urlencode",
        "--json",
        "--header",
        "--request",
        "--user",
        "--user-agent",
        "--referer",
        "--cookie",
        "--cookie-jar",
        "--form",
        "--upload-file",
        "--proxy",
        "--config",
        "--max-time",
        "--range",
        "--write-out",
        "--cert",
        "--cacert",
        "--connect-timeout",
        "--retry",
        "--url",
        "--resolve",
        "--output-dir",
    ],
};
const WGET: Named = Named {
    names: &[],
    valued: &[
        "-O",
        "-o",
        "-a",
        "-P",
        "-t",
        "-T",
        "-U",
        "-e",
        "-i",
        "-B",
        "-Q",
        "-w",
        "-l",
        "--output-document",
        "--output-file",
        "--append-output",
        "--directory-prefix",
        "--tries",
        "--timeout",
        "--user-agent",
        "--execute",
        "--input-file",
        "--header",
        "--user",
        "--password",
        "--post-data",
        "--post-file",
        "--method",
        "--body-data",
    ],
};
const UNZIP: Named = Named {
    names: &[],
    valued: &["-d", "-x", "-P"],
};
const CLONE: Named = Named {
    names: &[],
    valued: &[
        "-b",
        "-o",
        "-c",
        "-u",
        "-j",
        "--branch",
        "--origin",
        "--config",
        "--upload-pack",
        "--jobs",
        "--depth",
        "--reference",
        "--reference-if-able",
        "--separate-git-dir",
        "--template",
        "--shallow-since",
        "--shallow-exclude",
        "--server-option",
        "--filter",
        "--bundle-uri",
        "--ref-format",
    ],
};

fn write(path: Word, how: How) -> Write {
    Write {
        path,
        how,
        from: None,
        into: None,
        unlinks: false,
        moves: false,
        inside: false,
    }
}

fn plain(paths: impl Iterator<Item = Word>, how: How) -> Writes {
    Writes {
        writes: paths.map(|path| write(path, how)).collect(),
        keeps: false,
    }
}

/// Every operand of a program whose operands are all files it writes.
fn each(args: &[Word], options: &Named, how: How) -> Writes {
    let read = argv::read(args, Style::Getopt, options);
    plain(operands(&read, args), how)
}

/// The values of `names`, a program's output options.
fn option(args: &[Word], options: &Named, names: &[&str], how: How) -> Writes {
    let read = argv::read(args, Style::Getopt, options);
    let paths = read
        .opts
        .iter()
        .filter(|opt| names.iter().any(|name| opt.is(name)))
        .filter_map(|opt| opt.value_in(args));
    plain(paths.collect::<Vec<_>>().into_iter(), how)
}

fn operands<'a>(read: &'a Argv, args: &'a [Word]) -> impl Iterator<Item = Word> + 'a {
    read.operands.iter().filter_map(|&at| args.get(at).cloned())
}

/// `cp`, `mv`, `install`, `ln`, `rsync`: the destination, once for each source. Into a
/// folder (`-t`, or a destination that is one), each source lands under its own name.
fn copies(program: &str, args: &[Word]) -> Writes {
    let options = match program {
        "install" => &INSTALL,
        "rsync" => &RSYNC,
        _ => &COPY,
    };
    let read = argv::read(args, Style::Getopt, options);
    let keeps = read.on(&["b", "backup"])
        || match program {
            "cp" | "mv" => {
                read.on(&["n", "i", "no-clobber", "interactive"])
                    || read.values(&["update"]).any(|v| v == "none")
            }
            "ln" => !read.on(&["f", "force"]),
            "install" => read.on(&["d", "directory"]),
            "rsync" => read.on(&["n", "dry-run", "ignore-existing", "list-only", "delete"]),
            _ => false,
        };
    let mut operands: Vec<Word> = operands(&read, args).collect();
    // `install -d a b` makes folders, as `mkdir` does.
    if program == "install" && read.on(&["d", "directory"]) {
        return Writes {
            keeps,
            ..plain(operands.into_iter(), How::Create)
        };
    }
    // rsync to or from another host: nothing here is written by its words.
    if program == "rsync" && operands.iter().any(|w| is_remote(&w.text)) {
        return Writes::default();
    }
    // rsync's `-t` keeps times and its `-T` names a temporary folder.
    let gnu = program != "rsync";
    let folder = gnu
        .then(|| {
            read.last(&["t", "target-directory"])
                .and_then(|opt| opt.value_in(args))
        })
        .flatten();
    let inside = folder.is_some();
    let (dest, sources) = match folder {
        Some(folder) => (folder, operands),
        None => match operands.pop() {
            Some(dest) if !operands.is_empty() || program == "ln" => (dest, operands),
            _ => {
                return Writes {
                    writes: Vec::new(),
                    keeps,
                };
            }
        },
    };
    let file_only = gnu && read.on(&["T", "no-target-directory"]);
    let unlinks = matches!(program, "mv" | "ln" | "rsync" | "install");
    // `ln -s target` alone links into the current folder under the target's name.
    if sources.is_empty() {
        return Writes {
            writes: vec![Write {
                path: Word::literal("."),
                how: How::Replace,
                from: None,
                into: Some(dest),
                unlinks: true,
                moves: false,
                inside: false,
            }],
            keeps,
        };
    }
    let bytes = matches!(program, "cp" | "mv" | "install" | "rsync");
    Writes {
        writes: sources
            .into_iter()
            .map(|source| Write {
                path: dest.clone(),
                how: How::Replace,
                from: bytes.then(|| source.clone()),
                into: (!file_only).then_some(source),
                unlinks,
                moves: program == "mv",
                inside,
            })
            .collect(),
        keeps,
    }
}

/// `host:path`, `user@host:path`, `host::module` or `rsync://host/...`: a path on another
/// machine, for rsync and scp alike (a `:` before any `/`).
pub fn is_remote(text: &str) -> bool {
    text.split_once(':')
        .is_some_and(|(host, _)| !host.contains('/'))
}

/// `dd of=F`: written over unless appended to. With nothing but `if=` and the block size,
/// it gets that file's bytes.
fn dd(args: &[Word]) -> Writes {
    let operand = |key: &str| {
        args.iter().find_map(|w| {
            w.text.strip_prefix(key).map(|v| Word {
                text: v.to_string(),
                literal: w.literal,
                temp: None,
            })
        })
    };
    let Some(path) = operand("of=") else {
        return Writes::default();
    };
    let how = if operand("oflag=").is_some_and(|f| f.text.contains("append")) {
        How::Append
    } else {
        How::Replace
    };
    let plain = args.iter().all(|w| {
        ["if=", "of=", "bs=", "status="]
            .iter()
            .any(|k| w.text.starts_with(k))
    });
    Writes {
        writes: vec![Write {
            from: operand("if=").filter(|_| plain),
            ..write(path, how)
        }],
        keeps: false,
    }
}

/// The folder `git clone` makes: the one named, else the repository's name.
fn clone_folder(args: &[Word]) -> Option<Word> {
    let read = super::git::read(args);
    if read.subcommand()?.text != "clone" {
        return None;
    }
    let rest = read.rest();
    let clone = argv::read(rest, Style::Getopt, &CLONE);
    let operands: Vec<Word> = operands(&clone, rest).collect();
    match operands.as_slice() {
        [_, dir, ..] => Some(dir.clone()),
        [url] => {
            let url = url.value()?.trim_end_matches('/');
            let name = url.rsplit(['/', ':']).next()?;
            let name = name.strip_suffix(".git").unwrap_or(name);
            (!name.is_empty()).then(|| Word::literal(name))
        }
        [] => None,
    }
}

/// The last part of a path word, as a file lands under it in a folder.
pub fn name_of(path: &Word) -> Option<String> {
    let name = Path::new(path.value()?.trim_end_matches('/')).file_name()?;
    Some(name.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(line: &str) -> Vec<(String, How)> {
        let words: Vec<Word> = line.split_whitespace().map(Word::literal).collect();
        let (program, args) = words.split_first().expect("a program");
        of(&program.text, args)
            .writes
            .into_iter()
            .map(|w| (w.path.text, w.how))
            .collect()
    }

    fn paths(line: &str) -> Vec<String> {
        written(line).into_iter().map(|(p, _)| p).collect()
    }

    fn keeps(line: &str) -> bool {
        let words: Vec<Word> = line.split_whitespace().map(Word::literal).collect();
        of(&words[0].text, &words[1..]).keeps
    }

    #[test]
    fn copies_write_their_destination_once_a_source() {
        assert_eq!(paths("cp a b dest/"), ["dest/", "dest/"]);
        assert_eq!(paths("cp -r -t out a b"), ["out", "out"]);
        assert_eq!(paths("mv --target-directory=out a"), ["out"]);
        assert_eq!(paths("install -m 644 app /usr/bin/app"), ["/usr/bin/app"]);
        assert_eq!(paths("ln -sf target link"), ["link"]);
        assert_eq!(paths("ln -s target"), ["."]);
        assert!(paths("cp onlyone").is_empty());
        assert_eq!(
            written("install -d a b"),
            [
                ("a".to_string(), How::Create),
                ("b".to_string(), How::Create)
            ]
        );
        assert!(paths("rsync -a src/ host:dest/").is_empty());
        assert_eq!(paths("rsync -a -e ssh src/ dest/"), ["dest/"]);
    }

    #[test]
    fn what_keeps_the_file_that_is_there() {
        for line in [
            "cp -n a b",
            "cp -ri a b",
            "mv --no-clobber a b",
            "mv --update=none a b",
            "cp --backup=numbered a b",
            "ln -s a b",
            "install -d out",
            "rsync -n a b",
            "curl --no-clobber -o f https://x",
        ] {
            assert!(keeps(line), "{line}");
        }
        for line in ["cp a b", "mv -f a b", "ln -sf a b", "cp --backup=none a b"] {
            assert!(!keeps(line), "{line}");
        }
    }

    #[test]
    fn writers_by_operand_and_by_option() {
        assert_eq!(paths("mkdir -p -m 755 a b"), ["a", "b"]);
        assert_eq!(paths("touch -d yesterday f"), ["f"]);
        assert_eq!(
            written("tee -a log out"),
            [
                ("log".to_string(), How::Append),
                ("out".to_string(), How::Append)
            ]
        );
        assert_eq!(written("tee out -"), [("out".to_string(), How::Replace)]);
        assert_eq!(
            written("truncate -s +1K f"),
            [("f".to_string(), How::Append)]
        );
        assert_eq!(
            written("truncate -s 0 f"),
            [("f".to_string(), How::Replace)]
        );
        assert_eq!(
            written("dd if=a of=b bs=1M"),
            [("b".to_string(), How::Replace)]
        );
        assert_eq!(
            written("dd if=a of=b oflag=append conv=notrunc"),
            [("b".to_string(), How::Append)]
        );
        assert_eq!(paths("sort -k 2 -o out in"), ["out"]);
        assert_eq!(paths("sort --output=out in"), ["out"]);
        assert_eq!(paths("tree -L 2 -o out"), ["out"]);
        assert_eq!(paths("less --log-file=out f"), ["out"]);
        assert_eq!(paths("uniq -f 1 in out"), ["out"]);
        assert_eq!(paths("curl -sSL -o out https://x"), ["out"]);
        assert_eq!(paths("curl -H x -d y https://x"), Vec::<String>::new());
        assert_eq!(paths("wget -O - https://x"), Vec::<String>::new());
        assert_eq!(paths("wget -qO page.html https://x"), ["page.html"]);
        assert_eq!(paths("unzip -o a.zip -d out"), ["out"]);
        assert_eq!(paths("git clone --depth 1 https://h/o/r.git"), ["r"]);
        assert_eq!(paths("git clone -b main https://h/o/r.git dir"), ["dir"]);
        assert!(paths("git status").is_empty());
        assert!(paths("echo hi").is_empty());
    }

    #[test]
    fn the_bytes_that_land_and_where() {
        let words: Vec<Word> = "a.md docs/".split_whitespace().map(Word::literal).collect();
        let writes = of("mv", &words).writes;
        assert_eq!(writes[0].from, Some(Word::literal("a.md")));
        assert_eq!(writes[0].into, Some(Word::literal("a.md")));
        assert!(writes[0].moves && writes[0].unlinks);
        let words: Vec<Word> = "-T a b".split_whitespace().map(Word::literal).collect();
        assert_eq!(of("cp", &words).writes[0].into, None);
        let words: Vec<Word> = "if=a of=b conv=notrunc"
            .split_whitespace()
            .map(Word::literal)
            .collect();
        assert_eq!(of("dd", &words).writes[0].from, None);
    }
}
