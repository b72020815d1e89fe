//! The generated corpus: every destructive form the rules know, crossed with what real
//! command lines put around it. Each table is plain data; a new form is one more line.
//!
//! In a form, `{q}` takes a quiet or verbose flag (or none), and a form of kind `Git`
//! starts with `git ` so the repository can be redirected. A form of kind `Needs` runs a
//! program this machine may lack (an interpreter, `rsync`, `parallel`): the generator leaves
//! it out where that program is not on `PATH`, rather than count a failed line as kept.
//!
//! A form with a tab is a line the guard judges and, after the tab, its local equivalent
//! that runs instead (a container's command on the folders it mounts); both take the same
//! decoration.

/// How a form may be decorated.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A git command: `git ` may become `git -C ..`, `GIT_DIR=.. git `, ...
    Git,
    /// Anything else.
    Plain,
    /// Like `Plain`, but only where this program is on `PATH`.
    Needs(&'static str),
}

/// Every destructive form, with the kind of decoration it takes.
pub const FORMS: &[(Kind, &str)] = &[
    (Kind::Git, "git reset{q} --hard"),
    (Kind::Git, "git reset{q} --hard HEAD~1"),
    (Kind::Git, "git reset{q} --hard origin/main"),
    (Kind::Git, "git reset{q} --hard origin/topic"),
    (Kind::Git, "git reset{q} --hard merged"),
    (Kind::Git, "git reset{q} --hard feature"),
    (Kind::Git, "git reset --ha"),
    (Kind::Git, "git checkout{q} -- ."),
    (Kind::Git, "git checkout{q} -- README.md"),
    (Kind::Git, "git checkout{q} -- docs"),
    (Kind::Git, "git checkout{q} -f merged"),
    (Kind::Git, "git checkout{q} src/lib.rs"),
    (Kind::Git, "git checkout{q} feature"),
    (Kind::Git, "git restore ."),
    (Kind::Git, "git restore --worktree --staged src/lib.rs"),
    (Kind::Git, "git restore docs"),
    (Kind::Git, "git switch{q} -f merged"),
    (Kind::Git, "git switch{q} --discard-changes feature"),
    (Kind::Git, "git clean{q} -f"),
    (Kind::Git, "git clean{q} -fd"),
    (Kind::Git, "git clean -fq"),
    (Kind::Git, "git clean -qdf"),
    (Kind::Git, "git clean --quiet --force -d"),
    (Kind::Git, "git clean{q} -fd src"),
    (Kind::Git, "git clean{q} -fd docs"),
    (Kind::Git, "git clean{q} -fd -e notes.txt"),
    (Kind::Git, "git clean{q} -fd -- drafts"),
    (Kind::Git, "git clean{q} -fx"),
    (Kind::Git, "git clean{q} -fX"),
    (Kind::Git, "git branch -D feature"),
    (Kind::Git, "git branch -D merged"),
    (Kind::Git, "git branch -d -f feature"),
    (Kind::Git, "git branch --delete --force wt"),
    (Kind::Git, "git stash drop{q}"),
    (Kind::Git, "git stash drop{q} stash@{1}"),
    (Kind::Git, "git stash drop 1"),
    (Kind::Git, "git stash clear"),
    (Kind::Git, "git worktree remove --force ../app-wt"),
    (Kind::Git, "git tag -d v1"),
    (Kind::Git, "git update-ref -d refs/heads/feature"),
    (Kind::Git, "git update-ref -d refs/heads/merged"),
    (Kind::Git, "git push{q} -f origin main"),
    (Kind::Git, "git push{q} origin +feature:main"),
    (Kind::Git, "git push{q} origin --delete topic"),
    (Kind::Git, "git push{q} origin :topic"),
    (Kind::Git, "git reflog expire --expire=now --all"),
    (Kind::Git, "git gc{q} --prune=now"),
    (Kind::Git, "git branch -f feature main"),
    (Kind::Git, "git branch -f merged main"),
    (Kind::Git, "git branch -f newb main"),
    (Kind::Git, "git branch -M merged feature"),
    (Kind::Git, "git branch -C main feature"),
    (Kind::Git, "git branch --move --force merged feature"),
    (Kind::Git, "git branch --copy --force main merged"),
    (Kind::Git, "git checkout{q} -B feature"),
    (Kind::Git, "git checkout{q} -B merged"),
    (Kind::Git, "git switch{q} -C feature"),
    (Kind::Git, "git switch{q} --force-create feature main"),
    (Kind::Git, "git update-ref refs/heads/feature main"),
    (Kind::Git, "git update-ref refs/heads/merged main"),
    (Kind::Git, "git fetch{q} origin +main:refs/heads/feature"),
    (Kind::Git, "git fetch{q} --force origin main:feature"),
    (Kind::Git, "git fetch{q} origin +topic:refs/heads/merged"),
    (Kind::Git, "git push{q} . +main:feature"),
    (Kind::Git, "git push{q} . +feature:merged"),
    (Kind::Git, "git read-tree -u --reset HEAD"),
    (Kind::Git, "git read-tree -m -u HEAD"),
    (Kind::Git, "git checkout-index -f -a"),
    (Kind::Git, "git checkout-index --force -- README.md"),
    (Kind::Git, "git rm{q} -f src/lib.rs"),
    (Kind::Git, "git rm{q} -r -f docs"),
    (Kind::Git, "git rm -f local.txt"),
    (Kind::Git, "git submodule deinit -f --all"),
    (Kind::Git, "git reflog delete HEAD@{1}"),
    (Kind::Git, "git reflog delete refs/stash@{1}"),
    (Kind::Git, "git reflog expire --expire=all --all"),
    (
        Kind::Git,
        "git reflog expire --expire-unreachable=now --all",
    ),
    (Kind::Git, "git reflog expire --expire=0 --all"),
    (Kind::Git, "git reflog expire --expire=2001-01-01 --all"),
    (Kind::Git, "git -c gc.reflogExpire=now reflog expire --all"),
    (Kind::Git, "git gc{q} --prune=all"),
    (Kind::Git, "git -c gc.pruneExpire=now gc{q}"),
    (
        Kind::Git,
        "git -c gc.reflogExpire=now -c gc.reflogExpireUnreachable=now gc",
    ),
    (Kind::Git, "git prune"),
    (Kind::Git, "git -c clean.requireForce=false clean -d"),
    (Kind::Git, "git -c clean.requireForce=false clean{q} -dx"),
    (Kind::Git, "git -c alias.wipe='reset --hard' wipe"),
    (Kind::Git, "git -c alias.tidy='!git clean -fd' tidy"),
    (
        Kind::Plain,
        "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.wipe GIT_CONFIG_VALUE_0='reset --hard' git wipe",
    ),
    (
        Kind::Plain,
        "git switch -q -c newb && git commit -qam wip && git switch -q main && git branch -f newb main",
    ),
    (
        Kind::Plain,
        "git config clean.requireForce false && git clean -d",
    ),
    (Kind::Plain, "git config alias.w 'reset --hard'; git w"),
    (Kind::Git, "git nuke"),
    (Kind::Git, "git back"),
    (Kind::Git, "git scrub"),
    (Kind::Plain, "rm -rf{q} src"),
    (Kind::Plain, "rm -rf{q} build"),
    (Kind::Plain, "rm -rf{q} target"),
    (Kind::Plain, "rm -rf{q} node_modules"),
    (Kind::Plain, "rm -rf{q} drafts"),
    (Kind::Plain, "rm -rf{q} .env"),
    (Kind::Plain, "rm -rf{q} docs"),
    (Kind::Plain, "rm -rf{q} old"),
    (Kind::Plain, "rm -rf{q} missing"),
    (Kind::Plain, "rm -r{q} src/scratch.rs"),
    (Kind::Plain, "rm -rf{q} build target"),
    (Kind::Plain, "rm -rf{q} ../app-wt"),
    (Kind::Plain, "rm -rf{q} draft*"),
    (Kind::Plain, "find . -name '*.o' -delete"),
    (Kind::Plain, "find src -delete"),
    (Kind::Plain, "find drafts -delete"),
    (Kind::Plain, "find . -name deep -exec rm -rf {} \\;"),
    (Kind::Plain, "find . -name drafts -exec rm -rf {} +"),
    (Kind::Plain, "find . -name old -exec rm -rf {} \\;"),
    (Kind::Plain, "find . -name '*.pyc' -delete"),
    (Kind::Plain, "find build -name '*.o' -exec rm -f {} +"),
    (Kind::Plain, "find . -mmin -600 -delete"),
    (Kind::Plain, "find . -not -name '*.md' -delete"),
    (Kind::Plain, "find . -type f -exec rm -f {} +"),
    (Kind::Plain, "find . -name '*.tmp' -o -delete"),
    (Kind::Plain, "find drafts -type f -size +0 -delete"),
    (Kind::Needs("rsync"), "rsync -a --delete src/ docs/"),
    (Kind::Needs("rsync"), "rsync -a{q} --delete drafts/ build/"),
    (
        Kind::Needs("rsync"),
        "rsync -a --delete-after src/ ../app-wt/src/",
    ),
    (Kind::Needs("rsync"), "rsync -a --delete docs ../sibling"),
    (
        Kind::Needs("python3"),
        "python3 -c 'import shutil; shutil.rmtree(\"drafts\")'",
    ),
    (
        Kind::Needs("python3"),
        "python3 -c 'import shutil; shutil.rmtree(\"build\")'",
    ),
    (
        Kind::Needs("python3"),
        "python3 -c 'import subprocess; subprocess.run([\"git\", \"reset\", \"--hard\"])'",
    ),
    (
        Kind::Needs("python3"),
        "python3 -c 'import os; os.system(\"git clean -fd\")'",
    ),
    (
        Kind::Needs("node"),
        "node -e 'require(\"fs\").rmSync(\"drafts\", {recursive: true, force: true})'",
    ),
    (
        Kind::Needs("node"),
        "node -e 'require(\"fs\").rmSync(\"target\", {recursive: true, force: true})'",
    ),
    (
        Kind::Needs("node"),
        "node -e 'require(\"child_process\").execSync(\"git stash clear\")'",
    ),
    (
        Kind::Needs("ruby"),
        "ruby -e 'require \"fileutils\"; FileUtils.rm_rf(\"drafts\")'",
    ),
    (
        Kind::Needs("perl"),
        "perl -e 'system(\"git reset --hard\")'",
    ),
    (Kind::Needs("perl"), "perl -e 'system(\"rm -rf src\")'"),
    (Kind::Needs("rimraf"), "rimraf drafts"),
    (Kind::Needs("rimraf"), "npx rimraf node_modules"),
    (Kind::Needs("parallel"), "parallel rm -rf ::: drafts src"),
    (Kind::Needs("parallel"), "echo drafts | parallel rm -rf {}"),
    (Kind::Needs("flock"), "flock .lock rm -rf{q} drafts"),
    (Kind::Needs("flock"), "flock .lock -c 'git clean -fd'"),
    (Kind::Needs("chronic"), "chronic git reset --hard"),
    (Kind::Plain, "trap 'rm -rf drafts' EXIT; true"),
    (Kind::Plain, "trap 'git stash clear' EXIT"),
    (
        Kind::Plain,
        "trap 'rm -rf old' EXIT; mkdir old && mv notes.txt old/",
    ),
    (Kind::Plain, "trap 'git stash clear' EXIT; git stash -q -u"),
    (Kind::Plain, "echo drafts | xargs -I{} rm -rf {}"),
    (Kind::Plain, "echo drafts | xargs -I{} sh -c 'rm -rf {}'"),
    (Kind::Plain, "eval 'cd ../sibling'; rm -rf t.txt"),
    (Kind::Plain, "echo 'rm -rf drafts' > x.sh && bash x.sh"),
    // Script files on disk, run with arguments, and functions.
    (Kind::Plain, "bash tools/wipe.sh drafts"),
    (Kind::Plain, "sh tools/wipe.sh notes.txt"),
    (Kind::Plain, "./tools/wipe.sh src"),
    (Kind::Plain, "sh tools/reset.sh"),
    (Kind::Plain, "./tools/reset.sh HEAD~1"),
    (Kind::Plain, "bash tools/reset.sh origin/main"),
    (Kind::Plain, "source tools/lib.sh && scrub"),
    (Kind::Plain, ". tools/lib.sh; scrub src"),
    (Kind::Needs("python3"), "python3 tools/tidy.py"),
    (Kind::Plain, "f() { rm -rf \"$1\"; }; f drafts"),
    (Kind::Plain, "g() { git reset --hard \"$@\"; }; g HEAD~1"),
    (Kind::Plain, "h() { git clean \"$1\" \"$2\"; }; h -f -d"),
    (
        Kind::Plain,
        "printf 'rm -rf \"$1\"\\n' > w.sh && sh w.sh drafts",
    ),
    (
        Kind::Plain,
        "printf 'git checkout -- \"$@\"\\n' > c.sh && bash c.sh .",
    ),
    (Kind::Plain, "sh -c 'd=drafts; rm -rf $d'"),
    (Kind::Plain, "bash -c 'm=--hard; git reset $m'"),
    (
        Kind::Plain,
        "echo 'cd ../sibling' > e.sh && . ./e.sh && rm -rf t.txt",
    ),
    (
        Kind::Plain,
        "printf 'git clean -fd\\n' | tee x.sh > /dev/null; sh x.sh",
    ),
    (Kind::Plain, "eval cd ../sibling && git clean -fd"),
    (
        Kind::Plain,
        "find . -maxdepth 1 -name drafts -exec sh -c 'rm -rf {}' \\;",
    ),
    (Kind::Plain, "echo drafts | xargs -I @ rm -rf @"),
    (Kind::Plain, "echo drafts | xargs rm -rf"),
    (
        Kind::Plain,
        "echo drafts | while read d; do rm -rf \"$d\"; done",
    ),
    (Kind::Plain, "rm -rf $(echo drafts)"),
    (Kind::Plain, "d=drafts; rm -rf $d"),
    (Kind::Plain, "d=target; rm -rf \"$d\""),
    (
        Kind::Plain,
        "for d in target drafts; do rm -rf \"$d\"; done",
    ),
    (
        Kind::Plain,
        "if [ -d nowhere ]; then d=target; else d=drafts; fi; rm -rf \"$d\"",
    ),
    (
        Kind::Plain,
        "work=$(mktemp -d) && git clone -q . \"$work/c\" && rm -rf \"$work\"",
    ),
    (Kind::Plain, "work=$(mktemp -d); work=src; rm -rf \"$work\""),
    (
        Kind::Plain,
        "work=$(mktemp -d); mv drafts \"$work\"; rm -rf \"$work\"",
    ),
    (
        Kind::Plain,
        "work=$(mktemp -d); trap 'rm -rf \"$work\"' EXIT; cp -r src \"$work\"",
    ),
    // What a program handed the folder's name puts there is the line's own; a move is not.
    (
        Kind::Plain,
        "work=$(mktemp -d); sh tools/check.sh \"$work\"; git init -q \"$work/r\"; rm -rf \"$work\"",
    ),
    (
        Kind::Plain,
        "work=$(mktemp -d); tar -cf \"$work/a.tar\" --remove-files drafts; rm -rf \"$work\"",
    ),
    (
        Kind::Plain,
        "work=$(mktemp -d); printf 'mv drafts \"$1\"\\n' > m.sh; sh m.sh \"$work\"; rm -rf \"$work\"",
    ),
    // Input the line shows to `xargs`, and a `git clean` git refuses whole.
    (Kind::Plain, "printf '%s\\n' build | xargs -r rm -rf"),
    (Kind::Plain, "git clean -fdx /"),
    (Kind::Plain, "git clean -fdx drafts /"),
    (Kind::Plain, "m=--hard; git reset $m"),
    // Paths the line computes, and the folder each command runs in.
    (Kind::Plain, "rm -rf \"$(pwd)/build\""),
    (Kind::Plain, "rm -rf \"$(pwd)/drafts\""),
    (Kind::Plain, "rm -rf $PWD/target"),
    (Kind::Plain, "rm -rf ~+/drafts"),
    (Kind::Plain, "rm -rf \"$(cd build && pwd)\"/*"),
    (Kind::Plain, "rm -rf \"$(dirname build/x)\""),
    (Kind::Plain, "d=$(pwd); cd src; rm -rf \"$d/drafts\""),
    (Kind::Plain, "d=$(pwd); cd src; rm -rf \"$d/build\""),
    (
        Kind::Plain,
        "rm -rf \"$(git rev-parse --show-toplevel)/build\"",
    ),
    (
        Kind::Plain,
        "rm -rf \"$(git rev-parse --show-toplevel)/drafts\"",
    ),
    (Kind::Plain, "cd \"$(mktemp -d)\" && rm -rf ./*"),
    (
        Kind::Plain,
        "d=$(mktemp -d); cd \"$d\"; touch a; rm -rf build ./*",
    ),
    (Kind::Plain, "pushd \"$(mktemp -d)\" && rm -rf * && popd"),
    (Kind::Plain, "pushd \"$(mktemp -d)\"; popd; rm -rf drafts"),
    (Kind::Plain, "cd \"$(mktemp -d)\"; cd -; rm -rf drafts"),
    (
        Kind::Plain,
        "d=$(mktemp -d); mv drafts \"$d/\"; cd \"$d\"; rm -rf ./*",
    ),
    (Kind::Plain, "export D=drafts; sh -c 'rm -rf \"$D\"'"),
    (Kind::Plain, "export D=build; sh -c 'rm -rf \"$D\"'"),
    (
        Kind::Plain,
        "printf 'D=build\\n' > v.env; set -a; . ./v.env; set +a; sh -c 'rm -rf \"$D\"'",
    ),
    (Kind::Plain, "eval \"$(printf 'git reset --%s' hard)\""),
    (
        Kind::Needs("python3"),
        "python3 -c 'import tempfile, shutil; d = tempfile.mkdtemp(); shutil.rmtree(d)'",
    ),
    (
        Kind::Plain,
        "git stash list --format=%gd | xargs -n1 git stash drop",
    ),
    // Single files deleted or written over.
    (Kind::Plain, "rm notes.txt"),
    (Kind::Plain, "rm -f .env"),
    (Kind::Plain, "rm README.md"),
    (Kind::Plain, "rm src/main.rs"),
    (Kind::Plain, "unlink src/scratch.rs"),
    (Kind::Plain, "echo x > notes.txt"),
    (Kind::Plain, "echo x > README.md"),
    (Kind::Plain, "echo x > src/main.rs"),
    (Kind::Plain, ": > .env"),
    (Kind::Plain, "date 2> notes.txt"),
    (Kind::Plain, "echo x | tee .env"),
    (Kind::Plain, "echo x >> notes.txt"),
    (Kind::Plain, "cp docs/guide.md notes.txt"),
    (Kind::Plain, "cp README.md src/main.rs"),
    (Kind::Plain, "mv notes.txt src/scratch.rs"),
    (Kind::Plain, "git show HEAD:README.md > README.md"),
    (Kind::Plain, "git show HEAD:src/main.rs > src/main.rs"),
    (Kind::Plain, "truncate -s 0 src/lib.rs"),
    (Kind::Plain, "mv notes.txt x && rm x"),
    (
        Kind::Plain,
        "for f in notes.txt src/scratch.rs; do mv \"$f\" merged.txt; done",
    ),
    // What the line makes or copies aside first.
    (Kind::Plain, "cp .env .env.bak && rm .env"),
    (
        Kind::Plain,
        "cp README.md README.bak && git checkout -- README.md",
    ),
    (Kind::Plain, "cp -r drafts drafts.bak && rm -rf drafts"),
    (Kind::Plain, "mkdir tmpd && echo x > tmpd/a && rm -rf tmpd"),
    // A copy aside the line deletes or writes over later keeps nothing.
    (Kind::Plain, "cp .env .env.bak && rm .env && rm .env.bak"),
    (
        Kind::Plain,
        "cp -r drafts drafts.bak && rm -rf drafts && rm -rf drafts.bak",
    ),
    (
        Kind::Plain,
        "cp notes.txt notes.bak && rm notes.txt && mv README.md notes.bak",
    ),
    (
        Kind::Plain,
        "work=$(mktemp -d) && cp -r drafts \"$work\"/d && rm -rf drafts && rm -rf \"$work\"",
    ),
    (
        Kind::Plain,
        "cp notes.txt notes.bak && rm notes.txt && cat notes.bak",
    ),
    // Moved first, deleted where it went.
    (Kind::Plain, "mkdir t && mv notes.txt t/ && rm -rf t"),
    (
        Kind::Plain,
        "mkdir -p box/in && mv drafts box/in/ && rm -rf box",
    ),
    (Kind::Plain, "mv drafts drafts.old && rm -rf drafts.old"),
    (
        Kind::Plain,
        "work=$(mktemp -d) && mv notes.txt \"$work\"/ && rm -rf \"$work\"",
    ),
    (Kind::Plain, "mkdir t && cp notes.txt t/ && rm -rf t"),
    (
        Kind::Needs("python3"),
        "python3 -c 'open(\"notes.txt\", \"w\").write(\"x\")'",
    ),
    (
        Kind::Needs("python3"),
        "python3 -c 'import os, shutil; os.makedirs(\"t\"); open(\"t/a\", \"w\").write(\"x\"); shutil.rmtree(\"t\")'",
    ),
    // Recipes of the world's package.json and Makefile, run by their runners.
    (Kind::Needs("npm"), "npm run hello"),
    (Kind::Needs("npm"), "npm run list"),
    (Kind::Needs("npm"), "npm run status"),
    (Kind::Needs("npm"), "npm run clean"),
    (Kind::Needs("npm"), "npm run{q} wipe"),
    (Kind::Needs("npm"), "npm run reset"),
    (Kind::Needs("npm"), "npm run scrub"),
    (Kind::Needs("npm"), "npm run hard"),
    (Kind::Needs("npm"), "npm run rm -- drafts"),
    (Kind::Needs("npm"), "npm run rm -- build target"),
    (Kind::Needs("npm"), "npm run nuke"),
    (Kind::Needs("npm"), "npm run fresh"),
    (Kind::Needs("npm"), "npm run build"),
    (Kind::Needs("npm"), "npm run list -- drafts"),
    (Kind::Needs("npm"), "npm run hello -- drafts"),
    (Kind::Needs("npm"), "npm test"),
    (Kind::Needs("npm"), "cd src && npm run wipe"),
    (Kind::Needs("npm"), "cd src && npm run clean"),
    (Kind::Needs("make"), "make"),
    (Kind::Needs("make"), "make hello"),
    (Kind::Needs("make"), "make status"),
    (Kind::Needs("make"), "make clean"),
    (Kind::Needs("make"), "make{q} wipe"),
    (Kind::Needs("make"), "make wipe DRAFTS=build"),
    (Kind::Needs("make"), "make reset"),
    (Kind::Needs("make"), "make scrub"),
    (Kind::Needs("make"), "make hard"),
    (Kind::Needs("make"), "make release"),
    (Kind::Needs("make"), "make -n wipe"),
    (Kind::Needs("make"), "make -n scrub"),
    (Kind::Needs("make"), "make -s wipe"),
    (Kind::Needs("make"), "make -C ../app-wt scrub"),
    (Kind::Needs("make"), "make -C ../app-wt list"),
    // A container's command on folders it mounts from here, judged; its local equivalent run.
    (
        Kind::Plain,
        "docker run --rm -v \"$PWD\":/src alpine rm -rf /src/drafts\trm -rf ./drafts",
    ),
    (
        Kind::Plain,
        "docker run --rm -v \"$PWD\":/src alpine rm -rf /src/build /src/target\trm -rf ./build ./target",
    ),
    (
        Kind::Plain,
        "docker run --rm -v \"$PWD\":/src -w /src alpine rm -rf drafts\trm -rf drafts",
    ),
    (
        Kind::Plain,
        "docker run --rm -v \"$PWD\":/src -w /src alpine rm -rf target\trm -rf target",
    ),
    (
        Kind::Plain,
        "docker run --rm --mount type=bind,src=\"$PWD\",dst=/w alpine rm -rf /w/src\trm -rf ./src",
    ),
    (
        Kind::Plain,
        "docker run --rm --mount type=bind,source=\"$PWD\"/drafts,target=/d alpine rm -rf /d/deep\trm -rf ./drafts/deep",
    ),
    (
        Kind::Plain,
        "docker run --rm -v \"$PWD/drafts\":/data alpine rm -rf /data/deep\trm -rf ./drafts/deep",
    ),
    (
        Kind::Plain,
        "docker run --rm -v \"$PWD/build\":/out alpine rm -rf /out/out.o\trm -rf ./build/out.o",
    ),
    (
        Kind::Plain,
        "docker run --rm -v \"$PWD\":/src alpine sh -c 'cd /src && rm -rf drafts'\tsh -c 'cd . && rm -rf drafts'",
    ),
    (
        Kind::Plain,
        "docker run --rm -v \"$PWD\":/src alpine rm /src/notes.txt\trm ./notes.txt",
    ),
    (
        Kind::Plain,
        "docker run --rm -v \"$PWD/../sibling\":/s alpine rm -rf /s/t.txt\trm -rf ../sibling/t.txt",
    ),
    (
        Kind::Plain,
        "docker run --rm -v \"$PWD\":/src alpine rm -rf /src\tfind . -mindepth 1 -delete",
    ),
    (
        Kind::Plain,
        "docker run --rm -v \"$PWD\":/src -w /src builder git clean -fd\tgit clean -fd",
    ),
    (
        Kind::Plain,
        "docker run --rm -v \"$PWD\":/src -w /src builder git checkout -- .\tgit checkout -- .",
    ),
    (
        Kind::Plain,
        "docker run --rm -v \"$PWD\":/src -w /src builder git status\tgit status",
    ),
    (
        Kind::Plain,
        "docker run --rm -v \"$(pwd)\":/src alpine rm -rf /src/drafts\trm -rf ./drafts",
    ),
    (
        Kind::Plain,
        "podman run --rm -v \"$PWD\":/src alpine rm -rf /src/drafts\trm -rf ./drafts",
    ),
    (
        Kind::Plain,
        "docker run --rm -v .:/src alpine rm -rf /src/drafts\trm -rf ./drafts",
    ),
    (
        Kind::Plain,
        "docker run --rm -v ./drafts:/d alpine rm -rf /d/deep\trm -rf ./drafts/deep",
    ),
    (
        Kind::Plain,
        "docker run --rm -v \"$PWD\":/src -w /src alpine rm .env\trm .env",
    ),
    (
        Kind::Plain,
        "docker run --rm -v \"$PWD\":/src alpine rm -f /src/build/out.o\trm -f ./build/out.o",
    ),
    (
        Kind::Plain,
        "docker run --rm -v \"$PWD\":/src alpine sh -c 'echo x > /src/notes.txt'\tsh -c 'echo x > ./notes.txt'",
    ),
    (
        Kind::Plain,
        "docker run --rm -v \"$PWD\":/src alpine cp /src/README.md /src/notes.txt\tcp ./README.md ./notes.txt",
    ),
    (
        Kind::Plain,
        "docker run --rm -v \"$PWD\":/src alpine sh -c 'echo x > /src/fresh.txt'\tsh -c 'echo x > ./fresh.txt'",
    ),
    (
        Kind::Needs("make"),
        "docker run --rm -v \"$PWD\":/src -w /src builder make clean\tmake clean",
    ),
    (
        Kind::Needs("make"),
        "docker run --rm -v \"$PWD\":/src -w /src builder make wipe\tmake wipe",
    ),
    // In the container npm sees only the mounted folder: it looks for `package.json` there
    // and above it inside the mount, never in the folders above `$PWD` that it would climb
    // to here.
    (
        Kind::Needs("npm"),
        "docker run --rm -v \"$PWD\":/src -w /src node npm run wipe\t[ -f package.json ] && npm run wipe",
    ),
    (
        Kind::Needs("npm"),
        "docker run --rm -v \"$PWD\":/src -w /src node npm run clean\t[ -f package.json ] && npm run clean",
    ),
    (
        Kind::Needs("npm"),
        "docker run --rm -v \"$PWD\":/src -w /src/src node npm run wipe\t{ [ -f src/package.json ] || [ -f package.json ]; } && cd src && npm run wipe",
    ),
    // ... and on what is not this machine's: nothing here runs.
    (
        Kind::Plain,
        "docker run --rm -v \"$PWD\":/src:ro alpine rm -rf /src/drafts\ttrue",
    ),
    (Kind::Plain, "docker run --rm alpine rm -rf /tmp/x\ttrue"),
    (
        Kind::Plain,
        "docker run --rm -v data:/d alpine rm -rf /d/x\ttrue",
    ),
    (
        Kind::Plain,
        "docker run --rm -v data:/d -v \"$PWD\":/src alpine rm -rf /d/x\ttrue",
    ),
    (
        Kind::Plain,
        "docker run --rm -v \"$PWD\":/src alpine rm -rf /tmp/cache\ttrue",
    ),
];

