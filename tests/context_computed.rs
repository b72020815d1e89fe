//! Words the line computes and the folder each command runs in, against real
//! repositories: a path printed by `pwd`, `$PWD`, `~+`, `$(cd DIR && pwd)` or `git
//! rev-parse` is judged as the path it names, a relative delete inside a folder the line just made (`cd
//! "$(mktemp -d)"`) loses nothing, and what the line exports (`export`, `set -a`) reaches
//! the shells it starts.

mod common;
mod scratch;

use agent_guard::policy::{Decision, Verdict};
use agent_guard::settings::Settings;
use scratch::World;

/// A repository with `src/lib.rs` committed, an untracked note of the user's in `src/`,
/// and ignored build output in `target/`.
fn repo() -> World {
    let world = World::repo();
    world.write(".gitignore", b"target\n");
    world.commit("ignore target");
    world.write("target/debug/app", b"binary\n");
    world.write("src/notes.md", b"my notes\n");
    world
}

fn check(world: &World, command: &str) -> Verdict {
    agent_guard::evaluate_in(command, Some(&world.repo), &Settings::default())
}

#[track_caller]
fn passes(world: &World, command: &str, why: &str) {
    let verdict = check(world, command);
    assert_eq!(
        verdict.decision,
        Decision::Allow,
        "{command}: {}",
        verdict.reason
    );
    assert!(
        verdict.cleared.iter().any(|c| c.why.contains(why)),
        "{command}: cleared for {why:?}? {:#?}",
        verdict.cleared
    );
}

#[track_caller]
fn stops(world: &World, command: &str, rule: &str) {
    let verdict = check(world, command);
    assert_eq!(verdict.decision, Decision::Deny, "{command}: {verdict:#?}");
    assert!(
        verdict.findings.iter().any(|f| f.rule.id == rule),
        "{command}: {verdict:#?}"
    );
}

const MADE: &str = "made on this line";

