/**
 * One attempt of a queued delivery, start to record: its claim (its start on
 * disk before the request goes out, see queue.ts), the request, the outcome
 * in the log (a retry's time, a 429's pause), and the day-long disable
 * (autoDisable.ts) when the webhook has failed that long.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Random from "effect/Random"
import { type AuditTrailShape, type EventSeverity, type GroupCommitShape, type SealedBox } from "@garrison/runtime"
import type { NotificationsShape } from "../../notifications/index.js"
import type { WebhooksSettings } from "../config.js"
import { storeError, type WebhookStoreError } from "../errors.js"
import { makeAutoDisable } from "./autoDisable.js"
import type { Outbound } from "./outbound.js"
import { type AttemptResult, attemptOnce, MAX_RESPONSE_BYTES, type Target } from "./request.js"
import { backoffMs, type Verdict, verdictOf } from "./retry.js"
import { type DeliveryRow, iso, kindOf } from "./rows.js"
import { cut, responseExcerpt, storable } from "./text.js"

export interface AttemptDeps {
  readonly sql: SqlClient.SqlClient
  /** Claims and records go through it: concurrent attempts share commits. */
  readonly group: GroupCommitShape
  readonly box: SealedBox
  readonly settings: WebhooksSettings
  readonly outbound: Outbound
  readonly notifications: NotificationsShape
  readonly audit: AuditTrailShape
  /** Reloads the in-memory list of enabled webhooks (after a disable). */
  readonly reload: Effect.Effect<void, WebhookStoreError>
}

/** What the dispatcher is told of an attempt's outcome, for its lanes. */
export interface AttemptOutcomes {
  /** The delivery is retried then (ms). */
  readonly retryAt: (webhookId: string, at: number) => void
  /** The webhook answered 429: nothing more to it until then (ms). */
  readonly pauseUntil: (webhookId: string, until: number) => void
}

/** Sealing contexts: a sealed value moved to another row or column does not open. */
export const urlContext = (webhookId: string) => `webhooks/${webhookId}/url`
export const secretContext = (webhookId: string) => `webhooks/${webhookId}/secret`

/** The stored target, opened; a value that does not open (another key, an edited row) says so. */
export const openTarget = (
  box: SealedBox,
  row: { readonly id: string; readonly kind: string; readonly url: string; readonly secret: string }
): Either.Either<Target, string> => {
  const url = box.open(row.url, urlContext(row.id))
  const secret = box.open(row.secret, secretContext(row.id))
  if (Either.isLeft(url) || Either.isLeft(secret)) return Either.left("the stored URL or secret cannot be opened (was the key file replaced?)")
  return Either.right({ id: row.id, kind: kindOf(row), url: url.right, secret: secret.right })
}

/** What the log keeps of an attempt. */
export const attemptColumns = (result: AttemptResult, verdict: Verdict) => {
  const answered = result._tag === "Answered"
  return {
    response_status: answered ? result.status : null,
    response_body: answered ? responseExcerpt(result.body, result.body.length < MAX_RESPONSE_BYTES) : null,
    error: verdict._tag === "Delivered" ? null : storable(cut(verdict.reason, 1000))
  }
}

/** A queued delivery as the dispatcher reads it: the row and its webhook's target. */
export interface JoinedRow extends DeliveryRow {
  readonly kind: string
  readonly url: string
  readonly secret: string
  readonly hook_enabled: number | string
}

