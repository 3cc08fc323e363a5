/**
 * The auto-disable rule: a webhook whose every attempt has failed for
 * `WEBHOOKS_DISABLE_AFTER` (since `failing_since`, the first failure after
 * its last success) is disabled at its next failure, in the transaction
 * that records it, with an audit row; its pending deliveries fail, and the
 * admins get a notification once that transaction has committed.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type { AuditTrailShape } from "@garrison/runtime"
import type { NotificationsShape } from "../../notifications/index.js"
import type { WebhooksSettings } from "../config.js"
import { iso } from "./rows.js"
import { cut, storable } from "./text.js"

export const makeAutoDisable = ({ sql, settings, audit, notifications }: {
  readonly sql: SqlClient.SqlClient
  readonly settings: WebhooksSettings
  readonly audit: AuditTrailShape
  readonly notifications: NotificationsShape
}) => {
  const windowMs = Duration.toMillis(settings.disableAfter)

  /** Disables a webhook that failed for the whole window; in the caller's transaction. Answers its name and masked URL when it did. */
  const disableIfFailingTooLong = (webhookId: string, now: number, lastError: string) =>
    Effect.gen(function* () {
      const [state] = yield* sql<{ readonly failing_since: string | null; readonly enabled: number | string; readonly name: string; readonly url_masked: string }>`
        SELECT failing_since, enabled, name, url_masked FROM webhooks WHERE id = ${webhookId}`
      if (state === undefined || Number(state.enabled) === 0 || state.failing_since === null) return undefined
      if (now - Date.parse(state.failing_since) < windowMs) return undefined
      const reason = storable(cut(`every attempt failed for ${Duration.format(settings.disableAfter)} (since ${state.failing_since}); last: ${lastError}`, 1000))
      const changed = yield* sql<{ readonly id: string }>`UPDATE webhooks SET enabled = 0, disabled_reason = ${reason}, updated_at = ${iso(now)}
        WHERE id = ${webhookId} AND enabled = 1 RETURNING id`
      if (changed.length === 0) return undefined
      yield* sql`UPDATE webhook_deliveries SET status = ${"failed"}, next_attempt_at = NULL,
          error = ${"the webhook was disabled: every attempt failed for too long"}
        WHERE webhook_id = ${webhookId} AND status = ${"pending"}`
      yield* audit.record({
        actor: null,
        actorName: null,
        ip: null,
        action: "webhooks.disabled",
        target: webhookId,
        result: "success",
        details: { name: state.name, url: state.url_masked, failingSince: state.failing_since, lastError: cut(lastError, 300) }
      })
      return { name: state.name, url: state.url_masked, reason }
    })

  const tellAdmins = (webhookId: string, disabled: { readonly name: string; readonly url: string; readonly reason: string }) =>
    notifications
      .publish({
        audience: { permission: "admin" },
        level: "error",
        title: cut(`Webhook "${disabled.name}" was turned off`, 200),
        message: cut(
          `Deliveries to ${disabled.url} kept failing: ${disabled.reason}. Fix the target, turn the webhook on again ` +
            `and replay what failed from its delivery log.`,
          4000
        ),
        link: `/webhooks/${encodeURIComponent(webhookId)}`
      })
      .pipe(
        Effect.catchAll((error) => Effect.logWarning(`webhooks: cannot tell the admins that webhook ${webhookId} was disabled: ${error.message}`))
      )

  return { disableIfFailingTooLong, tellAdmins }
}
