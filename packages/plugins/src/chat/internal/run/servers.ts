/** Actions on the server itself: status, the fleet, start/stop/restart, lock, RCON, broadcasts, time and weather. */
import { actionsByName } from "@garrison/agent/client"
import * as Effect from "effect/Effect"
import { canSeeServer, principalCan, type ServerEntry, type ServerState } from "@garrison/runtime"
import type { ServerHandle } from "../../../servers/index.js"
import { text } from "../params.js"
import { asRefusal } from "../refusals.js"
import type { ChatServices, FleetRunner, ServerRunner } from "./context.js"

/** `maxPlayers` from the server's `serverDZ.cfg`; null when it cannot be read. */
const maxPlayersOf = (services: ChatServices, serverId: string) =>
  services.configs.read(serverId).pipe(
    Effect.map((config) => {
      const value = (config.fields as Readonly<Record<string, unknown>>)["maxPlayers"]
      return typeof value === "number" ? value : null
    }),
    Effect.orElseSucceed(() => null)
  )

const summaryOf = (entry: ServerEntry, state: ServerState, maxPlayers: number | null) => ({
  id: entry.id,
  name: entry.name,
  status: state.status,
  playerCount: state.players.length,
  maxPlayers,
  map: state.map ?? null
})

const sentence = (s: ReturnType<typeof summaryOf>) =>
  `${s.name}: ${s.status}, ${s.playerCount}${s.maxPlayers === null ? "" : `/${s.maxPlayers}`} players${s.map === null ? "" : ` on ${s.map}`}`

const summarize = (server: ServerHandle, services: ChatServices) =>
  Effect.gen(function* () {
    const [entry, state] = yield* Effect.all([server.entry, server.state])
    return { summary: summaryOf(entry, state, yield* maxPlayersOf(services, entry.id)), state }
  })

export const status: ServerRunner = (_call, server, services) =>
  Effect.map(summarize(server, services), ({ state, summary }) => ({
    message: `${sentence(summary)}${state.locked ? " (locked)" : ""}`,
    server: { ...summary, locked: state.locked }
  }))

/** Every server the caller may see and holds `server.view` on. */
export const servers: FleetRunner = (call, services) =>
  Effect.gen(function* () {
    const handles = yield* services.servers.supervised
    const visible: Array<ReturnType<typeof summaryOf>> = []
    for (const handle of handles) {
      if (!canSeeServer(call.caller, handle.id) || !principalCan(call.caller, "server.view", handle.id)) continue
      visible.push((yield* summarize(handle, services)).summary)
    }
    visible.sort((a, b) => a.name.localeCompare(b.name))
    return {
      message: visible.length === 0 ? "No servers." : visible.map(sentence).join("\n"),
      servers: visible
    }
  })

const power =
  (verb: "start" | "stop" | "restart", done: string): ServerRunner =>
  (_call, server, services) =>
    Effect.gen(function* () {
      yield* asRefusal(verb === "restart" ? server.actor.restart("manual") : server.actor[verb])
      const { summary } = yield* summarize(server, services)
      return { message: `${summary.name}: ${done} (now ${summary.status}).`, server: summary }
    })

export const start = power("start", "started")
export const stop = power("stop", "stopped")
export const restart = power("restart", "restarted")

const lockState =
  (locked: boolean): ServerRunner =>
  (_call, server) =>
    Effect.gen(function* () {
      yield* asRefusal(locked ? server.control.lock : server.control.unlock)
      const entry = yield* server.entry
      return { message: `${entry.name}: ${locked ? "locked, nobody new can join" : "unlocked"}.`, locked }
    })

export const lock = lockState(true)
export const unlock = lockState(false)

export const rcon: ServerRunner = (call, server) =>
  Effect.gen(function* () {
    const command = yield* text(call.params, "command", { max: 512 })
    const response = yield* asRefusal(server.control.raw(command))
    return { message: response.trim() === "" ? "Done (no output)." : response, response }
  })

/** A broadcast to everyone on the server: at most 256 characters, one line. */
export const message: ServerRunner = (call, server) =>
  Effect.gen(function* () {
    const words = yield* text(call.params, "message", { max: 256 })
    yield* asRefusal(server.control.broadcast(words))
    return { message: `Sent: ${words}`, sent: words }
  })

/** The game's clock and weather, from the agent's mod (`data.server-info`). */
export const timeWeather: ServerRunner = (call, server, services) =>
  Effect.gen(function* () {
    const { data } = yield* asRefusal(
      services.actions.run({ server, action: actionsByName.get("data.server-info")!, input: {}, caller: call.caller, clientIp: call.clientIp })
    )
    const info = (typeof data === "object" && data !== null ? data : {}) as { readonly time?: unknown; readonly weather?: unknown }
    const time = info.time as { readonly hour?: unknown; readonly minute?: unknown } | undefined
    const weather = (info.weather ?? null) as Readonly<Record<string, unknown>> | null
    const clock = typeof time?.hour === "number" && typeof time.minute === "number" ? `${String(time.hour).padStart(2, "0")}:${String(time.minute).padStart(2, "0")}` : "unknown"
    const sky =
      weather === null
        ? "unknown"
        : ["overcast", "rain", "fog", "snow", "wind"]
            .filter((key) => typeof weather[key] === "number")
            .map((key) => `${key} ${Math.round((weather[key] as number) * 100)}%`)
            .join(", ")
    return { message: `In-game time ${clock}; weather: ${sky}.`, time: info.time ?? null, weather }
  })
