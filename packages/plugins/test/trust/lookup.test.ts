/**
 * The public lookup: every identifier kind, the score's signals and band,
 * what it never says (submitters, notes, pending bans' weight), and the
 * signed proof: verified by jose with nothing but the public JWK of the
 * capability document, and failed by any changed byte.
 */
import { describe, expect, it } from "@effect/vitest"
import { call, request } from "@garrison/testkit"
import { Effect } from "effect"
import { compactVerify, importJWK, type JWK, jwtVerify } from "jose"
import { Pool, serviceIdOf } from "../../src/trust/index.js"
import { ADMIN, ban, lookup, MANAGER, submit, trustController } from "./support.js"

const PLAYER = "76561198012345678"
const STEAM2 = "STEAM_0:0:26039975"

const capability = Effect.map(call("GET", "/.well-known/service-trust.json"), (reply) => {
  expect(reply.status).toBe(200)
  return reply.body as { signing: { alg: string; keys: Array<JWK> } | null; bands: Array<{ name: string }>; identifierKinds: Array<string> }
})

describe("trust lookup", () => {
  it.scopedLive("a player nobody knows: neutral 50, low confidence, every signal; a proof jose verifies with the published key alone", () =>
    Effect.gen(function* () {
      const doc = yield* capability
      expect(doc.identifierKinds).toEqual(["steam64", "steam2", "service-id", "chat-user"])
      expect(doc.bands.map((b) => b.name)).toContain("neutral")
      expect(doc.signing?.alg).toBe("RS256")
      const jwk = doc.signing!.keys[0]!
      expect(jwk).not.toHaveProperty("d")

      const raw = yield* request("GET", `/api/v1/trust/${PLAYER}`)
      expect(raw.status).toBe(200)
      const body = JSON.parse(raw.text) as Record<string, unknown> & { proof: string }
      expect(body).toMatchObject({
        serviceId: serviceIdOf(PLAYER),
        platformId: PLAYER,
        score: 50,
        band: "neutral",
        signals: { bans_active: 0, submissions_pending: 0, accuracy: null, overturned: 0, expired: 0, communities: 0, playtime_hours: null, servers_seen: null },
        reasons: ["no community-ban history", "playtime unknown"]
      })
      expect(raw.headers["x-service-trust-proof"]).toBe(body.proof)

      const key = yield* Effect.promise(() => importJWK(jwk, "RS256"))
      const verified = yield* Effect.promise(() => jwtVerify(body.proof, key, { issuer: "garrison-trust", algorithms: ["RS256"] }))
      expect(verified.protectedHeader.kid).toBe(jwk.kid)
      expect(verified.payload).toMatchObject({ sub: PLAYER, platformId: PLAYER, serviceId: serviceIdOf(PLAYER), score: 50, band: "neutral", confidence: body["confidence"], computedAt: body["computedAt"] })
      // Any byte changed (header, payload or signature), the proof fails.
      for (const at of [5, body.proof.indexOf(".") + 8, body.proof.length - 6]) {
        const flipped = body.proof.slice(0, at) + (body.proof[at] === "A" ? "B" : "A") + body.proof.slice(at + 1)
        const outcome = yield* Effect.either(Effect.tryPromise(() => compactVerify(flipped, key)))
        expect(outcome._tag, `byte ${at}`).toBe("Left")
      }
    }).pipe(Effect.provide(trustController().layer))
  )

  it.scopedLive("Steam2 names the same player; a service id once the pool named them; a linked chat user; anything else is 400 naming the kinds", () =>
    Effect.gen(function* () {
      const bySteam2 = yield* lookup(STEAM2)
      expect(bySteam2.status).toBe(200)
      expect(bySteam2.body).toMatchObject({ platformId: PLAYER })
      expect((yield* lookup(serviceIdOf(PLAYER))).status).toBe(404)
      expect((yield* submit(yield* ban(PLAYER))).status).toBe(201)
      const byService = yield* lookup(serviceIdOf(PLAYER).toUpperCase())
      expect(byService.status).toBe(200)
      expect(byService.body).toMatchObject({ platformId: PLAYER })

      expect((yield* lookup("123456789012345678")).status).toBe(404)
      expect((yield* call("PUT", "/api/trust/chat-links/123456789012345678", { as: MANAGER, json: { platformId: STEAM2 } })).status).toBe(200)
      expect((yield* lookup("123456789012345678")).body).toMatchObject({ platformId: PLAYER })

      for (const bad of ["hello", "76561198", "STEAM_9:0:1", "[U:1:52079950]", "../../etc/passwd", "x".repeat(60), "7656119801234567890123"]) {
        const reply = yield* lookup(bad)
        expect(reply.status, bad).toBe(400)
        expect(JSON.stringify(reply.body), bad).toMatch(/Steam64|at most 100|path segment/)
      }
    }).pipe(Effect.provide(trustController().layer))
  )

  it.scopedLive("pending is counted and moves nothing; active bans ban; nothing of the submitters or their notes is in the answer", () =>
    Effect.gen(function* () {
      const submitted = yield* submit(yield* ban(PLAYER), "cheating", "our admin Kowalski saw it")
      expect(submitted.body).toMatchObject({ status: "pending", vouchCount: 1, vouchWeight: 1 })
      const pending = yield* lookup(PLAYER)
      expect(pending.body).toMatchObject({ score: 50, band: "neutral", signals: { bans_active: 0, submissions_pending: 1 } })

      const pool = yield* Pool
      yield* pool.ensureCommunity("partner-a", "Partner A")
      yield* pool.ensureCommunity("partner-b", "Partner B")
      yield* pool.vouch({ communityId: "partner-a", platformId: PLAYER, reasonCategory: "cheating", expiresMs: null })
      expect((yield* lookup(PLAYER)).body).toMatchObject({ signals: { bans_active: 0, submissions_pending: 1 } })
      const active = yield* pool.vouch({ communityId: "partner-b", platformId: PLAYER, reasonCategory: "cheating", expiresMs: null })
      expect(active).toMatchObject({ status: "active", vouchCount: 3 })

      const reply = yield* lookup(PLAYER)
      expect(reply.body).toMatchObject({ score: 5, band: "banned", signals: { bans_active: 1, submissions_pending: 0, accuracy: 1, communities: 3 } })
      expect((reply.body as { reasons: Array<string> }).reasons[0]).toBe("an active community ban for cheating, vouched for by 3 communities")
      const text = JSON.stringify(reply.body)
      for (const secret of ["Kowalski", "Partner A", "partner-a", "local", "root", "private note"]) expect(text).not.toContain(secret)
    }).pipe(Effect.provide(trustController().layer))
  )

  it.scopedLive("TRUST_SIGNING=false: no proof, no header, no key in the capability document", () =>
    Effect.gen(function* () {
      const raw = yield* request("GET", `/api/v1/trust/${PLAYER}`)
      expect(raw.headers["x-service-trust-proof"]).toBeUndefined()
      expect(JSON.parse(raw.text)).not.toHaveProperty("proof")
      expect((yield* capability).signing).toBeNull()
      expect((yield* call("GET", "/api/trust/pool", { as: ADMIN })).status).toBe(200)
    }).pipe(Effect.provide(trustController({ TRUST_SIGNING: "false" }).layer))
  )
})
