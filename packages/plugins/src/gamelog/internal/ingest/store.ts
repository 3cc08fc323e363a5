/**
 * The ingester's statements: its cursor, the server's open season, and one
 * read's results (`Batch`) written with multi-row statements. Every write
 * here runs inside the transaction `Ingest` opens for the read.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { randomUUID } from "node:crypto"
import type { SqlError } from "@effect/sql/SqlError"
import { type Batch, nameSightings, type PendingHit } from "./batch.js"
import type { LineClockState } from "./lineClock.js"

export interface Cursor {
  readonly fileName: string
  readonly offset: number
  readonly clock: LineClockState
  readonly pending: ReadonlyArray<PendingHit>
  readonly linesRead: number
  readonly linesUnknown: number
}

/** Rows per multi-row statement: well under SQLite's and PostgreSQL's parameter limits. */
const CHUNK = 200

const chunks = <A>(items: ReadonlyArray<A>): Array<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK))
  return out
}

export const fold = (name: string) => name.normalize("NFKC").toLowerCase()

const parsePending = (text: string): ReadonlyArray<PendingHit> => {
  try {
    const value = JSON.parse(text) as unknown
    return Array.isArray(value) ? (value as ReadonlyArray<PendingHit>) : []
  } catch {
    return []
  }
}

export const loadCursor = (sql: SqlClient.SqlClient, serverId: string): Effect.Effect<Cursor | undefined, SqlError> =>
  Effect.map(
    sql<{
      file_name: string
      byte_offset: number | string
      log_date: string | null
      last_seconds: number | null
      day_shift: number
      pending: string
      lines_read: number | string
      lines_unknown: number | string
    }>`SELECT file_name, byte_offset, log_date, last_seconds, day_shift, pending, lines_read, lines_unknown FROM gamelog_cursors WHERE server_id = ${serverId}`,
    (rows) => {
      const row = rows[0]
      if (row === undefined) return undefined
      return {
        fileName: row.file_name,
        offset: Number(row.byte_offset),
        clock: { logDate: row.log_date, lastSeconds: row.last_seconds === null ? null : Number(row.last_seconds), dayShift: Number(row.day_shift) },
        pending: parsePending(row.pending),
        linesRead: Number(row.lines_read),
        linesUnknown: Number(row.lines_unknown)
      }
    }
  )

export const saveCursor = (sql: SqlClient.SqlClient, serverId: string, cursor: Cursor, nowMs: number) =>
  sql`INSERT INTO gamelog_cursors ${sql.insert({
    server_id: serverId,
    file_name: cursor.fileName,
    byte_offset: cursor.offset,
    log_date: cursor.clock.logDate,
    last_seconds: cursor.clock.lastSeconds,
    day_shift: cursor.clock.dayShift,
    pending: JSON.stringify(cursor.pending),
    lines_read: cursor.linesRead,
    lines_unknown: cursor.linesUnknown,
    updated_ms: nowMs
  })} ON CONFLICT (server_id) DO UPDATE SET file_name = excluded.file_name, byte_offset = excluded.byte_offset,
      log_date = excluded.log_date, last_seconds = excluded.last_seconds, day_shift = excluded.day_shift,
      pending = excluded.pending, lines_read = excluded.lines_read, lines_unknown = excluded.lines_unknown, updated_ms = excluded.updated_ms`

/** The server's open season, made (number 1, `first`) when it has none yet. */
export const openSeason = (sql: SqlClient.SqlClient, serverId: string, nowMs: number): Effect.Effect<string, SqlError> =>
  Effect.gen(function* () {
    const open = yield* sql<{ id: string }>`SELECT id FROM game_seasons WHERE server_id = ${serverId} AND ended_ms IS NULL`
    if (open[0] !== undefined) return open[0].id
    const last = yield* sql<{ n: number | null }>`SELECT MAX(number) AS n FROM game_seasons WHERE server_id = ${serverId}`
    const id = randomUUID()
    const number = Number(last[0]?.n ?? 0) + 1
    yield* sql`INSERT INTO game_seasons ${sql.insert({ id, server_id: serverId, number, reason: number === 1 ? "first" : "new", started_ms: nowMs, ended_ms: null })}`
    return id
  })

/** Ends the open season and opens the next (a wipe, an admin's reset). Answers the new season's id. */
export const nextSeason = (sql: SqlClient.SqlClient, serverId: string, reason: string, nowMs: number): Effect.Effect<string, SqlError> =>
  Effect.gen(function* () {
    yield* sql`UPDATE game_seasons SET ended_ms = ${nowMs} WHERE server_id = ${serverId} AND ended_ms IS NULL`
    const last = yield* sql<{ n: number | null }>`SELECT MAX(number) AS n FROM game_seasons WHERE server_id = ${serverId}`
    const id = randomUUID()
    yield* sql`INSERT INTO game_seasons ${sql.insert({ id, server_id: serverId, number: Number(last[0]?.n ?? 0) + 1, reason, started_ms: nowMs, ended_ms: null })}`
    return id
  })

