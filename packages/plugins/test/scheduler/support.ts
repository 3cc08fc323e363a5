/**
 * Test support for the scheduler: fake servers (an actor that records what
 * it was asked, with the `Clock` time), a stub "servers" plugin providing
 * the runtime's `Supervisor` over them, the kernel built with `Runtime.layer`
 * on a temporary data directory, and a header authenticator for HTTP tests.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import type { HttpMethod } from "@effect/platform/HttpMethod"
import {
  ActorError, 
  GarrisonConfig,
  initialState,
  on,
  Plugin,
  Runtime,
  type ServerActor,
  type ServerStatus,
  Supervisor
} from "@garrison/runtime"
import { Clock, Effect, Exit, Layer, Logger, LogLevel, Option, Queue, Scope, Stream } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as NodePath from "node:path"
import { afterAll } from "vitest"
import { ScheduledJobRan, SchedulerPlugin } from "../../src/scheduler/index.js"
import { TestAuthPlugin as HeaderAuthPlugin } from "../../../../test/support/TestAuthPlugin.js"

export interface Call {
  readonly serverId: string
  /** ISO time from `Clock` when the actor was asked. */
  readonly at: string
  readonly op: "rcon" | "restart" | "stop" | "lock" | "unlock"
  readonly arg?: string
}

export interface FakeServer {
  status: ServerStatus
  /** What `players` answers. */
  playersReply: string
  /** Every RCON command fails (players too) while set. */
  rconFails: boolean
}

export interface Fleet {
  readonly servers: ReadonlyMap<string, FakeServer>
  /** Everything any fake actor was asked, in order; `players` queries are left out. */
  readonly calls: Queue.Queue<Call>
  /** Every `ScheduledJobRan` event, in order. */
  readonly ran: Queue.Queue<ScheduledJobRan>
  /** The stub "servers" plugin (Supervisor over the fakes) plus a recorder of scheduler events. */
  readonly plugin: Plugin.Plugin<Supervisor>
}

const fakeActor = (serverId: string, server: FakeServer, calls: Queue.Queue<Call>): ServerActor.ServerActor => {
  const record = (op: Call["op"], arg?: string) =>
    Effect.flatMap(Clock.currentTimeMillis, (ms) =>
      Queue.offer(calls, { serverId, at: new Date(ms).toISOString(), op, ...(arg === undefined ? {} : { arg }) })
    )
  return {
    serverId,
    entry: Effect.dieMessage("the scheduler never reads entries"),
    state: Effect.sync(() => ({ ...initialState(serverId), status: server.status })),
    changes: Stream.empty,
    start: Effect.sync(() => void (server.status = "running")),
    stop: Effect.zipRight(record("stop"), Effect.sync(() => void (server.status = "stopped"))),
    restart: (reason) => record("restart", reason),
    setLocked: (locked) => record(locked ? "lock" : "unlock"),
    update: () => Effect.void,
    rcon: (command) =>
      server.rconFails
        ? Effect.fail(new ActorError({ serverId, reason: "rcon-failed", message: "RCON timed out" }))
        : command === "players"
          ? Effect.succeed(server.playersReply)
          : Effect.as(record("rcon", command), ""),
    retire: Effect.void
  }
}

export const makeFleet = (statuses: Readonly<Record<string, ServerStatus>>) =>
  Effect.gen(function* () {
    const calls = yield* Queue.unbounded<Call>()
    const ran = yield* Queue.unbounded<ScheduledJobRan>()
    const servers = new Map<string, FakeServer>()
    const actors = new Map<string, ServerActor.ServerActor>()
    for (const [id, status] of Object.entries(statuses)) {
      const server: FakeServer = { status, playersReply: "Players on server:\n(0 players in total)", rconFails: false }
      servers.set(id, server)
      actors.set(id, fakeActor(id, server, calls))
    }
    const plugin = Plugin.make({
      id: "servers",
      layer: Layer.succeed(Supervisor, {
        ensure: () => Effect.dieMessage("not in these tests"),
        get: (serverId) => Effect.succeed(Option.fromNullable(actors.get(serverId))),
        find: (serverId) => Effect.succeed(Option.fromNullable(actors.get(serverId))),
        all: Effect.succeed([...actors.values()]),
        remove: () => Effect.void
      }),
      events: [on(ScheduledJobRan, (event) => Queue.offer(ran, event))]
    })
    return { servers, calls, ran, plugin } satisfies Fleet
  })

const created: Array<string> = []
afterAll(() => {
  for (const dir of created) Fs.rmSync(dir, { recursive: true, force: true })
})

export const tempDataDir = (): string => {
  const dir = Fs.mkdtempSync(NodePath.join(Os.tmpdir(), "garrison-scheduler-"))
  created.push(dir)
  return dir
}

const quiet = Logger.minimumLogLevel(LogLevel.Error)

/** The kernel with the fleet's servers stub and the scheduler (its runner started). */
export const runtimeLayer = (fleet: Fleet, dataDir: string) =>
  Runtime.layer([fleet.plugin, SchedulerPlugin], { scheduledBackups: false }).pipe(
    Layer.provide(GarrisonConfig.layerWith({ dataDir })),
    Layer.provide(quiet)
  )

/** Starts a controller-like runtime in its own scope, so a test can stop it and start another. */
export const startRuntime = (fleet: Fleet, dataDir: string) =>
  Effect.gen(function* () {
    const scope = yield* Scope.make()
    const context = yield* Layer.buildWithScope(runtimeLayer(fleet, dataDir), scope)
    return { context, stop: Scope.close(scope, Exit.void) }
  })

/**
 * Lets forked fibers (the runner, its firings, event handlers) run to a
 * standstill without moving the clock: repeated yields, never a sleep.
 */
export const settle = Effect.repeatN(Effect.yieldNow(), 200)

// The shared header authenticator: `Authorization: Bearer test:<name>:<perm,perm>`.
export { HeaderAuthPlugin }

export interface Reply {
  readonly status: number
  readonly body: unknown
}

/** `as` is `"<user>:<perm,perm>"`. */
export const call = (method: HttpMethod, path: string, options: { readonly as?: string; readonly json?: unknown } = {}) =>
  Effect.gen(function* () {
    let request = HttpClientRequest.make(method)(path)
    if (options.as !== undefined) request = HttpClientRequest.bearerToken(request, `test:${options.as}`)
    if (options.json !== undefined) request = HttpClientRequest.bodyUnsafeJson(request, options.json)
    const response = yield* HttpClient.execute(request)
    const text = yield* response.text
    return { status: response.status, body: text.length === 0 ? undefined : (JSON.parse(text) as unknown) } satisfies Reply
  }).pipe(Effect.scoped)
