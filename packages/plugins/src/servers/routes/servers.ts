/** The handlers of the Servers table. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import {
  type ActorError,
  actorErrorToHttp,
  auditActorOf,
  AuditTrail,
  CurrentPrincipal,
  EventBus,
  invalidCursor,
  recordForRequest,
  ServerDeleted,
  type ServerEntry,
  Supervisor,
  visibleServers,
  hostFolders
} from "@garrison/runtime"
import { randomUUID } from "node:crypto"
import * as NodePath from "node:path"
import { ServersApi } from "../contract/Api.js"
import { SERVER_PAGE } from "../contract/fields.js"
import { entryFromCreate, entryFromUpdate, invalidToBadRequest, launchFieldsOfCreate, launchFieldsOfUpdate } from "../internal/entryInput.js"
import { type DestinationInput, type LaunchFields, requireAdminForHostFields } from "../internal/hostFields.js"
import { reservedFolderProblem } from "../internal/installFolder.js"
import { InstallDirReserved } from "../errors.js"
import { httpStatusOf, installDirInUse, installDirReserved, portsInUse, storeDefect } from "../internal/httpErrors.js"
import { type ListedEntry, makeServerListBody, serverCursor } from "../internal/listBody.js"
import { serverView, statusView } from "../internal/view.js"
import { ServerEntries, type UnreadableEntry } from "../ServerEntries.js"
import { type ServerHandle, Servers } from "../Servers.js"
import { detect } from "./detect.js"

type Action = (server: ServerHandle) => Effect.Effect<void, ActorError>

const actions: Record<"start" | "stop" | "restart", Action> = {
  start: (server) => server.actor.start,
  stop: (server) => server.actor.stop,
  restart: (server) => server.actor.restart("manual")
}

/** The status a route answers after acting on a server. */
const currentStatus = (server: ServerHandle) =>
  Effect.gen(function* () {
    return statusView(yield* server.entry, yield* server.state, yield* Clock.currentTimeMillis)
  })

