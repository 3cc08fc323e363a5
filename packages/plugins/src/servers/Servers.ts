/**
 * `Servers`: the one way other plugins find a server. `get(id)` gives a
 * handle (the entry, the actor, its state and changes, its `GameControl`
 * and its `ServerFiles`) or fails with the runtime's `ServerNotFound` (404, one
 * body and message everywhere) or `ServerUnreadable` (409: stored, but it
 * cannot be read). Nobody else looks actors up in the `Supervisor`.
 *
 * The actor of a stopped server is made on first use; `entry` answers
 * without making one (the scheduler checks a server exists that way), and
 * `running` lists only servers that have one with a live process.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Stream from "effect/Stream"
import {
  RconGameControl,
  type ServerActor,
  type ServerEntry,
  ServerFiles,
  ServerNotFound,
  type ServerState,
  ServerUnreadable,
  storeDefect,
  Supervisor
} from "@garrison/runtime"
import { type ControlProvider, ControlProviders } from "./ControlProviders.js"
import { type CompositeControl, composeControl } from "./internal/compositeControl.js"
import { oneEntryPerInstall, ServerEntries } from "./ServerEntries.js"

export interface ServerHandle {
  readonly id: string
  /** The entry as the actor runs it (an update applies at the next start). */
  readonly entry: Effect.Effect<ServerEntry>
  readonly state: Effect.Effect<ServerState>
  /** Every change of the state, from now on. */
  readonly changes: Stream.Stream<ServerState>
  /** The lifecycle (start, stop, restart, long operations) goes through the actor's mailbox. */
  readonly actor: ServerActor.ServerActor
  /**
   * What admins do to the running game: through the first provider set up
   * for it, available and able (the agent, when the actions plugin is
   * loaded and the entry names one), else RCON; `routeFor` says who would
   * serve a capability now.
   */
  readonly control: CompositeControl
  /**
   * The files under the server's install folder, every path confined to it.
   * Made from the entry as it is now: after a PATCH of `installDir`, get a new handle.
   */
  readonly files: ServerFiles.ServerFiles
}

export type ServerLookupError = ServerNotFound | ServerUnreadable

export interface ServersShape {
  /** The server with this id (its actor is made on first use). */
  readonly get: (serverId: string) => Effect.Effect<ServerHandle, ServerLookupError>
  /** The stored entry, without making an actor. */
  readonly entry: (serverId: string) => Effect.Effect<ServerEntry, ServerLookupError>
  /** Handles of the servers whose process runs now. */
  readonly running: Effect.Effect<ReadonlyArray<ServerHandle>>
  /** Handles of every server that has an actor now (every one with a process; stopped ones mostly have none). */
  readonly supervised: Effect.Effect<ReadonlyArray<ServerHandle>>
  /** Every readable entry, in creation order. */
  readonly entries: Effect.Effect<ReadonlyArray<ServerEntry>>
  /** One entry per install folder (the first made): for files that entries on one folder share. */
  readonly installs: Effect.Effect<ReadonlyArray<ServerEntry>>
}

const handleOf = (actor: ServerActor.ServerActor, entry: ServerEntry, providers: ReadonlyArray<ControlProvider>): ServerHandle => ({
  id: actor.serverId,
  entry: actor.entry,
  state: actor.state,
  changes: actor.changes,
  actor,
  control: composeControl(
    providers.flatMap((provider) =>
      Option.match(provider.forServer({ entry, actor }), { onNone: () => [], onSome: (provided) => [{ name: provider.name, provided }] })
    ),
    RconGameControl.make(actor)
  ),
  files: ServerFiles.local(entry.installDir)
})

export class Servers extends Context.Tag("@garrison/plugins/Servers")<Servers, ServersShape>() {
  static readonly make = Effect.gen(function* () {
    const store = yield* ServerEntries
    const supervisor = yield* Supervisor
    const controlProviders = yield* ControlProviders
    /** A handle for an actor, over the entry it runs and the providers registered now. */
    const handleFor = (actor: ServerActor.ServerActor) =>
      Effect.zipWith(actor.entry, controlProviders.all, (entry, providers) => handleOf(actor, entry, providers))

    // A store that cannot answer is a real fault (500 with a request id), not something a caller handles.
    const entries = store.list.pipe(Effect.catchTag("ServerStoreError", storeDefect))

    const entry: ServersShape["entry"] = (serverId) =>
      store.get(serverId).pipe(
        Effect.catchTags({
          // A row that cannot be read exists, but nothing can run it: say so instead of "no server".
          ServerNotFound: (notFound) =>
            Effect.flatMap(store.unreadable, (rows) => {
              const row = rows.find((r) => r.id === serverId)
              return Effect.fail(row === undefined ? notFound : ServerUnreadable.of(row))
            }),
          ServerStoreError: storeDefect
        })
      )

    const get: ServersShape["get"] = (serverId) =>
      Effect.gen(function* () {
        const existing = yield* supervisor.find(serverId)
        if (Option.isSome(existing)) return yield* handleFor(existing.value)
        const stored = yield* entry(serverId)
        // Only a racing delete makes this fail (the actor was retired): the entry is gone.
        const actor = yield* supervisor.ensure(stored).pipe(Effect.mapError(() => ServerNotFound.of(serverId)))
        return yield* handleFor(actor)
      })

    const supervised = Effect.flatMap(supervisor.all, Effect.forEach(handleFor))
    const running = Effect.gen(function* () {
      const actors = yield* supervisor.all
      const states = yield* Effect.forEach(actors, (actor) => actor.state)
      return yield* Effect.forEach(
        actors.filter((_, i) => states[i]!.status === "running"),
        handleFor
      )
    })

    return Servers.of({ get, entry, running, supervised, entries, installs: Effect.map(entries, oneEntryPerInstall) })
  })

  /** Needs the servers plugin's `ServerEntries` and the `Supervisor`; provides the `ControlProviders` registry with it. */
  static readonly layer = Layer.effect(Servers, Servers.make).pipe(Layer.provideMerge(ControlProviders.layer))
}
