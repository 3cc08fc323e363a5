/**
 * The enabled webhooks held in memory, as the event handlers match them,
 * so an event no webhook takes costs no query. Reloaded after every change.
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
    return { active: Ref.get(active), reload }
  })
