/** Finding an entry's actor for a request, without going through its (maybe busy) mailbox. */
import { Conflict, NotFound, Supervisor, type ServerActor } from "@garrison/runtime"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { ServerEntries } from "../ServerEntries.js"
import { actorErrorToHttp, notFound, storeDefect } from "./httpErrors.js"
import { statusView } from "./view.js"

/** The actor of a stored entry (created on first use); 404 for unknown ids. */
export const actorOf = (serverId: string): Effect.Effect<ServerActor.ServerActor, NotFound | ReturnType<typeof actorErrorToHttp>, Supervisor | ServerEntries> =>
  Effect.gen(function* () {
    const supervisor = yield* Supervisor
    const existing = yield* supervisor.get(serverId)
    if (Option.isSome(existing)) return existing.value
    const entries = yield* ServerEntries
    const entry = yield* entries.get(serverId).pipe(
      Effect.catchTags({
        // A stored row that cannot be read exists, but nothing can run it: say so instead of "no server".
        ServerNotFound: (e) =>
          Effect.flatMap(entries.unreadable, (rows): Effect.Effect<never, NotFound | Conflict> => {
            const row = rows.find((r) => r.id === serverId)
            return row === undefined
              ? Effect.fail(notFound(e))
              : Effect.fail(
                  new Conflict({
                    message: `server "${row.name}" (${row.id}) cannot be read (${row.reason}); delete it, or restore a servers backup`,
                    details: { reason: "invalid-entry" }
                  })
                )
          }),
        ServerStoreError: storeDefect
      })
    )
    return yield* supervisor.ensure(entry).pipe(Effect.mapError(actorErrorToHttp))
  })

export const currentStatus = (actor: ServerActor.ServerActor) =>
  Effect.gen(function* () {
    const entry = yield* actor.entry
    const state = yield* actor.state
    return statusView(entry, state, yield* Clock.currentTimeMillis)
  })
