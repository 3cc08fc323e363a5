/**
 * The live map's data: the server's map (from its config's mission) and
 * where players are: from the server's agent when it has one (the mod's
 * `players` and `vehicles` data, live), else the admin log's last sighting
 * of each player with its age.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { actionsByName } from "@garrison/agent/client"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { missionOf, parseServerConfig, type Principal, type ServerEntry, ServerFiles } from "@garrison/runtime"
import { AdminActions } from "../actions/index.js"
import { mapOfMission } from "../maps/index.js"
import type { ServerHandle } from "../servers/index.js"
import { type GameLogStoreError, storeError } from "./errors.js"

export interface MapInfoView {
  readonly serverId: string
  readonly mission: string | null
  readonly map: { readonly id: string; readonly name: string; readonly worldSize: number } | null
  readonly source: "agent" | "log"
}

export interface MapPlayerView {
  readonly playerId: string | null
  readonly platformId: string | null
  readonly name: string
  readonly x: number
  readonly y: number
  readonly z: number
  readonly at: string
  readonly ageSeconds: number
  readonly online: boolean
}

export interface MapPositionsView {
  readonly serverId: string
  readonly source: "agent" | "log"
  readonly players: ReadonlyArray<MapPlayerView>
  readonly vehicles: ReadonlyArray<{ readonly id: string; readonly type: string; readonly x: number; readonly y: number; readonly z: number }>
  readonly at: string
}

export interface LiveMapShape {
  readonly info: (server: ServerHandle) => Effect.Effect<MapInfoView>
  readonly positions: (server: ServerHandle, caller: Principal, offlineHours: number) => Effect.Effect<MapPositionsView, GameLogStoreError>
}

const num = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : undefined)
const posOf = (value: unknown) => {
  if (typeof value !== "object" || value === null) return undefined
  const p = value as Record<string, unknown>
  const x = num(p["x"])
  const y = num(p["y"])
  const z = num(p["z"])
  return x === undefined || y === undefined || z === undefined ? undefined : { x, y, z }
}
const listOf = (data: unknown, key: string): ReadonlyArray<Record<string, unknown>> => {
  const list = typeof data === "object" && data !== null ? (data as Record<string, unknown>)[key] : undefined
  return Array.isArray(list) ? (list.filter((item) => typeof item === "object" && item !== null) as ReadonlyArray<Record<string, unknown>>) : []
}

const missionTemplate = (entry: ServerEntry) =>
  ServerFiles.local(entry.installDir)
    .read(entry.configFile, { maxBytes: 1024 * 1024 })
    .pipe(
      Effect.map((bytes) => missionOf(parseServerConfig(new TextDecoder().decode(bytes)))?.template ?? null),
      Effect.orElseSucceed(() => null)
    )

export class LiveMap extends Context.Tag("@garrison/plugins/gamelog/LiveMap")<LiveMap, LiveMapShape>() {
  static readonly make = Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const actions = yield* Effect.serviceOption(AdminActions)

    const info: LiveMapShape["info"] = (server) =>
      Effect.gen(function* () {
        const entry = yield* server.entry
        const mission = yield* missionTemplate(entry)
        const map = mission === null ? undefined : mapOfMission(mission)
        return {
          serverId: server.id,
          mission,
          map: map === undefined ? null : { id: map.id, name: map.name, worldSize: map.worldSize },
          source: entry.agent !== undefined && Option.isSome(actions) ? "agent" : "log"
        }
      })

    const fromLog = (serverId: string, offlineHours: number) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const since = now - offlineHours * 3_600_000
        const rows = yield* sql<{ player_id: string; name: string; x: number; y: number; z: number; at_ms: number | string; online: number; steam64: string | null }>`
          SELECT gp.player_id, gp.name, gp.x, gp.y, gp.z, gp.at_ms, gp.online, p.steam64
            FROM game_positions gp LEFT JOIN game_players p ON p.id = gp.player_id
           WHERE gp.server_id = ${serverId} AND (gp.online <> 0 ${offlineHours > 0 ? sql`OR gp.at_ms >= ${since}` : sql``})
           ORDER BY gp.name LIMIT 1000`.pipe(Effect.mapError(storeError("read positions")))
        return {
          serverId,
          source: "log" as const,
          players: rows.map((r) => ({
            playerId: r.player_id,
            platformId: r.steam64,
            name: r.name,
            x: Number(r.x),
            y: Number(r.y),
            z: Number(r.z),
            at: new Date(Number(r.at_ms)).toISOString(),
            ageSeconds: Math.max(0, Math.round((now - Number(r.at_ms)) / 1000)),
            online: Number(r.online) !== 0
          })),
          vehicles: [],
          at: new Date(now).toISOString()
        }
      })

    const fromAgent = (server: ServerHandle, caller: Principal) =>
      Effect.gen(function* () {
        if (Option.isNone(actions)) return undefined
        const run = (action: string) =>
          actions.value.run({ server, action: actionsByName.get(action)!, input: {}, caller, clientIp: null }).pipe(Effect.map((answer) => answer.data))
        const players = yield* run("players")
        const vehicles = yield* run("vehicles").pipe(Effect.orElseSucceed(() => ({})))
        const now = yield* Clock.currentTimeMillis
        return {
          serverId: server.id,
          source: "agent" as const,
          players: listOf(players, "players")
            .filter((p) => p["online"] !== false && posOf(p["position"]) !== undefined)
            .map((p) => ({
              playerId: typeof p["dayzId"] === "string" ? p["dayzId"] : null,
              platformId: typeof p["platformId"] === "string" ? p["platformId"] : null,
              name: typeof p["name"] === "string" ? p["name"] : "",
              ...posOf(p["position"])!,
              at: new Date(now).toISOString(),
              ageSeconds: 0,
              online: true
            })),
          vehicles: listOf(vehicles, "vehicles")
            .filter((v) => posOf(v["position"]) !== undefined && v["destroyed"] !== true)
            .map((v) => ({ id: String(v["id"] ?? ""), type: String(v["className"] ?? v["type"] ?? ""), ...posOf(v["position"])! })),
          at: new Date(now).toISOString()
        }
      })

    const positions: LiveMapShape["positions"] = (server, caller, offlineHours) =>
      Effect.gen(function* () {
        const entry = yield* server.entry
        if (entry.agent !== undefined) {
          // The agent answers live; when it cannot (down, the mod not polling), the log's sightings stand in.
          const live = yield* fromAgent(server, caller).pipe(Effect.orElseSucceed(() => undefined))
          if (live !== undefined) return live
        }
        return yield* fromLog(server.id, offlineHours)
      })

    return { info, positions } satisfies LiveMapShape
  })

  static readonly layer = Layer.effect(LiveMap, LiveMap.make)
}
