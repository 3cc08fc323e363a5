/**
 * The handlers behind `MotdApi`. Access is already enforced by the host
 * before any of these run; they only translate between HTTP and `Motd`.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { CurrentPrincipal, cursorBadRequest, notFoundWith, storeDefect } from "@garrison/runtime"
import { MOTD_PAGE, MotdApi } from "./contract/Api.js"
import { Motd, motdPaging, type MotdNotFound } from "./service.js"

const notFound = notFoundWith((error: MotdNotFound) => `no message with id "${error.id}"`)

export const MotdRoutes = HttpApiBuilder.group(MotdApi, "motd", (handlers) =>
  Effect.gen(function* () {
    const motd = yield* Motd
    // A storage failure is a real fault: storeDefect makes it a 500 with a request id.
    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.gen(function* () {
          const after = yield* motdPaging.decode(urlParams.cursor)
          const limit = urlParams.limit ?? MOTD_PAGE.defaultLimit
          // One more than asked says whether another page follows.
          const rows = yield* motd.listAfter(after, limit + 1)
          return motdPaging.page(rows, limit)
        }).pipe(Effect.catchTags({ InvalidCursor: cursorBadRequest, MotdStorageError: storeDefect }))
      )
      .handle("stats", () => motd.stats.pipe(Effect.catchTag("MotdStorageError", storeDefect)))
      .handle("post", ({ payload }) =>
        Effect.gen(function* () {
          // Always present here: the endpoint requires a permission, so the host authenticated the caller.
          const principal = yield* CurrentPrincipal
          return yield* motd.post({ text: payload.text, author: principal.name })
        }).pipe(Effect.catchTag("MotdStorageError", storeDefect))
      )
      .handle("remove", ({ path }) =>
        motd.remove(path.id).pipe(Effect.catchTags({ MotdNotFound: notFound, MotdStorageError: storeDefect }))
      )
  })
)
