/**
 * The persisted queue's dispatcher: one fiber that sends what is due.
 *
 * A delivery is a `webhook_deliveries` row, `pending` with the time of its
 * next attempt until it is `delivered` or `failed`. The dispatcher reads
 * what is due per webhook (at most `WEBHOOKS_CONCURRENCY` attempts under
 * way per webhook, none while a webhook waits out a 429), runs each
 * attempt on a fiber of its own, records the outcome, and sleeps (on
 * Effect's `Clock`) until the next attempt falls due or it is woken (a new
 * delivery, an attempt ended).
 *
 * Each attempt's start is on disk before its request goes out: the write
 * that claims the row sets `attempt_started_at`, and the write that records
 * the outcome counts the attempt and clears it (both through `GroupCommit`,
 * so concurrent attempts share commits). An attempt cut short by a kill or a
 * shutdown leaves its row pending with `attempt_started_at` set: when the
 * dispatcher starts again it counts that attempt (the target may have had
 * it) before anything is sent, so the re-send, with the same
 * `Idempotency-Key` (at least once), carries the next `X-Garrison-Attempt`.
 * The log says so: `cutAttempts` of its `attempts` were cut short, so a
 * target got between `attempts - cutAttempts` and `attempts` requests.
 *
 * A webhook whose every attempt has failed for `WEBHOOKS_DISABLE_AFTER`
 * is disabled at its next failure (the rule: autoDisable.ts).
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as FiberSet from "effect/FiberSet"
import * as Queue from "effect/Queue"
import * as Random from "effect/Random"
import type * as Scope from "effect/Scope"
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

export interface QueueDeps {
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

/** The error a cut-short attempt is logged with until the next one ends. */
const CUT_SHORT = "the controller stopped during this attempt (the target may have received it); it is made again"

/** What the log keeps of an attempt. */
export const attemptColumns = (result: AttemptResult, verdict: Verdict) => {
  const answered = result._tag === "Answered"
  return {
    response_status: answered ? result.status : null,
    response_body: answered ? responseExcerpt(result.body, result.body.length < MAX_RESPONSE_BYTES) : null,
    error: verdict._tag === "Delivered" ? null : storable(cut(verdict.reason, 1000))
  }
}

interface JoinedRow extends DeliveryRow {
  readonly kind: string
  readonly url: string
  readonly secret: string
  readonly hook_enabled: number | string
}

export interface QueueShape {
  /** Something changed (a new or replayed delivery): look again now. */
  readonly wake: Effect.Effect<void>
  /** The dispatcher's loop; runs until interrupted. */
  readonly run: Effect.Effect<never, never, Scope.Scope>
}

