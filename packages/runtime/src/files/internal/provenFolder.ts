/**
 * A folder under a root, resolved and proven to be inside it, the shared
 * first step of every confined operation (read, list, write, remove,
 * rename). On Linux the folder is opened (`O_DIRECTORY | O_NOFOLLOW`), the
 * descriptor proven through `/proc/self/fd`, and names in it are then
 * reached through `/proc/self/fd/<fd>/<name>`: the kernel resolves that to
 * the very folder that was proven, so a folder on the way swapped for a
 * symlink afterwards cannot redirect the operation. Elsewhere the folder is
 * resolved again after the operation's own checks (`recheck`) and must be
 * the same folder (device and inode): a narrower window, not none.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type * as Scope from "effect/Scope"
import * as FsPromises from "node:fs/promises"
import * as NodePath from "node:path"
import type { ConfinedFileError } from "../ConfinedFileError.js"
import { isFolderOrInside, isInsideFolder, relativeSegments } from "../ConfinedPath.js"
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
  READ_FOLDER_FLAGS,
  realPath,
  refuse,
  sameFile
} from "./descriptors.js"

/** A root folder, resolved once: every path used under it must stay inside `path`. */
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

export const useProc = (options: OpenOptions): boolean =>
  options.verification === "proc-fd" || (options.verification !== "re-resolve" && hasProcFd())

/** Resolves `folder` once; fails `not-found` or `not-a-folder`. */
export const resolveRoot = (folder: string): Effect.Effect<ConfinedRoot, ConfinedFileError> =>
  Effect.gen(function* () {
    const path = yield* realPath(folder, ".")
    const stats = yield* lstat(path, ".")
    if (!stats.isDirectory()) return yield* refuse(".", "not-a-folder")
    return { path }
  })

/** The names along a relative path, or its refusal (`invalid-path`) before anything is touched. */
export const checkedSegments = (path: string, allowRoot: boolean): Effect.Effect<ReadonlyArray<string>, ConfinedFileError> =>
  Either.match(relativeSegments(path, { allowRoot }), {
    onLeft: (problem) => Effect.fail(refuse(path, "invalid-path", problem)),
    onRight: (segments) => Effect.succeed(segments)
  })

export interface ResolvedFolder extends Identity {
  readonly path: string
}

/** The real path of the folder `segments` name under the root, which must be the root or inside it. */
export const resolveFolder = (root: ConfinedRoot, segments: ReadonlyArray<string>, shownAs: string) =>
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
export const proveByProc = (root: ConfinedRoot, handle: FsPromises.FileHandle, opened: BigStats, shownAs: string) =>
  Effect.gen(function* () {
    const where = yield* procPathOf(handle, shownAs)
    const inside = opened.isDirectory() ? isFolderOrInside(root.path, where) : isInsideFolder(root.path, where)
    if (!inside) return yield* refuse(shownAs, "outside-root")
    const now = yield* lstat(where, shownAs).pipe(Effect.catchAll(() => Effect.fail(refuse(shownAs, "changed"))))
    if (!sameFile(now, opened)) return yield* refuse(shownAs, "changed")
  })

/** Portable: the folder still resolves to the folder proven before (same real path, device and inode). */
export const sameFolderAgain = (root: ConfinedRoot, segments: ReadonlyArray<string>, before: ResolvedFolder, shownAs: string) =>
  Effect.gen(function* () {
    const after = yield* resolveFolder(root, segments, shownAs).pipe(Effect.catchAll(() => Effect.fail(refuse(shownAs, "changed"))))
    if (after.path !== before.path || !sameFile(after, before)) return yield* refuse(shownAs, "changed")
  })

/** A folder proven to be the root or inside it, open until the scope closes. */
export interface ProvenFolder {
  /** Its real path when it was proven (for messages and the portable mode). */
  readonly path: string
  /** The path that reaches `name` in this very folder: `/proc/self/fd/<fd>/<name>` on Linux, else `<path>/<name>`. */
  readonly at: (name: string) => string
  /** Portable mode: fails `changed` unless the folder's path still leads to the proven folder. Linux: nothing to check. */
  readonly recheck: Effect.Effect<void, ConfinedFileError>
  /** fsync of the folder, so a rename or removal in it survives a power cut. */
  readonly sync: Effect.Effect<void, ConfinedFileError>
}

/** Opens and proves the folder `segments` name under `root` (`[]`: the root itself). */
export const openProvenFolder = (
  root: ConfinedRoot,
  segments: ReadonlyArray<string>,
  shownAs: string,
  options: OpenOptions = {}
): Effect.Effect<ProvenFolder, ConfinedFileError, Scope.Scope> =>
  Effect.gen(function* () {
    const folder = yield* resolveFolder(root, segments, shownAs)
    if (!useProc(options)) {
      return {
        path: folder.path,
        at: (name) => NodePath.join(folder.path, name),
        recheck: sameFolderAgain(root, segments, folder, shownAs),
        sync: syncFolderByPath(folder.path, shownAs)
      } satisfies ProvenFolder
    }
    const handle = yield* openHandle(folder.path, READ_FOLDER_FLAGS, shownAs).pipe(
      // The resolved folder became a symlink between resolving and opening: a swap.
      Effect.catchIf((e) => e.problem === "symlink", () => Effect.fail(refuse(shownAs, "changed")))
    )
    const opened = yield* fstat(handle, shownAs)
    if (!opened.isDirectory()) return yield* refuse(shownAs, "not-a-folder")
    yield* proveByProc(root, handle, opened, shownAs)
    const base = descriptorPath(handle)
    return {
      path: folder.path,
      at: (name) => `${base}/${name}`,
      recheck: Effect.void,
      sync: fsCall(shownAs, () => handle.sync(), "written")
    } satisfies ProvenFolder
  })

/**
 * Portable mode: fsync of the folder by its path. Windows cannot open a
 * folder as a file at all (EISDIR, EPERM): there, NTFS journals the rename
 * itself and there is nothing more to do.
 */
const syncFolderByPath = (path: string, shownAs: string) =>
  fsCall(
    shownAs,
    async () => {
      let handle: FsPromises.FileHandle
      try {
        handle = await FsPromises.open(path, "r")
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code
        if (code === "EISDIR" || code === "EPERM" || code === "EACCES") return
        throw error
      }
      try {
        await handle.sync()
      } finally {
        await handle.close()
      }
    },
    "written"
  )
