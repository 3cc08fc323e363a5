/**
 * The stored server entries: the one place other plugins (scheduler, logs,
 * bans, priority) list them. Entries are kept whole, RCON password
 * included; only HTTP views mask it.
 */
import { SqlClient } from "@effect/sql"
import { ServerEntry } from "@garrison/runtime"
import { Clock, Context, Effect, Layer, Schema } from "effect"
import { ServerNotFound, type ServerStoreError, storeError } from "./errors.js"

export interface ServerEntriesShape {
  /** Every entry, oldest first. */
  readonly list: Effect.Effect<ReadonlyArray<ServerEntry>, ServerStoreError>
  readonly get: (serverId: string) => Effect.Effect<ServerEntry, ServerNotFound | ServerStoreError>
  readonly insert: (entry: ServerEntry) => Effect.Effect<void, ServerStoreError>
  readonly update: (entry: ServerEntry) => Effect.Effect<void, ServerNotFound | ServerStoreError>
  readonly remove: (serverId: string) => Effect.Effect<void, ServerNotFound | ServerStoreError>
  /** Inserts or replaces each entry, all in one transaction. */
  readonly upsertAll: (entries: ReadonlyArray<ServerEntry>) => Effect.Effect<void, ServerStoreError>
}

interface Row {
  readonly id: string
  readonly entry: string
}

const EntryJson = Schema.parseJson(ServerEntry)
const encode = Schema.encodeSync(EntryJson)
const decode = Schema.decodeUnknown(EntryJson)

export class ServerEntries extends Context.Tag("@garrison/plugins/ServerEntries")<ServerEntries, ServerEntriesShape>() {
  static readonly layer: Layer.Layer<ServerEntries, never, SqlClient.SqlClient> = Layer.effect(
    ServerEntries,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms).toISOString())
      const decodeRow = (row: Row) =>
        decode(row.entry).pipe(Effect.mapError((e) => storeError(`server ${row.id} is unreadable`)({ message: e.message })))

      const exists = (id: string) =>
        sql<{ id: string }>`SELECT id FROM servers WHERE id = ${id}`.pipe(Effect.map((rows) => rows.length > 0))

      const write = (entry: ServerEntry) =>
        Effect.gen(function* () {
          const at = yield* now
          if (yield* exists(entry.id)) {
            yield* sql`UPDATE servers SET name = ${entry.name}, entry = ${encode(entry)}, updated_at = ${at} WHERE id = ${entry.id}`
          } else {
            yield* sql`INSERT INTO servers (id, name, entry, created_at, updated_at)
              VALUES (${entry.id}, ${entry.name}, ${encode(entry)}, ${at}, ${at})`
          }
        })

      const requireEntry = (id: string) =>
        exists(id).pipe(
          Effect.mapError(storeError("read server")),
          Effect.filterOrFail(
            (found) => found,
            () => new ServerNotFound({ serverId: id })
          )
        )

      return ServerEntries.of({
        list: sql<Row>`SELECT id, entry FROM servers ORDER BY created_at, id`.pipe(
          Effect.mapError(storeError("list servers")),
          Effect.flatMap((rows) => Effect.forEach(rows, decodeRow))
        ),
        get: (id) =>
          sql<Row>`SELECT id, entry FROM servers WHERE id = ${id}`.pipe(
            Effect.mapError(storeError("read server")),
            Effect.flatMap((rows): Effect.Effect<ServerEntry, ServerNotFound | ServerStoreError> =>
              rows[0] === undefined ? Effect.fail(new ServerNotFound({ serverId: id })) : decodeRow(rows[0])
            )
          ),
        insert: (entry) => write(entry).pipe(sql.withTransaction, Effect.mapError(storeError("create server"))),
        update: (entry) =>
          requireEntry(entry.id).pipe(
            Effect.zipRight(write(entry).pipe(sql.withTransaction, Effect.mapError(storeError("update server"))))
          ),
        remove: (id) =>
          requireEntry(id).pipe(
            Effect.zipRight(
              sql`DELETE FROM servers WHERE id = ${id}`.pipe(Effect.asVoid, Effect.mapError(storeError("delete server")))
            )
          ),
        upsertAll: (entries) =>
          Effect.forEach(entries, write, { discard: true }).pipe(
            sql.withTransaction,
            Effect.mapError(storeError("restore servers"))
          )
      })
    })
  )
}