/// What `{q}` becomes.
pub const QUIET: &[&str] = &["", "", " -q", " --quiet", " -v"];

/// Commands before the destructive one that may change what it meets.
pub const PREFIXES: &[&str] = &[
    "",
    "",
    "",
    "git fetch -q origin && ",
    "git fetch -q origin topic:refs/remotes/origin/topic; ",
    "git stash -q && ",
    "git stash -q -u; ",
    "mkdir old && mv notes.txt old/ && ",
    "mv notes.txt build/ && ",
    "mv drafts target/ && ",
    "cp -r drafts old && ",
    "touch missing && ",
    "echo extra >> README.md && ",
    "echo new > fresh.txt; ",
    "git checkout -q -b newb && ",
    "git add -A && ",
    "git commit -qam wip && ",
    "git update-ref refs/heads/keep HEAD && ",
    "ls > /dev/null && ",
    "git status > /dev/null && ",
    "mkdir -p notes && echo hi > notes/today.md && ",
    "git switch -q -c newb && git commit -qam wip && git switch -q main && ",
    "git branch -q newb feature && ",
];

/// Where the command runs, from the main repository.
pub const CDS: &[&str] = &[
    "",
    "",
    "",
    "cd src && ",
    "cd .. && cd app && ",
    "cd ../app-wt && ",
    "cd ../sibling && ",
    "cd docs; cd .. && ",
];

