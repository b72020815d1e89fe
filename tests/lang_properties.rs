//! Property tests for the embedded-language readers: whatever code an interpreter, PowerShell
//! or `cmd` is handed, reading it must return (never panic, never hang), and the verdict on
//! the whole command line must stay consistent.
//!
//! Each case runs in a forked child with a time limit, as in properties.rs: the grammars are
//! C, so a crash would be a signal that only a separate process turns into a shrinkable
//! failure.

use agent_guard::lang::{self, Lang, ScriptArgs};
use agent_guard::policy::Decision;
use agent_guard::settings::{Profile, Settings};
use agent_guard::shell::{self, Dialect};
use proptest::prelude::*;

const LANGS: [Lang; 8] = [
    Lang::Python,
    Lang::JavaScript,
    Lang::Ruby,
    Lang::Perl,
    Lang::Php,
    Lang::PhpTagged,
    Lang::PowerShell,
    Lang::Cmd,
];

/// Interpreter command lines the code is put into.
const WRAPPERS: &[&str] = &[
    "python3 -c",
    "node -e",
    "deno eval",
    "bun -e",
    "ruby -e",
    "perl -e",
    "php -r",
    "pwsh -Command",
    "cmd /c",
];

fn crash_proof(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        fork: true,
        timeout: 10_000,
        ..ProptestConfig::default()
    }
}

/// Pieces of the languages' syntax, so generated code reaches into each grammar instead of
/// being one long identifier.
#[rustfmt::skip]
const CODEISH: &[&str] = &[
    "(", ")", "[", "]", "{", "}", "'", "\"", "`", "\\", ",", ";", ".", ":", "=", "=>", "->",
    "$", "@", "%", "#", "/", "|", "&", "^", ">", "<", " ", "\n", "q(", "qx{", "qw/", "s/",
    "%x(", "#{", "${", "f'", "r\"", "<?php", "?>", "-Recurse", "-Path", "-r", "/s", "/q",
    "shutil.rmtree", "os.system", "subprocess.run", "open", "'w'", "require('fs')",
    ".rmSync", "{recursive: true}", "execSync", "spawnSync", "FileUtils.rm_rf", "system",
    "exec", "unlink", "rmtree", "File.write", "file_put_contents", "Remove-Item", "ri", "rd",
    "del", "git", "reset", "--hard", "rm -rf", "out", ".claude/settings.json", "x", "1",
];

fn codeish() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(CODEISH), 0..80).prop_map(|parts| parts.concat())
}

fn settings(profile: Profile) -> Settings {
    Settings {
        profile,
        context: false,
        ..Settings::default()
    }
}

proptest! {
    #![proptest_config(crash_proof(256))]

    /// Every reader returns on arbitrary text, and on text built from its own syntax.
    #[test]
    fn readers_never_panic(
        bytes in prop::collection::vec(any::<u8>(), 0..512),
        code in codeish(),
    ) {
        let text = String::from_utf8_lossy(&bytes);
        let deadline = lang::Deadline::after(shell::PARSE_DEADLINE);
        // Code read as a script file run with arguments binds its reads of them.
        let words = [agent_guard::syntax::Word::literal(text.as_ref()), agent_guard::syntax::Word::literal("src")];
        for lang in LANGS {
            lang::effects(lang, &text, ScriptArgs::NONE, deadline);
            lang::effects(lang, &code, ScriptArgs::new(&words), deadline);
        }
    }

    /// Code inside an interpreter command line: the analysis returns, every command it finds
    /// has a program and a span inside the line, and a verdict is allow exactly when it has
    /// no finding.
    #[test]
    fn interpreter_lines_are_total(
        wrapper in prop::sample::select(WRAPPERS),
        code in codeish(),
    ) {
        let line = format!("{wrapper} {}", shell::word::quote(&code));
        for dialect in [Dialect::Posix, Dialect::PowerShell] {
            let analysis = shell::analyze_as(&line, dialect);
            for cmd in &analysis.commands {
                prop_assert!(!cmd.argv.is_empty(), "empty argv from {:?}", line);
                prop_assert!(line.get(cmd.span.clone()).is_some(), "span outside {:?}", line);
            }
        }
        for profile in [Profile::Standard, Profile::Strict] {
            let verdict = agent_guard::evaluate(&line, &settings(profile));
            prop_assert_eq!(
                verdict.decision == Decision::Allow,
                verdict.findings.is_empty(),
                "{:?}",
                line
            );
        }
    }
}
