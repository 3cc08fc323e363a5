/**
 * Reading a server's log files through its profiles folder's `ServerFiles`
 * (the runtime's `profilesFolder`: the install folder's files, at the
 * profiles folder's relative path): a name from a request is checked (a
 * plain log file name), then opened once and proven to be a regular file
 * inside the root (no symlink, no hard link, no swap while opening); every
 * read goes through that open descriptor. Reads are bounded: a range reads
 * at most `MAX_RANGE_BYTES`, a tail reads backwards in chunks up to
 * `MAX_TAIL_BYTES`; a file is never loaded whole.
 */
import { type ConfinedFileError, inLogFolder, type LogFolder, type ServerFiles } from "@garrison/runtime"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import {
  DEFAULT_RANGE_BYTES,
  LogFileInfo,
  MAX_RANGE_BYTES,
  MAX_TAIL_BYTES,
  MAX_TAIL_LINES
} from "../contract/Api.js"
import { InvalidLogFile, LogFileChanged, LogFileMissing, LogReadError } from "../errors.js"
import { logKind, nameProblem } from "./names.js"

type OpenedFile = ServerFiles.OpenedFile

const TAIL_CHUNK = 64 * 1024
const decoder = new TextDecoder("utf-8")

/** Said when the profiles folder (a symlink) leads out of the install folder: its logs are not read there. */
const PROFILES_OUTSIDE =
  "the profiles folder resolves outside the server's install folder (a symbolic link?); set the entry's profilesDir to where it really is"

/** The opener's refusal as the route's: bad names 400, missing 404, a swap mid-open 409, the rest a real fault. */
const asLogError = (name: string) => (error: ConfinedFileError) => {
  switch (error.problem) {
    case "not-found":
      return new LogFileMissing({ file: name })
    case "changed":
      return new LogFileChanged({ message: `file: ${name} changed while it was being opened; try again` })
    case "io":
      return new LogReadError({ message: `cannot read the log file: ${error.message}` })
    case "outside-root":
      return new InvalidLogFile({ file: name, message: "file points outside the profiles folder" })
    default:
      return new InvalidLogFile({ file: name, message: `file ${error.message}` })
  }
}

/**
 * `outside-root` for a plain name inside a profiles folder that lies in the
 * install folder means the profiles folder itself leads out (a symlink): a
 * state of the server's folders (409 saying what to do), not a bad name.
 */
const profilesLeadOut = (logs: LogFolder, error: ConfinedFileError) => logs.folder !== "" && error.problem === "outside-root"

/** Opens the log file `name` in the log folder for the rest of the scope, or fails with why not. */
export const openLogFile = (logs: LogFolder, name: string) =>
  Effect.gen(function* () {
    const problem = nameProblem(name)
    if (problem !== undefined) return yield* new InvalidLogFile({ file: name, message: `file ${problem}` })
    return yield* logs.files
      .open(inLogFolder(logs, name))
      .pipe(Effect.mapError((error) => (profilesLeadOut(logs, error) ? new LogFileChanged({ message: PROFILES_OUTSIDE }) : asLogError(name)(error))))
  })

/** The log files directly in the log folder (regular files only: symlinks and hard links are left out), newest first. */
export const listLogFiles = (logs: LogFolder) =>
  Effect.gen(function* () {
    const entries = yield* logs.files.list(logs.folder).pipe(
      Effect.catchIf(
        (error) => error.problem === "not-found" || error.problem === "not-a-folder",
        () => Effect.succeed([])
      ),
      Effect.mapError((error) =>
        error.problem === "io"
          ? new LogReadError({ message: `cannot list the profiles folder: ${error.message}` })
          : profilesLeadOut(logs, error)
            ? new LogFileChanged({ message: PROFILES_OUTSIDE })
            : // Swapped (or re-pointed outside) while it was being listed.
              new LogFileChanged({ message: "the profiles folder changed while it was being listed; try again" })
      )
    )
    const found = yield* Effect.forEach(
      entries.filter((entry) => entry.kind === "file" && nameProblem(entry.name) === undefined),
      ({ name }) =>
        logs.files.open(inLogFolder(logs, name)).pipe(
          Effect.map((file) =>
            Option.some(
              new LogFileInfo({ name, kind: logKind(name) ?? "log", size: file.size, modified: file.modified.toISOString() })
            )
          ),
          Effect.scoped,
          // A file removed or swapped between listing and opening, or refused by the opener, is simply not listed.
          Effect.catchAll(() => Effect.succeed(Option.none<LogFileInfo>()))
        ),
      { concurrency: 8 }
    )
    return found
      .flatMap((info) => (Option.isSome(info) ? [info.value] : []))
      .sort((a, b) => (b.modified ?? "").localeCompare(a.modified ?? "") || a.name.localeCompare(b.name))
  })

const readFailed = (error: ConfinedFileError) => new LogReadError({ message: `cannot read the log file: ${error.message}` })

/** Reads up to `length` bytes (clamped to `MAX_RANGE_BYTES`) from `offset`. */
export const readRange = (file: OpenedFile, offset: number, length?: number) => {
  const wanted = Math.min(length ?? DEFAULT_RANGE_BYTES, MAX_RANGE_BYTES, Math.max(0, file.size - offset))
  return wanted === 0 ? Effect.succeed(new Uint8Array(0)) : file.read(offset, wanted).pipe(Effect.mapError(readFailed))
}

/** The last `count` lines (clamped to `MAX_TAIL_LINES`), scanning back at most `MAX_TAIL_BYTES`. */
export const readTail = (file: OpenedFile, count: number) =>
  Effect.gen(function* () {
    const lines = Math.min(count, MAX_TAIL_LINES)
    const chunks: Array<Uint8Array> = []
    let start = file.size
    let newlines = 0
    // One more newline than lines wanted marks where the first wanted line starts.
    while (start > 0 && newlines <= lines && file.size - start < MAX_TAIL_BYTES) {
      const size = Math.min(TAIL_CHUNK, start, MAX_TAIL_BYTES - (file.size - start))
      start -= size
      const chunk = yield* file.read(start, size)
      chunks.unshift(chunk)
      for (const byte of chunk) if (byte === 0x0a) newlines++
    }
    const text = decoder.decode(Buffer.concat(chunks))
    const all = text.split(/\r?\n/)
    if (all[all.length - 1] === "") all.pop()
    // When the scan did not reach the file's start, the first piece may be a partial line.
    if (start > 0) all.shift()
    const truncated = start > 0 && all.length < lines
    return { lines: all.slice(-lines), truncated }
  }).pipe(Effect.mapError(readFailed))

export const decodeText = (bytes: Uint8Array): string => decoder.decode(bytes)
