/**
 * Putting a checked backup back (`checkArchive` first). In three steps, so
 * a bad byte stops it before anything the server uses has changed:
 * 1. stage: every file is unpacked into `.garrison/restore-<token>/` of its
 *    root (same file system as its target), its SHA-256 and size checked
 *    against the manifest as it streams;
 * 2. swap: each staged file is renamed over its target (folders on the way
 *    made, a folder or link in the way removed), empty folders made;
 * 3. tidy: in every folder the backup took whole, what was not in the
 *    backup (files made since) is removed, except what backups leave out
 *    (logs, `.garrison`), so the world is the backup's and not a mix.
 * The staging folder is removed whatever happens (and one a crash left is
 * removed by the next restore).
 */
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { createHash } from "node:crypto"
import { type ConfinedFileError, type ServerFiles, textOf, unmaskSecrets } from "@garrison/runtime"
import { isLeftOut } from "./gather.js"
import { type BackupRoot, entryName, type Manifest } from "./manifest.js"
import { type OpenedZip, ZipRefused } from "./zipRead.js"

export interface RestoreOutcome {
  readonly restoredFiles: number
  readonly restoredBytes: number
  /** Files that were not in the backup, removed from folders it took whole. */
  readonly removedFiles: number
}

const join = (folder: string, name: string) => (folder === "" ? name : `${folder}/${name}`)
const parentOf = (path: string) => (path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "")
const notFound = (e: ConfinedFileError) => e.problem === "not-found"

