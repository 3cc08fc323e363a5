/** The handlers behind `TrustApi`; the host has checked access (none for the public group, `trust.manage` for the admin's). */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { auditActorOf, BadRequest, Conflict, CurrentPrincipal, NotFound, storeDefect, Unauthenticated } from "@garrison/runtime"
import { trustSettings } from "./config.js"
import { TrustApi } from "./contract/Api.js"
import type { InvalidTrustInput, TrustConflict, TrustNotFound } from "./errors.js"
import { capabilityDocument } from "./internal/capabilities.js"
import { Export } from "./Export.js"
import { TIERS } from "./internal/tiers.js"
import { Lookup } from "./Lookup.js"
import { PartnerKeys } from "./PartnerKeys.js"
import { Subscriptions } from "./Subscriptions.js"
import { PlayerLinks } from "./PlayerLinks.js"
import { Pool } from "./Pool.js"
import { TrustSigning } from "./Signing.js"

const invalid = (error: InvalidTrustInput) => Effect.fail(new BadRequest({ message: error.message, details: [{ path: error.field, message: error.message }] }))
const conflict = (error: TrustConflict) => Effect.fail(new Conflict({ message: error.message, details: error.details }))
const notFound = (error: TrustNotFound) => Effect.fail(new NotFound({ message: error.message }))
const caller = Effect.map(CurrentPrincipal, auditActorOf)

/** The partner key a request carries: `Authorization: Bearer <key>` or `x-service-partner-key`. */
const presentedKey = (headers: Readonly<Record<string, string | undefined>>): string | undefined => {
  const bearer = /^Bearer[ ]+(\S+)[ ]*$/i.exec(headers["authorization"] ?? "")?.[1]
  const header = headers["x-service-partner-key"]?.trim()
  return bearer ?? (header === undefined || header === "" ? undefined : header)
}

const tooMany = (seconds: number) =>
  HttpServerResponse.unsafeJson(
    { error: "rate-limited", message: `this partner key's tier allows no more export requests this minute; retry in ${seconds} s` },
    { status: 429, headers: { "retry-after": String(seconds) } }
  )

export const TrustPublicRoutes = HttpApiBuilder.group(TrustApi, "trustPublic", (handlers) =>
  Effect.gen(function* () {
    const lookup = yield* Lookup
    const signing = yield* TrustSigning
    const settings = yield* trustSettings
    const exporter = yield* Export
    const partners = yield* PartnerKeys
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
      .handle("export", ({ urlParams }) =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const key = presentedKey(request.headers)
          const partner = key === undefined ? Option.none() : yield* partners.partnerOf(key)
          if (Option.isNone(partner)) {
            return yield* Effect.fail(
              new Unauthenticated({ message: "a partner key is required (Authorization: Bearer <key> or x-service-partner-key); this one is unknown or revoked" })
            )
          }
          const wait = yield* partners.pace(partner.value)
          if (wait !== undefined) return tooMany(wait)
          return HttpServerResponse.unsafeJson(yield* exporter.page(urlParams, partner.value))
        }).pipe(Effect.catchTags({ InvalidTrustInput: invalid, TrustStoreError: storeDefect }))
      )
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

export const TrustPartnerKeysRoutes = HttpApiBuilder.group(TrustApi, "trustPartnerKeys", (handlers) =>
  Effect.gen(function* () {
    const keys = yield* PartnerKeys
    return handlers
      .handle("list", () =>
        keys.list.pipe(
          Effect.map((items) => ({ items, tiers: TIERS })),
          Effect.catchTag("TrustStoreError", storeDefect)
        )
      )
      .handle("issue", ({ payload }) =>
        Effect.flatMap(caller, (by) => keys.issue(payload.name, payload.tier, by)).pipe(
          Effect.map(({ key, record }) => ({ key, partnerKey: record })),
          Effect.catchTags({ InvalidTrustInput: invalid, TrustStoreError: storeDefect })
        )
      )
      .handle("revoke", ({ path }) =>
        Effect.flatMap(caller, (by) => keys.revoke(path.id, by)).pipe(Effect.catchTags({ TrustNotFound: notFound, TrustStoreError: storeDefect }))
      )
  })
)

export const TrustSubscriptionsRoutes = HttpApiBuilder.group(TrustApi, "trustSubscriptions", (handlers) =>
  Effect.gen(function* () {
    const subscriptions = yield* Subscriptions
    return handlers
      .handle("list", () =>
        subscriptions.list.pipe(
          Effect.map((items) => ({ items })),
          Effect.catchTag("TrustStoreError", storeDefect)
        )
      )
      .handle("create", ({ payload }) =>
        Effect.flatMap(caller, (by) => subscriptions.create(payload, by)).pipe(
          Effect.catchTags({ InvalidTrustInput: invalid, TrustConflict: conflict, TrustStoreError: storeDefect })
        )
      )
      .handle("update", ({ path, payload }) =>
        Effect.flatMap(caller, (by) => subscriptions.update(path.id, payload, by)).pipe(
          Effect.catchTags({ InvalidTrustInput: invalid, TrustNotFound: notFound, TrustStoreError: storeDefect })
        )
      )
      .handle("remove", ({ path, urlParams }) =>
        Effect.flatMap(caller, (by) => subscriptions.remove(path.id, urlParams.liftBans === "true", by)).pipe(
          Effect.map(({ lifted }) => ({ removed: path.id, lifted })),
          Effect.catchTags({ TrustNotFound: notFound, TrustStoreError: storeDefect })
        )
      )
      .handle("pull", ({ path }) =>
        subscriptions.pull(path.id).pipe(
          Effect.flatMap((report) => Effect.map(subscriptions.get(path.id), (subscription) => ({ ...report, subscription }))),
          Effect.catchTags({ TrustNotFound: notFound, TrustConflict: conflict, TrustStoreError: storeDefect })
        )
      )
  })
)
