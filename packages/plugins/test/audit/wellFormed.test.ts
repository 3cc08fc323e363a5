/**
 * Text that is not well-formed Unicode cannot break the chain: every field
 * (actor, ip, action, target, result, details keys and values) is stored in
 * the form it was hashed in, cuts never split a character, NUL and
 * noncharacters are kept, and rows written before this rule (lone
 * surrogates stored as WTF-8 bytes) still verify.
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

const isWellFormed = (text: string) => Buffer.from(text, "utf8").toString("utf8") === text

const verify = Effect.map(call("GET", "/api/audit/verify", { as: ADMIN }), (reply) => {
  expect(reply.status).toBe(200)
  return reply.body as Record<string, unknown>
})

describe("stored text", () => {
  it("lone surrogates become U+FFFD, pairs and everything else stay", () => {
    expect(wellFormed("\ud800x")).toBe("\ufffdx")
    expect(wellFormed("x\udbff")).toBe("x\ufffd")
    expect(wellFormed("\udc00\ud800")).toBe("\ufffd\ufffd")
    expect(wellFormed("\ud83d\ud83d\ude00")).toBe("\ufffd\u{1F600}")
    expect(wellFormed("a\u0000b\ufffe\uffff\u{1F600}")).toBe("a\u0000b\ufffe\uffff\u{1F600}")
    for (const text of HOSTILE) expect(isWellFormed(wellFormed(text))).toBe(true)
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

  it("details are canonical JSON over well-formed text, NUL escaped, and parse back to what was hashed", () => {
    const text = canonicalDetails({ "\ud800": "v\udc00", nul: "a\u0000b", nonchar: "\ufffe\uffff", list: ["\udfff", 1] })!
    expect(isWellFormed(text)).toBe(true)
    expect(text).toContain("\\u0000")
    expect(text).not.toContain("\u0000")
    expect(JSON.parse(text)).toEqual({ "\ufffd": "v\ufffd", nul: "a\u0000b", nonchar: "\ufffe\uffff", list: ["\ufffd", 1] })
    // Keys that differ only in lone surrogates are one key: the canonical text has no duplicates.
    expect(canonicalDetails({ "\ud800": 1, "\udbff": 2 })).toBe('{"\ufffd":1}')
  })

  it("reads WTF-8 bytes back into the lone surrogates they encode", () => {
    expect(decodeWtf8(Buffer.from([0xed, 0xa0, 0x80, 0x78]))).toBe("\ud800x")
    expect(decodeWtf8(Buffer.from([0x61, 0xed, 0xbf, 0xbf]))).toBe("a\udfff")
    expect(decodeWtf8(Buffer.from("ok \u{1F600} \u0000", "utf8"))).toBe("ok \u{1F600} \u0000")
  })
})

describe("hostile text in every field", () => {
  it.scoped("the database keeps NUL inside TEXT (so it is stored as it is)", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* Effect.orDie(sql<{ readonly value: string }>`SELECT ${"a\u0000b\u0000"} AS value`)
      expect(row?.value).toBe("a\u0000b\u0000")
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
      expect(nul.actor).toBe("a\u0000b")
      expect(nul.details).toMatchObject({ "a\u0000b": "a\u0000b" })
      expect(appended[0]!.target).toBe("\ufffdx")

      // A filter with a lone surrogate finds the rows stored under its well-formed form
      // (those of "\udc00x" too: both are "\ufffdx" once stored).
      const byActor = yield* Effect.orDie(log.query({ actor: "\ud800x" }))
      expect(byActor.items.map((row) => row.actor)).toEqual(["\ufffdx", "\ufffdx", "\ufffdx", "\ufffdx"])
    }).pipe(Effect.provide(auditController())))

  it.scoped("rows written before text was made well-formed (lone surrogates stored as WTF-8) still verify, and edits to them are found", () =>
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
})
