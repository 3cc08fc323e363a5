/** `/api/setup/*`: public; the first admin only while no user exists. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { AccountsApi } from "../contract/Api.js"
import { Setup } from "../setup/Setup.js"
import { requestFacts } from "./context.js"
import { asHttp } from "./httpErrors.js"

export const SetupRoutes = HttpApiBuilder.group(AccountsApi, "setup", (handlers) =>
  Effect.gen(function* () {
    const setup = yield* Setup
    return handlers
      .handle("status", () => asHttp(Effect.map(setup.isOpen, (open) => ({ open }))))
      .handle("admin", ({ payload, request }) =>
        Effect.flatMap(requestFacts(request), ({ ip }) => asHttp(setup.createFirstAdmin(payload, ip)))
      )
  })
)
