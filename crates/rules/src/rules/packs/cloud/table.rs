//! The command lines of the smaller clouds name a delete by a path of words (`compute droplet
//! delete`, `server delete`), most with aliases. One table per provider lists the paths that
//! destroy data, so adding a command is adding a row.

use crate::rules::git::list;
use crate::rules::packs::args::{asks_help, has, operands};
use crate::rules::{Hit, Rule, Tier};
use crate::shell::Word;

/// One destructive command: its words, each with its aliases, and what it takes.
pub(super) struct Delete {
    pub path: &'static [&'static [&'static str]],
    /// What goes, as the object of "deletes ...".
    pub what: &'static str,
    pub recovery: &'static str,
    /// Options (as written) of which one must be given for the command to destroy anything
    /// (`--recursive` for a container that must otherwise be empty); empty when none is needed.
    pub needs: &'static [&'static str],
}

/// Shorthand for a row that needs no option.
pub(super) const fn row(
    path: &'static [&'static [&'static str]],
    what: &'static str,
    recovery: &'static str,
) -> Delete {
    Delete {
        path,
        what,
        recovery,
        needs: &[],
    }
}

/// The finding for `args` if its operands start with one of `table`'s paths. `valued` names
/// the options (as written) that take the next word as their value.
pub(super) fn check(
    rule: &'static Rule,
    args: &[Word],
    valued: &[&str],
    table: &'static [Delete],
    safer: &str,
) -> Option<Hit> {
    if asks_help(args) {
        return None;
    }
    let ops = operands(args, valued);
    if ops.first() == Some(&"help") {
        return None;
    }
    let delete = table.iter().find(|d| {
        d.path.len() <= ops.len()
            && d.path
                .iter()
                .zip(&ops)
                .all(|(words, op)| words.contains(op))
            && (d.needs.is_empty() || has(args, d.needs))
    })?;
    let names = ops.get(delete.path.len()..).unwrap_or_default();
    let named = if names.is_empty() {
        String::new()
    } else {
        format!(" ({})", list(names.iter().copied()))
    };
    Some(
        Hit::new(
            rule,
            Tier::Destructive,
            format!("deletes {}{named}", delete.what),
        )
        .safer(safer)
        .recovery(delete.recovery),
    )
}
