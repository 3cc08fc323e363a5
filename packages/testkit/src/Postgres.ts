/**
 * A real PostgreSQL 15 for tests, started from Debian's package (or the
 * `bin` folder `PG_BIN` names): a fresh cluster in a `garrison-pg-*`
 * folder of the temporary directory, on a free loopback port, with trust
 * authentication on loopback only and a superuser `garrison`, removed by
 * `stop()`. The run's global setup (`@garrison/testkit/globalSetup`) starts
 * one for the whole run when `GARRISON_TEST_DATABASE=postgres`; a test may
 * also start its own.
 *
 * Plain Node (no Effect, no vitest), so a script or a benchmark can use it
 * as it is. Statements go through `psql` (the package's client, beside the
 * server), so the testkit needs no PostgreSQL driver of its own.
 */
import { execFile, spawnSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import * as Fs from "node:fs"
import * as NodeNet from "node:net"
import * as Os from "node:os"
import * as NodePath from "node:path"

/** What installs the server on Debian (the tests' and CI's machines). */
export const POSTGRES_PACKAGE = "postgresql-15"
export const POSTGRES_INSTALL_COMMAND = `apt-get install ${POSTGRES_PACKAGE}`
/** The superuser the test clusters are made with (trust authentication: no password). */
export const POSTGRES_SUPERUSER = "garrison"
/** The variable that chooses the tests' database engine: `sqlite` (unset, the default) or `postgres`. */
export const TEST_DATABASE_VARIABLE = "GARRISON_TEST_DATABASE"
/**
 * Where the global setup puts the run's server (its admin URL) for the processes it does not reach through
 * vitest's `inject`: set before the workers start, so they and what they spawn inherit it.
 */
export const TEST_POSTGRES_URL_VARIABLE = "GARRISON_TEST_POSTGRES_URL"

export type TestDatabaseEngine = "sqlite" | "postgres"

/** The engine the tests run on, read off `GARRISON_TEST_DATABASE` (unset or empty: `sqlite`). */
export const testDatabaseEngine = (env: NodeJS.ProcessEnv = process.env): TestDatabaseEngine => {
  const value = (env[TEST_DATABASE_VARIABLE] ?? "").trim().toLowerCase()
  if (value === "" || value === "sqlite") return "sqlite"
  if (value === "postgres" || value === "postgresql") return "postgres"
  throw new Error(`${TEST_DATABASE_VARIABLE}=${env[TEST_DATABASE_VARIABLE]} is not a database engine: use sqlite (the default) or postgres`)
}

export interface PostgresInstallation {
  /** The folder with `postgres`, `initdb`, `pg_ctl` and `psql`. */
  readonly bin: string
  /** What `postgres --version` printed. */
  readonly version: string
}

export interface PostgresOptions {
  /** The PostgreSQL 15 `bin` folder: `PG_BIN`, else `pg_config --bindir` when that is a 15, else `/usr/lib/postgresql/15/bin`. */
  readonly bin?: string
  /** When this process is root: the unprivileged user the server runs as (`PG_USER`, else `nobody`). Ignored otherwise. */
  readonly user?: string
  /** Where the cluster's folder goes: the temporary directory (`TMPDIR`, the run's own under vitest). */
  readonly tempRoot?: string
  /** How the folder's name starts: `garrison-pg-` (the run's global setup fails a run that leaves a `garrison-*` folder). */
  readonly prefix?: string
  /** `max_connections`: 200 (three test workers, each with controllers and their pools). */
  readonly maxConnections?: number
  /** More server settings (`postgresql.conf` names), after the harness's own. */
  readonly settings?: Readonly<Record<string, string | number | boolean>>
  /** How long `pg_ctl start` may wait for the server to accept connections: 60 s. */
  readonly startTimeoutSeconds?: number
}

export interface PostgresServer {
  /** The admin URL: `postgres://garrison@127.0.0.1:<port>/postgres`. */
  readonly url: string
  readonly host: string
  readonly port: number
  /** The cluster (`PGDATA`). */
  readonly dataDir: string
  /** The `garrison-pg-*` folder holding the cluster, its log and its Unix socket; gone after `stop()`. */
  readonly folder: string
  /** The server's log (`pg_ctl -l`). */
  readonly logFile: string
  readonly installation: PostgresInstallation
  /** The user the server runs as, when this process is root. */
  readonly user: string | undefined
  /** A fresh, empty database (`CREATE DATABASE`), named `name` or uniquely: its URL. */
  readonly createDatabase: (name?: string) => Promise<string>
  /** Drops a database, closing its connections (`DROP DATABASE IF EXISTS ... WITH (FORCE)`). */
  readonly dropDatabase: (name: string) => Promise<void>
  /** Runs SQL through `psql` on `database` (`postgres` by default): the rows, unaligned, `|` between columns. */
  readonly query: (sql: string, database?: string) => Promise<string>
  /** The server's log so far. */
  readonly log: () => string
  /** `pg_ctl stop -m fast`, then removes the folder. Safe to call twice. */
  readonly stop: () => Promise<void>
}

// ---------------------------------------------------------------------------------------------------------------
// Finding the binaries

const DEBIAN_BIN = "/usr/lib/postgresql/15/bin"
const TOOLS = ["postgres", "initdb", "pg_ctl", "psql"] as const
const installations = new Map<string, PostgresInstallation>()

const isExecutable = (file: string): boolean => {
  try {
    Fs.accessSync(file, Fs.constants.X_OK)
    return Fs.statSync(file).isFile()
  } catch {
    return false
  }
}

/** `pg_config --bindir`, when `pg_config` is on the PATH and says it is a PostgreSQL 15. */
const pgConfigBin = (): string | undefined => {
  const version = spawnSync("pg_config", ["--version"], { encoding: "utf8" })
  if (version.status !== 0 || !/^PostgreSQL 15(\.|\s|$)/.test(version.stdout.trim())) return undefined
  const bindir = spawnSync("pg_config", ["--bindir"], { encoding: "utf8" })
  return bindir.status === 0 && bindir.stdout.trim() !== "" ? bindir.stdout.trim() : undefined
}

const missing = (what: string): Error =>
  new Error(
    `PostgreSQL 15 is needed for these tests, but ${what}. On Debian install it with \`${POSTGRES_INSTALL_COMMAND}\` ` +
      `(as root or with sudo; .ci/run does it when missing), or set PG_BIN to the bin folder of a PostgreSQL 15.`
  )

/**
 * The PostgreSQL 15 binaries: `bin` (or `PG_BIN`) if given, else `pg_config --bindir` when it is a 15, else
 * Debian's `/usr/lib/postgresql/15/bin`. Throws naming what is missing and the apt package when they are not
 * there or are not version 15.
 */
export const findPostgres = (bin?: string): PostgresInstallation => {
  const given = bin ?? (process.env["PG_BIN"] || undefined)
  const folder = given ?? pgConfigBin() ?? DEBIAN_BIN
  const known = installations.get(folder)
  if (known !== undefined) return known
  const from = bin !== undefined ? "the `bin` option" : given !== undefined ? "PG_BIN" : folder === DEBIAN_BIN ? "Debian's default" : "pg_config --bindir"
  const absent = TOOLS.filter((tool) => !isExecutable(NodePath.join(folder, tool)))
  if (absent.length > 0) {
    throw missing(`${absent.map((tool) => NodePath.join(folder, tool)).join(", ")} ${absent.length === 1 ? "is" : "are"} missing (folder from ${from})`)
  }
  const printed = spawnSync(NodePath.join(folder, "postgres"), ["--version"], { encoding: "utf8" })
  const version = (printed.stdout ?? "").trim()
  const major = /\(PostgreSQL\)\s+(\d+)/.exec(version)?.[1]
  if (printed.status !== 0 || major === undefined) {
    throw missing(`\`${NodePath.join(folder, "postgres")} --version\` failed (${(printed.stderr ?? printed.error?.message ?? "").trim() || `exit ${printed.status}`})`)
  }
  if (major !== "15") throw missing(`${NodePath.join(folder, "postgres")} is PostgreSQL ${major} ("${version}", folder from ${from})`)
  const installation = { bin: folder, version }
  installations.set(folder, installation)
  return installation
}

// ---------------------------------------------------------------------------------------------------------------
// Running the tools (as the server's user when we are root)

/*
 * Why root is handled this way: initdb and postgres refuse to run as root ("cannot be run as root": a server
 * that owns the machine would turn any bug in it into a machine takeover), and CI and this sandbox run as root
 * while a developer does not. So when this process is root, initdb, pg_ctl and thus the server run as an
 * unprivileged user, `nobody` by default (it exists on every Debian system and owns nothing else) or `PG_USER`:
 * through `runuser -u <user> --` (util-linux, no password, no shell), or `setpriv` if runuser is missing. The
 * cluster's folder is chown'ed to that user first, and the folders above it must let that user through (the
 * run's own `garrison-*` TMPDIR is made searchable, not readable, for it). Otherwise the tools run as we do.
 * `psql` needs no such care: it connects over TCP as the database user `garrison` whoever runs it.
 */

interface RunAs {
  readonly name: string
  readonly uid: number
  readonly gid: number
}

interface Ran {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

const idOf = (user: string, flag: "-u" | "-g"): number => {
  const printed = spawnSync("id", [flag, user], { encoding: "utf8" })
  const id = Number(printed.stdout?.trim())
  if (printed.status !== 0 || !Number.isInteger(id)) {
    throw new Error(`PostgreSQL refuses to run as root, so the tests run it as user "${user}" (PG_USER, else nobody), but there is no such user: ${(printed.stderr ?? "").trim()}`)
  }
  return id
}

const serverUser = (requested: string | undefined): RunAs | undefined => {
  if (process.getuid?.() !== 0) return undefined
  const name = requested ?? (process.env["PG_USER"] || "nobody")
  const uid = idOf(name, "-u")
  if (uid === 0) throw new Error(`PG_USER=${name} is root: PostgreSQL refuses to run as root; name an unprivileged user`)
  return { name, uid, gid: idOf(name, "-g") }
}

const switcher = (): { readonly kind: "runuser" | "setpriv"; readonly path: string } => {
  for (const path of ["/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser", "/bin/runuser"]) if (isExecutable(path)) return { kind: "runuser", path }
  for (const path of ["/usr/bin/setpriv", "/bin/setpriv"]) if (isExecutable(path)) return { kind: "setpriv", path }
  throw new Error("PostgreSQL refuses to run as root and neither runuser nor setpriv (Debian's util-linux) is installed to run it as another user")
}

/** The command line that runs `command` as `user` (or as we are). */
const asUser = (user: RunAs | undefined, command: string, args: ReadonlyArray<string>): [string, Array<string>] => {
  if (user === undefined) return [command, [...args]]
  const tool = switcher()
  return tool.kind === "runuser"
    ? [tool.path, ["-u", user.name, "--", command, ...args]]
    : [tool.path, [`--reuid=${user.uid}`, `--regid=${user.gid}`, "--clear-groups", "--", command, ...args]]
}

/** This process's environment without libpq's and the server's variables (PGDATA, PGPORT, PGHOST, PGUSER, ...), which would redirect the tools. */
const toolEnv = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith("PG")) env[key] = value
  env["PGCONNECT_TIMEOUT"] = "10"
  return env
}

