/** The load sampler: the arithmetic of a window, the ring's bound, and the job's pace on the TestClock. */
import { describe, expect, it } from "@effect/vitest"
import { call } from "@garrison/testkit"
import { Effect, TestClock } from "effect"
import { HISTORY_SIZE, makeSampler, pushSample, type Reading, sampleBetween } from "../../src/system/Sampler.js"
import { parseUnit } from "../../src/system/ServiceManager.js"
import { ADMIN, systemController } from "./support.js"

const loop = { meanMs: 1, p50Ms: 1, p99Ms: 4, maxMs: 9 }
const reading = (atMs: number, busyMs: number, idleMs: number, processMicros: number): Reading => ({
  atMs,
  cpuIdleMs: idleMs,
  cpuTotalMs: busyMs + idleMs,
  load1: 0.5,
  memoryUsedBytes: 1000,
  processCpuMicros: processMicros,
  rssBytes: 2000,
  heapUsedBytes: 300,
  eventLoop: loop
})

describe("load sampling", () => {
  it("a window's CPU shares: the host's busy part of all ticks, the process's time over wall time", () => {
    const sample = sampleBetween(reading(0, 1000, 3000, 0), reading(5000, 2000, 6000, 2_500_000))
    expect(sample).toMatchObject({ cpuBusyPercent: 25, processCpuPercent: 50, eventLoopP99Ms: 4, at: "1970-01-01T00:00:05.000Z" })
    // No ticks or no time between the readings: 0, not NaN.
    expect(sampleBetween(reading(0, 0, 0, 0), reading(0, 0, 0, 0))).toMatchObject({ cpuBusyPercent: 0, processCpuPercent: 0 })
  })

  it("the ring keeps the newest HISTORY_SIZE samples", () => {
    let ring = [] as ReturnType<typeof pushSample>
    for (let i = 0; i < HISTORY_SIZE + 5; i++) ring = pushSample(ring, sampleBetween(reading(0, 0, 1, 0), reading(i * 1000 + 1, 0, 2, 0)))
    expect(ring).toHaveLength(HISTORY_SIZE)
    expect(ring[0]!.at).toBe(new Date(5 * 1000 + 1).toISOString())
  })

  it.effect("a sampler compares each reading with the one before", () =>
    Effect.gen(function* () {
      let n = 0
      const sampler = yield* makeSampler(Effect.sync(() => reading(n * 5000, n * 100, n * 300, n * 1_000_000)).pipe(Effect.tap(() => void n++)))
      yield* sampler.sample
      yield* sampler.sample
      const history = yield* sampler.history
      expect(history.map((s) => s.cpuBusyPercent)).toEqual([25, 25])
      expect(history.map((s) => s.processCpuPercent)).toEqual([20, 20])
      expect(yield* sampler.lastEventLoop).toEqual(loop)
    })
  )

  it.scoped("the plugin samples every 5 seconds and answers the history (TestClock)", () =>
    Effect.gen(function* () {
      const history = Effect.map(call("GET", "/api/system/metrics", { as: ADMIN }), (reply) => reply.body as { history: Array<unknown>; eventLoop: unknown; sampleEverySeconds: number })
      expect((yield* history).history).toHaveLength(0)
      expect((yield* history).eventLoop).toBeNull()
      yield* TestClock.adjust("5 seconds")
      yield* TestClock.adjust("5 seconds")
      yield* TestClock.adjust("4 seconds")
      const body = yield* history
      expect(body.sampleEverySeconds).toBe(5)
      expect(body.history).toHaveLength(2)
      expect(body.eventLoop).toMatchObject({ p99Ms: expect.any(Number) })
      expect(body).toMatchObject({ host: { memory: { totalBytes: expect.any(Number) } }, process: { pid: process.pid } })
    }).pipe(Effect.provide(systemController({ only: [] }).layer))
  )
})

describe("systemctl's answer", () => {
  it("a unit file present, running and enabled", () => {
    expect(parseUnit("garrison.service", "LoadState=loaded\nActiveState=active\nUnitFileState=enabled\nMainPID=4242\n")).toEqual({
      name: "garrison.service",
      present: true,
      activeState: "active",
      unitFileState: "enabled",
      enabled: true,
      mainPid: 4242
    })
  })
  it("no unit file; nothing understood", () => {
    expect(parseUnit("garrison.service", "LoadState=not-found\nActiveState=inactive\nUnitFileState=\nMainPID=0\n")).toMatchObject({ present: false, enabled: false, mainPid: null })
    expect(parseUnit("garrison.service", "")).toBeNull()
  })
})