export const restoreFiles = (input: {
  readonly zip: OpenedZip
  readonly manifest: Manifest
  readonly filesOf: (root: BackupRoot) => ServerFiles.ServerFiles
  readonly token: string
  /** Bytes unpacked so far. */
  readonly onBytes: (bytes: number) => Effect.Effect<void>
}): Effect.Effect<RestoreOutcome, ConfinedFileError | ZipRefused> => {
  const { zip, manifest, filesOf, token } = input
  const staging = `.garrison/restore-${token}`
  const roots = [...new Set<BackupRoot>([...manifest.files.map((f) => f.root), ...manifest.paths.map((p) => p.root)])]
  const excludeLogs = manifest.excluded.includes("logs")
  const staged = (index: number) => `${staging}/${index}`
  const masked = new Set((manifest.secretsMasked ?? []).map((file) => entryName(file.root, file.path)))

  /**
   * A file whose secrets a download masked: each mask gets the value the
   * server's file has now, before anything is swapped; with no value to keep
   * the restore stops, naming the file and the key.
   */
  const keepSecrets = (root: BackupRoot, path: string, stagedPath: string, name: string) =>
    Effect.gen(function* () {
      const files = filesOf(root)
      const restored = textOf(yield* files.read(stagedPath)) ?? ""
      const current = yield* files.read(path).pipe(
        Effect.map((bytes) => textOf(bytes) ?? ""),
        Effect.catchIf(notFound, () => Effect.succeed(""))
      )
      const unmasked = unmaskSecrets(restored, current)
      if ("problem" in unmasked) {
        return yield* new ZipRefused({
          entry: name,
          message: `entry "${name}" had its ${unmasked.problem.key} masked when it was downloaded, and the server's file has none to keep: restore from the backup itself`
        })
      }
      yield* files.write(stagedPath, unmasked.text)
    })

  const stage = Effect.gen(function* () {
    for (const root of roots) {
      // What an interrupted restore (a controller crash) left is of no use: only one restore of a server runs at a time.
      const left = yield* filesOf(root).list(".garrison").pipe(Effect.catchIf(notFound, () => Effect.succeed([])))
      for (const entry of left) if (entry.kind === "folder" && entry.name.startsWith("restore-")) yield* filesOf(root).remove(`.garrison/${entry.name}`, { recursive: true })
      yield* filesOf(root).makeFolder(staging)
    }
    let bytes = 0
    for (const [index, file] of manifest.files.entries()) {
      const name = entryName(file.root, file.path)
      const hash = createHash("sha256")
      let size = 0
      yield* filesOf(file.root).writeFrom(staged(index), (write) =>
        Stream.fromAsyncIterable(zip.pieces(name), (error) => (error instanceof ZipRefused ? error : new ZipRefused({ entry: name, message: String(error) }))).pipe(
          Stream.runForEach((piece) =>
            Effect.zipRight(
              Effect.sync(() => {
                hash.update(piece)
                size += piece.byteLength
                bytes += piece.byteLength
              }),
              Effect.zipRight(write(piece), input.onBytes(bytes))
            )
          ),
          Effect.zipRight(
            Effect.suspend(() =>
              size === file.size && hash.digest("hex") === file.sha256
                ? Effect.void
                : Effect.fail(new ZipRefused({ entry: name, message: `entry "${name}" does not match the manifest's checksum: the backup is damaged` }))
            )
          )
        )
      )
      if (masked.has(name)) yield* keepSecrets(file.root, file.path, staged(index), name)
    }
  })

  /** Makes room for a file at `path`: a folder or link there goes. */
  const clearFor = (files: ServerFiles.ServerFiles, path: string) =>
    Effect.gen(function* () {
      const info = yield* files.stat(path).pipe(Effect.catchIf(notFound, () => Effect.succeed(undefined)))
      if (info !== undefined && info.kind !== "file") yield* files.remove(path, { recursive: info.kind === "folder" })
    })

  const swap = Effect.gen(function* () {
    for (const folder of manifest.folders) {
      const files = filesOf(folder.root)
      const info = yield* files.stat(folder.path).pipe(Effect.catchIf(notFound, () => Effect.succeed(undefined)))
      if (info !== undefined && info.kind !== "folder") yield* files.remove(folder.path)
      yield* files.makeFolder(folder.path)
    }
    for (const [index, file] of manifest.files.entries()) {
      const files = filesOf(file.root)
      const parent = parentOf(file.path)
      if (parent !== "") yield* files.makeFolder(parent)
      yield* clearFor(files, file.path)
      yield* files.rename(staged(index), file.path, { replace: true })
    }
  })

  const tidy = Effect.gen(function* () {
    const kept = new Set(manifest.files.map((f) => `${f.root}/${f.path}`))
    const keptFolders = new Set(manifest.folders.map((f) => `${f.root}/${f.path}`))
    let removed = 0
    const walk = (root: BackupRoot, folder: string): Effect.Effect<boolean, ConfinedFileError> =>
      Effect.gen(function* () {
        const files = filesOf(root)
        let empty = true
        for (const entry of yield* files.list(folder).pipe(Effect.catchIf(notFound, () => Effect.succeed([])))) {
          const path = join(folder, entry.name)
          if (isLeftOut(entry.name, excludeLogs)) {
            empty = false
            continue
          }
          if (entry.kind === "folder") {
            const nowEmpty = yield* walk(root, path)
            if (nowEmpty && !keptFolders.has(`${root}/${path}`)) yield* files.remove(path)
            else empty = false
          } else if (!kept.has(`${root}/${path}`)) {
            yield* files.remove(path).pipe(Effect.catchIf(notFound, () => Effect.void))
            removed++
          } else {
            empty = false
          }
        }
        return empty
      })
    for (const p of manifest.paths) if (p.kind === "folder") yield* walk(p.root, p.path)
    return removed
  })

  return Effect.gen(function* () {
    yield* stage
    yield* swap
    const removedFiles = yield* tidy
    return { restoredFiles: manifest.files.length, restoredBytes: manifest.totalBytes, removedFiles }
  }).pipe(
    Effect.ensuring(
      Effect.forEach(roots, (root) => filesOf(root).remove(staging, { recursive: true }).pipe(Effect.ignore), { discard: true })
    )
  )
}
