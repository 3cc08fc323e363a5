/**
 * `npm run bench:postgres [names]`: the benchmarks with Garrison on
 * PostgreSQL 15 instead of SQLite. Starts a PostgreSQL of its own (the
 * testkit's `startPostgres`: initdb into a temporary folder, fsync on),
 * then runs `run.js` with the test suite's PostgreSQL pass variables, so
 * every controller the benchmarks start (spawned or in process) gets a
 * fresh database on it; stops and removes the server afterwards. The
 * baselines (raw node:http, raw better-sqlite3, the Express peer) stay as
 * they are: compare a figure with the same benchmark's SQLite run.
 */
import { startPostgres, TEST_DATABASE_VARIABLE, TEST_POSTGRES_URL_VARIABLE } from "@garrison/testkit/core"
import { spawn } from "node:child_process"
import * as NodePath from "node:path"
import { fileURLToPath } from "node:url"

const runner = NodePath.join(NodePath.dirname(fileURLToPath(import.meta.url)), "..", "run.js")

const main = async (): Promise<number> => {
  const server = await startPostgres({ prefix: "garrison-bench-pg-" })
  try {
    const version = (await server.query("SHOW server_version")).trim()
    console.log(`benchmarks on PostgreSQL ${version} at 127.0.0.1:${server.port}`)
    const child = spawn(process.execPath, [runner, ...process.argv.slice(2)], {
      stdio: "inherit",
      env: { ...process.env, [TEST_DATABASE_VARIABLE]: "postgres", [TEST_POSTGRES_URL_VARIABLE]: server.url }
    })
    const stop = () => child.kill("SIGTERM")
    process.once("SIGINT", stop)
    process.once("SIGTERM", stop)
    return await new Promise<number>((resolve) => child.once("exit", (code, signal) => resolve(code ?? (signal === null ? 1 : 128))))
  } finally {
    await server.stop()
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  }
)
