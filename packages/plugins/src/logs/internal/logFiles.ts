/**
 * Reading a server's log files through `FileSystem`: a path from a request
 * is checked by name, then resolved (symlinks followed) and must still be
 * inside the profiles folder. Reads are bounded: a range reads at most
 * `MAX_RANGE_BYTES`, a tail reads backwards in chunks up to `MAX_TAIL_BYTES`;
 * a file is never loaded whole.
 */
import * as FileSystem from "@effect/platform/FileSystem"
import * as Path from "@effect/platform/Path"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import {
  DEFAULT_RANGE_BYTES,
  LogFileInfo,
  MAX_RANGE_BYTES,
  MAX_TAIL_BYTES,
  MAX_TAIL_LINES
} from "../contract/Api.js"
import { InvalidLogFile, LogFileMissing, LogReadError } from "../errors.js"
import { isInside, logKind, nameProblem } from "./names.js"

const TAIL_CHUNK = 64 * 1024
const decoder = new TextDecoder("utf-8")

const readError = (operation: string) => (error: { readonly message: string }) =>
  new LogReadError({ message: `${operation}: ${error.message}` })

/** The profiles folder with symlinks resolved; undefined when it does not exist. */
const realFolder = (folder: string) =>
  Effect.flatMap(FileSystem.FileSystem, (fs) =>
    fs.realPath(folder).pipe(
      Effect.map((real): string | undefined => real),
      Effect.catchAll(() => Effect.succeed(undefined))
    )
  )

/** Resolves `name` to a real path inside `folder`, or fails with why not. */
export const resolveLogFile = (folder: string, name: string) =>
  Effect.gen(function* () {
    const problem = nameProblem(name)
    if (problem !== undefined) return yield* new InvalidLogFile({ file: name, message: `file ${problem}` })
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const root = yield* realFolder(folder)
    if (root === undefined) return yield* new LogFileMissing({ file: name })
    const real = yield* fs.realPath(path.join(root, name)).pipe(
      Effect.catchAll(() => new LogFileMissing({ file: name }))
    )
    if (!isInside(root, real, path.sep)) {
      return yield* new InvalidLogFile({ file: name, message: "file points outside the profiles folder" })
    }
    const info = yield* fs.stat(real).pipe(Effect.catchAll(() => new LogFileMissing({ file: name })))
    if (info.type !== "File") return yield* new InvalidLogFile({ file: name, message: "file is not a regular file" })
    return { path: real, size: Number(info.size) }
  })

/** The log files directly in `folder` (symlinks escaping it are left out), newest first. */
export const listLogFiles = (folder: string) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const root = yield* realFolder(folder)
    if (root === undefined) return []
    const names = yield* fs.readDirectory(root).pipe(Effect.mapError(readError("cannot list the profiles folder")))
    const found = yield* Effect.forEach(
      names.filter((name) => nameProblem(name) === undefined),
      (name) =>
        resolveLogFile(root, name).pipe(
          Effect.flatMap(({ path }) => fs.stat(path)),
          Effect.map((info) =>
            Option.some(
              new LogFileInfo({
                name,
                kind: logKind(name) ?? "log",
                size: Number(info.size),
                modified: Option.match(info.mtime, { onNone: () => null, onSome: (d) => d.toISOString() })
              })
            )
          ),
          // A file removed between listing and stat, or an escaping symlink, is simply not listed.
          Effect.catchAll(() => Effect.succeed(Option.none<LogFileInfo>()))
        ),
      { concurrency: 8 }
    )
    return found
      .flatMap((info) => (Option.isSome(info) ? [info.value] : []))
      .sort((a, b) => (b.modified ?? "").localeCompare(a.modified ?? "") || a.name.localeCompare(b.name))
  })

/** Reads up to `length` bytes (clamped to `MAX_RANGE_BYTES`) from `offset`. */
export const readRange = (file: { readonly path: string; readonly size: number }, offset: number, length?: number) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const wanted = Math.min(length ?? DEFAULT_RANGE_BYTES, MAX_RANGE_BYTES, Math.max(0, file.size - offset))
    if (wanted === 0) return new Uint8Array(0)
    const handle = yield* fs.open(file.path, { flag: "r" })
    yield* handle.seek(offset, "start")
    const bytes = yield* handle.readAlloc(wanted)
    return Option.getOrElse(bytes, () => new Uint8Array(0))
  }).pipe(Effect.scoped, Effect.mapError(readError("cannot read the log file")))

/** The last `count` lines (clamped to `MAX_TAIL_LINES`), scanning back at most `MAX_TAIL_BYTES`. */
export const readTail = (file: { readonly path: string; readonly size: number }, count: number) =>
  Effect.gen(function* () {
    const lines = Math.min(count, MAX_TAIL_LINES)
    const fs = yield* FileSystem.FileSystem
    const handle = yield* fs.open(file.path, { flag: "r" })
    const chunks: Array<Uint8Array> = []
    let start = file.size
    let newlines = 0
    // One more newline than lines wanted marks where the first wanted line starts.
    while (start > 0 && newlines <= lines && file.size - start < MAX_TAIL_BYTES) {
      const size = Math.min(TAIL_CHUNK, start, MAX_TAIL_BYTES - (file.size - start))
      start -= size
      yield* handle.seek(start, "start")
      const chunk = Option.getOrElse(yield* handle.readAlloc(size), () => new Uint8Array(0))
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
  }).pipe(Effect.scoped, Effect.mapError(readError("cannot read the log file")))

export const decodeText = (bytes: Uint8Array): string => decoder.decode(bytes)
