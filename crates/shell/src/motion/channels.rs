//! Commands a line sends to run somewhere else: into a container (`docker exec`, `docker run`,
//! `docker compose exec|run`, `lxc|incus exec`), a pod (`kubectl exec`), another machine
//! (`ssh`, `gcloud compute ssh`, `vagrant ssh`, `fly ssh console`, `heroku run`,
//! `aws ssm send-command`, `az vm run-command invoke`, `mosh`, `tsh ssh`), a task's container
//! (`aws ecs execute-command`), a debug container beside a pod or on a node (`kubectl debug`),
//! or many machines at once (`ansible -m shell`, `salt cmd.run`, `pssh`, `pdsh`).
//!
//! [`channel`] reads such a program's argv into where the command runs ([`Elsewhere`]) and
//! what runs there ([`Sent`]): an argv the far side executes as is (`docker exec` runs its
//! COMMAND ARGS... with no shell), or shell text the far side's shell parses (`ssh` joins its
//! remaining words with spaces). The walker follows either like any other command.
//!
//! What lies over there is not this machine's, except the folders a new container mounts
//! from it: [`Elsewhere::lands`] maps a path inside to the folder here it is, when it is one.

use crate::syntax::Word;
use crate::syntax::argv::{self, Style, Valued};
use crate::syntax::kubectl;

mod hosts;

/// What kind of place a command runs in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A running container, or a new one of an image.
    Container,
    /// A new container of a compose service, with the volumes its compose file gives it.
    Service,
    Pod,
    Host,
    /// A virtual machine of a cloud or of Vagrant.
    Machine,
    /// A Fly.io or Heroku app.
    App,
    /// The instances an AWS Systems Manager command targets.
    Instances,
    /// The machines a fleet tool's pattern, target or host list names.
    Hosts,
    /// The container of an ECS task.
    Task,
}

/// Where a command runs when it is not this shell on this machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Elsewhere {
    pub kind: Kind,
    /// The place as the line names it: container, pod, host, machine, app.
    pub name: String,
    /// Every name the line gives the place or the way to it (its own, the host, context,
    /// namespace, project or profile it is reached through): one naming production protects
    /// what runs there.
    pub names: Vec<String>,
    /// A container this very command creates (`docker run`, a Heroku one-off dyno): its own
    /// files go with it; only its mounts outlive it.
    pub fresh: bool,
    /// Folders of the container that are something else than its own files.
    pub mounts: Vec<Mount>,
    /// The working directory inside, when the line sets it (`-w /src`).
    pub workdir: Option<String>,
    /// The `cd`s in effect where the sending command runs here: a mount's relative source
    /// (`-v ./data:/data`, `-v "$PWD":/src`) starts there.
    pub dirs_here: Vec<Word>,
}

/// A folder mounted into a container.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mount {
    /// The folder inside, absolute and without a trailing slash.
    pub target: String,
    pub source: Source,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A folder of this machine, as written (relative to [`Elsewhere::dirs_here`]).
    Here(Word),
    /// A named volume: data that outlives every container.
    Volume(String),
    /// Something whose contents cannot be told: a folder of another machine (a remote
    /// daemon), another container's volumes, a mount written with expansions.
    Unknown,
}

/// Where a path inside a place is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Landing {
    /// In a new container's own files, gone with it.
    Own,
    /// In folders of this machine, as these paths (relative to [`Elsewhere::dirs_here`]).
    Here(Vec<Word>),
    /// Anywhere else: files of a place that outlives the command, a volume, or unknown.
    Kept,
}

impl Elsewhere {
    fn new(kind: Kind, name: &str) -> Self {
        Elsewhere {
            kind,
            name: name.to_string(),
            names: vec![name.to_string()],
            fresh: false,
            mounts: Vec::new(),
            workdir: None,
            dirs_here: Vec::new(),
        }
    }

    /// "in container `api`", "on host `staging`": where, for a reason.
    pub fn describe(&self) -> String {
        let name = &self.name;
        match self.kind {
            Kind::Container if self.fresh => format!("in a new container of `{name}`"),
            Kind::Container => format!("in container `{name}`"),
            Kind::Service => format!("in a new container of service `{name}`"),
            Kind::Pod => format!("in pod `{name}`"),
            Kind::Host => format!("on host `{name}`"),
            Kind::Machine => format!("on machine `{name}`"),
            Kind::App if self.fresh => format!("in a one-off dyno of app `{name}`"),
            Kind::App => format!("on app `{name}`"),
            Kind::Instances => format!("on instances `{name}`"),
            Kind::Hosts => format!("on hosts `{name}`"),
            Kind::Task => format!("in task `{name}`"),
        }
    }

    /// Where `path`, given after the `cd`s `dirs` made inside, is. Only a new container's
    /// files are known: its own, or what it mounts.
    pub fn lands(&self, dirs: &[Word], path: &Word) -> Landing {
        if !self.fresh {
            return Landing::Kept;
        }
        let Some(path) = self.absolute(dirs, path) else {
            // Relative to a folder the image chooses, or built at run time: only a
            // container with nothing mounted is sure to hold it.
            return if self.mounts.is_empty() {
                Landing::Own
            } else {
                Landing::Kept
            };
        };
        // The one mount that holds the path (the deepest shadows the others), and every
        // mount below it, which a recursive delete empties too.
        let holder = self
            .mounts
            .iter()
            .filter(|m| below(&path, &m.target).is_some())
            .max_by_key(|m| m.target.len());
        let mut here = Vec::new();
        let reached = holder.into_iter().chain(
            self.mounts
                .iter()
                .filter(|m| m.target != path && below(&m.target, &path).is_some()),
        );
        for mount in reached {
            let rest = below(&path, &mount.target).unwrap_or_default();
            match &mount.source {
                Source::Here(source) => here.push(joined(source, rest)),
                Source::Volume(_) | Source::Unknown => return Landing::Kept,
            }
        }
        if here.is_empty() {
            Landing::Own
        } else {
            Landing::Here(here)
        }
    }

