/**
 * Actor timings, read through Effect `Config` so operators (and the
 * end-to-end tests, which cannot wait minutes for a watchdog) can tune them:
 * `SERVER_STATUS_INTERVAL`, `WATCHDOG_BASE_DELAY`, `WATCHDOG_MAX_DELAY`,
 * `SERVER_RESTART_BACKOFF`, `RCON_RETRY_DELAY` (durations like `500 millis`).
 */
import { ServerActor } from "@garrison/runtime"
import * as Config from "effect/Config"
import * as Schedule from "effect/Schedule"

const defaults = ServerActor.defaultActorOptions

export const actorOptionsConfig: Config.Config<ServerActor.ActorOptions> = Config.all({
  statusInterval: Config.duration("SERVER_STATUS_INTERVAL").pipe(Config.withDefault(defaults.statusInterval)),
  watchdogBaseDelay: Config.duration("WATCHDOG_BASE_DELAY").pipe(Config.withDefault(defaults.watchdogBaseDelay)),
  watchdogMaxDelay: Config.duration("WATCHDOG_MAX_DELAY").pipe(Config.withDefault(defaults.watchdogMaxDelay)),
  restartBackoff: Config.duration("SERVER_RESTART_BACKOFF").pipe(Config.withDefault(defaults.restartBackoff)),
  rconRetry: Config.option(Config.duration("RCON_RETRY_DELAY"))
}).pipe(
  Config.map(({ rconRetry, ...timings }) => ({
    ...defaults,
    ...timings,
    // A fixed retry delay when configured; otherwise the runtime's backoff.
    rconRetry: rconRetry._tag === "Some" ? Schedule.spaced(rconRetry.value) : defaults.rconRetry
  }))
)
