/**
 * The `Bans` service: the global ban database in `bans`. Every change
 * publishes an event, writes an audit row and wakes the ban-file sync.
 * Exported, so other plugins (trust, chat bots) can ban without HTTP.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type * as SqlError from "@effect/sql/SqlError"
import type * as Statement from "@effect/sql/Statement"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import {
  type AuditActor,
  auditActorFields,
  AuditTrail,
  BULK_WRITE_BACKUP_ROWS,
  Database,
  effectiveLimit,
  EventBus,
  type InvalidCursor,
  type JsonChunks,
  keysetChunks,
  GroupCommit,
  makeWriteCount,
  type PageOf,
  parsePlatformId
} from "@garrison/runtime"
import { randomUUID } from "node:crypto"
import { Ban, BanPage, type BanListParams, DEFAULT_PAGE_SIZE, ImportResult, MAX_PAGE_SIZE } from "./contract/Api.js"
import { BanExists, BanNotFound, type BanStoreError, InvalidBan, storeError } from "./errors.js"
import { BanAdded, BanRemoved, BansImported } from "./events.js"
import { banPaging, exportOrder, jsonPaging } from "./internal/cursor.js"
import { IMPORT_COLUMNS, IMPORT_WIDTH, planImport } from "./internal/importer.js"
import { type BanJsonRow, decodeBans, jsonColumns as jsonColumnsOf, SELECT_COLUMNS } from "./internal/rows.js"
import { iso, parseIso, readExpiry } from "./internal/time.js"

/** What a new ban needs; `platformId` is already Steam64. */
export interface NewBan {
  readonly platformId: string
  readonly playerName: string
  readonly reason: string
  /** ISO-8601 in the future, or a duration from now (`7d`, `12h`); null or absent: permanent. */
  readonly expiresAt?: string | null | undefined
  readonly source?: string
}

export interface BansShape {
  readonly list: (params: BanListParams) => Effect.Effect<BanPage, InvalidBan | InvalidCursor | BanStoreError>
  readonly get: (id: string) => Effect.Effect<Ban, BanNotFound | BanStoreError>
  /** `by`: who bans; the ban keeps their name as `bannedBy`, the audit row their id and name. */
  readonly add: (input: NewBan, by: AuditActor) => Effect.Effect<Ban, InvalidBan | BanExists | BanStoreError>
  readonly remove: (id: string, by: AuditActor) => Effect.Effect<Ban, BanNotFound | BanStoreError>
  /**
   * `list` as the route answers it: each ban's JSON written by the database
   * (rows are trusted on the way out; see the runtime's `JsonRows`).
   */
  readonly listJson: (params: BanListParams) => Effect.Effect<PageOf<BanJsonRow>, InvalidBan | InvalidCursor | BanStoreError>
  /** Every ban, oldest first. */
  readonly exportAll: Effect.Effect<ReadonlyArray<Ban>, BanStoreError>
  /** `exportAll` as the route streams it: chunks of bans' JSON, oldest first, one query each. */
  readonly exportJson: JsonChunks<BanStoreError, never>
  /** How many writes the table has had: equal counts, equal contents (an export kept in memory goes by it). */
  readonly writeCount: () => number
  readonly importMany: (entries: ReadonlyArray<unknown>, by: AuditActor) => Effect.Effect<ImportResult, BanStoreError>
  /** The ban in force for a player, if any. */
  readonly activeFor: (platformId: string) => Effect.Effect<Option.Option<Ban>, BanStoreError>

  // For the sync.
  /** Steam64 ids with a ban in force at `now`, sorted, each once. */
  readonly activeIds: (now: number) => Effect.Effect<ReadonlyArray<string>, BanStoreError>
  /** The earliest expiry strictly after `now`. */
  readonly nextExpiry: (now: number) => Effect.Effect<Option.Option<number>, BanStoreError>
  /** Completes at the next change (or at once when one happened since the last call). */
  readonly changed: Effect.Effect<void>
}

