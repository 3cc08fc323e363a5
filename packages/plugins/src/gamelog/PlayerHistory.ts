/**
 * Every player the admin logs named: names used, first and last seen,
 * sessions and playtime per server. Found by a name (any case, part of it)
 * or any id form. A caller scoped to some servers sees the players of
 * those servers, with those servers' figures only. Also answers the trust
 * network's playtime signals (`playtimeOf`).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type * as Statement from "@effect/sql/Statement"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { cursorCodec, type InvalidCursor, Keyset, type PageOf, PlayerIds } from "@garrison/runtime"
import { type GameLogStoreError, storeError } from "./errors.js"
import { playerKeyOf } from "./internal/playerKey.js"
import { fold } from "./internal/ingest/store.js"

export interface PlayerServerView {
  readonly serverId: string
  readonly firstSeen: string
  readonly lastSeen: string
  readonly sessions: number
  readonly playtimeHours: number
  readonly online: boolean
}

export interface PlayerSummaryView {
  readonly playerId: string
  readonly platformId: string | null
  readonly name: string
  readonly firstSeen: string
  readonly lastSeen: string
  readonly playtimeHours: number
  readonly serversPlayed: number
}

export interface PlayerDetailView extends PlayerSummaryView {
  readonly names: ReadonlyArray<{ readonly name: string; readonly firstSeen: string; readonly lastSeen: string }>
  readonly servers: ReadonlyArray<PlayerServerView>
  readonly kills: number
  readonly deaths: number
}

export type Visible = "all" | ReadonlySet<string>

export interface PlayerHistoryShape {
  readonly search: (query: { readonly visible: Visible; readonly q?: string; readonly serverId?: string; readonly limit: number; readonly cursor?: string }) => Effect.Effect<PageOf<PlayerSummaryView>, GameLogStoreError | InvalidCursor>
  /** The player by any id form; undefined when never seen (on a visible server). */
  readonly player: (visible: Visible, playerId: string) => Effect.Effect<PlayerDetailView | undefined, GameLogStoreError>
  /** Hours played and servers played on, everywhere (the trust signals); none when never seen. */
  readonly playtimeOf: (steam64: string) => Effect.Effect<{ readonly playtimeHours: number; readonly serversSeen: number } | undefined, GameLogStoreError>
  /** Records that RCON showed this DayZ ID with this Steam64 (the hash proves the pair). */
  readonly link: (pairs: ReadonlyArray<{ readonly playerId: string; readonly steam64: string }>) => Effect.Effect<number, GameLogStoreError>
}

const iso = (ms: number | string) => new Date(Number(ms)).toISOString()
const hours = (ms: number) => Math.round((ms / 3_600_000) * 100) / 100

export const historyCursor = cursorCodec("player-history", Schema.Struct({ last: Schema.Number, id: Schema.String.pipe(Schema.maxLength(100)) }))
const paging = Keyset.make({
  cursor: historyCursor,
  key: [
    { column: "last_ms", direction: "desc", value: (p) => p.last },
    { column: "id", direction: "desc", value: (p) => p.id }
  ],
  positionOf: (row: { readonly last_ms: number | string; readonly id: string }) => ({ last: Number(row.last_ms), id: row.id })
})

/** `%` and `_` in a name searched for are letters, not wildcards. */
const likePattern = (text: string) => `%${fold(text).replace(/[\\%_]/g, (c) => `\\${c}`)}%`

export class PlayerHistory extends Context.Tag("@garrison/plugins/gamelog/PlayerHistory")<PlayerHistory, PlayerHistoryShape>() {
  static readonly make = Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    /** Playtime including the session still open. */
    const played = (now: number) => sql`(ps.playtime_ms + CASE WHEN ps.online_since_ms IS NULL THEN 0 ELSE ${now} - ps.online_since_ms END)`
    const serverClause = (visible: Visible, serverId?: string): Array<Statement.Fragment> => [
      ...(visible === "all" ? [] : [visible.size === 0 ? sql`1 = 0` : sql.in("ps.server_id", [...visible])]),
      ...(serverId === undefined ? [] : [sql`ps.server_id = ${serverId}`])
    ]

