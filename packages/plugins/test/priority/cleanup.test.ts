/**
 * Expiry with `TestClock`: expired entries leave `priority.txt` at the
 * next 60-second cleanup, `POST /cleanup` does the same at once and
 * answers `{removed, remaining}`, and a start never writes an expired id.
 */
import { describe, expect, it } from "@effect/vitest"
import { adjustInSteps, sleepingUntil } from "@garrison/testkit"
import { Effect, Queue, TestClock } from "effect"
import { call, createServer, DEPLOY, makeController, MANAGER, OTHER, page, priorityFile, STEAM64, THIRD } from "./support.js"

const BASE = "/api/priority-queue"
const T0 = Date.parse("2025-01-06T03:00:00.000Z")
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString()
/** The ids in a server's file, sorted (entries added at the same instant have no set order). */
const idsIn = (installDir: string) => (priorityFile(installDir) ?? "").split(";").filter((id) => id.length > 0).sort()
const sorted = (...ids: ReadonlyArray<string>) => [...ids].sort()

const add = (platformId: string, expiresAt: string | null) =>
  call("POST", BASE, { as: MANAGER, json: { platformId, name: platformId.slice(-4), role: "VIP", expiresAt } })

describe("priority cleanup", () => {
  it.scoped("every 60 seconds expired entries are removed and the files rewritten", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(T0)
      const controller = yield* makeController
      yield* Effect.provide(
        Effect.gen(function* () {
          const server = yield* createServer("alpha")
          expect((yield* add(STEAM64, at(90))).status).toBe(201)
          expect((yield* add(OTHER, null)).status).toBe(201)
          expect((yield* add(THIRD, at(150))).status).toBe(201)
          yield* Queue.takeBetween(controller.events, 3, 3)
          expect(idsIn(server.installDir)).toEqual(sorted(STEAM64, OTHER, THIRD))

          // 60 s: nothing has expired yet, the file stays. (Each move waits for the cleanup job to sleep until the
          // instant it crosses: on PostgreSQL a run's round trips take real time, and one move past a run still
          // working would leave the job sleeping from the end of it.)
          yield* adjustInSteps("60 seconds", "60 seconds")
          expect(page(yield* call("GET", BASE, { as: MANAGER })).items).toHaveLength(3)
          expect(yield* Queue.size(controller.events)).toBe(0)

          // 100 s: expired but not yet cleaned; listed as inactive.
          yield* TestClock.adjust("40 seconds")
          expect(page(yield* call("GET", `${BASE}?active=false`, { as: MANAGER })).items.map((e) => e.platformId)).toEqual([STEAM64])

          // 120 s: the job removes it and rewrites the file.
          yield* sleepingUntil(T0 + 120_000)
          yield* TestClock.adjust("20 seconds")
          const cleaned = yield* Queue.take(controller.events)
          expect(cleaned).toMatchObject({ action: "cleaned", platformIds: [STEAM64] })
          expect(idsIn(server.installDir)).toEqual(sorted(OTHER, THIRD))

          // 180 s: the next one removes THIRD.
          yield* adjustInSteps("60 seconds", "60 seconds")
          expect(yield* Queue.take(controller.events)).toMatchObject({ action: "cleaned", platformIds: [THIRD] })
          expect(priorityFile(server.installDir)).toBe(OTHER)
          expect(page(yield* call("GET", BASE, { as: MANAGER })).items.map((e) => e.platformId)).toEqual([OTHER])
        }),
        controller.layer
      )
    })
  )

  it.scoped("POST /cleanup removes expired entries at once; a start skips expired ids", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(T0)
      const controller = yield* makeController
      yield* Effect.provide(
        Effect.gen(function* () {
          const server = yield* createServer("alpha")
          yield* add(STEAM64, at(10))
          yield* add(OTHER, null)
          yield* add(THIRD, at(20))
          yield* Queue.takeBetween(controller.events, 3, 3)

          const none = yield* call("POST", `${BASE}/cleanup`, { as: MANAGER })
          expect(none).toMatchObject({ status: 200, body: { removed: 0, remaining: 3 } })
          expect(yield* Queue.size(controller.events)).toBe(0)

          yield* TestClock.adjust("15 seconds")
          // Expired, not yet cleaned: a start already leaves it out.
          expect((yield* call("POST", `/api/servers/${server.id}/start`, { as: DEPLOY })).status).toBe(200)
          expect(idsIn(server.installDir)).toEqual(sorted(OTHER, THIRD))

          yield* TestClock.adjust("10 seconds")
          const reply = yield* call("POST", `${BASE}/cleanup`, { as: MANAGER })
          expect(reply).toMatchObject({ status: 200, body: { removed: 2, remaining: 1 } })
          expect(priorityFile(server.installDir)).toBe(OTHER)
          const cleaned = yield* Queue.take(controller.events)
          expect(cleaned.action).toBe("cleaned")
          expect(sorted(...cleaned.platformIds)).toEqual(sorted(STEAM64, THIRD))
          // A player whose entry expired can be added again at once.
          expect((yield* add(STEAM64, null)).status).toBe(201)
          yield* call("POST", `/api/servers/${server.id}/stop`, { as: DEPLOY })
        }),
        controller.layer
      )
    })
  )

  it.scoped("an expired entry not yet cleaned does not block adding the player again", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(T0)
      const controller = yield* makeController
      yield* Effect.provide(
        Effect.gen(function* () {
          expect((yield* add(STEAM64, at(5))).status).toBe(201)
          expect((yield* add(STEAM64, null)).status).toBe(409)
          yield* TestClock.adjust("6 seconds")
          expect((yield* add(STEAM64, null)).status).toBe(201)
          expect(page(yield* call("GET", BASE, { as: MANAGER })).items.map((e) => e.expiresAt)).toEqual([null])
        }),
        controller.layer
      )
    })
  )
})
