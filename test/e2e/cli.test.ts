/**
 * The `garrison` command line (issue 34), over the built bin as a real child process
 * (`packages/http/bin/garrison.mjs`, what `npx garrison` and the npm scripts run):
 *
 * - every command's `--help`;
 * - `doctor` passes on a good setup (exit 0) and names each problem of broken ones (exit 1): a port another
 *   program holds, SteamCMD missing, a server entry whose binary is gone; a corrupt `garrison.db`; a data
 *   directory that cannot be written. Tests run as root, where a folder's mode bits stop no write (and a
 *   read-only mount needs privileges a test has not), so the unwritable data directory is a path that is a
 *   regular file; doctor checks with `access()` and a real write either way;
 * - `user reset-password` lets an admin locked out by failed sign-ins back in, with the controller running;
 *   `user create` and `user disable-mfa` through the API (`--url`, `--token`);
 * - `service install --dry-run`: `systemd-analyze verify` accepts the unit and `systemd-analyze security`
 *   rates its exposure 4.0 or less;
 * - `backup` of a running controller, then `restore` (refused while it runs): a user created after the
 *   backup is gone. On SQLite always; on the PostgreSQL pass also on PostgreSQL (pg_dump in the zip; refused while
 *   the controller's port answers, and while it is connected to the database; an archive of the other engine is
 *   refused both ways).
 *
 * The user test runs on both database engines (on the PostgreSQL pass the command gets the data directory's
 * `DATABASE_URL`, as the controller does); doctor and the first backup test are about SQLite's file and pin SQLite.
 */
import { dataDirDatabaseUrl, postgresQuery, testDatabaseEngine } from "@garrison/testkit/core"
import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { createServer, type Server, type Socket } from "node:net"
import * as NodePath from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import {
  type ControllerHandle,
  HOST,
  freePort,
  makeTempDir,
  removeDir,
  repoRoot,
  requestJson,
  spawnNode,
  startController,
  stopProcess
} from "../support/controller.js"
import { installSim } from "../support/sim.js"

const BIN = NodePath.join(repoRoot, "packages/http/bin/garrison.mjs")
const ADMIN = { username: "boss", password: "a long first passphrase" }
/** SQLite, whatever the pass (an empty DATABASE_URL is unset). */
const SQLITE = { DATABASE_URL: "" }

const dirs: Array<string> = []
const controllers: Array<ControllerHandle> = []
const listeners: Array<{ readonly server: Server; readonly sockets: Set<Socket> }> = []
afterAll(async () => {
  await Promise.all(controllers.map((controller) => stopProcess(controller)))
  await Promise.all(
    listeners.map(
      ({ server, sockets }) =>
        new Promise((resolve) => {
          server.close(resolve)
          sockets.forEach((socket) => socket.destroy())
        })
    )
  )
  dirs.forEach(removeDir)
}, 60_000)

const tempDir = () => {
  const dir = makeTempDir("garrison-cli-")
  dirs.push(dir)
  return dir
}

/** Runs `garrison <args>` to its end. */
const garrison = async (args: ReadonlyArray<string>, env: Readonly<Record<string, string>>) => {
  const run = spawnNode({ args: [BIN, ...args], env })
  const exit = await run.exited
  return { code: exit.code, output: run.output() }
}

const adminEnv = (dataDir: string, port: number, extra: Readonly<Record<string, string>> = {}) => ({
  DATA_DIR: dataDir,
  PORT: String(port),
  HOST,
  ADMIN_USERNAME: ADMIN.username,
  ADMIN_PASSWORD: ADMIN.password,
  RATE_LIMIT_AUTH: "off",
  ALLOW_ROOT_GAME_SERVERS: "true",
  ...extra
})

/** The controller on `env`'s PORT (the test's own, so the commands given `env` find it). */
const start = async (dataDir: string, env: Readonly<Record<string, string>>) => {
  const controller = await startController({ dataDir, port: Number(env["PORT"]), env })
  controllers.push(controller)
  return controller
}

const login = (baseUrl: string, username: string, password: string) =>
  requestJson(baseUrl, "POST", "/api/auth/login", { body: { username, password } })