const run = (user: RunAs | undefined, command: string, args: ReadonlyArray<string>, cwd?: string): Promise<Ran> => {
  const [file, argv] = asUser(user, command, args)
  return new Promise((resolve) => {
    execFile(file, argv, { cwd, env: toolEnv(), encoding: "utf8", maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1
      resolve({ code, stdout, stderr: error !== null && stderr === "" ? error.message : stderr })
    })
  })
}

const runSync = (user: RunAs | undefined, command: string, args: ReadonlyArray<string>): number => {
  const [file, argv] = asUser(user, command, args)
  return spawnSync(file, argv, { env: toolEnv(), stdio: "ignore", timeout: 30_000 }).status ?? 1
}

// ---------------------------------------------------------------------------------------------------------------
// Databases, over any server's admin URL (the run's, from a test worker)

const counter = globalThis as { __garrisonPostgresDatabases?: number }

/** A database name no other worker or file of the run picks: `garrison_<pid>_<n>_<random>`. */
export const uniqueDatabaseName = (): string => {
  counter.__garrisonPostgresDatabases = (counter.__garrisonPostgresDatabases ?? 0) + 1
  return `garrison_${process.pid}_${counter.__garrisonPostgresDatabases}_${randomBytes(3).toString("hex")}`
}

const checkName = (name: string): string => {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`"${name}" is not a database name the tests use: lower-case letters, digits and _, at most 63`)
  return name
}

