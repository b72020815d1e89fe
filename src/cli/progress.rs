//! Progress bars for work that can take more than a moment, drawn on stderr only when it is
//! a terminal: piped or redirected, nothing is written, so output stays clean for scripts.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};

/// A bar for `len` steps of `what`; hidden (every call on it does nothing) off a terminal.
pub(super) fn bar(len: usize, what: &'static str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len as u64);
    if let Ok(style) = ProgressStyle::with_template(
        "{msg} [{bar:32}] {human_pos}/{human_len} ({elapsed}, {eta} left)",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(what);
    bar
}
