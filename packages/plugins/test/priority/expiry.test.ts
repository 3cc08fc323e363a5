/**
 * priority.txt on TestClock: an entry whose `expiresAt` passes leaves every
 * server's file at that moment, with no one acting and before the cleanup
 * job has removed it (the runtime's ServerFileSync wakes at the next
 * expiry); a later change moves that wake-up.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { makeServerEntry } from "@garrison/runtime"
import { PriorityPlugin, PriorityQueue } from "../../src/priority/index.js"
import { realSleep, startKernel } from "../support/controller.js"
import { fakeActor, stubServersPlugin } from "../support/fakeServers.js"
import { tempDir } from "../support/tempDir.js"
import { OTHER, priorityFile, STEAM64, THIRD } from "./support.js"

const START = Date.parse("2026-03-01T12:00:00.000Z")

const fileWhen = (installDir: string, check: (text: string | undefined) => boolean) =>
  Effect.gen(function* () {
    for (let i = 0; i < 300 && !check(priorityFile(installDir)); i++) yield* realSleep(10)
    return priorityFile(installDir)
  })

describe("priority.txt at expiry", () => {
  it.scoped("an expired entry leaves every server's file when its time passes, before the cleanup removes it", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(START)
      const alpha = tempDir("garrison-priority-alpha-")
      const bravo = tempDir("garrison-priority-bravo-")
      const actors = new Map(
        [
          ["alpha", alpha],
          ["bravo", bravo]
        ].map(([id, installDir]) => [id!, fakeActor(id!, { entry: Effect.succeed(makeServerEntry({ id: id!, name: id!, installDir: installDir!, watchdog: false })) })])
      )
      const runtime = yield* startKernel([stubServersPlugin(actors), PriorityPlugin], tempDir("garrison-priority-data-"))
      yield* Effect.addFinalizer(() => runtime.stop)
      const queue = yield* Effect.provide(PriorityQueue, runtime.context)

      // The controller's start wrote the (empty) file into every install folder.
      expect(yield* fileWhen(alpha, (text) => text === "")).toBe("")
      yield* queue.add({ platformId: STEAM64, name: "One", role: "VIP", expiresAt: new Date(START + 90_000) }, "op")
      yield* queue.add({ platformId: OTHER, name: "Two", role: "VIP", expiresAt: null }, "op")
      expect([priorityFile(alpha), priorityFile(bravo)]).toEqual([`${STEAM64};${OTHER}`, `${STEAM64};${OTHER}`])

      // Let the sync go to sleep until the expiry; the cleanup job runs at 60 s and finds nothing yet.
      yield* realSleep(100)
      yield* TestClock.adjust("89 seconds")
      yield* realSleep(100)
      expect(priorityFile(alpha)).toBe(`${STEAM64};${OTHER}`)
      yield* TestClock.adjust("1 second")
      expect(yield* fileWhen(alpha, (text) => text === OTHER)).toBe(OTHER)
      expect(yield* fileWhen(bravo, (text) => text === OTHER)).toBe(OTHER)
      // Still stored: the cleanup job (every 60 s) has not come round again.
      expect((yield* queue.exportAll).map((entry) => entry.platformId)).toEqual([STEAM64, OTHER])

      // An entry added later with an earlier expiry than any other moves the wake-up.
      yield* queue.add({ platformId: THIRD, name: "Three", role: "VIP", expiresAt: new Date(START + 100_000) }, "op")
      expect(priorityFile(alpha)).toBe(`${OTHER};${THIRD}`)
      yield* realSleep(100)
      yield* TestClock.adjust("10 seconds")
      expect(yield* fileWhen(alpha, (text) => text === OTHER)).toBe(OTHER)
    })
  )
})
