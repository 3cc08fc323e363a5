/**
 * `npm run move-to-postgres` over real processes: a controller on SQLite
 * gets an admin (signed in), bans, a user and the audit rows those make;
 * stopped cleanly, its database is moved into a fresh database of a
 * PostgreSQL 15 this file starts (`startPostgres`). Then, checked with SQL
 * on both sides: every table's row count, the audit chain re-hashed row by
 * row, the SQLite file untouched; a controller on the moved database
 * serves the same accounts and verifies the chain. Refused, exit 1, one
 * line, never the password: no DATABASE_URL, a database that is not empty
 * (the second run), and a controller running on the data directory.
 *
 * Needs the build (`npm run build`): the controller and the command run from `dist`.
 */
import { AUDIT_GENESIS_HASH, auditRowHash } from "@garrison/plugins"
import { type PostgresServer, startPostgres, withReadOnlyDatabase } from "@garrison/testkit/core"
import { createHash } from "node:crypto"
import { copyFileSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import * as NodePath from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  assertBuilt,
  type ControllerHandle,
  type ControllerOptions,
  makeTempDir,
  removeDir,
  repoRoot,
  requestJson,
  spawnNode,
  startController,
  stopProcess,
  waitForExit
} from "../support/controller.js"

const MOVE = NodePath.join(repoRoot, "packages/http/dist/moveToPostgres.js")
const ADMIN = { username: "move-admin", password: "move admin password" }
const USER = { username: "move-user", password: "move user password" }
/** Given in every URL: trust authentication ignores it, and no output may show it. */
const PASSWORD = "not-to-be-printed-7Qx"
const BANS = ["76561198000000011", "76561198000000012", "76561198000000013"]

let postgres: PostgresServer
let dataDir: string
const controllers: Array<ControllerHandle> = []
const otherDirs: Array<string> = []

interface WritableStatement {
  run(...params: ReadonlyArray<unknown>): unknown
  get(...params: ReadonlyArray<unknown>): unknown
  pluck(): WritableStatement
}

/** Edits a copy of the database the way a bug or a hand might have (better-sqlite3 ships no types: the little used is typed here). */
const editDatabase = <A>(file: string, f: (db: { prepare(sql: string): WritableStatement }) => A): A => {
  const Sqlite = createRequire(import.meta.url)("better-sqlite3") as new(file: string) => { prepare(sql: string): WritableStatement; close(): void }
  const db = new Sqlite(file)
  try {
    return f(db)
  } finally {
    db.close()
  }
}

/** The data directory's controller, on SQLite whatever the test pass (an empty DATABASE_URL is unset). */
const startOnSqlite = async (env: ControllerOptions["env"] = {}) => {
  const controller = await startController({ dataDir, env: { DATABASE_URL: "", ...env } })
  controllers.push(controller)
  return controller
}

const stopCleanly = async (controller: ControllerHandle) => {
  const ended = await stopProcess(controller, 15_000)
  expect(ended.signal, `the controller was killed; output:\n${controller.output()}`).toBeNull()
}

/** `url` with the password in it, as an operator would write it. */
const withPassword = (url: string) => {
  const parsed = new URL(url)
  parsed.password = PASSWORD
  return parsed.toString()
}

const databaseName = (url: string) => new URL(url).pathname.slice(1)

/** Runs the command to its end: its exit code and its output (stdout and stderr). */
const move = async (env: Readonly<Record<string, string>>) => {
  const run = spawnNode({ args: [MOVE], env: { DATA_DIR: dataDir, ...env } })
  const ended = await waitForExit(run, 60_000)
  if (ended === undefined) {
    run.child.kill("SIGKILL")
    throw new Error(`move-to-postgres still ran after 60 s; output:\n${run.output()}`)
  }
  expect(run.output()).not.toContain(PASSWORD)
  return { code: ended.code, output: run.output() }
}

const sqliteFile = () => NodePath.join(dataDir, "garrison.db")
const fileHash = () => createHash("sha256").update(readFileSync(sqliteFile())).digest("hex")

