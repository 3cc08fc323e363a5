/**
 * `npm run move-to-postgres`: copies a stopped controller's SQLite database
 * (`<DATA_DIR>/garrison.db`) into the empty PostgreSQL database
 * `DATABASE_URL` names, and checks the copy before it commits it.
 *
 * - Refuses, with one line and exit code 1: `DATABASE_URL` unset or not a
 *   PostgreSQL URL; no database file, or one failing `PRAGMA quick_check`;
 *   a process holding the file open (a controller running on the data
 *   directory: on Linux, read off `/proc/locks`, see `lockHolders`); a
 *   source whose migrations are not exactly this code's (behind: start the
 *   controller on SQLite once; ahead: this is older code or other
 *   `PLUGINS`); a PostgreSQL database that already has tables. The
 *   password is never printed (the runtime's store names the server without it).
 * - The schema is the controller's own: the migrations of the same plugin
 *   list (`defaultPlugins` plus `PLUGINS`) through `runMigrations` on the
 *   runtime's PostgreSQL store.
 * - One PostgreSQL transaction holds it all: the migrations, the rows the
 *   migrations seeded (built-in roles, `audit_head`, ...) replaced by the
 *   source's, every table's rows (foreign keys' order, tables a trigger
 *   writes after the table it fires on, multi-row INSERTs with bound
 *   parameters), then the checks: each table's row count, the migrations,
 *   the audit chain (`AuditLog.verify` on PostgreSQL, its last hash the
 *   source's), and that no process opened the SQLite file meanwhile. Any
 *   failure rolls it all back, so the target is as empty as it was and the
 *   command can simply run again.
 * - The source is opened read-only and read in one read transaction (one
 *   snapshot). SQLite may create an empty `-wal`/`-shm` beside it, as any
 *   reader of a WAL database does; the database file itself is never written.
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as SqlClient from "@effect/sql/SqlClient"
import { AuditLog, defaultPlugins } from "@garrison/plugins"
import {
  Database,
  DataDir,
  errorMessage,
  GarrisonConfig,
  type MigrationSet,
  planPlugins,
  runMigrations,
  SealedSecrets,
  Secrets,
  StartupError
} from "@garrison/runtime"
import * as Cause from "effect/Cause"
import * as ConfigError from "effect/ConfigError"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as Option from "effect/Option"
import { existsSync, readFileSync, statSync } from "node:fs"
import { createRequire } from "node:module"
import * as NodePath from "node:path"
import { loadPlugins } from "./PluginLoader.js"

/** PostgreSQL's limit on bound parameters in one statement (a 16-bit count). */
const MAX_PARAMETERS = 65535
/** Rows in one INSERT at most (fewer for wide tables, so the parameters stay under the limit). */
const MAX_BATCH_ROWS = 500
/** Lists in messages name this many items, then say how many more. */
const LIST_LIMIT = 5

const refuse = (reason: "config" | "data-dir" | "database", message: string) => new StartupError({ reason, message })

const quote = (identifier: string): string => `"${identifier.replace(/"/g, '""')}"`

const listed = (items: ReadonlyArray<string>): string =>
  items.length <= LIST_LIMIT ? items.join(", ") : `${items.slice(0, LIST_LIMIT).join(", ")} and ${items.length - LIST_LIMIT} more`

// ---------------------------------------------------------------------------------------------------------------
// The source: better-sqlite3 directly (typed locally, as the runtime's rawSqlite.ts does: the package ships no
// types), read-only, integers as BigInt so none loses digits on the way.

interface SourceStatement {
  all(...params: ReadonlyArray<unknown>): Array<unknown>
  get(...params: ReadonlyArray<unknown>): unknown
  pluck(toggle?: boolean): SourceStatement
  raw(toggle?: boolean): SourceStatement
  safeIntegers(toggle?: boolean): SourceStatement
}

interface SourceDatabase {
  prepare(source: string): SourceStatement
  exec(source: string): void
  close(): void
}

type SourceConstructor = new(
  filename: string,
  options: { readonly readonly: boolean; readonly fileMustExist: boolean }
) => SourceDatabase

const require = createRequire(import.meta.url)

