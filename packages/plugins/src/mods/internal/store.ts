/**
 * The mods tables: which mods each server has (`server_mods`) and which
 * versions the shared download folder holds (`mod_cache`). Plain rows in,
 * `Mod` out; the service decides what to write.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import type * as SqlError from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"
import { Mod, type ModType, PendingUpdate } from "../contract/Api.js"
import { storeError } from "../errors.js"

interface ModRow {
  readonly server_id: string
  readonly workshop_id: string
  readonly folder: string
  readonly title: string
  readonly mod_type: string
  readonly enabled: number | boolean
  readonly load_order: number
  readonly pinned: number | boolean
  readonly size_bytes: number
  readonly keys: string
  readonly installed_at: string
  readonly downloaded_at: string
  readonly workshop_updated_at: string | null
  readonly pending_updated_at: string | null
  readonly checked_at: string | null
  readonly held_updated_at: string | null
}

const keysOf = (json: string): ReadonlyArray<string> => {
  try {
    const parsed: unknown = JSON.parse(json)
    return Array.isArray(parsed) ? parsed.filter((k): k is string => typeof k === "string") : []
  } catch {
    return []
  }
}

const toMod = (row: ModRow): Mod =>
  new Mod({
    workshopId: row.workshop_id,
    name: row.folder,
    title: row.title,
    type: row.mod_type === "server" ? "server" : "client",
    enabled: Boolean(row.enabled),
    loadOrder: Number(row.load_order),
    pinned: Boolean(row.pinned),
    sizeBytes: Number(row.size_bytes),
    keys: keysOf(row.keys),
    installedAt: row.installed_at,
    downloadedAt: row.downloaded_at,
    workshopUpdatedAt: row.workshop_updated_at,
    pendingUpdate:
      row.pending_updated_at === null ? null : new PendingUpdate({ workshopUpdatedAt: row.pending_updated_at, checkedAt: row.checked_at ?? row.pending_updated_at }),
    heldUpdate: row.held_updated_at ?? null
  })

export interface NewMod {
  readonly serverId: string
  readonly workshopId: string
  readonly folder: string
  readonly title: string
  readonly type: ModType
  readonly sizeBytes: number
  readonly keys: ReadonlyArray<string>
  readonly at: string
  readonly downloadedAt: string
  readonly workshopUpdatedAt: string | null
}

export interface CachedItem {
  readonly workshopId: string
  readonly title: string
  readonly sizeBytes: number
  readonly downloadedAt: string
  readonly workshopUpdatedAt: string | null
}

export const makeModStore = (sql: SqlClient.SqlClient) => {
  const fail = (what: string) => <A, R>(effect: Effect.Effect<A, SqlError.SqlError, R>) => Effect.mapError(effect, storeError(what))

  const list = (serverId: string) =>
    sql<ModRow>`SELECT * FROM server_mods WHERE server_id = ${serverId} ORDER BY load_order, workshop_id`.pipe(
      Effect.map((rows) => rows.map(toMod)),
      fail("read mods")
    )

  /** Renumbers load orders 1..n in the given order (workshop ids). */
  const setOrder = (serverId: string, order: ReadonlyArray<string>) =>
    Effect.forEach(order, (workshopId, i) => sql`UPDATE server_mods SET load_order = ${i + 1} WHERE server_id = ${serverId} AND workshop_id = ${workshopId}`, {
      discard: true
    })

  return {
    list,
    /** Every server's mods (for the cache's "used by" and update checks). */
    all: sql<ModRow>`SELECT * FROM server_mods`.pipe(
      Effect.map((rows) => rows.map((row) => ({ serverId: row.server_id, mod: toMod(row) }))),
      fail("read mods")
    ),
    insert: (mod: NewMod) =>
      Effect.gen(function* () {
        const [last] = yield* sql<{ readonly n: number | null }>`SELECT MAX(load_order) AS n FROM server_mods WHERE server_id = ${mod.serverId}`
        yield* sql`INSERT INTO server_mods (server_id, workshop_id, folder, title, mod_type, enabled, load_order, pinned, size_bytes, keys,
            installed_at, downloaded_at, workshop_updated_at, pending_updated_at, checked_at, held_updated_at)
          VALUES (${mod.serverId}, ${mod.workshopId}, ${mod.folder}, ${mod.title}, ${mod.type}, ${1}, ${Number(last?.n ?? 0) + 1}, ${0},
            ${mod.sizeBytes}, ${JSON.stringify(mod.keys)}, ${mod.at}, ${mod.downloadedAt}, ${mod.workshopUpdatedAt}, ${null}, ${null}, ${null})`
      }).pipe(sql.withTransaction, fail("store a mod")),
    /** The files were replaced by a newer download: the pending update is applied (and no version is held any more). */
    replaced: (serverId: string, workshopId: string, fields: { sizeBytes: number; keys: ReadonlyArray<string>; title: string; downloadedAt: string; workshopUpdatedAt: string | null }) =>
      sql`UPDATE server_mods SET size_bytes = ${fields.sizeBytes}, keys = ${JSON.stringify(fields.keys)}, title = ${fields.title},
          downloaded_at = ${fields.downloadedAt}, workshop_updated_at = ${fields.workshopUpdatedAt}, pending_updated_at = ${null},
          held_updated_at = ${null}
        WHERE server_id = ${serverId} AND workshop_id = ${workshopId}`.pipe(fail("store a mod")),
    /** The files are `before`'s again (a rollback); `held` is the version that was rolled back. */
    restored: (serverId: string, before: Mod, held: string | null) =>
      sql`UPDATE server_mods SET size_bytes = ${before.sizeBytes}, keys = ${JSON.stringify(before.keys)}, title = ${before.title},
          downloaded_at = ${before.downloadedAt}, workshop_updated_at = ${before.workshopUpdatedAt},
          pending_updated_at = ${before.pendingUpdate?.workshopUpdatedAt ?? held}, checked_at = ${before.pendingUpdate?.checkedAt ?? null},
          held_updated_at = ${held}
        WHERE server_id = ${serverId} AND workshop_id = ${before.workshopId}`.pipe(fail("store a mod")),
    remove: (serverId: string, workshopId: string) =>
      Effect.gen(function* () {
        yield* sql`DELETE FROM server_mods WHERE server_id = ${serverId} AND workshop_id = ${workshopId}`
        const rest = yield* sql<{ readonly workshop_id: string }>`SELECT workshop_id FROM server_mods WHERE server_id = ${serverId} ORDER BY load_order`
        yield* setOrder(serverId, rest.map((r) => r.workshop_id))
      }).pipe(sql.withTransaction, fail("remove a mod")),
    removeServer: (serverId: string) => sql`DELETE FROM server_mods WHERE server_id = ${serverId}`.pipe(fail("remove a server's mods")),
    patch: (serverId: string, workshopId: string, fields: { enabled?: boolean; pinned?: boolean; type?: ModType }) =>
      Effect.gen(function* () {
        if (fields.enabled !== undefined) yield* sql`UPDATE server_mods SET enabled = ${fields.enabled ? 1 : 0} WHERE server_id = ${serverId} AND workshop_id = ${workshopId}`
        if (fields.pinned !== undefined) yield* sql`UPDATE server_mods SET pinned = ${fields.pinned ? 1 : 0} WHERE server_id = ${serverId} AND workshop_id = ${workshopId}`
        if (fields.type !== undefined) yield* sql`UPDATE server_mods SET mod_type = ${fields.type} WHERE server_id = ${serverId} AND workshop_id = ${workshopId}`
      }).pipe(sql.withTransaction, fail("change a mod")),
    setOrder: (serverId: string, order: ReadonlyArray<string>) => setOrder(serverId, order).pipe(sql.withTransaction, fail("reorder mods")),
    setPending: (serverId: string, workshopId: string, pendingUpdatedAt: string | null, checkedAt: string) =>
      sql`UPDATE server_mods SET pending_updated_at = ${pendingUpdatedAt}, checked_at = ${checkedAt}
        WHERE server_id = ${serverId} AND workshop_id = ${workshopId}`.pipe(fail("store an update check")),
    cached: (workshopId: string) =>
      sql<{ readonly workshop_id: string; readonly title: string; readonly size_bytes: number; readonly downloaded_at: string; readonly workshop_updated_at: string | null }>`
        SELECT * FROM mod_cache WHERE workshop_id = ${workshopId}`.pipe(
        Effect.map((rows) =>
          rows[0] === undefined
            ? undefined
            : ({
                workshopId: rows[0].workshop_id,
                title: rows[0].title,
                sizeBytes: Number(rows[0].size_bytes),
                downloadedAt: rows[0].downloaded_at,
                workshopUpdatedAt: rows[0].workshop_updated_at
              } satisfies CachedItem)
        ),
        fail("read the download cache")
      ),
    cachedAll: sql<{ readonly workshop_id: string; readonly size_bytes: number }>`SELECT workshop_id, size_bytes FROM mod_cache`.pipe(
      fail("read the download cache")
    ),
    putCached: (item: CachedItem) =>
      sql`INSERT INTO mod_cache (workshop_id, title, size_bytes, downloaded_at, workshop_updated_at)
        VALUES (${item.workshopId}, ${item.title}, ${item.sizeBytes}, ${item.downloadedAt}, ${item.workshopUpdatedAt})
        ON CONFLICT (workshop_id) DO UPDATE SET title = excluded.title, size_bytes = excluded.size_bytes,
          downloaded_at = excluded.downloaded_at, workshop_updated_at = excluded.workshop_updated_at`.pipe(fail("store the download cache")),
    dropCached: (workshopId: string) => sql`DELETE FROM mod_cache WHERE workshop_id = ${workshopId}`.pipe(fail("store the download cache"))
  }
}

export type ModStore = ReturnType<typeof makeModStore>
