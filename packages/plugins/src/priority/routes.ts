/** The handlers behind `PriorityApi`; the host has already checked `priority.manage`. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import {
  conflictWith,
  CurrentPrincipal,
  cursorBadRequest,
  fieldBadRequest,
  jsonArrayResponse,
  jsonPageResponse,
  notFoundWith,
  storeDefect
} from "@garrison/runtime"
import { PriorityApi } from "./contract/Api.js"
import type { PriorityEntryExists, PriorityEntryNotFound } from "./errors.js"
import { PriorityQueue } from "./PriorityQueue.js"

const notFound = notFoundWith((error: PriorityEntryNotFound) => `no priority entry with id "${error.id}"`)
const exists = conflictWith(
  (error: PriorityEntryExists) => `player ${error.platformId} already has a priority entry`,
  (error) => ({ id: error.id })
)

/** `service-priority-YYYY-MM-DD.json`, dated by the controller's clock (UTC). */
export const exportFileName = (ms: number): string => `service-priority-${new Date(ms).toISOString().slice(0, 10)}.json`

export const PriorityRoutes = HttpApiBuilder.group(PriorityApi, "priority", (handlers) =>
  Effect.gen(function* () {
    const queue = yield* PriorityQueue
    const caller = Effect.map(CurrentPrincipal, (p) => p.name)
    // A store failure is a real fault: it becomes a 500 with a request id.
    return handlers
      // The list and the export answer the database's own JSON (rows are trusted on the way out: see JsonRows).
      .handle("list", ({ urlParams }) =>
        queue.listJson(urlParams).pipe(
          Effect.map((page) => jsonPageResponse(page)),
          Effect.catchTags({ InvalidCursor: cursorBadRequest, PriorityStoreError: storeDefect })
        )
      )
      .handle("add", ({ payload }) =>
        Effect.flatMap(caller, (name) => queue.add(payload, name)).pipe(
          Effect.catchTags({ InvalidPriorityEntry: fieldBadRequest, PriorityEntryExists: exists, PriorityStoreError: storeDefect })
        )
      )
      .handle("update", ({ path, payload }) =>
        queue.update(path.id, payload).pipe(
          Effect.catchTags({ InvalidPriorityEntry: fieldBadRequest, PriorityEntryNotFound: notFound, PriorityStoreError: storeDefect })
        )
      )
      .handle("remove", ({ path }) =>
        queue.remove(path.id).pipe(Effect.catchTags({ PriorityEntryNotFound: notFound, PriorityStoreError: storeDefect }))
      )
      // Streamed chunk by chunk; a store failure after the first bytes truncates the download (see jsonArrayResponse).
      .handle("export", () =>
        Effect.flatMap(Clock.currentTimeMillis, (ms) =>
          jsonArrayResponse(queue.exportJson, { "content-disposition": `attachment; filename="${exportFileName(ms)}"` })
        )
      )
      .handle("import", ({ payload }) =>
        Effect.flatMap(caller, (name) => queue.importEntries(payload, name)).pipe(Effect.catchTag("PriorityStoreError", storeDefect))
      )
      .handle("cleanup", () => queue.cleanup.pipe(Effect.catchTag("PriorityStoreError", storeDefect)))
  })
)