/**
 * Other processes holding SQLite locks on `file` (their pids), from
 * `/proc/locks`: a controller keeps its database open, and in WAL mode an
 * open connection holds a shared lock on the file for as long as it is open,
 * busy or idle. Matched by inode (overlay filesystems report another device
 * there than `stat` does) and by the lock's range (SQLite's lock bytes start
 * at 0x40000000). `undefined` where there is no `/proc/locks` (not Linux).
 */
const lockHolders = (file: string): ReadonlyArray<number> | undefined => {
  let locks: string
  try {
    locks = readFileSync("/proc/locks", "utf8")
  } catch {
    return undefined
  }
  const inode = statSync(file, { bigint: true }).ino.toString()
  const pids = new Set<number>()
  for (const line of locks.split("\n")) {
    // "1: POSIX  ADVISORY  READ 7260 fe:00:2435426 1073741826 1073742335" (a waiting lock has "->" after the number)
    const fields = line.trim().split(/\s+/).filter((field) => field !== "->")
    const [, kind, , , pidText, where, start] = fields
    if (kind !== "POSIX" || where === undefined || start === undefined) continue
    if (where.split(":")[2] !== inode || !/^\d+$/.test(start) || BigInt(start) < 0x40000000n) continue
    const pid = Number(pidText)
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid) pids.add(pid)
  }
  return [...pids].sort((a, b) => a - b)
}

