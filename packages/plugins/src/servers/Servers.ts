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
 *
 * Entries change only here (`create`, `update`): the change is stored, the
 * actor takes it for the next start, and `update` leaves an audit row
 * `server.update` naming the fields that changed (never their values).
 * Plugins never reach `ServerEntries` or the `Supervisor` themselves.
 *
 * The busy rule for a server's files is the runtime's (`filesBusy`):
 * `busy(id)` says why they may not change now, for a message before any
 * work begins; `whileIdle(id, what, work)` runs the work under a files hold
 * the actor grants only while the server is stopped and free, and during
 * which it refuses to start. Long work that the actor runs as an operation
 * (an update, a restore, a wipe) gets the same rule from the actor.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Stream from "effect/Stream"
import type * as Scope from "effect/Scope"
import {
  type ActorError,
  type AuditActor,
  auditActorFields,
  AuditTrail,
  filesBusy,
  type OperationKind,
  RconGameControl,
  recordForRequest,
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
import type { InstallDirInUse, InstallDirReserved, PortsInUse } from "./errors.js"
import { changedFields } from "./internal/entryChanges.js"
import { registerServerGauges } from "./internal/gauges.js"
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

/** Why an entry change was refused: another entry's folder or ports, or a folder Garrison or the host keeps. */
export type EntryConflict = InstallDirInUse | InstallDirReserved | PortsInUse

/**
 * Who changes an entry, for its audit row: a principal (its id and name:
 * the row's `actor` and `actorName`), or null for the controller itself (a
 * deploy finishing, the launch lists following the mods), whose rows have
 * no actor.
 */
export interface EntryChangeBy {
  readonly actor: AuditActor | null
  /** Why, when it is not a request to change the entry itself (`"mods"`: the installed mods changed). */
  readonly reason?: string
}

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
  /** Why the server's files may not change now ("it is running", "its restore is under way"), or undefined when they may. */
  readonly busy: (serverId: string) => Effect.Effect<string | undefined, ServerLookupError>
  /**
   * Runs `work` while the server's files are held for `what` ("mod
   * install"): refused with the actor's `busy`/`already-running` error
   * (its message says why) while the server runs or other work holds it;
   * meanwhile starts and operations are refused. `within`: the caller is
   * that operation's own work (a rollout installing its mods).
   */
  readonly whileIdle: <A, E, R>(
    serverId: string,
    what: string,
    work: (handle: ServerHandle) => Effect.Effect<A, E, R>,
    options?: { readonly within?: OperationKind }
  ) => Effect.Effect<A, E | ActorError | ServerLookupError, Exclude<R, Scope.Scope>>
  /** Stores a new entry and makes its actor; with `freeGamePort`, a taken game port moves up to a free slot. */
  readonly create: (entry: ServerEntry, options?: { readonly freeGamePort?: boolean }) => Effect.Effect<ServerEntry, EntryConflict>
  /**
   * Changes the stored entry: `change` gets it as stored now and answers the
   * next one (none: nothing to change). The change is stored, the actor
   * takes it (it applies at the next start), and an audit row lists the
   * fields that changed. Answers the entry as stored after.
   */
  readonly update: <E, R>(
    serverId: string,
    change: (current: ServerEntry) => Effect.Effect<ServerEntry | undefined, E, R>,
    by: EntryChangeBy
  ) => Effect.Effect<ServerEntry, E | ServerLookupError | EntryConflict, R>
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
    const audit = yield* AuditTrail
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

    // The actor takes the stored entry; it fails only when the entry was just deleted (the actor retired).
    const refresh = (stored: ServerEntry) => supervisor.ensure(stored).pipe(Effect.mapError(() => ServerNotFound.of(stored.id)))

    const create: ServersShape["create"] = (newEntry, options) =>
      Effect.gen(function* () {
        const stored = yield* store.insert(newEntry, options).pipe(Effect.catchTag("ServerStoreError", storeDefect))
        // A delete racing the create is the only way to fail here; the entry then is gone, as its caller will see.
        yield* Effect.ignore(refresh(stored))
        return stored
      })

    const update: ServersShape["update"] = (serverId, change, by) =>
      Effect.gen(function* () {
        const current = yield* entry(serverId)
        const next = yield* change(current)
        if (next === undefined) return current
        yield* store.update(next).pipe(Effect.catchTag("ServerStoreError", storeDefect))
        yield* recordForRequest(audit, {
          ...auditActorFields(by.actor),
          action: "server.update",
          target: next.id,
          result: "success",
          details: { name: next.name, fields: changedFields(current, next), ...(by.reason === undefined ? {} : { reason: by.reason }) }
        })
        yield* refresh(next)
        return next
      })

    const busy: ServersShape["busy"] = (serverId) =>
      Effect.gen(function* () {
        const existing = yield* supervisor.find(serverId)
        // A server without an actor has no process and no work on it: only its existence is checked.
        if (Option.isNone(existing)) return yield* Effect.as(entry(serverId), undefined)
        return filesBusy(yield* existing.value.state)
      })

    const whileIdle: ServersShape["whileIdle"] = (serverId, what, work, options) =>
      Effect.flatMap(get(serverId), (handle) =>
        Effect.scoped(Effect.zipRight(handle.actor.holdFiles(what, options?.within), work(handle)))
      )

    return Servers.of({
      get,
      entry,
      running,
      supervised,
      entries,
      installs: Effect.map(entries, oneEntryPerInstall),
      busy,
      whileIdle,
      create,
      update
    })
  })

  /** Needs the servers plugin's `ServerEntries` and the `Supervisor`; provides the `ControlProviders` registry with it. */
  // Registers the servers' gauges with `Telemetry` here, so every plugin serving `Servers` (the test stubs too) has them.
  static readonly layer = Layer.scoped(Servers, Effect.tap(Servers.make, registerServerGauges)).pipe(Layer.provideMerge(ControlProviders.layer))
}
