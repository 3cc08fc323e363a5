/**
 * `garrison doctor [--json]`: checks a host before (or while) the controller runs, one line each, `ok` or
 * `problem` with what to do; exit 1 when any check fails. The port (free, or answered by Garrison), the data
 * directory (writable: `access` and a real write, as root passes the first on anything), the database (SQLite's
 * `quick_check` / a PostgreSQL connection), SteamCMD (the platform setting, else `STEAMCMD_PATH`, else
 * `steamcmd` on PATH, as the platform plugin picks it), and for each server entry its binary, its folder's owner,
 * its ports (free, or held by its own running process) and its agent's `/health`.
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as SqlClient from "@effect/sql/SqlClient"
import { Database, type GarrisonConfig } from "@garrison/runtime"
import * as Console from "effect/Console"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { existsSync, statSync } from "node:fs"
import * as NodePath from "node:path"
import { describeFailure } from "./CliFailure.js"
import { findExecutable, httpHealth, notWritable, processAlive, tcpPortFree, udpPortFree } from "./DoctorProbes.js"
import { sqliteLockHolders } from "../SqliteLocks.js"
import { type CliSettings, cliSettings, garrisonAnswers } from "./Settings.js"
import { quickCheck, withSqlite } from "./Sqlite.js"

export interface Check {
  readonly name: string
  readonly ok: boolean
  readonly detail: string
  /** What to do, for a failed check. */
  readonly fix?: string
}

const ok = (name: string, detail: string): Check => ({ name, ok: true, detail })
const problem = (name: string, detail: string, fix: string): Check => ({ name, ok: false, detail, fix })

/** A stored server entry, read loosely (entries from older versions lack fields; defaults as the runtime's). */
interface StoredEntry {
  readonly id: string
  readonly name: string
  readonly installDir: string
  readonly executable: string
  readonly gamePort: number
  readonly rcon?: { readonly port?: number; readonly protocol?: string }
  readonly agent?: { readonly url?: string }
}

interface Stored {
  readonly steamcmdSetting: string | undefined
  readonly entries: ReadonlyArray<StoredEntry>
  /** Running game servers' pids by server id. */
  readonly pids: ReadonlyMap<string, number>
}

const nothingStored: Stored = { steamcmdSetting: undefined, entries: [], pids: new Map() }

const parseEntries = (rows: ReadonlyArray<{ readonly id: string; readonly entry: string }>): ReadonlyArray<StoredEntry> =>
  rows.flatMap((row) => {
    try {
      const raw = JSON.parse(row.entry) as Partial<StoredEntry>
      if (typeof raw.installDir !== "string") return []
      return [{ ...raw, id: row.id, name: raw.name ?? row.id, installDir: raw.installDir, executable: raw.executable ?? "DayZServer", gamePort: raw.gamePort ?? 2302 }]
    } catch {
      return []
    }
  })