/**
 * Rows per multi-row INSERT of an import: 8 parameters each, 32,000 in all,
 * under SQLite's 32,766 and PostgreSQL's 65,535. Large chunks matter: each
 * statement costs a round through the SQL client, and 100,000 rows in 500s
 * were measurably slower than in 4,000s.
 */
export const INSERT_CHUNK = 4_000

/** Bans per chunk of a streamed export: one query each, and the response is written between them. */
export const EXPORT_CHUNK = 200

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)

export class Bans extends Context.Tag("@garrison/plugins/Bans")<Bans, BansShape>() {
  static readonly make = Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // Adds and deletes share their commit with those written at the same moment (one fsync for many under load).
    const group = yield* GroupCommit
    const bus = yield* EventBus
    const database = yield* Database
    const changes = yield* Queue.sliding<void>(1)
    const notify = Queue.offer(changes, undefined).pipe(Effect.asVoid)
    // Moved on by every write, even one interrupted after its commit: a kept export is served only for the count it was read at.
    const writes = makeWriteCount()
    // `INSERT ... VALUES (...), (...)` for n rows in the dialect's placeholders; the full chunk's text is built once.
    const insertRows = (n: number) => {
      const values = sql.onDialectOrElse({
        pg: () =>
          Array.from({ length: n }, (_, r) => `(${Array.from({ length: IMPORT_WIDTH }, (_, c) => `$${r * IMPORT_WIDTH + c + 1}`).join(", ")})`),
        orElse: () => Array.from({ length: n }, () => `(${Array.from({ length: IMPORT_WIDTH }, () => "?").join(", ")})`)
      })
      return `INSERT INTO bans (${IMPORT_COLUMNS.join(", ")}) VALUES ${values.join(", ")}`
    }
    const fullChunk = insertRows(INSERT_CHUNK)
    // Named here, not from the request: a grouped write may run in another request's fiber (the batch's leader).
    const audit = (action: string, by: AuditActor, target: string | null, details: Record<string, unknown>) =>
      Effect.flatMap(AuditTrail, (trail) => trail.record({ ...auditActorFields(by), ip: null, action, target, result: "success", details }))

    const columns = sql.literal(SELECT_COLUMNS)
    const read = (statement: Effect.Effect<ReadonlyArray<unknown>, SqlError.SqlError>) =>
      statement.pipe(Effect.flatMap(decodeBans), Effect.mapError(storeError("read bans")))
    const jsonColumns = sql.literal(jsonColumnsOf(sql))
    const readJson = (statement: Effect.Effect<ReadonlyArray<BanJsonRow>, SqlError.SqlError>) =>
      Effect.mapError(statement, storeError("read bans"))
    const byId = (id: string) => read(sql`SELECT ${columns} FROM bans WHERE id = ${id}`)

    const activeFor: BansShape["activeFor"] = (platformId) =>
      Effect.gen(function* () {
        const now = iso(yield* Clock.currentTimeMillis)
        const rows = yield* sql<{ readonly id: string }>`SELECT id FROM bans
          WHERE platform_id = ${platformId} AND (expires_at IS NULL OR expires_at > ${now})
          ORDER BY banned_at DESC, id DESC`.pipe(Effect.mapError(storeError("read bans")))
        if (rows[0] === undefined) return Option.none()
        const found = yield* byId(rows[0].id)
        return Option.fromNullable(found[0])
      })

    const get: BansShape["get"] = (id) =>
      Effect.flatMap(byId(id), (rows) =>
        rows[0] === undefined ? Effect.fail(new BanNotFound({ id })) : Effect.succeed(rows[0])
      )

