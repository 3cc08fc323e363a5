/**
 * The actor's mailbox: what can be posted to it (a caller's command with
 * the deferred its answer goes to, or what the process watcher and the
 * watchdog's wait report) and `handle`, which takes the messages one at a
 * time. Whether a command may go ahead is decided here, when its message is
 * taken, so nothing slips in between a check and the work: a start, an
 * operation, a files hold or a retire is refused (`busy`, `already-running`)
 * while something else has the server, and every process-changing step
 * runs under the lifecycle lock (`ActorKit.step`).
 */
import * as Cause from "effect/Cause"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import type * as Queue from "effect/Queue"
import type { ActorError } from "../ActorError.js"
import type { ProcessExit } from "../ProcessLauncher.js"
import type { ActorKit } from "./cell.js"
import type { Crashes } from "./crashes.js"
import { FILE_OPERATIONS, type FilesHolds } from "./filesHold.js"
import type { Lifecycle } from "./lifecycle.js"
import type { OperationBody, OperationKind, OperationSlot } from "./operation.js"

export type Reply = Deferred.Deferred<void, ActorError>

export type Message =
  | { readonly _tag: "Start"; readonly reply: Reply }
  | { readonly _tag: "Stop"; readonly reply: Reply }
  | { readonly _tag: "Operate"; readonly kind: OperationKind; readonly body: OperationBody; readonly reply: Reply }
  | { readonly _tag: "SetLocked"; readonly locked: boolean; readonly reply: Reply }
  | { readonly _tag: "Hold"; readonly token: number; readonly what: string; readonly within: OperationKind | undefined; readonly reply: Reply }
  | { readonly _tag: "Retire"; readonly reply: Reply }
  | { readonly _tag: "Exited"; readonly generation: number; readonly exit: ProcessExit }
  | { readonly _tag: "WatchdogFired" }

export interface MailboxDeps {
  readonly mailbox: Queue.Queue<Message>
  readonly lifecycle: Lifecycle
  readonly crashes: Crashes
  readonly operations: OperationSlot
  readonly holds: FilesHolds
}

