/**
 * `POST /api/priority-queue/import`: de-duplication by player (stored, or
 * earlier in the body, in any id form), per-entry errors with their index,
 * the good entries kept, one transaction, one sync and one event.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Queue } from "effect"
import { planImport } from "../../src/priority/internal/importing.js"
import { call, createServer, entry, makeController, MANAGER, OTHER, page, priorityFile, STEAM2, STEAM3, STEAM64, THIRD } from "./support.js"

const BASE = "/api/priority-queue"
const FUTURE = "2999-01-01T00:00:00.000Z"

interface ImportBody {
  readonly added: number
  readonly skipped: number
  readonly errors: ReadonlyArray<{ readonly index: number; readonly platformId?: string; readonly error: string }>
}

describe("priority import", () => {
  it.scopedLive("adds the good, skips duplicates, reports the bad by index", () =>
    Effect.gen(function* () {
      const controller = yield* makeController
      yield* Effect.provide(
        Effect.gen(function* () {
          const server = yield* createServer("alpha")
          const stored = yield* call("POST", BASE, { as: MANAGER, json: { platformId: THIRD, name: "Stored", role: "VIP", expiresAt: null } })
          expect(stored.status).toBe(201)
          yield* Queue.take(controller.events)

          const body = [
            { platformId: STEAM2, name: "One", role: "VIP", expiresAt: FUTURE, addedBy: "old-admin" },
            { platformId: STEAM3, name: "One again", role: "Premium", expiresAt: null, addedBy: "x" },
            { platformId: THIRD, name: "Already stored", role: "VIP", expiresAt: null },
            { platformId: "garbage", name: "Bad id", role: "VIP", expiresAt: null },
            { platformId: OTHER, name: "Bad role", role: "Gold", expiresAt: null },
            { platformId: OTHER, name: "Past", role: "VIP", expiresAt: "2001-01-01T00:00:00Z" },
            "not an entry",
            { platformId: OTHER, name: "Two", role: "Supporter", expiresAt: null }
          ]
          const reply = yield* call("POST", `${BASE}/import`, { as: MANAGER, json: body })
          expect(reply.status).toBe(200)
          const result = reply.body as ImportBody
          expect(result.added).toBe(2)
          expect(result.skipped).toBe(2)
          expect(result.errors.map((e) => [e.index, e.platformId])).toEqual([
            [3, "garbage"],
            [4, OTHER],
            [5, OTHER],
            [6, undefined]
          ])
          expect(result.errors[0]?.error).toContain("platformId")
          expect(result.errors[1]?.error).toContain("role")
          expect(result.errors[2]?.error).toContain("expiresAt")

          const items = page(yield* call("GET", BASE, { as: MANAGER })).items
          expect(items.map((e) => [e.platformId, e.name, e.addedBy])).toEqual([
            [THIRD, "Stored", "mia"],
            [STEAM64, "One", "old-admin"],
            [OTHER, "Two", "mia"]
          ])
          expect(priorityFile(server.installDir)).toBe(`${THIRD};${STEAM64};${OTHER}`)
          const event = yield* Queue.take(controller.events)
          expect(event).toMatchObject({ action: "imported", platformIds: [STEAM64, OTHER] })

          // Importing the same body again adds nothing.
          const again = (yield* call("POST", `${BASE}/import`, { as: MANAGER, json: body })).body as ImportBody
          expect([again.added, again.skipped, again.errors.length]).toEqual([0, 4, 4])
        }),
        controller.layer
      )
    })
  )

  it.scopedLive("a NUL in a name is refused: 400 naming the field for one entry, the entry's index and field in an import", () =>
    Effect.gen(function* () {
      const controller = yield* makeController
      yield* Effect.provide(
        Effect.gen(function* () {
          const one = yield* call("POST", BASE, { as: MANAGER, json: { platformId: STEAM64, name: "a\u0000b", role: "VIP", expiresAt: null } })
          expect(one.status).toBe(400)
          expect(String((one.body as { message: unknown }).message)).toContain("name must not contain a NUL character (U+0000)")
          const added = yield* call("POST", BASE, { as: MANAGER, json: { platformId: STEAM64, name: "ok", role: "VIP", expiresAt: null } })
          expect(added.status).toBe(201)
          const patched = yield* call("PATCH", `${BASE}/${entry(added).id}`, { as: MANAGER, json: { name: "\u0000" } })
          expect(patched.status).toBe(400)
          expect(String((patched.body as { message: unknown }).message)).toContain("name must not contain a NUL character (U+0000)")

          const body = [
            { platformId: OTHER, name: "Bell \u0000", role: "VIP", expiresAt: null },
            { platformId: THIRD, name: "Fine", role: "VIP", expiresAt: null, addedBy: "x\u0000" },
            { platformId: THIRD, name: "Fine", role: "VIP", expiresAt: null }
          ]
          const reply = yield* call("POST", `${BASE}/import`, { as: MANAGER, json: body })
          expect(reply.status).toBe(200)
          expect(reply.body).toEqual({
            added: 1,
            skipped: 0,
            errors: [
              { index: 0, platformId: OTHER, error: "name: must not contain a NUL character (U+0000)" },
              // An optional field's error also says it may be left out, as for any bad optional field.
              { index: 1, platformId: THIRD, error: expect.stringMatching(/^addedBy: must not contain a NUL character \(U\+0000\)/) }
            ]
          })
          expect(page(yield* call("GET", BASE, { as: MANAGER })).items.map((e) => [e.platformId, e.name])).toEqual([
            [STEAM64, "ok"],
            [THIRD, "Fine"]
          ])
        }),
        controller.layer
      )
    })
  )

  it.scopedLive("an export imports back into an empty queue; a body that is not an array is 400", () =>
    Effect.gen(function* () {
      const first = yield* makeController
      const exported = yield* Effect.provide(
        Effect.gen(function* () {
          yield* call("POST", BASE, { as: MANAGER, json: { platformId: STEAM64, name: "A", role: "VIP", expiresAt: FUTURE } })
          yield* call("POST", BASE, { as: MANAGER, json: { platformId: OTHER, name: "B", role: "Premium", expiresAt: null } })
          return (yield* call("GET", `${BASE}/export`, { as: MANAGER })).body
        }),
        first.layer
      )
      const second = yield* makeController
      yield* Effect.provide(
        Effect.gen(function* () {
          const result = (yield* call("POST", `${BASE}/import`, { as: "ivan:priority.manage", json: exported })).body as ImportBody
          expect(result).toEqual({ added: 2, skipped: 0, errors: [] })
          const items = page(yield* call("GET", BASE, { as: MANAGER })).items
          expect(items.map((e) => [e.platformId, e.role, e.expiresAt, e.addedBy])).toEqual([
            [STEAM64, "VIP", FUTURE, "mia"],
            [OTHER, "Premium", null, "mia"]
          ])
          const bad = yield* call("POST", `${BASE}/import`, { as: MANAGER, json: { platformId: STEAM64 } })
          expect(bad.status).toBe(400)
          expect(entry(yield* call("POST", BASE, { as: MANAGER, json: { platformId: THIRD, name: "C", role: "VIP" } })).platformId).toBe(THIRD)
        }),
        second.layer
      )
    })
  )

  it("planImport: first entry per player wins; ids normalised before comparing", () => {
    let n = 0
    const plan = planImport(
      [
        { platformId: STEAM3, name: "a", role: "VIP", expiresAt: null },
        { platformId: STEAM64, name: "b", role: "VIP", expiresAt: null },
        { platformId: OTHER, name: "c", role: "VIP", expiresAt: null }
      ],
      { existing: new Set([OTHER]), nowMs: 0, caller: "me", newId: () => `id${n++}`, firstSeq: 7 }
    )
    expect(plan.rows.map((r) => [r.id, r.seq, r.platformId, r.name, r.addedBy])).toEqual([["id0", 7, STEAM64, "a", "me"]])
    expect(plan.skipped).toBe(2)
    expect(plan.errors).toEqual([])
  })
})
