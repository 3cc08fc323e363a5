/** Finding an entry's actor for a request, without going through its (maybe busy) mailbox. */
import { NotFound, Supervisor, type ServerActor } from "@garrison/runtime"
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
    const entry = yield* Effect.flatMap(ServerEntries, (entries) => entries.get(serverId)).pipe(
      Effect.catchTags({ ServerNotFound: (e) => Effect.fail(notFound(e)), ServerStoreError: storeDefect })
    )
    return yield* supervisor.ensure(entry).pipe(Effect.mapError(actorErrorToHttp))
  })

export const currentStatus = (actor: ServerActor.ServerActor) =>
  Effect.gen(function* () {
    const entry = yield* actor.entry
    const state = yield* actor.state
    return statusView(entry, state, yield* Clock.currentTimeMillis)
  })
