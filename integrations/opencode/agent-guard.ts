// agent-guard for opencode: a plugin that puts each `bash` tool call to `agent-guard hook`
// in Claude Code's hook dialect, and throws (which stops the call) when the guard stops it.
// opencode has no hook protocol of its own, and a plugin cannot ask the user from here: an ask
// comes back to the agent as an error that tells it to ask.
//
// Install: copy this file into `.opencode/plugin/` (one project) or
// `~/.config/opencode/plugin/` (every project), with `agent-guard` on the PATH.
import type { Plugin } from "@opencode-ai/plugin"
import { spawnSync } from "node:child_process"
import { resolve } from "node:path"

export const AgentGuard: Plugin = async ({ directory }) => ({
  "tool.execute.before": async (input, output) => {
    const { command, workdir } = output.args ?? {}
    if (input.tool !== "bash" || typeof command !== "string") return
    const payload = {
      session_id: input.sessionID,
      cwd: resolve(directory, typeof workdir === "string" ? workdir : "."),
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command },
      tool_use_id: input.callID,
    }
    const run = spawnSync("agent-guard", ["hook", "--host", "claude"], {
      input: JSON.stringify(payload),
      encoding: "utf8",
      timeout: 30_000,
    })
    // A missing binary, a crash or silence lets the command run, as the hook does everywhere.
    let answer
    try {
      answer = JSON.parse(run.stdout).hookSpecificOutput
    } catch {
      return
    }
    const reason = String(answer?.permissionDecisionReason ?? "")
    if (answer?.permissionDecision === "deny") throw new Error(reason)
    if (answer?.permissionDecision === "ask") {
      throw new Error(
        "agent-guard: this command needs the user's confirmation, and opencode cannot ask for " +
          "it from a plugin. Ask your user for confirmation first: tell them what it would do " +
          "(below), and run it only if they say yes, with `AGENT_GUARD_OFF=1` in front of it.\n" +
          reason,
      )
    }
  },
})
