/**
 * Retention: notifications older than the retention period go, and each
 * audience keeps only its newest `maxPerAudience` (a chatty publisher cannot
 * grow anyone's list without bound). Read marks of removed notifications go
 * with them. Run by the plugin's job.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { type NotificationStoreError, storeError } from "../errors.js"

export interface RetentionOptions {
  readonly retention: Duration.Duration
  readonly maxPerAudience: number
}

export const makePrune = (sql: SqlClient.SqlClient, options: RetentionOptions): Effect.Effect<number, NotificationStoreError> => {
  const count = Effect.map(
    sql<{ readonly total: number | string }>`SELECT COUNT(*) AS total FROM notifications`,
    ([row]) => Number(row?.total ?? 0)
  )
  return Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const cutoff = new Date(now - Duration.toMillis(options.retention)).toISOString()
    const before = yield* count
    yield* sql`DELETE FROM notifications WHERE created_at < ${cutoff}`
    // Window functions: SQLite 3.25+ and PostgreSQL.
    yield* sql`DELETE FROM notifications WHERE seq IN (
      SELECT seq FROM (
        SELECT seq, ROW_NUMBER() OVER (PARTITION BY audience_kind, audience_key ORDER BY seq DESC) AS rank_in_audience
        FROM notifications
      ) ranked WHERE rank_in_audience > ${options.maxPerAudience}
    )`
    yield* sql`DELETE FROM notification_reads
      WHERE NOT EXISTS (SELECT 1 FROM notifications n WHERE n.seq = notification_reads.seq)`
    return before - (yield* count)
  }).pipe(sql.withTransaction, Effect.mapError(storeError("cannot prune notifications")))
}
