/**
 * `ServerFiles`: every read and write of one game server's files, confined
 * to a root folder (its install folder). Paths are relative to the root, `/`
 * or `\` between names, `..` resolved by name; an absolute path, a NUL, a
 * lone surrogate, a `..` that climbs out, or a symlink (in any folder on the
 * way or as the last name) leading outside is refused with a
 * `ConfinedFileError` naming the path and the problem (`confinedFileHttpError`
 * turns it into the controller's 400/404/409). Writes are atomic.
 *
 * This is an interface, not a Tag: there is one per server (the servers
 * plugin hands them out), and it says nothing of `node:fs`, so a second
 * implementation for servers on other hosts (the agent) can stand behind
 * it. The first one is the local disk (`local`), built on the confined
 * opener and writer (`ConfinedFiles`, `ConfinedWrites`): opened once, no
 * symlink followed, descriptors proven by device and inode.
 */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import type { ConfinedFileError } from "./ConfinedFileError.js"
import { type ConfinedFile, type EntryKind, listConfinedStats, openConfined, statConfined } from "./ConfinedFiles.js"
import { makeConfinedFolder, removeConfined, renameConfined, truncateConfined, writeConfined } from "./ConfinedWrites.js"
import { refuse } from "./internal/descriptors.js"
import { type ConfinedRoot, resolveRoot, type Verification } from "./internal/provenFolder.js"

/** What an entry is itself: a symlink is reported as one, never followed. */
export type FileKind = EntryKind

export interface FileInfo {
  /** The entry's name in its folder (`""` for the root). */
  readonly name: string
  readonly kind: FileKind
  /** Bytes (for a folder or symlink, what the system reports for the entry itself). */
  readonly size: number
  readonly modified: Date
  /** Permission bits (`0o755`), setuid, setgid and sticky included. */
  readonly mode: number
}

/** A regular file opened for reading, until the scope closes: ranges come from the very file that was checked. */
export type OpenedFile = ConfinedFile

/** How much of a file `copyFrom` reads and writes at a time. */
export const COPY_CHUNK = 1024 * 1024

/** Largest whole-file read unless a caller says otherwise; larger files are read in ranges (`open`). */
export const DEFAULT_READ_LIMIT = 16 * 1024 * 1024

export interface ReadOptions {
  /** Fails with `too-large` when the file is larger. Default `DEFAULT_READ_LIMIT`. */
  readonly maxBytes?: number
}

export interface WriteOptions {
  /** Mode of a new file (default 0644); a file that exists keeps its own. */
  readonly mode?: number
  /**
   * The written file never has an execute, setuid or setgid bit, whatever
   * the file it replaces had, decided at the moment of the write (the file
   * editor never makes a program).
   */
  readonly stripExecute?: boolean
}

export interface RemoveOptions {
  /** Remove a folder with everything in it (default: only an empty one). */
  readonly recursive?: boolean
}

export interface RenameOptions {
  /** Replace a target that exists (default: refused with `exists`). */
  readonly replace?: boolean
}

export interface ServerFiles {
  /** Where the root is, for messages and logs (a local folder; later an agent's host and folder). */
  readonly root: string
  /** The entries of a folder (`""`: the root), unsorted. */
  readonly list: (folder: string) => Effect.Effect<ReadonlyArray<FileInfo>, ConfinedFileError>
  /** What `path` is (`""`: the root). */
  readonly stat: (path: string) => Effect.Effect<FileInfo, ConfinedFileError>
  /** A whole regular file, at most `maxBytes`. */
  readonly read: (path: string, options?: ReadOptions) => Effect.Effect<Uint8Array, ConfinedFileError>
  /** A regular file opened for ranged reads (logs, tails) until the scope closes. */
  readonly open: (path: string) => Effect.Effect<OpenedFile, ConfinedFileError, Scope.Scope>
  /** Replaces (or creates) a file atomically; a string is written as UTF-8. The folder must exist. */
  readonly write: (path: string, data: Uint8Array | string, options?: WriteOptions) => Effect.Effect<void, ConfinedFileError>
  /**
   * Replaces (or creates) `path` with the bytes of `source` (a file opened
   * from these or another server's files), read and written a piece at a
   * time, so a copy of a large file never holds it whole; atomic like `write`.
   */
  readonly copyFrom: (source: OpenedFile, path: string, options?: WriteOptions) => Effect.Effect<void, ConfinedFileError>
  /**
   * Replaces (or creates) `path` with what `produce` hands to `write`, a
   * piece at a time (an unpacked zip entry, a download); atomic like
   * `write`: when `produce` fails, the file is as it was and no piece is left.
   */
  readonly writeFrom: <E>(
    path: string,
    produce: (write: (piece: Uint8Array) => Effect.Effect<void, ConfinedFileError>) => Effect.Effect<void, ConfinedFileError | E>,
    options?: WriteOptions
  ) => Effect.Effect<void, ConfinedFileError | E>
  /** Removes a file, a symlink (the link itself) or a folder. */
  readonly remove: (path: string, options?: RemoveOptions) => Effect.Effect<void, ConfinedFileError>
  /** Moves an entry within the root. */
  readonly rename: (from: string, to: string, options?: RenameOptions) => Effect.Effect<void, ConfinedFileError>
  /** Creates a folder and any missing folders above it; an existing folder is fine. */
  readonly makeFolder: (path: string) => Effect.Effect<void, ConfinedFileError>
  /** Cuts a file to `size` bytes in place (for a log a process keeps appending to; not atomic). */
  readonly truncate: (path: string, size: number) => Effect.Effect<void, ConfinedFileError>
}

