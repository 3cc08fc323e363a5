/**
 * Webhooks over real processes: the built controller (spawned, killed with
 * SIGKILL, started again on the same data directory) and fake targets on
 * loopback (`../support/webhookReceiver.ts`), with `player.ban` as the event
 * (`POST /api/bans` publishes one, its payload names the player).
 *
 * - A retry survives a kill -9: the first attempt is answered 500 (the
 *   plugin's backoff, 10 s ±20 %, stored as the row's next attempt), the
 *   controller is killed and started again before the second, which is
 *   answered 503 with `Retry-After: 1` (the plugin has no setting for its
 *   base delay; a target's `Retry-After` is how the wait gets short), and
 *   the third 200: one delivery, three requests with one idempotency key,
 *   `attempts: 3` in the log.
 * - kill -9 with 500 events in flight (500 bans sent at once, the kill once
 *   half are acknowledged, deliveries under way): after the restart every
 *   acknowledged event reaches the target, and each delivery's requests are
 *   what the log says: its `attempts`, less at most the `cutAttempts` the
 *   kill cut short (an attempt started, on disk, maybe never sent).
 * - Without `WEBHOOKS_ALLOW_PRIVATE` a webhook to `http://127.0.0.1:<port>`
 *   is refused: 400 naming `url`.
 *
 * Needs the build (`npm run build`). On PostgreSQL the restarted controller
 * finds its data directory's database again (`spawnController`).
 */
import { afterAll, afterEach, describe, expect, it } from "vitest"
import {
  type ControllerHandle,
  delay,
  killAllChildren,
  makeTempDir,
  removeDir,
  requestJson,
  startController,
  stopProcess,
  testAuth,
  testPlugins
} from "../support/controller.js"
import { startReceiver, type WebhookReceiver, type WebhookScript } from "../support/webhookReceiver.js"

const ADMIN = testAuth(["admin"], "e2e")
const STEAM64_BASE = 76561198000000000n

const controllers: Array<ControllerHandle> = []
const receivers: Array<WebhookReceiver> = []
const tempDirs: Array<string> = []

afterEach(async () => {
  await Promise.all(controllers.splice(0).map((c) => stopProcess(c, 5_000)))
  await Promise.all(receivers.splice(0).map((r) => r.close()))
  for (const dir of tempDirs.splice(0)) removeDir(dir)
})

afterAll(killAllChildren)

const tempDir = () => {
  const dir = makeTempDir()
  tempDirs.push(dir)
  return dir
}

const start = async (dataDir: string, env: Readonly<Record<string, string>> = { WEBHOOKS_ALLOW_PRIVATE: "true" }) => {
  const controller = await startController({
    dataDir,
    plugins: [testPlugins.auth],
    env: { RATE_LIMIT_API: "off", DB_BACKUP_INTERVAL: "365 days", ...env }
  })
  controllers.push(controller)
  return controller
}

const receiver = async (script?: WebhookScript) => {
  const started = await startReceiver({ keepRequests: true, tag: playerOf, ...(script === undefined ? {} : { script }) })
  receivers.push(started)
  return started
}

/** A ban payload's player. */
const playerOf = (payload: unknown): string | undefined => {
  const data = (payload as { data?: { platformId?: unknown } }).data
  return typeof data?.platformId === "string" ? data.platformId : undefined
}

const platformIdOf = (n: number) => String(STEAM64_BASE + BigInt(n))

const ban = (controller: ControllerHandle, n: number, timeoutMs = 10_000) =>
  requestJson(controller.baseUrl, "POST", "/api/bans", {
    headers: ADMIN,
    body: { platformId: platformIdOf(n), playerName: `Player ${n}`, reason: "e2e: webhooks" },
    timeoutMs
  })

const createWebhook = async (controller: ControllerHandle, url: string): Promise<string> => {
  const created = await requestJson(controller.baseUrl, "POST", "/api/webhooks", {
    headers: ADMIN,
    body: { name: "e2e", url, events: [{ pattern: "player.ban" }] }
  })
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  return (created.body as { id: string }).id
}

interface Delivery {
  readonly id: string
  readonly idempotencyKey: string
  readonly status: "pending" | "delivered" | "failed"
  readonly attempts: number
  readonly cutAttempts: number
  readonly lastAttemptAt: string | null
  readonly nextAttemptAt: string | null
  readonly responseStatus: number | null
  readonly summary: string
  readonly test: boolean
}

