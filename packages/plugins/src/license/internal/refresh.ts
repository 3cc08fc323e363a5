/**
 * The refresh job: one check of the license with the server (every 6
 * hours, and at start when the last check is older), stored, with a log
 * line when the standing changes. A check that does not reach the server
 * counts as offline, which the grace period covers.
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import { REFRESH_INTERVAL } from "../config.js"
import { type LicenseStoreError, storeError } from "../errors.js"
import type { LicenseContext } from "./context.js"
import { verifyToken } from "./server.js"
import { describeStanding, standingAt, type StoredLicense } from "./state.js"
import { saveLicense } from "./store.js"

export const makeRefresh = (ctx: LicenseContext): Effect.Effect<void, LicenseStoreError> =>
  ctx.lock.withPermits(1)(
    Effect.gen(function* () {
      const { server, machineId } = ctx
      yield* Effect.flatMap(Clock.currentTimeMillis, (now) => Ref.set(ctx.lastRun, now))
      const license = yield* Ref.get(ctx.current)
      const verifying = yield* Ref.get(ctx.verifyingKey)
      if (license === undefined || Option.isNone(server) || Option.isNone(verifying)) return
      const answer = yield* Effect.either(server.value.refresh(license.key, machineId, license.claims.licenseId))
      const now = yield* Clock.currentTimeMillis
      const attempted = { ...license, lastAttemptAt: now }
      const offline = (message: string): StoredLicense => ({ ...attempted, offline: true, lastError: message })
      let next: StoredLicense
      if (Either.isLeft(answer)) next = offline(answer.left.message)
      else {
        const reply = answer.right
        switch (reply._tag) {
          case "Token": {
            const claims = yield* Effect.either(verifyToken(reply.token, verifying.value, machineId, now))
            // A token that does not verify proves nothing: as if the server had not answered.
            next = Either.isLeft(claims)
              ? offline(claims.left.message)
              : {
                  ...attempted,
                  token: reply.token,
                  claims: claims.right,
                  checkedAt: now,
                  offline: false,
                  lastError: null,
                  pastDueSince: claims.right.standing === "past_due" ? (license.pastDueSince ?? now) : null,
                  revokedAt: null
                }
            break
          }
          case "PastDue":
            next = { ...attempted, checkedAt: now, offline: false, lastError: `payment failed: ${reply.message}`, pastDueSince: license.pastDueSince ?? now }
            break
          case "Withdrawn":
            next = {
              ...attempted,
              checkedAt: now,
              offline: false,
              lastError: `the license server withdrew the license (${reply.status}): ${reply.message}`,
              revokedAt: license.revokedAt ?? now
            }
            break
        }
      }
      yield* saveLicense(ctx.sql, ctx.box, next).pipe(Effect.mapError(storeError("store the license's check")))
      yield* Ref.set(ctx.current, next)
      const before = standingAt(license, now).state
      const after = standingAt(next, now)
      if (after.state !== before) {
        const line = `license: ${before} -> ${after.state}: ${describeStanding(true, next, after)}`
        yield* after.state === "active" ? Effect.logInfo(line) : Effect.logWarning(line)
      } else if (next.offline) yield* Effect.logWarning(`license: refresh failed: ${next.lastError}`)
    })
  )

/** `refresh` when the last check is older than the refresh interval. */
export const makeRefreshIfDue = (ctx: LicenseContext, refresh: Effect.Effect<void, LicenseStoreError>) =>
  Effect.gen(function* () {
    const license = yield* Ref.get(ctx.current)
    const now = yield* Clock.currentTimeMillis
    if (license !== undefined && now - license.checkedAt >= Duration.toMillis(REFRESH_INTERVAL)) yield* refresh
  })
