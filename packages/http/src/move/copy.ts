/**
 * The rows, table by table, inside the move's transaction. Multi-row INSERTs
 * with bound parameters keep a large database quick without pasting a value
 * into SQL; when PostgreSQL refuses a batch, its rows are tried one by one,
 * so the refusal names the row to fix rather than a batch of hundreds.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import type { StartupError } from "@garrison/runtime"
import * as Effect from "effect/Effect"
import { reading, type Source, type SourceTable } from "./source.js"
import type { TargetOf, TargetTable } from "./target.js"
import { quote, refuse, sqlProblem } from "./text.js"
import { bindable, shown } from "./values.js"

/** PostgreSQL's limit on bound parameters in one statement (a 16-bit count). */
const MAX_PARAMETERS = 65535
/** Rows in one INSERT at most (fewer for wide tables, so the parameters stay under the limit). */
const MAX_BATCH_ROWS = 500

export interface Copied {
  readonly table: string
  readonly rows: number
  /** Rows the migrations had put there, replaced by the source's. */
  readonly seeded: number
}

/** Every table of `order`, in that order, into the empty tables `targetOf` names; the rows the migrations seeded give way first. */
export const copyTables = (
  sql: SqlClient.SqlClient,
  source: Source,
  order: ReadonlyArray<SourceTable>,
  targetOf: TargetOf
): Effect.Effect<ReadonlyArray<Copied>, StartupError | SqlError> =>
  Effect.gen(function* () {
    // What the migrations seeded (built-in roles, audit_head, counters) gives way to the source's rows.
    const seeded = new Map<string, number>()
    for (const table of order) {
      const [row] = yield* sql.unsafe<{ readonly n: number | string }>(`SELECT count(*) AS n FROM ${quote(targetOf(table.name)!.name)}`)
      if (Number(row?.n ?? 0) > 0) seeded.set(table.name, Number(row?.n))
    }
    for (const table of [...order].reverse()) {
      if (seeded.has(table.name)) yield* sql.unsafe(`DELETE FROM ${quote(targetOf(table.name)!.name)}`)
    }

    const copied: Array<Copied> = []
    for (const table of order) {
      const rows = yield* copyTable(sql, source, table, targetOf(table.name)!)
      copied.push({ table: table.name, rows, seeded: seeded.get(table.name) ?? 0 })
    }
    return copied
  })

const copyTable = (
  sql: SqlClient.SqlClient,
  { db, file }: Source,
  table: SourceTable,
  target: TargetTable
): Effect.Effect<number, StartupError> =>
  Effect.gen(function* () {
    const columns = table.columns.map((name) => target.columns.get(name) ?? target.columns.get(name.toLowerCase())!)
    const perBatch = Math.max(1, Math.min(MAX_BATCH_ROWS, Math.floor(MAX_PARAMETERS / columns.length)))
    const into = `INSERT INTO ${quote(target.name)} (${columns.map((c) => quote(c.name)).join(", ")}) VALUES `
    const selected = table.columns.map(quote).join(", ")
    const from = quote(table.name)
    // Pages by rowid (the INTEGER PRIMARY KEY where there is one: audit_log in seq order); a WITHOUT ROWID table at once.
    const firstPage = db.prepare(`SELECT rowid, ${selected} FROM ${from} ORDER BY rowid LIMIT ?`)
    const nextPage = db.prepare(`SELECT rowid, ${selected} FROM ${from} WHERE rowid > ? ORDER BY rowid LIMIT ?`)
    const whole = table.withoutRowid ? db.prepare(`SELECT NULL, ${selected} FROM ${from} ORDER BY ${table.primaryKey.map(quote).join(", ")}`) : undefined
    for (const statement of [firstPage, nextPage, whole]) statement?.raw(true).safeIntegers(true)
    const keyOf = (row: ReadonlyArray<unknown>): string =>
      table.primaryKey.length > 0
        ? table.primaryKey.map((key) => `${key}=${shown(row[table.columns.indexOf(key) + 1])}`).join(", ")
        : `rowid=${String(row[0])}`
    const rawText = (row: ReadonlyArray<unknown>, column: string) => (): Buffer | undefined => {
      const where = table.withoutRowid ? table.primaryKey.map((key) => `${quote(key)} = ?`).join(" AND ") : "rowid = ?"
      const params = table.withoutRowid ? table.primaryKey.map((key) => row[table.columns.indexOf(key) + 1]) : [row[0]]
      const bytes = db.prepare(`SELECT CAST(${quote(column)} AS BLOB) FROM ${from} WHERE ${where}`).pluck().safeIntegers(true).get(...params)
      return Buffer.isBuffer(bytes) ? bytes : undefined
    }
    const insert = (rows: ReadonlyArray<ReadonlyArray<unknown>>) => {
      const params: Array<unknown> = []
      const groups = rows.map((row) => `(${row.map((value) => `$${params.push(value)}`).join(", ")})`)
      return sql.unsafe(into + groups.join(", "), params)
    }

    let copied = 0
    let last: unknown = undefined
    const pending = whole === undefined ? undefined : yield* reading(file, table.name, () => whole.all() as Array<ReadonlyArray<unknown>>)
    while (true) {
      const page: ReadonlyArray<ReadonlyArray<unknown>> = pending !== undefined
        ? pending.splice(0, perBatch)
        : yield* reading(file, table.name, () =>
          (copied === 0 ? firstPage.all(perBatch) : nextPage.all(last, perBatch)) as Array<ReadonlyArray<unknown>>)
      if (page.length === 0) break
      const rows: Array<ReadonlyArray<unknown>> = []
      for (const row of page) {
        const values: Array<unknown> = []
        for (let i = 0; i < columns.length; i++) {
          const bound = bindable(row[i + 1], columns[i]!, rawText(row, table.columns[i]!))
          if ("problem" in bound) {
            return yield* refuse("database", `cannot copy ${table.name} row ${keyOf(row)}: column ${table.columns[i]} ${bound.problem}`)
          }
          values.push(bound.value)
        }
        rows.push(values)
      }
      // Each batch in a savepoint: when PostgreSQL refuses one, its rows are tried one by one to name the row.
      const inserted = yield* insert(rows).pipe(sql.withTransaction, Effect.either)
      if (inserted._tag === "Left") {
        for (const [index, row] of rows.entries()) {
          const alone = yield* insert([row]).pipe(sql.withTransaction, Effect.either)
          if (alone._tag === "Left") {
            const column = (alone.left.cause as { readonly column?: unknown } | undefined)?.column
            return yield* refuse(
              "database",
              `PostgreSQL refused ${table.name} row ${keyOf(page[index]!)}${typeof column === "string" ? ` (column ${column})` : ""}: ${sqlProblem(alone.left)}`
            )
          }
        }
        return yield* refuse("database", `PostgreSQL refused rows of ${table.name}: ${sqlProblem(inserted.left)}`)
      }
      copied += page.length
      last = page[page.length - 1]![0]
    }
    return copied
  })
