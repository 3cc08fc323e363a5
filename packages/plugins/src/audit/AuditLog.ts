/**
 * `AuditLog`: the durable, hash-chained audit store, exported so other
 * plugins and embedders can read it (`query`, `verify`) or append and get
 * the stored row back. Recording from request paths goes through the
 * runtime's `AuditTrail` slot instead, which this plugin fills and which
 * never fails.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as Layer from "effect/Layer"
import {
  AuditTrail,
  type AuditEntry,
  countedRecord,
  currentPrincipalRef,
  type InvalidCursor,
  type JsonRow,
  type PageOf
} from "@garrison/runtime"
import type { AuditPage, AuditRow, VerifyReport } from "./contract/Api.js"
import type { AuditStoreError } from "./errors.js"
import { makeAppend } from "./internal/append.js"
import { type AuditFilter, makeQuery, makeQueryJson } from "./internal/query.js"
import { makeVerify } from "./internal/verify.js"

export type { AuditFilter } from "./internal/query.js"

export interface AuditLogShape {
  /** Appends one entry, committed before it returns; fails when the store does. An `actorName` left out is stored null. */
  readonly append: (entry: AuditEntry) => Effect.Effect<AuditRow, AuditStoreError>
  /** One page, newest first. */
  readonly query: (filter: AuditFilter) => Effect.Effect<AuditPage, AuditStoreError | InvalidCursor>
  /**
   * `query` as the route answers it: each row's JSON written by the database
   * (rows are trusted on the way out; see the runtime's `JsonRows`).
   */
  readonly queryJson: (filter: AuditFilter) => Effect.Effect<PageOf<JsonRow>, AuditStoreError | InvalidCursor>
  /** Walks the whole chain and reports the first broken link. */
  readonly verify: Effect.Effect<VerifyReport, AuditStoreError>
}

export class AuditLog extends Context.Tag("@garrison/plugins/AuditLog")<AuditLog, AuditLogShape>() {
  static readonly make = Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // Appends are serialized in-process, so the chain never forks under concurrent requests.
    const lock = yield* Effect.makeSemaphore(1)
    return AuditLog.of({
      append: makeAppend(sql, lock),
      query: makeQuery(sql),
      queryJson: makeQueryJson(sql),
      verify: makeVerify(sql)
    })
  })

  static readonly layer: Layer.Layer<AuditLog, never, SqlClient.SqlClient> = Layer.effect(AuditLog, AuditLog.make)
}

/**
 * `entry` with its `actorName`: as given, else the caller's name when the
 * actor is the caller of the request being served (by id: fibers forked
 * from the request, background work it started, still see the caller),
 * else null.
 */
const named = (entry: AuditEntry): Effect.Effect<AuditEntry> =>
  entry.actorName !== undefined
    ? Effect.succeed(entry)
    : Effect.map(FiberRef.get(currentPrincipalRef), (principal) => ({
        ...entry,
        actorName: principal._tag === "Some" && principal.value.id === entry.actor ? principal.value.name : null
      }))

/**
 * Fills the runtime's `AuditTrail` slot with `AuditLog.append`, the actor
 * named (see `named`). The write is uninterruptible (a client hanging up
 * mid-request still leaves its row), and a store failure is logged, never
 * passed to the caller.
 */
export const AuditTrailLive: Layer.Layer<AuditTrail, never, AuditLog> = Layer.effect(
  AuditTrail,
  Effect.map(AuditLog, (log) => {
    const store = countedRecord((entry: AuditEntry) => Effect.flatMap(named(entry), log.append))
    return {
      record: (entry: AuditEntry) =>
        store(entry).pipe(
          Effect.catchAllCause((cause) =>
            Effect.logError(
              `audit row not stored: ${entry.action} ${entry.result}`,
              { actor: entry.actor, ip: entry.ip, target: entry.target },
              Cause.pretty(cause)
            )
          ),
          Effect.uninterruptible
        )
    }
  })
)
