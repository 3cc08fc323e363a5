/**
 * A PostgreSQL 15 for one test file (the testkit's `usePostgres`: the run's
 * server on the PostgreSQL pass, else one of the file's own), and a fresh
 * empty database on it for each controller: `freshDatabase` answers the
 * settings that point a controller there (`DATABASE_URL`), whatever engine
 * the rest of the run uses.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { expect } from "@effect/vitest"
import type { GarrisonSettings } from "@garrison/runtime"
import { usePostgres as useFilePostgres } from "@garrison/testkit/filePostgres"
import { Effect, Redacted } from "effect"

/** Registers the file's server (call at the top of the file); `freshDatabase`: a new database's settings. */
export const usePostgres = () => {
  const postgres = useFilePostgres()
  const freshDatabase: Effect.Effect<Partial<GarrisonSettings>> = Effect.map(postgres.freshDatabaseUrl, (url) => ({ databaseUrl: Redacted.make(url) }))
  return { freshDatabase }
}

/** Fails unless the controller's `SqlClient` is PostgreSQL's: the test runs where it says it does. */
export const expectPostgres = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.sync(() => expect(sql.onDialectOrElse({ pg: () => "pg", orElse: () => "another engine" })).toBe("pg"))
)