/// What `git ` may become: another repository, through options or the environment.
pub const GITS: &[&str] = &[
    "git ",
    "git ",
    "git ",
    "git -C ../sibling ",
    "git -C ../app-wt ",
    "GIT_DIR=../sibling/.git GIT_WORK_TREE=../sibling git ",
    "env GIT_DIR=../sibling/.git GIT_WORK_TREE=../sibling git ",
    "git --git-dir=../sibling/.git --work-tree=../sibling ",
    "GIT_WORK_TREE=../app-wt git ",
    "git -c core.quotepath=off ",
];

/// Put in front of the destructive command alone.
pub const WORD_WRAPPERS: &[&str] = &["", "", "", "command ", "nice ", "timeout 30 ", "env "];

/// Around the whole line: `%` is the line.
pub const LINE_WRAPPERS: &[&str] = &[
    "%",
    "%",
    "%",
    "%",
    "bash -c '%'",
    "sh -c '%'",
    "for i in 1; do %; done",
    "(%)",
    "{ %; }",
];

/// A small fixed-seed generator (xorshift), so a corpus is the same on every run.
pub struct Seeded(u64);

impl Seeded {
    pub fn new(seed: u64) -> Seeded {
        Seeded(seed.max(1))
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[(self.next() % from.len() as u64) as usize]
    }
}

