/**
 * File names and plain file operations for the database and its backups.
 * Everything here is synchronous node:fs wrapped once in `Effect.try`, so
 * callers decide which tagged error a failure becomes.
 */
import * as Effect from "effect/Effect"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { errorMessage } from "../../errorMessage.js"

export const DATABASE_FILE = "garrison.db"
export const BACKUPS_DIR = "backups"
/** SQLite's companion files; they belong to the database file and move with it. */
export const SIDECARS = ["-wal", "-shm"] as const
/** A backup is written under this suffix and renamed only once it is complete and verified. */
export const PARTIAL_SUFFIX = ".partial"

export interface DatabasePaths {
  readonly dataDir: string
  readonly file: string
  readonly backupsDir: string
}

export const databasePaths = (dataDir: string): DatabasePaths => ({
  dataDir,
  file: NodePath.join(dataDir, DATABASE_FILE),
  backupsDir: NodePath.join(dataDir, BACKUPS_DIR)
})

/** `YYYYMMDDTHHMMSSmmm` in UTC: fixed width, so names sort by time. */
export const timestamp = (millis: number): string =>
  new Date(millis).toISOString().replace(/[-:.Z]/g, "")

/** Labels end up in file names: lower-case letters, digits and single dashes only. */
export const sanitiseLabel = (label: string): string => {
  const clean = label.toLowerCase().replace(/[^a-z0-9-]+/g, "-").replace(/-{2,}/g, "-").replace(/^-|-$/g, "")
  return clean.length > 0 ? clean.slice(0, 40) : "backup"
}

/** SQLite backups end `.db`, PostgreSQL dumps `.pgdump` (see pgDump.ts); both kinds are listed and pruned alike. */
const BACKUP_NAME = /^garrison-(\d{8}T\d{9})-[a-z0-9-]+\.(?:db|pgdump)$/

export const backupFileName = (millis: number, label: string, attempt: number, extension = "db"): string =>
  `garrison-${timestamp(millis)}-${sanitiseLabel(label)}${attempt === 0 ? "" : `-${attempt + 1}`}.${extension}`

/** A fs call that may throw, as an Effect failing with the thrown value. */
export const attempt = <A>(f: () => A): Effect.Effect<A, unknown> => Effect.try({ try: f, catch: (cause) => cause })

export const describeCause = (cause: unknown): string => errorMessage(cause)

export const exists = (path: string): boolean => NodeFs.existsSync(path)

/** Backups in `dir` (full paths), newest first; other files are ignored. */
export const listBackups = (dir: string): Effect.Effect<ReadonlyArray<string>, unknown> =>
  attempt(() =>
    NodeFs.readdirSync(dir)
      .flatMap((name) => {
        const match = BACKUP_NAME.exec(name)
        return match?.[1] === undefined ? [] : [{ name, stamp: match[1] }]
      })
      .sort((a, b) => a.stamp === b.stamp ? b.name.localeCompare(a.name) : b.stamp.localeCompare(a.stamp))
      .map(({ name }) => NodePath.join(dir, name))
  )

/** Timestamp (ms) encoded in a backup's file name, if it is one of ours. */
export const backupTime = (path: string): number | undefined => {
  const stamp = BACKUP_NAME.exec(NodePath.basename(path))?.[1]
  if (stamp === undefined) return undefined
  const iso = `${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)}T${stamp.slice(9, 11)}:${
    stamp.slice(11, 13)
  }:${stamp.slice(13, 15)}.${stamp.slice(15, 18)}Z`
  const millis = Date.parse(iso)
  return Number.isNaN(millis) ? undefined : millis
}

/** Removes `file` and anything SQLite may have left next to it (-wal, -shm, -journal); missing ones are fine. */
export const removeWithSidecars = (file: string): Effect.Effect<void, unknown> =>
  attempt(() => {
    for (const suffix of ["", ...SIDECARS, "-journal"]) NodeFs.rmSync(file + suffix, { force: true })
  })

/**
 * Unfinished backups (`*.partial` and their sidecars) in `dir`: left by a
 * crash or by a shutdown backup abandoned at its time limit. Never restored
 * (`listBackups` ignores them), only removed.
 */
export const listPartials = (dir: string): Effect.Effect<ReadonlyArray<string>, unknown> =>
  attempt(() =>
    NodeFs.readdirSync(dir)
      .filter((name) => name.startsWith("garrison-") && (name.includes(`.db${PARTIAL_SUFFIX}`) || name.includes(`.pgdump${PARTIAL_SUFFIX}`)))
      .map((name) => NodePath.join(dir, name))
  )

/** fsync a directory so a rename in it survives a power cut (best effort where unsupported). */
export const syncDir = (dir: string): void => {
  let fd: number | undefined
  try {
    fd = NodeFs.openSync(dir, "r")
    NodeFs.fsyncSync(fd)
  } catch {
    // Some platforms cannot fsync a directory; the rename itself already happened.
  } finally {
    if (fd !== undefined) NodeFs.closeSync(fd)
  }
}

/**
 * Renames `file` and its -wal/-shm to `<file>.corrupt-<stamp>` (+ the same
 * suffixes, so SQLite tools opening the kept copy still find its WAL).
 * Nothing is deleted. Returns the new path of the main file.
 */
export const moveAside = (file: string, millis: number): Effect.Effect<string, unknown> =>
  attempt(() => {
    const base = `${file}.corrupt-${timestamp(millis)}`
    let target = base
    for (let n = 1; exists(target); n++) target = `${base}-${n}`
    NodeFs.renameSync(file, target)
    for (const suffix of SIDECARS) {
      if (exists(file + suffix)) NodeFs.renameSync(file + suffix, target + suffix)
    }
    syncDir(NodePath.dirname(file))
    return target
  })

/** Copies `from` over `to` through a temporary file and a rename, so `to` is never half written. */
export const copyAtomically = (from: string, to: string): Effect.Effect<void, unknown> =>
  attempt(() => {
    const temporary = `${to}.restoring`
    NodeFs.copyFileSync(from, temporary)
    const fd = NodeFs.openSync(temporary, "r+")
    try {
      // Owner only, like every database file (a copy takes its source's mode, which may be looser).
      NodeFs.fchmodSync(fd, 0o600)
      NodeFs.fsyncSync(fd)
    } finally {
      NodeFs.closeSync(fd)
    }
    NodeFs.renameSync(temporary, to)
    syncDir(NodePath.dirname(to))
  })
