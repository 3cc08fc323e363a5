/**
 * The SQLite side: the controller's database, read and never written. A
 * running controller would go on writing after the copy (and a copy of a
 * moving file proves nothing), so a file another process holds is refused;
 * a damaged file or one at other migrations is refused before PostgreSQL is
 * touched; everything the move reads comes from one read transaction, so
 * counts and rows agree. better-sqlite3 is used directly (typed locally, as
 * the runtime's rawSqlite.ts does: the package ships no types), with
 * integers as BigInt so none loses digits on the way.
 */
import { errorMessage, type StartupError } from "@garrison/runtime"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { existsSync } from "node:fs"
import { createRequire } from "node:module"
import { listed, migrationKey, quote, refuse } from "./text.js"
import { sqliteLockHolders } from "../SqliteLocks.js"

export interface SourceStatement {
  all(...params: ReadonlyArray<unknown>): Array<unknown>
  get(...params: ReadonlyArray<unknown>): unknown
  pluck(toggle?: boolean): SourceStatement
  raw(toggle?: boolean): SourceStatement
  safeIntegers(toggle?: boolean): SourceStatement
}

export interface SourceDatabase {
  prepare(source: string): SourceStatement
  exec(source: string): void
  close(): void
}

type SourceConstructor = new(
  filename: string,
  options: { readonly readonly: boolean; readonly fileMustExist: boolean }
) => SourceDatabase

const require = createRequire(import.meta.url)

export interface SourceTable {
  readonly name: string
  readonly columns: ReadonlyArray<string>
  /** The declared primary key, in key order; none: rows are named by their rowid. */
  readonly primaryKey: ReadonlyArray<string>
  readonly withoutRowid: boolean
  /** Other tables its foreign keys reference: copied before it. */
  readonly references: ReadonlyArray<string>
  /** Other tables its triggers write (`audit_log` moves `audit_head`): copied after it, so the source's rows win. */
  readonly triggerTargets: ReadonlyArray<string>
  readonly rows: number
}

/** The database file, open in its read transaction (committed by whoever is done with it), and what was read of it. */
export interface Source {
  readonly file: string
  readonly db: SourceDatabase
  /** Its `garrison_migrations` rows, as `migrationKey`s. */
  readonly migrations: ReadonlyArray<string>
  readonly tables: ReadonlyArray<SourceTable>
}


/** Refuses while another process has the database open; a warning, once, where that cannot be seen. */
export const refuseIfInUse = (file: string, when: "before" | "during"): Effect.Effect<void, StartupError> =>
  Effect.suspend(() => {
    const holders = sqliteLockHolders(file)
    if (holders === undefined) {
      return when === "before"
        ? Console.error(`warning: cannot tell on this system whether a controller has ${file} open (no /proc/locks): make sure it is stopped`)
        : Effect.void
    }
    if (holders.length === 0) return Effect.void
    const who = `${holders.length === 1 ? "process" : "processes"} ${holders.join(", ")}`
    return Effect.fail(
      when === "before"
        ? refuse(
            "data-dir",
            `${who} ${holders.length === 1 ? "has" : "have"} ${file} open: a controller is running on this data directory; stop it (or whatever else holds the file) first`
          )
        : refuse("database", `${who} opened ${file} during the copy (a controller started?): stop it and run this again`)
    )
  })

/** The database file, opened read-only; closed when the scope closes. */
const openSource = (file: string) =>
  Effect.acquireRelease(
    Effect.try({
      try: () => {
        const Sqlite = require("better-sqlite3") as SourceConstructor
        return new Sqlite(file, { readonly: true, fileMustExist: true })
      },
      catch: (cause) => refuse("data-dir", `cannot open ${file}: ${errorMessage(cause)}`)
    }),
    (db) => Effect.sync(() => db.close())
  )

/** Runs `f` on the source, a SQLite error becoming a refusal that says what was being read. */
export const reading = <A>(file: string, what: string, f: () => A) =>
  Effect.try({ try: f, catch: (cause) => refuse("data-dir", `cannot read ${what} from ${file}: ${errorMessage(cause)}`) })

