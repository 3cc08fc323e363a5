/**
 * The persisted queue's dispatcher: one fiber that sends what is due.
 *
 * A delivery is a `webhook_deliveries` row, `pending` with the time of its
 * next attempt until it is `delivered` or `failed`. The dispatcher keeps a
 * lane per webhook in memory: the due rows it read (up to `REFILL` at a
 * time, with the webhook's target, one indexed query), when the webhook
 * next has something due, its attempts under way (at most
 * `WEBHOOKS_CONCURRENCY`) and a 429's pause. It runs each attempt on a
 * fiber of its own, records the outcome, and sleeps (on Effect's `Clock`)
 * until the next attempt falls due or it is woken (`outboxed`: new events
 * in the outbox, which it turns into deliveries, fanOut.ts; `queued`: new
 * rows for some webhooks; an attempt ended). So a delivery costs its two writes and
 * its request, and the queue is read once per `REFILL` deliveries, however
 * long it is. The database stays the truth: a lane is only a read-ahead,
 * and every attempt's claim checks its row is still pending as read.
 *
 * Each attempt's start is on disk before its request goes out: the write
 * that claims the row sets `attempt_started_at`, and the write that records
 * the outcome counts the attempt and clears it (both through `GroupCommit`,
 * so concurrent attempts share commits). An attempt cut short by a kill or a
 * shutdown leaves its row pending with `attempt_started_at` set: when the
 * dispatcher starts again it counts that attempt (the target may have had
 * it) before anything is sent, so the re-send, with the same
 * `Idempotency-Key` (at least once), carries the next `X-Garrison-Attempt`.
 * The log says so: `cutAttempts` of its `attempts` were cut short, so a
 * target got between `attempts - cutAttempts` and `attempts` requests.
 *
 * One attempt, start to record, and the day-long disable: attempt.ts.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FiberSet from "effect/FiberSet"
import * as Queue from "effect/Queue"
import type * as Scope from "effect/Scope"
import { performance } from "node:perf_hooks"
import type { RequestLoadShape } from "@garrison/runtime"
import { storeError } from "../errors.js"
import { iso } from "./rows.js"
import { type AttemptDeps, type JoinedRow, makeAttempt } from "./attempt.js"
import { fanOut } from "./fanOut.js"
import { makePacer } from "./giveWay.js"

export interface QueueDeps extends AttemptDeps {
  readonly sql: SqlClient.SqlClient
  /** The request path's load: delivery gives way to it. */
  readonly load: RequestLoadShape
}

/** The error a cut-short attempt is logged with until the next one ends. */
const CUT_SHORT = "the controller stopped during this attempt (the target may have received it); it is made again"

/** Real time, for the pacing while giving way (the requests' load is real, whatever clock the rest runs on). */
const liveClock = Clock.make()

/** Rows read ahead per webhook. */
const REFILL = 100

/** Outbox events turned into deliveries per pass (about 500 rows with 20 webhooks: a short write). */
const FAN_OUT_BATCH = 25

/**
 * Giving way: delivery shares the event loop with the requests, so while requests keep it busy
 * (`RequestLoad.busy`: a stream of them and the loop mostly busy) the dispatcher does one piece of work (an
 * attempt's start, or one outbox event turned into deliveries) per `GIVE_WAY_MS`, with at most one attempt under
 * way: a backlog of deliveries does not slow the panel when it is busiest, and still moves (about 20 deliveries a
 * second). Otherwise it goes at full speed (`WEBHOOKS_CONCURRENCY` per webhook, `FAN_OUT_BATCH` events per pass).
 */
const GIVE_WAY_MS = 50

/** One webhook's part of the queue, in memory. */
interface Lane {
  /** Due rows read and not started yet, oldest first. */
  rows: Array<JoinedRow>
  /** Attempts under way. */
  busy: number
  /** When something of this webhook is next due (ms): 0, read again now; Infinity, nothing pending. */
  nextAt: number
  /** Bumped by every `queued`: a read that began before it may have missed rows. */
  marks: number
  /** Waiting out a 429 until then (ms). */
  pausedUntil: number
}

export interface QueueShape {
  /** New pending rows for these webhooks (a replay): look again now. */
  readonly queued: (webhookIds: Iterable<string>) => Effect.Effect<void>
  /** New events in the outbox: turn them into deliveries. */
  readonly outboxed: Effect.Effect<void>
  /** The dispatcher's loop; runs until interrupted. */
  readonly run: Effect.Effect<never, never, Scope.Scope>
}

