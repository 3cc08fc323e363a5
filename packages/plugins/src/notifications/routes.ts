/** The handlers behind `NotificationsApi`: each acts for the caller only. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { CurrentPrincipal, cursorBadRequest, jsonPageResponse, storeDefect } from "@garrison/runtime"
import { NotificationsApi } from "./contract/Api.js"
import { Notifications } from "./Notifications.js"

export const NotificationsRoutes = HttpApiBuilder.group(NotificationsApi, "notifications", (handlers) =>
  Effect.gen(function* () {
    const notifications = yield* Notifications
    // Store failures are real faults: they become a 500 with a request id.
    return handlers
      // The list answers the database's own JSON (rows are trusted on the way out: see JsonRows).
      .handle("list", ({ urlParams }) =>
        Effect.flatMap(CurrentPrincipal, (caller) => notifications.listJson(caller, urlParams)).pipe(
          Effect.map(({ unreadCount, ...page }) => jsonPageResponse(page, { unreadCount })),
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
