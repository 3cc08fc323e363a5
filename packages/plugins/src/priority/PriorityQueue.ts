/**
 * The `PriorityQueue` service: the entries in `priority_entries`, and
 * every server's `priority.txt` kept equal to the active ones. Each change
 * is stored, then synced into all servers, then published as
 * `PriorityChanged`. Exported, so other plugins (a VIP store, a chat bot)
 * can grant priority without HTTP.
 *
 * `priority.txt` is one registration with the runtime's `ServerFileSync`,
 * which also writes it before each start, at controller start and when the
 * next entry expires; a change here syncs every server before it answers.
 */
import * as SqlError from "@effect/sql/SqlError"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import {
  BULK_WRITE_BACKUP_ROWS,
  Database,
  effectiveLimit,
  EventBus,
  type InvalidCursor,
  type JsonChunks,
  keysetChunks,
  type PageOf,
  readExpiry,
  ServerFileSync,
  type ServerFileSyncError
} from "@garrison/runtime"
import * as Either from "effect/Either"
import { randomUUID } from "node:crypto"
import {
  PriorityCleanupResult,
  type PriorityEntry,
  type PriorityEntryInput,
  type PriorityRole,
  type PrioritySource,
  type PriorityEntryPatch,
  PriorityImportResult,
  type PriorityListParams,
  PriorityPage,
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  playerNameOf
} from "./contract/Api.js"
import {
  InvalidPriorityEntry,
  PriorityEntryExists,
  PriorityEntryNotFound,
  type PriorityStoreError,
  storeError
} from "./errors.js"
import { type PriorityChangeAction, PriorityChanged } from "./events.js"
import { planImport } from "./internal/importing.js"
import { type EntryJsonRow, type EntryRow, iso, isActive, priorityPaging, toView } from "./internal/rows.js"
import { makeStore, type PageQuery } from "./internal/store.js"
import { PRIORITY_FILE, priorityFile } from "./internal/sync.js"

/** What another plugin grants without HTTP (a VIP store purchase): who, which role, for how long. */
export interface PriorityGrant {
  /** Steam64. */
  readonly platformId: string
  /** The entry's name when the grant makes a new one (an existing entry keeps its name). */
  readonly name: string
  readonly role: PriorityRole
  /** Days of priority; null: permanent. */
  readonly days: number | null
  readonly source: PrioritySource
  /** A new entry's `addedBy`. */
  readonly grantedBy: string
}

/**
 * `added`: a new entry (replacing an expired one the cleanup had not
 * removed yet), expiring `days` from now; `extended`: the player's active
 * entry, its expiry moved `days` past its current one (or made permanent),
 * with the grant's role and source; `kept`: the player's entry was already
 * permanent and stays as it was.
 */
export type PriorityGrantOutcome = "added" | "extended" | "kept"

export interface PriorityGrantResult {
  readonly entry: PriorityEntry
  readonly outcome: PriorityGrantOutcome
}

/** A grant written inside the caller's transaction, and what must follow its commit. */
export interface StagedPriorityGrant {
  readonly result: PriorityGrantResult
  /** Syncs every server's `priority.txt` and publishes `PriorityChanged`: run it after the caller's transaction committed. */
  readonly announce: Effect.Effect<void, PriorityStoreError>
}

