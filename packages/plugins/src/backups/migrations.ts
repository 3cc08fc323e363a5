/**
 * Numbered, run once each on start-up. Never edit a released migration: add
 * the next number instead. Portable SQL (SQLite and PostgreSQL).
 */
import { type Migration, migration } from "@garrison/runtime"

export const migrations: ReadonlyArray<Migration> = [
  migration(1, "create backup_configs", (sql) => [
    // config: the BackupConfig as JSON; a server without a row has the defaults. The backups themselves are files (see README.md).
    sql`CREATE TABLE backup_configs (
          server_id TEXT PRIMARY KEY,
          config TEXT NOT NULL,
          updated_at TEXT NOT NULL
        )`
  ])
]
