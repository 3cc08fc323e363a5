/**
 * Server entries are stored whole, as JSON (the entry schema grows with
 * features; a column per field would need a migration each time), next to
 * the columns we query by. `server_processes` is where actors remember the
 * process of each running server, so a restarted controller reattaches.
 * RCON passwords inside `entry` are sealed (see sealing.ts); v2 sealed the
 * ones earlier versions wrote in clear.
 * Never edit a released migration: add the next number instead. The text
 * inside each statement is byte for byte as released, indentation included
 * (a database's schema keeps it), hence lines deeper than the call.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { type Migration, migration, SealedSecrets } from "@garrison/runtime"
import { SERVERS_KEY, sealStoredJson } from "./sealing.js"

export const migrations: ReadonlyArray<Migration> = [
  migration(1, "create servers and server_processes", (sql) => [
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
  ]),
  // Reads before it writes: its own Effect rather than a list of statements.
  migration(
    2,
    "seal RCON passwords stored in clear",
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ readonly id: string; readonly entry: string }>`SELECT id, entry FROM servers`
      if (rows.length === 0) return
      const box = yield* (yield* SealedSecrets).box(SERVERS_KEY)
      let sealedCount = 0
      for (const row of rows) {
        const sealed = sealStoredJson(box, row.id, row.entry)
        if (sealed === undefined) continue
        yield* sql`UPDATE servers SET entry = ${sealed} WHERE id = ${row.id}`
        sealedCount++
      }
      // Backups are kept for undoing an upgrade, so they are not rewritten: say what they still hold.
      if (sealedCount > 0) {
        yield* Effect.logWarning(
          `Sealed ${sealedCount} RCON password(s) stored in clear; database backups taken before this start ` +
            `(the pre-migration one included) still hold them in clear until they are pruned or deleted`
        )
      }
    })
  )
]