    /// The folder of this machine a new container's command starts in after the `cd`s
    /// `dirs` made inside, when a mount from here holds it (relative to
    /// [`Elsewhere::dirs_here`]).
    pub fn folder_here(&self, dirs: &[Word]) -> Option<Word> {
        if !self.fresh {
            return None;
        }
        let path = self.absolute(dirs, &Word::literal("."))?;
        let holder = self
            .mounts
            .iter()
            .filter(|m| below(&path, &m.target).is_some())
            .max_by_key(|m| m.target.len())?;
        match &holder.source {
            Source::Here(source) => Some(joined(source, below(&path, &holder.target)?)),
            Source::Volume(_) | Source::Unknown => None,
        }
    }

    /// Whether it mounts a folder of this machine.
    pub fn mounts_here(&self) -> bool {
        self.mounts
            .iter()
            .any(|m| matches!(m.source, Source::Here(_)))
    }

    /// `path` as an absolute path inside, when the line shows where it is.
    fn absolute(&self, dirs: &[Word], path: &Word) -> Option<String> {
        let mut at = self.workdir.clone();
        for step in dirs.iter().chain([path]) {
            let step = step.value().filter(|s| !s.starts_with('~') && *s != "-")?;
            at = Some(if step.starts_with('/') {
                normal(step)
            } else {
                normal(&format!("{}/{step}", at?))
            });
        }
        at
    }

    /// The same place reached from inside `outer`: the names of both count, and a folder
    /// it mounts "from this machine" is one of `outer`'s.
    pub fn within(mut self, outer: &Elsewhere) -> Elsewhere {
        self.names.extend(outer.names.iter().cloned());
        for mount in &mut self.mounts {
            if matches!(mount.source, Source::Here(_)) {
                mount.source = Source::Unknown;
            }
        }
        self
    }
}

/// `path` with `.` and `..` folded, absolute, with no trailing slash (`/` stays `/`).
fn normal(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            part => parts.push(part),
        }
    }
    format!("/{}", parts.join("/"))
}

/// What follows `base` in `path` when `path` is `base` or lies below it.
fn below<'a>(path: &'a str, base: &str) -> Option<&'a str> {
    if base == "/" {
        return Some(path.trim_start_matches('/'));
    }
    let rest = path.strip_prefix(base)?;
    if rest.is_empty() {
        return Some("");
    }
    rest.strip_prefix('/')
}

fn joined(source: &Word, rest: &str) -> Word {
    let text = match (source.text.trim_end_matches('/'), rest) {
        (base, "") => base.to_string(),
        ("." | "", rest) => rest.to_string(),
        (base, rest) => format!("{base}/{rest}"),
    };
    Word {
        text,
        literal: source.literal,
        temp: None,
    }
}

/// What a channel runs over there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sent {
    /// A program and its arguments, run with no shell, with this environment (`-e K=V`).
    Argv {
        argv: Vec<Word>,
        env: Vec<(String, Word)>,
    },
    /// Shell text the far side's shell parses.
    Script(Word),
    /// Whatever its stdin holds, which the far side's login shell runs (`ssh host <<EOF`);
    /// an interactive session when that is the terminal.
    Stdin,
}

/// A command sent elsewhere: the place, and what runs there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Channel {
    pub place: Elsewhere,
    pub sent: Sent,
}

/// The programs that may send a command elsewhere; any other costs nothing more.
pub fn is_channel(program: &str) -> bool {
    matches!(
        program,
        "docker"
            | "podman"
            | "nerdctl"
            | "docker-compose"
            | "podman-compose"
            | "kubectl"
            | "oc"
            | "ssh"
            | "gcloud"
            | "vagrant"
            | "lxc"
            | "incus"
            | "fly"
            | "flyctl"
            | "heroku"
            | "aws"
            | "az"
            | "mosh"
            | "tsh"
            | "ansible"
            | "salt"
            | "salt-ssh"
            | "pssh"
            | "parallel-ssh"
            | "pdsh"
    )
}

/// The command `argv` (program first) sends elsewhere, if it sends one. `assigns` are its
/// `NAME=value` prefixes here (`DOCKER_HOST=...`). An interactive session, a read of the
/// tool's own state, or a new container left to its image's command sends nothing to judge.
pub fn channel(argv: &[Word], assigns: &[(String, Word)]) -> Option<Channel> {
    let program = argv.first().and_then(Word::value)?;
    let program = program.rsplit('/').next().unwrap_or(program);
    let args = argv.get(1..).unwrap_or_default();
    let mut channel = match program {
        "docker" | "podman" | "nerdctl" => containers(args, assigns),
        "docker-compose" | "podman-compose" => compose(args),
        "kubectl" | "oc" => kubectl(args),
        "ssh" => ssh(args),
        "gcloud" => gcloud(args),
        "vagrant" => vagrant(args),
        "lxc" | "incus" => lxc(args),
        "fly" | "flyctl" => fly(args),
        "heroku" => heroku(args),
        "aws" => ssm(args).or_else(|| ecs(args)),
        "az" => az(args),
        "mosh" => hosts::mosh(args),
        "tsh" => hosts::tsh(args),
        "ansible" => hosts::ansible(args),
        "salt" | "salt-ssh" => hosts::salt(args),
        "pssh" | "parallel-ssh" => hosts::parallel_ssh(args, false),
        "pdsh" => hosts::parallel_ssh(args, true),
        _ => None,
    }?;
    channel.place.names.extend(
        assigns
            .iter()
            .filter(|(name, _)| !name.starts_with("AGENT_GUARD_"))
            .filter_map(|(_, value)| value.value().map(str::to_string)),
    );
    Some(channel)
}

/// The words from `at` on.
fn from(args: &[Word], at: usize) -> &[Word] {
    args.get(at..).unwrap_or_default()
}

fn text(args: &[Word], at: usize) -> Option<&str> {
    args.get(at).map(|w| w.text.as_str())
}

/// A cloud CLI's words read with its valued options, and the texts of its operands: the
/// subcommand path (`ssm send-command`, `vm run-command invoke`) is matched on those.
fn cloud_cli<'a>(args: &'a [Word], valued: &Valued) -> (argv::Argv<'a>, Vec<&'a str>) {
    let opts = argv::read(args, Style::Pflag, valued);
    let operands = opts
        .operands
        .iter()
        .filter_map(|&i| text(args, i))
        .collect();
    (opts, operands)
}

/// Words joined with spaces, as ssh and heroku send them: literal when all were.
fn script_of(words: &[Word]) -> Option<Word> {
    if words.is_empty() {
        return None;
    }
    Some(Word {
        text: words
            .iter()
            .map(|w| w.text.as_str())
            .collect::<Vec<_>>()
            .join(" "),
        literal: words.iter().all(|w| w.literal),
        temp: None,
    })
}

