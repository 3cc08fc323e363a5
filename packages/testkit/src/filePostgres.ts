/**
 * `@garrison/testkit/filePostgres`: a PostgreSQL 15 for the tests of one
 * file that are about PostgreSQL whatever the run's engine (concurrency on
 * a pool, advisory locks, pg_dump, JSON the server writes). On the
 * PostgreSQL pass (`GARRISON_TEST_DATABASE=postgres`) that is the run's
 * server; on the SQLite pass the file starts one of its own
 * (`startPostgres`: initdb into a temporary folder, pg_ctl on a free
 * loopback port) and stops it after the file, folder and all.
 *
 * Call `usePostgres()` at the top of the file: it registers the file's
 * `beforeAll`/`afterAll`, so this module imports vitest and is kept out of
 * `@garrison/testkit/core` (which scripts and spawned processes load).
 */
import * as Effect from "effect/Effect"
import { afterAll, beforeAll } from "vitest"
import { createPostgresDatabase, findPostgres, type PostgresInstallation, type PostgresServer, startPostgres } from "./Postgres.js"
import { testPostgresUrl } from "./TestDatabase.js"

export interface FilePostgres {
  /** A new, empty database on the file's server: its URL. Left to the server's end (the file's, or the run's). */
  readonly freshDatabaseUrl: Effect.Effect<string>
  /** The server's admin URL (`postgres://garrison@127.0.0.1:<port>/postgres`). */
  readonly adminUrl: () => string
  /** The server's binaries (`pg_restore`, `psql`, ...). */
  readonly installation: () => PostgresInstallation
}

/** The file's PostgreSQL (see the module's comment); its hooks are registered by this call. */
export const usePostgres = (): FilePostgres => {
  let adminUrl: string | undefined
  let ownServer: PostgresServer | undefined
  beforeAll(async () => {
    adminUrl = await testPostgresUrl()
    if (adminUrl === undefined) {
      ownServer = await startPostgres()
      adminUrl = ownServer.url
    }
  }, 180_000)
  afterAll(async () => {
    await ownServer?.stop()
  }, 60_000)
  const started = (): string => {
    if (adminUrl === undefined) throw new Error("usePostgres: the server is not started yet (call usePostgres at the top of the file, use it in tests)")
    return adminUrl
  }
  return {
    freshDatabaseUrl: Effect.promise(() => createPostgresDatabase(started())),
    adminUrl: started,
    installation: () => ownServer?.installation ?? findPostgres()
  }
}
