//! Internal errors: what a panic inside the guard said and where it was raised, for the
//! audit log. The guard catches its own panics (see [`crate::judge_safely`]); a caught
//! panic's payload holds only its message, so a panic hook notes the place.

use std::any::Any;
use std::cell::RefCell;
use std::panic;
use std::sync::Once;

/// An internal error (a panic) met while judging a command: what it said and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InternalError {
    pub message: String,
    /// `file:line:column`, known for a panic raised after [`locate_panics`].
    pub location: Option<String>,
}

/// Longest panic message kept: a message may quote a whole command line.
const MAX_PANIC_MESSAGE: usize = 500;

impl InternalError {
    /// The error a caught panic's `payload` stands for, with where this thread's latest panic
    /// was raised.
    pub fn from_panic(payload: &(dyn Any + Send)) -> InternalError {
        let message = payload
            .downcast_ref::<&str>()
            .map(|m| m.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic with no message".into());
        let message = match message.char_indices().nth(MAX_PANIC_MESSAGE) {
            Some((cut, _)) => format!("{}…", &message[..cut]),
            None => message,
        };
        let location = PANICKED_AT.try_with(RefCell::take).ok().flatten();
        InternalError { message, location }
    }
}

impl std::fmt::Display for InternalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.location {
            Some(at) => write!(f, "panicked at {at}: {}", self.message),
            None => write!(f, "panicked: {}", self.message),
        }
    }
}

thread_local! {
    /// Where the latest panic on this thread was raised.
    static PANICKED_AT: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Makes every later panic note where it was raised, for the [`InternalError`] it becomes;
/// the panic hook set before still runs after.
pub fn locate_panics() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            let at = info.location().map(ToString::to_string);
            let _ = PANICKED_AT.try_with(|p| p.replace(at));
            previous(info);
        }));
    });
}
