/** The handlers behind `RolloutApi`; the host has already checked each endpoint's access. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { BadRequest, Conflict, CurrentPrincipal, serverSentEvents } from "@garrison/runtime"
import { RolloutApi, RolloutStatus } from "./contract/Api.js"
import type { RolloutError } from "./errors.js"
import { Rollouts } from "./Rollouts.js"

/** The plugin's errors as the API answers them: the one place their statuses are chosen. */
const rolloutHttpError = (error: RolloutError): Effect.Effect<never, BadRequest | Conflict> =>
  error._tag === "RolloutInputRefused"
    ? Effect.fail(new BadRequest({ message: error.message, details: [{ path: error.field, message: error.message }] }))
    : Effect.fail(new Conflict({ message: error.message }))

const encodeStatus = Schema.encodeSync(RolloutStatus)

export const RolloutRoutes = HttpApiBuilder.group(RolloutApi, "rollout", (handlers) =>
  Effect.gen(function* () {
    const rollouts = yield* Rollouts
    const caller = Effect.map(CurrentPrincipal, (p) => p.name)
    return handlers
      .handle("policy", ({ path }) => rollouts.policy(path.id))
      .handle("setPolicy", ({ path, payload }) => rollouts.setPolicy(path.id, payload))
      .handle("start", ({ path, payload }) => Effect.flatMap(caller, (by) => rollouts.start(path.id, payload, by)).pipe(Effect.catchTags({ RolloutInputRefused: rolloutHttpError, RolloutConflict: rolloutHttpError })))
      .handle("status", ({ path }) => rollouts.status(path.id))
      .handle("events", ({ path }) =>
        Effect.map(rollouts.status(path.id), () => serverSentEvents(Stream.orDie(rollouts.follow(path.id)), "status", encodeStatus))
      )
  })
)
