/**
 * Numbered, run once each on start-up. Never edit a released migration: add
 * the next number instead. Portable SQL (SQLite and PostgreSQL).
 */
import { type Migration, migration } from "@garrison/runtime"

export const migrations: ReadonlyArray<Migration> = [
  migration(1, "create server_mods and mod_cache", (sql) => [
    // Times are ISO-8601 UTC strings from toISOString(), so they compare as text.
    // keys: a JSON array of the .bikey file names this mod put into the server's keys/.
    // held_updated_at: a version (the workshop's time_updated) a rollout rolled back: not applied again until a newer one.
    sql`CREATE TABLE server_mods (
          server_id TEXT NOT NULL,
          workshop_id TEXT NOT NULL,
          folder TEXT NOT NULL,
          title TEXT NOT NULL,
          mod_type TEXT NOT NULL,
          enabled INTEGER NOT NULL,
          load_order INTEGER NOT NULL,
          pinned INTEGER NOT NULL,
          size_bytes INTEGER NOT NULL,
          keys TEXT NOT NULL,
          installed_at TEXT NOT NULL,
          downloaded_at TEXT NOT NULL,
          workshop_updated_at TEXT,
          pending_updated_at TEXT,
          checked_at TEXT,
          held_updated_at TEXT,
          PRIMARY KEY (server_id, workshop_id)
        )`,
    sql`CREATE UNIQUE INDEX server_mods_folder ON server_mods (server_id, folder)`,
    // One row per item in the shared download folder (DATA_DIR/steam): what version it holds.
    sql`CREATE TABLE mod_cache (
          workshop_id TEXT PRIMARY KEY,
          title TEXT NOT NULL,
          size_bytes INTEGER NOT NULL,
          downloaded_at TEXT NOT NULL,
          workshop_updated_at TEXT
        )`
  ]),
  // One row per install or update job: the job as JSON, written when it begins and ends (progress stays in memory),
  // so a restart lists the hour's jobs and marks one it cut off as interrupted.
  migration(2, "create mod_jobs", (sql) => [
    sql`CREATE TABLE mod_jobs (
          id TEXT PRIMARY KEY,
          job TEXT NOT NULL,
          ended_at TEXT
        )`
  ])
]
