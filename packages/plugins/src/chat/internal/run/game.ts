/**
 * What happened in the game: the chat as RCON forwarded it, and the kill
 * feed and leaderboard as the agent's mod reports them (`world-events`,
 * `leaderboard`). Without an agent the kill feed and leaderboard are 409
 * `agent-not-configured` (503 `provider-unavailable` when the agent is set
 * up but cannot be reached), naming why, as every agent action answers.
 */
import { actionsByName } from "@garrison/agent/client"
import * as Effect from "effect/Effect"
import { optionalNumber } from "../params.js"
import { asRefusal } from "../refusals.js"
import type { ActionCall, ChatServices, ServerRunner } from "./context.js"
import type { ServerHandle } from "../../../servers/index.js"

/** The top of the leaderboard the bot shows. */
export const LEADERBOARD_SIZE = 20
const askAgent = (call: ActionCall, server: ServerHandle, services: ChatServices, action: string, input: Record<string, unknown>) =>
  Effect.map(
    asRefusal(services.actions.run({ server, action: actionsByName.get(action)!, input, caller: call.caller, clientIp: call.clientIp })),
    ({ data }) => (typeof data === "object" && data !== null ? (data as Readonly<Record<string, unknown>>) : {})
  )

const str = (value: unknown) => (typeof value === "string" ? value : value === undefined || value === null ? null : String(value))

export const chatFeed: ServerRunner = (call, server, services) =>
  Effect.gen(function* () {
    const limit = yield* optionalNumber(call.params, "limit", { min: 1, max: 50, integer: true, fallback: 10 })
    const lines = services.chatFeed.recent(server.id, limit)
    return {
      message: lines.length === 0 ? "No chat since the controller started." : lines.map((l) => `[${l.channel}] ${l.playerName}: ${l.text}`).join("\n"),
      chat: lines
    }
  })

export const killfeed: ServerRunner = (call, server, services) =>
  Effect.gen(function* () {
    const limit = yield* optionalNumber(call.params, "limit", { min: 1, max: 50, integer: true, fallback: 10 })
    // The mod answers its recent events (the agent's contract takes no input here); the kills are picked from them.
    const answer = yield* askAgent(call, server, services, "world-events", {})
    const events = Array.isArray(answer["events"]) ? (answer["events"] as ReadonlyArray<Readonly<Record<string, unknown>>>) : []
    const kills = events
      .filter((event) => event["type"] === "player.killed" && typeof event["data"] === "object" && event["data"] !== null)
      .slice(-limit)
      .map((event) => {
        const data = event["data"] as Readonly<Record<string, unknown>>
        return {
          at: typeof event["timestamp"] === "number" ? new Date(event["timestamp"]).toISOString() : null,
          victim: str(data["name"]),
          victimId: str(data["platformId"]),
          killer: str(data["killerName"] ?? data["killer"]),
          weapon: str(data["weapon"]),
          distance: typeof data["distance"] === "number" ? data["distance"] : null
        }
      })
    return {
      message:
        kills.length === 0
          ? "No kills yet."
          : kills.map((k) => `${k.killer ?? "?"} killed ${k.victim ?? "?"}${k.weapon === null ? "" : ` with ${k.weapon}`}${k.distance === null ? "" : ` (${k.distance} m)`}`).join("\n"),
      kills
    }
  })

export const leaderboard: ServerRunner = (call, server, services) =>
  Effect.gen(function* () {
    const answer = yield* askAgent(call, server, services, "leaderboard", { limit: LEADERBOARD_SIZE })
    const rows = Array.isArray(answer["entries"]) ? (answer["entries"] as ReadonlyArray<Readonly<Record<string, unknown>>>) : []
    const entries = rows.slice(0, LEADERBOARD_SIZE).map((row) => ({
      name: str(row["name"]) ?? "?",
      kills: Number(row["kills"] ?? 0),
      deaths: Number(row["deaths"] ?? 0)
    }))
    return {
      message: entries.length === 0 ? "Nobody on the board yet." : entries.map((e, i) => `${i + 1}. ${e.name}: ${e.kills} kills, ${e.deaths} deaths`).join("\n"),
      entries
    }
  })
