/**
 * Numbered, run once each on start-up. Never edit a released migration: add
 * the next number instead. Portable SQL (SQLite and PostgreSQL). The text
 * inside each statement is byte for byte as released, indentation included
 * (a database's schema keeps it), hence lines deeper than the call.
 */
import { type Migration, migration } from "@garrison/runtime"

export const migrations: ReadonlyArray<Migration> = [
  migration(1, "create bans", (sql) => [
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
  ])
]