    /** The list's filter, cursor and limit, shared by `list` and `listJson`. */
    const listQuery = (params: BanListParams) =>
      Effect.gen(function* () {
        const now = iso(yield* Clock.currentTimeMillis)
        const clauses: Array<Statement.Fragment> = []
        if (params.platformId !== undefined) {
          const id = parsePlatformId(params.platformId)
          if (Either.isLeft(id)) return yield* new InvalidBan({ field: "platformId", message: `platformId: ${id.left.message}` })
          clauses.push(sql`platform_id = ${id.right}`)
        }
        if (params.status === "active") clauses.push(sql`(expires_at IS NULL OR expires_at > ${now})`)
        if (params.status === "expired") clauses.push(sql`(expires_at IS NOT NULL AND expires_at <= ${now})`)
        if (params.q !== undefined) {
          const pattern = `%${escapeLike(params.q.toLowerCase())}%`
          clauses.push(sql`(LOWER(player_name) LIKE ${pattern} ESCAPE ${"\\"} OR LOWER(reason) LIKE ${pattern} ESCAPE ${"\\"})`)
        }
        const after = yield* banPaging.decode(params.cursor)
        if (after !== undefined) clauses.push(banPaging.after(sql, after))
        const limit = effectiveLimit(params.limit, { defaultLimit: DEFAULT_PAGE_SIZE, maxLimit: MAX_PAGE_SIZE })
        return { where: sql.and(clauses), limit }
      })

    const list: BansShape["list"] = (params) =>
      Effect.gen(function* () {
        const { where, limit } = yield* listQuery(params)
        const rows = yield* read(sql`SELECT ${columns} FROM bans WHERE ${where} ORDER BY ${sql.literal(banPaging.orderBy)} LIMIT ${limit + 1}`)
        return new BanPage(banPaging.page(rows, limit))
      })

    const listJson: BansShape["listJson"] = (params) =>
      Effect.gen(function* () {
        const { where, limit } = yield* listQuery(params)
        const rows = yield* readJson(
          sql`SELECT ${jsonColumns} FROM bans WHERE ${where} ORDER BY ${sql.literal(banPaging.orderBy)} LIMIT ${limit + 1}`
        )
        return jsonPaging.page(rows, limit)
      })

    const exportJson: BansShape["exportJson"] = keysetChunks({
      size: EXPORT_CHUNK,
      positionOf: (row: BanJsonRow) => row,
      read: (after, size) =>
        readJson(
          sql`SELECT ${jsonColumns} FROM bans WHERE ${after === undefined ? sql.literal("1=1") : exportOrder.after(sql, after)}
            ORDER BY ${sql.literal(exportOrder.orderBy)} LIMIT ${size}`
        )
    })