    const search: PlayerHistoryShape["search"] = (query) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const where = serverClause(query.visible, query.serverId)
        const q = query.q?.trim()
        if (q !== undefined && q !== "") {
          const key = playerKeyOf(q)
          where.push(
            Either.isRight(key)
              ? sql`(p.id = ${key.right.playerId} OR p.steam64 = ${key.right.steam64 ?? "-"})`
              : sql`p.id IN (SELECT player_id FROM game_player_names WHERE name_folded LIKE ${likePattern(q)} ESCAPE '\\')`
          )
        }
        const after = yield* paging.decode(query.cursor)
        const having = after === undefined ? sql`1 = 1` : paging.after(sql, after)
        const rows = yield* sql<{ id: string; steam64: string | null; name: string; first_ms: number | string; last_ms: number | string; played_ms: number | string; servers: number | string }>`
          SELECT * FROM (
            SELECT p.id, p.steam64, p.name, MIN(ps.first_seen_ms) AS first_ms, MAX(ps.last_seen_ms) AS last_ms,
                   SUM(${played(now)}) AS played_ms, COUNT(ps.server_id) AS servers
              FROM game_players p JOIN game_player_servers ps ON ps.player_id = p.id
             WHERE ${where.length === 0 ? sql`1 = 1` : sql.and(where)}
             GROUP BY p.id, p.steam64, p.name
          ) listed WHERE ${having}
          ORDER BY ${sql.literal(paging.orderBy)} LIMIT ${query.limit + 1}`.pipe(Effect.mapError(storeError("search player history")))
        const page = paging.page(rows, query.limit)
        return {
          items: page.items.map((r) => ({
            playerId: r.id,
            platformId: r.steam64,
            name: r.name,
            firstSeen: iso(r.first_ms),
            lastSeen: iso(r.last_ms),
            playtimeHours: hours(Number(r.played_ms)),
            serversPlayed: Number(r.servers)
          })),
          nextCursor: page.nextCursor
        }
      })

    const player: PlayerHistoryShape["player"] = (visible, playerId) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const found = yield* sql<{ id: string; steam64: string | null; name: string }>`SELECT id, steam64, name FROM game_players WHERE id = ${playerId}`
        const p = found[0]
        if (p === undefined) return undefined
        const where = serverClause(visible)
        const servers = yield* sql<{ server_id: string; first_seen_ms: number | string; last_seen_ms: number | string; sessions: number; played_ms: number | string; online_since_ms: number | string | null }>`
          SELECT ps.server_id, ps.first_seen_ms, ps.last_seen_ms, ps.sessions, ${played(now)} AS played_ms, ps.online_since_ms
            FROM game_player_servers ps WHERE ps.player_id = ${playerId} ${where.length === 0 ? sql`` : sql`AND ${sql.and(where)}`}
           ORDER BY ps.last_seen_ms DESC`
        if (servers.length === 0) return undefined
        const names = yield* sql<{ name: string; first_seen_ms: number | string; last_seen_ms: number | string }>`
          SELECT name, first_seen_ms, last_seen_ms FROM game_player_names WHERE player_id = ${playerId} ORDER BY last_seen_ms DESC LIMIT 100`
        const seasonScope = visible === "all" ? sql`1 = 1` : sql.in("k.server_id", [...visible])
        const counts = yield* sql<{ kills: number | string | null; deaths: number | string | null }>`
          SELECT SUM(CASE WHEN k.killer_id = ${playerId} AND (k.victim_id IS NULL OR k.victim_id <> ${playerId}) THEN 1 ELSE 0 END) AS kills,
                 SUM(CASE WHEN k.victim_id = ${playerId} THEN 1 ELSE 0 END) AS deaths
            FROM game_kills k WHERE (k.killer_id = ${playerId} OR k.victim_id = ${playerId}) AND ${seasonScope}`
        const views = servers.map((s) => ({
          serverId: s.server_id,
          firstSeen: iso(s.first_seen_ms),
          lastSeen: iso(s.last_seen_ms),
          sessions: Number(s.sessions),
          playtimeHours: hours(Number(s.played_ms)),
          online: s.online_since_ms !== null
        }))
        return {
          playerId: p.id,
          platformId: p.steam64,
          name: p.name,
          firstSeen: iso(Math.min(...servers.map((s) => Number(s.first_seen_ms)))),
          lastSeen: iso(Math.max(...servers.map((s) => Number(s.last_seen_ms)))),
          playtimeHours: hours(servers.reduce((sum, s) => sum + Number(s.played_ms), 0)),
          serversPlayed: servers.length,
          names: names.map((n) => ({ name: n.name, firstSeen: iso(n.first_seen_ms), lastSeen: iso(n.last_seen_ms) })),
          servers: views,
          kills: Number(counts[0]?.kills ?? 0),
          deaths: Number(counts[0]?.deaths ?? 0)
        }
      }).pipe(Effect.mapError(storeError("read a player's history")))

    const playtimeOf: PlayerHistoryShape["playtimeOf"] = (steam64) =>
      Effect.gen(function* () {
        if (!PlayerIds.isSteam64(steam64)) return undefined
        const now = yield* Clock.currentTimeMillis
        const rows = yield* sql<{ played_ms: number | string | null; servers: number | string }>`
          SELECT SUM(${played(now)}) AS played_ms, COUNT(*) AS servers FROM game_player_servers ps WHERE ps.player_id = ${PlayerIds.toDayzId(steam64)}`
        const row = rows[0]
        if (row === undefined || Number(row.servers) === 0) return undefined
        return { playtimeHours: hours(Number(row.played_ms ?? 0)), serversSeen: Number(row.servers) }
      }).pipe(Effect.mapError(storeError("read a player's playtime")))

    const link: PlayerHistoryShape["link"] = (pairs) =>
      Effect.gen(function* () {
        let linked = 0
        for (const pair of pairs) {
          // Only a pair the hash proves: a DayZ ID is sha256 of the Steam64.
          if (!PlayerIds.isSteam64(pair.steam64) || PlayerIds.toDayzId(pair.steam64) !== pair.playerId) continue
          const rows = yield* sql`UPDATE game_players SET steam64 = ${pair.steam64} WHERE id = ${pair.playerId} AND (steam64 IS NULL OR steam64 <> ${pair.steam64}) RETURNING id`
          linked += rows.length
        }
        return linked
      }).pipe(Effect.mapError(storeError("link players")))

    return { search, player, playtimeOf, link } satisfies PlayerHistoryShape
  })

  static readonly layer = Layer.effect(PlayerHistory, PlayerHistory.make)
}
