/**
 * The agent's HTTP server in process (real clock, real files, a fake mod)
 * and the typed client the controller uses: success `{ok: true, data}`,
 * every failure as its own class (401, 400 naming the field, 422 the mod's
 * error, 504 the time-out, unreachable), path and query parameters as the
 * mod receives them, and the one `{ok: false, error}` shape on the wire for
 * 401, 400, 404, 405, 413 and 415.
 */
import { FetchHttpClient, HttpServer } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Exit, Layer, Logger, LogLevel, Redacted } from "effect"
import * as NodePath from "node:path"
import {
  actionsByAdminRoute,
  AgentClient,
  AgentInvalidInput,
  AgentModError,
  AgentTimedOut,
  AgentUnauthorized,
  AgentUnreachable
} from "../src/index.js"
import * as Server from "../src/server/Server.js"
import type { AgentSettings } from "../src/server/Settings.js"
import { type Command, fakeMod, profilesFolder } from "./support.js"

const KEY = "unit-test-key-0123456789"
const A = "76561198012345678"

const settings = (profilesDir: string, overrides: Partial<AgentSettings> = {}): AgentSettings => ({
  port: 0,
  host: "127.0.0.1",
  key: Redacted.make(KEY),
  production: false,
  profilesDir,
  modDir: "Garrison",
  commandTimeoutMs: 400,
  commandSuffix: ".json",
  responseSuffix: ".json",
  pollIntervalMs: 200,
  modStaleAfterMs: 10_000,
  maxPending: 100,
  heartbeatFile: "heartbeat.json",
  logLevel: LogLevel.None,
  ...overrides
})

/** Starts an agent on a free port with a fake mod answering `answer`; gives its base URL and the mod. */
const startAgent = (answer?: (command: Command) => ReturnType<Parameters<typeof fakeMod>[1] & {}>) =>
  Effect.gen(function* () {
    const profiles = profilesFolder()
    const context = yield* Layer.build(Server.layer(settings(profiles), "test").pipe(Layer.provide(Logger.minimumLogLevel(LogLevel.None))))
    const address = Context.get(context, HttpServer.HttpServer).address
    if (address._tag !== "TcpAddress") throw new Error("no TCP address")
    const mod = fakeMod(NodePath.join(profiles, "Garrison"), answer)
    yield* Effect.addFinalizer(() => Effect.sync(mod.stop))
    return { url: `http://127.0.0.1:${address.port}`, mod, profiles }
  })

const raw = (url: string, init: RequestInit & { key?: string | null } = {}) =>
  Effect.promise(async () => {
    const headers = new Headers(init.headers)
    if (init.key !== null) headers.set("authorization", `Bearer ${init.key ?? KEY}`)
    const response = await fetch(url, { ...init, headers })
    const text = await response.text()
    return { status: response.status, headers: response.headers, body: text === "" ? undefined : (JSON.parse(text) as unknown) }
  })

const json = { "content-type": "application/json" }

