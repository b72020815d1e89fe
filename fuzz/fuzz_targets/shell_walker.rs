//! The shell analyzer on arbitrary text: tree-sitter-bash's parser (C), the iterative walker,
//! wrapper peeling and nested `sh -c`/`eval`/heredoc scripts, then the rules.
#![no_main]

use agent_guard::settings::{Profile, Settings};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let command = String::from_utf8_lossy(data);
    let analysis = agent_guard::shell::analyze(&command);
    for cmd in &analysis.commands {
        assert!(!cmd.argv.is_empty(), "a command with no program");
        assert!(
            command.get(cmd.span.clone()).is_some(),
            "span outside input"
        );
    }
    for profile in [Profile::Standard, Profile::Strict] {
        let settings = Settings {
            profile,
            context: false,
            ..Settings::default()
        };
        let _ = agent_guard::evaluate(&command, &settings);
    }
});
