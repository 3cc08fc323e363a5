/**
 * Reads every server's admin log (`.ADM`) as it grows and turns its lines
 * into the kill feed, the leaderboard, player history and last positions.
 *
 * Per server the database holds a cursor: the file, the byte offset after
 * the last line taken, the line clock and the fatal hits still waiting for
 * their kill line. Each read of whole lines is written in one transaction
 * together with the cursor's move, so a crash or a restart re-reads exactly
 * the lines whose results were not committed: nothing missed, nothing
 * counted twice. Events for what a read found are published after its
 * commit.
 *
 * Which file: with no cursor, the newest log from its start (older logs are
 * history from before this controller watched the server). When the
 * followed file is read to its end and a newer one exists (the server
 * started again), the rest of the old one is taken, its open sessions are
 * closed at each player's last sighting, and the next file is read from its
 * start; a followed file that is gone is replaced by the next newer one.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { EventBus, type LogFolder, makeKeyedLocks, profilesFolder } from "@garrison/runtime"
import { Servers } from "../servers/index.js"
import { type GameLogStoreError, storeError } from "./errors.js"
import { GameKillRecorded, GamePlayerJoined, GamePositionsChanged } from "./events.js"
import { parseAdmLine } from "./internal/adm/parse.js"
import { type AdmFile, eachLine, listAdmFiles, readLines } from "./internal/ingest/admFiles.js"
import { addEvent, type Batch, newBatch } from "./internal/ingest/batch.js"
import { dateOfFileName, initialClock, localDate, stampOfFileName } from "./internal/ingest/lineClock.js"
import { closeOpenSessions, type Cursor, loadCursor, openSeason, saveCursor, writeBatch } from "./internal/ingest/store.js"
import { killEventOf, steam64sOf } from "./internal/views.js"

export interface IngestReport {
  /** The file followed after this poll (null: the server has no admin log). */
  readonly file: string | null
  readonly offset: number
  readonly linesRead: number
  readonly linesUnknown: number
  readonly kills: number
  /** Whether every whole line written so far was read (what is left is a line still being written). */
  readonly caughtUp: boolean
}

export interface IngestShape {
  /** Reads what is new in the server's admin logs, up to `maxBytes` (default 32 MiB) this call. */
  readonly poll: (serverId: string, logs: LogFolder, options?: { readonly maxBytes?: number }) => Effect.Effect<IngestReport, GameLogStoreError>
  /** One poll of every server entry (the job), running or not: a stopped server's last lines are read too. */
  readonly pollAll: Effect.Effect<void>
}

/** Events built from rows this module made: their schema's checks would only cost time (thousands a read). */
const TRUSTED = { disableValidation: true } as const

/** Bytes per read (and transaction). */
export const READ_CHUNK = 16 * 1024 * 1024
const POLL_BUDGET = 32 * 1024 * 1024

export class Ingest extends Context.Tag("@garrison/plugins/gamelog/Ingest")<Ingest, IngestShape>() {
  static readonly make = Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const bus = yield* EventBus
    const locks = yield* makeKeyedLocks()
    const servers = yield* Servers

    const publishAfter = (serverId: string, batch: Batch) =>
      Effect.gen(function* () {
        const moved = [...batch.players.values()].some((p) => p.position !== null || p.online !== undefined)
        if (batch.joined.length === 0 && batch.kills.length === 0 && !moved) return
        const ids = new Set<string>()
        for (const j of batch.joined) ids.add(j.playerId)
        for (const k of batch.kills) {
          if (k.killerId !== null) ids.add(k.killerId)
          if (k.victimId !== null) ids.add(k.victimId)
        }
        const steam = yield* steam64sOf(sql, [...ids]).pipe(Effect.orElseSucceed(() => new Map<string, string>()))
        for (const j of batch.joined) {
          yield* bus.publish(new GamePlayerJoined({ serverId, playerId: j.playerId, steam64: steam.get(j.playerId) ?? null, name: j.name, at: new Date(j.atMs).toISOString() }, TRUSTED))
        }
        for (const k of batch.kills) yield* bus.publish(new GameKillRecorded(killEventOf(serverId, k, steam), TRUSTED))
        if (moved) yield* bus.publish(new GamePositionsChanged({ serverId }))
      })

