/**
 * Durability of the real controller process: acknowledged writes survive a
 * SIGKILL, a corrupt database is restored from the newest backup on the next
 * start (a clean stop and a large import each leave one, so recent bans
 * survive too), and start-up problems (unwritable data directory, taken
 * port) end the process non-zero with a message naming the problem.
 *
 * The kill points and the bytes that corrupt a file are drawn from a seed
 * printed on every run (`durability seed: N`); `DURABILITY_SEED=N` repeats
 * them.
 *
 * On PostgreSQL (`GARRISON_TEST_DATABASE=postgres`) the acknowledged rows
 * are read through SQL; `garrison.db` is a file that controller never opens,
 * so garbage written there changes nothing (the server recovers itself), and
 * the scheduled, shutdown and import backups are `.pgdump` files that
 * `pg_restore --list` accepts and that hold the rows.
 *
 * Needs the build (`npx tsc -b`): the controller and the test plugins run
 * from `dist`.
 */
import { closeSync, existsSync, fstatSync, openSync, readdirSync, statSync, writeFileSync, writeSync } from "node:fs"
import { createServer, type Server } from "node:net"
import * as NodePath from "node:path"
import { dataDirDatabaseUrl, postgresDumpRows, postgresQuery, postgresRestoreText, testDatabaseEngine } from "@garrison/testkit/core"
import { afterAll, afterEach, describe, expect, it } from "vitest"
import {
  type ControllerHandle,
  delay,
  freePort,
  HOST,
  killAllChildren,
  makeTempDir,
  removeDir,
  requestJson,
  runControllerToExit,
  startController,
  stopProcess,
  testAuth,
  testPlugins
} from "../support/controller.js"
import { seededRandom, seedFrom } from "../support/seededRandom.js"
import { durabilityRows, integrityCheck, withDatabaseCopy, withReadOnlyDatabase, type WriteRow } from "../support/sqliteFile.js"

const POSTGRES = testDatabaseEngine() === "postgres"
/** A backup's extension: SQLite's copies, or pg_dump's custom format. */
const EXT = POSTGRES ? "pgdump" : "db"

const SEED = seedFrom("DURABILITY_SEED")
console.log(`durability seed: ${SEED} (set DURABILITY_SEED=${SEED} to repeat)`)

const PLUGINS = [testPlugins.durability, testPlugins.auth]
const AUTH = testAuth(["test.write"])
const BANS = testAuth(["bans.manage"], "mod")

/** A payload that fills pages (so a crash can land mid-page) and can be checked byte for byte after. */
const payloadFor = (seq: number) => `row-${seq}-${"x".repeat(180)}-${(seq * 2654435761) % 4294967296}`

const tempDirs: Array<string> = []
const controllers: Array<ControllerHandle> = []

const tempDir = () => {
  const dir = makeTempDir()
  tempDirs.push(dir)
  return dir
}

const start = async (dataDir: string, env: Readonly<Record<string, string>> = {}) => {
  const controller = await startController({ dataDir, plugins: PLUGINS, env })
  controllers.push(controller)
  return controller
}

/** Stops a controller with SIGTERM and expects a clean exit, so the database was closed properly. */
const stopCleanly = async (controller: ControllerHandle) => {
  const ended = await stopProcess(controller, 10_000)
  expect(ended.signal, `controller was killed, output:\n${controller.output()}`).toBeNull()
  return ended
}

const write = (controller: ControllerHandle, seq: number) =>
  requestJson(controller.baseUrl, "POST", "/api/test/writes", {
    body: { seq, payload: payloadFor(seq) },
    headers: AUTH,
    timeoutMs: 5_000
  })

interface HealthDatabase {
  readonly ok: boolean
  readonly startup: string
  readonly restoredFrom?: { readonly file: string; readonly takenAt: string | null }
}

const health = async (controller: ControllerHandle) => {
  const response = await requestJson(controller.baseUrl, "GET", "/api/health")
  expect(response.status).toBe(200)
  return response.body as { readonly database: HealthDatabase }
}

