/**
 * `RequestLoad`: requests counted while answered; `busy` only for a stream
 * (at least RECENT_REQUESTS answered or under way within RECENT_WINDOW_MS)
 * that keeps the event loop busy (the clock and the loop's share are given
 * here).
 */
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber } from "effect"
import { BUSY_LOOP_SHARE, makeRequestLoad, RECENT_REQUESTS, RECENT_WINDOW_MS } from "../../src/http/RequestLoad.js"

describe("RequestLoad", () => {
  it.effect("counts requests while they are answered", () =>
    Effect.gen(function* () {
      const load = makeRequestLoad({ loopShare: () => 1, now: () => 0 })
      const release = yield* Deferred.make<void>()
      const fiber = yield* Effect.fork(load.track(Deferred.await(release)))
      yield* Effect.yieldNow()
      expect(load.inFlight()).toBe(1)
      yield* Deferred.succeed(release, undefined)
      yield* Fiber.join(fiber)
      expect(load.inFlight()).toBe(0)
      // A failing request is counted out too.
      yield* Effect.either(load.track(Effect.fail("no")))
      expect(load.inFlight()).toBe(0)
    })
  )

  it.effect("busy: a stream of requests with the loop busy; not one now and then, not a stream on an idle loop", () =>
    Effect.gen(function* () {
      let share = 1
      let now = 1000
      const load = makeRequestLoad({ loopShare: () => share, now: () => now })
      // One request now and then: not busy.
      yield* load.track(Effect.void)
      expect(load.busy()).toBe(false)
      // A stream: RECENT_REQUESTS within the window.
      for (let i = 1; i < RECENT_REQUESTS; i++) {
        now += 10
        yield* load.track(Effect.void)
      }
      expect(load.busy()).toBe(true)
      // The same stream on a loop that is mostly idle: nothing to give way to.
      share = BUSY_LOOP_SHARE - 0.1
      expect(load.busy()).toBe(false)
      share = 1
      // The stream stops: busy no more once the window has passed.
      now += RECENT_WINDOW_MS
      expect(load.busy()).toBe(false)
    })
  )
})
