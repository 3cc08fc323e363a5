/** The handlers behind `RolloutApi`; the host has already checked each endpoint's access. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { auditActorOf, BadRequest, Conflict, CurrentPrincipal, serverSentEvents, storeDefect } from "@garrison/runtime"
import { RolloutApi, RolloutStatus } from "./contract/Api.js"
import type { ModStoreError } from "../mods/index.js"
import type { RolloutError, RolloutStoreError } from "./errors.js"
import { Rollouts } from "./Rollouts.js"

/** The plugin's errors as the API answers them: the one place their statuses are chosen (a store failure, its own or the mods', is a fault: 500 with a request id). */
const rolloutHttpError = (error: RolloutError | RolloutStoreError | ModStoreError): Effect.Effect<never, BadRequest | Conflict> => {
  switch (error._tag) {
    case "RolloutInputRefused":
      return Effect.fail(new BadRequest({ message: error.message, details: [{ path: error.field, message: error.message }] }))
    case "RolloutConflict":
      return Effect.fail(new Conflict({ message: error.message }))
    case "RolloutStoreError":
    case "ModStoreError":
      return storeDefect(error)
  }
}

const encodeStatus = Schema.encodeSync(RolloutStatus)

export const RolloutRoutes = HttpApiBuilder.group(RolloutApi, "rollout", (handlers) =>
  Effect.gen(function* () {
    const rollouts = yield* Rollouts
    const caller = Effect.map(CurrentPrincipal, auditActorOf)
    return handlers
      .handle("policy", ({ path }) => rollouts.policy(path.id).pipe(Effect.catchTags({ RolloutStoreError: rolloutHttpError })))
      .handle("setPolicy", ({ path, payload }) => rollouts.setPolicy(path.id, payload).pipe(Effect.catchTags({ RolloutStoreError: rolloutHttpError })))
      .handle("start", ({ path, payload }) =>
        Effect.flatMap(caller, (by) => rollouts.start(path.id, payload, by)).pipe(
          Effect.catchTags({ RolloutInputRefused: rolloutHttpError, RolloutConflict: rolloutHttpError, RolloutStoreError: rolloutHttpError, ModStoreError: rolloutHttpError })
        )
      )
      .handle("status", ({ path }) => rollouts.status(path.id))
      .handle("events", ({ path }) => Effect.map(rollouts.follow(path.id), (statuses) => serverSentEvents(statuses, "status", encodeStatus)))
  })
)
