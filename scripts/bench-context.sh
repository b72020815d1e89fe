#!/usr/bin/env bash
# Whole-process latency of a hook call whose finding needs repository context, in a
# repository of 10,000 files: `git reset --hard` on a clean tree (cleared by one
# `git status`) and `rm -rf` of a folder holding untracked files (stopped, loss named).
# Budget: p50 under 10 ms.
#
# Usage: scripts/bench-context.sh [RUNS]   (any cwd; default RUNS=100; needs cargo, git, python3)
set -euo pipefail

RUNS="${1:-100}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
for tool in cargo git python3; do
    command -v "$tool" >/dev/null || { echo "bench-context: $tool not found on PATH" >&2; exit 1; }
done

cargo build --release --quiet --manifest-path "$ROOT/Cargo.toml" --bin agent-guard
BIN="$(cargo metadata --format-version 1 --no-deps --manifest-path "$ROOT/Cargo.toml" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/release/agent-guard"

# Outside /tmp: deletes inside a temporary folder are cleared without asking git.
WORK="$(mktemp -d "$ROOT/target/bench-context.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
REPO="$WORK/repo"
mkdir -p "$REPO"
git -C "$REPO" init -q
python3 - "$REPO" <<'PY'
import os, sys
root = sys.argv[1]
for i in range(10_000):
    folder = os.path.join(root, f"src/d{i % 100:02}")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, f"f{i}.txt"), "w") as f:
        f.write(f"{i}\n")
PY
git -C "$REPO" add -A
git -C "$REPO" -c user.name=bench -c user.email=bench@example.com commit -qm files
mkdir -p "$REPO/scratch" && echo draft > "$REPO/scratch/notes.txt"
# A working repository has a refreshed index; a fresh one would be re-hashed every call.
sleep 1 && git -C "$REPO" update-index -q --refresh && git -C "$REPO" status >/dev/null

# Stops are audited: keep the records in the scratch folder, not the user's state folder.
export XDG_STATE_HOME="$WORK/state"
python3 - "$BIN" "$REPO" "$RUNS" <<'PY'
import json, statistics, subprocess, sys, time
binary, repo, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
cases = [("reset --hard, clean tree (cleared)", "git reset --hard", False),
         ("rm -rf of untracked files (stopped)", "rm -rf scratch", True)]
print(f"{'case':<40} {'p50 ms':>8} {'p90 ms':>8} {'min ms':>8} {'missed':>7}")
for name, command, stops in cases:
    payload = json.dumps({"tool_name": "Bash", "tool_input": {"command": command}, "cwd": repo}).encode()
    times = []
    # A cleared command stopped anyway means context missed its deadline (the strict verdict
    # stands): counted, since on a loaded machine it happens, but never a wrong verdict.
    missed = 0
    for i in range(runs + 5):
        start = time.perf_counter()
        out = subprocess.run([binary, "hook"], input=payload, capture_output=True, check=True).stdout
        elapsed = (time.perf_counter() - start) * 1000
        if bool(out.strip()) != stops:
            if stops:
                sys.exit(f"bench-context: unexpected verdict for {command!r}: {out!r}")
            missed += 1
        if i >= 5:
            times.append(elapsed)
    times.sort()
    print(f"{name:<40} {statistics.median(times):8.2f} {times[int(len(times) * 0.9)]:8.2f} {times[0]:8.2f} {missed:>7}")
print("budget: p50 under 10 ms")
PY
