/**
 * Secrets at rest, end to end: the real controller (default plugins) with a
 * server entry for a simulated DayZ server whose RCON password is known, and
 * MFA turned on for the admin. Neither the RCON password nor the TOTP secret
 * appears in any file of the data directory: the database, its -wal while
 * the controller runs, the backup taken at shutdown. After a restart the
 * controller opens the sealed password and connects RCON to the still
 * running server again; the files are 0600 and the folders 0700. The API
 * (create reply, status, list, config backup) never shows the password.
 * One test per step, in order, on one data directory.
 *
 * On PostgreSQL (`GARRISON_TEST_DATABASE=postgres`) the database is no file
 * of the data directory: the stored columns are read through SQL and the
 * whole database through `pg_dump` (plain text), and the shutdown backup is
 * a `.pgdump` read back with `pg_restore`; each holds the secrets sealed,
 * never in clear, and no file of the data directory holds them in clear.
 *
 * Needs the build (`npx tsc -b`) and the bundle (`node packages/http/scripts/bundle.mjs`).
 */
import { Secret, TOTP } from "otpauth"
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import * as NodePath from "node:path"
import { dataDirDatabaseUrl, postgresDumpText, postgresQuery, postgresRestoreText, testDatabaseEngine } from "@garrison/testkit/core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type ControllerHandle,
  makeTempDir,
  removeDir,
  requestJson,
  startController,
  stopProcess
} from "../support/controller.js"
import { fleetEnv, fleetSimArgs, handoff, type ServerStatus, until } from "../support/fleet.js"
import { installSim, killAllSims, type SimInstall } from "../support/sim.js"

const ADMIN = { username: "sealed-admin", password: "sealed admin password" }
const RCON_PASSWORD = "Known-Rcon-Pw-5fj29x"

const cleanups: Array<() => unknown> = []
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  killAllSims()
})

/** Every file under `dir` (recursively), path → bytes. */
const filesUnder = (dir: string): Map<string, Buffer> => {
  const found = new Map<string, Buffer>()
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) {
      const path = NodePath.join(entry.parentPath, entry.name)
      found.set(path, readFileSync(path))
    }
  }
  return found
}

/** The files of `files` holding `needle` as bytes (what `grep -r` would list). */
const holding = (files: Map<string, Buffer>, needle: string): Array<string> =>
  [...files].filter(([, bytes]) => bytes.includes(needle)).map(([path]) => path)

const POSTGRES = testDatabaseEngine() === "postgres"

/** On PostgreSQL: the sealed columns (the server entry, the MFA secret) read through SQL, and a plain pg_dump. */
const storedInPostgres = async (dir: string) => {
  const url = dataDirDatabaseUrl(dir)
  if (url === undefined) throw new Error(`no PostgreSQL database for ${dir}`)
  return {
    entries: await postgresQuery(url, "SELECT entry FROM servers"),
    mfa: await postgresQuery(url, "SELECT mfa_secret FROM accounts_users WHERE mfa_secret IS NOT NULL"),
    dump: await postgresDumpText(url)
  }
}

const totpAt = (secret: string, ms: number) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: ms, digits: 6, period: 30, algorithm: "SHA1" })

const dataDir = makeTempDir()
cleanups.push(() => removeDir(dataDir))
const env = { ...fleetEnv, ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password }
const start = async () => {
  const controller = await startController({ dataDir, env, logLevel: "Warning" })
  cleanups.push(() => stopProcess(controller))
  return controller
}
let install: SimInstall
let controller: ControllerHandle
const api = (method: string, path: string, body?: unknown, token?: string) =>
  requestJson(controller.baseUrl, method, path, {
    ...(body === undefined ? {} : { body }),
    ...(token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } }),
    timeoutMs: 30_000
  })

const mfa = handoff<{ readonly token: string; readonly secret: string }>("the admin turns MFA on")
const server = handoff<string>("an entry made with a known RCON password connects; the API never shows the password")
const RUNNING = POSTGRES
  ? "PostgreSQL: while the controller runs, the stored columns and a pg_dump hold the secrets sealed, never in clear, nor does any file"
  : "SQLite: while the controller runs, the database and its WAL hold the secrets sealed, never in clear"
const STOPPED = POSTGRES
  ? "PostgreSQL: a clean stop's .pgdump backup holds them sealed too (read by pg_restore); files are 0600 and folders 0700"
  : "SQLite: a clean stop's backup holds them sealed too; files are 0600 and folders 0700"
const running = handoff<true>(RUNNING)
const stopped = handoff<true>(STOPPED)

beforeAll(async () => {
  install = await installSim({ rconPassword: RCON_PASSWORD })
  cleanups.push(() => install.remove())
  controller = await start()
}, 60_000)

