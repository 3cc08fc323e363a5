/**
 * A large priority import asks the runtime for a backup ("priority-import")
 * that holds the imported entries; a small one does not.
 */
import { describe, expect, it } from "@effect/vitest"
import { BULK_WRITE_BACKUP_ROWS, Database } from "@garrison/runtime"
import { Effect } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { withDatabaseCopy } from "../../../../test/support/sqliteFile.js"
import { call, makeController, MANAGER } from "./support.js"

const entries = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({
    platformId: String(76561198000000000n + BigInt(from + i)),
    name: `V${from + i}`,
    role: "VIP",
    expiresAt: null
  }))

const importBackups = Effect.map(Database, (db) =>
  Fs.readdirSync(db.backupsDir)
    .filter((name) => name.endsWith("-priority-import.db"))
    .map((name) => NodePath.join(db.backupsDir, name))
)

const importAll = (body: ReadonlyArray<unknown>) =>
  Effect.map(call("POST", "/api/priority-queue/import", { as: MANAGER, json: body }), (reply) => {
    expect(reply.status).toBe(200)
    return (reply.body as { readonly added: number }).added
  })

const realSleep = (ms: number) => Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, ms)))

describe("priority import backups", () => {
  it.scopedLive(`an import adding ${BULK_WRITE_BACKUP_ROWS} entries is backed up; one adding fewer is not`, () =>
    Effect.gen(function* () {
      const controller = yield* makeController
      yield* Effect.provide(
        Effect.gen(function* () {
          expect(yield* importAll(entries(0, BULK_WRITE_BACKUP_ROWS - 1))).toBe(BULK_WRITE_BACKUP_ROWS - 1)
          yield* realSleep(2000)
          expect(yield* importBackups).toEqual([])

          expect(yield* importAll(entries(1000, BULK_WRITE_BACKUP_ROWS))).toBe(BULK_WRITE_BACKUP_ROWS)
          for (let i = 0; i < 150 && (yield* importBackups).length === 0; i++) yield* realSleep(20)
          const taken = yield* importBackups
          expect(taken).toHaveLength(1)
          const stored = withDatabaseCopy(taken[0] ?? "", (db) => db.prepare("SELECT COUNT(*) FROM priority_entries").pluck().all()[0])
          expect(Number(stored)).toBe(2 * BULK_WRITE_BACKUP_ROWS - 1)
        }),
        controller.layer
      )
    })
  )
})
