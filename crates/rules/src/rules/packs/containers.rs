//! Containers: the data docker and podman keep in volumes. Containers, images, networks and
//! build cache are rebuilt or pulled again; a volume holds what the containers wrote (a
//! database's files, uploads) and nothing can bring it back.

use super::Pack;
use super::args::{Line, Style, without};
use crate::rules::git::list;
use crate::rules::{Hit, Rule, Tier};
use crate::shell::{SimpleCommand, Word};

pub static VOLUME_DELETE: Rule = Rule {
    id: "containers.volume-delete",
    catches: "`docker`/`podman` `volume rm`/`prune`, `system prune --volumes`, `rm -v` (a container with its anonymous volumes), `podman system reset`",
    why: "A volume holds what the containers wrote: a database's files, uploads, caches that \
          took hours to fill. Removing it deletes that data at once; docker keeps no copy.",
    instead: "`docker volume ls` / `docker volume inspect <name>` to see what is there; back a \
              volume up first with `docker run --rm -v <name>:/data -v \"$PWD\":/backup alpine \
              tar czf /backup/<name>.tgz -C /data .`; `docker system prune` and `docker rm` \
              without `-v` free space without touching volumes.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "docker volume rm pgdata",
        "docker volume prune -f",
        "docker system prune -a --volumes",
        "docker rm -v web",
        "podman volume rm --all",
        "podman system reset --force",
    ],
    passes: &[
        "docker volume ls",
        "docker system prune",
        "docker system prune -a",
        "docker image prune -a",
        "docker rm -f web",
        "docker run --rm -v data:/data alpine ls /data",
        "echo docker volume prune",
    ],
};

pub static COMPOSE_VOLUMES: Rule = Rule {
    id: "containers.compose-volumes",
    catches: "`docker compose down -v`/`--volumes` (also `docker-compose`, `podman compose`, `podman-compose`) and `compose rm -v`",
    why: "`down -v` removes the project's named volumes as well as its containers: the \
          database, the uploads, everything the services stored. A plain `down` keeps them, \
          and `up` finds the data again.",
    instead: "`docker compose down` without `-v` (containers and networks go, volumes stay); \
              back a volume up first if it must really go.",
    protected_when: None,
    strict_only: false,
    stops: &[
        "docker compose down -v",
        "docker compose -f compose.prod.yml down --volumes --remove-orphans",
        "docker-compose down -v",
        "podman-compose down -v",
        "docker compose rm -fsv",
    ],
    passes: &[
        "docker compose down",
        "docker compose down --remove-orphans --rmi local",
        "docker-compose up -d",
        "docker compose -v",
        "grep -n 'down -v' Makefile",
    ],
};

pub static PACK: Pack = Pack {
    id: "containers",
    summary: "docker and podman volumes: `volume rm`/`prune`, `system prune --volumes`, `rm -v`, `compose down -v`",
    default_on: true,
    programs: &["docker", "podman", "docker-compose", "podman-compose"],
    rules: &[&VOLUME_DELETE, &COMPOSE_VOLUMES],
    check,
};

/// Global options of docker and podman that take a separate value.
pub(super) const GLOBAL: &[&str] = &[
    "H",
    "host",
    "c",
    "context",
    "connection",
    "config",
    "l",
    "log-level",
    "tlscacert",
    "tlscert",
    "tlskey",
    "url",
    "identity",
    "root",
    "runroot",
    "storage-driver",
    "storage-opt",
    "tmpdir",
];

/// Global options of compose that take a separate value.
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

/// Options of `system prune`, `volume` and `rm` that take a separate value.
const COMMAND_VALUED: &[&str] = &["filter", "time", "t"];

/// Options of compose's `down` and `rm` that take a separate value.
const COMPOSE_VALUED: &[&str] = &["t", "timeout", "rmi"];

const VOLUMES: &[&str] = &["v", "volumes"];

