/**
 * The notifications contract: what publishers send, what callers read, and
 * the three spec endpoints (any signed-in caller, each sees only their own).
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { Access, BadRequest, BodyExample, pageFields, pageParams, StoredText, TrimmedStoredText } from "@garrison/runtime"

export const DEFAULT_PAGE_SIZE = 50
export const MAX_PAGE_SIZE = 200
/** Most ids one `PATCH /api/notifications/read` may name. */
export const MAX_IDS = 1000

const Name = StoredText.pipe(Schema.minLength(1), Schema.maxLength(200))

/** Who sees a notification: one principal (by id), holders of a permission (and admins), or everyone. */
export const Audience = Schema.Union(
  Schema.Struct({ userId: Name }),
  Schema.Struct({ permission: Name }),
  Schema.Literal("all")
)
export type Audience = typeof Audience.Type

export const NotificationLevel = Schema.Literal("info", "warning", "error")
export type NotificationLevel = typeof NotificationLevel.Type

/** A path in this UI (`/servers/1`) or an http(s) URL: never `javascript:` and the like. */
const Link = StoredText.pipe(
  Schema.maxLength(2048),
  Schema.filter((s) => /^\/(?![/\\])/.test(s) || /^https?:\/\/[^\s]+$/i.test(s), {
    message: () => "link must be a path starting with / or an http(s) URL"
  })
)

/** What a publisher sends to `Notifications.publish`. */
export const NewNotification = Schema.Struct({
  audience: Audience,
  level: NotificationLevel,
  title: TrimmedStoredText.pipe(Schema.minLength(1), Schema.maxLength(200)),
  message: StoredText.pipe(Schema.minLength(1), Schema.maxLength(4000)),
  link: Schema.optional(Link),
  /**
   * The server it is about: only callers who may view that server see it,
   * and a permission audience also reaches holders of that permission on
   * this server alone (a per-server role).
   */
  serverId: Schema.optional(Name)
})
export type NotificationInput = typeof NewNotification.Encoded

export class Notification extends Schema.Class<Notification>("Notification")({
  id: Schema.String,
  audience: Audience,
  level: NotificationLevel,
  title: Schema.String,
  message: Schema.String,
  link: Schema.NullOr(Schema.String),
  /** The server it is about, if any. */
  serverId: Schema.NullOr(Schema.String),
  /** ISO-8601, UTC. */
  createdAt: Schema.String,
  /** Whether this caller has read it (per caller, even for broadcasts). */
  read: Schema.Boolean
}) {}

/** Newest first; `nextCursor` leads to older notifications. */
export class NotificationPage extends Schema.Class<NotificationPage>("NotificationPage")({
  ...pageFields(Notification),
  /** Unread notifications this caller can see, over all pages. */
  unreadCount: Schema.Number
}) {}

export const NotificationListParams = Schema.Struct(pageParams({ defaultLimit: DEFAULT_PAGE_SIZE, maxLimit: MAX_PAGE_SIZE }))

export const MarkReadBody = Schema.Struct({
  /** Absent: every notification the caller can see. */
  ids: Schema.optional(Schema.Array(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100))).pipe(Schema.maxItems(MAX_IDS)))
})

export const MarkReadResult = Schema.Struct({
  /** How many went from unread to read. */
  marked: Schema.Number
})

export const ClearResult = Schema.Struct({
  /** How many notifications the caller stopped seeing. */
  cleared: Schema.Number
})

export class NotificationsGroup extends HttpApiGroup.make("notifications").annotate(OpenApi.Description, "The signed-in user's notifications.")
  .add(
    HttpApiEndpoint.get("list", "/api/notifications")
      .setUrlParams(NotificationListParams)
      .addSuccess(NotificationPage)
      .addError(BadRequest)
      .annotate(OpenApi.Summary, "List my notifications")
      .annotate(OpenApi.Description, "The caller's own notifications, newest first, with how many are unread.")
  )
  .add(
    HttpApiEndpoint.patch("markRead", "/api/notifications/read")
      // No body at all (decoded as null) means the same as `{}`: mark everything.
      .setPayload(Schema.NullOr(MarkReadBody))
      .addSuccess(MarkReadResult)
      .annotate(OpenApi.Summary, "Mark notifications read")
      .annotate(OpenApi.Description, "The ids given, or every notification the caller can see when `ids` is left out (or there is no body).")
      .annotate(BodyExample, { ids: ["0b6f3c1e-5a7d-4f4e-9b1a-2f1e3d4c5b6a"] })
  )
  .add(
    HttpApiEndpoint.del("clear", "/api/notifications").addSuccess(ClearResult)
      .annotate(OpenApi.Summary, "Clear my notifications")
      .annotate(OpenApi.Description, "The caller stops seeing every notification they can see now; others still see theirs.")
  )
  .annotate(Access, Access.anyAuth) {}

export class NotificationsApi extends HttpApi.make("notifications").add(NotificationsGroup) {}
