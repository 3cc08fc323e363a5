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
  createdAt: Schema.String
}) {}