const tokenOf = (body: unknown): string => (body as { readonly token: string }).token

const oneTimePassword = (output: string): string => {
  const found = /one-time password(?: for [^:]+)?: (\S+) ;/.exec(output)?.[1]
  if (found === undefined) throw new Error(`no one-time password in:\n${output}`)
  return found
}

/** Another program on `port`: a listener that accepts and never answers (its connections end with it). */
const listen = async (port: number) => {
  const sockets = new Set<Socket>()
  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
  })
  listeners.push({ server, sockets })
  await new Promise<void>((resolve) => server.listen(port, HOST, resolve))
}

describe("--help", () => {
  const commands = [
    [[], "Garrison, the DayZ server controller"],
    [["start"], "Start the controller"],
    [["user"], "Manage users"],
    [["user", "create"], "Create a user"],
    [["user", "reset-password"], "A new one-time password"],
    [["user", "disable-mfa"], "Turn a user's MFA off"],
    [["backup"], "Back up the data directory"],
    [["restore"], "Restore a garrison backup zip"],
    [["doctor"], "Check the host"],
    [["service"], "The systemd service"],
    [["service", "install"], "Install Garrison as a hardened systemd service"],
    [["sim", "install"], "Install a simulated DayZ server"],
    [["steamcmd", "install"], "Install the SteamCMD stand-in"],
    [["move-to-postgres"], "Copy a stopped controller's SQLite database"]
  ] as const
  it("describes each command and exits 0", async () => {
    const runs = await Promise.all(commands.map(([words]) => garrison([...words, "--help"], {})))
    runs.forEach((run, i) => {
      const [words, text] = commands[i]!
      expect(run.code, `garrison ${words.join(" ")} --help:\n${run.output}`).toBe(0)
      expect(run.output, words.join(" ")).toContain(text)
    })
  }, 120_000)
})

