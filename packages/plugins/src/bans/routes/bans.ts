/** The handlers of `/api/bans`; the host has already checked `bans.manage`. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { auditActorOf, BadRequest, CurrentPrincipal, cursorBadRequest, fieldBadRequest, jsonPageResponse, makeJsonArrayCache, storeDefect } from "@garrison/runtime"
import { BansApi } from "../contract/Api.js"
import { Bans } from "../Bans.js"
import { exists, notFound } from "./httpErrors.js"

/** `service-bans-YYYY-MM-DD.json`, the UTC date of the export. */
export const exportFileName = (now: number) => `service-bans-${new Date(now).toISOString().slice(0, 10)}.json`

/**
 * The export is kept in memory while the table is unchanged, up to this many
 * characters (about 45,000 bans); a larger one is streamed every time.
 */
export const KEPT_EXPORT_MAX_CHARS = 8 * 1024 * 1024

const isArray = (body: unknown): body is ReadonlyArray<unknown> => Array.isArray(body)

const notAnArray = () =>
  new BadRequest({
    message: "the import body must be a JSON array of bans (an export file)",
    details: [{ path: "", message: "expected an array" }]
  })

export const BansRoutes = HttpApiBuilder.group(BansApi, "bans", (handlers) =>
  Effect.gen(function* () {
    const bans = yield* Bans
    // Partners and bots poll the export: between ban changes every answer is the same bytes.
    const exportCache = makeJsonArrayCache({ maxChars: KEPT_EXPORT_MAX_CHARS })
    const caller = Effect.map(CurrentPrincipal, auditActorOf)
    // A store failure is a real fault: it becomes a 500 with a request id.
    return handlers
      // Lists and the export answer the database's own JSON (rows are trusted on the way out: see JsonRows).
      .handle("list", ({ urlParams }) =>
        bans.listJson(urlParams).pipe(
          Effect.map((page) => jsonPageResponse(page)),
          Effect.catchTags({ InvalidBan: fieldBadRequest, InvalidCursor: cursorBadRequest, BanStoreError: storeDefect })
        )
      )
      .handle("add", ({ payload }) =>
        Effect.flatMap(caller, (by) => bans.add(payload, by)).pipe(
          Effect.catchTags({ InvalidBan: fieldBadRequest, BanExists: exists, BanStoreError: storeDefect })
        )
      )
      .handle("get", ({ path }) => bans.get(path.id).pipe(Effect.catchTags({ BanNotFound: notFound, BanStoreError: storeDefect })))
      .handle("remove", ({ path }) =>
        Effect.flatMap(caller, (by) => bans.remove(path.id, by)).pipe(
          Effect.asVoid,
          Effect.catchTags({ BanNotFound: notFound, BanStoreError: storeDefect })
        )
      )
      .handle("export", () =>
        Effect.gen(function* () {
          const name = exportFileName(yield* Clock.currentTimeMillis)
          return yield* exportCache.respond(bans.writeCount, bans.exportJson, { "content-disposition": `attachment; filename="${name}"` })
        })
      )
      .handle("import", ({ payload }) =>
        isArray(payload)
          ? Effect.flatMap(caller, (by) => bans.importMany(payload, by)).pipe(Effect.catchTag("BanStoreError", storeDefect))
          : Effect.fail(notAnArray())
      )
  })
)
