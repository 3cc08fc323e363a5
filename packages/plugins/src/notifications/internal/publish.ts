/** Storing one notification and announcing it. */
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type { EventBus, PermissionCatalog } from "@garrison/runtime"
import { randomUUID } from "node:crypto"
import { NewNotification, type NotificationInput, type Notification } from "../contract/Api.js"
import { InvalidNotification, NotificationStoreError, storeError } from "../errors.js"
import { NotificationPublished } from "../events.js"
import { toColumns } from "./audience.js"
import { toNotification } from "./rows.js"

const decode = Schema.decodeUnknown(NewNotification)

export const makePublish = (
  sql: SqlClient.SqlClient,
  bus: Context.Tag.Service<typeof EventBus>,
  catalog: Context.Tag.Service<typeof PermissionCatalog>
) =>
  (input: NotificationInput): Effect.Effect<Notification, InvalidNotification | NotificationStoreError> =>
    Effect.gen(function* () {
      const valid = yield* decode(input).pipe(
        Effect.mapError((error) => new InvalidNotification({ message: ParseResult.TreeFormatter.formatErrorSync(error) }))
      )
      const audience = toColumns(valid.audience)
      // A typo'd permission would reach nobody, silently: refuse it instead.
      if (audience.kind === "permission" && !catalog.has(audience.key)) {
        return yield* new InvalidNotification({ message: `audience names permission "${audience.key}", which no plugin declares` })
      }
      const stored = yield* Effect.gen(function* () {
        // Bumping the counter inside the transaction orders positions by commit (a row lock on PostgreSQL).
        yield* sql`UPDATE notification_counter SET last_seq = last_seq + 1 WHERE id = 1`
        const [counter] = yield* sql<{ readonly last_seq: number | string }>`
          SELECT last_seq FROM notification_counter WHERE id = 1`
        if (counter === undefined) {
          return yield* new NotificationStoreError({ message: "the notification_counter row is missing" })
        }
        const row = {
          seq: Number(counter.last_seq),
          id: randomUUID(),
          created_at: new Date(yield* Clock.currentTimeMillis).toISOString(),
          audience_kind: audience.kind,
          audience_key: audience.key,
          level: valid.level,
          title: valid.title,
          message: valid.message,
          link: valid.link ?? null,
          server_id: valid.serverId ?? null
        }
        yield* sql`INSERT INTO notifications ${sql.insert(row)}`
        const notification = toNotification(row, false)
        const event = new NotificationPublished({
          id: notification.id,
          audience: notification.audience,
          level: notification.level,
          title: notification.title,
          serverId: notification.serverId,
          createdAt: notification.createdAt
        })
        // Its durable consumers (webhooks' queue) write in this transaction: they commit with the notification.
        yield* bus.stage(event)
        return { notification, event }
      }).pipe(sql.withTransaction, Effect.catchTag("SqlError", (error) => Effect.fail(storeError("cannot store a notification")(error))))
      // After the commit, so subscribers never see a notification that is not stored.
      yield* bus.publish(stored.event)
      return stored.notification
    })