describe("doctor", () => {
  it("passes on a good setup, then names each problem of a broken one", async () => {
    const root = tempDir()
    const dataDir = NodePath.join(root, "data")
    const steam = await garrison(["steamcmd", "install", NodePath.join(root, "steam")], {})
    expect(steam.code, steam.output).toBe(0)
    const steamcmd = steam.output.trim().split("\n").at(-1)!
    expect(existsSync(steamcmd), steamcmd).toBe(true)
    const sim = await installSim({ dir: NodePath.join(root, "sim"), deriveRconPort: true })
    const port = await freePort()
    const env = adminEnv(dataDir, port, { ...SQLITE, STEAMCMD_PATH: steamcmd })
    const controller = await start(dataDir, env)
    const signedIn = await login(controller.baseUrl, ADMIN.username, ADMIN.password)
    expect(signedIn.status).toBe(200)
    const created = await requestJson(controller.baseUrl, "POST", "/api/servers", {
      body: { name: "sim-a", installDir: sim.dir, gamePort: sim.gamePort },
      headers: { authorization: `Bearer ${tokenOf(signedIn.body)}` }
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)

    const good = await garrison(["doctor"], env)
    expect(good.code, good.output).toBe(0)
    expect(good.output).toContain(`ok       port: ${HOST}:${port} is in use by a running Garrison`)
    expect(good.output).toContain("ok       server sim-a binary")
    expect(good.output).toMatch(/all \d+ checks passed/)

    // Broken: the controller gone and another program on its port, no SteamCMD, the game binary deleted.
    await stopProcess(controller)
    await listen(port)
    rmSync(sim.executable)
    const broken = await garrison(["doctor"], { ...env, STEAMCMD_PATH: NodePath.join(root, "no-steamcmd.sh") })
    expect(broken.code, broken.output).toBe(1)
    const problems = broken.output.split("\n").filter((line) => line.startsWith("problem"))
    expect(problems, broken.output).toEqual([
      expect.stringContaining(`problem  port: ${HOST}:${port} is in use by another program`),
      expect.stringContaining(`problem  steamcmd: no executable SteamCMD at ${NodePath.join(root, "no-steamcmd.sh")} (STEAMCMD_PATH)`),
      expect.stringContaining(`problem  server sim-a binary: ${sim.executable} is missing (ENOENT)`)
    ])
    expect(broken.output).toContain("3 of ")

    const json = await garrison(["doctor", "--json"], { ...env, STEAMCMD_PATH: NodePath.join(root, "no-steamcmd.sh") })
    expect(json.code, json.output).toBe(1)
    const report = JSON.parse(json.output) as { readonly ok: boolean; readonly checks: ReadonlyArray<{ readonly name: string; readonly ok: boolean; readonly fix?: string }> }
    expect(report.ok).toBe(false)
    expect(report.checks.filter((check) => !check.ok).map((check) => check.name)).toEqual(["port", "steamcmd", "server sim-a binary"])
    expect(report.checks.every((check) => check.ok || (check.fix ?? "").length > 0)).toBe(true)
  }, 120_000)

  it("names a corrupt database and a data directory that cannot be written", async () => {
    const root = tempDir()
    const dataDir = NodePath.join(root, "data")
    mkdirSync(dataDir)
    writeFileSync(NodePath.join(dataDir, "garrison.db"), Buffer.from("garbage bytes, not a database ".repeat(200)))
    const port = String(await freePort())
    const corrupt = await garrison(["doctor"], { ...SQLITE, DATA_DIR: dataDir, PORT: port, STEAMCMD_PATH: "/bin/true" })
    expect(corrupt.code, corrupt.output).toBe(1)
    expect(corrupt.output).toMatch(/problem {2}database: .*garrison\.db fails its integrity check \(file is not a database\); fix: /)

    // Root writes through any mode bits, so the unwritable "folder" is a regular file (doctor's write test catches both).
    const file = NodePath.join(root, "not-a-folder")
    writeFileSync(file, "")
    const unwritable = await garrison(["doctor"], { ...SQLITE, DATA_DIR: file, PORT: port, STEAMCMD_PATH: "/bin/true" })
    expect(unwritable.code, unwritable.output).toBe(1)
    expect(unwritable.output).toContain(`problem  data directory: ${file} is not a folder; fix: `)
    expect(unwritable.output.split("\n").filter((line) => line.startsWith("problem"))).toHaveLength(1)
  }, 60_000)
})

describe("user", () => {
  it("reset-password lets a locked-out admin back in; create and disable-mfa work through the API", async () => {
    const dataDir = NodePath.join(tempDir(), "data")
    const port = await freePort()
    const env = adminEnv(dataDir, port)
    const controller = await start(dataDir, env)
    // The fifth failure in a row locks the pair (429), and then the right password is refused too.
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect((await login(controller.baseUrl, ADMIN.username, "not the password")).status).toBe(attempt < 5 ? 401 : 429)
    }
    expect((await login(controller.baseUrl, ADMIN.username, ADMIN.password)).status, "locked out even with the right password").toBe(429)

    const reset = await garrison(["user", "reset-password", ADMIN.username], { DATA_DIR: dataDir })
    expect(reset.code, reset.output).toBe(0)
    expect(reset.output).toContain("sign-in lockouts are lifted")
    const password = oneTimePassword(reset.output)
    const back = await login(controller.baseUrl, ADMIN.username, password)
    expect(back.status, JSON.stringify(back.body)).toBe(200)
    const changed = await requestJson(controller.baseUrl, "POST", "/api/auth/change-password-forced", {
      body: { currentPassword: password, newPassword: ADMIN.password },
      headers: { authorization: `Bearer ${tokenOf(back.body)}` }
    })
    expect(changed.status, JSON.stringify(changed.body)).toBe(204)
    const token = tokenOf((await login(controller.baseUrl, ADMIN.username, ADMIN.password)).body)

    const api = ["--url", controller.baseUrl]
    const created = await garrison(["user", "create", "dave", "--role", "moderator", ...api], { GARRISON_TOKEN: token })
    expect(created.code, created.output).toBe(0)
    expect(created.output).not.toContain(token)
    expect((await login(controller.baseUrl, "dave", oneTimePassword(created.output))).status).toBe(200)
    const mfa = await garrison(["user", "disable-mfa", "dave", ...api, "--token", token], {})
    expect(mfa.code, mfa.output).toBe(0)
    const refused = await garrison(["user", "disable-mfa", "nobody", ...api], { GARRISON_TOKEN: token })
    expect(refused.code).toBe(1)
    expect(refused.output.trim()).toBe(`garrison: no user "nobody" at ${controller.baseUrl}`)
  }, 120_000)
})

