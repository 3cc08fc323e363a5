/**
 * Numbered, run once each on start-up. Never edit a released migration: add
 * the next number instead. Portable SQL (SQLite and PostgreSQL).
 */
import { type Migration, migration } from "@garrison/runtime"

export const migrations: ReadonlyArray<Migration> = [
  migration(1, "create system_settings", (sql) => [
    // One row per run-time setting an admin overrode: the value as JSON text, sealed for a secret.
    sql`CREATE TABLE system_settings (
          key TEXT PRIMARY KEY,
          value TEXT NOT NULL,
          updated_by TEXT,
          updated_ms BIGINT NOT NULL
        )`
  ])
]
