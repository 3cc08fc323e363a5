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
import type { ActorError } from "./ActorError.js"
import { ProcessLauncher } from "./ProcessLauncher.js"
import { ProcessRecords } from "./ProcessRecords.js"
import * as ServerActor from "./ServerActor.js"
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
      const env: ServerActor.ActorEnvironment = {
        launcher: yield* ProcessLauncher,
        records: yield* ProcessRecords,
        bus: yield* EventBus,
        hooks: yield* Hooks,
        connectRcon: (settings) => connectRcon(settings)
      }
      const slots = yield* SynchronizedRef.make(new Map<string, Slot>())

      const ensure: SupervisorShape["ensure"] = (entry) =>
        SynchronizedRef.modifyEffect(slots, (map) => {
          const existing = map.get(entry.id)
          if (existing) return Effect.as(existing.actor.update(entry), [existing.actor, map] as const)
          return Effect.gen(function* () {
            const actorScope = yield* Scope.fork(scope, ExecutionStrategy.sequential)
            const actor = yield* ServerActor.make(entry, env, options).pipe(Scope.extend(actorScope))
            const next = new Map(map)
            next.set(entry.id, { actor, scope: actorScope })
            return [actor, next] as const
          })
        })

      const remove: SupervisorShape["remove"] = (serverId) =>
        SynchronizedRef.updateEffect(slots, (map) => {
          const slot = map.get(serverId)
          if (slot === undefined) return Effect.succeed(map)
          return slot.actor.retire.pipe(
            Effect.zipRight(Scope.close(slot.scope, Exit.void)),
            Effect.as(new Map([...map].filter(([id]) => id !== serverId)))
          )
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
