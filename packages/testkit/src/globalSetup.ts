/**
 * A vitest global setup (`globalSetup: ["@garrison/testkit/globalSetup"]`,
 * or a file re-exporting it): every process of one run (test workers and
 * the controllers or game servers they spawn) gets one temporary folder of
 * its own through TMPDIR, and the run ends by checking it. A `garrison-*`
 * folder still there means a test did not clean up after itself: the run
 * fails naming it (the folder is removed either way, keys and all).
 *
 * With `GARRISON_TEST_DATABASE=postgres` it also starts one PostgreSQL 15
 * for the whole run (`startPostgres`, in that folder) and stops it at the
 * end. Its admin URL reaches the tests two ways: `project.provide` (read
 * with `inject("postgresUrl")`, or `postgresDatabase()` for a fresh
 * database), and `GARRISON_TEST_POSTGRES_URL` in the environment, set here
 * before the workers start, so they and the processes they spawn inherit it
 * (as they do TMPDIR).
 */
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as NodePath from "node:path"
import type { TestProject } from "vitest/node"
import { type PostgresServer, startPostgres, TEST_POSTGRES_URL_VARIABLE, testDatabaseEngine } from "./Postgres.js"

/** Sets (or, with `undefined`, removes) a variable, answering how to put it back. */
const setEnv = (name: string, value: string | undefined): (() => void) => {
  const previous = process.env[name]
  if (value === undefined) delete process.env[name]
  else process.env[name] = value
  return () => {
    if (previous === undefined) delete process.env[name]
    else process.env[name] = previous
  }
}

export default async function setup(project?: TestProject): Promise<() => Promise<void>> {
  const engine = testDatabaseEngine()
  const root = Fs.mkdtempSync(NodePath.join(Os.tmpdir(), "garrison-test-run-"))
  const restoreTmp = setEnv("TMPDIR", root)
  let postgres: PostgresServer | undefined
  let restoreUrl = () => {}
  if (engine === "postgres") {
    try {
      postgres = await startPostgres({ tempRoot: root })
    } catch (error) {
      Fs.rmSync(root, { recursive: true, force: true })
      restoreTmp()
      throw error
    }
    restoreUrl = setEnv(TEST_POSTGRES_URL_VARIABLE, postgres.url)
    project?.provide("postgresUrl", postgres.url)
  }
  return async () => {
    let stopFailed: unknown
    try {
      await postgres?.stop()
    } catch (error) {
      stopFailed = error
    }
    restoreUrl()
    if (stopFailed !== undefined) {
      // The server's folder stays for the exit handler's last `pg_ctl stop -m immediate` (which removes it).
      restoreTmp()
      throw stopFailed
    }
    const leftovers = Fs.readdirSync(root).filter((name) => name.startsWith("garrison-"))
    Fs.rmSync(root, { recursive: true, force: true })
    restoreTmp()
    if (leftovers.length > 0) {
      throw new Error(`tests left ${leftovers.length} temporary folder(s) behind: ${leftovers.sort().join(", ")}`)
    }
  }
}
