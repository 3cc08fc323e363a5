/**
 * Opening a file that a request names inside a root folder (a server's
 * profiles or install folder), once, and proving what was opened.
 *
 * Checking a path and then opening it is a race: the file or a folder on the
 * way can be swapped for a symlink in between. So the opener
 * 1. resolves the root once (`resolveRoot`);
 * 2. checks the relative path (`ConfinedPath`: no NUL, not absolute, no `..`);
 * 3. resolves the folders on the way (symlinks among them must stay inside
 *    the root) and opens the last name with `O_NOFOLLOW` (a symlink there is
 *    refused, never followed), non-blocking (a FIFO cannot hang it);
 * 4. checks the opened descriptor itself: a regular file with one link (a
 *    second name may be a hard link to a file outside), and where it really
 *    is. On Linux the kernel says: `/proc/self/fd/<fd>` must lie inside the
 *    root and still name the same device and inode as `fstat` of the
 *    descriptor. Without `/proc`, the folder is resolved again and must be
 *    the same folder (device and inode) as before the open, and the path
 *    must still name the opened file.
 * Reads then go through that descriptor; nothing is opened by path again.
 *
 * The pieces (root, folder resolution, descriptor proof) are shared with
 * the writer (`ConfinedWrites`: a temporary file made with `O_CREAT |
 * O_EXCL | O_NOFOLLOW` in the proven folder, fsync, rename within it) through
 * `internal/provenFolder.ts`.
 */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import type { Dirent } from "node:fs"
import * as FsPromises from "node:fs/promises"
import * as NodePath from "node:path"
import type { ConfinedFileError } from "./ConfinedFileError.js"
import { type BigStats, fsCall, fstat, lstat, openHandle, READ_FILE_FLAGS, refuse, sameFile } from "./internal/descriptors.js"
import {
  checkedSegments,
  type ConfinedRoot,
  type OpenOptions,
  openProvenFolder,
  proveByProc,
  resolveFolder,
  type ResolvedFolder,
  sameFolderAgain,
  useProc
} from "./internal/provenFolder.js"

export { resolveRoot } from "./internal/provenFolder.js"
export type { ConfinedRoot, OpenOptions, Verification } from "./internal/provenFolder.js"

/** An opened, proven file. Valid until the scope it was opened in closes. */
export interface ConfinedFile {
  /** The relative path it was opened by. */
  readonly path: string
  /** Bytes, when it was opened. */
  readonly size: number
  readonly modified: Date
  /** Which file it is (device and inode of the open descriptor), to prove another opening reached the same file. */
  readonly identity: { readonly device: bigint; readonly inode: bigint }
  /** Up to `length` bytes from `position` (fewer at the end of the file), read through the open descriptor. */
  readonly read: (position: number, length: number) => Effect.Effect<Uint8Array, ConfinedFileError>
}

export type EntryKind = "file" | "folder" | "symlink" | "other"

export interface FolderEntry {
  readonly name: string
  /** What the entry is itself (a symlink is not followed). */
  readonly kind: EntryKind
}

/** What a name is, as `lstat` says it (a symlink is not followed): kind, bytes, last modified. */
export interface EntryStats extends FolderEntry {
  readonly size: number
  readonly modified: Date
  /** Permission bits (`0o755`), setuid, setgid and sticky included. */
  readonly mode: number
}

/** Portable: the folder resolves to the same folder as before the open, and the path still names the opened file. */
const proveByReresolving = (
  root: ConfinedRoot,
  folderSegments: ReadonlyArray<string>,
  before: ResolvedFolder,
  path: string,
  opened: BigStats,
  shownAs: string
) =>
  Effect.gen(function* () {
    yield* sameFolderAgain(root, folderSegments, before, shownAs)
    const now = yield* lstat(path, shownAs).pipe(Effect.catchAll(() => Effect.fail(refuse(shownAs, "changed"))))
    if (!sameFile(now, opened)) return yield* refuse(shownAs, "changed")
  })

const readAt = (handle: FsPromises.FileHandle, shownAs: string) => (position: number, length: number) =>
  fsCall(shownAs, async () => {
    const wanted = Math.max(0, Math.floor(length))
    const buffer = new Uint8Array(wanted)
    let filled = 0
    while (filled < wanted) {
      const { bytesRead } = await handle.read(buffer, filled, wanted - filled, position + filled)
      if (bytesRead === 0) break
      filled += bytesRead
    }
    return buffer.subarray(0, filled)
  })

/**
 * Opens the regular file `path` (relative, `/` or `\` between folders)
 * under `root` for reading, proven as described above. The descriptor is
 * closed when the scope closes.
 */
