//! Values the line gives, against real repositories: a delete whose target the line names
//! through a variable is judged as that value, and one inside a temporary folder the line
//! itself made (`mktemp -d`, `tempfile.mkdtemp()`, `fs.mkdtempSync()`) loses nothing, until
//! a reassignment, a `..`, a `cd` or a move into it breaks the proof. Words the line
//! computes are judged as the path they name (`pwd`, `$PWD`, `~+`, `$(cd DIR && pwd)`, `git
//! rev-parse`), a relative delete inside a folder the line just made (`cd "$(mktemp -d)"`)
//! loses nothing, and what the line exports (`export`, `set -a`) reaches the shells it
//! starts.

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
    world.write("target/release/app", b"binary\n");
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
        verdict
            .cleared
            .iter()
            .any(|c| c.finding.rule.id == "fs.rm-recursive" && c.why.contains(why)),
        "{command}: cleared for {why:?}? {:#?}",
        verdict.cleared
    );
}

#[track_caller]
fn stops(world: &World, command: &str) {
    let verdict = check(world, command);
    assert_eq!(verdict.decision, Decision::Deny, "{command}: {verdict:#?}");
    assert!(
        verdict
            .findings
            .iter()
            .any(|f| f.rule.id == "fs.rm-recursive"),
        "{command}: {verdict:#?}"
    );
}

const MADE: &str = "made on this line";

#[test]
fn a_folder_mktemp_made_on_the_line_goes_freely() {
    let world = repo();
    for line in [
        r#"work=$(mktemp -d) && git clone -q . "$work/c" && rm -rf "$work""#,
        r#"work="$(mktemp -d)"; git clone -q . "$work/c"; rm -rf "$work/c""#,
        r#"d=$(mktemp -d -t build.XXXXXX) && cp -r src "$d/" && rm -rf $d"#,
        r#"d=$(mktemp -d /tmp/agent-test.XXXXXX); rm -rf "$d/out""#,
        r#"d=$(mktemp -dp .); touch "$d/x"; rm -rf "$d""#,
        r#"d=$(mktemp --directory --tmpdir=.); rm -rf "$d""#,
        r#"work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; git clone -q . "$work/c""#,
    ] {
        passes(&world, line, MADE);
    }
}

#[test]
fn fresh_names_under_the_temporary_root_go_freely() {
    let world = repo();
    for line in [
        "mkdir -p /tmp/agent-x-$$ && rm -rf /tmp/agent-x-$$",
        "rm -rf /tmp/build.$RANDOM/out",
        "rm -rf ${TMPDIR:-/tmp}/agent-out",
    ] {
        passes(&world, line, "inside the temporary folder");
    }
}

#[test]
fn folders_interpreter_code_made_go_freely() {
    let world = repo();
    let python = "python3 -c 'import tempfile, shutil, os\nd = tempfile.mkdtemp()\n\
                  open(os.path.join(d, \"x\"), \"w\").close()\nshutil.rmtree(d)'";
    passes(&world, python, MADE);
    let with = "python3 - <<'EOF'\nimport tempfile, shutil, os\n\
                with tempfile.TemporaryDirectory() as d:\n    shutil.rmtree(os.path.join(d, 'sub'))\nEOF";
    passes(&world, with, MADE);
    let node = "node -e 'const fs = require(\"fs\"); const os = require(\"os\"); \
                const path = require(\"path\"); \
                const d = fs.mkdtempSync(path.join(os.tmpdir(), \"t-\")); \
                fs.rmSync(d, { recursive: true, force: true })'";
    passes(&world, node, MADE);
    let ruby = "ruby -e 'require \"tmpdir\"; require \"fileutils\"; \
                Dir.mktmpdir do |d| FileUtils.rm_rf(File.join(d, \"build\")) end'";
    passes(&world, ruby, MADE);
}

#[test]
fn a_folder_wrapped_in_a_path_is_the_folder_made() {
    let world = repo();
    for line in [
        "python3 -c 'from pathlib import Path\nimport tempfile, shutil\n\
         temp_dir = Path(tempfile.mkdtemp())\nstate = temp_dir / \"state.json\"\n\
         open(state, \"w\").close()\nshutil.rmtree(temp_dir)'",
        "python3 -c 'import pathlib\nimport tempfile, shutil\n\
         d = pathlib.Path(tempfile.mkdtemp())\nshutil.rmtree(d)'",
    ] {
        passes(&world, line, MADE);
    }
    for line in [
        // Reassigned before the delete.
        "python3 -c 'from pathlib import Path\nimport tempfile, shutil\n\
         d = Path(tempfile.mkdtemp())\nd = Path(\"src\")\nshutil.rmtree(d)'",
        // `Path` is not pathlib's: what it returns is anyone's guess.
        "python3 -c 'from pathlib import Path\nimport tempfile, shutil\n\
         Path = lambda p: \"src\"\nd = Path(tempfile.mkdtemp())\nshutil.rmtree(d)'",
        "python3 -c 'import pathlib\nimport tempfile, shutil\n\
         pathlib.Path = lambda p: \"src\"\nd = pathlib.Path(tempfile.mkdtemp())\nshutil.rmtree(d)'",
        "python3 -c 'from mylib import Path\nimport tempfile, shutil\n\
         d = Path(tempfile.mkdtemp())\nshutil.rmtree(d)'",
        "python3 -c 'from pathlib import Path\nimport tempfile, shutil\n\
         d = Path(tempfile.mkdtemp(), \"..\")\nshutil.rmtree(d)'",
    ] {
        stops(&world, line);
    }
}

