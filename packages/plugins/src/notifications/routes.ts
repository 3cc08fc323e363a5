/** The handlers behind `NotificationsApi`: each acts for the caller only. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { CurrentPrincipal, cursorBadRequest, storeDefect } from "@garrison/runtime"
import { NotificationsApi } from "./contract/Api.js"
import { Notifications } from "./Notifications.js"

export const NotificationsRoutes = HttpApiBuilder.group(NotificationsApi, "notifications", (handlers) =>
  Effect.gen(function* () {
    const notifications = yield* Notifications
    // Store failures are real faults: they become a 500 with a request id.
    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.flatMap(CurrentPrincipal, (caller) => notifications.list(caller, urlParams)).pipe(
          Effect.catchTags({
            InvalidCursor: cursorBadRequest,
            NotificationStoreError: storeDefect
          })
        )
      )
      .handle("markRead", ({ payload }) =>
        Effect.flatMap(CurrentPrincipal, (caller) => notifications.markRead(caller, payload?.ids)).pipe(
          Effect.map((marked) => ({ marked })),
          Effect.catchTag("NotificationStoreError", storeDefect)
        )
      )
      .handle("clear", () =>
        Effect.flatMap(CurrentPrincipal, (caller) => notifications.clear(caller)).pipe(
          Effect.map((cleared) => ({ cleared })),
          Effect.catchTag("NotificationStoreError", storeDefect)
        )
      )
  })
)
