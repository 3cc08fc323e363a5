/**
 * The running simulator's persistence, as a backup tool meets it:
 * `players.db` is a real SQLite database (rollback journal, `Players`
 * table) that the server writes every `-simPersistInterval` ms and when a
 * player leaves, sound at every moment (integrity_check, SQLite's online
 * backup API) while it writes; `data/*.bin` are replaced with fresh content
 * at the same interval; a clean stop saves once more and closes the file.
 * Needs the build (`npx tsc -b examples/sim-server`); the e2e project runs it.
 */
import { integrityCheck, withReadOnlyDatabase } from "@garrison/testkit"
import * as Fs from "node:fs"
import { createRequire } from "node:module"
import * as NodePath from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { installSim, killAllSims, launchSim, readRpt, type SimInstall, simControl, stopSim, waitFor, waitForSimExit } from "../../../test/support/sim.js"

interface BackupSource {
  backup(destination: string): Promise<unknown>
  close(): void
}
const Sqlite = createRequire(import.meta.url)("better-sqlite3") as new (file: string, options?: { readonly readonly?: boolean; readonly fileMustExist?: boolean }) => BackupSource

const A = "76561198012345678"
const B = "76561198000000042"
const C = "76561198000000043"
const HEADER = Buffer.from("DZSIM\0")

const installs: Array<SimInstall> = []
afterAll(() => {
  killAllSims()
  for (const install of installs) install.remove()
})

const fresh = async () => {
  const install = await installSim()
  installs.push(install)
  return install
}

const storageOf = (install: SimInstall) => NodePath.join(install.dir, "mpmissions/dayzOffline.chernarusplus/storage_1")
const database = (install: SimInstall) => NodePath.join(storageOf(install), "players.db")

interface Row {
  readonly UID: string
  readonly Alive: number
  readonly size: number
  readonly Updated: number
}

const rows = (file: string): ReadonlyArray<Row> =>
  withReadOnlyDatabase(file, (db) => db.prepare("SELECT UID, Alive, length(Data) AS size, Updated FROM Players ORDER BY UID").all() as Array<Row>)

const uids = (file: string) => rows(file).map((r) => r.UID)

