/**
 * The system calls behind the confined opener, each as an Effect that fails
 * with a `ConfinedFileError` whose reason comes from the errno; and the two
 * ways to prove where an opened descriptor really is.
 */
import * as Effect from "effect/Effect"
import * as Fs from "node:fs"
import * as FsPromises from "node:fs/promises"
import { ConfinedFileError, type ConfinedFileProblem } from "../ConfinedFileError.js"

export type BigStats = Fs.BigIntStats

/** Where a path or descriptor points: what two looks at the same file agree on. */
export interface Identity {
  readonly dev: bigint
  readonly ino: bigint
}

export const sameFile = (a: Identity, b: Identity): boolean => a.dev === b.dev && a.ino === b.ino

/** `O_NOFOLLOW` and friends are 0 where the platform lacks them (Windows): the checks after opening still hold. */
const flag = (name: "O_NOFOLLOW" | "O_NONBLOCK" | "O_NOCTTY" | "O_DIRECTORY"): number => Fs.constants[name] ?? 0

/**
 * Read-only, never through a symlink as the last name, never blocking on a
 * FIFO (it is refused after `fstat`), never becoming a controlling terminal.
 */
export const READ_FILE_FLAGS = Fs.constants.O_RDONLY | flag("O_NOFOLLOW") | flag("O_NONBLOCK") | flag("O_NOCTTY")
export const READ_FOLDER_FLAGS = Fs.constants.O_RDONLY | flag("O_NOFOLLOW") | flag("O_DIRECTORY")
/** A new file that must not exist yet (not even as a symlink): what a temporary file is created with. */
export const CREATE_NEW_FLAGS = Fs.constants.O_WRONLY | Fs.constants.O_CREAT | Fs.constants.O_EXCL | flag("O_NOFOLLOW") | flag("O_NOCTTY")
/** An existing file written in place (cut back), never through a symlink, never blocking on a FIFO. */
export const WRITE_IN_PLACE_FLAGS = Fs.constants.O_WRONLY | flag("O_NOFOLLOW") | flag("O_NONBLOCK") | flag("O_NOCTTY")

const errnoProblem = (code: string | undefined): ConfinedFileProblem => {
  switch (code) {
    case "ENOENT":
      return "not-found"
    // A name on the way is a file, not a folder.
    case "ENOTDIR":
      return "not-a-folder"
    case "EISDIR":
      return "not-regular-file"
    case "EEXIST":
      return "exists"
    case "ENOTEMPTY":
      return "not-empty"
    // O_NOFOLLOW on a symlink: ELOOP on Linux and macOS, EMLINK on FreeBSD.
    case "ELOOP":
    case "EMLINK":
      return "symlink"
    // A socket or a device with no driver behind it.
    case "ENXIO":
    case "ENODEV":
      return "not-regular-file"
    default:
      return "io"
  }
}

export const problemMessages: Readonly<Record<ConfinedFileProblem, string>> = {
  "invalid-path": "is not a valid path",
  "outside-root": "resolves outside its folder",
  symlink: "is a symbolic link",
  "not-regular-file": "is not a regular file",
  "not-a-folder": "is not a folder",
  "hard-link": "has other hard links, so it may be a file from outside its folder",
  "not-found": "does not exist",
  "too-large": "is larger than the limit",
  exists: "already exists",
  "not-empty": "is a folder that is not empty",
  changed: "changed while it was being opened; try again",
  io: "cannot be read"
}

export const refuse = (path: string, problem: ConfinedFileProblem, message = problemMessages[problem]) =>
  new ConfinedFileError({ path, problem, message })

/** What a call was doing, for the message of an I/O fault (`cannot be written (ENOSPC)`). */
export type Action = "read" | "written" | "removed" | "renamed" | "created"

/** One file-system call; a failure names the problem, never the real path. */
export const fsCall = <A>(path: string, run: () => Promise<A>, action: Action = "read"): Effect.Effect<A, ConfinedFileError> =>
  Effect.tryPromise({
    try: run,
    catch: (cause) => {
      const code = (cause as NodeJS.ErrnoException | undefined)?.code
      const problem = errnoProblem(code)
      return refuse(path, problem, problem === "io" ? `cannot be ${action} (${code ?? "unknown error"})` : problemMessages[problem])
    }
  })

export const realPath = (path: string, shownAs: string) => fsCall(shownAs, () => FsPromises.realpath(path))
export const lstat = (path: string, shownAs: string) => fsCall(shownAs, () => FsPromises.lstat(path, { bigint: true }))

const opensForWriting = (flags: number) => (flags & (Fs.constants.O_WRONLY | Fs.constants.O_RDWR)) !== 0

/** Opens `path`; the handle is closed when the scope closes (the open itself is never interrupted half-way). */
export const openHandle = (path: string, flags: number, shownAs: string, mode?: number) =>
  Effect.acquireRelease(fsCall(shownAs, () => FsPromises.open(path, flags, mode), opensForWriting(flags) ? "written" : "read"), (handle) =>
    Effect.promise(() => handle.close().catch(() => undefined))
  )

export const fstat = (handle: FsPromises.FileHandle, shownAs: string) => fsCall(shownAs, () => handle.stat({ bigint: true }))

/** Linux: `/proc/self/fd/<fd>` names what a descriptor really is, whatever happened to the path it was opened by. */
let procFdAvailable: boolean | undefined
export const hasProcFd = (): boolean => {
  if (procFdAvailable === undefined) {
    try {
      procFdAvailable = Fs.statSync("/proc/self/fd").isDirectory()
    } catch {
      procFdAvailable = false
    }
  }
  return procFdAvailable
}

export const descriptorPath = (handle: FsPromises.FileHandle) => `/proc/self/fd/${handle.fd}`

/**
 * The kernel's path of an opened descriptor. A deleted file reads as
 * `<path> (deleted)`, which then names nothing (or another file): the
 * identity check that follows refuses it.
 */
export const procPathOf = (handle: FsPromises.FileHandle, shownAs: string) =>
  fsCall(shownAs, () => FsPromises.readlink(descriptorPath(handle)))