/** Refuses while another process has the database open; a warning, once, where that cannot be seen. */
const refuseIfInUse = (file: string, when: "before" | "during") =>
  Effect.suspend(() => {
    const holders = lockHolders(file)
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
const reading = <A>(file: string, what: string, f: () => A) =>
  Effect.try({ try: f, catch: (cause) => refuse("data-dir", `cannot read ${what} from ${file}: ${errorMessage(cause)}`) })

interface SourceTable {
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
 * The order to copy in: each table after those its foreign keys reference
 * and after those whose triggers write it; otherwise by name.
 */
const copyOrder = (tables: ReadonlyArray<SourceTable>): Effect.Effect<ReadonlyArray<SourceTable>, StartupError> => {
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

const migrationKey = (pluginId: string, version: number | string) => `${pluginId} v${Number(version)}`

// ---------------------------------------------------------------------------------------------------------------
// Values: what SQLite holds (any type in any column) against what the PostgreSQL column takes.

interface TargetColumn {
  readonly name: string
  readonly type: string
}

interface TargetTable {
  readonly name: string
  readonly columns: ReadonlyMap<string, TargetColumn>
}

const INTEGER_RANGES: Readonly<Record<string, readonly [bigint, bigint]>> = {
  smallint: [-32768n, 32767n],
  integer: [-2147483648n, 2147483647n],
  bigint: [-9223372036854775808n, 9223372036854775807n]
}
const FLOAT_TYPES = new Set(["real", "double precision", "numeric"])

const shown = (value: unknown): string =>
  value === null
    ? "NULL"
    : Buffer.isBuffer(value)
      ? `a ${value.length}-byte BLOB`
      : typeof value === "string"
        ? JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}...` : value)
        : String(value)

const kindOf = (value: unknown): string =>
  Buffer.isBuffer(value) ? "a BLOB" : typeof value === "string" ? "text" : typeof value === "bigint" ? "an integer" : "a real number"

/**
 * `value` as it is bound for `column`, or why it cannot go there. `rawText`
 * reads the cell's bytes, for text SQLite gave back with U+FFFD in it: bytes
 * that are not UTF-8 read that way, and PostgreSQL text holds UTF-8 only.
 */
const bindable = (value: unknown, column: TargetColumn, rawText: () => Buffer | undefined): { readonly value: unknown } | { readonly problem: string } => {
  if (value === null) return { value }
  const type = column.type
  const misfit = { problem: `holds ${kindOf(value)} (${shown(value)}), which a PostgreSQL ${type} column cannot take` }
  const range = INTEGER_RANGES[type]
  if (range !== undefined) {
    const integer = typeof value === "bigint" ? value : typeof value === "number" && Number.isInteger(value) ? BigInt(value) : undefined
    if (integer === undefined) return misfit
    return integer >= range[0] && integer <= range[1] ? { value } : { problem: `holds ${integer}, beyond the range of PostgreSQL ${type}` }
  }
  if (FLOAT_TYPES.has(type)) return typeof value === "bigint" || typeof value === "number" ? { value } : misfit
  if (type === "boolean") return value === 0n || value === 1n ? { value: value === 1n } : misfit
  if (type === "bytea") return Buffer.isBuffer(value) ? { value } : misfit
  // A BLOB would be bound as the binary form of the column's type: never what it meant.
  if (Buffer.isBuffer(value)) return misfit
  if (typeof value === "string") {
    if (value.includes("\u0000")) return { problem: "holds text with a NUL character, which PostgreSQL text cannot store" }
    if (value.includes("\uFFFD")) {
      const bytes = rawText()
      if (bytes !== undefined && !bytes.equals(Buffer.from(value, "utf8"))) {
        return { problem: "holds text that is not valid UTF-8 (PostgreSQL text is UTF-8 only)" }
      }
    }
  }
  // Text, and numbers in a text column: PostgreSQL parses the text for its type, and a value it refuses is named by row.
  return { value }
}

/** The PostgreSQL driver's own words for a failure, with its SQLSTATE and detail, never the URL. */
const sqlProblem = (error: unknown): string => {
  const cause = (error as { readonly cause?: unknown }).cause
  if (typeof cause !== "object" || cause === null) return errorMessage(error)
  const { message, code, detail } = cause as { readonly message?: unknown; readonly code?: unknown; readonly detail?: unknown }
  const text = typeof message === "string" && message !== "" ? message : errorMessage(error)
  return `${text}${typeof detail === "string" && detail !== "" ? ` (${detail})` : ""}${typeof code === "string" ? ` [${code}]` : ""}`
}

// ---------------------------------------------------------------------------------------------------------------
// The copy, inside the transaction.

interface Copied {
  readonly table: string
  readonly rows: number
  /** Rows the migrations had put there, replaced by the source's. */
  readonly seeded: number
}

const copyTable = (
  sql: SqlClient.SqlClient,
  db: SourceDatabase,
  file: string,
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

// ---------------------------------------------------------------------------------------------------------------
// The command

interface Summary {
  readonly source: string
  readonly target: string
  readonly serverVersion: string
  readonly copied: ReadonlyArray<Copied>
  readonly migrations: number
  readonly auditRows: number | undefined
  readonly auditHash: string | undefined
}

const program = Effect.gen(function* () {
  // Files SQLite creates beside the database (an empty -wal/-shm) are the owner's only, like the data directory's.
  process.umask(0o077)
  if (process.argv.length > 2) {
    // Not echoed: a URL given here may hold a password.
    return yield* refuse("config", "move-to-postgres takes no arguments: set DATA_DIR and DATABASE_URL (and PLUGINS, as the controller has it) in the environment")
  }
  const config = yield* GarrisonConfig
  if (config.databaseUrl === undefined) {
    return yield* refuse(
      "config",
      "DATABASE_URL is not set: set it to the empty PostgreSQL database to move to (postgres://user:password@host:5432/garrison)"
    )
  }
  const file = NodePath.join(config.dataDir, "garrison.db")
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
  const sourceMigrations = yield* reading(file, "garrison_migrations", () =>
    (db.prepare("SELECT plugin_id, version FROM garrison_migrations").all() as ReadonlyArray<{ readonly plugin_id: string; readonly version: number }>)
      .map((row) => migrationKey(row.plugin_id, row.version)))
  const tables = yield* reading(file, "its schema", () => readSourceTables(db))

  // The controller's plugin list and its migrations: the source must be at exactly these versions.
  const plan = yield* planPlugins([...defaultPlugins, ...(yield* loadPlugins(config.plugins))])
  const sets: ReadonlyArray<MigrationSet> = plan.ordered.map((p) => ({ pluginId: p.id, migrations: p.migrations }))
  const expected = new Set(sets.flatMap((set) => set.migrations.map((m) => migrationKey(set.pluginId, m.version))))
  const have = new Set(sourceMigrations)
  const behind = [...expected].filter((key) => !have.has(key))
  const ahead = [...have].filter((key) => !expected.has(key))
  if (ahead.length > 0) {
    return yield* refuse(
      "database",
      `${file} has migrations this code does not (${listed(ahead)}): run this with the Garrison version and PLUGINS of the controller that last ran on it`
    )
  }
  if (behind.length > 0) {
    return yield* refuse(
      "database",
      `${file} lacks migrations of this version (${listed(behind)}): start the controller once on SQLite (DATABASE_URL unset) to migrate it, stop it, then run this again`
    )
  }
  const order = yield* copyOrder(tables)

  const summary = yield* Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const database = yield* Database
    const target = database.file
    /** Tables and views where the controller would create its own: `public` and the rest of the search path. */
    const occupied = sql<{ readonly name: string }>`
      SELECT n.nspname || '.' || c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE (n.nspname = 'public' OR n.nspname = ANY (current_schemas(false))) AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
      ORDER BY 1`
    const refuseIfNotEmpty = Effect.flatMap(occupied, (names) =>
      names.length === 0
        ? Effect.void
        : Effect.fail(
            refuse(
              "database",
              `the PostgreSQL database ${target} is not empty (${listed(names.map((n) => n.name))}): move into a new, empty database, ` +
                "or drop and recreate this one"
            )
          ))
    yield* refuseIfNotEmpty

    const moved = Effect.gen(function* () {
      // A second run against the same database waits here, then finds it not empty.
      yield* sql`SELECT pg_advisory_xact_lock(hashtext('garrison move-to-postgres'))`
      yield* refuseIfNotEmpty
      yield* runMigrations(sets)
      const targetMigrations = (yield* sql<{ readonly plugin_id: string; readonly version: number | string }>`
        SELECT plugin_id, version FROM garrison_migrations`).map((row) => migrationKey(row.plugin_id, row.version))
      const applied = new Set(targetMigrations)
      const differ = [...sourceMigrations.filter((key) => !applied.has(key)), ...targetMigrations.filter((key) => !have.has(key))]
      if (differ.length > 0) return yield* refuse("database", `garrison_migrations differs between SQLite and PostgreSQL: ${listed(differ)}`)

      const columns = yield* sql<{ readonly table_name: string; readonly column_name: string; readonly data_type: string }>`
        SELECT c.table_name, c.column_name, c.data_type FROM information_schema.columns c
        JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
        WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'`
      const targets = new Map<string, TargetTable>()
      for (const column of columns) {
        const table = targets.get(column.table_name) ?? { name: column.table_name, columns: new Map<string, TargetColumn>() }
        ;(table.columns as Map<string, TargetColumn>).set(column.column_name, { name: column.column_name, type: column.data_type })
        targets.set(column.table_name, table)
      }
      targets.delete("garrison_migrations")
      const targetOf = (name: string) => targets.get(name) ?? targets.get(name.toLowerCase())
      const differences = [
        ...order.filter((t) => targetOf(t.name) === undefined).map((t) => `${t.name} is missing on PostgreSQL`),
        ...[...targets.keys()].filter((name) => !order.some((t) => targetOf(t.name)?.name === name)).map((name) => `${name} is missing on SQLite`),
        ...order.flatMap((t) => {
          const pg = targetOf(t.name)
          if (pg === undefined) return []
          const lower = new Set(t.columns.map((c) => c.toLowerCase()))
          return [
            ...t.columns.filter((c) => !pg.columns.has(c) && !pg.columns.has(c.toLowerCase())).map((c) => `${t.name}.${c} is missing on PostgreSQL`),
            ...[...pg.columns.keys()].filter((c) => !t.columns.includes(c) && !lower.has(c)).map((c) => `${t.name}.${c} is missing on SQLite`)
          ]
        })
      ]
      if (differences.length > 0) return yield* refuse("database", `the schemas differ after migrating: ${listed(differences)}`)

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
        const rows = yield* copyTable(sql, db, file, table, targetOf(table.name)!)
        copied.push({ table: table.name, rows, seeded: seeded.get(table.name) ?? 0 })
      }

      // The checks, before COMMIT: a mismatch rolls everything back.
      const counted: Array<string> = []
      for (const table of order) {
        const [row] = yield* sql.unsafe<{ readonly n: number | string }>(`SELECT count(*) AS n FROM ${quote(targetOf(table.name)!.name)}`)
        const onTarget = Number(row?.n ?? -1)
        if (onTarget !== table.rows) counted.push(`${table.name} has ${table.rows} rows on SQLite, ${onTarget} on PostgreSQL`)
      }
      if (counted.length > 0) return yield* refuse("database", `row counts differ after the copy: ${listed(counted)}`)

      let auditRows: number | undefined
      let auditHash: string | undefined
      if (targetOf("audit_log") !== undefined && targetOf("audit_head") !== undefined) {
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
        auditRows = report.checked
        auditHash = head?.hash
      }
      yield* refuseIfInUse(file, "during")
      return { copied, migrations: targetMigrations.length, auditRows, auditHash }
    }).pipe(
      sql.withTransaction,
      Effect.catchTag("SqlError", (error) => Effect.fail(refuse("database", `PostgreSQL failed: ${sqlProblem(error)}`))),
      Effect.mapError((error) =>
        refuse(
          "database",
          `${error._tag === "StartupError" ? error.message : errorMessage(error)}; rolled back: nothing was written to ${target}`
        )
      )
    )
    const result = yield* moved
    const [version] = yield* sql<{ readonly server_version: string }>`SHOW server_version`
    return { source: file, target, serverVersion: version?.server_version.split(" ")[0] ?? "?", ...result } satisfies Summary
  }).pipe(
    Effect.catchTag("SqlError", (error) => Effect.fail(refuse("database", `PostgreSQL failed: ${sqlProblem(error)}`))),
    // The runtime's own store (start-up checks, the pool) and what runMigrations needs besides.
    Effect.provide(Layer.merge(Database.layer, SealedSecrets.layer.pipe(Layer.provide(Secrets.layer), Layer.provide(DataDir.layer))))
  )
  yield* Effect.sync(() => db.exec("COMMIT"))
  yield* Console.log(describeSummary(summary))
}).pipe(Effect.scoped)

