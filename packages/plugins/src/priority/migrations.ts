/**
 * Numbered, run once each on start-up. Never edit a released migration: add
 * the next number instead. Portable SQL (SQLite and PostgreSQL). The text
 * inside each statement is byte for byte as released, indentation included
 * (a database's schema keeps it), hence lines deeper than the call.
 */
import { type Migration, migration } from "@garrison/runtime"

export const migrations: ReadonlyArray<Migration> = [
  migration(1, "create priority_entries", (sql) => [
    // Times are ISO-8601 UTC strings from toISOString(), so they compare as text.
    // seq: insertion order (1, 2, ...), the order of lists, exports and priority.txt.
    sql`CREATE TABLE priority_entries (
          id TEXT PRIMARY KEY,
          seq INTEGER NOT NULL UNIQUE,
          platform_id TEXT NOT NULL UNIQUE,
          name TEXT NOT NULL,
          role TEXT NOT NULL,
          expires_at TEXT,
          added_by TEXT NOT NULL,
          added_at TEXT NOT NULL
        )`,
    sql`CREATE INDEX priority_entries_expires ON priority_entries (expires_at)`
  ]),
  // Where an entry came from: `manual` (the API; every entry before this migration), `import`, `purchase` (the VIP store).
  migration(2, "priority entries say where they came from", (sql) => [
    sql`ALTER TABLE priority_entries ADD COLUMN source TEXT NOT NULL DEFAULT 'manual'`
  ])
]
