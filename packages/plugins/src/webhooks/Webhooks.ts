/**
 * `Webhooks`: targets that receive the events Garrison publishes
 * (`PublishedEvents`), their persisted queue and delivery log, test
 * deliveries, replays and the `webhooks` config backup. See README.md.
 *
 * Built as a scoped layer: it registers one event-bus handler per
 * published event class (each writes a queue row per webhook that takes
 * the event: one statement, none when no webhook does) and forks the
 * dispatcher (internal/queue.ts), both for the life of the plugin.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type * as SqlError from "@effect/sql/SqlError"
import type * as Statement from "@effect/sql/Statement"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import { randomUUID } from "node:crypto"
import {
  type AnyEvent,
  type AnyPublishedEvent,
  type AuditActor,
  auditActorFields,
  AuditTrail,
  EventBus,
  effectiveLimit,
  type InvalidCursor,
  Keyset,
  cursorCodec,
  type PageOf,
  PublishedEvents,
  recordForRequest,
  SEALED_PREFIX,
  SealedSecrets,
  type SealingKey
} from "@garrison/runtime"
import { Notifications } from "../notifications/index.js"
import { Servers } from "../servers/index.js"
import {
  type BackupWebhook,
  DELIVERY_PAGE,
  type DeliveryStatus,
  type EventSubscription,
  type EventSubscriptionInput,
  TEST_EVENT,
  type Webhook,
  WebhookCreated,
  WebhookDelivery,
  WebhookEventType,
  type WebhookInput,
  type WebhookKind,
  type WebhookPatch,
  WebhooksBackup,
  type WebhooksRestoreBody,
  WebhooksRestored
} from "./contract/Api.js"
import { webhooksConfig, type WebhooksSettings } from "./config.js"
import { DeliveryNotFound, InvalidWebhook, storeError, WebhookConflict, WebhookNotFound, type WebhookStoreError } from "./errors.js"
import { blockedAddress, isIpLiteral } from "./internal/address.js"
import { makeOutbound } from "./internal/outbound.js"
import { attemptColumns, makeQueue, openTarget, secretContext, urlContext } from "./internal/queue.js"
import { attemptOnce, payloadText } from "./internal/request.js"
import { verdictOf } from "./internal/retry.js"
import { type DeliveryRow, iso, serversOf, subscriptionsOf, toDelivery, toWebhook, type WebhookRow } from "./internal/rows.js"
import { newSecret } from "./internal/signature.js"
import { type ActiveWebhook, normalize, takes } from "./internal/subscriptions.js"
import { cut, storable } from "./internal/text.js"
import { isMaskedUrl, looksLikeChatWebhook, maskUrl, normalizeUrl, urlProblem } from "./internal/url.js"

/** The key that seals webhook URLs and signing secrets at rest. */
export const WEBHOOKS_KEY = {
  name: "webhooks-key",
  spec: {
    bytes: 32,
    exact: true,
    what: "the key that encrypts stored webhook URLs and signing secrets (AES-256-GCM)",
    ifReplaced: "every webhook's URL must be entered again and its secret rotated"
  }
} as const satisfies SealingKey

/** Finished deliveries kept per webhook, at most (older ones go with the retention job). */
export const MAX_LOGGED_PER_WEBHOOK = 1000

export interface DeliveryListRequest {
  readonly limit?: number | undefined
  readonly cursor?: string | undefined
  readonly status?: DeliveryStatus | undefined
}

type Lookup = WebhookNotFound | WebhookStoreError

export interface WebhooksShape {
  /** Every webhook, oldest first. */
  readonly list: Effect.Effect<ReadonlyArray<Webhook>, WebhookStoreError>
  readonly get: (id: string) => Effect.Effect<Webhook, Lookup>
  /** Stores a webhook; the answer carries its signing secret (shown this once). */
  readonly create: (input: WebhookInput, by: AuditActor) => Effect.Effect<WebhookCreated, InvalidWebhook | WebhookStoreError>
  readonly update: (id: string, patch: WebhookPatch, by: AuditActor) => Effect.Effect<Webhook, Lookup | InvalidWebhook>
  /** The webhook, its queue and its log. */
  readonly remove: (id: string, by: AuditActor) => Effect.Effect<void, Lookup>
  /** A new signing secret (answered once); the old one stops working at once. */
  readonly rotateSecret: (id: string, by: AuditActor) => Effect.Effect<string, Lookup>
  /** The delivery log, newest first. */
  readonly deliveries: (id: string, page: DeliveryListRequest) => Effect.Effect<PageOf<WebhookDelivery>, Lookup | InvalidCursor>
  /** Queues a finished delivery's payload again (same idempotency key). */
  readonly replay: (id: string, deliveryId: string, by: AuditActor) => Effect.Effect<WebhookDelivery, Lookup | DeliveryNotFound | WebhookConflict>
  /** Sends one test delivery now and answers it as logged. */
  readonly test: (id: string, event: string | undefined, by: AuditActor) => Effect.Effect<WebhookDelivery, Lookup | InvalidWebhook>
  /** Every published event, with an example payload. */
  readonly eventTypes: Effect.Effect<ReadonlyArray<WebhookEventType>>
  readonly backup: (includeSecrets: boolean, by: AuditActor) => Effect.Effect<WebhooksBackup, WebhookStoreError>
  readonly restore: (body: WebhooksRestoreBody, by: AuditActor) => Effect.Effect<WebhooksRestored, InvalidWebhook | WebhookStoreError>
  /** Retention of the delivery log; answers how many deliveries went. */
  readonly prune: Effect.Effect<number, WebhookStoreError>
}

