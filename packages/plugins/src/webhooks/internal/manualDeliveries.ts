/**
 * Deliveries an admin asks for: a replay (a finished delivery's payload
 * queued again, same idempotency key) and a test (sent now, outside the
 * queue, and logged as it ended); plus the catalogue of events a test
 * can name.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { randomUUID } from "node:crypto"
import { TEST_EVENT, WebhookEventType } from "../contract/Api.js"
import { DeliveryNotFound, WebhookConflict } from "../errors.js"
import type { WebhooksShape } from "../Webhooks.js"
import { fail, invalid, record, type WebhooksDeps } from "./deps.js"
import type { Outbound } from "./outbound.js"
import { attemptColumns, openTarget } from "./attempt.js"
import type { QueueShape } from "./queue.js"
import { attemptOnce, payloadText } from "./request.js"
import { verdictOf } from "./retry.js"
import { type DeliveryRow, iso, toDelivery } from "./rows.js"
import type { TargetRows } from "./targetRows.js"
import { cut, storable } from "./text.js"

export const makeManualDeliveries = (
  { sql, box, settings, published, audit }: WebhooksDeps,
  { rowOf }: Pick<TargetRows, "rowOf">,
  outbound: Outbound,
  queue: Pick<QueueShape, "queued">
): Pick<WebhooksShape, "replay" | "test" | "eventTypes"> => {
  const now = Clock.currentTimeMillis

  const deliveryRow = (id: string) =>
    Effect.map(sql<DeliveryRow>`SELECT * FROM webhook_deliveries WHERE id = ${id}`.pipe(fail("read a delivery")), ([row]) => row)

  const replay: WebhooksShape["replay"] = (id, deliveryId, by) =>
    Effect.gen(function* () {
      const hook = yield* rowOf(id)
      const original = yield* deliveryRow(deliveryId)
      if (original === undefined || original.webhook_id !== id) {
        return yield* new DeliveryNotFound({ webhookId: id, webhookName: hook.name, deliveryId })
      }
      if (original.status === "pending") {
        return yield* new WebhookConflict({
          message: `This delivery to "${hook.name}" is still being tried: it is retried on its own; replay it once it has failed`
        })
      }
      if (Number(hook.enabled) === 0) {
        return yield* new WebhookConflict({ message: `Webhook "${hook.name}" is turned off: turn it on before replaying a delivery` })
      }
      const at = iso(yield* now)
      const copy: DeliveryRow = {
        ...original,
        id: randomUUID(),
        status: "pending",
        test: 0,
        replay_of: original.id,
        attempts: 0,
        created_at: at,
        next_attempt_at: at,
        last_attempt_at: null,
        response_status: null,
        duration_ms: null,
        response_body: null,
        error: null
      }
      yield* Effect.gen(function* () {
        yield* sql`INSERT INTO webhook_deliveries ${sql.insert({ ...copy })}`
        yield* record(audit, by, "webhooks.replay", id, { delivery: deliveryId, replay: copy.id, event: original.event })
      }).pipe(sql.withTransaction, fail("queue a replay"))
      yield* queue.queued([id])
      return toDelivery(copy)
    })

  const test: WebhooksShape["test"] = (id, eventName, by) =>
    Effect.gen(function* () {
      const hook = yield* rowOf(id)
      const declaration = eventName === undefined || eventName === TEST_EVENT ? undefined : published.byName(eventName)
      if (eventName !== undefined && eventName !== TEST_EVENT && declaration === undefined) {
        return yield* invalid("event", `"${eventName}" is not an event Garrison publishes: choose one from the list of events`)
      }
      const startedAt = yield* now
      const timestamp = iso(startedAt)
      const event = declaration?.name ?? TEST_EVENT
      const example = declaration?.example
      const data = declaration === undefined || example === undefined
        ? { webhookId: id, message: "A test delivery from Garrison" }
        : declaration.data(example)
      const serverId = declaration === undefined || example === undefined ? undefined : declaration.serverId(example)
      const row: DeliveryRow = {
        id: randomUUID(),
        webhook_id: id,
        idempotency_key: randomUUID(),
        event,
        severity: declaration === undefined || example === undefined ? "info" : declaration.severity(example),
        summary: storable(cut(declaration === undefined || example === undefined ? `Test delivery to ${hook.name}` : declaration.summary(example), 1000)),
        server_id: serverId ?? null,
        server_name: serverId === undefined ? null : "Example server",
        payload: payloadText(event, timestamp, data),
        status: "pending",
        test: 1,
        replay_of: null,
        attempts: 0,
        created_at: timestamp,
        next_attempt_at: null,
        last_attempt_at: null,
        response_status: null,
        duration_ms: null,
        response_body: null,
        error: null
      }
      const target = openTarget(box, hook)
      let finished: DeliveryRow
      if (Either.isLeft(target)) {
        finished = { ...row, status: "failed", attempts: 1, last_attempt_at: timestamp, error: target.left }
      } else {
        const outgoing = {
          deliveryId: row.id,
          idempotencyKey: row.idempotency_key,
          event,
          payload: row.payload,
          summary: row.summary,
          severity: declaration === undefined || example === undefined ? "info" as const : declaration.severity(example),
          serverName: row.server_name,
          attempt: 1
        }
        const attempt = yield* attemptOnce(outbound, target.right, outgoing, settings.requestTimeout)
        const verdict = verdictOf(attempt.result, attempt.startedAt)
        const columns = attemptColumns(attempt.result, verdict)
        finished = {
          ...row,
          status: verdict._tag === "Delivered" ? "delivered" : "failed",
          attempts: 1,
          last_attempt_at: iso(attempt.endedAt),
          duration_ms: attempt.durationMs,
          ...columns
        }
      }
      yield* Effect.gen(function* () {
        yield* sql`INSERT INTO webhook_deliveries ${sql.insert({ ...finished })}`
        yield* record(audit, by, "webhooks.test", id, { delivery: finished.id, event, status: finished.status })
      }).pipe(sql.withTransaction, fail("log a test delivery"))
      return toDelivery(finished)
    })

  const eventTypes: WebhooksShape["eventTypes"] = Effect.map(now, (ms) =>
    published.all.map(
      (declaration) =>
        new WebhookEventType({
          name: declaration.name,
          description: declaration.description,
          severities: declaration.severities,
          plugin: declaration.owner,
          example: { event: declaration.name, timestamp: iso(ms), data: declaration.data(declaration.example) }
        })
    )
  )

  return { replay, test, eventTypes }
}
