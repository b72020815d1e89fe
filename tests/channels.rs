//! Commands sent to run elsewhere (a container, a pod, another host): where the reason says
//! they run, what the context may and may not know about it there, and production places.
//! The repositories are real, built with the real `git` in scratch folders.

mod common;
mod scratch;

use agent_guard::policy::{Decision, Verdict};
use agent_guard::rules::Tier;
use agent_guard::settings::Settings;
use scratch::World;

/// Judges `command` with the context on, run from the root of `world`'s repository.
fn judged(world: &World, command: &str) -> Verdict {
    agent_guard::evaluate_in(command, Some(&world.repo), &Settings::default())
}

/// Judges `command` by the rules alone.
fn rules_alone(command: &str) -> Verdict {
    let settings = Settings {
        context: false,
        ..Settings::default()
    };
    agent_guard::evaluate(command, &settings)
}

#[track_caller]
fn stopped(verdict: &Verdict, says: &[&str]) {
    assert_eq!(verdict.decision, Decision::Deny, "{verdict:#?}");
    for part in says {
        assert!(
            verdict.reason.contains(part),
            "reason should say {part:?}:\n{}",
            verdict.reason
        );
    }
}

#[track_caller]
fn allowed(verdict: &Verdict) {
    assert_eq!(verdict.decision, Decision::Allow, "{}", verdict.reason);
}

/// A repository with ignored build output in `build/` and a user's untracked notes.
fn project() -> World {
    let world = World::repo();
    world.write(".gitignore", b"/build/\n");
    world.commit("ignore build output");
    world.write("build/app.js", b"compiled\n");
    world.write("notes/todo.md", b"call the bank\n");
    world
}

#[test]
fn a_bind_mount_of_this_folder_is_judged_here() {
    let world = project();
    allowed(&judged(
        &world,
        "docker run --rm -v \"$PWD\":/src node:20 rm -rf /src/build",
    ));
    allowed(&judged(
        &world,
        "docker run --rm -v \"$PWD\":/src -w /src node:20 sh -c 'cd build && rm -rf ../build'",
    ));
    stopped(
        &judged(
            &world,
            "docker run --rm -v \"$PWD\":/src -w /src alpine rm -rf notes",
        ),
        &[
            "(in a new container of `alpine`)",
            "`notes` holds 1 untracked file",
        ],
    );
    // `$PWD` is where the `cd`s lead.
    stopped(
        &judged(
            &world,
            "cd notes && docker run --rm -v \"$PWD\":/n alpine rm -rf /n",
        ),
        &["untracked"],
    );
    // Something written first inside the mount voids the clearing.
    stopped(
        &judged(
            &world,
            "docker run --rm -v \"$PWD\":/src -w /src alpine sh -c 'cp -r notes build/; rm -rf build'",
        ),
        &["fs.rm-recursive"],
    );
}

#[test]
fn a_single_file_in_a_bind_mount_is_judged_here() {
    let world = project();
    world.write("notes.md", b"ideas\n");
    for command in [
        "docker run --rm -v \"$PWD\":/src alpine rm /src/notes.md",
        "docker run --rm -v \"$PWD\":/src -w /src alpine unlink notes.md",
        "docker run --rm -v \"$PWD\":/src alpine sh -c 'echo x > /src/notes.md'",
        "docker run --rm -v \"$PWD\":/src alpine cp /src/src/lib.rs /src/notes.md",
    ] {
        stopped(&judged(&world, command), &["`notes.md`"]);
    }
    for command in [
        "docker run --rm -v \"$PWD\":/src alpine rm -f /src/build/app.js",
        "docker run --rm -v \"$PWD\":/src alpine sh -c 'echo x > /src/fresh.md'",
        "docker run --rm -v \"$PWD\":/src alpine rm /tmp/notes.md",
    ] {
        allowed(&judged(&world, command));
    }
}

#[test]
fn a_runner_in_a_container_reads_the_recipes_its_folder_mounts_from_here() {
    let world = project();
    world.write(
        "package.json",
        br#"{"scripts": {"wipe": "rm -rf notes", "clean": "rm -rf build"}}"#,
    );
    world.write("Makefile", b"wipe:\n\trm -rf notes\n");
    for command in [
        "docker run --rm -v \"$PWD\":/src -w /src node:20 npm run wipe",
        "docker run --rm -v \"$PWD\":/src -w /src builder make wipe",
        "docker run --rm -v \"$PWD\":/src node:20 sh -c 'cd /src && npm run wipe'",
        // A volume over a folder below does not hide the recipe file.
        "docker run --rm -v \"$PWD\":/src -v /src/node_modules -w /src node:20 npm run wipe",
        // npm looks upward from a folder below, in the container too.
        "docker run --rm -v \"$PWD\":/src -w /src/notes node:20 npm run wipe",
    ] {
        stopped(
            &judged(&world, command),
            &["runs `rm -rf notes`", "untracked"],
        );
    }
    for command in [
        "docker run --rm -v \"$PWD\":/src -w /src node:20 npm run clean",
        // The container sees no folder above its mount: the recipe file here is not there.
        "docker run --rm -v \"$PWD/notes\":/n -w /n node:20 npm run wipe",
    ] {
        allowed(&judged(&world, command));
    }
}

