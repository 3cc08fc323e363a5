/**
 * Only the controller's user may read the data directory: it is created
 * 0700, the database, its -wal/-shm, backups and key files 0600, whatever the
 * process umask (here 000, the loosest), and a looser mode found at start is
 * tightened with one warning naming the path, the old and the new mode.
 *
 * SQLite on every pass: the modes of `garrison.db`, its -wal/-shm and its
 * `.db` backups.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { Effect, LogLevel } from "effect"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { Database } from "../../src/database/index.js"
import { SealedSecrets } from "../../src/secrets/SealedSecrets.js"
import { captureLogs, linesAt, tempDataDir, withDatabase } from "./helpers.js"

const modeOf = (path: string) => NodeFs.statSync(path).mode & 0o777

/** Runs `effect` with the process umask set to `mask` (vitest runs each file in its own process). */
const withUmask = <A, E, R>(mask: number, effect: Effect.Effect<A, E, R>) =>
  Effect.acquireUseRelease(
    Effect.sync(() => process.umask(mask)),
    () => effect,
    (previous) => Effect.sync(() => void process.umask(previous))
  )

const KEY = {
  name: "test-sealing-key",
  spec: { bytes: 32, exact: true, what: "the test key", ifReplaced: "nothing" }
} as const

/** One controller run: a write (so the WAL exists), a backup and a key file; returns the backup's path. */
const oneRun = (dataDir: string) =>
  withDatabase(
    dataDir,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE IF NOT EXISTS notes (text TEXT)`
      yield* sql`INSERT INTO notes (text) VALUES ('hello')`
      yield* (yield* SealedSecrets).box(KEY)
      const backup = yield* (yield* Database).backupNow("modes")
      const file = NodePath.join(dataDir, "garrison.db")
      // While the database is open its -wal and -shm exist: they are private too.
      return { backup, open: { db: modeOf(file), wal: modeOf(`${file}-wal`), shm: modeOf(`${file}-shm`) } }
    })
  )

describe("file modes of the data directory", () => {
  it.effect("are 0700 for folders and 0600 for the database, its -wal/-shm, backups and keys, even with umask 000", () =>
    Effect.gen(function* () {
      const dataDir = tempDataDir()
      const { backup, open } = yield* withUmask(0, oneRun(dataDir))
      expect(open).toEqual({ db: 0o600, wal: 0o600, shm: 0o600 })
      expect(modeOf(dataDir)).toBe(0o700)
      expect(modeOf(NodePath.join(dataDir, "backups"))).toBe(0o700)
      expect(modeOf(backup)).toBe(0o600)
      expect(modeOf(NodePath.join(dataDir, "secrets"))).toBe(0o700)
      expect(modeOf(NodePath.join(dataDir, "secrets", `${KEY.name}.key`))).toBe(0o600)
    })
  )

  it.effect("found looser at start are tightened, with one warning per path naming the old and new mode", () =>
    Effect.gen(function* () {
      const dataDir = tempDataDir()
      const { backup } = yield* oneRun(dataDir)
      const loose = [
        [dataDir, 0o755],
        [NodePath.join(dataDir, "backups"), 0o775],
        [NodePath.join(dataDir, "secrets"), 0o711],
        [NodePath.join(dataDir, "garrison.db"), 0o644],
        [backup, 0o664],
        [NodePath.join(dataDir, "secrets", `${KEY.name}.key`), 0o640]
      ] as const
      for (const [path, mode] of loose) NodeFs.chmodSync(path, mode)

      const logs = captureLogs()
      yield* oneRun(dataDir).pipe(Effect.provide(logs.layer))
      const warnings = linesAt(logs.lines, LogLevel.Warning)
      for (const [path, mode] of loose) {
        const wanted = mode & 0o100 ? 0o700 : 0o600
        expect(modeOf(path)).toBe(wanted)
        const about = warnings.filter((line) => line.includes(`${path} from`))
        expect(about).toEqual([
          `Tightened the permissions of ${path} from 0${mode.toString(8)} to 0${wanted.toString(8)}: it holds data only this user may read`
        ])
      }
      expect(warnings.filter((line) => line.startsWith("Tightened"))).toHaveLength(loose.length)
    })
  )
})