/// Global options of docker, podman and nerdctl that take a value.
const ENGINE_GLOBAL: &[&str] = &[
    "H",
    "host",
    "c",
    "context",
    "connection",
    "url",
    "identity",
    "config",
    "l",
    "log-level",
    "tlscacert",
    "tlscert",
    "tlskey",
    "root",
    "runroot",
    "storage-driver",
    "storage-opt",
    "cgroup-manager",
    "events-backend",
    "hooks-dir",
    "imagestore",
    "module",
    "network-cmd-path",
    "network-config-dir",
    "runtime",
    "runtime-flag",
    "ssh",
    "tmpdir",
    "volumepath",
    "conmon",
    "n",
    "namespace",
    "a",
    "address",
    "snapshotter",
    "cni-path",
    "cni-netconfpath",
    "data-root",
    "hosts-dir",
];

/// Options of the engines' global options that point them at another machine's daemon.
const ENGINE_REMOTE: &[&str] = &[
    "H",
    "host",
    "c",
    "context",
    "connection",
    "url",
    "r",
    "remote",
];

const EXEC_VALUED: &[&str] = &[
    "e",
    "env",
    "env-file",
    "u",
    "user",
    "w",
    "workdir",
    "detach-keys",
    "preserve-fd",
];

const RUN_VALUED: &[&str] = &[
    "a",
    "attach",
    "add-host",
    "annotation",
    "arch",
    "authfile",
    "blkio-weight",
    "blkio-weight-device",
    "cap-add",
    "cap-drop",
    "cgroup-parent",
    "cgroupns",
    "cidfile",
    "cpu-period",
    "cpu-quota",
    "cpu-rt-period",
    "cpu-rt-runtime",
    "c",
    "cpu-shares",
    "cpus",
    "cpuset-cpus",
    "cpuset-mems",
    "device",
    "device-cgroup-rule",
    "device-read-bps",
    "device-read-iops",
    "device-write-bps",
    "device-write-iops",
    "dns",
    "dns-option",
    "dns-search",
    "domainname",
    "e",
    "env",
    "entrypoint",
    "env-file",
    "expose",
    "gpus",
    "group-add",
    "health-cmd",
    "health-interval",
    "health-retries",
    "health-start-period",
    "health-timeout",
    "h",
    "hostname",
    "ip",
    "ip6",
    "ipc",
    "isolation",
    "kernel-memory",
    "l",
    "label",
    "label-file",
    "link",
    "link-local-ip",
    "log-driver",
    "log-opt",
    "mac-address",
    "m",
    "memory",
    "memory-reservation",
    "memory-swap",
    "memory-swappiness",
    "mount",
    "name",
    "network",
    "net",
    "network-alias",
    "oom-score-adj",
    "pid",
    "pids-limit",
    "platform",
    "pod",
    "p",
    "publish",
    "pull",
    "restart",
    "runtime",
    "secret",
    "security-opt",
    "shm-size",
    "stop-signal",
    "stop-timeout",
    "storage-opt",
    "sysctl",
    "tmpfs",
    "ulimit",
    "u",
    "user",
    "userns",
    "uts",
    "v",
    "volume",
    "volume-driver",
    "volumes-from",
    "w",
    "workdir",
    "detach-keys",
];

/// `docker|podman|nerdctl [globals] exec|run ...`, `container exec|run`, `compose ...`.
fn containers(args: &[Word], assigns: &[(String, Word)]) -> Option<Channel> {
    let globals = argv::read_head(args, Style::Pflag, &Valued(ENGINE_GLOBAL));
    let mut at = globals.stopped_at?;
    let mut remote: Vec<String> = globals
        .opts
        .iter()
        .filter(|o| ENGINE_REMOTE.contains(&o.name))
        .filter_map(|o| o.value.map(str::to_string))
        .collect();
    let from_env = ["DOCKER_HOST", "DOCKER_CONTEXT", "CONTAINER_HOST"];
    remote.extend(
        assigns
            .iter()
            .filter(|(name, _)| from_env.contains(&name.as_str()))
            .map(|(_, value)| value.text.clone()),
    );
    if text(args, at) == Some("container") {
        at += 1;
    }
    let channel = match text(args, at)? {
        "exec" => exec(from(args, at + 1))?,
        "run" => run(from(args, at + 1))?,
        "compose" => compose(from(args, at + 1))?,
        _ => return None,
    };
    if remote.is_empty() {
        return Some(channel);
    }
    // The daemon is another machine's: so are the folders its containers mount.
    let daemon = Elsewhere {
        names: remote,
        ..Elsewhere::new(Kind::Host, "")
    };
    Some(Channel {
        place: channel.place.within(&daemon),
        sent: channel.sent,
    })
}

/// The environment `-e K=V` options give the command, with `-e K` taking K's value here.
fn env_of(opts: &argv::Argv, args: &[Word]) -> Vec<(String, Word)> {
    opts.opts
        .iter()
        .filter(|o| o.is("e") || o.is("env"))
        .filter_map(|o| {
            let value = o.value?;
            let literal = o
                .value_word
                .and_then(|i| args.get(i))
                .is_none_or(|w| w.literal);
            let (name, value) = value.split_once('=')?;
            Some((
                name.to_string(),
                Word {
                    text: value.to_string(),
                    literal,
                    temp: None,
                },
            ))
        })
        .collect()
}

/// `exec [options] CONTAINER COMMAND [ARG...]`: the command runs as given, no shell.
fn exec(args: &[Word]) -> Option<Channel> {
    let opts = argv::read_head(args, Style::Pflag, &Valued(EXEC_VALUED));
    let at = opts.stopped_at?;
    let container = args.get(at)?;
    let argv = from(args, at + 1).to_vec();
    if argv.is_empty() {
        return None;
    }
    Some(Channel {
        place: Elsewhere::new(Kind::Container, &container.text),
        sent: Sent::Argv {
            env: env_of(&opts, args),
            argv,
        },
    })
}

