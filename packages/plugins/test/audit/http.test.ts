/**
 * The audit plugin in the real controller: rows written by the host's front
 * door, the admin-only endpoints, filters and keyset pagination.
 */
import { describe, expect, it } from "@effect/vitest"
import { AuditTrail, type AuditEntry } from "@garrison/runtime"
import { Effect, TestClock } from "effect"
import { ADMIN, auditController, call, type Reply } from "./support.js"

interface Row {
  readonly id: string
  readonly at: string
  readonly actor: string | null
  readonly ip: string | null
  readonly action: string
  readonly target: string | null
  readonly result: string
  readonly details: Record<string, unknown> | null
  readonly prevHash: string
  readonly hash: string
}
interface Page {
  readonly items: ReadonlyArray<Row>
  readonly nextCursor: string | null
}

const asPage = (reply: Reply): Page => {
  expect(reply.status).toBe(200)
  return reply.body as Page
}
const audit = (query = "") => Effect.map(call("GET", `/api/audit${query}`, { as: ADMIN }), asPage)
const ids = (page: Page) => page.items.map((row) => row.id)

const entry = (action: string, actor: string | null, result: AuditEntry["result"] = "success"): AuditEntry => ({
  actor,
  ip: "10.0.0.9",
  action,
  target: null,
  result
})

describe("audit rows from the host", () => {
  it.scoped("each mutating request and each permission denial leaves a row; reads leave none", () =>
    Effect.gen(function* () {
      expect((yield* call("POST", "/api/probe/one", { as: "alice:probe.use", ip: "10.1.1.1" })).status).toBe(200)
      expect((yield* call("POST", "/api/probe/busy", { as: "alice:probe.use", ip: "10.1.1.1" })).status).toBe(409)
      expect((yield* call("POST", "/api/probe/two", { as: "bob:server.view", ip: "10.2.2.2" })).status).toBe(403)
      expect((yield* call("GET", "/api/audit", { as: ADMIN })).status).toBe(200)

      const page = yield* audit()
      expect(page.nextCursor).toBeNull()
      expect(page.items).toHaveLength(3)
      const [denied, failed, succeeded] = page.items
      expect(denied).toMatchObject({
        id: "3",
        actor: "bob",
        ip: "10.2.2.2",
        action: "access.denied",
        target: "POST /api/probe/two",
        result: "denied",
        details: { permission: "probe.use", role: "test" }
      })
      expect(failed).toMatchObject({
        id: "2",
        actor: "alice",
        action: "http.POST /api/probe/:id",
        target: "/api/probe/busy",
        result: "failure",
        details: { status: 409 }
      })
      expect(succeeded).toMatchObject({
        id: "1",
        actor: "alice",
        ip: "10.1.1.1",
        action: "http.POST /api/probe/:id",
        target: "/api/probe/one",
        result: "success",
        details: { status: 200 }
      })
      expect(typeof succeeded?.details?.requestId).toBe("string")
      // Hash-chained: each row names the hash of the one before; the first names 64 zeros.
      expect(succeeded?.prevHash).toBe("0".repeat(64))
      expect(failed?.prevHash).toBe(succeeded?.hash)
      expect(denied?.prevHash).toBe(failed?.hash)
      expect((yield* call("GET", "/api/audit/verify", { as: ADMIN })).body).toEqual({ ok: true, checked: 3 })
    }).pipe(Effect.provide(auditController())))

  it.scoped("a handler that records its own row is the request's one row: the host adds none after it", () =>
    Effect.gen(function* () {
      expect((yield* call("POST", "/api/probe/audited", { as: "alice:probe.use", ip: "10.1.1.1" })).status).toBe(200)
      expect((yield* call("POST", "/api/probe/plain", { as: "alice:probe.use", ip: "10.1.1.1" })).status).toBe(200)
      const page = yield* audit()
      expect(page.items.map((row) => [row.action, row.target])).toEqual([
        ["http.POST /api/probe/:id", "/api/probe/plain"],
        ["probe.poke", "audited"]
      ])
      expect(page.items[1]).toMatchObject({ ip: "10.1.1.1", result: "success" })
    }).pipe(Effect.provide(auditController())))

  it.scoped("only admin may read or verify the trail; a refusal is itself recorded", () =>
    Effect.gen(function* () {
      for (const path of ["/api/audit", "/api/audit/verify"]) {
        const refused = yield* call("GET", path, { as: "carol:users.manage,server.view" })
        expect(refused.status).toBe(403)
        expect(refused.body).toMatchObject({ error: "forbidden", details: { permission: "admin" } })
        expect((yield* call("GET", path)).status).toBe(401)
      }
      const page = yield* audit()
      expect(page.items.map((row) => [row.actor, row.action, row.target])).toEqual([
        ["carol", "access.denied", "GET /api/audit/verify"],
        ["carol", "access.denied", "GET /api/audit"]
      ])
    }).pipe(Effect.provide(auditController())))
})

