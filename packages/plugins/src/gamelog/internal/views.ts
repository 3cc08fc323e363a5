/** Rows as the API and the events show them. */
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import type { KillRow } from "./ingest/batch.js"

const chunk = 500

/** Steam64 of each player RCON has linked, by DayZ ID. */
export const steam64sOf = (sql: SqlClient.SqlClient, ids: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const found = new Map<string, string>()
    for (let i = 0; i < ids.length; i += chunk) {
      const rows = yield* sql<{ id: string; steam64: string | null }>`SELECT id, steam64 FROM game_players WHERE ${sql.in("id", ids.slice(i, i + chunk))} AND steam64 IS NOT NULL`
      for (const row of rows) if (row.steam64 !== null) found.set(row.id, row.steam64)
    }
    return found
  })

export interface KillView {
  readonly id: string
  readonly serverId: string
  /** `player`, `zombie`, `animal`, `environment` or `suicide`. */
  readonly killerKind: string
  /** The killer's Steam64 (a player RCON has linked), else null. */
  readonly platformId: string | null
  /** The killer's DayZ ID (players only). */
  readonly playerId: string | null
  /** The killer's name: a player's, a creature's class, the environment's cause; null for a suicide. */
  readonly name: string | null
  readonly victimPlatformId: string | null
  readonly victimPlayerId: string | null
  readonly victimName: string
  readonly distance: number | null
  readonly weapon: string | null
  /** The body part of the fatal hit (`Head`, `Torso`, ...), when the log had it. */
  readonly zone: string | null
  readonly headshot: boolean
  readonly timestamp: string
  readonly killerPos: { readonly x: number; readonly y: number; readonly z: number } | null
  readonly victimPos: { readonly x: number; readonly y: number; readonly z: number } | null
}

export const killEventOf = (serverId: string, k: KillRow, steam: ReadonlyMap<string, string>): KillView => ({
  id: k.id,
  serverId,
  killerKind: k.killerKind,
  platformId: k.killerId === null ? null : (steam.get(k.killerId) ?? null),
  playerId: k.killerId,
  name: k.killerName,
  victimPlatformId: k.victimId === null ? null : (steam.get(k.victimId) ?? null),
  victimPlayerId: k.victimId,
  victimName: k.victimName,
  distance: k.distance,
  weapon: k.weapon,
  zone: k.zone,
  headshot: k.headshot,
  timestamp: new Date(k.atMs).toISOString(),
  killerPos: k.killerPos,
  victimPos: k.victimPos
})

export interface KillDbRow {
  readonly id: string
  readonly server_id: string
  readonly at_ms: number | string
  readonly killer_kind: string
  readonly killer_id: string | null
  readonly killer_name: string | null
  readonly killer_steam64: string | null
  readonly victim_id: string | null
  readonly victim_name: string
  readonly victim_steam64: string | null
  readonly weapon: string | null
  readonly distance: number | null
  readonly zone: string | null
  readonly headshot: number
  readonly killer_x: number | null
  readonly killer_y: number | null
  readonly killer_z: number | null
  readonly victim_x: number | null
  readonly victim_y: number | null
  readonly victim_z: number | null
}

const pos = (x: number | null, y: number | null, z: number | null) => (x === null || y === null || z === null ? null : { x: Number(x), y: Number(y), z: Number(z) })

export const killViewOf = (row: KillDbRow): KillView => ({
  id: row.id,
  serverId: row.server_id,
  killerKind: row.killer_kind,
  platformId: row.killer_steam64,
  playerId: row.killer_id,
  name: row.killer_name,
  victimPlatformId: row.victim_steam64,
  victimPlayerId: row.victim_id,
  victimName: row.victim_name,
  distance: row.distance === null ? null : Number(row.distance),
  weapon: row.weapon,
  zone: row.zone,
  headshot: Number(row.headshot) === 1,
  timestamp: new Date(Number(row.at_ms)).toISOString(),
  killerPos: pos(row.killer_x, row.killer_y, row.killer_z),
  victimPos: pos(row.victim_x, row.victim_y, row.victim_z)
})
