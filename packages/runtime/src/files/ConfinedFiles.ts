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
 * The pieces (root, folder resolution, descriptor proof) are what a writer
 * needs too: create a temporary file with `O_CREAT | O_EXCL | O_NOFOLLOW` in
 * the proven folder, prove its descriptor, write, fsync, rename within the
 * folder (see `AtomicFile`).
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type * as Scope from "effect/Scope"
import type { Dirent } from "node:fs"
import * as FsPromises from "node:fs/promises"
import * as NodePath from "node:path"
import type { ConfinedFileError } from "./ConfinedFileError.js"
import { isFolderOrInside, isInsideFolder, relativeSegments } from "./ConfinedPath.js"
import {
  type BigStats,
  descriptorPath,
  fsCall,
  fstat,
  hasProcFd,
  type Identity,
  lstat,
  openHandle,
  procPathOf,
  READ_FILE_FLAGS,
  READ_FOLDER_FLAGS,
  realPath,
  refuse,
  sameFile
} from "./internal/descriptors.js"

/** A root folder, resolved once: every path opened under it must stay inside `path`. */
export interface ConfinedRoot {
  /** The root's real path (symlinks resolved). */
  readonly path: string
}

/**
 * How an opened descriptor is proven to be inside the root: `proc-fd`
 * (Linux, `/proc/self/fd`), `re-resolve` (portable: resolve the folder again
 * and compare device and inode), or `auto` (`proc-fd` where `/proc` exists).
 */
export type Verification = "auto" | "proc-fd" | "re-resolve"

export interface OpenOptions {
  readonly verification?: Verification
}

/** An opened, proven file. Valid until the scope it was opened in closes. */
export interface ConfinedFile {
  /** The relative path it was opened by. */
  readonly path: string
  /** Bytes, when it was opened. */
  readonly size: number
  readonly modified: Date
  /** Up to `length` bytes from `position` (fewer at the end of the file), read through the open descriptor. */
  readonly read: (position: number, length: number) => Effect.Effect<Uint8Array, ConfinedFileError>
}

export type EntryKind = "file" | "folder" | "symlink" | "other"

export interface FolderEntry {
  readonly name: string
  /** What the entry is itself (a symlink is not followed). */
  readonly kind: EntryKind
}

const useProc = (options: OpenOptions): boolean =>
  options.verification === "proc-fd" || (options.verification !== "re-resolve" && hasProcFd())

/** Resolves `folder` once; fails `not-found` or `not-a-folder`. */
export const resolveRoot = (folder: string): Effect.Effect<ConfinedRoot, ConfinedFileError> =>
  Effect.gen(function* () {
    const path = yield* realPath(folder, ".")
    const stats = yield* fsCall(".", () => FsPromises.stat(path))
    if (!stats.isDirectory()) return yield* refuse(".", "not-a-folder")
    return { path }
  })

const checkedSegments = (path: string, allowRoot: boolean) =>
  Either.match(relativeSegments(path, { allowRoot }), {
    onLeft: (problem) => Effect.fail(refuse(path, "invalid-path", problem)),
    onRight: (segments) => Effect.succeed(segments)
  })

interface ResolvedFolder extends Identity {
  readonly path: string
}

/** The real path of the folder `segments` name under the root, which must be the root or inside it. */
const resolveFolder = (root: ConfinedRoot, segments: ReadonlyArray<string>, shownAs: string) =>
  Effect.gen(function* () {
    const path = yield* realPath(NodePath.join(root.path, ...segments), shownAs)
    if (!isFolderOrInside(root.path, path)) return yield* refuse(shownAs, "outside-root")
    const stats = yield* lstat(path, shownAs)
    if (!stats.isDirectory()) return yield* refuse(shownAs, "not-a-folder")
    return { path, dev: stats.dev, ino: stats.ino } satisfies ResolvedFolder
  })

/**
 * Linux: the kernel's path of the descriptor lies inside the root (or is
 * the root, for a folder) and still names the same file.
 */
const proveByProc = (root: ConfinedRoot, handle: FsPromises.FileHandle, opened: BigStats, shownAs: string) =>
  Effect.gen(function* () {
    const where = yield* procPathOf(handle, shownAs)
    const inside = opened.isDirectory() ? isFolderOrInside(root.path, where) : isInsideFolder(root.path, where)
    if (!inside) return yield* refuse(shownAs, "outside-root")
    const now = yield* lstat(where, shownAs).pipe(Effect.catchAll(() => Effect.fail(refuse(shownAs, "changed"))))
    if (!sameFile(now, opened)) return yield* refuse(shownAs, "changed")
  })

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
    const after = yield* resolveFolder(root, folderSegments, shownAs).pipe(
      Effect.catchAll(() => Effect.fail(refuse(shownAs, "changed")))
    )
    if (after.path !== before.path || !sameFile(after, before)) return yield* refuse(shownAs, "changed")
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

const kindOf = (entry: Dirent): EntryKind =>
  entry.isSymbolicLink() ? "symlink" : entry.isFile() ? "file" : entry.isDirectory() ? "folder" : "other"

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
  Effect.gen(function* () {
    const segments = yield* checkedSegments(path, true)
    const folder = yield* resolveFolder(root, segments, path)
    const toEntries = (entries: ReadonlyArray<Dirent>) => entries.map((entry) => ({ name: entry.name, kind: kindOf(entry) }))
    if (useProc(options)) {
      return yield* Effect.scoped(
        Effect.gen(function* () {
          const handle = yield* openHandle(folder.path, READ_FOLDER_FLAGS, path)
          const opened = yield* fstat(handle, path)
          if (!opened.isDirectory()) return yield* refuse(path, "not-a-folder")
          yield* proveByProc(root, handle, opened, path)
          // Reading the descriptor's /proc entry lists the opened folder itself, wherever its path now leads.
          return toEntries(yield* fsCall(path, () => FsPromises.readdir(descriptorPath(handle), { withFileTypes: true })))
        })
      )
    }
    const entries = yield* fsCall(path, () => FsPromises.readdir(folder.path, { withFileTypes: true }))
    const after = yield* resolveFolder(root, segments, path).pipe(Effect.catchAll(() => Effect.fail(refuse(path, "changed"))))
    if (after.path !== folder.path || !sameFile(after, folder)) return yield* refuse(path, "changed")
    return toEntries(entries)
  })
