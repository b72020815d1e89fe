//! Wrappers that run a command under other conditions (`sudo`, `nice`, `timeout`, `chroot`,
//! ...): their options and operands, then the command.

use super::{Start, Word};
use crate::syntax::argv::{self, Opt, Options, Spelling, Style, Takes};

/// Option syntax of a wrapper: which options take a value, which mean no command runs.
pub(super) struct Wrapper {
    /// Short options that take a value (`-u root` or `-uroot`).
    pub(super) short_value: &'static str,
    /// Long options (without dashes) that take a value in the next word when written
    /// without `=`.
    pub(super) long_value: &'static [&'static str],
    /// Short options after which no command runs (`command -v`, `sudo -l`).
    pub(super) short_no_command: &'static str,
    /// Long options (without dashes) after which no command runs (`sudo --list`).
    pub(super) long_no_command: &'static [&'static str],
    /// Operands before the command (`timeout DURATION cmd`).
    pub(super) operands: usize,
}

pub(super) const PLAIN: Wrapper = Wrapper {
    short_value: "",
    long_value: &[],
    short_no_command: "",
    long_no_command: &["help", "version"],
    operands: 0,
};

pub(super) fn wrapper(name: &str) -> Option<Wrapper> {
    Some(match name {
        "sudo" => Wrapper {
            short_value: "CDghpRrTtUu",
            long_value: &[
                "user",
                "group",
                "host",
                "prompt",
                "role",
                "type",
                "close-from",
                "chdir",
                "chroot",
                "command-timeout",
                "other-user",
            ],
            short_no_command: "eKlVv",
            long_no_command: &[
                "edit",
                "list",
                "version",
                "validate",
                "remove-timestamp",
                "help",
            ],
            operands: 0,
        },
        "doas" => Wrapper {
            short_value: "uC",
            short_no_command: "L",
            ..PLAIN
        },
        "command" => Wrapper {
            short_no_command: "vV",
            ..PLAIN
        },
        "exec" => Wrapper {
            short_value: "a",
            ..PLAIN
        },
        "nice" => Wrapper {
            short_value: "n",
            long_value: &["adjustment"],
            ..PLAIN
        },
        "timeout" => Wrapper {
            short_value: "sk",
            long_value: &["signal", "kill-after"],
            operands: 1,
            ..PLAIN
        },
        "time" => Wrapper {
            short_value: "fo",
            long_value: &["format", "output"],
            ..PLAIN
        },
        "stdbuf" => Wrapper {
            short_value: "ioe",
            long_value: &["input", "output", "error"],
            ..PLAIN
        },
        "ionice" => Wrapper {
            short_value: "cn",
            long_value: &["class", "classdata"],
            short_no_command: "pP",
            long_no_command: &["pid", "pgid", "uid", "help", "version"],
            ..PLAIN
        },
        // shelljs's commands from the command line: `shx rm -rf dist` is `rm -rf dist`.
        "shx" => PLAIN,
        "caffeinate" => Wrapper {
            short_value: "tw",
            ..PLAIN
        },
        "pkexec" => Wrapper {
            long_value: &["user"],
            ..PLAIN
        },
        // `chroot NEWROOT cmd`: the command runs under another root, its paths too.
        "chroot" => Wrapper {
            long_value: &["userspec", "groups"],
            operands: 1,
            ..PLAIN
        },
        "systemd-run" => Wrapper {
            short_value: "upEMH",
            long_value: &[
                "unit",
                "property",
                "setenv",
                "machine",
                "host",
                "uid",
                "gid",
                "nice",
                "working-directory",
                "description",
                "slice",
                "service-type",
                "on-active",
                "on-boot",
                "on-startup",
                "on-unit-active",
                "on-unit-inactive",
                "on-calendar",
            ],
            ..PLAIN
        },
        // A Flatpak sandbox runs a command on the host through it.
        "flatpak-spawn" => Wrapper {
            long_value: &["env", "directory", "forward-fd"],
            ..PLAIN
        },
        "nohup" | "builtin" | "setsid" | "busybox" | "nocorrect" | "noglob" | "chronic"
        | "unbuffer" | "coproc" | "firejail" => PLAIN,
        _ => return None,
    })
}

/// A letter takes a value when `valued` holds it (`-u root`, `-uroot`).
pub(super) fn short_takes(valued: &str, letter: char) -> Takes {
    if valued.contains(letter) {
        Takes::Value
    } else {
        Takes::Nothing
    }
}

/// A long option takes a value when `valued` (spelt without dashes) holds it.
pub(super) fn long_takes(valued: &[&str], name: &str) -> Takes {
    if valued.contains(&name) {
        Takes::Value
    } else {
        Takes::Nothing
    }
}

impl Options for Wrapper {
    fn long(&self, name: &str) -> Option<Takes> {
        Some(long_takes(self.long_value, name))
    }
    fn short(&self, letter: char) -> Option<Takes> {
        Some(short_takes(self.short_value, letter))
    }
}

impl Wrapper {
    /// Whether `opt` is one after which no command runs.
    fn no_command(&self, opt: &Opt) -> bool {
        match opt.spelling {
            Spelling::Long => self.long_no_command.iter().any(|l| opt.is(l)),
            Spelling::Short => self
                .short_no_command
                .chars()
                .any(|c| opt.is(c.encode_utf8(&mut [0; 4]))),
        }
    }
}

/// Skips a wrapper's options and operands. A wrapper never permutes: its options end at the
/// first operand, so `sudo rm -rf x` lends nothing to sudo.
pub(super) fn peel(spec: &Wrapper, argv: &[Word]) -> Start {
    let args = argv.get(1..).unwrap_or_default();
    let head = argv::read_head(args, Style::Getopt, spec);
    if head.opts.iter().any(|opt| spec.no_command(opt)) {
        return Start::Nothing;
    }
    match head.stopped_at.map(|at| 1 + at + spec.operands) {
        Some(at) if at < argv.len() => Start::At(at),
        _ => Start::Nothing,
    }
}
