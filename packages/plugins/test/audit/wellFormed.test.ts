/**
 * Text that is not well-formed Unicode, or that holds NUL, cannot break the
 * chain nor fail a write: every field (actor, ip, action, target, result,
 * details keys and values) is stored in the form it was hashed in (lone
 * surrogates and NUL as U+FFFD, on SQLite and PostgreSQL alike), cuts never
 * split a character, noncharacters are kept, and rows written before this
 * rule (lone surrogates stored as WTF-8 bytes, NUL kept by SQLite) still
 * verify.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { type AuditEntry, AuditTrail } from "@garrison/runtime"
import { Effect } from "effect"
import { AuditLog, auditRowHash } from "../../src/audit/index.js"
import { canonicalDetails, clampField, MAX_FIELD_LENGTH } from "../../src/audit/internal/canonical.js"
import { decodeWtf8 } from "../../src/audit/internal/legacy.js"
import { clampText, wellFormed } from "../../src/audit/internal/text.js"
import { ADMIN, auditController, call, HOSTILE, straddling } from "./support.js"
import { testDatabaseEngine } from "@garrison/testkit"

const isWellFormed = (text: string) => Buffer.from(text, "utf8").toString("utf8") === text

const verify = Effect.map(call("GET", "/api/audit/verify", { as: ADMIN }), (reply) => {
  expect(reply.status).toBe(200)
  return reply.body as Record<string, unknown>
})

describe("stored text", () => {
  it("lone surrogates and NUL become U+FFFD, pairs and everything else stay", () => {
    expect(wellFormed("\ud800x")).toBe("\ufffdx")
    expect(wellFormed("x\udbff")).toBe("x\ufffd")
    expect(wellFormed("\udc00\ud800")).toBe("\ufffd\ufffd")
    expect(wellFormed("\ud83d\ud83d\ude00")).toBe("\ufffd\u{1F600}")
    expect(wellFormed("a\u0000b\ufffe\uffff\u{1F600}")).toBe("a\ufffdb\ufffe\uffff\u{1F600}")
    expect(wellFormed("\u0000\ud800\u0000")).toBe("\ufffd\ufffd\ufffd")
    expect(wellFormed("\u0001\t\u007f")).toBe("\u0001\t\u007f")
    for (const text of HOSTILE) {
      expect(isWellFormed(wellFormed(text))).toBe(true)
      expect(wellFormed(text)).not.toContain("\u0000")
    }
  })

  it("cuts at a code point boundary, never inside a surrogate pair", () => {
    expect(clampText("ab\u{1F600}", 3)).toBe("ab…")
    expect(clampText("ab\u{1F600}c", 4)).toBe("ab\u{1F600}…")
    expect(clampText("abc", 3)).toBe("abc")
    const clamped = clampField(straddling)!
    expect(clamped).toBe("a".repeat(MAX_FIELD_LENGTH - 1) + "…")
    expect(isWellFormed(clamped)).toBe(true)
    expect(clampField("\ud800".repeat(5000))).toBe("\ufffd".repeat(MAX_FIELD_LENGTH) + "…")
  })

  it("details are canonical JSON over well-formed text, NUL as U+FFFD, and parse back to what was hashed", () => {
    const text = canonicalDetails({ "\ud800": "v\udc00", nul: "a\u0000b", nonchar: "\ufffe\uffff", list: ["\udfff", 1] })!
    expect(isWellFormed(text)).toBe(true)
    expect(text).not.toContain("\\u0000")
    expect(text).not.toContain("\u0000")
    expect(JSON.parse(text)).toEqual({ "\ufffd": "v\ufffd", nul: "a\ufffdb", nonchar: "\ufffe\uffff", list: ["\ufffd", 1] })
    // Keys that differ only in lone surrogates or NUL are one key: the canonical text has no duplicates.
    expect(canonicalDetails({ "\ud800": 1, "\udbff": 2, "\u0000": 3 })).toBe('{"\ufffd":3}')
    // Keys are sorted in their stored form, so the text read back is canonical again (and hashes the same).
    const sorted = canonicalDetails({ "\u0000": 1, nested: { "\ud800": 2, "\ue000": 3 } })!
    expect(sorted).toBe('{"nested":{"\ue000":3,"\ufffd":2},"\ufffd":1}')
    expect(canonicalDetails(JSON.parse(sorted) as Record<string, unknown>)).toBe(sorted)
  })

  it("reads WTF-8 bytes back into the lone surrogates they encode", () => {
    expect(decodeWtf8(Buffer.from([0xed, 0xa0, 0x80, 0x78]))).toBe("\ud800x")
    expect(decodeWtf8(Buffer.from([0x61, 0xed, 0xbf, 0xbf]))).toBe("a\udfff")
    expect(decodeWtf8(Buffer.from("ok \u{1F600} \u0000", "utf8"))).toBe("ok \u{1F600} \u0000")
  })
})

describe("hostile text in every field", () => {
  it.scoped("NUL is stored as U+FFFD in every field and in details, on whichever engine runs, and the chain verifies", () =>
    Effect.gen(function* () {
      const log = yield* AuditLog
      const sql = yield* SqlClient.SqlClient
      const appended = yield* log.append({
        actor: "a\u0000b",
        actorName: "\u0000",
        ip: "10.0.0.1\u0000",
        action: "test.\u0000nul",
        target: "/api/x\u0000y",
        result: "failure",
        details: { "k\u0000": "v\u0000", list: ["\u0000"] }
      })
      expect(appended).toMatchObject({
        actor: "a\ufffdb",
        actorName: "\ufffd",
        ip: "10.0.0.1\ufffd",
        action: "test.\ufffdnul",
        target: "/api/x\ufffdy",
        details: { "k\ufffd": "v\ufffd", list: ["\ufffd"] }
      })
      // The stored text, as the database holds it: what was hashed.
      const [row] = yield* Effect.orDie(sql<Record<string, string>>`SELECT actor, actor_name, ip, action, target, details FROM audit_log`)
      expect(row).toEqual({
        actor: "a\ufffdb",
        actor_name: "\ufffd",
        ip: "10.0.0.1\ufffd",
        action: "test.\ufffdnul",
        target: "/api/x\ufffdy",
        details: '{"k\ufffd":"v\ufffd","list":["\ufffd"]}'
      })
      expect(yield* verify).toEqual({ ok: true, checked: 1 })
      // A filter with NUL finds the row by the same rule.
      expect((yield* Effect.orDie(log.query({ actor: "a\u0000b" }))).items.map((item) => item.id)).toEqual([appended.id])
    }).pipe(Effect.provide(auditController())))

  it.scoped("AuditLog.append and AuditTrail.record: each row reads back as it was hashed, and the chain verifies", () =>
    Effect.gen(function* () {
      const log = yield* AuditLog
      const trail = yield* AuditTrail
      const appended = []
      for (const text of HOSTILE) {
        const entry: AuditEntry = {
          actor: text,
          actorName: text,
          ip: text,
          action: text,
          target: text,
          // Typed callers cannot pass this; an embedder's JavaScript can.
          result: text as AuditEntry["result"],
          details: { [text]: text, nested: { list: [text], [`k${text}`]: text.slice(0, 1000) } }
        }
        appended.push(yield* log.append(entry))
        yield* trail.record(entry)
      }
      expect(yield* verify).toEqual({ ok: true, checked: HOSTILE.length * 2 })

      // What append returned (what was hashed) is what the store gives back.
      const stored = yield* Effect.orDie(log.query({ limit: 500 }))
      const byId = new Map(stored.items.map((row) => [row.id, row]))
      for (const row of appended) {
        expect(byId.get(row.id)).toEqual(row)
        for (const field of [row.actor, row.actorName, row.ip, row.action, row.target, row.result]) expect(isWellFormed(field ?? "")).toBe(true)
        expect(auditRowHash({ ...row, version: row.hashVersion, details: canonicalDetails(row.details ?? undefined) })).toBe(row.hash)
      }
      const nul = appended[HOSTILE.indexOf("a\u0000b")]!
      expect(nul.actor).toBe("a\ufffdb")
      expect(nul.details).toMatchObject({ "a\ufffdb": "a\ufffdb" })
      expect(appended[0]!.target).toBe("\ufffdx")

      // A filter with a lone surrogate finds the rows stored under its well-formed form
      // (those of "\udc00x" too: both are "\ufffdx" once stored).
      const byActor = yield* Effect.orDie(log.query({ actor: "\ud800x" }))
      expect(byActor.items.map((row) => row.actor)).toEqual(["\ufffdx", "\ufffdx", "\ufffdx", "\ufffdx"])
    }).pipe(Effect.provide(auditController())))

  // History of SQLite only: before text was made well-formed, a lone surrogate was hashed as it was and SQLite
  // stored its WTF-8 bytes. PostgreSQL never held such rows; there the test shows they cannot arise.
  if (testDatabaseEngine() === "sqlite") {
    it.scoped("SQLite: rows written before text was made well-formed (lone surrogates stored as WTF-8) still verify, and edits to them are found", () =>
      Effect.gen(function* () {
        const log = yield* AuditLog
        const sql = yield* SqlClient.SqlClient
        yield* log.append({ actor: "before", ip: null, action: "test.legacy", target: null, result: "success" })
        // The old append: the string with its lone surrogate was hashed, and SQLite stored its WTF-8 bytes.
        const legacy = yield* Effect.orDie(
          Effect.gen(function* () {
            const [head] = yield* sql<{ readonly seq: number; readonly hash: string }>`SELECT seq, hash FROM audit_head WHERE id = 1`
            const row = {
              version: 1,
              seq: head!.seq + 1,
              at: "2025-01-01T00:00:00.000Z",
              actor: "\ud800x",
              actorName: null,
              ip: "10.0.0.1",
              action: "auth.login",
              target: "y\udc00\ud800",
              result: "failure",
              details: '{"reason":"invalid-credentials","u":"\\ud800"}',
              prevHash: head!.hash
            }
            const hash = auditRowHash(row)
            yield* sql`INSERT INTO audit_log (seq, at, actor, ip, action, target, result, details, prev_hash, hash)
              VALUES (${row.seq}, ${row.at}, ${row.actor}, ${row.ip}, ${row.action}, ${row.target}, ${row.result}, ${row.details},
                ${row.prevHash}, ${hash})`
            yield* sql`UPDATE audit_head SET seq = ${row.seq}, hash = ${hash} WHERE id = 1`
            return row
          })
        )
        yield* log.append({ actor: "after", ip: null, action: "test.legacy", target: null, result: "success" })
        expect(yield* verify).toEqual({ ok: true, checked: 3 })

        // The WTF-8 reading does not excuse a real edit of such a row.
        yield* Effect.orDie(sql`UPDATE audit_log SET ip = '10.0.0.2' WHERE seq = ${legacy.seq}`)
        expect(yield* verify).toMatchObject({ ok: false, checked: 1, firstBrokenId: "2", reason: "altered-row" })
      }).pipe(Effect.provide(auditController())))
  } else {
    it.scoped("PostgreSQL: such rows cannot arise (a lone surrogate reaches the server as U+FFFD, as append stores it), the chain verifies, and edits are found", () =>
      Effect.gen(function* () {
        const log = yield* AuditLog
        const sql = yield* SqlClient.SqlClient
        yield* log.append({ actor: "before", ip: null, action: "test.legacy", target: null, result: "success" })
        // What the old append bound (the string with its lone surrogate) is U+FFFD once on the server: the
        // driver sends UTF-8, and PostgreSQL text holds nothing else, so no WTF-8 row was ever stored here.
        const [echo] = yield* Effect.orDie(sql<{ readonly value: string }>`SELECT ${"\ud800x"} AS value`)
        expect(echo?.value).toBe("\ufffdx")
        // The same row through append: its well-formed form is what is hashed and stored.
        const row = yield* log.append({
          actor: "\ud800x",
          ip: "10.0.0.1",
          action: "auth.login",
          target: "y\udc00\ud800",
          result: "failure",
          details: { reason: "invalid-credentials", u: "\ud800" }
        })
        expect(row).toMatchObject({ actor: "\ufffdx", target: "y\ufffd\ufffd", details: { reason: "invalid-credentials", u: "\ufffd" } })
        const [stored] = yield* Effect.orDie(
          sql<{ readonly actor: string; readonly target: string; readonly details: string }>`SELECT actor, target, details FROM audit_log WHERE seq = ${Number(row.id)}`
        )
        expect(stored?.actor).toBe("\ufffdx")
        expect(stored?.target).toBe("y\ufffd\ufffd")
        expect(JSON.parse(stored?.details ?? "null")).toEqual({ reason: "invalid-credentials", u: "\ufffd" })
        yield* log.append({ actor: "after", ip: null, action: "test.legacy", target: null, result: "success" })
        expect(yield* verify).toEqual({ ok: true, checked: 3 })

        // An edit of such a row is found as any other.
        yield* Effect.orDie(sql`UPDATE audit_log SET ip = '10.0.0.2' WHERE seq = ${Number(row.id)}`)
        expect(yield* verify).toMatchObject({ ok: false, checked: 1, firstBrokenId: row.id, reason: "altered-row" })
      }).pipe(Effect.provide(auditController())))
  }
})
