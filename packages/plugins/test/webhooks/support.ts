/**
 * The webhooks tests' pieces: fake receivers (node:http servers on
 * loopback, answering as the test scripts them), a plugin publishing a test
 * event (`test.ping`), and the controller: stub servers, notifications,
 * webhooks, an in-memory audit trail, private addresses allowed unless the
 * test says otherwise.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import { type AnyPlugin, type EventBus, Plugin, published } from "@garrison/runtime"
import { auditRecorder, type LogLine, StubFleet, tempDir, testController } from "@garrison/testkit"
import { Effect, LogLevel, Schema } from "effect"
import { createHmac, timingSafeEqual } from "node:crypto"
import * as Fs from "node:fs"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import * as NodePath from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { type Notifications, NotificationsPlugin } from "../../src/notifications/index.js"
import { type Webhooks, WebhooksPlugin } from "../../src/webhooks/index.js"

export { call, callWithText, eventually, type Reply, sleepingUntil } from "@garrison/testkit"

export const ADMIN = "root:admin"
export const START = Date.parse("2026-03-01T12:00:00.000Z")

/** The event the tests publish: about a server (or none), with a severity of their choosing. */
export class TestPing extends Schema.TaggedClass<TestPing>()("WebhooksTestPing", {
  serverId: Schema.optional(Schema.String),
  text: Schema.String,
  severity: Schema.Literal("info", "success", "warning", "error"),
  extra: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String }))
}) {}

/** A second one, so patterns (`test.*`) and names can be told apart. */
export class TestPong extends Schema.TaggedClass<TestPong>()("WebhooksTestPong", { n: Schema.Number }) {}

export const TestEventsPlugin = Plugin.make({
  id: "webhook-test-events",
  publishes: [
    published(TestPing, {
      name: "test.ping",
      description: "A test event.",
      example: new TestPing({ serverId: "alpha", text: "hello", severity: "info" }),
      severity: (e) => e.severity,
      summary: (e) => `Ping: ${e.text}`,
      data: (e) => ({ serverId: e.serverId ?? null, text: e.text, ...(e.extra ?? {}) })
    }),
    published(TestPong, {
      name: "test.pong",
      description: "Another test event.",
      example: new TestPong({ n: 1 }),
      summary: (e) => `Pong ${e.n}`
    })
  ]
})

export interface Received {
  readonly path: string
  readonly headers: Http.IncomingHttpHeaders
  readonly body: string
}

export interface Answer {
  readonly status: number
  readonly headers?: Readonly<Record<string, string>>
  readonly body?: string
}

/** What a receiver does with the n-th request (0-based): answer, or never answer. */
export type Script = (request: Received, index: number) => Answer | "hang"

export interface Receiver {
  readonly port: number
  readonly url: (path?: string) => string
  readonly received: Array<Received>
  /** Replaces the script for the requests still to come. */
  script: Script
}

