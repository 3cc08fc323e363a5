/**
 * What the watchdog does after a crash: restart after `base * 2^(n-1)` (at
 * most `max`) for the n-th crash in a row, give up after `maxCrashes`, or
 * nothing when it is off. A server that ran `healthyAfter` before crashing
 * counts from one again. A crash while an operation that watches the
 * server runs (a mod rollout: its check sees the crash, rolls back and
 * starts the server itself) is that operation's to handle: no restart is
 * planned.
 */
import * as Duration from "effect/Duration"
import type { WatchdogAction } from "../events.js"
import type { OperationKind } from "./operation.js"
import type { ActorOptions } from "./options.js"

/** Operations that watch their server and handle its crash themselves, with the words the log uses for them. */
const HANDLES_CRASHES: Partial<Record<OperationKind, string>> = { "mod-rollout": "the rollout" }

export interface CrashPlan {
  readonly crashes: number
  readonly action: WatchdogAction
  /** Milliseconds until the restart, when the action is `restarting`. */
  readonly delay: number | null
  /** For `lastError` and the log: the reason and, when it gave up, that it did. */
  readonly lastError: string
  readonly logLine: string
}

export const planAfterCrash = (input: {
  readonly name: string
  readonly reason: string
  readonly watchdog: boolean
  readonly previousCrashes: number
  /** How long the process ran, when known. */
  readonly ranMs: number | undefined
  readonly options: ActorOptions
  /** The long operation running when it crashed, if any. */
  readonly operation?: OperationKind | undefined
}): CrashPlan => {
  const { options } = input
  const ranLongEnough = input.ranMs !== undefined && input.ranMs >= Duration.toMillis(options.healthyAfter)
  const crashes = ranLongEnough ? 1 : input.previousCrashes + 1
  const handler = input.operation === undefined ? undefined : HANDLES_CRASHES[input.operation]
  const delay =
    handler === undefined && input.watchdog && crashes <= options.watchdogMaxCrashes
      ? Math.min(Duration.toMillis(options.watchdogBaseDelay) * 2 ** (crashes - 1), Duration.toMillis(options.watchdogMaxDelay))
      : null
  const action: WatchdogAction = handler !== undefined ? "operation" : delay !== null ? "restarting" : input.watchdog ? "gave-up" : "off"
  const gaveUp = `the watchdog gave up after ${crashes} crashes in a row`
  return {
    crashes,
    action,
    delay,
    lastError: action === "gave-up" ? `${input.reason}; ${gaveUp}` : input.reason,
    logLine:
      `server ${input.name} crashed: ${input.reason}; ` +
      (action === "restarting"
        ? `the watchdog restarts it in ${Duration.format(Duration.millis(delay!))} (crash ${crashes} in a row)`
        : action === "gave-up"
          ? `${gaveUp}; start it by hand`
          : action === "operation"
            ? `${handler} running now handles it, not the watchdog`
            : "the watchdog is off for this server")
  }
}