/** The webhook's whole delivery log (test deliveries left out), through its paged route. */
const deliveryLog = async (controller: ControllerHandle, webhookId: string): Promise<Array<Delivery>> => {
  const rows: Array<Delivery> = []
  let cursor: string | null = null
  do {
    const query: string = cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`
    const answer = await requestJson(controller.baseUrl, "GET", `/api/webhooks/${webhookId}/deliveries?limit=200${query}`, { headers: ADMIN })
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    const page = answer.body as { items: Array<Delivery>; nextCursor: string | null }
    rows.push(...page.items.filter((row) => !row.test))
    cursor = page.nextCursor
  } while (cursor !== null)
  return rows
}

const pending = async (controller: ControllerHandle, webhookId: string): Promise<number> => {
  const answer = await requestJson(controller.baseUrl, "GET", `/api/webhooks/${webhookId}`, { headers: ADMIN })
  expect(answer.status, JSON.stringify(answer.body)).toBe(200)
  return (answer.body as { pending: number }).pending
}

/** Polls `probe` every 100 ms until `done` holds; fails naming `what`, the last value and the controller's output. */
const waitFor = async <A>(controller: ControllerHandle, what: string, probe: () => Promise<A>, done: (a: A) => boolean, timeoutMs: number): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  let last: A | undefined
  for (;;) {
    if (controller.hasExited()) throw new Error(`the controller exited while waiting for ${what}; output:\n${controller.output()}`)
    last = await probe()
    if (done(last)) return last
    if (Date.now() > deadline) throw new Error(`no ${what} within ${timeoutMs} ms; last: ${JSON.stringify(last)}; output:\n${controller.output()}`)
    await delay(100)
  }
}

const kill9 = async (controller: ControllerHandle) => {
  controller.child.kill("SIGKILL")
  const ended = await controller.exited
  expect(ended.signal, `the controller ended on its own (code ${ended.code}) before the kill; output:\n${controller.output()}`).toBe("SIGKILL")
}

describe("webhooks over real processes", () => {
  it("a target that fails twice then answers gets the delivery once, with 3 attempts logged, across a kill -9 between attempts", { timeout: 120_000 }, async () => {
    const target = await receiver((_request, index) =>
      index === 0 ? { status: 500, body: "down" } : index === 1 ? { status: 503, headers: { "retry-after": "1" }, body: "busy" } : { status: 200, body: "ok" }
    )
    const dataDir = tempDir()
    const first = await start(dataDir)
    const webhookId = await createWebhook(first, target.url())
    expect((await ban(first, 1)).status).toBe(201)

    // The first attempt failed and is recorded: pending, its next attempt 10 s (±20 %) away.
    const [failedOnce] = await waitFor(first, "the first attempt in the log", () => deliveryLog(first, webhookId), (rows) => rows[0]?.attempts === 1, 30_000)
    expect(failedOnce).toMatchObject({ status: "pending", attempts: 1, responseStatus: 500 })
    const due = Date.parse(failedOnce!.nextAttemptAt!)
    expect(due - Date.parse(failedOnce!.lastAttemptAt!)).toBeGreaterThanOrEqual(8_000)
    await kill9(first)
    // Killed between the first and second attempts.
    expect(target.total()).toBe(1)

    const second = await start(dataDir)
    const [delivered] = await waitFor(second, "the delivery after the restart", () => deliveryLog(second, webhookId), (rows) => rows[0]?.status !== "pending", 60_000)
    expect(delivered).toMatchObject({ id: failedOnce!.id, idempotencyKey: failedOnce!.idempotencyKey, status: "delivered", attempts: 3, responseStatus: 200 })
    expect(await deliveryLog(second, webhookId)).toHaveLength(1)

    // Three requests, one event: the same key and delivery, attempts numbered 1, 2, 3; the second no sooner than the stored backoff.
    expect(target.requests.map((r) => [r.idempotencyKey, r.deliveryId, r.attempt, r.event])).toEqual([
      [failedOnce!.idempotencyKey, failedOnce!.id, 1, "player.ban"],
      [failedOnce!.idempotencyKey, failedOnce!.id, 2, "player.ban"],
      [failedOnce!.idempotencyKey, failedOnce!.id, 3, "player.ban"]
    ])
    expect(target.requests[1]!.receivedAt).toBeGreaterThanOrEqual(due - 50)
    expect(target.requests[2]!.receivedAt - target.requests[1]!.receivedAt).toBeGreaterThanOrEqual(900)
    expect(target.requests.map((r) => playerOf(JSON.parse(r.body)))).toEqual([platformIdOf(1), platformIdOf(1), platformIdOf(1)])
    expect(target.acceptedKeys()).toBe(1)
  })

  it("kill -9 with 500 events in flight: every acknowledged event is delivered after the restart, each delivery's requests are what its log row says (attempts, less those the kill cut short)", { timeout: 120_000 }, async () => {
    const target = await receiver()
    const dataDir = tempDir()
    const first = await start(dataDir)
    const webhookId = await createWebhook(first, target.url())

    // 500 bans at once; the kill once half are acknowledged, with the rest of the calls and the deliveries under way.
    const acked = new Set<string>()
    let killed = false
    const calls = Array.from({ length: 500 }, async (_, n) => {
      try {
        const answer = await ban(first, n, 60_000)
        if (answer.status !== 201) return `ban ${n} answered ${answer.status}: ${JSON.stringify(answer.body)}`
        acked.add(platformIdOf(n))
        if (acked.size >= 250 && !killed) {
          killed = true
          first.child.kill("SIGKILL")
        }
      } catch {
        // In flight at the kill: not acknowledged.
      }
      return undefined
    })
    const refusals = (await Promise.all(calls)).filter((problem) => problem !== undefined)
    expect(refusals).toEqual([])
    expect(killed, `the controller was not killed; output:\n${first.output()}`).toBe(true)
    await kill9(first)
    const deliveredAtKill = target.acceptedKeys()
    expect(deliveredAtKill, "every delivery made before the kill: the kill did not land while deliveries were in flight").toBeLessThan(acked.size)

    const second = await start(dataDir)
    // Until every acknowledged event has arrived and nothing is pending; or, nothing pending, no request for 3 s (then some are lost).
    let quietSince = Date.now()
    let lastTotal = target.total()
    await waitFor(
      second,
      "every acknowledged event at the target",
      async () => {
        if (target.total() !== lastTotal) {
          lastTotal = target.total()
          quietSince = Date.now()
        }
        const got = target.acceptedTags()
        return { missing: [...acked].filter((player) => !got.has(player)).length, pending: await pending(second, webhookId), quietMs: Date.now() - quietSince }
      },
      (state) => state.pending === 0 && (state.missing === 0 || state.quietMs > 3_000),
      90_000
    )

    const log = await deliveryLog(second, webhookId)
    const got = target.acceptedTags()
    const lost = [...acked].filter((player) => !got.has(player))
    const logged = new Set(log.map((row) => /\((\d{17})\)/.exec(row.summary)?.[1]))
    expect
      .soft(
        lost.map((player) => `${player}${logged.has(player) ? "" : " (no row in the log)"}`),
        `acknowledged events never delivered (of ${acked.size} acknowledged, ${deliveredAtKill} delivered before the kill)`
      )
      .toEqual([])
    expect.soft(log.filter((row) => row.status !== "delivered").map((row) => [row.id, row.status, row.attempts])).toEqual([])
    // What the target got for each row of the log is what the log says was sent: `attempts` requests, less at most
    // the `cutAttempts` the kill cut short (started, maybe never sent); one kill cuts at most one attempt a delivery.
    // Each request carries its own attempt number, none above the log's count.
    const requestsPer = new Map<string, Array<number>>()
    for (const r of target.requests) requestsPer.set(r.deliveryId, [...(requestsPer.get(r.deliveryId) ?? []), r.attempt])
    const differing = log
      .filter((row) => {
        const numbers = requestsPer.get(row.id) ?? []
        const received = numbers.length
        return (
          row.cutAttempts > 1 ||
          received > row.attempts ||
          received < row.attempts - row.cutAttempts ||
          new Set(numbers).size !== received ||
          numbers.some((n) => n < 1 || n > row.attempts)
        )
      })
      .map((row) => `delivery ${row.id}: ${row.attempts} attempts logged (${row.cutAttempts} cut short), requests with X-Garrison-Attempt ${JSON.stringify(requestsPer.get(row.id) ?? [])}`)
    expect.soft(differing, "deliveries whose requests at the target differ from what the log says").toEqual([])
    // Nothing arrived that the log does not have, and each delivery carried one key.
    const loggedIds = new Set(log.map((row) => row.id))
    expect.soft(target.requests.filter((r) => !loggedIds.has(r.deliveryId)).map((r) => r.deliveryId)).toEqual([])
    const keyOf = new Map(log.map((row) => [row.id, row.idempotencyKey]))
    expect.soft(target.requests.filter((r) => keyOf.get(r.deliveryId) !== r.idempotencyKey).length).toBe(0)
  })

  it("without WEBHOOKS_ALLOW_PRIVATE a loopback URL is refused: 400 naming url", async () => {
    const target = await receiver()
    const controller = await start(tempDir(), {})
    const url = `http://127.0.0.1:${target.port}/hook`
    const refused = await requestJson(controller.baseUrl, "POST", "/api/webhooks", {
      headers: ADMIN,
      body: { name: "local", url, events: [{ pattern: "player.ban" }] }
    })
    expect(refused.status).toBe(400)
    const body = refused.body as { details?: ReadonlyArray<{ path: string; message: string }> }
    expect(body.details?.[0]?.path, JSON.stringify(body)).toBe("url")
    expect(body.details?.[0]?.message).toContain("WEBHOOKS_ALLOW_PRIVATE")
    expect(JSON.stringify(body)).not.toContain(url)
    const listed = await requestJson(controller.baseUrl, "GET", "/api/webhooks", { headers: ADMIN })
    expect(listed.body).toMatchObject({ items: [], total: 0 })
    expect(target.total()).toBe(0)
  })
})
