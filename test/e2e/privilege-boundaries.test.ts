/**
 * The probe of issue 27, replayed through the built controller with real
 * accounts: a moderator whose role holds `server.deploy`, `server.config`,
 * `server.restart` and `server.view` on server A only tries what an
 * attacker tried. Each attempt is refused (403/400/409) with nothing run,
 * read or written; the admin's same calls still work where they should.
 * (The game's user is `game-server-user.test.ts`; scoped lists and streams,
 * `server-scope-property.test.ts`.)
 */
import { unzipEntries } from "@garrison/testkit"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeTempDir, removeDir, requestJson } from "../support/controller.js"
import { makeFleet, until } from "../support/fleet.js"
import type { SimInstall } from "../support/sim.js"

const ADMIN = { username: "boundary-admin", password: "boundary admin password" }
const MODERATOR = { username: "moderator-a", password: "first password of a", own: "the moderator's own password" }
const fleet = makeFleet({ admin: ADMIN })
const { api } = fleet

let a: { id: string; install: SimInstall }
let b: { id: string; install: SimInstall }
let token = ""
const group = makeTempDir("garrison-group-")
/** One request as the moderator of A. */
const asModerator = (method: string, path: string, body?: unknown) =>
  requestJson(fleet.baseUrl(), method, path, { headers: { authorization: `Bearer ${token}` }, ...(body === undefined ? {} : { body }) })

beforeAll(async () => {
  // B lies in a folder of its own, so "a folder holding B" is not also the run's temporary folder (which holds the data directory).
  const installA = await fleet.installSim()
  const installB = await fleet.installSim({ dir: NodePath.join(group, "bravo") })
  await fleet.startController()
  const make = async (install: SimInstall, name: string) => {
    const created = await fleet.createServer(install, name)
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    return { id: (created.body as { id: string }).id, install }
  }
  a = await make(installA, "Alpha")
  b = await make(installB, "Bravo")
  const scoped = ["server.deploy", "server.config", "server.restart", "server.view", "server.start", "server.stop"].map((permission) => ({ permission, servers: [a.id] }))
  expect((await api("POST", "/api/roles", { name: "alpha-moderator", permissions: scoped })).status).toBe(201)
  expect((await api("POST", "/api/users", { username: MODERATOR.username, password: MODERATOR.password, role: "alpha-moderator" })).status).toBe(201)
  const first = await requestJson(fleet.baseUrl(), "POST", "/api/auth/login", { body: { username: MODERATOR.username, password: MODERATOR.password } })
  await requestJson(fleet.baseUrl(), "POST", "/api/auth/change-password-forced", {
    headers: { authorization: `Bearer ${(first.body as { token: string }).token}` },
    body: { currentPassword: MODERATOR.password, newPassword: MODERATOR.own }
  })
  const signedIn = await requestJson(fleet.baseUrl(), "POST", "/api/auth/login", { body: { username: MODERATOR.username, password: MODERATOR.own } })
  expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200)
  token = (signedIn.body as { token: string }).token
}, 60_000)

afterAll(async () => {
  await fleet.close()
  removeDir(group)
})

const message = (answer: { body: unknown }) => (answer.body as { message?: string }).message ?? ""