#[test]
fn an_absolute_bind_mount_maps_to_its_host_folder() {
    let world = project();
    let notes = world.repo.join("notes");
    let mount = format!("-v {}:/data", notes.display());
    stopped(
        &judged(
            &world,
            &format!("docker run --rm {mount} alpine rm -rf /data"),
        ),
        &[&format!("`{}` holds", notes.display())],
    );
    allowed(&judged(
        &world,
        &format!("docker run --rm {mount} alpine rm -rf /data/never-made"),
    ));
    let bind = format!("--mount type=bind,source={},target=/data", notes.display());
    stopped(
        &judged(
            &world,
            &format!("docker run --rm {bind} alpine rm -rf /data"),
        ),
        &["untracked"],
    );
}

#[test]
fn nothing_is_known_to_be_missing_or_clean_elsewhere() {
    let world = project();
    // Missing here says nothing of there; a host's /tmp may hold a checkout.
    for command in [
        "ssh web1 rm -rf /tmp/agent-guard-never-made",
        "ssh web1 'cd /srv && rm -rf never-made'",
        "docker exec api rm -rf /tmp/agent-guard-never-made",
        "kubectl exec web-0 -- rm -rf /srv/never-made",
        "ssh web1 git reset --hard",
        // A volume's data is not this machine's, nor is another machine's folder.
        "docker run --rm -v cache:/cache alpine rm -rf /cache/never-made",
        "ssh web1 docker run --rm -v /srv:/srv alpine rm -rf /srv/never-made",
        "DOCKER_HOST=ssh://web1 docker run --rm -v \"$PWD\":/src alpine rm -rf /src/build",
    ] {
        stopped(&judged(&world, command), &[]);
    }
    // A new container with nothing mounted deletes only its own files.
    allowed(&judged(&world, "docker run --rm alpine rm -rf /srv/data"));
}

#[test]
fn the_reason_says_where_it_runs() {
    for (command, place) in [
        ("docker exec api rm -rf /srv/cache", "(in container `api`)"),
        (
            "kubectl exec -n shop web-0 -- sh -c 'rm -rf /data/*'",
            "(inside a `sh -c` script, in pod `web-0`)",
        ),
        (
            "ssh -p 2222 deploy@web1 rm -rf /srv/app",
            "(on host `web1`)",
        ),
        (
            "docker compose run worker rm -rf /jobs",
            "(in a new container of service `worker`)",
        ),
        ("vagrant ssh -c 'rm -rf /opt/app'", "(on machine `default`)"),
    ] {
        let verdict = rules_alone(command);
        stopped(&verdict, &[place]);
        assert_eq!(verdict.findings[0].tier, Tier::Destructive, "{command}");
    }
    let verdict = rules_alone("docker exec api rm -rf /srv/cache");
    assert!(
        verdict.reason.starts_with(
            "agent-guard [fs.rm-recursive]: `rm -rf /srv/cache` (in container `api`) deletes"
        ),
        "{}",
        verdict.reason
    );
    // The override goes in front of the command here, and covers what it sends.
    stopped(
        &rules_alone("ssh web1 'rm -rf /srv/app'"),
        &["put `AGENT_GUARD_OFF=1` in front of `ssh web1 'rm -rf /srv/app'`"],
    );
    allowed(&rules_alone("AGENT_GUARD_OFF=1 ssh web1 'rm -rf /srv/app'"));
    allowed(&rules_alone(
        "AGENT_GUARD_OFF=1 kubectl exec web-0 -- sh -c 'rm -rf /data/*'",
    ));
}

#[test]
fn a_place_named_production_is_protected() {
    for command in [
        "ssh web.production.example.com 'rm -rf /var/cache/app'",
        "ssh deploy@prod-db rm -rf /var/lib/x",
        "kubectl --context production-eu exec web-0 -- rm -rf /data",
        "docker compose exec prod-api rm -rf /srv/media",
        "ssh prod-bastion docker exec api rm -rf /srv/app",
        "ssh bastion ssh live-db rm -rf /var/lib/x",
    ] {
        let verdict = rules_alone(command);
        stopped(&verdict, &["names production", "no override applies"]);
        assert_eq!(verdict.findings[0].tier, Tier::Protected, "{command}");
        // Not even the override lifts it.
        let overridden = rules_alone(&format!("AGENT_GUARD_OFF=1 {command}"));
        assert_eq!(overridden.decision, Decision::Deny, "{command}");
    }
    for command in [
        "ssh products-host rm -rf /var/lib/x",
        "docker exec reproduce rm -rf /srv/app",
    ] {
        let verdict = rules_alone(command);
        assert_eq!(verdict.decision, Decision::Deny, "{command}");
        assert_eq!(verdict.findings[0].tier, Tier::Destructive, "{command}");
    }
    // Reads stay reads, wherever they run.
    allowed(&rules_alone("ssh prod-db ls /var/lib"));
}