export const ServersRoutes = HttpApiBuilder.group(ServersApi, "servers", (handlers) =>
  Effect.gen(function* () {
    const entries = yield* ServerEntries
    const supervisor = yield* Supervisor
    const servers = yield* Servers
    const bus = yield* EventBus
    const folders = yield* hostFolders
    const audit = yield* AuditTrail
    const listBody = makeServerListBody()
    // Callers who see only some servers (per-server roles) get a body of their own: the shared one stays cached for the rest.
    const scopedListBody = makeServerListBody()
    // One array per (entries, unreadable) pair, so the list body's cache still sees "unchanged" by identity.
    let combined: { readonly stored: unknown; readonly unreadable: unknown; readonly listed: ReadonlyArray<ListedEntry> } | undefined
    const withUnreadable = (stored: ReadonlyArray<ServerEntry>, unreadable: ReadonlyArray<UnreadableEntry>): ReadonlyArray<ListedEntry> => {
      if (unreadable.length === 0) return stored
      if (combined?.stored !== stored || combined.unreadable !== unreadable) combined = { stored, unreadable, listed: [...stored, ...unreadable] }
      return combined.listed
    }
    const runAction = (id: string, action: Action) =>
      servers.get(id).pipe(
        Effect.flatMap((server) => action(server).pipe(Effect.mapError(actorErrorToHttp), Effect.zipRight(currentStatus(server))))
      )

    /**
     * The checks before an entry is made or changed, in this order so a
     * refused caller learns nothing about the folders it names: host-level
     * fields are admin's (403, audited as denied), then a new install folder
     * may not be a system folder or one of Garrison's own (400). Answers the caller.
     */
    const admit = (
      before: ServerEntry | undefined,
      fields: LaunchFields,
      sent: DestinationInput,
      audited: { readonly action: string; readonly target: string | null; readonly name: string }
    ) =>
      Effect.gen(function* () {
        const caller = yield* CurrentPrincipal
        yield* requireAdminForHostFields(caller, before, fields, sent, folders.serversRoot).pipe(
          Effect.tapError((refused) =>
            recordForRequest(audit, { actor: caller.id, ...audited, result: "denied", details: { name: audited.name, ...(refused.details as object) } })
          )
        )
        if (NodePath.isAbsolute(fields.installDir) && before?.installDir !== fields.installDir) {
          const reason = reservedFolderProblem(fields.installDir, folders)
          if (reason !== undefined) return yield* Effect.fail(installDirReserved(new InstallDirReserved({ installDir: fields.installDir, reason })))
        }
        return caller
      })

    const viewOf = (id: string) =>
      Effect.gen(function* () {
        const server = yield* servers.get(id)
        return serverView(yield* server.entry, yield* server.state, yield* Clock.currentTimeMillis)
      })

    return handlers
      // Raw: the body comes from a cache of encoded rows (see makeServerListBody); encoding
      // 1,000 rows through the success schema on every poll would cost more than the rest.
      .handleRaw("list", ({ urlParams }) =>
        Effect.gen(function* () {
          const after = urlParams.cursor === undefined ? Option.none() : serverCursor.decode(urlParams.cursor)
          if (Option.isNone(after) && urlParams.cursor !== undefined) return yield* invalidCursor()
          const page = { after: Option.getOrUndefined(after), limit: urlParams.limit ?? SERVER_PAGE.defaultLimit }
          const stored = yield* entries.list.pipe(Effect.catchTag("ServerStoreError", storeDefect))
          const listed = withUnreadable(stored, yield* entries.unreadable)
          const now = yield* Clock.currentTimeMillis
          // Only servers with an actor have live state; listing must not create actors.
          const actors = yield* supervisor.all
          const states = yield* Effect.forEach(actors, (actor) => actor.state)
          const visible = visibleServers(yield* CurrentPrincipal)
          const body =
            visible === "all"
              ? listBody.render(listed, states, now, page)
              : scopedListBody.render(listed.filter((entry) => visible.has(entry.id)), states, now, page)
          return HttpServerResponse.uint8Array(body, { contentType: "application/json" })
        })
      )
      .handle("create", ({ payload }) =>
        Effect.gen(function* () {
          yield* admit(undefined, launchFieldsOfCreate(payload), payload, { action: "server.create", target: null, name: payload.name })
          const entry = yield* entryFromCreate(randomUUID(), payload).pipe(Effect.mapError(invalidToBadRequest))
          // No game port given: the first free slot (2302, 2402, ...), as people lay out servers on one host.
          const stored = yield* servers.create(entry, { freeGamePort: payload.gamePort === undefined }).pipe(
            Effect.catchTags({
              InstallDirInUse: (e) => Effect.fail(installDirInUse(e)),
              InstallDirReserved: (e) => Effect.fail(installDirReserved(e)),
              PortsInUse: (e) => Effect.fail(portsInUse(e))
            })
          )
          return yield* viewOf(stored.id)
        })
      )
      .handle("detect", ({ payload }) =>
        Effect.gen(function* () {
          // Reading a folder is choosing it: the same rule as a create's installDir.
          yield* requireAdminForHostFields(
            yield* CurrentPrincipal,
            undefined,
            launchFieldsOfCreate({ name: "detect", installDir: payload.installDir }),
            {},
            folders.serversRoot
          )
          const stored = yield* entries.list.pipe(Effect.catchTag("ServerStoreError", storeDefect))
          return yield* detect(payload.installDir, stored, folders)
        })
      )
      .handle("get", ({ path }) => viewOf(path.id))
      .handle("update", ({ path, payload }) =>
        Effect.gen(function* () {
          const caller = yield* CurrentPrincipal
          // The gateway stores it, hands it to the actor (which launches it at the next start) and audits the fields changed.
          const next = yield* servers
            .update(
              path.id,
              (existing) =>
                Effect.zipRight(
                  admit(existing, launchFieldsOfUpdate(existing, payload), payload, { action: "server.update", target: existing.id, name: existing.name }),
                  entryFromUpdate(existing, payload).pipe(Effect.mapError(invalidToBadRequest))
                ),
              { actor: auditActorOf(caller) }
            )
            .pipe(
              Effect.catchTags({
                InstallDirInUse: (e) => Effect.fail(installDirInUse(e)),
                InstallDirReserved: (e) => Effect.fail(installDirReserved(e)),
                PortsInUse: (e) => Effect.fail(portsInUse(e))
              })
            )
          return yield* viewOf(next.id)
        })
      )
      .handle("remove", ({ path }) =>
        Effect.gen(function* () {
          // A row that cannot be read has no actor and can only be deleted: that is how it leaves the list.
          const unreadable = (yield* entries.unreadable).find((row) => row.id === path.id)
          const entry = unreadable ?? (yield* entries.get(path.id).pipe(Effect.catchTag("ServerStoreError", storeDefect)))
          // The actor refuses to retire while its server runs: that is the 409.
          yield* supervisor.remove(path.id).pipe(Effect.mapError(actorErrorToHttp))
          // Once the row is gone the event must follow, even if the client hangs up in between:
          // other plugins (scheduler, logs) clean up what they keep for the server on it.
          // Only the request that deleted the row publishes (a racing one gets 404), so it is published once.
          yield* Effect.uninterruptible(
            entries.remove(path.id).pipe(
              Effect.catchTag("ServerStoreError", storeDefect),
              Effect.zipRight(bus.publish(new ServerDeleted({ serverId: path.id, name: entry.name })))
            )
          )
          // A request that raced the delete may have re-created a (stopped) actor from the row: drop it too.
          yield* supervisor.remove(path.id).pipe(Effect.ignore)
          return { deleted: path.id }
        })
      )
      .handle("batch", ({ payload }) =>
        Effect.forEach(
          payload.ids,
          (id) =>
            servers.get(id).pipe(
              Effect.flatMap((server) => actions[payload.action](server).pipe(Effect.mapError(actorErrorToHttp))),
              Effect.match({
                onSuccess: () => ({ id, ok: true, status: 200 }),
                onFailure: (error) => ({ id, ok: false, ...httpStatusOf(error), message: error.message })
              })
            ),
          // Each actor serialises its own commands; a few servers start side by side.
          { concurrency: 8 }
        ).pipe(Effect.map((results) => ({ results })))
      )
      .handle("status", ({ path }) => servers.get(path.id).pipe(Effect.flatMap(currentStatus)))
      .handle("start", ({ path }) => runAction(path.id, actions.start))
      .handle("stop", ({ path }) => runAction(path.id, actions.stop))
      .handle("restart", ({ path }) => runAction(path.id, actions.restart))
      .handle("lock", ({ path }) => runAction(path.id, (server) => server.control.lock))
      .handle("unlock", ({ path }) => runAction(path.id, (server) => server.control.unlock))
  })
)
