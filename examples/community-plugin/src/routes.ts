/**
 * The handlers behind `MotdApi`. Access is already enforced by the host
 * before any of these run; they only translate between HTTP and `Motd`.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { CurrentPrincipal, NotFound } from "@garrison/runtime"
import { MotdApi } from "./contract/Api.js"
import { Motd } from "./service.js"

export const MotdRoutes = HttpApiBuilder.group(MotdApi, "motd", (handlers) =>
  Effect.gen(function* () {
    const motd = yield* Motd
    // A storage failure is a real fault: let it become a 500 with a request id.
    return handlers
      .handle("list", () => Effect.orDie(motd.list))
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
