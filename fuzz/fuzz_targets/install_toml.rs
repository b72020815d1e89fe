//! The TOML settings editor of `agent-guard install` (Codex's inline `[[hooks.PreToolUse]]`
//! tables): on any `config.toml` it may refuse, but what it writes must hold our hook, a
//! second install must change nothing, and uninstall must give back a file that held no hook
//! of ours byte for byte, but for a final line break a file without one may gain (and for a
//! file that mixes `\n` and `\r\n` line endings, which comes back with `\n`).
#![no_main]

use agent_guard::host::wiring::Group;
use agent_guard::install::toml::{commands, install, keeps_hooks, uninstall};
use agent_guard::install::{Outcome, Removal};
use libfuzzer_sys::fuzz_target;

const COMMAND: &str = "/opt/bin/agent-guard hook --host codex";

const GROUP: Group = Group {
    event: "PreToolUse",
    matcher: "Bash",
    timeout: 30,
};

fn ours(command: &str) -> bool {
    command.contains("agent-guard")
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = keeps_hooks(text);
    let Ok(before) = commands(text, &GROUP, &ours) else {
        return;
    };
    let Ok((after, outcome)) = install(text, &GROUP, COMMAND, &ours) else {
        return;
    };
    let found = commands(&after, &GROUP, &ours).expect("install wrote TOML it cannot read");
    assert!(
        found.iter().any(|c| c == COMMAND),
        "no hook after install:\n{after}"
    );
    let again = install(&after, &GROUP, COMMAND, &ours).expect("reinstall failed");
    assert_eq!(
        again,
        (after.clone(), Outcome::AlreadyThere),
        "install is not idempotent"
    );
    if before.is_empty() && outcome == Outcome::Added {
        let Removal::Text(left) = uninstall(&after, &GROUP, &ours).expect("uninstall failed")
        else {
            panic!("uninstall did not give the file back");
        };
        let gained_line_break = !text.ends_with('\n')
            && [left.strip_suffix('\n'), left.strip_suffix("\r\n")].contains(&Some(text));
        let mixed = text.contains("\r\n") && text.replace("\r\n", "").contains('\n');
        assert!(
            left == text || gained_line_break || mixed,
            "uninstall changed the file: {left:?} from {text:?}"
        );
    }
});