/** A loopback HTTP server answering as `script` says; closed with the scope. */
export const receiver = (script: Script) =>
  Effect.acquireRelease(
    Effect.async<{ server: Http.Server; state: Receiver }>((resume) => {
      const received: Array<Received> = []
      const state = { port: 0, url: (path = "/hook") => `http://127.0.0.1:${state.port}${path}`, received, script } as Receiver & { port: number }
      const server = Http.createServer((req, res) => {
        const chunks: Array<Buffer> = []
        req.on("data", (chunk: Buffer) => chunks.push(chunk))
        req.on("end", () => {
          const request: Received = { path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") }
          const index = received.length
          received.push(request)
          const answer = state.script(request, index)
          if (answer === "hang") return
          res.writeHead(answer.status, answer.headers)
          res.end(answer.body ?? "")
        })
      })
      server.listen(0, "127.0.0.1", () => {
        state.port = (server.address() as AddressInfo).port
        resume(Effect.succeed({ server, state }))
      })
    }),
    ({ server }) =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map(({ state }) => state))

export const ok: Script = () => ({ status: 200, body: "ok" })

/** The signature check a receiver writes, as the README shows it. */
export const verifySignature = (secret: string, header: string, body: string): boolean => {
  const parts = Object.fromEntries(header.split(",").map((part) => part.split("=", 2) as [string, string]))
  const t = parts.t
  const v1 = parts.v1
  if (t === undefined || v1 === undefined) return false
  const expected = createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")
  return expected.length === v1.length && timingSafeEqual(Buffer.from(expected), Buffer.from(v1))
}

/**
 * The README's own verification function (its `js` block), loaded as a
 * module: what receivers are told to write is what the tests check.
 */
export const readmeVerify = Effect.promise(async () => {
  const readme = Fs.readFileSync(fileURLToPath(new URL("../../src/webhooks/README.md", import.meta.url)), "utf8")
  const block = /```js\n([\s\S]*?)```/.exec(readme)?.[1]
  if (block === undefined || !block.includes("export const verify")) throw new Error("the README has no js block exporting verify")
  const file = NodePath.join(tempDir("garrison-webhooks-readme-"), "verify.mjs")
  Fs.writeFileSync(file, block)
  const module = (await import(pathToFileURL(file).href)) as { verify: (secret: string, header: string, body: string, toleranceSeconds?: number) => boolean }
  return module.verify
})

export interface SetupOptions {
  readonly allowPrivate?: boolean
  readonly dataDir?: string
  readonly config?: Readonly<Record<string, string>>
  readonly logs?: Array<LogLine>
  readonly plugins?: ReadonlyArray<AnyPlugin>
}

/** A controller with stub servers `alpha` ("Alpha Chernarus") and `bravo`; `audit.rows` holds what was audited. */
export const setup = (options: SetupOptions = {}) => {
  const fleet = new StubFleet()
  fleet.add("alpha", { entry: { name: "Alpha Chernarus" } })
  fleet.add("bravo", { entry: { name: "Bravo Livonia" } })
  const audit = auditRecorder()
  const layer = testController<Webhooks | Notifications | EventBus | SqlClient.SqlClient>(
    [fleet.plugin(), audit.plugin, NotificationsPlugin, WebhooksPlugin, TestEventsPlugin, ...(options.plugins ?? [])],
    {
      dataPrefix: "garrison-webhooks-",
      ...(options.logs === undefined ? { logLevel: LogLevel.Error } : { logs: options.logs, logLevel: LogLevel.Debug }),
      ...(options.dataDir === undefined ? {} : { settings: { dataDir: options.dataDir } }),
      config: {
        RATE_LIMIT_API: "off",
        ...(options.allowPrivate === false ? {} : { WEBHOOKS_ALLOW_PRIVATE: "true" }),
        ...options.config
      }
    }
  )
  return { fleet, audit, layer }
}

export interface WebhookBody {
  readonly id: string
  readonly name: string
  readonly kind: string
  readonly url: string
  readonly enabled: boolean
  readonly disabledReason: string | null
  readonly failingSince: string | null
  readonly pending: number
  readonly lastDelivery: { readonly id: string; readonly event: string; readonly status: string; readonly responseStatus: number | null; readonly at: string } | null
  readonly secret?: string
}

export interface DeliveryBody {
  readonly id: string
  readonly event: string
  readonly idempotencyKey: string
  readonly status: "pending" | "delivered" | "failed"
  readonly attempts: number
  readonly nextAttemptAt: string | null
  readonly lastAttemptAt: string | null
  readonly responseStatus: number | null
  readonly responseBody: string | null
  readonly error: string | null
  readonly replayOf: string | null
  readonly test: boolean
  readonly summary: string
}

export interface ErrorBody {
  readonly error: string
  readonly message: string
  readonly details?: ReadonlyArray<{ readonly path: string; readonly message: string }>
}

export const fieldOf = (body: unknown): string | undefined => (body as ErrorBody).details?.[0]?.path