/// `run [options] IMAGE [COMMAND] [ARG...]`: a new container, its own files thrown away with
/// it, the folders it mounts kept.
fn run(args: &[Word]) -> Option<Channel> {
    let opts = argv::read_head(args, Style::Pflag, &Valued(RUN_VALUED));
    let at = opts.stopped_at?;
    let image = args.get(at)?;
    let mut argv = from(args, at + 1).to_vec();
    let entrypoint = opts.last(&["entrypoint"]).and_then(|o| o.value);
    if let Some(entrypoint) = entrypoint.filter(|e| !e.is_empty()) {
        argv.insert(0, Word::literal(entrypoint));
    }
    // No command: the image runs its own, which the line does not show.
    if argv.is_empty() {
        return None;
    }
    let mut place = Elsewhere::new(Kind::Container, &image.text);
    place.fresh = true;
    for opt in &opts.opts {
        let Some(value) = opt.value else { continue };
        let literal = opt
            .value_word
            .and_then(|i| args.get(i))
            .is_none_or(|w| w.literal);
        match opt.name {
            "v" | "volume" => place.mounts.extend(volume(value, literal)),
            "mount" => place.mounts.extend(mount(value, literal)),
            "volumes-from" => place.mounts.push(Mount {
                target: "/".into(),
                source: Source::Unknown,
            }),
            "w" | "workdir" if literal && value.starts_with('/') => {
                place.workdir = Some(normal(value));
            }
            "name" | "hostname" | "h" => place.names.push(value.to_string()),
            _ => {}
        }
    }
    Some(Channel {
        place,
        sent: Sent::Argv {
            env: env_of(&opts, args),
            argv,
        },
    })
}

/// `-v SOURCE:TARGET[:OPTIONS]`; `-v TARGET` alone is a new anonymous volume, empty and
/// the container's own.
fn volume(spec: &str, literal: bool) -> Option<Mount> {
    let mut parts = spec.splitn(3, ':');
    let source = parts.next()?;
    let target = parts.next()?;
    Some(mounted(source, target, literal, None))
}

/// `--mount type=bind,source=...,target=...`: a bind or a volume; a tmpfs is the
/// container's own.
fn mount(spec: &str, literal: bool) -> Option<Mount> {
    let mut kind = "volume";
    let mut source = "";
    let mut target = None;
    for field in spec.split(',') {
        let (key, value) = field.split_once('=').unwrap_or((field, ""));
        match key {
            "type" => kind = value,
            "source" | "src" => source = value,
            "target" | "destination" | "dst" => target = Some(value),
            _ => {}
        }
    }
    let target = target?;
    match kind {
        "bind" => Some(mounted(source, target, literal, Some(true))),
        "volume" if !source.is_empty() => Some(mounted(source, target, literal, Some(false))),
        _ => None,
    }
}

/// A mount of `source` at `target`; `bind` when the syntax says which it is, else a source
/// that looks like a path is a folder here and a plain name a volume.
fn mounted(source: &str, target: &str, literal: bool, bind: Option<bool>) -> Mount {
    let expansion = |s: &str| s.contains(['$', '`', '*', '?', '[']);
    if expansion(target) || !target.starts_with('/') {
        return Mount {
            target: "/".into(),
            source: Source::Unknown,
        };
    }
    let target = normal(target);
    // `$PWD` is where the command runs: the folder the line's `cd`s lead to.
    let here = ["$PWD", "${PWD}", "$(pwd)", "`pwd`"]
        .iter()
        .find_map(|pwd| source.strip_prefix(pwd))
        .filter(|rest| rest.is_empty() || rest.starts_with('/'))
        .map(|rest| format!(".{rest}"));
    let path_like = here.is_some()
        || source.starts_with(['/', '.', '~'])
        || (!literal && source.starts_with('$'));
    let source = match (bind.unwrap_or(path_like), here) {
        (true, Some(path)) => Source::Here(Word {
            literal: !expansion(&path),
            temp: None,
            text: path,
        }),
        (true, None) => Source::Here(Word {
            text: source.to_string(),
            literal: literal && !expansion(source),
            temp: None,
        }),
        (false, _) => Source::Volume(source.to_string()),
    };
    Mount { target, source }
}

const COMPOSE_GLOBAL: &[&str] = &[
    "f",
    "file",
    "p",
    "project-name",
    "profile",
    "env-file",
    "project-directory",
    "ansi",
    "progress",
    "parallel",
];

const COMPOSE_EXEC_VALUED: &[&str] = &["e", "env", "u", "user", "w", "workdir", "index"];

const COMPOSE_RUN_VALUED: &[&str] = &[
    "e",
    "env",
    "env-from-file",
    "l",
    "label",
    "name",
    "entrypoint",
    "p",
    "publish",
    "u",
    "user",
    "v",
    "volume",
    "w",
    "workdir",
    "cap-add",
    "cap-drop",
    "pull",
];

/// `compose [globals] exec SERVICE COMMAND...` or `run SERVICE [COMMAND...]`. A service's
/// mounts are in its compose file, so the container's files count as kept.
fn compose(args: &[Word]) -> Option<Channel> {
    let globals = argv::read_head(args, Style::Pflag, &Valued(COMPOSE_GLOBAL));
    let at = globals.stopped_at?;
    let (kind, valued) = match text(args, at)? {
        "exec" => (Kind::Container, COMPOSE_EXEC_VALUED),
        "run" => (Kind::Service, COMPOSE_RUN_VALUED),
        _ => return None,
    };
    let rest = from(args, at + 1);
    let opts = argv::read_head(rest, Style::Pflag, &Valued(valued));
    let service = opts.stopped_at.and_then(|i| rest.get(i))?;
    let mut argv = opts
        .stopped_at
        .map(|i| from(rest, i + 1).to_vec())
        .unwrap_or_default();
    let entrypoint = opts.last(&["entrypoint"]).and_then(|o| o.value);
    if let Some(entrypoint) = entrypoint.filter(|e| !e.is_empty()) {
        argv.insert(0, Word::literal(entrypoint));
    }
    if argv.is_empty() {
        return None;
    }
    let mut place = Elsewhere::new(kind, &service.text);
    place.names.extend(
        globals
            .opts
            .iter()
            .filter_map(|o| o.value.map(str::to_string)),
    );
    Some(Channel {
        place,
        sent: Sent::Argv {
            env: env_of(&opts, rest),
            argv,
        },
    })
}

/// `kubectl exec`'s own options that take a value (kubectl's global ones may come too).
const KUBECTL_EXEC_VALUED: &[&str] = &["c", "container", "f", "filename", "pod-running-timeout"];

