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
 * Needs the build (`npx tsc -b`) and the bundle (`node packages/http/scripts/bundle.mjs`).
 */
import { Secret, TOTP } from "otpauth"
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import * as NodePath from "node:path"
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
const running = handoff<true>("while the controller runs, the database and its WAL hold the secrets sealed, never in clear")
const stopped = handoff<true>("a clean stop's backup holds them sealed too; files are 0600 and folders 0700")

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

  it("while the controller runs, the database and its WAL hold the secrets sealed, never in clear", () => {
    const { secret } = mfa.get()
    server.get()
    const db = NodePath.join(dataDir, "garrison.db")
    expect(existsSync(`${db}-wal`)).toBe(true)
    const files = filesUnder(dataDir)
    expect(files.get(`${db}-wal`)?.length ?? 0).toBeGreaterThan(0)
    // The values are there, sealed (so the check below is not vacuous)...
    expect(holding(files, "sealed:v1:").filter((path) => path.startsWith(db))).not.toEqual([])
    // ...and in clear nowhere.
    expect(holding(files, RCON_PASSWORD)).toEqual([])
    expect(holding(files, secret)).toEqual([])
    running.set(true)
  })

  it("a clean stop's backup holds them sealed too; files are 0600 and folders 0700", async () => {
    const { secret } = mfa.get()
    running.get()
    // A clean stop takes a backup; the server keeps running.
    await stopProcess(controller)
    const backups = readdirSync(NodePath.join(dataDir, "backups")).filter((name) => name.endsWith(".db"))
    expect(backups.some((name) => name.includes("-shutdown"))).toBe(true)
    const files = filesUnder(dataDir)
    expect(holding(files, "sealed:v1:").some((path) => path.includes(`${NodePath.sep}backups${NodePath.sep}`))).toBe(true)
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
