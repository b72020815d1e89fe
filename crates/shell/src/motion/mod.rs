//! What a line sets in motion beyond its own words: the recipes a task runner runs
//! (`npm run build`, `make clean`, `just reset`, ...), read from the files that hold them,
//! and the commands it sends to run elsewhere (`docker exec`, `kubectl exec`, `ssh host`).
//!
//! A reader, like the shell and the interpreter-code readers: it answers "what text would
//! run, and where", never "is that dangerous", and knows nothing of rules, context or policy.

pub mod channels;
pub mod recipes;
