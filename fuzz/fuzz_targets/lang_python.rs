//! Python code (`python3 -c`): tree-sitter-python's parser and the reader that lowers
//! `os.remove`, `shutil.rmtree`, `subprocess.run` and writes into commands.
//! Any panic here would break, or fail open, the hook's answer.
#![no_main]

use agent_guard::lang::{Deadline, Effect, Lang, ScriptArgs, effects};
use agent_guard::syntax::PARSE_DEADLINE;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let code = String::from_utf8_lossy(data);
    for effect in effects(
        Lang::Python,
        &code,
        ScriptArgs::NONE,
        Deadline::after(PARSE_DEADLINE),
    )
    .effects
    {
        if let Effect::Code { lang, code } = effect {
            // Code handed on to another reader (`Invoke-Expression`, `cmd /c`) is read too.
            let _ = effects(
                lang,
                &code.text,
                ScriptArgs::NONE,
                Deadline::after(PARSE_DEADLINE),
            );
        }
    }
});
