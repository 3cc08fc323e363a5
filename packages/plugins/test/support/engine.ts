/**
 * The engine under a test's controller, read from the controller's own
 * `SqlClient` (not from the run's settings): tests that hold JSON written
 * by the database to the text `JSON.stringify` writes do so where
 * PostgreSQL writes it, and compare parsed values elsewhere.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"

/** Whether the controller's database is PostgreSQL. */
export const isPostgres: Effect.Effect<boolean, never, SqlClient.SqlClient> = Effect.map(
  SqlClient.SqlClient,
  (sql) => sql.onDialectOrElse({ pg: () => true, orElse: () => false })
)
