/**
 * Notifications: a service other plugins publish into, addressed to a user,
 * to holders of a permission or to everyone, and the spec's three endpoints
 * for the caller's own list. It publishes server crashes, watchdog restarts
 * and give-ups itself. See README.md.
 */
import * as Effect from "effect/Effect"
import { Plugin } from "@garrison/runtime"
import { serverAlertHandlers } from "./internal/serverAlerts.js"
import { NotificationsApi } from "./contract/Api.js"
import { migrations } from "./migrations.js"
import { Notifications } from "./Notifications.js"
import { NOTIFICATION_EVENTS } from "./published.js"
import { NotificationsRoutes } from "./routes.js"

export const NotificationsPlugin = Plugin.make({
  id: "notifications",
  description: "Notifications for users, permission holders or everyone",
  // Plugins that notify when it is loaded (rollouts, updates, mods, backups, the scheduler) use it: built first, none loaded is no error.
  provides: [Notifications],
  migrations,
  layer: Notifications.layer,
  http: Plugin.http(NotificationsApi, NotificationsRoutes),
  // Crashes, watchdog restarts and give-ups, for whoever may view the server.
  events: serverAlertHandlers,
  publishes: NOTIFICATION_EVENTS,
  jobs: [
    {
      name: "retention",
      every: "6 hours",
      run: Effect.flatMap(Notifications, (n) => n.prune).pipe(
        Effect.flatMap((removed) =>
          removed > 0 ? Effect.logInfo(`notifications retention removed ${removed}`) : Effect.void
        )
      )
    }
  ]
})

export { Notifications, retentionConfig } from "./Notifications.js"
export type { NotificationJsonPage, NotificationsShape, PageRequest, RetentionOptions, Viewer } from "./Notifications.js"
export {
  Audience as NotificationAudience,
  ClearResult as NotificationsClearResult,
  MarkReadBody as NotificationsMarkReadBody,
  MarkReadResult as NotificationsMarkReadResult,
  NewNotification,
  Notification,
  NotificationLevel,
  NotificationListParams,
  NotificationPage,
  NotificationsApi,
  NotificationsGroup
} from "./contract/Api.js"
export type { NotificationInput } from "./contract/Api.js"
export { InvalidNotification, NotificationStoreError } from "./errors.js"
export { aboutServer, notifyIfLoaded, serverAudience } from "./internal/serverAlerts.js"
export { NotificationPublished } from "./events.js"