export const makeQueue = (deps: QueueDeps): Effect.Effect<QueueShape> =>
  Effect.gen(function* () {
    const { sql, group, settings } = deps
    const windowMs = Duration.toMillis(settings.disableAfter)
    const signal = yield* Queue.sliding<void>(1)
    const wake = Effect.asVoid(Queue.offer(signal, undefined))
    /** Deliveries being attempted now, and how many per webhook. */
    const inflight = new Set<string>()
    const perWebhook = new Map<string, number>()
    /** Webhooks waiting out a 429 until then (ms). */
    const pausedUntil = new Map<string, number>()

    const fail = (operation: string) => Effect.mapError(storeError(operation))

    const { disableIfFailingTooLong, tellAdmins } = makeAutoDisable({ sql, settings, audit: deps.audit, notifications: deps.notifications })

    /** Records one attempt of a queued delivery; answers the webhook it disabled, if it did. */
    const record = (row: JoinedRow, result: AttemptResult, verdict: Verdict, durationMs: number) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const attempts = Number(row.attempts) + 1
        const columns = attemptColumns(result, verdict)
        let status: "pending" | "delivered" | "failed" = "failed"
        let next: string | null = null
        let error = columns.error
        if (verdict._tag === "Delivered") status = "delivered"
        else if (verdict._tag === "Retry") {
          const deadline = Date.parse(row.created_at) + windowMs
          if (now >= deadline) {
            error = storable(cut(`${verdict.reason}; gave up after ${attempts} attempts over ${Duration.format(settings.disableAfter)}`, 1000))
          } else {
            const wait = verdict.waitMs ?? backoffMs(attempts, yield* Random.next)
            status = "pending"
            next = iso(Math.min(now + Math.max(wait, 1000), deadline))
            if (verdict.waitMs !== undefined) pausedUntil.set(row.webhook_id, now + verdict.waitMs)
          }
        }
        return yield* Effect.gen(function* () {
          yield* sql`UPDATE webhook_deliveries SET status = ${status}, attempts = ${attempts}, last_attempt_at = ${iso(now)},
              next_attempt_at = ${next}, response_status = ${columns.response_status}, duration_ms = ${durationMs},
              response_body = ${columns.response_body}, error = ${error}, attempt_started_at = NULL
            WHERE id = ${row.id} AND status = ${"pending"}`
          if (verdict._tag === "Delivered") {
            yield* sql`UPDATE webhooks SET failing_since = NULL WHERE id = ${row.webhook_id} AND failing_since IS NOT NULL`
            return undefined
          }
          yield* sql`UPDATE webhooks SET failing_since = ${iso(now)} WHERE id = ${row.webhook_id} AND failing_since IS NULL`
          return yield* disableIfFailingTooLong(row.webhook_id, now, error ?? "failed")
        }).pipe(group.transaction, fail("record a webhook delivery"))
      })

    /** One attempt of a queued delivery, start to record. */
    const attempt = (deliveryId: string) =>
      Effect.gen(function* () {
        const [row] = yield* sql<JoinedRow>`SELECT d.*, w.kind, w.url, w.secret, w.enabled AS hook_enabled
          FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id WHERE d.id = ${deliveryId}`.pipe(fail("read a webhook delivery"))
        if (row === undefined || row.status !== "pending") return
        if (Number(row.hook_enabled) === 0) {
          yield* sql`UPDATE webhook_deliveries SET status = ${"failed"}, next_attempt_at = NULL, error = ${"the webhook is disabled"}
            WHERE id = ${row.id} AND status = ${"pending"}`.pipe(fail("record a webhook delivery"))
          return
        }
        const target = openTarget(deps.box, { id: row.webhook_id, kind: row.kind, url: row.url, secret: row.secret })
        if (Either.isLeft(target)) {
          const now = yield* Clock.currentTimeMillis
          yield* sql`UPDATE webhook_deliveries SET status = ${"failed"}, next_attempt_at = NULL, last_attempt_at = ${iso(now)}, error = ${target.left}
            WHERE id = ${row.id} AND status = ${"pending"}`.pipe(fail("record a webhook delivery"))
          return
        }
        // The attempt's start, on disk before the request goes out: a kill from here on counts it (see the header).
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
        const disabled = yield* record(row, result, verdict, durationMs)
        yield* Effect.logDebug(
          `webhooks: delivery ${row.id} (${row.event}) to webhook ${row.webhook_id}, attempt ${outgoing.attempt}: ` +
            (verdict._tag === "Delivered" ? "delivered" : `${verdict._tag === "Retry" ? "will retry" : "failed"}: ${verdict.reason}`)
        )
        if (disabled !== undefined) {
          yield* Effect.logWarning(`webhooks: webhook ${row.webhook_id} (${disabled.name}, ${disabled.url}) disabled: ${disabled.reason}`)
          yield* deps.reload.pipe(Effect.catchAll((error) => Effect.logWarning(`webhooks: ${error.message}`)))
          yield* tellAdmins(row.webhook_id, disabled)
        }
      }).pipe(Effect.catchAll((error) => Effect.logWarning(`webhooks: delivery ${deliveryId}: ${error.message}`)))

    /** Starts the due deliveries the limits allow; answers when to look again (ms), if anything is waiting. */
    const dispatch = (runner: FiberSet.FiberSet<void, never>) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const nowIso = iso(now)
        for (const [id, until] of pausedUntil) if (until <= now) pausedUntil.delete(id)
        const due = yield* sql<{ readonly webhook_id: string }>`SELECT DISTINCT webhook_id FROM webhook_deliveries
          WHERE status = ${"pending"} AND next_attempt_at <= ${nowIso}`
        for (const { webhook_id: webhookId } of due) {
          if (pausedUntil.has(webhookId)) continue
          const busy = perWebhook.get(webhookId) ?? 0
          const free = settings.concurrency - busy
          if (free <= 0) continue
          const rows = yield* sql<{ readonly id: string }>`SELECT id FROM webhook_deliveries
            WHERE webhook_id = ${webhookId} AND status = ${"pending"} AND next_attempt_at <= ${nowIso}
            ORDER BY next_attempt_at, id LIMIT ${free + busy}`
          let started = 0
          for (const { id } of rows) {
            if (started >= free) break
            if (inflight.has(id)) continue
            started++
            inflight.add(id)
            perWebhook.set(webhookId, (perWebhook.get(webhookId) ?? 0) + 1)
            yield* FiberSet.run(
              runner,
              attempt(id).pipe(
                Effect.ensuring(
                  Effect.suspend(() => {
                    inflight.delete(id)
                    const left = (perWebhook.get(webhookId) ?? 1) - 1
                    if (left <= 0) perWebhook.delete(webhookId)
                    else perWebhook.set(webhookId, left)
                    return wake
                  })
                )
              )
            )
          }
        }
        const [next] = yield* sql<{ readonly next_at: string | null }>`SELECT MIN(next_attempt_at) AS next_at FROM webhook_deliveries
          WHERE status = ${"pending"} AND next_attempt_at > ${nowIso}`
        const candidates = [...pausedUntil.values()]
        if (next?.next_at !== null && next?.next_at !== undefined) candidates.push(Date.parse(next.next_at))
        return candidates.length === 0 ? undefined : Math.min(...candidates)
      }).pipe(fail("read the webhook queue"))

    /**
     * Attempts a kill or a shutdown cut short (started, never recorded): counted now, before anything is sent, so
     * the re-send carries the next attempt number. Their rows stay pending and due as they were.
     */
    const countCutAttempts = group
      .transaction(
        sql`UPDATE webhook_deliveries SET attempts = attempts + 1, cut_attempts = cut_attempts + 1, last_attempt_at = attempt_started_at, attempt_started_at = NULL,
            response_status = NULL, duration_ms = NULL, response_body = NULL, error = ${CUT_SHORT}
          WHERE attempt_started_at IS NOT NULL RETURNING id`
      )
      .pipe(
        Effect.flatMap((rows) =>
          rows.length === 0 ? Effect.void : Effect.logInfo(`webhooks: ${rows.length} attempt(s) cut short by the last stop counted; they are sent again`)
        ),
        Effect.catchAll((error) => Effect.logWarning(`webhooks: ${storeError("count the attempts cut short by the last stop")(error).message}`))
      )

    const run: QueueShape["run"] = Effect.gen(function* () {
      yield* countCutAttempts
      const runner = yield* FiberSet.make<void, never>()
      for (;;) {
        const wakeAt = yield* dispatch(runner).pipe(
          Effect.catchAll((error) =>
            // A database hiccup: look again in a while (or at the next wake-up).
            Effect.as(Effect.logWarning(`webhooks: ${error.message}`), Number.NaN)
          )
        )
        const now = yield* Clock.currentTimeMillis
        const wait =
          wakeAt === undefined ? undefined : Number.isNaN(wakeAt) ? Duration.seconds(5) : Duration.millis(Math.max(0, wakeAt - now))
        if (wait !== undefined && Duration.toMillis(wait) === 0) continue
        yield* wait === undefined ? Queue.take(signal) : Effect.race(Queue.take(signal), Effect.sleep(wait))
      }
    })

    return { wake, run }
  })
