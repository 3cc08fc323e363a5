/** What an actor is configured with, and what it is given to work with. */
import * as Duration from "effect/Duration"
import type * as Effect from "effect/Effect"
import * as Schedule from "effect/Schedule"
import type * as Scope from "effect/Scope"
import type { EventBusShape } from "../../events/EventBus.js"
import type { HooksShape } from "../../kernel/Hooks.js"
import type { RconClient, RconConnectError } from "../../rcon/RconClient.js"
import type { TelemetryShape } from "../../telemetry/Telemetry.js"
import type { ProcessLauncherShape } from "../ProcessLauncher.js"
import type { ProcessRecordsShape } from "../ProcessRecords.js"
import type { RconSettings } from "../ServerEntry.js"

export interface ActorOptions {
  /** How often players, CPU and RAM are sampled while running. */
  readonly statusInterval: Duration.DurationInput
  /** Delays between attempts to open the RCON session (the server opens RCon some time after start). */
  readonly rconRetry: Schedule.Schedule<unknown, unknown>
  /** Per-command time-out for the actor's own RCON commands. */
  readonly rconTimeout: Duration.DurationInput
  /** The watchdog waits `base * 2^(crashes-1)`, at most `max`, before restarting a crashed server. */
  readonly watchdogBaseDelay: Duration.DurationInput
  readonly watchdogMaxDelay: Duration.DurationInput
  /** A server that ran this long before crashing starts the backoff afresh. */
  readonly healthyAfter: Duration.DurationInput
  /** After this many crashes in a row the watchdog gives up until someone starts the server. */
  readonly watchdogMaxCrashes: number
  /** Restart tries up to this many times, waiting `restartBackoff * attempt` between tries. */
  readonly restartAttempts: number
  readonly restartBackoff: Duration.DurationInput
  /** After SIGKILL, how long to wait for the process to go before reporting failure. */
  readonly killWait: Duration.DurationInput
}

export const defaultActorOptions: ActorOptions = {
  statusInterval: Duration.seconds(10),
  rconRetry: Schedule.exponential("1 second").pipe(Schedule.union(Schedule.spaced("30 seconds"))),
  rconTimeout: Duration.seconds(5),
  watchdogBaseDelay: Duration.seconds(5),
  watchdogMaxDelay: Duration.minutes(5),
  healthyAfter: Duration.minutes(10),
  watchdogMaxCrashes: 10,
  restartAttempts: 3,
  restartBackoff: Duration.seconds(5),
  killWait: Duration.seconds(5)
}

/** Another entry that takes a port, as the supervisor knows it. */
export interface PortOwner {
  readonly serverId: string
  readonly name: string
}

export interface ActorEnvironment {
  readonly launcher: ProcessLauncherShape
  readonly records: ProcessRecordsShape
  readonly bus: EventBusShape
  readonly hooks: HooksShape
  readonly connectRcon: (settings: RconSettings) => Effect.Effect<RconClient, RconConnectError, Scope.Scope>
  /** Told of every failed RCON connection and command (none told when left out). */
  readonly telemetry?: TelemetryShape
  /** Which other entry takes this port, if any (the supervisor answers from its actors' entries). */
  readonly portOwner?: (port: number, serverId: string) => PortOwner | undefined
}

export type RestartReason = "manual" | "watchdog" | "schedule"
