/**
 * Every statement better-sqlite3 runs in this process, told to listeners:
 * `run`, `all`, `get`, `iterate` of a prepared statement, and `exec`. Every
 * query of `@effect/sql-sqlite-node` goes through these, its `BEGIN`,
 * `COMMIT` and `SAVEPOINT` too. A statement commits (one fsync with
 * `synchronous = FULL`) when it is a `COMMIT`, or a write run outside a
 * transaction (SQLite commits it by itself).
 *
 * The driver's prototypes are wrapped once, the first time a listener is
 * added; with none, the wrapper adds one check per statement. Plain Node
 * (no Effect), so the benchmark's counting wrapper, loaded into a
 * controller with `--import`, uses it as it is.
 */
import { createRequire } from "node:module"

/** `sql` as the driver was given it; `commit`: it ended a transaction, or wrote outside one. */
export type StatementListener = (sql: string, commit: boolean) => void

interface DriverStatement {
  readonly source: string
  readonly reader: boolean
  readonly database: { readonly inTransaction: boolean }
}

const listeners = new Set<StatementListener>()
const writes = /^\s*(INSERT|UPDATE|DELETE|REPLACE)\b/i
const control = /^\s*(BEGIN|ROLLBACK|SAVEPOINT|RELEASE)\b/i

const tell = (sql: string, wrote: boolean, inTransaction: boolean) => {
  const commit = wrote && !inTransaction && !control.test(sql)
  for (const listener of listeners) listener(sql, commit)
}

// The runtime's driver, resolved through its folder (from `src` and `dist` alike), the copy the controller loads.
const require = createRequire(new URL("../../runtime/package.json", import.meta.url))
let wrapped = false

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
      // A write with RETURNING is a reader too: what it does is told by its text.
      if (listeners.size > 0) tell(this.source, !this.reader || writes.test(this.source), this.database.inTransaction)
      return result
    }
  }
  const exec = Sqlite.prototype.exec
  Sqlite.prototype.exec = function (this: { readonly inTransaction: boolean }, sql: string) {
    const result = exec.call(this, sql)
    if (listeners.size > 0) tell(sql, true, this.inTransaction)
    return result
  }
}

/** Tells `listener` of every statement from now on; the answer stops it. */
export const onDriverStatements = (listener: StatementListener): (() => void) => {
  wrapDriver()
  listeners.add(listener)
  return () => void listeners.delete(listener)
}
