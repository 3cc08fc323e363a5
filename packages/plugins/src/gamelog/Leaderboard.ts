/**
 * The leaderboard: per server and season, kills, deaths, headshots and the
 * longest kill of each player, kept up to date by the ingester
 * (`game_stats`). A season ends at a wipe or an admin's reset; past seasons
 * stay readable. Across servers, each visible server's current season
 * counts.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { EventBus } from "@garrison/runtime"
import { type GameLogStoreError, storeError } from "./errors.js"
import { GameSeasonStarted } from "./events.js"
import { nextSeason } from "./internal/ingest/store.js"

export type LeaderboardSort = "kills" | "headshots" | "longestKill" | "kd"

export interface SeasonView {
  readonly id: string
  readonly serverId: string
  readonly number: number
  readonly reason: string
  readonly startedAt: string
  readonly endedAt: string | null
}

export interface EntryView {
  readonly rank: number
  readonly playerId: string
  readonly platformId: string | null
  readonly name: string
  readonly kills: number
  readonly deaths: number
  readonly headshots: number
  readonly longestKill: { readonly distance: number; readonly weapon: string | null; readonly victim: string | null; readonly timestamp: string | null } | null
  readonly kd: number
  readonly headshotPct: number
}

interface SeasonRow {
  readonly id: string
  readonly server_id: string
  readonly number: number
  readonly reason: string
  readonly started_ms: number | string
  readonly ended_ms: number | string | null
}

const seasonView = (row: SeasonRow): SeasonView => ({
  id: row.id,
  serverId: row.server_id,
  number: Number(row.number),
  reason: row.reason,
  startedAt: new Date(Number(row.started_ms)).toISOString(),
  endedAt: row.ended_ms === null ? null : new Date(Number(row.ended_ms)).toISOString()
})

const ORDER: Record<LeaderboardSort, string> = {
  kills: "kills DESC, deaths ASC, name ASC, player_id ASC",
  headshots: "headshots DESC, kills DESC, name ASC, player_id ASC",
  longestKill: "longest_distance DESC, kills DESC, name ASC, player_id ASC",
  kd: "kd DESC, kills DESC, name ASC, player_id ASC"
}

const round2 = (n: number) => Math.round(n * 100) / 100

export interface LeaderboardShape {
  /** `seasonIds`: the seasons counted together (one, or each visible server's current one). */
  readonly top: (seasonIds: ReadonlyArray<string>, sort: LeaderboardSort, limit: number) => Effect.Effect<ReadonlyArray<EntryView>, GameLogStoreError>
  readonly season: (id: string) => Effect.Effect<SeasonView | undefined, GameLogStoreError>
  /** The server's open season (none before its first kill). */
  readonly current: (serverId: string) => Effect.Effect<SeasonView | undefined, GameLogStoreError>
  readonly seasons: (visible: "all" | ReadonlySet<string>, serverId?: string) => Effect.Effect<ReadonlyArray<SeasonView>, GameLogStoreError>
  readonly startSeason: (serverId: string, reason: string) => Effect.Effect<SeasonView, GameLogStoreError>
}

export class Leaderboard extends Context.Tag("@garrison/plugins/gamelog/Leaderboard")<Leaderboard, LeaderboardShape>() {
  static readonly make = Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const bus = yield* EventBus

