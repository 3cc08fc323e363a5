/** The handlers behind `PlatformApi`; the host has already checked each endpoint's access. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { ADMIN, BadGateway, cursorBadRequest, decodeCursor, effectiveLimit, BadRequest, Conflict, CurrentPrincipal, GatewayTimeout, notFoundWith, principalCan, storeDefect, Unavailable, type SteamCmdError } from "@garrison/runtime"
import { CredentialsResult, PlatformApi, PlatformStatus, WORKSHOP_PAGE } from "./contract/Api.js"
import type { WorkshopItemNotFound, WorkshopUnavailable } from "./errors.js"
import { PlatformSettings, resolveExecutable } from "./PlatformSettings.js"
import { Workshop, workshopCursor } from "./Workshop.js"

/** What a failed SteamCMD login means for the caller. */
export const steamCmdHttpError = (error: SteamCmdError): Effect.Effect<never, BadRequest | Conflict | Unavailable | GatewayTimeout> => {
  switch (error.reason) {
    case "bad-credentials":
    case "invalid-job":
      return Effect.fail(new BadRequest({ message: error.message }))
    case "guard-code-needed":
      return Effect.fail(new Conflict({ message: error.message, details: { needs: "guardCode" } }))
    case "timeout":
      return Effect.fail(new GatewayTimeout({ message: `SteamCMD timed out: ${error.message}` }))
    default:
      return Effect.fail(new Unavailable({ message: error.message }))
  }
}

/**
 * A Web API that cannot be reached (or does not answer in time) is a passing
 * state: 503 with Retry-After. One that answers wrongly (refuses the key, a
 * shape that is not Steam's) is 502: trying again will not help.
 */
export const workshopHttpError = (error: WorkshopUnavailable): Effect.Effect<never, BadGateway | Unavailable> =>
  Effect.fail(
    error.reason === "unreachable" || error.reason === "timeout" ? new Unavailable({ message: error.message }) : new BadGateway({ message: error.message })
  )

/** The page a cursor names (1 without one); 400 for a cursor this list did not issue. */
const pageNumber = (cursor: string | undefined) =>
  decodeCursor(workshopCursor, cursor).pipe(
    Effect.map((page) => page ?? 1),
    Effect.catchTag("InvalidCursor", cursorBadRequest)
  )

const notFound = notFoundWith((error: WorkshopItemNotFound) => `no workshop item ${error.workshopId} (unknown to Steam, or removed)`)

export const PlatformRoutes = HttpApiBuilder.group(PlatformApi, "platform", (handlers) =>
  Effect.gen(function* () {
    const settings = yield* PlatformSettings
    const workshop = yield* Workshop

    const status = Effect.gen(function* () {
      const current = yield* settings.current
      const caller = yield* CurrentPrincipal
      const resolved = yield* Effect.sync(() => resolveExecutable(current.steamcmdPath))
      const account = Option.getOrNull(current.account)
      return new PlatformStatus({
        steamcmd: { path: current.steamcmdPath, source: current.steamcmdSource, available: resolved !== null, resolved },
        webApi: { url: current.webApiUrl, source: current.webApiSource, keySet: Option.isSome(current.webApiKey) },
        credentials: {
          configured: account !== null,
          username: account !== null && principalCan(caller, ADMIN) ? account.username : null,
          validatedAt: account?.validatedAt ?? null,
          savedAt: account?.savedAt || null
        },
        workshopCache: { entries: yield* workshop.cacheSize, ttlSeconds: Math.round(Duration.toSeconds(workshop.ttl)) }
      })
    })

    const result = (account: { username: string; validatedAt: string | null; savedAt: string }) =>
      new CredentialsResult({ username: account.username, validated: account.validatedAt !== null, validatedAt: account.validatedAt, savedAt: account.savedAt })

    return handlers
      .handle("status", () => status)
      .handle("credentials", ({ payload }) =>
        Effect.gen(function* () {
          yield* settings.checkLogin(payload.username, payload.password, payload.guardCode).pipe(Effect.catchAll(steamCmdHttpError))
          const at = new Date(yield* Clock.currentTimeMillis).toISOString()
          return result(yield* settings.saveCredentials(payload.username, payload.password, at).pipe(Effect.catchAll(storeDefect)))
        })
      )
      .handle("saveCredentials", ({ payload }) =>
        Effect.map(settings.saveCredentials(payload.username, payload.password, null).pipe(Effect.catchAll(storeDefect)), result)
      )
      .handle("removeCredentials", () => Effect.asVoid(settings.removeCredentials.pipe(Effect.catchAll(storeDefect))))
      .handle("settings", ({ payload }) =>
        Effect.gen(function* () {
          yield* settings.patch(payload).pipe(Effect.catchAll(storeDefect))
          // Answers from another Web API (or under another key) are not this one's.
          if (payload.webApiUrl !== undefined || payload.webApiKey !== undefined) yield* workshop.forget
          return yield* status
        })
      )
  })
)

export const WorkshopRoutes = HttpApiBuilder.group(PlatformApi, "workshop", (handlers) =>
  Effect.gen(function* () {
    const workshop = yield* Workshop
    return handlers
      .handle("search", ({ urlParams }) =>
        Effect.flatMap(pageNumber(urlParams.cursor), (page) =>
          workshop.search(urlParams.q, page, effectiveLimit(urlParams.limit, WORKSHOP_PAGE)).pipe(Effect.catchAll(workshopHttpError))
        )
      )
      .handle("popular", ({ urlParams }) =>
        Effect.flatMap(pageNumber(urlParams.cursor), (page) =>
          workshop.popular(page, effectiveLimit(urlParams.limit, WORKSHOP_PAGE)).pipe(Effect.catchAll(workshopHttpError))
        )
      )
      .handle("details", ({ path }) =>
        workshop.details(path.id).pipe(
          Effect.catchTags({
            WorkshopItemNotFound: notFound,
            WorkshopUnavailable: workshopHttpError
          })
        )
      )
  })
)
