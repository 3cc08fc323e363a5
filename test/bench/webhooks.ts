/**
 * Webhooks at volume (the webhooks issue): events to 20 targets, fake
 * receivers on loopback (`../support/webhookReceiver.ts`, in this process,
 * each counting requests by `Idempotency-Key` and `X-Garrison-Delivery`),
 * the real controller spawned (`WEBHOOKS_ALLOW_PRIVATE=true`, the test
 * authenticator, `RATE_LIMIT_API=off`). The event is `player.ban`: one
 * `POST /api/bans` publishes one, and its payload names the player, so every
 * acknowledged call can be found at every receiver.
 *
 * 1. Delivery: 20 webhooks subscribed to `player.ban`, BENCH_WEBHOOK_EVENTS
 *    bans (8 callers at a time); wait until every webhook's queue is empty
 *    and every receiver has had every event. Checked: each receiver got
 *    every acknowledged event, as many distinct idempotency keys as events,
 *    and for every row of the delivery log (read back through
 *    `GET /api/webhooks/:id/deliveries`) exactly as many requests as its
 *    `attempts`. The receivers answer 500 to the first attempt of one
 *    delivery in BENCH_WEBHOOK_FAIL_EVERY (by its key), so some are retried
 *    (the plugin's first retry comes after 10 s ±20 %) and the duplicates
 *    the receivers count must equal the retries the log counts. Printed:
 *    deliveries/s (from the first call to the last delivery), p50/p99
 *    latency (the ban's `bannedAt` to its 2xx at the receiver), duplicates.
 *    Then the latency without a backlog: 10 bans one at a time, each
 *    waited for at all 20 targets.
 * 2. Publish cost, API level (the goal): `POST /api/bans` requests/s with
 *    the 20 webhooks turned off (nothing subscribed) and on, on the same
 *    controller, in alternating rounds of BENCH_WEBHOOK_ROUND_S; after each
 *    round with them on they are turned off again (what is still queued
 *    fails), so every round starts on an empty queue; the better round of
 *    each. Goal: the time per call with 20 subscribed targets <= 1.2x with
 *    none. The bans stage their event in their own transaction (the
 *    webhooks' outbox row joins it) and the deliveries give way to a
 *    stream of requests that keeps the controller busy (one attempt per
 *    50 ms then), so what a call pays is one outbox row. Besides it, in
 *    process (printed, no goal): a transaction staging the event and its
 *    publish, with the webhooks plugin's handlers registered and 20
 *    matching webhooks vs none, the median.
 * 3. kill -9 mid-way: a fresh controller and receivers, BENCH_WEBHOOK_KILL_EVENTS
 *    bans; once half are acknowledged the controller is SIGKILLed (calls in
 *    flight then fail: unacknowledged), restarted on the same data directory,
 *    and the rest are made. Every acknowledged event must reach every
 *    receiver; printed: re-sent requests (duplicates), how many of them the
 *    log does not count (attempts cut short by the kill are made again with
 *    the same key and the same attempt number), and lost events.
 *
 * Each attempt writes twice (its start, then its outcome), group-committed
 * with the others under way, on the controller's event loop; connections
 * are kept alive. Deliveries/s over the whole run are bounded by the
 * retries' first backoff (10 s) when any delivery fails once: the drain
 * rate once the events are made is printed apart. The disk's fsync rate
 * is printed first, to read the figures by. The issue's 10,000 events x 20
 * targets: BENCH_WEBHOOK_EVENTS=10000; the default counts keep the run
 * within a few minutes.
 *
 * Env: BENCH_WEBHOOK_EVENTS (200), BENCH_WEBHOOK_KILL_EVENTS (= events),
 * BENCH_WEBHOOK_TARGETS (20), BENCH_WEBHOOK_PRODUCERS (8),
 * BENCH_WEBHOOK_FAIL_EVERY (200), BENCH_WEBHOOK_CONCURRENCY
 * (WEBHOOKS_CONCURRENCY, the plugin's default 2), BENCH_WEBHOOK_ROUNDS (5),
 * BENCH_WEBHOOK_ROUND_S (2), BENCH_WEBHOOK_PUBLISHES (1000).
 * Run alone: `node test/dist/bench/webhooks.js`; with the rest: `npm run bench`.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { NotificationsPlugin, WebhooksPlugin } from "@garrison/plugins"
import { EventBus, Plugin, published } from "@garrison/runtime"
import { request, StubFleet, testController } from "@garrison/testkit"
import { Effect, LogLevel, ManagedRuntime, Schema } from "effect"
import { closeSync, fsyncSync, openSync, writeSync } from "node:fs"
import { availableParallelism } from "node:os"
import * as NodePath from "node:path"
import {
  type ControllerHandle,
  delay,
  killAllChildren,
  makeTempDir,
  removeDir,
  requestJson,
  spawnController,
  stopProcess,
  testAuth,
  testPlugins,
  waitForHttp
} from "../support/controller.js"
import { answerOk, startReceiver, type WebhookReceiver, type WebhookScript } from "../support/webhookReceiver.js"
import { type Benchmark, type BenchmarkReport, envInt, runAloneIfMain } from "./internal/Benchmark.js"

const GOALS = { publishRatio: 1.2 } as const
const ADMIN = testAuth(["admin"], "bench")
const EVENT = "player.ban"
const STEAM64_BASE = 76561198000000000n
/** With the queues empty, this long without a request anywhere means nothing more is coming. */
const QUIET_MS = 5_000

