/**
 * The stored server entries: the one place other plugins (scheduler, logs,
 * bans, priority) list them. Entries are handed out whole, RCON password
 * included (the actors connect with it; only HTTP views mask it); in the
 * database the password is sealed (sealing.ts). One entry per install
 * folder: a write that would give a folder a second entry fails with
 * `InstallDirInUse` naming the first (writes are serialised, so two racing
 * creates cannot both pass the check).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import {
  describePorts,
  GarrisonConfig,
  hostFolders,
  portsOf,
  SEALED_PREFIX,
  SealedSecrets,
  ServerEntry,
  ServerNotFound,
  type StartupError
} from "@garrison/runtime"
import type * as ConfigError from "effect/ConfigError"
import { InstallDirInUse, InstallDirReserved, PortsInUse, type ServerStoreError, storeError } from "./errors.js"
import { firstPortClash, onFreeSlot } from "./internal/entryPorts.js"
import { entryNearFolder, installKey, reservedFolderProblem } from "./internal/installFolder.js"
import { StoredEntry } from "./internal/storedEntry.js"
import { describeOpenFailure, openEntry, sealEntry, SERVERS_KEY } from "./sealing.js"

export interface ServerEntriesShape {
  /** Every entry, in creation order. The same array until an entry changes (compare by identity to detect changes). */
  readonly list: Effect.Effect<ReadonlyArray<ServerEntry>, ServerStoreError>
  readonly get: (serverId: string) => Effect.Effect<ServerEntry, ServerNotFound | ServerStoreError>
  /**
   * Stores a new entry and gives it back. Fails with `InstallDirInUse` when
   * another entry has the same install folder, `PortsInUse` when another
   * takes one of its ports. With `freeGamePort`, a taken game port moves up
   * to the first free slot (2402, 2502, ...) instead.
   */
  readonly insert: (
    entry: ServerEntry,
    options?: { readonly freeGamePort?: boolean }
  ) => Effect.Effect<ServerEntry, ServerStoreError | InstallDirInUse | InstallDirReserved | PortsInUse>
  /**
   * Fails with `InstallDirInUse` when the entry moves to (or into, or
   * around) a folder another entry has, `InstallDirReserved` when it moves
   * into a system folder or one of Garrison's own, `PortsInUse` when its new
   * ports clash.
   */
  readonly update: (entry: ServerEntry) => Effect.Effect<void, ServerNotFound | ServerStoreError | InstallDirInUse | InstallDirReserved | PortsInUse>
  readonly remove: (serverId: string) => Effect.Effect<void, ServerNotFound | ServerStoreError>
  /**
   * Stored rows that cannot be read as an entry (written by a newer version,
   * or damaged): kept, shown by `GET /api/servers` as `invalid` with the
   * reason, and removable; never handed to an actor. The same array until
   * one is removed.
   */
  readonly unreadable: Effect.Effect<ReadonlyArray<UnreadableEntry>>
  /** Inserts or replaces each entry, all in one transaction; nothing when one would share a folder (`InstallDirInUse`). */
  readonly upsertAll: (entries: ReadonlyArray<ServerEntry>) => Effect.Effect<void, ServerStoreError | InstallDirInUse | InstallDirReserved | PortsInUse>
}

interface Row {
  readonly id: string
  readonly name: string
  readonly entry: string
}

/** A stored row that does not read as an entry. */
export interface UnreadableEntry {
  readonly _tag: "UnreadableEntry"
  readonly id: string
  readonly name: string
  /** Its game port, when the row still says one. */
  readonly gamePort: number
  /** Why it does not read, for the person who must fix or delete it. */
  readonly reason: string
}

const gamePortIn = (json: string): number => {
  try {
    const port = (JSON.parse(json) as { gamePort?: unknown }).gamePort
    return typeof port === "number" && Number.isInteger(port) && port >= 1 && port <= 65535 ? port : 0
  } catch {
    return 0
  }
}

// Written whole as today's entry; read with defaults for fields older versions did not write.
const encodeJson = Schema.encodeSync(Schema.parseJson(ServerEntry))
const decode = Schema.decodeUnknown(StoredEntry)

/**
 * The first entry of each install folder. New entries never share one, but
 * entries stored before that rule may, and files that live in it
 * (`ban.txt`, `priority.txt`) are one file for all of them: write each once.
 */
