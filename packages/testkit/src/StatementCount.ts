/**
 * Counts what the controller asks of SQLite, at the driver: every statement
 * better-sqlite3 runs (`run`, `all`, `get`, `iterate` of a prepared
 * statement, and `exec`), and among them the commits, each an fsync with
 * `synchronous = FULL`. Every query of `@effect/sql-sqlite-node` goes
 * through these, its `BEGIN`/`COMMIT`/`SAVEPOINT` too, so a count here is
 * what one request really costs; the bench prints the same counts.
 *
 * The driver's prototypes are wrapped once, in this process, the first
 * time a count is taken; while no count is open the wrapper adds one
 * check. Counts are per process: take them in a test that runs one request
 * at a time.
 */
import * as Effect from "effect/Effect"
import { createRequire } from "node:module"

/** What one stretch of work ran. */
export interface StatementTally {
  /** Every statement, transaction control included. */
  readonly statements: number
  /**
   * Commits, each one fsync: a `COMMIT`, and a write run outside a
   * transaction (SQLite commits it by itself).
   */
  readonly commits: number
  /** The SQL of each, in order (whitespace folded), to say what to cut. */
  readonly sql: ReadonlyArray<string>
}

interface Open {
  statements: number
  commits: number
  sql: Array<string>
}

const open = new Set<Open>()

/** After a statement ran: `wrote` unless it only read; `inTransaction` as the connection stands after it. */
const seen = (source: string, wrote: boolean, inTransaction: boolean) => {
  if (open.size === 0) return
  const folded = source.replace(/\s+/g, " ").trim()
  const commit = wrote && !inTransaction && !/^(ROLLBACK|BEGIN)\b/i.test(folded)
  for (const tally of open) {
    tally.statements++
    if (commit) tally.commits++
    tally.sql.push(folded)
  }
}

let wrapped = false

// The runtime's driver, resolved through its folder (from `src` and `dist` alike), as `SqliteFile` does.
const require = createRequire(new URL("../../runtime/package.json", import.meta.url))

interface DriverStatement {
  readonly source: string
  readonly reader: boolean
  readonly database: { readonly inTransaction: boolean }
}

const wrapDriver = () => {
  if (wrapped) return
  wrapped = true
  const Sqlite = require("better-sqlite3") as {
    new (file: string): { prepare(sql: string): object; close(): void }
    prototype: { exec(this: { readonly inTransaction: boolean }, sql: string): unknown }
  }
  const probe = new Sqlite(":memory:")
  const statementPrototype = Object.getPrototypeOf(probe.prepare("SELECT 1")) as Record<string, (...args: Array<unknown>) => unknown>
  probe.close()
  for (const method of ["run", "all", "get", "iterate"] as const) {
    const original = statementPrototype[method]!
    statementPrototype[method] = function (this: DriverStatement, ...args: Array<unknown>) {
      const result = original.apply(this, args)
      // A write with RETURNING is a reader too: what it wrote is told by the statement's text.
      seen(this.source, !this.reader || /^\s*(INSERT|UPDATE|DELETE|REPLACE)\b/i.test(this.source), this.database.inTransaction)
      return result
    }
  }
  const exec = Sqlite.prototype.exec
  Sqlite.prototype.exec = function (this: { readonly inTransaction: boolean }, sql: string) {
    const result = exec.call(this, sql)
    seen(sql, true, this.inTransaction)
    return result
  }
}

/**
 * Runs `work` and answers what it ran beside its value:
 * `const { tally } = yield* countingStatements(call("POST", ...))`. Work of
 * other fibers at the same time is counted too.
 */
export const countingStatements = <A, E, R>(work: Effect.Effect<A, E, R>): Effect.Effect<{ readonly value: A; readonly tally: StatementTally }, E, R> =>
  Effect.acquireUseRelease(
    Effect.sync(() => {
      wrapDriver()
      const tally: Open = { statements: 0, commits: 0, sql: [] }
      open.add(tally)
      return tally
    }),
    (tally) => Effect.map(work, (value) => ({ value, tally: { statements: tally.statements, commits: tally.commits, sql: [...tally.sql] } })),
    (tally) => Effect.sync(() => void open.delete(tally))
  )