export const openConfined = (
  root: ConfinedRoot,
  path: string,
  options: OpenOptions = {}
): Effect.Effect<ConfinedFile, ConfinedFileError, Scope.Scope> =>
  Effect.gen(function* () {
    const segments = yield* checkedSegments(path, false)
    const folderSegments = segments.slice(0, -1)
    const folder = yield* resolveFolder(root, folderSegments, path)
    const candidate = NodePath.join(folder.path, segments[segments.length - 1]!)
    // A first look by name refuses the plain cases before anything is opened (a device may act on open).
    const seen = yield* lstat(candidate, path)
    if (seen.isSymbolicLink()) return yield* refuse(path, "symlink")
    if (!seen.isFile()) return yield* refuse(path, "not-regular-file")
    const handle = yield* openHandle(candidate, READ_FILE_FLAGS, path)
    // From here on only the descriptor counts: the name may have been swapped since the look above.
    const opened = yield* fstat(handle, path)
    if (!opened.isFile()) return yield* refuse(path, "not-regular-file")
    if (opened.nlink > 1n) return yield* refuse(path, "hard-link")
    if (useProc(options)) yield* proveByProc(root, handle, opened, path)
    else yield* proveByReresolving(root, folderSegments, folder, candidate, opened, path)
    return {
      path,
      size: Number(opened.size),
      modified: opened.mtime,
      identity: { device: opened.dev, inode: opened.ino },
      read: readAt(handle, path)
    } satisfies ConfinedFile
  })

/** `openConfined`, then `use`, then the descriptor is closed. */
export const withConfinedFile = <A, E, R>(
  root: ConfinedRoot,
  path: string,
  use: (file: ConfinedFile) => Effect.Effect<A, E, R>,
  options: OpenOptions = {}
): Effect.Effect<A, E | ConfinedFileError, Exclude<R, Scope.Scope>> =>
  Effect.scoped(Effect.flatMap(openConfined(root, path, options), use))

const kindOfDirent = (entry: Dirent): EntryKind =>
  entry.isSymbolicLink() ? "symlink" : entry.isFile() ? "file" : entry.isDirectory() ? "folder" : "other"

const kindOfStats = (stats: BigStats): EntryKind =>
  stats.isSymbolicLink() ? "symlink" : stats.isFile() ? "file" : stats.isDirectory() ? "folder" : "other"

const entryStats = (name: string, stats: BigStats): EntryStats => ({
  name,
  kind: kindOfStats(stats),
  size: Number(stats.size),
  modified: stats.mtime,
  mode: Number(stats.mode & 0o7777n)
})

/**
 * The entries of the folder `path` under `root` (`""` for the root itself),
 * read from a proven descriptor of that folder (Linux), or between two
 * resolutions that must agree (elsewhere). Opening an entry is
 * `openConfined`'s job: a listed name proves nothing about its file.
 */
export const listConfined = (
  root: ConfinedRoot,
  path: string,
  options: OpenOptions = {}
): Effect.Effect<ReadonlyArray<FolderEntry>, ConfinedFileError> =>
  Effect.scoped(
    Effect.gen(function* () {
      const segments = yield* checkedSegments(path, true)
      const folder = yield* openProvenFolder(root, segments, path, options)
      // On Linux this reads the descriptor's /proc entry: the opened folder itself, wherever its path now leads.
      const entries = yield* fsCall(path, () => FsPromises.readdir(folder.at(""), { withFileTypes: true }))
      yield* folder.recheck
      return entries.map((entry) => ({ name: entry.name, kind: kindOfDirent(entry) }))
    })
  )

/**
 * `listConfined` with each entry's size and last change (one `lstat` per
 * entry, in the proven folder): what a file browser shows. An entry removed
 * between the listing and its `lstat` is left out.
 */
export const listConfinedStats = (
  root: ConfinedRoot,
  path: string,
  options: OpenOptions = {}
): Effect.Effect<ReadonlyArray<EntryStats>, ConfinedFileError> =>
  Effect.scoped(
    Effect.gen(function* () {
      const segments = yield* checkedSegments(path, true)
      const folder = yield* openProvenFolder(root, segments, path, options)
      const names = yield* fsCall(path, () => FsPromises.readdir(folder.at("")))
      const entries = yield* fsCall(path, () =>
        Promise.all(
          names.map((name) =>
            FsPromises.lstat(folder.at(name), { bigint: true }).then(
              (stats) => entryStats(name, stats),
              (error: NodeJS.ErrnoException) => (error.code === "ENOENT" ? undefined : Promise.reject(error))
            )
          )
        )
      )
      yield* folder.recheck
      return entries.filter((entry): entry is EntryStats => entry !== undefined)
    })
  )

/**
 * What `path` under `root` is (`""`: the root itself), without following a
 * symlink as its last name: the folders on its way are proven as for an
 * open.
 */
export const statConfined = (root: ConfinedRoot, path: string, options: OpenOptions = {}): Effect.Effect<EntryStats, ConfinedFileError> =>
  Effect.scoped(
    Effect.gen(function* () {
      const segments = yield* checkedSegments(path, true)
      if (segments.length === 0) {
        const folder = yield* openProvenFolder(root, [], path, options)
        return entryStats("", yield* lstat(folder.at("."), path))
      }
      const name = segments[segments.length - 1]!
      const folder = yield* openProvenFolder(root, segments.slice(0, -1), path, options)
      const stats = yield* lstat(folder.at(name), path)
      yield* folder.recheck
      return entryStats(name, stats)
    })
  )
