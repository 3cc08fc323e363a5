/**
 * How busy the request path is: the requests whose answers are being made
 * right now. The host counts them (its front door, from a request reaching
 * the handlers to its answer being ready: a stream counts until its head is
 * ready, not while it streams).
 *
 * Background work that shares the event loop with the requests reads it to
 * give way to them (webhook delivery slows to a trickle while requests come
 * in), so the panel answers as quickly with a backlog of background work as
 * without one. Work that gives way must
 * still make progress: giving way slows it, never stops it.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { performance } from "node:perf_hooks"

export interface RequestLoadShape {
  /** Requests being answered now. */
  readonly inFlight: () => number
  /**
   * Whether requests are keeping the event loop busy: at least `RECENT_REQUESTS` answered or being answered
   * within the last `RECENT_WINDOW_MS`, and the loop busy at least `BUSY_LOOP_SHARE` of the time lately. One
   * request now and then (a ban, a page's poll) is no stream; a steady stream that leaves the loop mostly idle (a
   * few dashboards polling) needs nothing to give way to it. In real time, as the loop's load is (whatever clock
   * the rest runs on: a test's clock stands still while the loop is busy).
   */
  readonly busy: () => boolean
  /** Counts `effect` as a request being answered while it runs. */
  readonly track: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}

/** Requests within `RECENT_WINDOW_MS` that make a stream (about 40 a second). */
export const RECENT_REQUESTS = 4
export const RECENT_WINDOW_MS = 100
/** The event loop's busy share (0..1) over which a stream of requests makes the path busy. */
export const BUSY_LOOP_SHARE = 0.8

/**
 * The event loop's busy share (0..1) over roughly the last `RECENT_WINDOW_MS`: Node's event-loop utilization,
 * sampled at most once per window.
 */
export const eventLoopShare = (): (() => number) => {
  let since = performance.eventLoopUtilization()
  let share = 0
  return () => {
    const delta = performance.eventLoopUtilization(since)
    if (delta.idle + delta.active >= RECENT_WINDOW_MS) {
      share = delta.utilization
      since = performance.eventLoopUtilization()
    }
    return share
  }
}

export interface RequestLoadOptions {
  /** The event loop's recent busy share (0..1). */
  readonly loopShare?: () => number
  /** Now, in ms (real time: `performance.now`). */
  readonly now?: () => number
}

export const makeRequestLoad = (options: RequestLoadOptions = {}): RequestLoadShape => {
  const loopShare = options.loopShare ?? eventLoopShare()
  const now = options.now ?? (() => performance.now())
  let inFlight = 0
  /** When the last `RECENT_REQUESTS` answers were made (ms), oldest first. */
  const answeredAt: Array<number> = []
  return {
    inFlight: () => inFlight,
    busy: () => {
      const at = now()
      let recent = inFlight
      for (const answered of answeredAt) if (at - answered < RECENT_WINDOW_MS) recent++
      return recent >= RECENT_REQUESTS && loopShare() >= BUSY_LOOP_SHARE
    },
    track: (effect) =>
      Effect.acquireUseRelease(
        Effect.sync(() => void inFlight++),
        () => effect,
        () =>
          Effect.sync(() => {
            inFlight--
            answeredAt.push(now())
            if (answeredAt.length > RECENT_REQUESTS) answeredAt.shift()
          })
      )
  }
}

export class RequestLoad extends Context.Tag("@garrison/runtime/RequestLoad")<RequestLoad, RequestLoadShape>() {
  static readonly layer = Layer.sync(RequestLoad, () => makeRequestLoad())
}
