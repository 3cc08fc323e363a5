/** `ProcessRecords` in the `server_processes` table, so reattach survives a controller restart. */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { ProcessRecords } from "@garrison/runtime"

interface Row {
  readonly pid: number | string
  readonly start_token: string
  readonly started_at: number | string
}

export const SqlProcessRecords: Layer.Layer<ProcessRecords, never, SqlClient.SqlClient> = Layer.effect(
  ProcessRecords,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // A lost record only costs a reattach, never correctness of the store: log and carry on.
    const logged = <A>(operation: string, fallback: A) => (effect: Effect.Effect<A, unknown>) =>
      effect.pipe(
        Effect.catchAll((error) =>
          Effect.logWarning(`server_processes ${operation} failed`, error).pipe(Effect.as(fallback))
        )
      )
    return ProcessRecords.of({
      get: (serverId) =>
        sql<Row>`SELECT pid, start_token, started_at FROM server_processes WHERE server_id = ${serverId}`.pipe(
          Effect.map((rows) =>
            Option.fromNullable(rows[0]).pipe(
              Option.map((row) => ({ pid: Number(row.pid), startToken: row.start_token, startedAt: Number(row.started_at) }))
            )
          ),
          logged("read", Option.none())
        ),
      serverIds: sql<{ readonly server_id: string }>`SELECT server_id FROM server_processes`.pipe(
        Effect.map((rows) => new Set(rows.map((row) => row.server_id))),
        logged("read", new Set<string>())
      ),
      set: (serverId, record) =>
        sql`DELETE FROM server_processes WHERE server_id = ${serverId}`.pipe(
          Effect.zipRight(
            sql`INSERT INTO server_processes (server_id, pid, start_token, started_at)
              VALUES (${serverId}, ${record.pid}, ${record.startToken}, ${record.startedAt})`
          ),
          sql.withTransaction,
          Effect.asVoid,
          logged<void>("write", undefined)
        ),
      clear: (serverId) =>
        sql`DELETE FROM server_processes WHERE server_id = ${serverId}`.pipe(Effect.asVoid, logged<void>("clear", undefined))
    })
  })
)
