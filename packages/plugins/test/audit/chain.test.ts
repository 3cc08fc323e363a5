/**
 * The hash chain: verify finds rows edited, deleted or reordered directly in
 * SQLite; concurrent records never fork the chain; recording never fails
 * its caller; the hash is what the README says it is.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { AuditTrail, type AuditEntry } from "@garrison/runtime"
import { Effect, Exit, Logger } from "effect"
import { createHash } from "node:crypto"
import { AuditLog, auditRowHash } from "../../src/audit/index.js"
import { canonicalDetails } from "../../src/audit/internal/canonical.js"
import { ADMIN, auditController, call } from "./support.js"

const entry = (n: number, details?: Record<string, unknown>): AuditEntry => ({
  actor: `user${n}`,
  ip: "10.0.0.1",
  action: "test.chain",
  target: `thing/${n}`,
  result: "success",
  ...(details === undefined ? {} : { details })
})

const verify = Effect.map(call("GET", "/api/audit/verify", { as: ADMIN }), (reply) => {
  expect(reply.status).toBe(200)
  return reply.body as Record<string, unknown>
})

/** Five rows, then `tamper` on the database, then verify. */
const afterTampering = (tamper: (sql: SqlClient.SqlClient) => Effect.Effect<unknown, unknown>) =>
  Effect.gen(function* () {
    const trail = yield* AuditTrail
    for (let n = 1; n <= 5; n++) yield* trail.record(entry(n, { n }))
    expect(yield* verify).toEqual({ ok: true, checked: 5 })
    yield* Effect.orDie(tamper(yield* SqlClient.SqlClient))
    return yield* verify
  })

describe("GET /api/audit/verify", () => {
  it.scoped("an empty log and an intact one are ok", () =>
    Effect.gen(function* () {
      expect(yield* verify).toEqual({ ok: true, checked: 0 })
      const trail = yield* AuditTrail
      for (let n = 1; n <= 3; n++) yield* trail.record(entry(n))
      expect(yield* verify).toEqual({ ok: true, checked: 3 })
    }).pipe(Effect.provide(auditController())))

  it.scoped("finds a row whose contents were edited", () =>
    Effect.gen(function* () {
      const report = yield* afterTampering((sql) => sql`UPDATE audit_log SET actor = 'mallory' WHERE seq = 3`)
      expect(report).toMatchObject({ ok: false, checked: 2, firstBrokenId: "3", reason: "altered-row" })
    }).pipe(Effect.provide(auditController())))

  it.scoped("finds edited details, even a change of one digit", () =>
    Effect.gen(function* () {
      const report = yield* afterTampering((sql) => sql`UPDATE audit_log SET details = '{"n":20}' WHERE seq = 2`)
      expect(report).toMatchObject({ ok: false, checked: 1, firstBrokenId: "2", reason: "altered-row" })
    }).pipe(Effect.provide(auditController())))

  it.scoped("finds an edited row whose hash was recomputed: the next row's link breaks", () =>
    Effect.gen(function* () {
      const report = yield* afterTampering((sql) =>
        Effect.gen(function* () {
          const [row] = yield* sql<{ at: string; ip: string; action: string; target: string; result: string; details: string; prev_hash: string }>`
            SELECT at, ip, action, target, result, details, prev_hash FROM audit_log WHERE seq = 3`
          const hash = auditRowHash({ ...row!, version: 2, actor: "mallory", actorName: null, prevHash: row!.prev_hash })
          yield* sql`UPDATE audit_log SET actor = 'mallory', hash = ${hash} WHERE seq = 3`
        })
      )
      expect(report).toMatchObject({ ok: false, checked: 3, firstBrokenId: "4", reason: "broken-link" })
    }).pipe(Effect.provide(auditController())))

  it.scoped("finds a deleted row", () =>
    Effect.gen(function* () {
      const report = yield* afterTampering((sql) => sql`DELETE FROM audit_log WHERE seq = 3`)
      expect(report).toMatchObject({ ok: false, checked: 2, firstBrokenId: "4", reason: "missing-row" })
    }).pipe(Effect.provide(auditController())))

  it.scoped("finds a deleted row hidden by renumbering the rows after it", () =>
    Effect.gen(function* () {
      const report = yield* afterTampering((sql) =>
        Effect.all([
          sql`DELETE FROM audit_log WHERE seq = 3`,
          sql`UPDATE audit_log SET seq = seq - 1 WHERE seq > 3`,
          sql`UPDATE audit_head SET seq = 4, hash = (SELECT hash FROM audit_log WHERE seq = 4)`
        ])
      )
      expect(report).toMatchObject({ ok: false, checked: 2, firstBrokenId: "3", reason: "broken-link" })
    }).pipe(Effect.provide(auditController())))

  it.scoped("finds deleted newest rows", () =>
    Effect.gen(function* () {
      const report = yield* afterTampering((sql) => sql`DELETE FROM audit_log WHERE seq >= 4`)
      expect(report).toMatchObject({ ok: false, checked: 3, firstBrokenId: "4", reason: "truncated" })
    }).pipe(Effect.provide(auditController())))

  it.scoped("finds deleted newest rows when the head was wound back to match", () =>
    Effect.gen(function* () {
      const report = yield* afterTampering((sql) =>
        sql`UPDATE audit_head SET seq = 3, hash = (SELECT hash FROM audit_log WHERE seq = 3)`
      )
      expect(report).toMatchObject({ ok: false, checked: 3, firstBrokenId: "4", reason: "head-mismatch" })
    }).pipe(Effect.provide(auditController())))

  it.scoped("finds a reordered chain", () =>
    Effect.gen(function* () {
      const report = yield* afterTampering((sql) =>
        Effect.all([
          sql`UPDATE audit_log SET seq = -1 WHERE seq = 2`,
          sql`UPDATE audit_log SET seq = 2 WHERE seq = 3`,
          sql`UPDATE audit_log SET seq = 3 WHERE seq = -1`
        ])
      )
      expect(report).toMatchObject({ ok: false, checked: 1, firstBrokenId: "2", reason: "broken-link" })
    }).pipe(Effect.provide(auditController())))

  it.scoped("reports the first break when there are several, and is ok again once the edit is undone", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const report = yield* afterTampering(() =>
        Effect.all([sql`UPDATE audit_log SET target = 'x' WHERE seq = 4`, sql`UPDATE audit_log SET target = 'y' WHERE seq = 2`])
      )
      expect(report).toMatchObject({ ok: false, firstBrokenId: "2" })
      yield* Effect.orDie(Effect.all([sql`UPDATE audit_log SET target = 'thing/4' WHERE seq = 4`, sql`UPDATE audit_log SET target = 'thing/2' WHERE seq = 2`]))
      expect(yield* verify).toEqual({ ok: true, checked: 5 })
    }).pipe(Effect.provide(auditController())))
})