export interface PriorityQueueShape {
  readonly list: (params: PriorityListParams) => Effect.Effect<PriorityPage, InvalidCursor | PriorityStoreError>
  /**
   * `list` as the route answers it: each entry's JSON written by the database
   * (rows are trusted on the way out; see the runtime's `JsonRows`).
   */
  readonly listJson: (params: PriorityListParams) => Effect.Effect<PageOf<EntryJsonRow>, InvalidCursor | PriorityStoreError>
  readonly get: (id: string) => Effect.Effect<PriorityEntry, PriorityEntryNotFound | PriorityStoreError>
  /** `addedBy` is who grants it (the caller's name over HTTP). */
  readonly add: (
    input: PriorityEntryInput,
    addedBy: string
  ) => Effect.Effect<PriorityEntry, InvalidPriorityEntry | PriorityEntryExists | PriorityStoreError>
  readonly update: (
    id: string,
    patch: PriorityEntryPatch
  ) => Effect.Effect<PriorityEntry, InvalidPriorityEntry | PriorityEntryNotFound | PriorityStoreError>
  readonly remove: (id: string) => Effect.Effect<void, PriorityEntryNotFound | PriorityStoreError>
  /** Every entry, oldest first, expired ones included. */
  readonly exportAll: Effect.Effect<ReadonlyArray<PriorityEntry>, PriorityStoreError>
  /** `exportAll` as the route streams it: chunks of entries' JSON, oldest first, one query each. */
  readonly exportJson: JsonChunks<PriorityStoreError, never>
  /** Checks each entry on its own, inserts the good ones in one transaction; `caller` is the default `addedBy`. */
  readonly importEntries: (body: ReadonlyArray<unknown>, caller: string) => Effect.Effect<PriorityImportResult, PriorityStoreError>
  /**
   * Adds or extends the player's entry (see `PriorityGrantOutcome`) in its
   * own transaction, then syncs every server and publishes `PriorityChanged`
   * (`added` or `updated`).
   */
  readonly grant: (grant: PriorityGrant) => Effect.Effect<PriorityGrantResult, PriorityStoreError>
  /**
   * `grant`'s write alone, as statements of the caller's transaction (run it
   * inside `sql.withTransaction`), so the caller's own rows (a purchase
   * record) commit with it or not at all; the caller runs `announce` after
   * its commit.
   */
  readonly grantWithin: (grant: PriorityGrant) => Effect.Effect<StagedPriorityGrant, PriorityStoreError>
  /** Deletes entries whose `expiresAt` has passed; syncs the servers when any were. */
  readonly cleanup: Effect.Effect<PriorityCleanupResult, PriorityStoreError>
  /** Steam64 ids of the entries not expired now, oldest first: what `priority.txt` holds. */
  readonly activePlatformIds: Effect.Effect<ReadonlyArray<string>, PriorityStoreError>
  /** Writes one server's `priority.txt` (the start hook). */
  readonly syncServer: (installDir: string) => Effect.Effect<void, ServerFileSyncError | PriorityStoreError>
  /** Writes every server's `priority.txt`, all at once; a server that cannot be written is logged. */
  readonly syncAll: Effect.Effect<void, PriorityStoreError>
}

/** Entries per chunk of a streamed export: one query each, and the response is written between them. */
export const EXPORT_CHUNK = 200