/// `kubectl exec [options] POD [-c C] -- COMMAND...`: the command runs as given, no shell.
fn kubectl(args: &[Word]) -> Option<Channel> {
    let dashdash = args.iter().position(|w| w.text == "--");
    let head = args.get(..dashdash.unwrap_or(args.len()))?;
    let valued: Vec<&str> = kubectl::GLOBAL_VALUED
        .iter()
        .chain(KUBECTL_EXEC_VALUED)
        .copied()
        .collect();
    let opts = argv::read(head, Style::Pflag, &Valued(&valued));
    let mut operands = opts.operands.iter().filter_map(|&i| head.get(i));
    match operands.next()?.text.as_str() {
        "exec" => {}
        "debug" => return debug(args),
        _ => return None,
    }
    let file = opts.last(&["f", "filename"]).and_then(|o| o.value);
    let pod = match operands.next() {
        Some(pod) => pod.text.clone(),
        None => file?.to_string(),
    };
    // The form before `--` was required: `kubectl exec POD COMMAND...`.
    let argv: Vec<Word> = match dashdash {
        Some(at) => from(args, at + 1).to_vec(),
        None => operands.cloned().collect(),
    };
    if argv.is_empty() {
        return None;
    }
    let mut place = Elsewhere::new(Kind::Pod, &pod);
    place.names.extend(
        opts.opts
            .iter()
            .filter(|o| !matches!(o.name, "v" | "token"))
            .filter_map(|o| o.value.map(str::to_string)),
    );
    Some(Channel {
        place,
        sent: Sent::Argv {
            argv,
            env: Vec::new(),
        },
    })
}

/// `kubectl debug`'s own options that take a value.
const KUBECTL_DEBUG_VALUED: &[&str] = &[
    "c",
    "container",
    "image",
    "image-pull-policy",
    "target",
    "copy-to",
    "profile",
    "custom",
    "env",
    "set-image",
    "f",
    "filename",
];

/// `kubectl debug POD|node/NAME --image=IMAGE [options] -- COMMAND...`: a new container of
/// `IMAGE` beside the pod's (or in a copy of the pod), or on a node with the node's root at
/// `/host`. Its own files are the image's, but `/proc` reaches the processes it shares (and
/// their files), a node's root is all of the node, and a custom spec may mount anything.
fn debug(args: &[Word]) -> Option<Channel> {
    let at = args.iter().position(|w| w.text == "--")?;
    let head = args.get(..at)?;
    let argv = from(args, at + 1).to_vec();
    if argv.is_empty() {
        return None;
    }
    let valued: Vec<&str> = kubectl::GLOBAL_VALUED
        .iter()
        .chain(KUBECTL_DEBUG_VALUED)
        .copied()
        .collect();
    let opts = argv::read(head, Style::Pflag, &Valued(&valued));
    let target = opts
        .operands
        .iter()
        .filter_map(|&i| head.get(i))
        .nth(1)
        .map(|w| w.text.clone())
        .or_else(|| opts.last(&["f", "filename"])?.value.map(str::to_string))?;
    let node = target.starts_with("node/") || target.starts_with("nodes/");
    let mut place = Elsewhere::new(Kind::Pod, &target);
    place.fresh = true;
    let kept = |target: &str| Mount {
        target: target.to_string(),
        source: Source::Unknown,
    };
    place.mounts.push(kept("/proc"));
    if node {
        place.mounts.push(kept("/host"));
    }
    if opts.last(&["custom"]).is_some() {
        place.mounts.push(kept("/"));
    }
    place.names.extend(
        opts.opts
            .iter()
            .filter(|o| !matches!(o.name, "v" | "token" | "image" | "env"))
            .filter_map(|o| o.value.map(str::to_string)),
    );
    Some(Channel {
        place,
        sent: Sent::Argv {
            argv,
            env: Vec::new(),
        },
    })
}

const SSH_VALUED: &[&str] = &[
    "B", "b", "c", "D", "E", "e", "F", "I", "i", "J", "L", "l", "m", "O", "o", "P", "p", "Q", "R",
    "S", "W", "w",
];

/// `ssh [options] DESTINATION [options] [COMMAND...]`: ssh joins the command's words with
/// spaces, and the remote shell parses that text; with no command, the remote login shell
/// reads stdin. Options may follow the destination too.
fn ssh(args: &[Word]) -> Option<Channel> {
    let before = argv::read_head(args, Style::Getopt, &Valued(SSH_VALUED));
    let at = before.stopped_at?;
    let destination = args.get(at)?;
    let rest = from(args, at + 1);
    let after = argv::read_head(rest, Style::Getopt, &Valued(SSH_VALUED));
    let opts = || before.opts.iter().chain(&after.opts);
    // No remote command (`-N`), a subsystem (`-s sftp`), a control or query request.
    if opts().any(|o| matches!(o.name, "N" | "s" | "O" | "Q" | "W" | "G" | "V")) {
        return None;
    }
    let sent = match after.stopped_at {
        Some(at) => Sent::Script(script_of(from(rest, at))?),
        None if opts().any(|o| o.name == "n") => return None,
        None => Sent::Stdin,
    };
    let host = host_of(&destination.text);
    let mut place = Elsewhere::new(Kind::Host, host);
    place.names.push(destination.text.clone());
    place.names.extend(
        opts()
            .filter(|o| matches!(o.name, "J" | "l" | "o"))
            .filter_map(|o| o.value.map(str::to_string)),
    );
    Some(Channel { place, sent })
}

/// `host` of `user@host`, `ssh://user@host:port`.
fn host_of(destination: &str) -> &str {
    let bare = destination.strip_prefix("ssh://").unwrap_or(destination);
    let host = bare.rsplit_once('@').map_or(bare, |(_, host)| host);
    if destination.starts_with("ssh://") {
        host.split([':', '/']).next().unwrap_or(host)
    } else {
        host
    }
}

const GCLOUD_VALUED: &[&str] = &[
    "command",
    "zone",
    "project",
    "account",
    "configuration",
    "ssh-key-file",
    "ssh-flag",
    "container",
    "strict-host-key-checking",
    "verbosity",
    "impersonate-service-account",
    "billing-project",
    "flags-file",
    "ssh-key-expiration",
    "ssh-key-expire-after",
];

