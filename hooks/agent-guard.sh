#!/bin/sh
# The Claude Code plugin's hook: find the agent-guard binary and hand it the payload.
#
# The plugin ships no binary of its own (it would be one per platform, and the plugin is a git
# checkout), so it runs the one the installers put in place. Where it looks, in order:
# $AGENT_GUARD_BIN, PATH, then the folders the installers write to, since Claude Code may be
# started with a PATH that lacks them. With no binary found, the hook says so on stderr and
# exits 1: Claude Code shows that to the user and runs the tool call unguarded, as it would
# with no hook at all.

find_guard() {
    if [ -n "${AGENT_GUARD_BIN:-}" ]; then
        printf '%s\n' "$AGENT_GUARD_BIN"
        return 0
    fi
    if command -v agent-guard >/dev/null 2>&1; then
        command -v agent-guard
        return 0
    fi
    for candidate in \
        "${CARGO_HOME:-$HOME/.cargo}/bin/agent-guard" \
        "$HOME/.local/bin/agent-guard" \
        /opt/homebrew/bin/agent-guard \
        /usr/local/bin/agent-guard \
        /home/linuxbrew/.linuxbrew/bin/agent-guard; do
        if [ -x "$candidate" ]; then
            printf '%s\n' "$candidate"
            return 0
        fi
    done
    return 1
}

if guard=$(find_guard); then
    exec "$guard" hook "$@"
fi
echo "agent-guard plugin: the agent-guard binary was not found (PATH, ~/.cargo/bin, ~/.local/bin, Homebrew); commands run unguarded until it is installed: see https://github.com/agent-guard/agent-guard#quick-start" >&2
exit 1