describe("recording", () => {
  it.scopedLive("concurrent records, over HTTP and in-process, keep one valid chain", () =>
    Effect.gen(function* () {
      const trail = yield* AuditTrail
      const sql = yield* SqlClient.SqlClient
      yield* Effect.all(
        [
          Effect.forEach(Array.from({ length: 150 }, (_, i) => i), (n) => trail.record(entry(n)), {
            concurrency: "unbounded",
            discard: true
          }),
          Effect.forEach(Array.from({ length: 40 }, (_, i) => i), (n) => call("POST", `/api/probe/${n}`, { as: "alice:probe.use" }), {
            concurrency: 8,
            discard: true
          }),
          // Callers recording inside their own transactions, pausing there so other recorders
          // queue up meanwhile: taking the lock before the connection would deadlock here.
          Effect.forEach(Array.from({ length: 10 }, (_, i) => i), (n) =>
            sql.withTransaction(
              sql`SELECT 1`.pipe(Effect.zipRight(Effect.sleep("5 millis")), Effect.zipRight(trail.record(entry(1000 + n))))
            ), { concurrency: "unbounded", discard: true })
        ],
        { concurrency: "unbounded" }
      ).pipe(
        // Records are uninterruptible: disconnect, so a deadlock fails here instead of hanging the test.
        Effect.disconnect,
        Effect.timeoutFail({ duration: "20 seconds", onTimeout: () => "recording deadlocked" })
      )

      expect(yield* verify).toEqual({ ok: true, checked: 200 })
      const page = (yield* call("GET", "/api/audit?limit=500", { as: ADMIN })).body as { items: Array<{ id: string }> }
      expect(page.items.map((row) => row.id)).toEqual(Array.from({ length: 200 }, (_, i) => String(200 - i)))
    }).pipe(Effect.provide(auditController())))

  it.scopedLive("a row a caller's transaction rolls back leaves no gap: the next append finds the head where the database has it", () =>
    Effect.gen(function* () {
      const trail = yield* AuditTrail
      const sql = yield* SqlClient.SqlClient
      yield* Effect.all(
        [
          Effect.forEach(Array.from({ length: 60 }, (_, i) => i), (n) => trail.record(entry(n)), { concurrency: "unbounded", discard: true }),
          // Each records, then fails: its row goes with its transaction.
          Effect.forEach(Array.from({ length: 15 }, (_, i) => i), (n) =>
            sql.withTransaction(trail.record(entry(500 + n)).pipe(Effect.zipRight(Effect.sleep("2 millis")), Effect.zipRight(Effect.fail("rolled back")))).pipe(Effect.ignore),
            { concurrency: "unbounded", discard: true })
        ],
        { concurrency: "unbounded" }
      ).pipe(Effect.disconnect, Effect.timeoutFail({ duration: "20 seconds", onTimeout: () => "recording deadlocked" }))
      yield* trail.record(entry(999))
      expect(yield* verify).toEqual({ ok: true, checked: 61 })
      const actors = (yield* Effect.orDie(sql<{ readonly actor: string }>`SELECT actor FROM audit_log`)).map((row) => row.actor)
      expect(actors.filter((actor) => Number(actor.slice(4)) >= 500 && actor !== "user999")).toEqual([])
    }).pipe(Effect.provide(auditController())))

  it.scoped("rows another writer appended meanwhile are chained after, not forked", () =>
    Effect.gen(function* () {
      const log = yield* AuditLog
      const sql = yield* SqlClient.SqlClient
      const first = yield* log.append(entry(1))
      // Another controller on the same database appends row 2 (the head follows it): one from before names, a version 1 row.
      const at = new Date().toISOString()
      const hash = auditRowHash({
        version: 1,
        prevHash: first.hash,
        at,
        actor: "other",
        actorName: null,
        ip: null,
        action: "test.chain",
        target: null,
        result: "success",
        details: null
      })
      yield* Effect.orDie(sql`INSERT INTO audit_log (seq, at, actor, ip, action, target, result, details, prev_hash, hash)
        VALUES (2, ${at}, ${"other"}, NULL, ${"test.chain"}, NULL, ${"success"}, NULL, ${first.hash}, ${hash})`)
      const third = yield* log.append(entry(3))
      expect(third.id).toBe("3")
      expect(third.prevHash).toBe(hash)
      expect(yield* verify).toEqual({ ok: true, checked: 3 })
    }).pipe(Effect.provide(auditController())))

  it.scoped("a broken store never fails the caller: the request is served and the loss is logged", () =>
    Effect.gen(function* () {
      const trail = yield* AuditTrail
      const sql = yield* SqlClient.SqlClient
      yield* Effect.orDie(sql`DROP TABLE audit_log`)
      const lines: Array<string> = []
      const capture = Logger.replace(Logger.defaultLogger, Logger.make(({ message }) => {
        lines.push(Array.isArray(message) ? message.map(String).join(" ") : String(message))
      }))
      const exit = yield* Effect.exit(trail.record(entry(1)).pipe(Effect.provide(capture)))
      expect(Exit.isSuccess(exit)).toBe(true)
      expect(lines.join("\n")).toContain("audit row not stored: test.chain success")
      expect((yield* call("POST", "/api/probe/x", { as: "alice:probe.use" })).status).toBe(200)
    }).pipe(Effect.provide(auditController())))

  it.scoped("AuditLog.append returns the stored row; its hash is SHA-256 over the documented encoding", () =>
    Effect.gen(function* () {
      const log = yield* AuditLog
      const row = yield* log.append({ ...entry(7), actorName: "User Seven", details: { z: 1, a: { y: [1, 2], b: "x" }, password: "hunter2" } })
      expect(row.details).toEqual({ a: { b: "x", y: [1, 2] }, password: "[redacted]", z: 1 })
      expect(row).toMatchObject({ actorName: "User Seven", hashVersion: 2 })
      const details = '{"a":{"b":"x","y":[1,2]},"password":"[redacted]","z":1}'
      const expected = createHash("sha256")
        .update(JSON.stringify([2, row.prevHash, row.at, "user7", "User Seven", "10.0.0.1", "test.chain", "thing/7", "success", details]))
        .digest("hex")
      expect(row.hash).toBe(expected)
      const page = yield* log.query({ actor: "user7" })
      expect(page.items).toEqual([row])
    }).pipe(Effect.provide(auditController())))
})

