/** The handlers behind `ModsApi`; the host has already checked each endpoint's permission on the server. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import {
  auditActorOf,
  type BadRequest,
  canSeeServer,
  type Conflict,
  conflictWith,
  CurrentPrincipal,
  fieldBadRequest,
  type NotFound,
  notFoundWith,
  type Principal,
  serverSentEvents,
  Forbidden,
  principalCan,
  storeDefect
} from "@garrison/runtime"
import { workshopHttpError } from "../platform/index.js"
import { CacheCleaned, CacheStats, type ModJob, ModJobs, MODS_VIEW, ModsApi, UpdateStarted } from "./contract/Api.js"
import type { InvalidModRequest, ModConflict, ModNotFound, ModStoreError } from "./errors.js"
import { Mods } from "./Mods.js"

const encodeJobs = Schema.encodeSync(ModJobs)

const notFound = notFoundWith((error: ModNotFound) => `server ${error.serverId} has no mod "${error.mod}"`)
const conflict = conflictWith((error: ModConflict) => error.message)
type ModError = ModNotFound | ModConflict | InvalidModRequest | ModStoreError
const MOD_ERRORS: ReadonlySet<string> = new Set(["ModNotFound", "ModConflict", "InvalidModRequest", "ModStoreError"])
const isModError = (error: unknown): error is ModError =>
  typeof error === "object" && error !== null && MOD_ERRORS.has((error as { readonly _tag?: string })._tag ?? "")
const toHttp = (error: ModError): Effect.Effect<never, NotFound | Conflict | BadRequest> => {
  switch (error._tag) {
    case "ModNotFound":
      return notFound(error)
    case "ModConflict":
      return conflict(error)
    case "InvalidModRequest":
      return fieldBadRequest(error)
    case "ModStoreError":
      return storeDefect(error)
  }
}
/** The plugin's own errors as HTTP errors; the server lookups' (404, 409) pass as they are. */
const answered = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, Exclude<E, ModError> | NotFound | Conflict | BadRequest, R> =>
  Effect.catchAll(effect, (error): Effect.Effect<never, Exclude<E, ModError> | NotFound | Conflict | BadRequest> =>
    isModError(error) ? toHttp(error) : Effect.fail(error as Exclude<E, ModError>)
  )

/**
 * The jobs of `items` on servers the caller sees and holds `mods.view` on
 * (everywhere, or scoped to that server); 403 when they hold it nowhere.
 */
const visibleJobs = (caller: Principal) =>
  principalCan(caller, MODS_VIEW) || (caller.scoped?.get(MODS_VIEW)?.size ?? 0) > 0
    ? Effect.succeed((items: ReadonlyArray<ModJob>): ReadonlyArray<ModJob> =>
        items.filter((job) => canSeeServer(caller, job.serverId) && principalCan(caller, MODS_VIEW, job.serverId))
      )
    : Effect.fail(new Forbidden({ message: `${MODS_VIEW} is required on at least one server`, details: { permission: MODS_VIEW } }))

export const ModsRoutes = HttpApiBuilder.group(ModsApi, "mods", (handlers) =>
  Effect.gen(function* () {
    const mods = yield* Mods
    const caller = Effect.map(CurrentPrincipal, auditActorOf)
    return handlers
      .handle("list", ({ path }) => mods.list(path.id).pipe(Effect.catchTag("ModStoreError", storeDefect)))
      .handle("install", ({ path, payload }) =>
        Effect.flatMap(caller, (by) => mods.install(path.id, payload, by)).pipe(
          Effect.catchTags({ ModConflict: conflict, InvalidModRequest: fieldBadRequest, ModStoreError: storeDefect })
        )
      )
      .handle("uninstall", ({ path }) =>
        Effect.flatMap(caller, (by) => mods.uninstall(path.id, path.workshopId, by)).pipe(Effect.asVoid, answered)
      )
      .handle("update", ({ path, payload }) => mods.patch(path.id, path.workshopId, payload).pipe(answered))
      .handle("setType", ({ path, payload }) => mods.setType(path.id, path.modName, payload.type).pipe(answered))
      .handle("reorder", ({ path, payload }) => mods.reorder(path.id, payload.order).pipe(answered))
      .handle("checkUpdates", ({ path }) =>
        mods.checkUpdates(path.id).pipe(Effect.catchTags({ ModStoreError: storeDefect, WorkshopUnavailable: workshopHttpError }))
      )
      .handle("updateOne", ({ path }) => Effect.flatMap(caller, (by) => mods.update(path.id, path.workshopId, by)).pipe(answered))
      .handle("updateAll", ({ path }) =>
        Effect.flatMap(caller, (by) => mods.updateAll(path.id, by)).pipe(
          Effect.map((jobs) => new UpdateStarted({ jobs })),
          Effect.catchTags({ ModConflict: conflict, ModStoreError: storeDefect })
        )
      )
      .handle("pending", ({ path }) =>
        mods.list(path.id).pipe(
          Effect.map((list) => ({ ...list, items: list.items.filter((m) => m.pendingUpdate !== null) })),
          Effect.catchTag("ModStoreError", storeDefect)
        )
      )
      .handle("clearPending", ({ path }) => mods.clearPending(path.id, path.workshopId).pipe(answered))
  })
)

export const ModJobsRoutes = HttpApiBuilder.group(ModsApi, "modJobs", (handlers) =>
  Effect.gen(function* () {
    const mods = yield* Mods
    return handlers
      // Jobs of the servers the caller may see only (a role scoped to some servers sees theirs).
      .handle("installStatus", () =>
        Effect.gen(function* () {
          const visible = yield* visibleJobs(yield* CurrentPrincipal)
          return new ModJobs({ items: visible(yield* mods.jobs), nextCursor: null })
        })
      )
      .handle("installEvents", () =>
        Effect.gen(function* () {
          const visible = yield* visibleJobs(yield* CurrentPrincipal)
          return serverSentEvents(mods.followJobs, "jobs", (items) => encodeJobs(new ModJobs({ items: visible(items), nextCursor: null })))
        })
      )
      .handle("cacheStats", () => mods.cacheStats.pipe(Effect.map((s) => new CacheStats(s)), Effect.catchTag("ModStoreError", storeDefect)))
      .handle("cacheClean", () =>
        mods.cacheClean.pipe(Effect.map((c) => new CacheCleaned(c)), Effect.catchTags({ ModStoreError: storeDefect, ModConflict: conflict }))
      )
  })
)
