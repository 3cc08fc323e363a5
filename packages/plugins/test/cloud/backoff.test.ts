/**
 * Reconnection on the TestClock: after the relay drops the link, the next
 * attempt waits a jittered delay (between half and all of base * 2^(n-1),
 * capped), shown as `nextAttemptAt`; nothing happens before it; failures
 * in a row double the ceiling; a successful connection starts over; a
 * reconnect of a server cuts the wait short; disable stops it all.
 */
import { describe, expect, it } from "@effect/vitest"
import { call, eventually, sleepingUntil } from "@garrison/testkit"
import { Clock, Duration, Effect, TestClock } from "effect"
import { cloudDelayCeiling, cloudReconnectDelay } from "../../src/cloud/index.js"
import { fakeRelay } from "./fakeRelay.js"
import { ADMIN, cloudController, makeRole, makeServer, type Status, status, TOKEN } from "./support.js"

const START = Date.parse("2026-03-01T12:00:00.000Z")
const BASE = Duration.seconds(1)
const MAX = Duration.seconds(10)

/** Waits for the link to back off after `attempt` failures; checks the delay against its bounds; answers the wake-up time. */
const backingOff = (attempt: number) =>
  Effect.gen(function* () {
    const waiting = yield* eventually(status, (s: Status) => s.state === "backing-off" && s.attempt === attempt)
    const now = yield* Clock.currentTimeMillis
    const next = Date.parse(waiting.nextAttemptAt!)
    const ceiling = cloudDelayCeiling(attempt, BASE, MAX)
    expect(next - now, `attempt ${attempt}`).toBeGreaterThanOrEqual(ceiling / 2)
    expect(next - now, `attempt ${attempt}`).toBeLessThanOrEqual(ceiling)
    // The link sleeps until exactly then on the TestClock.
    yield* sleepingUntil(next)
    return { next, waiting }
  })

describe("reconnection with backoff", () => {
  it("draws each delay between half and all of its ceiling, which doubles up to the maximum", () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => cloudDelayCeiling(n, BASE, MAX))).toEqual([1000, 2000, 4000, 8000, 10000, 10000])
    expect(cloudReconnectDelay(3, BASE, MAX, 0)).toBe(2000)
    expect(cloudReconnectDelay(3, BASE, MAX, 0.999999)).toBe(4000)
  })

  it.scoped("after the relay drops: waits the backoff on the clock, then reconnects; failures in a row back off longer", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(START)
      const relay = yield* fakeRelay(TOKEN)
      yield* Effect.gen(function* () {
        yield* makeRole("cloud-op", ["server.restart"])
        const id = yield* makeServer("Alpha", 2302)
        expect((yield* call("POST", `/api/cloud/connect/${id}`, { as: ADMIN })).status).toBe(200)
        expect((yield* call("POST", "/api/cloud/enable", { as: ADMIN, json: { token: TOKEN, role: "cloud-op" } })).status).toBe(200)
        yield* eventually(status, (s) => s.state === "connected")

        // The relay drops the link: backing off, with why and when.
        relay.drop()
        const first = yield* backingOff(1)
        expect(first.waiting.lastError).toContain("closed the connection")
        // Just before the attempt nothing has happened.
        const now = yield* Clock.currentTimeMillis
        yield* TestClock.adjust(first.next - now - 1)
        expect(relay.connections()).toBe(1)
        expect((yield* status).state).toBe("backing-off")
        yield* TestClock.adjust(1)
        yield* eventually(status, (s) => s.state === "connected")
        expect(relay.connections()).toBe(2)
        // On the new connection the relay gets the server list again.
        yield* eventually(Effect.sync(() => relay.received.filter((m) => m.type === "servers").length), (n) => n === 2)

        // The relay goes away: the connection ends (attempt 1), then every attempt fails and the ceiling doubles.
        yield* relay.stop
        let wake = (yield* backingOff(1)).next
        for (const attempt of [2, 3, 4]) {
          yield* TestClock.adjust(wake - (yield* Clock.currentTimeMillis))
          const failed = yield* backingOff(attempt)
          expect(failed.waiting.lastError).toContain("could not connect")
          wake = failed.next
        }
        // A reconnect of a server cuts the wait short once the relay is back.
        yield* relay.start
        expect((yield* call("POST", `/api/cloud/reconnect/${id}`, { as: ADMIN })).status).toBe(200)
        const back = yield* eventually(status, (s) => s.state === "connected")
        expect(back.attempt).toBe(0)
        expect(relay.connections()).toBe(3)
        expect(yield* Clock.currentTimeMillis).toBeLessThan(wake)

        // Disable: closed, and no attempt follows, however long the clock runs.
        expect((yield* call("POST", "/api/cloud/disable", { as: ADMIN })).body).toMatchObject({ state: "disabled" })
        yield* eventually(Effect.sync(() => relay.closes), (closes) => closes.includes(1000))
        relay.drop()
        yield* TestClock.adjust("1 hour")
        expect((yield* status).state).toBe("disabled")
        expect(relay.connections()).toBe(3)
      }).pipe(Effect.provide(cloudController({ CLOUD_RELAY_URL: relay.url, CLOUD_RECONNECT_BASE: "1 second", CLOUD_RECONNECT_MAX: "10 seconds" })))
    })
  )
})
