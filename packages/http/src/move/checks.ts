/**
 * The proof, run inside the move's transaction before COMMIT: a refusal here
 * rolls everything back, so a copy that does not check out never becomes a
 * database a controller could start on. Each check compares PostgreSQL
 * with the source's snapshot: the migrations just applied, every table's
 * row count, and the audit chain (verified there and ending at the source's
 * last hash, so no audit row was lost, reordered or changed).
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import { AuditLog } from "@garrison/plugins"
import * as Effect from "effect/Effect"
import { reading, type Source, type SourceTable } from "./source.js"
import type { TargetOf } from "./target.js"
import { listed, migrationKey, quote, refuse } from "./text.js"

/** The migrations PostgreSQL now has (as `migrationKey`s), refused unless they are the source's. */
export const refuseIfMigrationsDiffer = (sql: SqlClient.SqlClient, sourceMigrations: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const targetMigrations = (yield* sql<{ readonly plugin_id: string; readonly version: number | string }>`
      SELECT plugin_id, version FROM garrison_migrations`).map((row) => migrationKey(row.plugin_id, row.version))
    const have = new Set(sourceMigrations)
    const applied = new Set(targetMigrations)
    const differ = [...sourceMigrations.filter((key) => !applied.has(key)), ...targetMigrations.filter((key) => !have.has(key))]
    if (differ.length > 0) return yield* refuse("database", `garrison_migrations differs between SQLite and PostgreSQL: ${listed(differ)}`)
    return targetMigrations
  })

/** Refuses unless each table of `order` has as many rows on PostgreSQL as in the source. */
export const refuseIfCountsDiffer = (sql: SqlClient.SqlClient, order: ReadonlyArray<SourceTable>, targetOf: TargetOf) =>
  Effect.gen(function* () {
    const counted: Array<string> = []
    for (const table of order) {
      const [row] = yield* sql.unsafe<{ readonly n: number | string }>(`SELECT count(*) AS n FROM ${quote(targetOf(table.name)!.name)}`)
      const onTarget = Number(row?.n ?? -1)
      if (onTarget !== table.rows) counted.push(`${table.name} has ${table.rows} rows on SQLite, ${onTarget} on PostgreSQL`)
    }
    if (counted.length > 0) return yield* refuse("database", `row counts differ after the copy: ${listed(counted)}`)
  })

/**
 * The audit chain on PostgreSQL: the rows it verified and its last hash,
 * refused unless it verifies, ends at the source's last row's hash and
 * covers all the source's rows. `undefined` where there are no audit tables.
 */
export const verifyAuditChain = (sql: SqlClient.SqlClient, { db, file, tables }: Source, targetOf: TargetOf) =>
  Effect.gen(function* () {
    if (targetOf("audit_log") === undefined || targetOf("audit_head") === undefined) return undefined
    const report = yield* Effect.flatMap(AuditLog.make, (log) => log.verify)
    if (!report.ok) {
      return yield* refuse(
        "database",
        `the audit chain does not verify on PostgreSQL: ${report.message ?? report.reason ?? "broken"} (row ${report.firstBrokenId ?? "?"}); ` +
          "check the source's (GET /api/audit/verify on the SQLite controller)"
      )
    }
    const sourceLast = yield* reading(file, "audit_log", () =>
      db.prepare("SELECT hash FROM audit_log ORDER BY seq DESC LIMIT 1").pluck().get() as string | undefined)
    const [head] = yield* sql<{ readonly seq: number | string; readonly hash: string }>`SELECT seq, hash FROM audit_head WHERE id = 1`
    const sourceRows = tables.find((t) => t.name === "audit_log")?.rows ?? 0
    if (sourceLast !== undefined && head?.hash !== sourceLast) {
      return yield* refuse("database", "the audit chain's last hash on PostgreSQL is not the source's last row's")
    }
    if (report.checked !== sourceRows) {
      return yield* refuse("database", `the audit chain verified ${report.checked} rows on PostgreSQL, but SQLite holds ${sourceRows}`)
    }
    return { rows: report.checked, lastHash: head?.hash }
  })
