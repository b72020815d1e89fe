//! Baseline for `scripts/bench-latency.sh`: the cheapest possible hook, a Rust binary that
//! reads stdin to the end and exits 0. Built with the same release profile as agent-guard,
//! so the difference between the two is agent-guard's own work.
//!
//!     cargo build --release --example empty_stdin

use std::io::Read;

fn main() {
    let mut input = Vec::new();
    let _ = std::io::stdin().read_to_end(&mut input);
}
