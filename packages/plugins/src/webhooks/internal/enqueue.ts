/**
 * The queue's producers: one durable event-bus handler per published event
 * class (`EventBus.registerDurable`: nothing is queued in memory or
 * dropped), each matching the event against the enabled webhooks in
 * memory and, when some take it, writing one outbox row naming them
 * through `GroupCommit` (nothing when none does). The dispatcher turns the
 * row into a delivery per webhook later (fanOut.ts): what a publisher pays
 * is one row, however many webhooks take the event.
 *
 * A publisher that stages its event (`EventBus.stage`, in its own
 * transaction) gets the row written in that transaction: it commits with
 * its change, at no commit of its own, and the dispatcher is told after
 * that commit (`afterCommit`), when the row can be read. Otherwise the
 * publisher waits for the handler's own group commit.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { eventPatternMatches, inSavepoint } from "@garrison/runtime"
import type * as Context from "effect/Context"
import { randomUUID } from "node:crypto"
import type { AnyEvent, AnyPublishedEvent, EventBus, GroupCommitShape } from "@garrison/runtime"
import { fail, type WebhooksDeps } from "./deps.js"
import { writeOutbox } from "./fanOut.js"
import type { QueueShape } from "./queue.js"
import { payloadText } from "./request.js"
import { iso } from "./rows.js"
import { type ActiveWebhook, takes } from "./subscriptions.js"
import { cut, storable } from "./text.js"

export const registerEnqueue = (
  { sql, published, servers }: Pick<WebhooksDeps, "sql" | "published" | "servers">,
  bus: Context.Tag.Service<typeof EventBus>,
  { active, current }: { readonly active: Effect.Effect<ReadonlyArray<ActiveWebhook>>; readonly current: () => ReadonlyArray<ActiveWebhook> },
  queue: Pick<QueueShape, "outboxed">,
  group: GroupCommitShape
) => {
  /** What a server is called, for chat embeds: its entry's name, else the event's `name`. */
  const serverNameOf = (serverId: string, data: Readonly<Record<string, unknown>>) =>
    servers.entry(serverId).pipe(
      Effect.map((entry) => entry.name),
      Effect.orElseSucceed(() => (typeof data.name === "string" ? data.name : null))
    )

  /** One event: an outbox row naming the enabled webhooks that take it; nothing when none does. */
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
      // Staged: a savepoint in the publisher's transaction (a failure here never undoes its change); else a write of
      // its own, group-committed.
      yield* inSavepoint(
        sql,
        "webhook_outbox",
        writeOutbox(sql, {
            id: randomUUID(),
            event: declaration.name,
            severity,
            summary,
            server_id: serverId ?? null,
            server_name: serverName === null ? null : storable(cut(serverName, 200)),
            payload,
            webhook_ids: JSON.stringify(targets.map((hook) => hook.id)),
          created_at: timestamp
        }),
        group.transaction
      ).pipe(fail(`queue ${declaration.name} for webhooks`))
      yield* queue.outboxed
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
        {
          // No enabled webhook subscribes to the name: the publisher does not wait for a fiber that would find none.
          wants: () => current().some((hook) => hook.subscriptions.some((sub) => eventPatternMatches(sub.pattern, declaration.name))),
          // Staged in the publisher's transaction: its row is readable now.
          afterCommit: () => queue.outboxed
        }
      )
    }
  })
}
