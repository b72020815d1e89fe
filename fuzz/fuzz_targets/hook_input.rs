//! The hook's whole input path: raw stdin bytes → payload decoding → a verdict in both
//! profiles. Any panic, crash or hang here would break (or fail open) the agent's tool call.
#![no_main]

use agent_guard::settings::{Profile, Settings};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(call) = agent_guard::host::decode(data, None) else {
        return;
    };
    for profile in [Profile::Standard, Profile::Strict] {
        let settings = Settings {
            profile,
            context: false,
            ..Settings::default()
        };
        let verdict = agent_guard::evaluate(&call.command, &settings);
        let _ = agent_guard::host::encode(&call, &verdict);
    }
});