describe.sequential("a moderator of server A, trying for root", { timeout: 60_000 }, () => {
  it("cannot make the server run a program of theirs: the executable is admin's, and the game binary is not the editor's", async () => {
    const marker = NodePath.join(a.install.dir, "evil-ran")
    const evil = NodePath.join(a.install.dir, "evil.sh")
    Fs.writeFileSync(evil, `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 })
    const patched = await asModerator("PATCH", `/api/servers/${a.id}`, { executable: evil })
    expect(patched.status).toBe(403)
    expect(message(patched)).toContain("executable: only an admin may set or change it")
    const binary = Fs.readFileSync(a.install.executable)
    const written = await asModerator("PUT", `/api/servers/${a.id}/files/write`, { path: "DayZServer", content: `#!/bin/sh\ntouch '${marker}'\n` })
    expect(written.status).toBe(403)
    expect(Fs.readFileSync(a.install.executable)).toEqual(binary)
    // A new file the editor makes is never a program.
    expect((await asModerator("PUT", `/api/servers/${a.id}/files/write`, { path: "notes.sh", content: "#!/bin/sh\n" })).status).toBeLessThan(300)
    expect(Fs.statSync(NodePath.join(a.install.dir, "notes.sh")).mode & 0o777).toBe(0o644)
    // The start the moderator may make runs the real server, not the script.
    expect((await asModerator("POST", `/api/servers/${a.id}/start`)).status).toBe(200)
    const running = await fleet.rconConnected(a.id, 30_000)
    fleet.trackGameProcess(running.pid ?? 0)
    expect(Fs.existsSync(marker)).toBe(false)
    expect((await asModerator("POST", `/api/servers/${a.id}/stop`)).status).toBe(200)
    await until(() => fleet.status(a.id), (s) => s.status === "stopped", 20_000, "the stop")
  })

  it("cannot move the install over another server or the host; the admin is held to the folder rules too", async () => {
    for (const installDir of [group, "/etc", NodePath.join(b.install.dir, "battleye")]) {
      const refused = await asModerator("PATCH", `/api/servers/${a.id}`, { installDir })
      expect(refused.status, installDir).toBe(403)
      expect(message(refused)).toContain("installDir")
    }
    // (A binary where the folder rules are tested, so they are what answers.)
    for (const folder of [group, NodePath.join(b.install.dir, "battleye")]) Fs.writeFileSync(NodePath.join(folder, "DayZServer"), "#!/bin/sh\n", { mode: 0o755 })
    const parent = await api("PATCH", `/api/servers/${a.id}`, { installDir: group })
    expect(parent.status, JSON.stringify(parent.body)).toBe(409)
    expect((parent.body as { details: { relation: string } }).details.relation).toBe("contains")
    const system = await api("PATCH", `/api/servers/${a.id}`, { installDir: "/etc" })
    expect(system.status).toBe(400)
    expect(message(system)).toContain("system folder")
    const inside = await api("PATCH", `/api/servers/${a.id}`, { installDir: NodePath.join(b.install.dir, "battleye") })
    expect(inside.status).toBe(409)
    expect((inside.body as { details: { relation: string } }).details.relation).toBe("inside")
    // Reads outside A are refused, and B's files are never shown.
    const read = await asModerator("GET", `/api/servers/${a.id}/files/read?path=${encodeURIComponent(`../${NodePath.basename(b.install.dir)}/battleye/beserver_x64.cfg`)}`)
    expect(read.status).toBe(400)
    expect(JSON.stringify(read.body)).not.toContain(b.install.rconPassword)
  })

  it("cannot send the stored RCon password or agent key to a listener of their choice", async () => {
    for (const body of [{ rcon: { port: 1, password: "********" } }, { rcon: { host: "203.0.113.9" } }, { agent: { url: "http://127.0.0.1:22" } }]) {
      expect((await asModerator("PATCH", `/api/servers/${a.id}`, body)).status, JSON.stringify(body)).toBe(403)
    }
    // Even the admin must give the secret again for a new destination.
    const moved = await api("PATCH", `/api/servers/${a.id}`, { rcon: { port: a.install.rconPort + 1000, password: "********" } })
    expect(moved.status).toBe(400)
    expect(message(moved)).toContain("rcon.password")
  })

  it("reads no secret through the file editor or a backup download; the admin's whole zip is audited", async () => {
    const cfg = await asModerator("GET", `/api/servers/${a.id}/files/read?path=${encodeURIComponent("battleye/beserver_x64.cfg")}`)
    expect(cfg.status).toBe(200)
    expect(JSON.stringify(cfg.body)).not.toContain(a.install.rconPassword)
    expect(JSON.stringify(cfg.body)).toContain("RConPassword ********")

    expect((await asModerator("PUT", `/api/servers/${a.id}/backup-config`, { paths: ["battleye", "serverDZ.cfg"] })).status).toBe(200)
    expect((await asModerator("POST", `/api/servers/${a.id}/backups`)).status).toBe(202)
    const done = await until(() => asModerator("GET", `/api/servers/${a.id}/backup-status`), (s) => (s.body as { state: string }).state === "done", 20_000, "the backup")
    const filename = (done.body as { filename: string }).filename
    const download = async (query: string, as: "moderator" | "admin") => {
      const headers = as === "moderator" ? { authorization: `Bearer ${token}` } : undefined
      const response = as === "moderator"
        ? await fetch(`${fleet.baseUrl()}/api/servers/${a.id}/backups/${filename}/download${query}`, { headers })
        : await fetch(`${fleet.baseUrl()}/api/servers/${a.id}/backups/${filename}/download${query}`, { headers: await fleet.authHeaders() })
      return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) }
    }
    const masked = await download("", "moderator")
    expect(masked.status).toBe(200)
    const text = [...(await unzipEntries(masked.bytes)).values()].map((bytes) => bytes.toString("utf8")).join("\n")
    expect(text).toContain("RConPassword ********")
    expect(text).not.toContain(a.install.rconPassword)
    expect((await download("?secrets=include", "moderator")).status).toBe(403)
    const whole = await download("?secrets=include", "admin")
    expect(whole.status).toBe(200)
    expect([...(await unzipEntries(whole.bytes)).values()].map((bytes) => bytes.toString("utf8")).join("\n")).toContain(a.install.rconPassword)
    const audit = await api("GET", "/api/audit?action=backup.downloaded")
    expect(JSON.stringify(audit.body)).toContain(filename)
  })
})
