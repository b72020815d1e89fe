// agent-guard for Pi (pi-coding-agent): an extension that puts each `bash` tool call to
// `agent-guard hook` in Claude Code's hook dialect before it runs, and blocks it with the reason
// when the guard stops it. Pi has no hook that runs a program; an extension's `tool_call`
// handler can block (`{block: true, reason}`), and where Pi has a UI it can ask the user, so an
// ask is put to the user with the reason. After each call it reports the command (`tool_result`)
// so that what the agent made is known to be the agent's (the journal).
//
// Install: copy this file into `.pi/extensions/` (one project) or `~/.pi/agent/extensions/`
// (every project), with `agent-guard` on the PATH; `/reload` picks it up.
// Pi's extension API as of @mariozechner/pi-coding-agent 0.73.1.
import { spawnSync } from "node:child_process"

type Answer = { permissionDecision?: string; permissionDecisionReason?: string } | undefined

/** Sends `event` for `command` in `cwd` to the guard; its `hookSpecificOutput`, or nothing. */
function send(event: string, command: string, cwd: string, session: string | undefined): Answer {
  const payload = {
    session_id: session,
    cwd,
    hook_event_name: event,
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

function session(ctx: any): string | undefined {
  try {
    return ctx.sessionManager?.getSessionId?.()
  } catch {
    return undefined
  }
}

export default function (pi: any) {
  pi.on("tool_call", async (event: any, ctx: any) => {
    const command = event?.input?.command
    if (event?.toolName !== "bash" || typeof command !== "string") return
    const answer = send("PreToolUse", command, ctx.cwd, session(ctx))
    const reason = String(answer?.permissionDecisionReason ?? "")
    if (answer?.permissionDecision === "deny") return { block: true, reason }
    if (answer?.permissionDecision === "ask") {
      if (ctx.hasUI && (await ctx.ui.confirm("agent-guard", `${reason}\n\nRun it anyway?`))) return
      return {
        block: true,
        reason:
          "agent-guard: this command needs the user's confirmation, and none was given. Ask " +
          "your user: tell them what it would do (below), and run it only if they say yes, " +
          "with `AGENT_GUARD_OFF=1` in front of it.\n" +
          reason,
      }
    }
  })
  pi.on("tool_result", (event: any, ctx: any) => {
    const command = event?.input?.command
    if (event?.toolName === "bash" && typeof command === "string") {
      send("PostToolUse", command, ctx.cwd, session(ctx))
    }
  })
}
