/**
 * The database engine a test runs on, and a fresh database on the run's
 * PostgreSQL. With `GARRISON_TEST_DATABASE=postgres` the global setup
 * (`@garrison/testkit/globalSetup`) starts one PostgreSQL 15 for the whole
 * run and hands its admin URL to the tests (vitest's `provide`/`inject`,
 * and `GARRISON_TEST_POSTGRES_URL` in the environment of the workers and of
 * what they spawn); `postgresDatabase()` makes an empty database on it for
 * one test. Unset (or `sqlite`), there is no server and it fails saying so.
 */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { createPostgresDatabase, dropPostgresDatabase, TEST_DATABASE_VARIABLE, TEST_POSTGRES_URL_VARIABLE } from "./Postgres.js"

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's PostgreSQL (its `postgres` database, as the superuser `garrison`), when `GARRISON_TEST_DATABASE=postgres`. */
    postgresUrl?: string
  }
}

/** The run's server, from vitest's `inject` in a test worker, else from `GARRISON_TEST_POSTGRES_URL`. */
export const testPostgresUrl = async (): Promise<string | undefined> => {
  if (process.env["VITEST"] !== undefined) {
    try {
      const { inject } = await import("vitest")
      const injected = inject("postgresUrl")
      if (injected !== undefined) return injected
    } catch {
      // Not in a test worker (a process a test spawned, a script): the environment tells.
    }
  }
  return process.env[TEST_POSTGRES_URL_VARIABLE] || undefined
}

const noServer = () =>
  new Error(
    `no PostgreSQL for this run: run the tests with ${TEST_DATABASE_VARIABLE}=postgres (the testkit's global setup then starts one), ` +
      `or skip this test unless testDatabaseEngine() is "postgres"`
  )

/** A fresh, empty database on the run's PostgreSQL: its URL (`postgres://garrison@127.0.0.1:<port>/garrison_<pid>_<n>_<hex>`). Left to the run's end. */
export const postgresDatabase = async (): Promise<string> => {
  const admin = await testPostgresUrl()
  if (admin === undefined) throw noServer()
  return createPostgresDatabase(admin)
}

/** `postgresDatabase()` as an Effect whose database is dropped when the scope closes. */
export const scopedPostgresDatabase: Effect.Effect<string, never, Scope.Scope> = Effect.acquireRelease(
  Effect.promise(postgresDatabase),
  (url) =>
    Effect.promise(async () => {
      const admin = await testPostgresUrl()
      if (admin !== undefined) await dropPostgresDatabase(admin, new URL(url).pathname.slice(1))
    })
)
