// agent-guard for Amp: a plugin that puts each shell tool call to `agent-guard hook` in Claude
// Code's hook dialect before it runs, and rejects the call (Amp goes on with the reason as the
// tool's result) when the guard stops it. Amp has no hook that runs a program; a plugin cannot
// ask the user from here, so an ask comes back to the agent as a rejection that tells it to ask.
//
// Install: copy this file into `~/.config/amp/plugins/`, with `agent-guard` on the PATH, then
// restart Amp or run "plugins: reload". Amp's plugin API as of its `tool.call` event: the
// handler returns `{action: "allow"}` or `{action: "reject-and-continue", message}`, and
// `ctx.helpers.shellCommandFromToolCall(event)` gives the shell line of a call (with the folder
// it runs in) or nothing for other tools.
import { spawnSync } from "node:child_process"
import { resolve } from "node:path"
import { fileURLToPath } from "node:url"

const ALLOW = { action: "allow" }

/** The guard's answer to `command` run in `cwd`: its `hookSpecificOutput`, or nothing. */
function judge(command: string, cwd: string, session: string | undefined) {
  const payload = {
    session_id: session,
    cwd,
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command },
  }
  const run = spawnSync("agent-guard", ["hook", "--host", "claude"], {
    input: JSON.stringify(payload),
    encoding: "utf8",
    timeout: 30_000,
  })
  // A missing binary, a crash or silence lets the command run, as the hook does everywhere.
  try {
    return JSON.parse(run.stdout).hookSpecificOutput
  } catch {
    return undefined
  }
}

function workspace(ctx: any): string {
  const root = ctx?.system?.workspaceRoot
  if (typeof root !== "string" || root === "") return process.cwd()
  try {
    return ctx.helpers?.filePathFromURI?.(root) ?? fileURLToPath(root)
  } catch {
    return process.cwd()
  }
}

export default function (amp: any) {
  amp.on("tool.call", (event: any, ctx: any) => {
    let shell
    try {
      shell = ctx.helpers.shellCommandFromToolCall(event)
    } catch {
      return ALLOW
    }
    if (!shell || typeof shell.command !== "string") return ALLOW
    const base = workspace(ctx)
    const cwd = typeof shell.dir === "string" ? resolve(base, shell.dir) : base
    const answer = judge(shell.command, cwd, event?.thread?.id)
    const reason = String(answer?.permissionDecisionReason ?? "")
    if (answer?.permissionDecision === "deny") {
      return { action: "reject-and-continue", message: reason }
    }
    if (answer?.permissionDecision === "ask") {
      return {
        action: "reject-and-continue",
        message:
          "agent-guard: this command needs the user's confirmation, and Amp cannot ask for it " +
          "from a plugin. Ask your user for confirmation first: tell them what it would do " +
          "(below), and run it only if they say yes, with `AGENT_GUARD_OFF=1` in front of it.\n" +
          reason,
      }
    }
    return ALLOW
  })
}
