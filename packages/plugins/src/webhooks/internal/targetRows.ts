/**
 * Reading and writing `webhooks` rows: the lookup by id, the view with its
 * pending count, and the insert that seals the URL and signing secret (each
 * under its own context, see queue.ts).
 */
import * as Effect from "effect/Effect"
import type { EventSubscription, WebhookKind } from "../contract/Api.js"
import { WebhookNotFound } from "../errors.js"
import { fail, type WebhooksDeps } from "./deps.js"
import { secretContext, urlContext } from "./queue.js"
import { toWebhook, type WebhookRow } from "./rows.js"
import { maskUrl } from "./url.js"

export interface NewWebhookRow {
  readonly id: string
  readonly name: string
  readonly kind: WebhookKind
  readonly url: string
  readonly secret: string
  readonly events: ReadonlyArray<EventSubscription>
  readonly servers: ReadonlyArray<string> | null
  readonly enabled: boolean
  readonly at: string
}

export const makeTargetRows = ({ sql, box }: Pick<WebhooksDeps, "sql" | "box">) => {
  const pendingCounts = Effect.map(
    sql<{ readonly webhook_id: string; readonly n: number | string }>`SELECT webhook_id, COUNT(*) AS n FROM webhook_deliveries
      WHERE status = ${"pending"} GROUP BY webhook_id`,
    (rows) => new Map(rows.map((row) => [row.webhook_id, Number(row.n)]))
  )

  const rowOf = (id: string) =>
    Effect.flatMap(sql<WebhookRow>`SELECT * FROM webhooks WHERE id = ${id}`.pipe(fail("read a webhook")), ([row]) =>
      row === undefined ? Effect.fail(new WebhookNotFound({ id })) : Effect.succeed(row)
    )

  const viewOf = (row: WebhookRow) =>
    Effect.map(
      sql<{ readonly n: number | string }>`SELECT COUNT(*) AS n FROM webhook_deliveries
        WHERE webhook_id = ${row.id} AND status = ${"pending"}`.pipe(fail("read a webhook")),
      ([count]) => toWebhook(row, Number(count?.n ?? 0))
    )

  const insertRow = (fields: NewWebhookRow) =>
    sql`INSERT INTO webhooks ${sql.insert({
      id: fields.id,
      name: fields.name,
      kind: fields.kind,
      url: box.seal(fields.url, urlContext(fields.id)),
      url_masked: maskUrl(fields.url),
      secret: box.seal(fields.secret, secretContext(fields.id)),
      events: JSON.stringify(fields.events),
      servers: fields.servers === null ? null : JSON.stringify(fields.servers),
      enabled: fields.enabled ? 1 : 0,
      disabled_reason: null,
      failing_since: null,
      created_at: fields.at,
      updated_at: fields.at
    })}`

  /** Pending deliveries of a webhook turned off go: they would be stale by the time it is on again. */
  const failPending = (id: string, why: string) =>
    sql`UPDATE webhook_deliveries SET status = ${"failed"}, next_attempt_at = NULL, error = ${why}
      WHERE webhook_id = ${id} AND status = ${"pending"}`

  return { pendingCounts, rowOf, viewOf, insertRow, failPending }
}

export type TargetRows = ReturnType<typeof makeTargetRows>