/** One attempt of a queued delivery (as its lane read it), start to record; never fails (a failure is logged). */
export const makeAttempt = (deps: AttemptDeps, lanes: AttemptOutcomes): ((row: JoinedRow) => Effect.Effect<void>) => {
  const { sql, group, settings } = deps
  const windowMs = Duration.toMillis(settings.disableAfter)
  const fail = (operation: string) => Effect.mapError(storeError(operation))
/** Opened targets per webhook, kept while its sealed URL and secret are the same. */
const targets = new Map<string, { readonly url: string; readonly secret: string; readonly target: Either.Either<Target, string> }>()

const targetOf = (row: JoinedRow) => {
  const kept = targets.get(row.webhook_id)
  if (kept !== undefined && kept.url === row.url && kept.secret === row.secret) return kept.target
  const target = openTarget(deps.box, { id: row.webhook_id, kind: row.kind, url: row.url, secret: row.secret })
  targets.set(row.webhook_id, { url: row.url, secret: row.secret, target })
  return target
}

const { disableIfFailingTooLong, tellAdmins } = makeAutoDisable({ sql, settings, audit: deps.audit, notifications: deps.notifications })

/** Records one attempt of a queued delivery; answers the webhook it disabled, if it did, and when it is tried next. */
const record = (row: JoinedRow, result: AttemptResult, verdict: Verdict, durationMs: number) =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const attempts = Number(row.attempts) + 1
    const columns = attemptColumns(result, verdict)
    let status: "pending" | "delivered" | "failed" = "failed"
    let next: number | undefined
    let error = columns.error
    if (verdict._tag === "Delivered") status = "delivered"
    else if (verdict._tag === "Retry") {
      const deadline = Date.parse(row.created_at) + windowMs
      if (now >= deadline) {
        error = storable(cut(`${verdict.reason}; gave up after ${attempts} attempts over ${Duration.format(settings.disableAfter)}`, 1000))
      } else {
        const wait = verdict.waitMs ?? backoffMs(attempts, yield* Random.next)
        status = "pending"
        next = Math.min(now + Math.max(wait, 1000), deadline)
        if (verdict.waitMs !== undefined) lanes.pauseUntil(row.webhook_id, now + verdict.waitMs)
      }
    }
    const disabled = yield* Effect.gen(function* () {
      yield* sql`UPDATE webhook_deliveries SET status = ${status}, attempts = ${attempts}, last_attempt_at = ${iso(now)},
          next_attempt_at = ${next === undefined ? null : iso(next)}, response_status = ${columns.response_status}, duration_ms = ${durationMs},
          response_body = ${columns.response_body}, error = ${error}, attempt_started_at = NULL
        WHERE id = ${row.id} AND status = ${"pending"}`
      if (verdict._tag === "Delivered") {
        yield* sql`UPDATE webhooks SET failing_since = NULL WHERE id = ${row.webhook_id} AND failing_since IS NOT NULL`
        return undefined
      }
      yield* sql`UPDATE webhooks SET failing_since = ${iso(now)} WHERE id = ${row.webhook_id} AND failing_since IS NULL`
      return yield* disableIfFailingTooLong(row.webhook_id, now, error ?? "failed")
    }).pipe(group.transaction, fail("record a webhook delivery"))
    return { disabled, next }
  })

/** Fails a row that cannot be sent, without an attempt. */
const failUnsent = (row: JoinedRow, error: string) =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    yield* sql`UPDATE webhook_deliveries SET status = ${"failed"}, next_attempt_at = NULL, last_attempt_at = ${iso(now)}, error = ${error}
      WHERE id = ${row.id} AND status = ${"pending"} AND attempt_started_at IS NULL`.pipe(fail("record a webhook delivery"))
  })

return (row: JoinedRow) =>
  Effect.gen(function* () {
    const target = targetOf(row)
    if (Either.isLeft(target)) return yield* failUnsent(row, target.left)
    // The attempt's start, on disk before the request goes out: a kill from here on counts it (see the header).
    // The row must still be pending as read (a disable, a delete or another attempt since leaves it alone).
    const claimed = yield* group
      .transaction(
        sql`UPDATE webhook_deliveries SET attempt_started_at = ${iso(yield* Clock.currentTimeMillis)}
          WHERE id = ${row.id} AND status = ${"pending"} AND attempts = ${row.attempts} RETURNING id`
      )
      .pipe(fail("start a webhook delivery attempt"))
    if (claimed.length === 0) return
    const outgoing = {
      deliveryId: row.id,
      idempotencyKey: row.idempotency_key,
      event: row.event,
      payload: row.payload,
      summary: row.summary,
      severity: row.severity as EventSeverity,
      serverName: row.server_name,
      attempt: Number(row.attempts) + 1
    }
    const { result, durationMs, startedAt } = yield* attemptOnce(deps.outbound, target.right, outgoing, settings.requestTimeout)
    const verdict = verdictOf(result, startedAt)
    const { disabled, next } = yield* record(row, result, verdict, durationMs)
    if (next !== undefined) lanes.retryAt(row.webhook_id, next)
    yield* Effect.logDebug(
      `webhooks: delivery ${row.id} (${row.event}) to webhook ${row.webhook_id}, attempt ${outgoing.attempt}: ` +
        (verdict._tag === "Delivered" ? "delivered" : `${verdict._tag === "Retry" ? "will retry" : "failed"}: ${verdict.reason}`)
    )
    if (disabled !== undefined) {
      yield* Effect.logWarning(`webhooks: webhook ${row.webhook_id} (${disabled.name}, ${disabled.url}) disabled: ${disabled.reason}`)
      yield* deps.reload.pipe(Effect.catchAll((error) => Effect.logWarning(`webhooks: ${error.message}`)))
      yield* tellAdmins(row.webhook_id, disabled)
    }
  }).pipe(Effect.catchAll((error) => Effect.logWarning(`webhooks: delivery ${row.id}: ${error.message}`)))
}
