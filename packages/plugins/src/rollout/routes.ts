/** The handlers behind `RolloutApi`; the host has already checked each endpoint's access. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { CurrentPrincipal, refusalHttpError, serverSentEvents } from "@garrison/runtime"
import { RolloutApi, RolloutStatus } from "./contract/Api.js"
import { Rollouts } from "./Rollouts.js"


const encodeStatus = Schema.encodeSync(RolloutStatus)

export const RolloutRoutes = HttpApiBuilder.group(RolloutApi, "rollout", (handlers) =>
  Effect.gen(function* () {
    const rollouts = yield* Rollouts
    const caller = Effect.map(CurrentPrincipal, (p) => p.name)
    return handlers
      .handle("policy", ({ path }) => rollouts.policy(path.id))
      .handle("setPolicy", ({ path, payload }) => rollouts.setPolicy(path.id, payload))
      .handle("start", ({ path, payload }) => Effect.flatMap(caller, (by) => rollouts.start(path.id, payload, by)).pipe(Effect.catchTag("Refusal", refusalHttpError)))
      .handle("status", ({ path }) => rollouts.status(path.id))
      .handle("events", ({ path }) =>
        Effect.map(rollouts.status(path.id), () => serverSentEvents(Stream.orDie(rollouts.follow(path.id)), "status", encodeStatus))
      )
  })
)