/** The webhook list's order is creation; a cursor holds a page's last (createdAt, id). */
export const webhookPaging = Keyset.make({
  cursor: cursorCodec("webhooks", Schema.Tuple(Schema.String, Schema.String)),
  key: [
    { column: "created_at", direction: "asc", value: ([createdAt]) => createdAt },
    { column: "id", direction: "asc", value: ([, id]) => id }
  ],
  positionOf: (hook: Webhook) => [hook.createdAt, hook.id] as const
})

/** The log's order is newest first; a cursor holds a page's last (created_at, id). */
const deliveryPaging = Keyset.make({
  cursor: cursorCodec("webhook-deliveries", Schema.Tuple(Schema.String, Schema.String)),
  key: [
    { column: "created_at", direction: "desc", value: ([createdAt]) => createdAt },
    { column: "id", direction: "desc", value: ([, id]) => id }
  ],
  positionOf: (row: DeliveryRow) => [row.created_at, row.id] as const
})

const invalid = (field: string, rule: string) => new InvalidWebhook({ field, message: `${field}: ${rule}` })

export class Webhooks extends Context.Tag("@garrison/plugins/Webhooks")<Webhooks, WebhooksShape>() {
  static readonly make = (settings: WebhooksSettings) =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const bus = yield* EventBus
      const published = yield* PublishedEvents
      const notifications = yield* Notifications
      const servers = yield* Servers
      const audit = yield* AuditTrail
      const fail = (operation: string) => Effect.mapError(storeError(operation))

      const [sealedRows] = yield* sql<{ readonly n: number | string }>`SELECT COUNT(*) AS n FROM webhooks WHERE url LIKE ${`${SEALED_PREFIX}%`}`.pipe(
        fail("count the stored webhooks")
      )
      const box = yield* (yield* SealedSecrets).box(WEBHOOKS_KEY, {
        sealedValuesExist: Number(sealedRows?.n ?? 0) > 0,
        sealedWhat: "webhook URLs and signing secrets"
      })
      const outbound = makeOutbound(settings.allowPrivate)
      const now = Clock.currentTimeMillis

      // The enabled webhooks, as the event handlers match them.
      const active = yield* Ref.make<ReadonlyArray<ActiveWebhook>>([])
      const reload = Effect.gen(function* () {
        const rows = yield* sql<Pick<WebhookRow, "id" | "events" | "servers">>`SELECT id, events, servers FROM webhooks WHERE enabled = 1`
        yield* Ref.set(
          active,
          rows.map((row) => {
            const list = serversOf(row)
            return { id: row.id, subscriptions: subscriptionsOf(row), servers: list === null ? null : new Set(list) }
          })
        )
      }).pipe(fail("read the webhooks"))
      yield* reload

      const queue = yield* makeQueue({ sql, box, settings, outbound, notifications, audit, reload })

      // ---- reading ----

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

      const list: WebhooksShape["list"] = Effect.gen(function* () {
        const rows = yield* sql<WebhookRow>`SELECT * FROM webhooks ORDER BY created_at, id`
        const pending = yield* pendingCounts
        return rows.map((row) => toWebhook(row, pending.get(row.id) ?? 0))
      }).pipe(fail("read the webhooks"))

      const get: WebhooksShape["get"] = (id) => Effect.flatMap(rowOf(id), viewOf)

      // ---- checking input ----

