/**
 * The partner export: keys (issued once, hashed, revoked), both header
 * forms, tiers (page size, requests a minute), pending bans left out and
 * tombstones in, signed cursors (a changed byte is 400), page proofs over
 * the rows' digest, and, under concurrent writes, a reader that follows
 * nextCursor to null and resumes with since seeing every change once.
 */
import { describe, expect, it } from "@effect/vitest"
import { call } from "@garrison/testkit"
import { SqlClient } from "@effect/sql"
import { Effect, Fiber } from "effect"
import { createHash } from "node:crypto"
import { importJWK, type JWK, jwtVerify } from "jose"
import { Pool } from "../../src/trust/index.js"
import { ADMIN, exportPage, type Page, partnerKey, trustController } from "./support.js"

const player = (n: number) => `7656119802${String(n).padStart(7, "0")}`
const BY = { id: "tm", name: "tm" }

/** Activates a ban for `n` through three partner communities' vouches. */
const activeBan = (n: number) =>
  Effect.gen(function* () {
    const pool = yield* Pool
    for (const community of ["p1", "p2", "p3"]) yield* pool.vouch({ communityId: community, platformId: player(n), reasonCategory: "cheating", expiresMs: null })
    return (yield* pool.list({ platformId: player(n), limit: 1 }))[0]!
  })

const communities = Effect.flatMap(Pool, (pool) => Effect.forEach(["p1", "p2", "p3"], (id) => pool.ensureCommunity(id, id.toUpperCase())))

