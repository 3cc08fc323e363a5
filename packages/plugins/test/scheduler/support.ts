/**
 * Test support for the scheduler: fake servers (an actor that records what
 * it was asked, with the `Clock` time), a stub "servers" plugin providing
 * the runtime's `Supervisor` over them, and the kernel or the controller
 * (see `../support/controller.ts`) around them.
 */
import { ActorError, initialState, makeServerEntry, on, type ServerStatus } from "@garrison/runtime"
import { Clock, Effect, LogLevel, Queue } from "effect"
import { ScheduledJobRan, SchedulerPlugin } from "../../src/scheduler/index.js"
import { startKernel, testController } from "../support/controller.js"
import { fakeActor, NO_PLAYERS, stubServersPlugin } from "../support/fakeServers.js"
import { tempDir } from "../support/tempDir.js"

export { call, type Reply } from "../support/controller.js"

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
  readonly plugin: ReturnType<typeof stubServersPlugin>
}

const actorOf = (serverId: string, server: FakeServer, calls: Queue.Queue<Call>) => {
  const record = (op: Call["op"], arg?: string) =>
    Effect.flatMap(Clock.currentTimeMillis, (ms) =>
      Queue.offer(calls, { serverId, at: new Date(ms).toISOString(), op, ...(arg === undefined ? {} : { arg }) })
    )
  return fakeActor(serverId, {
    // The scheduler checks that a server exists by its stored entry; it never runs it.
    entry: Effect.succeed(makeServerEntry({ id: serverId, name: serverId, installDir: `/srv/${serverId}` })),
    state: Effect.sync(() => ({ ...initialState(serverId), status: server.status })),
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
  })
}

export const makeFleet = (statuses: Readonly<Record<string, ServerStatus>>) =>
  Effect.gen(function* () {
    const calls = yield* Queue.unbounded<Call>()
    const ran = yield* Queue.unbounded<ScheduledJobRan>()
    const servers = new Map<string, FakeServer>()
    const actors = new Map<string, ReturnType<typeof actorOf>>()
    for (const [id, status] of Object.entries(statuses)) {
      const server: FakeServer = { status, playersReply: NO_PLAYERS, rconFails: false }
      servers.set(id, server)
      actors.set(id, actorOf(id, server, calls))
    }
    const plugin = stubServersPlugin(actors, { events: [on(ScheduledJobRan, (event) => Queue.offer(ran, event))] })
    return { servers, calls, ran, plugin } satisfies Fleet
  })

export const tempDataDir = (): string => tempDir("garrison-scheduler-")

/** Starts a controller-like runtime in its own scope, so a test can stop it and start another. */
export const startRuntime = (fleet: Fleet, dataDir: string) => startKernel([fleet.plugin, SchedulerPlugin], dataDir)

/** The controller over the fleet's servers stub and the scheduler. */
export const schedulerController = (fleet: Fleet) =>
  testController([fleet.plugin, SchedulerPlugin], { dataPrefix: "garrison-scheduler-", logLevel: LogLevel.Error })

/**
 * Lets forked fibers (the runner, its firings, event handlers) run to a
 * standstill without moving the clock: repeated yields, never a sleep.
 */
export const settle = Effect.repeatN(Effect.yieldNow(), 200)