    /** One read of whole lines from the cursor's file, written with the cursor's move in one transaction. */
    const readOnce = (serverId: string, logs: LogFolder, cursor: Cursor, final: boolean, maxBytes: number) =>
      Effect.gen(function* () {
        const read = yield* readLines(logs, cursor.fileName, cursor.offset, maxBytes, final)
        if (read.text === "" && read.next === cursor.offset) return { cursor, batch: undefined, size: read.size }
        const fallbackDate = dateOfFileName(cursor.fileName) ?? localDate(yield* Clock.currentTimeMillis)
        const batch = newBatch(cursor.clock, cursor.pending)
        const prefix = `${serverId}:${cursor.fileName}:`
        eachLine(read, (line, offset) => {
          batch.lines++
          const parsed = parseAdmLine(line)
          if (parsed.kind === "event") addEvent(batch, parsed.event, prefix, offset, fallbackDate)
          else if (parsed.kind === "unknown") batch.unknown++
        })
        const next: Cursor = {
          fileName: cursor.fileName,
          offset: read.next,
          clock: batch.clock,
          pending: batch.pending,
          linesRead: cursor.linesRead + batch.lines,
          linesUnknown: cursor.linesUnknown + batch.unknown
        }
        const now = yield* Clock.currentTimeMillis
        yield* Effect.gen(function* () {
          const season = batch.kills.length > 0 ? yield* openSeason(sql, serverId, now) : ""
          yield* writeBatch(sql, serverId, season, batch)
          yield* saveCursor(sql, serverId, next, now)
        }).pipe(sql.withTransaction)
        yield* publishAfter(serverId, batch)
        return { cursor: next, batch, size: read.size }
      })

    /** Moves to `file` from its start (a new run of the server): sessions still open end. */
    const moveTo = (serverId: string, from: Cursor | undefined, file: AdmFile) =>
      Effect.gen(function* () {
        const cursor: Cursor = {
          fileName: file.name,
          offset: 0,
          clock: initialClock(dateOfFileName(file.name)),
          pending: [],
          linesRead: from?.linesRead ?? 0,
          linesUnknown: from?.linesUnknown ?? 0
        }
        const now = yield* Clock.currentTimeMillis
        yield* Effect.gen(function* () {
          if (from !== undefined) yield* closeOpenSessions(sql, serverId)
          yield* saveCursor(sql, serverId, cursor, now)
        }).pipe(sql.withTransaction)
        if (from !== undefined) yield* bus.publish(new GamePositionsChanged({ serverId }))
        return cursor
      })

    const poll: IngestShape["poll"] = (serverId, logs, options) =>
      locks.withLock(
        serverId,
        Effect.gen(function* () {
          const budget = options?.maxBytes ?? POLL_BUDGET
          let spent = 0
          let kills = 0
          const stored = yield* loadCursor(sql, serverId)
          let files = yield* listAdmFiles(logs).pipe(Effect.orElseSucceed((): ReadonlyArray<AdmFile> => []))
          let cursor: Cursor
          if (stored === undefined) {
            const newest = files.at(-1)
            if (newest === undefined) return { file: null, offset: 0, linesRead: 0, linesUnknown: 0, kills: 0, caughtUp: true } satisfies IngestReport
            cursor = yield* moveTo(serverId, undefined, newest)
          } else {
            cursor = stored
          }
          while (true) {
            const current: Cursor = cursor
            const index = files.findIndex((f) => f.name === current.fileName)
            if (index < 0) {
              // The followed log is gone (log clean-up): go on with the next newer one, or wait for one.
              const stamp = stampOfFileName(current.fileName)
              const next = stamp === null ? files.at(-1) : files.find((f) => f.order > stamp)
              if (next === undefined) return { file: current.fileName, offset: current.offset, linesRead: current.linesRead, linesUnknown: current.linesUnknown, kills, caughtUp: true }
              cursor = yield* moveTo(serverId, current, next)
              continue
            }
            const newer = files[index + 1]
            const final = newer !== undefined
            const chunk = Math.min(READ_CHUNK, budget - spent)
            const result = yield* readOnce(serverId, logs, current, final, chunk).pipe(
              Effect.catchTag("ConfinedFileError", () => Effect.succeed({ cursor: current, batch: undefined, size: current.offset }))
            )
            cursor = result.cursor
            spent += cursor.offset - current.offset
            kills += result.batch?.kills.length ?? 0
            const atEnd = cursor.offset >= result.size
            if (atEnd && newer !== undefined) {
              cursor = yield* moveTo(serverId, cursor, newer)
              files = yield* listAdmFiles(logs).pipe(Effect.orElseSucceed(() => files))
              continue
            }
            if (result.batch === undefined || atEnd || spent >= budget) {
              return { file: cursor.fileName, offset: cursor.offset, linesRead: cursor.linesRead, linesUnknown: cursor.linesUnknown, kills, caughtUp: atEnd || result.batch === undefined }
            }
          }
        }).pipe(Effect.mapError(storeError("read a server's admin log")))
      )

    const pollAll: IngestShape["pollAll"] = Effect.gen(function* () {
      for (const entry of yield* servers.entries) {
        yield* poll(entry.id, profilesFolder(entry)).pipe(Effect.catchAll((error) => Effect.logWarning(`game log of server ${entry.id}: ${error.message}`)))
      }
    })

    return { poll, pollAll } satisfies IngestShape
  })

  static readonly layer = Layer.effect(Ingest, Ingest.make)
}