/** Every table but SQLite's own and `garrison_migrations` (the migrations write that one on PostgreSQL). */
const readSourceTables = (db: SourceDatabase): ReadonlyArray<SourceTable> => {
  const masters = db.prepare(
    "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE type IN ('table', 'trigger') ORDER BY name"
  ).all() as ReadonlyArray<{ readonly type: string; readonly name: string; readonly tbl_name: string; readonly sql: string | null }>
  const tables = masters.filter((m) => m.type === "table" && !m.name.startsWith("sqlite_") && m.name !== "garrison_migrations")
  const names = new Set(tables.map((t) => t.name))
  return tables.map((table) => {
    const info = db.prepare(`PRAGMA table_info(${quote(table.name)})`).all() as ReadonlyArray<{ readonly name: string; readonly pk: number }>
    const keys = db.prepare(`PRAGMA foreign_key_list(${quote(table.name)})`).all() as ReadonlyArray<{ readonly table: string }>
    const targets = masters
      .filter((m) => m.type === "trigger" && m.tbl_name === table.name)
      .flatMap((m) => [...(m.sql ?? "").matchAll(/\b(?:UPDATE|INSERT\s+(?:OR\s+\w+\s+)?INTO|DELETE\s+FROM|REPLACE\s+INTO)\s+["`[]?(\w+)/gi)])
      .map((match) => match[1]!)
    const rows = db.prepare(`SELECT count(*) FROM ${quote(table.name)}`).pluck().get() as number
    return {
      name: table.name,
      columns: info.map((c) => c.name),
      primaryKey: info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name),
      withoutRowid: /\bWITHOUT\s+ROWID\b/i.test(table.sql ?? ""),
      references: [...new Set(keys.map((k) => k.table))].filter((t) => t !== table.name && names.has(t)),
      triggerTargets: [...new Set(targets)].filter((t) => t !== table.name && names.has(t)),
      rows
    }
  })
}

/**
 * The controller database at `file`, refused unless it exists, no other
 * process has it open, it passes `PRAGMA quick_check` and it has
 * `garrison_migrations`; then its migrations and tables, read in the read
 * transaction it stays in until the scope's end or a COMMIT.
 */
export const readSource = (file: string): Effect.Effect<Source, StartupError, Scope.Scope> =>
  Effect.gen(function* () {
    if (!existsSync(file)) {
      return yield* refuse("data-dir", `no controller database at ${file}: set DATA_DIR to the data directory of the SQLite controller to move`)
    }
    yield* refuseIfInUse(file, "before")
    const db = yield* openSource(file)
    const check = yield* reading(file, "quick_check", () => db.prepare("PRAGMA quick_check").pluck().all().map(String))
    if (check.length !== 1 || check[0] !== "ok") {
      // Its lines, on one line: "*** in database main ***" heads them.
      const problems = check.flatMap((row) => row.split("\n")).map((line) => line.trim()).filter((line) => line !== "" && !line.startsWith("***"))
      return yield* refuse(
        "data-dir",
        `${file} fails PRAGMA quick_check (${listed(problems.slice(0, 3))}${problems.length > 3 ? "; ..." : ""}): start the controller on it once (it restores the newest good backup), stop it, then run this again`
      )
    }
    // One snapshot for everything read below: counts and rows agree whatever happens to the file meanwhile.
    yield* reading(file, "a snapshot", () => db.exec("BEGIN"))
    const hasMigrations = yield* reading(file, "its tables", () =>
      db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'garrison_migrations'").pluck().get() === 1)
    if (!hasMigrations) {
      return yield* refuse("data-dir", `${file} has no garrison_migrations table: it is no controller's database, or one that never started`)
    }
    const migrations = yield* reading(file, "garrison_migrations", () =>
      (db.prepare("SELECT plugin_id, version FROM garrison_migrations").all() as ReadonlyArray<{ readonly plugin_id: string; readonly version: number }>)
        .map((row) => migrationKey(row.plugin_id, row.version)))
    const tables = yield* reading(file, "its schema", () => readSourceTables(db))
    return { file, db, migrations, tables }
  })

/**
 * The order to copy in: each table after those its foreign keys reference
 * and after those whose triggers write it; otherwise by name.
 */
export const copyOrder = (tables: ReadonlyArray<SourceTable>): Effect.Effect<ReadonlyArray<SourceTable>, StartupError> => {
  const before = new Map<string, Set<string>>(tables.map((t) => [t.name, new Set(t.references)]))
  for (const table of tables) for (const target of table.triggerTargets) before.get(target)!.add(table.name)
  const ordered: Array<SourceTable> = []
  const left = [...tables].sort((a, b) => a.name.localeCompare(b.name))
  while (left.length > 0) {
    const done = new Set(ordered.map((t) => t.name))
    const next = left.findIndex((t) => [...before.get(t.name)!].every((name) => done.has(name)))
    if (next < 0) {
      return Effect.fail(refuse("database", `the foreign keys of ${listed(left.map((t) => t.name))} form a cycle: no order copies them`))
    }
    ordered.push(...left.splice(next, 1))
  }
  return Effect.succeed(ordered)
}