/** `url` with its database replaced by `name`. */
export const databaseUrl = (url: string, name: string): string => {
  const parsed = new URL(url)
  parsed.pathname = `/${checkName(name)}`
  return parsed.toString()
}

/** Runs SQL through `psql` (`-X`: no ~/.psqlrc; stops at the first error): the rows, unaligned and without headers. */
export const postgresQuery = async (url: string, sql: string, options: { readonly bin?: string } = {}): Promise<string> => {
  const psql = NodePath.join(findPostgres(options.bin).bin, "psql")
  const ran = await run(undefined, psql, ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", sql])
  if (ran.code !== 0) throw new Error(`psql failed on ${new URL(url).host}: ${sql}\n${ran.stderr.trim()}`)
  return ran.stdout.trim()
}

/**
 * `pg_dump` of the database at `url`, plain SQL to stdout: everything it stores, as text (for a test that looks
 * for a value at rest, as one would grep a SQLite file).
 */
export const postgresDumpText = async (url: string, options: { readonly bin?: string } = {}): Promise<string> => {
  const ran = await run(undefined, NodePath.join(findPostgres(options.bin).bin, "pg_dump"), ["--format=plain", "--no-owner", "-d", url])
  if (ran.code !== 0) throw new Error(`pg_dump failed on ${new URL(url).host}${new URL(url).pathname}\n${ran.stderr.trim()}`)
  return ran.stdout
}

/**
 * What `pg_restore` reads from a custom-format dump (a `.pgdump` backup): its table of contents (`list`, as
 * `pg_restore --list` checks a dump), or the SQL it would run (`sql`; `dataOnly` for the rows alone).
 * Fails naming the file when `pg_restore` refuses it.
 */
export const postgresRestoreText = async (
  file: string,
  what: { readonly list: true } | { readonly sql: true; readonly dataOnly?: boolean },
  options: { readonly bin?: string } = {}
): Promise<string> => {
  const args = "list" in what ? ["--list", file] : [...(what.dataOnly === true ? ["--data-only"] : []), "-f", "-", file]
  const ran = await run(undefined, NodePath.join(findPostgres(options.bin).bin, "pg_restore"), args)
  if (ran.code !== 0) throw new Error(`pg_restore ${args.join(" ")} failed\n${ran.stderr.trim()}`)
  return ran.stdout
}

/** The rows of `table` in a custom-format dump, as `COPY` text lines (tab between columns), from `pg_restore --data-only`. */
export const postgresDumpRows = async (file: string, table: string, options: { readonly bin?: string } = {}): Promise<ReadonlyArray<string>> => {
  const lines = (await postgresRestoreText(file, { sql: true, dataOnly: true }, options)).split("\n")
  const start = lines.findIndex((line) => new RegExp(`^COPY (public\\.)?"?${table}"? \\(.*\\) FROM stdin;$`).test(line))
  if (start < 0) throw new Error(`no rows of ${table} in ${file}`)
  const end = lines.indexOf("\\.", start + 1)
  return lines.slice(start + 1, end < 0 ? undefined : end)
}

/** A fresh, empty database on the server of `adminUrl` (named `name`, or uniquely): its URL. */
export const createPostgresDatabase = async (adminUrl: string, name: string = uniqueDatabaseName(), options: { readonly bin?: string } = {}): Promise<string> => {
  await postgresQuery(adminUrl, `CREATE DATABASE "${checkName(name)}"`, options)
  return databaseUrl(adminUrl, name)
}

/** Drops a database of the server of `adminUrl`, closing its connections first. */
export const dropPostgresDatabase = async (adminUrl: string, name: string, options: { readonly bin?: string } = {}): Promise<void> => {
  await postgresQuery(adminUrl, `DROP DATABASE IF EXISTS "${checkName(name)}" WITH (FORCE)`, options)
}

// ---------------------------------------------------------------------------------------------------------------
// Starting and stopping a server

interface Running {
  readonly pgCtl: string
  readonly dataDir: string
  readonly folder: string
  readonly user: RunAs | undefined
}

// Servers this process started and has not stopped: stopped at once (`-m immediate`) if the process exits
// first (a crashed or interrupted run), so none outlives it. Kept on globalThis: with vitest's isolation a
// module is loaded again for each test file, and one `exit` listener is enough.
const registry = globalThis as { __garrisonPostgresServers?: Map<string, Running> }
const runningServers = (): Map<string, Running> => {
  if (registry.__garrisonPostgresServers === undefined) {
    const servers = new Map<string, Running>()
    registry.__garrisonPostgresServers = servers
    process.once("exit", () => {
      for (const server of servers.values()) {
        runSync(server.user, server.pgCtl, ["stop", "-D", server.dataDir, "-m", "immediate", "-w", "-t", "20"])
        Fs.rmSync(server.folder, { recursive: true, force: true })
      }
      servers.clear()
    })
  }
  return registry.__garrisonPostgresServers
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = NodeNet.createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })

