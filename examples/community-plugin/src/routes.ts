/**
 * The handlers behind `MotdApi`. Access is already enforced by the host
 * before any of these run; they only translate between HTTP and `Motd`.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { cursorCodec, CurrentPrincipal, invalidCursor, NotFound, pageOfRows } from "@garrison/runtime"
import { MOTD_PAGE, MotdApi } from "./contract/Api.js"
import { Motd } from "./service.js"

/** The list's cursors: the position of a page's last message (the runtime encodes and checks them). */
const motdCursor = cursorCodec("motd", Schema.Struct({ postedAt: Schema.String, id: Schema.String }))

export const MotdRoutes = HttpApiBuilder.group(MotdApi, "motd", (handlers) =>
  Effect.gen(function* () {
    const motd = yield* Motd
    // A storage failure is a real fault: let it become a 500 with a request id.
    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.gen(function* () {
          const after = urlParams.cursor === undefined ? undefined : motdCursor.decode(urlParams.cursor)
          if (after !== undefined && Option.isNone(after)) return yield* invalidCursor()
          const limit = urlParams.limit ?? MOTD_PAGE.defaultLimit
          // One more than asked says whether another page follows.
          const rows = yield* Effect.orDie(motd.listAfter(after === undefined ? undefined : after.value, limit + 1))
          return pageOfRows(rows, limit, (last) => motdCursor.encode({ postedAt: last.postedAt, id: last.id }))
        })
      )
      .handle("stats", () => Effect.orDie(motd.stats))
      .handle("post", ({ payload }) =>
        Effect.gen(function* () {
          // Always present here: the endpoint requires a permission, so the host authenticated the caller.
          const principal = yield* CurrentPrincipal
          return yield* Effect.orDie(motd.post({ text: payload.text, author: principal.name }))
        })
      )
      .handle("remove", ({ path }) =>
        motd.remove(path.id).pipe(
          Effect.catchTags({
            MotdNotFound: (error) => Effect.fail(new NotFound({ message: `no message with id "${error.id}"` })),
            MotdStorageError: Effect.die
          })
        )
      )
  })
)
