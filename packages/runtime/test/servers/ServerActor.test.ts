import { describe, expect, it } from "@effect/vitest"
import { eventually, sleepingUntil } from "@garrison/testkit/core"
import { Clock, Effect, Fiber, Logger, LogLevel, TestClock } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { toBattlEyeGuid, type Steam64 } from "../../src/game/PlayerIds.js"
import { Hooks, BeforeServerStart } from "../../src/kernel/Hooks.js"
import { RconUnreachable } from "../../src/rcon/RconClient.js"
import * as ServerActor from "../../src/servers/ServerActor.js"
import {
  capturingLogs,
  chanceToMisbehave,
  entry,
  fakeLauncher,
  fakeRcon,
  installWithLogs,
  memoryRecords,
  noRcon,
  playersReply,
  quietPoller,
  rconSettings,
  recordingBus,
  setup,
  sleepersUntil,
  untilPublished,
  untilState
} from "./support.js"

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
      // SIGTERM sent, the stop waits 15 s for the exit.
      yield* sleepingUntil(15_000)
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
      const { actor, launcher } = yield* setup({}, { options: quietPoller })
      yield* actor.start
      launcher.processes[0]!.obeys = []
      const stopping = yield* Effect.fork(Effect.flip(actor.stop))
      yield* sleepingUntil(15_000)
      yield* TestClock.adjust("15 seconds")
      // SIGKILL sent, the stop waits 5 s more.
      yield* sleepingUntil(20_000)
      yield* TestClock.adjust("5 seconds")
      const error = yield* Fiber.join(stopping)
      expect(error.reason).toBe("stop-failed")
    })
  )

  it.scoped("the watchdog restarts a crashed server with a growing backoff", () =>
    Effect.gen(function* () {
      const { actor, launcher, bus } = yield* setup({}, { options: quietPoller })
      yield* actor.start

      yield* launcher.crash(1)
      const crashed = yield* untilState(actor, (s) => s.status === "crashed", "the crash")
      expect(crashed.lastError).toBe("exited with code 1")
      expect(crashed.consecutiveCrashes).toBe(1)

      // The watchdog waits 5 s for its restart.
      yield* sleepingUntil(5_000)
      yield* TestClock.adjust("4999 millis")
      expect((yield* actor.state).status).toBe("crashed")
      yield* TestClock.adjust("1 millis")
      yield* untilPublished(bus, "ServerRestarted")
      expect((yield* actor.state).status).toBe("running")
      expect(launcher.processes).toHaveLength(2)

      // A second crash soon after: twice the wait.
      yield* launcher.crash(1)
      yield* untilPublished(bus, "ServerCrashed", 2)
      yield* sleepingUntil(15_000)
      yield* TestClock.adjust("9 seconds")
      expect((yield* actor.state).status).toBe("crashed")
      yield* TestClock.adjust("1 second")
      yield* untilPublished(bus, "ServerRestarted", 2)
      expect((yield* actor.state).status).toBe("running")
      expect((yield* actor.state).consecutiveCrashes).toBe(2)
      expect(bus.tags().filter((t) => t === "ServerCrashed")).toHaveLength(2)
      expect(bus.tags().filter((t) => t === "ServerRestarted")).toHaveLength(2)

      // After running long enough, a crash starts the backoff afresh.
      yield* TestClock.adjust("11 minutes")
      yield* launcher.crash(1)
      yield* untilPublished(bus, "ServerCrashed", 3)
      expect((yield* actor.state).consecutiveCrashes).toBe(1)
    })
  )

  it.scoped("a crash with the watchdog off stays crashed; stop calls a pending watchdog off", () =>
    Effect.gen(function* () {
      const off = yield* setup({ watchdog: false })
      yield* off.actor.start
      yield* off.launcher.crash(3)
      // The crash was handled (and no restart planned: the event says so); then nothing may start it.
      yield* untilPublished(off.bus, "ServerCrashed")
      expect(off.bus.events.at(-1)).toEqual(expect.objectContaining({ watchdog: "off" }))
      yield* TestClock.adjust("1 hour")
      yield* chanceToMisbehave
      expect((yield* off.actor.state).status).toBe("crashed")
      expect(off.launcher.processes).toHaveLength(1)

      const on = yield* setup()
      yield* on.actor.start
      yield* on.launcher.crash(1)
      // The watchdog is asleep until its restart: were the stop not to call it off, the hour would wake it.
      yield* untilPublished(on.bus, "ServerCrashed")
      yield* sleepingUntil((yield* Clock.currentTimeMillis) + 5_000)
      yield* on.actor.stop
      yield* TestClock.adjust("1 hour")
      yield* chanceToMisbehave
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
      yield* untilState(actor, (s) => s.operation?.message.includes("next attempt in 5s") === true, "attempt 1 to fail")
      yield* sleepingUntil(5_000)
      expect(launcher.processes[0]!.signals).toEqual(["SIGTERM"])
      // The stop's SIGTERM wait (cut short) may also count at 15 s: wait for one more, attempt 2's wait.
      const before = yield* sleepersUntil(15_000)
      yield* TestClock.adjust("5 seconds")
      yield* eventually(sleepersUntil(15_000), (n) => n > before, 10_000, "the wait before attempt 3")
      yield* TestClock.adjust("10 seconds")
      yield* Fiber.join(restarting)
      expect((yield* actor.state).status).toBe("running")
      const restarted = bus.events.filter((e) => e._tag === "ServerRestarted") as unknown as Array<{ ok: boolean; attempts: number }>
      expect(restarted).toEqual([expect.objectContaining({ ok: true, attempts: 3 })])

      launcher.failNextSpawns(3)
      const failing = yield* Effect.fork(Effect.flip(actor.restart("manual")))
      yield* untilState(actor, (s) => s.operation?.message.includes("next attempt in 5s") === true, "attempt 1 to fail")
      yield* sleepingUntil(20_000)
      const beforeAgain = yield* sleepersUntil(30_000)
      yield* TestClock.adjust("5 seconds")
      yield* eventually(sleepersUntil(30_000), (n) => n > beforeAgain, 10_000, "the wait before attempt 3")
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
      yield* sleepingUntil(5_000)
      yield* TestClock.adjust("5 seconds")
      yield* untilState(actor, (s) => s.status === "running", "the watchdog's start")
    })
  )
})

