/**
 * The backups the host takes on its own: every `backupInterval`, and one at
 * a clean shutdown. (Backups asked for after imports are served by the
 * database layer itself: see `Database.requestBackup`.)
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Schedule from "effect/Schedule"
import * as NodePath from "node:path"
import { GarrisonConfig } from "../config/GarrisonConfig.js"
import { Database } from "./Database.js"
import { backupTime, listBackups } from "./internal/files.js"

/**
 * Time until the next scheduled backup: one interval after the newest backup
 * on disk, so frequent restarts neither skip backups nor take extra ones.
 */
const firstDelay = (backupsDir: string, interval: Duration.Duration): Effect.Effect<Duration.Duration> =>
  Effect.gen(function*() {
    const now = yield* Clock.currentTimeMillis
    const newest = yield* listBackups(backupsDir).pipe(
      Effect.map((paths) => paths[0] === undefined ? undefined : backupTime(paths[0])),
      Effect.orElseSucceed(() => undefined)
    )
    if (newest === undefined) return Duration.zero
    const wait = Duration.millis(Math.max(0, newest + Duration.toMillis(interval) - now))
    return Duration.min(wait, interval)
  })

/**
 * Backs up (label "scheduled") and prunes every `backupInterval`, forever.
 * A failed round is logged and the loop carries on. The host forks this.
 */
export const scheduledBackups: Effect.Effect<never, never, Database | GarrisonConfig> = Effect.gen(function*() {
  const database = yield* Database
  const config = yield* GarrisonConfig
  if (database.backups === "server") {
    // PostgreSQL without pg_dump: the store said so at start-up; nothing to schedule.
    return yield* Effect.never
  }
  if (Duration.lessThanOrEqualTo(config.backupInterval, Duration.zero)) {
    // A zero interval would back up in a tight loop; treat it as "off".
    yield* Effect.logWarning("Database backup interval is not positive; scheduled backups are disabled")
    return yield* Effect.never
  }
  const round = database.backupNow("scheduled").pipe(
    Effect.zipRight(database.pruneBackups),
    Effect.catchAllCause((cause) => Effect.logError("Scheduled database backup failed; will retry next interval", cause))
  )
  yield* Effect.sleep(yield* firstDelay(database.backupsDir, config.backupInterval))
  return yield* round.pipe(Effect.repeat(Schedule.spaced(config.backupInterval)), Effect.zipRight(Effect.never))
})

/**
 * How long a shutdown waits for its backup. A supervisor usually allows
 * 10 s between SIGTERM and SIGKILL (Docker's default); this leaves the rest
 * for closing the database and the servers. A backup plus its check took
 * about 2 s for a 92 MB database on a busy 2-core machine, so only a much
 * larger one is cut short (and then the scheduled backups still stand).
 */
export const SHUTDOWN_BACKUP_TIMEOUT = Duration.seconds(5)

/** "garrison-...db, taken 2026-...Z": how the newest backup on disk is named in the shutdown log. */
const newestBackup = (backupsDir: string): Effect.Effect<string> =>
  listBackups(backupsDir).pipe(
    Effect.map((paths) => {
      const newest = paths[0]
      if (newest === undefined) return "there is no backup"
      const taken = backupTime(newest)
      return `the newest backup is ${NodePath.basename(newest)}${
        taken === undefined ? "" : `, taken ${new Date(taken).toISOString()}`
      }`
    }),
    Effect.orElseSucceed(() => "the backups folder cannot be listed")
  )

/**
 * The backup at a clean shutdown (label "shutdown"), then pruning. The host
 * runs it as a finalizer that closes after every plugin (so nothing writes
 * any more) and before the database. Bounded by `timeout`: an unfinished
 * copy is abandoned and removed, and the log says which backup is then the
 * newest. Never fails.
 */
export const shutdownBackup = (
  timeout: Duration.Duration = SHUTDOWN_BACKUP_TIMEOUT
): Effect.Effect<void, never, Database> =>
  Effect.gen(function*() {
    const database = yield* Database
    if (database.backups === "server") return
    const outcome = yield* database.backupNow("shutdown").pipe(
      // Finalizers run uninterruptibly; without this the time limit could not stop the copy.
      Effect.interruptible,
      Effect.timed,
      Effect.timeout(timeout),
      Effect.exit
    )
    if (outcome._tag === "Success") {
      const [took] = outcome.value
      yield* Effect.logInfo(`Shutdown backup done in ${Math.round(Duration.toMillis(took))} ms`)
      yield* database.pruneBackups
      return
    }
    const newest = yield* newestBackup(database.backupsDir)
    const failure = Cause.failureOption(outcome.cause)
    if (failure._tag === "Some" && failure.value._tag === "TimeoutException") {
      yield* Effect.logWarning(
        `Shutdown backup did not finish within ${Duration.format(timeout)}; abandoned it so the controller can stop (${newest})`
      )
    } else {
      yield* Effect.logError(`Shutdown backup failed (${newest})`, outcome.cause)
    }
  })
