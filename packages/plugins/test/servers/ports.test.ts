/**
 * Each entry needs ports of its own: its game port and the three after it,
 * and its RCon port (the BattlEye config's, else game port + 4). A create or
 * PATCH that would share one with another entry is 409 naming the port and
 * that entry; a create that leaves the game port out takes the first free
 * slot (2302, 2402, ...).
 */
import { describe, expect, it } from "@effect/vitest"
import { makeServerEntry } from "@garrison/runtime"
import { Effect } from "effect"
import { ServerEntries } from "../../src/servers/index.js"
import { call, fakeInstall, type Reply, serversController } from "./support.js"

// Ports are the subject here, not who may set them (RCon ports are admin's: see hostFields.test.ts).
const DEPLOY = "root:admin"

const create = (body: Record<string, unknown>) => call("POST", "/api/servers", { as: DEPLOY, json: body })
const patch = (id: string, body: Record<string, unknown>) => call("PATCH", `/api/servers/${id}`, { as: DEPLOY, json: body })

const created = (body: Record<string, unknown>) =>
  Effect.map(create(body), (reply) => {
    expect(reply.status, JSON.stringify(reply.body)).toBe(201)
    return { id: String(reply.body.id), name: String(reply.body.name), gamePort: Number(reply.body.gamePort) }
  })

const expectTaken = (reply: Reply, field: string, port: number, other: { readonly id: string; readonly name: string }) => {
  expect(reply.status, JSON.stringify(reply.body)).toBe(409)
  expect(String(reply.body.message)).toContain(`${field}: port ${port} is already taken by server "${other.name}" (${other.id})`)
  expect(reply.body.details).toEqual({ field, port, serverId: other.id, name: other.name })
}

const names = Effect.flatMap(ServerEntries, (entries) => Effect.map(entries.list, (list) => list.map((e) => e.name)))

describe("ports of their own", () => {
  it.scopedLive("a second create on a taken game port, or on one of the three after it, is 409 naming the first", () =>
    Effect.gen(function* () {
      const first = yield* created({ name: "First", installDir: fakeInstall(), gamePort: 2302 })
      expectTaken(yield* create({ name: "Same", installDir: fakeInstall(), gamePort: 2302 }), "gamePort", 2302, first)
      // 2300 takes 2300-2303: 2302 and 2303 are First's.
      expectTaken(yield* create({ name: "Overlap", installDir: fakeInstall(), gamePort: 2300 }), "gamePort", 2302, first)
      // Without an RCon port in its BattlEye config, an entry's RCon is on game port + 4: 2298 + 4 is First's.
      expectTaken(yield* create({ name: "Below", installDir: fakeInstall({ rconPort: null }), gamePort: 2298 }), "rcon.port", 2302, first)
      expect(yield* names).toEqual(["First"])
      const next = yield* created({ name: "Next", installDir: fakeInstall(), gamePort: 2307 })
      expect(next.gamePort).toBe(2307)
    }).pipe(Effect.provide(serversController()))
  )

  it.scopedLive("an RCon port another entry uses is 409 naming it; a create without a game port takes the next free slot", () =>
    Effect.gen(function* () {
      const first = yield* created({ name: "First", installDir: fakeInstall({ rconPort: 2306 }) })
      expect(first.gamePort).toBe(2302)
      const second = yield* created({ name: "Second", installDir: fakeInstall({ rconPort: 2406 }) })
      expect(second.gamePort).toBe(2402)
      // A BattlEye config that names First's RCon port clashes wherever the game port goes.
      expectTaken(yield* create({ name: "Echo", installDir: fakeInstall({ rconPort: 2306 }) }), "rcon.port", 2306, first)
      expectTaken(
        yield* create({ name: "Given", installDir: fakeInstall(), gamePort: 2600, rcon: { port: 2406, password: "x" } }),
        "rcon.port",
        2406,
        second
      )
      expect(yield* names).toEqual(["First", "Second"])
    }).pipe(Effect.provide(serversController()))
  )

  it.scopedLive("PATCH and restore refuse a move onto another entry's ports; other changes are fine", () =>
    Effect.gen(function* () {
      const first = yield* created({ name: "First", installDir: fakeInstall(), gamePort: 2302 })
      const second = yield* created({ name: "Second", installDir: fakeInstall(), gamePort: 2402 })
      expectTaken(yield* patch(second.id, { gamePort: 2303 }), "gamePort", 2303, first)
      expectTaken(yield* patch(second.id, { rcon: { port: 2304, password: "x" } }), "rcon.port", 2304, first)
      expect((yield* patch(second.id, { name: "Renamed" })).status).toBe(200)
      expect((yield* patch(second.id, { gamePort: 2502 })).status).toBe(200)

      // A restore is held to the same rule, and restores nothing when refused.
      const entries = yield* ServerEntries
      const clash = makeServerEntry({ id: "restored", name: "Restored", installDir: fakeInstall(), gamePort: 2305 })
      const refused = yield* Effect.flip(entries.upsertAll([clash]))
      expect(refused).toMatchObject({ _tag: "PortsInUse", field: "gamePort", port: 2305, serverId: first.id })
      expect(yield* names).toEqual(["First", "Renamed"])
    }).pipe(Effect.provide(serversController()))
  )
})
