/**
 * What the parts of one actor share. `ActorCell` holds its mutable state
 * (the entry, the current run, the pending watchdog, ...) in one plain
 * object made by `ServerActor.make`: the lifecycle steps (`lifecycle.ts`),
 * the crash handling (`crashes.ts`) and the mailbox (`mailbox.ts`) all read
 * and write that same object, and read it when their effects run, never
 * when they are built, so each sees the current value.
 *
 * `ActorKit` adds what they all act with: the state, the live RCON client,
 * the lifecycle lock, and the ways to fail, publish and log that name the
 * server.
 */
import * as Effect from "effect/Effect"
import type * as Fiber from "effect/Fiber"
import type * as Option from "effect/Option"
import type * as Ref from "effect/Ref"
import type * as Scope from "effect/Scope"
import * as SubscriptionRef from "effect/SubscriptionRef"
import type { EventBusShape } from "../../events/EventBus.js"
import type { LogFollower } from "../../game/LogFollower.js"
import type { RconClient } from "../../rcon/RconClient.js"
import { ActorError } from "../ActorError.js"
import type { ProcessHandle } from "../ProcessLauncher.js"
import type { ServerEntry } from "../ServerEntry.js"
import type { ServerState } from "../ServerState.js"
import type { ActorEnvironment, ActorOptions } from "./options.js"

/** A running process and the children that live as long as it does. */
export interface Run {
  readonly generation: number
  readonly handle: ProcessHandle
  readonly scope: Scope.CloseableScope
  /** This run's RPT and ADM logs, read for who the players are. */
  readonly logs: LogFollower
  /** Set once a stop began: the exit that follows is the stop's, not a crash. */
  stopping: boolean
}

export interface ActorCell {
  /** The entry as last given (`update` replaces it): the next start uses it. */
  entry: ServerEntry
  /** The process running now, if any. */
  run: Run | undefined
  /** Counts runs, so that an exit reported by an earlier run is not taken for the current one's. */
  generation: number
  /** The watchdog's restart waiting after a crash, if one is. */
  watchdog: Fiber.RuntimeFiber<void> | undefined
  /** Set by a retire or when the actor closes: every command fails at once with `removed`. */
  retired: boolean
  /** Why the server last crashed, for the watchdog's restart message. */
  lastCrash: string | undefined
  /** The watchdog fired while the files were held: it restarts the server once the last hold ends. */
  watchdogAfterHold: boolean
}

export const makeActorCell = (entry: ServerEntry): ActorCell => ({
  entry,
  run: undefined,
  generation: 0,
  watchdog: undefined,
  retired: false,
  lastCrash: undefined,
  watchdogAfterHold: false
})

export interface ActorKit {
  readonly serverId: string
  readonly cell: ActorCell
  readonly env: ActorEnvironment
  readonly options: ActorOptions
  /** The actor's scope: run scopes, the watchdog's wait and operations are forked in it. */
  readonly scope: Scope.Scope
  readonly state: SubscriptionRef.SubscriptionRef<ServerState>
  /** The live RCON session's client; none while no session is up. */
  readonly rconClient: Ref.Ref<Option.Option<RconClient>>
  readonly fail: (reason: ActorError["reason"], message: string) => ActorError
  readonly removed: () => ActorError
  /** Without RCON settings nothing can be sent: not a passing state (503) but something to set up. */
  readonly noRconSettings: () => ActorError
  readonly patch: (f: Partial<ServerState> | ((s: ServerState) => Partial<ServerState>)) => Effect.Effect<void>
  readonly publish: EventBusShape["publish"]
  readonly names: () => { readonly serverId: string; readonly name: string }
  readonly warn: (message: string) => Effect.Effect<void>
  /** Runs `effect` under the lifecycle lock: one process-changing step at a time, the mailbox's and an operation's. */
  readonly step: <A, E>(effect: Effect.Effect<A, E>) => Effect.Effect<A, E>
}

/** The kit from what `make` holds: the shared parts as they are, the helpers made over them and the lifecycle `lock`. */
export const makeActorKit = (
  input: Pick<ActorKit, "serverId" | "cell" | "env" | "options" | "scope" | "state" | "rconClient"> & { readonly lock: Effect.Semaphore }
): ActorKit => {
  const { lock, ...shared } = input
  const { cell, env, serverId, state } = shared
  const fail = (reason: ActorError["reason"], message: string) => new ActorError({ serverId, reason, message })
  return {
    ...shared,
    fail,
    removed: () => fail("removed", `server ${cell.entry.name} (${serverId}) was removed`),
    noRconSettings: () =>
      fail("unsupported", `${cell.entry.name} has no RCON settings: set rcon (protocol, host, port, password) to control the game`),
    patch: (f) => SubscriptionRef.update(state, (s) => ({ ...s, ...(typeof f === "function" ? f(s) : f) })),
    publish: (event) => env.bus.publish(event),
    names: () => ({ serverId, name: cell.entry.name }),
    warn: (message) => Effect.logWarning(message).pipe(Effect.annotateLogs({ serverId })),
    step: (effect) => lock.withPermits(1)(effect)
  }
}
