//! Remote shells other than ssh (`mosh`, Teleport's `tsh ssh`) and the tools that run one
//! command on many machines at once (`ansible -m shell`, `salt cmd.run`, `pssh`, `pdsh`).
//! Each hands the far side either shell text or an argv, like [`super::ssh`] does.

use super::{Channel, Elsewhere, Kind, Sent, from, host_of, script_of};
use crate::syntax::Word;
use crate::syntax::argv::{self, Style, Valued};

const MOSH_VALUED: &[&str] = &[
    "client",
    "server",
    "ssh",
    "predict",
    "p",
    "port",
    "family",
    "bind-server",
    "experimental-remote-ip",
];

/// `mosh [options] [--] HOST [--] COMMAND...`: mosh-server runs the command's words as an
/// argv, quoted on their way through ssh.
pub(super) fn mosh(args: &[Word]) -> Option<Channel> {
    let opts = argv::read_head(args, Style::Getopt, &Valued(MOSH_VALUED));
    let at = opts.stopped_at?;
    let destination = args.get(at)?;
    let rest = from(args, at + 1);
    let rest = match rest.first() {
        Some(w) if w.text == "--" => from(rest, 1),
        _ => rest,
    };
    if rest.is_empty() {
        return None;
    }
    let mut place = Elsewhere::new(Kind::Host, host_of(&destination.text));
    place.names.push(destination.text.clone());
    place
        .names
        .extend(opts.values(&["ssh", "server"]).map(str::to_string));
    Some(Channel {
        place,
        sent: Sent::Argv {
            argv: rest.to_vec(),
            env: Vec::new(),
        },
    })
}

/// Options of `tsh` and of `tsh ssh` that take a value.
const TSH_VALUED: &[&str] = &[
    "proxy",
    "user",
    "auth",
    "i",
    "identity",
    "ttl",
    "k",
    "add-keys-to-agent",
    "cluster",
    "login",
    "l",
    "p",
    "port",
    "L",
    "forward",
    "D",
    "dynamic-forward",
    "R",
    "remote-forward",
    "o",
    "option",
    "request-reason",
    "request-id",
    "request-mode",
    "log-dir",
    "mfa-mode",
    "headless",
    "ca-cert",
];

/// `tsh [globals] ssh [options] [USER@]HOST|LABELS [COMMAND...]`: like ssh, the command's
/// words joined into the text the remote shell runs.
pub(super) fn tsh(args: &[Word]) -> Option<Channel> {
    let globals = argv::read_head(args, Style::Pflag, &Valued(TSH_VALUED));
    let at = globals.stopped_at?;
    if args.get(at)?.text != "ssh" {
        return None;
    }
    let rest = from(args, at + 1);
    let opts = argv::read_head(rest, Style::Pflag, &Valued(TSH_VALUED));
    if opts.on(&["N", "no-remote-exec"]) {
        return None;
    }
    let host_at = opts.stopped_at?;
    let destination = rest.get(host_at)?;
    let command = from(rest, host_at + 1);
    let command = match command.first() {
        Some(w) if w.text == "--" => from(command, 1),
        _ => command,
    };
    let script = script_of(command)?;
    let mut place = Elsewhere::new(Kind::Host, host_of(&destination.text));
    place.names.push(destination.text.clone());
    place.names.extend(
        globals
            .values(&["proxy", "cluster"])
            .chain(opts.values(&["proxy", "cluster"]))
            .map(str::to_string),
    );
    Some(Channel {
        place,
        sent: Sent::Script(script),
    })
}

const ANSIBLE_VALUED: &[&str] = &[
    "m",
    "module-name",
    "a",
    "args",
    "i",
    "inventory",
    "inventory-file",
    "l",
    "limit",
    "u",
    "user",
    "e",
    "extra-vars",
    "f",
    "forks",
    "M",
    "module-path",
    "c",
    "connection",
    "T",
    "timeout",
    "B",
    "background",
    "P",
    "poll",
    "t",
    "tree",
    "private-key",
    "key-file",
    "vault-id",
    "vault-password-file",
    "become-method",
    "become-user",
    "become-password-file",
    "connection-password-file",
    "playbook-dir",
    "ssh-common-args",
    "ssh-extra-args",
    "sftp-extra-args",
    "scp-extra-args",
    "task-timeout",
];

/// The `command` module's own parameters, given as `key=value` words in its free form.
const ANSIBLE_PARAMS: &[&str] = &[
    "chdir",
    "creates",
    "removes",
    "executable",
    "stdin",
    "stdin_add_newline",
    "strip_empty_ends",
    "warn",
    "expand_argument_vars",
];