describe("canonical details", () => {
  it("sorts keys at every level, so equal details hash alike", () => {
    expect(canonicalDetails({ b: 1, a: { d: 2, c: [1, undefined] } })).toBe('{"a":{"c":[1,null],"d":2},"b":1}')
    expect(canonicalDetails({ a: { c: [1, undefined], d: 2 }, b: 1 })).toBe(canonicalDetails({ b: 1, a: { d: 2, c: [1, undefined] } }))
    expect(canonicalDetails(undefined)).toBeNull()
  })

  it("never throws on odd input, and keeps secrets and bulk out", () => {
    const cyclic: Record<string, unknown> = { name: "loop" }
    cyclic.self = cyclic
    expect(canonicalDetails(cyclic)).toBe('{"name":"loop","self":"[circular]"}')
    expect(canonicalDetails({ n: 10n, f: () => 1, inf: Infinity, when: new Date(0) })).toBe(
      '{"inf":null,"n":"10","when":"1970-01-01T00:00:00.000Z"}'
    )
    expect(canonicalDetails({ apiKey: "k", sessionToken: "t", newPassword: "p", user: "u" })).toBe(
      '{"apiKey":"[redacted]","newPassword":"[redacted]","sessionToken":"[redacted]","user":"u"}'
    )
    expect(canonicalDetails({ blob: "x".repeat(20_000) })).toBe('{"length":20011,"truncated":true}')
  })
})
