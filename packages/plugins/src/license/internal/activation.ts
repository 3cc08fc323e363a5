/**
 * Activation and removal of the license: each asks the license server,
 * stores or deletes the row with its audit record in one transaction, then
 * updates the license held in memory. Both run under the lock.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import { type AuditActor, isoOf, recordForRequest } from "@garrison/runtime"
import type { LicenseStatus } from "../contract/Api.js"
import { CommunityEdition, type KeyRefused, type LicenseServerFailed, type LicenseStoreError, NoLicense, storeError } from "../errors.js"
import type { LicenseContext } from "./context.js"
import { verifyToken } from "./server.js"
import type { StoredLicense } from "./state.js"
import { asAdmin, type StatusView } from "./status.js"
import { deleteLicense, saveLicense } from "./store.js"

export const makeActivate =
  (ctx: LicenseContext, status: StatusView) =>
  (key: string, by: AuditActor): Effect.Effect<LicenseStatus, CommunityEdition | KeyRefused | LicenseServerFailed | LicenseStoreError> =>
    ctx.lock.withPermits(1)(
      Effect.gen(function* () {
        const { server, machineId } = ctx
        if (Option.isNone(server)) {
          return yield* new CommunityEdition({
            message: "community edition: no license server is configured (set LICENSE_SERVER_URL), so there is no license to activate"
          })
        }
        const previous = yield* Ref.get(ctx.current)
        // The configured key; else the one pinned by an earlier activation; else the server's, pinned from now on.
        const pinned = yield* Ref.get(ctx.verifyingKey)
        const verifying = Option.isSome(pinned) ? pinned.value : yield* server.value.publicKey
        const token = yield* server.value.activate(key, machineId)
        const now = yield* Clock.currentTimeMillis
        const claims = yield* verifyToken(token, verifying, machineId, now)
        const license: StoredLicense = {
          key,
          token,
          claims,
          pinnedKey: Option.isSome(ctx.configuredKey) ? null : JSON.stringify(verifying.jwk),
          activatedAt: now,
          activatedBy: by.id,
          checkedAt: now,
          lastAttemptAt: now,
          lastError: null,
          offline: false,
          pastDueSince: claims.standing === "past_due" ? now : null,
          revokedAt: null
        }
        yield* Effect.zipRight(
          saveLicense(ctx.sql, ctx.box, license),
          recordForRequest(ctx.audit, {
            actor: by.id,
            actorName: by.name,
            action: "license.activate",
            target: claims.licenseId,
            result: "success",
            details: {
              tier: claims.tier,
              entitlements: claims.entitlements,
              expiresAt: isoOf(claims.expiresAt),
              ...(previous === undefined ? {} : { replaced: previous.claims.licenseId })
            }
          })
        ).pipe(ctx.sql.withTransaction, Effect.mapError(storeError("store the license")))
        yield* Ref.set(ctx.current, license)
        yield* Ref.set(ctx.verifyingKey, Option.some(verifying))
        yield* Effect.logInfo(`license: ${claims.licenseId} (tier ${claims.tier}) activated until ${isoOf(claims.expiresAt)}`)
        return yield* status(asAdmin)
      })
    )

export const makeRemove =
  (ctx: LicenseContext, status: StatusView) =>
  (by: AuditActor): Effect.Effect<LicenseStatus, NoLicense | LicenseStoreError> =>
    ctx.lock.withPermits(1)(
      Effect.gen(function* () {
        const license = yield* Ref.get(ctx.current)
        if (license === undefined) return yield* new NoLicense({ message: "no license is activated" })
        yield* Effect.zipRight(
          deleteLicense(ctx.sql),
          recordForRequest(ctx.audit, {
            actor: by.id,
            actorName: by.name,
            action: "license.remove",
            target: license.claims.licenseId,
            result: "success",
            details: { tier: license.claims.tier }
          })
        ).pipe(ctx.sql.withTransaction, Effect.mapError(storeError("remove the license")))
        yield* Ref.set(ctx.current, undefined)
        yield* Ref.set(ctx.verifyingKey, ctx.configuredKey)
        yield* Effect.logInfo(`license: ${license.claims.licenseId} removed`)
        if (Option.isSome(ctx.server)) yield* ctx.server.value.deactivate(license.key, ctx.machineId)
        return yield* status(asAdmin)
      })
    )