      const checkSubscriptions = (items: ReadonlyArray<EventSubscriptionInput>, field: string) =>
        Effect.forEach(items, (item, index) => {
          const subscription = normalize(item)
          return published.namesMatching(subscription.pattern).length > 0
            ? Effect.succeed(subscription)
            : Effect.fail(
                invalid(
                  `${field}.${index}.pattern`,
                  `"${subscription.pattern}" matches no event the loaded plugins publish (see GET /api/webhooks/events)`
                )
              )
        })

      const checkServers = (ids: ReadonlyArray<string> | null | undefined, field: string) =>
        Effect.gen(function* () {
          if (ids === null || ids === undefined) return null
          for (const [index, id] of ids.entries()) {
            // An entry that cannot be read still exists: only a missing one is refused.
            const missing = yield* servers.entry(id).pipe(
              Effect.as(false),
              Effect.catchTags({ ServerNotFound: () => Effect.succeed(true), ServerUnreadable: () => Effect.succeed(false) })
            )
            if (missing) return yield* invalid(`${field}.${index}`, `no server with id "${id}"`)
          }
          return [...new Set(ids)]
        })

      /** The URL as stored; refused when it names a private address literally and those are not allowed. */
      const checkUrl = (text: string, field: string) =>
        Effect.gen(function* () {
          const problem = urlProblem(text)
          if (problem !== undefined) return yield* invalid(field, problem)
          const url = normalizeUrl(text)
          const host = new URL(url).hostname
          if (!settings.allowPrivate && isIpLiteral(host)) {
            const why = blockedAddress(host)
            if (why !== undefined) {
              return yield* invalid(field, `${host} is ${why}; webhooks reach public addresses only unless WEBHOOKS_ALLOW_PRIVATE=true`)
            }
          }
          return url
        })

      const kindFor = (kind: WebhookKind | undefined, url: string): WebhookKind => kind ?? (looksLikeChatWebhook(url) ? "discord" : "http")

      const record = (by: AuditActor, action: string, target: string, details: Record<string, unknown>) =>
        recordForRequest(audit, { ...auditActorFields(by), action, target, result: "success", details })

      // ---- changing ----