/// `gcloud compute ssh INSTANCE --command=TEXT`, or `-- [SSH OPTIONS] COMMAND...`.
fn gcloud(args: &[Word]) -> Option<Channel> {
    let dashdash = args.iter().position(|w| w.text == "--");
    let head = args.get(..dashdash.unwrap_or(args.len()))?;
    let opts = argv::read(head, Style::Pflag, &Valued(GCLOUD_VALUED));
    let operands: Vec<&Word> = opts.operands.iter().filter_map(|&i| head.get(i)).collect();
    let [compute, ssh, instance, ..] = operands.as_slice() else {
        return None;
    };
    if compute.text != "compute" || ssh.text != "ssh" || opts.on(&["dry-run"]) {
        return None;
    }
    // After `--` come ssh's own options, then the command's words, which ssh joins.
    let script = match opts.last(&["command"]) {
        Some(command) => command.value_in(head)?,
        None => {
            let rest = from(args, dashdash? + 1);
            let ssh_opts = argv::read_head(rest, Style::Getopt, &Valued(SSH_VALUED));
            if ssh_opts.opts.iter().any(|o| o.name == "N") {
                return None;
            }
            script_of(from(rest, ssh_opts.stopped_at?))?
        }
    };
    let mut place = Elsewhere::new(Kind::Machine, host_of(&instance.text));
    place.names.extend(
        opts.values(&["zone", "project", "configuration"])
            .map(str::to_string),
    );
    Some(Channel {
        place,
        sent: Sent::Script(script),
    })
}

/// `vagrant ssh [NAME] -c TEXT`.
fn vagrant(args: &[Word]) -> Option<Channel> {
    let dashdash = args.iter().position(|w| w.text == "--");
    let head = args.get(..dashdash.unwrap_or(args.len()))?;
    let opts = argv::read(head, Style::Getopt, &Valued(&["c", "command"]));
    let mut operands = opts.operands.iter().filter_map(|&i| head.get(i));
    if operands.next()?.text != "ssh" {
        return None;
    }
    let machine = operands.next().map_or("default", |w| w.text.as_str());
    let command = opts.last(&["c", "command"])?;
    let script = command.value_in(head)?;
    Some(Channel {
        place: Elsewhere::new(Kind::Machine, machine),
        sent: Sent::Script(script),
    })
}

const LXC_VALUED: &[&str] = &[
    "cwd", "env", "group", "mode", "user", "project", "target", "E",
];

/// `lxc|incus exec INSTANCE [options] [--] COMMAND...`: run as given, no shell.
fn lxc(args: &[Word]) -> Option<Channel> {
    let dashdash = args.iter().position(|w| w.text == "--");
    let head = args.get(..dashdash.unwrap_or(args.len()))?;
    let opts = argv::read(head, Style::Pflag, &Valued(LXC_VALUED));
    let mut operands = opts.operands.iter().filter_map(|&i| head.get(i));
    if operands.next()?.text != "exec" {
        return None;
    }
    let instance = operands.next()?;
    let argv: Vec<Word> = match dashdash {
        Some(at) => from(args, at + 1).to_vec(),
        None => operands.cloned().collect(),
    };
    if argv.is_empty() {
        return None;
    }
    let mut place = Elsewhere::new(Kind::Container, &instance.text);
    place
        .names
        .extend(opts.values(&["project", "target"]).map(str::to_string));
    Some(Channel {
        place,
        sent: Sent::Argv {
            argv,
            env: Vec::new(),
        },
    })
}

const FLY_VALUED: &[&str] = &[
    "a",
    "app",
    "C",
    "command",
    "c",
    "config",
    "r",
    "region",
    "machine",
    "u",
    "user",
    "A",
    "address",
    "process-group",
    "container",
    "org",
    "o",
];

/// `fly ssh console -C TEXT`.
fn fly(args: &[Word]) -> Option<Channel> {
    let (opts, operands) = cloud_cli(args, &Valued(FLY_VALUED));
    if operands.get(..2) != Some(&["ssh", "console"]) {
        return None;
    }
    let command = opts.last(&["C", "command"])?;
    let script = command.value_in(args)?;
    let app = opts.last(&["a", "app"]).and_then(|o| o.value);
    let mut place = Elsewhere::new(Kind::App, app.unwrap_or("of fly.toml"));
    place.names.extend(
        opts.values(&["c", "config", "machine", "org", "o"])
            .map(str::to_string),
    );
    Some(Channel {
        place,
        sent: Sent::Script(script),
    })
}

/// `heroku run [options] COMMAND...`: a one-off dyno whose files go with it; the words are
/// joined into the text its shell runs.
fn heroku(args: &[Word]) -> Option<Channel> {
    if !matches!(text(args, 0)?, "run" | "run:detached") {
        return None;
    }
    let rest = from(args, 1);
    let valued = Valued(&["a", "app", "r", "remote", "s", "size", "e", "env", "type"]);
    let opts = argv::read_head(rest, Style::Pflag, &valued);
    let script = script_of(from(rest, opts.stopped_at?))?;
    let app = opts.last(&["a", "app"]).and_then(|o| o.value);
    let mut place = Elsewhere::new(Kind::App, app.unwrap_or("of this folder's git remote"));
    place.fresh = true;
    place
        .names
        .extend(opts.values(&["r", "remote"]).map(str::to_string));
    Some(Channel {
        place,
        sent: Sent::Script(script),
    })
}

/// `aws ssm send-command --document-name AWS-RunShellScript --parameters commands=...`.
fn ssm(args: &[Word]) -> Option<Channel> {
    let valued = Valued(&[
        "document-name",
        "parameters",
        "instance-ids",
        "targets",
        "profile",
        "region",
        "comment",
        "output",
        "timeout-seconds",
        "max-concurrency",
        "max-errors",
        "output-s3-bucket-name",
        "output-s3-key-prefix",
        "document-version",
        "service-role-arn",
        "cli-input-json",
        "endpoint-url",
        "query",
    ]);
    let (opts, operands) = cloud_cli(args, &valued);
    if operands.first() != Some(&"ssm") || operands.get(1) != Some(&"send-command") {
        return None;
    }
    let document = opts.last(&["document-name"]).and_then(|o| o.value)?;
    if !document.ends_with("AWS-RunShellScript") {
        return None;
    }
    let parameters = opts.last(&["parameters"])?;
    let literal = parameters
        .value_word
        .and_then(|i| args.get(i))
        .is_none_or(|w| w.literal);
    let lines = ssm_commands(parameters.value?)?;
    // Instance ids are several words after the option: they read as operands.
    let ids: Vec<&str> = operands
        .iter()
        .skip(2)
        .copied()
        .chain(
            opts.opts
                .iter()
                .filter(|o| o.is("instance-ids") || o.is("targets"))
                .filter_map(|o| o.value),
        )
        .collect();
    let name = if ids.is_empty() {
        "its targets".to_string()
    } else {
        ids.join(", ")
    };
    let mut place = Elsewhere::new(Kind::Instances, &name);
    place.names.extend(ids.iter().map(|s| s.to_string()));
    place
        .names
        .extend(opts.values(&["profile"]).map(str::to_string));
    Some(Channel {
        place,
        sent: Sent::Script(Word {
            text: lines.join("\n"),
            literal,
            temp: None,
        }),
    })
}

