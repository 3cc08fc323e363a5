/**
 * The cloud link: at most one `cloud_link` row (`id` 1) while it is
 * enabled, its link token sealed (`cloud-link-key`, context
 * `cloud/link_token`); and the servers it mirrors, kept while it is
 * disabled. Instants are ISO-8601 text. Never edit a released migration:
 * add the next number.
 */
import { type Migration, migration } from "@garrison/runtime"

export const migrations: ReadonlyArray<Migration> = [
  migration(1, "create cloud_link and cloud_servers", (sql) => [
    sql`CREATE TABLE cloud_link (
          id INTEGER PRIMARY KEY,
          link_token TEXT NOT NULL,
          role TEXT NOT NULL,
          enabled_at TEXT NOT NULL,
          enabled_by TEXT
        )`,
    sql`CREATE TABLE cloud_servers (
          server_id TEXT PRIMARY KEY,
          connected_at TEXT NOT NULL,
          connected_by TEXT
        )`
  ])
]
