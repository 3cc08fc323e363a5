/**
 * What the engine log (.RPT) says about the running game: its version and
 * the map. Real servers word these lines differently across versions, so the
 * patterns are tolerant: `Version 1.26.159040` / `Exe version: ...`,
 * `Mission: dayzOffline.chernarusplus` / `World: chernarusplus`.
 */
import * as Effect from "effect/Effect"
import type { ConfinedFileError } from "../files/ConfinedFileError.js"
import { inLogFolder, type LogFolder } from "./LogFolder.js"

export interface RptFacts {
  readonly version: string | undefined
  readonly map: string | undefined
}

const VERSION = /\bversion\b[:\s]+(\d+(?:\.\d+)+)/i
const WORLD = /\bWorld[:\s]+([A-Za-z0-9_-]+)/
const MISSION = /\bMission[:\s]+[\w-]+\.([A-Za-z0-9_-]+)/

/** Files written this long before the run started still count (clocks and file systems are coarse). */
const SLACK_MS = 5_000
/** The facts are near the top: only this much of the file is read. */
const HEAD_BYTES = 64 * 1024

export const parseRptFacts = (text: string): RptFacts => ({
  version: VERSION.exec(text)?.[1],
  map: WORLD.exec(text)?.[1] ?? MISSION.exec(text)?.[1]
})

/** Reads the head of the newest .RPT in the log folder modified at or after `since` (ms); undefined when there is none. */
export const readRptFacts = (logs: LogFolder, since: number): Effect.Effect<RptFacts | undefined, ConfinedFileError> =>
  Effect.gen(function* () {
    const entries = yield* logs.files.list(logs.folder)
    let newest: { readonly name: string; readonly mtime: number } | undefined
    for (const entry of entries) {
      if (entry.kind !== "file" || !entry.name.toUpperCase().endsWith(".RPT")) continue
      const mtime = entry.modified.getTime()
      if (mtime >= since - SLACK_MS && (newest === undefined || mtime > newest.mtime)) newest = { name: entry.name, mtime }
    }
    if (newest === undefined) return undefined
    const file = yield* logs.files.open(inLogFolder(logs, newest.name))
    const head = yield* file.read(0, HEAD_BYTES)
    return parseRptFacts(Buffer.from(head.buffer, head.byteOffset, head.byteLength).toString("utf8"))
  }).pipe(Effect.scoped)
