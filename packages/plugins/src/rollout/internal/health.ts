/**
 * Whether a server came back healthy after a rollout: it keeps running for
 * the whole check window, RCON answers at the end, and the mods it reports
 * loading (in its engine log) are the ones it should have. A server whose
 * log says nothing about mods (DayZ words this differently across
 * versions) is judged on the first two alone.
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { type ConfinedFileError, inLogFolder, type LogFolder, profilesFolder } from "@garrison/runtime"
import type { ServerHandle } from "../../servers/index.js"

export interface ReportedMods {
  readonly loaded: ReadonlyArray<string>
  readonly missing: ReadonlyArray<string>
  readonly failed: ReadonlyArray<{ readonly folder: string; readonly reason: string }>
}

const LOADED = /Loading mod '([^']+)'/
const MISSING = /Warning: mod folder '([^']+)' not found/
const FAILED = /ERROR: mod '([^']+)' failed to load: (.*)$/

export const parseReportedMods = (text: string): ReportedMods => {
  const loaded: Array<string> = []
  const missing: Array<string> = []
  const failed: Array<{ folder: string; reason: string }> = []
  for (const line of text.split(/\r?\n/)) {
    let m: RegExpExecArray | null
    if ((m = LOADED.exec(line))) loaded.push(m[1]!)
    else if ((m = MISSING.exec(line))) missing.push(m[1]!)
    else if ((m = FAILED.exec(line))) failed.push({ folder: m[1]!, reason: m[2]!.trim() })
  }
  return { loaded, missing, failed }
}

/** Files written this long before the run started still count (coarse clocks). */
const SLACK_MS = 5_000
/** The mod lines are near the top, the failures may be anywhere: at most this much is read. */
const MAX_BYTES = 4 * 1024 * 1024

/** What the newest engine log written since `since` (ms) says about mods; undefined without one. */
export const readReportedMods = (logs: LogFolder, since: number): Effect.Effect<ReportedMods | undefined, ConfinedFileError> =>
  Effect.gen(function* () {
    const entries = yield* logs.files.list(logs.folder)
    const newest = entries
      .filter((e) => e.kind === "file" && e.name.toUpperCase().endsWith(".RPT") && e.modified.getTime() >= since - SLACK_MS)
      .sort((a, b) => b.modified.getTime() - a.modified.getTime())[0]
    if (newest === undefined) return undefined
    const file = yield* logs.files.open(inLogFolder(logs, newest.name))
    const bytes = yield* file.read(0, Math.min(file.size, MAX_BYTES))
    return parseReportedMods(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8"))
  }).pipe(Effect.scoped)

/**
 * Watches the server for `window` (on `Clock`: a TestClock drives it);
 * answers why it is not healthy, or undefined when it is. `expected` are the
 * mod folders it should load.
 */
export const checkHealth = (
  server: ServerHandle,
  expected: ReadonlyArray<string>,
  window: Duration.Duration,
  startedAt: number
): Effect.Effect<string | undefined> =>
  Effect.gen(function* () {
    const deadline = (yield* Clock.currentTimeMillis) + Duration.toMillis(window)
    for (;;) {
      const state = yield* server.state
      if (state.status !== "running") {
        const what = state.status === "crashed" ? "crashed" : `was ${state.status}`
        return `the server ${what} within the check window${state.lastError === undefined ? "" : `: ${state.lastError}`}`
      }
      const now = yield* Clock.currentTimeMillis
      if (now >= deadline) break
      yield* Effect.sleep(Duration.millis(Math.min(1_000, deadline - now)))
    }
    const entry = yield* server.entry
    if (entry.rcon !== undefined) {
      const answered = yield* Effect.either(server.control.players)
      if (answered._tag === "Left") return `RCON did not answer after the check window: ${answered.left.message}`
    }
    const reported = yield* readReportedMods(profilesFolder(entry), startedAt).pipe(Effect.orElseSucceed(() => undefined))
    if (reported === undefined || reported.loaded.length + reported.missing.length + reported.failed.length === 0) return undefined
    if (reported.failed.length > 0) return `the server failed to load ${reported.failed.map((f) => `${f.folder} (${f.reason})`).join(", ")}`
    const notLoaded = expected.filter((folder) => !reported.loaded.includes(folder))
    if (notLoaded.length > 0) return `the server did not load ${notLoaded.join(", ")}`
    return undefined
  })
