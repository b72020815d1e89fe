//! Option reading shared by the packs, for command lines whose programs each have their own
//! option syntax: which words are operands, what an option was given, whether a flag is set.
//!
//! Options are named as written (`-h`, `--host`); a long option may carry its value after `=`
//! and a short one attached (`-hdb1`). Only the options listed as taking a value consume the
//! next word, so a table that lags behind a program turns at worst an option value into an
//! operand, never an operand into an option value.

use crate::shell::Word;

/// The words of `args` that are not options or option values. `valued` lists the options
/// that take a value (as written: `-h`, `--host`); everything after `--` is an operand.
pub(crate) fn operands<'a>(args: &'a [Word], valued: &[&str]) -> Vec<&'a Word> {
    let mut out = Vec::new();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let text = word.text.as_str();
        if text == "--" {
            out.extend(words.by_ref());
            break;
        }
        if text.len() > 1 && text.starts_with('-') {
            if valued.contains(&text) {
                words.next();
            }
            continue;
        }
        out.push(word);
    }
    out
}

/// Whether any of `names` (as written: `-l`, `--list`) is given, alone, with `=value`, or
/// (for a one-letter option) in a cluster of single-letter flags such as `-lqt`.
pub(crate) fn has(args: &[Word], names: &[&str]) -> bool {
    args.iter()
        .take_while(|w| w.text != "--")
        .any(|w| names.iter().any(|name| given(&w.text, name)))
}

/// `-Atc` for `-c`: single-letter flags, the option's letter last (its value is the next word).
fn ends_cluster(text: &str, name: &str) -> bool {
    let Some(letter) = name.strip_prefix('-').filter(|l| l.len() == 1) else {
        return false;
    };
    text.len() > 2
        && !text.starts_with("--")
        && text.ends_with(letter)
        && text[1..].chars().all(|c| c.is_ascii_alphabetic())
}

fn given(text: &str, name: &str) -> bool {
    if text == name {
        return true;
    }
    if name.starts_with("--") {
        return text
            .strip_prefix(name)
            .is_some_and(|rest| rest.starts_with('='));
    }
    // `-l` inside `-lqt`: a cluster of short flags.
    let letter = name.strip_prefix('-').filter(|l| l.len() == 1);
    match letter {
        Some(l) => {
            text.len() > 2
                && text.starts_with('-')
                && !text.starts_with("--")
                && text[1..].chars().all(|c| c.is_ascii_alphabetic())
                && text[1..].contains(l)
        }
        None => false,
    }
}

/// The values given to any of `names` (`--file=x`, `--file x`, `-f x`, `-fx`, and `-Atf x`:
/// a one-letter option that ends a cluster of flags), in order.
pub(crate) fn values<'a>(args: &'a [Word], names: &[&str]) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let text = args[i].text.as_str();
        if text == "--" {
            break;
        }
        for name in names {
            if text == *name || ends_cluster(text, name) {
                if let Some(next) = args.get(i + 1) {
                    out.push(next.text.as_str());
                    i += 1;
                }
                break;
            }
            let attached = if name.starts_with("--") || name.len() > 2 {
                text.strip_prefix(name).and_then(|r| r.strip_prefix('='))
            } else {
                text.strip_prefix(name).filter(|r| !r.is_empty())
            };
            if let Some(value) = attached {
                out.push(value);
                break;
            }
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<Word> {
        s.split_whitespace().map(Word::literal).collect()
    }

    #[test]
    fn operands_skip_option_values() {
        let args = words("-h db1 --port=5 -U me shop -- -x");
        let ops: Vec<&str> = operands(&args, &["-h", "-U"])
            .iter()
            .map(|w| w.text.as_str())
            .collect();
        assert_eq!(ops, ["shop", "-x"]);
    }

    #[test]
    fn flags_and_values_in_every_spelling() {
        let args = words("-lqt --file=a.sql -f b.sql -fc.sql --dbname x -Atf d.sql");
        assert!(has(&args, &["-l"]));
        assert!(has(&args, &["--file"]));
        assert!(!has(&args, &["-c"]));
        assert_eq!(
            values(&args, &["-f", "--file"]),
            ["a.sql", "b.sql", "c.sql", "d.sql"]
        );
        assert_eq!(values(&args, &["--dbname"]), ["x"]);
    }
}
