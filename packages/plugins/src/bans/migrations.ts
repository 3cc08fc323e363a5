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
    name: "create bans",
    up: Effect.flatMap(SqlClient.SqlClient, (sql) =>
      Effect.all([
        // Times are ISO-8601 UTC strings of one width (toISOString), so they compare as text.
        sql`CREATE TABLE bans (
          id TEXT PRIMARY KEY,
          platform_id TEXT NOT NULL,
          player_name TEXT NOT NULL,
          reason TEXT NOT NULL,
          banned_by TEXT NOT NULL,
          banned_at TEXT NOT NULL,
          expires_at TEXT,
          source TEXT NOT NULL
        )`,
        sql`CREATE INDEX bans_platform ON bans (platform_id)`,
        sql`CREATE INDEX bans_order ON bans (banned_at, id)`,
        sql`CREATE INDEX bans_expires ON bans (expires_at)`
      ]).pipe(Effect.asVoid)
    )
  }
]