describe("ServerActor: who the players are", () => {
  const BRAVO = "76561198012345678" as Steam64
  const CHARLIE = "76561198000000002" as Steam64
  const UNLOGGED = "76561198000000099" as Steam64

  it.scoped("players carry the Steam64 the RPT proves (GUID match) and the DayZ ID; unknown ones are null", () =>
    Effect.gen(function* () {
      const installDir = installWithLogs(
        [`12:00:01.000 Player "Bravo17"(steamID=${BRAVO}) is connected`],
        [`12:00:01 | Player "Bravo17" is connected (id=yZH5x_N7Etez3t3rYHqzOK-I9MvSUxccAszjtPnnRlc=)`]
      )
      let rows: ReadonlyArray<readonly [number, string, string]> = [
        [0, toBattlEyeGuid(BRAVO), "Bravo17"],
        [1, toBattlEyeGuid(UNLOGGED), "Quiet"]
      ]
      const { actor } = yield* setup({ installDir, rcon: rconSettings }, { connectRcon: fakeRcon(() => playersReply(rows)) })
      yield* actor.start
      // The session refreshes the players when it opens: wait for that, not for a fixed while (a busy machine is slow).
      yield* eventually(actor.state, (s) => s.players.length === 2, 10_000, "the players once the RCON session opened")
      const players = yield* actor.players
      expect(players.map((p) => [p.slot, p.name, p.steam64, p.dayzId])).toEqual([
        [0, "Bravo17", BRAVO, "yZH5x_N7Etez3t3rYHqzOK-I9MvSUxccAszjtPnnRlc="],
        [1, "Quiet", null, null]
      ])
      // The status shows the same (the session refreshed it when it opened).
      expect((yield* actor.state).players.map((p) => p.steam64)).toEqual([BRAVO, null])

      // A player who joins later is learnt from the lines the log gains meanwhile.
      Fs.appendFileSync(
        NodePath.join(installDir, "profiles", "DayZServer_x64_2026-01-01_12-00-00.RPT"),
        `12:00:05.000 Player "Charlie"(steamID=${CHARLIE}) is connected\n`
      )
      rows = [...rows, [2, toBattlEyeGuid(CHARLIE), "Charlie"]]
      expect((yield* actor.players).find((p) => p.slot === 2)?.steam64).toBe(CHARLIE)
      yield* TestClock.adjust("10 seconds")
      const polled = yield* eventually(actor.state, (s) => s.players.length === 3, 10_000, "the status poller's next players")
      expect(polled.players.map((p) => p.steam64)).toEqual([BRAVO, null, CHARLIE])
    })
  )

  it.scoped("players need a running server with an RCON session", () =>
    Effect.gen(function* () {
      const { actor } = yield* setup({ rcon: rconSettings })
      expect((yield* Effect.flip(actor.players)).reason).toBe("not-running")
      yield* actor.start
      expect((yield* Effect.flip(actor.players)).reason).toBe("rcon-unavailable")
    })
  )

  it.scoped("an entry without RCON settings refuses RCON commands as unsupported, running or not, saying what to set", () =>
    Effect.gen(function* () {
      const { actor } = yield* setup()
      const stopped = yield* Effect.flip(actor.rcon("players"))
      expect(stopped.reason).toBe("unsupported")
      expect(stopped.message).toContain("has no RCON settings")
      yield* actor.start
      expect((yield* Effect.flip(actor.players)).reason).toBe("unsupported")
      expect((yield* Effect.flip(actor.setLocked(true))).reason).toBe("unsupported")
    })
  )
})