const settings = () => {
  const events = envInt("BENCH_WEBHOOK_EVENTS", 200)
  return {
    events,
    killEvents: envInt("BENCH_WEBHOOK_KILL_EVENTS", events),
    targets: envInt("BENCH_WEBHOOK_TARGETS", 20),
    producers: envInt("BENCH_WEBHOOK_PRODUCERS", 8),
    failEvery: envInt("BENCH_WEBHOOK_FAIL_EVERY", 200),
    concurrency: process.env["BENCH_WEBHOOK_CONCURRENCY"] === undefined ? undefined : envInt("BENCH_WEBHOOK_CONCURRENCY", 2),
    rounds: envInt("BENCH_WEBHOOK_ROUNDS", 5),
    roundS: envInt("BENCH_WEBHOOK_ROUND_S", 2),
    publishes: envInt("BENCH_WEBHOOK_PUBLISHES", 1000)
  }
}
type Settings = ReturnType<typeof settings>

const ms = (n: number) => `${n.toFixed(0)} ms`
const percentile = (sorted: ReadonlyArray<number>, p: number): number =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!

/** fsyncs per second of a 4 KiB write in `dir`: what bounds one-commit-per-attempt delivery. */
const fsyncRate = (dir: string): number => {
  const file = NodePath.join(dir, "fsync-probe")
  const fd = openSync(file, "w")
  try {
    const block = Buffer.alloc(4096, 1)
    const started = performance.now()
    let n = 0
    while (performance.now() - started < 500) {
      writeSync(fd, block, 0, block.length, 0)
      fsyncSync(fd)
      n++
    }
    return (n * 1000) / (performance.now() - started)
  } finally {
    closeSync(fd)
  }
}

// ---- the controller, receivers and webhooks ----------------------------------------------------------------------

const startGarrison = async (dataDir: string, s: Settings): Promise<ControllerHandle> => {
  const controller = await spawnController({
    dataDir,
    plugins: [testPlugins.auth],
    logLevel: "Warn",
    env: {
      WEBHOOKS_ALLOW_PRIVATE: "true",
      ...(s.concurrency === undefined ? {} : { WEBHOOKS_CONCURRENCY: String(s.concurrency) }),
      RATE_LIMIT_API: "off",
      DB_BACKUP_INTERVAL: "365 days"
    }
  })
  try {
    await waitForHttp(controller, `${controller.baseUrl}/api/health/ping`, 60_000)
  } catch (error) {
    controller.child.kill("SIGKILL")
    throw error
  }
  return controller
}

/** 500 to the first attempt of one delivery in `failEvery` (chosen by its key), 200 otherwise. */
const flaky =
  (failEvery: number): WebhookScript =>
  (request) => {
    let h = 0
    for (let i = 0; i < request.idempotencyKey.length; i++) h = (h * 31 + request.idempotencyKey.charCodeAt(i)) | 0
    return request.attempt === 1 && Math.abs(h) % failEvery === 0 ? { status: 500, body: "try again" } : { status: 200, body: "ok" }
  }

/** The ban's player (one event per player) and its `bannedAt`. */
const tagOf = (payload: unknown) => {
  const data = (payload as { data?: { platformId?: unknown } }).data
  return typeof data?.platformId === "string" ? data.platformId : undefined
}
const eventTimeOf = (payload: unknown) => {
  const data = (payload as { data?: { bannedAt?: unknown } }).data
  return typeof data?.bannedAt === "string" ? Date.parse(data.bannedAt) : undefined
}

const startReceivers = (s: Settings): Promise<Array<WebhookReceiver>> =>
  Promise.all(Array.from({ length: s.targets }, () => startReceiver({ script: flaky(s.failEvery), tag: tagOf, eventTime: eventTimeOf })))

/** One webhook per receiver, subscribed to `player.ban`; their ids in the receivers' order. */
const createWebhooks = async (controller: ControllerHandle, receivers: ReadonlyArray<WebhookReceiver>): Promise<Array<string>> => {
  const ids: Array<string> = []
  for (const [i, receiver] of receivers.entries()) {
    const created = await requestJson(controller.baseUrl, "POST", "/api/webhooks", {
      headers: ADMIN,
      body: { name: `bench-${i}`, url: receiver.url(`/hook/${i}`), events: [{ pattern: EVENT }] }
    })
    if (created.status !== 201) throw new Error(`creating webhook ${i} answered ${created.status}: ${JSON.stringify(created.body)}`)
    ids.push((created.body as { id: string }).id)
  }
  return ids
}

