/**
 * Running long work from a request. `startOperation`: a server's long
 * operation runs beside the request (forked in a plugin's scope), and the
 * request answers once the body says it has begun (`began`, after it wrote
 * its first status), so a route can answer 202 with that status; a refusal
 * before that (another operation runs, the server was removed) fails the
 * start. `forkUntilBegan` is the same for work that is not an operation;
 * `runOperationFor` runs an operation and answers its outcome.
 */
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import type { ActorError } from "./ActorError.js"
import type { LifecycleSteps, OperationContext, OperationKind } from "./actor/operation.js"
import type { ServerActor } from "./ServerActor.js"

export type StartedBody = (
  context: OperationContext & { readonly steps: LifecycleSteps; readonly began: Effect.Effect<void> }
) => Effect.Effect<void, ActorError>

/**
 * Runs `work` beside the caller (forked in `scope`) and answers once it
 * says it has begun (`began`), or with its failure when it ends before
 * that: a route can answer 202 for long work and still refuse at once.
 */
export const forkUntilBegan = <E, R>(scope: Scope.Scope, work: (began: Effect.Effect<void>) => Effect.Effect<unknown, E, R>): Effect.Effect<void, E, R> =>
  Effect.gen(function* () {
    const began = yield* Deferred.make<void>()
    const fiber = yield* Effect.forkIn(work(Effect.asVoid(Deferred.succeed(began, undefined))), scope)
    const first = yield* Effect.raceFirst(Effect.as(Deferred.await(began), Option.none()), Effect.map(Fiber.await(fiber), Option.some))
    if (Option.isSome(first) && Exit.isFailure(first.value)) return yield* Effect.failCause(first.value.cause)
  })

export const startOperation = (actor: ServerActor, kind: OperationKind, scope: Scope.Scope, body: StartedBody): Effect.Effect<void, ActorError> =>
  forkUntilBegan(scope, (began) => actor.runOperation(kind, (context) => body({ ...context, began })))

/**
 * Runs `body` as the actor's long operation and answers what it answers:
 * its value, or its own failure (an operation's body may only fail with an
 * `ActorError`), or the actor's refusal (`busy`, `cancelled`).
 */
export const runOperationFor = <A, E>(
  actor: ServerActor,
  kind: OperationKind,
  body: (context: OperationContext & { readonly steps: LifecycleSteps }) => Effect.Effect<A, E>
): Effect.Effect<A, E | ActorError> =>
  Effect.gen(function* () {
    let outcome: Exit.Exit<A, E> | undefined
    yield* actor.runOperation(kind, (context) => Effect.map(Effect.exit(body(context)), (exit) => void (outcome = exit)))
    return outcome === undefined ? yield* Effect.dieMessage(`the ${kind} operation ended without an outcome`) : yield* outcome
  })
