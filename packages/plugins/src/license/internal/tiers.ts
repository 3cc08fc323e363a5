/**
 * The tiers the license server offers (cached for `TIERS_TTL`, not asked
 * again for `TIERS_RETRY` after a failure) and the licensed features of the
 * installed plugins, each with whether the current license is entitled to it.
 */
import * as Clock from "effect/Clock"
import type * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import type { PluginRegistry } from "@garrison/runtime"
import { TIERS_RETRY, TIERS_TTL } from "../config.js"
import { GatedFeature, LicenseTier, LicenseTiers } from "../contract/Api.js"
import type { LicenseContext } from "./context.js"
import type { TiersAnswer } from "./server.js"
import { entitledTo } from "./state.js"
import { isoOf } from "@garrison/runtime"

export const makeTiers = (ctx: LicenseContext, registry: Context.Tag.Service<PluginRegistry>) =>
  Effect.gen(function* () {
    const tiersCache = yield* Ref.make<{ readonly answer: TiersAnswer; readonly at: number } | undefined>(undefined)
    const tiersFailedAt = yield* Ref.make<number | undefined>(undefined)
    const { server, configured } = ctx

    return Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      let cached = yield* Ref.get(tiersCache)
      const failedAt = yield* Ref.get(tiersFailedAt)
      const stale = cached === undefined || now - cached.at >= Duration.toMillis(TIERS_TTL)
      const mayTry = failedAt === undefined || now - failedAt >= Duration.toMillis(TIERS_RETRY)
      if (Option.isSome(server) && stale && mayTry) {
        const fetched = yield* Effect.either(server.value.tiers)
        if (Either.isRight(fetched)) {
          cached = { answer: fetched.right, at: now }
          yield* Ref.set(tiersCache, cached)
          yield* Ref.set(tiersFailedAt, undefined)
        } else {
          yield* Ref.set(tiersFailedAt, now)
          yield* Effect.logWarning(`license: tiers not read: ${fetched.left.message}`)
        }
      }
      const license = configured ? yield* Ref.get(ctx.current) : undefined
      const counts = new Map<string, number>()
      for (const route of registry.plan.routes) if (route.feature !== undefined) counts.set(route.feature, (counts.get(route.feature) ?? 0) + 1)
      return new LicenseTiers({
        edition: configured ? "licensed" : "community",
        tiers: configured ? (cached?.answer.tiers ?? []).map((tier) => new LicenseTier(tier)) : [],
        current: license === undefined ? null : license.claims.tier,
        features: [...counts.entries()]
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(
            ([name, routes]) =>
              new GatedFeature({ name, routes, entitled: !configured || (license !== undefined && entitledTo(license.claims, name)) })
          ),
        fetchedAt: configured && cached !== undefined ? isoOf(cached.at) : null
      })
    })
  })