const setEnabled = async (controller: ControllerHandle, ids: ReadonlyArray<string>, enabled: boolean): Promise<void> => {
  for (const id of ids) {
    const answer = await requestJson(controller.baseUrl, "PATCH", `/api/webhooks/${id}`, { headers: ADMIN, body: { enabled } })
    if (answer.status !== 200) throw new Error(`PATCH webhook ${id} answered ${answer.status}: ${JSON.stringify(answer.body)}`)
  }
}

/** Deliveries waiting (pending, retries included) over every webhook. */
const pendingOf = async (controller: ControllerHandle): Promise<number> => {
  const answer = await requestJson(controller.baseUrl, "GET", "/api/webhooks?limit=500", { headers: ADMIN, timeoutMs: 30_000 })
  if (answer.status !== 200) throw new Error(`GET /api/webhooks answered ${answer.status}`)
  return (answer.body as { items: Array<{ pending: number }> }).items.reduce((n, hook) => n + hook.pending, 0)
}

interface LoggedDelivery {
  readonly id: string
  readonly idempotencyKey: string
  readonly status: string
  readonly attempts: number
  /** Of `attempts`, those a kill cut short: the receiver may or may not have had them. */
  readonly cutAttempts: number
  readonly test: boolean
  /** Names the player: "Player 7 (76561198000000007) was banned by ...". */
  readonly summary: string
}

const loggedPlayer = (row: LoggedDelivery): string | undefined => /\((\d{17})\)/.exec(row.summary)?.[1]

