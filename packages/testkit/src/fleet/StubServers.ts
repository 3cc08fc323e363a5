/**
 * A stand-in for the servers plugin (same id), for plugins tested without
 * real actors: the real `Servers` gateway and the real `ServerFileSync`
 * (and its before-start hook) over a `Supervisor` and `ServerEntries` that
 * serve the actors the test made (`fakeActor`, `StubFleet`).
 */
import { SERVER_EVENTS, SERVER_PERMISSIONS, ServerEntries, serverFileSyncHook, serverFileSyncLayer, Servers } from "@garrison/plugins/servers"
import { AuditTrail, type EventHandler, Plugin, type ServerActor, type ServerFileSync, ServerNotFound, Supervisor } from "@garrison/runtime"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"

const refused = Effect.dieMessage("the stub servers plugin does not store or create servers")

export interface StubServersOptions {
  /** Event handlers the stub runs too (e.g. a recorder of another plugin's events). */
  readonly events?: ReadonlyArray<EventHandler<never>>
}

/**
 * The stub over `actors`, read on every call (servers may be added
 * later): `Supervisor` finds them and never creates one, `ServerEntries`
 * reads their entries (writes die).
 */
export const stubServersPlugin = (
  actors: ReadonlyMap<string, ServerActor.ServerActor>,
  options: StubServersOptions = {}
): Plugin.Plugin<Supervisor | ServerEntries | Servers | ServerFileSync, ServerFileSync> =>
  Plugin.make({
    id: "servers",
    // It stands in for the servers plugin: it declares and requires what that one does.
    permissions: SERVER_PERMISSIONS,
    publishes: SERVER_EVENTS,
    requires: [AuditTrail],
    layer: Layer.merge(Servers.layer, serverFileSyncLayer).pipe(
      Layer.provideMerge(
        Layer.merge(
          Layer.succeed(Supervisor, {
            ensure: () => refused,
            get: (serverId) => Effect.sync(() => Option.fromNullable(actors.get(serverId))),
            find: (serverId) => Effect.sync(() => Option.fromNullable(actors.get(serverId))),
            all: Effect.sync(() => [...actors.values()]),
            remove: () => Effect.void
          }),
          Layer.succeed(ServerEntries, {
            list: Effect.suspend(() => Effect.forEach([...actors.values()], (actor) => actor.entry)),
            unreadable: Effect.succeed([]),
            get: (serverId) =>
              Effect.suspend(() => {
                const actor = actors.get(serverId)
                return actor === undefined ? Effect.fail(ServerNotFound.of(serverId)) : actor.entry
              }),
            insert: () => refused,
            update: () => refused,
            remove: () => refused,
            upsertAll: () => refused
          })
        )
      )
    ),
    hooks: [serverFileSyncHook],
    events: options.events ?? []
  })
