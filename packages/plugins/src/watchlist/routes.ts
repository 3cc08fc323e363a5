/** The handlers behind `WatchlistApi`. Store faults are real faults: 500 with a request id. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { AuditTrail, auditActorFields, auditActorOf, canSeeServer, conflictWith, CurrentPrincipal, fieldBadRequest, notFoundWith, recordForRequest, storeDefect } from "@garrison/runtime"
import { playerKeyOf } from "../gamelog/index.js"
import { WatchlistApi } from "./contract/Api.js"
import type { WatchlistEntryExists, WatchlistEntryNotFound } from "./errors.js"
import { Watchlist } from "./Watchlist.js"

const exists = conflictWith(
  (error: WatchlistEntryExists) => `player ${error.playerId} is already on the watchlist`,
  (error) => ({ id: error.id })
)
const notFound = notFoundWith((error: WatchlistEntryNotFound) => `no watchlist entry with id "${error.id}"`)

export const WatchlistRoutes = HttpApiBuilder.group(WatchlistApi, "watchlist", (handlers) =>
  Effect.gen(function* () {
    const watchlist = yield* Watchlist
    const audit = yield* AuditTrail
    return handlers
      .handle("list", () =>
        Effect.gen(function* () {
          const caller = yield* CurrentPrincipal
          return { items: yield* watchlist.list((serverId) => canSeeServer(caller, serverId)) }
        }).pipe(Effect.catchTags({ WatchlistStoreError: storeDefect }))
      )
      .handle("add", ({ payload }) =>
        Effect.gen(function* () {
          const key = playerKeyOf(payload.player)
          if (Either.isLeft(key)) return yield* fieldBadRequest({ field: "player", message: `player: ${key.left}` })
          const caller = yield* CurrentPrincipal
          const entry = yield* watchlist.add({ playerId: key.right.playerId, steam64: key.right.steam64, identifier: payload.player, note: payload.note }, caller)
          yield* recordForRequest(audit, { ...auditActorFields(auditActorOf(caller)), action: "watchlist.add", target: entry.id, result: "success", details: { playerId: entry.playerId } })
          return entry
        }).pipe(Effect.catchTags({ WatchlistEntryExists: exists, WatchlistStoreError: storeDefect }))
      )
      .handle("remove", ({ path }) =>
        Effect.gen(function* () {
          const caller = yield* CurrentPrincipal
          const entry = yield* watchlist.remove(path.id)
          yield* recordForRequest(audit, { ...auditActorFields(auditActorOf(caller)), action: "watchlist.remove", target: entry.id, result: "success", details: { playerId: entry.playerId } })
        }).pipe(Effect.catchTags({ WatchlistEntryNotFound: notFound, WatchlistStoreError: storeDefect }))
      )
  })
)
