/**
 * Test support for the scheduler: stub servers (the testkit's `StubFleet`,
 * recording what they were asked with the `Clock` time), a recorder of the
 * scheduler's events, and the kernel or the controller around them.
 */
import { type AnyPlugin, on, type ServerStatus } from "@garrison/runtime"
import { startKernel, StubFleet, tempDir, testController } from "@garrison/testkit"
import { Effect, LogLevel, Queue } from "effect"
import { ScheduledJobRan, SchedulerPlugin } from "../../src/scheduler/index.js"

export { call, type Reply } from "@garrison/testkit"

export interface Fleet {
  /** The stub servers, by id: status, `players` reply, `rconFails`. */
  readonly servers: StubFleet["servers"]
  /** Everything any server was asked since the last take, in order; `players` queries are left out. */
  readonly takeCalls: StubFleet["takeCalls"]
  /** Every `ScheduledJobRan` event, in order. */
  readonly ran: Queue.Queue<ScheduledJobRan>
  /** The stub "servers" plugin over the fleet, plus a recorder of scheduler events. */
  readonly plugin: ReturnType<StubFleet["plugin"]>
}

export const makeFleet = (statuses: Readonly<Record<string, ServerStatus>>) =>
  Effect.gen(function* () {
    const ran = yield* Queue.unbounded<ScheduledJobRan>()
    const stub = StubFleet.of(statuses)
    const plugin = stub.plugin({ events: [on(ScheduledJobRan, (event) => Queue.offer(ran, event))] })
    return { servers: stub.servers, takeCalls: stub.takeCalls, ran, plugin } satisfies Fleet
  })

export const tempDataDir = (): string => tempDir("garrison-scheduler-")

/** Starts a controller-like runtime in its own scope, so a test can stop it and start another; `extra`: more plugins (an audit recorder). */
export const startRuntime = (fleet: Fleet, dataDir: string, extra: ReadonlyArray<AnyPlugin> = []) =>
  startKernel([fleet.plugin, SchedulerPlugin, ...extra] as const, dataDir)

/** The controller over the fleet's servers stub and the scheduler. */
export const schedulerController = (fleet: Fleet) =>
  testController([fleet.plugin, SchedulerPlugin], { dataPrefix: "garrison-scheduler-", logLevel: LogLevel.Error })

/**
 * Lets forked fibers (the runner, its firings, event handlers) run to a
 * standstill without moving the clock: repeated yields, never a sleep.
 */
export const settle = Effect.repeatN(Effect.yieldNow(), 200)