const readFrom = (file: string, offset: number): string => {
  try {
    return Fs.readFileSync(file).subarray(offset).toString("utf8")
  } catch {
    return ""
  }
}

const sizeOf = (file: string): number => {
  try {
    return Fs.statSync(file).size
  } catch {
    return 0
  }
}

const tail = (text: string, lines = 40): string => text.trimEnd().split("\n").slice(-lines).join("\n")

/** Lets `user` through every folder above `folder` (it cannot run a cluster it cannot reach). */
const openPathFor = (user: RunAs, folder: string): void => {
  let dir = NodePath.dirname(folder)
  while (true) {
    const stat = Fs.statSync(dir)
    const searchable = stat.uid === user.uid ? (stat.mode & 0o100) !== 0 : stat.gid === user.gid ? (stat.mode & 0o010) !== 0 : (stat.mode & 0o001) !== 0
    if (!searchable) {
      // The run's own TMPDIR (`garrison-test-run-*`, 0700): searchable by others, not listable; the folders in it are 0700 each.
      if (NodePath.basename(dir).startsWith("garrison-") && stat.uid === process.getuid?.()) Fs.chmodSync(dir, (stat.mode & 0o7777) | 0o001)
      else throw new Error(`PostgreSQL runs as user ${user.name} (we are root), who cannot reach ${folder}: ${dir} is not searchable by it; set TMPDIR (or the tempRoot option) to a folder it can reach, such as /tmp`)
    }
    const parent = NodePath.dirname(dir)
    if (parent === dir) return
    dir = parent
  }
}

