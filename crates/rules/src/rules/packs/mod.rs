//! Packs: rule families for the data an agent can destroy outside the repository
//! (databases, containers, clusters, infrastructure, cloud, hosting, the machine itself).
//!
//! A pack is declared once as a [`Pack`]: its id (the prefix of its rule ids), the programs it
//! reads, its rules and one check function. Dispatch is by program name, so a command that no
//! pack names costs one lookup in a short list and nothing else. Packs are on unless the
//! configuration switches them off (`[packs] disable = [...]`): a guard whose protection waits
//! for configuration protects almost nobody.

pub(crate) mod args;
mod backup;
mod cicd;
mod cloud;
mod containers;
pub mod db;
mod disk;
mod hosting;
mod http;
mod iac;
mod k8s;
mod keys;
mod kv;
mod messaging;
mod migrations;
mod outage;
mod search;
mod secrets;
mod system;
pub mod vcs;
mod vectors;
mod vm;

use crate::rules::{Hit, Rule, Tier};
use crate::settings::Settings;
use crate::shell::SimpleCommand;

/// One pack's declaration.
pub struct Pack {
    /// Stable id; every rule of the pack is `<id>.<rule>`.
    pub id: &'static str,
    /// What the pack guards, in one line.
    pub summary: &'static str,
    /// On when the configuration says nothing about it.
    pub default_on: bool,
    /// Program names (as [`SimpleCommand::program`] gives them) the pack reads.
    pub programs: &'static [&'static str],
    pub rules: &'static [&'static Rule],
    /// Every finding of this pack in one command whose program is in `programs`.
    pub(crate) check: fn(&SimpleCommand) -> Vec<Hit>,
}

impl std::fmt::Debug for Pack {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id)
    }
}

/// Every pack, in documentation order.
pub static PACKS: &[&Pack] = &[
    &db::PACK,
    &migrations::PACK,
    &containers::PACK,
    &k8s::PACK,
    &iac::PACK,
    &cloud::PACK,
    &hosting::PACK,
    &outage::PACK,
    &backup::PACK,
    &cicd::PACK,
    &messaging::PACK,
    &search::PACK,
    &vectors::PACK,
    &secrets::PACK,
    &kv::PACK,
    &keys::PACK,
    &vcs::PACK,
    &system::PACK,
    &disk::PACK,
    &vm::PACK,
];

pub fn by_id(id: &str) -> Option<&'static Pack> {
    PACKS.iter().copied().find(|p| p.id == id)
}

/// Whether `pack` is switched on by `settings`.
pub fn enabled(pack: &Pack, settings: &Settings) -> bool {
    if settings.disabled_packs.iter().any(|id| id == pack.id) {
        return false;
    }
    pack.default_on || settings.enabled_packs.iter().any(|id| id == pack.id)
}

/// For each [`bucket`] of program names, the packs (by their place in [`PACKS`], one bit
/// each) that read a program in it. Most commands are run by programs no pack reads; this
/// tells so in one look instead of a comparison with each of the hundreds of names the
/// packs read, and it is computed when the guard is built, not when it starts.
static READERS: [u64; 256] = {
    assert!(PACKS.len() <= 64, "one bit a pack");
    let mut readers = [0u64; 256];
    let mut slots = readers.as_mut_slice();
    let mut at = 0;
    while let [slot, rest @ ..] = slots {
        *slot = readers_of(at);
        slots = rest;
        at += 1;
    }
    readers
};

/// The packs that read a program in bucket `wanted`, one bit each.
const fn readers_of(wanted: usize) -> u64 {
    let mut readers = 0;
    let mut packs = PACKS;
    let mut at = 0;
    while let [pack, rest @ ..] = packs {
        let mut programs = pack.programs;
        while let [program, more @ ..] = programs {
            if bucket(program.as_bytes()) == wanted {
                readers |= 1 << at;
            }
            programs = more;
        }
        packs = rest;
        at += 1;
    }
    readers
}

/// A program name's bucket in [`READERS`]: names differ in length and at their ends.
const fn bucket(name: &[u8]) -> usize {
    match name {
        [] => 0,
        [first, .., last] => (*first as usize + 7 * *last as usize + 13 * name.len()) % 256,
        [only] => (8 * *only as usize + 13) % 256,
    }
}

/// Findings of every switched-on pack that reads `program`, each raised to protected when it
/// names production.
pub(crate) fn check(program: &str, cmd: &SimpleCommand, settings: &Settings) -> Vec<Hit> {
    let readers = READERS
        .get(bucket(program.as_bytes()))
        .copied()
        .unwrap_or(u64::MAX);
    let mut hits: Vec<Hit> = PACKS
        .iter()
        .enumerate()
        .filter(|&(at, pack)| {
            readers & (1 << at) != 0 && pack.programs.contains(&program) && enabled(pack, settings)
        })
        .map(|(_, pack)| pack)
        .flat_map(|pack| (pack.check)(cmd))
        .collect();
    for hit in &mut hits {
        protect_production(hit, cmd, &settings.production);
    }
    hits
}

/// Makes `hit` protected, saying why, when its command or what it destroys names production:
/// there the only safer way is the user's own hand.
fn protect_production(hit: &mut Hit, cmd: &SimpleCommand, patterns: &[String]) {
    if hit.tier == Tier::Protected {
        return;
    }
    let Some((word, pattern)) = production_word(cmd, &hit.names, patterns) else {
        return;
    };
    hit.tier = Tier::Protected;
    hit.loses = format!(
        "{} (it names production: `{word}` matches `{pattern}`)",
        hit.loses
    );
    hit.safer =
        Some("never run this against production; ask the user, who can run it themselves".into());
}

