/**
 * Long operations of an actor (a restart with its retries now; an update
 * and a mod rollout later) run as a child fiber beside the mailbox, so the
 * mailbox keeps answering while they work: a stop cancels them and wins.
 * What runs, since when and how far it got is part of the server's status.
 *
 * `makeOperationSlot` holds the one operation an actor may run at a time:
 * it forks the body in the actor's scope, shows it in the state (status
 * `updating` while an `update` runs), clears it when the body ends, and
 * answers the caller (`cancelled` when a stop interrupted it).
 */
import * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import type * as Scope from "effect/Scope"
import type { ActorError } from "../ActorError.js"
import type { ServerState } from "../ServerState.js"

export type OperationKind = "restart" | "update" | "mod-rollout" | "restore" | "wipe" | "replicate"

export interface ServerOperation {
  readonly kind: OperationKind
  /** `Clock` milliseconds when it began. */
  readonly startedAt: number
  /** 0 to 1, or undefined while it cannot tell. */
  readonly progress: number | undefined
  /** What it is doing now, as a person reads it ("attempt 2 of 3: starting"). */
  readonly message: string
}

/** What an operation's body is given: a way to say how far it got. */
export interface OperationContext {
  readonly progress: (progress: number | undefined, message: string) => Effect.Effect<void>
}

/** The process-changing steps an operation may take, each under the actor's lock. */
export interface LifecycleSteps {
  readonly start: Effect.Effect<void, ActorError>
  readonly stop: Effect.Effect<void, ActorError>
  /** Whether a process runs now. */
  readonly running: Effect.Effect<boolean>
}

export type OperationBody = (context: OperationContext & { readonly steps: LifecycleSteps }) => Effect.Effect<void, ActorError>

export interface OperationSlotDeps {
  /** Where the body's fiber runs (the actor's scope: closing the actor ends it). */
  readonly scope: Scope.Scope
  readonly state: Effect.Effect<ServerState>
  readonly patch: (f: (s: ServerState) => Partial<ServerState>) => Effect.Effect<void>
  readonly steps: LifecycleSteps
  /** The error the caller gets when a stop interrupted the operation. */
  readonly cancelled: (kind: OperationKind) => ActorError
}

export const makeOperationSlot = (deps: OperationSlotDeps) => {
  let current: { readonly token: number; readonly kind: OperationKind; fiber: Fiber.RuntimeFiber<void, ActorError> | undefined } | undefined
  let seq = 0

  /** Forks `body` beside the mailbox; `reply` gets its outcome. */
  const begin = (kind: OperationKind, body: OperationBody, reply: Deferred.Deferred<void, ActorError>) =>
    Effect.gen(function* () {
      const token = ++seq
      const startedAt = yield* Clock.currentTimeMillis
      const before = yield* deps.state
      yield* deps.patch(() => ({
        operation: { kind, startedAt, progress: 0, message: `${kind} began` },
        // An update shows as `updating`; a restart shows its own stopping and starting.
        ...(kind === "update" ? { status: "updating" as const } : {})
      }))
      const context = {
        steps: deps.steps,
        progress: (progress: number | undefined, message: string) =>
          deps.patch((s) => (s.operation === undefined ? {} : { operation: { ...s.operation, progress, message } }))
      }
      const running: NonNullable<typeof current> = { token, kind, fiber: undefined }
      current = running
      running.fiber = yield* Effect.forkIn(
        body(context).pipe(
          Effect.onExit((exit) =>
            Effect.gen(function* () {
              if (current?.token === token) current = undefined
              yield* deps.patch((s) => ({
                operation: undefined,
                ...(s.status === "updating" ? { status: before.status === "updating" ? "stopped" : before.status } : {})
              }))
              yield* Deferred.done(reply, Exit.isInterrupted(exit) && !Exit.isSuccess(exit) ? Exit.fail(deps.cancelled(kind)) : exit)
            })
          )
        ),
        deps.scope
      )
    })

  /** Interrupts the running operation, if any, and waits until it has let go of the lock. */
  const cancel = Effect.suspend(() => {
    const fiber = current?.fiber
    current = undefined
    return fiber === undefined ? Effect.void : Effect.asVoid(Fiber.interrupt(fiber))
  })

  return {
    begin,
    cancel,
    /** The kind of the operation running now, if any. */
    running: (): OperationKind | undefined => current?.kind
  }
}

/** The one operation an actor may run at a time: see `makeOperationSlot`. */
export type OperationSlot = ReturnType<typeof makeOperationSlot>