/** Every table the move copies, and its rows, read from the SQLite file. */
const sqliteCounts = (): Record<string, number> =>
  withReadOnlyDatabase(sqliteFile(), (db) => {
    const names = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'garrison_migrations'")
      .pluck()
      .all()
      .map(String)
    return Object.fromEntries(names.map((name) => [name, Number(db.prepare(`SELECT count(*) FROM "${name}"`).pluck().all()[0])]))
  })

/** The same tables' rows on PostgreSQL, in one statement (a JSON object of each table's count, merged). */
const postgresCounts = async (database: string, tables: ReadonlyArray<string>): Promise<Record<string, number>> => {
  // json_build_object takes at most 100 arguments (50 tables): one object per 50 tables, merged into one.
  const objects: Array<string> = []
  for (let i = 0; i < tables.length; i += 50) {
    objects.push(`json_build_object(${tables.slice(i, i + 50).map((t) => `'${t}', (SELECT count(*) FROM "${t}")`).join(", ")})::jsonb`)
  }
  const json = await postgres.query(`SELECT (${objects.length === 0 ? "'{}'::jsonb" : objects.join(" || ")})::text`, database)
  return JSON.parse(json) as Record<string, number>
}

/** Tables in the database's public schema. */
const postgresTables = async (database: string) =>
  Number(await postgres.query("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'", database))

interface AuditRecord {
  readonly seq: number | string
  readonly at: string
  readonly actor: string | null
  readonly actor_name: string | null
  readonly ip: string | null
  readonly action: string
  readonly target: string | null
  readonly result: string
  readonly details: string | null
  readonly hash_version: number | string
  readonly prev_hash: string
  readonly hash: string
}

beforeAll(async () => {
  assertBuilt(MOVE)
  dataDir = makeTempDir()
  postgres = await startPostgres()
  const controller = await startOnSqlite({ ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password })
  const api = (method: string, path: string, body?: unknown, token?: string) =>
    requestJson(controller.baseUrl, method, path, { body, headers: token === undefined ? {} : { authorization: `Bearer ${token}` } })
  // A failed sign-in and a good one: audit rows of their own.
  expect((await api("POST", "/api/auth/login", { ...ADMIN, password: "wrong password here" })).status).toBe(401)
  const signedIn = await api("POST", "/api/auth/login", ADMIN)
  expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200)
  const token = (signedIn.body as { readonly token: string }).token
  for (const [n, platformId] of BANS.entries()) {
    const banned = await api("POST", "/api/bans", { platformId, playerName: `Player ${n}`, reason: `moved ban ${n} ✓` }, token)
    expect(banned.status, JSON.stringify(banned.body)).toBe(201)
  }
  const user = await api("POST", "/api/users", { ...USER, role: "moderator", mustChangePassword: false }, token)
  expect(user.status, JSON.stringify(user.body)).toBe(201)
  await stopCleanly(controller)
}, 120_000)

afterAll(async () => {
  for (const controller of controllers) await stopProcess(controller)
  await postgres?.stop()
  for (const dir of [dataDir, ...otherDirs]) if (dir !== undefined) removeDir(dir)
}, 60_000)