#[test]
fn a_path_printed_from_the_folder_is_judged_as_that_path() {
    let world = repo();
    for line in [
        r#"rm -rf "$(pwd)/target""#,
        "rm -rf $PWD/target/debug",
        "rm -rf ~+/target",
        "rm -rf `pwd`/target",
        // The `cd` may fail: the path is then `/debug`, which does not exist.
        r#"rm -rf "$(cd target && pwd)/debug""#,
        r#"rm -rf "$(dirname target/debug/app)""#,
        r#"d=$(pwd); rm -rf "$d/target""#,
        r#"cd target && rm -rf "$(pwd)/debug""#,
    ] {
        passes(&world, line, "regenerable");
    }
    // The folder of the script a line writes, then runs: `$0` is the path it ran by.
    let script = |body: &str| {
        format!(
            "mkdir -p tools && printf '%s\\n' 'root=\"$(cd \"$(dirname \"$0\")\" && pwd)\"' \
             '{body}' > tools/clean.sh && bash tools/clean.sh"
        )
    };
    passes(
        &world,
        &script(r#"rm -rf "$root/../target""#),
        "regenerable",
    );
    stops(
        &world,
        &script(r#"rm -rf "$root/../src""#),
        "fs.rm-recursive",
    );
    for line in [
        r#"rm -rf "$(pwd)/src""#,
        r#"rm -rf "$(pwd)""#,
        "rm -rf ~+/src",
        r#"rm -rf "$(cd src && pwd)""#,
        // Kept before a `cd`, the folder is another one than `.` says there.
        r#"d=$(pwd); cd target; rm -rf "$d/src""#,
        r#"for d in "$(pwd)"; do cd target; rm -rf "$d/src"; done"#,
        r#"rm -rf "$(dirname src/lib.rs)""#,
        // Missing now, the folder is made first: `x/../src` is then `src`.
        "mkdir -p x && rm -rf x/../src",
    ] {
        stops(&world, line, "fs.rm-recursive");
    }
}

#[test]
fn a_path_from_git_rev_parse_is_the_repositorys_answer() {
    let world = repo();
    world.write("src/deep/keep.rs", b"kept\n");
    for line in [
        r#"rm -rf "$(git rev-parse --show-toplevel)/target""#,
        r#"cd src/deep && rm -rf "$(git rev-parse --show-toplevel)/target/debug""#,
        r#"cd src && rm -rf "$(git rev-parse --show-cdup)target""#,
    ] {
        passes(&world, line, "regenerable");
    }
    for line in [
        r#"rm -rf "$(git rev-parse --show-toplevel)/src""#,
        r#"cd src/deep && rm -rf "$(git rev-parse --show-toplevel)""#,
        r#"rm -rf "$(git rev-parse --git-dir)""#,
        // The line points git elsewhere, or makes a repository first.
        r#"export GIT_DIR=other; rm -rf "$(git rev-parse --show-toplevel)/target""#,
        r#"git init -q src && cd src && rm -rf "$(git rev-parse --show-toplevel)/target""#,
    ] {
        stops(&world, line, "fs.rm-recursive");
    }
}

#[test]
fn a_delete_inside_a_folder_the_line_made_goes_freely() {
    let world = repo();
    for line in [
        r#"cd "$(mktemp -d)" && rm -rf ./*"#,
        r#"d=$(mktemp -d); cd "$d"; touch a; rm -rf build"#,
        r#"d=$(mktemp -d); cd "$d/"; mkdir -p out/x; cd out; rm -rf ../out"#,
        r#"pushd "$(mktemp -d)" && rm -rf * && popd"#,
        r#"cd "$(mktemp -d)"; git clone -q "$OLDPWD" c; rm -rf c"#,
        r#"set -e; d=$(mktemp -d); uv build --out-dir "$d/wheels"; rm -rf "$d""#,
        r#"d=$(mktemp -d); git -C "$d" init -q; sed -n 1p src/lib.rs; rm -r "$d""#,
        r#"d=$(mktemp -d); trap 'rm -rf -- "$d"' EXIT; ln -s /usr/bin/env "$d/env""#,
    ] {
        passes(&world, line, MADE);
    }
    // Assigned in a chain of `&&`, the folder is surely the one made for what follows in
    // the chain, wherever its `cd` leads.
    for line in [
        r#"cd src && d=$(mktemp -d) && cp -r . "$d/" && rm -rf "$d""#,
        r#"cd /nowhere-here && d=$(mktemp -d) && cp -r "$d"/* /srv/out/ && rm -rf $d"#,
    ] {
        passes(&world, line, MADE);
    }
    for line in [
        r#"cd src && d=$(mktemp -d) && d=../src && rm -rf "$d""#,
        r#"d=src; cd target && d=$(mktemp -d); cd ..; rm -rf "$d""#,
        r#"d=src; false && d=$(mktemp -d) || rm -rf "$d""#,
    ] {
        stops(&world, line, "fs.rm-recursive");
    }
    // The work done in the folder voids nothing outside it.
    passes(
        &world,
        r#"pushd "$(mktemp -d)"; rm -rf *; popd; rm -rf target"#,
        "regenerable",
    );
    for line in [
        // Back where the line started.
        r#"pushd "$(mktemp -d)"; popd; rm -rf ./*"#,
        r#"cd "$(mktemp -d)"; cd -; rm -rf src"#,
        r#"d=$(mktemp -d); cd "$d"; cd ..; rm -rf ./*"#,
        r#"d=$(mktemp -d); cd "$d"; rm -rf ../*"#,
        // Moved in, then deleted with it.
        r#"d=$(mktemp -d); mv src "$d/"; cd "$d"; rm -rf ./*"#,
        // A program handed the folder's name may put anything there.
        r#"d=$(mktemp -d); ./sync.sh "$d"; rm -rf "$d""#,
        r#"d=$(mktemp -d); PATH="$d" ./run.sh; rm -rf "$d""#,
        // Where an unknown `cd` leads, a relative delete is judged as today.
        r#"cd "$DEST" && rm -rf src"#,
    ] {
        stops(&world, line, "fs.rm-recursive");
    }
}

#[test]
fn what_the_line_exports_reaches_the_shells_it_starts() {
    let world = repo();
    for line in [
        r#"export OUT=target; sh -c 'rm -rf "$OUT"'"#,
        r#"printf 'OUT=target\n' > v.env; set -a; . ./v.env; set +a; sh -c 'rm -rf "$OUT"'"#,
        r#"set -o allexport; OUT=target; set +o allexport; bash -c 'rm -rf $OUT/debug'"#,
        r#"OUT=target bash -c 'rm -rf "$OUT"'"#,
    ] {
        passes(&world, line, "regenerable");
    }
    for line in [
        r#"export OUT=src; sh -c 'rm -rf "$OUT"'"#,
        r#"printf 'OUT=src\n' > v.env; set -a; . ./v.env; set +a; sh -c 'rm -rf "$OUT"'"#,
        // Not exported: the child shell's `OUT` is not the line's.
        r#"OUT=target; sh -c 'rm -rf "$OUT"'"#,
        r#"printf 'OUT=target\n' > v.env; . ./v.env; sh -c 'rm -rf "$OUT"'"#,
    ] {
        stops(&world, line, "fs.rm-recursive");
    }
}