export const oneEntryPerInstall = (entries: ReadonlyArray<ServerEntry>): ReadonlyArray<ServerEntry> => [
  ...new Map(entries.map((entry) => [entry.installDir, entry] as const)).values()
]

export class ServerEntries extends Context.Tag("@garrison/plugins/ServerEntries")<ServerEntries, ServerEntriesShape>() {
  static readonly layer: Layer.Layer<ServerEntries, StartupError | ConfigError.ConfigError | ServerStoreError, SqlClient.SqlClient | SealedSecrets | GarrisonConfig> = Layer.effect(
    ServerEntries,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const folders = yield* hostFolders
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms).toISOString())
      // Before the port opens: a missing key while sealed passwords are stored stops the start (one line).
      const [sealedRows] = yield* sql<{ readonly n: number }>`SELECT COUNT(*) AS n FROM servers
        WHERE entry LIKE ${`%${SEALED_PREFIX}%`}`.pipe(Effect.mapError(storeError("count the sealed entries")))
      const box = yield* (yield* SealedSecrets).box(SERVERS_KEY, {
        sealedValuesExist: Number(sealedRows?.n ?? 0) > 0,
        sealedWhat: "RCON passwords and agent keys"
      })
      const encode = (entry: ServerEntry) => encodeJson(sealEntry(box, entry))
      const decodeRow = (row: Row) =>
        decode(row.entry).pipe(
          Effect.mapError((e) => storeError(`server ${row.id} is unreadable`)({ message: e.message })),
          Effect.flatMap((stored) => {
            // The entry stays (its server may be running); what did not open waits until it is entered again.
            const { entry, failed } = openEntry(box, stored)
            return Effect.as(
              Effect.forEach(
                failed,
                ({ field, failure }) =>
                  Effect.logError(`server ${row.id}: its stored ${field} ${describeOpenFailure(failure)}; enter the ${field} again`),
                { discard: true }
              ),
              entry
            )
          })
        )

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

      /**
       * After writing `incoming`, would one of its folders be reserved (a
       * system folder, Garrison's own), or be, hold or lie inside another
       * entry's? Entries stored before these rules are not this write's doing.
       */
      const folderConflict = (incoming: ReadonlyArray<ServerEntry>): InstallDirInUse | InstallDirReserved | undefined => {
        // Stored entries keep their place (an update replaces in place); new ones come after.
        const after = new Map(cache)
        for (const entry of incoming) after.set(entry.id, entry)
        const ordered = [...after.values()]
        const incomingIds = new Set(incoming.map((entry) => entry.id))
        // Each folder resolved once per write (a restore of many entries compares each with all).
        const keys = new Map<string, string>()
        const keyOf = (installDir: string) => {
          let key = keys.get(installDir)
          if (key === undefined) keys.set(installDir, (key = installKey(installDir)))
          return key
        }
        for (const [index, entry] of ordered.entries()) {
          if (!incomingIds.has(entry.id)) continue
          const reason = reservedFolderProblem(entry.installDir, folders)
          if (reason !== undefined) return new InstallDirReserved({ installDir: entry.installDir, reason })
          // Against every stored entry, and the incoming ones before it: of two new entries on one folder, the first keeps it.
          const others = ordered.filter((other, at) => !incomingIds.has(other.id) || at < index)
          const near = entryNearFolder(others, entry.installDir, entry.id, keyOf)
          if (near !== undefined) {
            return new InstallDirInUse({ installDir: entry.installDir, serverId: near.entry.id, name: near.entry.name, relation: near.relation })
          }
        }
        return undefined
      }

      const writes = yield* Effect.makeSemaphore(1)
      const checkFolders = (incoming: ReadonlyArray<ServerEntry>) =>
        Effect.suspend(() => {
          const conflict = folderConflict(incoming)
          return conflict === undefined ? Effect.void : Effect.fail(conflict)
        })
      // Clashes among entries stored before this rule are not this write's doing: only `incoming` is checked.
      const checkPorts = (incoming: ReadonlyArray<ServerEntry>) =>
        Effect.suspend(() => {
          const after = new Map(cache)
          for (const entry of incoming) after.set(entry.id, entry)
          const clash = firstPortClash(incoming, after.values())
          return clash === undefined
            ? Effect.void
            : Effect.fail(
                new PortsInUse({
                  field: clash.port.field,
                  port: clash.port.port,
                  serverId: clash.other.id,
                  name: clash.other.name,
                  ports: describePorts(clash.other)
                })
              )
        })
      const samePorts = (a: ServerEntry, b: ServerEntry) => portsOf(a).every((p, i) => p.port === portsOf(b)[i]?.port)

      const requireEntry = (id: string) =>
        exists(id).pipe(
          Effect.mapError(storeError("read server")),
          Effect.filterOrFail(
            (found) => found,
            () => ServerNotFound.of(id)
          )
        )

      // This plugin is the table's only writer, so a cache decoded once serves every read
      // (listing 1,000 entries must not decode 1,000 JSON documents per request).
      const cache = new Map<string, ServerEntry>()
      const unreadable = new Map<string, UnreadableEntry>()
      let unreadableSnapshot: ReadonlyArray<UnreadableEntry> | undefined
      const rows = yield* sql<Row>`SELECT id, name, entry FROM servers ORDER BY created_at, id`.pipe(Effect.mapError(storeError("read the server entries")))
      for (const row of rows) {
        const decoded = yield* Effect.either(decodeRow(row))
        if (decoded._tag === "Right") cache.set(row.id, decoded.right)
        else {
          const reason = decoded.left.message
          unreadable.set(row.id, { _tag: "UnreadableEntry", id: row.id, name: row.name, gamePort: gamePortIn(row.entry), reason })
          yield* Effect.logError(`server "${row.name}" (${row.id}) cannot be read and is listed as invalid: ${reason}`)
        }
      }
      // `list` hands out one array until the next change, so readers can tell "unchanged" by identity.
      let snapshot: ReadonlyArray<ServerEntry> | undefined
      const remember = (entry: ServerEntry) =>
        Effect.sync(() => {
          cache.set(entry.id, entry)
          snapshot = undefined
        })

      return ServerEntries.of({
        list: Effect.sync(() => (snapshot ??= [...cache.values()])),
        unreadable: Effect.sync(() => (unreadableSnapshot ??= [...unreadable.values()])),
        get: (id) =>
          Effect.suspend(() => {
            const entry = cache.get(id)
            return entry === undefined ? Effect.fail(ServerNotFound.of(id)) : Effect.succeed(entry)
          }),
        insert: (requested, options) =>
          Effect.gen(function* () {
            yield* checkFolders([requested])
            const entry = options?.freeGamePort === true ? onFreeSlot(requested, cache.values()) : requested
            yield* checkPorts([entry])
            yield* write(entry).pipe(sql.withTransaction, Effect.mapError(storeError("create server")))
            yield* remember(entry)
            return entry
          }).pipe(writes.withPermits(1)),
        update: (entry) =>
          requireEntry(entry.id).pipe(
            // Only a move is checked: an entry stored before the rule beside another stays editable.
            Effect.zipRight(
              Effect.suspend(() => {
                const before = cache.get(entry.id)
                return before !== undefined && installKey(before.installDir) === installKey(entry.installDir)
                  ? Effect.void
                  : checkFolders([entry])
              })
            ),
            // Likewise only new ports are checked.
            Effect.zipRight(
              Effect.suspend(() => {
                const before = cache.get(entry.id)
                return before !== undefined && samePorts(before, entry) ? Effect.void : checkPorts([entry])
              })
            ),
            Effect.zipRight(write(entry).pipe(sql.withTransaction, Effect.mapError(storeError("update server")))),
            Effect.zipRight(remember(entry)),
            writes.withPermits(1)
          ),
        // One statement decides who deleted the row, so two racing deletes cannot both succeed.
        remove: (id) =>
          sql<{ readonly id: string }>`DELETE FROM servers WHERE id = ${id} RETURNING id`.pipe(
            Effect.mapError(storeError("delete server")),
            Effect.filterOrFail(
              (rows) => rows.length > 0,
              () => ServerNotFound.of(id)
            ),
            Effect.zipRight(
              Effect.sync(() => {
                cache.delete(id)
                snapshot = undefined
                if (unreadable.delete(id)) unreadableSnapshot = undefined
              })
            )
          ),
        upsertAll: (entries) =>
          checkFolders(entries).pipe(
            Effect.zipRight(checkPorts(entries)),
            Effect.zipRight(
              Effect.forEach(entries, write, { discard: true }).pipe(sql.withTransaction, Effect.mapError(storeError("restore servers")))
            ),
            Effect.zipRight(Effect.forEach(entries, remember, { discard: true })),
            writes.withPermits(1)
          )
      })
    })
  )
}