#[test]
fn a_javascript_constant_is_judged_as_its_value() {
    let world = repo();
    let rm = "fs.rmSync(dst, {recursive: true, force: true})";
    let node = |code: &str| format!("node -e \"const fs = require('fs'); {code}\"");
    for code in [
        format!("const dst = '/tmp/agent-cdp/Default'; {rm}"),
        format!("let dst = '/tmp/agent-cdp'; try {{ {rm} }} catch (e) {{}}; f(dst + '/x')"),
    ] {
        passes(&world, &node(&code), "inside a temporary folder");
    }
    for code in [
        format!("let dst = '/tmp/agent-cdp'; dst = 'src'; {rm}"),
        format!("const dst = '/tmp/agent-cdp'; function f(dst) {{ {rm} }}"),
        format!("const dst = '/tmp/agent-cdp'; {{ const dst = 'src'; {rm} }}"),
        format!("const dst = 'src'; {rm}; fs.cpSync('/tmp/a', dst + '/x')"),
    ] {
        stops(&world, &node(&code));
    }
}

#[test]
fn the_proof_breaks_and_the_delete_is_judged_as_written() {
    let world = repo();
    for line in [
        // Reassigned before use: `src` holds the user's notes.
        r#"work=$(mktemp -d); work=src; rm -rf "$work""#,
        // `..` climbs out of the fresh folder.
        r#"work=$(mktemp -d); rm -rf "$work/../x""#,
        // A relative folder means another one after a `cd`.
        r#"d=$(mktemp -d -p .); cd src && rm -rf "$d""#,
        r#"d=$(mktemp -d tmp.XXXX); cd src; rm -rf $d"#,
        r#"export TMPDIR=.; d=$(mktemp -d); cd src; rm -rf "$d""#,
        // An unknown part could be `../..`.
        r#"work=$(mktemp -d); rm -rf "$work/$sub""#,
        "rm -rf /tmp/$name",
        // Moved into the folder, then deleted with it.
        r#"work=$(mktemp -d); mv src "$work/"; rm -rf "$work""#,
        // A trap set before the folder is made may run while the name is still unset.
        r#"trap 'rm -rf "$work"' EXIT; work=$(mktemp -d); work=src"#,
        "python3 -c 'import tempfile, shutil\nd = tempfile.mkdtemp()\nd = \"src\"\nshutil.rmtree(d)'",
        "python3 -c 'import tempfile, shutil\nd = tempfile.mkdtemp()\nshutil.rmtree(d + \"/..\")'",
        // A `d` destructured in a block is another name.
        "node -e 'const fs = require(\"fs\"); const d = fs.mkdtempSync(\"/tmp/t-\"); \
         { const {d} = {d: \"src\"}; fs.rmSync(d, {recursive: true}) }'",
    ] {
        stops(&world, line);
    }
}

#[test]
fn a_target_kept_in_a_variable_is_judged_as_its_value() {
    let world = repo();
    passes(&world, r#"dir=target; rm -rf "$dir""#, "regenerable");
    passes(&world, "out=target/debug; rm -rf $out", "regenerable");
    stops(&world, r#"dir=src; rm -rf "$dir""#);
    stops(
        &world,
        r#"if [ -d target ]; then d=target; else d=src; fi; rm -rf "$d""#,
    );
    passes(
        &world,
        "for d in target/debug target/release; do rm -rf \"$d\"; done",
        "regenerable",
    );
    stops(&world, "for d in target src; do rm -rf \"$d\"; done");
}

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
    stops(&world, &script(r#"rm -rf "$root/../src""#));
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
        stops(&world, line);
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
        stops(&world, line);
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
        stops(&world, line);
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
        // A name known only when it runs may be any program, `mv` too.
        r#"d=$(mktemp -d); $TOOL "$d"; rm -rf "$d""#,
        // An archiver that removes what it packs, a folder mounted over it.
        r#"d=$(mktemp -d); tar -cf "$d/a.tar" --remove-files src; rm -rf "$d""#,
        r#"d=$(mktemp -d); sudo mount --bind src "$d"; rm -rf "$d""#,
        // Where an unknown `cd` leads, a relative delete is judged as today.
        r#"cd "$DEST" && rm -rf src"#,
    ] {
        stops(&world, line);
    }
}

/// What a program given the name of a folder the line made puts there comes from the line:
/// it builds, copies, installs or reads there. Only a move brings anyone's work in, and a
/// script the line runs is read for one.
#[test]
fn what_programs_put_in_a_folder_the_line_made_is_the_lines() {
    let world = repo();
    world.write("build.sh", b"#!/bin/sh\ncargo build --target-dir \"$1\"\n");
    world.write("sync.sh", b"#!/bin/sh\nmv src \"$1/\"\n");
    for line in [
        r#"d=$(mktemp -d); ./build.sh "$d"; rm -rf "$d""#,
        r#"d=$(mktemp -d); PATH="$d" ./run.sh; rm -rf "$d""#,
        r#"d=$(mktemp -d); docker run --rm -v "$d:/out:ro" alpine ls /out; rm -rf "$d""#,
        r#"d=$(mktemp -d); uv venv "$d/venv"; "$d/venv/bin/tool" --help; rm -rf "$d""#,
        r#"d=$(mktemp -d); GIT_DIR="$d" some-tool status; rm -r "$d""#,
    ] {
        passes(&world, line, MADE);
    }
    for line in [
        r#"d=$(mktemp -d); ./sync.sh "$d"; rm -rf "$d""#,
        r#"d=$(mktemp -d); sh ./sync.sh "$d" && rm -rf "$d""#,
    ] {
        stops(&world, line);
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
        stops(&world, line);
    }
}
