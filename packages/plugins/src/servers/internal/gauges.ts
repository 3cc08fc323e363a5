/**
 * The servers' gauges for `Telemetry` (read at scrape time): how many
 * servers are in each status (every status listed, zeros too, so a series
 * never vanishes), and the players online per running server and in all.
 * A stored entry without an actor yet is stopped (actors of stopped
 * servers are made on first use).
 */
import { type ServerStatus, Telemetry } from "@garrison/runtime"
import * as Effect from "effect/Effect"
import type { ServersShape } from "../Servers.js"

const STATUSES: ReadonlyArray<ServerStatus> = ["stopped", "starting", "running", "stopping", "crashed", "updating"]

/** Live states by server id: the servers that have an actor now. */
const liveStates = (servers: ServersShape) =>
  Effect.flatMap(servers.supervised, (handles) =>
    Effect.map(Effect.forEach(handles, (handle) => handle.state), (states) => new Map(handles.map((handle, i) => [handle.id, states[i]!])))
  )

export const registerServerGauges = (servers: ServersShape) =>
  Effect.gen(function* () {
    const telemetry = yield* Telemetry
    yield* telemetry.registerGauge({
      name: "servers",
      help: "Server entries by status (stopped, starting, running, stopping, crashed, updating).",
      labelNames: ["status"],
      collect: Effect.gen(function* () {
        const entries = yield* servers.entries
        const states = yield* liveStates(servers)
        const counts = new Map<string, number>(STATUSES.map((status) => [status, 0]))
        for (const entry of entries) {
          const status = states.get(entry.id)?.status ?? "stopped"
          counts.set(status, (counts.get(status) ?? 0) + 1)
        }
        return [...counts].map(([status, value]) => ({ labels: { status }, value }))
      })
    })
    yield* telemetry.registerGauge({
      name: "players_online",
      help: "Players on each running server, by server id.",
      labelNames: ["server"],
      collect: Effect.map(liveStates(servers), (states) =>
        [...states].filter(([, state]) => state.status === "running").map(([server, state]) => ({ labels: { server }, value: state.players.length }))
      )
    })
    yield* telemetry.registerGauge({
      name: "fleet_players_online",
      help: "Players on all running servers together.",
      labelNames: [],
      collect: Effect.map(liveStates(servers), (states) => {
        let players = 0
        for (const state of states.values()) if (state.status === "running") players += state.players.length
        return [{ labels: {}, value: players }]
      })
    })
  })
