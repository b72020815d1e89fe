//! git run through its own machinery: configuration the environment gives it, aliases
//! defined on the line, and `submodule foreach` running shell text in each submodule.

use super::{Run, SimpleCommand, Via, Word};

/// `git`, with configuration from the environment read as the `-c` options git treats it as,
/// aliases defined on the line expanded, and `submodule foreach` yielding its shell command.
pub(super) fn git(mut cmd: SimpleCommand) -> Run {
    let env_config = git_env_config(&cmd.assigns);
    if !env_config.is_empty() {
        let words = env_config.into_iter().flat_map(|(key, value)| {
            [Word::literal("-c"), Word::literal(format!("{key}={value}"))]
        });
        cmd.argv.splice(1..1, words);
    }
    let read = crate::syntax::git::read(cmd.args());
    let Some(sub_at) = read.sub else {
        return Run::Command(cmd);
    };
    // Indices in argv, past `git` itself.
    let at = sub_at + 1;
    if cmd.argv.get(at).is_some_and(|w| w.text == "submodule") {
        return submodule_foreach(cmd, at);
    }
    let Some((def, value)) = cmd.argv.get(at).and_then(|w| line_alias(&read, w)) else {
        return Run::Command(cmd);
    };
    let rest: Vec<String> = cmd
        .argv
        .get(at + 1..)
        .unwrap_or_default()
        .iter()
        .map(Word::shell_quoted)
        .collect();
    let literal = value.literal && cmd.argv.iter().all(|w| w.literal);
    if let Some(shell_text) = value.text.strip_prefix('!') {
        // git runs a `!` alias with `sh -c` from the top of the work tree, arguments appended.
        cmd.dirs.push(Word {
            text: "$(git rev-parse --show-toplevel)".into(),
            literal: false,
            temp: None,
        });
        let script = [shell_text.to_string()]
            .into_iter()
            .chain(rest)
            .collect::<Vec<_>>()
            .join(" ");
        return Run::Script {
            cmd,
            script,
            via: Via::ShellArgument,
            literal,
        };
    }
    // The same git with the alias's words in place of its name. The definition itself is
    // left out, as git refuses an alias that expands to itself.
    let globals = cmd
        .argv
        .get(1..at)
        .unwrap_or_default()
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != def && *i != def + 1)
        .map(|(_, w)| w.shell_quoted());
    // Its environment goes with it (`GIT_DIR`, the override prefix), but for the
    // configuration already turned into `-c` options, so the alias is not defined twice.
    let assigns = cmd
        .assigns
        .iter()
        .filter(|(name, _)| !name.starts_with("GIT_CONFIG_"))
        .map(|(name, value)| format!("{name}={}", value.shell_quoted()));
    let script = assigns
        .chain(["git".to_string()])
        .chain(globals)
        .chain([value.text.clone()])
        .chain(rest)
        .collect::<Vec<_>>()
        .join(" ");
    Run::Script {
        cmd,
        script,
        via: Via::Direct,
        literal,
    }
}

/// The last `-c alias.<name>=<value>` among git's global options for the subcommand `sub`:
/// where the definition's `-c` stands among git's arguments, and the alias's value. Alias
/// names ignore case.
fn line_alias(read: &crate::syntax::git::GitArgs, sub: &Word) -> Option<(usize, Word)> {
    let name = sub.value()?.to_ascii_lowercase();
    read.globals
        .iter()
        .rev()
        .filter(|g| g.name == "-c")
        .find_map(|g| {
            let setting = g.value.as_ref()?;
            let (key, value) = setting.text.split_once('=')?;
            let alias = key.to_ascii_lowercase().strip_prefix("alias.")? == name;
            alias.then(|| {
                let value = Word {
                    text: value.to_string(),
                    literal: setting.literal,
                    temp: None,
                };
                (g.at, value)
            })
        })
}