export const makeMailboxHandler = (kit: ActorKit, deps: MailboxDeps) => {
  const { cell, fail, patch, step } = kit
  const { crashes, holds, lifecycle, mailbox, operations } = deps

  // ---- refusals ------------------------------------------------------------

  const refuseRetire = () =>
    Effect.fail(fail("already-running", `${cell.entry.name} is ${cell.run?.stopping === true ? "stopping" : "running"}; stop it first`))

  const busy = () =>
    Effect.fail(
      fail("busy", `${cell.entry.name} is busy: its ${operations.running() ?? "operation"} is running; wait for it, or stop the server`)
    )

  const filesHeld = (what: string) =>
    Effect.fail(fail("busy", `${cell.entry.name} is busy: its ${what} is under way; wait for it to end`))

  /** The process is up: file work (`what`) waits until it is stopped. */
  const stopFirst = (run: NonNullable<typeof cell.run>, what: string) =>
    Effect.fail(fail("already-running", `${cell.entry.name} is ${run.stopping ? "stopping" : "running"}: stop it before its ${what}`))

  /** Why an operation of this kind may not begin now, if it may not: another operation, a hold, or a running process for one that writes files. */
  const refuseOperation = (kind: OperationKind): Effect.Effect<never, ActorError> | undefined => {
    if (operations.running() !== undefined) return busy()
    const held = holds.heldFor()
    if (held !== undefined) return filesHeld(held)
    const run = cell.run
    return run !== undefined && FILE_OPERATIONS.has(kind) ? stopFirst(run, kind) : undefined
  }

  // ---- files holds (filesHold.ts) ------------------------------------------

  const takeHold = (token: number, what: string, within: OperationKind | undefined): Effect.Effect<void, ActorError> => {
    const run = cell.run
    if (run !== undefined) return stopFirst(run, what)
    const operation = operations.running()
    if (operation !== undefined && operation !== within) return busy()
    const held = holds.heldFor()
    if (held !== undefined) return filesHeld(held)
    return holds.take(token, what)
  }

  /** Lets go of a hold; once the last is gone, the watchdog restart it put off is posted again. */
  const releaseHold = (token: number) =>
    holds.release(token).pipe(
      Effect.zipRight(
        Effect.suspend(() => {
          if (!cell.watchdogAfterHold || holds.heldFor() !== undefined) return Effect.void
          cell.watchdogAfterHold = false
          return Effect.asVoid(mailbox.offer({ _tag: "WatchdogFired" }))
        })
      )
    )

  // ---- the messages --------------------------------------------------------

  const handle = (message: Message): Effect.Effect<void> => {
    const answer = (reply: Reply, effect: Effect.Effect<void, ActorError>) =>
      Effect.exit(effect).pipe(Effect.flatMap((exit) => Deferred.done(reply, exit)), Effect.asVoid)
    if (cell.retired && "reply" in message) return Deferred.fail(message.reply, kit.removed()).pipe(Effect.asVoid)
    switch (message._tag) {
      case "Start": {
        const held = holds.heldFor()
        return answer(
          message.reply,
          operations.running() !== undefined
            ? busy()
            : held !== undefined
            ? filesHeld(held)
            : crashes.cancelWatchdog.pipe(Effect.zipRight(step(lifecycle.startProcess)))
        )
      }
      case "Stop":
        return answer(
          message.reply,
          Effect.gen(function* () {
            const hadOperation = operations.running() !== undefined
            yield* operations.cancel
            const hadWatchdog = cell.watchdog !== undefined
            yield* crashes.cancelWatchdog
            yield* step(
              Effect.suspend(() => {
                // Stopping a crashed server that was waiting for the watchdog, or a restart between
                // attempts, just calls it off.
                if (cell.run === undefined && (hadWatchdog || hadOperation)) return patch({ status: "stopped" })
                return lifecycle.stopProcess
              })
            )
          })
        )
      case "Operate": {
        const refused = refuseOperation(message.kind)
        if (refused !== undefined) return answer(message.reply, refused)
        return crashes.cancelWatchdog.pipe(
          Effect.zipRight(operations.begin(message.kind, message.body, message.reply)),
          Effect.catchAllCause((cause) => Deferred.failCause(message.reply, cause)),
          Effect.asVoid
        )
      }
      case "Hold":
        return holds.stillWanted(message.token) ? answer(message.reply, takeHold(message.token, message.what, message.within)) : Effect.void
      case "SetLocked":
        return answer(message.reply, operations.running() !== undefined ? busy() : step(lifecycle.setLocked(message.locked)))
      case "Retire": {
        const held = holds.heldFor()
        return answer(
          message.reply,
          held !== undefined
            ? filesHeld(held)
            : cell.run !== undefined || operations.running() !== undefined
            ? refuseRetire()
            : crashes.cancelWatchdog.pipe(Effect.tap(() => Effect.sync(() => void (cell.retired = true))))
        )
      }
      case "Exited":
        // The exit a stop waits for is the stop's to handle; any other of the current run is a crash.
        // Asked again under the lock: a stop may have begun while this waited for it.
        return Effect.suspend(() =>
          isCrash(message.generation)
            ? step(Effect.suspend(() => (isCrash(message.generation) ? crashes.onCrash(message.exit) : Effect.void)))
            : Effect.void
        )
      case "WatchdogFired":
        // A restart or update running now starts the server itself; a files hold puts the restart off until it ends.
        if (operations.running() !== undefined) return Effect.void
        if (holds.heldFor() !== undefined) return Effect.sync(() => void (cell.watchdogAfterHold = true))
        return step(crashes.onWatchdog)
    }
  }

  /** The exit of run `generation` is a crash while that run is the current one and no stop began. */
  const isCrash = (generation: number) => cell.run !== undefined && generation === cell.run.generation && !cell.run.stopping

  /** Takes the messages one at a time, for as long as the actor lives: a failure is shown in the state, never ends it. */
  const serve = Effect.forever(
    Effect.flatMap(mailbox.take, (message) =>
      handle(message).pipe(
        Effect.catchAllCause((cause) =>
          Cause.isInterruptedOnly(cause) ? Effect.failCause(cause) : patch({ lastError: Cause.pretty(cause) })
        )
      )
    )
  )

  return { handle, serve, releaseHold, refuseRetire, filesHeld }
}
