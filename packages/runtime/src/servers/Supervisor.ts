/**
 * Owns one actor per server entry, all in one scope: creating an actor for
 * a new entry, updating it, retiring it when the entry is deleted. An actor
 * failing never takes the supervisor down (actors catch their own faults).
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as ExecutionStrategy from "effect/ExecutionStrategy"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Scope from "effect/Scope"
import * as SynchronizedRef from "effect/SynchronizedRef"
import { EventBus } from "../events/EventBus.js"
import { Hooks } from "../kernel/Hooks.js"
import { connectRcon } from "../rcon/index.js"
import { Telemetry } from "../telemetry/Telemetry.js"
import type { ActorError } from "./ActorError.js"
import { ProcessLauncher } from "./ProcessLauncher.js"
import { ProcessRecords } from "./ProcessRecords.js"
import * as ServerActor from "./ServerActor.js"
import { portsOf } from "./EntryPorts.js"
import type { ServerEntry } from "./ServerEntry.js"

export interface SupervisorShape {
  /** The actor for this entry, created (and reattached) on first use; later calls update its entry. */
  readonly ensure: (entry: ServerEntry) => Effect.Effect<ServerActor.ServerActor, ActorError>
  /**
   * The actor of a server, created on first use when the supervisor was given
   * a way to look entries up (stopped servers need no actor until someone asks).
   */
  readonly get: (serverId: string) => Effect.Effect<Option.Option<ServerActor.ServerActor>>
  /** The actor of a server if one exists already; never creates one. */
  readonly find: (serverId: string) => Effect.Effect<Option.Option<ServerActor.ServerActor>>
  readonly all: Effect.Effect<ReadonlyArray<ServerActor.ServerActor>>
  /** Retires and forgets the actor; refused while its server runs. */
  readonly remove: (serverId: string) => Effect.Effect<void, ActorError>
}

interface Slot {
  readonly actor: ServerActor.ServerActor
  readonly scope: Scope.CloseableScope
}

export class Supervisor extends Context.Tag("@garrison/runtime/Supervisor")<Supervisor, SupervisorShape>() {
  static readonly make = (
    options: ServerActor.ActorOptions = ServerActor.defaultActorOptions,
    /** Looks an entry up by id, so `get` can create actors on demand. */
    lookup?: (serverId: string) => Effect.Effect<Option.Option<ServerEntry>>
  ) =>
    Effect.gen(function* () {
      const scope = yield* Effect.scope
      const slots = yield* SynchronizedRef.make(new Map<string, Slot>())
      /** The entry each actor runs with, for naming who holds a port (kept beside the slots: read without the lock). */
      const entries = new Map<string, ServerEntry>()
      const env: ServerActor.ActorEnvironment = {
        launcher: yield* ProcessLauncher,
        records: yield* ProcessRecords,
        bus: yield* EventBus,
        hooks: yield* Hooks,
        connectRcon: (settings) => connectRcon(settings),
        telemetry: yield* Telemetry,
        portOwner: (port, serverId) => {
          for (const entry of entries.values()) {
            if (entry.id !== serverId && portsOf(entry).some((taken) => taken.port === port)) {
              return { serverId: entry.id, name: entry.name }
            }
          }
          return undefined
        }
      }

      // The lock guards the map only: nothing under it waits for an actor's mailbox (an update is
      // immediate, and making an actor only reads its process record), so a busy actor never delays another.
      const ensure: SupervisorShape["ensure"] = (entry) =>
        SynchronizedRef.modifyEffect(slots, (map) => {
          const existing = map.get(entry.id)
          if (existing) {
            return existing.actor.update(entry).pipe(
              Effect.tap(() => Effect.sync(() => void entries.set(entry.id, entry))),
              Effect.as([existing.actor, map] as const)
            )
          }
          return Effect.gen(function* () {
            const actorScope = yield* Scope.fork(scope, ExecutionStrategy.sequential)
            const actor = yield* ServerActor.make(entry, env, options).pipe(Scope.extend(actorScope))
            const next = new Map(map)
            next.set(entry.id, { actor, scope: actorScope })
            entries.set(entry.id, entry)
            return [actor, next] as const
          })
        })

      /** Retires the actor outside the lock (its mailbox may be busy stopping), then forgets it. */
      const remove: SupervisorShape["remove"] = (serverId) =>
        Effect.gen(function* () {
          const slot = (yield* SynchronizedRef.get(slots)).get(serverId)
          if (slot === undefined) return
          yield* slot.actor.retire
          const forgotten = yield* SynchronizedRef.modify(slots, (map) => {
            if (map.get(serverId) !== slot) return [false, map] as const
            entries.delete(serverId)
            return [true, new Map([...map].filter(([id]) => id !== serverId))] as const
          })
          if (forgotten) yield* Scope.close(slot.scope, Exit.void)
        })

      const find: SupervisorShape["find"] = (serverId) =>
        Effect.map(SynchronizedRef.get(slots), (map) => Option.fromNullable(map.get(serverId)?.actor))

      return Supervisor.of({
        ensure,
        remove,
        find,
        get: (serverId) =>
          Effect.flatMap(find(serverId), (existing) =>
            Option.isSome(existing) || lookup === undefined
              ? Effect.succeed(existing)
              : Effect.flatMap(lookup(serverId), (entry) =>
                  Option.isNone(entry)
                    ? Effect.succeed(Option.none())
                    : ensure(entry.value).pipe(Effect.option)
                )
          ),
        all: Effect.map(SynchronizedRef.get(slots), (map) => [...map.values()].map((slot) => slot.actor))
      })
    })

  /** Needs a `ProcessLauncher` (`ProcessLauncher.node` for real processes) and `ProcessRecords`. */
  static readonly layer = (
    options?: ServerActor.ActorOptions,
    lookup?: (serverId: string) => Effect.Effect<Option.Option<ServerEntry>>
  ) => Layer.scoped(Supervisor, Supervisor.make(options, lookup))
}
