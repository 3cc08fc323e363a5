/**
 * The queue's producers: one durable event-bus handler per published event
 * class (`EventBus.registerDurable`: the publisher waits for it, nothing is
 * queued in memory or dropped), each matching the event against the enabled
 * webhooks in memory and writing a queue row per webhook that takes it, in
 * one statement through `GroupCommit` (concurrent publishes share a commit;
 * nothing is written when no webhook takes it), then waking the dispatcher.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { eventPatternMatches } from "@garrison/runtime"
import type * as Context from "effect/Context"
import { randomUUID } from "node:crypto"
import type { AnyEvent, AnyPublishedEvent, EventBus, GroupCommitShape } from "@garrison/runtime"
import { fail, type WebhooksDeps } from "./deps.js"
import type { QueueShape } from "./queue.js"
import { payloadText } from "./request.js"
import { iso } from "./rows.js"
import { type ActiveWebhook, takes } from "./subscriptions.js"
import { cut, storable } from "./text.js"

/** Rows per INSERT statement (20 columns each: well under both engines' bound-parameter limits). */
const INSERT_CHUNK = 500

const chunks = <A>(items: ReadonlyArray<A>, size: number): Array<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

export const registerEnqueue = (
  { sql, published, servers }: Pick<WebhooksDeps, "sql" | "published" | "servers">,
  bus: Context.Tag.Service<typeof EventBus>,
  { active, current }: { readonly active: Effect.Effect<ReadonlyArray<ActiveWebhook>>; readonly current: () => ReadonlyArray<ActiveWebhook> },
  queue: Pick<QueueShape, "wake">,
  group: GroupCommitShape
) => {
  /** What a server is called, for chat embeds: its entry's name, else the event's `name`. */
  const serverNameOf = (serverId: string, data: Readonly<Record<string, unknown>>) =>
    servers.entry(serverId).pipe(
      Effect.map((entry) => entry.name),
      Effect.orElseSucceed(() => (typeof data.name === "string" ? data.name : null))
    )

  /** One event: a queue row per enabled webhook that takes it, in one statement; nothing when none does. */
  const enqueue = (declaration: AnyPublishedEvent, event: AnyEvent) =>
    Effect.gen(function* () {
      const hooks = yield* active
      if (hooks.length === 0) return
      const severity = declaration.severity(event)
      const serverId = declaration.serverId(event)
      const targets = hooks.filter((hook) => takes(hook, declaration.name, severity, serverId))
      if (targets.length === 0) return
      const timestamp = iso(yield* Clock.currentTimeMillis)
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
      yield* group
        .transaction(
          Effect.forEach(chunks(rows, INSERT_CHUNK), (chunk) => sql`INSERT INTO webhook_deliveries ${sql.insert(chunk)}`, { discard: true })
        )
        .pipe(fail(`queue ${declaration.name} for webhooks`))
      yield* queue.wake
    })

  return Effect.gen(function* () {
    for (const declaration of published.all) {
      yield* bus.registerDurable(
        "webhooks",
        {
          name: `queue ${declaration.name}`,
          tag: declaration.tag,
          handle: (event) => (event._tag === declaration.tag ? enqueue(declaration, event) : Effect.void)
        },
        // No enabled webhook subscribes to the name: the publisher does not wait for a fiber that would find none.
        { wants: () => current().some((hook) => hook.subscriptions.some((sub) => eventPatternMatches(sub.pattern, declaration.name))) }
      )
    }
  })
}
