//! Packs: rule families for the data an agent can destroy outside the repository
//! (databases, containers, clusters, infrastructure, cloud, hosting, the machine itself).
//!
//! A pack is declared once as a [`Pack`]: its id (the prefix of its rule ids), the programs it
//! reads, its rules and one check function. Dispatch is by program name, so a command that no
//! pack names costs one lookup in a short list and nothing else. Packs are on unless the
//! configuration switches them off (`[packs] disable = [...]`): a guard whose protection waits
//! for configuration protects almost nobody.

mod args;
mod backup;
mod cicd;
mod messaging;
mod search;
mod secrets;

use crate::rules::{Hit, Rule};
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
    &backup::PACK,
    &cicd::PACK,
    &messaging::PACK,
    &search::PACK,
    &secrets::PACK,
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

/// Findings of every switched-on pack that reads `program`.
pub(crate) fn check(program: &str, cmd: &SimpleCommand, settings: &Settings) -> Vec<Hit> {
    let mut hits = Vec::new();
    for pack in PACKS {
        if pack.programs.contains(&program) && enabled(pack, settings) {
            hits.extend((pack.check)(cmd));
        }
    }
    hits
}
