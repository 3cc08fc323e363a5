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
  /** `COMMIT`s (and `RELEASE`s that end the outermost savepoint: none in Garrison), each one fsync. */
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

const seen = (source: string) => {
  if (open.size === 0) return
  const folded = source.replace(/\s+/g, " ").trim()
  const commit = /^(COMMIT|END)\b/i.test(folded)
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
}

const wrapDriver = () => {
  if (wrapped) return
  wrapped = true
  const Sqlite = require("better-sqlite3") as {
    new (file: string): { prepare(sql: string): object; close(): void }
    prototype: { exec(sql: string): unknown }
  }
  const probe = new Sqlite(":memory:")
  const statementPrototype = Object.getPrototypeOf(probe.prepare("SELECT 1")) as Record<string, (...args: Array<unknown>) => unknown>
  probe.close()
  for (const method of ["run", "all", "get", "iterate"] as const) {
    const original = statementPrototype[method]!
    statementPrototype[method] = function (this: DriverStatement, ...args: Array<unknown>) {
      seen(this.source)
      return original.apply(this, args)
    }
  }
  const exec = Sqlite.prototype.exec
  Sqlite.prototype.exec = function (this: unknown, sql: string) {
    seen(sql)
    return exec.call(this, sql)
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
