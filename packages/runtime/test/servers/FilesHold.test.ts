/**
 * The busy rule for a server's files, decided by the actor: a files hold
 * (a mod install) is granted only while the server is stopped and free,
 * and while it is held nothing starts the server, not a request, not an
 * operation, not the watchdog; operations that write files (an update, a
 * restore) are refused while the process runs, in the same mailbox as a
 * start, so no start slips between a plugin's check and its work.
 */
import { describe, expect, it } from "@effect/vitest"
import { eventually, sleepingUntil } from "@garrison/testkit/core"
import { Deferred, Effect, Exit, Fiber, Scope, TestClock } from "effect"
import { chanceToMisbehave, setup, untilState } from "./support.js"

describe("files holds", () => {
  it.scoped("while a hold is taken a start, an operation and a retire are refused naming it; after it, the server starts", () =>
    Effect.gen(function* () {
      const { actor, launcher } = yield* setup()
      const scope = yield* Scope.make()
      yield* Scope.extend(actor.holdFiles("mod change"), scope)
      expect((yield* actor.state).filesHeld).toBe("mod change")

      const start = yield* Effect.flip(actor.start)
      expect(start.reason).toBe("busy")
      expect(start.message).toBe("Chernarus #1 is busy: its mod change is under way; wait for it to end")
      expect((yield* Effect.flip(actor.runOperation("restore", () => Effect.void))).reason).toBe("busy")
      expect((yield* Effect.flip(actor.retire)).message).toContain("its mod change is under way")
      // Another hold waits for none: it is refused too.
      expect((yield* Effect.flip(Effect.scoped(actor.holdFiles("mod change")))).reason).toBe("busy")
      expect(launcher.processes).toHaveLength(0)

      yield* Scope.close(scope, Exit.void)
      expect((yield* actor.state).filesHeld).toBeUndefined()
      yield* actor.start
      expect((yield* actor.state).status).toBe("running")
    })
  )

  it.scoped("a hold is refused while the process runs, and while another operation runs but not within the caller's own", () =>
    Effect.gen(function* () {
      const { actor } = yield* setup()
      yield* actor.start
      const refused = yield* Effect.flip(Effect.scoped(actor.holdFiles("mod change")))
      expect(refused.reason).toBe("already-running")
      expect(refused.message).toBe("Chernarus #1 is running: stop it before its mod change")
      yield* actor.stop

      // A rollout stops the server itself, then holds the files for its own installs.
      const inside = yield* Deferred.make<string>()
      const rollout = yield* Effect.fork(
        actor.runOperation("mod-rollout", () =>
          Effect.gen(function* () {
            const other = yield* Effect.exit(Effect.scoped(actor.holdFiles("mod change")))
            const own = yield* Effect.exit(Effect.scoped(actor.holdFiles("mod change", "mod-rollout")))
            const reason = Exit.isFailure(other) && other.cause._tag === "Fail" ? other.cause.error.reason : other._tag
            yield* Deferred.succeed(inside, `${reason}; own: ${own._tag}`)
          })
        )
      )
      expect(yield* Deferred.await(inside)).toBe("busy; own: Success")
      yield* Fiber.join(rollout)
    })
  )

  it.scoped("operations that write the files are refused while the process runs; a restart is not", () =>
    Effect.gen(function* () {
      const { actor } = yield* setup()
      yield* actor.start
      for (const kind of ["update", "restore", "wipe", "replicate"] as const) {
        const refused = yield* Effect.flip(actor.runOperation(kind, () => Effect.void))
        expect(refused.reason).toBe("already-running")
        expect(refused.message).toBe(`Chernarus #1 is running: stop it before its ${kind}`)
      }
      // The body of a mod rollout stops the server itself.
      let ran = false
      yield* actor.runOperation("mod-rollout", () => Effect.sync(() => void (ran = true)))
      expect(ran).toBe(true)
      yield* actor.stop
      yield* actor.runOperation("restore", () => Effect.void)
    })
  )

  it.scoped("a start queued behind a hold's request is refused: the mailbox decides in order", () =>
    Effect.gen(function* () {
      const { actor, launcher } = yield* setup()
      const scope = yield* Scope.make()
      // Both are posted before the mailbox runs either: the hold first, so the start sees it.
      const hold = yield* Effect.fork(Scope.extend(actor.holdFiles("mod change"), scope))
      const start = yield* Effect.fork(Effect.flip(actor.start))
      yield* Fiber.join(hold)
      expect((yield* Fiber.join(start)).reason).toBe("busy")
      expect(launcher.processes).toHaveLength(0)
      yield* Scope.close(scope, Exit.void)
    })
  )

  it.scoped("the watchdog's restart waits for a hold to end, then starts the crashed server", () =>
    Effect.gen(function* () {
      const { actor, launcher } = yield* setup()
      yield* actor.start
      yield* launcher.crash(1)
      yield* untilState(actor, (s) => s.status === "crashed", "the crash")
      // The watchdog waits 5 s for its restart.
      yield* sleepingUntil(5_000)

      const scope = yield* Scope.make()
      yield* Scope.extend(actor.holdFiles("mod change"), scope)
      // The first restart is due after 5 s: it comes while the files are held, and must not start the server.
      yield* TestClock.adjust("5 seconds")
      yield* chanceToMisbehave
      expect((yield* actor.state).status).toBe("crashed")
      expect(launcher.processes).toHaveLength(1)

      yield* Scope.close(scope, Exit.void)
      yield* untilState(actor, (s) => s.status === "running", "the restart put off until the hold ended")
      expect(launcher.processes).toHaveLength(2)
    })
  )

  it.scoped("a caller that goes away while its request waits in the mailbox leaves no hold behind", () =>
    Effect.gen(function* () {
      const { actor, launcher } = yield* setup({ stop: { shutdownWaitMs: 30_000, terminateWaitMs: 15_000 } })
      yield* actor.start
      launcher.processes[0]!.obeys = ["SIGKILL"]
      // The stop holds the mailbox for 15 s; the hold's request waits behind it.
      const stopping = yield* Effect.fork(actor.stop)
      // The mailbox took the stop: SIGTERM sent, it waits 15 s for the exit.
      yield* sleepingUntil(15_000)
      const waiting = yield* Effect.fork(Effect.scoped(Effect.zipRight(actor.holdFiles("mod change"), Effect.never)))
      // The request is posted, and its caller waits for the answer.
      yield* eventually(Fiber.status(waiting), (status) => status._tag === "Suspended", 10_000, "the hold's request in the mailbox")
      yield* Fiber.interrupt(waiting)
      yield* TestClock.adjust("15 seconds")
      yield* Fiber.join(stopping)
      // The mailbox decides in order: the start is answered after the withdrawn request was taken up (a hold
      // it had granted would refuse the start as busy).
      yield* actor.start
      expect((yield* actor.state).filesHeld).toBeUndefined()
      expect((yield* actor.state).status).toBe("running")
    })
  )
})