/** The database check and what it stores (server entries, the SteamCMD setting). */
const databaseCheck = (settings: CliSettings): Effect.Effect<{ readonly check: Check; readonly stored: Stored }, never, GarrisonConfig> => {
  const name = "database"
  if (settings.databaseUrl !== undefined) {
    return Effect.scoped(
      Effect.gen(function* () {
        const context = yield* Layer.build(Database.layer)
        const database = Context.get(context, Database)
        const sql = Context.get(context, SqlClient.SqlClient)
        const stored = yield* Effect.all({
          setting: sql<{ readonly value: string }>`SELECT value FROM platform_settings WHERE name = 'steamcmd_path'`,
          rows: sql<{ readonly id: string; readonly entry: string }>`SELECT id, entry FROM servers`,
          processes: sql<{ readonly serverId: string; readonly pid: number }>`SELECT server_id AS "serverId", pid FROM server_processes`
        }).pipe(Effect.option)
        return {
          check: ok(name, `PostgreSQL at ${database.file} answers`),
          stored:
            stored._tag === "None"
              ? nothingStored
              : {
                  steamcmdSetting: stored.value.setting[0]?.value,
                  entries: parseEntries(stored.value.rows),
                  pids: new Map(stored.value.processes.map((row) => [row.serverId, Number(row.pid)]))
                }
        }
      })
    ).pipe(
      Effect.timeoutFail({ duration: "15 seconds", onTimeout: () => "no answer within 15 s" }),
      Effect.catchAllCause((cause) =>
        Effect.succeed({
          check: problem(name, `cannot use the PostgreSQL database DATABASE_URL names: ${describeFailure(cause._tag === "Fail" ? cause.error : cause)}`, "check that the server runs and DATABASE_URL (host, port, database, user, password)"),
          stored: nothingStored
        })
      )
    )
  }
  return Effect.sync(() => {
    const file = settings.databaseFile
    if (!existsSync(file)) return { check: ok(name, `no ${file} yet (the first start creates it)`), stored: nothingStored }
    const broken = quickCheck(file)
    if (broken !== undefined) {
      return {
        check: problem(
          name,
          `${file} fails its integrity check (${broken})`,
          "the next start moves it aside and restores the newest good backup (DATA_DIR/backups); or stop the controller and run garrison restore <zip>"
        ),
        stored: nothingStored
      }
    }
    try {
      const stored = withSqlite(file, { readonly: true }, (db) => {
        const has = (table: string) => db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?").all(table).length > 0
        return {
          steamcmdSetting: has("platform_settings")
            ? (db.prepare("SELECT value FROM platform_settings WHERE name = 'steamcmd_path'").pluck().all()[0] as string | undefined)
            : undefined,
          entries: has("servers") ? parseEntries(db.prepare("SELECT id, entry FROM servers").all() as Array<{ id: string; entry: string }>) : [],
          pids: new Map(
            has("server_processes") ? (db.prepare("SELECT server_id AS serverId, pid FROM server_processes").all() as Array<{ serverId: string; pid: number }>).map((row) => [row.serverId, Number(row.pid)]) : []
          )
        }
      })
      return { check: ok(name, `${file} passes quick_check`), stored }
    } catch (error) {
      return { check: problem(name, `cannot read ${file}: ${describeFailure(error)}`, "check its owner and mode (0600, the controller's user)"), stored: nothingStored }
    }
  })
}