// In order: one controller, stopped and started again by the tests; the secrets made by the first two
// tests are looked for on disk by the next two and used again by the last.
describe.sequential("secrets at rest", { timeout: 60_000 }, () => {
  it("the admin turns MFA on", async () => {
    const signedIn = await api("POST", "/api/auth/login", ADMIN)
    expect(signedIn.status).toBe(200)
    const token = (signedIn.body as { token: string }).token
    const setup = await api("POST", "/api/auth/mfa/setup", undefined, token)
    expect(setup.status).toBe(200)
    const { secret } = setup.body as { secret: string }
    expect((await api("POST", "/api/auth/mfa/verify", { code: totpAt(secret, Date.now()) }, token)).status).toBe(200)
    mfa.set({ token, secret })
  })

  it("an entry made with a known RCON password connects; the API never shows the password", async () => {
    const { token } = mfa.get()
    // The password is given in the body.
    const created = await api(
      "POST",
      "/api/servers",
      {
        name: "Sealed",
        installDir: install.dir,
        gamePort: install.gamePort,
        extraArgs: fleetSimArgs,
        rcon: { port: install.rconPort, password: RCON_PASSWORD },
        stop: { shutdownWaitMs: 5_000, terminateWaitMs: 3_000 }
      },
      token
    )
    expect(created.status).toBe(201)
    const id = (created.body as { id: string }).id
    expect(JSON.stringify(created.body)).not.toContain(RCON_PASSWORD)
    cleanups.push(() => api("POST", `/api/servers/${id}/stop`, undefined, token).catch(() => undefined))
    expect((await api("POST", `/api/servers/${id}/start`, undefined, token)).status).toBeLessThan(300)
    await until(
      async () => (await api("GET", `/api/servers/${id}/status`, undefined, token)).body as ServerStatus,
      (s) => s.rconStatus === "connected",
      20_000,
      "RCON connected with the password from the entry"
    )
    // The API never hands it out: the create reply above, the status, the list and the config backup.
    for (const path of [`/api/servers/${id}/status`, "/api/servers", "/api/backup/servers"]) {
      const reply = await api("GET", path, undefined, token)
      expect([path, reply.status]).toEqual([path, 200])
      expect(JSON.stringify(reply.body)).not.toContain(RCON_PASSWORD)
    }
    server.set(id)
  })

  it(RUNNING, async () => {
    const { secret } = mfa.get()
    server.get()
    const files = filesUnder(dataDir)
    if (POSTGRES) {
      const stored = await storedInPostgres(dataDir)
      // The values are there, sealed (so the checks below are not vacuous)...
      for (const text of [stored.entries, stored.mfa, stored.dump]) expect(text).toContain("sealed:v1:")
      // ...and in clear nowhere: not in the database, not in any file (the database has none here).
      for (const text of [stored.entries, stored.mfa, stored.dump]) {
        expect(text).not.toContain(RCON_PASSWORD)
        expect(text).not.toContain(secret)
      }
      expect(existsSync(NodePath.join(dataDir, "garrison.db"))).toBe(false)
    } else {
      const db = NodePath.join(dataDir, "garrison.db")
      expect(existsSync(`${db}-wal`)).toBe(true)
      expect(files.get(`${db}-wal`)?.length ?? 0).toBeGreaterThan(0)
      // The values are there, sealed (so the check below is not vacuous)...
      expect(holding(files, "sealed:v1:").filter((path) => path.startsWith(db))).not.toEqual([])
    }
    // ...and in clear nowhere.
    expect(holding(files, RCON_PASSWORD)).toEqual([])
    expect(holding(files, secret)).toEqual([])
    running.set(true)
  })

  it(STOPPED, async () => {
    const { secret } = mfa.get()
    running.get()
    // A clean stop takes a backup; the server keeps running.
    await stopProcess(controller)
    const backups = readdirSync(NodePath.join(dataDir, "backups")).filter((name) => name.endsWith(POSTGRES ? ".pgdump" : ".db"))
    expect(backups.some((name) => name.includes("-shutdown"))).toBe(true)
    const files = filesUnder(dataDir)
    if (POSTGRES) {
      // pg_dump's custom format is compressed: read what it restores, as text.
      const shutdown = backups.filter((name) => name.includes("-shutdown")).map((name) => NodePath.join(dataDir, "backups", name))
      for (const file of shutdown) {
        expect(await postgresRestoreText(file, { list: true })).toMatch(/TABLE DATA public servers /)
        const restored = await postgresRestoreText(file, { sql: true })
        expect(restored).toContain("sealed:v1:")
        expect(restored).not.toContain(RCON_PASSWORD)
        expect(restored).not.toContain(secret)
      }
    } else {
      expect(holding(files, "sealed:v1:").some((path) => path.includes(`${NodePath.sep}backups${NodePath.sep}`))).toBe(true)
    }
    expect(holding(files, RCON_PASSWORD)).toEqual([])
    expect(holding(files, secret)).toEqual([])
    for (const path of files.keys()) expect([path, statSync(path).mode & 0o777]).toEqual([path, 0o600])
    for (const dir of [dataDir, NodePath.join(dataDir, "backups"), NodePath.join(dataDir, "secrets")]) {
      expect([dir, statSync(dir).mode & 0o777]).toEqual([dir, 0o700])
    }
    stopped.set(true)
  })

  it("after a restart the sealed password opens: the adopted server's RCON connects again", async () => {
    const { secret } = mfa.get()
    const id = server.get()
    stopped.get()
    controller = await start()
    const again = await api("POST", "/api/auth/login", { ...ADMIN, code: totpAt(secret, Date.now() + 30_000) })
    expect(again.status).toBe(200)
    const token = (again.body as { token: string }).token
    const status = await until(
      async () => (await api("GET", `/api/servers/${id}/status`, undefined, token)).body as ServerStatus,
      (s) => s.rconStatus === "connected",
      20_000,
      "RCON connected again after the restart, with the opened password"
    )
    expect(status.status).toBe("running")
    const stop = await api("POST", `/api/servers/${id}/stop`, undefined, token)
    expect(stop.status).toBeLessThan(300)
  })
})
