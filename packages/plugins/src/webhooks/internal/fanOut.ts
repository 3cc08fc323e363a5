/**
 * The outbox's far side: events in `webhook_outbox` (written by the
 * publishers, one row per event) become deliveries, one `webhook_deliveries`
 * row per webhook the event named, and leave the outbox, in one
 * transaction: a crash before it commits leaves the events in the outbox,
 * after it the deliveries are queued; none is lost or doubled, also with
 * several controllers on one database. A webhook deleted since the event
 * was written gets nothing; one turned off since gets its deliveries
 * failed at once (as turning it off fails what is pending).
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import type { GroupCommitShape } from "@garrison/runtime"
import { randomUUID } from "node:crypto"
import type { DeliveryRow } from "./rows.js"

/** Rows per INSERT statement (20 columns each: well under both engines' bound-parameter limits). */
const INSERT_CHUNK = 500

/** An outbox row: what a delivery is made from, and the webhooks that take it. */
export interface OutboxRow
  extends Pick<DeliveryRow, "id" | "event" | "severity" | "summary" | "server_id" | "server_name" | "payload" | "created_at"> {
  /** A JSON array of webhook ids. */
  readonly webhook_ids: string
}

const chunks = <A>(items: ReadonlyArray<A>, size: number): Array<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

const webhookIdsOf = (row: OutboxRow): ReadonlyArray<string> => {
  try {
    const ids: unknown = JSON.parse(row.webhook_ids)
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === "string") : []
  } catch {
    return []
  }
}

/** Writes one outbox row per event (the publisher's side). */
export const writeOutbox = (sql: SqlClient.SqlClient, row: OutboxRow) => sql`INSERT INTO webhook_outbox ${sql.insert({ ...row })}`

/**
 * Turns up to `limit` of the oldest outbox events into deliveries; answers the (enabled) webhooks that got some, and
 * whether the outbox may hold more.
 */
export const fanOut = (sql: SqlClient.SqlClient, group: GroupCommitShape, limit: number) =>
  group.transaction(
    Effect.gen(function* () {
      const read = yield* sql<OutboxRow>`SELECT * FROM webhook_outbox ORDER BY created_at, id LIMIT ${limit}`
      if (read.length === 0) return { webhookIds: new Set<string>(), more: false }
      // Taken by deleting them first: another controller on the same database taking the same rows meanwhile
      // (PostgreSQL) deletes none of them once this commits, so each event becomes its deliveries once.
      const taken = new Set<string>()
      for (const chunk of chunks(read, INSERT_CHUNK)) {
        const deleted = yield* sql<{ readonly id: string }>`DELETE FROM webhook_outbox WHERE ${sql.in("id", chunk.map((e) => e.id))} RETURNING id`
        for (const row of deleted) taken.add(row.id)
      }
      const events = read.filter((event) => taken.has(event.id))
      const hooks = new Map(
        (yield* sql<{ readonly id: string; readonly enabled: number | string }>`SELECT id, enabled FROM webhooks`).map((row) => [row.id, Number(row.enabled) !== 0])
      )
      const webhookIds = new Set<string>()
      const deliveries = events.flatMap((event) =>
        webhookIdsOf(event)
          .filter((id) => hooks.has(id))
          .map((webhookId) => {
            // Turned off since: failed at once (replayable from the log), as turning it off fails what is pending.
            const enabled = hooks.get(webhookId) === true
            if (enabled) webhookIds.add(webhookId)
            return {
              id: randomUUID(),
              webhook_id: webhookId,
              idempotency_key: randomUUID(),
              event: event.event,
              severity: event.severity,
              summary: event.summary,
              server_id: event.server_id,
              server_name: event.server_name,
              payload: event.payload,
              status: enabled ? "pending" : "failed",
              test: 0,
              replay_of: null,
              attempts: 0,
              created_at: event.created_at,
              next_attempt_at: enabled ? event.created_at : null,
              last_attempt_at: null,
              response_status: null,
              duration_ms: null,
              response_body: null,
              error: enabled ? null : "the webhook was turned off"
            }
          })
      )
      yield* Effect.forEach(chunks(deliveries, INSERT_CHUNK), (chunk) => sql`INSERT INTO webhook_deliveries ${sql.insert(chunk)}`, { discard: true })
      return { webhookIds, more: read.length >= limit }
    })
  )
