#!/usr/bin/env bash
# Whole-process latency of `agent-guard hook`, side by side with the cheapest possible hook.
#
# Measures, with release binaries built by this script:
#   empty     examples/empty_stdin: reads stdin to the end, exits (the floor)
#   allow     agent-guard hook, payload `git status` (no finding, prints nothing)
#   deny      agent-guard hook, payload `git reset --hard HEAD~1` (prints a deny object)
# then prints mean/median/min per case and the ratio to `empty` (budget: allow <= 1.5x),
# the peak RSS of one hook run (budget: < 10 MiB) and the binary sizes.
#
# Usage: scripts/bench-latency.sh [RUNS]        (any cwd; default RUNS=300)
# Timing uses hyperfine (-N, --input) when it is new enough (>= 1.16 has --input; set
# HYPERFINE=/path/to/hyperfine to pick one), else a Python loop that alternates the cases.
# Needs cargo and python3; peak RSS needs GNU time at /usr/bin/time.
set -euo pipefail

RUNS="${1:-300}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
HYPERFINE="${HYPERFINE:-hyperfine}"

die() { echo "bench-latency: $*" >&2; exit 1; }
command -v cargo >/dev/null || die "cargo not found on PATH (install Rust: https://rustup.rs)"
command -v python3 >/dev/null || die "python3 not found on PATH (needed for the summary)"

echo "Building release binaries..." >&2
# The JSON messages name the built executables, wherever the target dir is.
mapfile -t exes < <(cargo build --release --manifest-path "$ROOT/Cargo.toml" \
    --bin agent-guard --example empty_stdin --message-format=json-render-diagnostics |
    python3 -c '
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("reason") == "compiler-artifact" and msg.get("executable"):
        print(msg["target"]["name"] + "=" + msg["executable"])')
GUARD="" EMPTY=""
for e in "${exes[@]}"; do
    case "$e" in
        agent-guard=*) GUARD="${e#*=}" ;;
        empty_stdin=*) EMPTY="${e#*=}" ;;
    esac
done
[[ -x "$GUARD" && -x "$EMPTY" ]] || die "the release build failed (see above)"

TMP="$(mktemp -d "${TMPDIR:-/tmp}/bench-latency.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT

# Time copies, as `cargo install` makes them: a file the linker has just written can start
# measurably slower than the same bytes copied (how its pages sit in the page cache), and
# that would favour whichever of the two was linked earlier.
mkdir "$TMP/bin"
cp "$GUARD" "$TMP/bin/agent-guard"
cp "$EMPTY" "$TMP/bin/empty_stdin"
GUARD="$TMP/bin/agent-guard" EMPTY="$TMP/bin/empty_stdin"

# The hook's defaults, whatever the caller's environment says.
unset AGENT_GUARD_OFF AGENT_GUARD_PROFILE AGENT_GUARD_ON_DESTRUCTIVE AGENT_GUARD_CONTEXT \
    AGENT_GUARD_MODE AGENT_GUARD_CONFIG AGENT_GUARD_REGENERABLE
# Each deny is audited: keep those records out of the caller's own log.
export XDG_STATE_HOME="$TMP/state"

payload() { # command → hook payload; cwd is this repository, as for an agent working in it
    python3 -c 'import json, sys; print(json.dumps({"session_id": "bench",
        "hook_event_name": "PreToolUse", "cwd": sys.argv[2], "tool_name": "Bash",
        "tool_input": {"command": sys.argv[1]}}))' "$1" "$ROOT"
}
payload 'git status' >"$TMP/allow.json"
payload 'git reset --hard HEAD~1' >"$TMP/deny.json"

# Check that each payload does what its name says before timing it.
[[ -z "$("$GUARD" hook <"$TMP/allow.json")" ]] || die "the allow payload was not allowed"
[[ "$("$GUARD" hook <"$TMP/deny.json")" == *'"deny"'* ]] || die "the deny payload was not denied"

