/**
 * Numbered, run once each on start-up and recorded in `garrison_migrations`.
 * Never edit a released migration: add the next number instead.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import type { Migration } from "@garrison/runtime"

export const migrations: ReadonlyArray<Migration> = [
  {
    version: 1,
    name: "create motd_messages",
    up: Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql`CREATE TABLE motd_messages (
        id TEXT PRIMARY KEY,
        text TEXT NOT NULL,
        author TEXT NOT NULL,
        posted_at TEXT NOT NULL
      )`.pipe(Effect.asVoid)
    )
  },
  {
    version: 2,
    name: "create motd_stats",
    up: Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql`CREATE TABLE motd_stats (
        author TEXT PRIMARY KEY,
        posted INTEGER NOT NULL,
        last_posted_at TEXT NOT NULL
      )`.pipe(Effect.asVoid)
    )
  }
]
