/**
 * Follows a server's newest RPT and ADM logs while it runs: each `poll`
 * answers the complete lines written since the last one. A server writes a
 * new pair of files per start (`DayZServer_x64_<time>.RPT`/`.ADM`), so the
 * newest file of each kind modified since the run started is the one
 * followed; when a newer one appears it is read from its start. Reads are
 * bounded per poll, so a long log (a controller reattaching to a server that
 * has run for days) is caught up over several polls instead of in one read.
 *
 * Everything is read through the log folder's `ServerFiles`: a log that is
 * a symlink, a hard link or anything but a regular file is not followed.
 */
import * as Effect from "effect/Effect"
import { StringDecoder } from "node:string_decoder"
import type { FileInfo } from "../files/ServerFiles.js"
import { inLogFolder, type LogFolder } from "./LogFolder.js"

export interface LogFollower {
  /** Lines completed since the last poll, RPT first, then ADM. Never fails: unreadable files give nothing. */
  readonly poll: Effect.Effect<ReadonlyArray<string>>
}

export interface LogFollowerOptions {
  /** Extensions followed, compared case-insensitively (one file each). */
  readonly extensions?: ReadonlyArray<string>
  /** Most bytes read from one file per poll. */
  readonly maxBytesPerPoll?: number
}

interface Followed {
  name: string
  offset: number
  /** The start of a line not finished yet. */
  carry: string
  decoder: StringDecoder
}

/** Longer unfinished lines are dropped. */
const MAX_LINE = 64 * 1024

/** Files written this long before the run started still count (clocks and file systems are coarse). */
const SLACK_MS = 5_000

/** The newest file of each extension among `entries` modified since `since` (only regular files). */
const newestFiles = (entries: ReadonlyArray<FileInfo>, extensions: ReadonlyArray<string>, since: number): ReadonlyMap<string, string> => {
  const newest = new Map<string, { readonly name: string; readonly mtime: number }>()
  for (const entry of entries) {
    if (entry.kind !== "file") continue
    const extension = extensions.find((ext) => entry.name.toUpperCase().endsWith(ext.toUpperCase()))
    if (extension === undefined) continue
    const mtime = entry.modified.getTime()
    const best = newest.get(extension)
    if (mtime >= since - SLACK_MS && (best === undefined || mtime > best.mtime)) newest.set(extension, { name: entry.name, mtime })
  }
  return new Map([...newest].map(([extension, file]) => [extension, file.name] as const))
}

/** Folder times this close to the last listing may hide a change in the same tick of a coarse clock: list again. */
const COARSE_MS = 2_000

/** Follows the logs in `logs` written at or after `since` (epoch ms). */
export const followLogs = (logs: LogFolder, since: number, options: LogFollowerOptions = {}): LogFollower => {
  const extensions = options.extensions ?? [".RPT", ".ADM"]
  const maxBytes = options.maxBytesPerPoll ?? 4 * 1024 * 1024
  const followed = new Map<string, Followed>()
  let chosen: ReadonlyMap<string, string> = new Map()
  let listed: { readonly folderMtime: number; readonly at: number } | undefined

  /**
   * Which files to follow. Listing the folder means a `stat` per entry, and
   * a profiles folder keeps every old log: so it is listed again only when
   * the folder itself changed (a file was created, renamed or removed).
   */
  const choose = Effect.gen(function* () {
    const folder = yield* logs.files.stat(logs.folder)
    const mtime = folder.modified.getTime()
    if (listed !== undefined && mtime === listed.folderMtime && mtime < listed.at - COARSE_MS) return
    // Wall-clock time on purpose: it is compared with the disk's own modification times, not with the Clock of the fibers.
    const at = Date.now()
    chosen = newestFiles(yield* logs.files.list(logs.folder), extensions, since)
    listed = { folderMtime: mtime, at }
  }).pipe(
    Effect.catchAll(() =>
      Effect.sync(() => {
        chosen = new Map()
        listed = undefined
      })
    )
  )

  const readNew = (extension: string) =>
    Effect.gen(function* () {
      const name = chosen.get(extension)
      if (name === undefined) return []
      let state = followed.get(extension)
      if (state === undefined || state.name !== name) {
        state = { name, offset: 0, carry: "", decoder: new StringDecoder("utf8") }
        followed.set(extension, state)
      }
      const file = yield* logs.files.open(inLogFolder(logs, name))
      // A file cut short (rewritten in place) is read again from its start.
      if (file.size < state.offset) Object.assign(state, { offset: 0, carry: "", decoder: new StringDecoder("utf8") })
      const length = Math.min(file.size - state.offset, maxBytes)
      if (length <= 0) return []
      const bytes = yield* file.read(state.offset, length)
      state.offset += bytes.length
      const text = state.carry + state.decoder.write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))
      const lines = text.split(/\r?\n/)
      const rest = lines.pop() ?? ""
      // A "line" that never ends is not one of ours: do not let it grow without bound.
      state.carry = rest.length > MAX_LINE ? "" : rest
      return lines
    }).pipe(
      Effect.scoped,
      Effect.orElseSucceed((): ReadonlyArray<string> => [])
    )

  return {
    poll: Effect.gen(function* () {
      yield* choose
      const lines: Array<string> = []
      for (const extension of extensions) {
        for (const line of yield* readNew(extension)) lines.push(line)
      }
      return lines
    })
  }
}