describe("simulated server persistence", () => {
  it("players.db is a SQLite database the running server keeps writing; integrity_check and the online backup API see whole saves", async () => {
    const install = await fresh()
    const sim = await launchSim(install, { settings: { persistInterval: 150 } })
    const file = database(install)
    expect(readRpt(install)).toContain("[CE][Storage] No characters found, starting fresh")
    withReadOnlyDatabase(file, (db) => {
      expect(db.prepare("PRAGMA journal_mode").pluck().all()).toEqual(["delete"])
      expect(db.prepare("SELECT name FROM pragma_table_info('Players') ORDER BY cid").pluck().all()).toEqual(["UID", "Alive", "Data", "Updated"])
      expect(integrityCheck(db)).toEqual(["ok"])
    })

    simControl(install, `join ${A} Alice`, `join ${B} Bob`, `join ${C} Carol`)
    await waitFor(() => rows(file).length === 3, 10_000, () => `rows: ${JSON.stringify(rows(file))}`)
    expect(uids(file)).toEqual([B, C, A])
    for (const row of rows(file)) {
      expect(row.Alive).toBe(1)
      expect(row.size).toBeGreaterThanOrEqual(256)
    }

    // While it keeps saving: every look finds a sound file, and saves keep coming.
    const building = NodePath.join(storageOf(install), "data/building.bin")
    const firstWorld = Fs.readFileSync(building)
    const seen = new Set<number>()
    const deadline = Date.now() + 1_500
    while (Date.now() < deadline) {
      withReadOnlyDatabase(file, (db) => {
        expect(integrityCheck(db)).toEqual(["ok"])
        const updated = db.prepare("SELECT Updated FROM Players").pluck().all().map(Number)
        // One transaction per save: all three rows carry the same time.
        expect(new Set(updated).size).toBe(1)
        seen.add(updated[0]!)
      })
      expect(Fs.existsSync(`${file}-wal`)).toBe(false)
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    expect(seen.size).toBeGreaterThanOrEqual(3)
    const world = Fs.readFileSync(building)
    expect(world.subarray(0, HEADER.length)).toEqual(HEADER)
    expect(world.equals(firstWorld)).toBe(false)

    // SQLite's online backup API, as a backup tool copies the file while the server runs.
    const copy = NodePath.join(install.dir, "players-backup.db")
    for (let i = 0; i < 3; i++) {
      const source = new Sqlite(file, { readonly: true, fileMustExist: true })
      try {
        await source.backup(copy)
      } finally {
        source.close()
      }
      withReadOnlyDatabase(copy, (db) => expect(integrityCheck(db)).toEqual(["ok"]))
      expect(uids(copy)).toEqual([B, C, A])
      await new Promise((resolve) => setTimeout(resolve, 100))
    }

    expect(await stopSim(sim)).toEqual({ code: 0, signal: null })
    // Closed cleanly: no journal left, the last save holds everyone.
    expect(Fs.readdirSync(storageOf(install)).sort()).toEqual(["data", "players.db"])
    expect(Fs.readdirSync(NodePath.join(storageOf(install), "data")).every((name) => name.endsWith(".bin") && !name.startsWith("."))).toBe(true)
    expect(uids(file)).toEqual([B, C, A])
    withReadOnlyDatabase(file, (db) => expect(integrityCheck(db)).toEqual(["ok"]))
  })

  it("a player who leaves is saved at once; a clean stop saves everyone; the next start loads them; an empty players.db starts fresh", async () => {
    const install = await fresh()
    const file = database(install)
    Fs.writeFileSync(file, "")
    // No periodic saves: only leaving and stopping write.
    const sim = await launchSim(install, { settings: { persistInterval: 0 } })
    expect(readRpt(install)).toContain("[CE][Storage] No characters found, starting fresh")
    simControl(install, `join ${A} Alice`, `join ${B} Bob`)
    await waitFor(() => readRpt(install).includes(`Player "Bob" is connected (steamID=${B})`), 10_000)
    expect(rows(file)).toEqual([])
    simControl(install, "leave Alice")
    await waitFor(() => uids(file).length > 0, 10_000)
    expect(uids(file)).toEqual([A])

    expect(await stopSim(sim)).toEqual({ code: 0, signal: null })
    expect(uids(file)).toEqual([B, A])

    const again = await launchSim(install, { settings: { persistInterval: 0 } })
    expect(readRpt(install)).toContain("[CE][Storage] Characters loaded")
    expect(await stopSim(again)).toEqual({ code: 0, signal: null })
  })

  it("a crash exits without a last save: players.db holds the last periodic save and is sound", async () => {
    const install = await fresh()
    const file = database(install)
    const sim = await launchSim(install, { settings: { persistInterval: 100 } })
    simControl(install, `join ${A} Alice`)
    await waitFor(() => uids(file).length === 1, 10_000)
    simControl(install, "crash 3")
    expect(await waitForSimExit(sim, 10_000)).toEqual({ code: 3, signal: null })
    expect(readRpt(install)).not.toContain("[CE][Storage] World saved")
    expect(uids(file)).toEqual([A])
    withReadOnlyDatabase(file, (db) => expect(integrityCheck(db)).toEqual(["ok"]))
  })

  it("a players.db that is not a database stops the start-up, as a damaged one stops DayZ", async () => {
    const install = await fresh()
    Fs.writeFileSync(database(install), "not a database, but long enough to have a header of sorts")
    const sim = await launchSim(install, { waitReady: false })
    expect(await waitForSimExit(sim, 10_000)).toEqual({ code: 1, signal: null })
    expect(readRpt(install)).toMatch(/ErrorMessage: cannot open .*players\.db: file is not a database/)
  })
})
