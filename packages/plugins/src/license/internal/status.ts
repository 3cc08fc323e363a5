/**
 * The license's status as a viewer may see it: its standing now, the
 * claims, the dates of its checks; admins also see the server, the machine
 * id, the last error and the key tokens are checked with.
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import { ADMIN, isoOf, isoOrNull, type Principal } from "@garrison/runtime"
import { displayUrl, REFRESH_INTERVAL } from "../config.js"
import { LicenseClaimsView, LicensePublicKey, LicenseStatus } from "../contract/Api.js"
import type { LicenseContext } from "./context.js"
import { describeStanding, readOnlyIn, standingAt } from "./state.js"

export type StatusView = (viewer: Pick<Principal, "permissions">) => Effect.Effect<LicenseStatus>

/** A viewer who sees everything: what activation and removal answer with. */
export const asAdmin = { permissions: new Set([ADMIN]) }

export const makeStatus =
  (ctx: LicenseContext): StatusView =>
  (viewer) =>
    Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const stored = yield* Ref.get(ctx.current)
      const license = ctx.configured ? stored : undefined
      const standing = standingAt(license, now)
      const admin = viewer.permissions.has(ADMIN)
      const verifying = yield* Ref.get(ctx.verifyingKey)
      return new LicenseStatus({
        edition: ctx.configured ? "licensed" : "community",
        state: standing.state,
        message: describeStanding(ctx.configured, license, standing),
        gated: ctx.configured,
        readOnly: ctx.configured && readOnlyIn(standing.state),
        license:
          license === undefined
            ? null
            : new LicenseClaimsView({
                id: license.claims.licenseId,
                tier: license.claims.tier,
                holder: license.claims.holder,
                entitlements: license.claims.entitlements,
                issuedAt: isoOf(license.claims.issuedAt),
                expiresAt: isoOf(license.claims.expiresAt),
                standing: license.claims.standing
              }),
        activatedAt: license === undefined ? null : isoOf(license.activatedAt),
        checkedAt: license === undefined ? null : isoOf(license.checkedAt),
        lastAttemptAt: license === undefined ? null : isoOrNull(license.lastAttemptAt),
        nextRefreshAt: license === undefined ? null : isoOf((yield* Ref.get(ctx.lastRun)) + Duration.toMillis(REFRESH_INTERVAL)),
        graceEndsAt: isoOrNull(standing.graceEndsAt),
        server: admin ? Option.getOrNull(Option.map(ctx.settings.serverUrl, displayUrl)) : null,
        machineId: admin ? ctx.machineId : null,
        lastError: admin && license !== undefined ? license.lastError : null,
        publicKey:
          admin && ctx.configured && Option.isSome(verifying)
            ? new LicensePublicKey({ source: Option.isSome(ctx.configuredKey) ? "configured" : "pinned", thumbprint: verifying.value.thumbprint })
            : null
      })
    })
