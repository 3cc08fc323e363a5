/**
 * Fake webhook targets for end-to-end tests and benchmarks: a `node:http`
 * server on loopback that answers every request as its script says and
 * counts what it got by `Idempotency-Key` (one per event and webhook) and
 * `X-Garrison-Delivery` (one per row of the delivery log), so a test can
 * compare what arrived with what the controller's log says it sent.
 * Framework-free like `controller.ts`: tests import the TS, benchmarks the
 * compiled JS.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { HOST } from "./controller.js"

/** One request as the script sees it. */
export interface WebhookRequest {
  readonly deliveryId: string
  readonly idempotencyKey: string
  readonly webhookId: string
  readonly event: string
  /** `X-Garrison-Attempt`. */
  readonly attempt: number
  readonly headers: IncomingHttpHeaders
  readonly body: string
  /** `Date.now()` when it had arrived whole. */
  readonly receivedAt: number
}

export interface WebhookAnswer {
  readonly status: number
  readonly headers?: Readonly<Record<string, string>>
  readonly body?: string
}

/** What to answer the `index`-th request (0-based, in arrival order). */
export type WebhookScript = (request: WebhookRequest, index: number) => WebhookAnswer

export const answerOk: WebhookScript = () => ({ status: 200, body: "ok" })

/** What one idempotency key (one event for one webhook) got. */
export interface KeyRecord {
  /** Requests that carried the key (every attempt, replays and re-sends after a restart included). */
  requests: number
  /** Requests answered 2xx. */
  accepted: number
  /** `X-Garrison-Attempt` of each request, in arrival order. */
  readonly attempts: Array<number>
  /** `X-Garrison-Delivery` values seen with the key, and how many requests each. */
  readonly deliveries: Map<string, number>
  /** `Date.now()` at the first 2xx answer. */
  acceptedAt: number | undefined
  /** What `tag` made of the first request's body (e.g. the ban's platformId). */
  tag: string | undefined
  /** What `eventTime` made of it (ms since the epoch). */
  eventTime: number | undefined
}

export interface ReceiverOptions {
  readonly script?: WebhookScript
  /** Names the event a body is about (kept per key), e.g. `(payload) => payload.data.platformId`. */
  readonly tag?: (payload: unknown) => string | undefined
  /** When the event happened, read off a body (e.g. the ban's `bannedAt`), kept per key for latencies. */
  readonly eventTime?: (payload: unknown) => number | undefined
  /** Keep every request's headers and body (tests; a benchmark's receivers keep only counts). */
  readonly keepRequests?: boolean
}

export interface WebhookReceiver {
  readonly port: number
  /** `http://127.0.0.1:<port><path>`. */
  readonly url: (path?: string) => string
  /** Every request so far. */
  readonly total: () => number
  /** Per idempotency key. */
  readonly keys: ReadonlyMap<string, KeyRecord>
  /** Requests per `X-Garrison-Delivery`. */
  readonly deliveries: ReadonlyMap<string, number>
  /** Keys (events) answered 2xx at least once. */
  readonly acceptedKeys: () => number
  /** Tags of the keys answered 2xx at least once. */
  readonly acceptedTags: () => ReadonlySet<string>
  /** Every request, when `keepRequests` (else empty). */
  readonly requests: ReadonlyArray<WebhookRequest>
  /** Requests beyond one per key: retries, replays and re-sends. */
  readonly duplicates: () => number
  /** Replaces the script for the requests still to come. */
  script: WebhookScript
  /** Closes the server and every connection. */
  readonly close: () => Promise<void>
}

const header = (headers: IncomingHttpHeaders, name: string): string => {
  const value = headers[name]
  return Array.isArray(value) ? value.join(",") : value ?? ""
}

/** Starts one receiver on a free loopback port. */
export const startReceiver = async (options: ReceiverOptions = {}): Promise<WebhookReceiver> => {
  const keys = new Map<string, KeyRecord>()
  const deliveries = new Map<string, number>()
  const accepted = new Set<string>()
  const requests: Array<WebhookRequest> = []
  let total = 0
  const state = { script: options.script ?? answerOk }

  const server: Server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8")
      const request: WebhookRequest = {
        deliveryId: header(req.headers, "x-garrison-delivery"),
        idempotencyKey: header(req.headers, "idempotency-key"),
        webhookId: header(req.headers, "x-garrison-webhook-id"),
        event: header(req.headers, "x-garrison-event"),
        attempt: Number(header(req.headers, "x-garrison-attempt")),
        headers: req.headers,
        body,
        receivedAt: Date.now()
      }
      const index = total++
      if (options.keepRequests === true) requests.push(request)
      let record = keys.get(request.idempotencyKey)
      if (record === undefined) {
        let tag: string | undefined
        let eventTime: number | undefined
        if (options.tag !== undefined || options.eventTime !== undefined) {
          try {
            const payload = JSON.parse(body) as unknown
            tag = options.tag?.(payload)
            eventTime = options.eventTime?.(payload)
          } catch {
            // Not JSON: no tag.
          }
        }
        record = { requests: 0, accepted: 0, attempts: [], deliveries: new Map(), acceptedAt: undefined, tag, eventTime }
        keys.set(request.idempotencyKey, record)
      }
      record.requests++
      record.attempts.push(request.attempt)
      record.deliveries.set(request.deliveryId, (record.deliveries.get(request.deliveryId) ?? 0) + 1)
      deliveries.set(request.deliveryId, (deliveries.get(request.deliveryId) ?? 0) + 1)
      const answer = state.script(request, index)
      if (answer.status >= 200 && answer.status < 300) {
        record.accepted++
        if (record.acceptedAt === undefined) record.acceptedAt = Date.now()
        if (record.tag !== undefined) accepted.add(record.tag)
      }
      res.writeHead(answer.status, answer.headers)
      res.end(answer.body ?? "")
    })
  })
  server.keepAliveTimeout = 1_000
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, HOST, () => resolve())
  })
  const port = (server.address() as AddressInfo).port

  return {
    port,
    url: (path = "/hook") => `http://${HOST}:${port}${path}`,
    total: () => total,
    keys,
    deliveries,
    acceptedKeys: () => {
      let n = 0
      for (const record of keys.values()) if (record.accepted > 0) n++
      return n
    },
    acceptedTags: () => accepted,
    requests,
    duplicates: () => total - keys.size,
    get script() {
      return state.script
    },
    set script(next: WebhookScript) {
      state.script = next
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
