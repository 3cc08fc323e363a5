/**
 * A real PostgreSQL 15 for one test file (the testkit's `startPostgres`:
 * initdb into a temporary folder, pg_ctl on a free loopback port, removed
 * after the file), and a fresh empty database on it for each controller:
 * `freshDatabase` answers the settings that point a controller there
 * (`DATABASE_URL`), whatever engine the rest of the run uses.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { afterAll, beforeAll, expect } from "@effect/vitest"
import type { GarrisonSettings } from "@garrison/runtime"
import { type PostgresServer, startPostgres } from "@garrison/testkit/core"
import { Effect, Redacted } from "effect"

/** Starts the file's server before its tests (call at the top of the file); `freshDatabase`: a new database's settings. */
export const usePostgres = () => {
  let server: PostgresServer | undefined
  beforeAll(async () => {
    server = await startPostgres()
  }, 180_000)
  afterAll(async () => {
    await server?.stop()
  }, 60_000)
  const freshDatabase: Effect.Effect<Partial<GarrisonSettings>> = Effect.promise(() => {
    if (server === undefined) throw new Error("usePostgres: the server is not started (call usePostgres at the top of the file)")
    return server.createDatabase()
  }).pipe(Effect.map((url) => ({ databaseUrl: Redacted.make(url) })))
  return { freshDatabase }
}

/** Fails unless the controller's `SqlClient` is PostgreSQL's: the test runs where it says it does. */
export const expectPostgres = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.sync(() => expect(sql.onDialectOrElse({ pg: () => "pg", orElse: () => "another engine" })).toBe("pg"))
)
