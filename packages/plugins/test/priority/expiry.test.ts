/**
 * priority.txt on TestClock: an entry whose `expiresAt` passes leaves every
 * server's file at that moment, with no one acting and before the cleanup
 * job has removed it (the runtime's ServerFileSync wakes at the next
 * expiry); a later change moves that wake-up.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema, TestClock } from "effect"
import { makeServerEntry } from "@garrison/runtime"
import { PriorityEntryInput, PriorityPlugin, PriorityQueue } from "../../src/priority/index.js"
import { eventually, fakeActor, sleepingUntil, sleepsOnTestClock, startKernel, stubServersPlugin, tempDir } from "@garrison/testkit"
import { OTHER, priorityFile, STEAM64, THIRD } from "./support.js"

const START = Date.parse("2026-03-01T12:00:00.000Z")

/** An entry as the route decodes it (a VIP, expiring `expiresIn` ms after START, or never). */
const vip = (platformId: string, name: string, expiresIn: number | null) =>
  Schema.decodeUnknownSync(PriorityEntryInput)({
    platformId,
    playerName: name,
    role: "VIP",
    expiresAt: expiresIn === null ? null : new Date(START + expiresIn).toISOString()
  })

/** The file once it passes `check` (waited for in real time: the sync writes through promises). */
const fileWhen = (installDir: string, check: (text: string | undefined) => boolean) =>
  eventually(Effect.sync(() => priorityFile(installDir)), check)

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
      yield* queue.add(vip(STEAM64, "One", 90_000), "op")
      yield* queue.add(vip(OTHER, "Two", null), "op")
      expect([priorityFile(alpha), priorityFile(bravo)]).toEqual([`${STEAM64};${OTHER}`, `${STEAM64};${OTHER}`])

      // Let the sync go to sleep until the expiry; the cleanup job runs at 60 s and finds nothing yet.
      yield* sleepingUntil(START + 90_000)
      yield* TestClock.adjust("89 seconds")
      // The sync still sleeps until the expiry, a second away: nothing was written meanwhile.
      expect(yield* sleepsOnTestClock).toContain(START + 90_000)
      expect(priorityFile(alpha)).toBe(`${STEAM64};${OTHER}`)
      yield* TestClock.adjust("1 second")
      expect(yield* fileWhen(alpha, (text) => text === OTHER)).toBe(OTHER)
      expect(yield* fileWhen(bravo, (text) => text === OTHER)).toBe(OTHER)
      // Still stored: the cleanup job (every 60 s) has not come round again.
      expect((yield* queue.exportAll).map((entry) => entry.platformId)).toEqual([STEAM64, OTHER])

      // An entry added later with an earlier expiry than any other moves the wake-up.
      yield* queue.add(vip(THIRD, "Three", 100_000), "op")
      expect(priorityFile(alpha)).toBe(`${OTHER};${THIRD}`)
      yield* sleepingUntil(START + 100_000)
      yield* TestClock.adjust("10 seconds")
      expect(yield* fileWhen(alpha, (text) => text === OTHER)).toBe(OTHER)
    })
  )
})
