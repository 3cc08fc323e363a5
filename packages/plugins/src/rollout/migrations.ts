/**
 * Numbered, run once each on start-up. Never edit a released migration: add
 * the next number instead. Portable SQL (SQLite and PostgreSQL).
 */
import { type Migration, migration } from "@garrison/runtime"

export const migrations: ReadonlyArray<Migration> = [
  migration(1, "create rollout_policies", (sql) => [
    // policy: the RolloutPolicy as JSON; a server without a row has the default policy.
    sql`CREATE TABLE rollout_policies (
          server_id TEXT PRIMARY KEY,
          policy TEXT NOT NULL,
          updated_at TEXT NOT NULL
        )`
  ])
]
