import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Option, Stream, TestClock } from "effect"
import type { AnyEvent, EventBusShape } from "../../src/events/EventBus.js"
import { Hooks, BeforeServerStart } from "../../src/kernel/Hooks.js"
import { RconUnreachable } from "../../src/rcon/RconClient.js"
import type { ProcessExit, ProcessHandle, ProcessLauncherShape } from "../../src/servers/ProcessLauncher.js"
import { SpawnFailed } from "../../src/servers/ProcessLauncher.js"
import type { ProcessRecord, ProcessRecordsShape } from "../../src/servers/ProcessRecords.js"
import * as ServerActor from "../../src/servers/ServerActor.js"
import { makeServerEntry, type ServerEntry } from "../../src/servers/ServerEntry.js"

/** A process the test controls: which signals it obeys, and when it exits. */
interface FakeProcess {
  readonly pid: number
  readonly exit: Deferred.Deferred<ProcessExit>
  readonly signals: Array<string>
  obeys: ReadonlyArray<"SIGTERM" | "SIGKILL">
}

const fakeLauncher = () => {
  const processes: Array<FakeProcess> = []
  let failuresLeft = 0
  let nextPid = 1000
  const handleOf = (p: FakeProcess): ProcessHandle => ({
    pid: p.pid,
    startToken: `t${p.pid}`,
    exited: Deferred.await(p.exit),
    signal: (signal) =>
      Effect.suspend(() => {
        p.signals.push(signal)
        return p.obeys.includes(signal) ? Deferred.succeed(p.exit, { code: null, signal }) : Effect.void
      }).pipe(Effect.asVoid)
  })
  const launcher: ProcessLauncherShape = {
    spawn: (entry) =>
      Effect.gen(function* () {
        if (failuresLeft > 0) {
          failuresLeft--
          return yield* Effect.fail(new SpawnFailed({ executable: entry.executable, message: "ENOENT" }))
        }
        const p: FakeProcess = { pid: nextPid++, exit: yield* Deferred.make<ProcessExit>(), signals: [], obeys: ["SIGTERM", "SIGKILL"] }
        processes.push(p)
        return handleOf(p)
      }),
    attach: (pid, token) =>
      Effect.sync(() => {
        const p = processes.find((x) => x.pid === pid && `t${x.pid}` === token)
        return p ? Option.some(handleOf(p)) : Option.none()
      }),
    usage: () => Effect.succeed(Option.some({ cpu: 12.5, memoryBytes: 1_000_000 }))
  }
  return {
    launcher,
    processes,
    failNextSpawns: (n: number) => void (failuresLeft = n),
    /** The newest process dies on its own. */
    crash: (code = 1) => Deferred.succeed(processes[processes.length - 1]!.exit, { code, signal: null }),
    adopt: (pid: number) =>
      Effect.map(Deferred.make<ProcessExit>(), (exit) => {
        processes.push({ pid, exit, signals: [], obeys: ["SIGTERM"] })
      })
  }
}

const memoryRecords = () => {
  const map = new Map<string, ProcessRecord>()
  const records: ProcessRecordsShape = {
    get: (id) => Effect.sync(() => Option.fromNullable(map.get(id))),
    serverIds: Effect.sync(() => new Set(map.keys())),
    set: (id, r) => Effect.sync(() => void map.set(id, r)),
    clear: (id) => Effect.sync(() => void map.delete(id))
  }
  return { records, map }
}

const recordingBus = () => {
  const events: Array<AnyEvent> = []
  const bus: EventBusShape = {
    publish: (event) => Effect.sync(() => void events.push(event)),
    register: () => Effect.void,
    stream: () => Stream.empty
  }
  return { bus, events, tags: () => events.map((e) => e._tag) }
}

const entry = (overrides: Partial<ServerEntry> = {}) =>
  makeServerEntry({ id: "s1", name: "Chernarus #1", installDir: "/srv/dayz", ...overrides })

const setup = (overrides: Partial<ServerEntry> = {}) =>
  Effect.gen(function* () {
    const launcher = fakeLauncher()
    const { records, map } = memoryRecords()
    const bus = recordingBus()
    const hooks = Hooks.make()
    const actor = yield* ServerActor.make(entry(overrides), {
      launcher: launcher.launcher,
      records,
      bus: bus.bus,
      hooks,
      connectRcon: () => Effect.fail(new RconUnreachable({ host: "127.0.0.1", port: 2306, message: "no rcon in this test" }))
    })
    return { actor, launcher, records, recordsMap: map, bus, hooks }
  })

