/** What `GET /api/system/info` reports: versions, the host, the data directory's disk. */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { Database, DataDir, PluginRegistry } from "@garrison/runtime"
import * as Fs from "node:fs"
import { createRequire } from "node:module"
import * as Os from "node:os"
import type { SystemInfo } from "./contract/Api.js"

const require = createRequire(import.meta.url)

/** A package's version from its package.json, or null where it cannot be found (a bundle without node_modules). */
const packageVersion = (name: string): string | null => {
  try {
    return (require(`${name}/package.json`) as { version?: string }).version ?? null
  } catch {
    return null
  }
}

const LIBRARIES = ["effect", "@effect/platform", "@effect/sql", "@effect/sql-sqlite-node", "@effect/sql-pg", "better-sqlite3"] as const

/** The engine's own version: `sqlite_version()`, or the PostgreSQL server's `server_version`. Null when it will not say. */
const databaseVersion = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql.onDialectOrElse({
    pg: () => sql<{ readonly version: string }>`SELECT current_setting('server_version') AS version`,
    orElse: () => sql<{ readonly version: string }>`SELECT sqlite_version() AS version`
  })
  return rows[0]?.version ?? null
}).pipe(Effect.catchAll(() => Effect.succeed(null)))

const diskOf = (path: string) =>
  Effect.tryPromise(() => Fs.promises.statfs(path)).pipe(
    Effect.map((stats) => ({
      path,
      totalBytes: stats.blocks * stats.bsize,
      freeBytes: stats.bavail * stats.bsize,
      usedBytes: (stats.blocks - stats.bfree) * stats.bsize
    })),
    Effect.catchAll(() => Effect.succeed(null))
  )

export const systemInfo: Effect.Effect<SystemInfo, never, SqlClient.SqlClient | Database | DataDir | PluginRegistry> = Effect.gen(function* () {
  const registry = yield* PluginRegistry
  const database = yield* Database
  const dataDir = (yield* DataDir).root
  const now = yield* Clock.currentTimeMillis
  return {
    garrison: { version: registry.version, startedAt: new Date(registry.startedAt).toISOString(), uptimeSeconds: Math.max(0, Math.round((now - registry.startedAt) / 1000)) },
    node: { version: process.version },
    libraries: Object.fromEntries(LIBRARIES.map((name) => [name, packageVersion(name)])),
    database: { engine: database.engine, version: yield* databaseVersion },
    os: { platform: Os.platform(), release: Os.release(), arch: Os.arch(), hostname: Os.hostname(), uptimeSeconds: Math.round(Os.uptime()), cpus: Os.cpus().length },
    dataDir: { path: dataDir, disk: yield* diskOf(dataDir) }
  }
})
