//! A configuration file (`.agent-guard.toml`, `config.toml`): toml_edit's parser and the
//! reader that lays each key over the settings and reports problems with their line. It runs
//! on every hook call, so a panic here would break every command.
#![no_main]

use std::collections::BTreeMap;
use std::path::Path;

use agent_guard::config::parse::apply;
use agent_guard::settings::Settings;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut settings = Settings::default();
    let mut origins = BTreeMap::new();
    let mut problems = Vec::new();
    let path = Path::new(".agent-guard.toml");
    apply(text, path, &mut settings, &mut origins, &mut problems);
    for problem in &problems {
        assert!(
            problem.line >= 1,
            "a problem before the first line: {problem}"
        );
    }
});
