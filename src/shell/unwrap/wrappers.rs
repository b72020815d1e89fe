//! Wrappers that run a command under other conditions (`sudo`, `nice`, `timeout`, `chroot`,
//! ...): their options and operands, then the command.

use super::{Start, Word};

/// Option syntax of a wrapper: which options take a value, which mean no command runs.
pub(super) struct Wrapper {
    /// Short options that take a value (`-u root` or `-uroot`).
    pub(super) short_value: &'static str,
    /// Long options that take a value in the next word when written without `=`.
    pub(super) long_value: &'static [&'static str],
    /// Short options after which no command runs (`command -v`, `sudo -l`).
    pub(super) short_no_command: &'static str,
    pub(super) long_no_command: &'static [&'static str],
    /// Operands before the command (`timeout DURATION cmd`).
    pub(super) operands: usize,
}

pub(super) const PLAIN: Wrapper = Wrapper {
    short_value: "",
    long_value: &[],
    short_no_command: "",
    long_no_command: &["--help", "--version"],
    operands: 0,
};

pub(super) fn wrapper(name: &str) -> Option<Wrapper> {
    Some(match name {
        "sudo" => Wrapper {
            short_value: "CDghpRrTtUu",
            long_value: &[
                "--user",
                "--group",
                "--host",
                "--prompt",
                "--role",
                "--type",
                "--close-from",
                "--chdir",
                "--chroot",
                "--command-timeout",
                "--other-user",
            ],
            short_no_command: "eKlVv",
            long_no_command: &[
                "--edit",
                "--list",
                "--version",
                "--validate",
                "--remove-timestamp",
                "--help",
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
            long_value: &["--adjustment"],
            ..PLAIN
        },
        "timeout" => Wrapper {
            short_value: "sk",
            long_value: &["--signal", "--kill-after"],
            operands: 1,
            ..PLAIN
        },
        "time" => Wrapper {
            short_value: "fo",
            long_value: &["--format", "--output"],
            ..PLAIN
        },
        "stdbuf" => Wrapper {
            short_value: "ioe",
            long_value: &["--input", "--output", "--error"],
            ..PLAIN
        },
        "ionice" => Wrapper {
            short_value: "cn",
            long_value: &["--class", "--classdata"],
            short_no_command: "pP",
            long_no_command: &["--pid", "--pgid", "--uid", "--help", "--version"],
            ..PLAIN
        },
        "caffeinate" => Wrapper {
            short_value: "tw",
            ..PLAIN
        },
        "pkexec" => Wrapper {
            long_value: &["--user"],
            ..PLAIN
        },
        // `chroot NEWROOT cmd`: the command runs under another root, its paths too.
        "chroot" => Wrapper {
            long_value: &["--userspec", "--groups"],
            operands: 1,
            ..PLAIN
        },
        "systemd-run" => Wrapper {
            short_value: "upEMH",
            long_value: &[
                "--unit",
                "--property",
                "--setenv",
                "--machine",
                "--host",
                "--uid",
                "--gid",
                "--nice",
                "--working-directory",
                "--description",
                "--slice",
                "--service-type",
                "--on-active",
                "--on-boot",
                "--on-startup",
                "--on-unit-active",
                "--on-unit-inactive",
                "--on-calendar",
            ],
            ..PLAIN
        },
        // A Flatpak sandbox runs a command on the host through it.
        "flatpak-spawn" => Wrapper {
            long_value: &["--env", "--directory", "--forward-fd"],
            ..PLAIN
        },
        "nohup" | "builtin" | "setsid" | "busybox" | "nocorrect" | "noglob" | "chronic"
        | "unbuffer" | "coproc" | "firejail" => PLAIN,
        _ => return None,
    })
}

/// Skips a wrapper's options and operands.
pub(super) fn peel(spec: &Wrapper, argv: &[Word]) -> Start {
    let mut i = 1;
    while let Some(word) = argv.get(i) {
        let w = word.text.as_str();
        if w == "--" {
            i += 1;
            break;
        }
        if let Some(long) = w.strip_prefix("--") {
            let name = long.split('=').next().unwrap_or(long);
            let flag = format!("--{name}");
            if spec.long_no_command.contains(&flag.as_str()) {
                return Start::Nothing;
            }
            i += if !long.contains('=') && spec.long_value.contains(&flag.as_str()) {
                2
            } else {
                1
            };
            continue;
        }
        if w.len() > 1 && w.starts_with('-') {
            for (pos, c) in w[1..].char_indices() {
                if spec.short_no_command.contains(c) {
                    return Start::Nothing;
                }
                if spec.short_value.contains(c) {
                    if pos + 1 + c.len_utf8() == w.len() {
                        i += 1; // the value is the next word
                    }
                    break;
                }
            }
            i += 1;
            continue;
        }
        break;
    }
    i += spec.operands;
    if i < argv.len() {
        Start::At(i)
    } else {
        Start::Nothing
    }
}
