/**
 * `priority.txt` in every server: written before each start and restart
 * (the `BeforeServerStart` hook), after every change, cleaned on delete,
 * and the `PriorityChanged` events that follow.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Queue } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { call, createServer, DEPLOY, entry, makeController, MANAGER, OTHER, priorityFile, STEAM3, STEAM64, THIRD } from "./support.js"

const BASE = "/api/priority-queue"
const add = (platformId: string, name: string) =>
  Effect.map(call("POST", BASE, { as: MANAGER, json: { platformId, name, role: "VIP", expiresAt: null } }), entry)

describe("priority.txt sync", () => {
  it.scopedLive("every change rewrites every server's file; delete cleans them; events follow", () =>
    Effect.gen(function* () {
      const controller = yield* makeController
      yield* Effect.provide(
        Effect.gen(function* () {
          const alpha = yield* createServer("alpha")
          const beta = yield* createServer("beta")
          const first = yield* add(STEAM3, "One")
          expect(priorityFile(alpha.installDir)).toBe(STEAM64)
          const second = yield* add(OTHER, "Two")
          expect(priorityFile(alpha.installDir)).toBe(`${STEAM64};${OTHER}`)
          expect(priorityFile(beta.installDir)).toBe(`${STEAM64};${OTHER}`)

          expect((yield* call("PATCH", `${BASE}/${second.id}`, { as: MANAGER, json: { role: "Premium" } })).status).toBe(200)
          expect((yield* call("DELETE", `${BASE}/${first.id}`, { as: MANAGER })).status).toBe(204)
          expect(priorityFile(alpha.installDir)).toBe(OTHER)
          expect(priorityFile(beta.installDir)).toBe(OTHER)
          expect((yield* call("DELETE", `${BASE}/${second.id}`, { as: MANAGER })).status).toBe(204)
          expect(priorityFile(alpha.installDir)).toBe("")
          expect(priorityFile(beta.installDir)).toBe("")
          // Written atomically: no temporary files left behind.
          expect(Fs.readdirSync(alpha.installDir).filter((f) => f.endsWith(".tmp"))).toEqual([])

          const events = yield* Queue.takeBetween(controller.events, 5, 5)
          expect([...events].map((e) => e.action)).toEqual(["added", "added", "updated", "removed", "removed"])
          expect([...events][0]).toMatchObject({ ids: [first.id], platformIds: [STEAM64] })
        }),
        controller.layer
      )
    })
  )

  it.scopedLive("start and restart write the file first, replacing whatever was there", () =>
    Effect.gen(function* () {
      const controller = yield* makeController
      yield* Effect.provide(
        Effect.gen(function* () {
          const server = yield* createServer("alpha")
          yield* add(STEAM64, "One")
          yield* add(THIRD, "Three")
          const path = NodePath.join(server.installDir, "priority.txt")
          Fs.writeFileSync(path, "hand edited;76561198099999999\n")

          const started = yield* call("POST", `/api/servers/${server.id}/start`, { as: DEPLOY })
          expect(started.status).toBe(200)
          expect(priorityFile(server.installDir)).toBe(`${STEAM64};${THIRD}`)

          Fs.rmSync(path)
          const restarted = yield* call("POST", `/api/servers/${server.id}/restart`, { as: DEPLOY })
          expect(restarted.status).toBe(200)
          expect(priorityFile(server.installDir)).toBe(`${STEAM64};${THIRD}`)
          yield* call("POST", `/api/servers/${server.id}/stop`, { as: DEPLOY })
        }),
        controller.layer
      )
    })
  )

  it.scopedLive("a start with no entries writes an empty file", () =>
    Effect.gen(function* () {
      const controller = yield* makeController
      yield* Effect.provide(
        Effect.gen(function* () {
          const server = yield* createServer("alpha")
          expect(priorityFile(server.installDir)).toBeUndefined()
          expect((yield* call("POST", `/api/servers/${server.id}/start`, { as: DEPLOY })).status).toBe(200)
          expect(priorityFile(server.installDir)).toBe("")
          yield* call("POST", `/api/servers/${server.id}/stop`, { as: DEPLOY })
        }),
        controller.layer
      )
    })
  )
})