/** A new log (the server started again): sessions left open had no disconnect line; they end at their last sighting. */
export const closeOpenSessions = (sql: SqlClient.SqlClient, serverId: string) =>
  Effect.zipRight(
    sql`UPDATE game_player_servers SET playtime_ms = playtime_ms + (last_seen_ms - online_since_ms), online_since_ms = NULL
        WHERE server_id = ${serverId} AND online_since_ms IS NOT NULL`,
    sql`UPDATE game_positions SET online = 0 WHERE server_id = ${serverId} AND online <> 0`
  )

export const writeBatch = (sql: SqlClient.SqlClient, serverId: string, seasonId: string, batch: Batch) =>
  Effect.gen(function* () {
    const players = [...batch.players]
    for (const part of chunks(players)) {
      yield* sql`INSERT INTO game_players ${sql.insert(
        part.map(([id, p]) => ({ id, steam64: null, name: p.name, name_folded: fold(p.name), first_seen_ms: p.firstSeenMs, last_seen_ms: p.lastSeenMs }))
      )} ON CONFLICT (id) DO UPDATE SET
          name = CASE WHEN excluded.last_seen_ms >= game_players.last_seen_ms THEN excluded.name ELSE game_players.name END,
          name_folded = CASE WHEN excluded.last_seen_ms >= game_players.last_seen_ms THEN excluded.name_folded ELSE game_players.name_folded END,
          first_seen_ms = CASE WHEN excluded.first_seen_ms < game_players.first_seen_ms THEN excluded.first_seen_ms ELSE game_players.first_seen_ms END,
          last_seen_ms = CASE WHEN excluded.last_seen_ms > game_players.last_seen_ms THEN excluded.last_seen_ms ELSE game_players.last_seen_ms END`
    }
    const names = players.flatMap(([id, p]) => [...nameSightings(p)].map(([name, seen]) => ({ player_id: id, name, name_folded: fold(name), first_seen_ms: seen.firstSeenMs, last_seen_ms: seen.lastSeenMs })))
    for (const part of chunks(names)) {
      yield* sql`INSERT INTO game_player_names ${sql.insert(part)} ON CONFLICT (player_id, name) DO UPDATE SET
          last_seen_ms = CASE WHEN excluded.last_seen_ms > game_player_names.last_seen_ms THEN excluded.last_seen_ms ELSE game_player_names.last_seen_ms END`
    }
    // Per player and this server: sessions and playtime (see PlayerDelta). SET expressions read the row as it was.
    for (const part of chunks(players)) {
      yield* sql`INSERT INTO game_player_servers ${sql.insert(
        part.map(([id, p]) => ({
          player_id: id,
          server_id: serverId,
          first_seen_ms: p.firstSeenMs,
          last_seen_ms: p.lastSeenMs,
          sessions: p.sessionsAdded,
          playtime_ms: p.playtimeAddedMs,
          online_since_ms: p.onlineSinceMs ?? null
        }))
      )} ON CONFLICT (player_id, server_id) DO UPDATE SET
          sessions = game_player_servers.sessions + excluded.sessions,
          playtime_ms = game_player_servers.playtime_ms + excluded.playtime_ms,
          first_seen_ms = CASE WHEN excluded.first_seen_ms < game_player_servers.first_seen_ms THEN excluded.first_seen_ms ELSE game_player_servers.first_seen_ms END,
          last_seen_ms = CASE WHEN excluded.last_seen_ms > game_player_servers.last_seen_ms THEN excluded.last_seen_ms ELSE game_player_servers.last_seen_ms END`
    }
    // What the upsert cannot say: how the stored open session ends (`close`: at the first disconnect, or at the
    // first sighting when a connect came first) and the online state after this read (`changed`, `since`). One
    // statement per chunk, its rows as VALUES (columnN names are portable); SET expressions read the row as it was.
    const sessions = players.flatMap(([id, p]) => {
      const close = p.closeStoredAtMs ?? (p.closeStoredAtLastSeen ? p.firstSeenMs : null)
      return close === null && p.onlineSinceMs === undefined ? [] : [sql`(${id}, ${close ?? -1}, ${p.onlineSinceMs === undefined ? 0 : 1}, ${p.onlineSinceMs ?? -1})`]
    })
    for (const part of chunks(sessions)) {
      const close = sql`CAST(v.column2 AS BIGINT)`
      const closes = sql`(${close} >= 0 AND game_player_servers.online_since_ms IS NOT NULL AND game_player_servers.online_since_ms <= ${close})`
      yield* sql`UPDATE game_player_servers SET
            playtime_ms = playtime_ms + CASE WHEN ${closes} THEN ${close} - online_since_ms ELSE 0 END,
            online_since_ms = CASE
              WHEN CAST(v.column3 AS INTEGER) = 1 THEN CASE WHEN CAST(v.column4 AS BIGINT) < 0 THEN NULL ELSE CAST(v.column4 AS BIGINT) END
              WHEN ${closes} THEN NULL
              ELSE online_since_ms END
          FROM (VALUES ${sql.csv(part)}) AS v
          WHERE game_player_servers.player_id = v.column1 AND game_player_servers.server_id = ${serverId}`
    }
    const positions = players.filter(([, p]) => p.position !== null || p.online !== undefined)
    for (const part of chunks(positions.filter(([, p]) => p.position !== null))) {
      yield* sql`INSERT INTO game_positions ${sql.insert(
        // online -1: this read said nothing of it (a sighting after a disconnect must not bring the player back).
        part.map(([id, p]) => ({ server_id: serverId, player_id: id, name: p.name, x: p.position!.pos.x, y: p.position!.pos.y, z: p.position!.pos.z, at_ms: p.position!.atMs, online: p.online === undefined ? -1 : p.online ? 1 : 0 }))
      )} ON CONFLICT (server_id, player_id) DO UPDATE SET name = excluded.name, x = excluded.x, y = excluded.y, z = excluded.z, at_ms = excluded.at_ms,
          online = CASE WHEN excluded.online < 0 THEN game_positions.online ELSE excluded.online END`
    }
    // A first sighting without a connect in this read (the log was adopted mid-session): online.
    if (positions.length > 0) yield* sql`UPDATE game_positions SET online = 1 WHERE server_id = ${serverId} AND online < 0`
    for (const [id, p] of positions) {
      if (p.position === null && p.online !== undefined) {
        yield* sql`UPDATE game_positions SET online = ${p.online ? 1 : 0} WHERE server_id = ${serverId} AND player_id = ${id}`
      }
    }
    for (const part of chunks(batch.kills)) {
      yield* sql`INSERT INTO game_kills ${sql.insert(
        part.map((k) => ({
          id: k.id,
          server_id: serverId,
          season_id: seasonId,
          at_ms: k.atMs,
          killer_kind: k.killerKind,
          killer_id: k.killerId,
          killer_name: k.killerName,
          victim_id: k.victimId,
          victim_name: k.victimName,
          weapon: k.weapon,
          distance: k.distance,
          zone: k.zone,
          headshot: k.headshot ? 1 : 0,
          killer_x: k.killerPos?.x ?? null,
          killer_y: k.killerPos?.y ?? null,
          killer_z: k.killerPos?.z ?? null,
          victim_x: k.victimPos?.x ?? null,
          victim_y: k.victimPos?.y ?? null,
          victim_z: k.victimPos?.z ?? null
        }))
      )} ON CONFLICT (id) DO NOTHING`
    }
    for (const part of chunks([...batch.stats])) {
      yield* sql`INSERT INTO game_stats ${sql.insert(
        part.map(([id, s]) => ({
          season_id: seasonId,
          player_id: id,
          name: s.name,
          kills: s.kills,
          deaths: s.deaths,
          headshots: s.headshots,
          longest_distance: s.longest?.distance ?? null,
          longest_weapon: s.longest?.weapon ?? null,
          longest_victim: s.longest?.victim ?? null,
          longest_at_ms: s.longest?.atMs ?? null
        }))
      )} ON CONFLICT (season_id, player_id) DO UPDATE SET
          name = excluded.name,
          kills = game_stats.kills + excluded.kills,
          deaths = game_stats.deaths + excluded.deaths,
          headshots = game_stats.headshots + excluded.headshots,
          longest_weapon = CASE WHEN excluded.longest_distance > COALESCE(game_stats.longest_distance, -1) THEN excluded.longest_weapon ELSE game_stats.longest_weapon END,
          longest_victim = CASE WHEN excluded.longest_distance > COALESCE(game_stats.longest_distance, -1) THEN excluded.longest_victim ELSE game_stats.longest_victim END,
          longest_at_ms = CASE WHEN excluded.longest_distance > COALESCE(game_stats.longest_distance, -1) THEN excluded.longest_at_ms ELSE game_stats.longest_at_ms END,
          longest_distance = CASE WHEN excluded.longest_distance > COALESCE(game_stats.longest_distance, -1) THEN excluded.longest_distance ELSE game_stats.longest_distance END`
    }
  })