    const add: BansShape["add"] = (input, by) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        let expiresAt: string | null = null
        if (input.expiresAt !== undefined && input.expiresAt !== null) {
          const ms = readExpiry(input.expiresAt, now)
          if (Either.isLeft(ms)) return yield* new InvalidBan({ field: "expiresAt", message: `expiresAt: ${ms.left}` })
          if (ms.right <= now) return yield* new InvalidBan({ field: "expiresAt", message: "expiresAt: must be in the future" })
          expiresAt = iso(ms.right)
        }
        const ban = new Ban({
          id: randomUUID(),
          platformId: input.platformId,
          playerName: input.playerName.trim(),
          reason: input.reason.trim(),
          bannedBy: by.name,
          bannedAt: iso(now),
          expiresAt,
          source: input.source ?? "manual"
        })
        const added = new BanAdded({ ...ban })
        // Check and insert in one transaction, so two concurrent adds cannot both pass the check; the audit row
        // and the event's durable consumers (webhooks' queue) commit with the ban: one fsync for all, never a ban
        // without them.
        yield* Effect.gen(function* () {
          const existing = yield* activeFor(ban.platformId)
          if (Option.isSome(existing)) {
            return yield* new BanExists({ platformId: ban.platformId, existingId: existing.value.id })
          }
          yield* sql`INSERT INTO bans ${sql.insert({ ...toRecord(ban) })}`.pipe(Effect.mapError(storeError("add a ban")))
          yield* audit("bans.add", by, ban.platformId, { banId: ban.id, reason: ban.reason, expiresAt: ban.expiresAt })
          yield* bus.stage(added)
        }).pipe(group.transaction, writes.counted, Effect.catchTag("SqlError", (e) => Effect.fail(storeError("add a ban")(e))))
        yield* notify
        yield* bus.publish(added)
        return ban
      })

    const remove: BansShape["remove"] = (id, by) =>
      Effect.gen(function* () {
        const ban = yield* get(id)
        const removed = new BanRemoved({ id, platformId: ban.platformId, removedBy: by.name })
        // The audit row and the event's durable consumers commit with the delete.
        yield* Effect.gen(function* () {
          yield* sql`DELETE FROM bans WHERE id = ${id}`
          yield* audit("bans.remove", by, ban.platformId, { banId: id })
          yield* bus.stage(removed)
        }).pipe(group.transaction, writes.counted, Effect.mapError(storeError("delete a ban")))
        yield* notify
        yield* bus.publish(removed)
        return ban
      })

    const importMany: BansShape["importMany"] = (entries, by) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const result = yield* Effect.gen(function* () {
          const stored = yield* sql<{ readonly id: string; readonly platformId: string; readonly expiresAt: string | null }>`
            SELECT id, platform_id AS "platformId", expires_at AS "expiresAt" FROM bans`
          const at = iso(now)
          const activePlayers = new Set<string>()
          const ids = new Set<string>()
          for (const row of stored) {
            ids.add(row.id)
            if (row.expiresAt === null || row.expiresAt > at) activePlayers.add(row.platformId)
          }
          const plan = planImport(entries, { activePlayers, ids })
          const step = INSERT_CHUNK * IMPORT_WIDTH
          for (let i = 0; i < plan.params.length; i += step) {
            const chunk = plan.params.slice(i, i + step)
            yield* sql.unsafe(chunk.length === step ? fullChunk : insertRows(chunk.length / IMPORT_WIDTH), chunk)
          }
          return plan
        }).pipe(sql.withTransaction, writes.counted, Effect.mapError(storeError("import bans")))
        if (result.added > 0) yield* notify
        // A batch this size is worth a backup now rather than at the next interval (queued, never waited for).
        if (result.added >= BULK_WRITE_BACKUP_ROWS) yield* database.requestBackup("bans-import")
        const reply = new ImportResult(
          { added: result.added, skipped: result.skipped, errors: result.errors, total: entries.length },
          { disableValidation: true }
        )
        yield* bus.publish(new BansImported({ added: reply.added, skipped: reply.skipped, failed: reply.errors.length, importedBy: by.name }))
        yield* audit("bans.import", by, null, { added: reply.added, skipped: reply.skipped, failed: reply.errors.length })
        return reply
      })

    return Bans.of({
      list,
      listJson,
      exportJson,
      writeCount: writes.current,
      get,
      add,
      remove,
      exportAll: read(sql`SELECT ${columns} FROM bans ORDER BY banned_at, id`),
      importMany,
      activeFor,
      activeIds: (now) =>
        sql<{ readonly platformId: string }>`SELECT DISTINCT platform_id AS "platformId" FROM bans
          WHERE expires_at IS NULL OR expires_at > ${iso(now)} ORDER BY platform_id`.pipe(
          Effect.map((rows) => rows.map((row) => row.platformId)),
          Effect.mapError(storeError("read active bans"))
        ),
      nextExpiry: (now) =>
        sql<{ readonly next: string | null }>`SELECT MIN(expires_at) AS "next" FROM bans WHERE expires_at > ${iso(now)}`.pipe(
          Effect.map((rows) => Option.flatMap(Option.fromNullable(rows[0]?.next), (next) => parseIso(next))),
          Effect.mapError(storeError("read the next expiry"))
        ),
      changed: Queue.take(changes)
    })
  })

  /** Needs the kernel's `SqlClient` and `EventBus`. */
  static readonly layer = Layer.effect(Bans, Bans.make)
}

const toRecord = (ban: Ban) => ({
  id: ban.id,
  platform_id: ban.platformId,
  player_name: ban.playerName,
  reason: ban.reason,
  banned_by: ban.bannedBy,
  banned_at: ban.bannedAt,
  expires_at: ban.expiresAt,
  source: ban.source
})
