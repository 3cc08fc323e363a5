/**
 * Changing files under a root folder, confined like the reads
 * (`ConfinedFiles`): every operation first opens and proves the folder it
 * acts in (`internal/provenFolder.ts`), then reaches names only through that
 * proven folder, never through a symlink as the last name.
 *
 * - `writeConfined` is atomic: a temporary file is created in the proven
 *   folder with `O_CREAT | O_EXCL | O_NOFOLLOW` (so it is a new file of ours,
 *   never something planted there), given the mode of the file it replaces,
 *   written, fsynced, renamed over the target, and the folder fsynced. A
 *   reader sees the old file or the new one, never half; a hard link from
 *   the target to a file outside is not written through (the rename gives
 *   the name a new file, the other name keeps the old content).
 * - `removeConfined` removes a file, a symlink (the link, never what it
 *   points at) or a folder (recursively only when asked, each folder on the
 *   way opened from its proven parent).
 * - `renameConfined` moves within the root and refuses an existing target
 *   unless asked to replace it.
 * - `makeConfinedFolder` creates the missing folders of a path, each in its
 *   proven parent.
 * - `truncateConfined` cuts a file in place (a log a process appends to),
 *   opened without following a symlink and refused when it has other names.
 */
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import type * as Scope from "effect/Scope"
import { randomBytes } from "node:crypto"
import * as FsPromises from "node:fs/promises"
import * as NodePath from "node:path"
import type { ConfinedFileError } from "./ConfinedFileError.js"
import { inheritOwner, inheritOwnerOfFolder } from "./Ownership.js"
import {
  type BigStats,
  CREATE_NEW_FLAGS,
  descriptorPath,
  fsCall,
  fstat,
  lstat,
  openHandle,
  READ_FOLDER_FLAGS,
  refuse,
  sameFile,
  WRITE_IN_PLACE_FLAGS
} from "./internal/descriptors.js"
import {
  checkedSegments,
  type ConfinedRoot,
  type OpenOptions,
  openProvenFolder,
  type ProvenFolder,
  resolveFolder,
  useProc
} from "./internal/provenFolder.js"

export interface WriteOptions extends OpenOptions {
  /** Mode of a new file (default 0644); a file that exists keeps its own mode, whatever the umask. */
  readonly mode?: number
  /** No execute, setuid or setgid bit on the written file, whatever the replaced one had. */
  readonly stripExecute?: boolean
}

export interface RemoveOptions extends OpenOptions {
  /** Remove a folder with everything in it (default: only an empty folder). */
  readonly recursive?: boolean
}

export interface RenameOptions extends OpenOptions {
  /** Replace a target that exists (default: refused with `exists`). */
  readonly replace?: boolean
}

const DEFAULT_FILE_MODE = 0o644
const DEFAULT_FOLDER_MODE = 0o755

const notFoundAsUndefined = <A>(effect: Effect.Effect<A, ConfinedFileError>) =>
  effect.pipe(Effect.catchIf((error) => error.problem === "not-found", () => Effect.succeed(undefined)))

/** The folder of the last name and that name, the folder opened and proven. */
const parentOf = (root: ConfinedRoot, path: string, options: OpenOptions) =>
  Effect.gen(function* () {
    const segments = yield* checkedSegments(path, false)
    const folder = yield* openProvenFolder(root, segments.slice(0, -1), path, options)
    return { segments, folder, name: segments[segments.length - 1]! }
  })

/** A short temporary name (the target's own name may already be NAME_MAX long). */
const temporaryName = () => `.garrison-${randomBytes(6).toString("hex")}.tmp`

const modeOf = (stats: BigStats) => Number(stats.mode & 0o7777n)

/** What fills the new file: a whole buffer or string, or chunk by chunk. */
export type WriteSource<E = never> =
  | Uint8Array
  | string
  | { readonly chunks: (write: (chunk: Uint8Array) => Effect.Effect<void, ConfinedFileError>) => Effect.Effect<void, ConfinedFileError | E> }

/**
 * Writes `data` (a string as UTF-8) to `path` under `root`, atomically, as
 * described above. A `chunks` source writes piece by piece (a copy of a
 * large file never holds it whole); the target is replaced only once the
 * last piece is written and synced.
 */