/** A webhook's whole delivery log, through its paged route. */
const readLog = async (controller: ControllerHandle, webhookId: string): Promise<Array<LoggedDelivery>> => {
  const rows: Array<LoggedDelivery> = []
  let cursor: string | null = null
  do {
    const query: string = cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`
    const answer = await requestJson(controller.baseUrl, "GET", `/api/webhooks/${webhookId}/deliveries?limit=200${query}`, { headers: ADMIN, timeoutMs: 30_000 })
    if (answer.status !== 200) throw new Error(`reading the delivery log of ${webhookId} answered ${answer.status}: ${JSON.stringify(answer.body)}`)
    const page = answer.body as { items: Array<LoggedDelivery>; nextCursor: string | null }
    rows.push(...page.items.filter((row) => !row.test))
    cursor = page.nextCursor
  } while (cursor !== null)
  return rows
}

// ---- making events ----------------------------------------------------------------------------------------------

interface Producer {
  /** The next player number to ban. */
  next: number
  /** platformId -> Date.now() when its call answered 2xx. */
  readonly acked: Map<string, number>
  /** Calls that answered non-2xx or not at all (unacknowledged). */
  unacked: number
  /** Per call, ms (when timed). */
  readonly latencies: Array<number>
}

const newProducer = (first = 0): Producer => ({ next: first, acked: new Map(), unacked: 0, latencies: [] })
const platformIdOf = (n: number) => String(STEAM64_BASE + BigInt(n))

/** Bans players from `p.next` on, `producers` calls at a time, until `until(n)` says stop (or `stop()`). */
const produce = async (
  baseUrl: string,
  p: Producer,
  producers: number,
  until: (n: number) => boolean,
  afterAck: () => void = () => {},
  stop: () => boolean = () => false
): Promise<void> => {
  const worker = async () => {
    while (!until(p.next) && !stop()) {
      const n = p.next++
      const platformId = platformIdOf(n)
      const started = performance.now()
      try {
        const answer = await fetch(`${baseUrl}/api/bans`, {
          method: "POST",
          headers: { ...ADMIN, "content-type": "application/json" },
          body: JSON.stringify({ platformId, playerName: `Player ${n}`, reason: "bench: webhooks" }),
          signal: AbortSignal.timeout(30_000)
        })
        await answer.arrayBuffer()
        if (answer.status >= 200 && answer.status < 300) {
          p.latencies.push(performance.now() - started)
          p.acked.set(platformId, Date.now())
          afterAck()
        } else p.unacked++
      } catch {
        p.unacked++
      }
    }
  }
  await Promise.all(Array.from({ length: producers }, worker))
}

/**
 * Until every receiver has accepted every acknowledged event and no webhook has anything pending; or, with
 * nothing pending, until no request has come for QUIET_MS (what is missing then is lost); or the deadline.
 */
const waitDelivered = async (
  controller: ControllerHandle,
  receivers: ReadonlyArray<WebhookReceiver>,
  acked: ReadonlyMap<string, number>,
  deadline: number
): Promise<boolean> => {
  let lastTotal = -1
  let lastChange = Date.now()
  for (;;) {
    const total = receivers.reduce((n, r) => n + r.total(), 0)
    if (total !== lastTotal) {
      lastTotal = total
      lastChange = Date.now()
    }
    const pending = await pendingOf(controller)
    if (pending === 0) {
      const complete = receivers.every((r) => {
        const got = r.acceptedTags()
        for (const tag of acked.keys()) if (!got.has(tag)) return false
        return true
      })
      if (complete) return true
      if (Date.now() - lastChange > QUIET_MS) return false
    }
    if (Date.now() > deadline) return false
    await delay(250)
  }
}

/** Until no webhook has anything pending (the next round starts on an empty queue). */
const drain = async (controller: ControllerHandle, deadline: number): Promise<void> => {
  while ((await pendingOf(controller)) > 0) {
    if (Date.now() > deadline) throw new Error("the webhook queue did not empty in time")
    await delay(250)
  }
}

// ---- checking what arrived against the log ----------------------------------------------------------------------

interface Tally {
  readonly events: number
  /** Acknowledged events missing at a receiver, summed over receivers. */
  readonly lost: number
  /** The events (players) missing at some receiver. */
  readonly lostEvents: ReadonlySet<string>
  /** Of `lost`, those without a row in that webhook's log (never queued). */
  readonly lostUnlogged: number
  /** Receivers whose distinct keys are not the acknowledged events' number. */
  readonly keyCountsOff: number
  readonly requests: number
  /** Requests beyond one per key. */
  readonly duplicates: number
  readonly logRows: number
  readonly logNotDelivered: number
  /** The log's retries: attempts beyond the first. */
  readonly logRetries: number
  /** Requests a receiver got for a delivery beyond its logged attempts (attempts the log does not count). */
  readonly unlogged: number
  /** Logged attempts a receiver never got. */
  readonly phantom: number
  /** Log rows whose request count at the receiver is not their attempts. */
  readonly mismatched: number
  /** Keys a receiver got that no log row has. */
  readonly unknownKeys: number
  /** Events delivered whose call was not acknowledged (it failed as the controller was killed, yet the ban was made). */
  readonly unackedDelivered: number
  /** Event time (`bannedAt`) to the receiver's 2xx, ms, sorted. */
  readonly latencies: ReadonlyArray<number>
  /** Date.now() of the last 2xx anywhere. */
  readonly lastAcceptedAt: number
  /** Date.now() of every 2xx, sorted. */
  readonly acceptedTimes: ReadonlyArray<number>
}

const tally = async (
  controller: ControllerHandle,
  receivers: ReadonlyArray<WebhookReceiver>,
  webhookIds: ReadonlyArray<string>,
  acked: ReadonlyMap<string, number>
): Promise<Tally> => {
  let lost = 0
  let lostUnlogged = 0
  const lostEvents = new Set<string>()
  let keyCountsOff = 0
  let requests = 0
  let duplicates = 0
  let logRows = 0
  let logNotDelivered = 0
  let logRetries = 0
  let unlogged = 0
  let phantom = 0
  let mismatched = 0
  let unknownKeys = 0
  let lastAcceptedAt = 0
  const unackedDelivered = new Set<string>()
  const latencies: Array<number> = []
  const acceptedTimes: Array<number> = []
  for (const [i, receiver] of receivers.entries()) {
    const log = await readLog(controller, webhookIds[i]!)
    const accepted = receiver.acceptedTags()
    const loggedPlayers = new Set(log.map(loggedPlayer))
    for (const tag of acked.keys()) {
      if (accepted.has(tag)) continue
      lost++
      lostEvents.add(tag)
      if (!loggedPlayers.has(tag)) lostUnlogged++
    }
    for (const tag of accepted) if (!acked.has(tag)) unackedDelivered.add(tag)
    if (receiver.keys.size !== acked.size) keyCountsOff++
    requests += receiver.total()
    duplicates += receiver.duplicates()
    logRows += log.length
    const loggedKeys = new Set<string>()
    for (const row of log) {
      loggedKeys.add(row.idempotencyKey)
      if (row.status !== "delivered") logNotDelivered++
      logRetries += Math.max(0, row.attempts - 1)
      const got = receiver.deliveries.get(row.id) ?? 0
      // The log says `attempts`, of which `cutAttempts` may never have left: anything in between matches it.
      if (got > row.attempts || got < row.attempts - row.cutAttempts) mismatched++
      unlogged += Math.max(0, got - row.attempts)
      phantom += Math.max(0, row.attempts - row.cutAttempts - got)
    }
    for (const [key, record] of receiver.keys) {
      if (!loggedKeys.has(key)) unknownKeys++
      if (record.acceptedAt !== undefined) {
        acceptedTimes.push(record.acceptedAt)
        lastAcceptedAt = Math.max(lastAcceptedAt, record.acceptedAt)
        if (record.eventTime !== undefined) latencies.push(record.acceptedAt - record.eventTime)
      }
    }
  }
  latencies.sort((a, b) => a - b)
  return {
    events: acked.size,
    lost,
    lostEvents,
    lostUnlogged,
    keyCountsOff,
    requests,
    duplicates,
    logRows,
    logNotDelivered,
    logRetries,
    unlogged,
    phantom,
    mismatched,
    unknownKeys,
    unackedDelivered: unackedDelivered.size,
    latencies,
    lastAcceptedAt,
    acceptedTimes: acceptedTimes.sort((a, b) => a - b)
  }
}

// ---- 1. delivery ------------------------------------------------------------------------------------------------

interface DeliveryRun {
  readonly tally: Tally
  readonly complete: boolean
  readonly producedPerSecond: number
  readonly deliveriesPerSecond: number
  /** The deliveries that needed no retry, per second until the last of them (the retries wait 10 s). */
  readonly firstTryPerSecond: number
}

const deliveryRun = async (controller: ControllerHandle, receivers: ReadonlyArray<WebhookReceiver>, ids: ReadonlyArray<string>, s: Settings): Promise<DeliveryRun> => {
  const p = newProducer()
  const started = Date.now()
  await produce(controller.baseUrl, p, s.producers, (n) => n >= s.events)
  const producedMs = Date.now() - started
  if (p.unacked > 0) throw new Error(`${p.unacked} of ${s.events} bans were not acknowledged; output:\n${controller.output().slice(-2000)}`)
  const complete = await waitDelivered(controller, receivers, p.acked, Date.now() + 30 * 60_000)
  const t = await tally(controller, receivers, ids, p.acked)
  const deliveries = t.events * s.targets
  return {
    tally: t,
    complete,
    producedPerSecond: (p.acked.size * 1000) / producedMs,
    deliveriesPerSecond: (deliveries * 1000) / Math.max(1, t.lastAcceptedAt - started),
    firstTryPerSecond: (() => {
      const firstTry = t.acceptedTimes.length - t.logRetries
      const lastAt = t.acceptedTimes[Math.max(0, firstTry - 1)] ?? started
      return (firstTry * 1000) / Math.max(1, lastAt - started)
    })()
  }
}

/** Bans one at a time, each waited for at every receiver (answering 200 from now on): event time to receipt, ms, sorted. */
const idleLatency = async (controller: ControllerHandle, receivers: ReadonlyArray<WebhookReceiver>, count: number): Promise<Array<number>> => {
  for (const receiver of receivers) receiver.script = answerOk
  const latencies: Array<number> = []
  for (let i = 0; i < count; i++) {
    const n = 20_000_000 + i
    const platformId = platformIdOf(n)
    const answer = await requestJson(controller.baseUrl, "POST", "/api/bans", {
      headers: ADMIN,
      body: { platformId, playerName: `Player ${n}`, reason: "bench: webhooks, one at a time" }
    })
    if (answer.status !== 201) throw new Error(`a ban answered ${answer.status}: ${JSON.stringify(answer.body)}`)
    const deadline = Date.now() + 60_000
    while (!receivers.every((r) => r.acceptedTags().has(platformId))) {
      if (Date.now() > deadline) throw new Error(`ban ${platformId} did not reach every target within 60 s`)
      await delay(5)
    }
    for (const receiver of receivers) {
      for (const record of receiver.keys.values()) {
        if (record.tag === platformId && record.acceptedAt !== undefined && record.eventTime !== undefined) latencies.push(record.acceptedAt - record.eventTime)
      }
    }
  }
  return latencies.sort((a, b) => a - b)
}

// ---- 2. publish cost --------------------------------------------------------------------------------------------

interface Round {
  readonly perSecond: number
  readonly p50: number
  readonly calls: number
}

/** `POST /api/bans` as fast as `producers` callers go, for `durationMs`. */
const banRound = async (controller: ControllerHandle, first: number, s: Settings): Promise<Round> => {
  const p = newProducer(first)
  const started = performance.now()
  const deadline = started + s.roundS * 1000
  await produce(controller.baseUrl, p, s.producers, () => performance.now() >= deadline)
  const took = performance.now() - started
  if (p.unacked > 0) throw new Error(`${p.unacked} bans were not acknowledged in a publish-cost round`)
  const sorted = [...p.latencies].sort((a, b) => a - b)
  return { perSecond: (p.acked.size * 1000) / took, p50: percentile(sorted, 0.5), calls: p.acked.size }
}

/** Rounds with the webhooks off (nothing subscribed) and on, alternating; the webhooks are left off. */
const apiPublishCost = async (controller: ControllerHandle, ids: ReadonlyArray<string>, receivers: ReadonlyArray<WebhookReceiver>, s: Settings) => {
  const received = () => receivers.reduce((n, r) => n + r.total(), 0)
  await setEnabled(controller, ids, false)
  let first = 10_000_000
  const runs: Record<"none" | "all", Array<Round>> = { none: [], all: [] }
  for (let round = 0; round < s.rounds; round++) {
    for (const mode of ["none", "all"] as const) {
      if (mode === "all") await setEnabled(controller, ids, true)
      const before = received()
      const measured = await banRound(controller, first, s)
      const during = received() - before
      first += measured.calls + 1
      runs[mode].push(measured)
      // Off again: the round's deliveries still queued fail at once, so the next round starts on an empty queue.
      if (mode === "all") await setEnabled(controller, ids, false)
      console.log(
        `    round ${round + 1}, ${mode === "all" ? `${s.targets} targets` : "no target"}: ${measured.perSecond.toFixed(0)} bans/s, p50 ${measured.p50.toFixed(1)} ms (${measured.calls} calls` +
          (mode === "all" ? `, ${during} deliveries during it)` : ")")
      )
      await drain(controller, Date.now() + 60_000)
    }
  }
  const best = (list: ReadonlyArray<Round>) => list.reduce((a, b) => (b.perSecond > a.perSecond ? b : a))
  const none = best(runs.none)
  const all = best(runs.all)
  const median = (list: ReadonlyArray<Round>) => percentile([...list].map((r) => r.perSecond).sort((a, b) => a - b), 0.5)
  return { none, all, ratio: none.perSecond / all.perSecond, medianRatio: median(runs.none) / median(runs.all) }
}

/** The in-process check: a bus event the webhooks plugin subscribes to, and nothing else. */
class BenchPing extends Schema.TaggedClass<BenchPing>()("BenchWebhooksPing", { n: Schema.Number }) {}
const BenchEventsPlugin = Plugin.make({
  id: "bench-webhook-events",
  publishes: [published(BenchPing, { name: "bench.ping", description: "The webhooks benchmark's event.", example: new BenchPing({ n: 0 }), summary: (e) => `ping ${e.n}` })]
})

/**
 * A publisher's transaction staging the event, then its publish, in this process (the webhooks plugin's handlers
 * registered, as in the controller), with 20 matching webhooks and with none (turned off), alternating; the median
 * of a round, the better round of each. Each round's webhooks are turned off after it, so what was queued goes
 * (failed) instead of being sent.
 */
const busPublishCost = async (receivers: ReadonlyArray<WebhookReceiver>, s: Settings) => {
  const dataDir = makeTempDir("garrison-bench-webhooks-bus-")
  const fleet = new StubFleet()
  const runtime = ManagedRuntime.make(
    testController<EventBus | SqlClient.SqlClient>([fleet.plugin(), NotificationsPlugin, WebhooksPlugin, BenchEventsPlugin], {
      settings: { dataDir },
      logLevel: LogLevel.Error,
      config: { WEBHOOKS_ALLOW_PRIVATE: "true", RATE_LIMIT_API: "off" }
    })
  )
  try {
    const call = (method: "POST" | "PATCH", path: string, json: unknown) =>
      runtime.runPromise(request(method, path, { as: "bench:admin", json })).then((reply) => {
        if (reply.status >= 300) throw new Error(`${method} ${path} answered ${reply.status}: ${reply.text.slice(0, 300)}`)
        return JSON.parse(reply.text) as { id: string }
      })
    const ids: Array<string> = []
    for (const [i, receiver] of receivers.entries()) {
      ids.push((await call("POST", "/api/webhooks", { name: `bus-${i}`, url: receiver.url(`/bus/${i}`), events: [{ pattern: "bench.ping" }], enabled: false })).id)
    }
    const setAll = async (enabled: boolean) => {
      for (const id of ids) await call("PATCH", `/api/webhooks/${id}`, { enabled })
    }
    // As a publisher with a transaction does it (bans): the event staged in its transaction (the outbox row joins
    // it), published after the commit; one at a time, each awaited. The transaction is the publisher's own cost
    // either way; what the webhooks add to it is the outbox row.
    const bus = await runtime.runPromise(EventBus)
    const sql = await runtime.runPromise(SqlClient.SqlClient)
    /** The median staged publish of `count`, in microseconds (a mean would be mostly GC pauses and preemption). */
    const timePublishes = async (count: number): Promise<number> => {
      const took: Array<number> = []
      for (let n = 0; n < count; n++) {
        const event = new BenchPing({ n })
        const started = performance.now()
        await Effect.runPromise(Effect.zipRight(bus.stage(event).pipe(sql.withTransaction), bus.publish(event)))
        took.push(performance.now() - started)
      }
      return percentile(took.sort((a, b) => a - b), 0.5) * 1000
    }
    await timePublishes(200) // warm-up
    await delay(100)
    const runs: Record<"none" | "all", Array<number>> = { none: [], all: [] }
    for (let round = 0; round < Math.max(3, s.rounds); round++) {
      for (const mode of ["none", "all"] as const) {
        if (mode === "all") await setAll(true)
        runs[mode].push(await timePublishes(s.publishes))
        // Off again: what the handlers queue meanwhile fails at once instead of being sent.
        if (mode === "all") await setAll(false)
        await delay(100)
      }
    }
    const none = Math.min(...runs.none)
    const all = Math.min(...runs.all)
    return { none, all, ratio: all / none }
  } finally {
    await runtime.dispose()
    removeDir(dataDir)
  }
}

// ---- 3. kill -9 mid-way -----------------------------------------------------------------------------------------

interface KillRun {
  readonly tally: Tally
  readonly complete: boolean
  readonly ackedBeforeKill: number
  readonly unacked: number
  /** For each lost event, how long before the SIGKILL was sent its call was acknowledged (ms, ascending; negative: after, its answer already on its way). */
  readonly lostAckedBeforeKill: ReadonlyArray<number>
}

const killRun = async (dataDir: string, s: Settings): Promise<KillRun> => {
  const receivers = await startReceivers(s)
  const controllers: Array<ControllerHandle> = []
  try {
    const first = await startGarrison(dataDir, s)
    controllers.push(first)
    const ids = await createWebhooks(first, receivers)
    const p = newProducer()
    let killed = false
    let killedAt = 0
    const half = Math.ceil(s.killEvents / 2)
    await produce(
      first.baseUrl,
      p,
      s.producers,
      (n) => n >= s.killEvents,
      () => {
        if (!killed && p.acked.size >= half) {
          killed = true
          killedAt = Date.now()
          first.child.kill("SIGKILL")
        }
      },
      () => killed
    )
    const ended = await first.exited
    if (ended.signal !== "SIGKILL") throw new Error(`the controller ended ${ended.code ?? ended.signal} before it was killed; output:\n${first.output().slice(-2000)}`)
    const ackedBeforeKill = p.acked.size
    const deliveredAtKill = receivers.reduce((n, r) => n + r.acceptedKeys(), 0)
    console.log(`    SIGKILL after ${ackedBeforeKill} acknowledged bans (${p.unacked} calls in flight failed), ${deliveredAtKill} of ${ackedBeforeKill * s.targets} delivered by then`)
    const second = await startGarrison(dataDir, s)
    controllers.push(second)
    await produce(second.baseUrl, p, s.producers, (n) => n >= s.killEvents)
    const complete = await waitDelivered(second, receivers, p.acked, Date.now() + 30 * 60_000)
    const counted = await tally(second, receivers, ids, p.acked)
    const lostAckedBeforeKill = [...counted.lostEvents].map((tag) => killedAt - p.acked.get(tag)!).sort((a, b) => a - b)
    return { tally: counted, complete, ackedBeforeKill, unacked: p.unacked, lostAckedBeforeKill }
  } finally {
    await Promise.all(controllers.map((c) => stopProcess(c, 10_000)))
    await Promise.all(receivers.map((r) => r.close()))
  }
}

// ---- the benchmark ----------------------------------------------------------------------------------------------

const run = async (): Promise<BenchmarkReport> => {
  const s = settings()
  const root = makeTempDir("garrison-bench-webhooks-")
  const receivers: Array<WebhookReceiver> = []
  let controller: ControllerHandle | undefined
  try {
    const fsyncs = fsyncRate(root)
    console.log(
      `webhooks: ${s.events} events (kill -9 run: ${s.killEvents}) to ${s.targets} targets, ${s.producers} callers, ` +
        `first attempt of 1 in ${s.failEvery} deliveries answered 500, WEBHOOKS_CONCURRENCY ${s.concurrency ?? "default"}; ` +
        `node ${process.version}, ${availableParallelism()} CPUs; this disk: ${fsyncs.toFixed(0)} fsyncs/s`
    )

    // 1. Delivery.
    receivers.push(...(await startReceivers(s)))
    controller = await startGarrison(NodePath.join(root, "delivery"), s)
    const ids = await createWebhooks(controller, receivers)
    const delivery = await deliveryRun(controller, receivers, ids, s)
    const d = delivery.tally
    const deliveryOk =
      delivery.complete && d.lost === 0 && d.keyCountsOff === 0 && d.logRows === d.events * s.targets && d.logNotDelivered === 0 && d.mismatched === 0 && d.unknownKeys === 0
    console.log(`  delivery: ${d.events} events x ${s.targets} targets = ${d.events * s.targets} deliveries`)
    console.log(
      `    ${delivery.deliveriesPerSecond.toFixed(0)} deliveries/s, ${delivery.firstTryPerSecond.toFixed(0)}/s without the retries (events made at ${delivery.producedPerSecond.toFixed(0)}/s); ` +
        `latency bannedAt to receipt p50 ${ms(percentile(d.latencies, 0.5))}, p99 ${ms(percentile(d.latencies, 0.99))}, max ${ms(d.latencies.at(-1) ?? Number.NaN)}`
    )
    console.log(
      `    ${d.requests} requests, ${d.duplicates} duplicates; the log: ${d.logRows} rows, ${d.logRetries} retries, ${d.logNotDelivered} not delivered; ` +
        `rows whose requests != attempts: ${d.mismatched}; lost ${d.lost}${delivery.complete ? "" : " (INCOMPLETE)"}` +
        (d.phantom + d.unknownKeys + d.keyCountsOff > 0
          ? `; logged attempts never received ${d.phantom}, keys not in the log ${d.unknownKeys}, receivers with a key count != events ${d.keyCountsOff}`
          : "")
    )

    const idle = await idleLatency(controller, receivers, 10)
    console.log(`    without a backlog (10 bans one at a time): latency p50 ${ms(percentile(idle, 0.5))}, p99 ${ms(percentile(idle, 0.99))}`)

    // 2. Publish cost, API level, on the same controller (its queue is empty now).
    console.log(`  publish cost, API level: POST /api/bans, ${s.producers} callers, ${s.rounds} x ${s.roundS} s per side, alternating, queue emptied between rounds`)
    const api = await apiPublishCost(controller, ids, receivers, s)
    console.log(
      `    best: no target ${api.none.perSecond.toFixed(0)} bans/s (p50 ${api.none.p50.toFixed(1)} ms), ${s.targets} targets ${api.all.perSecond.toFixed(0)} bans/s ` +
        `(p50 ${api.all.p50.toFixed(1)} ms); cost ratio ${api.ratio.toFixed(2)} (of the median rounds: ${api.medianRatio.toFixed(2)})`
    )
    await stopProcess(controller, 10_000)
    controller = undefined

    // The same in process: a publisher's transaction with the event staged, and its publish.
    const bus = await busPublishCost(receivers, s)
    console.log(
      `  publish cost, in process: a transaction staging the event, then its publish, median ${bus.none.toFixed(2)} us with no target, ${bus.all.toFixed(2)} us with ${s.targets} ` +
        `(ratio ${bus.ratio.toFixed(2)}; ${s.publishes} publishes per round, the better of ${Math.max(3, s.rounds)} rounds)`
    )
    await Promise.all(receivers.splice(0).map((r) => r.close()))

    // 3. kill -9 mid-way.
    console.log(`  kill -9 mid-way: ${s.killEvents} events x ${s.targets} targets, SIGKILL after half are acknowledged, restart on the same data directory`)
    const killed = await killRun(NodePath.join(root, "kill"), s)
    const k = killed.tally
    console.log(
      `    ${k.events} acknowledged (${killed.unacked} calls unacknowledged, ${k.unackedDelivered} of those delivered anyway); ` +
        `lost ${k.lost} event deliveries${killed.complete || k.lost > 0 ? "" : " (INCOMPLETE)"}; re-sent ${k.duplicates} (the log's retries ${k.logRetries}, ` +
        `not counted in the log ${k.unlogged}); rows whose requests != attempts: ${k.mismatched}` +
        (k.phantom + k.unknownKeys > 0 ? `; logged attempts never received ${k.phantom}, keys not in the log ${k.unknownKeys}` : "")
    )
    if (k.lost > 0) {
      const relative = (t: number) => (t >= 0 ? `${t} ms before` : `${-t} ms after`)
      console.log(
        `    LOST: ${k.lostEvents.size} acknowledged events (${k.lost} deliveries, ${k.lostUnlogged} of them without a row in the log), ` +
          `answered from ${relative(killed.lostAckedBeforeKill.at(-1)!)} to ${relative(killed.lostAckedBeforeKill[0]!)} the SIGKILL was sent`
      )
    }

    const killOk = killed.complete && k.lost === 0
    return {
      headline:
        `${d.events}x${s.targets}: ${delivery.deliveriesPerSecond.toFixed(0)} deliveries/s (${delivery.firstTryPerSecond.toFixed(0)}/s without the retries), p50/p99 ${ms(percentile(d.latencies, 0.5))}/${ms(percentile(d.latencies, 0.99))} ` +
        `(no backlog ${ms(percentile(idle, 0.5))}/${ms(percentile(idle, 0.99))}), ` +
        `${d.duplicates} duplicates = ${d.logRetries} logged retries, lost ${d.lost}; kill -9: lost ${k.lost}, re-sent ${k.duplicates} (${k.unlogged} not in the log); ` +
        `publish cost ${s.targets} targets/none: API ${api.ratio.toFixed(2)}x (${api.all.perSecond.toFixed(0)} vs ${api.none.perSecond.toFixed(0)} bans/s; median rounds ${api.medianRatio.toFixed(2)}x), ` +
        `bus ${bus.ratio.toFixed(2)}x; disk ${fsyncs.toFixed(0)} fsyncs/s`,
      goals: [
        {
          description: `every event to all ${s.targets} targets, requests per delivery == the log's attempts (lost ${d.lost}, mismatched ${d.mismatched}, duplicates ${d.duplicates} vs retries ${d.logRetries})`,
          met: deliveryOk
        },
        { description: `kill -9 mid-way: no acknowledged event lost (${k.lost} lost of ${k.events * s.targets})`, met: killOk },
        {
          description: `publish cost with ${s.targets} targets <= ${GOALS.publishRatio}x none, API level (${api.ratio.toFixed(2)}x)`,
          met: api.ratio <= GOALS.publishRatio
        }
      ]
    }
  } finally {
    if (controller !== undefined) await stopProcess(controller, 10_000)
    await Promise.all(receivers.map((r) => r.close()))
    removeDir(root)
  }
}

export const benchmark: Benchmark = {
  name: "webhooks",
  description: "events to 20 webhook targets: deliveries/s, latency, duplicates vs the log, kill -9 mid-way, publish cost",
  budgetMs: (() => {
    const s = settings()
    // Deliveries at 50/s at worst, plus the rounds and the starts.
    return ((s.events + s.killEvents) * s.targets * 1000) / 50 + s.rounds * 2 * s.roundS * 1000 * 10 + 180_000
  })(),
  run
}

// `node test/dist/bench/webhooks.js` runs just this one.
runAloneIfMain(benchmark, import.meta.url, killAllChildren)