/** Lets forked fibers (watchers, the mailbox) run. */
const settle = Effect.repeatN(Effect.yieldNow(), 20)

describe("ServerActor", () => {
  it.scoped("starts, refuses a second start, and stops with SIGTERM when there is no RCON session", () =>
    Effect.gen(function* () {
      const { actor, launcher, bus, recordsMap } = yield* setup()
      yield* actor.start
      const running = yield* actor.state
      expect(running.status).toBe("running")
      expect(running.pid).toBe(1000)
      expect(recordsMap.get("s1")?.pid).toBe(1000)
      const again = yield* Effect.flip(actor.start)
      expect(again.reason).toBe("already-running")

      yield* actor.stop
      expect((yield* actor.state).status).toBe("stopped")
      expect(launcher.processes[0]!.signals).toEqual(["SIGTERM"])
      expect(recordsMap.has("s1")).toBe(false)
      expect(bus.tags()).toEqual(["ServerStarting", "ServerStarted", "ServerStopped"])
      expect((bus.events[2] as unknown as { how: string }).how).toBe("sigterm")
    })
  )

  it.scoped("escalates to SIGKILL when the process ignores SIGTERM for the configured wait", () =>
    Effect.gen(function* () {
      const { actor, launcher, bus } = yield* setup({ stop: { shutdownWaitMs: 30_000, terminateWaitMs: 15_000 } })
      yield* actor.start
      launcher.processes[0]!.obeys = ["SIGKILL"]
      const stopping = yield* Effect.fork(actor.stop)
      yield* settle
      expect((yield* actor.state).status).toBe("stopping")
      yield* TestClock.adjust("14 seconds")
      expect(launcher.processes[0]!.signals).toEqual(["SIGTERM"])
      yield* TestClock.adjust("1 second")
      yield* Fiber.join(stopping)
      expect(launcher.processes[0]!.signals).toEqual(["SIGTERM", "SIGKILL"])
      expect((bus.events.at(-1) as unknown as { how: string }).how).toBe("sigkill")
    })
  )

  it.scoped("reports a process that survives SIGKILL instead of pretending it stopped", () =>
    Effect.gen(function* () {
      const { actor, launcher } = yield* setup()
      yield* actor.start
      launcher.processes[0]!.obeys = []
      const stopping = yield* Effect.fork(Effect.flip(actor.stop))
      yield* settle
      yield* TestClock.adjust("15 seconds")
      yield* TestClock.adjust("5 seconds")
      const error = yield* Fiber.join(stopping)
      expect(error.reason).toBe("stop-failed")
    })
  )

  it.scoped("the watchdog restarts a crashed server with a growing backoff", () =>
    Effect.gen(function* () {
      const { actor, launcher, bus } = yield* setup()
      yield* actor.start

      yield* launcher.crash(1)
      yield* settle
      const crashed = yield* actor.state
      expect(crashed.status).toBe("crashed")
      expect(crashed.lastError).toBe("exited with code 1")
      expect(crashed.consecutiveCrashes).toBe(1)

      yield* TestClock.adjust("4999 millis")
      expect((yield* actor.state).status).toBe("crashed")
      yield* TestClock.adjust("1 millis")
      yield* settle
      expect((yield* actor.state).status).toBe("running")
      expect(launcher.processes).toHaveLength(2)

      // A second crash soon after: twice the wait.
      yield* launcher.crash(1)
      yield* settle
      yield* TestClock.adjust("9 seconds")
      expect((yield* actor.state).status).toBe("crashed")
      yield* TestClock.adjust("1 second")
      yield* settle
      expect((yield* actor.state).status).toBe("running")
      expect((yield* actor.state).consecutiveCrashes).toBe(2)
      expect(bus.tags().filter((t) => t === "ServerCrashed")).toHaveLength(2)
      expect(bus.tags().filter((t) => t === "ServerRestarted")).toHaveLength(2)

      // After running long enough, a crash starts the backoff afresh.
      yield* TestClock.adjust("11 minutes")
      yield* launcher.crash(1)
      yield* settle
      expect((yield* actor.state).consecutiveCrashes).toBe(1)
    })
  )

  it.scoped("a crash with the watchdog off stays crashed; stop calls a pending watchdog off", () =>
    Effect.gen(function* () {
      const off = yield* setup({ watchdog: false })
      yield* off.actor.start
      yield* off.launcher.crash(3)
      yield* settle
      yield* TestClock.adjust("1 hour")
      yield* settle
      expect((yield* off.actor.state).status).toBe("crashed")
      expect(off.launcher.processes).toHaveLength(1)

      const on = yield* setup()
      yield* on.actor.start
      yield* on.launcher.crash(1)
      yield* settle
      yield* on.actor.stop
      yield* TestClock.adjust("1 hour")
      yield* settle
      expect((yield* on.actor.state).status).toBe("stopped")
      expect(on.launcher.processes).toHaveLength(1)
    })
  )

  it.scoped("restart retries up to 3 times with a growing wait, then reports failure", () =>
    Effect.gen(function* () {
      const { actor, launcher, bus } = yield* setup()
      yield* actor.start
      launcher.failNextSpawns(2)
      const restarting = yield* Effect.fork(actor.restart("manual"))
      yield* settle
      expect(launcher.processes[0]!.signals).toEqual(["SIGTERM"])
      yield* TestClock.adjust("5 seconds")
      yield* settle
      yield* TestClock.adjust("10 seconds")
      yield* Fiber.join(restarting)
      expect((yield* actor.state).status).toBe("running")
      const restarted = bus.events.filter((e) => e._tag === "ServerRestarted") as unknown as Array<{ ok: boolean; attempts: number }>
      expect(restarted).toEqual([expect.objectContaining({ ok: true, attempts: 3 })])

      launcher.failNextSpawns(3)
      const failing = yield* Effect.fork(Effect.flip(actor.restart("manual")))
      yield* settle
      yield* TestClock.adjust("5 seconds")
      yield* settle
      yield* TestClock.adjust("10 seconds")
      const error = yield* Fiber.join(failing)
      expect(error.reason).toBe("restart-failed")
      expect((yield* actor.state).status).toBe("stopped")
      expect(bus.events.at(-1)).toEqual(expect.objectContaining({ _tag: "ServerRestarted", ok: false, attempts: 3 }))
    })
  )

  it.scoped("a before-start hook that fails refuses the start and names the plugin", () =>
    Effect.gen(function* () {
      const { actor, hooks, launcher } = yield* setup()
      hooks.register("bans", BeforeServerStart.handle(() => Effect.fail("ban.txt is read-only")), (yield* Effect.context<never>()))
      const error = yield* Effect.flip(actor.start)
      expect(error.reason).toBe("hook-failed")
      expect(error.message).toContain("bans")
      expect(error.message).toContain("ban.txt is read-only")
      expect((yield* actor.state).status).toBe("stopped")
      expect(launcher.processes).toHaveLength(0)
    })
  )

  it.scoped("reattaches to a recorded process that still runs, without spawning", () =>
    Effect.gen(function* () {
      const launcher = fakeLauncher()
      yield* launcher.adopt(4242)
      const { records } = memoryRecords()
      yield* records.set("s1", { pid: 4242, startToken: "t4242", startedAt: 0 })
      const bus = recordingBus()
      const actor = yield* ServerActor.make(entry(), {
        launcher: launcher.launcher,
        records,
        bus: bus.bus,
        hooks: Hooks.make(),
        connectRcon: () => Effect.fail(new RconUnreachable({ host: "h", port: 1, message: "none" }))
      })
      const state = yield* actor.state
      expect(state.status).toBe("running")
      expect(state.pid).toBe(4242)
      expect(bus.events[0]).toEqual(expect.objectContaining({ _tag: "ServerStarted", reattached: true }))
      expect(launcher.processes).toHaveLength(1)
    })
  )

  it.scoped("a recorded process that is gone counts as a crash, and the watchdog starts the server", () =>
    Effect.gen(function* () {
      const launcher = fakeLauncher()
      const { records, map } = memoryRecords()
      yield* records.set("s1", { pid: 999, startToken: "stale", startedAt: 0 })
      const actor = yield* ServerActor.make(entry(), {
        launcher: launcher.launcher,
        records,
        bus: recordingBus().bus,
        hooks: Hooks.make(),
        connectRcon: () => Effect.fail(new RconUnreachable({ host: "h", port: 1, message: "none" }))
      })
      expect((yield* actor.state).status).toBe("crashed")
      expect(map.has("s1")).toBe(false)
      yield* TestClock.adjust("5 seconds")
      yield* settle
      expect((yield* actor.state).status).toBe("running")
    })
  )
})
