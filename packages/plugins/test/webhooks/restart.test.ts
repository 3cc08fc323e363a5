/**
 * The spec's "Restart fires webhooks": `POST /api/servers/:id/restart` over
 * the real servers plugin (fake processes) reaches a webhook subscribed to
 * `server.*` as a signed `server.restarted` payload, and a chat webhook as
 * an embed naming the server.
 */
import { describe, expect, it } from "@effect/vitest"
import { fakeFleet, fakeInstall, testController } from "@garrison/testkit"
import { Effect, LogLevel } from "effect"
import { NotificationsPlugin } from "../../src/notifications/index.js"
import { WebhooksPlugin } from "../../src/webhooks/index.js"
import { ADMIN, call, eventually, ok, receiver, verifySignature, type WebhookBody } from "./support.js"

const controller = () =>
  testController([fakeFleet().plugin, NotificationsPlugin, WebhooksPlugin], {
    dataPrefix: "garrison-webhooks-restart-",
    logLevel: LogLevel.Error,
    config: { WEBHOOKS_ALLOW_PRIVATE: "true" }
  })

describe("restart fires webhooks", () => {
  it.scopedLive("a manual restart is delivered as server.restarted to an http and a chat webhook", () =>
    Effect.gen(function* () {
      const target = yield* receiver(ok)
      const made = yield* call("POST", "/api/servers", { as: ADMIN, json: { name: "Main", installDir: fakeInstall() } })
      expect(made.status).toBe(201)
      const id = String((made.body as { id: string }).id)
      const http = (yield* call("POST", "/api/webhooks", { as: ADMIN, json: { name: "Ops", url: target.url("/http"), events: [{ pattern: "server.restarted" }], servers: [id] } }))
        .body as WebhookBody & { secret: string }
      yield* call("POST", "/api/webhooks", { as: ADMIN, json: { name: "Chat", url: target.url("/chat"), kind: "discord", events: [{ pattern: "server.*" }] } })
      expect((yield* call("POST", `/api/servers/${id}/start`, { as: ADMIN })).status).toBe(200)
      expect((yield* call("POST", `/api/servers/${id}/restart`, { as: ADMIN })).status).toBe(200)

      yield* eventually(
        Effect.sync(() => target.received.map((r) => r.path)),
        (paths) => paths.includes("/http") && target.received.some((r) => r.path === "/chat" && r.body.includes("restarted")),
        10_000,
        "both deliveries"
      )
      const delivered = target.received.find((r) => r.path === "/http")!
      expect(JSON.parse(delivered.body)).toMatchObject({
        event: "server.restarted",
        data: { serverId: id, name: "Main", ok: true, attempts: 1, reason: "manual" }
      })
      expect(delivered.headers["x-garrison-event"]).toBe("server.restarted")
      expect(verifySignature(http.secret, String(delivered.headers["x-garrison-signature"]), delivered.body)).toBe(true)
      const chat = target.received.filter((r) => r.path === "/chat").map((r) => JSON.parse(r.body) as { embeds: ReadonlyArray<{ title: string; color: number; footer: { text: string } }> })
      const restarted = chat.find((m) => m.embeds[0]!.title.includes("restarted"))!
      expect(restarted.embeds[0]).toMatchObject({ title: "Server Main restarted by an admin", color: 0x2ecc71, footer: { text: "Garrison · Main" } })
      expect((yield* call("POST", `/api/servers/${id}/stop`, { as: ADMIN })).status).toBe(200)
    }).pipe(Effect.provide(controller())))
})
