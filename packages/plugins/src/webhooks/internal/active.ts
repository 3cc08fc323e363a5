/**
 * The enabled webhooks held in memory, as the event handlers match them,
 * so an event no webhook takes costs no query (`current`: read without an
 * effect, for the bus's check before it runs the enqueue). Reloaded after
 * every change.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Ref from "effect/Ref"
import { fail } from "./deps.js"
import { serversOf, subscriptionsOf, type WebhookRow } from "./rows.js"
import type { ActiveWebhook } from "./subscriptions.js"

export const makeActiveWebhooks = (sql: SqlClient.SqlClient) =>
  Effect.gen(function* () {
    const active = yield* Ref.make<ReadonlyArray<ActiveWebhook>>([])
    // The same list as a plain value, set with the Ref.
    let current: ReadonlyArray<ActiveWebhook> = []
    const reload = Effect.gen(function* () {
      const rows = yield* sql<Pick<WebhookRow, "id" | "events" | "servers">>`SELECT id, events, servers FROM webhooks WHERE enabled = 1`
      const loaded = rows.map((row): ActiveWebhook => {
        const list = serversOf(row)
        return { id: row.id, subscriptions: subscriptionsOf(row), servers: list === null ? null : new Set(list) }
      })
      yield* Ref.set(active, loaded)
      current = loaded
    }).pipe(fail("read the webhooks"))
    yield* reload
    return { active: Ref.get(active), current: () => current, reload }
  })
