//! Jujutsu (`jj`). Every jj command is recorded in its operation log, so `jj abandon`, `jj
//! restore`, `jj squash` and the rest can be undone (`jj undo`, `jj op restore`) and pass.
//! What cannot be undone is dropping that log.

use super::first_operand;
use crate::rules::packs::args::{operands, value};
use crate::rules::{Hit, Rule, Tier};
use crate::shell::Word;

pub static JJ_OP_ABANDON: Rule = Rule {
    id: "vcs.jj-op-abandon",
    catches: "`jj op abandon` (`jj operation abandon`) and `jj util gc --expire=now`",
    why: "jj's operation log is what makes every other jj command undoable: abandoned, \
          restored or rewritten changes stay reachable through it (`jj undo`, `jj op restore`). \
          `jj op abandon` removes operations from that log, and `jj util gc --expire=now` then \
          deletes at once the commits only they referred to.",
    instead: "Leave the operation log alone: `jj op log` shows it, `jj undo` and `jj op \
              restore` use it. `jj util gc` without `--expire` keeps the last two weeks.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "jj op abandon ..@-",
        "jj operation abandon abc123..def456",
        "jj util gc --expire=now",
        "jj util gc --expire now",
        "jj -R ~/src/app op abandon ..7d1f",
    ],
    passes: &[
        "jj abandon revsets",
        "jj restore",
        "jj op log",
        "jj op undo",
        "jj undo",
        "jj util gc",
        "jj op restore abc123",
    ],
};

/// jj's global options that take a value.
const VALUED: &[&str] = &[
    "-R",
    "--repository",
    "--at-operation",
    "--at-op",
    "--color",
    "--config",
    "--config-file",
    "--config-toml",
];

pub(super) fn jj(args: &[Word]) -> Option<Hit> {
    let at = first_operand(args, VALUED)?;
    let (word, rest) = args.get(at..)?.split_first()?;
    let path = operands(rest, VALUED);
    let loses = match (word.value()?, path.first().copied()) {
        ("op" | "operation", Some("abandon")) => {
            "removes operations from jj's operation log: what only they referred to can no \
             longer be restored (`jj undo` and `jj op restore` cannot reach past them)"
        }
        ("util", Some("gc")) if value(rest, &["--expire"]) == Some("now") => {
            "deletes now every commit and operation that nothing current refers to: the copies \
             the operation log would otherwise keep for two weeks"
        }
        _ => return None,
    };
    Some(
        Hit::new(&JJ_OP_ABANDON, Tier::Destructive, loses)
            .safer("`jj op log` shows the history; `jj util gc` without `--expire` keeps the last two weeks")
            .recovery("none: jj keeps no record of abandoned operations"),
    )
}