describe("service install --dry-run", () => {
  it("prints a unit systemd-analyze verifies, with an exposure of 4.0 or less", async () => {
    const analyze = "/usr/bin/systemd-analyze"
    expect(existsSync(analyze), `${analyze} is missing: install Debian's systemd package (.ci/run does)`).toBe(true)
    const root = tempDir()
    const run = await garrison(["service", "install", "--dry-run", "--data-dir", NodePath.join(root, "data"), "--servers-dir", NodePath.join(root, "servers")], {})
    expect(run.code, run.output).toBe(0)
    const unit = run.output.split("\n").filter((line) => !line.startsWith("# to install")).join("\n")
    expect(unit).toContain(`ExecStart=${process.execPath} ${NodePath.join(repoRoot, "packages/http/dist/start.js")}`)
    expect(unit).toContain(`ReadWritePaths=${NodePath.join(root, "data")} ${NodePath.join(root, "servers")}`)
    expect(unit).not.toMatch(/^MemoryDenyWriteExecute=/m)
    const file = NodePath.join(root, "garrison.service")
    writeFileSync(file, unit)
    const verify = spawnSync(analyze, ["verify", file], { encoding: "utf8" })
    expect(verify.status, verify.stderr).toBe(0)
    const security = spawnSync(analyze, ["security", "--offline=true", file], { encoding: "utf8" })
    const exposure = /Overall exposure level for garrison\.service: (\d+(?:\.\d+)?)/.exec(security.stdout)?.[1]
    expect(exposure, security.stdout + security.stderr).toBeDefined()
    expect(Number(exposure)).toBeLessThanOrEqual(4.0)
  }, 60_000)
})