hf_help="$("$HYPERFINE" --help 2>/dev/null || true)"
if [[ "$hf_help" == *--input* ]]; then
    echo "Timing with $("$HYPERFINE" --version), $RUNS runs each..." >&2
    unit=()
    [[ "$hf_help" == *microsecond* ]] && unit=(--time-unit microsecond)
    # --input is global, so one hyperfine run per payload, each with `empty` as reference.
    for p in allow deny; do
        "$HYPERFINE" -N --style basic "${unit[@]}" --warmup 30 --runs "$RUNS" --input "$TMP/$p.json" \
            -n empty "'$EMPTY'" -n "$p" "'$GUARD' hook" \
            --export-json "$TMP/$p.hf.json" --export-markdown "$TMP/$p.md" >&2
    done
    echo; echo "hyperfine (markdown):"; cat "$TMP/allow.md" "$TMP/deny.md"
    timings=("$TMP/allow.hf.json" "$TMP/deny.hf.json")
else
    echo "No hyperfine with --input; timing with Python, $RUNS alternating runs each..." >&2
    python3 - "$RUNS" "$EMPTY" "$GUARD" "$TMP" >"$TMP/py.json" <<'EOF'
import json, subprocess, sys, time
runs, empty, guard, tmp = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
cases = [("empty", [empty], "allow"), ("allow", [guard, "hook"], "allow"),
         ("deny", [guard, "hook"], "deny")]
times = {name: [] for name, _, _ in cases}
for i in range(runs + 30):  # the first 30 rounds are warmup
    for name, argv, payload in cases:
        with open(f"{tmp}/{payload}.json", "rb") as f:
            t = time.perf_counter()
            subprocess.run(argv, stdin=f, stdout=subprocess.DEVNULL, check=True)
            t = time.perf_counter() - t
        if i >= 30:
            times[name].append(t)
print(json.dumps({"results": [{"command": n, "times": t} for n, t in times.items()]}))
EOF
    timings=("$TMP/py.json")
fi

echo
python3 - "${timings[@]}" <<'EOF'
import json, statistics, sys
rows = {}
for path in sys.argv[1:]:
    for r in json.load(open(path))["results"]:
        rows.setdefault(r["command"], []).extend(r["times"])
base = statistics.median(rows["empty"])
print(f"| case  | runs | mean ms | median ms | min ms | median / empty |")
print(f"|-------|-----:|--------:|----------:|-------:|---------------:|")
for name in ("empty", "allow", "deny"):
    t = rows[name]
    med = statistics.median(t)
    print(f"| {name:<5} | {len(t):>4} | {statistics.mean(t)*1e3:7.3f} | {med*1e3:9.3f} "
          f"| {min(t)*1e3:6.3f} | {med/base:13.2f}x |")
ratio = statistics.median(rows["allow"]) / base
print(f"\nallow / empty (median): {ratio:.2f}x  (budget 1.50x: {'OK' if ratio <= 1.5 else 'OVER'})")
EOF

echo
echo "Peak RSS of one run (budget: hook < 10 MiB):"
if [[ -x /usr/bin/time ]]; then
    rss() { # name payload command...
        local name="$1" p="$2"
        shift 2
        /usr/bin/time -f %M -o "$TMP/rss" "$@" <"$TMP/$p.json" >/dev/null
        local kib
        kib="$(tail -n1 "$TMP/rss")"
        echo "  $name $kib KiB ($(awk -v k="$kib" 'BEGIN { printf "%.2f", k / 1024 }') MiB)"
    }
    rss empty allow "$EMPTY"
    rss allow allow "$GUARD" hook
    rss deny deny "$GUARD" hook
else
    # Not getrusage(RUSAGE_CHILDREN) from Python: a child's peak includes the pages it
    # shared with its parent before exec, so it reports Python's ~14 MiB, not the hook's.
    echo "  skipped: needs GNU time at /usr/bin/time (apt-get install -y time)"
fi

echo
echo "Binary sizes (release):"
printf '  agent-guard  %9s bytes\n' "$(stat -c %s "$GUARD")"
printf '  empty_stdin  %9s bytes\n' "$(stat -c %s "$EMPTY")"