export const makeQueue = (deps: QueueDeps): Effect.Effect<QueueShape> =>
  Effect.gen(function* () {
    const { sql, group, settings } = deps
    const signal = yield* Queue.sliding<void>(1)
    const wake = Effect.asVoid(Queue.offer(signal, undefined))
    const lanes = new Map<string, Lane>()
    /** Deliveries being attempted now. */
    const inflight = new Set<string>()
    /** Where the next dispatch starts among the lanes, so giving way (one attempt at a time) serves every webhook in turn. */
    let turn = 0
    /** The outbox may hold events; bumped by every `outboxed` (a read that began before may have missed some). */
    let outboxDirty = false
    let outboxMarks = 0
    const pacer = makePacer(GIVE_WAY_MS)
    const fail = (operation: string) => Effect.mapError(storeError(operation))

    /** Some lane holds rows read and not started yet. */
    const anyRowsReady = () => {
      for (const lane of lanes.values()) if (lane.rows.length > 0) return true
      return false
    }

    const laneOf = (webhookId: string): Lane => {
      let lane = lanes.get(webhookId)
      if (lane === undefined) {
        lane = { rows: [], busy: 0, nextAt: 0, marks: 0, pausedUntil: 0 }
        lanes.set(webhookId, lane)
      }
      return lane
    }

    const queued: QueueShape["queued"] = (webhookIds) =>
      Effect.suspend(() => {
        for (const id of webhookIds) {
          const lane = laneOf(id)
          lane.nextAt = 0
          lane.marks++
        }
        return wake
      })

    const outboxed: QueueShape["outboxed"] = Effect.suspend(() => {
      outboxMarks++
      // Already known to hold events: the dispatcher looks at it again anyway (no wake-up per event in a stream).
      if (outboxDirty) return Effect.void
      outboxDirty = true
      return wake
    })

    /** Turns up to `limit` outbox events into deliveries, and tells their webhooks' lanes. */
    const drainOutbox = (limit: number) =>
      Effect.gen(function* () {
        const marks = outboxMarks
        const { webhookIds, more } = yield* fanOut(sql, group, limit)
        outboxDirty = more || outboxMarks !== marks
        for (const id of webhookIds) {
          const lane = laneOf(id)
          lane.nextAt = 0
          lane.marks++
        }
      })

    const attempt = makeAttempt(deps, {
      retryAt: (webhookId, at) => {
        const lane = laneOf(webhookId)
        lane.nextAt = Math.min(lane.nextAt, at)
      },
      pauseUntil: (webhookId, until) => {
        laneOf(webhookId).pausedUntil = until
      }
    })

    /**
     * Reads a webhook's pending rows ahead (the due ones into its lane) and when the rest fall due. A disabled
     * webhook's rows fail instead (the PATCH that turned it off failed those pending then; these came since: retries).
     */
    const refill = (webhookId: string, lane: Lane, now: number) =>
      Effect.gen(function* () {
        const marks = lane.marks
        const rows = yield* sql<JoinedRow>`SELECT d.*, w.kind, w.url, w.secret, w.enabled AS hook_enabled
          FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
          WHERE d.status = ${"pending"} AND d.webhook_id = ${webhookId}
          ORDER BY d.next_attempt_at LIMIT ${REFILL + lane.busy}`
        const waiting = rows.filter((row) => !inflight.has(row.id))
        if (waiting.some((row) => Number(row.hook_enabled) === 0)) {
          yield* sql`UPDATE webhook_deliveries SET status = ${"failed"}, next_attempt_at = NULL, error = ${"the webhook is disabled"}
            WHERE webhook_id = ${webhookId} AND status = ${"pending"} AND attempt_started_at IS NULL`
          lane.rows = []
          lane.nextAt = lane.marks === marks ? Number.POSITIVE_INFINITY : 0
          return
        }
        const nowIso = iso(now)
        lane.rows = waiting.filter((row) => row.next_attempt_at !== null && row.next_attempt_at <= nowIso)
        const later = waiting.find((row) => row.next_attempt_at !== null && row.next_attempt_at > nowIso)
        // A full read may have left rows behind: read again when these are started. A read that a `queued` overtook
        // may have missed the new rows: read again now.
        lane.nextAt =
          lane.marks !== marks || rows.length >= REFILL + lane.busy
            ? 0
            : later?.next_attempt_at != null
              ? Date.parse(later.next_attempt_at)
              : Number.POSITIVE_INFINITY
      })

    const start = (runner: FiberSet.FiberSet<void, never>, lane: Lane, row: JoinedRow) =>
      Effect.suspend(() => {
        inflight.add(row.id)
        lane.busy++
        return FiberSet.run(
          runner,
          attempt(row).pipe(
            Effect.ensuring(
              Effect.suspend(() => {
                inflight.delete(row.id)
                lane.busy--
                return wake
              })
            )
          )
        )
      })

    /**
     * Starts the due deliveries the limits allow; answers when to look again: `wakeAt` (ms on Effect's clock: retries,
     * 429 pauses), and `slotInMs` while giving way (real time, as the requests' load is), if anything is waiting.
     */
    const dispatch = (runner: FiberSet.FiberSet<void, never>) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        let wakeAt = Number.POSITIVE_INFINITY
        const givingWay = deps.load.busy()
        const realNow = performance.now()
        const mayWork = () => pacer.take(realNow, givingWay, inflight.size)
        // Idle, the outbox first; giving way, only when no lane has anything ready.
        if (outboxDirty && (!givingWay || !anyRowsReady()) && mayWork()) {
          yield* drainOutbox(givingWay ? 1 : FAN_OUT_BATCH)
        }
        if (outboxDirty && !givingWay) wakeAt = now
        const order = [...lanes]
        turn = order.length === 0 ? 0 : (turn + 1) % order.length
        for (const [webhookId, lane] of [...order.slice(turn), ...order.slice(0, turn)]) {
          if (lane.pausedUntil > now) {
            wakeAt = Math.min(wakeAt, lane.pausedUntil)
            continue
          }
          if (lane.busy >= settings.concurrency) continue // an attempt's end wakes the dispatcher
          if (lane.rows.length === 0 && lane.nextAt <= now) yield* refill(webhookId, lane, now)
          while (lane.busy < settings.concurrency && lane.rows.length > 0 && mayWork()) yield* start(runner, lane, lane.rows.shift()!)
          if (lane.rows.length === 0) {
            if (lane.busy === 0 && lane.nextAt === Number.POSITIVE_INFINITY) lanes.delete(webhookId)
            else wakeAt = Math.min(wakeAt, lane.nextAt)
          }
        }
        // Giving way with work waiting and nothing under way (an attempt's end would wake it): the next slot, or the
        // requests stopping (then full speed).
        const slotInMs =
          givingWay && inflight.size === 0 && (outboxDirty || anyRowsReady())
            ? Math.max(1, pacer.nextSlotAt() - realNow)
            : undefined
        return { wakeAt: Number.isFinite(wakeAt) ? wakeAt : undefined, slotInMs }
      }).pipe(fail("read the webhook queue"))

    /**
     * Attempts a kill or a shutdown cut short (started, never recorded): counted now, before anything is sent, so
     * the re-send carries the next attempt number. Their rows stay pending and due as they were.
     */
    const countCutAttempts = group
      .transaction(
        sql`UPDATE webhook_deliveries SET attempts = attempts + 1, cut_attempts = cut_attempts + 1, last_attempt_at = attempt_started_at, attempt_started_at = NULL,
            response_status = NULL, duration_ms = NULL, response_body = NULL, error = ${CUT_SHORT}
          WHERE attempt_started_at IS NOT NULL RETURNING id`
      )
      .pipe(
        Effect.flatMap((rows) =>
          rows.length === 0 ? Effect.void : Effect.logInfo(`webhooks: ${rows.length} attempt(s) cut short by the last stop counted; they are sent again`)
        ),
        Effect.catchAll((error) => Effect.logWarning(`webhooks: ${storeError("count the attempts cut short by the last stop")(error).message}`))
      )

    /** The webhooks with something pending when the dispatcher starts (left by the last run), and the outbox. */
    const pendingAtStart = sql<{ readonly webhook_id: string }>`SELECT DISTINCT webhook_id FROM webhook_deliveries WHERE status = ${"pending"}`.pipe(
      Effect.flatMap((rows) => Effect.zipRight(queued(rows.map((row) => row.webhook_id)), outboxed)),
      Effect.catchAll((error) => Effect.logWarning(`webhooks: ${storeError("read the webhook queue")(error).message}`))
    )

    const run: QueueShape["run"] = Effect.gen(function* () {
      yield* countCutAttempts
      yield* pendingAtStart
      const runner = yield* FiberSet.make<void, never>()
      for (;;) {
        const { wakeAt, slotInMs } = yield* dispatch(runner).pipe(
          Effect.catchAll((error) =>
            // A database hiccup: look again in a while (or at the next wake-up).
            Effect.as(Effect.logWarning(`webhooks: ${error.message}`), { wakeAt: Number.NaN, slotInMs: undefined })
          )
        )
        const now = yield* Clock.currentTimeMillis
        const wait =
          wakeAt === undefined ? undefined : Number.isNaN(wakeAt) ? Duration.seconds(5) : Duration.millis(Math.max(0, wakeAt - now))
        if (wait !== undefined && Duration.toMillis(wait) === 0) continue
        const waits: Array<Effect.Effect<void>> = [Queue.take(signal)]
        if (wait !== undefined) waits.push(Effect.sleep(wait))
        if (slotInMs !== undefined) waits.push(Effect.sleep(Duration.millis(slotInMs)).pipe(Effect.withClock(liveClock)))
        yield* waits.length === 1 ? waits[0]! : Effect.raceAll(waits)
      }
    })

    return { queued, outboxed, run }
  })
