/**
 * The database engine a test runs on, and a fresh database on the run's
 * PostgreSQL. With `GARRISON_TEST_DATABASE=postgres` the global setup
 * (`@garrison/testkit/globalSetup`) starts one PostgreSQL 15 for the whole
 * run and hands its admin URL to the tests (vitest's `provide`/`inject`,
 * and `GARRISON_TEST_POSTGRES_URL` in the environment of the workers and of
 * what they spawn); `postgresDatabase()` makes an empty database on it for
 * one test. Unset (or `sqlite`), there is no server and it fails saying so.
 *
 * On that pass every controller and kernel the testkit builds (and every
 * controller it spawns) runs on a database of its own, which stands for
 * the SQLite file of its data directory: `testDatabaseFor(dataDir)`. One
 * data directory, one database, whoever opens it (an in-process kernel, a
 * spawned controller, the same directory again after a restart), kept in a
 * registry by the directory's absolute path. A throw-away data directory's
 * database is dropped with it; a caller's directory's database is dropped
 * when the last user closes and the directory is gone, else after the test
 * file (a restart may come), and in any case with the run's server.
 */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import {
  createPostgresDatabase,
  dropPostgresDatabase,
  TEST_DATABASE_VARIABLE,
  TEST_POSTGRES_URL_VARIABLE,
  testDatabaseEngine,
  uniqueDatabaseName
} from "./Postgres.js"

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

// ---------------------------------------------------------------------------------------------------------------
// One database per data directory, on the PostgreSQL pass

interface DataDirDatabase {
  readonly name: string
  /** Resolves to its URL once `CREATE DATABASE` is done. */
  readonly ready: Promise<string>
  /** The URL once ready (what `dataDirDatabaseUrl` reads without waiting). */
  url: string | undefined
  /** Kernels, controllers and processes using it now. */
  users: number
  /** Made for a throw-away data directory: dropped as soon as its last user closes. */
  readonly owned: boolean
}

// On globalThis, keyed by absolute path: shared by every copy of this module in the process (the e2e files load the
// built testkit afresh each, `test/support` reaches it through `@garrison/testkit/core`).
const registry = globalThis as { __garrisonDataDirDatabases?: Map<string, DataDirDatabase> }
const dataDirDatabases = (): Map<string, DataDirDatabase> => (registry.__garrisonDataDirDatabases ??= new Map())

const adminUrl = async (): Promise<string> => {
  const admin = await testPostgresUrl()
  if (admin === undefined) throw noServer()
  return admin
}

const dropEntry = async (key: string, entry: DataDirDatabase): Promise<void> => {
  const databases = dataDirDatabases()
  if (databases.get(key) === entry) databases.delete(key)
  try {
    await entry.ready
  } catch {
    return // never made
  }
  const admin = await testPostgresUrl()
  if (admin !== undefined) await dropPostgresDatabase(admin, entry.name)
}

/**
 * The database of `dataDir` on the run's PostgreSQL (made empty on first use), counting one more user until
 * `releaseDataDirDatabase`: its URL. `owned`: the directory is the testkit's throw-away one, and its database
 * goes when its last user closes. Plain Node (a Promise), for `test/support`'s process helpers too.
 */
export const acquireDataDirDatabase = async (dataDir: string, options: { readonly owned?: boolean } = {}): Promise<string> => {
  const key = NodePath.resolve(dataDir)
  const databases = dataDirDatabases()
  let entry = databases.get(key)
  if (entry === undefined) {
    const name = uniqueDatabaseName()
    const made: DataDirDatabase = {
      name,
      ready: adminUrl().then((admin) => createPostgresDatabase(admin, name)),
      url: undefined,
      users: 0,
      owned: options.owned === true
    }
    made.ready.then(
      (url) => {
        made.url = url
      },
      () => {
        if (databases.get(key) === made) databases.delete(key)
      }
    )
    databases.set(key, made)
    entry = made
  }
  entry.users++
  try {
    return await entry.ready
  } catch (error) {
    entry.users--
    throw error
  }
}

/**
 * One user of `dataDir`'s database closed. The last one drops it when the directory was the testkit's throw-away
 * one, or is gone from the disk (as a SQLite file would be); otherwise it stays for the next start on that
 * directory until `dropDataDirDatabases` (after the test file).
 */
export const releaseDataDirDatabase = async (dataDir: string): Promise<void> => {
  const key = NodePath.resolve(dataDir)
  const entry = dataDirDatabases().get(key)
  if (entry === undefined) return
  entry.users = Math.max(0, entry.users - 1)
  if (entry.users === 0 && (entry.owned || !Fs.existsSync(key))) await dropEntry(key, entry)
}

/** The URL of `dataDir`'s database when one is made already (without waiting or counting a user), else undefined. */
export const dataDirDatabaseUrl = (dataDir: string): string | undefined => dataDirDatabases().get(NodePath.resolve(dataDir))?.url

/**
 * Drops the data directories' databases nobody uses now: after each test file (the `@garrison/testkit/fileSetup`
 * hook, and this module's own under vitest). Nothing to do, and no cost, on SQLite.
 */
export const dropDataDirDatabases = async (): Promise<void> => {
  for (const [key, entry] of [...dataDirDatabases()]) if (entry.users === 0) await dropEntry(key, entry)
}

/**
 * What a controller or kernel on `dataDir` takes as `DATABASE_URL`: on the PostgreSQL pass
 * (`testDatabaseEngine() === "postgres"`) the directory's database (`acquireDataDirDatabase`), released when the
 * scope closes; on SQLite `undefined`, at no cost (no server is asked anything).
 */
export const testDatabaseFor = (dataDir: string, options: { readonly owned?: boolean } = {}): Effect.Effect<string | undefined, never, Scope.Scope> =>
  Effect.suspend(() =>
    testDatabaseEngine() === "sqlite"
      ? Effect.succeed(undefined)
      : Effect.acquireRelease(
          Effect.promise(() => acquireDataDirDatabase(dataDir, options)),
          () => Effect.promise(() => releaseDataDirDatabase(dataDir))
        )
  )

// Under vitest, after each test file that loads this module afresh (isolated files; with `isolate: false` the
// `@garrison/testkit/fileSetup` setup file does it for every file).
if (process.env["VITEST"] !== undefined) {
  const { afterAll } = await import("vitest")
  afterAll(dropDataDirDatabases)
}