export class PriorityQueue extends Context.Tag("@garrison/plugins/PriorityQueue")<PriorityQueue, PriorityQueueShape>() {
  static readonly make = Effect.gen(function* () {
    const store = yield* makeStore
    const fileSync = yield* ServerFileSync
    const bus = yield* EventBus
    const database = yield* Database
    const now = Clock.currentTimeMillis
    const nowIso = Effect.map(now, iso)

    const activePlatformIds = Effect.flatMap(nowIso, store.activePlatformIds)

    // One sync at a time, each reading the latest entries (the registration's lock): an older list never overwrites a newer one.
    const file = yield* fileSync.register({
      path: PRIORITY_FILE,
      owner: "priority",
      render: (at) => Effect.map(store.activePlatformIds(iso(at)), priorityFile),
      // An entry whose expiresAt passes leaves the file then, before the cleanup job removes it.
      nextChange: (at) => store.nextExpiry(iso(at))
    })

    const syncServer: PriorityQueueShape["syncServer"] = file.writeFolder

    // A folder that cannot be written is logged by the sync, which carries on with the others.
    const syncAll: PriorityQueueShape["syncAll"] = Effect.asVoid(file.syncAll)

    /**
     * In the change's transaction: its event, staged, so its durable consumers (webhooks' outbox) commit with it.
     * After the commit, `changed` with the same event.
     */
    const stageChange = (action: PriorityChangeAction, rows: ReadonlyArray<EntryRow>) =>
      Effect.suspend(() => {
        const event = new PriorityChanged({ action, ids: rows.map((r) => r.id), platformIds: rows.map((r) => r.platformId) })
        return Effect.as(bus.stage(event), event)
      })

    /** After a stored change: sync every server, then tell the other plugins. */
    const changed = (event: PriorityChanged) => Effect.zipRight(syncAll, bus.publish(event))

    /** One transaction; a failure to commit is a store error like any other. */
    const transaction = <A, E, R>(operation: string, body: Effect.Effect<A, E, R>) =>
      body.pipe(
        store.sql.withTransaction,
        Effect.catchIf(
          (e): e is SqlError.SqlError => e instanceof SqlError.SqlError,
          (e) => Effect.fail(storeError(operation)(e))
        )
      )

    const find = (id: string) =>
      Effect.flatMap(store.byId(id), Option.match({ onNone: () => Effect.fail(new PriorityEntryNotFound({ id })), onSome: Effect.succeed }))

    const invalidExpiry = (problem: string) => Effect.fail(new InvalidPriorityEntry({ field: "expiresAt", message: `expiresAt: ${problem}` }))

    /**
     * `expiresAt` as a ban reads it (the runtime's `readExpiry`: an ISO-8601 date or date-time, or a duration from
     * now); it must lie in the future; stored in UTC.
     */
    const checkExpiry = (expiresAt: string | null) =>
      Effect.flatMap(now, (ms) => {
        if (expiresAt === null) return Effect.succeed(null)
        const at = readExpiry(expiresAt, ms, "entry")
        if (Either.isLeft(at)) return invalidExpiry(at.left)
        return at.right <= ms ? invalidExpiry("must be in the future (or null for permanent)") : Effect.succeed(iso(at.right))
      })

    /** The body's player name (`playerName`, or the deprecated `name`), or the refusal naming the field. */
    const nameOf = (body: Parameters<typeof playerNameOf>[0], required: boolean) => {
      const named = playerNameOf(body, required)
      return "field" in named ? Effect.fail(new InvalidPriorityEntry(named)) : Effect.succeed(named.playerName)
    }

    /** The list's filters, cursor and limit, shared by `list` and `listJson`. */
    const listQuery = (params: PriorityListParams) =>
      Effect.gen(function* () {
        const limit = effectiveLimit(params.limit, { defaultLimit: DEFAULT_PAGE_SIZE, maxLimit: MAX_PAGE_SIZE })
        const after = yield* priorityPaging.decode(params.cursor)
        const query: PageQuery = {
          ...(params.role === undefined ? {} : { role: params.role }),
          ...(params.active === undefined ? {} : { active: params.active === "true" }),
          ...(after === undefined ? {} : { after }),
          // One more than asked says whether another page follows.
          limit: limit + 1,
          nowIso: yield* nowIso
        }
        return { query, limit }
      })

    const list: PriorityQueueShape["list"] = (params) =>
      Effect.gen(function* () {
        const { query, limit } = yield* listQuery(params)
        const page = priorityPaging.page(yield* store.page(query), limit)
        return new PriorityPage({ items: page.items.map(toView), nextCursor: page.nextCursor })
      })

    const listJson: PriorityQueueShape["listJson"] = (params) =>
      Effect.gen(function* () {
        const { query, limit } = yield* listQuery(params)
        return priorityPaging.page(yield* store.pageJson(query), limit)
      })

    const exportJson: PriorityQueueShape["exportJson"] = keysetChunks({
      size: EXPORT_CHUNK,
      positionOf: (row: EntryJsonRow) => row.seq,
      read: store.chunkJson
    })

    const add: PriorityQueueShape["add"] = (input, addedBy) =>
      Effect.gen(function* () {
        const name = (yield* nameOf(input, true)) ?? ""
        const expiresAt = yield* checkExpiry(input.expiresAt)
        const at = yield* nowIso
        const fields = {
          id: randomUUID(),
          platformId: input.platformId,
          name,
          role: input.role,
          expiresAt,
          addedBy,
          addedAt: at,
          source: "manual"
        }
        const { row, event } = yield* transaction("add a priority entry", Effect.gen(function* () {
          yield* store.writeLock
          const existing = yield* store.byPlatformId(input.platformId)
          if (Option.isSome(existing)) {
            // An expired entry the cleanup has not reached yet no longer counts.
            if (isActive(existing.value, at)) {
              return yield* new PriorityEntryExists({ platformId: input.platformId, id: existing.value.id })
            }
            yield* store.remove(existing.value.id)
          }
          const row: EntryRow = { ...fields, seq: yield* store.nextSeq }
          yield* store.insertRows([row])
          return { row, event: yield* stageChange("added", [row]) }
        }))
        yield* changed(event)
        return toView(row)
      })

    const update: PriorityQueueShape["update"] = (id, patch) =>
      Effect.gen(function* () {
        const name = yield* nameOf(patch, false)
        const current = yield* find(id)
        const expiresAt = patch.expiresAt === undefined ? current.expiresAt : yield* checkExpiry(patch.expiresAt)
        const row: EntryRow = { ...current, name: name ?? current.name, role: patch.role ?? current.role, expiresAt }
        const event = yield* transaction("change a priority entry", Effect.zipRight(store.update(row), stageChange("updated", [row])))
        yield* changed(event)
        return toView(row)
      })

    const remove: PriorityQueueShape["remove"] = (id) =>
      Effect.gen(function* () {
        const current = yield* find(id)
        const event = yield* transaction("remove a priority entry", Effect.zipRight(store.remove(id), stageChange("removed", [current])))
        yield* changed(event)
      })

    const importEntries: PriorityQueueShape["importEntries"] = (body, caller) =>
      Effect.gen(function* () {
        const nowMs = yield* now
        const plan = yield* transaction("import priority entries", Effect.gen(function* () {
          yield* store.writeLock
          const existing = yield* store.platformIds
          const plan = planImport(body, { existing, nowMs, caller, newId: randomUUID, firstSeq: yield* store.nextSeq })
          yield* store.insertRows(plan.rows)
          return { ...plan, event: plan.rows.length > 0 ? yield* stageChange("imported", plan.rows) : undefined }
        }))
        if (plan.event !== undefined) yield* changed(plan.event)
        // A batch this size is worth a backup now rather than at the next interval (queued, never waited for).
        if (plan.rows.length >= BULK_WRITE_BACKUP_ROWS) yield* database.requestBackup("priority-import")
        return new PriorityImportResult({ added: plan.rows.length, skipped: plan.skipped, errors: plan.errors })
      })

    const DAY_MS = 86_400_000

    const grantWithin: PriorityQueueShape["grantWithin"] = (grant) =>
      Effect.gen(function* () {
        const nowMs = yield* now
        const at = iso(nowMs)
        // Taken before the player's entry is read: two grants for one player extend one after the other.
        yield* store.writeLock
        const existing = yield* store.byPlatformId(grant.platformId)
        // Staged in the caller's transaction; announced after its commit.
        const staged = (row: EntryRow, outcome: PriorityGrantOutcome): Effect.Effect<StagedPriorityGrant> =>
          outcome === "kept"
            ? Effect.succeed({ result: { entry: toView(row), outcome }, announce: Effect.void })
            : Effect.map(stageChange(outcome === "added" ? "added" : "updated", [row]), (event) => ({
                result: { entry: toView(row), outcome },
                announce: changed(event)
              }))
        if (Option.isSome(existing) && isActive(existing.value, at)) {
          const current = existing.value
          if (current.expiresAt === null) return yield* staged(current, "kept")
          // From the current expiry (later than now: the entry is active), never from now: a renewal adds its days.
          const expiresAt = grant.days === null ? null : iso(Date.parse(current.expiresAt) + grant.days * DAY_MS)
          const row: EntryRow = { ...current, role: grant.role, expiresAt, source: grant.source }
          yield* store.update(row)
          return yield* staged(row, "extended")
        }
        // An expired entry the cleanup has not reached yet no longer counts: a new one replaces it.
        if (Option.isSome(existing)) yield* store.remove(existing.value.id)
        const row: EntryRow = {
          id: randomUUID(),
          seq: yield* store.nextSeq,
          platformId: grant.platformId,
          name: grant.name,
          role: grant.role,
          expiresAt: grant.days === null ? null : iso(nowMs + grant.days * DAY_MS),
          addedBy: grant.grantedBy,
          addedAt: at,
          source: grant.source
        }
        yield* store.insertRows([row])
        return yield* staged(row, "added")
      })

    const grant: PriorityQueueShape["grant"] = (input) =>
      Effect.gen(function* () {
        const staged = yield* transaction("grant priority", grantWithin(input))
        yield* staged.announce
        return staged.result
      })

    const cleanup: PriorityQueueShape["cleanup"] = Effect.gen(function* () {
      const at = yield* nowIso
      const { removed, event } = yield* transaction("clean up priority entries", Effect.gen(function* () {
        const expired = yield* store.expired(at)
        yield* store.removeExpired(at)
        return { removed: expired, event: expired.length > 0 ? yield* stageChange("cleaned", expired) : undefined }
      }))
      if (event !== undefined) yield* changed(event)
      return new PriorityCleanupResult({ removed: removed.length, remaining: yield* store.count })
    })

    return PriorityQueue.of({
      list,
      listJson,
      get: (id) => Effect.map(find(id), toView),
      add,
      update,
      remove,
      exportAll: Effect.map(store.all, (rows) => rows.map(toView)),
      exportJson,
      importEntries,
      grant,
      grantWithin,
      cleanup,
      activePlatformIds,
      syncServer,
      syncAll
    })
  })

  /** Needs the kernel (`SqlClient`, `EventBus`, `Database`) and the servers plugin's `ServerFileSync`; the registration lasts as long as the layer. */
  static readonly layer = Layer.scoped(PriorityQueue, PriorityQueue.make)
}
