/**
 * One row at most (`id` 1): the activated license. The key and the token
 * are sealed (`license-key`, context `license/<column>`); the public key
 * fetched at activation (a JWK, public) is pinned in clear. Instants are
 * ISO-8601 text. Never edit a released migration: add the next number.
 */
import { type Migration, migration } from "@garrison/runtime"

export const migrations: ReadonlyArray<Migration> = [
  migration(1, "create license_state", (sql) => [
    sql`CREATE TABLE license_state (
          id INTEGER PRIMARY KEY,
          license_key TEXT NOT NULL,
          token TEXT NOT NULL,
          pinned_key TEXT,
          activated_at TEXT NOT NULL,
          activated_by TEXT,
          checked_at TEXT NOT NULL,
          last_attempt_at TEXT,
          last_error TEXT,
          offline INTEGER NOT NULL,
          past_due_since TEXT,
          revoked_at TEXT
        )`
  ])
]