/// One line: `form` decorated by choices from `rng` (both sides of a tab alike).
pub fn decorate(form: (Kind, &str), rng: &mut Seeded) -> String {
    let (kind, text) = form;
    let quiet = rng.pick(QUIET);
    let git = (kind == Kind::Git).then(|| rng.pick(GITS));
    let (cd, prefix, word) = (rng.pick(CDS), rng.pick(PREFIXES), rng.pick(WORD_WRAPPERS));
    // In front of an assignment a wrapper makes it a command of its own (`env work=$(mktemp
    // -d)` sets nothing in the shell), and the `"$work/c"` that follows would name `/c`,
    // outside the world.
    let word = if starts_with_assignment(text) {
        ""
    } else {
        word
    };
    let wrapper = rng.pick(LINE_WRAPPERS);
    let sides: Vec<String> = text
        .split('\t')
        .map(|side| {
            let mut core = side.replace("{q}", quiet);
            if let Some(git) = git {
                core = format!("{git}{}", &core["git ".len()..]);
            }
            format!("{cd}{prefix}{word}{core}")
        })
        .collect();
    if wrapper.contains('\'') && sides.iter().any(|side| side.contains('\'')) {
        return sides.join("\t");
    }
    let wrapped: Vec<String> = sides
        .iter()
        .map(|side| wrapper.replace('%', side))
        .collect();
    wrapped.join("\t")
}

