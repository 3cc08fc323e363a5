/**
 * `Notifications`: the service other plugins publish into (list
 * `"notifications"` in your plugin's `dependsOn`), and the per-caller inbox
 * behind the HTTP endpoints.
 *
 *   yield* notifications.publish({ audience: { permission: "server.restart" }, level: "warning",
 *     title: "Restart failed", message: "Server 3 did not come back", link: "/servers/3" })
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { EventBus, type InvalidCursor, PermissionCatalog } from "@garrison/runtime"
import type { Notification, NotificationInput, NotificationPage } from "./contract/Api.js"
import type { InvalidNotification, NotificationStoreError } from "./errors.js"
import type { Viewer } from "./internal/audience.js"
import { makeInbox, type NotificationJsonPage, type PageRequest } from "./internal/inbox.js"
import { makePublish } from "./internal/publish.js"
import { makePrune, type RetentionOptions } from "./internal/retention.js"

export type { Viewer } from "./internal/audience.js"
export type { NotificationJsonPage, PageRequest } from "./internal/inbox.js"
export type { RetentionOptions } from "./internal/retention.js"

export interface NotificationsShape {
  /** Stores a notification (committed before it returns) and publishes `NotificationPublished`. */
  readonly publish: (input: NotificationInput) => Effect.Effect<Notification, InvalidNotification | NotificationStoreError>
  /** What `viewer` sees, newest first, with their unread count. */
  readonly list: (
    viewer: Viewer,
    page?: PageRequest
  ) => Effect.Effect<NotificationPage, InvalidCursor | NotificationStoreError>
  /**
   * `list` as the route answers it: each notification's JSON written by the
   * database (rows are trusted on the way out; see the runtime's `JsonRows`).
   */
  readonly listJson: (
    viewer: Viewer,
    page?: PageRequest
  ) => Effect.Effect<NotificationJsonPage, InvalidCursor | NotificationStoreError>
  /** Marks the given ids (those `viewer` sees), or everything when `ids` is undefined; answers how many became read. */
  readonly markRead: (viewer: Viewer, ids?: ReadonlyArray<string>) => Effect.Effect<number, NotificationStoreError>
  /** Hides everything `viewer` sees now; answers how many. Later notifications show as usual. */
  readonly clear: (viewer: Viewer) => Effect.Effect<number, NotificationStoreError>
  /** Applies retention now; answers how many notifications were removed. */
  readonly prune: Effect.Effect<number, NotificationStoreError>
}

/** `NOTIFICATIONS_RETENTION` (default 90 days) and `NOTIFICATIONS_MAX_PER_AUDIENCE` (default 1000). */
export const retentionConfig: Config.Config<RetentionOptions> = Config.all({
  // Validated before the default is applied, so an error names the variable.
  retention: Config.duration("NOTIFICATIONS_RETENTION").pipe(
    Config.validate({
      message: "NOTIFICATIONS_RETENTION must be a positive duration, e.g. \"90 days\"",
      validation: (d) => Duration.greaterThan(d, Duration.zero)
    }),
    Config.withDefault(Duration.days(90))
  ),
  maxPerAudience: Config.integer("NOTIFICATIONS_MAX_PER_AUDIENCE").pipe(
    Config.validate({ message: "NOTIFICATIONS_MAX_PER_AUDIENCE must be at least 1", validation: (n) => n >= 1 }),
    Config.withDefault(1000)
  )
})

export class Notifications extends Context.Tag("@garrison/plugins/Notifications")<Notifications, NotificationsShape>() {
  static readonly make = (options: RetentionOptions) =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const bus = yield* EventBus
      const catalog = yield* PermissionCatalog
      const inbox = makeInbox(sql)
      return Notifications.of({
        publish: makePublish(sql, bus, catalog),
        list: (viewer, page = {}) => inbox.list(viewer, page),
        listJson: (viewer, page = {}) => inbox.listJson(viewer, page),
        markRead: inbox.markRead,
        clear: inbox.clear,
        prune: makePrune(sql, options)
      })
    })

  /** Retention settings from the configuration (the environment by default). */
  static readonly layer = Layer.effect(Notifications, Effect.flatMap(retentionConfig, Notifications.make))
}
