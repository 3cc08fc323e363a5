/**
 * The PostgreSQL store against a real PostgreSQL 15 of this file's own
 * (the testkit starts it with initdb and pg_ctl): `DATABASE_URL` switches
 * the store; migrations, pg_dump backups, the server's own backups when
 * pg_dump is missing, what start-up found (`created` until the database has
 * Garrison's tables, then `opened`), and start-up errors in one line that
 * never show the password.
 */
import { describe, expect, it } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import { ConfigProvider, Effect, Redacted } from "effect"
import { execFileSync } from "node:child_process"
import * as NodeFs from "node:fs"
import * as NodeNet from "node:net"
import * as NodePath from "node:path"
import { usePostgres } from "@garrison/testkit/filePostgres"
import { settingsConfig } from "../../src/config/GarrisonConfig.js"
import { Database, type Migration, runMigrations, shutdownBackup } from "../../src/database/index.js"
import type { SealedSecrets } from "../../src/secrets/SealedSecrets.js"
import { tempDataDir, withDatabase } from "./helpers.js"

const postgres = usePostgres()

const things: Migration = {
  version: 1,
  name: "create things",
  up: Effect.flatMap(SqlClient.SqlClient, (sql) => sql`CREATE TABLE things (id TEXT PRIMARY KEY, label TEXT NOT NULL)`)
}

/** A fresh empty database on the file's server, its URL with a password the server does not need (trust) but must never show. */
const freshDatabase = postgres.freshDatabaseUrl.pipe(
  Effect.map((url) => {
    const withPassword = new URL(url)
    withPassword.password = "hunter2-secret"
    return withPassword.toString()
  })
)

/** A loopback port nothing listens on. */
const closedPort = Effect.promise(
  () =>
    new Promise<number>((resolve) => {
      const probe = NodeNet.createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as NodeNet.AddressInfo
        probe.close(() => resolve(port))
      })
    })
)

describe("DATABASE_URL", () => {
  const read = (value: string) => Effect.withConfigProvider(settingsConfig, ConfigProvider.fromMap(new Map([["DATABASE_URL", value]])))

  it.effect("unset or empty keeps SQLite; a postgres:// or postgresql:// URL is taken, redacted", () =>
    Effect.gen(function* () {
      expect((yield* Effect.withConfigProvider(settingsConfig, ConfigProvider.fromMap(new Map()))).databaseUrl).toBeUndefined()
      expect((yield* read("  ")).databaseUrl).toBeUndefined()
      const taken = (yield* read("postgresql://u:pw@db.example:5432/garrison")).databaseUrl
      expect(taken && Redacted.value(taken)).toBe("postgresql://u:pw@db.example:5432/garrison")
      expect(String(taken)).not.toContain("pw")
    })
  )

  it.effect("another scheme, no database or not a URL is refused naming the problem, never quoting the password", () =>
    Effect.gen(function* () {
      for (const [value, problem] of [
        ["mysql://u:hunter2@db/garrison", "expected a postgres:// or postgresql:// URL, got a mysql:// one"],
        ["postgres://u:hunter2@db:5432/", "the URL names no database"],
        ["hunter2", "expected a URL such as postgres://"]
      ] as const) {
        const error = String(yield* Effect.flip(read(value)))
        expect(error).toContain("DATABASE_URL")
        expect(error).toContain(problem)
        expect(error).not.toContain("hunter2")
      }
    })
  )
})