describe("GET /api/audit filters", () => {
  it.scoped("by actor, exact action, action prefix, time range and result", () =>
    Effect.gen(function* () {
      const trail = yield* AuditTrail
      const day = (n: number) => `2025-01-0${n}T00:00:00.000Z`
      const recordOn = (n: number, e: AuditEntry) => Effect.zipRight(TestClock.setTime(Date.parse(day(n))), trail.record(e))
      yield* recordOn(1, entry("auth.login", "alice"))
      yield* recordOn(2, entry("auth.login", "bob", "failure"))
      yield* recordOn(3, entry("auth.logout", "alice"))
      yield* recordOn(4, entry("auth.mfa.enable", "alice"))
      yield* recordOn(5, entry("authz.check", "bob"))
      yield* recordOn(6, entry("ab%.x", "carol"))
      yield* recordOn(7, entry("auth.login", null, "failure"))
      yield* recordOn(8, entry("abc.x", "carol", "denied"))

      const actions = (page: Page) => page.items.map((row) => row.action)
      expect(ids(yield* audit("?actor=alice"))).toEqual(["4", "3", "1"])
      expect(ids(yield* audit("?action=auth.login"))).toEqual(["7", "2", "1"])
      expect(actions(yield* audit("?action=auth."))).toEqual([
        "auth.login", "auth.mfa.enable", "auth.logout", "auth.login", "auth.login"
      ])
      expect(ids(yield* audit("?action=auth.*"))).toEqual(ids(yield* audit("?action=auth.")))
      expect(ids(yield* audit("?action=auth"))).toEqual([])
      expect(ids(yield* audit("?action=auth.mfa."))).toEqual(["4"])
      // % and _ are literal characters, not wildcards; matching is case-sensitive.
      expect(ids(yield* audit(`?action=${encodeURIComponent("ab%.")}`))).toEqual(["6"])
      expect(ids(yield* audit("?action=AUTH."))).toEqual([])

      // from is inclusive, to exclusive; a bare date means midnight UTC.
      expect(ids(yield* audit(`?from=${day(2)}&to=${day(4)}`))).toEqual(["3", "2"])
      expect(ids(yield* audit("?from=2025-01-07"))).toEqual(["8", "7"])
      expect(ids(yield* audit("?to=2025-01-02T00:00:00%2B00:00"))).toEqual(["1"])

      expect(ids(yield* audit("?result=failure"))).toEqual(["7", "2"])
      expect(ids(yield* audit("?result=denied"))).toEqual(["8"])
      expect(ids(yield* audit("?actor=bob&action=auth.&result=failure"))).toEqual(["2"])
      const first = (yield* audit("?actor=alice")).items[2]
      expect(first).toMatchObject({ at: day(1), actor: "alice", ip: "10.0.0.9", action: "auth.login", target: null, details: null })
    }).pipe(Effect.provide(auditController())))

  it.scoped("bad parameters are 400 naming the field", () =>
    Effect.gen(function* () {
      const cases: ReadonlyArray<[string, string]> = [
        ["limit=0", "limit"],
        ["limit=501", "limit"],
        ["limit=ten", "limit"],
        ["from=yesterday", "from"],
        ["to=2025-13-45", "to"],
        ["result=maybe", "result"],
        ["cursor=bm90LWEtY3Vyc29y", "cursor"],
        ["from=2025-02-01&to=2025-01-01", "from"]
      ]
      for (const [query, field] of cases) {
        const reply = yield* call("GET", `/api/audit?${query}`, { as: ADMIN })
        expect(reply.status, query).toBe(400)
        expect(reply.body, query).toMatchObject({ error: "invalid-request" })
        expect(JSON.stringify((reply.body as { details: unknown }).details), query).toContain(field)
      }
      expect((yield* call("GET", "/api/audit?limit=500", { as: ADMIN })).status).toBe(200)
    }).pipe(Effect.provide(auditController())))
})

describe("GET /api/audit pagination", () => {
  it.scoped("keyset pages: newest first, no duplicates or gaps, stable while rows are added", () =>
    Effect.gen(function* () {
      const trail = yield* AuditTrail
      for (let i = 1; i <= 120; i++) yield* trail.record(entry("test.page", i % 2 === 1 ? "odd" : "even"))

      expect((yield* audit()).items).toHaveLength(50)

      const seen: Array<string> = []
      let cursor: string | null = null
      let pages = 0
      do {
        const page: Page = yield* audit(`?action=test.page&limit=50${cursor === null ? "" : `&cursor=${cursor}`}`)
        seen.push(...ids(page))
        cursor = page.nextCursor
        pages++
        // Newer rows arriving between pages must not shift what the next page holds.
        for (let i = 0; i < 7; i++) yield* trail.record(entry("test.page", "late"))
      } while (cursor !== null)
      expect(pages).toBe(3)
      expect(seen).toEqual(Array.from({ length: 120 }, (_, i) => String(120 - i)))

      // With a filter, and a page size that does not divide the total.
      const odd: Array<string> = []
      cursor = null
      do {
        const page: Page = yield* audit(`?actor=odd&limit=7${cursor === null ? "" : `&cursor=${cursor}`}`)
        expect(page.items.length).toBeLessThanOrEqual(7)
        odd.push(...ids(page))
        cursor = page.nextCursor
      } while (cursor !== null)
      expect(odd).toEqual(Array.from({ length: 60 }, (_, i) => String(119 - 2 * i)))

      // An exact fit ends with a null cursor, not an empty extra page.
      const all = yield* audit("?limit=141")
      expect(all.items).toHaveLength(141)
      expect(all.nextCursor).toBeNull()
    }).pipe(Effect.provide(auditController())))
})