/// `aws ecs execute-command --cluster C --task T [--container X] --interactive --command TEXT`:
/// the text runs in the task's container, which outlives the command.
fn ecs(args: &[Word]) -> Option<Channel> {
    let valued = Valued(&[
        "cluster",
        "task",
        "container",
        "command",
        "profile",
        "region",
        "output",
        "query",
        "endpoint-url",
        "cli-input-json",
        "cli-input-yaml",
        "color",
        "ca-bundle",
        "cli-read-timeout",
        "cli-connect-timeout",
    ]);
    let (opts, operands) = cloud_cli(args, &valued);
    if operands.get(..2) != Some(&["ecs", "execute-command"]) {
        return None;
    }
    let script = opts.last(&["command"])?.value_in(args)?;
    let task = opts.last(&["task"]).and_then(|o| o.value).unwrap_or("");
    let mut place = Elsewhere::new(Kind::Task, task);
    place.names.extend(
        opts.values(&["cluster", "container", "profile"])
            .map(str::to_string),
    );
    Some(Channel {
        place,
        sent: Sent::Script(script),
    })
}

/// The `commands` of an SSM parameters value: JSON (`{"commands":["..."]}`) or the CLI's
/// shorthand (`commands=a,b`, `commands=["a","b"]`).
fn ssm_commands(parameters: &str) -> Option<Vec<String>> {
    let trimmed = parameters.trim();
    if trimmed.starts_with('{') {
        let value: serde_json::Value = serde_json::from_str(trimmed).ok()?;
        return Some(strings(value.get("commands")?));
    }
    let list = trimmed.strip_prefix("commands=")?;
    if list.starts_with('[')
        && let Ok(value) = serde_json::from_str::<serde_json::Value>(list)
    {
        return Some(strings(&value));
    }
    let list = list.strip_prefix('[').unwrap_or(list);
    let list = list.strip_suffix(']').unwrap_or(list);
    Some(list.split(',').map(str::to_string).collect())
}

fn strings(value: &serde_json::Value) -> Vec<String> {
    match value {
        serde_json::Value::String(s) => vec![s.clone()],
        serde_json::Value::Array(items) => items
            .iter()
            .filter_map(|item| item.as_str().map(str::to_string))
            .collect(),
        _ => Vec::new(),
    }
}

