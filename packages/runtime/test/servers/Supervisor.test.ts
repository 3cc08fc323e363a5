/**
 * The supervisor's lock guards its map only: an actor busy stopping a hung
 * server never delays what is asked of other servers, nor an entry update
 * of the busy one, and a removed actor refuses at once.
 */
import { describe, expect, it } from "@effect/vitest"
import { sleepingUntil } from "@garrison/testkit/core"
import { Effect, Fiber, Option, TestClock } from "effect"
import { EventBus } from "../../src/events/EventBus.js"
import { Hooks } from "../../src/kernel/Hooks.js"
import { ProcessLauncher } from "../../src/servers/ProcessLauncher.js"
import { ProcessRecords } from "../../src/servers/ProcessRecords.js"
import * as ServerActor from "../../src/servers/ServerActor.js"
import { Supervisor } from "../../src/servers/Supervisor.js"
import { entry, fakeLauncher, memoryRecords, recordingBus } from "./support.js"

const supervised = Effect.gen(function* () {
  const launcher = fakeLauncher()
  const supervisor = yield* Supervisor.make(ServerActor.defaultActorOptions).pipe(
    Effect.provideService(ProcessLauncher, launcher.launcher),
    Effect.provideService(ProcessRecords, memoryRecords().records),
    Effect.provideService(EventBus, recordingBus().bus),
    Effect.provideService(Hooks, Hooks.make())
  )
  return { supervisor, launcher }
})

describe("Supervisor", () => {
  it.scoped("a server stuck stopping delays neither its own entry update nor other servers' create, start and delete", () =>
    Effect.gen(function* () {
      const { supervisor, launcher } = yield* supervised
      const hung = yield* supervisor.ensure(entry({ id: "hung", name: "Hung", gamePort: 2302 }))
      yield* hung.start
      // It ignores SIGTERM: the stop waits out the full escalation (15 s here, on the test clock).
      launcher.processes[0]!.obeys = ["SIGKILL"]
      const stopping = yield* Effect.fork(hung.stop)
      // SIGTERM sent: the stop waits 15 s for the exit.
      yield* sleepingUntil(15_000)
      expect((yield* hung.state).status).toBe("stopping")

      // None of these moves the clock, so none can be waiting for the hung stop.
      const renamed = yield* supervisor.ensure(entry({ id: "hung", name: "Hung (renamed)", gamePort: 2302 }))
      expect(renamed).toBe(hung)
      expect((yield* hung.entry).name).toBe("Hung (renamed)")
      const other = yield* supervisor.ensure(entry({ id: "other", name: "Other", gamePort: 2402 }))
      yield* other.start
      expect((yield* other.state).status).toBe("running")
      yield* other.stop
      yield* supervisor.remove("other")
      expect(yield* supervisor.find("other")).toEqual(Option.none())
      expect((yield* Effect.flip(other.start)).reason).toBe("removed")

      // A running server cannot be removed; the refusal comes at once too.
      expect((yield* Effect.flip(supervisor.remove("hung"))).reason).toBe("already-running")

      yield* TestClock.adjust("15 seconds")
      yield* Fiber.join(stopping)
      expect((yield* hung.state).status).toBe("stopped")
      expect(launcher.processes[0]!.signals).toEqual(["SIGTERM", "SIGKILL"])
    })
  )
})
