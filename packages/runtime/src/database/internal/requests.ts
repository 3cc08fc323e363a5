/**
 * "Back up soon, because of X": asked for after large imports. Asking only
 * puts the reason on a queue (it never waits for, or fails because of, the
 * backup); one worker turns bursts of requests into few backups.
 *
 * The worker waits `settle` after the first request, so the rest of a burst
 * lands in the same backup, and keeps `minGap` between the starts of two
 * requested backups; everything asked for meanwhile is folded into the next
 * one. Ten imports in a row therefore take one backup (all within `settle`)
 * or two (one `settle` after the first, one covering the rest `minGap`
 * later), and no import waits more than `minGap` for its backup.
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Queue from "effect/Queue"
import { sanitiseLabel } from "./files.js"

/** Quiet time after a first request, for the rest of a burst to arrive. */
export const BACKUP_REQUEST_SETTLE = Duration.seconds(1)
/** Least time between the starts of two requested backups. */
export const BACKUP_REQUEST_MIN_GAP = Duration.minutes(1)

export interface BackupRequests {
  /** Queues a request; returns at once. */
  readonly request: (reason: string) => Effect.Effect<void>
  /** Serves the requests forever with `backup(label)` (which must log its own failures). */
  readonly serve: (backup: (label: string) => Effect.Effect<void>) => Effect.Effect<never>
}

/** The label of a backup taken for these reasons: each distinct one, in order of arrival. */
export const labelFor = (reasons: ReadonlyArray<string>): string =>
  sanitiseLabel([...new Set(reasons.map(sanitiseLabel))].join("-"))

export const makeBackupRequests = (
  options: { readonly settle: Duration.Duration; readonly minGap: Duration.Duration } = {
    settle: BACKUP_REQUEST_SETTLE,
    minGap: BACKUP_REQUEST_MIN_GAP
  }
): Effect.Effect<BackupRequests> =>
  Effect.map(Queue.unbounded<string>(), (queue) => ({
    request: (reason) => Effect.asVoid(Queue.offer(queue, reason)),
    serve: (backup) =>
      Effect.gen(function*() {
        let lastStart = Number.NEGATIVE_INFINITY
        for (;;) {
          const first = yield* Queue.take(queue)
          const now = yield* Clock.currentTimeMillis
          const wait = Math.max(Duration.toMillis(options.settle), lastStart + Duration.toMillis(options.minGap) - now)
          yield* Effect.sleep(Duration.millis(wait))
          const rest = yield* Queue.takeAll(queue)
          lastStart = yield* Clock.currentTimeMillis
          // Requests that arrive from here on wait for the next round: this copy may not hold their rows.
          yield* backup(labelFor([first, ...rest]))
        }
      })
  }))