/// `az vm run-command invoke --command-id RunShellScript --scripts TEXT...`.
fn az(args: &[Word]) -> Option<Channel> {
    let valued = Valued(&[
        "g",
        "resource-group",
        "n",
        "name",
        "command-id",
        "ids",
        "subscription",
        "parameters",
        "scripts",
        "output",
        "o",
        "query",
    ]);
    let (opts, operands) = cloud_cli(args, &valued);
    if operands.get(..3) != Some(&["vm", "run-command", "invoke"]) {
        return None;
    }
    let command_id = opts.last(&["command-id"]).and_then(|o| o.value)?;
    if command_id != "RunShellScript" {
        return None;
    }
    // `--scripts` takes every word up to the next option: its value, and the operands
    // right after it.
    let given = opts.opts.iter().find(|o| o.is("scripts"))?;
    let mut scripts: Vec<Word> = given.value_in(args).into_iter().collect();
    let mut next = given.value_word? + 1;
    while opts.operands.contains(&next) {
        scripts.extend(args.get(next).cloned());
        next += 1;
    }
    let text = scripts
        .iter()
        .map(|w| w.text.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    if text.is_empty() {
        return None;
    }
    let vm = opts.last(&["n", "name", "ids"]).and_then(|o| o.value);
    let mut place = Elsewhere::new(Kind::Machine, vm.unwrap_or("of --ids"));
    place.names.extend(
        opts.values(&["g", "resource-group", "ids", "subscription"])
            .map(str::to_string),
    );
    Some(Channel {
        place,
        sent: Sent::Script(Word {
            text,
            literal: scripts.iter().all(|w| w.literal),
            temp: None,
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<Word> {
        line.split_whitespace().map(Word::literal).collect()
    }

    fn sent(line: &str) -> Option<(String, Sent)> {
        channel(&words(line), &[]).map(|c| (c.place.describe(), c.sent))
    }

    /// Where the line's channel sends its command.
    fn place(line: &str) -> Elsewhere {
        channel(&words(line), &[]).unwrap().place
    }

    /// The line sends `script` as text to its shell at `place`.
    fn assert_script(line: &str, place: &str, script: &str) {
        match sent(line) {
            Some((p, Sent::Script(w))) => {
                assert_eq!(p, place, "{line}");
                assert_eq!(w.text, script, "{line}");
            }
            other => panic!("{line}: {other:?}"),
        }
    }

    fn argv_of(line: &str) -> Vec<String> {
        match sent(line) {
            Some((_, Sent::Argv { argv, .. })) => argv.into_iter().map(|w| w.text).collect(),
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn option_values_are_not_the_command() {
        assert_eq!(
            argv_of("docker exec -u root -w /srv -e A=1 api rm -rf x"),
            ["rm", "-rf", "x"]
        );
        assert_eq!(
            argv_of("docker -H ssh://h --context c exec -it api rm x"),
            ["rm", "x"]
        );
        assert_eq!(
            argv_of("docker run --rm --name t -p 80:80 -v a:/a --network n img rm -rf /a"),
            ["rm", "-rf", "/a"]
        );
        assert_eq!(
            argv_of("docker run --entrypoint sh img -c x"),
            ["sh", "-c", "x"]
        );
        assert_eq!(
            argv_of("kubectl -n ns exec -it -c app web -- rm -rf /d"),
            ["rm", "-rf", "/d"]
        );
        assert_eq!(
            argv_of("incus exec c1 --cwd /srv -- rm -rf x"),
            ["rm", "-rf", "x"]
        );
        assert_eq!(
            argv_of("docker compose -f c.yml exec -T -u app api rm -rf x"),
            ["rm", "-rf", "x"]
        );
        match sent("ssh -i key -p 22 -o A=b user@h -t rm -rf x") {
            Some((place, Sent::Script(w))) => {
                assert_eq!(place, "on host `h`");
                assert_eq!(w.text, "rm -rf x");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn nothing_sent_when_no_command() {
        assert_eq!(sent("ssh -p 22 h").map(|s| s.1), Some(Sent::Stdin));
        for line in [
            "ssh -n h",
            "ssh -N -L 5432:localhost:5432 h",
            "docker exec -it api",
            "docker run --rm -it alpine",
            "docker ps",
            "kubectl get pods",
            "kubectl exec -it web",
            "vagrant ssh",
            "fly ssh console",
            "heroku run",
            "heroku logs",
        ] {
            assert_eq!(sent(line), None, "{line}");
        }
    }

    #[test]
    fn paths_land_in_mounts_own_files_or_kept() {
        let run = place("docker run --rm -v $PWD:/src -v data:/var/lib/db -w /src img true");
        let lands = |path: &str| run.lands(&[], &Word::literal(path));
        assert_eq!(lands("build"), Landing::Here(vec![Word::literal("build")]));
        assert_eq!(
            lands("/src/a/../b"),
            Landing::Here(vec![Word::literal("b")])
        );
        assert_eq!(lands("/src"), Landing::Here(vec![Word::literal(".")]));
        assert_eq!(lands("/tmp/x"), Landing::Own);
        assert_eq!(lands("/var/lib/db/x"), Landing::Kept);
        assert_eq!(lands("/"), Landing::Kept);
        let bare = place("docker run --rm alpine rm -rf /tmp/x");
        assert_eq!(bare.lands(&[], &Word::literal("x")), Landing::Own);
        let abs = place("docker run -v /home/me/site:/data alpine true");
        assert_eq!(
            abs.lands(&[Word::literal("/data")], &Word::literal("old")),
            Landing::Here(vec![Word::literal("/home/me/site/old")])
        );
        let exec = place("docker exec api rm -rf /tmp/x");
        assert_eq!(exec.lands(&[], &Word::literal("/tmp/x")), Landing::Kept);
    }

    #[test]
    fn remote_shells_and_fleets() {
        for (line, place, script) in [
            (
                "gcloud compute ssh vm1 --zone z -- -t -p 22 rm -rf /d",
                "on machine `vm1`",
                "rm -rf /d",
            ),
            (
                "tsh --proxy p ssh -l root web1 rm x",
                "on host `web1`",
                "rm x",
            ),
            (
                "aws ecs execute-command --cluster c --task t1 --interactive --command ls",
                "in task `t1`",
                "ls",
            ),
            (
                "ansible web -i inv -m shell -a uptime",
                "on hosts `web`",
                "uptime",
            ),
            ("salt -G role:db cmd.run ls", "on hosts `role:db`", "ls"),
            (
                "pssh -h hosts.txt -l root -i rm x",
                "on hosts `hosts.txt`",
                "rm x",
            ),
            (
                "pdsh -w web[1-4] -l root rm x",
                "on hosts `web[1-4]`",
                "rm x",
            ),
        ] {
            assert_script(line, place, script);
        }
        assert_eq!(argv_of("mosh -p 6000 web1 -- rm -rf x"), ["rm", "-rf", "x"]);
        assert_eq!(
            argv_of("kubectl debug -n ns node/n1 -it --image=busybox -- rm x"),
            ["rm", "x"]
        );
        for line in [
            "gcloud compute ssh vm1 -- -N -L 80:localhost:80",
            "gcloud compute ssh vm1 -- -L 80:localhost:80",
            "mosh web1",
            "tsh ssh web1",
            "tsh ls",
            "kubectl debug -it web-0 --image=busybox",
            "aws ecs list-tasks --cluster c",
            "ansible all -m ping",
            "ansible all -m copy -a src=a dest=b",
            "salt '*' test.ping",
            "pssh -h hosts.txt -I",
        ] {
            assert_eq!(sent(line), None, "{line}");
        }
    }

    #[test]
    fn debug_containers_keep_what_they_reach() {
        let pod = place("kubectl debug web-0 --image=busybox -- true");
        assert_eq!(pod.lands(&[], &Word::literal("/tmp/x")), Landing::Own);
        assert_eq!(
            pod.lands(&[], &Word::literal("/proc/1/root")),
            Landing::Kept
        );
        let node = place("kubectl debug node/n1 --image=busybox -- true");
        assert_eq!(node.lands(&[], &Word::literal("/host/etc")), Landing::Kept);
        let custom = place("kubectl debug web-0 --custom=c.json --image=busybox -- true");
        assert_eq!(custom.lands(&[], &Word::literal("/tmp/x")), Landing::Kept);
    }

    #[test]
    fn script_channels() {
        for (line, place, script) in [
            (
                "gcloud compute ssh vm1 --zone z --command=uptime",
                "on machine `vm1`",
                "uptime",
            ),
            ("vagrant ssh web -c uptime", "on machine `web`", "uptime"),
            ("fly ssh console -a shop -C ls", "on app `shop`", "ls"),
            (
                "heroku run -a shop rake db:drop",
                "in a one-off dyno of app `shop`",
                "rake db:drop",
            ),
            (
                "aws ssm send-command --document-name AWS-RunShellScript --instance-ids i-1 --parameters commands=ls,pwd",
                "on instances `i-1`",
                "ls\npwd",
            ),
            (
                "az vm run-command invoke -g rg -n vm1 --command-id RunShellScript --scripts ls pwd",
                "on machine `vm1`",
                "ls\npwd",
            ),
        ] {
            assert_script(line, place, script);
        }
        assert_eq!(
            ssm_commands(r#"{"commands":["rm -rf /x","ls"]}"#),
            Some(vec!["rm -rf /x".to_string(), "ls".to_string()])
        );
    }
}
