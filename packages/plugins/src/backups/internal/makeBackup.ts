/**
 * Making one backup: gather the paths, snapshot what a running server is
 * writing, zip, publish. While the server runs, its persistence folder is
 * copied aside first: each SQLite database (`players.db`) through SQLite's
 * online backup (its journal files are then not needed), every other file
 * copied until a copy is made without the file changing meanwhile (size
 * and modification time the same before and after). Everything else is
 * zipped straight from the server's confined files.
 */
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { type ConfinedFileError, type ServerFiles, snapshotSqlite, type SqliteSnapshotFailed } from "@garrison/runtime"
import type { ArchiveFolder } from "./archiveFolder.js"
import { gather, type GatheredFile, type WantedPath } from "./gather.js"
import { type BackupRoot, encodeManifest, entryName, type Manifest, MANIFEST_FORMAT, MANIFEST_NAME } from "./manifest.js"
import type { BackupType } from "./retention.js"
import { confinedPieces, localPieces, writeZip, type ZipSource } from "./zipWrite.js"

export interface BackupJob {
  readonly server: { readonly id: string; readonly name: string }
  readonly type: BackupType
  readonly filename: string
  readonly wanted: ReadonlyArray<WantedPath>
  readonly excludeLogs: boolean
  /** Whether a process runs: the persistence folder is then snapshotted first. */
  readonly running: boolean
  /** The persistence folder (relative to the install folder), when the configuration names one. */
  readonly storage: string | undefined
  readonly filesOf: (root: BackupRoot) => ServerFiles.ServerFiles
  readonly archive: ArchiveFolder
  readonly token: string
  readonly createdAt: Date
  readonly progress: (phase: string, bytesDone: number, bytesTotal: number) => void
}

export interface MadeBackup {
  readonly files: number
  readonly totalBytes: number
  readonly warnings: ReadonlyArray<string>
}

const COPY_ATTEMPTS = 3
const isSqlite = (path: string) => /\.db$/i.test(path)
const sqliteSidecar = /^(.*\.db)-(journal|wal|shm)$/i

/** Copies a file the server may be writing until one copy was made while it stood still. */
const stableCopy = (files: ServerFiles.ServerFiles, path: string, destination: string) =>
  Effect.gen(function* () {
    const runtime = yield* Effect.runtime<never>()
    for (let attempt = 1; attempt <= COPY_ATTEMPTS; attempt++) {
      const before = yield* files.stat(path)
      yield* Effect.tryPromise({
        try: async () => {
          const out = await Fs.promises.open(destination, "w", 0o600)
          try {
            for await (const piece of confinedPieces(files, path, runtime)()) await out.write(piece)
          } finally {
            await out.close()
          }
        },
        catch: (error) => (error instanceof Error ? error : new Error(String(error)))
      })
      const after = yield* files.stat(path)
      if (after.size === before.size && after.modified.getTime() === before.modified.getTime()) return undefined
    }
    return `${path}: it kept changing while it was copied (${COPY_ATTEMPTS} tries); the last copy is in the backup`
  })