/// The first word of `cmd` (an argument, an option value, an environment prefix such as
/// `AWS_PROFILE=prod` or `DATABASE_URL=...`) or of `names` (what a statement in the command
/// destroys) that matches a `production` pattern, with the pattern. Words with spaces are
/// scripts or messages, not names, and are skipped; a URL counts by its host and path, not
/// its user or password. The guard's own `AGENT_GUARD_*` settings are not the command's target.
fn production_word<'a>(
    cmd: &'a SimpleCommand,
    names: &'a [String],
    patterns: &'a [String],
) -> Option<(&'a str, &'a str)> {
    if patterns.is_empty() {
        return None;
    }
    let assigned = cmd
        .assigns
        .iter()
        .filter(|(name, _)| !name.starts_with("AGENT_GUARD_"))
        .filter_map(|(_, w)| w.value());
    let words = cmd.args().iter().filter_map(|w| w.value());
    assigned
        .chain(words)
        .chain(names.iter().map(String::as_str))
        .filter(|w| !w.contains(char::is_whitespace))
        .find_map(|w| {
            let named = url_target(w).unwrap_or(w);
            patterns
                .iter()
                .find(|p| names_word(named, p))
                .map(|p| (w, p.as_str()))
        })
}

/// `host/path` of `scheme://user:password@host:port/path?query`.
fn url_target(word: &str) -> Option<&str> {
    let (_, rest) = word.split_once("://")?;
    let rest = rest.split(['?', '#']).next().unwrap_or(rest);
    let authority_end = rest.find('/').unwrap_or(rest.len());
    let start = rest[..authority_end].rfind('@').map_or(0, |at| at + 1);
    Some(&rest[start..])
}

/// Whether `pattern` occurs in `text` as a whole word: case aside, with no letter or digit
/// right before or after it (`prod-eu`, `app_prod`, `db.prod.internal` name `prod`;
/// `products` does not).
pub(crate) fn names_word(text: &str, pattern: &str) -> bool {
    let text = text.to_ascii_lowercase();
    let pattern = pattern.to_ascii_lowercase();
    if pattern.is_empty() {
        return false;
    }
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(at) = text[from..].find(&pattern) {
        let start = from + at;
        let end = start + pattern.len();
        let before = start.checked_sub(1).and_then(|i| bytes.get(i)).copied();
        let after = bytes.get(end).copied();
        if !before.is_some_and(|b| b.is_ascii_alphanumeric())
            && !after.is_some_and(|b| b.is_ascii_alphanumeric())
        {
            return true;
        }
        from = start + text[start..].chars().next().map_or(1, char::len_utf8);
    }
    false
}

/// Every finding's rule id and tier for `command` under `settings`, for the packs' tests.
#[cfg(test)]
pub(crate) fn judged(command: &str, settings: &Settings) -> Vec<(&'static str, Tier)> {
    crate::shell::analyze(command)
        .commands
        .iter()
        .flat_map(|cmd| crate::rules::check(cmd, settings))
        .map(|f| (f.rule.id, f.tier))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_program_a_pack_reads_leads_to_the_pack() {
        for (at, pack) in PACKS.iter().enumerate() {
            for program in pack.programs {
                let readers = READERS.get(bucket(program.as_bytes())).copied();
                assert!(
                    readers.is_some_and(|r| r & (1 << at) != 0),
                    "{program} of {}",
                    pack.id
                );
            }
        }
    }

    #[test]
    fn production_is_matched_as_a_whole_word() {
        for text in [
            "prod",
            "PROD",
            "prod-eu",
            "app_prod",
            "db.prod.internal",
            "live",
        ] {
            assert!(
                names_word(text, "prod") || names_word(text, "live"),
                "{text}"
            );
        }
        for text in ["products", "reproduce", "delivery", "prodigy", ""] {
            assert!(
                !names_word(text, "prod") && !names_word(text, "live"),
                "{text}"
            );
        }
        assert!(names_word("eu-prod-eu", "prod-eu"));
        assert!(!names_word("x", ""));
    }

    fn tiers(command: &str, settings: &Settings) -> Vec<Tier> {
        judged(command, settings)
            .into_iter()
            .map(|(_, tier)| tier)
            .collect()
    }

    #[test]
    fn a_pack_finding_that_names_production_is_protected() {
        let settings = Settings::default();
        for command in [
            "psql -h db.prod.internal -c 'DELETE FROM sessions'",
            "psql -d production -c 'TRUNCATE orders'",
            "PGHOST=live-db psql -c 'DROP TABLE t'",
            "DATABASE_URL=postgres://u:p@prod-db:5432/app npx prisma migrate reset --force",
            "RAILS_ENV=production bin/rails db:drop",
            "psql -c 'DROP DATABASE shop_prod'",
            "redis-cli -u redis://cache.live.example.com flushall",
            "dropdb app_production",
        ] {
            assert_eq!(tiers(command, &settings), [Tier::Protected], "{command}");
        }
        for command in [
            "psql -d products -c 'TRUNCATE orders'",
            "PGHOST=staging-db psql -c 'DROP TABLE t'",
            "psql -c 'DELETE FROM live_events_archive' -v x='prod data'",
        ] {
            assert_eq!(tiers(command, &settings), [Tier::Destructive], "{command}");
        }
        let off = Settings {
            production: Vec::new(),
            ..Settings::default()
        };
        assert_eq!(
            tiers("psql -h prod -c 'DROP TABLE t'", &off),
            [Tier::Destructive]
        );
    }

    #[test]
    fn urls_count_by_host_and_path() {
        assert_eq!(
            url_target("postgres://prod:secret@db.example.com:5432/app?sslmode=require"),
            Some("db.example.com:5432/app")
        );
        assert_eq!(
            url_target("redis://cache-live:6379"),
            Some("cache-live:6379")
        );
        assert_eq!(url_target("prod"), None);
    }
}