/// Whether `text` starts with `NAME=`.
fn starts_with_assignment(text: &str) -> bool {
    text.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && !name.starts_with(|c: char| c.is_ascii_digit())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// Whether `program` is an executable file in a folder of `PATH`.
pub fn on_path(program: &str) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path).any(|dir| {
        std::fs::metadata(dir.join(program))
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    })
}

/// The forms whose programs this machine has. The programs are optional: a missing one is
/// named once as skipped, except in CI, whose script installs them all and where every form
/// must run.
pub fn runnable() -> Vec<(Kind, &'static str)> {
    let mut missing: Vec<&str> = FORMS
        .iter()
        .filter_map(|(kind, _)| match kind {
            Kind::Needs(program) if !on_path(program) => Some(*program),
            _ => None,
        })
        .collect();
    missing.sort_unstable();
    missing.dedup();
    if !missing.is_empty() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must install {missing:?} (.ci/run installs them)"
        );
        static SAID: std::sync::Once = std::sync::Once::new();
        // Straight to stderr: the test harness would swallow `eprintln!` of a passing test.
        SAID.call_once(|| {
            let _ = std::io::Write::write_fmt(
                &mut std::io::stderr(),
                format_args!(
                    "skipped: the oracle's forms that need {missing:?}, not installed here\n"
                ),
            );
        });
    }
    FORMS
        .iter()
        .copied()
        .filter(|(kind, _)| match kind {
            Kind::Needs(program) => on_path(program),
            _ => true,
        })
        .collect()
}

/// Every runnable form once as written, then `extra` decorated lines.
pub fn generate(seed: u64, extra: usize) -> Vec<String> {
    let mut rng = Seeded::new(seed);
    let forms = runnable();
    let mut lines: Vec<String> = forms
        .iter()
        .map(|(_, text)| text.replace("{q}", ""))
        .collect();
    for _ in 0..extra {
        let form = forms[(rng.next() % forms.len() as u64) as usize];
        lines.push(decorate(form, &mut rng));
    }
    lines
}