export const makeBackup = (job: BackupJob): Effect.Effect<MadeBackup, ConfinedFileError | SqliteSnapshotFailed | Error> =>
  Effect.gen(function* () {
    job.progress("gathering", 0, 0)
    // A root that is gone (a disk not mounted) fails the backup: an empty one would let the retention prune good ones.
    for (const root of new Set(job.wanted.map((w) => w.root))) yield* job.filesOf(root).stat("")
    const gathered = yield* gather(job.wanted, job.filesOf, job.excludeLogs)
    if (gathered.files.length === 0) {
      return yield* Effect.fail(new Error(`none of the paths to back up holds a file (${gathered.warnings.slice(0, 5).join("; ")})`))
    }
    const warnings = [...gathered.warnings]
    const work = job.archive.workFolder(job.server.id, job.token)
    const live = (file: GatheredFile) =>
      job.running && job.storage !== undefined && file.root === "install" && (file.path === job.storage || file.path.startsWith(`${job.storage}/`))
    const total = gathered.files.reduce((sum, f) => sum + f.size, 0)

    const sources: Array<ZipSource & { readonly file: GatheredFile }> = []
    const copyOf = (index: number) => NodePath.join(work, String(index))
    if (gathered.files.some(live)) {
      job.progress("snapshot", 0, total)
      yield* Effect.sync(() => Fs.mkdirSync(work, { recursive: true, mode: 0o700 }))
    }
    // First the databases, through SQLite's online backup; one it cannot read is copied as a file below, with its journal.
    const snapshotted = new Set<string>()
    for (const [index, file] of gathered.files.entries()) {
      if (!live(file) || !isSqlite(file.path)) continue
      const failed = yield* snapshotSqlite(job.filesOf(file.root), file.path, copyOf(index)).pipe(
        Effect.tap((made) =>
          made.gaveWay === null ? Effect.void : Effect.logInfo(`${file.path}: copied by VACUUM INTO (${made.gaveWay})`).pipe(Effect.annotateLogs("serverId", job.server.id))
        ),
        Effect.as(undefined),
        Effect.catchTag("SqliteSnapshotFailed", (e) => Effect.succeed(e.message))
      )
      if (failed === undefined) snapshotted.add(file.path)
      else warnings.push(`${file.path}: SQLite could not copy it (${failed}); copied as a file`)
    }
    for (const [index, file] of gathered.files.entries()) {
      const name = entryName(file.root, file.path)
      if (!live(file)) {
        sources.push({ file, name, modified: file.modified, pieces: confinedPieces(job.filesOf(file.root), file.path, yield* Effect.runtime<never>()) })
        continue
      }
      // The online backup is the whole database: a journal beside it would only undo it.
      const sidecar = sqliteSidecar.exec(file.path)
      if (sidecar !== null && snapshotted.has(sidecar[1]!)) continue
      if (!snapshotted.has(file.path)) {
        const unstable = yield* stableCopy(job.filesOf(file.root), file.path, copyOf(index))
        if (unstable !== undefined) warnings.push(unstable)
      }
      sources.push({ file, name, modified: file.modified, pieces: localPieces(copyOf(index)) })
    }

    job.progress("zipping", 0, total)
    const partial = job.archive.partialPath(job.server.id, job.filename)
    const zipped = yield* writeZip({
      folders: gathered.folders.map((f) => ({ name: entryName(f.root, f.path), modified: job.createdAt })),
      files: sources,
      output: partial,
      onBytes: (bytes) => job.progress("zipping", bytes, Math.max(total, bytes)),
      last: {
        name: MANIFEST_NAME,
        content: (done) => {
          const byName = new Map(done.map((z) => [z.name, z]))
          const files = sources.map((s) => {
            const z = byName.get(s.name)!
            return { root: s.file.root, path: s.file.path, size: z.size, sha256: z.sha256, modified: s.file.modified.toISOString() }
          })
          const manifest: Manifest = {
            format: MANIFEST_FORMAT,
            version: 1,
            server: job.server,
            type: job.type,
            createdAt: job.createdAt.toISOString(),
            running: job.running,
            paths: gathered.paths,
            excluded: job.excludeLogs ? ["logs"] : [],
            files,
            folders: gathered.folders,
            totalBytes: files.reduce((sum, f) => sum + f.size, 0),
            warnings
          }
          return encodeManifest(manifest)
        }
      }
    })
    yield* job.archive.publish(job.server.id, job.filename)
    return { files: zipped.length, totalBytes: zipped.reduce((sum, z) => sum + z.size, 0), warnings }
  }).pipe(
    Effect.onExit((exit) =>
      Effect.sync(() => {
        Fs.rmSync(job.archive.workFolder(job.server.id, job.token), { recursive: true, force: true })
        if (Exit.isFailure(exit)) Fs.rmSync(job.archive.partialPath(job.server.id, job.filename), { force: true })
      })
    )
  )