const settingValue = (value: string | number | boolean): string =>
  typeof value === "number" ? String(value) : typeof value === "boolean" ? (value ? "on" : "off") : `'${value.replace(/'/g, "''")}'`

/**
 * Starts a PostgreSQL 15 in a fresh folder of the temporary directory (see the module's comment); rejects naming
 * what is missing when the binaries are not there, and with the tail of the server's log when it does not start.
 */
export const startPostgres = async (options: PostgresOptions = {}): Promise<PostgresServer> => {
  const installation = findPostgres(options.bin)
  const tool = (name: (typeof TOOLS)[number]) => NodePath.join(installation.bin, name)
  const user = serverUser(options.user)
  const folder = Fs.mkdtempSync(NodePath.join(options.tempRoot ?? Os.tmpdir(), options.prefix ?? "garrison-pg-"))
  const dataDir = NodePath.join(folder, "data")
  const logFile = NodePath.join(folder, "postgres.log")
  const servers = runningServers()
  const running: Running = { pgCtl: tool("pg_ctl"), dataDir, folder, user }
  try {
    if (user !== undefined) {
      Fs.chownSync(folder, user.uid, user.gid)
      openPathFor(user, folder)
    }
    // --no-sync: initdb's own flush of the new cluster (a throw-away one) is skipped; the server runs with fsync on.
    const initdb = await run(
      user,
      tool("initdb"),
      ["-D", dataDir, "--auth=trust", `--username=${POSTGRES_SUPERUSER}`, "--encoding=UTF8", "--locale=C", "--no-sync", "--no-instructions"],
      folder
    )
    if (initdb.code !== 0) throw new Error(`initdb failed (exit ${initdb.code}) in ${dataDir}:\n${tail(`${initdb.stdout}\n${initdb.stderr}`)}`)
    // Trust, on loopback only: the Unix socket (in our folder) and 127.0.0.1, nothing else.
    Fs.writeFileSync(NodePath.join(dataDir, "pg_hba.conf"), "local all all trust\nhost all all 127.0.0.1/32 trust\n")
    // A Unix socket's path is at most 107 bytes: without room for `/.s.PGSQL.<port>.lock`, TCP only (pg_ctl -w reads postmaster.pid, not the socket).
    const socketDir = Buffer.byteLength(folder) + 22 <= 107 ? folder : ""
    const settings: Record<string, string | number | boolean> = {
      listen_addresses: "127.0.0.1",
      unix_socket_directories: socketDir,
      // Left on: tests check what survives a crash.
      fsync: true,
      synchronous_commit: "on",
      full_page_writes: true,
      max_connections: options.maxConnections ?? 200,
      log_timezone: "UTC",
      timezone: "UTC",
      ...options.settings
    }
    Fs.appendFileSync(
      NodePath.join(dataDir, "postgresql.conf"),
      `\n# Garrison's test harness (@garrison/testkit Postgres.ts)\n${Object.entries(settings).map(([key, value]) => `${key} = ${settingValue(value)}`).join("\n")}\n`
    )
    const timeout = String(options.startTimeoutSeconds ?? 60)
    for (let attempt = 1; ; attempt++) {
      const port = await freePort()
      const logStart = sizeOf(logFile)
      const started = await run(user, tool("pg_ctl"), ["start", "-w", "-t", timeout, "-D", dataDir, "-l", logFile, "-o", `-p ${port}`], folder)
      if (started.code === 0) {
        servers.set(folder, running)
        return serverHandle({ installation, user, folder, dataDir, logFile, port, running })
      }
      const log = readFrom(logFile, logStart)
      // pg_ctl gave up waiting, or the server failed: make sure none is left half started.
      if (Fs.existsSync(NodePath.join(dataDir, "postmaster.pid"))) await run(user, tool("pg_ctl"), ["stop", "-D", dataDir, "-m", "immediate", "-w", "-t", "20"], folder)
      // Another process took the port between our probe and the server's bind: another port.
      if (/could not bind|Address already in use|could not create any TCP\/IP sockets/i.test(log) && attempt < 5) continue
      throw new Error(
        `PostgreSQL (${installation.version}) did not start on 127.0.0.1:${port} (pg_ctl exit ${started.code}): ${`${started.stdout}\n${started.stderr}`.trim()}\n` +
          `server log (${logFile}), last lines:\n${tail(log) || "(empty)"}`
      )
    }
  } catch (error) {
    servers.delete(folder)
    Fs.rmSync(folder, { recursive: true, force: true })
    throw error
  }
}