describe("agent server and client", () => {
  it.scopedLive("runs actions through the typed client: {ok: true, data}, path and query parameters as the mod gets them", () =>
    Effect.gen(function* () {
      const { url, mod } = yield* startAgent()
      const client = yield* AgentClient.make({ baseUrl: url, key: KEY })

      expect(yield* client.api.player.heal({ payload: { platformId: A } })).toEqual({ ok: true, data: { echo: { platformId: A } } })
      expect(yield* client.call("player.teleport", { platformId: A, x: 1, y: 2, z: 3 })).toEqual({ echo: { platformId: A, x: 1, y: 2, z: 3 } })
      expect(yield* client.call(actionsByAdminRoute.get("world/weather")!, { overcast: 0, rain: 0.5, fog: 0, snow: 0, wind: 1 })).toEqual({
        echo: { overcast: 0, rain: 0.5, fog: 0, snow: 0, wind: 1 }
      })
      // A query's numbers and coords arrive decoded; path parameters are params too.
      yield* client.api.data.nearbyLootAt({ urlParams: { coords: [1, 2.5, -3], radius: 50 } })
      yield* client.call("data.nearby-loot", { platformId: A, radius: 20, limit: 3 })
      yield* client.call("bans.remove", { id: "ban-17" })
      yield* client.api.bans.check({ path: { platformId: A } })
      yield* client.api.world.sunny()
      expect(mod.seen.slice(-5).map((c) => [c.action, c.params])).toEqual([
        ["data.nearby-loot-at", { coords: [1, 2.5, -3], radius: 50 }],
        ["data.nearby-loot", { platformId: A, radius: 20, limit: 3 }],
        ["bans.remove", { id: "ban-17" }],
        ["bans.check", { platformId: A }],
        ["world.sunny", {}]
      ])

      const health = yield* client.health
      expect(health).toMatchObject({ status: "ok", version: "test", mod: { answering: true, pending: 0 } })
      expect(health.queueDir).toMatch(/Garrison[/\\]commands$/)

      const wire = yield* raw(`${url}/player/heal`, { method: "POST", headers: json, body: JSON.stringify({ platformId: A }) })
      expect(wire.status).toBe(200)
      expect(wire.body).toEqual({ ok: true, data: { echo: { platformId: A } } })
      expect(wire.headers.get("x-command-id")).toBe(mod.seen.at(-1)!.id)
    }).pipe(Effect.provide(FetchHttpClient.layer))
  )

  it.scopedLive("tells each failure apart: AgentUnauthorized, AgentInvalidInput, AgentModError, AgentTimedOut, AgentUnreachable", () =>
    Effect.gen(function* () {
      const { url, mod } = yield* startAgent((c) =>
        c.action === "world.sunny" ? "ignore" : c.action === "player.kill" ? { ok: false, error: "player 76561198012345678 is not online" } : { ok: true, data: null }
      )
      const good = yield* AgentClient.make({ baseUrl: url, key: KEY })
      const wrong = yield* AgentClient.make({ baseUrl: url, key: "unit-test-key-0123456780" })
      const none = yield* AgentClient.make({ baseUrl: url, key: undefined })

      expect(yield* Effect.exit(wrong.api.player.heal({ payload: { platformId: A } }))).toEqual(Exit.fail(new AgentUnauthorized({ error: "Authorization required" })))
      expect(yield* Effect.exit(none.call("player.heal", { platformId: A }))).toEqual(Exit.fail(new AgentUnauthorized({ error: "Authorization required" })))
      expect(yield* Effect.exit(wrong.health)).toEqual(Exit.fail(new AgentUnauthorized({ error: "Authorization required" })))

      // Bad input is refused before it is sent, in the words the agent uses.
      expect(yield* Effect.exit(good.call("world.weather", { overcast: 0, rain: 1.5, fog: 0, snow: 0, wind: 0 }))).toEqual(
        Exit.fail(new AgentInvalidInput({ error: "rain: must be a number from 0.0 to 1.0", field: "rain" }))
      )
      expect(yield* Effect.exit(good.api.spawn.itemAt({ payload: { itemClass: "Apple", coords: [1, 2] as unknown as readonly [number, number, number] } }))).toEqual(
        Exit.fail(new AgentInvalidInput({ error: "coords: must be [x, y, z], three finite numbers", field: "coords" }))
      )
      expect(yield* Effect.exit(good.call("no.such", {}))).toEqual(Exit.fail(new AgentInvalidInput({ error: 'action: unknown action "no.such"', field: "action" })))

      const killed = yield* Effect.exit(good.call("player.kill", { platformId: A }))
      expect(killed).toEqual(Exit.fail(new AgentModError({ error: "player 76561198012345678 is not online", id: mod.seen.at(-1)!.id })))

      const timedOut = yield* Effect.exit(good.api.world.sunny())
      expect(Exit.isFailure(timedOut) && timedOut.cause._tag === "Fail" && timedOut.cause.error).toBeInstanceOf(AgentTimedOut)
      expect(Exit.isFailure(timedOut) && timedOut.cause._tag === "Fail" && timedOut.cause.error.message).toBe("Command timed out after 400ms")

      const gone = yield* AgentClient.make({ baseUrl: "http://127.0.0.1:9", key: KEY })
      const unreachable = yield* Effect.exit(gone.call("player.heal", { platformId: A }))
      expect(Exit.isFailure(unreachable) && unreachable.cause._tag === "Fail" && unreachable.cause.error).toBeInstanceOf(AgentUnreachable)
      const unreachableTyped = yield* Effect.exit(gone.api.player.heal({ payload: { platformId: A } }))
      expect(Exit.isFailure(unreachableTyped) && unreachableTyped.cause._tag === "Fail" && unreachableTyped.cause.error).toBeInstanceOf(AgentUnreachable)
    }).pipe(Effect.provide(FetchHttpClient.layer))
  )

  it.scopedLive("answers every refusal in the one {ok: false, error} shape, and bad input never reaches the mod", () =>
    Effect.gen(function* () {
      const { url, mod } = yield* startAgent()
      const post = (path: string, body: string, headers: Record<string, string> = json) => raw(`${url}${path}`, { method: "POST", headers, body })

      expect(yield* raw(`${url}/health`, { key: null })).toMatchObject({ status: 401, body: { ok: false, error: "Authorization required" } })
      expect(yield* raw(`${url}/player/heal`, { key: "wrong" })).toMatchObject({ status: 401, body: { ok: false, error: "Authorization required" } })
      expect(yield* raw(`${url}/nowhere`, { key: null })).toMatchObject({ status: 401 })

      const weather = { overcast: 0, rain: 1.5, fog: 0, snow: 0, wind: 0 }
      expect(yield* post("/world/weather", JSON.stringify(weather))).toEqual(
        expect.objectContaining({ status: 400, body: { ok: false, error: "rain: must be a number from 0.0 to 1.0", field: "rain" } })
      )
      expect((yield* post("/spawn/item-at", JSON.stringify({ itemClass: "Apple", coords: [1, 2] }))).body).toEqual({
        ok: false,
        error: "coords: must be [x, y, z], three finite numbers",
        field: "coords"
      })
      expect((yield* post("/player/spawnItem", JSON.stringify({ platformId: A, itemClass: "M4A1", quantity: 0 }))).body).toMatchObject({ field: "quantity" })
      expect((yield* post("/player/heal", "{ nope")).body).toEqual({ ok: false, error: "the body is not valid JSON", field: "body" })
      expect((yield* post("/player/heal", "")).body).toEqual({ ok: false, error: "the body must be a JSON object", field: "body" })
      expect((yield* post("/player/heal", JSON.stringify([1]))).body).toEqual({ ok: false, error: "the body must be a JSON object", field: "body" })
      expect((yield* raw(`${url}/data/nearby-loot?platformId=${A}&radius=abc`)).body).toEqual({ ok: false, error: "radius: must be a number", field: "radius" })
      expect((yield* raw(`${url}/bans/check/not-a-player`)).body).toMatchObject({ ok: false, field: "platformId" })
      expect(yield* post("/player/heal", "platformId=1", { "content-type": "application/x-www-form-urlencoded" })).toMatchObject({
        status: 415,
        body: { ok: false, error: "Content-Type must be application/json" }
      })
      expect(yield* post("/player/heal", JSON.stringify({ platformId: A, pad: "x".repeat(70_000) }))).toMatchObject({ status: 413, body: { ok: false } })
      expect(yield* raw(`${url}/player/heall`, { method: "POST" })).toMatchObject({ status: 404, body: { ok: false, error: "Not found: POST /player/heall" } })
      const wrongMethod = yield* raw(`${url}/player/heal`)
      expect(wrongMethod).toMatchObject({ status: 405, body: { ok: false, error: "Method not allowed: /player/heal takes POST" } })
      expect(wrongMethod.headers.get("allow")).toBe("POST")

      // None of it reached the mod; a good command after it does.
      expect(mod.seen).toEqual([])
      expect((yield* post("/player/heal", JSON.stringify({ platformId: A }))).status).toBe(200)
      expect(mod.seen.map((c) => c.action)).toEqual(["player.heal"])
    })
  )
})
