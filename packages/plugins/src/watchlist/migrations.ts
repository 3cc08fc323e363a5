/**
 * Numbered, run once each on start-up. Never edit a released migration: add
 * the next number instead. Portable SQL (SQLite and PostgreSQL). The text
 * inside each statement is byte for byte as released, indentation included.
 */
import { type Migration, migration } from "@garrison/runtime"

export const migrations: ReadonlyArray<Migration> = [
  migration(1, "create watchlist_entries", (sql) => [
    // player_id: the DayZ ID the admin logs name (a Steam id given is hashed to it); one entry per player.
    sql`CREATE TABLE watchlist_entries (
          id TEXT PRIMARY KEY,
          player_id TEXT NOT NULL UNIQUE,
          steam64 TEXT,
          identifier TEXT NOT NULL,
          note TEXT NOT NULL,
          created_by TEXT NOT NULL,
          created_by_name TEXT NOT NULL,
          created_ms BIGINT NOT NULL,
          last_joined_ms BIGINT,
          last_joined_server TEXT,
          last_joined_name TEXT
        )`
  ])
]
