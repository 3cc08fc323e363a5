/** The handlers behind `UpdatesApi`; the host has already checked each endpoint's access. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { auditActorOf, BadRequest, Conflict, CurrentPrincipal, serverSentEvents, storeDefect, Unavailable } from "@garrison/runtime"
import { UpdatesApi, UpdateStatus } from "./contract/Api.js"
import type { PlatformStoreError } from "../platform/index.js"
import type { UpdatesError } from "./errors.js"
import { ServerUpdates } from "./ServerUpdates.js"

/** The plugin's errors as the API answers them: the one place their statuses are chosen (the platform's store failing is a fault: 500 with a request id). */
const updatesHttpError = (error: UpdatesError | PlatformStoreError): Effect.Effect<never, BadRequest | Conflict | Unavailable> => {
  switch (error._tag) {
    case "UpdateConflict":
      return Effect.fail(new Conflict({ message: error.message }))
    case "UpdatesUnavailable":
      return Effect.fail(new Unavailable({ message: error.message }))
    case "DeployFolderRefused":
      return Effect.fail(new BadRequest({ message: error.message, details: [{ path: error.field, message: error.message }] }))
    case "PlatformStoreError":
      return storeDefect(error)
  }
}
/** What an update or a rebuild can meet (a deploy, also a refused folder). */
const startAnswered = { UpdateConflict: updatesHttpError, UpdatesUnavailable: updatesHttpError, PlatformStoreError: updatesHttpError }

const encodeStatus = Schema.encodeSync(UpdateStatus)

export const UpdatesRoutes = HttpApiBuilder.group(UpdatesApi, "serverUpdates", (handlers) =>
  Effect.gen(function* () {
    const updates = yield* ServerUpdates
    const caller = Effect.map(CurrentPrincipal, auditActorOf)
    return handlers
      .handle("update", ({ path }) => Effect.flatMap(caller, (by) => updates.start(path.id, "update", by)).pipe(Effect.catchTags(startAnswered)))
      .handle("rebuild", ({ path }) => Effect.flatMap(caller, (by) => updates.start(path.id, "rebuild", by)).pipe(Effect.catchTags(startAnswered)))
      .handle("status", ({ path }) => updates.status(path.id))
      .handle("cancel", ({ path }) => Effect.flatMap(caller, (by) => updates.cancel(path.id, by)).pipe(Effect.catchTag("UpdateConflict", updatesHttpError)))
      .handle("deploy", ({ payload }) => Effect.flatMap(caller, (by) => updates.deploy(payload, by)).pipe(
          Effect.catchTags({ ...startAnswered, DeployFolderRefused: updatesHttpError })
        ))
      .handle("events", ({ path }) =>
        // The server is looked up first, so an unknown one is a 404, not an empty stream.
        Effect.map(updates.follow(path.id), (statuses) => serverSentEvents(statuses, "status", encodeStatus))
      )
  })
)
