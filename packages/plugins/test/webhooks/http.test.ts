/**
 * The webhooks routes: create (the secret once), list and read (URLs
 * masked, never a secret), change, rotate, delete, the event types, 400s
 * naming the field, private addresses refused at the door, admin only
 * (a moderator scoped to a server gets 403 and sees nothing), and audit
 * rows that hold no URL token and no secret.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { undocumentedEndpoints } from "@garrison/runtime"
import { WebhooksApi } from "../../src/webhooks/index.js"
import { ADMIN, call, callWithText, type ErrorBody, fieldOf, ok, receiver, setup, type WebhookBody } from "./support.js"

const TOKEN = "tok3n-Very-Secret-123456"

describe("webhooks over HTTP", () => {
  it("every endpoint is documented", () => {
    expect(undocumentedEndpoints(WebhooksApi)).toEqual([])
  })

  it.effect("a bad setting stops the start, naming the variable", () =>
    Effect.gen(function* () {
      const startFailure = (config: Record<string, string>) =>
        Effect.flip(Effect.scoped(Effect.provide(Effect.void, setup({ config }).layer))).pipe(Effect.map(String))
      expect(yield* startFailure({ WEBHOOKS_CONCURRENCY: "0" })).toContain("WEBHOOKS_CONCURRENCY must be an integer from 1 to 16")
      expect(yield* startFailure({ WEBHOOKS_REQUEST_TIMEOUT: "5 minutes" })).toContain("WEBHOOKS_REQUEST_TIMEOUT must be a duration from")
      expect(yield* startFailure({ WEBHOOKS_ALLOW_PRIVATE: "maybe" })).toContain("WEBHOOKS_ALLOW_PRIVATE")
    }))

  it.scopedLive("create answers the secret once; lists and reads mask the URL and never hold a secret", () =>
    Effect.gen(function* () {
      const target = yield* receiver(ok)
      const url = target.url(`/api/webhooks/123456/${TOKEN}?key=${TOKEN}`)
      const created = yield* call("POST", "/api/webhooks", { as: ADMIN, json: { name: "Ops", url, events: [{ pattern: "test.*" }, { pattern: "test.pong", severities: ["info"] }] } })
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      const hook = created.body as WebhookBody & { events: unknown }
      expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/)
      expect(hook).toMatchObject({
        name: "Ops",
        kind: "http",
        url: `http://127.0.0.1:${target.port}/api/webhooks/123456/••••?••••`,
        enabled: true,
        disabledReason: null,
        failingSince: null,
        pending: 0,
        lastDelivery: null,
        servers: null,
        events: [
          { pattern: "test.*", severities: null },
          { pattern: "test.pong", severities: ["info"] }
        ]
      })

      for (const path of ["/api/webhooks", `/api/webhooks/${hook.id}`]) {
        const reply = yield* callWithText("GET", path, { as: ADMIN })
        expect(reply.status).toBe(200)
        expect(reply.text).not.toContain(TOKEN)
        expect(reply.text).not.toContain(hook.secret!)
        expect(reply.text).not.toContain('"secret"')
      }
      const listed = (yield* call("GET", "/api/webhooks", { as: ADMIN })).body as { items: ReadonlyArray<WebhookBody>; total: number; nextCursor: null }
      expect(listed.total).toBe(1)
      expect(listed.items[0]!.url).toBe(hook.url)

      // A rotation answers a new secret, once.
      const rotated = yield* call("POST", `/api/webhooks/${hook.id}/rotate-secret`, { as: ADMIN })
      expect(rotated.status).toBe(200)
      const secret = (rotated.body as { secret: string }).secret
      expect(secret).toMatch(/^whsec_/)
      expect(secret).not.toBe(hook.secret)

      // A discord.com URL is a chat webhook unless told otherwise.
      const chat = yield* call("POST", "/api/webhooks", {
        as: ADMIN,
        json: { name: "Discord", url: `https://discord.com/api/webhooks/998877/${TOKEN}`, events: [{ pattern: "*" }], enabled: false }
      })
      expect(chat.body).toMatchObject({ kind: "discord", url: "https://discord.com/api/webhooks/998877/••••", enabled: false })
    }).pipe(Effect.provide(setup().layer)))

  it.scopedLive("change and delete; audit rows name the change with the URL masked and never a secret", () =>
    Effect.gen(function* () {
      const target = yield* receiver(ok)
      const { audit, layer } = setup()
      yield* Effect.gen(function* () {
        const created = (yield* call("POST", "/api/webhooks", { as: ADMIN, json: { name: "A", url: target.url(`/x/${TOKEN}`), events: [{ pattern: "test.ping" }] } })).body as WebhookBody
        const changed = yield* call("PATCH", `/api/webhooks/${created.id}`, {
          as: ADMIN,
          json: { name: "B", url: target.url(`/y/${TOKEN}`), servers: ["alpha"], events: [{ pattern: "test.*" }] }
        })
        expect(changed.status, JSON.stringify(changed.body)).toBe(200)
        expect(changed.body).toMatchObject({ name: "B", url: `http://127.0.0.1:${target.port}/y/••••`, servers: ["alpha"] })
        expect((yield* call("PATCH", `/api/webhooks/${created.id}`, { as: ADMIN, json: { servers: null } })).body).toMatchObject({ servers: null })
        expect((yield* call("POST", `/api/webhooks/${created.id}/rotate-secret`, { as: ADMIN })).status).toBe(200)
        expect((yield* call("DELETE", `/api/webhooks/${created.id}`, { as: ADMIN })).status).toBe(204)
        expect((yield* call("GET", `/api/webhooks/${created.id}`, { as: ADMIN })).status).toBe(404)
        expect((yield* call("DELETE", `/api/webhooks/${created.id}`, { as: ADMIN })).status).toBe(404)
        expect((yield* call("PATCH", "/api/webhooks/nope", { as: ADMIN, json: { name: "x" } })).status).toBe(404)

        const rows = audit.rows.filter((row) => row.action.startsWith("webhooks."))
        expect(rows.map((row) => row.action)).toEqual(["webhooks.create", "webhooks.update", "webhooks.update", "webhooks.rotate-secret", "webhooks.delete"])
        expect(rows.every((row) => row.actor === "root" && row.target === created.id)).toBe(true)
        expect(rows[0]!.details).toMatchObject({ name: "A", url: `http://127.0.0.1:${target.port}/x/••••` })
        const text = JSON.stringify(audit.rows)
        expect(text).not.toContain(TOKEN)
        expect(text).not.toContain("whsec_")
      }).pipe(Effect.provide(layer))
    }))

  it.scopedLive("bad input is a 400 naming the field, in its words, never quoting the URL", () =>
    Effect.gen(function* () {
      const target = yield* receiver(ok)
      const good = { name: "Ops", url: target.url(), events: [{ pattern: "test.ping" }] }
      const cases: ReadonlyArray<readonly [unknown, string]> = [
        [{ ...good, events: [{ pattern: "nothing.here" }] }, "events.0.pattern"],
        [{ ...good, events: [{ pattern: "test.ping" }, { pattern: "tests.*" }] }, "events.1.pattern"],
        [{ ...good, events: [{ pattern: "Test Ping" }] }, "events.0.pattern"],
        [{ ...good, events: ["test.ping"] }, "events.0"],
        [{ ...good, events: [] }, "events"],
        [{ ...good, events: [{ pattern: "test.ping", severities: ["fatal"] }] }, "events.0.severities.0"],
        [{ ...good, url: `ftp://example.com/${TOKEN}` }, "url"],
        [{ ...good, url: `https://user:${TOKEN}@example.com/hook` }, "url"],
        [{ ...good, url: `https://example.com/${TOKEN}${"x".repeat(2048)}` }, "url"],
        [{ ...good, url: `https://example.com/a b/${TOKEN}` }, "url"],
        [{ ...good, url: `not a url ${TOKEN}` }, "url"],
        [{ ...good, name: "a\u0000b" }, "name"],
        [{ ...good, name: "  " }, "name"],
        [{ ...good, servers: ["alpha", "nope"] }, "servers.1"],
        [{ ...good, servers: [] }, "servers"],
        [{ ...good, kind: "slack" }, "kind"],
        [{ ...good, colour: "red" }, "colour"]
      ]
      for (const [json, field] of cases) {
        const reply = yield* callWithText("POST", "/api/webhooks", { as: ADMIN, json })
        expect(reply.status, `${field}: ${reply.text}`).toBe(400)
        const body = JSON.parse(reply.text) as ErrorBody
        expect(fieldOf(body), reply.text).toBe(field)
        expect(body.message.startsWith(field), body.message).toBe(true)
        expect(reply.text).not.toContain(TOKEN)
      }
      expect((yield* call("GET", "/api/webhooks", { as: ADMIN })).body).toMatchObject({ items: [], total: 0 })
      // The same rules on a change.
      const created = (yield* call("POST", "/api/webhooks", { as: ADMIN, json: good })).body as WebhookBody
      const patched = yield* call("PATCH", `/api/webhooks/${created.id}`, { as: ADMIN, json: { events: [{ pattern: "nope.*" }] } })
      expect([patched.status, fieldOf(patched.body)]).toEqual([400, "events.0.pattern"])
      expect((yield* call("GET", "/api/webhooks/x/deliveries?cursor=abc", { as: ADMIN })).status).toBe(404)
      const badCursor = yield* call("GET", `/api/webhooks/${created.id}/deliveries?cursor=abc`, { as: ADMIN })
      expect([badCursor.status, fieldOf(badCursor.body)]).toEqual([400, "cursor"])
      const badStatus = yield* call("GET", `/api/webhooks/${created.id}/deliveries?status=lost`, { as: ADMIN })
      expect([badStatus.status, fieldOf(badStatus.body)]).toEqual([400, "status"])
      const badTest = yield* call("POST", `/api/webhooks/${created.id}/test`, { as: ADMIN, json: { event: "nope.nope" } })
      expect([badTest.status, fieldOf(badTest.body)]).toEqual([400, "event"])
    }).pipe(Effect.provide(setup().layer)))

  it.scopedLive("private, loopback and link-local addresses written in the URL are refused unless allowed", () =>
    Effect.gen(function* () {
      for (const host of [
        "127.0.0.1:8080",
        "127.1.2.3",
        "10.0.0.5",
        "172.20.1.1",
        "192.168.1.10",
        "169.254.169.254",
        "100.64.0.1",
        "0.0.0.0",
        "[::1]",
        "[::]",
        "[::ffff:127.0.0.1]",
        "[::ffff:a9fe:a9fe]",
        "[fe80::1]",
        "[fd00::1]",
        "2130706433",
        "0x7f.1"
      ]) {
        const reply = yield* callWithText("POST", "/api/webhooks", { as: ADMIN, json: { name: "x", url: `http://${host}/hook`, events: [{ pattern: "test.ping" }] } })
        expect(reply.status, `${host}: ${reply.text}`).toBe(400)
        expect(fieldOf(JSON.parse(reply.text)), host).toBe("url")
        expect(reply.text).toContain("WEBHOOKS_ALLOW_PRIVATE")
      }
      // A name is resolved when it is called (see delivery tests): `localhost` is taken here.
      expect((yield* call("POST", "/api/webhooks", { as: ADMIN, json: { name: "x", url: "http://localhost:1/hook", events: [{ pattern: "test.ping" }] } })).status).toBe(201)
      expect((yield* call("POST", "/api/webhooks", { as: ADMIN, json: { name: "x", url: "https://93.184.215.14/hook", events: [{ pattern: "test.ping" }] } })).status).toBe(201)
    }).pipe(Effect.provide(setup({ allowPrivate: false }).layer)))

  it.scopedLive("the event types: every published event with a description, the severities it can have and example payload", () =>
    Effect.gen(function* () {
      const reply = yield* call("GET", "/api/webhooks/events", { as: ADMIN })
      expect(reply.status).toBe(200)
      const items = (reply.body as { items: ReadonlyArray<{ name: string; plugin: string; severities: ReadonlyArray<string>; example: { event: string; timestamp: string; data: unknown } }> }).items
      const ping = items.find((item) => item.name === "test.ping")
      expect(ping).toMatchObject({
        description: "A test event.",
        // Read off the event, the declaration not saying which it can be: any; a fixed one (`info` by default): that one.
        severities: ["info", "success", "warning", "error"],
        plugin: "webhook-test-events",
        example: { event: "test.ping", data: { serverId: "alpha", text: "hello" } }
      })
      expect(Date.parse(ping!.example.timestamp)).not.toBeNaN()
      expect(items.find((item) => item.name === "test.pong")?.severities).toEqual(["info"])
      // A notification's severity is its level: any.
      expect(items.find((item) => item.name === "notification.published")?.severities).toEqual(["info", "success", "warning", "error"])
      expect(items.map((item) => item.name)).toContain("notification.published")
    }).pipe(Effect.provide(setup().layer)))

  it.scopedLive("admin only: anyone else gets 401 or 403 and learns nothing of a webhook", () =>
    Effect.gen(function* () {
      const target = yield* receiver(ok)
      const created = (yield* call("POST", "/api/webhooks", { as: ADMIN, json: { name: "Ops-hook", url: target.url(`/x/${TOKEN}`), events: [{ pattern: "test.ping" }], servers: ["alpha"] } }))
        .body as WebhookBody
      const routes: ReadonlyArray<readonly [string, string, unknown?]> = [
        ["GET", "/api/webhooks"],
        ["POST", "/api/webhooks", { name: "mine", url: "https://example.com/x", events: [{ pattern: "*" }] }],
        ["GET", "/api/webhooks/events"],
        ["GET", `/api/webhooks/${created.id}`],
        ["PATCH", `/api/webhooks/${created.id}`, { name: "mine" }],
        ["DELETE", `/api/webhooks/${created.id}`],
        ["POST", `/api/webhooks/${created.id}/rotate-secret`],
        ["GET", `/api/webhooks/${created.id}/deliveries`],
        ["POST", `/api/webhooks/${created.id}/deliveries/some-id/replay`],
        ["POST", `/api/webhooks/${created.id}/test`],
        ["GET", "/api/backup/webhooks"],
        ["GET", "/api/backup/webhooks?secrets=include"],
        ["POST", "/api/restore/webhooks", { kind: "garrison.webhooks", version: 1, webhooks: [] }]
      ]
      // A moderator of server alpha (the webhook's own server), an operator everywhere, nobody.
      for (const as of ["mod:server.view@alpha,server.restart@alpha,server.config@alpha", "olga:server.view,server.restart,players.ban", undefined]) {
        for (const [method, path, json] of routes) {
          const reply = yield* callWithText(method as "GET", path, { ...(as === undefined ? {} : { as }), ...(json === undefined ? {} : { json }) })
          expect(reply.status, `${as} ${method} ${path}: ${reply.text}`).toBe(as === undefined ? 401 : 403)
          expect(reply.text).not.toContain("Ops-hook")
          expect(reply.text).not.toContain(TOKEN)
          expect(reply.text).not.toContain(String(target.port))
        }
      }
      expect((yield* call("GET", `/api/webhooks/${created.id}`, { as: ADMIN })).body).toMatchObject({ name: "Ops-hook" })
      expect(target.received).toEqual([])
    }).pipe(Effect.provide(setup().layer)))
})
