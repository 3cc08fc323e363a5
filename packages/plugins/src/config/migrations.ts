/**
 * Numbered, run once each on start-up. Never edit a released migration: add
 * the next number instead. Portable SQL (SQLite and PostgreSQL).
 */
import { type Migration, migration } from "@garrison/runtime"

export const migrations: ReadonlyArray<Migration> = [
  migration(1, "create config_templates", (sql) => [
    // content: the whole configuration file, sealed (it holds the server's passwords).
    sql`CREATE TABLE config_templates (
          id TEXT PRIMARY KEY,
          server_id TEXT NOT NULL,
          name TEXT NOT NULL,
          content TEXT NOT NULL,
          size_bytes INTEGER NOT NULL,
          created_at TEXT NOT NULL,
          created_by TEXT NOT NULL
        )`,
    sql`CREATE UNIQUE INDEX config_templates_name ON config_templates (server_id, name)`
  ]),
  // The file's encoding as it was saved ("utf-8", or "latin1" for bytes that are not UTF-8), so a restore writes
  // back the same bytes whatever the file holds by then.
  migration(2, "config_templates keep the file's encoding", (sql) => [
    sql`ALTER TABLE config_templates ADD COLUMN encoding TEXT NOT NULL DEFAULT 'utf-8'`
  ])
]
