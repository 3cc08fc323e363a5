/** The handlers behind `AuditApi`; the host has already checked `admin`. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { BadRequest, cursorBadRequest, jsonPageResponse, storeDefect } from "@garrison/runtime"
import { AuditLog } from "./AuditLog.js"
import { AuditApi } from "./contract/Api.js"

export const AuditRoutes = HttpApiBuilder.group(AuditApi, "audit", (handlers) =>
  Effect.gen(function* () {
    const log = yield* AuditLog
    // A store failure is a real fault: it becomes a 500 with a request id.
    return handlers
      // The list answers the database's own JSON (rows are trusted on the way out: see JsonRows).
      .handle("list", ({ urlParams }) =>
        urlParams.from !== undefined && urlParams.to !== undefined && urlParams.from > urlParams.to
          ? Effect.fail(new BadRequest({ message: "from must not be after to", details: [{ path: "from", message: "after to" }] }))
          : log.queryJson(urlParams).pipe(
              Effect.map((page) => jsonPageResponse(page)),
              Effect.catchTags({
                InvalidCursor: cursorBadRequest,
                AuditStoreError: storeDefect
              })
            )
      )
      .handle("verify", () => log.verify.pipe(Effect.catchTag("AuditStoreError", storeDefect)))
  })
)
