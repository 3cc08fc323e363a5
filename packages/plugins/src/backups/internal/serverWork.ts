/**
 * What runs on each server now: one backup or restore at a time (a lock per
 * server), its `BackupStatus` on a progress board with the zip's progress,
 * and the backups in use, which retention leaves alone. Separate because
 * making, restoring and the views all read or write this one state.
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as EffectRuntime from "effect/Runtime"
import * as Option from "effect/Option"
import { errorMessage, makeKeyedLocks, makeProgressBoard } from "@garrison/runtime"
import { BackupStatus } from "../contract/Api.js"
import { BackupConflict, BackupStoreError } from "../errors.js"
import type { BackupType } from "./retention.js"

export const idle = (serverId: string) =>
  new BackupStatus({ serverId, operation: null, state: "idle", filename: null, type: null, phase: "", percent: 0, bytesDone: 0, bytesTotal: 0, error: null, startedAt: null, endedAt: null })

export const makeServerWork = Effect.gen(function* () {
  const board = yield* makeProgressBoard<BackupStatus>((s) => s.state === "running")
  // One backup or restore per server at a time; a server's lock is forgotten when no one holds or awaits it.
  const locks = yield* makeKeyedLocks()
  /** Backups a restore or download reads now: retention leaves them alone. */
  const inUse = new Map<string, number>()
  const iso = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms).toISOString())

  const busy = (serverId: string) => new BackupConflict({ message: `a backup or restore of server ${serverId} is running: wait for it (GET /api/servers/${serverId}/backup-status)` })
  /** Marks the backup `key` in use for the rest of the scope. */
  const hold = (key: string) =>
    Effect.acquireRelease(
      Effect.sync(() => inUse.set(key, (inUse.get(key) ?? 0) + 1)),
      () => Effect.sync(() => (inUse.get(key) === 1 ? inUse.delete(key) : inUse.set(key, inUse.get(key)! - 1)))
    )
  const holding = <A, E, R>(key: string, effect: Effect.Effect<A, E, R>) => Effect.scoped(Effect.zipRight(hold(key), effect))

  const set = (serverId: string, f: (s: BackupStatus) => Partial<BackupStatus>) => board.update(serverId, (s) => new BackupStatus({ ...s, ...f(s) }))

  // The zip's stream callbacks run outside any fiber: they update the board with this layer's runtime.
  const runSync = EffectRuntime.runSync(yield* Effect.runtime<never>())
  /** Progress from the zip's stream callbacks: at most every percent or 8 MiB. */
  const progressOf = (serverId: string) => {
    let last = { phase: "", bytes: -1, percent: -1 }
    return (phase: string, bytesDone: number, bytesTotal: number) => {
      const percent = bytesTotal > 0 ? Math.min(99, Math.floor((bytesDone / bytesTotal) * 100)) : 0
      if (phase === last.phase && percent === last.percent && bytesDone - last.bytes < 8 * 1024 * 1024) return
      last = { phase, bytes: bytesDone, percent }
      runSync(set(serverId, () => ({ phase, bytesDone, bytesTotal, percent })))
    }
  }

  const begin = (serverId: string, operation: "backup" | "restore", type: BackupType, filename: string) =>
    Effect.flatMap(iso, (startedAt) =>
      board.put(
        serverId,
        new BackupStatus({ serverId, operation, state: "running", filename, type, phase: "starting", percent: 0, bytesDone: 0, bytesTotal: 0, error: null, startedAt, endedAt: null })
      )
    )
  const end = <A, E, R>(serverId: string, effect: Effect.Effect<A, E, R>) =>
    effect.pipe(
      Effect.tap(() => Effect.flatMap(iso, (endedAt) => set(serverId, () => ({ state: "done", phase: "done", percent: 100, endedAt })))),
      Effect.tapErrorCause((cause) =>
        Effect.flatMap(iso, (endedAt) =>
          set(serverId, () => {
            const failure = Cause.failureOption(cause)
            // The status is the client's to read: a store failure is "an internal error" there (and logged below).
            const shown = Option.isSome(failure) && !(failure.value instanceof BackupStoreError) ? errorMessage(failure.value) : undefined
            return { state: "failed", endedAt, error: shown ?? (Cause.isInterruptedOnly(cause) ? "interrupted" : "an internal error") }
          })
        )
      ),
      // A manual backup runs beside its request, with no one else to log it.
      Effect.tapError((error) => (error instanceof BackupStoreError ? Effect.logError(`backup of ${serverId}: ${error.message}`) : Effect.void))
    )

  return { board, locks, inUse, busy, hold, holding, set, progressOf, begin, end }
})

export type ServerWork = Effect.Effect.Success<typeof makeServerWork>