    const top: LeaderboardShape["top"] = (seasonIds, sort, limit) =>
      Effect.gen(function* () {
        if (seasonIds.length === 0) return []
        // One row per player over the seasons counted; kd = kills / max(deaths, 1).
        const rows = yield* sql<{
          player_id: string
          name: string
          kills: number
          deaths: number
          headshots: number
          longest_distance: number | null
          steam64: string | null
        }>`SELECT s.player_id, MAX(s.name) AS name, SUM(s.kills) AS kills, SUM(s.deaths) AS deaths, SUM(s.headshots) AS headshots,
                  MAX(s.longest_distance) AS longest_distance, MAX(p.steam64) AS steam64,
                  CAST(SUM(s.kills) AS REAL) / CASE WHEN SUM(s.deaths) = 0 THEN 1 ELSE SUM(s.deaths) END AS kd
             FROM game_stats s LEFT JOIN game_players p ON p.id = s.player_id
            WHERE ${sql.in("s.season_id", [...seasonIds])}
            GROUP BY s.player_id
           HAVING SUM(s.kills) > 0 OR SUM(s.deaths) > 0
            ORDER BY ${sql.literal(ORDER[sort].replace("longest_distance DESC", "COALESCE(MAX(s.longest_distance), -1) DESC"))}
            LIMIT ${limit}`
        const ids = rows.map((r) => r.player_id)
        // The longest kill's weapon, victim and time, from the season row that holds it.
        const longest =
          ids.length === 0
            ? []
            : yield* sql<{ player_id: string; longest_distance: number; longest_weapon: string | null; longest_victim: string | null; longest_at_ms: number | string | null }>`
                SELECT player_id, longest_distance, longest_weapon, longest_victim, longest_at_ms FROM game_stats
                 WHERE ${sql.in("season_id", [...seasonIds])} AND ${sql.in("player_id", ids)} AND longest_distance IS NOT NULL`
        const best = new Map<string, (typeof longest)[number]>()
        for (const row of longest) {
          const known = best.get(row.player_id)
          if (known === undefined || Number(row.longest_distance) > Number(known.longest_distance)) best.set(row.player_id, row)
        }
        return rows.map((row, i): EntryView => {
          const kills = Number(row.kills)
          const deaths = Number(row.deaths)
          const headshots = Number(row.headshots)
          const l = best.get(row.player_id)
          return {
            rank: i + 1,
            playerId: row.player_id,
            platformId: row.steam64,
            name: row.name,
            kills,
            deaths,
            headshots,
            longestKill:
              l === undefined
                ? null
                : { distance: Number(l.longest_distance), weapon: l.longest_weapon, victim: l.longest_victim, timestamp: l.longest_at_ms === null ? null : new Date(Number(l.longest_at_ms)).toISOString() },
            kd: round2(kills / Math.max(deaths, 1)),
            headshotPct: kills === 0 ? 0 : round2((headshots / kills) * 100)
          }
        })
      }).pipe(Effect.mapError(storeError("read the leaderboard")))

    const season: LeaderboardShape["season"] = (id) =>
      Effect.map(sql<SeasonRow>`SELECT * FROM game_seasons WHERE id = ${id}`, (rows) => (rows[0] === undefined ? undefined : seasonView(rows[0]))).pipe(
        Effect.mapError(storeError("read a season"))
      )

    const current: LeaderboardShape["current"] = (serverId) =>
      Effect.map(sql<SeasonRow>`SELECT * FROM game_seasons WHERE server_id = ${serverId} AND ended_ms IS NULL`, (rows) =>
        rows[0] === undefined ? undefined : seasonView(rows[0])
      ).pipe(Effect.mapError(storeError("read a season")))

    const seasons: LeaderboardShape["seasons"] = (visible, serverId) =>
      Effect.gen(function* () {
        if (visible !== "all" && visible.size === 0) return []
        const clauses = [
          ...(visible === "all" ? [] : [sql.in("server_id", [...visible])]),
          ...(serverId === undefined ? [] : [sql`server_id = ${serverId}`])
        ]
        const rows = yield* sql<SeasonRow>`SELECT * FROM game_seasons WHERE ${clauses.length === 0 ? sql`1 = 1` : sql.and(clauses)}
                                           ORDER BY started_ms DESC, number DESC LIMIT 1000`
        return rows.map(seasonView)
      }).pipe(Effect.mapError(storeError("read the seasons")))

    const startSeason: LeaderboardShape["startSeason"] = (serverId, reason) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const id = yield* nextSeason(sql, serverId, reason, now).pipe(sql.withTransaction)
        const view = (yield* season(id))!
        yield* bus.publish(new GameSeasonStarted({ serverId, seasonId: id, number: view.number, reason }))
        return view
      }).pipe(Effect.mapError((e) => (e._tag === "GameLogStoreError" ? e : storeError("start a season")(e))))

    return { top, season, current, seasons, startSeason } satisfies LeaderboardShape
  })

  static readonly layer = Layer.effect(Leaderboard, Leaderboard.make)
}
