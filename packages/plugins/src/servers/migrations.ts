/**
 * Server entries are stored whole, as JSON (the entry schema grows with
 * features; a column per field would need a migration each time), next to
 * the columns we query by. `server_processes` is where actors remember the
 * process of each running server, so a restarted controller reattaches.
 * Never edit a released migration: add the next number instead.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import type { Migration } from "@garrison/runtime"

export const migrations: ReadonlyArray<Migration> = [
  {
    version: 1,
    name: "create servers and server_processes",
    up: Effect.flatMap(SqlClient.SqlClient, (sql) =>
      Effect.all(
        [
          sql`CREATE TABLE servers (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            entry TEXT NOT NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
          )`,
          sql`CREATE TABLE server_processes (
            server_id TEXT PRIMARY KEY,
            pid INTEGER NOT NULL,
            start_token TEXT NOT NULL,
            started_at BIGINT NOT NULL
          )`
        ],
        { discard: true }
      )
    )
  }
]