/// `ansible PATTERN -m shell|command|raw -a TEXT`: the shell and raw modules hand the text to
/// the far side's shell; the command module (the default) splits it into an argv.
pub(super) fn ansible(args: &[Word]) -> Option<Channel> {
    let opts = argv::read(args, Style::Pflag, &Valued(ANSIBLE_VALUED));
    let pattern = opts.operands.first().and_then(|&i| args.get(i))?;
    let module = opts
        .last(&["m", "module-name"])
        .and_then(|o| o.value)
        .unwrap_or("command");
    let module = module.rsplit('.').next().unwrap_or(module);
    let text = opts.last(&["a", "args"])?.value_in(args)?;
    let free: Vec<&str> = text
        .text
        .split_whitespace()
        .skip_while(|w| {
            w.split_once('=')
                .is_some_and(|(key, _)| ANSIBLE_PARAMS.contains(&key))
        })
        .collect();
    if free.is_empty() {
        return None;
    }
    let free = Word {
        text: free.join(" "),
        literal: text.literal,
        temp: None,
    };
    // The command module splits the text as a shell would, with no shell to run it: the
    // same argv as the text read as a script.
    if !matches!(module, "shell" | "raw" | "command") {
        return None;
    }
    let mut place = Elsewhere::new(Kind::Hosts, &pattern.text);
    place.names.extend(
        opts.values(&["i", "inventory", "inventory-file", "l", "limit"])
            .map(str::to_string),
    );
    Some(Channel {
        place,
        sent: Sent::Script(free),
    })
}

const SALT_VALUED: &[&str] = &[
    "t",
    "timeout",
    "s",
    "static",
    "b",
    "batch",
    "batch-size",
    "batch-wait",
    "c",
    "config-dir",
    "l",
    "log-level",
    "out",
    "output",
    "out-file",
    "return",
    "return_config",
    "return_kwargs",
    "module-executors",
    "executor-opts",
    "a",
    "auth",
    "eauth",
    "external-auth",
    "delimiter",
    "tgt-type",
    "key-deploy",
    "priv",
    "roster",
    "roster-file",
    "user",
];

/// The execution functions of Salt's `cmd` module that run shell text.
const SALT_RUN: &[&str] = &[
    "cmd.run",
    "cmd.shell",
    "cmd.run_all",
    "cmd.run_stdout",
    "cmd.run_stderr",
    "cmd.run_bg",
    "cmd.exec_code",
];

/// `salt|salt-ssh TARGET cmd.run TEXT [key=value...]`: the minions' shell runs the text.
pub(super) fn salt(args: &[Word]) -> Option<Channel> {
    let opts = argv::read(args, Style::Pflag, &Valued(SALT_VALUED));
    let operands: Vec<&Word> = opts.operands.iter().filter_map(|&i| args.get(i)).collect();
    let [target, function, command, ..] = operands.as_slice() else {
        return None;
    };
    if !SALT_RUN.contains(&function.text.as_str()) {
        return None;
    }
    // `cmd.exec_code bash 'TEXT'`: the language comes first.
    let (script, language) = if function.text == "cmd.exec_code" {
        (*operands.get(3)?, Some(command.text.as_str()))
    } else {
        (*command, None)
    };
    if language.is_some_and(|l| !matches!(l, "bash" | "sh" | "zsh" | "dash")) {
        return None;
    }
    let place = Elsewhere::new(Kind::Hosts, &target.text);
    Some(Channel {
        place,
        sent: Sent::Script(script.clone()),
    })
}

const PSSH_VALUED: &[&str] = &[
    "h",
    "hosts",
    "H",
    "host",
    "l",
    "user",
    "p",
    "par",
    "o",
    "outdir",
    "e",
    "errdir",
    "t",
    "timeout",
    "O",
    "option",
    "x",
    "extra-args",
    "X",
    "extra-arg",
];

const PDSH_VALUED: &[&str] = &["w", "x", "g", "X", "l", "t", "u", "f", "R", "M", "F"];

/// `pssh|parallel-ssh [options] COMMAND...` and `pdsh -w HOSTS [options] COMMAND...`: the
/// words joined into the text every host's shell runs.
pub(super) fn parallel_ssh(args: &[Word], pdsh: bool) -> Option<Channel> {
    let valued = if pdsh { PDSH_VALUED } else { PSSH_VALUED };
    let opts = argv::read_head(args, Style::Getopt, &Valued(valued));
    // pssh -I reads the command from stdin.
    if !pdsh && opts.on(&["I", "send-input"]) {
        return None;
    }
    let script = script_of(from(args, opts.stopped_at?))?;
    let hosts: Vec<&str> = if pdsh {
        opts.values(&["w", "g"]).collect()
    } else {
        opts.values(&["h", "hosts", "H", "host"]).collect()
    };
    let name = if hosts.is_empty() {
        "of its host list".to_string()
    } else {
        hosts.join(", ")
    };
    let mut place = Elsewhere::new(Kind::Hosts, &name);
    place.names.extend(hosts.iter().map(|h| h.to_string()));
    Some(Channel {
        place,
        sent: Sent::Script(script),
    })
}