/// `git [options] submodule [--quiet] foreach [--recursive] [--quiet] [--] <command>...`:
/// git runs the command with `sh -c` in every submodule, its first word as shell text and
/// the others as that script's arguments.
fn submodule_foreach(mut cmd: SimpleCommand, at: usize) -> Run {
    let mut i = at + 1;
    while cmd
        .argv
        .get(i)
        .is_some_and(|w| matches!(w.text.as_str(), "-q" | "--quiet" | "--cached"))
    {
        i += 1;
    }
    if cmd.argv.get(i).is_none_or(|w| w.text != "foreach") {
        return Run::Command(cmd);
    }
    i += 1;
    while cmd
        .argv
        .get(i)
        .is_some_and(|w| matches!(w.text.as_str(), "-q" | "--quiet" | "--recursive"))
    {
        i += 1;
    }
    if cmd.argv.get(i).is_some_and(|w| w.text == "--") {
        i += 1;
    }
    let Some((first, rest)) = cmd.argv.get(i..).and_then(<[Word]>::split_first) else {
        return Run::Command(cmd);
    };
    let literal = first.literal && rest.iter().all(|w| w.literal);
    let rest = rest.iter().map(Word::shell_quoted);
    let script = [first.text.clone()]
        .into_iter()
        .chain(rest)
        .collect::<Vec<_>>()
        .join(" ");
    // It runs inside each submodule, not where the line runs.
    cmd.dirs.push(Word {
        text: "$sm_path".into(),
        literal: false,
        temp: None,
    });
    Run::Script {
        cmd,
        script,
        via: Via::ShellArgument,
        literal,
    }
}

/// Configuration the environment gives git (`GIT_CONFIG_COUNT` with `GIT_CONFIG_KEY_<n>` and
/// `GIT_CONFIG_VALUE_<n>`, then `GIT_CONFIG_PARAMETERS`), in the order git applies it. Only
/// literal settings are read.
fn git_env_config(assigns: &[(String, Word)]) -> Vec<(String, String)> {
    let get = |name: &str| {
        assigns
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .and_then(|(_, w)| w.value())
    };
    let mut out = Vec::new();
    let count = get("GIT_CONFIG_COUNT").and_then(|n| n.parse::<usize>().ok());
    // A count beyond the assignments on the line cannot be filled from them.
    for n in 0..count.unwrap_or(0).min(assigns.len()) {
        if let (Some(key), Some(value)) = (
            get(&format!("GIT_CONFIG_KEY_{n}")),
            get(&format!("GIT_CONFIG_VALUE_{n}")),
        ) {
            out.push((key.to_string(), value.to_string()));
        }
    }
    if let Some(params) = get("GIT_CONFIG_PARAMETERS") {
        out.extend(config_parameters(params));
    }
    out
}

/// `GIT_CONFIG_PARAMETERS`: single-quoted `'key=value'` or `'key'='value'` entries separated
/// by spaces, a quote inside written `'\''`. A key with no value means true.
fn config_parameters(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    // One shell-quoted word: quoted runs and backslash escapes, up to a space or `=`.
    let word = |chars: &mut std::iter::Peekable<std::str::Chars>| {
        let mut w = String::new();
        while let Some(&c) = chars.peek() {
            match c {
                '\'' => {
                    chars.next();
                    w.extend(chars.by_ref().take_while(|&c| c != '\''));
                }
                '\\' => {
                    chars.next();
                    w.extend(chars.next());
                }
                ' ' | '=' => break,
                _ => {
                    w.push(c);
                    chars.next();
                }
            }
        }
        w
    };
    loop {
        while chars.next_if_eq(&' ').is_some() {}
        if chars.peek().is_none() {
            return out;
        }
        let first = word(&mut chars);
        let entry = if chars.next_if_eq(&'=').is_some() {
            (first, word(&mut chars))
        } else {
            match first.split_once('=') {
                Some((k, v)) => (k.to_string(), v.to_string()),
                None => (first, "true".to_string()),
            }
        };
        if entry.0.is_empty() {
            // Text that is no entry: stop rather than misread what follows.
            return out;
        }
        out.push(entry);
    }
}

#[cfg(test)]
mod tests {
    use super::config_parameters;

    #[test]
    fn config_parameters_reads_both_forms_and_quotes() {
        let pairs = |text: &str| config_parameters(text);
        assert_eq!(
            pairs("'alias.x=reset --hard' 'gc.pruneexpire'='now'"),
            [
                ("alias.x".to_string(), "reset --hard".to_string()),
                ("gc.pruneexpire".to_string(), "now".to_string())
            ]
        );
        assert_eq!(
            pairs(r"'alias.q'='!echo '\''hi'\'''"),
            [("alias.q".to_string(), "!echo 'hi'".to_string())]
        );
        assert_eq!(
            pairs("'core.bare'"),
            [("core.bare".to_string(), "true".to_string())]
        );
        assert!(pairs("=oops 'a.b=c'").is_empty());
    }
}
