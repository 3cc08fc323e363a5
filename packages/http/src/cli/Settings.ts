/**
 * What every command reads of the controller's settings (the same environment as `npm start`: `DATA_DIR`,
 * `DATABASE_URL`, `PORT`, `HOST`, ...) and where things are in the data directory; and whether a controller runs
 * on it.
 */
import { GarrisonConfig } from "@garrison/runtime"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as NodePath from "node:path"
import { sqliteLockHolders } from "../SqliteLocks.js"

export interface CliSettings {
  readonly dataDir: string
  readonly host: string
  readonly port: number
  /** SQLite's file, `<DATA_DIR>/garrison.db`. */
  readonly databaseFile: string
  /** Set: the store is PostgreSQL (the URL stays redacted). */
  readonly databaseUrl: Redacted.Redacted<string> | undefined
  /** `BACKUP_DIR`, default `<DATA_DIR>/server-backups`. */
  readonly serverBackupsDir: string
}

export const cliSettings: Effect.Effect<CliSettings, never, GarrisonConfig> = Effect.map(GarrisonConfig, (config) => {
  const dataDir = NodePath.resolve(config.dataDir)
  const backupDir = (process.env["BACKUP_DIR"] ?? "").trim()
  return {
    dataDir,
    host: config.host,
    port: config.port,
    databaseFile: NodePath.join(dataDir, "garrison.db"),
    databaseUrl: config.databaseUrl,
    serverBackupsDir: backupDir === "" ? NodePath.join(dataDir, "server-backups") : NodePath.resolve(backupDir)
  }
})

/** `0.0.0.0`/`::` listen everywhere; ask them on loopback. */
export const reachableHost = (host: string): string =>
  host === "0.0.0.0" || host === "" ? "127.0.0.1" : host === "::" ? "[::1]" : host.includes(":") ? `[${host}]` : host

/** Whether a Garrison controller answers `GET /api/health/ping` at host:port (2 s at most). */
export const garrisonAnswers = async (host: string, port: number): Promise<boolean> => {
  try {
    const response = await fetch(`http://${reachableHost(host)}:${port}/api/health/ping`, { signal: AbortSignal.timeout(2_000) })
    const body = await response.text()
    return response.status === 200 && /"status"\s*:\s*"ok"/.test(body)
  } catch {
    return false
  }
}


/** Why a controller seems to run on this data directory, or undefined: its port answers as Garrison, or a process holds its database. */
export const controllerRunning = (settings: CliSettings): Effect.Effect<string | undefined> =>
  Effect.promise(async () => {
    if (await garrisonAnswers(settings.host, settings.port)) {
      return `a Garrison controller answers on ${settings.host}:${settings.port}`
    }
    const holders = settings.databaseUrl === undefined ? sqliteLockHolders(settings.databaseFile) : undefined
    if (holders !== undefined && holders.length > 0) return `process ${holders.join(", ")} has ${settings.databaseFile} open`
    return undefined
  })
