/**
 * The watchlist: players kept an eye on, one entry per player (by DayZ ID:
 * a Steam id given is hashed to it, so an entry matches before RCON ever
 * linked the player). A watched player's connect, read from any server's
 * admin log (`GamePlayerJoined`), notifies whoever may view that server and
 * publishes `WatchlistJoined` (webhooks): once per connect line, since the
 * game log publishes each once, after its commit.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type * as Statement from "@effect/sql/Statement"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { randomUUID } from "node:crypto"
import { EventBus } from "@garrison/runtime"
import type { GamePlayerJoined } from "../gamelog/index.js"
import { Notifications, serverAudience } from "../notifications/index.js"
import { Servers } from "../servers/index.js"
import { storeError, WatchlistEntryExists, WatchlistEntryNotFound, type WatchlistStoreError } from "./errors.js"
import { WatchlistJoined } from "./events.js"

export interface EntryView {
  readonly id: string
  readonly playerId: string
  readonly platformId: string | null
  readonly identifier: string
  readonly name: string | null
  readonly note: string
  readonly createdBy: string
  readonly createdAt: string
  readonly lastJoinedAt: string | null
  readonly lastJoinedServerId: string | null
}

interface Row {
  readonly id: string
  readonly player_id: string
  readonly steam64: string | null
  readonly identifier: string
  readonly note: string
  readonly created_by_name: string
  readonly created_ms: number | string
  readonly last_joined_ms: number | string | null
  readonly last_joined_server: string | null
  readonly last_joined_name: string | null
  readonly seen_name: string | null
  readonly linked_steam64: string | null
}

export interface WatchlistShape {
  /** Every entry; a join on a server `canSee` refuses is not shown. */
  readonly list: (canSee: (serverId: string) => boolean) => Effect.Effect<ReadonlyArray<EntryView>, WatchlistStoreError>
  readonly add: (
    input: { readonly playerId: string; readonly steam64: string | null; readonly identifier: string; readonly note: string },
    by: { readonly id: string; readonly name: string }
  ) => Effect.Effect<EntryView, WatchlistStoreError | WatchlistEntryExists>
  readonly remove: (id: string) => Effect.Effect<EntryView, WatchlistStoreError | WatchlistEntryNotFound>
  /** What a join means for the watchlist (the bus handler). */
  readonly joined: (event: GamePlayerJoined) => Effect.Effect<void, WatchlistStoreError>
}

const iso = (ms: number | string | null) => (ms === null ? null : new Date(Number(ms)).toISOString())

export class Watchlist extends Context.Tag("@garrison/plugins/watchlist/Watchlist")<Watchlist, WatchlistShape>() {
  static readonly make = Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const notifications = yield* Notifications
    const servers = yield* Servers
    const bus = yield* EventBus

    const view = (row: Row, canSee: (serverId: string) => boolean): EntryView => {
      const shown = row.last_joined_server !== null && canSee(row.last_joined_server)
      return {
        id: row.id,
        playerId: row.player_id,
        platformId: row.steam64 ?? row.linked_steam64,
        identifier: row.identifier,
        name: row.seen_name ?? row.last_joined_name,
        note: row.note,
        createdBy: row.created_by_name,
        createdAt: iso(row.created_ms)!,
        lastJoinedAt: shown ? iso(row.last_joined_ms) : null,
        lastJoinedServerId: shown ? row.last_joined_server : null
      }
    }

    // The player's name and Steam64 as the game log knows them (its tables may be empty: a left join).
    const select = (where: Statement.Fragment) =>
      sql<Row>`SELECT w.*, p.name AS seen_name, p.steam64 AS linked_steam64
                 FROM watchlist_entries w LEFT JOIN game_players p ON p.id = w.player_id WHERE ${where} ORDER BY w.created_ms DESC, w.id DESC`

    const list: WatchlistShape["list"] = (canSee) =>
      Effect.map(select(sql`1 = 1`), (rows) => rows.map((row) => view(row, canSee))).pipe(Effect.mapError(storeError("read the watchlist")))

    const add: WatchlistShape["add"] = (input, by) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const id = randomUUID()
        const inserted = yield* sql`INSERT INTO watchlist_entries ${sql.insert({
          id,
          player_id: input.playerId,
          steam64: input.steam64,
          identifier: input.identifier,
          note: input.note,
          created_by: by.id,
          created_by_name: by.name,
          created_ms: now,
          last_joined_ms: null,
          last_joined_server: null,
          last_joined_name: null
        })} ON CONFLICT (player_id) DO NOTHING RETURNING id`.pipe(Effect.mapError(storeError("add to the watchlist")))
        if (inserted.length === 0) {
          const existing = yield* sql<{ id: string }>`SELECT id FROM watchlist_entries WHERE player_id = ${input.playerId}`.pipe(Effect.mapError(storeError("read the watchlist")))
          return yield* Effect.fail(new WatchlistEntryExists({ id: existing[0]?.id ?? "", playerId: input.playerId }))
        }
        const rows = yield* select(sql`w.id = ${id}`).pipe(Effect.mapError(storeError("read the watchlist")))
        return view(rows[0]!, () => true)
      })

    const remove: WatchlistShape["remove"] = (id) =>
      Effect.gen(function* () {
        const rows = yield* select(sql`w.id = ${id}`).pipe(Effect.mapError(storeError("read the watchlist")))
        if (rows[0] === undefined) return yield* Effect.fail(new WatchlistEntryNotFound({ id }))
        yield* sql`DELETE FROM watchlist_entries WHERE id = ${id}`.pipe(Effect.mapError(storeError("remove from the watchlist")))
        return view(rows[0], () => true)
      })

    const joined: WatchlistShape["joined"] = (event) =>
      Effect.gen(function* () {
        const rows = yield* sql<{ id: string; note: string; steam64: string | null }>`SELECT id, note, steam64 FROM watchlist_entries WHERE player_id = ${event.playerId}`
        const entry = rows[0]
        if (entry === undefined) return
        const atMs = Date.parse(event.at)
        yield* sql`UPDATE watchlist_entries SET last_joined_ms = ${atMs}, last_joined_server = ${event.serverId}, last_joined_name = ${event.name} WHERE id = ${entry.id}`
        const serverName = yield* servers.entry(event.serverId).pipe(
          Effect.map((e) => e.name),
          Effect.orElseSucceed(() => event.serverId)
        )
        const platformId = event.steam64 ?? entry.steam64
        yield* notifications
          .publish({
            audience: serverAudience(event.serverId),
            serverId: event.serverId,
            level: "warning",
            title: `Watched player ${event.name} joined ${serverName}`.slice(0, 200),
            message: (entry.note === "" ? `${event.name} (${platformId ?? event.playerId}) connected.` : `${event.name} (${platformId ?? event.playerId}) connected. Note: ${entry.note}`).slice(0, 4000),
            link: "/watchlist"
          })
          .pipe(Effect.catchAll((error) => Effect.logWarning(`watchlist: the notification of ${event.name}'s join was not stored: ${error.message}`)))
        yield* bus.publish(
          new WatchlistJoined({ entryId: entry.id, serverId: event.serverId, serverName, playerId: event.playerId, platformId, name: event.name, note: entry.note, at: event.at })
        )
      }).pipe(Effect.mapError(storeError("match a join with the watchlist")))

    return { list, add, remove, joined } satisfies WatchlistShape
  })

  static readonly layer = Layer.effect(Watchlist, Watchlist.make)
}
