/**
 * `server_metrics`: one row per sample. `at` is epoch milliseconds (an
 * integer compares and buckets the same on SQLite and PostgreSQL).
 * Never edit a released migration: add the next number instead.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import type { Migration } from "@garrison/runtime"

export const migrations: ReadonlyArray<Migration> = [
  {
    version: 1,
    name: "create server_metrics",
    up: Effect.flatMap(SqlClient.SqlClient, (sql) =>
      Effect.all([
        sql`CREATE TABLE server_metrics (
          server_id TEXT NOT NULL,
          at BIGINT NOT NULL,
          players INTEGER NOT NULL,
          cpu REAL,
          memory_bytes BIGINT
        )`,
        // Range reads are per server; retention deletes by time alone.
        sql`CREATE INDEX server_metrics_server_at ON server_metrics (server_id, at)`,
        sql`CREATE INDEX server_metrics_at ON server_metrics (at)`
      ], { discard: true })
    )
  }
]
