/**
 * `GET /api/health` tells a monitor how the database came up, and after a
 * restore from a backup, which backup and from when: every write after that
 * time is lost. Runs on the pass's engine: a first start is `created` on
 * both; restoring a backup is SQLite's corruption recovery only (a
 * PostgreSQL server recovers itself), so on PostgreSQL the same second start
 * asserts what is true there (opened, nothing restored).
 */
import { describe, expect, it } from "@effect/vitest"
import { Database } from "@garrison/runtime"
import { call, startKernel, tempDir, testController } from "@garrison/testkit"
import { testDatabaseEngine } from "@garrison/testkit/core"
import { Context, Effect, LogLevel } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { HealthPlugin } from "../../src/health/index.js"

interface HealthBody {
  readonly status: string
  readonly database: {
    readonly ok: boolean
    readonly startup: string
    readonly restoredFrom?: { readonly file: string; readonly takenAt: string | null }
  }
}

/** The controller with the health plugin on an existing data directory. */
const controllerOn = (dataDir: string) =>
  testController([HealthPlugin], { settings: { dataDir }, logLevel: LogLevel.Error })

const health = Effect.map(call("GET", "/api/health"), (reply) => {
  expect(reply.status).toBe(200)
  return reply.body as HealthBody
})

describe("health", () => {
  it.scopedLive("a first start reports the database created, with no restore", () =>
    Effect.gen(function* () {
      const body = yield* health
      expect(body.status).toBe("ok")
      expect(body.database).toMatchObject({ ok: true, startup: "created" })
      expect(body.database).not.toHaveProperty("restoredFrom")
    }).pipe(Effect.provide(controllerOn(tempDir("garrison-health-"))))
  )

  it.scopedLive("a second start on the same data directory reports the database opened", () =>
    Effect.gen(function* () {
      const dataDir = tempDir("garrison-health-")
      const first = yield* startKernel([HealthPlugin], dataDir)
      yield* first.stop
      const body = yield* health.pipe(Effect.provide(controllerOn(dataDir)))
      expect(body.status).toBe("ok")
      expect(body.database).toEqual({ ok: true, latencyMs: expect.any(Number), startup: "opened" })
    })
  )

  if (testDatabaseEngine() === "sqlite") {
    it.scopedLive("SQLite: after a restore it names the backup and when it was taken, without any path", () =>
      Effect.gen(function* () {
        const dataDir = tempDir("garrison-health-")
        // A first run that leaves one backup, then a database that no longer opens.
        const first = yield* startKernel([HealthPlugin], dataDir)
        const backup = yield* Effect.flatMap(Database, (db) => db.backupNow("scheduled")).pipe(
          Effect.provide(first.context as Context.Context<Database>)
        )
        yield* first.stop
        const file = NodePath.join(dataDir, "garrison.db")
        Fs.writeFileSync(file, Buffer.alloc(8192, 0xa5))

        const body = yield* health.pipe(Effect.provide(controllerOn(dataDir)))
        const stamp = /-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})-scheduled\.db$/.exec(backup)
        expect(stamp).not.toBeNull()
        const [, y, mo, d, h, mi, s, ms] = stamp ?? []
        expect(body.status).toBe("ok")
        expect(body.database).toEqual({
          ok: true,
          latencyMs: expect.any(Number),
          startup: "restored-from-backup",
          restoredFrom: { file: NodePath.basename(backup), takenAt: `${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}Z` }
        })
        expect(JSON.stringify(body)).not.toContain(dataDir)
      })
    )
  } else {
    it.scopedLive("PostgreSQL: no backup is ever restored at start-up (the server recovers itself): a file in the data directory changes nothing", () =>
      Effect.gen(function* () {
        const dataDir = tempDir("garrison-health-")
        // The same first run and backup as on SQLite, and the same garbage where SQLite's file would be: nothing reads it.
        const first = yield* startKernel([HealthPlugin], dataDir)
        const backup = yield* Effect.flatMap(Database, (db) => db.backupNow("scheduled")).pipe(
          Effect.provide(first.context as Context.Context<Database>),
          Effect.orElseSucceed(() => undefined) // without pg_dump the server's own backups apply
        )
        yield* first.stop
        Fs.writeFileSync(NodePath.join(dataDir, "garrison.db"), Buffer.alloc(8192, 0xa5))

        const body = yield* health.pipe(Effect.provide(controllerOn(dataDir)))
        expect(body.status).toBe("ok")
        expect(body.database).toEqual({ ok: true, latencyMs: expect.any(Number), startup: "opened" })
        expect(body.database).not.toHaveProperty("restoredFrom")
        if (backup !== undefined) expect(Fs.existsSync(backup)).toBe(true)
      })
    )
  }
})