export const writeConfined = <E = never>(
  root: ConfinedRoot,
  path: string,
  data: WriteSource<E>,
  options: WriteOptions = {}
): Effect.Effect<void, ConfinedFileError | E> =>
  Effect.scoped(
    Effect.gen(function* () {
      const { folder, name } = yield* parentOf(root, path, options)
      const target = folder.at(name)
      const existing = yield* notFoundAsUndefined(lstat(target, path))
      if (existing?.isSymbolicLink()) return yield* refuse(path, "symlink")
      if (existing !== undefined && !existing.isFile()) return yield* refuse(path, "not-regular-file")
      const kept = existing === undefined ? (options.mode ?? DEFAULT_FILE_MODE) : modeOf(existing)
      const mode = options.stripExecute === true ? kept & ~0o6111 : kept
      const temp = folder.at(temporaryName())
      yield* Effect.gen(function* () {
        yield* Effect.scoped(
          Effect.gen(function* () {
            const handle = yield* openHandle(temp, CREATE_NEW_FLAGS, path, mode)
            // The mode given to open is cut by the umask; the file must have exactly the old one.
            yield* fsCall(path, () => handle.chmod(mode), "written")
            // A controller running as root leaves the file to the folder's owner (the game server's user: `Ownership`).
            yield* fsCall(path, () => inheritOwnerOfFolder(handle, folder.at(".")), "written")
            if (!useProc(options)) {
              // Portable mode: the temporary file must be where the proven folder still is.
              yield* folder.recheck
              const created = yield* fstat(handle, path)
              const seen = yield* lstat(temp, path)
              if (!sameFile(seen, created)) return yield* refuse(path, "changed")
            }
            if (typeof data === "string" || data instanceof Uint8Array) {
              yield* fsCall(path, () => handle.writeFile(data), "written")
            } else {
              yield* data.chunks((chunk) =>
                fsCall(
                  path,
                  async () => {
                    // `write` may take less than it was given: loop until the chunk is all down.
                    for (let offset = 0; offset < chunk.byteLength; ) offset += (await handle.write(chunk, offset, chunk.byteLength - offset)).bytesWritten
                  },
                  "written"
                )
              )
            }
            yield* fsCall(path, () => handle.sync(), "written")
          })
        )
        yield* folder.recheck
        yield* fsCall(path, () => FsPromises.rename(temp, target), "written")
      }).pipe(
        // Whatever stopped it (a failure, an interruption), no temporary file is left behind.
        Effect.onExit((exit) => (Exit.isSuccess(exit) ? Effect.void : Effect.promise(() => FsPromises.rm(temp, { force: true }).catch(() => undefined))))
      )
      yield* folder.sync
    })
  )

/** The folder `name` in `parent`, opened from it without following a symlink (the way down a tree being removed). */
const childFolder = (parent: ProvenFolder, name: string, shownAs: string, options: OpenOptions) =>
  Effect.gen(function* () {
    if (!useProc(options)) {
      const path = NodePath.join(parent.path, name)
      const stats = yield* lstat(path, shownAs)
      if (!stats.isDirectory()) return yield* refuse(shownAs, "changed")
      return { path, at: (child: string) => NodePath.join(path, child), recheck: parent.recheck, sync: Effect.void } satisfies ProvenFolder
    }
    const handle = yield* openHandle(parent.at(name), READ_FOLDER_FLAGS, shownAs).pipe(
      // It was a folder a moment ago; now it is a symlink: a swap.
      Effect.catchIf((e) => e.problem === "symlink" || e.problem === "not-a-folder", () => Effect.fail(refuse(shownAs, "changed")))
    )
    const base = descriptorPath(handle)
    return { path: parent.path, at: (child: string) => `${base}/${child}`, recheck: Effect.void, sync: Effect.void } satisfies ProvenFolder
  })

/** Empties the folder `name` in `parent`, depth first, then removes it. */
const removeTree = (parent: ProvenFolder, name: string, shownAs: string, options: OpenOptions): Effect.Effect<void, ConfinedFileError, Scope.Scope> =>
  Effect.gen(function* () {
    const folder = yield* childFolder(parent, name, shownAs, options)
    const names = yield* fsCall(shownAs, () => FsPromises.readdir(folder.at("")), "removed")
    for (const child of names) {
      const stats = yield* notFoundAsUndefined(lstat(folder.at(child), shownAs))
      if (stats === undefined) continue
      if (stats.isDirectory()) yield* Effect.scoped(removeTree(folder, child, shownAs, options))
      else yield* fsCall(shownAs, () => FsPromises.unlink(folder.at(child)), "removed")
    }
    yield* parent.recheck
    yield* fsCall(shownAs, () => FsPromises.rmdir(parent.at(name)), "removed")
  })

