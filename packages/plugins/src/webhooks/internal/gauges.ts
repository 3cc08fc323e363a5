/**
 * The delivery queue's depth for `Telemetry`, read at scrape time with two
 * COUNTs: events in the outbox not yet turned into deliveries, and
 * deliveries waiting for their first or next attempt (`pending`, on the
 * queue's own index).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Telemetry } from "@garrison/runtime"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

export const webhookGauges = Layer.scopedDiscard(
  Effect.gen(function* () {
    const telemetry = yield* Telemetry
    const sql = yield* SqlClient.SqlClient
    const count = (rows: ReadonlyArray<{ readonly n: number | string | bigint }>) => Number(rows[0]?.n ?? 0)
    yield* telemetry.registerGauge({
      name: "webhook_queue_depth",
      help: "Webhook work waiting: events in the outbox (stage=outbox) and deliveries due or retrying (stage=delivery).",
      labelNames: ["stage"],
      collect: Effect.all([
        sql<{ readonly n: number }>`SELECT COUNT(*) AS n FROM webhook_outbox`,
        sql<{ readonly n: number }>`SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = ${"pending"}`
      ]).pipe(
        Effect.map(([outbox, deliveries]) => [
          { labels: { stage: "outbox" }, value: count(outbox) },
          { labels: { stage: "delivery" }, value: count(deliveries) }
        ])
      )
    })
  })
)
