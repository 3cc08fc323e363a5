/**
 * Numbered, run once each on start-up and recorded in `garrison_migrations`.
 * Never edit a released migration: add the next number instead. The text
 * inside each statement is byte for byte as released, indentation included
 * (a database's schema keeps it), hence lines deeper than the call.
 */
import { type Migration, migration } from "@garrison/runtime"

export const migrations: ReadonlyArray<Migration> = [
  migration(1, "create motd_messages", (sql) => [
    sql`CREATE TABLE motd_messages (
        id TEXT PRIMARY KEY,
        text TEXT NOT NULL,
        author TEXT NOT NULL,
        posted_at TEXT NOT NULL
      )`
  ]),
  migration(2, "create motd_stats", (sql) => [
    sql`CREATE TABLE motd_stats (
        author TEXT PRIMARY KEY,
        posted INTEGER NOT NULL,
        last_posted_at TEXT NOT NULL
      )`
  ])
]
