//! PHP code (`php -r`, and a file piped to `php` with its `<?php ... ?>` tags):
//! tree-sitter-php's parser and the reader that lowers `unlink`, `rmdir`, `system`, `exec`,
//! backticks and writes into commands. Any panic here would break, or fail open, the hook's
//! answer.
#![no_main]

use agent_guard::lang::{Deadline, Effect, Lang, ScriptArgs, effects};
use agent_guard::syntax::PARSE_DEADLINE;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let code = String::from_utf8_lossy(data);
    for lang in [Lang::Php, Lang::PhpTagged] {
        for effect in effects(
            lang,
            &code,
            ScriptArgs::NONE,
            Deadline::after(PARSE_DEADLINE),
        )
        .effects
        {
            if let Effect::Code { lang, code } = effect {
                let _ = effects(
                    lang,
                    &code.text,
                    ScriptArgs::NONE,
                    Deadline::after(PARSE_DEADLINE),
                );
            }
        }
    }
});
