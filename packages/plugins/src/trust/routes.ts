/** The handlers behind `TrustApi`; the host has checked access (none for the public group, `trust.manage` for the admin's). */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import { auditActorOf, BadRequest, Conflict, CurrentPrincipal, NotFound, storeDefect } from "@garrison/runtime"
import { trustSettings } from "./config.js"
import { TrustApi } from "./contract/Api.js"
import type { InvalidTrustInput, TrustConflict, TrustNotFound } from "./errors.js"
import { capabilityDocument } from "./internal/capabilities.js"
import { Lookup } from "./Lookup.js"
import { PlayerLinks } from "./PlayerLinks.js"
import { Pool } from "./Pool.js"
import { TrustSigning } from "./Signing.js"

const invalid = (error: InvalidTrustInput) => Effect.fail(new BadRequest({ message: error.message, details: [{ path: error.field, message: error.message }] }))
const conflict = (error: TrustConflict) => Effect.fail(new Conflict({ message: error.message, details: error.details }))
const notFound = (error: TrustNotFound) => Effect.fail(new NotFound({ message: error.message }))
const caller = Effect.map(CurrentPrincipal, auditActorOf)

export const TrustPublicRoutes = HttpApiBuilder.group(TrustApi, "trustPublic", (handlers) =>
  Effect.gen(function* () {
    const lookup = yield* Lookup
    const signing = yield* TrustSigning
    const settings = yield* trustSettings
    const document = capabilityDocument({ communityName: settings.communityName, threshold: settings.threshold, publicJwk: signing.publicJwk })
    return handlers
      .handle("lookup", ({ path }) =>
        lookup.lookup(path.identifier).pipe(
          Effect.map((score) =>
            HttpServerResponse.unsafeJson(score, score.proof === undefined ? {} : { headers: { "x-service-trust-proof": score.proof } })
          ),
          Effect.catchTags({ InvalidTrustInput: invalid, TrustNotFound: notFound, TrustStoreError: storeDefect })
        )
      )
      .handle("capabilities", () => Effect.succeed(document))
  })
)

export const TrustAdminRoutes = HttpApiBuilder.group(TrustApi, "trustAdmin", (handlers) =>
  Effect.gen(function* () {
    const pool = yield* Pool
    const links = yield* PlayerLinks
    const settings = yield* trustSettings
    return handlers
      .handle("pool", ({ urlParams }) =>
        pool
          .list({ status: urlParams.status, platformId: urlParams.platformId, limit: urlParams.limit ?? 50 })
          .pipe(
            Effect.map((items) => ({ items })),
            Effect.catchTag("TrustStoreError", storeDefect)
          )
      )
      .handle("submit", ({ payload }) =>
        Effect.flatMap(caller, (by) => pool.submit(payload, by)).pipe(
          Effect.catchTags({ InvalidTrustInput: invalid, TrustConflict: conflict, TrustNotFound: notFound, TrustStoreError: storeDefect })
        )
      )
      .handle("overturn", ({ path, payload }) =>
        Effect.flatMap(caller, (by) => pool.overturn(path.id, payload.note, by)).pipe(
          Effect.catchTags({ TrustConflict: conflict, TrustNotFound: notFound, TrustStoreError: storeDefect })
        )
      )
      .handle("appeals", ({ urlParams }) =>
        pool.appeals(urlParams.status).pipe(
          Effect.map((items) => ({ items })),
          Effect.catchTag("TrustStoreError", storeDefect)
        )
      )
      .handle("appeal", ({ payload }) =>
        Effect.flatMap(caller, (by) => pool.appeal(payload.banId, payload.statement, by)).pipe(
          Effect.catchTags({ TrustConflict: conflict, TrustNotFound: notFound, TrustStoreError: storeDefect })
        )
      )
      .handle("decide", ({ path, payload }) =>
        Effect.flatMap(caller, (by) => pool.decide(path.id, payload.decision, payload.note, by)).pipe(
          Effect.catchTags({ TrustConflict: conflict, TrustNotFound: notFound, TrustStoreError: storeDefect })
        )
      )
      .handle("communities", () =>
        pool.communities.pipe(
          Effect.map((items) => ({ items, threshold: settings.threshold })),
          Effect.catchTag("TrustStoreError", storeDefect)
        )
      )
      .handle("review", ({ path, payload }) =>
        Effect.flatMap(caller, (by) => pool.review(path.id, payload.weight, by)).pipe(
          Effect.catchTags({ InvalidTrustInput: invalid, TrustNotFound: notFound, TrustStoreError: storeDefect })
        )
      )
      .handle("chatLinks", () =>
        links.list.pipe(
          Effect.map((items) => ({ items })),
          Effect.catchTag("TrustStoreError", storeDefect)
        )
      )
      .handle("link", ({ path, payload }) => Effect.flatMap(caller, (by) => links.link(path.chatUserId, payload.platformId, by)).pipe(Effect.catchTag("TrustStoreError", storeDefect)))
      .handle("unlink", ({ path }) =>
        Effect.flatMap(caller, (by) => links.unlink(path.chatUserId, by)).pipe(
          Effect.as({ unlinked: path.chatUserId }),
          Effect.catchTags({ TrustNotFound: notFound, TrustStoreError: storeDefect })
        )
      )
  })
)