const serverHandle = (server: {
  readonly installation: PostgresInstallation
  readonly user: RunAs | undefined
  readonly folder: string
  readonly dataDir: string
  readonly logFile: string
  readonly port: number
  readonly running: Running
}): PostgresServer => {
  const host = "127.0.0.1"
  const url = `postgres://${POSTGRES_SUPERUSER}@${host}:${server.port}/postgres`
  const bin = { bin: server.installation.bin }
  const pgCtl = server.running.pgCtl
  let stopping: Promise<void> | undefined
  const stop = async () => {
    const stopped = await run(server.user, pgCtl, ["stop", "-D", server.dataDir, "-m", "fast", "-w", "-t", "60"])
    const pidFile = NodePath.join(server.dataDir, "postmaster.pid")
    if (stopped.code !== 0 && Fs.existsSync(pidFile)) {
      const killed = await run(server.user, pgCtl, ["stop", "-D", server.dataDir, "-m", "immediate", "-w", "-t", "30"])
      if (killed.code !== 0 && Fs.existsSync(pidFile)) {
        // Left registered (the exit handler tries again) and on disk (the run's check names the folder).
        throw new Error(`PostgreSQL in ${server.dataDir} did not stop: ${stopped.stderr.trim()} / ${killed.stderr.trim()}\n${tail(readFrom(server.logFile, 0))}`)
      }
    }
    runningServers().delete(server.folder)
    Fs.rmSync(server.folder, { recursive: true, force: true })
  }
  return {
    url,
    host,
    port: server.port,
    dataDir: server.dataDir,
    folder: server.folder,
    logFile: server.logFile,
    installation: server.installation,
    user: server.user?.name,
    createDatabase: (name) => createPostgresDatabase(url, name, bin),
    dropDatabase: (name) => dropPostgresDatabase(url, name, bin),
    query: (sql, database = "postgres") => postgresQuery(databaseUrl(url, database), sql, bin),
    log: () => readFrom(server.logFile, 0),
    stop: () => {
      stopping ??= stop().catch((error: unknown) => {
        stopping = undefined
        throw error
      })
      return stopping
    }
  }
}
