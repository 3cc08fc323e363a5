/**
 * `server_metrics`: one row per sample. `at` is epoch milliseconds (an
 * integer compares and buckets the same on SQLite and PostgreSQL).
 * Never edit a released migration: add the next number instead. The text
 * inside each statement is byte for byte as released, indentation included
 * (a database's schema keeps it), hence lines deeper than the call.
 */
import { type Migration, migration } from "@garrison/runtime"

export const migrations: ReadonlyArray<Migration> = [
  migration(1, "create server_metrics", (sql) => [
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
  ])
]
