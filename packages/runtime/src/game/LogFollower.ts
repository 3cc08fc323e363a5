/**
 * Follows a server's newest RPT and ADM logs while it runs: each `poll`
 * answers the complete lines written since the last one. A server writes a
 * new pair of files per start (`DayZServer_x64_<time>.RPT`/`.ADM`), so the
 * newest file of each kind modified since the run started is the one
 * followed; when a newer one appears it is read from its start. Reads are
 * bounded per poll, so a long log (a controller reattaching to a server that
 * has run for days) is caught up over several polls instead of in one read.
 */
import * as Fs from "node:fs/promises"
import * as NodePath from "node:path"
import { StringDecoder } from "node:string_decoder"

export interface LogFollower {
  /** Lines completed since the last poll, RPT first, then ADM. Never rejects: unreadable files give nothing. */
  readonly poll: () => Promise<ReadonlyArray<string>>
}

export interface LogFollowerOptions {
  /** Extensions followed, compared case-insensitively (one file each). */
  readonly extensions?: ReadonlyArray<string>
  /** Most bytes read from one file per poll. */
  readonly maxBytesPerPoll?: number
}

interface Followed {
  path: string
  offset: number
  /** The start of a line not finished yet. */
  carry: string
  decoder: StringDecoder
}

/** Longer unfinished lines are dropped. */
const MAX_LINE = 64 * 1024

/** Files written this long before the run started still count (clocks and file systems are coarse). */
const SLACK_MS = 5_000

/** The newest file of each extension in `folder` modified since `since` (one listing; only matching names are looked at). */
const newestFiles = async (
  folder: string,
  extensions: ReadonlyArray<string>,
  since: number
): Promise<ReadonlyMap<string, string>> => {
  const names = await Fs.readdir(folder).catch(() => [] as Array<string>)
  const newest = new Map<string, { readonly path: string; readonly mtime: number }>()
  for (const name of names) {
    const extension = extensions.find((ext) => name.toUpperCase().endsWith(ext.toUpperCase()))
    if (extension === undefined) continue
    const path = NodePath.join(folder, name)
    const stat = await Fs.stat(path).catch(() => undefined)
    const best = newest.get(extension)
    if (stat?.isFile() && stat.mtimeMs >= since - SLACK_MS && (best === undefined || stat.mtimeMs > best.mtime)) {
      newest.set(extension, { path, mtime: stat.mtimeMs })
    }
  }
  return new Map([...newest].map(([extension, file]) => [extension, file.path] as const))
}

/** Folder times this close to the last listing may hide a change in the same tick of a coarse clock: list again. */
const COARSE_MS = 2_000

/** Follows the logs in `folder` written at or after `since` (epoch ms). */
export const followLogs = (folder: string, since: number, options: LogFollowerOptions = {}): LogFollower => {
  const extensions = options.extensions ?? [".RPT", ".ADM"]
  const maxBytes = options.maxBytesPerPoll ?? 4 * 1024 * 1024
  const followed = new Map<string, Followed>()
  let chosen: ReadonlyMap<string, string> = new Map()
  let listed: { readonly folderMtime: number; readonly at: number } | undefined

  /**
   * Which files to follow. Listing the folder means a `stat` per log file, and
   * a profiles folder keeps every old log: so it is listed again only when
   * the folder itself changed (a file was created, renamed or removed).
   */
  const choose = async () => {
    const folderStat = await Fs.stat(folder).catch(() => undefined)
    if (folderStat === undefined) {
      chosen = new Map()
      listed = undefined
      return
    }
    const mtime = folderStat.mtimeMs
    if (listed !== undefined && mtime === listed.folderMtime && mtime < listed.at - COARSE_MS) return
    const at = Date.now()
    chosen = await newestFiles(folder, extensions, since)
    listed = { folderMtime: mtime, at }
  }

  const readNew = async (extension: string): Promise<ReadonlyArray<string>> => {
    const path = chosen.get(extension)
    if (path === undefined) return []
    let state = followed.get(extension)
    if (state === undefined || state.path !== path) {
      state = { path, offset: 0, carry: "", decoder: new StringDecoder("utf8") }
      followed.set(extension, state)
    }
    const handle = await Fs.open(path, "r")
    try {
      const { size } = await handle.stat()
      // A file cut short (rewritten in place) is read again from its start.
      if (size < state.offset) Object.assign(state, { offset: 0, carry: "", decoder: new StringDecoder("utf8") })
      const length = Math.min(size - state.offset, maxBytes)
      if (length <= 0) return []
      const buffer = Buffer.alloc(length)
      const { bytesRead } = await handle.read(buffer, 0, length, state.offset)
      state.offset += bytesRead
      const text = state.carry + state.decoder.write(buffer.subarray(0, bytesRead))
      const lines = text.split(/\r?\n/)
      const rest = lines.pop() ?? ""
      // A "line" that never ends is not one of ours: do not let it grow without bound.
      state.carry = rest.length > MAX_LINE ? "" : rest
      return lines
    } finally {
      await handle.close()
    }
  }

  return {
    poll: async () => {
      await choose().catch(() => undefined)
      const lines: Array<string> = []
      for (const extension of extensions) {
        for (const line of await readNew(extension).catch(() => [] as ReadonlyArray<string>)) lines.push(line)
      }
      return lines
    }
  }
}
