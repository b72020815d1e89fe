// agent-guard for OpenClaw: a plugin that puts each `exec` tool call to `agent-guard hook` in
// Claude Code's hook dialect before it runs, and blocks it with the reason when the guard stops
// it. OpenClaw has no hook that runs a program; a plugin's `before_tool_call` handler can block
// (`{block: true, blockReason}`) or ask for the user's approval (`requireApproval`), which is
// what an ask becomes. After each call (`after_tool_call`) it reports the command, so that
// what the agent made is known to be the agent's (the journal).
//
// Install: `openclaw plugins install ./integrations/openclaw` and
// `openclaw plugins enable agent-guard`, with `agent-guard` on the PATH.
// OpenClaw's plugin hooks as of openclaw 2026.9.6 (docs/plugins/hooks/tool-policy.md).
import { spawnSync } from "node:child_process"
import { resolve } from "node:path"

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

/** The folder an `exec` call runs in: its `workdir`, from the agent's workspace. */
function folder(api: any, ctx: any, params: any): string {
  let base = process.cwd()
  try {
    const dir = api.runtime?.agent?.resolveAgentWorkspaceDir?.(api.config, ctx?.agentId)
    if (typeof dir === "string" && dir !== "") base = dir
  } catch {}
  return typeof params?.workdir === "string" && params.workdir !== ""
    ? resolve(base, params.workdir)
    : base
}

export default {
  id: "agent-guard",
  name: "agent-guard",
  description: "Stops shell commands that destroy work before OpenClaw runs them.",
  register(api: any) {
    api.on(
      "before_tool_call",
      (event: any, ctx: any) => {
        const command = event?.params?.command
        // Code Mode's own `exec` (JavaScript) is not a shell command.
        if (event?.toolKind !== undefined || typeof command !== "string") return
        const session = ctx?.sessionId ?? ctx?.sessionKey
        const answer = send("PreToolUse", command, folder(api, ctx, event.params), session)
        const reason = String(answer?.permissionDecisionReason ?? "")
        if (answer?.permissionDecision === "deny") return { block: true, blockReason: reason }
        if (answer?.permissionDecision === "ask") {
          return {
            requireApproval: {
              title: "agent-guard",
              description: reason,
              severity: "warning",
              allowedDecisions: ["allow-once", "deny"],
            },
          }
        }
      },
      { matcher: ["exec"], priority: 50 },
    )
    api.on(
      "after_tool_call",
      (event: any, ctx: any) => {
        const command = event?.params?.command
        if (typeof command !== "string" || event?.error) return
        const session = ctx?.sessionId ?? ctx?.sessionKey
        send("PostToolUse", command, folder(api, ctx, event.params), session)
      },
      { matcher: ["exec"] },
    )
  },
}