describe("ServerActor: rconStatus", () => {
  it.scoped("is connected while the session is up and closed once the server stopped or crashed", () =>
    Effect.gen(function* () {
      const { actor, launcher } = yield* setup({ rcon: rconSettings }, { connectRcon: fakeRcon(() => playersReply([])) })
      const rconStatus = Effect.map(actor.state, (s) => s.rcon?.status)
      expect(yield* rconStatus).toBeUndefined()
      yield* actor.start
      yield* eventually(rconStatus, (status) => status === "connected", 10_000, "the RCON session")
      // #shutdown is answered but the fake process ignores it: SIGTERM after the entry's wait.
      const stopping = yield* Effect.fork(actor.stop)
      yield* sleepingUntil(30_000)
      yield* TestClock.adjust("30 seconds")
      yield* Fiber.join(stopping)
      expect((yield* actor.state).status).toBe("stopped")
      expect(yield* rconStatus).toBe("closed")

      yield* actor.start
      yield* eventually(rconStatus, (status) => status === "connected", 10_000, "the RCON session")
      yield* launcher.crash(1)
      const crashed = yield* eventually(actor.state, (s) => s.status === "crashed", 10_000, "the crash")
      expect(crashed.rcon?.status).toBe("closed")
    })
  )

  it.scoped("an entry with RCON whose session never opened shows closed after a crash; one without RCON shows none", () =>
    Effect.gen(function* () {
      const withRcon = yield* setup({ rcon: rconSettings })
      yield* withRcon.actor.start
      yield* withRcon.launcher.crash(1)
      const crashed = yield* eventually(withRcon.actor.state, (s) => s.status === "crashed", 10_000, "the crash")
      expect(crashed.rcon?.status).toBe("closed")

      const without = yield* setup()
      yield* without.actor.start
      yield* without.launcher.crash(1)
      const alsoCrashed = yield* eventually(without.actor.state, (s) => s.status === "crashed", 10_000, "the crash")
      expect(alsoCrashed.rcon).toBeUndefined()
    })
  )
})

