#!/usr/bin/env bash
# Fills target/tool-scripts/ with the real scripts tests/tool-scripts/sources.jsonl names:
# each is taken from its package as a registry serves it (crates.io, PyPI, the npm registry,
# Debian's archive), and kept only when its sha256 is the one the table states. Nothing
# fetched here is part of the repository. Run from anywhere; needs curl, python3, unzip,
# tar, npm, and for Debian packages apt-get and dpkg-deb.
set -euo pipefail
cd "$(dirname "$0")/../.."

cache=target/tool-scripts
mkdir -p "$cache"
work=$(mktemp -d)
trap 'rm -rf -- "$work"' EXIT

python3 - tests/tool-scripts/sources.jsonl <<'PY' >"$work/rows"
import json, sys
for line in open(sys.argv[1]):
    if line.strip():
        r = json.loads(line)
        print("\t".join([r["id"], r["registry"], r["package"], r["version"], r["path"], r["sha256"]]))
PY

while IFS=$'\t' read -r id registry package version path sha256; do
    out="$cache/$id"
    if [[ -f $out ]] && echo "$sha256  $out" | sha256sum --check --status; then
        continue
    fi
    archive="$work/$id.archive"
    unpacked="$work/$id"
    mkdir -p "$unpacked"
    case $registry in
        crates)
            curl -fsSL -o "$archive" "https://static.crates.io/crates/$package/$package-$version.crate"
            tar -xzf "$archive" -C "$unpacked" "$path"
            ;;
        npm)
            (cd "$work" && npm pack --silent "$package@$version" >"$id.name")
            tar -xzf "$work/$(cat "$work/$id.name")" -C "$unpacked" "$path"
            ;;
        pypi)
            # The release's pure-Python wheel, found in PyPI's simple index (no pip needed).
            url=$(curl -fsSL "https://pypi.org/simple/$package/" | python3 -c '
import re, sys
version = sys.argv[1]
for href in re.findall(r"href=\"([^\"#]+)", sys.stdin.read()):
    if href.endswith("-" + version + "-py3-none-any.whl"):
        print(href)
        break' "$version")
            curl -fsSL -o "$archive" "$url"
            unzip -q -o "$archive" "$path" -d "$unpacked"
            ;;
        debian)
            mkdir -p "$work/$id.deb"
            (cd "$work/$id.deb" && apt-get download -qq "$package=$version")
            dpkg-deb -x "$work/$id.deb/"*.deb "$unpacked"
            ;;
        *)
            echo "$id: unknown registry $registry" >&2
            exit 1
            ;;
    esac
    if ! echo "$sha256  $unpacked/$path" | sha256sum --check --status; then
        echo "$id: $path in $package $version does not have the stated sha256" >&2
        exit 1
    fi
    cp "$unpacked/$path" "$out"
    echo "fetched $id ($package $version)"
done <"$work/rows"
