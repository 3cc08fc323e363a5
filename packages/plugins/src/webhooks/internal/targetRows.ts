/**
 * Reading and writing `webhooks` rows: the lookup by id, the views (with
 * their pending count and newest delivery, in the same statement), and the insert that seals the URL and signing secret (each
 * under its own context, see queue.ts).
 */
import * as Effect from "effect/Effect"
import type { EventSubscription, WebhookKind } from "../contract/Api.js"
import { WebhookNotFound } from "../errors.js"
import { fail, type WebhooksDeps } from "./deps.js"
import { secretContext, urlContext } from "./attempt.js"
import { toWebhook, type WebhookRow, type WebhookViewRow } from "./rows.js"
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
  const rowOf = (id: string) =>
    Effect.flatMap(sql<WebhookRow>`SELECT * FROM webhooks WHERE id = ${id}`.pipe(fail("read a webhook")), ([row]) =>
      row === undefined ? Effect.fail(new WebhookNotFound({ id })) : Effect.succeed(row)
    )

  /**
   * Webhooks as answered, oldest first: every one, or the one with `id`. One statement on both engines: the
   * pending count and the newest delivery are correlated subqueries, each an index lookup per webhook (the queue's
   * `(status, webhook_id, ...)`, the log's `(webhook_id, created_at, id)` read backwards). Pending counts the
   * outbox's events that name the webhook too (a short table: read whole; ids are UUIDs, so the quoted id in the
   * JSON array matches no other).
   */
  const views = (id?: string) =>
    Effect.map(
      sql<WebhookViewRow>`SELECT w.*,
          (SELECT COUNT(*) FROM webhook_deliveries p WHERE p.status = ${"pending"} AND p.webhook_id = w.id)
            + (SELECT COUNT(*) FROM webhook_outbox o WHERE o.webhook_ids LIKE ${'%"'} || w.id || ${'"%'}) AS pending,
          d.id AS last_id, d.event AS last_event, d.status AS last_status, d.response_status AS last_response_status,
          COALESCE(d.last_attempt_at, d.created_at) AS last_at
        FROM webhooks w
        LEFT JOIN webhook_deliveries d ON d.id = (
          SELECT x.id FROM webhook_deliveries x WHERE x.webhook_id = w.id ORDER BY x.created_at DESC, x.id DESC LIMIT 1
        )
        ${id === undefined ? sql.literal("") : sql`WHERE w.id = ${id}`}
        ORDER BY w.created_at, w.id`,
      (rows) => rows.map(toWebhook)
    )

  /** One webhook as answered. */
  const viewOf = (id: string) =>
    Effect.flatMap(views(id).pipe(fail("read a webhook")), ([view]) =>
      view === undefined ? Effect.fail(new WebhookNotFound({ id })) : Effect.succeed(view)
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

  return { views, rowOf, viewOf, insertRow, failPending }
}

export type TargetRows = ReturnType<typeof makeTargetRows>
