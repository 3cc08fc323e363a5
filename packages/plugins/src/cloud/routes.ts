/** The handlers behind `CloudApi`: each maps the service's refusals once. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { auditActorOf, conflictWith, CurrentPrincipal, fieldBadRequest, storeDefect } from "@garrison/runtime"
import { CloudLink } from "./CloudLink.js"
import { CloudApi } from "./contract/Api.js"
import type { NoRelay, NotMirrored } from "./errors.js"

const noRelay = conflictWith((error: NoRelay) => error.message)
const notMirrored = conflictWith((error: NotMirrored) => error.message, (error) => ({ serverId: error.serverId }))

export const CloudRoutes = HttpApiBuilder.group(CloudApi, "cloud", (handlers) =>
  Effect.gen(function* () {
    const cloud = yield* CloudLink
    const by = Effect.map(CurrentPrincipal, auditActorOf)
    return handlers
      .handle("status", () => cloud.status)
      .handle("enable", ({ payload }) =>
        Effect.flatMap(by, (caller) => cloud.enable(payload, caller)).pipe(
          Effect.catchTags({ NoRelay: noRelay, LinkRoleRefused: fieldBadRequest, CloudStoreError: storeDefect })
        )
      )
      .handle("disable", () => Effect.flatMap(by, cloud.disable).pipe(Effect.catchTag("CloudStoreError", storeDefect)))
      .handle("connect", ({ path }) =>
        Effect.flatMap(by, (caller) => cloud.connect(path.serverId, caller)).pipe(Effect.catchTag("CloudStoreError", storeDefect))
      )
      .handle("disconnect", ({ path }) =>
        Effect.flatMap(by, (caller) => cloud.disconnect(path.serverId, caller)).pipe(
          Effect.catchTags({ NotMirrored: notMirrored, CloudStoreError: storeDefect })
        )
      )
      .handle("reconnect", ({ path }) =>
        Effect.flatMap(by, (caller) => cloud.reconnect(path.serverId, caller)).pipe(
          Effect.catchTags({ NotMirrored: notMirrored, CloudStoreError: storeDefect })
        )
      )
  })
)
