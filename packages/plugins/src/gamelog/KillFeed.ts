/**
 * The kill feed: deaths read from the admin logs, newest first, by server,
 * player (killer or victim), time and killer kind; a caller scoped to some
 * servers reads theirs only. Live: `GameKillRecorded` on the bus.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type * as Statement from "@effect/sql/Statement"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { cursorCodec, type InvalidCursor, Keyset, type PageOf } from "@garrison/runtime"
import { type GameLogStoreError, storeError } from "./errors.js"
import { type KillDbRow, killViewOf, type KillView } from "./internal/views.js"

export interface KillQuery {
  /** Servers the caller may see ("all", or these ids). */
  readonly visible: "all" | ReadonlySet<string>
  readonly serverId?: string
  /** DayZ ID of a killer or victim. */
  readonly playerId?: string
  readonly sinceMs?: number
  readonly untilMs?: number
  readonly kind?: string
  readonly limit: number
  readonly cursor?: string
}

export const killCursor = cursorCodec("killfeed", Schema.Struct({ at: Schema.Number, id: Schema.String.pipe(Schema.maxLength(2000)) }))

export const killPaging = Keyset.make({
  cursor: killCursor,
  key: [
    { column: "k.at_ms", direction: "desc", value: (p) => p.at },
    { column: "k.id", direction: "desc", value: (p) => p.id }
  ],
  positionOf: (row: KillDbRow) => ({ at: Number(row.at_ms), id: row.id })
})

export interface KillFeedShape {
  readonly list: (query: KillQuery) => Effect.Effect<PageOf<KillView>, GameLogStoreError | InvalidCursor>
}

export class KillFeed extends Context.Tag("@garrison/plugins/gamelog/KillFeed")<KillFeed, KillFeedShape>() {
  static readonly make = Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const list: KillFeedShape["list"] = (query) =>
      Effect.gen(function* () {
        const clauses: Array<Statement.Fragment> = []
        if (query.visible !== "all") clauses.push(query.visible.size === 0 ? sql`1 = 0` : sql.in("k.server_id", [...query.visible]))
        if (query.serverId !== undefined) clauses.push(sql`k.server_id = ${query.serverId}`)
        if (query.sinceMs !== undefined) clauses.push(sql`k.at_ms >= ${query.sinceMs}`)
        if (query.untilMs !== undefined) clauses.push(sql`k.at_ms < ${query.untilMs}`)
        if (query.kind !== undefined) clauses.push(sql`k.killer_kind = ${query.kind}`)
        const after = yield* killPaging.decode(query.cursor)
        if (after !== undefined) clauses.push(killPaging.after(sql, after))
        const limit = query.limit + 1
        const order = sql.literal(killPaging.orderBy)
        const where = (more: ReadonlyArray<Statement.Fragment>) => {
          const all = [...clauses, ...more]
          return all.length === 0 ? sql`1 = 1` : sql.and(all)
        }
        // A player's kills and deaths: each side read by its own index, newest first, then merged. An OR of the
        // two would read and sort every row of a busy player for each page.
        const kills =
          query.playerId === undefined
            ? sql`SELECT k.* FROM game_kills k WHERE ${where([])} ORDER BY ${order} LIMIT ${limit}`
            : sql`SELECT * FROM (SELECT k.* FROM game_kills k WHERE ${where([sql`k.killer_id = ${query.playerId}`])} ORDER BY ${order} LIMIT ${limit}) killed
                  UNION
                  SELECT * FROM (SELECT k.* FROM game_kills k WHERE ${where([sql`k.victim_id = ${query.playerId}`])} ORDER BY ${order} LIMIT ${limit}) died`
        const rows = yield* sql<KillDbRow>`SELECT k.*, kp.steam64 AS killer_steam64, vp.steam64 AS victim_steam64
            FROM (${kills}) k
            LEFT JOIN game_players kp ON kp.id = k.killer_id
            LEFT JOIN game_players vp ON vp.id = k.victim_id
            ORDER BY ${order} LIMIT ${limit}`.pipe(Effect.mapError(storeError("read the kill feed")))
        const page = killPaging.page(rows, query.limit)
        return { items: page.items.map(killViewOf), nextCursor: page.nextCursor }
      })
    return { list } satisfies KillFeedShape
  })

  static readonly layer = Layer.effect(KillFeed, KillFeed.make)
}