/** Removes `path` under `root` (see above); the root itself cannot be removed. */
export const removeConfined = (root: ConfinedRoot, path: string, options: RemoveOptions = {}): Effect.Effect<void, ConfinedFileError> =>
  Effect.scoped(
    Effect.gen(function* () {
      const { folder, name } = yield* parentOf(root, path, options)
      const stats = yield* lstat(folder.at(name), path)
      if (stats.isDirectory()) {
        if (options.recursive === true) yield* removeTree(folder, name, path, options)
        else yield* fsCall(path, () => FsPromises.rmdir(folder.at(name)), "removed")
      } else {
        yield* folder.recheck
        yield* fsCall(path, () => FsPromises.unlink(folder.at(name)), "removed")
      }
      yield* folder.sync
    })
  )

const startsWith = (whole: ReadonlyArray<string>, prefix: ReadonlyArray<string>) =>
  prefix.length <= whole.length && prefix.every((segment, i) => whole[i] === segment)

/** Moves `from` to `to`, both under `root` (see above). */
export const renameConfined = (
  root: ConfinedRoot,
  from: string,
  to: string,
  options: RenameOptions = {}
): Effect.Effect<void, ConfinedFileError> =>
  Effect.scoped(
    Effect.gen(function* () {
      const source = yield* parentOf(root, from, options)
      const target = yield* parentOf(root, to, options)
      const moved = yield* lstat(source.folder.at(source.name), from)
      if (startsWith(target.segments, source.segments)) {
        // The same path in another spelling: nothing to move.
        if (target.segments.length === source.segments.length) return
        return yield* refuse(to, "invalid-path", "is inside the folder being moved")
      }
      const present = yield* notFoundAsUndefined(lstat(target.folder.at(target.name), to))
      // The same file under another spelling (a case-only rename on a case-insensitive disk) is not in the way.
      if (present !== undefined && options.replace !== true && !sameFile(present, moved)) return yield* refuse(to, "exists")
      yield* source.folder.recheck
      yield* target.folder.recheck
      yield* fsCall(from, () => FsPromises.rename(source.folder.at(source.name), target.folder.at(target.name)), "renamed")
      yield* target.folder.sync
      if (source.folder.path !== target.folder.path) yield* source.folder.sync
    })
  )

/** Creates the folders of `path` under `root` that do not exist yet (an existing folder is fine). */
export const makeConfinedFolder = (root: ConfinedRoot, path: string, options: OpenOptions = {}): Effect.Effect<void, ConfinedFileError> =>
  Effect.gen(function* () {
    const segments = yield* checkedSegments(path, false)
    for (let depth = 1; depth <= segments.length; depth++) {
      const there = yield* notFoundAsUndefined(resolveFolder(root, segments.slice(0, depth), path))
      if (there !== undefined) continue
      yield* Effect.scoped(
        Effect.gen(function* () {
          const parent = yield* openProvenFolder(root, segments.slice(0, depth - 1), path, options)
          const made = parent.at(segments[depth - 1]!)
          yield* fsCall(path, () => FsPromises.mkdir(made, DEFAULT_FOLDER_MODE).then(() => inheritOwner(made)), "created").pipe(
            // Made by someone else meanwhile: what it is gets checked on the next step down.
            Effect.catchIf((e) => e.problem === "exists", () => Effect.void)
          )
          yield* parent.sync
        })
      )
    }
    // The last one must now be a folder inside the root (not a file or a symlink leading out).
    yield* resolveFolder(root, segments, path)
  })

/** Cuts the regular file `path` under `root` to `size` bytes, in place. */
export const truncateConfined = (root: ConfinedRoot, path: string, size: number, options: OpenOptions = {}): Effect.Effect<void, ConfinedFileError> =>
  Effect.scoped(
    Effect.gen(function* () {
      const { folder, name } = yield* parentOf(root, path, options)
      const seen = yield* lstat(folder.at(name), path)
      if (seen.isSymbolicLink()) return yield* refuse(path, "symlink")
      if (!seen.isFile()) return yield* refuse(path, "not-regular-file")
      const handle = yield* openHandle(folder.at(name), WRITE_IN_PLACE_FLAGS, path)
      const opened = yield* fstat(handle, path)
      if (!opened.isFile()) return yield* refuse(path, "not-regular-file")
      // Another name may be a file outside the root: writing in place would change it.
      if (opened.nlink > 1n) return yield* refuse(path, "hard-link")
      if (!sameFile(opened, seen)) return yield* refuse(path, "changed")
      yield* folder.recheck
      yield* fsCall(path, () => handle.truncate(Math.max(0, Math.floor(size))), "written")
    })
  )
