//! The JSON settings editor of `agent-guard install`: on any settings file it may refuse,
//! but what it writes must hold our entry, a second install must change nothing, and
//! uninstall must take every entry of ours out again. (Byte for byte the round trip is not
//! exact: a hooks object left empty goes, and so does the blank inside an otherwise empty
//! object, `{ }` coming back as `{}`; the unit tests pin the shapes that do come back.)
#![no_main]

use agent_guard::host::wiring::J;
use agent_guard::install::json::{Layout, commands, install, uninstall};
use agent_guard::install::{Outcome, Removal};
use libfuzzer_sys::fuzz_target;

const COMMAND: &str = "/opt/bin/agent-guard hook --host fuzz";

fn ours(command: &str) -> bool {
    command.contains("agent-guard")
}

/// The three shapes the hosts use: Claude Code's matcher groups, Cursor's flat handlers
/// under a preamble, Kiro's command nested in an action.
fn layouts() -> [Layout; 3] {
    [
        Layout {
            preamble: Vec::new(),
            path: vec!["hooks", "PreToolUse"],
            group: Some("Bash"),
            command_key: &["command"],
            twin: None,
            handler: |c| J::Obj(vec![("type", J::str("command")), ("command", J::str(c))]),
        },
        Layout {
            preamble: vec![("version", J::Int(1))],
            path: vec!["hooks", "beforeShellExecution"],
            group: None,
            command_key: &["command"],
            twin: None,
            handler: |c| J::Obj(vec![("command", J::str(c))]),
        },
        Layout {
            preamble: vec![("version", J::str("v1"))],
            path: vec!["hooks"],
            group: None,
            command_key: &["action", "command"],
            twin: None,
            handler: |c| {
                J::Obj(vec![
                    ("name", J::str("agent-guard")),
                    ("action", J::Obj(vec![("command", J::str(c))])),
                ])
            },
        },
    ]
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for layout in layouts() {
        if commands(text, &layout, &ours).is_err() {
            continue;
        }
        let Ok((after, _)) = install(Some(text), &layout, COMMAND, &ours) else {
            continue;
        };
        let found = commands(&after, &layout, &ours).expect("install wrote JSON it cannot read");
        assert!(
            found.iter().any(|c| c == COMMAND),
            "no entry after install:\n{after}"
        );
        let again = install(Some(&after), &layout, COMMAND, &ours).expect("reinstall failed");
        assert_eq!(
            again,
            (after.clone(), Outcome::AlreadyThere),
            "install is not idempotent"
        );
        match uninstall(&after, &layout, &ours).expect("uninstall failed") {
            Removal::Text(left) => {
                let found = commands(&left, &layout, &ours).expect("uninstall wrote bad JSON");
                assert!(found.is_empty(), "an entry survived uninstall:\n{left}");
            }
            Removal::DeleteFile => {}
            Removal::NotThere => panic!("uninstall found no entry in:\n{after}"),
        }
    }
});
