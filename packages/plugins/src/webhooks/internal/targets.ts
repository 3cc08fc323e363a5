/**
 * The webhooks themselves: listing, creating, changing, deleting them and
 * rotating their signing secret; every change audited in its transaction
 * and followed by a reload of the enabled list.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { randomUUID } from "node:crypto"
import { WebhookCreated } from "../contract/Api.js"
import type { WebhooksShape } from "../Webhooks.js"
import { fail, record, type WebhooksDeps } from "./deps.js"
import { type InputChecks, kindFor } from "./inputChecks.js"
import { secretContext, urlContext } from "./attempt.js"
import { iso } from "./rows.js"
import { newSecret } from "./signature.js"
import type { TargetRows } from "./targetRows.js"
import { maskUrl } from "./url.js"

export const makeTargets = (
  { sql, box, audit, reload }: WebhooksDeps,
  { views, rowOf, viewOf, insertRow, failPending }: TargetRows,
  { checkUrl, checkSubscriptions, checkServers }: InputChecks
): Pick<WebhooksShape, "list" | "get" | "create" | "update" | "remove" | "rotateSecret"> => {
  const now = Clock.currentTimeMillis

  const list: WebhooksShape["list"] = views().pipe(fail("read the webhooks"))

  const get: WebhooksShape["get"] = viewOf

  const create: WebhooksShape["create"] = (input, by) =>
    Effect.gen(function* () {
      const url = yield* checkUrl(input.url, "url")
      const events = yield* checkSubscriptions(input.events, "events")
      const serverIds = yield* checkServers(input.servers, "servers")
      const id = randomUUID()
      const secret = newSecret()
      const at = iso(yield* now)
      const kind = kindFor(input.kind, url)
      yield* Effect.gen(function* () {
        yield* insertRow({ id, name: input.name, kind, url, secret, events, servers: serverIds, enabled: input.enabled ?? true, at })
        yield* record(audit, by, "webhooks.create", id, { name: input.name, kind, url: maskUrl(url), events: events.map((e) => e.pattern) })
      }).pipe(sql.withTransaction, fail("store a webhook"))
      yield* reload
      const view = yield* get(id).pipe(Effect.catchTag("WebhookNotFound", Effect.die)) // just stored
      return new WebhookCreated({ ...view, secret })
    })

  const update: WebhooksShape["update"] = (id, patch, by) =>
    Effect.gen(function* () {
      const current = yield* rowOf(id)
      const url = patch.url === undefined ? undefined : yield* checkUrl(patch.url, "url")
      const events = patch.events === undefined ? undefined : yield* checkSubscriptions(patch.events, "events")
      const serverIds = patch.servers === undefined ? undefined : yield* checkServers(patch.servers, "servers")
      const at = iso(yield* now)
      const wasEnabled = Number(current.enabled) !== 0
      const enabled = patch.enabled ?? wasEnabled
      const changed = Object.keys(patch).filter((key) => (patch as Record<string, unknown>)[key] !== undefined)
      yield* Effect.gen(function* () {
        yield* sql`UPDATE webhooks SET
            name = ${patch.name ?? current.name},
            kind = ${patch.kind ?? current.kind},
            url = ${url === undefined ? current.url : box.seal(url, urlContext(id))},
            url_masked = ${url === undefined ? current.url_masked : maskUrl(url)},
            events = ${events === undefined ? current.events : JSON.stringify(events)},
            servers = ${serverIds === undefined ? current.servers : serverIds === null ? null : JSON.stringify(serverIds)},
            enabled = ${enabled ? 1 : 0},
            disabled_reason = ${enabled ? null : current.disabled_reason},
            failing_since = ${enabled && !wasEnabled ? null : current.failing_since},
            updated_at = ${at}
          WHERE id = ${id}`
        if (wasEnabled && !enabled) yield* failPending(id, "the webhook was turned off")
        yield* record(audit, by, "webhooks.update", id, {
          name: patch.name ?? current.name,
          fields: changed,
          ...(url === undefined ? {} : { url: maskUrl(url) })
        })
      }).pipe(sql.withTransaction, fail("change a webhook"))
      yield* reload
      return yield* get(id)
    })

  const remove: WebhooksShape["remove"] = (id, by) =>
    Effect.gen(function* () {
      const current = yield* rowOf(id)
      yield* Effect.gen(function* () {
        yield* sql`DELETE FROM webhook_deliveries WHERE webhook_id = ${id}`
        yield* sql`DELETE FROM webhooks WHERE id = ${id}`
        yield* record(audit, by, "webhooks.delete", id, { name: current.name, url: current.url_masked })
      }).pipe(sql.withTransaction, fail("delete a webhook"))
      yield* reload
    })

  const rotateSecret: WebhooksShape["rotateSecret"] = (id, by) =>
    Effect.gen(function* () {
      const current = yield* rowOf(id)
      const secret = newSecret()
      const at = iso(yield* now)
      yield* Effect.gen(function* () {
        yield* sql`UPDATE webhooks SET secret = ${box.seal(secret, secretContext(id))}, updated_at = ${at} WHERE id = ${id}`
        yield* record(audit, by, "webhooks.rotate-secret", id, { name: current.name })
      }).pipe(sql.withTransaction, fail("rotate a webhook's secret"))
      return secret
    })

  return { list, get, create, update, remove, rotateSecret }
}
