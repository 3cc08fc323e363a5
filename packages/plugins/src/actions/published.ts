/** The actions plugin's bus events as the outside sees them (webhooks, the cloud link). */
import { oneLine, published } from "@garrison/runtime"
import { AdminAction } from "./events.js"

export const ACTION_EVENTS = [
  published(AdminAction, {
    name: "admin.action",
    description:
      "An admin ran an in-game action on a server (heal, teleport, weather, ...) through the agent or RCON, whatever its outcome; `ok` is false and `error` says why when it failed.",
    example: new AdminAction({
      serverId: "a1b2c3",
      action: "player.heal",
      actor: "alice",
      target: "76561198000000001",
      provider: "agent",
      ok: true,
      at: "2026-03-14T20:15:00.000Z"
    }),
    severity: (e) => (e.ok ? "info" : "error"),
    severities: ["info", "error"],
    summary: (e) =>
      `${e.actor} ran ${e.action}${e.target === null ? "" : ` on ${e.target}`} on server ${e.serverId} via ${e.provider}` +
      (e.ok ? "" : ` and it failed: ${oneLine(e.error ?? "unknown error", 300)}`)
  })
]