export interface LocalOptions {
  /** How descriptors are proven (tests force each way); default: `/proc/self/fd` where it exists. */
  readonly verification?: Verification
}

/**
 * The files under `rootFolder` on this machine. The root is resolved at
 * each operation (it may not exist yet when this is made, or be moved), so a
 * missing root is the operation's `not-found`.
 */
export const local = (rootFolder: string, options: LocalOptions = {}): ServerFiles => {
  const root = (path: string): Effect.Effect<ConfinedRoot, ConfinedFileError> =>
    resolveRoot(rootFolder).pipe(
      Effect.mapError((error) =>
        refuse(path, error.problem, error.problem === "not-found" || error.problem === "not-a-folder" ? "cannot be reached: its server folder does not exist" : error.message)
      )
    )
  const opts = options.verification === undefined ? {} : { verification: options.verification }
  return {
    root: rootFolder,
    list: (folder) => Effect.flatMap(root(folder), (r) => listConfinedStats(r, folder, opts)),
    stat: (path) => Effect.flatMap(root(path), (r) => statConfined(r, path, opts)),
    read: (path, readOptions = {}) =>
      Effect.scoped(
        Effect.gen(function* () {
          const limit = readOptions.maxBytes ?? DEFAULT_READ_LIMIT
          const file = yield* openConfined(yield* root(path), path, opts)
          if (file.size > limit) {
            return yield* refuse(path, "too-large", `is ${file.size} bytes, more than the ${limit}-byte limit of a whole read`)
          }
          return yield* file.read(0, file.size)
        })
      ),
    open: (path) => Effect.flatMap(root(path), (r) => openConfined(r, path, opts)),
    write: (path, data, writeOptions = {}) => Effect.flatMap(root(path), (r) => writeConfined(r, path, data, { ...opts, ...writeOptions })),
    copyFrom: (source, path, writeOptions = {}) =>
      Effect.flatMap(root(path), (r) =>
        writeConfined(
          r,
          path,
          {
            chunks: (write) =>
              Effect.gen(function* () {
                for (let position = 0; position < source.size; ) {
                  const piece = yield* source.read(position, Math.min(COPY_CHUNK, source.size - position))
                  // The file got shorter since it was opened: what is there is copied.
                  if (piece.byteLength === 0) break
                  yield* write(piece)
                  position += piece.byteLength
                }
              })
          },
          { ...opts, ...writeOptions }
        )
      ),
    writeFrom: (path, produce, writeOptions = {}) =>
      Effect.flatMap(root(path), (r) => writeConfined(r, path, { chunks: produce }, { ...opts, ...writeOptions })),
    remove: (path, removeOptions = {}) => Effect.flatMap(root(path), (r) => removeConfined(r, path, { ...opts, ...removeOptions })),
    rename: (from, to, renameOptions = {}) => Effect.flatMap(root(from), (r) => renameConfined(r, from, to, { ...opts, ...renameOptions })),
    makeFolder: (path) => Effect.flatMap(root(path), (r) => makeConfinedFolder(r, path, opts)),
    truncate: (path, size) => Effect.flatMap(root(path), (r) => truncateConfined(r, path, size, opts))
  }
}
