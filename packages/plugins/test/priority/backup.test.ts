/**
 * A large priority import asks the runtime for a backup ("priority-import")
 * that holds the imported entries; a small one does not (ruled out with a
 * marker request made after it). The request worker runs on the test clock.
 */
import { describe, expect, it } from "@effect/vitest"
import { BULK_WRITE_BACKUP_ROWS, Database } from "@garrison/runtime"
import { Effect, TestClock } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { eventually, sleepingUntil, withDatabaseCopy } from "@garrison/testkit"
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

/** The backups taken on request (an import's or the test's marker), by name, oldest first. */
const requestedBackups = Effect.map(Database, (db) =>
  Fs.readdirSync(db.backupsDir)
    .filter((name) => /-(priority-import|marker)[a-z-]*\.db$/.test(name))
    .sort()
)

// The runtime's backup-request worker takes its time from the test clock: it waits 1 s after a first
// request for the rest of a burst and keeps a minute between two backups it starts.
describe("priority import backups", () => {
  it.scoped(`an import adding ${BULK_WRITE_BACKUP_ROWS} entries is backed up; one adding fewer is not`, () =>
    Effect.gen(function* () {
      const controller = yield* makeController
      yield* Effect.provide(
        Effect.gen(function* () {
          expect(yield* importAll(entries(0, BULK_WRITE_BACKUP_ROWS - 1))).toBe(BULK_WRITE_BACKUP_ROWS - 1)
          // A marker asked for after the small import: had it asked for a backup, the marker would share
          // it (the label would name both) or come after it.
          yield* Effect.flatMap(Database, (db) => db.requestBackup("marker"))
          yield* sleepingUntil(1000)
          yield* TestClock.adjust("1 second")
          expect(yield* eventually(requestedBackups, (names) => names.length > 0)).toEqual(["garrison-19700101T000001000-marker.db"])
          expect(yield* importBackups).toEqual([])

          // The large import's backup comes a minute after the marker's began.
          expect(yield* importAll(entries(1000, BULK_WRITE_BACKUP_ROWS))).toBe(BULK_WRITE_BACKUP_ROWS)
          yield* sleepingUntil(61_000)
          yield* TestClock.adjust("1 minute")
          const taken = yield* eventually(importBackups, (found) => found.length > 0)
          expect(taken).toHaveLength(1)
          expect(NodePath.basename(taken[0] ?? "")).toBe("garrison-19700101T000101000-priority-import.db")
          const stored = withDatabaseCopy(taken[0] ?? "", (db) => db.prepare("SELECT COUNT(*) FROM priority_entries").pluck().all()[0])
          expect(Number(stored)).toBe(2 * BULK_WRITE_BACKUP_ROWS - 1)
        }),
        controller.layer
      )
    })
  )
})
