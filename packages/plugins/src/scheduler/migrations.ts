/**
 * Numbered, run once each on start-up. Never edit a released migration: add
 * the next number instead. Portable SQL (SQLite and PostgreSQL).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import type { Migration } from "@garrison/runtime"

export const migrations: ReadonlyArray<Migration> = [
  {
    version: 1,
    name: "create scheduled_jobs",
    up: Effect.flatMap(SqlClient.SqlClient, (sql) =>
      Effect.all([
        // warnings: a JSON array of minutes before the run, largest first.
        sql`CREATE TABLE scheduled_jobs (
          id TEXT PRIMARY KEY,
          server_id TEXT NOT NULL,
          kind TEXT NOT NULL,
          cron TEXT NOT NULL,
          time_zone TEXT NOT NULL,
          warnings TEXT NOT NULL,
          message TEXT,
          reason TEXT,
          command TEXT,
          enabled INTEGER NOT NULL,
          last_run_at TEXT,
          last_result TEXT,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        )`,
        sql`CREATE INDEX scheduled_jobs_server ON scheduled_jobs (server_id)`
      ]).pipe(Effect.asVoid)
    )
  }
]
