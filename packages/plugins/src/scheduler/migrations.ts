/**
 * Numbered, run once each on start-up. Never edit a released migration: add
 * the next number instead. Portable SQL (SQLite and PostgreSQL). The text
 * inside each statement is byte for byte as released, indentation included
 * (a database's schema keeps it), hence lines deeper than the call.
 */
import { type Migration, migration } from "@garrison/runtime"

export const migrations: ReadonlyArray<Migration> = [
  migration(1, "create scheduled_jobs", (sql) => [
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
  ]),
  // Who made the job (id and name), for the audit rows of its runs; null on jobs made before.
  migration(2, "scheduled_jobs created_by", (sql) => [
    sql`ALTER TABLE scheduled_jobs ADD COLUMN created_by TEXT`,
    sql`ALTER TABLE scheduled_jobs ADD COLUMN created_by_name TEXT`
  ])
]
