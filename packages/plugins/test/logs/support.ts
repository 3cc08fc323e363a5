/**
 * An in-process controller for the logs tests: real HTTP on a loopback port
 * (`Controller.layerTest`), a temporary data directory, a header
 * authenticator (`Authorization: Bearer test:<user>:<perm,perm>`) and a stub
 * "servers" plugin whose `Supervisor` serves fake actors with states the
 * test sets.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { Controller } from "@garrison/http"
import {
  type AnyPlugin, 
  GarrisonConfig,
  initialState,
  Plugin,
  makeServerEntry,
  type ServerEntry,
  type ServerActor,
  type ServerState,
  Supervisor
} from "@garrison/runtime"
import { Duration, Effect, Layer, Logger, LogLevel, Option, Stream } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as NodePath from "node:path"
import { afterAll } from "vitest"
import { LogsPlugin, Metrics } from "../../src/logs/index.js"
import { ServersPlugin } from "../../src/servers/index.js"
import { TestAuthPlugin as HeaderAuthPlugin } from "../../../../test/support/TestAuthPlugin.js"

// The shared header authenticator: `Authorization: Bearer test:<name>:<perm,perm>`.

const created: Array<string> = []
afterAll(() => {
  for (const dir of created) Fs.rmSync(dir, { recursive: true, force: true })
})

export const tempDir = (prefix = "garrison-logs-"): string => {
  const dir = Fs.mkdtempSync(NodePath.join(Os.tmpdir(), prefix))
  created.push(dir)
  return dir
}

/** The fake servers: an install folder each (with `profiles/`), and a state the test sets. */
export class FakeServers {
  readonly states = new Map<string, ServerState>()
  readonly entries = new Map<string, ServerEntry>()

  add(id: string): { readonly profiles: string } {
    const installDir = tempDir()
    const profiles = NodePath.join(installDir, "profiles")
    Fs.mkdirSync(profiles)
    this.entries.set(
      id,
      makeServerEntry({ id, name: `Server ${id}`, installDir, stop: { shutdownWaitMs: 1000, terminateWaitMs: 1000 } })
    )
    this.states.set(id, initialState(id))
    return { profiles }
  }

  set(id: string, patch: Partial<ServerState>): void {
    this.states.set(id, { ...(this.states.get(id) ?? initialState(id)), ...patch })
  }

  private actor(id: string): ServerActor.ServerActor {
    const notHere = Effect.dieMessage("not used by the logs tests")
    return {
      serverId: id,
      entry: Effect.sync(() => this.entries.get(id)!),
      state: Effect.sync(() => this.states.get(id) ?? initialState(id)),
      changes: Stream.empty,
      start: notHere,
      stop: notHere,
      restart: () => notHere,
      setLocked: () => notHere,
      update: () => notHere,
      rcon: () => notHere,
      retire: notHere
    }
  }

  /** Stands in for the servers plugin until it lands: same id, provides `Supervisor`. */
  plugin(): AnyPlugin {
    return Plugin.make({
      id: "servers",
      layer: Layer.succeed(Supervisor, {
        ensure: () => Effect.dieMessage("not used by the logs tests"),
        remove: () => Effect.dieMessage("not used by the logs tests"),
        get: (id) => Effect.sync(() => (this.entries.has(id) ? Option.some(this.actor(id)) : Option.none())),
        find: (id) => Effect.sync(() => (this.entries.has(id) ? Option.some(this.actor(id)) : Option.none())),
        all: Effect.sync(() => [...this.entries.keys()].map((id) => this.actor(id)))
      })
    }) as AnyPlugin
  }
}

/** A fresh controller (own data directory) with the logs plugin and the given fake servers. */
export const logsController = (servers: FakeServers) => controllerWith(servers.plugin())

/** The same, beside the real servers plugin (no entries stored, so nothing is spawned). */
export const withRealServers = () => controllerWith(ServersPlugin as AnyPlugin)

const controllerWith = (servers: AnyPlugin) => {
  const controller = Controller.layerTest([LogsPlugin as AnyPlugin, servers, HeaderAuthPlugin]).pipe(
    // Tests move the clock by days; scheduled database backups would fire on every step.
    Layer.provide(GarrisonConfig.layerWith({ dataDir: tempDir("garrison-logs-data-"), backupInterval: Duration.days(365_000) })),
    Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
  )
  // The host takes a dynamic plugin list, so its type cannot say what the plugins provide.
  return controller as Layer.Layer<Layer.Layer.Success<typeof controller> | Metrics, Layer.Layer.Error<typeof controller>>
}

export interface Reply {
  readonly status: number
  readonly body: unknown
}

export const VIEWER = "viewer:server.view"

/** `as` is `"<user>:<perm,perm>"`; null sends no credentials. */
export const get = (path: string, as: string | null = VIEWER) =>
  Effect.gen(function* () {
    let request = HttpClientRequest.get(path)
    if (as !== null) request = HttpClientRequest.bearerToken(request, `test:${as}`)
    const response = yield* HttpClient.execute(request)
    const text = yield* response.text
    return { status: response.status, body: text.length === 0 ? undefined : (JSON.parse(text) as unknown) } satisfies Reply
  }).pipe(Effect.scoped)

/** Polls in real time (for work done on fibers the test clock does not wait for). */
export const eventually = <A, E, R>(effect: Effect.Effect<A, E, R>, check: (value: A) => boolean, timeoutMs = 5000) =>
  Effect.gen(function* () {
    const deadline = Date.now() + timeoutMs
    let value = yield* effect
    while (!check(value)) {
      if (Date.now() > deadline) return yield* Effect.dieMessage(`condition not met in time; last value ${JSON.stringify(value)}`)
      yield* Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, 10)))
      value = yield* effect
    }
    return value
  })
