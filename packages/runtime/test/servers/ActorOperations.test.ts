/**
 * An actor stays responsive while long work runs: restarts with retries and
 * other long operations run beside the mailbox, show their progress, and a
 * stop cancels them and wins. Starts that cannot work are refused before
 * anything is spawned (ports), and a process that dies says why (its output).
 */
import { describe, expect, it } from "@effect/vitest"
import { eventually, sleepingUntil } from "@garrison/testkit/core"
import { Deferred, Effect, Fiber, Option, TestClock } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { OUTPUT_FILE } from "../../src/servers/ProcessOutput.js"
import { chanceToMisbehave, rconSettings, setup, sleepersUntil, tempInstall, untilPublished, untilState } from "./support.js"

describe("long operations", () => {
  it.scoped("a stop issued while a restart waits between failed attempts returns at once and wins", () =>
    Effect.gen(function* () {
      const { actor, launcher, bus } = yield* setup()
      yield* actor.start
      launcher.failNextSpawns(3)
      const restarting = yield* Effect.fork(Effect.flip(actor.restart("manual")))
      // Attempt 1 failed; the restart now waits 5 s before attempt 2, and says so.
      const during = yield* untilState(actor, (s) => s.operation?.message.includes("next attempt") === true, "attempt 1 to fail")
      expect(during.operation).toMatchObject({ kind: "restart", startedAt: 0 })
      expect(during.operation?.message).toContain("attempt 1 of 3 failed")
      expect(during.operation?.message).toContain("next attempt in 5s")
      expect(during.operation?.progress).toBeCloseTo(1 / 3)

      // The mailbox answers meanwhile: other lifecycle commands are refused as busy, not queued behind it.
      expect((yield* Effect.flip(actor.start)).reason).toBe("busy")
      expect((yield* Effect.flip(actor.setLocked(true))).reason).toBe("busy")
      expect((yield* Effect.flip(actor.restart("manual"))).reason).toBe("busy")

      // No clock moves: the stop cannot be waiting for the backoff.
      yield* actor.stop
      const cancelled = yield* Fiber.join(restarting)
      expect(cancelled.reason).toBe("cancelled")
      expect(cancelled.message).toContain("cancelled by a stop")
      const after = yield* actor.state
      expect(after.status).toBe("stopped")
      expect(after.operation).toBeUndefined()

      // Nothing was started after the stop (which answered: the restart is cancelled), even once the backoff would have ended.
      yield* TestClock.adjust("1 minute")
      yield* chanceToMisbehave
      expect(launcher.processes).toHaveLength(1)
      expect((yield* actor.state).status).toBe("stopped")
      expect(bus.tags().filter((tag) => tag === "ServerStarted")).toHaveLength(1)
    })
  )

  it.scoped("a stop during a restart's stop step waits for that step, then the server stays stopped", () =>
    Effect.gen(function* () {
      const { actor, launcher } = yield* setup({ stop: { shutdownWaitMs: 30_000, terminateWaitMs: 15_000 } })
      yield* actor.start
      launcher.processes[0]!.obeys = ["SIGKILL"]
      const restarting = yield* Effect.fork(Effect.flip(actor.restart("manual")))
      // The restart's stop step sent SIGTERM and waits 15 s for the exit.
      yield* sleepingUntil(15_000)
      expect((yield* actor.state).status).toBe("stopping")
      expect((yield* actor.state).operation?.message).toContain("attempt 1 of 3: stopping")
      const stopping = yield* Effect.fork(actor.stop)
      // The restart was interrupted; the stop escalates on its own and wins.
      expect((yield* Fiber.join(restarting)).reason).toBe("cancelled")
      // The restart's wait, cut short, still counts at 15 s: the stop's own is the second.
      yield* eventually(sleepersUntil(15_000), (n) => n >= 2, 10_000, "the stop's SIGTERM wait")
      yield* TestClock.adjust("15 seconds")
      yield* Fiber.join(stopping)
      expect((yield* actor.state).status).toBe("stopped")
      expect(launcher.processes).toHaveLength(1)
    })
  )

  it.scoped("an update operation shows `updating` with its progress, and a stop cancels it", () =>
    Effect.gen(function* () {
      const { actor } = yield* setup()
      const halfway = yield* Deferred.make<void>()
      const updating = yield* Effect.fork(
        Effect.flip(
          actor.runOperation("update", (context) =>
            Effect.gen(function* () {
              yield* context.progress(0.5, "downloading 50%")
              yield* Deferred.succeed(halfway, undefined)
              yield* Effect.never
            })
          )
        )
      )
      yield* Deferred.await(halfway)
      const during = yield* actor.state
      expect(during.status).toBe("updating")
      expect(during.operation).toEqual({ kind: "update", startedAt: 0, progress: 0.5, message: "downloading 50%" })
      expect((yield* Effect.flip(actor.runOperation("restart", () => Effect.void))).reason).toBe("busy")

      yield* actor.stop
      expect((yield* Fiber.join(updating)).reason).toBe("cancelled")
      const after = yield* actor.state
      expect(after.status).toBe("stopped")
      expect(after.operation).toBeUndefined()
    })
  )

  it.scoped("an operation that ends on its own clears its progress and answers its caller", () =>
    Effect.gen(function* () {
      const { actor } = yield* setup()
      yield* actor.runOperation("update", (context) =>
        Effect.gen(function* () {
          yield* context.progress(1, "done")
          yield* context.steps.start
        })
      )
      const state = yield* actor.state
      expect(state.status).toBe("running")
      expect(state.operation).toBeUndefined()
    })
  )

  it.scoped("a retired actor refuses every command at once with `removed`", () =>
    Effect.gen(function* () {
      const { actor } = yield* setup()
      yield* actor.retire
      for (const command of [actor.start, actor.stop, actor.restart("manual"), actor.setLocked(true), actor.rcon("players")]) {
        const refused = yield* Effect.fork(Effect.flip(command))
        // A refusal comes at once; a hang would leave the fiber waiting, and this wait dies saying so.
        yield* eventually(Fiber.poll(refused), Option.isSome, 10_000, "the refusal")
        expect((yield* Fiber.join(refused)).reason).toBe("removed")
      }
    })
  )
})

