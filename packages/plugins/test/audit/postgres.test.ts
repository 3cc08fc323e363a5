/**
 * The audit chain on a real PostgreSQL 15, where transactions run side by
 * side on a pool of connections and several controllers may share the
 * database: concurrent appends (in callers' transactions and alone) and
 * two controllers' appends keep one unbroken chain, and a caller's rollback
 * leaves no gap.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as PgClient from "@effect/sql-pg/PgClient"
import { describe, expect, it } from "@effect/vitest"
import { type AuditEntry, SealedSecrets } from "@garrison/runtime"
import { usePostgres } from "@garrison/testkit/filePostgres"
import { Effect, Layer, Redacted } from "effect"
import { AuditLog } from "../../src/audit/index.js"
import { migrations } from "../../src/audit/migrations.js"

const postgres = usePostgres()

const entry = (who: string, n: number): AuditEntry => ({
  actor: who,
  actorName: who,
  ip: null,
  action: "test.pg",
  target: `thing/${n}`,
  result: "success",
  details: { n }
})

/** A pool on `url` (as one controller has), with the audit store over it. */
const controllerOn = (url: string) =>
  Layer.effect(AuditLog, AuditLog.make).pipe(Layer.provideMerge(PgClient.layer({ url: Redacted.make(url), maxConnections: 10 })))

/** A fresh database with the audit tables (the plugin's own migrations) and a side table the callers write to. */
const freshDatabase = Effect.gen(function* () {
  const url = yield* postgres.freshDatabaseUrl
  yield* Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    for (const migration of migrations) yield* migration.up
    yield* sql`CREATE TABLE things (id TEXT PRIMARY KEY)`
  }).pipe(
    // An empty database: no migration here opens a sealed box.
    Effect.provideService(SealedSecrets, SealedSecrets.of({} as never)),
    Effect.provide(PgClient.layer({ url: Redacted.make(url) })),
    Effect.orDie
  )
  return url
})

const count = (table: "audit_log" | "things") =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ readonly n: string }>`SELECT COUNT(*) AS n FROM ${sql(table)}`).pipe(
    Effect.map((rows) => Number(rows[0]?.n))
  )

describe("the audit chain on PostgreSQL", () => {
  it.live(
    "20 writers appending in their own transactions and 20 alone, at once: one chain, every row",
    () =>
      Effect.gen(function* () {
        const url = yield* freshDatabase
        yield* Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const log = yield* AuditLog
          const inTransaction = (n: number) =>
            sql.withTransaction(
              Effect.gen(function* () {
                yield* sql`INSERT INTO things (id) VALUES (${`t${n}`})`
                yield* log.append(entry("writer", n))
              })
            )
          yield* Effect.all(
            [...Array.from({ length: 20 }, (_, n) => inTransaction(n)), ...Array.from({ length: 20 }, (_, n) => log.append(entry("alone", n)))],
            { concurrency: "unbounded", discard: true }
          )
          expect(yield* log.verify).toMatchObject({ ok: true, checked: 40 })
          expect(yield* count("things")).toBe(20)
          expect(yield* count("audit_log")).toBe(40)
        }).pipe(Effect.provide(controllerOn(url)))
      }),
    120_000
  )

  it.live(
    "two controllers on one database append at once: one chain",
    () =>
      Effect.gen(function* () {
        const url = yield* freshDatabase
        const appendMany = (who: string) =>
          Effect.flatMap(AuditLog, (log) =>
            Effect.all(Array.from({ length: 20 }, (_, n) => log.append(entry(who, n))), { concurrency: 5, discard: true })
          ).pipe(Effect.provide(controllerOn(url)))
        yield* Effect.all([appendMany("first"), appendMany("second")], { concurrency: 2, discard: true })
        yield* Effect.gen(function* () {
          const log = yield* AuditLog
          expect(yield* log.verify).toMatchObject({ ok: true, checked: 40 })
          const page = yield* log.query({ limit: 100 })
          expect(new Set(page.items.map((row) => row.actor))).toEqual(new Set(["first", "second"]))
        }).pipe(Effect.provide(controllerOn(url)))
      }),
    120_000
  )

  it.live(
    "a caller's transaction that rolls back takes its row with it, and the next append chains on without a gap",
    () =>
      Effect.gen(function* () {
        const url = yield* freshDatabase
        yield* Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const log = yield* AuditLog
          yield* log.append(entry("before", 1))
          const failed = yield* sql
            .withTransaction(Effect.zipRight(log.append(entry("rolled-back", 2)), Effect.fail("the caller's own failure" as const)))
            .pipe(Effect.flip)
          expect(failed).toBe("the caller's own failure")
          const after = yield* log.append(entry("after", 3))
          expect(after.id).toBe("2")
          expect(yield* log.verify).toMatchObject({ ok: true, checked: 2 })
        }).pipe(Effect.provide(controllerOn(url)))
      }),
    120_000
  )
})
