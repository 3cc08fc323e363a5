/**
 * The host's and the controller's load, sampled every `SAMPLE_EVERY` by a
 * plugin job into a ring of recent samples the dashboard charts. CPU shares
 * need two readings, so each sample compares with the reading before it;
 * the arithmetic is `sampleBetween`, a plain function.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Ref from "effect/Ref"
import * as Os from "node:os"
import { monitorEventLoopDelay } from "node:perf_hooks"
import type { EventLoopDelay, MetricSample } from "./contract/Api.js"

export const SAMPLE_EVERY_SECONDS = 5
/** Ten minutes of samples. */
export const HISTORY_SIZE = 120

/** What one reading sees; CPU times are cumulative counters. */
export interface Reading {
  readonly atMs: number
  /** Summed over every core, in milliseconds. */
  readonly cpuIdleMs: number
  readonly cpuTotalMs: number
  readonly load1: number
  readonly memoryUsedBytes: number
  /** The controller's user + system CPU time, microseconds. */
  readonly processCpuMicros: number
  readonly rssBytes: number
  readonly heapUsedBytes: number
  /** Since the reading before (and reset by this one). */
  readonly eventLoop: EventLoopDelay
}

const round1 = (n: number) => Math.round(n * 10) / 10
const clampPercent = (n: number) => Math.min(100, Math.max(0, n))

/** The sample for the window between two readings. */
export const sampleBetween = (before: Reading, after: Reading): MetricSample => {
  const total = after.cpuTotalMs - before.cpuTotalMs
  const idle = after.cpuIdleMs - before.cpuIdleMs
  const wallMicros = (after.atMs - before.atMs) * 1000
  return {
    at: new Date(after.atMs).toISOString(),
    cpuBusyPercent: total > 0 ? round1(clampPercent(((total - idle) / total) * 100)) : 0,
    load1: after.load1,
    memoryUsedBytes: after.memoryUsedBytes,
    processCpuPercent: wallMicros > 0 ? round1(Math.max(0, ((after.processCpuMicros - before.processCpuMicros) / wallMicros) * 100)) : 0,
    rssBytes: after.rssBytes,
    heapUsedBytes: after.heapUsedBytes,
    eventLoopP99Ms: after.eventLoop.p99Ms
  }
}

/** `ring` with `sample` added, the oldest dropped past `size`. */
export const pushSample = (ring: ReadonlyArray<MetricSample>, sample: MetricSample, size: number = HISTORY_SIZE): ReadonlyArray<MetricSample> =>
  ring.length >= size ? [...ring.slice(ring.length - size + 1), sample] : [...ring, sample]

export interface SamplerShape {
  /** Reads once and adds the window's sample to the history (the job's run). */
  readonly sample: Effect.Effect<void>
  readonly history: Effect.Effect<ReadonlyArray<MetricSample>>
  /** The event loop's delay over the last window (null before the first sample). */
  readonly lastEventLoop: Effect.Effect<EventLoopDelay | null>
}

/** A sampler over `read`: the first reading, taken now, is the first window's start. */
export const makeSampler = (read: Effect.Effect<Reading>): Effect.Effect<SamplerShape> =>
  Effect.gen(function* () {
    const last = yield* Ref.make(yield* read)
    const ring = yield* Ref.make<ReadonlyArray<MetricSample>>([])
    const loop = yield* Ref.make<EventLoopDelay | null>(null)
    return {
      sample: Effect.gen(function* () {
        const next = yield* read
        const before = yield* Ref.getAndSet(last, next)
        yield* Ref.update(ring, (samples) => pushSample(samples, sampleBetween(before, next)))
        yield* Ref.set(loop, next.eventLoop)
      }),
      history: Ref.get(ring),
      lastEventLoop: Ref.get(loop)
    }
  })

const nsToMs = (ns: number) => (Number.isFinite(ns) ? Math.round(ns / 1e4) / 100 : 0)

/** The real host: `os` and `process`, and an event-loop delay histogram held while the plugin runs. */
const hostReader = Effect.gen(function* () {
  const histogram = yield* Effect.acquireRelease(
    Effect.sync(() => {
      const h = monitorEventLoopDelay({ resolution: 20 })
      h.enable()
      return h
    }),
    (h) => Effect.sync(() => h.disable())
  )
  return Effect.gen(function* () {
    const atMs = yield* Clock.currentTimeMillis
    return yield* Effect.sync((): Reading => {
      let idle = 0
      let total = 0
      for (const cpu of Os.cpus()) {
        idle += cpu.times.idle
        total += cpu.times.idle + cpu.times.user + cpu.times.sys + cpu.times.nice + cpu.times.irq
      }
      const usage = process.cpuUsage()
      const memory = process.memoryUsage()
      const eventLoop = { meanMs: nsToMs(histogram.mean), p50Ms: nsToMs(histogram.percentile(50)), p99Ms: nsToMs(histogram.percentile(99)), maxMs: nsToMs(histogram.max) }
      histogram.reset()
      return {
        atMs,
        cpuIdleMs: idle,
        cpuTotalMs: total,
        load1: Os.loadavg()[0] ?? 0,
        memoryUsedBytes: Os.totalmem() - Os.freemem(),
        processCpuMicros: usage.user + usage.system,
        rssBytes: memory.rss,
        heapUsedBytes: memory.heapUsed,
        eventLoop
      }
    })
  })
})

export class Sampler extends Context.Tag("@garrison/plugins/system/Sampler")<Sampler, SamplerShape>() {
  static readonly layer = Layer.scoped(Sampler, Effect.flatMap(hostReader, makeSampler))
}