      const insertRow = (fields: {
        readonly id: string
        readonly name: string
        readonly kind: WebhookKind
        readonly url: string
        readonly secret: string
        readonly events: ReadonlyArray<EventSubscription>
        readonly servers: ReadonlyArray<string> | null
        readonly enabled: boolean
        readonly at: string
      }) =>
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
            yield* record(by, "webhooks.create", id, { name: input.name, kind, url: maskUrl(url), events: events.map((e) => e.pattern) })
          }).pipe(sql.withTransaction, fail("store a webhook"))
          yield* reload
          const view = yield* get(id).pipe(Effect.catchTag("WebhookNotFound", Effect.die)) // just stored
          return new WebhookCreated({ ...view, secret })
        })

      /** Pending deliveries of a webhook turned off go: they would be stale by the time it is on again. */
      const failPending = (id: string, why: string) =>
        sql`UPDATE webhook_deliveries SET status = ${"failed"}, next_attempt_at = NULL, error = ${why}
          WHERE webhook_id = ${id} AND status = ${"pending"}`

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
            yield* record(by, "webhooks.update", id, {
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
            yield* record(by, "webhooks.delete", id, { name: current.name, url: current.url_masked })
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
            yield* record(by, "webhooks.rotate-secret", id, { name: current.name })
          }).pipe(sql.withTransaction, fail("rotate a webhook's secret"))
          return secret
        })

      // ---- deliveries ----

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

      const deliveryRow = (id: string) =>
        Effect.map(sql<DeliveryRow>`SELECT * FROM webhook_deliveries WHERE id = ${id}`.pipe(fail("read a delivery")), ([row]) => row)

      const replay: WebhooksShape["replay"] = (id, deliveryId, by) =>
        Effect.gen(function* () {
          const hook = yield* rowOf(id)
          const original = yield* deliveryRow(deliveryId)
          if (original === undefined || original.webhook_id !== id) return yield* new DeliveryNotFound({ webhookId: id, deliveryId })
          if (original.status === "pending") {
            return yield* new WebhookConflict({ message: `delivery ${deliveryId} is still pending: it is retried on its own` })
          }
          if (Number(hook.enabled) === 0) {
            return yield* new WebhookConflict({ message: `webhook ${id} is disabled: turn it on (PATCH {"enabled": true}) before replaying` })
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
            yield* record(by, "webhooks.replay", id, { delivery: deliveryId, replay: copy.id, event: original.event })
          }).pipe(sql.withTransaction, fail("queue a replay"))
          yield* queue.wake
          return toDelivery(copy)
        })

      const test: WebhooksShape["test"] = (id, eventName, by) =>
        Effect.gen(function* () {
          const hook = yield* rowOf(id)
          const declaration = eventName === undefined || eventName === TEST_EVENT ? undefined : published.byName(eventName)
          if (eventName !== undefined && eventName !== TEST_EVENT && declaration === undefined) {
            return yield* invalid("event", `"${eventName}" is no event the loaded plugins publish (see GET /api/webhooks/events)`)
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
            yield* record(by, "webhooks.test", id, { delivery: finished.id, event, status: finished.status })
          }).pipe(sql.withTransaction, fail("log a test delivery"))
          return toDelivery(finished)
        })

      const eventTypes: WebhooksShape["eventTypes"] = Effect.map(now, (ms) =>
        published.all.map(
          (declaration) =>
            new WebhookEventType({
              name: declaration.name,
              description: declaration.description,
              severity: declaration.severity(declaration.example),
              plugin: declaration.owner,
              example: { event: declaration.name, timestamp: iso(ms), data: declaration.data(declaration.example) }
            })
        )
      )

      // ---- config backup ----

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
            yield* record(by, "backup.webhooks", "webhooks", { secrets: "included", webhooks: rows.length })
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
            if (seen.has(item.id)) return yield* invalid(`${field}.id`, `"${item.id}" appears twice in the backup`)
            seen.add(item.id)
            const current = existing.get(item.id)
            let url: string | undefined
            if (isMaskedUrl(item.url)) {
              if (current === undefined) {
                return yield* invalid(`${field}.url`, "is masked and no webhook with this id exists here: take the backup with ?secrets=include, or give the full URL")
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
            yield* record(by, "backup.restore.webhooks", "webhooks", { created, updated })
          }).pipe(sql.withTransaction, fail("restore webhooks"))
          yield* reload
          return new WebhooksRestored({ created, updated, secrets })
        })

      // ---- retention ----

      const prune: WebhooksShape["prune"] = Effect.gen(function* () {
        const cutoff = iso((yield* now) - Duration.toMillis(settings.logRetention))
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

      // ---- the queue's producers and consumer ----

      /** What a server is called, for chat embeds: its entry's name, else the event's `name`. */
      const serverNameOf = (serverId: string, data: Readonly<Record<string, unknown>>) =>
        servers.entry(serverId).pipe(
          Effect.map((entry) => entry.name),
          Effect.orElseSucceed(() => (typeof data.name === "string" ? data.name : null))
        )

      /** One event: a queue row per enabled webhook that takes it, in one statement; nothing when none does. */
      const enqueue = (declaration: AnyPublishedEvent, event: AnyEvent) =>
        Effect.gen(function* () {
          const hooks = yield* Ref.get(active)
          if (hooks.length === 0) return
          const severity = declaration.severity(event)
          const serverId = declaration.serverId(event)
          const targets = hooks.filter((hook) => takes(hook, declaration.name, severity, serverId))
          if (targets.length === 0) return
          const timestamp = iso(yield* now)
          const data = declaration.data(event)
          const payload = payloadText(declaration.name, timestamp, data)
          const summary = storable(cut(declaration.summary(event), 1000))
          const serverName = serverId === undefined ? null : yield* serverNameOf(serverId, data)
          const rows = targets.map((hook) => ({
            id: randomUUID(),
            webhook_id: hook.id,
            idempotency_key: randomUUID(),
            event: declaration.name,
            severity,
            summary,
            server_id: serverId ?? null,
            server_name: serverName === null ? null : storable(cut(serverName, 200)),
            payload,
            status: "pending",
            test: 0,
            replay_of: null,
            attempts: 0,
            created_at: timestamp,
            next_attempt_at: timestamp,
            last_attempt_at: null,
            response_status: null,
            duration_ms: null,
            response_body: null,
            error: null
          }))
          yield* sql`INSERT INTO webhook_deliveries ${sql.insert(rows)}`.pipe(fail(`queue ${declaration.name} for webhooks`))
          yield* queue.wake
        })

      for (const declaration of published.all) {
        yield* bus.register("webhooks", {
          name: `queue ${declaration.name}`,
          tag: declaration.tag,
          handle: (event) => (event._tag === declaration.tag ? enqueue(declaration, event) : Effect.void)
        })
      }
      yield* Effect.forkScoped(queue.run)

      return Webhooks.of({
        list,
        get,
        create,
        update,
        remove,
        rotateSecret,
        deliveries,
        replay,
        test,
        eventTypes,
        backup,
        restore,
        prune
      })
    })

  /** Settings from the configuration (the environment by default). */
  static readonly layer = Layer.scoped(Webhooks, Effect.flatMap(webhooksConfig, Webhooks.make))
}
