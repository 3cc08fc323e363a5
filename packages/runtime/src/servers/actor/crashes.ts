/**
 * A process that ended while nobody was stopping it: the crash is shown in
 * the state, logged and published, and the watchdog's plan for it
 * (`watchdog.ts`) is carried out. A restart waits in a fiber of the actor's
 * scope, then goes through the mailbox (`WatchdogFired`, posted by `fire`)
 * so that it runs under the lock like any start; a start, a stop, an
 * operation or a retire calls a waiting one off (`cancelWatchdog`).
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as SubscriptionRef from "effect/SubscriptionRef"
import { ServerCrashed, ServerRestarted } from "../events.js"
import type { ProcessExit } from "../ProcessLauncher.js"
import { recentOutput, withRecentOutput } from "../ProcessOutput.js"
import type { ActorKit } from "./cell.js"
import type { Lifecycle } from "./lifecycle.js"
import { planAfterCrash } from "./watchdog.js"

export interface CrashesDeps {
  readonly lifecycle: Pick<Lifecycle, "endRun" | "startProcess">
  /** Posts `WatchdogFired` to the mailbox. */
  readonly fire: Effect.Effect<void>
}

export interface Crashes {
  /** The process ended while nobody was stopping it; `given` says why, as a person reads it (else its exit and last output do). */
  readonly onCrash: (exit: ProcessExit, given?: string) => Effect.Effect<void>
  /** The watchdog's wait is over: start the server again (under the lock: the mailbox runs it as a step). */
  readonly onWatchdog: Effect.Effect<void>
  /** Calls off a waiting watchdog restart, if any. */
  readonly cancelWatchdog: Effect.Effect<void>
}

const describeExit = (exit: ProcessExit) =>
  exit.signal !== null ? `killed by ${exit.signal}` : exit.code !== null ? `exited with code ${exit.code}` : "exited"

export const makeCrashes = (kit: ActorKit, deps: CrashesDeps): Crashes => {
  const { cell, names, options, patch, publish, warn } = kit
  const { endRun, startProcess } = deps.lifecycle

  const cancelWatchdog = Effect.suspend(() => {
    const fiber = cell.watchdog
    cell.watchdog = undefined
    return fiber ? Fiber.interrupt(fiber) : Effect.void
  })

  const onCrash = (exit: ProcessExit, given?: string) =>
    Effect.gen(function* () {
      const before = yield* SubscriptionRef.get(kit.state)
      const now = yield* Clock.currentTimeMillis
      // The process's own last words say more than its exit code.
      const reason = given ?? withRecentOutput(describeExit(exit), yield* recentOutput(cell.entry))
      const plan = planAfterCrash({
        name: cell.entry.name,
        reason,
        watchdog: cell.entry.watchdog,
        previousCrashes: before.consecutiveCrashes,
        ranMs: before.startedAt === undefined ? undefined : now - before.startedAt,
        options,
        operation: before.operation?.kind
      })
      yield* endRun
      cell.lastCrash = reason
      yield* patch({
        status: "crashed",
        pid: undefined,
        startedAt: undefined,
        players: [],
        locked: false,
        consecutiveCrashes: plan.crashes,
        lastError: plan.lastError
      })
      yield* warn(plan.logLine)
      yield* publish(
        new ServerCrashed({
          ...names(),
          exitCode: exit.code,
          signal: exit.signal,
          reason,
          consecutiveCrashes: plan.crashes,
          watchdog: plan.action,
          restartInMs: plan.delay,
          ...(plan.action === "operation" && before.operation !== undefined ? { operation: before.operation.kind } : {})
        })
      )
      if (plan.delay !== null) {
        cell.watchdog = yield* Effect.forkIn(Effect.sleep(Duration.millis(plan.delay)).pipe(Effect.zipRight(deps.fire)), kit.scope)
      }
    })

  const onWatchdog = Effect.gen(function* () {
    cell.watchdog = undefined
    if (cell.run !== undefined) return
    const crash = cell.lastCrash ?? "it crashed"
    const started = yield* Effect.either(startProcess)
    if (started._tag === "Right") {
      yield* warn(`server ${cell.entry.name} was restarted by the watchdog after: ${crash}`)
      return yield* publish(new ServerRestarted({ ...names(), ok: true, attempts: 1, reason: "watchdog", crash }))
    }
    yield* warn(`server ${cell.entry.name}: the watchdog could not restart it: ${started.left.message}`)
    yield* publish(
      new ServerRestarted({ ...names(), ok: false, attempts: 1, reason: "watchdog", error: started.left.message, crash })
    )
    // A failed restart counts as another crash, so the backoff grows.
    yield* onCrash({ code: null, signal: null }, `the watchdog could not restart it: ${started.left.message}`)
  })

  return { onCrash, onWatchdog, cancelWatchdog }
}
