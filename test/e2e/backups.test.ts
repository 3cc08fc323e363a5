/**
 * Issue 18's backups over real processes: the built controller and the
 * simulated DayZ server, whose `players.db` is a live SQLite database it
 * writes every 300 ms with players online. A backup of the running server
 * (its database copied through SQLite's online backup), a full wipe
 * (refused while it runs, then after a pre-wipe backup), and a restore:
 * every world file is back byte for byte as the backup holds it, and the
 * server starts on it with its characters.
 */
import { createHash } from "node:crypto"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { unzipEntries } from "@garrison/testkit"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { ControllerHandle } from "../support/controller.js"
import { fleetAuth, fleetSimArgs, makeFleet, rptContains, until } from "../support/fleet.js"
import type { SimInstall } from "../support/sim.js"
import { integrityCheck, withDatabaseCopy } from "../support/sqliteFile.js"

const fleet = makeFleet()
afterAll(() => fleet.close())

const STORAGE = "mpmissions/dayzOffline.chernarusplus/storage_1"
let sim: SimInstall
let id: string
let controller: ControllerHandle

interface Status {
  readonly state: string
  readonly filename: string | null
  readonly error: string | null
}

const backupEnd = (serverId: string) =>
  until(async () => (await fleet.api("GET", `/api/servers/${serverId}/backup-status`)).body as Status, (s) => s.state !== "running", 60_000, "the backup or restore to end")

/** Every file under `dir`, by path relative to it. */
const filesUnder = (dir: string): Map<string, Buffer> => {
  const out = new Map<string, Buffer>()
  const walk = (at: string) => {
    for (const entry of Fs.readdirSync(at, { withFileTypes: true })) {
      const path = NodePath.join(at, entry.name)
      if (entry.isDirectory()) walk(path)
      else out.set(NodePath.relative(dir, path).split(NodePath.sep).join("/"), Fs.readFileSync(path))
    }
  }
  walk(dir)
  return out
}
const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex")

beforeAll(async () => {
  sim = await fleet.installSim()
  controller = await fleet.startController()
  const created = await fleet.createServer(sim, "World")
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  id = (created.body as { id: string }).id
  // Players online, and the world saved often: the database changes while it is copied.
  const patched = await fleet.api("PATCH", `/api/servers/${id}`, { extraArgs: [...fleetSimArgs.filter((a) => !a.startsWith("-simPlayers=")), "-simPlayers=6", "-simPersistInterval=300"] })
  expect(patched.status, JSON.stringify(patched.body)).toBe(200)
}, 60_000)

describe.sequential("backups of a running simulated server", { timeout: 90_000 }, () => {
  let backup: string
  let zipped: Map<string, Buffer>

  it("backs the running server up: its players.db through SQLite's online backup, sound and with its characters", async () => {
    expect((await fleet.api("POST", `/api/servers/${id}/start`)).status).toBe(200)
    const running = await fleet.rconConnected(id, 30_000)
    fleet.trackGameProcess(running.pid!)
    const db = NodePath.join(sim.dir, STORAGE, "players.db")
    await until(() => withDatabaseCopy(db, (d) => Number((d.prepare("SELECT COUNT(*) AS n FROM Players").all()[0] as { n: number }).n)), (n) => n >= 6, 20_000, "the players to be saved")

    const started = await fleet.api("POST", `/api/servers/${id}/backups`)
    expect(started.status, JSON.stringify(started.body)).toBe(202)
    const ended = await backupEnd(id)
    expect(ended, JSON.stringify(ended)).toMatchObject({ state: "done", error: null })
    backup = ended.filename!

    const download = await fetch(`${controller.baseUrl}/api/servers/${id}/backups/${backup}/download`, { headers: fleetAuth })
    expect(download.status).toBe(200)
    zipped = await unzipEntries(new Uint8Array(await download.arrayBuffer()))
    const manifest = JSON.parse(zipped.get("garrison-backup.json")!.toString("utf8")) as { running: boolean; files: ReadonlyArray<{ path: string; sha256: string }> }
    expect(manifest.running).toBe(true)
    const copy = zipped.get(`install/${STORAGE}/players.db`)!
    const copyPath = NodePath.join(sim.dir, "players-copy.db")
    Fs.writeFileSync(copyPath, copy)
    try {
      withDatabaseCopy(copyPath, (d) => {
        expect(integrityCheck(d)).toEqual(["ok"])
        expect(Number((d.prepare("SELECT COUNT(*) AS n FROM Players").all()[0] as { n: number }).n)).toBeGreaterThanOrEqual(6)
      })
    } finally {
      Fs.rmSync(copyPath)
    }
    for (const file of manifest.files) expect(sha(zipped.get(`install/${file.path}`)!)).toBe(file.sha256)
    expect([...zipped.keys()].filter((n) => n.includes("players.db-journal"))).toEqual([])
    expect([...zipped.keys()].some((n) => /\.(RPT|ADM)$/.test(n))).toBe(false)
  })

  it("a wipe is refused while the server runs; stopped, it wipes everything after a pre-wipe backup", async () => {
    const refused = await fleet.api("POST", `/api/servers/${id}/dangerzone/wipe`, { preset: "full", confirmName: "World" })
    expect(refused.status).toBe(409)
    expect((await fleet.api("POST", `/api/servers/${id}/stop`)).status).toBe(200)
    const wiped = await fleet.api("POST", `/api/servers/${id}/dangerzone/wipe`, { preset: "full", confirmName: "World" })
    expect(wiped.status, JSON.stringify(wiped.body)).toBe(200)
    expect((wiped.body as { backup: string }).backup).toMatch(/^pre-wipe-/)
    expect(Fs.readdirSync(NodePath.join(sim.dir, STORAGE))).toEqual([])
  })

  it("restores the backup: every world file back byte for byte, nothing else; the server starts with its characters", async () => {
    const restoring = await fleet.api("POST", `/api/servers/${id}/backups/${backup}/restore`)
    expect(restoring.status, JSON.stringify(restoring.body)).toBe(202)
    // Starting is refused while the files are being replaced, or the restore is already done.
    const ended = await backupEnd(id)
    expect(ended, JSON.stringify(ended)).toMatchObject({ state: "done", error: null })

    const world = filesUnder(NodePath.join(sim.dir, STORAGE))
    const expected = new Map([...zipped].filter(([name]) => name.startsWith(`install/${STORAGE}/`)).map(([name, bytes]) => [name.slice(`install/${STORAGE}/`.length), bytes]))
    expect([...world.keys()].sort()).toEqual([...expected.keys()].sort())
    for (const [path, bytes] of expected) expect(sha(world.get(path)!), path).toBe(sha(bytes))

    const list = (await fleet.api("GET", `/api/servers/${id}/backups`)).body as { items: ReadonlyArray<{ type: string }> }
    expect(list.items.map((b) => b.type).sort()).toEqual(["manual", "pre-restore", "pre-wipe"])

    expect((await fleet.api("POST", `/api/servers/${id}/start`)).status).toBe(200)
    const running = await fleet.rconConnected(id, 30_000)
    fleet.trackGameProcess(running.pid!)
    await rptContains(sim, "Characters loaded", 10_000)
    expect((await fleet.api("POST", `/api/servers/${id}/stop`)).status).toBe(200)
  })
})
