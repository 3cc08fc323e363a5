/** The handlers behind `UpdatesApi`; the host has already checked each endpoint's access. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { CurrentPrincipal, refusalHttpError, serverSentEvents } from "@garrison/runtime"
import { UpdatesApi, UpdateStatus } from "./contract/Api.js"
import { ServerUpdates } from "./ServerUpdates.js"


const encodeStatus = Schema.encodeSync(UpdateStatus)

export const UpdatesRoutes = HttpApiBuilder.group(UpdatesApi, "serverUpdates", (handlers) =>
  Effect.gen(function* () {
    const updates = yield* ServerUpdates
    const caller = Effect.map(CurrentPrincipal, (p) => p.name)
    return handlers
      .handle("update", ({ path }) => Effect.flatMap(caller, (by) => updates.start(path.id, "update", by)).pipe(Effect.catchTag("Refusal", refusalHttpError)))
      .handle("rebuild", ({ path }) => Effect.flatMap(caller, (by) => updates.start(path.id, "rebuild", by)).pipe(Effect.catchTag("Refusal", refusalHttpError)))
      .handle("status", ({ path }) => updates.status(path.id))
      .handle("cancel", ({ path }) => Effect.flatMap(caller, (by) => updates.cancel(path.id, by)).pipe(Effect.catchTag("Refusal", refusalHttpError)))
      .handle("deploy", ({ payload }) => Effect.flatMap(caller, (by) => updates.deploy(payload, by)).pipe(Effect.catchTag("Refusal", refusalHttpError)))
      .handle("events", ({ path }) =>
        // The server is looked up first, so an unknown one is a 404, not an empty stream.
        Effect.map(updates.status(path.id), () => serverSentEvents(Stream.orDie(updates.follow(path.id)), "status", encodeStatus))
      )
  })
)
