/**
 * Published after a notification is committed, for live feeds (server-sent
 * events) and webhooks. Carries no message body: subscribers that need it
 * read it with the audience's rights.
 */
import * as Schema from "effect/Schema"
import { Audience, NotificationLevel } from "./contract/Api.js"

export class NotificationPublished extends Schema.TaggedClass<NotificationPublished>()("NotificationPublished", {
  id: Schema.String,
  audience: Audience,
  level: NotificationLevel,
  title: Schema.String,
  /** The server it is about, if any: a live feed shows it only to callers who may view that server. */
  serverId: Schema.NullOr(Schema.String),
  createdAt: Schema.String
}) {}
