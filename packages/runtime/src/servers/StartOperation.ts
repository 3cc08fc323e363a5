/**
 * Starting a server's long operation from a request: the operation runs
 * beside the request (forked in a plugin's scope), and the request answers
 * once the body says it has begun (`began`, after it wrote its first
 * status), so a route can answer 202 with that status. A refusal before
 * that (another operation runs, the server was removed) fails the start.
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

export const startOperation = (actor: ServerActor, kind: OperationKind, scope: Scope.Scope, body: StartedBody): Effect.Effect<void, ActorError> =>
  Effect.gen(function* () {
    const began = yield* Deferred.make<void>()
    const fiber = yield* Effect.forkIn(
      actor.runOperation(kind, (context) => body({ ...context, began: Effect.asVoid(Deferred.succeed(began, undefined)) })),
      scope
    )
    const first = yield* Effect.raceFirst(Effect.as(Deferred.await(began), Option.none()), Effect.map(Fiber.await(fiber), Option.some))
    if (Option.isSome(first) && Exit.isFailure(first.value)) return yield* Effect.failCause(first.value.cause)
  })