describe("the PostgreSQL store", () => {
  it.effect(
    "opens the database DATABASE_URL names: migrations, data, and a pg_dump backup pg_restore reads, 0600",
    () =>
      Effect.gen(function* () {
        const url = yield* freshDatabase
        const dataDir = tempDataDir()
        const backup = yield* withDatabase(
          dataDir,
          Effect.gen(function* () {
            const database = yield* Database
            expect(database.engine).toBe("postgres")
            expect(database.backups).toBe("files")
            expect(database.file).toMatch(/^postgres:\/\/garrison@127\.0\.0\.1:\d+\/garrison_/)
            expect(database.file).not.toContain("hunter2")
            expect(yield* database.quickCheck).toBe(true)
            yield* runMigrations([{ pluginId: "things", migrations: [things] }])
            const sql = yield* SqlClient.SqlClient
            yield* sql`INSERT INTO things (id, label) VALUES ('a', 'first')`
            expect(yield* sql`SELECT id, label FROM things`).toEqual([{ id: "a", label: "first" }])
            return yield* database.backupNow("test")
          }),
          { databaseUrl: Redacted.make(url) }
        )
        expect(NodePath.dirname(backup)).toBe(NodePath.join(dataDir, "backups"))
        expect(NodePath.basename(backup)).toMatch(/^garrison-\d{8}T\d{9}-test\.pgdump$/)
        expect(NodeFs.statSync(backup).mode & 0o777).toBe(0o600)
        const listing = execFileSync(NodePath.join(postgres.installation().bin, "pg_restore"), ["--list", backup], { encoding: "utf8" })
        expect(listing).toMatch(/TABLE public things/)
        expect(listing).toMatch(/TABLE DATA public things/)
        // Nothing half-made stays behind.
        expect(NodeFs.readdirSync(NodePath.dirname(backup)).filter((name) => name.endsWith(".partial"))).toEqual([])
      }),
    120_000
  )

  it.effect(
    "start-up reports created while the database has no Garrison tables (garrison_migrations), opened once it has",
    () =>
      Effect.gen(function* () {
        const url = yield* freshDatabase
        const dataDir = tempDataDir()
        const databaseUrl = Redacted.make(url)
        const startup = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient | Database | SealedSecrets>) => withDatabase(dataDir, Effect.zipLeft(Effect.map(Database, (database) => database.startup), effect), { databaseUrl })
        // Tables of something else are no Garrison store yet.
        expect(yield* startup(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`CREATE TABLE unrelated (id TEXT)`))).toEqual({ outcome: "created" })
        expect(yield* startup(runMigrations([{ pluginId: "things", migrations: [things] }]))).toEqual({ outcome: "created" })
        expect(yield* startup(Effect.void)).toEqual({ outcome: "opened" })
      }),
    120_000
  )

  it.effect(
    "an unfinished dump left by a crash is removed at start-up, a finished one kept",
    () =>
      Effect.gen(function* () {
        const url = yield* freshDatabase
        const dataDir = tempDataDir()
        const backups = NodePath.join(dataDir, "backups")
        NodeFs.mkdirSync(backups, { recursive: true })
        NodeFs.writeFileSync(NodePath.join(backups, "garrison-20260101T000000000-scheduled.pgdump.partial"), "half a dump")
        NodeFs.writeFileSync(NodePath.join(backups, "garrison-20260101T000000000-shutdown.pgdump"), "kept")
        yield* withDatabase(dataDir, Database, { databaseUrl: Redacted.make(url) })
        expect(NodeFs.readdirSync(backups).sort()).toEqual(["garrison-20260101T000000000-shutdown.pgdump"])
      }),
    120_000
  )

  it.effect(
    "without pg_dump the server's own backups apply: a backup fails saying so, the shutdown takes none, migrations still run",
    () =>
      Effect.gen(function* () {
        const url = yield* freshDatabase
        const dataDir = tempDataDir()
        yield* withDatabase(
          dataDir,
          Effect.gen(function* () {
            const database = yield* Database
            expect(database.backups).toBe("server")
            const refused = yield* Effect.flip(database.backupNow("test"))
            expect(refused.message).toContain("pg_dump is not installed")
            yield* shutdownBackup()
            yield* runMigrations([{ pluginId: "things", migrations: [things] }])
            // A second migration set on a database that has rows: no pre-migration backup to take, and it still migrates.
            yield* runMigrations([{ pluginId: "things", migrations: [things, { ...things, version: 2, name: "more", up: Effect.flatMap(SqlClient.SqlClient, (sql) => sql`ALTER TABLE things ADD COLUMN extra TEXT`) }] }])
          }),
          { databaseUrl: Redacted.make(url) }
        ).pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map([["PATH", "/nonexistent"], ["PG_BIN", ""]]))))
        expect(NodeFs.readdirSync(NodePath.join(dataDir, "backups"))).toEqual([])
      }),
    120_000
  )

  it.effect("a server that does not answer stops the start-up in one line that names it, never its password", () =>
    Effect.gen(function* () {
      const port = yield* closedPort
      const error = yield* Effect.flip(
        withDatabase(tempDataDir(), Database, { databaseUrl: Redacted.make(`postgres://garrison:hunter2-secret@127.0.0.1:${port}/nowhere`) })
      )
      expect(error._tag).toBe("StartupError")
      expect(error.message).toMatch(new RegExp(`^PostgreSQL at postgres://garrison@127\\.0\\.0\\.1:${port}/nowhere: cannot connect: .*ECONNREFUSED`))
      expect(error.message).not.toContain("hunter2")
      expect(error.message).not.toContain("\n")
    })
  , 60_000)

  it.effect("a database that does not exist is named", () =>
    Effect.gen(function* () {
      const url = new URL(postgres.adminUrl())
      url.pathname = "/no_such_database"
      const error = yield* Effect.flip(withDatabase(tempDataDir(), Database, { databaseUrl: Redacted.make(url.toString()) }))
      expect(error.message).toContain('database "no_such_database" does not exist')
    })
  , 60_000)
})