describe("the trust export", () => {
  it.scopedLive("a key is needed, shown once and stored hashed; either header; a revoked key is refused at once", () =>
    Effect.gen(function* () {
      expect((yield* call("GET", "/api/v1/trust/export")).status).toBe(401)
      expect((yield* exportPage("gtp_not-a-key", {})).status).toBe(401)
      const { key, partnerKey: record } = yield* partnerKey()
      expect(key).toMatch(/^gtp_[A-Za-z0-9_-]{43}$/)
      const stored = yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ key_hash: string }>`SELECT key_hash FROM trust_partner_keys`)
      expect(stored[0]!.key_hash).toBe(createHash("sha256").update(key).digest("hex"))
      const list = yield* call("GET", "/api/trust/partner-keys", { as: ADMIN })
      expect(JSON.stringify(list.body)).not.toContain(key)
      expect((yield* exportPage(key, {})).status).toBe(200)
      expect((yield* call("GET", "/api/v1/trust/export", { headers: { "x-service-partner-key": key } })).status).toBe(200)
      expect((yield* call("DELETE", `/api/trust/partner-keys/${record.id}`, { as: ADMIN })).status).toBe(200)
      expect((yield* exportPage(key, {})).status).toBe(401)
      expect((yield* call("POST", "/api/trust/partner-keys", { as: "tm:trust.manage", json: { name: "x", tier: "partner" } })).status).toBe(403)
    }).pipe(Effect.provide(trustController().layer))
  )

  it.scopedLive("pending left out, tombstones in; pages to the end; a tampered cursor or a changed filter is 400; the page proof verifies over the rows", () =>
    Effect.gen(function* () {
      yield* communities
      const pool = yield* Pool
      const { key } = yield* partnerKey()
      const bans = yield* Effect.forEach([1, 2, 3, 4, 5], activeBan)
      yield* pool.vouch({ communityId: "p1", platformId: player(9), reasonCategory: "griefing", expiresMs: null })
      yield* pool.overturn(bans[1]!.id, "mistake", BY)

      const first = yield* exportPage(key, { limit: "2" })
      expect(first.status, JSON.stringify(first.body)).toBe(200)
      const pages: Array<Page> = [first.body as Page]
      while (pages.at(-1)!.nextCursor !== null) pages.push((yield* exportPage(key, { limit: "2", cursor: pages.at(-1)!.nextCursor! })).body as Page)
      const rows = pages.flatMap((page) => page.bans)
      expect(rows.map((r) => r.platformId)).toEqual([1, 3, 4, 5, 2].map(player))
      expect(rows.map((r) => r.status)).toEqual(["active", "active", "active", "active", "overturned"])
      expect(rows.some((r) => r.platformId === player(9))).toBe(false)
      const ticks = rows.map((r) => r.updatedMs)
      expect([...ticks].sort((a, b) => a - b)).toEqual(ticks)

      const cursor = (first.body as Page).nextCursor!
      const tampered = cursor.slice(0, 3) + (cursor[3] === "A" ? "B" : "A") + cursor.slice(4)
      const refused = yield* exportPage(key, { cursor: tampered })
      expect(refused.status).toBe(400)
      expect(JSON.stringify(refused.body)).toContain("cursor")
      expect((yield* exportPage(key, { cursor, status: "overturned" })).status).toBe(400)
      expect((yield* exportPage(key, { cursor, since: "0" })).status).toBe(400)
      expect((yield* exportPage(key, { limit: "2001" })).status).toBe(400)
      const tombstones = (yield* exportPage(key, { status: "overturned,expired" })).body as Page
      expect(tombstones.bans.map((b) => b.platformId)).toEqual([player(2)])

      const doc = (yield* call("GET", "/.well-known/service-trust.json")).body as { signing: { keys: Array<JWK> } }
      const publicKey = yield* Effect.promise(() => importJWK(doc.signing.keys[0]!, "RS256"))
      const page = pages[0]!
      const verified = yield* Effect.promise(() => jwtVerify(page.proof!, publicKey, { issuer: "garrison-trust" }))
      expect(verified.payload).toMatchObject({
        digest: createHash("sha256").update(JSON.stringify(page.bans)).digest("hex"),
        count: 2,
        nextCursor: page.nextCursor,
        resumeSince: page.resumeSince
      })
    }).pipe(Effect.provide(trustController().layer))
  )

  it.scopedLive("since as ISO 8601 or epoch milliseconds; a bad since is 400; the community tier allows 60 requests a minute", () =>
    Effect.gen(function* () {
      yield* communities
      const { key } = yield* partnerKey("community")
      yield* activeBan(1)
      const all = (yield* exportPage(key, {})).body as Page
      const iso = (yield* exportPage(key, { since: new Date(all.bans[0]!.updatedMs - 1).toISOString() })).body as Page
      expect(iso.bans).toHaveLength(1)
      expect(((yield* exportPage(key, { since: String(all.resumeSince) })).body as Page).bans).toHaveLength(0)
      expect((yield* exportPage(key, { since: "yesterday" })).status).toBe(400)
      expect((yield* exportPage(key, { limit: "501" })).status).toBe(400)
      let last = 0
      for (let i = 0; i < 60; i++) last = (yield* exportPage(key, {})).status
      expect(last).toBe(429)
    }).pipe(Effect.provide(trustController().layer))
  )

  it.scopedLive("under concurrent writes, following nextCursor to null and resuming with since sees every change once, in commit order", () =>
    Effect.gen(function* () {
      yield* communities
      const pool = yield* Pool
      const { key } = yield* partnerKey("network")
      // The writer: 60 bans activated, every third overturned, while the reader reads.
      const writer = yield* Effect.fork(
        Effect.forEach(Array.from({ length: 60 }, (_, i) => i), (i) =>
          Effect.gen(function* () {
            const ban = yield* activeBan(100 + i)
            if (i % 3 === 0) {
              yield* pool.overturn(ban.id, "appeal", BY)
              // An admin's review puts the communities back (an overturn costs them weight, and a third overturned holds them at 0).
              for (const community of ["p1", "p2", "p3"]) yield* pool.review(community, 1, BY)
            }
          })
        , { concurrency: 4 })
      )
      const seen: Array<{ id: string; status: string; updatedMs: number }> = []
      let since = "0"
      let done = false
      while (!done) {
        const finished = writer.unsafePoll() !== null
        let page = (yield* exportPage(key, { since, limit: "7" })).body as Page
        seen.push(...page.bans)
        while (page.nextCursor !== null) {
          page = (yield* exportPage(key, { cursor: page.nextCursor, limit: "7" })).body as Page
          seen.push(...page.bans)
        }
        since = String(page.resumeSince)
        // One more full pass after the writer is done, then stop.
        done = finished
      }
      yield* Fiber.join(writer)
      const keys = seen.map((row) => `${row.id}@${row.updatedMs}`)
      expect(new Set(keys).size).toBe(keys.length)
      expect(seen.map((r) => r.updatedMs)).toEqual([...seen.map((r) => r.updatedMs)].sort((a, b) => a - b))
      // The last thing seen of every ban is its state now; none is missing.
      const final = yield* pool.list({ limit: 500 })
      const lastSeen = new Map(seen.map((row) => [row.id, row.status]))
      const exported = final.filter((ban) => ban.status !== "pending")
      expect(exported).toHaveLength(60)
      for (const ban of exported) expect(lastSeen.get(ban.id), ban.platformId).toBe(ban.status)
      expect(exported.filter((ban) => ban.status === "overturned")).toHaveLength(20)
    }).pipe(Effect.provide(trustController().layer))
  )
})