const describeSummary = (summary: Summary): string => {
  const width = Math.max(0, ...summary.copied.map((c) => c.table.length))
  const rows = summary.copied.reduce((sum, c) => sum + c.rows, 0)
  const seeded = summary.copied.filter((c) => c.seeded > 0)
  return [
    `moved ${summary.source} to ${summary.target} (PostgreSQL ${summary.serverVersion}), checked, committed:`,
    ...summary.copied.map((c) => `  ${c.table.padEnd(width)}  ${c.rows} ${c.rows === 1 ? "row" : "rows"}`),
    `tables: ${summary.copied.length}; rows: ${rows}; every table's row count equals the source's`,
    `migrations: ${summary.migrations}, the same as the source's`,
    ...(seeded.length > 0 ? [`seeded by the migrations, replaced by the source's rows: ${seeded.map((c) => `${c.table} (${c.seeded})`).join(", ")}`] : []),
    summary.auditRows === undefined
      ? "audit chain: no audit tables"
      : `audit rows checked: ${summary.auditRows}; the chain verifies on PostgreSQL and ends at the source's last hash${summary.auditHash === undefined ? "" : ` (${summary.auditHash.slice(0, 16)}...)`}`,
    `next: start the controller with this DATABASE_URL and the same DATA_DIR (its secrets/ keys open the sealed values); ${NodePath.basename(summary.source)} is left as it was`
  ].join("\n")
}

const describe = (error: unknown) => (ConfigError.isConfigError(error) ? `bad configuration: ${String(error)}` : errorMessage(error))

program.pipe(
  Effect.provide(GarrisonConfig.layer),
  // The store's and the migrations' Info lines are noise here; warnings and errors still show.
  Logger.withMinimumLogLevel(LogLevel.Warning),
  Effect.catchAllCause((cause) =>
    Console.error(
      Cause.isInterruptedOnly(cause)
        ? "cannot move: interrupted; nothing was committed to PostgreSQL"
        : `cannot move: ${Option.match(Cause.failureOption(cause), { onNone: () => Cause.pretty(cause), onSome: describe })}`
    ).pipe(Effect.zipRight(Effect.failCause(cause)))
  ),
  NodeRuntime.runMain({ disableErrorReporting: true })
)