describe("ServerActor: crashes, watchdog restarts and give-ups", () => {
  it.scoped("each is logged at Warning with the reason, and published with what the watchdog does", () => {
    const logs = capturingLogs()
    return Effect.gen(function* () {
      const { actor, launcher, bus } = yield* setup({}, { options: { ...quietPoller, watchdogMaxCrashes: 2 } })
      yield* actor.start

      yield* launcher.crash(3)
      yield* untilPublished(bus, "ServerCrashed")
      expect(logs.warnings().map((l) => [l.message, l.serverId])).toEqual([
        ["server Chernarus #1 crashed: exited with code 3; the watchdog restarts it in 5s (crash 1 in a row)", "s1"]
      ])
      expect(bus.events.at(-1)).toEqual(
        expect.objectContaining({ _tag: "ServerCrashed", reason: "exited with code 3", consecutiveCrashes: 1, watchdog: "restarting", restartInMs: 5000 })
      )

      yield* sleepingUntil(5_000)
      yield* TestClock.adjust("5 seconds")
      yield* untilPublished(bus, "ServerRestarted")
      expect(logs.warnings().at(-1)?.message).toBe("server Chernarus #1 was restarted by the watchdog after: exited with code 3")
      expect(bus.events.at(-1)).toEqual(
        expect.objectContaining({ _tag: "ServerRestarted", ok: true, reason: "watchdog", crash: "exited with code 3" })
      )

      // The restart fails: logged with the spawn error, and it counts as the next crash.
      launcher.failNextSpawns(1)
      yield* launcher.crash(1)
      yield* untilPublished(bus, "ServerCrashed", 2)
      yield* sleepingUntil(15_000)
      yield* TestClock.adjust("10 seconds")
      yield* untilPublished(bus, "ServerCrashed", 3)
      const failed = logs.warnings().slice(-2).map((l) => l.message)
      expect(failed[0]).toBe("server Chernarus #1: the watchdog could not restart it: cannot start DayZServer: ENOENT")
      expect(failed[1]).toBe(
        "server Chernarus #1 crashed: the watchdog could not restart it: cannot start DayZServer: ENOENT; " +
          "the watchdog gave up after 3 crashes in a row; start it by hand"
      )
      const state = yield* actor.state
      expect(state).toMatchObject({ status: "crashed", consecutiveCrashes: 3 })
      expect(state.lastError).toContain("the watchdog gave up after 3 crashes in a row")
      expect(bus.events.slice(-2)).toEqual([
        expect.objectContaining({ _tag: "ServerRestarted", ok: false, reason: "watchdog", crash: "exited with code 1" }),
        expect.objectContaining({ _tag: "ServerCrashed", consecutiveCrashes: 3, watchdog: "gave-up", restartInMs: null })
      ])
      // Given up (the event above says so): nothing more happens on its own.
      yield* TestClock.adjust("1 hour")
      yield* chanceToMisbehave
      expect((yield* actor.state).status).toBe("crashed")
      expect(launcher.processes).toHaveLength(2)
    }).pipe(Effect.provide(logs.layer), Logger.withMinimumLogLevel(LogLevel.All))
  })

  it.scoped("a crash with the watchdog off says so, and a vanished process found at start is a crash with its reason", () => {
    const logs = capturingLogs()
    return Effect.gen(function* () {
      const { actor, launcher, bus } = yield* setup({ watchdog: false })
      yield* actor.start
      yield* launcher.crash(1)
      // Logged before it is published.
      yield* untilPublished(bus, "ServerCrashed")
      expect(logs.warnings().at(-1)?.message).toBe("server Chernarus #1 crashed: exited with code 1; the watchdog is off for this server")
      expect(bus.events.at(-1)).toEqual(expect.objectContaining({ _tag: "ServerCrashed", watchdog: "off", restartInMs: null }))

      const { records } = memoryRecords()
      yield* records.set("s1", { pid: 999, startToken: "stale", startedAt: 0 })
      const reattaching = recordingBus()
      const reattached = yield* ServerActor.make(entry(), {
        launcher: fakeLauncher().launcher,
        records,
        bus: reattaching.bus,
        hooks: Hooks.make(),
        connectRcon: noRcon
      })
      expect((yield* reattached.state).lastError).toBe("the server stopped while the controller was away")
      expect(reattaching.events[0]).toEqual(
        expect.objectContaining({ _tag: "ServerCrashed", reason: "the server stopped while the controller was away", watchdog: "restarting" })
      )
      expect(logs.warnings().at(-1)?.message).toContain("crashed: the server stopped while the controller was away")
    }).pipe(Effect.provide(logs.layer))
  })
})