describe("starts that say why they failed", () => {
  it.scoped("a port another entry holds refuses the start before anything is spawned, naming the port and the entry", () =>
    Effect.gen(function* () {
      const { actor, launcher } = yield* setup(
        { gamePort: 2302 },
        { portOwner: (port) => (port === 2302 ? { serverId: "s2", name: "Livonia" } : undefined) }
      )
      launcher.holdPorts([2302])
      const error = yield* Effect.flip(actor.start)
      expect(error.reason).toBe("ports-in-use")
      expect(error.message).toContain("gamePort 2302 (UDP) is in use on this host by server \"Livonia\" (s2)")
      expect(launcher.processes).toHaveLength(0)
      const state = yield* actor.state
      expect(state.status).toBe("stopped")
      expect(state.lastError).toBe(error.message)
    })
  )

  it.scoped("a port a foreign program holds is named as such; freed, the start works", () =>
    Effect.gen(function* () {
      const { actor, launcher } = yield* setup({ gamePort: 2402, rcon: { ...rconSettings, port: 2406 } })
      launcher.holdPorts([2406])
      const error = yield* Effect.flip(actor.start)
      expect(error.message).toContain("rcon.port 2406 (UDP) is in use on this host by another program")
      launcher.holdPorts([])
      yield* actor.start
      expect((yield* actor.state).status).toBe("running")
      // The refusal no longer shows (what shows now is the RCON session's own trouble, if any).
      expect((yield* actor.state).lastError ?? "").not.toContain("in use")
    })
  )

  it.scoped("a process killed while it ran normally is not explained by its ordinary output", () =>
    Effect.gen(function* () {
      const installDir = tempInstall()
      const { actor, launcher } = yield* setup({ installDir, watchdog: false })
      launcher.printNext("Server is up and running\nPlayer Bravo connected\n")
      yield* actor.start
      yield* launcher.crash(137)
      // The watcher reads the output file (real I/O) before it records the exit: wait for it, however busy the machine.
      const crashed = yield* eventually(actor.state, (state) => state.status === "crashed" && state.lastError !== undefined)
      expect(crashed.lastError).toBe("exited with code 137")
    })
  )

  it.scoped("a process that exits at start leaves its last output in lastError", () =>
    Effect.gen(function* () {
      const installDir = tempInstall()
      const { actor, launcher, bus } = yield* setup({ installDir, watchdog: false })
      launcher.printNext("DayZ Server starting\nLoading addons\nFATAL: cannot open mpmissions/dayzOffline.chernarusplus\n")
      yield* actor.start
      yield* launcher.crash(1)
      // Published once the state shows it.
      yield* untilPublished(bus, "ServerCrashed")
      const state = yield* actor.state
      expect(state.status).toBe("crashed")
      // The lines that say what went wrong, not the ordinary chatter before them.
      expect(state.lastError).toBe("exited with code 1; last output: FATAL: cannot open mpmissions/dayzOffline.chernarusplus")
      expect(bus.events.find((e) => e._tag === "ServerCrashed")).toMatchObject({ reason: state.lastError })
      expect(Fs.existsSync(NodePath.join(installDir, "profiles", OUTPUT_FILE))).toBe(true)
    })
  )
})