fn check(cmd: &SimpleCommand) -> Vec<Hit> {
    let args = cmd.args();
    let tool = cmd.program().unwrap_or("docker");
    if matches!(tool, "docker-compose" | "podman-compose") {
        return compose(cmd, args).into_iter().collect();
    }
    let (globals, Some(at)) = Line::head(args, Style::Gnu, GLOBAL) else {
        return Vec::new();
    };
    let Some((verb, rest)) = args.get(at..).and_then(<[Word]>::split_first) else {
        return Vec::new();
    };
    if globals.help() {
        return Vec::new();
    }
    if verb.text == "compose" {
        return compose(cmd, rest).into_iter().collect();
    }
    let line = Line::parse(rest, Style::Gnu, COMMAND_VALUED);
    if line.help() {
        return Vec::new();
    }
    let hit = match (verb.text.as_str(), line.operand(0)) {
        ("volume", Some("rm" | "remove" | "prune")) => Some(volumes(tool, &line)),
        ("system", Some("prune")) if line.on(VOLUMES) => Some(
            Hit::new(
                &VOLUME_DELETE,
                Tier::Destructive,
                "deletes every volume no container uses, with all the data in it, besides \
                 stopped containers and unused images",
            )
            .safer(format!(
                "`{}` (the same prune, volumes kept); `{tool} volume ls` to see what would go",
                without(cmd, &[GLOBAL, COMMAND_VALUED], &["volumes"], &[])
            ))
            .recovery("none: a removed volume's data is gone unless it was backed up"),
        ),
        ("system", Some("reset")) if tool == "podman" => Some(
            Hit::new(
                &VOLUME_DELETE,
                Tier::Destructive,
                "deletes every container, image and volume podman has, with all their data",
            )
            .safer("`podman system prune` (unused containers and images only, volumes kept)")
            .recovery("none for volumes: their data is gone unless it was backed up"),
        ),
        ("rm", _) if line.on(VOLUMES) => Some(container_rm(tool, cmd, &line.operands)),
        ("container", Some("rm" | "remove")) if line.on(VOLUMES) => Some(container_rm(
            tool,
            cmd,
            line.operands.get(1..).unwrap_or_default(),
        )),
        _ => None,
    };
    hit.into_iter().collect()
}

fn volumes(tool: &str, line: &Line) -> Hit {
    let names = line.operands.get(1..).unwrap_or_default();
    let loses = if line.operand(0) == Some("prune") {
        "deletes every volume no container uses, with all the data in it".to_string()
    } else if line.on(&["a", "all"]) {
        "deletes every volume, with all the data in it".to_string()
    } else if names.is_empty() {
        "deletes volumes and all the data in them".to_string()
    } else {
        format!(
            "deletes the volume{} {} and all the data in {}",
            if names.len() == 1 { "" } else { "s" },
            list(names.iter().copied()),
            if names.len() == 1 { "it" } else { "them" }
        )
    };
    Hit::new(&VOLUME_DELETE, Tier::Destructive, loses)
        .safer(format!(
            "`{tool} volume ls` and `{tool} volume inspect <name>` to see what is there; back it \
             up first with `{tool} run --rm -v <name>:/data -v \"$PWD\":/backup alpine tar czf \
             /backup/<name>.tgz -C /data .`"
        ))
        .recovery("none: a removed volume's data is gone unless it was backed up")
}

fn container_rm(tool: &str, cmd: &SimpleCommand, names: &[&str]) -> Hit {
    Hit::new(
        &VOLUME_DELETE,
        Tier::Destructive,
        format!(
            "removes the container{} {} together with {} anonymous volumes and their data",
            if names.len() == 1 { "" } else { "s" },
            list(names.iter().copied()),
            if names.len() == 1 { "its" } else { "their" }
        ),
    )
    .safer(format!(
        "`{}` (the container goes, its volumes stay)",
        without(cmd, &[GLOBAL, COMMAND_VALUED], &["volumes"], &['v'])
    ))
    .recovery(format!(
        "none: the anonymous volumes' data is gone (`{tool} volume ls` shows what is left)"
    ))
}

/// `compose [globals] down -v` / `compose [globals] rm -v`; `args` start after `compose`.
fn compose(cmd: &SimpleCommand, args: &[Word]) -> Option<Hit> {
    let (globals, Some(at)) = Line::head(args, Style::Gnu, COMPOSE_GLOBAL) else {
        return None;
    };
    let (verb, rest) = args.get(at..)?.split_first()?;
    let verb = verb.text.as_str();
    let line = Line::parse(rest, Style::Gnu, COMPOSE_VALUED);
    if !matches!(verb, "down" | "rm") || globals.help() || line.help() || !line.on(VOLUMES) {
        return None;
    }
    // `docker [globals] compose [globals] down`, or `docker-compose [globals] down`.
    let parts: &[&[&str]] = match cmd.program() {
        Some("docker-compose" | "podman-compose") => &[COMPOSE_GLOBAL, COMPOSE_VALUED],
        _ => &[GLOBAL, COMPOSE_GLOBAL, COMPOSE_VALUED],
    };
    let project = globals
        .value(&["p", "project-name"])
        .map(|p| format!(" `{p}`"))
        .unwrap_or_default();
    let loses = if verb == "down" {
        format!(
            "removes the compose project{project}'s named and anonymous volumes with its \
             containers: the data its services stored (databases, uploads) goes with them"
        )
    } else {
        format!(
            "removes the compose project{project}'s stopped containers with their anonymous \
             volumes and the data in them"
        )
    };
    Some(
        Hit::new(&COMPOSE_VOLUMES, Tier::Destructive, loses)
            .safer(format!(
                "`{}` (volumes stay; `up` finds the data again)",
                without(cmd, parts, &["volumes"], &['v'])
            ))
            .recovery("none: removed volumes' data is gone unless it was backed up"),
    )
}
