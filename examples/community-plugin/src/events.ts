/**
 * The plugin's event, and its own handler for it. Other plugins (audit,
 * webhooks) can subscribe to `MotdPosted` the same way, with `on(...)`.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { on } from "@garrison/runtime"

/** Published after a message is committed. A Schema class, so it can be encoded for webhooks. */
export class MotdPosted extends Schema.TaggedClass<MotdPosted>()("MotdPosted", {
  id: Schema.String,
  author: Schema.String,
  text: Schema.String,
  postedAt: Schema.String
}) {}

/**
 * Counts posts per author in `motd_stats`. Done in a handler rather than in
 * `post` itself to show the bus: it runs after the response, on its own fiber.
 * The upsert is portable (SQLite 3.24+ and PostgreSQL).
 */
export const countPost = on(
  MotdPosted,
  (event) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql`INSERT INTO motd_stats (author, posted, last_posted_at)
        VALUES (${event.author}, 1, ${event.postedAt})
        ON CONFLICT (author) DO UPDATE SET
          posted = motd_stats.posted + 1,
          last_posted_at = excluded.last_posted_at`.pipe(Effect.asVoid)
    ),
  "countPost"
)