describe("backup and restore", () => {
  it("a restore brings back the backup's users, refused while the controller runs", async () => {
    const root = tempDir()
    const dataDir = NodePath.join(root, "data")
    const port = await freePort()
    const env = adminEnv(dataDir, port, SQLITE)
    const controller = await start(dataDir, env)
    const archive = NodePath.join(root, "data-backup.zip")
    const backup = await garrison(["backup", "--out", archive], env)
    expect(backup.code, backup.output).toBe(0)
    expect(backup.output).toContain(`backup written to ${archive} (garrison.db, secrets;`)

    const late = await garrison(["user", "create", "late", "--role", "moderator"], env)
    expect(late.code, late.output).toBe(0)
    const latePassword = oneTimePassword(late.output)
    expect((await login(controller.baseUrl, "late", latePassword)).status).toBe(200)

    const refused = await garrison(["restore", archive], env)
    expect(refused.code, refused.output).toBe(1)
    expect(refused.output).toContain(`a Garrison controller answers on ${HOST}:${port}: stop the controller on ${dataDir} before restoring`)

    await stopProcess(controller)
    const junk = NodePath.join(root, "junk.zip")
    writeFileSync(junk, "not a zip")
    const bad = await garrison(["restore", junk], env)
    expect(bad.code, bad.output).toBe(1)
    expect(bad.output).toContain(`${junk} cannot be restored`)

    const restored = await garrison(["restore", archive], env)
    expect(restored.code, restored.output).toBe(0)
    expect(restored.output).toMatch(/what was there \(garrison\.db.*\) is in .*before-restore-/)
    const again = await start(dataDir, env)
    expect((await login(again.baseUrl, "late", latePassword)).status).toBe(401)
    expect((await login(again.baseUrl, ADMIN.username, ADMIN.password)).status).toBe(200)
    await stopProcess(again)
  }, 120_000)

  it.runIf(testDatabaseEngine() === "postgres")(
    "PostgreSQL: a restore brings back the backup's users, refused while the controller runs or is connected, and across engines",
    async () => {
      const root = tempDir()
      const dataDir = NodePath.join(root, "data")
      const port = await freePort()
      // No DATABASE_URL: the controller and the commands get the data directory's database (test/support).
      const env = adminEnv(dataDir, port)
      const controller = await start(dataDir, env)
      const archive = NodePath.join(root, "data-backup.zip")
      const backup = await garrison(["backup", "--out", archive], env)
      expect(backup.code, backup.output).toBe(0)
      expect(backup.output).toContain(`backup written to ${archive} (garrison.pgdump, secrets;`)

      const late = await garrison(["user", "create", "late", "--role", "moderator"], env)
      expect(late.code, late.output).toBe(0)
      const latePassword = oneTimePassword(late.output)
      expect((await login(controller.baseUrl, "late", latePassword)).status).toBe(200)

      const refused = await garrison(["restore", archive], env)
      expect(refused.code, refused.output).toBe(1)
      expect(refused.output).toContain(`a Garrison controller answers on ${HOST}:${port}: stop the controller on ${dataDir} before restoring`)
      // Another PORT: the port check passes, the controller's connections to the database do not.
      const connected = await garrison(["restore", archive], { ...env, PORT: String(await freePort()) })
      expect(connected.code, connected.output).toBe(1)
      expect(connected.output).toMatch(/garrison: \d+ other sessions? (is|are) connected to postgres:\/\/\S+: stop the controller .*; nothing was changed/)

      await stopProcess(controller)
      // A SQLite archive onto PostgreSQL, and this PostgreSQL one onto SQLite: refused, nothing changed.
      const sqliteDir = NodePath.join(root, "sqlite-data")
      mkdirSync(sqliteDir)
      const Sqlite = createRequire(import.meta.url)("better-sqlite3") as new (file: string) => { exec(sql: string): void; close(): void }
      const db = new Sqlite(NodePath.join(sqliteDir, "garrison.db"))
      db.exec("CREATE TABLE t (x INTEGER)")
      db.close()
      const sqliteArchive = NodePath.join(root, "sqlite-backup.zip")
      const sqliteBackup = await garrison(["backup", "--out", sqliteArchive], { DATA_DIR: sqliteDir, ...SQLITE })
      expect(sqliteBackup.code, sqliteBackup.output).toBe(0)
      const crossed = await garrison(["restore", sqliteArchive], env)
      expect(crossed.code, crossed.output).toBe(1)
      expect(crossed.output).toContain(`${sqliteArchive} is a SQLite backup (garrison.db) and the store here is PostgreSQL (DATABASE_URL)`)
      expect(crossed.output).toContain("garrison move-to-postgres")
      const back = await garrison(["restore", archive], { DATA_DIR: NodePath.join(root, "elsewhere"), ...SQLITE })
      expect(back.code, back.output).toBe(1)
      expect(back.output).toContain(`${archive} is a PostgreSQL backup (garrison.pgdump) and the store here is SQLite`)

      // A table the backup does not have (a later version's): --clean would leave it beside older migration rows.
      const url = dataDirDatabaseUrl(dataDir)!
      await postgresQuery(url, "CREATE TABLE added_later (x integer)")
      const newer = await garrison(["restore", archive], env)
      expect(newer.code, newer.output).toBe(1)
      expect(newer.output).toContain("has tables the backup does not (public.added_later: made by a later version or plugin)")
      await postgresQuery(url, "DROP TABLE added_later")

      const restored = await garrison(["restore", archive], env)
      expect(restored.code, restored.output).toBe(0)
      expect(restored.output).toMatch(/restored garrison\.pgdump, secrets from .* into postgres:\/\/\S+ and /)
      expect(restored.output).toMatch(/what was there \(garrison-\S+-before-restore\.pgdump, secrets\) is in .*before-restore-/)
      const again = await start(dataDir, env)
      expect((await login(again.baseUrl, "late", latePassword)).status).toBe(401)
      expect((await login(again.baseUrl, ADMIN.username, ADMIN.password)).status).toBe(200)
      await stopProcess(again)
    },
    180_000
  )
})