const count = async (controller: ControllerHandle) => {
  const response = await requestJson(controller.baseUrl, "GET", "/api/test/writes/count", { headers: AUTH })
  expect(response.status).toBe(200)
  return response.body as { readonly count: number; readonly maxSeq: number }
}

/** Backups on disk as `{ file, takenAt }`, newest first (the time is encoded in the name). */
const BACKUP_NAME = new RegExp(`^garrison-(\\d{4})(\\d{2})(\\d{2})T(\\d{2})(\\d{2})(\\d{2})(\\d{3})-[a-z0-9-]+\\.${EXT}$`)
const listBackups = (dataDir: string) =>
  readdirSync(NodePath.join(dataDir, "backups"))
    .flatMap((name) => {
      const m = BACKUP_NAME.exec(name)
      if (m === null) return []
      const [, y, mo, d, h, mi, s, ms] = m
      return [{ file: NodePath.join(dataDir, "backups", name), takenAt: Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}Z`) }]
    })
    .sort((a, b) => b.takenAt - a.takenAt)

/** Overwrites `length` bytes of `file` at `offset` with bytes drawn from the seed. */
const scramble = (file: string, offset: number, length: number) => {
  const fd = openSync(file, "r+")
  try {
    writeSync(fd, seededRandom(SEED, `scramble ${NodePath.basename(file)} ${offset}`).bytes(length), 0, length, offset)
  } finally {
    closeSync(fd)
  }
}

/**
 * Zeroes the header of `garrison.db` (no longer a database) and scrambles its
 * middle when it has one. After a SIGKILL the pages (page 1 included) may
 * still be in the -wal, which would heal the header: `wal` scrambles that too.
 */
const corrupt = (dataDir: string, options: { readonly wal?: boolean } = {}) => {
  const file = NodePath.join(dataDir, "garrison.db")
  if (options.wal === true) scramble(`${file}-wal`, 0, statSync(`${file}-wal`).size)
  const size = statSync(file).size
  const fd = openSync(file, "r+")
  try {
    writeSync(fd, Buffer.alloc(4096, 0), 0, 4096, 0)
  } finally {
    closeSync(fd)
  }
  if (size > 8192) scramble(file, Math.floor(size / 2), 4096)
}

/** A ban for player number `n` (a Steam64 id of its own). */
const banFor = (n: number) => ({
  platformId: String(76561198000000000n + BigInt(n)),
  playerName: `Player ${n}`,
  reason: `durability ${n}`
})

/** Every stored ban's id. */
const banIds = async (controller: ControllerHandle): Promise<Set<string>> => {
  const ids = new Set<string>()
  let cursor: string | null = null
  do {
    const query: string = cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`
    const response = await requestJson(controller.baseUrl, "GET", `/api/bans?limit=500${query}`, { headers: BANS })
    expect(response.status).toBe(200)
    const page = response.body as { readonly items: ReadonlyArray<{ readonly id: string }>; readonly nextCursor: string | null }
    for (const item of page.items) ids.add(item.id)
    cursor = page.nextCursor
  } while (cursor !== null)
  return ids
}

/** Waits (up to `ms`) until a backup whose name ends with `-<label>.<EXT>` is on disk; returns the newest such. */
const backupLabelled = async (controller: ControllerHandle, label: string, ms = 15_000) => {
  const deadline = Date.now() + ms
  for (;;) {
    const found = listBackups(controller.dataDir).find((b) => b.file.endsWith(`-${label}.${EXT}`))
    if (found !== undefined) return found
    if (Date.now() > deadline) throw new Error(`no "${label}" backup within ${ms} ms; output:\n${controller.output()}`)
    await delay(100)
  }
}

/** The data directory's PostgreSQL database (its controller ran on it). */
const databaseOf = (dataDir: string): string => {
  const url = dataDirDatabaseUrl(dataDir)
  if (url === undefined) throw new Error(`no PostgreSQL database for ${dataDir}`)
  return url
}

/** The durability plugin's rows as PostgreSQL stores them, read through SQL. */
const durabilityRowsIn = async (url: string): Promise<ReadonlyArray<WriteRow>> => {
  const out = await postgresQuery(url, "SELECT seq, payload FROM durability_writes ORDER BY seq")
  return out === "" ? [] : out.split("\n").map((line) => {
    const [seq, payload] = line.split("|")
    return { seq: Number(seq), payload: String(payload) }
  })
}

/** A `.pgdump` backup `pg_restore --list` accepts (its table of contents names the table `table`). */
const expectRestorable = async (file: string, table: string) => {
  const list = await postgresRestoreText(file, { list: true })
  expect(list).toMatch(new RegExp(`TABLE DATA public ${table} `))
}

/** Writes garbage (drawn from the seed) where SQLite's database would be: on PostgreSQL, a file nobody opens. */
const garbageDatabaseFile = (dataDir: string) => {
  const file = NodePath.join(dataDir, "garrison.db")
  expect(existsSync(file)).toBe(false)
  writeFileSync(file, seededRandom(SEED, "garbage file").bytes(16_384))
  writeFileSync(`${file}-wal`, seededRandom(SEED, "garbage wal").bytes(8192))
}

afterEach(async () => {
  await Promise.all(controllers.splice(0).map((c) => stopProcess(c, 5_000)))
  for (const dir of tempDirs.splice(0)) removeDir(dir)
})

afterAll(killAllChildren)

describe("durability", () => {
  it(`keeps every acknowledged write across a SIGKILL (${POSTGRES ? "PostgreSQL: the rows read through SQL" : "SQLite: the file passes integrity_check and holds the rows"})`, { timeout: 90_000 }, async () => {
    const dataDir = tempDir()
    const first = await start(dataDir)

    // Kill at a random moment once a random number (200..399) of writes was acknowledged,
    // possibly in the middle of the next request. Stay well under the 600 requests/minute
    // per-IP limit on /api/*: a 429 would end the loop before the kill.
    const random = seededRandom(SEED, "kill")
    const killAfter = random.int(200, 400)
    const acknowledged: Array<number> = []
    let killScheduled = false
    let killed = false
    let inFlight: number | undefined
    let stopReason: unknown

    for (let seq = 0; seq < 500 && stopReason === undefined; seq++) {
      if (acknowledged.length >= killAfter && !killScheduled) {
        killScheduled = true
        // Real time on purpose: the kill lands 0-14 ms into the real process's work, wherever that is.
        setTimeout(() => {
          killed = true
          first.child.kill("SIGKILL")
        }, random.int(0, 15))
      }
      inFlight = seq
      try {
        const response = await write(first, seq)
        if (response.status >= 200 && response.status < 300) acknowledged.push(seq)
        else stopReason = new Error(`write ${seq} answered ${response.status}: ${JSON.stringify(response.body)}`)
      } catch (error) {
        stopReason = error
      }
    }
    await first.exited

    // The loop must have ended because of the kill, not a failure of its own.
    expect(killed, `writes stopped before the kill (DURABILITY_SEED=${SEED}): ${String(stopReason)}\n${first.output()}`).toBe(true)
    expect(stopReason).toBeInstanceOf(Error)
    expect(acknowledged.length).toBeGreaterThanOrEqual(200)

    const second = await start(dataDir)
    expect((await health(second)).database).toMatchObject({ ok: true, startup: "opened" })
    const afterRestart = await count(second)
    // The request in flight at the kill may or may not have committed; nothing else may differ.
    expect(afterRestart.count).toBeGreaterThanOrEqual(acknowledged.length)
    expect(afterRestart.count).toBeLessThanOrEqual(acknowledged.length + 1)
    await stopCleanly(second)

    const rows = POSTGRES
      ? await durabilityRowsIn(databaseOf(dataDir))
      : withReadOnlyDatabase(NodePath.join(dataDir, "garrison.db"), (db) => {
          expect(integrityCheck(db)).toEqual(["ok"])
          return durabilityRows(db)
        })
    expect(rows.length).toBe(afterRestart.count)
    const stored = new Set(rows.map((r) => r.seq))
    const missing = acknowledged.filter((seq) => !stored.has(seq))
    expect(missing, `acknowledged but lost (of ${acknowledged.length}; DURABILITY_SEED=${SEED})`).toEqual([])
    const acked = new Set(acknowledged)
    const unexpected = rows.filter((r) => !acked.has(r.seq) && r.seq !== inFlight)
    expect(unexpected, `rows that were never written (DURABILITY_SEED=${SEED})`).toEqual([])
    expect(rows.filter((r) => r.payload !== payloadFor(r.seq))).toEqual([])
  })

  if (POSTGRES) {
    it(
      "PostgreSQL: scheduled backups are .pgdump files pg_restore accepts, holding the writes; garbage in garrison.db changes nothing",
      { timeout: 90_000 },
      async () => {
        const dataDir = tempDir()
        const first = await start(dataDir, { DB_BACKUP_INTERVAL: "1 second" })
        const seqs = Array.from({ length: 60 }, (_, i) => i)
        for (const seq of seqs) expect((await write(first, seq)).status).toBe(201)
        const lastAck = Date.now()

        const deadline = Date.now() + 15_000
        while (!listBackups(dataDir).some((b) => b.takenAt > lastAck)) {
          if (Date.now() > deadline) throw new Error(`no backup after the writes; output:\n${first.output()}`)
          await delay(100)
        }
        await stopCleanly(first)

        const newest = listBackups(dataDir)[0]
        if (newest === undefined) throw new Error("no backups")
        await expectRestorable(newest.file, "durability_writes")
        const backedUp = await postgresDumpRows(newest.file, "durability_writes")
        expect(backedUp.map((line) => Number(line.split("\t")[0]))).toEqual(expect.arrayContaining(seqs))

        // SQLite's file name, filled with garbage: the PostgreSQL controller never opens it.
        garbageDatabaseFile(dataDir)
        const second = await start(dataDir)
        const database = (await health(second)).database
        expect(database).toMatchObject({ ok: true, startup: "opened" })
        expect(database.restoredFrom).toBeUndefined()
        expect((await count(second)).count).toBe(seqs.length)
        expect((await write(second, 10_000)).status).toBe(201)
        await stopCleanly(second)

        expect(readdirSync(dataDir).some((name) => name.startsWith("garrison.db.corrupt-"))).toBe(false)
        expect(await durabilityRowsIn(databaseOf(dataDir))).toEqual([...seqs, 10_000].map((seq) => ({ seq, payload: payloadFor(seq) })))
      }
    )
  } else {
    it("SQLite: restores a corrupt database from the newest backup on the next start", { timeout: 90_000 }, async () => {
      const dataDir = tempDir()
      // A short backup interval so a scheduled backup follows the writes within a second.
      const first = await start(dataDir, { DB_BACKUP_INTERVAL: "1 second" })
      const seqs = Array.from({ length: 60 }, (_, i) => i)
      for (const seq of seqs) expect((await write(first, seq)).status).toBe(201)
      const lastAck = Date.now()

      const deadline = Date.now() + 15_000
      while (!listBackups(dataDir).some((b) => b.takenAt > lastAck)) {
        if (Date.now() > deadline) throw new Error(`no backup after the writes; output:\n${first.output()}`)
        await delay(100)
      }
      await stopCleanly(first)

      const newest = listBackups(dataDir)[0]
      if (newest === undefined) throw new Error("no backups")
      const backedUp = withDatabaseCopy(newest.file, durabilityRows)
      expect(backedUp.map((r) => r.seq)).toEqual(expect.arrayContaining(seqs))

      // Damage the live file: no header (first 4 KiB zeroed) and garbage in the middle.
      const file = NodePath.join(dataDir, "garrison.db")
      const fd = openSync(file, "r+")
      try {
        const size = fstatSync(fd).size
        expect(size).toBeGreaterThan(8192)
        writeSync(fd, Buffer.alloc(4096, 0), 0, 4096, 0)
        const garbage = seededRandom(SEED, "garbage").bytes(4096)
        writeSync(fd, garbage, 0, garbage.length, Math.floor(size / 2))
      } finally {
        closeSync(fd)
      }

      const second = await start(dataDir)
      expect((await health(second)).database).toMatchObject({ ok: true, startup: "restored-from-backup" })
      expect((await count(second)).count).toBe(backedUp.length)
      // The controller writes again after a restore.
      expect((await write(second, 10_000)).status).toBe(201)
      await stopCleanly(second)

      // The damaged file is kept for the operator, not deleted.
      expect(readdirSync(dataDir).some((name) => name.startsWith("garrison.db.corrupt-"))).toBe(true)
      const { integrity, rows } = withReadOnlyDatabase(file, (db) => ({ integrity: integrityCheck(db), rows: durabilityRows(db) }))
      expect(integrity).toEqual(["ok"])
      expect(rows).toEqual([...backedUp, { seq: 10_000, payload: payloadFor(10_000) }])
    })
  }
})

/**
 * Starts a controller on `dataDir`, waits for its start-up backup, adds 25 bans (each acknowledged) and stops it
 * cleanly: the start-up backup, the acknowledged ids, and the newest backup, which must be the shutdown's (`.<ext>`),
 * taken after the last acknowledgement, beside the start-up one.
 */
const bansThenCleanStop = async (dataDir: string, ext: "db" | "pgdump") => {
  const first = await start(dataDir)
  const startBackup = await backupLabelled(first, "scheduled")
  const acknowledged: Array<string> = []
  for (let n = 0; n < 25; n++) {
    const response = await requestJson(first.baseUrl, "POST", "/api/bans", { body: banFor(n), headers: BANS })
    expect(response.status, JSON.stringify(response.body)).toBe(201)
    acknowledged.push((response.body as { readonly id: string }).id)
  }
  const lastAck = Date.now()
  await stopCleanly(first)
  expect(first.output()).toContain("Shutdown backup done in")
  const newest = listBackups(dataDir)[0]
  expect(newest?.file.endsWith(`-shutdown.${ext}`), newest?.file).toBe(true)
  if (newest === undefined) throw new Error("no backups")
  expect(newest.takenAt).toBeGreaterThanOrEqual(lastAck)
  expect(listBackups(dataDir).map((b) => b.file)).toContain(startBackup.file)
  return { startBackup, acknowledged, newest }
}

/** Starts a controller on `dataDir`, imports 150 bans, waits for the import's backup, then SIGKILLs it: that backup and the ids. */
const importThenKill = async (dataDir: string) => {
  const first = await start(dataDir)
  await backupLabelled(first, "scheduled")
  const body = Array.from({ length: 150 }, (_, n) => ({ ...banFor(1000 + n), bannedBy: "old-admin", bannedAt: "2024-01-01T00:00:00.000Z" }))
  const imported = await requestJson(first.baseUrl, "POST", "/api/bans/import", { body, headers: BANS })
  expect(imported.status, JSON.stringify(imported.body)).toBe(200)
  expect((imported.body as { readonly added: number }).added).toBe(150)
  const importBackup = await backupLabelled(first, "bans-import")
  const importedIds = await banIds(first)
  expect(importedIds.size).toBe(150)
  first.child.kill("SIGKILL")
  expect((await first.exited).signal).toBe("SIGKILL")
  return { importBackup, importedIds }
}

describe("recent writes after corruption", () => {
  if (POSTGRES) {
    it("PostgreSQL: a clean stop leaves a fresh .pgdump pg_restore accepts, holding every acknowledged ban; garbage in garrison.db changes nothing", { timeout: 90_000 }, async () => {
      const dataDir = tempDir()
      const { startBackup, acknowledged, newest } = await bansThenCleanStop(dataDir, "pgdump")
      await expectRestorable(startBackup.file, "bans")
      await expectRestorable(newest.file, "bans")
      const dumped = (await postgresDumpRows(newest.file, "bans")).join("\n")
      expect(acknowledged.filter((id) => !dumped.includes(id)), "acknowledged bans missing from the shutdown backup").toEqual([])

      garbageDatabaseFile(dataDir)
      const second = await start(dataDir)
      const database = (await health(second)).database
      expect(database).toMatchObject({ ok: true, startup: "opened" })
      expect(database.restoredFrom).toBeUndefined()
      expect(second.output()).not.toContain("are lost")
      const stored = await banIds(second)
      expect(acknowledged.filter((id) => !stored.has(id)), "acknowledged bans lost").toEqual([])
      await stopCleanly(second)
    })

    it("PostgreSQL: kill -9 after a large import: its .pgdump holds every imported ban, and the server keeps them all", { timeout: 90_000 }, async () => {
      const dataDir = tempDir()
      const { importBackup, importedIds } = await importThenKill(dataDir)

      await expectRestorable(importBackup.file, "bans")
      const dumped = (await postgresDumpRows(importBackup.file, "bans")).join("\n")
      expect([...importedIds].filter((id) => !dumped.includes(id)), "imported bans missing from the import backup").toEqual([])

      garbageDatabaseFile(dataDir)
      const second = await start(dataDir)
      const database = (await health(second)).database
      expect(database).toMatchObject({ ok: true, startup: "opened" })
      expect(database.restoredFrom).toBeUndefined()
      expect(await banIds(second)).toEqual(importedIds)
      await stopCleanly(second)
    })
  } else {
    it("SQLite: a clean stop leaves a fresh backup: every acknowledged ban is restored and /api/health says from when", { timeout: 90_000 }, async () => {
      const dataDir = tempDir()
      // The default backup interval (1 hour): without the shutdown backup, only the one taken at start would exist.
      const { acknowledged, newest } = await bansThenCleanStop(dataDir, "db")

      corrupt(dataDir)
      const second = await start(dataDir)
      const takenAt = new Date(newest.takenAt).toISOString()
      expect((await health(second)).database).toEqual({
        ok: true,
        latencyMs: expect.any(Number),
        startup: "restored-from-backup",
        restoredFrom: { file: NodePath.basename(newest.file), takenAt }
      })
      expect(second.output()).toContain(`writes made after ${takenAt} are lost`)
      const stored = await banIds(second)
      expect(acknowledged.filter((id) => !stored.has(id)), "acknowledged bans lost").toEqual([])
      await stopCleanly(second)
    })

    it("SQLite: kill -9 after a large import's backup: the restore has every imported ban", { timeout: 90_000 }, async () => {
      const dataDir = tempDir()
      const { importBackup, importedIds } = await importThenKill(dataDir)

      corrupt(dataDir, { wal: true })
      const second = await start(dataDir)
      expect((await health(second)).database).toMatchObject({
        ok: true,
        startup: "restored-from-backup",
        restoredFrom: { file: NodePath.basename(importBackup.file), takenAt: new Date(importBackup.takenAt).toISOString() }
      })
      expect(await banIds(second)).toEqual(importedIds)
      await stopCleanly(second)
    })
  }
})

describe("start-up failures", () => {
  it("exits non-zero naming the data directory when it cannot be created", async () => {
    // A path under a regular file: not writable even for root, unlike a chmod'ed folder.
    const parent = tempDir()
    const blocker = NodePath.join(parent, "not-a-directory")
    writeFileSync(blocker, "a file, not a folder")
    const dataDir = NodePath.join(blocker, "data")

    const result = await runControllerToExit({ dataDir, plugins: PLUGINS })
    expect(result.code, result.output).not.toBe(0)
    expect(result.code, result.output).not.toBeNull()
    expect(result.output).toMatch(/cannot start/i)
    expect(result.output).toMatch(/data directory/i)
    expect(result.output).toContain(dataDir)
    expect(existsSync(dataDir)).toBe(false)
  })

  it("exits non-zero naming the port when it is already taken", async () => {
    const port = await freePort()
    const squatter: Server = createServer()
    await new Promise<void>((resolve, reject) => {
      squatter.once("error", reject)
      squatter.listen(port, HOST, resolve)
    })
    try {
      const result = await runControllerToExit({ dataDir: tempDir(), port, plugins: PLUGINS })
      expect(result.code, result.output).not.toBe(0)
      expect(result.code, result.output).not.toBeNull()
      expect(result.output).toMatch(/cannot start/i)
      expect(result.output).toMatch(/already in use/i)
      expect(result.output).toContain(`${HOST}:${port}`)
    } finally {
      await new Promise<void>((resolve) => squatter.close(() => resolve()))
    }
  })
})