describe.sequential("npm run move-to-postgres", { timeout: 90_000 }, () => {
  let moved: string

  it("refuses without DATABASE_URL, or with one naming no PostgreSQL database, in one line, exit 1", async () => {
    const unset = await move({ DATABASE_URL: "" })
    expect(unset.code).toBe(1)
    expect(unset.output.trim()).toMatch(/^cannot move: DATABASE_URL is not set: set it to the empty PostgreSQL database/)
    const other = await move({ DATABASE_URL: `mysql://garrison:${PASSWORD}@127.0.0.1/garrison` })
    expect(other.code).toBe(1)
    expect(other.output.trim()).toMatch(/^cannot move: bad configuration: .*DATABASE_URL.*postgres:\/\//)
    const missing = await move({ DATABASE_URL: withPassword(`${postgres.url.replace(/\/postgres$/, "")}/no_such_database`) })
    expect(missing.code).toBe(1)
    expect(missing.output.trim()).toMatch(/^cannot move: PostgreSQL at postgres:\/\/garrison@127\.0\.0\.1:\d+\/no_such_database: cannot connect: .*does not exist/)
    expect(missing.output.trim().split("\n")).toHaveLength(1)
  })

  it("copies every table into an empty database, checks it and says what it copied; the SQLite file is not written", async () => {
    moved = await postgres.createDatabase()
    const before = fileHash()
    const expected = sqliteCounts()
    const run = await move({ DATABASE_URL: withPassword(moved) })
    expect(run.code, run.output).toBe(0)
    expect(fileHash()).toBe(before)

    // The summary: every table with its rows, the totals, the audit rows checked.
    const listed = Object.fromEntries([...run.output.matchAll(/^ {2}(\w+) +(\d+) rows?$/gm)].map((m) => [m[1]!, Number(m[2])]))
    expect(listed).toEqual(expected)
    expect(expected["bans"]).toBe(BANS.length)
    expect(expected["accounts_users"]).toBe(2)
    const total = Object.values(expected).reduce((sum, n) => sum + n, 0)
    expect(run.output).toContain(`tables: ${Object.keys(expected).length}; rows: ${total}; every table's row count equals the source's`)
    expect(run.output).toContain(`audit rows checked: ${expected["audit_log"]};`)
    expect(run.output).toMatch(/seeded by the migrations, replaced by the source's rows: .*accounts_roles.*audit_head/)
    expect(run.output).toContain(`to postgres://garrison@127.0.0.1:${postgres.port}/${databaseName(moved)} (PostgreSQL 15`)
  })

  it("PostgreSQL holds the same rows: counts per table, the bans and users, and an audit chain that re-hashes to the source's last hash", async () => {
    const database = databaseName(moved)
    const expected = sqliteCounts()
    expect(await postgresCounts(database, Object.keys(expected))).toEqual(expected)
    const bans = (await postgres.query("SELECT platform_id FROM bans ORDER BY platform_id", database)).split("\n")
    expect(bans).toEqual(BANS)
    expect((await postgres.query("SELECT username FROM accounts_users ORDER BY username", database)).split("\n")).toEqual([ADMIN.username, USER.username])

    // The chain, checked here from the rows themselves (not with the command's own check).
    const rows = JSON.parse(await postgres.query("SELECT coalesce(json_agg(a ORDER BY seq), '[]') FROM audit_log a", database)) as Array<AuditRecord>
    expect(rows.length).toBe(expected["audit_log"])
    expect(rows.length).toBeGreaterThanOrEqual(BANS.length + 2)
    let prev = AUDIT_GENESIS_HASH
    for (const [index, row] of rows.entries()) {
      expect(Number(row.seq)).toBe(index + 1)
      expect(row.prev_hash).toBe(prev)
      const hash = auditRowHash({
        version: Number(row.hash_version),
        prevHash: row.prev_hash,
        at: row.at,
        actor: row.actor,
        actorName: row.actor_name,
        ip: row.ip,
        action: row.action,
        target: row.target,
        result: row.result,
        details: row.details
      })
      expect(hash, `audit row ${row.seq}`).toBe(row.hash)
      prev = row.hash
    }
    const [headSeq, headHash] = (await postgres.query("SELECT seq, hash FROM audit_head WHERE id = 1", database)).split("|")
    expect(Number(headSeq)).toBe(rows.length)
    expect(headHash).toBe(prev)
    const sourceLast = withReadOnlyDatabase(sqliteFile(), (db) => db.prepare("SELECT hash FROM audit_log ORDER BY seq DESC LIMIT 1").pluck().all()[0])
    expect(headHash).toBe(sourceLast)
    expect(rows.some((row) => row.action.startsWith("bans.")), rows.map((r) => r.action).join(", ")).toBe(true)
  })

  it("a second run against the now non-empty database is refused in one line, exit 1, and changes nothing", async () => {
    const database = databaseName(moved)
    const tables = Object.keys(sqliteCounts())
    const before = await postgresCounts(database, tables)
    const again = await move({ DATABASE_URL: withPassword(moved) })
    expect(again.code).toBe(1)
    expect(again.output.trim()).toMatch(
      new RegExp(`^cannot move: the PostgreSQL database postgres://garrison@127\\.0\\.0\\.1:${postgres.port}/${database} is not empty \\(public\\.\\w+`)
    )
    expect(again.output.trim().split("\n")).toHaveLength(1)
    expect(await postgresCounts(database, tables)).toEqual(before)
  })

  it("a controller on the moved database serves the same accounts and verifies the audit chain", async () => {
    const controller = await startController({ dataDir, env: { DATABASE_URL: moved } })
    controllers.push(controller)
    const admin = await requestJson(controller.baseUrl, "POST", "/api/auth/login", { body: ADMIN })
    expect(admin.status, JSON.stringify(admin.body)).toBe(200)
    expect((await requestJson(controller.baseUrl, "POST", "/api/auth/login", { body: USER })).status).toBe(200)
    const token = (admin.body as { readonly token: string }).token
    const verified = await requestJson(controller.baseUrl, "GET", "/api/audit/verify", { headers: { authorization: `Bearer ${token}` } })
    expect(verified.status).toBe(200)
    expect(verified.body).toMatchObject({ ok: true })
    await stopCleanly(controller)
  })

  it("a value PostgreSQL cannot hold, or an audit chain that does not verify there, is named and rolls everything back", async () => {
    const copy = makeTempDir()
    otherDirs.push(copy)
    const file = NodePath.join(copy, "garrison.db")
    copyFileSync(sqliteFile(), file)
    const banId = editDatabase(file, (db) => {
      const id = String(db.prepare("SELECT id FROM bans ORDER BY id LIMIT 1").pluck().get())
      db.prepare("UPDATE bans SET reason = ? WHERE id = ?").run("a NUL \u0000 inside", id)
      return id
    })
    const target = await postgres.createDatabase()
    const described = `postgres://garrison@127.0.0.1:${postgres.port}/${databaseName(target)}`
    const nul = await move({ DATA_DIR: copy, DATABASE_URL: withPassword(target) })
    expect(nul.code).toBe(1)
    expect(nul.output.trim()).toBe(
      `cannot move: cannot copy bans row id="${banId}": column reason holds text with a NUL character, which PostgreSQL text cannot store; ` +
        `rolled back: nothing was written to ${described}`
    )
    expect(await postgresTables(databaseName(target))).toBe(0)

    editDatabase(file, (db) => {
      db.prepare("UPDATE bans SET reason = 'fixed' WHERE id = ?").run(banId)
      db.prepare("UPDATE audit_log SET target = 'somewhere else' WHERE seq = 2").run()
    })
    const tampered = await move({ DATA_DIR: copy, DATABASE_URL: withPassword(target) })
    expect(tampered.code).toBe(1)
    expect(tampered.output.trim()).toMatch(/^cannot move: the audit chain does not verify on PostgreSQL: row 2 does not match its own hash: .*rolled back: nothing was written/)
    expect(tampered.output.trim().split("\n")).toHaveLength(1)
    expect(await postgresTables(databaseName(target))).toBe(0)
  })

  it("is refused while a controller runs on the data directory, naming its process; the target stays empty", async () => {
    const controller = await startOnSqlite()
    const target = await postgres.createDatabase()
    const refused = await move({ DATABASE_URL: withPassword(target) })
    expect(refused.code).toBe(1)
    expect(refused.output.trim()).toBe(
      `cannot move: process ${controller.pid} has ${sqliteFile()} open: a controller is running on this data directory; stop it (or whatever else holds the file) first`
    )
    expect(await postgresTables(databaseName(target))).toBe(0)
    await stopCleanly(controller)
  })
})
