/**
 * The `webhooks` config backup: every webhook as JSON (URLs masked and
 * secrets left out unless asked for), and its restore, which creates or
 * updates by id in one transaction.
 */
import type * as SqlError from "@effect/sql/SqlError"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { type BackupWebhook, WebhooksBackup, WebhooksRestored } from "../contract/Api.js"
import type { WebhooksShape } from "../Webhooks.js"
import { fail, invalid, record, type WebhooksDeps } from "./deps.js"
import type { InputChecks } from "./inputChecks.js"
import { openTarget, secretContext, urlContext } from "./attempt.js"
import { iso, serversOf, subscriptionsOf, type WebhookRow } from "./rows.js"
import { newSecret } from "./signature.js"
import type { TargetRows } from "./targetRows.js"
import { isMaskedUrl, maskUrl } from "./url.js"

export const makeBackup = (
  { sql, box, audit, reload }: WebhooksDeps,
  { insertRow, failPending }: Pick<TargetRows, "insertRow" | "failPending">,
  { checkUrl, checkSubscriptions }: Pick<InputChecks, "checkUrl" | "checkSubscriptions">
): Pick<WebhooksShape, "backup" | "restore"> => {
  const now = Clock.currentTimeMillis

  const backup: WebhooksShape["backup"] = (includeSecrets, by) =>
    Effect.gen(function* () {
      const rows = yield* sql<WebhookRow>`SELECT * FROM webhooks ORDER BY created_at, id`.pipe(fail("read the webhooks"))
      const webhooks = rows.map((row): BackupWebhook => {
        const opened = includeSecrets ? openTarget(box, row) : undefined
        const clear = opened !== undefined && Either.isRight(opened) ? opened.right : undefined
        return {
          id: row.id,
          name: row.name,
          kind: row.kind === "discord" ? "discord" : "http",
          url: clear?.url ?? row.url_masked,
          ...(clear === undefined ? {} : { secret: clear.secret }),
          events: subscriptionsOf(row),
          servers: serversOf(row),
          enabled: Number(row.enabled) !== 0
        }
      })
      if (includeSecrets) {
        yield* record(audit, by, "backup.webhooks", "webhooks", { secrets: "included", webhooks: rows.length })
      }
      return new WebhooksBackup({ kind: "garrison.webhooks", version: 1, exportedAt: iso(yield* now), webhooks })
    })

  const restore: WebhooksShape["restore"] = (body, by) =>
    Effect.gen(function* () {
      const existing = new Map(
        (yield* sql<WebhookRow>`SELECT * FROM webhooks`.pipe(fail("read the webhooks"))).map((row) => [row.id, row] as const)
      )
      const at = iso(yield* now)
      const created: Array<string> = []
      const updated: Array<string> = []
      const secrets: Array<{ id: string; name: string; secret: string }> = []
      const writes: Array<Effect.Effect<unknown, SqlError.SqlError>> = []
      const seen = new Set<string>()
      for (const [index, item] of body.webhooks.entries()) {
        const field = `webhooks.${index}`
        if (seen.has(item.id)) return yield* invalid(`${field}.id`, `webhook "${item.id}" is in the backup twice: keep one of them`)
        seen.add(item.id)
        const current = existing.get(item.id)
        let url: string | undefined
        if (isMaskedUrl(item.url)) {
          if (current === undefined) {
            return yield* invalid(
              `${field}.url`,
              `the URL of "${item.name}" is masked and this controller has no webhook with its id to take it from: ` +
                "give the full URL, or restore a backup taken with secrets included (?secrets=include)"
            )
          }
        } else {
          url = yield* checkUrl(item.url, `${field}.url`)
        }
        const events = yield* checkSubscriptions(item.events, `${field}.events`)
        const serverIds = item.servers === null ? null : [...new Set(item.servers)]
        if (current === undefined) {
          const secret = item.secret ?? newSecret()
          if (item.secret === undefined) secrets.push({ id: item.id, name: item.name, secret })
          writes.push(
            insertRow({ id: item.id, name: item.name, kind: item.kind, url: url!, secret, events, servers: serverIds, enabled: item.enabled, at })
          )
          created.push(item.id)
        } else {
          writes.push(sql`UPDATE webhooks SET name = ${item.name}, kind = ${item.kind},
              url = ${url === undefined ? current.url : box.seal(url, urlContext(item.id))},
              url_masked = ${url === undefined ? current.url_masked : maskUrl(url)},
              secret = ${item.secret === undefined ? current.secret : box.seal(item.secret, secretContext(item.id))},
              events = ${JSON.stringify(events)},
              servers = ${serverIds === null ? null : JSON.stringify(serverIds)},
              enabled = ${item.enabled ? 1 : 0},
              disabled_reason = ${item.enabled ? null : current.disabled_reason},
              failing_since = ${item.enabled && Number(current.enabled) === 0 ? null : current.failing_since},
              updated_at = ${at}
            WHERE id = ${item.id}`)
          if (!item.enabled && Number(current.enabled) !== 0) writes.push(failPending(item.id, "the webhook was turned off by a restore"))
          updated.push(item.id)
        }
      }
      yield* Effect.gen(function* () {
        for (const write of writes) yield* write
        yield* record(audit, by, "backup.restore.webhooks", "webhooks", { created, updated })
      }).pipe(sql.withTransaction, fail("restore webhooks"))
      yield* reload
      return new WebhooksRestored({ created, updated, secrets })
    })

  return { backup, restore }
}
