/**
 * The delivery log: one webhook's deliveries, newest first, by keyset
 * page; and its retention (by age, and at most so many per webhook).
 */
import type * as Statement from "@effect/sql/Statement"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { cursorCodec, effectiveLimit, Keyset } from "@garrison/runtime"
import { DELIVERY_PAGE } from "../contract/Api.js"
import type { WebhooksShape } from "../Webhooks.js"
import { fail, type WebhooksDeps } from "./deps.js"
import { type DeliveryRow, iso, toDelivery } from "./rows.js"
import type { TargetRows } from "./targetRows.js"

/** Finished deliveries kept per webhook, at most (older ones go with the retention job). */
export const MAX_LOGGED_PER_WEBHOOK = 1000

/** The log's order is newest first; a cursor holds a page's last (created_at, id). */
const deliveryPaging = Keyset.make({
  cursor: cursorCodec("webhook-deliveries", Schema.Tuple(Schema.String, Schema.String)),
  key: [
    { column: "created_at", direction: "desc", value: ([createdAt]) => createdAt },
    { column: "id", direction: "desc", value: ([, id]) => id }
  ],
  positionOf: (row: DeliveryRow) => [row.created_at, row.id] as const
})

export const makeDeliveryLog = (
  { sql, settings }: Pick<WebhooksDeps, "sql" | "settings">,
  { rowOf }: Pick<TargetRows, "rowOf">
): Pick<WebhooksShape, "deliveries" | "prune"> => {
  const deliveries: WebhooksShape["deliveries"] = (id, page) =>
    Effect.gen(function* () {
      yield* rowOf(id)
      const after = yield* deliveryPaging.decode(page.cursor)
      const limit = effectiveLimit(page.limit, DELIVERY_PAGE)
      const clauses: Array<Statement.Fragment> = [sql`webhook_id = ${id}`]
      if (page.status !== undefined) clauses.push(sql`status = ${page.status}`)
      if (after !== undefined) clauses.push(deliveryPaging.after(sql, after))
      const rows = yield* sql<DeliveryRow>`SELECT * FROM webhook_deliveries WHERE ${sql.and(clauses)}
        ORDER BY ${sql.literal(deliveryPaging.orderBy)} LIMIT ${limit + 1}`.pipe(fail("read the delivery log"))
      const result = deliveryPaging.page(rows, limit)
      return { items: result.items.map(toDelivery), nextCursor: result.nextCursor }
    })

  const prune: WebhooksShape["prune"] = Effect.gen(function* () {
    const cutoff = iso((yield* Clock.currentTimeMillis) - Duration.toMillis(settings.logRetention))
    const [before] = yield* sql<{ readonly n: number | string }>`SELECT COUNT(*) AS n FROM webhook_deliveries`
    yield* sql`DELETE FROM webhook_deliveries WHERE status <> ${"pending"} AND created_at < ${cutoff}`
    // Window functions: SQLite 3.25+ and PostgreSQL.
    yield* sql`DELETE FROM webhook_deliveries WHERE id IN (
      SELECT id FROM (
        SELECT id, ROW_NUMBER() OVER (PARTITION BY webhook_id ORDER BY created_at DESC, id DESC) AS rank_in_log
        FROM webhook_deliveries WHERE status <> ${"pending"}
      ) ranked WHERE rank_in_log > ${MAX_LOGGED_PER_WEBHOOK}
    )`
    const [after] = yield* sql<{ readonly n: number | string }>`SELECT COUNT(*) AS n FROM webhook_deliveries`
    return Number(before?.n ?? 0) - Number(after?.n ?? 0)
  }).pipe(sql.withTransaction, fail("prune the delivery log"))

  return { deliveries, prune }
}
