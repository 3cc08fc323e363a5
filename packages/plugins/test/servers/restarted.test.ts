/**
 * `POST /api/servers/:id/restart` publishes `ServerRestarted` (webhooks:
 * `server.restarted`) by the time it answers, once; a refused restart
 * (unknown server, no permission) publishes nothing. Over the real servers
 * plugin and fake processes. (The actor's own restarts, watchdog and
 * failed attempts included, are tested in the runtime's ServerActor.test.ts.)
 */
import { describe, expect, it } from "@effect/vitest"
import { EventBus, PublishedEvents, ServerRestarted } from "@garrison/runtime"
import { Chunk, Effect, type Layer, Stream } from "effect"
import { call, fakeInstall, serversController } from "./support.js"

const OPS = "ops:server.deploy,server.start,server.stop,server.restart"

type ServersController = ReturnType<typeof serversController>
/** The kernel provides the published-event catalogue; its layer's type does not list it (the runtime's `KernelServices`). */
const controller = () =>
  serversController() as Layer.Layer<Layer.Layer.Success<ServersController> | PublishedEvents, Layer.Layer.Error<ServersController>>

describe("restart route and ServerRestarted", () => {
  it.scopedLive("a manual restart publishes ServerRestarted (ok, one attempt, manual); a refused one publishes nothing", () =>
    Effect.gen(function* () {
      const bus = yield* EventBus
      // Live from here on, in the order published.
      const restarts = yield* bus.subscribe(ServerRestarted)
      const made = yield* call("POST", "/api/servers", { as: OPS, json: { name: "Main", installDir: fakeInstall() } })
      expect(made.status).toBe(201)
      const id = String(made.body.id)

      expect((yield* call("POST", "/api/servers/nope/restart", { as: OPS })).status).toBe(404)
      expect((yield* call("POST", `/api/servers/${id}/restart`, { as: "v:server.view" })).status).toBe(403)
      expect((yield* call("POST", `/api/servers/${id}/start`, { as: OPS })).status).toBe(200)
      // A marker: anything the refused calls or the start published would come before it.
      const marker = new ServerRestarted({ serverId: "marker", name: "marker", ok: true, attempts: 1, reason: "manual" })
      yield* bus.publish(marker)

      const restarted = yield* call("POST", `/api/servers/${id}/restart`, { as: OPS })
      expect(restarted.status).toBe(200)
      expect(restarted.body.status).toBe("running")

      const [first, event] = Chunk.toReadonlyArray(yield* Stream.runCollect(Stream.take(restarts, 2)).pipe(Effect.timeout("5 seconds")))
      expect(first).toBe(marker)
      expect({ ...event }).toEqual({ _tag: "ServerRestarted", serverId: id, name: "Main", ok: true, attempts: 1, reason: "manual" })

      // As webhooks see it.
      const declared = (yield* PublishedEvents).byTag("ServerRestarted")!
      expect([declared.name, declared.owner]).toEqual(["server.restarted", "servers"])
      expect(declared.serverId(event!)).toBe(id)
      expect(declared.severity(event!)).toBe("success")
      expect(declared.summary(event!)).toBe("Server Main restarted by an admin")
      expect(declared.data(event!)).toEqual({ serverId: id, name: "Main", ok: true, attempts: 1, reason: "manual" })

      expect((yield* call("POST", `/api/servers/${id}/stop`, { as: OPS })).status).toBe(200)
    }).pipe(Effect.provide(controller()))
  )
})