const portCheck = async (settings: CliSettings): Promise<Check> => {
  const name = "port"
  const where = `${settings.host}:${settings.port}`
  const taken = await tcpPortFree(settings.host, settings.port)
  if (taken === undefined) return ok(name, `${where} is free`)
  if (await garrisonAnswers(settings.host, settings.port)) {
    const holders = settings.databaseUrl === undefined ? sqliteLockHolders(settings.databaseFile) : undefined
    return ok(name, `${where} is in use by a running Garrison${holders !== undefined && holders.length > 0 ? ` (process ${holders.join(", ")} has this data directory's database open)` : ""}`)
  }
  return problem(name, `${where} is in use by another program (${taken})`, "stop what listens there, or set PORT (or HOST) to a free one")
}

const dataDirCheck = (settings: CliSettings): Check => {
  const why = notWritable(settings.dataDir)
  return why === undefined
    ? ok("data directory", `${settings.dataDir} is writable`)
    : problem("data directory", why, `make ${settings.dataDir} a folder the controller's user can write (chown/chmod, a writable mount), or set DATA_DIR`)
}

const steamCmdCheck = (stored: Stored): Check => {
  const env = (process.env["STEAMCMD_PATH"] ?? "").trim()
  const [command, source] =
    stored.steamcmdSetting !== undefined ? [stored.steamcmdSetting, "the platform setting"] : env !== "" ? [env, "STEAMCMD_PATH"] : ["steamcmd", "the default, on PATH"]
  const found = findExecutable(command)
  return found !== undefined
    ? ok("steamcmd", `${found} (${source})`)
    : problem("steamcmd", `no executable SteamCMD at ${command} (${source})`, "install SteamCMD and set STEAMCMD_PATH (or PATCH /api/platform/settings) to its steamcmd.sh; mods and updates need it")
}

const serverChecks = async (entry: StoredEntry, pid: number | undefined): Promise<ReadonlyArray<Check>> => {
  const label = `server ${entry.name}`
  const checks: Array<Check> = []
  const binary = NodePath.resolve(entry.installDir, entry.executable)
  const binaryProblem = (() => {
    try {
      const stats = statSync(binary)
      return stats.isFile() && (stats.mode & 0o111) !== 0 ? undefined : "is not an executable file"
    } catch (error) {
      return `is missing (${(error as NodeJS.ErrnoException).code ?? "?"})`
    }
  })()
  checks.push(
    binaryProblem === undefined
      ? ok(`${label} binary`, binary)
      : problem(`${label} binary`, `${binary} ${binaryProblem}`, "reinstall the server (or correct the entry's installDir/executable: PATCH /api/servers/:id)")
  )
  try {
    const stats = statSync(entry.installDir)
    const asRoot = process.getuid?.() === 0
    const gameUser = (process.env["GAME_SERVER_USER"] ?? "").trim()
    if (asRoot && stats.uid === 0 && gameUser === "" && process.env["ALLOW_ROOT_GAME_SERVERS"] !== "true") {
      checks.push(problem(`${label} folder`, `${entry.installDir} is owned by root, and game servers run as its owner (never as root)`, `chown -R <game user> ${entry.installDir}, or set GAME_SERVER_USER`))
    } else {
      checks.push(ok(`${label} folder`, `${entry.installDir} (owner uid ${stats.uid}${gameUser !== "" ? `; runs as ${gameUser}` : ""})`))
    }
  } catch (error) {
    checks.push(problem(`${label} folder`, `${entry.installDir} cannot be read (${(error as NodeJS.ErrnoException).code ?? "?"})`, "restore the install folder, or remove the entry"))
  }
  const running = pid !== undefined && processAlive(pid)
  const rconPort = entry.rcon?.port ?? entry.gamePort + 4
  const ports = [0, 1, 2, 3].map((i) => ({ port: entry.gamePort + i, tcp: false })).concat([{ port: rconPort, tcp: entry.rcon?.protocol === "source" }])
  const taken: Array<string> = []
  for (const { port, tcp } of ports) {
    const why = tcp ? await tcpPortFree("0.0.0.0", port) : await udpPortFree(port)
    if (why !== undefined) taken.push(`${port}/${tcp ? "tcp" : "udp"}`)
  }
  const portList = `${entry.gamePort}-${entry.gamePort + 3} and RCon ${rconPort}`
  checks.push(
    taken.length === 0
      ? ok(`${label} ports`, `${portList} are free`)
      : running
        ? ok(`${label} ports`, `${taken.join(", ")} held by its running server (pid ${pid})`)
        : problem(`${label} ports`, `${taken.join(", ")} in use by another program`, "stop what holds them, or give the entry other ports (PATCH /api/servers/:id gamePort)")
  )
  const agentUrl = entry.agent?.url
  if (agentUrl !== undefined) {
    const why = await httpHealth(agentUrl, 3_000)
    checks.push(
      why === undefined
        ? ok(`${label} agent`, `${agentUrl}/health answers`)
        : problem(`${label} agent`, `${agentUrl}/health: ${why}`, "start the agent beside the game server (npm run agent), or correct the entry's agent.url")
    )
  }
  return checks
}

export const runChecks = Effect.gen(function* () {
  const settings = yield* cliSettings
  const port = yield* Effect.promise(() => portCheck(settings))
  const dataDir = dataDirCheck(settings)
  const database = yield* databaseCheck(settings)
  const steamcmd = steamCmdCheck(database.stored)
  const servers = yield* Effect.promise(async () => {
    const all: Array<Check> = []
    for (const entry of database.stored.entries) all.push(...(await serverChecks(entry, database.stored.pids.get(entry.id))))
    return all
  })
  return [port, dataDir, database.check, steamcmd, ...servers]
})

export const doctorCommand = Command.make(
  "doctor",
  { json: Options.boolean("json").pipe(Options.withDescription("One JSON document ({ok, checks: [{name, ok, detail, fix?}]}) instead of lines")) },
  ({ json }) =>
    Effect.gen(function* () {
      const checks = yield* runChecks
      const allOk = checks.every((check) => check.ok)
      if (json) {
        yield* Console.log(JSON.stringify({ ok: allOk, checks }, null, 2))
      } else {
        for (const check of checks) {
          yield* Console.log(check.ok ? `ok       ${check.name}: ${check.detail}` : `problem  ${check.name}: ${check.detail}; fix: ${check.fix}`)
        }
        const failed = checks.filter((check) => !check.ok).length
        yield* Console.log(allOk ? `all ${checks.length} checks passed` : `${failed} of ${checks.length} checks failed`)
      }
      if (!allOk) process.exitCode = 1
    })
).pipe(
  Command.withDescription(
    "Check the host: the port, the data directory, the database, SteamCMD, and each server's binary, folder, ports and agent; exit 1 when a check fails"
  )
)
